// Kafka Connect in the page: workers drawn with their tasks, a FAILED task
// that a rebalance does not restart, and the REST restart from the inspector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, launch, openPage, serveSite } from './harness.mjs';

test('Connect workers, a failed task, a REST restart', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.click('#tab-config');
    await page.selectOption('#cfg-example', 'connect');
    await page.click('#cfg-apply');
    await page.waitForSelector('#cfg-applied');
    await page.click('#tab-sim');
    assert.equal(await page.locator('g.worker').count(), 3);
    await page.evaluate(() => window.groupscope.seek(15000));
    await page.waitForFunction(() => [...document.querySelectorAll('#connect-tasks tr[data-task]')].every((r) => r.dataset.taskState === 'RUNNING'));
    assert.equal(await page.locator('#connect-tasks tr[data-task]').count(), 6);
    const owner = await page.getAttribute('#connect-tasks tr[data-task="sink-0"]', 'data-worker');
    await page.click(`g[data-member="${owner}"] rect.body`);
    await page.waitForSelector('#inspector h2');
    assert.match(await page.textContent('#inspector h2'), /Connect worker/);
    await page.click('#inspector button[data-fault="failTask"] >> nth=0');
    await page.waitForSelector('#connect-tasks tr[data-task-state="FAILED"]');
    const failed = await page.getAttribute('#connect-tasks tr[data-task-state="FAILED"]', 'data-task');
    await page.click('#inspector button[data-fault="restartTask"]');
    await page.waitForFunction((t) => document.querySelector(`#connect-tasks tr[data-task="${t}"]`).dataset.taskState === 'RUNNING', failed);
    await page.screenshot({ path: join(ARTIFACTS, 'connect.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
