// Accessibility: axe-core (npm `axe-core`, run inside the page) finds no
// serious or critical violation on any tab, in English and in Chinese, in a
// lesson, in presenter mode, and with the welcome open; and no id twice on any tab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, frames, launch, serveSite } from './harness.mjs';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const LOGS = join(ROOT, 'tests', 'fixtures', 'logs', 'consumer-protocol');
const CONSUMER_PROTOCOL = readdirSync(LOGS).sort().map((f) => readFileSync(join(LOGS, f), 'utf8')).join('\n');

/** Serious and critical violations on the page as it is now, one line each. */
async function scan(page, where) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe-core: no serious or critical violation on any tab, both languages, in a lesson and in presenter mode', async () => {
  const site = await serveSite();
  const browser = await launch();
  const found = [];
  try {
    for (const lang of ['en', 'zh']) {
      // axe is injected as a script, which the page's CSP (script-src 'self') would refuse.
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
      await page.goto(`${site.url}?lang=${lang}`);
      await page.waitForSelector('#welcome:not([hidden])');
      found.push(...await scan(page, `${lang} welcome`));
      await page.click('#welcome-close');
      await page.waitForSelector('#play');
      await page.evaluate(() => window.groupscope.seek(15000));
      await page.click('#legend-button');
      for (const tab of ['#tab-sim', '#tab-lessons', '#tab-compare', '#tab-config', '#tab-lab', '#tab-explain']) {
        await page.click(tab);
        if (tab === '#tab-lessons') await page.waitForSelector('.lesson-card');
        if (tab === '#tab-explain') {
          // an explanation on show: timeline, rebalances, tables, ownership
          await page.fill('#explain-text', CONSUMER_PROTOCOL);
          await page.click('#explain-run');
          await page.waitForSelector('.explain-ownership');
        }
        await frames(page);
        found.push(...await scan(page, `${lang} ${tab}`));
        // axe 4 no longer reports a plain duplicate id; the page must not have one (side by side draws four SVGs).
        const ids = await page.$$eval('[id]', (es) => es.map((e) => e.id));
        found.push(...ids.filter((id, i) => ids.indexOf(id) !== i).map((id) => `${lang} ${tab}: duplicate id "${id}"`));
      }
      await page.click('#tab-lessons');
      await page.click('.lesson-card .open-lesson');
      await page.waitForSelector('#lesson');
      found.push(...await scan(page, `${lang} lesson`));
      await page.keyboard.press('p');
      await page.waitForSelector('.groupscope.presenter');
      found.push(...await scan(page, `${lang} presenter`));
      await page.close();
    }
  } finally {
    await browser.close();
    site.close();
  }
  assert.deepEqual(found, []);
});
