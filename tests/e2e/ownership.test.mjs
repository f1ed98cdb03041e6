// The ownership table shows a KIP-848 reconciliation as it happens: a
// partition is first "revoking" (its owner still holds it against the target
// assignment), then "pending" (released, not yet taken), then owned by the
// new member. Stepping event by event through the page's own Step button.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, launch, openPage, serveSite } from './harness.mjs';

test('the ownership table shows revoking and pending partitions during a KIP-848 reconciliation', async () => {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site);
    const scenario = JSON.parse(readFileSync(join(ROOT, 'scenarios', 'consumer-protocol-crash.json'), 'utf8'));
    scenario.groups[0].consumers = 2;
    scenario.faults = [{ at: 10000, fault: { type: 'addConsumer', group: 'demo' } }];
    await page.evaluate((s) => window.groupscope.load(s), JSON.stringify(scenario));
    await page.evaluate(() => window.groupscope.seek(10000));
    const seen = new Set();
    for (let i = 0; i < 400 && !(seen.has('revoking') && seen.has('pending')); i++) {
      await page.click('#step');
      const statuses = await page.locator('#ownership tr[data-status]').evaluateAll((rows) => rows.map((r) => r.dataset.status));
      statuses.forEach((s) => seen.add(s));
      if (statuses.includes('revoking') && !seen.has('shot')) {
        seen.add('shot');
        await page.locator('#ownership').screenshot({ path: join(ARTIFACTS, 'ownership-revoking.png') });
        const row = page.locator('#ownership tr[data-status="revoking"]').first();
        assert.match(await row.locator('td.owner').textContent(), /^c\d+ \(revoking\)$/);
      }
    }
    assert.ok(seen.has('revoking') && seen.has('pending'), [...seen].join(','));
    await page.evaluate(() => window.groupscope.seek(25000));
    const after = await page.locator('#ownership tr[data-status]').evaluateAll((rows) => rows.map((r) => r.dataset.status));
    assert.deepEqual([...new Set(after)], ['owned'], 'reconciled');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
});
