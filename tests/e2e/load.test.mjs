// How the page loads its wasm (static/boot.js): the gzipped file, unzipped in
// the browser, and the plain file where that cannot be done.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launch, serveSite } from './harness.mjs';

/** Opens the page with `setup(page)` run first, and returns which wasm
 * files it requested, the console warnings, the trace's hash at 5 s and the
 * progress bars. */
async function load(browser, site, setup) {
  const page = await browser.newPage();
  const wasm = [];
  const warnings = [];
  page.on('request', (r) => { if (/\.wasm(\.gz)?$/.test(r.url())) wasm.push(r.url().split('/').pop()); });
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await setup(page);
  await page.goto(site.url);
  await page.waitForSelector('#topology g.consumer');
  await page.evaluate(() => window.groupscope.seek(5000));
  const state = await page.evaluate(() => window.groupscope.state());
  const bars = await page.$$eval('.load-progress', (xs) => xs.map((x) => ({ hidden: x.hidden, value: x.value })));
  await page.close();
  return { wasm, warnings, traceHash: state.traceHash, bars };
}

test('the wasm arrives gzipped and is unzipped in the browser; the plain file is the fallback', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    // The ordinary load: only the gzipped file is fetched, the bar filled then hidden.
    const gz = await load(browser, site, async () => {});
    assert.deepEqual(gz.wasm, ['groupscope_bg.wasm.gz']);
    assert.deepEqual(gz.warnings.filter((w) => /GroupScope/.test(w)), []);
    assert.ok(gz.bars.every((b) => b.hidden && b.value > 0.9), JSON.stringify(gz.bars));

    // A browser without DecompressionStream loads the plain file.
    const old = await load(browser, site, (page) => page.addInitScript(() => { delete window.DecompressionStream; }));
    assert.ok(old.wasm.includes('groupscope_bg.wasm'), JSON.stringify(old.wasm));
    assert.ok(old.warnings.some((w) => /plain wasm \(no DecompressionStream\)/.test(w)), JSON.stringify(old.warnings));

    // A host without the .gz (404) or one that garbles it: the plain file again.
    const missing = await load(browser, site, (page) => page.route(/\.wasm\.gz$/, (r) => r.fulfill({ status: 404, body: 'no' })));
    assert.ok(missing.wasm.includes('groupscope_bg.wasm'), JSON.stringify(missing.wasm));
    assert.ok(missing.warnings.some((w) => /HTTP 404/.test(w)), JSON.stringify(missing.warnings));
    const garbled = await load(browser, site, (page) => page.route(/\.wasm\.gz$/, (r) =>
      r.fulfill({ status: 200, contentType: 'application/gzip', body: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) })));
    assert.ok(garbled.wasm.includes('groupscope_bg.wasm'), JSON.stringify(garbled.wasm));

    // A host that sends the .gz with Content-Encoding: gzip (the browser has
    // unzipped it already): compiled as it is, no second download.
    const encoded = await load(browser, site, (page) => page.route(/\.wasm\.gz$/, async (r) => {
      const res = await r.fetch();
      const { gunzipSync } = await import('node:zlib');
      await r.fulfill({ status: 200, contentType: 'application/gzip', body: gunzipSync(await res.body()) });
    }));
    assert.deepEqual(encoded.wasm, ['groupscope_bg.wasm.gz']);
    assert.deepEqual(encoded.warnings.filter((w) => /GroupScope/.test(w)), []);

    // Every way runs the same simulation.
    for (const r of [old, missing, garbled, encoded]) assert.equal(r.traceHash, gz.traceHash);
  } finally {
    await browser.close();
    site.close();
  }
});
