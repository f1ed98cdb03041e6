// Slow motion around the watched event (issue 32): on a 390x844 phone at the
// lesson's own speed, the FindCoordinator round trip lesson 1's first two
// questions are about (0.2 s of simulated time) stays in the drawing for at
// least 1.5 s of wall time after the learner commits, named beside its disc,
// and the panel says the run plays in slow motion. Measured in the page, one
// animation frame at a time, from the tap until the step's event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, withSite } from './harness.mjs';

/** Wall time (ms) FindCoordinator messages are drawn until the step's event, and what the page said meanwhile. */
const watchUntilEvent = (page) => page.evaluate(() => new Promise((resolve) => {
  let shown = 0;
  let last = performance.now();
  let named = '';
  let slow = false;
  const frame = (t) => {
    const msgs = [...document.querySelectorAll('#topology .msg.findcoordinator')];
    if (msgs.length) shown += t - last;
    last = t;
    for (const m of msgs) {
      const label = m.querySelector('text')?.textContent ?? '';
      if (m.classList.contains('watched') && label) named = label;
    }
    slow ||= !!document.querySelector('#lesson .prediction .slow-motion');
    if (document.querySelector('#lesson').dataset.phase === 'Running') requestAnimationFrame(frame);
    else resolve({ shown, named, slow, phase: document.querySelector('#lesson').dataset.phase });
  };
  requestAnimationFrame(frame);
}));

for (const lang of ['en', 'zh']) {
  test(`phone, lesson 1 (${lang}): the FindCoordinator round trip each question is about stays on screen 1.5 s, named`, () => withSite(async ({ browser, site }) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.addInitScript(() => localStorage.setItem('groupscope.welcomed', '1'));
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.url}?lang=${lang}#lesson=1&step=1`);
    await page.waitForSelector('#lesson[data-phase="Question"]');
    for (const step of ['1', '2']) {
      await page.waitForSelector(`#lesson[data-step="${step}"][data-phase="Question"]`);
      await page.locator('#lesson .choice').first().tap();
      const shot = step === '1'
        ? page.waitForTimeout(700).then(() => page.screenshot({ path: join(ARTIFACTS, `watch-lesson-1-step-1-slow-motion-390-${lang}.png`) }))
        : Promise.resolve();
      const seen = await watchUntilEvent(page);
      await shot;
      const where = `lesson 1 step ${step} (${lang})`;
      assert.equal(seen.phase, 'Reached', `${where}: the run stops on the event`);
      assert.ok(seen.shown >= 1500, `${where}: FindCoordinator drawn for ${Math.round(seen.shown)} ms of wall time, at least 1,500 ms`);
      assert.match(seen.named, /^FindCoordinator/, `${where}: the watched message is named in the drawing`);
      assert.ok(seen.slow, `${where}: the panel says the run plays in slow motion`);
      await page.keyboard.press('PageDown');
    }
    assert.deepEqual(errors, []);
  }));
}

// A projector at 1280x720, a clicker's PageDown: while the event the room
// predicted plays, the drawing takes the screen's width (the lesson panel
// waits under it) and every label in it renders at 16 px or more; for the
// reveal the panel is beside the drawing again.
test('presenting lesson 1, the watched event plays in a drawing whose every label is 16 px or more', () => withSite(async ({ open }) => {
  const { renderedSizes } = await import('./drawing.mjs');
  const page = await open({ viewport: { width: 1280, height: 720 }, path: '#lesson=1&step=1' });
  await page.waitForSelector('#lesson[data-phase="Question"]');
  await page.keyboard.press('p');
  await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
  const beside = async () => page.evaluate(() => {
    const stage = document.querySelector('.stage').getBoundingClientRect();
    const lesson = document.querySelector('#lesson').getBoundingClientRect();
    return lesson.left >= stage.right - 1;
  });
  assert.ok(await beside(), 'the question is beside the drawing');
  await page.keyboard.press('PageDown');
  await page.waitForSelector('#topology .msg.watched text', { timeout: 10_000 });
  const sizes = await renderedSizes(page);
  await page.screenshot({ path: join(ARTIFACTS, 'watch-lesson-1-presenter-1280.png') });
  const small = sizes.filter((s) => s.px < 16).map((s) => `"${s.text}" ${s.px.toFixed(1)}px`);
  assert.deepEqual(small, [], 'every label of the drawing renders at 16 px or more while the event plays');
  const svg = await page.$eval('#topology', (s) => s.getBoundingClientRect().width);
  assert.ok(svg >= 1100, `the drawing is ${Math.round(svg)} px wide while the event plays`);
  await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 30_000 });
  assert.ok(await beside(), 'the reveal is beside the drawing');
}));
