// scratch: not committed
import { join } from 'node:path';
import { launch, openPage, serveSite } from './harness.mjs';
const OUT = '/tmp/shots';
const site = await serveSite();
const browser = await launch();
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
try {
  for (const lang of ['en', 'zh']) {
    for (const [name, vp, presenter] of [['phone', { width: 390, height: 844 }, false], ['proj', { width: 1280, height: 720 }, true], ['desk', { width: 1440, height: 900 }, false]]) {
      const { page } = await openPage(browser, site, { viewport: vp, path: `?lang=${lang}` });
      if (presenter) { await page.click('#presenter'); }
      for (const t of [ 2500, 12000]) {
        await page.evaluate((t) => window.groupscope.seek(t), t);
        await frames(page);
        await page.screenshot({ path: join(OUT, `${name}-${lang}-${t}.png`) });
      }
      await page.close();
    }
  }
} finally { await browser.close(); site.close(); }
