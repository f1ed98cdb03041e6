// "The page teaches at a glance" (issue 13): the way in (welcome, static
// first frame, Help), the caption under the drawing, a drawing without
// overlapping or clipped labels for 1-16 clients and 1-5 brokers in all three
// protocols, stale and overdue members, the coordinator's session countdown,
// the legend, and exports that look like the screen. Screenshots go to
// tests/e2e/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, frames, launch, openPage, serveSite, withPage, withSite } from './harness.mjs';
import { badLabels, cutStates, renderedSizes, scenario } from './drawing.mjs';

async function seek(page, t) {
  await page.evaluate((t) => window.groupscope.seek(t), t);
  await frames(page);
}

test('no label of the drawing overlaps another or is cut, for 1-16 clients, 1-5 brokers, three protocols, stable and mid-rebalance', () => withPage(async ({ page }) => {
  const cases = [];
  for (const clients of [1, 3, 6, 7, 9, 12, 16]) {
    for (const [protocol, brokers] of [['eager', 1 + (clients % 5)], ['cooperative', 5], ['consumer', 3]]) cases.push([clients, brokers, protocol]);
  }
  const failures = [];
  for (const lang of ['en', 'zh-CN']) {
    await page.selectOption('#lang', lang);
    for (const [clients, brokers, protocol] of cases) {
      await page.evaluate((s) => window.groupscope.load(s), scenario(clients, brokers, protocol));
      // Joining: every member's state is a long one (PREPARING_REBALANCE, JOINING, ...).
      await seek(page, 1500);
      const joining = await cutStates(page);
      if (joining.length) failures.push(`${lang} ${clients} clients, ${protocol}, joining: states cut ${joining.join(', ')}`);
      await seek(page, 20000);
      const stable = await badLabels(page);
      // Mid-rebalance: a member crashes, its session runs out, the group rebalances.
      await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 1}'));
      await seek(page, 26500);
      const moving = await badLabels(page);
      const states = await cutStates(page);
      if (states.length) failures.push(`${lang} ${clients} clients, ${protocol}, rebalancing: states cut ${states.join(', ')}`);
      for (const [moment, r] of [['stable', stable], ['rebalancing', moving]]) {
        if (r.pairs.length || r.outside.length) failures.push(`${lang} ${clients} clients, ${brokers} brokers, ${protocol}, ${moment}: overlapping ${r.pairs.join('; ')} outside ${r.outside.join(', ')}`);
        assert.ok(r.count > clients, 'labels were measured');
      }
      if (clients === 16 && protocol === 'eager') await page.screenshot({ path: join(ARTIFACTS, `glance-16-clients-${lang}.png`) });
    }
  }
  assert.deepEqual(failures, []);
}));

test('messages flying side by side never write their labels over each other (two groups joining at once, every 50 ms)', () => withPage(async ({ page }) => {
  // Lesson 7's run: billing's and search's members all join broker-0 within the first second.
  const twoGroups = JSON.stringify({
    seed: 7, brokers: 3,
    topics: [{ name: 'invoices', partitions: 6 }, { name: 'documents', partitions: 6 }],
    groups: [
      { groupId: 'billing', consumers: 2, config: { 'session.timeout.ms': 6000, 'heartbeat.interval.ms': 2000, 'partition.assignment.strategy': ['range', 'cooperative-sticky'], topics: ['invoices'] } },
      { groupId: 'search', consumers: 2, config: { 'session.timeout.ms': 6000, 'heartbeat.interval.ms': 2000, 'partition.assignment.strategy': ['cooperative-sticky'], topics: ['documents'] } },
    ],
  });
  const failures = [];
  let labelled = 0;
  for (const [name, run] of [['two groups', twoGroups], ['three eager consumers', scenario(3, 3, 'eager')], ['six cooperative consumers', scenario(6, 3, 'cooperative')]]) {
    await page.evaluate((s) => window.groupscope.load(s), run);
    for (let t = 0; t <= 3000; t += 50) {
      await seek(page, t);
      const r = await badLabels(page);
      labelled += await page.$$eval('#topology .msg text', (ts) => ts.length);
      if (r.pairs.length) failures.push(`${name} at ${t} ms: ${r.pairs.join('; ')}`);
    }
  }
  assert.ok(labelled > 20, `message labels were drawn and measured (${labelled})`);
  assert.deepEqual(failures, []);
}));

