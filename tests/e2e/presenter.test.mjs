// Presenting: presenter mode from its button (large type, full screen, and the
// keys a presenter's clicker or keyboard sends), and prefers-reduced-motion
// (messages parked at the middle of their link instead of gliding).
// timeline.test.mjs enters presenter mode with the `p` key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, frames, withPage, withSite } from './harness.mjs';
import { badLabels, renderedSizes, scenario } from './drawing.mjs';

const events = (page) => page.evaluate(() => window.groupscope.state().events);
const playing = (page) => page.evaluate(() => window.groupscope.state().playing);

test('presenter mode: large type, full screen, and Space, arrows, PageDown and "?"', () => withPage(async ({ page }) => {
  // Count the full-screen requests the page makes (the real call still runs).
  await page.evaluate(() => {
    window.fullscreenRequests = [];
    const request = Element.prototype.requestFullscreen;
    Element.prototype.requestFullscreen = function (...args) {
      window.fullscreenRequests.push(this.tagName);
      return request.apply(this, args);
    };
  });
  const size = () => page.$eval('.groupscope', (el) => getComputedStyle(el).fontSize);
  const normal = await size();

  await page.click('#presenter');
  assert.equal(await page.getAttribute('#presenter', 'aria-pressed'), 'true');
  assert.ok(await page.$eval('.groupscope', (el) => el.classList.contains('presenter')), 'the presenter class is applied');
  assert.equal(await size(), '20px', `large type (was ${normal})`);
  assert.deepEqual(await page.evaluate(() => window.fullscreenRequests), ['HTML'], 'the whole page asks for full screen');
  await page.waitForFunction(() => document.fullscreenElement === document.documentElement, null, { timeout: 5000 });
  // The button gives the focus back, so Space plays rather than pressing it again.
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'presenter');

  // The keys act on the simulation only: none of them scrolls the page.
  const top = () => page.evaluate(() => window.scrollTo(0, 0));
  const scrolled = () => page.evaluate(() => window.scrollY);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.groupscope.state().playing);
  assert.equal(await page.getAttribute('#presenter', 'aria-pressed'), 'true', 'Space leaves presenter mode on');
  assert.equal(await scrolled(), 0, 'Space plays instead of scrolling');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => !window.groupscope.state().playing);

  // "." and "b" are a clicker's blank-screen keys in presenter mode (clicker.test.mjs).
  for (const key of ['ArrowRight', 'PageDown']) {
    await top();
    const before = await events(page);
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.groupscope.state().events > n, before);
    assert.equal(await playing(page), false, `${key} steps without playing`);
    assert.equal(await scrolled(), 0, `${key} steps instead of scrolling`);
  }
  const before = await events(page);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => window.groupscope.state().events < n, before);

  await page.keyboard.press('?');
  await page.waitForSelector('#help');
  assert.match(await page.textContent('#help'), /Space/);
  await page.screenshot({ path: join(ARTIFACTS, 'presenter-fullscreen.png') });
  await page.keyboard.press('Escape');
  await page.waitForSelector('#help', { state: 'detached' });

  // Space on a focused button presses that button only.
  await page.focus('#step');
  const atStep = await events(page);
  await page.keyboard.press(' ');
  await page.waitForFunction((n) => window.groupscope.state().events > n, atStep);
  assert.equal(await playing(page), false, 'Space on #step steps and does not also play');

  // Leaving presenter mode leaves full screen.
  await page.keyboard.press('p');
  await page.waitForFunction(() => !document.querySelector('.groupscope').classList.contains('presenter'));
  await page.waitForFunction(() => document.fullscreenElement === null, null, { timeout: 5000 });
  assert.equal(await size(), normal);
}));

/** The position of every message drawn, by id. */
const positions = (page) => page.$$eval('#topology g.msg', (gs) => Object.fromEntries(gs.map((g) => {
  const c = g.querySelector('circle');
  return [g.dataset.msg, [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]];
})));

async function seek(page, t) {
  await page.evaluate((t) => window.groupscope.seek(t), t);
  // yew draws on its next turn; two frames later the SVG shows time t.
  await frames(page);
}

