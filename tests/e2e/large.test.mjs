// Large groups: 100 members and 1,000 partitions of either protocol are drawn
// compactly (a grid of small nodes, an ownership grid, at most 16 client lanes
// in the space-time diagram), every member in its own place, and the page
// keeps playing without errors. Frame times are measured by tests/perf/page.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, withPage } from './harness.mjs';

const scenario = (protocol) => JSON.stringify({
  name: `100 members (${protocol})`, seed: 1, brokers: 3,
  topics: [{ name: 'orders', partitions: 1000, recordsPerSec: 10 }],
  groups: [{ groupId: 'demo', consumers: 100, startStaggerMs: 20,
    config: { 'group.protocol': protocol, 'auto.offset.reset': 'earliest', topics: ['orders'] } }],
});

for (const protocol of ['classic', 'consumer']) {
  test(`100 ${protocol}-protocol members and 1,000 partitions are drawn compactly`, () => withPage(async ({ page }) => {
    await page.evaluate((s) => window.groupscope.load(s), scenario(protocol));
    await page.evaluate(() => window.groupscope.seek(20000));
    await page.waitForFunction(() => document.querySelectorAll('#topology g.consumer.compact').length === 100);
    const places = await page.$$eval('#topology g.consumer.compact circle.body', (cs) => cs.map((c) => `${c.getAttribute('cx')},${c.getAttribute('cy')}`));
    assert.equal(new Set(places).size, 100, 'every member has its own place');
    assert.equal(await page.locator('#topology g.consumer:not(.compact)').count(), 0, 'no full-size nodes');
    assert.equal(await page.locator('#topology g.link').count(), 0, 'no per-pair links');
    assert.equal(await page.locator('#ownership.ownership-grid .cell').count(), 1000);
    const lanes = await page.$$eval('#spacetime g.lane text', (ts) => ts.map((t) => t.textContent).filter((n) => n.startsWith('c')));
    assert.ok(lanes.length > 0 && lanes.length <= 16, `client lanes: ${lanes.length}`);
    // Playing a few seconds at 100x keeps every invariant and every member.
    await page.selectOption('#speed', '100');
    await page.click('#play');
    // Polled four times a second: the state of 100 members is not free to build.
    await page.waitForFunction(() => window.groupscope.state().now > 30000, null, { timeout: 30000, polling: 250 });
    await page.click('#play');
    assert.equal(await page.getAttribute('#invariants', 'data-violations'), '0');
    assert.equal(await page.locator('#topology g.consumer.compact').count(), 100);
    const unowned = await page.locator('#ownership .cell.unowned').count();
    assert.equal(unowned, 0, 'every partition has an owner once the group settled');
    await page.screenshot({ path: join(ARTIFACTS, `large-${protocol}.png`) });
  }));
}
