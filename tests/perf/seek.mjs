// Seeking in the browser (not a test: it reports numbers for the README).
// Run after `bash scripts/build.sh`:  node tests/perf/seek.mjs [case ...]
// Each case loads a run, plays it to its end (one seek), then seeks to 200
// seeded moments as dragging the scrubber does (mostly small steps either way,
// one in four a jump anywhere; the same targets as benches/seek.rs) and prints
// p50/p95/max of
//  - seek: the call `window.groupscope.seek(ms)` alone (as issue 12 measured);
//  - with frame: the call until the next animation frame has been drawn (the
//    page's redraw included).
import { launch, openPage, serveSite } from '../e2e/harness.mjs';
import { pct, scenario } from './shared.mjs';

const all = {
  demo: { name: 'demo, 3 members, 5 min', scenario: null, end: 300_000 },
  ten: { name: '10 members, 10 min', scenario: scenario(10, 60, 'classic'), end: 600_000 },
  hundred: { name: '100 members, 2 min', scenario: scenario(100, 1000, 'classic'), end: 120_000 },
  kip848: { name: '100 KIP-848 members, 2 min', scenario: scenario(100, 1000, 'consumer'), end: 120_000 },
};
const picked = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(all);

// The generator of benches/seek.rs `targets` (64-bit LCG, upper bits).
function targets(end, n) {
  let seed = 42n;
  const M = (1n << 64n) - 1n;
  const next = () => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & M;
    return seed >> 33n;
  };
  const E = BigInt(end);
  let at = E / 2n;
  const out = [];
  for (let i = 0; i < n; i++) {
    if (next() % 4n === 0n) at = next() % E;
    else {
      at = at + (next() % (E / 50n)) - E / 100n;
      if (at < 0n) at = 0n;
      if (at > E) at = E;
    }
    out.push(Number(at));
  }
  return out;
}

const site = await serveSite();
const browser = await launch();
try {
  for (const key of picked) {
    const c = all[key];
    const { page } = await openPage(browser, site);
    if (c.scenario) await page.evaluate((s) => window.groupscope.load(s), c.scenario);
    const r = await page.evaluate(async ([end, ts]) => {
      const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      await frame();
      const t0 = performance.now();
      window.groupscope.seek(end);
      const play = performance.now() - t0;
      await frame();
      const seek = [];
      const withFrame = [];
      for (const t of ts) {
        const a = performance.now();
        window.groupscope.seek(t);
        const b = performance.now();
        await frame();
        seek.push(b - a);
        withFrame.push(performance.now() - a);
      }
      return { play, seek, withFrame, events: window.groupscope.state().events };
    }, [c.end, targets(c.end, 200)]);
    const f = (xs) => `p50 ${pct(xs, 50).toFixed(1)} / p95 ${pct(xs, 95).toFixed(1)} / max ${Math.max(...xs).toFixed(1)} ms`;
    console.log(`${c.name} (${r.events} events at the last target, played in ${(r.play / 1000).toFixed(1)} s): seek ${f(r.seek)}; with frame ${f(r.withFrame)}`);
    await page.close();
  }
} finally {
  await browser.close();
  site.close();
}