/** Finds messages in flight at two moments 40 ms apart; returns both drawings. */
async function twoMoments(page) {
  for (let t = 300; t < 10000; t += 100) {
    await seek(page, t);
    const a = await positions(page);
    await seek(page, t + 40);
    const b = await positions(page);
    const both = Object.keys(a).filter((id) => id in b);
    if (both.length) return { a, b, both };
  }
  throw new Error('no message in flight across 40 ms');
}

test('prefers-reduced-motion parks messages at the middle of their link; otherwise they glide', () => withPage(async ({ page }) => {
  // The topology asks matchMedia on every drawing, so the emulated setting applies at once.
  for (const reducedMotion of ['reduce', 'no-preference']) {
    await page.emulateMedia({ reducedMotion });
    assert.equal(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), reducedMotion === 'reduce');
    const { a, b, both } = await twoMoments(page);
    const moved = both.filter((id) => a[id][0] !== b[id][0] || a[id][1] !== b[id][1]);
    const label = await page.$eval('#topology g.msg text', (t) => getComputedStyle(t).display);
    if (reducedMotion === 'reduce') {
      assert.deepEqual(moved, [], 'no message moves while in flight');
      // Parked at the middle of the link between its two nodes.
      const middles = await page.$$eval('#topology line.link-line', (ls) => ls.map((l) => [
        (Number(l.getAttribute('x1')) + Number(l.getAttribute('x2'))) / 2,
        (Number(l.getAttribute('y1')) + Number(l.getAttribute('y2'))) / 2,
      ]));
      for (const id of both) {
        assert.ok(middles.some(([x, y]) => Math.abs(x - b[id][0]) < 0.5 && Math.abs(y - b[id][1]) < 0.5), `message ${id} at ${b[id]} sits mid-link`);
      }
      assert.equal(label, 'none', 'the moving labels are hidden');
      await page.screenshot({ path: join(ARTIFACTS, 'reduced-motion.png') });
    } else {
      assert.deepEqual(moved, both, 'every message in flight moves along its link');
      assert.notEqual(label, 'none');
    }
  }
}));

/** Every label of the side-by-side panes, with its rendered size (font size times the drawing's scale). */
const paneLabels = (page) => page.$$eval('#compare .pane svg text', (ts) => ts.filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none').map((t) => ({
  text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a,
})));

test('presenter mode at 1280x720: the side-by-side panes stack, and their drawings\' labels render at 12 px or more', () => withSite(async ({ open }) => {
  for (const lang of ['en', 'zh']) {
    const page = await open({ viewport: { width: 1280, height: 720 }, path: `?lang=${lang}` });
    await page.evaluate(() => { window.groupscope.seek(9000); window.groupscope.inject(JSON.stringify({ type: 'crashConsumer', consumer: 2 })); });
    await page.click('#tab-compare');
    await page.waitForSelector('#compare .pane');
    await page.click('#presenter');
    await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
    for (const which of ['shipped', 'this run']) {
      if (which === 'this run') {
        await page.click('#compare-this-run');
        await page.waitForSelector('#compare[data-comparison="this-run"]');
      }
      // Mid-run: states, generations, chips and messages are all drawn.
      await page.locator('#timeline').fill('20000');
      await page.waitForFunction(() => [...document.querySelectorAll('#compare .pane')].every((p) => p.dataset.now === '20000'));
      await frames(page);
      const labels = await paneLabels(page);
      const panes = await page.locator('#compare .pane').count();
      assert.ok(labels.length > panes * 20, `${lang} ${which}: labels were measured (${labels.length})`);
      const small = labels.filter((l) => l.px < 12).map((l) => `"${l.text}" ${l.px.toFixed(1)}px`);
      assert.deepEqual(small, [], `${lang} ${which}: every pane label is 12 px or more`);
      const lefts = await page.$$eval('#compare .pane', (ps) => ps.map((p) => Math.round(p.getBoundingClientRect().left)));
      assert.equal(new Set(lefts).size, 1, `${lang} ${which}: one pane under another (${lefts})`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 1280, 'no sideways scrolling');
      if (which === 'this run') await page.screenshot({ path: join(ARTIFACTS, `presenter-compare-1280x720-${lang}.png`) });
    }
    // Out of presenter mode the panes sit side by side again.
    await page.click('#presenter');
    await page.waitForFunction(() => !document.querySelector('.groupscope').classList.contains('presenter'));
    const lefts = await page.$$eval('#compare .pane', (ps) => ps.map((p) => Math.round(p.getBoundingClientRect().left)));
    assert.ok(new Set(lefts).size > 1, `side by side outside presenter mode (${lefts})`);
  }
}));

