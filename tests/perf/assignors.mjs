// Browser benchmark of the assignors compiled to wasm (not a test: it reports).
// Run after `bash scripts/build.sh`:  node tests/perf/assignors.mjs [assignor ...]
// Shapes as in benches/assignors.rs: (i) 1,000 members, 10 topics x 1,000
// partitions, fresh; (ii) the same after 10 members leave, survivors owning their
// assignment; (iii) each member on a seeded random half of 50 topics x 200.
// Prints the median of 3 timed calls of groupscope.assign (JSON parse included).
import { launch, openPage, serveSite } from '../e2e/harness.mjs';

const assignors = process.argv.slice(2).length ? process.argv.slice(2)
  : ['uniform', 'server-range', 'range', 'roundrobin', 'sticky', 'cooperative-sticky'];

const site = await serveSite();
const browser = await launch();
try {
  const { page } = await openPage(browser, site);
  await page.waitForFunction(() => window.groupscope && window.groupscope.assign);
  for (const name of assignors) {
    const ms = await page.evaluate((assignor) => {
      let seed = 42;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const members = (n, topicsOf) => Array.from({ length: n }, (_, i) => ({ id: `m${String(i).padStart(4, '0')}`, subscriptions: topicsOf(i) }));
      const topics = (count, parts) => Object.fromEntries(Array.from({ length: count }, (_, t) => [`t${t}`, parts]));
      const all10 = Array.from({ length: 10 }, (_, t) => `t${t}`);
      const shape1 = { assignor, topics: topics(10, 1000), members: members(1000, () => all10) };
      const time = (c) => {
        const text = JSON.stringify(c);
        const runs = [];
        let out;
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          out = window.groupscope.assign(text);
          runs.push(performance.now() - t0);
        }
        runs.sort((a, b) => a - b);
        return [runs[1], JSON.parse(out).assignment];
      };
      const [t1, a1] = time(shape1);
      const shape2 = { ...shape1, members: shape1.members.slice(10).map((m) => ({ ...m, owned: a1[m.id] || [], generation: 1 })) };
      const [t2] = time(shape2);
      const half = () => Array.from({ length: 50 }, (_, t) => `t${t}`).filter(() => rand() < 0.5);
      const shape3 = { assignor, topics: topics(50, 200), members: members(1000, half) };
      const [t3] = time(shape3);
      return [t1, t2, t3];
    }, name);
    console.log(`${name.padEnd(20)} (i) ${ms[0].toFixed(1)} ms   (ii) ${ms[1].toFixed(1)} ms   (iii) ${ms[2].toFixed(1)} ms`);
  }
} finally {
  await browser.close();
  site.close();
}
