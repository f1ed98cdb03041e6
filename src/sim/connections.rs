//! The client's view of its broker connections, as far as choosing where to
//! send FindCoordinator goes: NetworkClient's `leastLoadedNode` skips a node in
//! reconnect backoff (ClusterConnectionStates `canConnect`: a node that
//! disconnected at t is not tried again before t + reconnect.backoff.ms, the
//! backoff doubling per consecutive failure up to reconnect.backoff.max.ms).

use super::config::ConsumerConfig;
use super::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Per broker: consecutive failures and the end of the reconnect backoff.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connections {
    pub backoff: BTreeMap<u32, (u32, Millis)>,
}

impl Connections {
    /// The connection to `broker` broke (or a request to it was refused).
    pub fn disconnected(&mut self, broker: u32, now: Millis, config: &ConsumerConfig) {
        let entry = self.backoff.entry(broker).or_insert((0, now));
        let ms = config.reconnect_backoff_ms.saturating_mul(1 << entry.0.min(20)).min(config.reconnect_backoff_max_ms);
        *entry = (entry.0 + 1, now + ms);
    }

    /// `broker` answered: the connection is established again.
    pub fn ready(&mut self, broker: u32) {
        self.backoff.remove(&broker);
    }

    /// `leastLoadedNode` over `brokers` nodes, starting at `cursor` (Kafka starts
    /// at a random offset): the first node not in reconnect backoff, or the time
    /// the earliest backoff ends when every node is in one.
    pub fn least_loaded(&self, brokers: u32, cursor: u32, now: Millis) -> Result<u32, Millis> {
        let n = brokers.max(1);
        let blocked = |b: u32| self.backoff.get(&b).map(|(_, until)| *until).filter(|until| *until > now);
        (0..n)
            .map(|i| (cursor + i) % n)
            .find(|b| blocked(*b).is_none())
            .ok_or_else(|| (0..n).filter_map(blocked).min().unwrap_or(now))
    }
}
