// The fault menu: a valid fault changes the run, a malformed one is explained
// and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ARTIFACTS, ROOT, frames, launch, openPage, serveSite } from './harness.mjs';

// Runs in the page: `n` is passed as the argument.
const allOwned = (n) => {
  const rows = [...document.querySelectorAll('tr[data-partition]')];
  return rows.length === n && rows.every((r) => r.dataset.owner)
    && document.querySelector('[data-group="demo"]').dataset.groupState === 'Stable';
};

test('adding partitions from the fault menu rebalances; bad input shows an error and keeps the run', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(allOwned, 6, { timeout: 30000 });

    await page.selectOption('#fault-type', 'addPartitions');
    await page.fill('#fault-a', 'orders');
    await page.fill('#fault-value', '9');
    await page.click('#inject');
    await page.waitForFunction(allOwned, 9, { timeout: 30000 });
    assert.ok(Number(await page.getAttribute('[data-group="demo"]', 'data-generation')) >= 2);
    assert.match(await page.textContent('#event-log'), /new partitions of orders/);

    await page.click('#play'); // pause
    const clock = await page.textContent('#clock');
    await page.selectOption('#fault-type', 'crashConsumer');
    await page.fill('#fault-a', 'zz');
    await page.click('#inject');
    assert.match(await page.textContent('#fault-error'), /'zz' is not a consumer/);
    assert.equal(await page.textContent('#clock'), clock, 'nothing ran');
    assert.equal(await page.locator('tr[data-partition]').count(), 9, 'the run is intact');
    for (const m of ['c1', 'c2', 'c3']) {
      assert.notEqual(await page.getAttribute(`g[data-member="${m}"]`, 'data-state'), 'crashed');
    }
    // Keyboard: focus a node, Enter selects it, Tab reaches its actions (broker-0 is not the coordinator of demo).
    await page.focus('g[data-broker="0"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#inspector h2');
    assert.match(await page.textContent('#inspector h2'), /broker-0/);
    await page.focus('#inspector button[data-fault="killBroker"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('g[data-broker="0"].dead', { timeout: 5000 });
    await page.screenshot({ path: join(ARTIFACTS, 'fault-menu.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('fault targets the run does not have (c99, broker-7, a link between two clients): a plain message, in English and Chinese, and nothing narrated', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    for (const [lang, said] of [['en', /Not injected, nothing happened/], ['zh', /没有注入，什么也没有发生/]]) {
      const { page, foreign, errors } = await openPage(browser, site, { path: `?lang=${lang}` });
      await page.evaluate(() => window.groupscope.seek(8000));
      await frames(page); // the log of 8 s is drawn before it is read
      const before = await page.evaluate(() => ({ trace: window.groupscope.state().traceHash, log: document.querySelector('#event-log').textContent }));
      for (const [kind, a, b, why] of [
        ['crashConsumer', 'c99', '', lang === 'en' ? /there is no c99 in this run \(clients are c1 to c3\)/ : /这次运行中没有 c99（客户端为 c1 到 c3）/],
        ['killBroker', 'broker-7', '', lang === 'en' ? /there is no broker-7 \(brokers are broker-0 to broker-2\)/ : /没有 broker-7（broker 为 broker-0 到 broker-2）/],
        ['cutLink', 'c1', 'c2', lang === 'en' ? /there is no link between c1 and c2: clients talk only to brokers/ : /c1 和 c2 之间没有连接：客户端只与 broker 通信/],
      ]) {
        await page.selectOption('#fault-type', kind);
        await page.fill('#fault-a', a);
        await page.fill('#fault-b', b);
        await page.click('#inject');
        const msg = await page.textContent('#fault-error');
        assert.match(msg, said, msg);
        assert.match(msg, why, msg);
      }
      const after = await page.evaluate(() => ({ trace: window.groupscope.state().traceHash, log: document.querySelector('#event-log').textContent }));
      assert.equal(after.trace, before.trace, 'the run did not change');
      assert.ok(!/c99|broker-7/.test(after.log) && after.log === before.log, 'nothing narrated');
      assert.equal(await page.locator('.timeline .marker.fault').count(), 0);
      // An exported run naming c99: refused with the fault's number, nothing loaded.
      const scenario = JSON.parse(readFileSync(join(ROOT, 'scenarios', 'crash.json'), 'utf8'));
      const run = { v: 1, scenario, script: [[5000, { type: 'crashConsumer', consumer: 99 }]], at: 6000 };
      if (await page.isVisible('#more-button')) await page.click('#more-button');
      await page.setInputFiles('#import-run', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
      await page.waitForSelector('#notice');
      const notice = await page.textContent('#notice');
      assert.match(notice, lang === 'en' ? /fault 1 of the file cannot happen in this run: there is no c99/ : /文件中的第 1 个故障在这次运行中无法发生：这次运行中没有 c99/, notice);
      assert.equal(await page.evaluate(() => window.groupscope.state().traceHash), before.trace, 'the old run stays');
      await page.screenshot({ path: join(ARTIFACTS, `fault-missing-target-${lang}.png`) });
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
    site.close();
  }
});