test('on a 390x844 phone the narrow drawing keeps every label at 10 px or more (7 consumers and others), none overlapping, no sideways scrolling', () => withPage(async ({ page }) => {
  const failures = [];
  for (const lang of ['en', 'zh-CN']) {
    await page.selectOption('#lang', lang);
    for (const [clients, brokers, protocol] of [[7, 3, 'eager'], [7, 5, 'cooperative'], [7, 3, 'consumer'], [1, 1, 'eager'], [3, 3, 'eager'], [12, 4, 'cooperative'], [16, 5, 'eager']]) {
      await page.evaluate((s) => window.groupscope.load(s), scenario(clients, brokers, protocol));
      await page.waitForFunction((n) => document.querySelectorAll('#topology [data-member]').length === n, clients);
      await seek(page, 20000);
      const stable = [await renderedSizes(page), await badLabels(page)];
      await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 1}'));
      await seek(page, 26500);
      const moving = [await renderedSizes(page), await badLabels(page)];
      for (const [moment, [sizes, bad]] of [['stable', stable], ['rebalancing', moving]]) {
        const where = `${lang} ${clients} clients, ${brokers} brokers, ${protocol}, ${moment}`;
        const small = sizes.filter((s) => s.px < 10 || s.h < 10).map((s) => `"${s.text}" ${s.px.toFixed(1)}px (box ${s.h.toFixed(1)})`);
        if (small.length) failures.push(`${where}: small labels ${small.slice(0, 6).join(', ')}`);
        if (bad.pairs.length || bad.outside.length) failures.push(`${where}: overlapping ${bad.pairs.join('; ')} outside ${bad.outside.join(', ')}`);
        assert.ok(sizes.length > clients * 3, `${where}: labels were measured (${sizes.length})`);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > 390) failures.push(`${lang} ${clients} clients: the page is ${wide}px wide`);
      if (clients === 7 && protocol === 'eager') await page.screenshot({ path: join(ARTIFACTS, `phone-390-7-clients-${lang}.png`), fullPage: true });
    }
  }
  assert.deepEqual(failures, []);
}, { viewport: { width: 390, height: 844 } }));

test('a crashed member: its session keeps counting down on the coordinator, its partitions are stale, the inspector says crashed', () => withPage(async ({ page }) => {
  await seek(page, 12000);
  await page.click('g[data-member="c2"] circle.body');
  await page.click('#inspector button[data-fault="crashConsumer"]');
  const ring = () => page.$eval('g[data-member="c2"] circle.ring.session', (c) => Number(c.getAttribute('stroke-dasharray').split(' ')[0]));
  await seek(page, 13000);
  const early = await ring();
  await seek(page, 15500);
  const later = await ring();
  assert.ok(early > later && later > 0, `the coordinator's session deadline counts down after the crash (${early} → ${later})`);
  assert.equal(await page.getAttribute('g[data-member="c2"]', 'data-state'), 'crashed');
  assert.equal(await page.getAttribute('g[data-member="c2"]', 'data-stale'), 'true');
  assert.ok(await page.locator('g[data-member="c2"] .chip.stale').count() > 0, 'its last partitions are drawn as stale');
  assert.equal(await page.locator('g[data-member="c2"] .chip.owned').count(), 0, 'and not as owned');
  const facts = await page.textContent('#inspector dl');
  assert.match(facts, /crashed \(was STABLE\)/);
  assert.match(facts, /last poll\(\)/);
  assert.match(facts, /session deadline on the coordinator/);
  await seek(page, 20000);
  assert.equal(await ring(), 0, 'gone once the coordinator removed the member');
  assert.match(await page.textContent('#inspector'), /Restart c2/, 'fault buttons are verbs');
  await page.screenshot({ path: join(ARTIFACTS, 'glance-crashed-1440.png') });
}));

