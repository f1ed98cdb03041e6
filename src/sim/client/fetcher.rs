//! The consumer's fetcher, shared by both consumers (`AbstractFetch` with its
//! `FetchBuffer` and `FetchCollector`; the classic `Fetcher` and the new
//! consumer's `FetchRequestManager`): one FetchRequest per partition leader
//! with every partition it leads that the consumer may fetch, answers buffered
//! until `poll()` hands at most `max.poll.records` of them to the application,
//! and leader moves learnt from NOT_LEADER_OR_FOLLOWER or a broken connection.
//!
//! Simplified: no fetch sessions (KIP-227, every request is a full one), no
//! fetching from followers (KIP-392), no `isolation.level`, no byte sizes; the
//! client's metadata refresh (a MetadataRequest in Kafka) reads the controller's
//! view at once instead of being a message of its own.

use crate::assign::TopicPartition;
use crate::sim::connections::Connections;
use crate::sim::ctx::Ctx;
use crate::sim::message::{Body, FetchPartition, FetchRequest, FetchedPartition, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::scenario::config::ConsumerConfig;
use crate::sim::trace::EventKind;
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Fetch correlations live above the group requests' so that both share a
/// connection without clashing.
pub const FETCH_CORRELATION_BASE: u64 = 1 << 40;

/// `metadata.max.age.ms`: the client refreshes its metadata at least this often.
pub const METADATA_MAX_AGE_MS: Millis = 300_000;

pub fn is_fetch(correlation: u64) -> bool {
    correlation >= FETCH_CORRELATION_BASE
}

/// Records fetched and not yet returned by `poll()` (a `CompletedFetch`), and
/// the leader that sent them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completed {
    pub from: i64,
    pub to: i64,
    pub broker: u32,
}

/// A FetchRequest waiting for its answer (`nodesWithPendingFetchRequests`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingFetch {
    pub broker: u32,
    pub partitions: Vec<FetchPartition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fetcher {
    /// The `FetchBuffer`: per partition, records fetched from its position on.
    pub buffer: BTreeMap<TopicPartition, Completed>,
    pub pending: BTreeMap<u64, PendingFetch>,
    /// The client's metadata: each partition's leader as last learnt (`None`: no leader).
    pub leaders: BTreeMap<TopicPartition, Option<u32>>,
    /// `Metadata.requestUpdate`: refresh before the next fetch.
    pub metadata_update_requested: bool,
    pub metadata_refreshed_at: Millis,
    pub next_correlation: u64,
}

/// The fetchable partitions (owned, with a position) with no records buffered,
/// with their positions.
fn unbuffered<'a>(
    owned: &'a [TopicPartition],
    positions: &'a BTreeMap<TopicPartition, i64>,
    buffer: &'a BTreeMap<TopicPartition, Completed>,
) -> impl Iterator<Item = (&'a TopicPartition, i64)> + 'a {
    owned.iter().filter_map(|tp| positions.get(tp).map(|p| (tp, *p))).filter(|(tp, _)| !buffer.contains_key(*tp))
}

/// What a fetch answer did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// It answered a pending fetch (a stale answer does not).
    pub answered: bool,
    /// New records went into the buffer.
    pub records: bool,
}

impl Fetcher {
    /// `FetchCollector.collectFetch`: up to `max.poll.records` buffered records of
    /// the owned partitions, from their positions, which move past them. Buffered
    /// records of a partition no longer owned, or fetched for another position,
    /// are dropped ("Discarding stale fetch response").
    pub fn collect(
        &mut self,
        owned: &[TopicPartition],
        positions: &mut BTreeMap<TopicPartition, i64>,
        max_poll_records: u32,
    ) -> Vec<(TopicPartition, i64, i64)> {
        self.buffer.retain(|tp, c| c.to > c.from && positions.get(tp) == Some(&c.from) && owned.contains(tp));
        let mut budget = i64::from(max_poll_records);
        let mut batch = Vec::new();
        for tp in owned {
            if budget == 0 || self.buffer.is_empty() {
                break;
            }
            let Some(c) = self.buffer.get_mut(tp) else { continue };
            let n = (c.to - c.from).min(budget);
            batch.push((tp.clone(), c.from, c.from + n));
            c.from += n;
            budget -= n;
            // Buffered records are kept only at the partition's position (above).
            if let Some(position) = positions.get_mut(tp) {
                *position = c.from;
            }
            if c.from == c.to {
                self.buffer.remove(tp);
            }
        }
        batch
    }

    /// The client's metadata, refreshed when asked to, when a partition is new
    /// to it, or after `metadata.max.age.ms` (from the controller's view, which
    /// every broker's metadata cache serves).
    fn refresh_metadata(&mut self, ctx: &Ctx, owned: &[TopicPartition]) {
        let stale = self.metadata_update_requested || ctx.now >= self.metadata_refreshed_at + METADATA_MAX_AGE_MS;
        if !stale && owned.iter().all(|tp| self.leaders.contains_key(tp)) {
            return;
        }
        self.leaders = owned.iter().map(|tp| (tp.clone(), ctx.cluster.leader_of(tp))).collect();
        self.metadata_update_requested = false;
        self.metadata_refreshed_at = ctx.now;
    }

