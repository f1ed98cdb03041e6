// The classroom: a clicker-only walk of a lesson at its own speed (digits
// pick, → reveals and goes on; the verdict waits for the event); a lesson
// added to a built site through lessons/index.json; a draft opened from
// disk and validated with file, step and field; screenshots of a lesson on
// a phone and a laptop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, withPage } from './harness.mjs';

const read = (f) => readFileSync(join(ROOT, 'lessons', f), 'utf8');
const index = JSON.parse(read('index.json'));
const lesson4 = JSON.parse(read(index.find((f) => f.startsWith('04-'))));

test('a clicker alone walks lesson 4 at its own speed; the verdict waits for the event', async () => {
  await withPage(async ({ page, browser, site }) => {
    await page.click('#tab-lessons');
    // Presenter mode: the authored order, so the key for each answer is known.
    await page.click(`.lesson-card[data-lesson="4"] .open-lesson`);
    await page.waitForSelector('#lesson');
    if (!(await page.isChecked('#same-order'))) await page.click('#same-order');
    await page.locator('#lesson').click({ position: { x: 2, y: 2 } });
    let revealedOnce = false;
    const started = Date.now();
    for (let guard = 0; guard < 100; guard++) {
      const phase = await page.getAttribute('#lesson', 'data-phase');
      const step = lesson4.steps[Number(await page.getAttribute('#lesson', 'data-step')) - 1];
      if (phase === 'Free') break;
      if (phase === 'Question') {
        const q = step.question;
        if (!revealedOnce) {
          // A learner who does not answer: → reveals; the answer comes with the event.
          await page.keyboard.press('PageDown');
          revealedOnce = true;
          await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Question');
          assert.equal(await page.getAttribute('#lesson', 'data-phase'), 'Running');
          assert.equal(await page.locator('#lesson .feedback').count(), 0, 'nothing is revealed before the event');
          await page.waitForSelector('#lesson .feedback.revealed', { timeout: 15000 });
          continue;
        }
        const pos = q.choices && q.choices.length ? q.answer : q.targets.indexOf(q.answer);
        await page.keyboard.press(String(pos + 1));
        await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Question');
        const letter = String.fromCharCode(65 + pos);
        if ((await page.getAttribute('#lesson', 'data-phase')) === 'Running') {
          assert.match(await page.locator('#lesson .prediction').innerText(), new RegExp(`\\b${letter}\\b`));
          assert.equal(await page.locator('#lesson .feedback').count(), 0, 'no verdict before the event');
        }
        await page.waitForSelector('#lesson .feedback.right', { timeout: 15000 });
      } else if (phase === 'Act') {
        await page.keyboard.press(String(step.task.answer + 1));
        await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 15000 });
      } else if (phase === 'Reached') {
        const before = await page.getAttribute('#lesson', 'data-step');
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((b) => {
          const el = document.querySelector('#lesson');
          return el.dataset.step !== b || el.dataset.phase !== 'Reached';
        }, before);
      } else {
        await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Running', null, { timeout: 15000 });
      }
    }
    assert.equal(await page.getAttribute('#lesson', 'data-phase'), 'Free');
    assert.ok(Date.now() - started < 90000, 'the lesson is short enough at its speed');
  });
});

test('a lesson added to the built site through lessons/index.json appears without a rebuild, and a broken one is explained', async () => {
  await withPage(async ({ page, browser, site }) => {
    // The teacher's new file and index line.
    const extra = JSON.parse(JSON.stringify(lesson4));
    extra.id = 'my-class-lesson';
    extra.number = 90;
    extra.title = { en: 'My class lesson', zh: '我的课堂课程' };
    // A returning visitor: the page is served by the site's offline copy
    // (static/sw.js), which must not hide a lesson added since.
    await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 30_000 });
    writeFileSync(join(site.dir, 'lessons', 'index.json'), JSON.stringify([...index, '90-my-class.json']));
    writeFileSync(join(site.dir, 'lessons', '90-my-class.json'), JSON.stringify(extra));
    await page.click('#tab-lessons');
    await page.waitForSelector('.lesson-card[data-lesson="90"]');
    assert.match(await page.textContent('.lesson-card[data-lesson="90"] h3'), /90\. My class lesson/);
    await page.click('.lesson-card[data-lesson="90"] .open-lesson');
    await page.waitForSelector('#lesson[data-lesson="90"]');

    // A broken file: the page names the file, the step and the field.
    const page2 = await browser.newPage();
    // A returning visitor: the first-visit welcome would cover the tabs.
    await page2.addInitScript(() => { try { localStorage.setItem('groupscope.welcomed', '1'); } catch { /* storage off */ } });
    const broken = JSON.parse(JSON.stringify(extra));
    broken.steps[1].question.answer = 9;
    writeFileSync(join(site.dir, 'lessons', '90-my-class.json'), JSON.stringify(broken));
    await page2.goto(site.url);
    await page2.click('#tab-lessons');
    const e = page2.locator('.fault-error').first();
    await e.waitFor();
    const text = await e.textContent();
    assert.match(text, /lessons\/90-my-class\.json/);
    assert.match(text, new RegExp(`step 2 \\(${broken.steps[1].id}\\)\\.question\\.answer: 9 is out of range`));
  });
});

test('an author opens a draft lesson from disk: errors name file, step and field; a valid draft opens', async () => {
  await withPage(async ({ page, browser, site }) => {
    await page.click('#tab-lessons');
    await page.waitForSelector('#lesson-file');
    const broken = JSON.parse(JSON.stringify(lesson4));
    broken.steps[0].narration.zh = '';
    await page.setInputFiles('#lesson-file', { name: 'draft.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
    await page.waitForSelector('#lesson-file-error');
    const text = await page.textContent('#lesson-file-error');
    assert.match(text, /lessons\/draft\.json/);
    assert.match(text, new RegExp(`step 1 \\(${broken.steps[0].id}\\)\\.narration\\.zh: the Chinese text is missing or empty`));
    const draft = JSON.parse(JSON.stringify(lesson4));
    draft.title = { en: 'My draft', zh: '我的草稿' };
    await page.setInputFiles('#lesson-file', { name: 'draft.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(draft)) });
    await page.waitForSelector('#lesson');
    assert.match(await page.textContent('#lesson h2'), /My draft/);
  });
});

test('screenshots of a lesson question on a phone and a laptop', async () => {
  await withPage(async ({ browser, site }) => {
    for (const [w, h] of [[390, 844], [1440, 900]]) {
      const page = await browser.newPage({ viewport: { width: w, height: h } });
      await page.goto(site.url + '#lesson=4&step=2');
      await page.waitForSelector('#lesson[data-phase="Question"]');
      await page.locator('#lesson').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `lesson-question-${w}x${h}.png`) });
      await page.click('#lesson .choice >> nth=0');
      await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 20000 });
      await page.locator('#lesson').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `lesson-verdict-${w}x${h}.png`) });
      await page.close();
    }
  });
});
