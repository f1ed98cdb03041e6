// Every lesson, played in the browser in both languages: each question is
// answered once right (English pass) and once wrong (Chinese pass), and the
// feedback must say so. The lessons' answers come from their data files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite } from './harness.mjs';

const lessons = readdirSync(join(ROOT, 'lessons')).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(join(ROOT, 'lessons', f), 'utf8')));

/** Plays the open lesson to its end; `right` chooses the right or a wrong answer. */
async function playLesson(page, lesson, right, lang) {
  let asked = 0;
  for (let guard = 0; guard < 200; guard++) {
    const phase = await page.getAttribute('#lesson', 'data-phase');
    const stepNo = Number(await page.getAttribute('#lesson', 'data-step'));
    const step = lesson.steps[stepNo - 1];
    if (phase === 'Free') break;
    if (phase === 'Question') {
      const q = step.question;
      assert.ok(await page.locator('#lesson .prompt').textContent().then((t) => t.includes(q.prompt[lang])), 'the prompt is in the chosen language');
      if (q.choices && q.choices.length) {
        const pick = right ? q.answer : (q.answer + 1) % q.choices.length;
        await page.click(`#lesson .choice[data-choice="${pick}"]`);
      } else {
        const pick = right ? q.answer : q.targets.find((t) => t !== q.answer);
        await page.click(`#lesson .choice[data-target="${pick}"]`);
      }
      await page.waitForSelector(`#lesson .feedback.${right ? 'right' : 'wrong'}`);
      assert.ok((await page.textContent('#lesson .feedback')).includes(q.explanation[lang]), 'the explanation is shown');
      asked++;
    } else if (phase === 'Reached') {
      assert.equal(await page.locator('#lesson .fault-error').count(), 0, `lesson ${lesson.number} step ${stepNo}: expectations hold`);
      await page.click('#lesson-next');
    } else {
      // Running: the lesson plays itself until the step's event.
      await page.waitForFunction((n) => {
        const el = document.querySelector('#lesson');
        return el.dataset.phase !== 'Running' || Number(el.dataset.step) !== n;
      }, stepNo, { timeout: 20000 });
    }
  }
  assert.equal(await page.getAttribute('#lesson', 'data-phase'), 'Free', `lesson ${lesson.number} ends in free play`);
  const questions = lesson.steps.filter((s) => s.question).length;
  assert.equal(asked, questions, `lesson ${lesson.number}: every question was asked`);
}

for (const [lang, right] of [['en', true], ['zh', false]]) {
  test(`every lesson end to end in ${lang}, answering ${right ? 'right' : 'wrong'}`, async () => {
    const site = await serveSite();
    const browser = await launch();
    try {
      const { page, foreign, errors } = await openPage(browser, site);
      await page.selectOption('#lang', lang === 'zh' ? 'zh-CN' : 'en');
      await page.selectOption('#speed', '1000');
      await page.click('#tab-lessons');
      // The course is fetched from the site's lessons/ folder when the tab first opens.
      await page.waitForSelector('.lesson-card');
      assert.equal(await page.locator('#lessons-loading').count(), 0);
      assert.equal(await page.locator('.lesson-card').count(), lessons.length);
      for (const lesson of lessons) {
        await page.click('#tab-lessons');
        await page.click(`.lesson-card[data-lesson="${lesson.number}"] .open-lesson`);
        await page.waitForSelector('#lesson');
        assert.match(await page.textContent('#lesson h2'), new RegExp(lesson.title[lang].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        await playLesson(page, lesson, right, lang);
        if (lesson.number === 4) await page.screenshot({ path: join(ARTIFACTS, `lesson-4-${lang}.png`) });
      }
      // Progress is remembered: every card says finished.
      await page.click('#tab-lessons');
      const statuses = await page.locator('.lesson-card .status').allTextContents();
      assert.ok(statuses.every((s) => /finished|已完成/.test(s)), JSON.stringify(statuses));
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      site.close();
    }
  });
}

test('a lesson step is deep-linkable', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser, site);
    await page.goto('about:blank');
    await page.goto(site.url + '#lesson=4&step=2');
    await page.waitForSelector('#lesson');
    assert.equal(await page.getAttribute('#lesson', 'data-lesson'), '4');
    assert.equal(await page.getAttribute('#lesson', 'data-step'), '2');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('lessons that cannot be fetched are explained, and the simulation keeps running', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page } = await openPage(browser, site);
    await page.route('**/lessons/**', (route) => route.abort());
    const before = await page.evaluate(() => window.groupscope.state().events);
    await page.click('#tab-lessons');
    const error = page.locator('.fault-error');
    await error.first().waitFor();
    assert.match(await error.first().textContent(), /lessons\/01-finding-the-coordinator\.json could not be loaded/);
    await page.click('#tab-sim');
    await page.click('#step');
    assert.ok(await page.evaluate(() => window.groupscope.state().events) > before, 'the run still steps');
  } finally {
    await browser.close();
    site.close();
  }
});