    /// `AbstractFetch.prepareFetchRequests` and `sendFetches`: one FetchRequest
    /// per leader node, with every owned partition it leads that has a
    /// position and no buffered records, skipping a node in reconnect backoff,
    /// one with a fetch in flight, and one that hosts buffered partitions.
    /// Returns how many requests went out.
    pub fn send_fetches(
        &mut self,
        ctx: &Ctx,
        config: &ConsumerConfig,
        owned: &[TopicPartition],
        positions: &BTreeMap<TopicPartition, i64>,
        connections: &Connections,
        out: &mut Out,
    ) -> usize {
        if unbuffered(owned, positions, &self.buffer).next().is_none() {
            return 0;
        }
        self.refresh_metadata(ctx, owned);
        // The brokers and fetches in flight are a handful: scanned, not
        // collected into sets (this runs on every poll of every member).
        let leader = |tp: &TopicPartition| self.leaders.get(tp).copied().flatten();
        let busy = |node: u32| self.pending.values().any(|p| p.broker == node);
        let in_flight =
            |tp: &TopicPartition| self.pending.values().any(|p| p.partitions.iter().any(|f| f.partition == *tp));
        let buffered_nodes: Vec<u32> = self.buffer.keys().filter_map(leader).collect();
        let mut per_node: BTreeMap<u32, Vec<FetchPartition>> = BTreeMap::new();
        let mut leaderless = false;
        for (tp, fetch_offset) in unbuffered(owned, positions, &self.buffer) {
            if in_flight(tp) {
                continue;
            }
            let Some(node) = leader(tp) else {
                // maybeNodeForPosition: no leader known, ask for metadata.
                leaderless = true;
                continue;
            };
            if connections.unavailable(node, ctx.now) || busy(node) || buffered_nodes.contains(&node) {
                continue;
            }
            per_node.entry(node).or_default().push(FetchPartition { partition: tp.clone(), fetch_offset });
        }
        self.metadata_update_requested |= leaderless;
        let sent = per_node.len();
        for (broker, partitions) in per_node {
            self.next_correlation += 1;
            let correlation = FETCH_CORRELATION_BASE + self.next_correlation;
            self.pending.insert(correlation, PendingFetch { broker, partitions: partitions.clone() });
            out.set_timer(ClientTimer::RequestTimeout { correlation }, ctx.now + config.request_timeout_ms);
            let request = Request::Fetch(FetchRequest { max_wait_ms: config.fetch_max_wait_ms, partitions });
            out.send(NodeId::Broker(broker), Body::Request { correlation, request });
        }
        sent
    }

    /// `AbstractFetch.handleFetchSuccess` and `FetchCollector`'s error handling:
    /// records for a partition still at the fetch offset are buffered; on
    /// NOT_LEADER_OR_FOLLOWER the leader the answer names replaces the old one
    /// (`Metadata.updatePartitionLeadership`, KIP-951) and a metadata update is
    /// requested (`FetchUtils.requestMetadataUpdate`).
    pub fn on_response(
        &mut self,
        ctx: &Ctx,
        correlation: u64,
        partitions: Vec<FetchedPartition>,
        positions: &BTreeMap<TopicPartition, i64>,
        connections: &mut Connections,
        out: &mut Out,
    ) -> Outcome {
        let Some(pending) = self.pending.remove(&correlation) else { return Outcome::default() };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        connections.ready(pending.broker);
        let mut outcome = Outcome { answered: true, records: false };
        let mut moved = Vec::new();
        for p in partitions {
            match p.error {
                Errors::NONE if p.records() > 0 && positions.get(&p.partition) == Some(&p.from) => {
                    self.buffer.insert(p.partition, Completed { from: p.from, to: p.to, broker: pending.broker });
                    outcome.records = true;
                }
                Errors::NONE => {}
                Errors::NOT_LEADER_OR_FOLLOWER => {
                    self.metadata_update_requested = true;
                    if let Some(l) = p.current_leader {
                        self.leaders.insert(p.partition.clone(), Some(l));
                    }
                    moved.push((p.partition, p.current_leader));
                }
                _ => self.metadata_update_requested = true,
            }
        }
        if !moved.is_empty() {
            let new_leader = moved[0].1;
            let partitions = moved.into_iter().map(|(tp, _)| tp).collect();
            let note = Note::NotLeader { broker: pending.broker, partitions, new_leader };
            out.emit(EventKind::Note { node: ctx.me, note });
        }
        outcome
    }

    /// The fetch failed without an answer (a broken connection or
    /// `request.timeout.ms`): the node goes into reconnect backoff and the
    /// metadata is refreshed (`NetworkClient` on a disconnect). True if it was a
    /// pending fetch.
    pub fn on_failure(
        &mut self,
        ctx: &Ctx,
        correlation: u64,
        config: &ConsumerConfig,
        connections: &mut Connections,
        out: &mut Out,
    ) -> bool {
        let Some(pending) = self.pending.remove(&correlation) else { return false };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        connections.disconnected(pending.broker, ctx.now, config);
        self.metadata_update_requested = true;
        true
    }

    /// Correlations of the fetches in flight to `broker`.
    pub fn pending_to(&self, broker: u32) -> Vec<u64> {
        self.pending.iter().filter(|(_, p)| p.broker == broker).map(|(c, _)| *c).collect()
    }
}
