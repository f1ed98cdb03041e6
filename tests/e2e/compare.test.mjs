// Side-by-side mode: eager, cooperative and KIP-848 under one crash, on the
// toolbar's one clock; "Compare this run" adds static membership to the three;
// the metrics table shows the stop-the-world pause only for eager. Also the
// KIP-848 group drawn on the main page with its own state machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite, withSite } from './harness.mjs';

test('side by side: the toolbar\'s one clock drives three protocols under one crash', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    const mainNow = () => page.evaluate(() => window.groupscope.state().now);
    const before = await mainNow();
    await page.click('#tab-compare');
    await page.waitForSelector('#compare .pane');
    assert.equal(await page.locator('#compare .pane').count(), 3);
    assert.equal(await page.locator('#compare-play, #compare-time, #compare-clock').count(), 0, 'no second clock');
    // Step (the toolbar's) moves every pane to the next event of any of them.
    await page.click('#step');
    const stepped = await page.$$eval('#compare .pane', (ps) => ps.map((p) => Number(p.dataset.now)));
    assert.ok(stepped[0] > 0 && stepped.every((t) => t === stepped[0]), `one moment: ${stepped}`);
    // Space plays the panes, at the toolbar's speed.
    await page.selectOption('#speed', '100');
    // Space on a focused button presses that button (Step here), so take focus off it first.
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press(' ');
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
    await page.waitForFunction(() => Number(document.querySelector('#timeline').value) >= 30000, null, { timeout: 30000 });
    // Space pauses (unless the panes already stopped at the comparison's end, 40 s).
    if (await page.getAttribute('#play', 'aria-pressed') === 'true') await page.keyboard.press(' ');
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
    const stw = await page.$$eval('#compare-metrics tr[data-variant]', (rows) => rows.map((r) => [r.dataset.variant, Number(r.dataset.stw)]));
    const eager = stw.find(([v]) => v.includes('eager'));
    assert.ok(eager[1] > 0, `eager stops the world: ${JSON.stringify(stw)}`);
    for (const [v, ms] of stw.filter(([v]) => !v.includes('eager'))) assert.equal(ms, 0, `${v} keeps the others processing`);
    // All panes show the toolbar clock's moment; the hidden main run did not move.
    const now = Number(await page.inputValue('#timeline'));
    const panes = await page.$$eval('#compare .pane', (ps) => ps.map((p) => Number(p.dataset.now)));
    assert.deepEqual(panes, panes.map(() => now));
    assert.match(await page.textContent('#clock'), new RegExp(`t = ${(now / 1000).toFixed(1)}`));
    assert.equal(await mainNow(), before, 'the main simulation waits while Side by side shows');
    // The scrubber goes back in every pane.
    await page.locator('#timeline').fill('5000');
    await page.waitForFunction(() => [...document.querySelectorAll('#compare .pane')].every((p) => p.dataset.now === '5000'));
    await page.screenshot({ path: join(ARTIFACTS, 'compare.png') });
    // A presenter's clicker ("next": PageDown) steps the panes too, not the hidden main run.
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('p');
    await page.waitForSelector('.presenter');
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => [...document.querySelectorAll('#compare .pane')].every((p) => Number(p.dataset.now) > 5000));
    assert.equal(await mainNow(), before, 'the clicker moved the panes, not the main simulation');
    await page.keyboard.press('p');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('compare this run: the current scenario and its faults under eager, cooperative, KIP-848 and static membership', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    for (const [lang, viewport] of [['en', { width: 1440, height: 900 }], ['zh', { width: 1440, height: 900 }], ['en', { width: 390, height: 844 }], ['zh', { width: 390, height: 844 }]]) {
      const { page, foreign, errors } = await openPage(browser, site, { viewport, path: `?lang=${lang}` });
      // The user's run: the demo with c2 crashed at 9 s.
      await page.evaluate(() => { window.groupscope.seek(9000); window.groupscope.inject(JSON.stringify({ type: 'crashConsumer', consumer: 2 })); });
      await page.click('#tab-compare');
      await page.click('#compare-this-run');
      await page.waitForSelector('#compare[data-comparison="this-run"]');
      const variants = await page.$$eval('#compare .pane', (ps) => ps.map((p) => p.dataset.variant));
      assert.deepEqual(variants, ['classic eager (range)', 'classic cooperative-sticky', 'consumer protocol (KIP-848, uniform)', 'classic eager (range), static members']);
      // The crash is on the panes' timeline, and the toolbar plays them past it.
      assert.equal(await page.locator('.timeline .marker.fault').count(), 1);
      await page.selectOption('#speed', '1000');
      await page.click('#play');
      // Playing stops by itself at the comparison's end (a minute: past the crash by 30 s at least).
      await page.waitForFunction(() => document.querySelector('#play').getAttribute('aria-pressed') === 'false', null, { timeout: 30000 });
      assert.equal(Number(await page.inputValue('#timeline')), 60000);
      const rows = await page.$$eval('#compare-metrics tr[data-variant]', (rs) => Object.fromEntries(rs.map((r) => [r.dataset.variant, { stw: Number(r.dataset.stw), rebalances: Number(r.dataset.rebalances) }])));
      assert.ok(rows['classic eager (range)'].stw > 0, JSON.stringify(rows));
      // Eager revokes every partition of every member (ConsumerCoordinator#onJoinPrepare); the others only what moves.
      assert.ok(rows['classic eager (range)'].stw > rows['classic cooperative-sticky'].stw, JSON.stringify(rows));
      assert.equal(rows['consumer protocol (KIP-848, uniform)'].stw, 0, JSON.stringify(rows));
      assert.ok((await page.locator('#compare-why li').count()) >= 1, 'each differing metric gets a sentence');
      // Legible: no sideways scrolling; panes side by side on a laptop, stacked on a phone.
      const layout = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('#compare .pane')].map((p) => p.getBoundingClientRect());
        const labels = [...document.querySelectorAll('#compare .pane svg text')].filter((t) => t.getBBox().width > 0 && getComputedStyle(t).display !== 'none' && getComputedStyle(t).visibility !== 'hidden');
        // The rendered size: the font size times the drawing's scale on screen.
        const sizes = labels.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
        return { scroll: document.scrollingElement.scrollWidth, tops: boxes.map((b) => Math.round(b.top)), widths: boxes.map((b) => Math.round(b.width)), small: sizes.filter((h) => h < 8).length, least: Math.min(...sizes), n: sizes.length };
      });
      assert.ok(layout.scroll <= viewport.width, `no sideways scrolling at ${viewport.width}: ${layout.scroll}`);
      if (viewport.width < 500) assert.ok(layout.tops.every((t, i) => i === 0 || t > layout.tops[i - 1]), `stacked on a phone: ${layout.tops}`);
      else assert.equal(new Set(layout.tops).size, 2, `two rows of two at 1440: ${layout.tops}`);
      assert.equal(layout.small, 0, `every label in the panes renders at 8 px or more (${layout.n} labels, least ${layout.least})`);
      // On a phone the panes use the narrow drawing: 10 px or more.
      if (viewport.width < 500) assert.ok(layout.least >= 10, `every label in a phone's pane renders at 10 px or more (least ${layout.least})`);
      // Each pane's drawing has an id of its own: no id twice on the page (four panes, four SVGs).
      const ids = await page.$$eval('[id]', (es) => es.map((e) => e.id));
      assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'no duplicate ids in side by side');
      assert.deepEqual(await page.$$eval('#compare .pane svg', (ss) => ss.map((s) => s.id)), ['topology-pane-1', 'topology-pane-2', 'topology-pane-3', 'topology-pane-4']);
      await page.screenshot({ path: join(ARTIFACTS, `compare-this-run-${viewport.width}-${lang}.png`), fullPage: viewport.width < 500 });
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
    site.close();
  }
});

