// Browser performance of the page (not a test: it reports numbers for the
// README). Run after `bash scripts/build.sh`:  node tests/perf/page.mjs
//  - first interactive render from a cold load (navigation start → the play
//    button and the cluster drawn), median of 5 fresh pages; the same under
//    network throttling (1.6 Mbps / 150 ms RTT and 9 Mbps / 40 ms), each also
//    with a 4× CPU slowdown, with the time until the static welcome shows;
//    LOAD_ONLY=1 stops there (no frame measurements), FRAMES_ONLY=1 skips them;
//  - frame time p50/p95 while animating 10 and 100 members (100 with 1,000
//    partitions, classic and KIP-848), measured from requestAnimationFrame deltas over 5 s of
//    playing at 10×, with long tasks (> 50 ms) counted; CASES picks some of
//    them by name, e.g. CASES=KIP-848 or CASES='100 members' (substrings of the
//    printed names, comma-separated), RUNS=n measures each n times;
//  - gzipped size of the wasm and JS the page loads.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, launch, openPage, serveSite } from '../e2e/harness.mjs';
import { pct, scenario } from './shared.mjs';

const site = await serveSite();
const browser = await launch();
const results = {};
try {
  const loads = [];
  const loadRuns = process.env.FRAMES_ONLY === '1' ? 0 : 5;
  for (let i = 0; i < loadRuns; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(site.url);
    await page.waitForSelector('#topology g.consumer');
    loads.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  if (loads.length) results.firstRenderMs = Math.round(pct(loads, 50));

  // The same under Chromium's network throttling (a slow and a decent mobile
  // link): the time from navigation to the first interactive drawing, and to
  // the welcome (static HTML, shown before the wasm arrives).
  // With a CPU slowdown too (Chromium's CPU throttling, 4×: a mid-range phone):
  // compiling and starting the wasm then weighs as much as the download.
  const links = [['1.6 Mbps / 150 ms', 1.6, 150, 1], ['9 Mbps / 40 ms', 9, 40, 1],
    ['1.6 Mbps / 150 ms, 4× CPU slowdown', 1.6, 150, 4], ['9 Mbps / 40 ms, 4× CPU slowdown', 9, 40, 4]];
  for (const [name, mbps, rtt, cpu] of process.env.FRAMES_ONLY === '1' ? [] : links) {
    const times = [];
    const welcome = [];
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: rtt, downloadThroughput: (mbps * 1e6) / 8, uploadThroughput: (mbps * 1e6) / 8,
      });
      if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
      await page.goto(site.url, { waitUntil: 'commit' });
      await page.waitForSelector('#welcome:not([hidden])');
      welcome.push(await page.evaluate(() => performance.now()));
      await page.waitForSelector('#topology g.consumer', { timeout: 60000 });
      times.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
    results[`firstRenderMs (${name})`] = Math.round(pct(times, 50));
    results[`welcomeMs (${name})`] = Math.round(pct(welcome, 50));
  }

  const caseName = (members, protocol) => `${members} members${protocol === 'consumer' ? ' (KIP-848)' : ''}`;
  const picked = process.env.CASES ? process.env.CASES.split(',') : null;
  const sizes = (process.env.LOAD_ONLY === '1' ? [] : [[10, 60, 'classic'], [100, 1000, 'classic'], [100, 1000, 'consumer']])
    .filter(([m, , p]) => !picked || picked.some((n) => caseName(m, p).includes(n)));
  const runs = Number(process.env.RUNS || 1);
  for (const [members, partitions, protocol] of sizes.flatMap((s) => Array(runs).fill(s))) {
    const { page } = await openPage(browser, site);
    await page.evaluate((s) => window.groupscope.load(s), scenario(members, partitions, protocol));
    await page.evaluate(() => window.groupscope.seek(15000));
    await page.selectOption('#speed', '10');
    const frames = await page.evaluate(async () => {
      const longTasks = [];
      const obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => longTasks.push(e.duration)));
      try { obs.observe({ type: 'longtask', buffered: false }); } catch { /* not supported */ }
      window.groupscope.play();
      const deltas = [];
      let last = performance.now();
      const end = last + 5000;
      await new Promise((done) => {
        const tick = (t) => {
          deltas.push(t - last);
          last = t;
          if (t < end) requestAnimationFrame(tick); else done();
        };
        requestAnimationFrame(tick);
      });
      window.groupscope.pause();
      obs.disconnect();
      return { deltas: deltas.slice(1), longTasks, now: window.groupscope.state().now };
    });
    const name = caseName(members, protocol);
    const taken = Object.keys(results).filter((k) => k.startsWith(name) && !k.startsWith(`${name} (`)).length;
    results[taken ? `${name} #${taken + 1}` : name] = {
      p50: +pct(frames.deltas, 50).toFixed(1),
      p95: +pct(frames.deltas, 95).toFixed(1),
      // Frames that missed a vsync (a delta of 1.5 frames or more at 60 Hz).
      dropped: frames.deltas.filter((d) => d >= 25).length,
      frames: frames.deltas.length,
      longTasks: frames.longTasks.length,
      simulatedTo: frames.now,
    };
  }
  const pkg = join(ROOT, 'dist', 'pkg');
  const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
  // The wasm as the page downloads it: the build's gzipped file.
  const wasm = statSync(join(pkg, 'groupscope_bg.wasm.gz')).size;
  // The glue, wasm-bindgen's snippets (pkg/snippets/) and the loader.
  const js = readdirSync(pkg, { recursive: true }).concat(readdirSync(join(ROOT, 'dist', 'static')).map((f) => join('..', 'static', f)))
    .filter((f) => f.endsWith('.js')).map((f) => gz(join(pkg, f))).reduce((a, b) => a + b, 0);
  results.gzippedKB = { wasm: Math.round(wasm / 1024), js: Math.round(js / 1024), total: Math.round((wasm + js) / 1024) };
  console.log(JSON.stringify(results, null, 2));
} finally {
  await browser.close();
  site.close();
}
