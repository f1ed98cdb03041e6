// A student's phone (390x844, touch) in a lesson (issue 32): a new step opens
// at its first line; from the moment the learner commits (answers or acts)
// until the event happens the drawing stays on screen, and two seconds more;
// then the verdict is.
// Lessons 0 and 4 have a short drawing (pinned above the panel); lesson 3's
// six consumers make it tall (the page scrolls to it instead).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, frames, withSite } from './harness.mjs';

/** How much of `selector` is inside the viewport, 0..1 of its height (or of the viewport). */
const inView = (page, selector) => page.$eval(selector, (el) => {
  const r = el.getBoundingClientRect();
  const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
  return Math.max(0, seen) / Math.min(r.height, innerHeight);
});
const firstLineInView = (page) => page.$eval('#lesson', (el) => {
  const top = el.getBoundingClientRect().top;
  return top >= -2 && top < innerHeight - 60;
});
const phase = (page) => page.getAttribute('#lesson', 'data-phase');

for (const lesson of [0, 3, 4]) {
  test(`phone, lesson ${lesson}: each step opens at its first line, the drawing is in view from commit to event, then the verdict`, () => withSite(async ({ browser, site }) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.addInitScript(() => localStorage.setItem('groupscope.welcomed', '1'));
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.url}#lesson=${lesson}&step=1`);
    await page.waitForSelector('#lesson');
    for (let guard = 0; guard < 20; guard++) {
      const p = await phase(page);
      const step = await page.getAttribute('#lesson', 'data-step');
      const where = `lesson ${lesson} step ${step} (${p})`;
      if (p === 'Free') break;
      if (p === 'Question' || p === 'Act') {
        await frames(page);
        assert.ok(await firstLineInView(page), `${where}: the step opens at its first line`);
        const pick = page.locator(p === 'Question' ? '#lesson .choice' : '#lesson .task-option').first();
        await pick.tap();
        // From the commit until the event, the drawing stays on screen.
        let samples = 0;
        while (await phase(page) === 'Running') {
          await frames(page);
          const seen = await inView(page, '#topology');
          const box = seen > 0.6 ? '' : JSON.stringify(await page.evaluate(() => ({ y: scrollY, r: document.querySelector('#topology').getBoundingClientRect(), phase: document.querySelector('#lesson').dataset.phase })));
          assert.ok(seen > 0.6, `${where}: ${Math.round(seen * 100)} % of the drawing in view while the event plays ${box}`);
          if (samples++ === 2) await page.screenshot({ path: join(ARTIFACTS, `phone-lesson-${lesson}-step-${step}-watching.png`) });
          await page.waitForTimeout(150);
        }
      } else if (p === 'Running') {
        await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Running', null, { timeout: 60_000 });
        continue;
      }
      const now = await phase(page);
      if (now === 'Reached' && await page.locator('#lesson .feedback').count()) {
        // The event stays in view about two seconds, then the verdict comes into view.
        await frames(page);
        assert.ok(await inView(page, '#topology') > 0.6, `${where}: the drawing is in view when the event happens`);
        await page.waitForFunction(() => {
          const r = document.querySelector('#lesson .feedback').getBoundingClientRect();
          return r.top < innerHeight && r.bottom > 0;
        }, null, { timeout: 4000 }).catch(() => assert.fail(`${where}: the verdict came into view`));
        if (lesson === 3 && step === '1') await page.screenshot({ path: join(ARTIFACTS, 'phone-lesson-3-verdict.png') });
      }
      if (now === 'Missed') {
        // The first option missed the task's goal: the hint is what to read now.
        assert.ok(await inView(page, '#lesson .task-missed') > 0.3, `${where}: the hint is in view after a missed try`);
        break;
      }
      await page.keyboard.press('PageDown');
      await page.waitForFunction((s) => document.querySelector('#lesson').dataset.step !== s || document.querySelector('#lesson').dataset.phase === 'Free', step, { timeout: 10_000 });
    }
    assert.deepEqual(errors, []);
  }));
}
