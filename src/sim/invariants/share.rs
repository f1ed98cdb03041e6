//! Share groups' safety (KIP-932), checked after every step like the others:
//! what `SharePartition` and the share coordinator promise about records.
//!
//! - `share-single-acquirer`: a record is ACQUIRED by at most one member at a
//!   time, over every broker holding the share-partition.
//! - `share-delivery-limit`: no record is delivered more than
//!   `share.delivery.count.limit` times.
//! - `share-spso-monotonic`: a share-partition's persisted start offset never
//!   moves back.
//! - `share-terminal-final`: what the share coordinator holds as ACKNOWLEDGED
//!   or ARCHIVED (or below its start offset) is never AVAILABLE or ACQUIRED
//!   again on a leader — so nothing acknowledged is delivered again, across
//!   failovers too.

use crate::assign::TopicPartition;
use crate::sim::cluster::share_partition::RecordState;
use crate::sim::invariants::Violation;
use crate::sim::world::World;
use std::collections::BTreeMap;

pub(super) fn check(
    world: &World,
    last_spso: &mut BTreeMap<String, BTreeMap<TopicPartition, i64>>,
    v: &mut Vec<Violation>,
) {
    let mut acquirers: BTreeMap<(&str, &TopicPartition, i64), (u32, &str)> = BTreeMap::new();
    for b in world.brokers.values().filter(|b| b.alive) {
        for (group_id, parts) in &b.share.partitions {
            let limit = world.cluster.share_group_config(group_id).delivery_count_limit;
            let stored = world.cluster.share_state.get(group_id);
            for (tp, sp) in parts {
                let persisted = stored.and_then(|s| s.get(tp));
                if let Some(p) = persisted.filter(|p| p.start_offset >= 0) {
                    if sp.start_offset < p.start_offset {
                        v.push(Violation {
                            invariant: "share-terminal-final",
                            detail: format!(
                                "{group_id} {tp}: broker-{} holds records from {} below the stored start offset {}",
                                b.id, sp.start_offset, p.start_offset
                            ),
                        });
                    }
                }
                for (offset, r) in &sp.records {
                    if r.delivery_count > limit {
                        v.push(Violation {
                            invariant: "share-delivery-limit",
                            detail: format!(
                                "{group_id} {tp} offset {offset} delivered {} times (limit {limit})",
                                r.delivery_count
                            ),
                        });
                    }
                    let stored_terminal =
                        persisted.and_then(|p| p.batches.get(offset)).is_some_and(|(s, _)| s.is_terminal());
                    if stored_terminal && !r.state.is_terminal() {
                        v.push(Violation {
                            invariant: "share-terminal-final",
                            detail: format!(
                                "{group_id} {tp} offset {offset} is stored as terminal but {} on broker-{}",
                                r.state.name_str(),
                                b.id
                            ),
                        });
                    }
                    if r.state != RecordState::ACQUIRED {
                        continue;
                    }
                    let member = r.member_id.as_deref().unwrap_or("");
                    if let Some((other_b, other_m)) = acquirers.insert((group_id, tp, *offset), (b.id, member)) {
                        v.push(Violation {
                            invariant: "share-single-acquirer",
                            detail: format!(
                                "{group_id} {tp} offset {offset} acquired by {other_m} on broker-{other_b} and by {member} on broker-{}",
                                b.id
                            ),
                        });
                    }
                }
            }
        }
    }
    for (group_id, parts) in &world.cluster.share_state {
        let last = last_spso.entry(group_id.clone()).or_default();
        for (tp, p) in parts {
            if p.start_offset < 0 {
                continue;
            }
            if let Some(prev) = last.insert(tp.clone(), p.start_offset) {
                if p.start_offset < prev {
                    v.push(Violation {
                        invariant: "share-spso-monotonic",
                        detail: format!(
                            "{group_id} {tp}: stored start offset moved back from {prev} to {}",
                            p.start_offset
                        ),
                    });
                }
            }
        }
    }
}