test('the caption sits under the drawing, visible without scrolling at 1280x720 and 1440x900; the log is one click away', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    for (const [width, height] of [[1280, 720], [1440, 900]]) {
      for (const lang of ['en', 'zh']) {
        const { page, errors } = await openPage(browser, site, { viewport: { width, height }, path: `?lang=${lang}` });
        await seek(page, 9000);
        const cap = await page.$eval('#caption', (c) => { const r = c.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, text: c.textContent, size: parseFloat(getComputedStyle(c).fontSize) }; });
        const svg = await page.$eval('#topology', (s) => s.getBoundingClientRect().bottom);
        assert.ok(cap.bottom <= height, `${width}x${height} ${lang}: the caption (bottom ${cap.bottom}) is on screen`);
        assert.ok(cap.top >= svg - 1 && cap.top - svg < 40, `directly under the drawing (${svg} → ${cap.top})`);
        assert.ok(cap.size >= 16, `large (${cap.size}px)`);
        assert.ok(cap.text.length > 10);
        await page.screenshot({ path: join(ARTIFACTS, `glance-${width}x${height}-${lang}.png`) });
        await page.click('#show-log');
        await page.waitForFunction(() => document.activeElement?.id === 'log-filter');
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    site.close();
  }
});

test('the legend opens and closes, and Help explains the drawing and says what Enter does', () => withPage(async ({ page }) => {
  await page.click('#legend-button');
  await page.waitForSelector('#legend');
  const legend = await page.textContent('#legend');
  for (const word of [/session/, /heartbeat/, /max.poll.interval.ms/, /leader/, /crashed/, /stale|last held/, /coordinator/, /Connect worker/, /cut/]) assert.match(legend, word);
  await page.click('#legend-button');
  await page.waitForSelector('#legend', { state: 'detached' });
  await page.keyboard.press('?');
  const help = await page.textContent('#help');
  assert.match(help, /Enter on a node: select it/);
  assert.doesNotMatch(help, /crash or restart it/);
  assert.match(help, /group coordinator/);
  // Enter on a focused node selects it (and nothing crashes).
  await page.keyboard.press('Escape');
  await page.focus('g[data-member="c1"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#inspector h2');
  assert.match(await page.textContent('#inspector h2'), /c1/);
  assert.notEqual(await page.getAttribute('g[data-member="c1"]', 'data-state'), 'crashed');
}));

test('the SVG export is the drawing on screen (chips, caption-free, same size)', () => withPage(async ({ page }) => {
  await seek(page, 20000);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const path = await download.path();
  const svg = (await import('node:fs')).readFileSync(path, 'utf8');
  const onScreen = await page.$eval('#topology', (s) => s.getAttribute('viewBox'));
  assert.ok(svg.includes(`viewBox="${onScreen}"`), 'the same viewBox');
  assert.ok(svg.includes('class="chip owned"'), 'with the partition chips');
  assert.ok(svg.includes('.chip rect'), 'and the styles that draw them');
}));

