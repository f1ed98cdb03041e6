// What the end-to-end tests measure on the drawing (#topology): a scenario of
// n consumers, every label's box on screen, overlapping or clipped labels, and
// the size each label renders at.

/** A scenario of `clients` consumers on `brokers` brokers under `protocol`. */
export function scenario(clients, brokers, protocol) {
  const config = { 'session.timeout.ms': 6000, 'heartbeat.interval.ms': 2000, topics: ['orders'] };
  if (protocol === 'consumer') config['group.protocol'] = 'consumer';
  else config['partition.assignment.strategy'] = [protocol === 'eager' ? 'range' : 'cooperative-sticky'];
  return JSON.stringify({
    seed: 1, brokers,
    topics: [{ name: 'orders', partitions: Math.max(6, clients * 2), recordsPerSec: 10 }],
    groups: [{ groupId: 'demo', consumers: clients, config }],
  });
}

/** Every text of the drawing (messages included) with its box on screen. */
export const texts = (page) => page.$$eval('#topology text', (ts) => ts.filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none').map((t) => {
  const r = t.getBoundingClientRect();
  const owner = t.closest('[data-member], [data-broker], [data-msg]');
  const chip = t.closest('.chip');
  return {
    text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
    msg: !!t.closest('.msg'),
    owner: owner ? (owner.dataset.member || owner.dataset.broker || owner.dataset.msg) : '',
  };
}));

/** Pairs of labels whose boxes overlap (by more than half a pixel), and labels outside the drawing. */
export async function badLabels(page) {
  const svg = await page.$eval('#topology', (s) => { const r = s.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  const all = await texts(page);
  const overlap = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;
  const pairs = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = 0; j < i; j++) {
      // Messages' discs may cross in flight, but no label covers another: of two
      // messages flying side by side only the older is labelled (topology_msgs.rs).
      if (overlap(all[i], all[j])) pairs.push(`"${all[i].text}" (${all[i].owner}) / "${all[j].text}" (${all[j].owner})`);
    }
  }
  const outside = all.filter((t) => t.x < svg.x - 0.5 || t.y < svg.y - 0.5 || t.x + t.w > svg.x + svg.w + 0.5 || t.y + t.h > svg.y + svg.h + 0.5).map((t) => t.text);
  return { pairs, outside, count: all.length };
}

/** The rendered size of every label of the drawing: its font size times the drawing's scale, and its box's height. */
export const renderedSizes = (page) => page.$$eval('#topology text', (ts) => ts.filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none').map((t) => ({
  text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a, h: t.getBoundingClientRect().height,
})));


/** Node state labels cut to a stub ("PREP_R…") or squeezed past legibility
 * (textLength under 75 % of the text's natural width): each with its member
 * and Kafka's full state (data-state), so a failure says what was lost. */
export const cutStates = (page) => page.$$eval('#topology g[data-member] text.state', (ts) => ts
  .filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none')
  .filter((t) => {
    const squeezedTo = t.getAttribute('textLength');
    const natural = t.getComputedTextLength ? (() => { const c = t.cloneNode(true); c.removeAttribute('textLength'); t.parentNode.appendChild(c); const w = c.getComputedTextLength(); c.remove(); return w; })() : 0;
    return t.textContent.includes('…') || (squeezedTo && natural && parseFloat(squeezedTo) < natural * 0.75);
  })
  .map((t) => `"${t.textContent}" (${t.closest('[data-member]').dataset.member}, ${t.closest('[data-member]').dataset.state})`));
