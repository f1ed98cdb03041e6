// A presenter's clicker (issue 32): its four keys (PageDown, PageUp, b, .)
// run a lesson in presenter mode. `b` and `.` blank the screen and pause and
// never answer; PageDown shows a task done and, after the last step, opens
// the next lesson. And a reload keeps the sandbox's run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, frames, withPage, withSite } from './harness.mjs';

const phase = (page) => page.getAttribute('#lesson', 'data-phase');

test('presenting a lesson, b and . blank the screen and never answer; PageDown shows the task done and opens the next lesson', () => withSite(async ({ open }) => {
  const page = await open({ viewport: { width: 1280, height: 720 }, path: '#lesson=0&step=1' });
  await page.waitForSelector('#lesson[data-phase="Question"]');
  await page.keyboard.press('p');
  await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
  for (const key of ['b', '.']) {
    await page.keyboard.press(key);
    await page.waitForSelector('#blank');
    await page.screenshot({ path: join(ARTIFACTS, 'clicker-blank.png') });
    assert.equal(await phase(page), 'Question', `${key} does not answer`);
    assert.equal(await page.locator('.prediction').count(), 0, `${key}: no prediction committed`);
    assert.equal(await page.evaluate(() => window.groupscope.state().playing), false, 'blank pauses');
    await page.keyboard.press(key);
    await page.waitForSelector('#blank', { state: 'detached' });
    assert.equal(await phase(page), 'Question');
  }
  // The task of lesson 0's last step: PageDown performs the option that reaches its goal.
  await page.evaluate(() => { location.hash = '#lesson=0&step=4'; });
  await page.waitForSelector('#lesson[data-step="4"][data-phase="Act"]');
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('#lesson')?.dataset.phase !== 'Act');
  await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 60_000 });
  assert.doesNotMatch(await page.textContent('#lesson'), /expected/i, 'no test assertion shown');
  await page.keyboard.press('PageDown');
  await page.waitForSelector('#lesson[data-phase="Free"]');
  await page.keyboard.press('PageDown');
  await page.waitForSelector('#lesson[data-lesson="1"][data-step="1"]');
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, 'clicker-next-lesson-1280.png') });
  // PageUp from the first question goes nowhere; from step 2 it goes back to step 1.
  await page.evaluate(() => { location.hash = '#lesson=1&step=2'; });
  await page.waitForSelector('#lesson[data-lesson="1"][data-step="2"]');
  await page.keyboard.press('PageUp');
  await page.waitForSelector('#lesson[data-lesson="1"][data-step="1"]');
}));

test('a reload keeps the sandbox run: its faults and its moment', () => withPage(async ({ page }) => {
  await page.evaluate(() => { window.groupscope.seek(9000); window.groupscope.inject(JSON.stringify({ type: 'crashConsumer', consumer: 2 })); });
  await page.evaluate(() => window.groupscope.seek(12000));
  await frames(page);
  const before = await page.evaluate(() => JSON.parse(window.groupscope.runJson()));
  await page.reload();
  await page.waitForSelector('#play');
  await page.waitForFunction(() => window.groupscope.state().now === 12000);
  const after = await page.evaluate(() => JSON.parse(window.groupscope.runJson()));
  assert.deepEqual(after, before, 'the same run, faults and playhead');
  const c2 = (await page.evaluate(() => window.groupscope.state())).consumers.find((c) => c.name === 'c2');
  assert.equal(c2.alive, false, 'c2 is still crashed');
}));
