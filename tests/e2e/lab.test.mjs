// The assignor lab: pick an assignor, edit the group, run, read the outcome;
// malformed input gets a message and the simulation keeps its state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, launch, openPage, serveSite } from './harness.mjs';

test('the assignor lab runs Kafka assignors on an edited group', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    await page.click('#step');
    const clock = await page.textContent('#clock');
    await page.click('#tab-lab');
    // The example: c1 and c2 own everything, c3 is new. Range re-deals orders by member id.
    assert.equal(await page.getAttribute('tr[data-member="c3"]', 'data-assigned'), 'orders-4 orders-5');
    await page.selectOption('#lab-assignor', 'cooperative-sticky');
    // First cooperative round: what c3 will get is first revoked from its owners, so c3 gets nothing yet.
    assert.equal(await page.getAttribute('tr[data-member="c3"]', 'data-assigned'), '');
    assert.equal(await page.getAttribute('#lab-summary', 'data-moved'), '0');
    assert.match(await page.textContent('#lab-summary'), /not assigned this round/);

    await page.fill('#lab-input', '{"assignor": "sticky", "topics": {"t": 4}, "members": [{"id": "a", "subscriptions": ["t"]}, {"id": "b", "subscriptions": ["t"]}]}');
    await page.click('#lab-run');
    assert.equal(await page.getAttribute('#lab-summary', 'data-spread'), '0');
    assert.equal(await page.locator('#lab-result tr[data-member]').count(), 2);
    await page.screenshot({ path: join(ARTIFACTS, 'assignor-lab.png') });

    await page.fill('#lab-input', '{"assignor": "sticky", "members": [');
    await page.click('#lab-run');
    assert.ok((await page.textContent('#lab-error')).length > 10, 'a parse error is explained');

    // The same assignors through the page's JS API.
    const api = await page.evaluate(() => {
      const ok = JSON.parse(window.groupscope.assign('{"assignor": "roundrobin", "topics": {"t": 3}, "members": [{"id": "x", "subscriptions": ["t"]}, {"id": "y", "subscriptions": ["t"]}]}'));
      let error = '';
      try { window.groupscope.assign('{"assignor": "nope", "members": []}'); } catch (e) { error = e.message; }
      return { ok, error };
    });
    assert.deepEqual(api.ok, { assignment: { x: ['t-0', 't-2'], y: ['t-1'] } }, 'roundrobin deals t-0, t-1, t-2 in turn (facts D2)');
    assert.match(api.error, /nope/);

    await page.click('#tab-sim');
    assert.equal(await page.textContent('#clock'), clock, 'the simulation kept its place');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
