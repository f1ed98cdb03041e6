// Where the page's time goes while it animates a group (not a test: a tool
// for finding hot spots). Build with function names first:
//   PROFILE=1 bash scripts/build.sh && node tests/perf/profile.mjs [members] [filter]
// (PROTOCOL=consumer profiles a KIP-848 group; SPEED=100 plays at 100x;
// SEEK=1 profiles the seek to 15 s as well, which a large group's first
// frame waits for).
// It plays `members` consumers (10 partitions each) at 10x for 4 s under the
// Chrome DevTools CPU profiler and prints the functions with the most
// inclusive time (each sample counted once per function on its stack),
// keeping names that match `filter` (a regular expression, default: ours).
import { launch, openPage, serveSite } from '../e2e/harness.mjs';

const members = Number(process.argv[2] || 100);
const filter = new RegExp(process.argv[3] || 'groupscope');
const site = await serveSite();
const browser = await launch();
try {
  const { page } = await openPage(browser, site);
  await page.evaluate(([n, protocol]) => window.groupscope.load(JSON.stringify({
    seed: 1, brokers: 3, topics: [{ name: 'orders', partitions: n * 10, recordsPerSec: 10 }],
    groups: [{ groupId: 'demo', consumers: n, startStaggerMs: 20,
      config: { 'session.timeout.ms': 10000, 'heartbeat.interval.ms': 3000, 'auto.offset.reset': 'earliest', topics: ['orders'],
        'group.protocol': protocol } }],
  })), [members, process.env.PROTOCOL || 'classic']);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  if (process.env.SEEK === '1') await cdp.send('Profiler.start');
  const seekMs = await page.evaluate(() => { const t = performance.now(); window.groupscope.seek(15000); return performance.now() - t; });
  console.log(`seek to 15 s: ${seekMs.toFixed(0)} ms`);
  await page.selectOption('#speed', process.env.SPEED || '10');
  if (process.env.SEEK !== '1') await cdp.send('Profiler.start');
  const frames = await page.evaluate(() => { window.__gaps = []; let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; if (window.__gaps.length < 100000) requestAnimationFrame(tick); };
    requestAnimationFrame(tick); return true; });
  await page.evaluate(() => window.groupscope.play());
  await new Promise((r) => setTimeout(r, 4000));
  const { profile } = await cdp.send('Profiler.stop');
  const gaps = (await page.evaluate(() => window.__gaps)).sort((a, b) => a - b);
  const simNow = await page.evaluate(() => window.groupscope.state().now);
  if (frames) console.log(`frames: ${gaps.length}, median ${gaps[gaps.length >> 1]?.toFixed(1)} ms, p95 ${gaps[Math.floor(gaps.length * 0.95)]?.toFixed(1)} ms, max ${gaps[gaps.length - 1]?.toFixed(0)} ms; simulated clock at ${simNow} ms`);

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => (n.callFrame.functionName || n.callFrame.url || '(anonymous)').replace(/\[[0-9a-f]+\]/g, '');
  const inclusive = new Map();
  profile.samples.forEach((sample, i) => {
    const seen = new Set();
    for (let id = sample; id !== undefined; id = parent.get(id)) {
      const k = name(byId.get(id));
      if (!seen.has(k)) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) || 0) + profile.timeDeltas[i]);
      }
    }
  });
  const total = profile.endTime - profile.startTime;
  console.log(`${members} members, ${(total / 1000).toFixed(0)} ms profiled; idle ${((inclusive.get('(idle)') || 0) / 1000).toFixed(0)} ms`);
  [...inclusive.entries()].filter(([k]) => filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 40)
    .forEach(([k, v]) => console.log(`${(v / 1000).toFixed(0).padStart(6)} ms  ${k.slice(0, 150)}`));
} finally {
  await browser.close();
  site.close();
}
