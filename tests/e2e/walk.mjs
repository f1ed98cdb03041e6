// A learner's walk through a lesson on a phone (screenshots for review, not a test).
import { join } from 'node:path';
import { frames, launch, openPage, serveSite } from './harness.mjs';

const out = process.env.SHOTS || '/tmp/shots';
const lesson = process.env.LESSON || '4';
const lang = process.env.LANG_UI || 'en';
const site = await serveSite();
const browser = await launch();
try {
  const { page } = await openPage(browser, site, { viewport: { width: 390, height: 844 }, path: `?lang=${lang}#lesson=${lesson}&step=1` });
  await page.waitForSelector('#lesson');
  const shot = async (name) => { await frames(page); await page.screenshot({ path: join(out, `${lang}-l${lesson}-${name}.png`) }); };
  for (let i = 0; i < 6; i++) {
    const phase = await page.getAttribute('#lesson', 'data-phase');
    const step = await page.getAttribute('#lesson', 'data-step');
    await shot(`s${step}-${phase}`);
    if (phase === 'Question') {
      const choice = page.locator('#lesson .choice').first();
      await choice.scrollIntoViewIfNeeded();
      await shot(`s${step}-question-scrolled`);
      await choice.click();
      await page.waitForTimeout(700);
      await shot(`s${step}-watching`);
      await page.waitForSelector('#lesson[data-phase="Reached"]', { timeout: 60000 });
      await shot(`s${step}-reveal`);
      await page.locator('#lesson .next, #lesson button.next-step').first().click().catch(() => page.keyboard.press('PageDown'));
    } else if (phase === 'Act') {
      const opt = page.locator('#lesson .task-option').first();
      await opt.scrollIntoViewIfNeeded();
      await opt.click();
      await page.waitForTimeout(700);
      await shot(`s${step}-acting`);
      await page.waitForFunction(() => !['Running', 'Act'].includes(document.querySelector('#lesson').dataset.phase), null, { timeout: 60000 });
      await shot(`s${step}-after`);
      break;
    } else if (phase === 'Reached') {
      await page.keyboard.press('PageDown');
    } else if (phase === 'Running') {
      await page.waitForFunction(() => document.querySelector('#lesson').dataset.phase !== 'Running', null, { timeout: 60000 });
    } else break;
    await page.waitForTimeout(300);
  }
} finally {
  await browser.close();
  site.close();
}
