// The vertical slice, as a user does it: play, watch the group form, crash a
// consumer, see its partitions move to the survivors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ARTIFACTS, ROOT, launch, openPage, serveSite, withPage } from './harness.mjs';

async function owners(page) {
  return page.$$eval('tr[data-partition]', (rows) => rows.map((r) => [r.dataset.partition, r.dataset.owner]));
}

test('play forms the group, crashing a consumer reassigns its partitions', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    assert.equal(await page.locator('[data-member]').count(), 3, 'three consumers drawn');
    assert.equal(await page.locator('tr[data-partition]').count(), 6, 'orders has six partitions');

    await page.selectOption('#speed', '10');
    await page.click('#play');
    // The initial join waits out group.initial.rebalance.delay.ms, then range assigns 2 partitions each.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('tr[data-partition]')];
      return rows.length === 6 && rows.every((r) => r.dataset.owner)
        && document.querySelector('[data-group="demo"]').dataset.groupState === 'Stable';
    }, null, { timeout: 30000 });
    const before = await owners(page);
    const c2 = before.filter(([, o]) => o === 'c2').map(([p]) => p);
    assert.equal(c2.length, 2, `range gives c2 two of six partitions: ${JSON.stringify(before)}`);
    assert.match(await page.textContent('#event-log'), /MEMBER_ID_REQUIRED/, 'the log shows the MEMBER_ID_REQUIRED round trip');
    await page.screenshot({ path: join(ARTIFACTS, 'slice-stable.png') });

    // A click selects c2; its inspector offers every fault for it.
    await page.click('g[data-member="c2"] circle.body');
    await page.click('#inspector button[data-fault="crashConsumer"]');
    // yew re-renders asynchronously after the click.
    await page.waitForSelector('g[data-member="c2"][data-state="crashed"]', { timeout: 5000 });
    // After session.timeout.ms the coordinator removes c2 and the survivors rejoin.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('tr[data-partition]')];
      const g = document.querySelector('[data-group="demo"]');
      return rows.every((r) => r.dataset.owner && r.dataset.owner !== 'c2')
        && g.dataset.groupState === 'Stable' && Number(g.dataset.generation) >= 2;
    }, null, { timeout: 60000 });
    const after = await owners(page);
    for (const p of c2) {
      const owner = after.find(([q]) => q === p)[1];
      assert.ok(owner === 'c1' || owner === 'c3', `${p} moved to a survivor, got ${owner}`);
    }
    const log = await page.textContent('#event-log');
    assert.match(log, /session\.timeout\.ms/, 'the log narrates the session timeout');
    await page.screenshot({ path: join(ARTIFACTS, 'slice-after-crash.png') });

    assert.deepEqual(foreign, [], 'no request leaves the site');
    assert.deepEqual(errors, [], 'no failed request or page error');
  } finally {
    await browser.close();
    site.close();
  }
});

test('the shipped build gives the same trace as the native build (determinism)', () => withPage(async ({ page }) => {
  // tests/golden/crash.trace-hash is the native hash of scenarios/crash.json
  // run to 40 s (tests/determinism.rs); the site is built with a different
  // std (optimize_for_size) and must still agree.
  const scenario = readFileSync(join(ROOT, 'scenarios', 'crash.json'), 'utf8');
  const golden = readFileSync(join(ROOT, 'tests', 'golden', 'crash.trace-hash'), 'utf8').trim();
  await page.evaluate((s) => window.groupscope.load(s), scenario);
  await page.evaluate(() => window.groupscope.seek(40000));
  assert.equal(await page.evaluate(() => window.groupscope.state().traceHash), golden);
  // Going back and forth re-runs from checkpoints to the same trace.
  await page.evaluate(() => { window.groupscope.seek(5000); window.groupscope.seek(40000); });
  assert.equal(await page.evaluate(() => window.groupscope.state().traceHash), golden);
}));
