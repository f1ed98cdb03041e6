// What the browser benchmarks share: percentiles and the generated group runs.

/** The p-th percentile of `xs` (nearest rank). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** `members` consumers of one group over a topic of `partitions` (as benches/seek.rs). */
export function scenario(members, partitions, protocol) {
  return JSON.stringify({
    name: `${members} members`, seed: 1, brokers: 3,
    topics: [{ name: 'orders', partitions, recordsPerSec: 10 }],
    groups: [{ groupId: 'demo', consumers: members, startStaggerMs: 20,
      config: { 'session.timeout.ms': 10000, 'heartbeat.interval.ms': 3000, 'auto.offset.reset': 'earliest', topics: ['orders'],
        'group.protocol': protocol } }],
  });
}
