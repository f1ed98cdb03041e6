//! The client's view of its broker connections, as far as choosing where to
//! send FindCoordinator goes: NetworkClient's `leastLoadedNode` skips a node in
//! reconnect backoff (ClusterConnectionStates `canConnect`: a node that
//! disconnected at t is not tried again before t + reconnect.backoff.ms, the
//! backoff doubling per consecutive failure up to reconnect.backoff.max.ms).

use crate::sim::scenario::config::ConsumerConfig;
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A broker whose connection broke: consecutive failures, when, and the end of
/// its reconnect backoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failed {
    pub failures: u32,
    pub at: Millis,
    pub until: Millis,
}

/// Brokers whose connection broke and has not answered since.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connections {
    pub failed: BTreeMap<u32, Failed>,
}

impl Connections {
    /// The connection to `broker` broke (or a request to it was refused). Within
    /// its backoff a broker cannot fail again (no attempt is made).
    pub fn disconnected(&mut self, broker: u32, now: Millis, config: &ConsumerConfig) {
        let failures = match self.failed.get(&broker) {
            Some(f) if f.until > now => return,
            Some(f) => f.failures,
            None => 0,
        };
        let ms = config.reconnect_backoff_ms.saturating_mul(1 << failures.min(20)).min(config.reconnect_backoff_max_ms);
        self.failed.insert(broker, Failed { failures: failures + 1, at: now, until: now + ms });
    }

    /// In reconnect backoff (`NetworkClientUtils.isUnavailable`): no request to it now.
    pub fn unavailable(&self, broker: u32, now: Millis) -> bool {
        self.failed.get(&broker).is_some_and(|f| f.until > now)
    }

    /// `broker` answered: the connection is established again.
    pub fn ready(&mut self, broker: u32) {
        self.failed.remove(&broker);
    }

    /// `leastLoadedNode` over `brokers` nodes, starting at `cursor` (Kafka starts
    /// at a random offset). Kafka prefers a ready connection, then a connecting
    /// one, then one it may connect to, the least recently tried first; a node in
    /// reconnect backoff is skipped. Here a broker that never failed (or answered
    /// since) stands for the ready and never-tried ones, so it comes first; then
    /// failed brokers whose backoff is over, least recently failed first. When
    /// every broker is in backoff: the time the first backoff ends.
    pub fn least_loaded(&self, brokers: u32, cursor: u32, now: Millis) -> Result<u32, Millis> {
        let n = brokers.max(1);
        let order = (0..n).map(|i| (cursor + i) % n);
        if let Some(b) = order.clone().find(|b| !self.failed.contains_key(b)) {
            return Ok(b);
        }
        let retry = order.filter(|b| self.failed[b].until <= now).min_by_key(|b| self.failed[b].at);
        retry.ok_or_else(|| self.failed.values().map(|f| f.until).min().unwrap_or(now))
    }
}