test('the caption bar\'s "Show fetches" toggle is as legible as the buttons beside it in presenter mode at 1280x720, and a touch target on a phone', () => withSite(async ({ open }) => {
  const box = (page, sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { h: r.height, w: r.width, px: parseFloat(getComputedStyle(e).fontSize) }; });
  for (const lang of ['en', 'zh']) {
    const page = await open({ viewport: { width: 1280, height: 720 }, path: `?lang=${lang}` });
    await page.click('#presenter');
    await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
    const [toggle, legend, check] = [await box(page, 'label.show-fetches'), await box(page, '#legend-button'), await box(page, '#show-fetches')];
    assert.ok(toggle.px >= legend.px, `${lang}: the toggle's text (${toggle.px}px) is as large as Legend's (${legend.px}px)`);
    assert.ok(toggle.h >= legend.h - 1, `${lang}: as tall as Legend (${toggle.h} vs ${legend.h})`);
    assert.ok(check.h >= 0.9 * legend.px, `${lang}: its checkbox scales with the type (${check.h}px)`);
    await page.close();
    const phone = await open({ viewport: { width: 390, height: 844 }, path: `?lang=${lang}` });
    const p = await box(phone, 'label.show-fetches');
    assert.ok(p.h >= 44 && p.w >= 44, `${lang}: a touch target on a phone (${p.w}x${p.h})`);
    await phone.close();
  }
}));

test('presenter mode at 1280x720 with more than 16 consumers: every name renders at 16 px or more, none overlaps, and up to 100 fit the screen', () => withSite(async ({ open }) => {
  const failures = [];
  for (const lang of ['en', 'zh']) {
    const page = await open({ viewport: { width: 1280, height: 720 }, path: `?lang=${lang}` });
    await page.click('#presenter');
    await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
    for (const [clients, protocol] of [[17, 'eager'], [40, 'cooperative'], [100, 'consumer']]) {
      await page.evaluate((s) => window.groupscope.load(s), scenario(clients, 3, protocol));
      await page.waitForFunction((n) => document.querySelectorAll('#topology [data-member]').length === n, clients);
      await seek(page, 20000);
      await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 1}'));
      await seek(page, 24000);
      const where = `${lang} ${clients} clients, ${protocol}`;
      const names = (await renderedSizes(page)).filter((s) => /^c\d+$/.test(s.text));
      assert.equal(names.length, clients, `${where}: every consumer is named`);
      const small = names.filter((s) => s.px < 16).map((s) => `"${s.text}" ${s.px.toFixed(1)}px`);
      if (small.length) failures.push(`${where}: small names ${small.slice(0, 6).join(', ')}`);
      const bad = await badLabels(page);
      if (bad.pairs.length || bad.outside.length) failures.push(`${where}: overlapping ${bad.pairs.slice(0, 4).join('; ')} outside ${bad.outside.join(', ')}`);
      // The whole grid is on the projected screen, above the caption.
      const bottom = await page.$eval('#topology [data-member="c' + clients + '"]', (g) => g.getBoundingClientRect().bottom);
      if (bottom > 720) failures.push(`${where}: the last consumer ends at ${bottom.toFixed(0)} px, below the screen`);
      if (clients === 100) await page.screenshot({ path: join(ARTIFACTS, `presenter-100-clients-1280x720-${lang}.png`) });
    }
  }
  assert.deepEqual(failures, []);
}));
