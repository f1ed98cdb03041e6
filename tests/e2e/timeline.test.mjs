// Time travel and sharing: the scrubber seeks, a permalink reopens the exact
// moment (with the injected fault), a damaged link is explained, presenter mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, launch, openPage, serveSite } from './harness.mjs';

const owners = (page) => page.$$eval('tr[data-partition]', (rows) => rows.map((r) => `${r.dataset.partition}=${r.dataset.owner}`).join(' '));

test('scrub, permalink round trip, damaged link, presenter mode', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(() => document.querySelector('[data-group="demo"]').dataset.groupState === 'Stable');
    // A click selects c2; its inspector offers every fault for it.
    await page.click('g[data-member="c2"] circle.body');
    await page.click('#inspector button[data-fault="crashConsumer"]');
    // yew re-renders asynchronously after the click.
    await page.waitForSelector('g[data-member="c2"][data-state="crashed"]', { timeout: 5000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-group="demo"]').dataset.generation) >= 2
      && document.querySelector('[data-group="demo"]').dataset.groupState === 'Stable', null, { timeout: 30000 });
    await page.click('#play'); // pause
    assert.ok(await page.locator('.marker.fault').count() >= 1, 'the crash is marked on the timeline');
    assert.ok(await page.locator('.marker.rebalance').count() >= 2);

    const clock = await page.textContent('#clock');
    const before = await owners(page);
    await page.click('#permalink');
    const url = await page.inputValue('#permalink-url');
    assert.match(url, /#run=/);

    // Scrub back to the start: nobody owns anything, c2 is alive again.
    await page.$eval('#timeline', (el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    assert.equal(await page.textContent('#clock'), 't = 0.0 s');
    assert.notEqual(await page.getAttribute('g[data-member="c2"]', 'data-state'), 'crashed');

    const again = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await again.goto(url);
    await again.waitForSelector('#play');
    assert.equal(await again.textContent('#clock'), clock, 'the link reopens the same moment');
    assert.equal(await owners(again), before, 'with the same owners');
    assert.equal(await again.getAttribute('g[data-member="c2"]', 'data-state'), 'crashed', 'and the injected crash');
    await again.close();

    const broken = await browser.newPage();
    await broken.goto(site.url + '#run=not-a-run');
    await broken.waitForSelector('#play');
    assert.match(await broken.textContent('#notice'), /Could not open this link: the link is damaged/);
    assert.equal(await broken.locator('[data-member]').count(), 3, 'the demo loads instead');
    await broken.close();

    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('#presenter', 'aria-pressed'), 'true');
    assert.ok(await page.$eval('.groupscope', (el) => el.classList.contains('presenter')));
    const logged = await page.locator('#event-log li').count();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    assert.ok(await page.locator('#event-log li').count() > logged, 'arrow keys step (clicker)');
    await page.screenshot({ path: join(ARTIFACTS, 'presenter.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
