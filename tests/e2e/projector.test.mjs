// A lesson on a projector (issue 13, "presenter mode for a room"): at
// 1280x720 in presenter mode, every question and task of the course shows its
// prompt, every choice and the button that goes on without scrolling, in
// English and Chinese, so a teacher with a clicker never scrolls for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, frames, withPage } from './harness.mjs';

const dir = join(import.meta.dirname, '..', '..', 'lessons');
const steps = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).flatMap((f) => {
  const l = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  return l.steps.map((s, i) => [l.number, i + 1, s]).filter(([, , s]) => s.question || s.task);
});

test('at 1280x720 in presenter mode every question and task of the course is in view with all its choices, in English and Chinese', () => withPage(async ({ browser, site }) => {
  assert.ok(steps.length > 40, `the course has its questions (${steps.length})`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => { try { localStorage.setItem('groupscope.welcomed', '1'); } catch { /* storage off */ } });
  const failures = [];
  for (const lang of ['en', 'zh']) {
    // One load per language; each step then opens from a pasted deep link
    // (the page reads #lesson=&step= on hashchange as on a fresh load).
    await page.goto(`${site.url}${lang === 'zh' ? '?lang=zh' : ''}`);
    await page.waitForSelector('#play');
    for (const [lesson, step, s] of steps) {
      await page.evaluate((h) => { location.hash = h; }, `#lesson=${lesson}&step=${step}`);
      await page.waitForSelector(`#lesson[data-lesson="${lesson}"][data-step="${step}"][data-phase="${s.question ? 'Question' : 'Act'}"]`);
      if (!(await page.$('.presenter'))) await page.keyboard.press('p');
      await page.waitForSelector('.presenter');
      await frames(page);
      const parts = s.question ? '#lesson .prompt, #lesson .choice, #lesson .reveal' : '#lesson .task-option';
      const boxes = await page.$$eval(parts, (els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent.trim().slice(0, 30), top: r.top, bottom: r.bottom, right: r.right };
      }));
      const wanted = s.question ? (s.question.choices || []).length : s.task.options.length;
      if (boxes.length < wanted) failures.push(`${lang} lesson ${lesson} step ${step}: ${boxes.length} of ${wanted} found`);
      const out = boxes.filter((b) => b.top < 0 || b.bottom > 720 || b.right > 1280);
      if (out.length) failures.push(`${lang} lesson ${lesson} step ${step}: out of view ${out.map((b) => `"${b.text}" (${Math.round(b.top)}-${Math.round(b.bottom)})`).join(', ')}`);
      if (lesson === 16 && step === 4) await page.screenshot({ path: join(ARTIFACTS, `projector-lesson-16-task-${lang}.png`) });
    }
  }
  await page.close();
  assert.deepEqual(failures, []);
}));
