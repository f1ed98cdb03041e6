// Share groups (KIP-932) on the page: the strip of each share-partition's
// in-flight window under the drawing. A consumer crashes holding records
// (scenarios/share-4-crash.json, fact sheet section 5, scenario 4): the strip
// shows its records released at once and re-acquired by the other member at
// delivery 2, while the coordinator still lists it as a reader until its 45 s
// session timeout. Screenshots go to tests/e2e/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, frames, withPage } from './harness.mjs';

const crash = readFileSync(join(ROOT, 'scenarios', 'share-4-crash.json'), 'utf8');

async function seek(page, t) {
  await page.evaluate((t) => window.groupscope.seek(t), t);
  await frames(page);
}

const runs = (page) => page.$$eval('#share-strips .share-strip .run', (els) => els.map((e) => ({
  holder: e.dataset.holder, delivery: Number(e.dataset.delivery), first: Number(e.dataset.first), last: Number(e.dataset.last),
})));
const readers = (page) => page.getAttribute('#share-strips .share-strip', 'data-readers');

test('a crashed share consumer\'s records are released at once and redelivered, before the group notices', () => withPage(async ({ page }) => {
  await page.evaluate((s) => window.groupscope.load(s), crash);
  await seek(page, 14900);
  const before = await runs(page);
  const held = before.filter((r) => r.holder === 'c1');
  assert.ok(held.length > 0, `c1 holds records before its crash: ${JSON.stringify(before)}`);
  await seek(page, 15600);
  const after = await runs(page);
  assert.ok(!after.some((r) => r.holder === 'c1'), `nothing is held by the crashed c1: ${JSON.stringify(after)}`);
  const again = after.filter((r) => r.holder === 'c2' && r.delivery === 2);
  assert.ok(again.some((r) => r.first <= held[0].first && held[0].first <= r.last), `c2 has c1's records at delivery 2: ${JSON.stringify(after)}`);
  assert.equal(await readers(page), 'c1 c2', 'the coordinator still assigns the partition to c1');
  await page.screenshot({ path: join(ARTIFACTS, 'share-crash-redelivered.png') });
  await seek(page, 61000);
  assert.equal(await readers(page), 'c2', 'after the session timeout only c2 reads orders-0');
}, { viewport: { width: 390, height: 844 } }));

test('the strip names its states in Chinese, and a run without a share group draws nothing', () => withPage(async ({ page }) => {
  await page.selectOption('#lang', 'zh-CN');
  await page.evaluate((s) => window.groupscope.load(s), crash);
  await seek(page, 15600);
  const legend = await page.$$eval('#share-strips .share-legend .run', (els) => els.map((e) => e.textContent));
  assert.deepEqual(legend, ['AVAILABLE（可获取）', 'ACQUIRED（已获取）', 'ACKNOWLEDGED（已确认）', 'ARCHIVED（已归档）']);
  await page.evaluate((s) => window.groupscope.load(s), JSON.stringify({ name: 'no share group', seed: 1, brokers: 1,
    topics: [{ name: 'orders', partitions: 1, recordsPerSec: 1 }],
    groups: [{ groupId: 'demo', consumers: 1, config: { topics: ['orders'] } }] }));
  await seek(page, 3000);
  assert.equal(await page.$('#share-strips'), null);
}));

test('two share groups on one topic: each strip names its group, as each group keeps its own share-partition', () => withPage(async ({ page }) => {
  const two = JSON.parse(crash);
  two.shareGroups.push({ groupId: 'audit', consumers: 1, topics: ['orders'] });
  await page.evaluate((s) => window.groupscope.load(s), JSON.stringify(two));
  await seek(page, 12000);
  const heads = await page.$$eval('#share-strips .share-strip', (els) => els.map((e) => [e.dataset.group, e.querySelector('.strip-head').textContent]));
  assert.deepEqual(heads.map(([g]) => g).sort(), ['audit', 'queue']);
  for (const [g, text] of heads) assert.match(text, new RegExp(`^share group ${g} · orders-0 · `), text);
  await page.screenshot({ path: join(ARTIFACTS, 'share-two-groups-1440.png') });
  // one share group: no group name in the way
  await page.evaluate((s) => window.groupscope.load(s), crash);
  await seek(page, 12000);
  assert.match(await page.textContent('#share-strips .strip-head'), /^orders-0 · /);
}, { viewport: { width: 1440, height: 900 } }));
