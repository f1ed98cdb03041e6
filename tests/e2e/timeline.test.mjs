// Time travel and sharing: the scrubber seeks, a permalink (compressed, #z=)
// reopens the exact moment (with the injected fault), damaged links are
// explained, browsers without CompressionStream write and read #run= links,
// presenter mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ARTIFACTS, launch, openPage, serveSite, withPage } from './harness.mjs';

/** The JSON inside a permalink of either form. */
function linkJson(url) {
  const fields = new URL(url).hash.slice(1).split('&');
  const z = fields.find((f) => f.startsWith('z='));
  if (z) return JSON.parse(inflateRawSync(Buffer.from(z.slice(2), 'base64url')).toString('utf8'));
  const run = fields.find((f) => f.startsWith('run='));
  return JSON.parse(Buffer.from(run.slice(4), 'base64url').toString('utf8'));
}

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
    assert.ok(await page.locator('.marker.stable').count() >= 2, 'the group settling is marked too');

    const clock = await page.textContent('#clock');
    const before = await owners(page);
    await page.click('#permalink');
    // Compressing takes the browser a moment; the address bar and the field then hold the link.
    await page.waitForSelector('#permalink-url');
    const url = await page.inputValue('#permalink-url');
    assert.match(url, /#z=[A-Za-z0-9_-]+$/);
    assert.equal(await page.evaluate(() => location.href), url);
    // Standard raw deflate: Node's zlib reads it; shorter than the same JSON as #run=.
    const run = linkJson(url);
    assert.equal(run.v, 1);
    assert.equal(`t = ${(run.at / 1000).toFixed(1)} s`, clock);
    assert.equal(run.script[0][1].type, 'crashConsumer');
    const plain = Buffer.from(JSON.stringify(run)).toString('base64url');
    assert.ok(new URL(url).hash.length < plain.length * 0.75, `#z= is ${new URL(url).hash.length} characters, #run= would be ${plain.length}`);

    // Scrub back to the start: nobody owns anything, c2 is alive again.
    await page.$eval('#timeline', (el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    assert.equal(await page.textContent('#clock'), 't = 0.0 s');
    assert.notEqual(await page.getAttribute('g[data-member="c2"]', 'data-state'), 'crashed');
    // The later marks stay on the scrubber: the run will find them again.
    assert.ok(await page.locator('.marker.fault').count() >= 1, 'the crash is still marked after scrubbing back');
    assert.ok(await page.locator('.marker.rebalance').count() >= 2, 'and the rebalances after it');

    const again = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await again.goto(url);
    await again.waitForSelector('#play');
    assert.equal(await again.textContent('#clock'), clock, 'the link reopens the same moment');
    assert.equal(await owners(again), before, 'with the same owners');
    assert.equal(await again.getAttribute('g[data-member="c2"]', 'data-state'), 'crashed', 'and the injected crash');
    await again.close();

    // Damaged links of both forms: explained, the demo instead, the address bar untouched.
    const notJson = deflateRawSync(Buffer.from('{"v": 1, "scenario"')).toString('base64url');
    const truncated = new URL(url).hash.slice(0, 60);
    for (const hash of ['#run=not-a-run', '#z=not-a-run', '#z=!!!', `#z=${notJson}`, truncated]) {
      const broken = await browser.newPage();
      await broken.goto(site.url + hash);
      await broken.waitForSelector('#play');
      assert.match(await broken.textContent('#notice'), /Could not open this link: the link is damaged/, hash);
      assert.equal(await broken.locator('[data-member]').count(), 3, 'the demo loads instead');
      assert.equal(await broken.evaluate(() => location.hash), hash, 'the link stays in the address bar');
      await broken.close();
    }
    const zh = await browser.newPage();
    await zh.goto(`${site.url}#lang=zh&z=${notJson}`);
    await zh.waitForSelector('#play');
    assert.match(await zh.textContent('#notice'), /无法打开这个链接：the link is damaged/);
    await zh.screenshot({ path: join(ARTIFACTS, 'damaged-link.png') });
    await zh.close();

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

/** The same run on any page: c1 crashes at 9 s, the playhead at 18 s. */
async function crashC1(page) {
  await page.evaluate(() => window.groupscope.seek(9000));
  await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 1}'));
  await page.evaluate(() => window.groupscope.seek(18000));
}

/** Opens `url` in a fresh page and checks it shows crashC1's moment. */
async function opensCrashC1(browser, url, clock) {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('#play');
  assert.equal(await page.textContent('#clock'), clock);
  assert.equal(await page.getAttribute('g[data-member="c1"]', 'data-state'), 'crashed');
  return page;
}

test('compressed links carry the language; without CompressionStream the page writes and reads #run= links', () => withPage(async ({ page, browser }) => {
  await page.selectOption('#lang', 'zh-CN');
  await crashC1(page);
  const clock = await page.textContent('#clock');
  await page.click('#permalink');
  await page.waitForSelector('#permalink-url');
  const zUrl = await page.inputValue('#permalink-url');
  assert.match(zUrl, /#lang=zh&z=/);
  const again = await opensCrashC1(browser, zUrl, clock);
  assert.equal(await again.textContent('#play'), '播放', 'the language comes back with the run');
  await again.close();

  // A browser without CompressionStream: the same moment as an uncompressed #run= link.
  const old = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await old.addInitScript(() => { delete window.CompressionStream; delete window.DecompressionStream; });
  await old.goto(zUrl);
  await old.waitForSelector('#play');
  assert.match(await old.textContent('#notice'), /cannot inflate compressed links/, 'a #z= link it cannot read is explained');
  await crashC1(old);
  await old.click('#permalink');
  await old.waitForSelector('#permalink-url');
  const runUrl = await old.inputValue('#permalink-url');
  assert.match(runUrl, /#lang=zh&run=[A-Za-z0-9_-]+$/);
  assert.deepEqual(linkJson(runUrl), linkJson(zUrl), 'both forms carry the same run');
  await old.close();

  // An uncompressed link (and every #run= link made before #z=) still opens.
  await (await opensCrashC1(browser, runUrl, clock)).close();
  console.log(`link lengths (demo, one crash): #z= ${new URL(zUrl).hash.length}, #run= ${new URL(runUrl).hash.length} characters`);
}));
