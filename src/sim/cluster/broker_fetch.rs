//! The partition leader's side of a consumer's Fetch (`ReplicaManager.fetchMessages`
//! and `DelayedFetch`): records come only from the leader; a broker that does
//! not lead a partition answers NOT_LEADER_OR_FOLLOWER with the leader its
//! metadata names (the response's `CurrentLeader`, KIP-951). With nothing new to
//! return the request waits (`fetch.min.bytes` = 1) until a record is appended
//! or `fetch.max.wait.ms` passes.

use super::Cluster;
use crate::sim::ctx::Ctx;
use crate::sim::message::{FetchPartition, FetchRequest, FetchedPartition, Response};
use crate::sim::out::{BrokerTimer, Out};
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `max.partition.fetch.bytes` (1 MiB) bounds what one partition returns; records
/// here have no size, so a partition's answer holds at most this many.
pub const MAX_RECORDS_PER_PARTITION: i64 = 1000;

/// A Fetch held in the purgatory (`DelayedFetch`) until data or its deadline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParkedFetch {
    pub partitions: Vec<FetchPartition>,
}

/// Fetches this broker holds, by (client, correlation).
pub type Purgatory = BTreeMap<(NodeId, u64), ParkedFetch>;

/// Reads what each partition has from its fetch offset on, if `broker` leads it.
fn read(cluster: &Cluster, broker: u32, partitions: &[FetchPartition]) -> Vec<FetchedPartition> {
    partitions
        .iter()
        .map(|p| {
            let leader = cluster
                .topics
                .get(p.partition.topic.as_str())
                .and_then(|t| t.partitions.get(p.partition.partition as usize))
                .map(|s| s.leader);
            let (error, to, current_leader) = match leader {
                None => (Errors::UNKNOWN_TOPIC_OR_PARTITION, p.fetch_offset, None),
                Some(l) if l != Some(broker) => (Errors::NOT_LEADER_OR_FOLLOWER, p.fetch_offset, l),
                Some(_) => {
                    let end = cluster.end_offset(&p.partition);
                    (Errors::NONE, end.min(p.fetch_offset + MAX_RECORDS_PER_PARTITION).max(p.fetch_offset), None)
                }
            };
            FetchedPartition { partition: p.partition.clone(), error, from: p.fetch_offset, to, current_leader }
        })
        .collect()
}

/// When the next record is appended to any of `partitions` (producers write
/// `records_per_sec` to every partition of a topic, spread evenly over time).
fn next_append(cluster: &Cluster, now: Millis, partitions: &[FetchPartition]) -> Option<Millis> {
    partitions
        .iter()
        .filter_map(|p| cluster.topics.get(p.partition.topic.as_str()).map(|t| t.records_per_sec))
        .filter(|r| *r > 0)
        .map(|r| {
            let next = (now * r / 1000 + 1) * 1000;
            next.div_ceil(r)
        })
        .min()
}

/// A Fetch arrives: answered at once when it finds records or an error (or
/// asks not to wait), otherwise held until the next append or `max_wait_ms`.
pub(crate) fn handle_fetch(
    purgatory: &mut Purgatory,
    ctx: &mut Ctx,
    broker: u32,
    from: NodeId,
    correlation: u64,
    request: FetchRequest,
    out: &mut Out,
) {
    let FetchRequest { max_wait_ms, partitions } = request;
    let answer = read(ctx.cluster, broker, &partitions);
    let ready = answer.iter().any(|p| p.error != Errors::NONE || p.records() > 0);
    if ready || max_wait_ms == 0 {
        return out.respond(from, correlation, Response::Fetch { error: Errors::NONE, partitions: answer });
    }
    let deadline = ctx.now + max_wait_ms;
    let wake = next_append(ctx.cluster, ctx.now, &partitions).map_or(deadline, |t| t.min(deadline));
    purgatory.insert((from, correlation), ParkedFetch { partitions });
    out.set_timer(BrokerTimer::FetchWait { client: from, correlation }, wake);
}

/// A held Fetch completes (`DelayedFetch.onComplete`): with whatever is there now.
pub(crate) fn complete_fetch(
    purgatory: &mut Purgatory,
    ctx: &mut Ctx,
    broker: u32,
    client: NodeId,
    correlation: u64,
    out: &mut Out,
) {
    if let Some(parked) = purgatory.remove(&(client, correlation)) {
        let answer = read(ctx.cluster, broker, &parked.partitions);
        out.respond(client, correlation, Response::Fetch { error: Errors::NONE, partitions: answer });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_append_is_the_first_instant_the_log_end_moves() {
        let mut c = Cluster::new(3, 1, 3);
        c.add_topic("t", 1, 3);
        let p = vec![FetchPartition { partition: crate::assign::TopicPartition::new("t", 0), fetch_offset: 0 }];
        // 3 records a second: the end offset is floor(t * 3 / 1000), so it moves at 334, 667, 1000.
        assert_eq!(next_append(&c, 0, &p), Some(334));
        assert_eq!(next_append(&c, 334, &p), Some(667));
        assert_eq!(next_append(&c, 999, &p), Some(1000));
        c.topics.get_mut("t").unwrap().records_per_sec = 0;
        assert_eq!(next_append(&c, 0, &p), None);
    }
}
