// The visualizer's tools: language switch, inspector and link faults, state
// diagram, space-time diagram, why-chains, configuration panel with linter,
// import/export and the window.groupscope API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launch, openPage, serveSite, withPage } from './harness.mjs';

const stable = () => document.querySelector('[data-group="demo"]')?.dataset.groupState === 'Stable';

test('Chinese from the switch, remembered, and from the URL', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    assert.equal(await page.textContent('#play'), 'Play');
    await page.selectOption('#lang', 'zh-CN');
    await page.waitForFunction(() => document.querySelector('#play').textContent === '播放');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.match(await page.textContent('.fidelity summary'), /保真说明/);
    await page.reload();
    await page.waitForSelector('#play');
    assert.equal(await page.textContent('#play'), '播放', 'the choice is remembered');
    await page.goto(site.url + '?lang=en');
    await page.waitForSelector('#play');
    assert.equal(await page.textContent('#play'), 'Play', 'the URL wins');
    await page.goto(site.url + '#lang=zh');
    await page.waitForSelector('#play');
    assert.equal(await page.textContent('#tab-config'), '配置');
    // The narration is Chinese too, with Kafka's names untouched.
    await page.click('#step');
    for (let i = 0; i < 6; i++) await page.click('#step');
    assert.match(await page.textContent('#event-log'), /FindCoordinator|JoinGroup/);
    assert.match(await page.textContent('#event-log'), /：/);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('inspector, link cut, state diagram, space-time jump and why-chain', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(stable, null, { timeout: 30000 });
    await page.click('#play');
    // The state diagram lights Stable, reached from CompletingRebalance.
    assert.equal(await page.getAttribute('.statechart', 'data-current'), 'Stable');
    assert.equal(await page.locator('.statechart .state.current').count(), 1);
    assert.equal(await page.getAttribute('.statechart .state.current', 'data-state'), 'Stable');
    assert.match(await page.textContent('.statechart figcaption'), /CompletingRebalance → Stable/);

    // Select the link between c1 and its coordinator's broker and cut it.
    const coord = await page.evaluate(() => window.groupscope.state().groups[0].coordinator);
    await page.dispatchEvent(`g[data-link="broker-${coord} c1"] line.link-hit`, 'mousedown');
    await page.waitForSelector('#inspector h2');
    assert.match(await page.textContent('#inspector h2'), new RegExp(`broker-${coord} ↔ c1`));
    await page.click('#inspector button[data-fault="cutLink"]');
    await page.waitForSelector(`g[data-link="broker-${coord} c1"].cut`);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    // c1 cannot heartbeat: the coordinator expires it and the group rebalances without it.
    await page.waitForFunction(() => Number(document.querySelector('[data-group="demo"]').dataset.generation) >= 2, null, { timeout: 30000 });
    await page.click('#play');
    // Why did the group rebalance? The chain reaches the cut link.
    const line = page.locator('#event-log li', { hasText: 'Stable → PreparingRebalance' }).first();
    await line.locator('.why-link').click();
    await page.waitForSelector('#why');
    const why = await page.textContent('#why');
    assert.match(why, /session timeout/);
    assert.match(why, /no heartbeat from c1/);
    assert.match(why, /network cut between/);

    // The space-time diagram: clicking an arrow jumps to its send and selects the message.
    const arrows = page.locator('#spacetime .arrow');
    assert.ok(await arrows.count() > 3);
    const arrow = arrows.nth(1);
    const msg = await arrow.getAttribute('data-msg');
    await arrow.dispatchEvent('click');
    await page.waitForSelector(`#topology g.msg.selected[data-msg="${msg}"]`, { timeout: 5000 });
    assert.ok((await page.textContent('#inspector')).length > 10);
    await page.screenshot({ path: join(ARTIFACTS, 'ui-inspector.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('configuration panel lints, applies, and keeps text it cannot run', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.click('#tab-config');
    await page.fill('#cfg-session-timeout-ms', '5000');
    await page.dispatchEvent('#cfg-session-timeout-ms', 'change');
    await page.waitForSelector('#lint li.warning[data-field="demo: session.timeout.ms"]');
    assert.match(await page.textContent('#lint'), /INVALID_SESSION_TIMEOUT/);
    // Impossible: heartbeat not below the session timeout. Apply explains and keeps the run.
    await page.fill('#cfg-heartbeat-interval-ms', '9000');
    await page.dispatchEvent('#cfg-heartbeat-interval-ms', 'change');
    await page.click('#cfg-apply');
    await page.waitForSelector('#cfg-error');
    assert.match(await page.textContent('#cfg-error'), /heartbeat\.interval\.ms/);
    // Malformed JSON: explained, the text stays.
    await page.fill('#cfg-json', '{"topics": [');
    await page.click('#cfg-apply');
    await page.waitForSelector('#cfg-error');
    assert.equal(await page.inputValue('#cfg-json'), '{"topics": [');
    await page.click('#cfg-revert');
    await page.fill('#cfg-consumers', '4');
    await page.dispatchEvent('#cfg-consumers', 'change');
    await page.selectOption('#cfg-protocol', 'cooperative');
    await page.click('#cfg-apply');
    await page.waitForSelector('#cfg-applied');
    await page.click('#tab-sim');
    assert.equal(await page.locator('g[data-member]').count(), 4);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(stable, null, { timeout: 30000 });
    assert.match(await page.textContent('.group .state'), /cooperative-sticky/);
    // The consumer protocol (KIP-848) and the application's commits from the quick fields.
    await page.click('#tab-config');
    await page.selectOption('#cfg-protocol', 'consumer');
    await page.selectOption('#cfg-commit-mode', 'sync');
    const json = JSON.parse(await page.inputValue('#cfg-json'));
    assert.equal(json.groups[0].config['group.protocol'], 'consumer');
    assert.equal(json.groups[0].config['simulated.commit.mode'], 'sync');
    await page.click('#cfg-apply');
    await page.waitForSelector('#cfg-applied');
    await page.click('#tab-sim');
    await page.click('#play');
    // Members turn STABLE as they reconcile; the group is Stable once the coordinator has
    // seen every member converge (up to a heartbeat interval later): wait for both.
    await page.waitForFunction(() => document.querySelectorAll('.consumer[data-state="STABLE"]').length === 4
      && document.querySelector('[data-group="demo"]')?.dataset.groupState === 'Stable', null, { timeout: 30000 });
    assert.match(await page.textContent('.group .state'), /group epoch \d+ · assignment epoch \d+/);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('Apply and restart keeps the injected faults that still fit, and names the ones it drops', () => withPage(async ({ page }) => {
  const inject = async (kind, a) => {
    await page.selectOption('#fault-type', kind);
    await page.fill('#fault-a', a);
    await page.click('#inject');
  };
  await page.click('#step');
  await inject('crashConsumer', 'c2');
  await page.$eval('#timeline', (el) => { el.value = '3000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await inject('crashConsumer', 'c3');
  await page.click('#tab-config');
  await page.fill('#cfg-consumers', '2');
  await page.dispatchEvent('#cfg-consumers', 'change');
  await page.click('#cfg-apply');
  await page.waitForSelector('#cfg-applied');
  const notice = await page.textContent('#cfg-applied');
  assert.match(notice, /Injected faults kept: 1;/);
  assert.match(notice, /Faults dropped because this scenario has no place for them: 1/);
  assert.match(await page.textContent('#cfg-applied li'), /c3/, 'the dropped crash names c3, who is gone');
  await page.click('#tab-sim');
  assert.equal(await page.textContent('#clock'), 't = 0.0 s', 'the run restarted');
  await page.$eval('#timeline', (el) => { el.max = '10000'; el.value = '10000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForSelector('g[data-member="c2"][data-state="crashed"]');
}));

test('a slow consumer explains the quiet and offers a shorter max.poll.interval.ms, which replays with the fault kept', () => withPage(async ({ page }) => {
  await page.selectOption('#speed', '100');
  await page.click('#play');
  await page.waitForFunction(() => document.querySelector('[data-group="demo"]')?.dataset.groupState === 'Stable');
  await page.selectOption('#fault-type', 'slowProcessing');
  await page.fill('#fault-a', 'c2');
  await page.fill('#fault-value', '200000');
  await page.click('#inject');
  // Quiet for a while, yet not settled: the caption names c2 and its poll deadline.
  await page.waitForSelector('#shorten-poll', { timeout: 30000 });
  await page.click('#play'); // pause
  const caption = await page.textContent('#caption');
  assert.match(caption, /Waiting on c2/);
  assert.match(caption, /max\.poll\.interval\.ms = 300000 ms/);
  assert.match(caption, /leaves the group/);
  await page.click('#shorten-poll');
  await page.waitForSelector('#notice');
  assert.match(await page.textContent('#notice'), /max\.poll\.interval\.ms at 30 s/);
  // The replay plays from the start with the slow-down kept: c2 now leaves within about 30 s.
  await page.selectOption('#speed', '100');
  await page.waitForFunction(() => [...document.querySelectorAll('#event-log li, #event-log p')].some((e) => /max\.poll\.interval\.ms/.test(e.textContent) && /leav/.test(e.textContent)), null, { timeout: 30000 });
}));

test('export a run, import it back; export the diagram; drive the page from JavaScript', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.evaluate(() => window.groupscope.seek(12000));
    await page.evaluate(() => window.groupscope.inject('{"type": "crashConsumer", "consumer": 3}'));
    await page.evaluate(() => window.groupscope.seek(20000));
    const s = await page.evaluate(() => window.groupscope.state());
    assert.equal(s.now, 20000);
    assert.equal(s.consumers.find((c) => c.name === 'c3').alive, false);
    await assert.rejects(page.evaluate(() => window.groupscope.inject('{"type": "nonsense"}')), /not a fault/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-run')]);
    const file = join(ARTIFACTS, 'run.json');
    await download.saveAs(file);
    const run = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(run.at, 20000);
    assert.equal(run.script[0][1].type, 'crashConsumer');

    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
    const svgFile = join(ARTIFACTS, 'diagram.svg');
    await svg.saveAs(svgFile);
    const svgText = readFileSync(svgFile, 'utf8');
    assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svgText, /<style>/);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    const pngFile = join(ARTIFACTS, 'diagram.png');
    await png.saveAs(pngFile);
    assert.deepEqual([...readFileSync(pngFile).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

    // Start over, then import the file: the same moment comes back.
    await page.reload();
    await page.waitForSelector('#play');
    await page.setInputFiles('#import-run', file);
    await page.waitForFunction(() => window.groupscope.state().now === 20000);
    assert.equal(await page.getAttribute('g[data-member="c3"]', 'data-state'), 'crashed');
    // A bad file is explained and changes nothing.
    await page.setInputFiles('#import-run', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"v": 1}') });
    await page.waitForSelector('#notice');
    assert.match(await page.textContent('#notice'), /not a GroupScope run/);
    assert.equal(await page.evaluate(() => window.groupscope.state().now), 20000);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('the page works inside an iframe and its API is reachable there', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.setContent(`<iframe id="gs" src="${site.url}?lang=zh" width="1200" height="900"></iframe>`);
    const frame = await (await page.waitForSelector('#gs')).contentFrame();
    await frame.waitForSelector('#play');
    assert.equal(await frame.textContent('#play'), '播放');
    await frame.waitForFunction(() => window.groupscope && window.groupscope.seek);
    await frame.evaluate(() => window.groupscope.seek(20000));
    assert.equal(await frame.evaluate(() => window.groupscope.state().groups[0].state), 'Stable');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});

test('the invariant monitor is green, then catches a deliberately wrong assignor and jumps there', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.evaluate(() => window.groupscope.seek(20000));
    await page.waitForSelector('#invariants.ok');
    await page.click('#tab-config');
    await page.selectOption('#cfg-example', 'unsafe-assignor');
    await page.waitForSelector('#lint li.warning[data-field="demo: partition.assignment.strategy"]');
    await page.click('#cfg-apply');
    await page.click('#tab-sim');
    await page.evaluate(() => window.groupscope.seek(20000));
    await page.waitForSelector('#invariants.violated');
    assert.match(await page.textContent('#invariants'), /single-owner/);
    await page.click('#invariants button.jump');
    const t = await page.evaluate(() => window.groupscope.state().now);
    assert.ok(t > 0 && t < 20000, `jumped back to the violation at ${t} ms`);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