test('first visit: a welcome with three doors before the wasm is ready; remembered once closed', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    // Without the wasm the welcome and the static first frame still show.
    const bare = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await bare.route(/\.wasm(\.gz)?$/, (r) => r.abort());
    await bare.goto(site.url);
    await bare.waitForSelector('#welcome:not([hidden])');
    assert.equal(await bare.locator('#welcome .door').count(), 3);
    assert.ok(await bare.isVisible('#prelude svg'), 'a static first frame');
    assert.match(await bare.textContent('#welcome .welcome-what'), /Kafka/);
    await bare.screenshot({ path: join(ARTIFACTS, 'welcome-before-wasm.png') });
    await bare.close();
    // The static frame's accessible names follow the language as its texts do.
    const bareZh = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await bareZh.route(/\.wasm(\.gz)?$/, (r) => r.abort());
    await bareZh.goto(site.url + '?lang=zh');
    await bareZh.waitForSelector('#welcome:not([hidden])');
    const labels = await bareZh.$$eval('#welcome [aria-label], #prelude [aria-label]', (els) => els.map((e) => e.getAttribute('aria-label')));
    assert.ok(labels.length >= 3, `labels: ${labels}`);
    // Kafka's own names (broker) stay in English, as in every Chinese text.
    for (const label of labels) assert.doesNotMatch(label.replace(/\bbroker\b/g, ''), /[a-z]{4,}/i, `an English accessible name on the Chinese page: ${label}`);
    await bareZh.close();

    for (const [door, check] of [
      ['demo', async (page) => page.waitForFunction(() => window.groupscope.state().playing)],
      ['course', async (page) => {
        await page.waitForSelector('#lesson');
        const open = await page.getAttribute('#lesson', 'data-lesson');
        await page.click('#tab-lessons');
        await page.waitForSelector('.lesson-card');
        const first = await page.getAttribute('.lesson-card', 'data-lesson');
        assert.equal(open, first, 'the first lesson of the course');
        await page.click('#tab-sim');
      }],
      ['sandbox', async (page) => assert.match(await page.textContent('#notice'), /sandbox/i)],
    ]) {
      const { page, errors } = await openPage(browser, site, { welcome: true, viewport: { width: 390, height: 844 } });
      await page.waitForSelector('#welcome:not([hidden])');
      if (door === 'demo') await page.screenshot({ path: join(ARTIFACTS, 'welcome-390.png') });
      await page.waitForFunction(() => window.groupscope && window.groupscope.state);
      await page.click(`#welcome [data-door="${door}"]`);
      assert.ok(await page.isHidden('#welcome'));
      await check(page);
      await page.reload();
      await page.waitForSelector('#play');
      assert.ok(await page.isHidden('#welcome'), `${door}: remembered after a reload`);
      assert.equal(await page.locator('#prelude').count(), 0, 'the static frame is gone once the app draws');
      // Help shows it again.
      await page.click('#help-button');
      await page.click('#welcome-again');
      await page.waitForSelector('#welcome:not([hidden])');
      await page.keyboard.press('Escape');
      assert.ok(await page.isHidden('#welcome'));
      assert.deepEqual(errors, []);
      await page.close();
    }
    // In Chinese.
    const { page } = await openPage(browser, site, { welcome: true, path: '?lang=zh', viewport: { width: 1440, height: 900 } });
    await page.waitForSelector('#welcome:not([hidden])');
    assert.match(await page.innerText('#welcome'), /开始课程/);
    assert.doesNotMatch(await page.innerText('#welcome'), /Start the course/);
    await page.screenshot({ path: join(ARTIFACTS, 'welcome-zh-1440.png') });
  } finally {
    await browser.close();
    site.close();
  }
});

test('state diagrams: every state name fits inside its box, the current one (bold, marked) too', async () => {
  await withPage(async ({ page }) => {
    const spill = () => page.$$eval('.statechart .state', (gs) => gs.map((g) => {
      const r = g.querySelector('rect').getBBox();
      const b = g.querySelector('text').getBBox();
      return { name: g.dataset.state, over: Math.max(r.x - b.x, b.x + b.width - (r.x + r.width)) };
    }).filter((s) => s.over > 0.5));
    assert.deepEqual(await spill(), [], 'stable');
    // c2 crashes; once its session expires the group is PreparingRebalance, the longest name, lit.
    await page.evaluate(() => { window.groupscope.seek(9000); window.groupscope.inject('{"type": "crashConsumer", "consumer": 2}'); });
    let t = 9000;
    while (t < 30000 && await page.evaluate(() => window.groupscope.state().groups[0].state) !== 'PreparingRebalance') {
      t += 250;
      await page.evaluate((t) => window.groupscope.seek(t), t);
    }
    await frames(page);
    assert.equal(await page.getAttribute('.statechart .state.current', 'data-state'), 'PreparingRebalance');
    assert.deepEqual(await spill(), [], `at ${t} ms`);
  });
});

/** Where the caption ends and the state diagrams begin, and the side column's bottom. */
const band = (page) => page.evaluate(() => ({
  caption: document.querySelector('.caption-bar').getBoundingClientRect().bottom,
  diagrams: document.querySelector('.diagrams').getBoundingClientRect().top,
  side: document.querySelector('.side').getBoundingClientRect().bottom,
}));

