// Lessons in the browser beyond the course walk (lesson-walk.mjs): deep
// links to a step, links pasted into an open tab, lessons that cannot be
// fetched, and lesson 18's side-by-side comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite, withSite } from './harness.mjs';

const index = JSON.parse(readFileSync(join(ROOT, 'lessons', 'index.json'), 'utf8'));
const lessons = index.map((f) => JSON.parse(readFileSync(join(ROOT, 'lessons', f), 'utf8')));

test('a lesson step is deep-linkable, and bad links are explained', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser, site);
    await page.goto('about:blank');
    await page.goto(site.url + '#lesson=4&step=2');
    await page.waitForSelector('#lesson');
    assert.equal(await page.getAttribute('#lesson', 'data-lesson'), '4');
    assert.equal(await page.getAttribute('#lesson', 'data-step'), '2');
    const first = Math.min(...lessons.map((l) => l.number));
    const lastN = Math.max(...lessons.map((l) => l.number));
    for (const [hash, re] of [
      ['#lesson=99', new RegExp(`lesson '99', but the course has lessons ${first} to ${lastN}`)],
      ['#lesson=abc', new RegExp(`lesson 'abc', but the course has lessons ${first} to ${lastN}`)],
      ['#lesson=4&step=99', new RegExp(`step '99' of lesson 4, which has steps 1 to ${lessons.find((l) => l.number === 4).steps.length}`)],
    ]) {
      await page.goto('about:blank');
      await page.goto(site.url + hash);
      await page.waitForSelector('#notice');
      assert.match(await page.textContent('#notice'), re, hash);
      assert.equal(await page.locator('#lesson').count(), 0);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('a link pasted into an open tab opens as on a fresh load, and "Link to this moment" in a lesson links its step', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser, site);
    const now = () => page.evaluate(() => window.groupscope.state().now);
    // A run's moment, linked while no lesson is open.
    await page.evaluate(() => window.groupscope.seek(7000));
    await page.click('#permalink');
    await page.waitForSelector('#permalink-url');
    const moment = new URL(await page.inputValue('#permalink-url')).hash;
    assert.match(moment, /^#z=/);
    // Only the fragment changes: no reload, yet the lesson step opens.
    await page.evaluate(() => { location.hash = '#lesson=4&step=2'; });
    await page.waitForSelector('#lesson[data-lesson="4"][data-step="2"]');
    // Inside the lesson the link names the lesson and its step.
    await page.click('#permalink');
    await page.waitForFunction(() => /#lesson=4&step=2$/.test(document.querySelector('#permalink-url').value));
    // The run's link pasted in: the lesson closes and the run opens at its moment.
    await page.evaluate((h) => { location.hash = h; }, moment);
    await page.waitForFunction(() => !document.querySelector('#lesson'));
    assert.equal(await now(), 7000);
    // A damaged one is explained, and the run stays as it was.
    await page.evaluate(() => window.groupscope.seek(3000));
    await page.evaluate(() => { location.hash = '#z=AAAA'; });
    await page.waitForSelector('#notice');
    assert.match(await page.textContent('#notice'), /Could not open this link: .*Your run is unchanged/);
    assert.equal(await now(), 3000);
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
    assert.match(await error.first().textContent(), /lessons\/index\.json could not be loaded/);
    await page.click('#tab-sim');
    await page.click('#step');
    assert.ok(await page.evaluate(() => window.groupscope.state().events) > before, 'the run still steps');
  } finally {
    await browser.close();
    site.close();
  }
});

test('lesson 18 opens the rolling restart side by side: four panes on the toolbar\'s clock count the rebalances the lesson predicts', () => withSite(async ({ open }) => {
  const lesson = lessons.find((l) => l.number === 18);
  const step = lesson.steps.find((s) => s.compare);
  for (const [lang, viewport] of [['en', { width: 1440, height: 900 }], ['zh', { width: 1440, height: 900 }], ['en', { width: 390, height: 844 }]]) {
    const page = await open({ viewport, path: `?lang=${lang}#lesson=18&step=${step.id}` });
    await page.waitForSelector('#lesson');
    await page.click('#lesson-compare');
    await page.waitForSelector(`#compare[data-comparison="lesson-${lesson.id}-${step.id}"]`);
    assert.equal(await page.locator('#compare .pane').count(), 4);
    await page.selectOption('#speed', '1000');
    await page.click('#play');
    // Playing stops by itself at the comparison's end.
    await page.waitForFunction(() => document.querySelector('#play').getAttribute('aria-pressed') === 'false', null, { timeout: 60000 });
    assert.equal(Number(await page.inputValue('#timeline')), step.compare.comparison.until);
    const rows = await page.$$eval('#compare-metrics tr[data-variant]', (rs) => Object.fromEntries(rs.map((r) => [r.dataset.variant, Number(r.dataset.rebalances)])));
    // The lesson's own groups count the same plus their first join (steps dynamic-deploy, coop-deploy, static-deploy).
    const count = (id) => lesson.steps.find((s) => s.id === id).expect[0].rebalances.count - 1;
    assert.equal(rows['classic eager (range)'], count('dynamic-deploy'), JSON.stringify(rows));
    assert.equal(rows['classic cooperative-sticky'], count('coop-deploy'), JSON.stringify(rows));
    assert.equal(rows['classic eager (range), static members'], count('static-deploy'), JSON.stringify(rows));
    await page.screenshot({ path: join(ARTIFACTS, `lesson-18-compare-${viewport.width}-${lang}.png`) });
    await page.click('#compare-back');
    await page.waitForSelector('#lesson');
    assert.equal(await page.getAttribute('#lesson', 'data-lesson'), '18');
  }
}));
