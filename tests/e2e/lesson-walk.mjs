// Every lesson, played in the browser in both languages: each question is
// answered right (English pass) or wrong (Chinese pass); the learner sees
// "You predicted B — watch" while the run plays, and the verdict, the
// explanation and (for a wrong choice) its own "why not" only once the
// step's event has happened. While a question waits, what it conceals
// cannot be read off the visible page. Tasks are done right at once
// (English) or after a wrong try and its hint (Chinese). The lessons'
// answers come from their data files. The course is walked in two halves
// per language, one test file each (lessons-walk-*.test.mjs), so that the
// four walks, which mostly wait on the page's clock, run beside each other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite } from './harness.mjs';

const index = JSON.parse(readFileSync(join(ROOT, 'lessons', 'index.json'), 'utf8'));
export const lessons = index.map((f) => JSON.parse(readFileSync(join(ROOT, 'lessons', f), 'utf8')));

/** The page's visible text (innerText leaves out what is hidden). */
const visible = (page) => page.evaluate(() => document.body.innerText);

/** While a question waits: nothing it conceals can be read off the page. */
async function checkConcealed(page, lesson, step, lang) {
  const q = step.question;
  const at = `lesson ${lesson.number} step ${step.id}`;
  const text = await visible(page);
  assert.ok(!text.includes(q.explanation[lang]), `${at}: the explanation is not on the page`);
  for (const secret of q.conceals || []) {
    const [kind, s] = Object.entries(secret)[0];
    const g = s.group;
    if (kind === 'coordinator') {
      for (const needle of [`coordinator of ${g} (p`, `${g} 的协调者（p`, `abs("${g}".hashCode() =`]) {
        assert.ok(!text.includes(needle), `${at}: '${needle}' is visible`);
      }
    } else if (kind === 'leader') {
      const state = await page.locator(`.group[data-group="${g}"] .state`).innerText();
      assert.ok(!/leader c\d/.test(state), `${at}: the group panel names ${g}'s leader: ${state}`);
      if (typeof q.answer === 'string' && q.answer.startsWith('c')) {
        const node = page.locator(`g.consumer[data-member="${q.answer}"]`);
        if (await node.count()) {
          assert.ok(!(await node.getAttribute('class')).split(' ').includes('leader'), `${at}: ${q.answer} is drawn as leader`);
          assert.ok(!(await node.locator('text.title').textContent()).includes('★'), `${at}: ${q.answer} has the leader's star`);
        }
      }
    } else if (kind === 'owners') {
      const owners = await page.locator(`#ownership tr[data-group="${g}"] td.owner`).allInnerTexts();
      assert.ok(owners.every((o) => o.trim() === ''), `${at}: owners of ${g} are visible: ${owners}`);
      // A Kafka Streams application: no thread shows its task chips.
      const chips = await page.locator(`.streams-app[data-group="${g}"] .st-thread .st-task`).count();
      assert.equal(chips, 0, `${at}: ${g}'s threads show ${chips} task chips`);
    } else if (kind === 'status') {
      const statuses = await page.locator(`#ownership tr[data-group="${g}"]`).evaluateAll((rows) => rows.map((r) => r.dataset.status));
      assert.ok(statuses.every((x) => x !== 'revoking' && x !== 'pending'), `${at}: ${g} shows revoking/pending marks`);
      // A Kafka Streams application: no chip restoring, giving up or waiting, and no status code.
      const app = `.streams-app[data-group="${g}"]`;
      const moving = await page.locator(`${app} .st-task.k-restoring, ${app} .st-task.k-revoking, ${app} .st-task.k-pending`).count();
      assert.equal(moving, 0, `${at}: ${g} shows ${moving} tasks restoring, giving up or waiting`);
      const codes = await page.locator(`${app} [data-status], .group[data-group="${g}"] [data-status], #caption .st-cap`).count();
      assert.equal(codes, 0, `${at}: ${g}'s heartbeat status codes are visible`);
    }
  }
}

/** A step with a comparison: its button opens the Side by side tab on it
 * (one pane per variant, named in the page's language), and "Back to the
 * lesson" returns to the same step. */
