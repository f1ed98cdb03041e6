// Memory while playing fast (not a test: it reports numbers for the README).
// Run after `bash scripts/build.sh`:  node tests/perf/memory.mjs [minutes] [members]
// Plays the demo (or `members` classic consumers, 10 partitions each) at
// 1000x for `minutes` of wall time (default 10) and prints every 30 s: the
// simulated time reached, the scrubber's start (after memory bounding let the
// oldest events go), the JS heap (CDP Runtime.getHeapUsage), the wasm
// memory (its linear memory never shrinks, so this is its high-water mark),
// the renderer's resident memory, the frames' p95 over the last 30 s, and
// whether the page shows its memory notice. Ends with a seek to the start of
// the kept range and to its end, timed.
import { readFileSync } from 'node:fs';
import { launch, openPage, serveSite } from '../e2e/harness.mjs';
import { scenario } from './shared.mjs';

const minutes = Number(process.argv[2] || 10);
const members = Number(process.argv[3] || 0);
const MB = (b) => (b / 1048576).toFixed(0);

/** Resident memory of this browser's renderer processes (CDP lists them; Linux /proc). */
async function rendererRss(browserCdp) {
  const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo');
  let total = 0;
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'));
      if (rss) total += Number(rss[1]) * 1024;
    } catch { /* gone */ }
  }
  return total;
}

const site = await serveSite();
const browser = await launch();
try {
  const { page } = await openPage(browser, site);
  if (members) {
    await page.evaluate((s) => window.groupscope.load(s), scenario(members, members * 10, 'classic'));
  }
  const cdp = await page.context().newCDPSession(page);
  const browserCdp = await browser.newBrowserCDPSession();
  // The wasm module's exports (init returns them again once loaded) and a frame recorder.
  await page.evaluate(async () => {
    const glue = await import(new URL('pkg/groupscope.js', document.baseURI).href);
    window.__wasm = await glue.default();
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.selectOption('#speed', '1000');
  await page.evaluate(() => window.groupscope.play());
  const start = Date.now();
  console.log('wall s  simulated  scrubber start  JS heap MB  wasm MB  renderer RSS MB  frame p95 ms  notice');
  for (let k = 1; k <= minutes * 2; k++) {
    await new Promise((r) => setTimeout(r, start + k * 30_000 - Date.now()));
    const heap = await cdp.send('Runtime.getHeapUsage');
    const s = await page.evaluate(() => {
      const f = window.__frames.splice(0).sort((a, b) => a - b);
      const input = document.querySelector('#timeline');
      return {
        now: Number(input.value), min: Number(input.min || 0), wasm: window.__wasm.memory.buffer.byteLength,
        p95: f[Math.floor(0.95 * (f.length - 1))] || 0, notice: !!document.querySelector('#memory-notice'),
      };
    });
    const h = (t) => `${(t / 3600000).toFixed(1)} h`;
    console.log(`${String(k * 30).padStart(6)}  ${h(s.now).padStart(9)}  ${h(s.min).padStart(14)}  ${MB(heap.usedSize).padStart(10)}  ${MB(s.wasm).padStart(7)}  ${MB(await rendererRss(browserCdp)).padStart(15)}  ${s.p95.toFixed(1).padStart(12)}  ${s.notice ? 'shown' : '-'}`);
  }
  await page.evaluate(() => window.groupscope.pause());
  const seeks = await page.evaluate(() => {
    const input = document.querySelector('#timeline');
    const [min, max] = [Number(input.min || 0), Number(input.max)];
    const time = (t) => { const a = performance.now(); window.groupscope.seek(t); return performance.now() - a; };
    return { toStart: time(min), toEnd: time(max), toMiddle: time((min + max) / 2) };
  });
  console.log(`seek to the kept range's start ${seeks.toStart.toFixed(0)} ms, its end ${seeks.toEnd.toFixed(0)} ms, its middle ${seeks.toMiddle.toFixed(0)} ms; page alive: ${await page.evaluate(() => !!window.groupscope.state().now)}`);
} finally {
  await browser.close();
  site.close();
}