test('1440x900: the state diagram follows the caption with no empty band, even when the side column is the taller', () => withSite(async ({ open }) => {
  for (const lang of ['en', 'zh']) {
    for (const path of [`?lang=${lang}`, `?lang=${lang}#lesson=4&step=2`]) {
      const page = await open({ viewport: { width: 1440, height: 900 }, path });
      if (path.includes('lesson')) await page.waitForSelector('#lesson');
      await seek(page, 9000);
      const plain = await band(page);
      // The inspector of a selected consumer makes the side column taller than the drawing and the diagrams.
      await page.click('g[data-member="c1"] circle.body');
      await page.waitForSelector('#inspector h2');
      await frames(page);
      const selected = await band(page);
      assert.ok(selected.side > selected.diagrams + 300, `${path}: the side column is the taller (${JSON.stringify(selected)})`);
      for (const [when, b] of [['plain', plain], ['selected', selected]]) {
        // The grid's row gap is .8rem (12.8 px).
        assert.ok(b.diagrams - b.caption <= 16, `${path} ${when}: ${(b.diagrams - b.caption).toFixed(0)} px between the caption and the state diagram`);
      }
      if (!path.includes('lesson')) await page.screenshot({ path: join(ARTIFACTS, `glance-1440x900-selected-${lang}.png`) });
    }
  }
}));

/** Broker labels cut with "…" or squeezed to fit (textLength). */
const cutBrokerLabels = (page) => page.$$eval('#topology [data-broker] text', (ts) => ts
  .filter((t) => t.textContent.includes('…') || t.hasAttribute('textLength'))
  .map((t) => `broker-${t.closest('[data-broker]').dataset.broker}: "${t.textContent}"`));

test('no broker label is cut with an ellipsis at 1280x720 (presenter too) and 1440x900: the box is as wide as its role line, or the line wraps', () => withSite(async ({ open }) => {
  const failures = [];
  for (const lang of ['en', 'zh']) {
    for (const [width, height, presenter] of [[1280, 720, false], [1280, 720, true], [1440, 900, false]]) {
      const page = await open({ viewport: { width, height }, path: `?lang=${lang}` });
      if (presenter) await page.click('#presenter');
      const where = `${lang} ${width}x${height}${presenter ? ' presenter' : ''}`;
      // The demo, a group on five brokers, and four groups (one broker coordinates two or more).
      const four = JSON.stringify({
        seed: 1, brokers: 3, topics: [{ name: 'orders', partitions: 6 }],
        groups: ['payments-consumers', 'audit', 'search-indexer', 'billing'].map((g) => ({ groupId: g, consumers: 2, config: { topics: ['orders'] } })),
      });
      for (const [name, s] of [['demo', null], ['5 brokers', scenario(6, 5, 'cooperative')], ['4 groups', four]]) {
        if (s) await page.evaluate((s) => window.groupscope.load(s), s);
        await seek(page, 12000);
        const roles = await page.$$eval('#topology [data-broker] text.role', (ts) => ts.map((t) => t.textContent).join(' '));
        assert.ok(roles.length > 10, `${where} ${name}: a role line is drawn (${roles})`);
        const cut = await cutBrokerLabels(page);
        if (cut.length) failures.push(`${where} ${name}: ${cut.join(', ')}`);
        const bad = await badLabels(page);
        if (bad.pairs.length || bad.outside.length) failures.push(`${where} ${name}: overlapping ${bad.pairs.join('; ')} outside ${bad.outside.join(', ')}`);
        if (name === 'demo') {
          const tooltip = await page.$eval('#topology .broker.coordinator title', (t) => t.textContent);
          const shown = await page.$$eval('#topology .broker.coordinator text.role', (ts) => ts.map((t) => t.textContent).join(' '));
          assert.ok(tooltip.startsWith(shown), `${where}: the whole role line shows: "${shown}" of "${tooltip}"`);
          if (!presenter) await page.screenshot({ path: join(ARTIFACTS, `brokers-${width}x${height}-${lang}.png`), clip: { x: 0, y: 0, width, height: Math.min(height, 420) } });
        }
        if (name === '4 groups' && width === 1440) await page.screenshot({ path: join(ARTIFACTS, `brokers-4-groups-1440-${lang}.png`), clip: { x: 0, y: 0, width, height: 420 } });
      }
    }
  }
  assert.deepEqual(failures, []);
}));