test('consumer group vs share group: one crash, and the metrics that tell them apart', () => withSite(async ({ open }) => {
  for (const lang of ['en', 'zh']) {
    const page = await open({ viewport: { width: 1440, height: 900 }, path: `?lang=${lang}` });
    await page.click('#tab-compare');
    await page.selectOption('#compare-pick', 'compare-share-crash');
    await page.waitForSelector('#compare[data-comparison="compare-share-crash"]');
    assert.deepEqual(await page.$$eval('#compare .pane', (ps) => ps.map((p) => p.dataset.variant)), ['consumer group (KIP-848)', 'share group (KIP-932)']);
    await page.selectOption('#speed', '1000');
    await page.click('#play');
    // The comparison ends at 90 s; playing stops there.
    await page.waitForFunction(() => document.querySelector('#play').getAttribute('aria-pressed') === 'false', null, { timeout: 60000 });
    assert.equal(Number(await page.inputValue('#timeline')), 90000);
    const rows = await page.$$eval('#compare-metrics tr[data-variant]', (rs) => Object.fromEntries(rs.map((r) => [r.dataset.variant, { resumed: Number(r.dataset.resumed), disorder: Number(r.dataset.disorder), redelivered: Number(r.dataset.redelivered) }])));
    const cg = rows['consumer group (KIP-848)'];
    const sg = rows['share group (KIP-932)'];
    // The consumer group waits for the 45 s session timeout; the share group's leader releases c1's records at once.
    assert.ok(cg.resumed > 40000 && sg.resumed < 1000, JSON.stringify(rows));
    assert.ok(cg.redelivered > sg.redelivered, JSON.stringify(rows));
    assert.ok(cg.disorder === 0 && sg.disorder > 0, JSON.stringify(rows));
    const headers = await page.$$eval('#compare-metrics th', (ts) => ts.map((t) => t.textContent));
    assert.ok(headers.includes(lang === 'zh' ? '未按位移顺序处理的消息数' : 'records out of offset order'), headers.join(' | '));
    assert.ok((await page.locator('#compare-why li').count()) >= 3, 'resumed, duplicates and order each get a sentence');
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= 1440), 'no sideways scrolling');
    await page.screenshot({ path: join(ARTIFACTS, `compare-share-crash-1440-${lang}.png`), fullPage: true });
    await page.close();
  }
}));

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

