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