async function openStepComparison(page, lesson, step, lang) {
  const at = `lesson ${lesson.number} step ${step.id}`;
  const [phase, stepNo] = [await page.getAttribute('#lesson', 'data-phase'), await page.getAttribute('#lesson', 'data-step')];
  assert.equal((await page.textContent('#lesson-compare')).trim(), step.compare.label[lang], `${at}: the button says the step's words`);
  await page.click('#lesson-compare');
  await page.waitForSelector(`#compare[data-comparison="lesson-${lesson.id}-${step.id}"]`);
  const variants = await page.$$eval('#compare .pane', (ps) => ps.map((p) => p.dataset.variant));
  // A step's own comparison, or a shipped one (scenarios/<id>.json).
  const comparison = step.compare.comparison || JSON.parse(readFileSync(join(ROOT, 'scenarios', `${step.compare.shipped}.json`), 'utf8'));
  assert.deepEqual(variants, comparison.variants.map((v) => v.name), `${at}: one pane per variant`);
  assert.equal(await page.$eval('#compare-pick', (s) => s.selectedOptions[0].textContent.trim()), step.compare.label[lang]);
  const titles = await page.$$eval('#compare .pane h3', (hs) => hs.map((h) => h.textContent));
  if (lang === 'zh') assert.ok(titles.some((t) => /经典|消费者组|共享组/.test(t)) && titles.every((t) => !/classic|consumer group|share group/.test(t)), `${at}: pane titles in Chinese: ${titles}`);
  await page.click('#compare-back');
  await page.waitForSelector('#lesson');
  assert.equal(await page.getAttribute('#lesson', 'data-step'), stepNo, `${at}: back at the same step`);
  assert.equal(await page.getAttribute('#lesson', 'data-phase'), phase);
}

/** Plays the open lesson to its end; `right` chooses right answers and does tasks right at once. */
async function playLesson(page, lesson, right, lang) {
  let asked = 0;
  let acted = 0;
  for (let guard = 0; guard < 300; guard++) {
    const phase = await page.getAttribute('#lesson', 'data-phase');
    const stepNo = Number(await page.getAttribute('#lesson', 'data-step'));
    const step = lesson.steps[stepNo - 1];
    if (phase === 'Free') break;
    if (phase === 'Question') {
      const q = step.question;
      assert.ok((await page.locator('#lesson .prompt').textContent()).includes(q.prompt[lang]), 'the prompt is in the chosen language');
      await checkConcealed(page, lesson, step, lang);
      let button;
      let pick;
      if (q.choices && q.choices.length) {
        pick = right ? q.answer : (q.answer + 1) % q.choices.length;
        button = page.locator(`#lesson .choice[data-choice="${pick}"]`);
      } else {
        pick = right ? q.answer : q.targets.find((t) => t !== q.answer);
        button = page.locator(`#lesson .choice[data-target="${pick}"]`);
      }
      const letter = await button.getAttribute('data-letter');
      await button.click();
      await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Question');
      // At 1000x the event may come within a frame; the clicker test checks the wait at the lesson's speed.
      // Phase, prediction and verdict are read in one go: the run may reach the event between two reads.
      const now = await page.evaluate(() => {
        const l = document.querySelector('#lesson');
        return { phase: l.dataset.phase, prediction: l.querySelector('.prediction')?.innerText ?? '', verdicts: l.querySelectorAll('.feedback').length };
      });
      if (now.phase === 'Running') {
        assert.match(now.prediction, new RegExp(`\\b${letter}\\b`), 'You predicted <letter>');
        assert.equal(now.verdicts, 0, `lesson ${lesson.number} step ${step.id}: no verdict before the event`);
      }
      await page.waitForSelector(`#lesson .feedback.${right ? 'right' : 'wrong'}`, { timeout: 20000 });
      assert.equal(await page.getAttribute('#lesson', 'data-phase'), 'Reached', 'the verdict comes with the event');
      assert.ok((await page.textContent('#lesson .feedback')).includes(q.explanation[lang]), 'the explanation is shown');
      if (!right) {
        const why = q.whyNot[String(pick)];
        assert.ok((await page.textContent('#lesson .feedback .why-not')).includes(why[lang]), 'the wrong choice gets its own why-not');
      }
      asked++;
    } else if (phase === 'Act') {
      const t = step.task;
      if (!right) {
        const wrong = t.options.findIndex((_, i) => i !== t.answer);
        await page.click(`#lesson .task-option[data-option="${wrong}"]`);
        await page.waitForSelector('#lesson[data-phase="Missed"]', { timeout: 20000 });
        // An option with checks shows the hints of those that failed (naming the wrong choice).
        const missedText = await page.textContent('#lesson .task-missed');
        const checks = t.options[wrong].checks || [];
        const hints = checks.length ? checks.map((c) => c.hint[lang]) : [t.hint[lang]];
        assert.ok(hints.some((h) => missedText.includes(h)), `a missed try shows its hint: ${missedText}`);
        await page.click('#lesson .retry');
        await page.waitForSelector('#lesson[data-phase="Act"]');
      }
      await page.click(`#lesson .task-option[data-option="${t.answer}"]`);
      await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 20000 });
      // A done text may name the run's state through placeholders ({leader:demo}), filled on the page.
      const done = new RegExp(t.done[lang].split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^{}]+?'));
      assert.match(await page.textContent('#lesson .task-done'), done, 'the task reached its goal');
      acted++;
    } else if (phase === 'Reached') {
      assert.equal(await page.locator('#lesson .fault-error').count(), 0, `lesson ${lesson.number} step ${stepNo}: expectations hold`);
      if (step.compare) await openStepComparison(page, lesson, step, lang);
      else assert.equal(await page.locator('#lesson-compare').count(), 0, `lesson ${lesson.number} step ${step.id}: no comparison button`);
      const before = await page.getAttribute('#lesson', 'data-step');
      await page.click('#lesson-next');
      await page.waitForFunction((b) => {
        const el = document.querySelector('#lesson');
        return el.dataset.step !== b || el.dataset.phase !== 'Reached';
      }, before);
    } else if (phase === 'Missed') {
      assert.fail(`lesson ${lesson.number} step ${stepNo}: the right option missed: ${await page.textContent('#lesson .task-missed')}`);
    } else {
      // Running: the lesson plays itself until the step's event.
      await page.waitForFunction((n) => {
        const el = document.querySelector('#lesson');
        return el.dataset.phase !== 'Running' || Number(el.dataset.step) !== n;
      }, stepNo, { timeout: 20000 });
    }
  }
  assert.equal(await page.getAttribute('#lesson', 'data-phase'), 'Free', `lesson ${lesson.number} ends in free play`);
  assert.equal(asked, lesson.steps.filter((s) => s.question).length, `lesson ${lesson.number}: every question was asked`);
  assert.equal(acted, lesson.steps.filter((s) => s.task).length, `lesson ${lesson.number}: every task was done`);
  // Try it yourself: its faults are buttons, and the next lesson is one click away.
  assert.equal(await page.locator('#lesson .try-fault').count(), lesson.tryIt.faults.length);
  const last = lesson.number === Math.max(...lessons.map((l) => l.number));
  assert.equal(await page.locator('#lesson .next-lesson').count(), last ? 0 : 1);
}

