// The site after one visit (issue 36): its service worker (static/sw.js,
// registered by static/offline.js) keeps a copy, so a second visit works with
// the network off, from the sub-path it was served at, lessons included; a
// new build deployed to the same place is installed beside the old one and
// the page offers to reload, which runs the new build and keeps the run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, frames, withSite } from './harness.mjs';

const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: 30_000 });

test('after one visit the site works offline from its sub-path, a lesson included', () => withSite(async ({ open, site }) => {
  const page = await open({ viewport: { width: 390, height: 844 } });
  await controlled(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope);
  assert.equal(scope, site.url, 'the worker serves the site\'s own folder');
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForSelector('#play');
  await page.evaluate(() => window.groupscope.seek(9000));
  assert.equal(await page.evaluate(() => window.groupscope.state().now), 9000, 'the simulation runs offline');
  await page.evaluate(() => { location.hash = '#lesson=4&step=1'; });
  await page.waitForSelector('#lesson[data-lesson="4"][data-step="1"]', { timeout: 10_000 });
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, 'offline-lesson-390.png') });
  assert.equal(await page.locator('#error-panel').isVisible(), false);
  await page.context().setOffline(false);
}));

test('a new build is offered once installed, and its reload runs it and keeps the run', () => withSite(async ({ open, site }) => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await controlled(page);
  await page.evaluate(() => window.groupscope.seek(7000));
  await page.waitForTimeout(1500); // the run is saved every second
  assert.equal(await page.locator('#update').isVisible(), false, 'nothing to offer yet');
  // Deploy a new build: another index.html and a worker of another version.
  const index = join(site.dir, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('<head>', '<head>\n  <meta name="groupscope-build" content="next">'));
  const sw = join(site.dir, 'sw.js');
  writeFileSync(sw, readFileSync(sw, 'utf8').replace(/const VERSION = '[^']*'/, "const VERSION = 'next-build'"));
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  await page.waitForSelector('#update', { state: 'visible', timeout: 30_000 });
  await page.screenshot({ path: join(ARTIFACTS, 'offline-new-version-1280.png') });
  assert.equal(await page.locator('meta[name="groupscope-build"]').count(), 0, 'the old build runs until the reload');
  await Promise.all([page.waitForEvent('load'), page.click('#update-reload')]);
  await page.waitForSelector('#play');
  assert.equal(await page.locator('meta[name="groupscope-build"]').count(), 1, 'the reload runs the new build');
  await page.waitForFunction(() => window.groupscope?.state?.().now === 7000, null, { timeout: 10_000 });
  assert.equal(await page.locator('#update').isVisible(), false);
  const caches = await page.evaluate(() => caches.keys());
  assert.deepEqual(caches.filter((c) => c.startsWith('groupscope ')).map((c) => c.split(' ').pop()), ['next-build'], 'the old copy is gone');
}));
