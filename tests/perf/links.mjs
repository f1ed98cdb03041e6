// Permalink lengths (not a test: it reports numbers for the README). Run after
// `bash scripts/build.sh`:  node tests/perf/links.mjs
// For each run, the fragment the page writes with CompressionStream (#z=) and
// without it (#run=, the only form before compressed links), in characters.
import { launch, serveSite } from '../e2e/harness.mjs';

// Two groups (classic cooperative with static members, KIP-848) over three
// topics, settings off their defaults, and six faults.
const larger = JSON.stringify({
  name: 'two groups, three topics', seed: 7, brokers: 3,
  broker: { 'group.initial.rebalance.delay.ms': 0 },
  topics: [
    { name: 'orders', partitions: 12, recordsPerSec: 20 },
    { name: 'payments', partitions: 6, recordsPerSec: 5 },
    { name: 'audit', partitions: 3, recordsPerSec: 1 },
  ],
  groups: [
    { groupId: 'billing', consumers: 4, staticMembers: true,
      config: { 'session.timeout.ms': 8000, 'heartbeat.interval.ms': 2000, 'max.poll.records': 50, 'auto.offset.reset': 'earliest',
        'partition.assignment.strategy': ['cooperative-sticky'], topics: ['orders', 'payments'] } },
    { groupId: 'search', consumers: 3,
      config: { 'group.protocol': 'consumer', 'auto.offset.reset': 'earliest', topics: ['orders', 'audit'] } },
  ],
});
const faults = [
  [9000, { type: 'crashConsumer', consumer: 2 }],
  [12000, { type: 'cutLink', a: 'broker-1', b: 'c5' }],
  [15000, { type: 'pauseConsumer', consumer: 1, durationMs: 4000 }],
  [18000, { type: 'healLink', a: 'broker-1', b: 'c5' }],
  [21000, { type: 'restartConsumer', consumer: 2 }],
  [24000, { type: 'addPartitions', topic: 'audit', count: 3 }],
];
const runs = [
  { name: 'demo, one crash at 12 s, playhead 25 s', scenario: null, faults: [[12000, { type: 'crashConsumer', consumer: 2 }]], at: 25000 },
  { name: 'two groups, three topics, six faults, playhead 30 s', scenario: larger, faults, at: 30000 },
];

async function fragment(browser, site, run, compress) {
  const page = await browser.newPage();
  // The first-visit welcome would cover the button this clicks.
  await page.addInitScript(() => localStorage.setItem('groupscope.welcomed', '1'));
  if (!compress) await page.addInitScript(() => { delete window.CompressionStream; delete window.DecompressionStream; });
  await page.goto(site.url);
  await page.waitForFunction(() => window.groupscope && window.groupscope.seek);
  if (run.scenario) await page.evaluate((s) => window.groupscope.load(s), run.scenario);
  for (const [at, f] of run.faults) {
    await page.evaluate((at) => window.groupscope.seek(at), at);
    await page.evaluate((f) => window.groupscope.inject(f), JSON.stringify(f));
  }
  await page.evaluate((at) => window.groupscope.seek(at), run.at);
  await page.click('#permalink');
  await page.waitForSelector('#permalink-url');
  const hash = new URL(await page.inputValue('#permalink-url')).hash;
  await page.close();
  return hash;
}

const site = await serveSite();
const browser = await launch();
try {
  for (const run of runs) {
    const z = await fragment(browser, site, run, true);
    const plain = await fragment(browser, site, run, false);
    if (!z.startsWith('#z=') || !plain.startsWith('#run=')) throw new Error(`unexpected forms: ${z.slice(0, 8)} ${plain.slice(0, 8)}`);
    console.log(`${run.name}: #run= ${plain.length} characters, #z= ${z.length} (${Math.round((100 * z.length) / plain.length)} %)`);
  }
} finally {
  await browser.close();
  site.close();
}
