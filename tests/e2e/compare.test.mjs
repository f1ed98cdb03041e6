// Side-by-side mode: eager, cooperative and KIP-848 under one crash, in step;
// the metrics table shows the stop-the-world pause only for eager. Also the
// KIP-848 group drawn on the main page with its own state machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite } from './harness.mjs';

test('side by side: one crash, three protocols, live metrics', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.click('#tab-compare');
    await page.waitForSelector('#compare .pane');
    assert.equal(await page.locator('#compare .pane').count(), 3);
    await page.click('#compare-play');
    await page.waitForFunction(() => Number(document.querySelector('#compare-time').value) >= 30000, null, { timeout: 30000 });
    await page.click('#compare-play');
    const stw = await page.$$eval('#compare-metrics tr[data-variant]', (rows) => rows.map((r) => [r.dataset.variant, Number(r.dataset.stw)]));
    const eager = stw.find(([v]) => v.includes('eager'));
    assert.ok(eager[1] > 0, `eager stops the world: ${JSON.stringify(stw)}`);
    for (const [v, ms] of stw.filter(([v]) => !v.includes('eager'))) assert.equal(ms, 0, `${v} keeps the others processing`);
    // All panes show the same simulated moment.
    const clocks = await page.textContent('#compare-clock');
    assert.match(clocks, /t = \d+/);
    await page.screenshot({ path: join(ARTIFACTS, 'compare.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('a KIP-848 group on the main page: ConsumerGroupState diagram and member epochs', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    const scenario = readFileSync(join(ROOT, 'scenarios', 'consumer-protocol-crash.json'), 'utf8');
    await page.evaluate((s) => window.groupscope.load(s), scenario);
    await page.evaluate(() => window.groupscope.seek(11000));
    await page.waitForSelector('.statechart[data-current="Stable"]');
    assert.match(await page.textContent('.statechart figcaption'), /ConsumerGroupState/);
    await page.click('g[data-member="c1"] circle.body');
    await page.waitForSelector('#inspector h2');
    assert.match(await page.textContent('#inspector'), /member epoch/);
    // The crash at 12 s: c2 is fenced after group.consumer.session.timeout.ms and its partitions move.
    await page.evaluate(() => window.groupscope.seek(30000));
    const s = await page.evaluate(() => window.groupscope.state());
    assert.equal(s.consumers.find((c) => c.name === 'c2').alive, false);
    const owned = s.consumers.filter((c) => c.alive).flatMap((c) => c.owned);
    assert.equal(owned.length, 6, `every partition owned by a survivor: ${JSON.stringify(s.consumers)}`);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