test('on a 390x844 phone a group of more than 16 consumers keeps its names at 10 px or more: five columns, the drawing grows down', () => withPage(async ({ page }) => {
  const failures = [];
  for (const lang of ['en', 'zh-CN']) {
    await page.selectOption('#lang', lang);
    for (const [clients, brokers, protocol] of [[17, 3, 'eager'], [40, 3, 'cooperative'], [100, 5, 'consumer']]) {
      await page.evaluate((s) => window.groupscope.load(s), scenario(clients, brokers, protocol));
      await page.waitForFunction((n) => document.querySelectorAll('#topology [data-member]').length === n, clients);
      for (const t of [20000, 26500]) {
        if (t === 26500) await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 1}'));
        await seek(page, t);
        const where = `${lang} ${clients} clients, ${protocol}, t=${t}`;
        const sizes = await renderedSizes(page);
        const small = sizes.filter((s) => s.px < 10 || s.h < 10).map((s) => `"${s.text}" ${s.px.toFixed(1)}px`);
        if (small.length) failures.push(`${where}: small labels ${small.slice(0, 6).join(', ')}`);
        const names = await page.$$eval('#topology [data-member] text', (ts) => ts.length);
        assert.equal(names, clients, `${where}: every consumer is named`);
        const bad = await badLabels(page);
        if (bad.pairs.length || bad.outside.length) failures.push(`${where}: overlapping ${bad.pairs.slice(0, 4).join('; ')} outside ${bad.outside.join(', ')}`);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > 390) failures.push(`${lang} ${clients} clients: the page is ${wide}px wide`);
      if (clients === 40) await page.screenshot({ path: join(ARTIFACTS, `phone-390-40-clients-${lang}.png`) });
    }
  }
  assert.deepEqual(failures, []);
}, { viewport: { width: 390, height: 844 } }));

/** Message discs drawn over the nodes (not passed behind them) that cover a node's text, at this instant. */
const messagesOverText = (page) => page.evaluate(() => {
  const box = (e) => e.getBoundingClientRect();
  const texts = [...document.querySelectorAll('#topology [data-member] text, #topology [data-broker] text')]
    .filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none')
    .map((t) => ({ r: box(t), text: t.textContent, owner: t.closest('[data-member], [data-broker]').dataset.member || `broker-${t.closest('[data-broker]').dataset.broker}` }));
  const hits = [];
  for (const m of document.querySelectorAll('#topology .msg:not(.behind) circle')) {
    const a = box(m);
    for (const t of texts) {
      const b = t.r;
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) hits.push(`${m.closest('.msg').getAttribute('class')} over "${t.text}" (${t.owner})`);
    }
  }
  return hits;
});

test('with 9 and 12 consumers mid-rebalance, no message in flight covers a node\'s text: one crossing another node passes behind it', () => withSite(async ({ open }) => {
  const failures = [];
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    const page = await open({ viewport: { width, height } });
    for (const [clients, protocol, fault] of [[9, 'eager', 'crash'], [12, 'cooperative', 'join'], [9, 'consumer', 'join'], [12, 'eager', 'join']]) {
      await page.evaluate((s) => window.groupscope.load(s), scenario(clients, 3, protocol));
      await seek(page, 20000);
      await page.evaluate((f) => window.groupscope.inject(f === 'crash' ? '{"type": "crashConsumer", "consumer": 2}' : '{"type": "addConsumer", "group": "demo"}'), fault);
      let seen = 0;
      for (let t = 20100; t <= 27000; t += 150) {
        await page.evaluate((t) => window.groupscope.seek(t), t);
        seen += await page.locator('#topology .msg').count();
        const hits = await messagesOverText(page);
        if (hits.length) failures.push(`${width} ${clients} ${protocol} ${fault} t=${t}: ${hits.slice(0, 3).join('; ')}`);
        // Mid-rebalance: c13 has just joined (PreparingRebalance), c2's session has just run out.
        if ((width === 1440 && clients === 12 && protocol === 'cooperative' && t === 20550) || (width === 390 && clients === 9 && fault === 'crash' && t === 24900)) {
          await frames(page);
          await page.screenshot({ path: join(ARTIFACTS, `glance-${clients}-clients-${fault}-${width}-en.png`) });
        }
      }
      assert.ok(seen > 20, `${width} ${clients} ${protocol}: messages were in flight (${seen})`);
    }
  }
  assert.deepEqual(failures.slice(0, 12), []);
}));
