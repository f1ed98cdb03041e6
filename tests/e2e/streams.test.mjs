// Kafka Streams applications (KIP-1071) on the page: each KafkaStreams
// instance a box holding its stream threads, each thread's tasks as chips
// (active, restoring with its progress, standby, giving up, waiting), the
// topology once, the streams group's state and the status codes of the last
// heartbeats in plain words. The chips are checked against Kafka's rules —
// each task active on one thread, a standby never on its active's process,
// only stateful tasks restore — for a student's phone, a teacher presenting
// and an engineer's screen, in English and Chinese. Screenshots go to
// tests/e2e/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, frames, withSite } from './harness.mjs';

const scenario = (name) => JSON.parse(readFileSync(join(ROOT, 'scenarios', `${name}.json`), 'utf8'));

// streams-4's two subtopologies (0 stateless, 1 stateful), three instances of
// two threads each with one standby per stateful task from the start; 10 s of
// changelog to restore. Instance 1 (c1 and c2) crashes at 30 s and a
// replacement instance (c7, c8) starts at 35 s: the tasks the assignor gives
// it from the crashed threads wait until their 45 s session timeout, then
// restore (the replacement has no local state), while standbys take over others.
function crashWithStandbys() {
  const s = scenario('streams-4-standbys');
  s.name = 'Streams group: an instance crashes and a replacement starts; tasks wait, standbys take over, new ones restore';
  const app = s.streamsApps[0];
  app.threadsPerInstance = 2;
  app.config = { 'streams.num.standby.replicas': 1 };
  app.instance = { changelogRecordsPerTask: 100000, restoreRecordsPerSecond: 10000 };
  s.faults = [
    { at: 30000, fault: { type: 'crashConsumer', consumer: 1 } },
    { at: 30000, fault: { type: 'crashConsumer', consumer: 2 } },
    { at: 35000, fault: { type: 'addInstance', group: 'totals' } },
  ];
  return JSON.stringify(s);
}

async function seek(page, t) {
  await page.evaluate((t) => window.groupscope.seek(t), t);
  await frames(page);
}

/** Every instance with its threads and their chips, as drawn. */
const drawn = (page) => page.$$eval('#streams-apps .st-instance', (els) => els.map((i) => ({
  process: i.dataset.process,
  down: i.classList.contains('down'),
  threads: [...i.querySelectorAll('.st-thread')].map((t) => ({
    client: t.dataset.client,
    chips: [...t.querySelectorAll('.st-task')].map((c) => ({ task: c.dataset.task, kind: c.dataset.kind, percent: c.dataset.percent })),
  })),
})));

/** Kafka's rules on what is drawn: each task active on one live thread at
 * most, a standby never on its active's process, only subtopology 1 (the
 * stateful one) restores, a crashed instance runs nothing. */
function checkRules(instances, where) {
  const activeOn = new Map();
  for (const i of instances) {
    for (const t of i.threads) {
      if (i.down) assert.deepEqual(t.chips, [], `${where}: crashed ${t.client} runs nothing`);
      for (const c of t.chips) {
        if (c.kind === 'active' || c.kind === 'restoring' || c.kind === 'revoking') {
          assert.ok(!activeOn.has(c.task), `${where}: ${c.task} active on ${activeOn.get(c.task)} and ${t.client}`);
          activeOn.set(c.task, i.process);
        }
        if (c.kind === 'restoring') assert.match(c.task, /^1_/, `${where}: only the stateful subtopology restores`);
      }
    }
  }
  for (const i of instances) {
    for (const t of i.threads) {
      for (const c of t.chips.filter((c) => c.kind === 'standby')) {
        assert.notEqual(activeOn.get(c.task), i.process, `${where}: standby ${c.task} on its active's process ${i.process}`);
      }
    }
  }
  return activeOn;
}

/** Steps from `from` until a chip is restoring (mid-rebalance), at most to `to`. */
async function untilRestoring(page, from, to) {
  for (let t = from; t <= to; t += 500) {
    await seek(page, t);
    const chips = (await drawn(page)).flatMap((i) => i.threads.flatMap((x) => x.chips));
    if (chips.some((c) => c.kind === 'restoring')) return t;
  }
  return null;
}

const fontPx = (page, sel) => page.$eval(sel, (el) => parseFloat(getComputedStyle(el).fontSize));