async function open(page, number) {
  await page.click('#tab-lessons');
  await page.click(`.lesson-card[data-lesson="${number}"] .open-lesson`);
  await page.waitForSelector('#lesson');
  await page.selectOption('#speed', '1000');
}

/** Walks one half (`half` 0 or 1) of the course in `lang`, answering
 * right or wrong; every lesson of the half ends finished. */
export async function walkCourse(lang, right, half) {
  const middle = Math.ceil(lessons.length / 2);
  const mine = half === 0 ? lessons.slice(0, middle) : lessons.slice(middle);
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.selectOption('#lang', lang === 'zh' ? 'zh-CN' : 'en');
    await page.click('#tab-lessons');
    // The course is read from the site's lessons/index.json when the tab first opens.
    await page.waitForSelector('.lesson-card');
    assert.equal(await page.locator('#lessons-loading').count(), 0);
    assert.equal(await page.locator('.lesson-card').count(), lessons.length);
    for (const lesson of mine) {
      await open(page, lesson.number);
      assert.match(await page.textContent('#lesson h2'), new RegExp(lesson.title[lang].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await playLesson(page, lesson, right, lang);
      if (lesson.number === 4) await page.screenshot({ path: join(ARTIFACTS, `lesson-4-${lang}.png`) });
    }
    await page.click('#tab-lessons');
    for (const lesson of mine) {
      const status = await page.locator(`.lesson-card[data-lesson="${lesson.number}"] .status`).textContent();
      assert.match(status, /finished|已完成/, `lesson ${lesson.number}`);
    }
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
}