test('on a 390 px phone the comparison\'s whole name shows, wrapped under the picker, for every comparison and both languages', () => withSite(async ({ open }) => {
  for (const lang of ['en', 'zh']) {
    const page = await open({ viewport: { width: 390, height: 844 }, path: `?lang=${lang}` });
    await page.click('#tab-compare');
    await page.waitForSelector('#compare .pane');
    const ids = await page.$$eval('#compare-pick option', (os) => os.map((o) => o.value));
    await page.click('#compare-this-run');
    await page.waitForSelector('#compare[data-comparison="this-run"]');
    for (const id of ['this-run', ...ids]) {
      if (id !== 'this-run') {
        await page.selectOption('#compare-pick', id);
        await page.waitForSelector(`#compare[data-comparison="${id}"]`);
      }
      const name = await page.$eval('#compare-name', (p) => {
        const r = p.getBoundingClientRect();
        return { text: p.innerText.trim(), left: r.left, right: r.right, cut: p.scrollWidth > p.clientWidth + 1, shown: getComputedStyle(p).display !== 'none' };
      });
      const option = await page.$eval('#compare-pick', (s) => s.selectedOptions[0].textContent.trim());
      assert.ok(name.shown, `${lang} ${id}: the name line shows on a phone`);
      assert.equal(name.text, option, `${lang} ${id}: the name line says the picker's whole option`);
      assert.ok(name.left >= 0 && name.right <= 390 && !name.cut, `${lang} ${id}: the name fits the screen (${JSON.stringify(name)})`);
      const pick = await page.$eval('#compare-pick', (s) => s.getBoundingClientRect().right);
      assert.ok(pick <= 390, `${lang}: the picker fits the screen (${pick})`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, `${lang} ${id}: no sideways scrolling`);
      if (id === ids[0]) await page.screenshot({ path: join(ARTIFACTS, `phone-390-compare-name-${lang}.png`) });
    }
  }
}));

test('the name line is only for phones: on a laptop the picker is wide enough', () => withSite(async ({ open }) => {
  const page = await open({ viewport: { width: 1440, height: 900 } });
  await page.click('#tab-compare');
  await page.waitForSelector('#compare .pane');
  assert.equal(await page.$eval('#compare-name', (p) => getComputedStyle(p).display), 'none');
}));