test('phone 390x844: an instance crashes; its threads run nothing, a replacement waits for their tasks, then restores them', () => withSite(async ({ browser, site }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.addInitScript(() => localStorage.setItem('groupscope.welcomed', '1'));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(site.url);
  await page.waitForSelector('#play');
  await page.evaluate((s) => window.groupscope.load(s), crashWithStandbys());
  await seek(page, 25000);
  const stable = await drawn(page);
  assert.equal(stable.length, 3, 'three instances');
  assert.ok(stable.every((i) => i.threads.length === 2), 'two threads each');
  const before = checkRules(stable, '25 s');
  assert.equal(before.size, 8, 'eight tasks (two subtopologies of four partitions) each active once');
  assert.equal(await page.getAttribute('#streams-apps .streams-app', 'data-group-state'), 'Stable');
  assert.ok(await fontPx(page, '#streams-apps .st-thread .st-task') >= 12, 'chip text at least 12 px on the phone');
  await seek(page, 31000);
  const crashed = await drawn(page);
  assert.ok(crashed[0].down, 'instance 1 is down');
  checkRules(crashed, '31 s');
  // The replacement's threads wait for the crashed threads' tasks: the coordinator
  // still counts c1 and c2 until their session times out, and they never give them up.
  await seek(page, 50000);
  const waiting = await drawn(page);
  assert.equal(waiting.length, 4, 'a fourth instance started');
  const held = new Set([...before.entries()].filter(([, p]) => p === crashed[0].process).map(([t]) => t));
  const pending = waiting[3].threads.flatMap((t) => t.chips).filter((c) => c.kind === 'pending').map((c) => c.task);
  assert.ok(pending.length > 0 && pending.every((t) => held.has(t)), `the replacement waits for the crashed instance's tasks: ${pending} of ${[...held]}`);
  checkRules(waiting, '50 s');
  const at = await untilRestoring(page, 68000, 90000);
  assert.ok(at, 'after the session timeout some task restores on its new thread');
  checkRules(await drawn(page), `${at} ms`);
  await page.$eval('#streams-apps', (el) => el.scrollIntoView());
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, 'streams-crash-restoring-390-en.png') });
  await seek(page, 120000);
  const after = checkRules(await drawn(page), '120 s');
  assert.equal(after.size, 8, 'every task is active again');
  assert.ok([...after.values()].every((p) => p !== crashed[0].process), 'none on the crashed instance');
  assert.ok((await drawn(page)).flatMap((i) => i.threads.flatMap((t) => t.chips)).every((c) => c.kind === 'active' || c.kind === 'standby'), 'settled: nothing waits or restores');
  assert.deepEqual(errors, []);
}));

test('presenter mode 1280x720, Chinese: large chips, the group state and its status codes in plain words', () => withSite(async ({ open }) => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.selectOption('#lang', 'zh-CN');
  await page.evaluate((s) => window.groupscope.load(s), JSON.stringify(scenario('streams-2-missing-source')));
  await seek(page, 10000);
  const app = '#streams-apps .streams-app';
  assert.equal(await page.getAttribute(app, 'data-group-state'), 'NotReady');
  const status = await page.textContent(`${app} .st-statuses li[data-status="MISSING_SOURCE_TOPICS"]`);
  assert.equal(status, 'MISSING_SOURCE_TOPICS: 源主题不存在：创建之前不会分配任何任务');
  assert.match(await page.textContent('#caption'), /MISSING_SOURCE_TOPICS: 源主题不存在/);
  assert.match(await page.textContent('.groups .group[data-group="payments-app"]'), /MISSING_SOURCE_TOPICS: 源主题不存在/);
  assert.match(await page.textContent('#streams-apps h3'), /实例、线程及其任务/);
  await page.click('#presenter');
  await page.evaluate((s) => window.groupscope.load(s), crashWithStandbys());
  const at = await untilRestoring(page, 68000, 90000);
  assert.ok(at, 'a task restores after the crash');
  assert.ok(await fontPx(page, '#streams-apps .st-thread .st-task') >= 16, 'chip text at least 16 px when presenting');
  await page.$eval('#streams-apps', (el) => el.scrollIntoView());
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, 'streams-presenter-1280x720-zh.png') });
}));

test('1440x900: the topology once, the streams examples, the state machine with the streams states, and a thread\'s faults', () => withSite(async ({ open }) => {
  const page = await open({ viewport: { width: 1440, height: 900 } });
  await page.click('#tab-config');
  const options = await page.$$eval('#cfg-example option', (els) => els.map((e) => e.value).filter((v) => v.startsWith('streams-')));
  assert.equal(options.length, 10, `the ten streams scenarios of the fact sheet are examples: ${options}`);
  await page.click('#tab-sim');
  await page.evaluate((s) => window.groupscope.load(s), crashWithStandbys());
  await seek(page, 25000);
  const subs = await page.$$eval('#streams-apps .st-sub', (els) => els.map((e) => [e.dataset.subtopology, e.classList.contains('stateful'), e.textContent]));
  assert.deepEqual(subs.map(([id, stateful]) => [id, stateful]), [['0', false], ['1', true]]);
  assert.match(subs[0][2], /orders → totals-by-customer-repartition/);
  assert.match(subs[1][2], /totals-by-customer-repartition · state store → totals-store-changelog · 4 tasks/);
  const chart = '.statechart[data-chart-group="totals"]';
  assert.equal(await page.getAttribute(chart, 'data-current'), 'Stable');
  const states = await page.$$eval(`${chart} .state`, (els) => els.map((e) => e.dataset.state));
  assert.deepEqual(states.sort(), ['Assigning', 'Empty', 'NotReady', 'Reconciling', 'Stable']);
  await page.click('#streams-apps .st-thread[data-client="c3"]');
  await frames(page);
  const faults = await page.$$eval('#inspector .action', (els) => els.map((e) => e.textContent));
  for (const f of ['Make c3 ask to shut the application down', 'Add a Kafka Streams instance to totals', 'Set streams.num.standby.replicas=2 on totals']) {
    assert.ok(faults.includes(f), `${f} in ${JSON.stringify(faults)}`);
  }
  const at = await untilRestoring(page, 68000, 90000);
  assert.ok(at);
  await page.$eval('#streams-apps', (el) => el.scrollIntoView());
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, 'streams-crash-1440x900-en.png') });
}));
