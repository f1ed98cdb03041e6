// A walk through a lesson, with screenshots for review (not a test): a
// learner on a phone who taps (the default), or a teacher at a projector in
// presenter mode with a clicker's PageDown only (PRESENTER=1; `p` turns the
// mode on once, as before class). Shots go to SHOTS (/tmp/shots).
//   LESSON=4 LANG_UI=zh node tests/e2e/walk.mjs
//   PRESENTER=1 WIDTH=1280 HEIGHT=720 LESSON=1 node tests/e2e/walk.mjs
import { join } from 'node:path';
import { frames, launch, openPage, serveSite } from './harness.mjs';

const out = process.env.SHOTS || '/tmp/shots';
const lesson = process.env.LESSON || '4';
const lang = process.env.LANG_UI || 'en';
const presenter = process.env.PRESENTER === '1';
const viewport = { width: Number(process.env.WIDTH || 390), height: Number(process.env.HEIGHT || 844) };
const tag = `${lang}-${presenter ? 'presenter-' : ''}${viewport.width}-l${lesson}`;
const site = await serveSite();
const browser = await launch();
try {
  const { page } = await openPage(browser, site, { viewport, path: `?lang=${lang}#lesson=${lesson}&step=1` });
  await page.waitForSelector('#lesson');
  if (presenter) {
    await page.keyboard.press('p');
    await page.waitForFunction(() => document.querySelector('.groupscope').classList.contains('presenter'));
  }
  const shot = async (name) => { await frames(page); await page.screenshot({ path: join(out, `${tag}-${name}.png`) }); };
  // Answers the question or takes the task's first option: a tap, or the clicker's PageDown.
  const act = async (selector, step) => {
    if (presenter) return page.keyboard.press('PageDown');
    const first = page.locator(selector).first();
    await first.scrollIntoViewIfNeeded();
    await shot(`s${step}-scrolled`);
    return first.click();
  };
  for (let i = 0; i < 8; i++) {
    const phase = await page.getAttribute('#lesson', 'data-phase');
    const step = await page.getAttribute('#lesson', 'data-step');
    await shot(`s${step}-${phase}`);
    if (phase === 'Question' || phase === 'Act') {
      await act(phase === 'Question' ? '#lesson .choice' : '#lesson .task-option', step);
      // The watched event plays in slow motion: catch it in flight.
      for (const ms of [400, 900]) {
        await page.waitForTimeout(ms);
        await shot(`s${step}-watching-${ms}`);
      }
      await page.waitForFunction(() => !['Running', 'Act', 'Question'].includes(document.querySelector('#lesson').dataset.phase), null, { timeout: 60000 });
      await shot(`s${step}-reveal`);
      if (phase === 'Act' && !presenter) break;
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
