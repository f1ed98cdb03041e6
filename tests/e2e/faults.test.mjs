// The fault menu: a valid fault changes the run, a malformed one is explained
// and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, launch, openPage, serveSite } from './harness.mjs';

// Runs in the page: `n` is passed as the argument.
const allOwned = (n) => {
  const rows = [...document.querySelectorAll('tr[data-partition]')];
  return rows.length === n && rows.every((r) => r.dataset.owner)
    && document.querySelector('[data-group="demo"]').dataset.groupState === 'Stable';
};

test('adding partitions from the fault menu rebalances; bad input shows an error and keeps the run', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(allOwned, 6, { timeout: 30000 });

    await page.selectOption('#fault-type', 'addPartitions');
    await page.fill('#fault-a', 'orders');
    await page.fill('#fault-value', '9');
    await page.click('#inject');
    await page.waitForFunction(allOwned, 9, { timeout: 30000 });
    assert.ok(Number(await page.getAttribute('[data-group="demo"]', 'data-generation')) >= 2);
    assert.match(await page.textContent('#event-log'), /new partitions of orders/);

    await page.click('#play'); // pause
    const clock = await page.textContent('#clock');
    await page.selectOption('#fault-type', 'crashConsumer');
    await page.fill('#fault-a', 'zz');
    await page.click('#inject');
    assert.match(await page.textContent('#fault-error'), /'zz' is not a consumer/);
    assert.equal(await page.textContent('#clock'), clock, 'nothing ran');
    assert.equal(await page.locator('tr[data-partition]').count(), 9, 'the run is intact');
    for (const m of ['c1', 'c2', 'c3']) {
      assert.notEqual(await page.getAttribute(`g[data-member="${m}"]`, 'data-state'), 'crashed');
    }
    // Keyboard: focus a node, Enter selects it, Tab reaches its actions (broker-0 is not the coordinator of demo).
    await page.focus('g[data-broker="0"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#inspector h2');
    assert.match(await page.textContent('#inspector h2'), /broker-0/);
    await page.focus('#inspector button[data-fault="killBroker"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('g[data-broker="0"].dead', { timeout: 5000 });
    await page.screenshot({ path: join(ARTIFACTS, 'fault-menu.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
