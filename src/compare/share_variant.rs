//! A variant that runs the compared consumer group as a share group (KIP-932,
//! `"groupType": "share"`): the same group id, the same number of consumers
//! on the same topics, the same start stagger and the same fault script.
//!
//! What carries over, from the consumer's configs to the share group's:
//! `topics`; `max.poll.records`, `fetch.max.wait.ms` and the simulated
//! application's time per record (`processing.ms.per.record` becomes
//! `processingMsPerRecord`) go to every `KafkaShareConsumer`;
//! `auto.offset.reset` becomes the group config `share.auto.offset.reset`.
//! What has no share-group counterpart is dropped: assignors (the broker's
//! `SimpleAssignor` assigns), offset commits (acknowledgements replace them:
//! the next `poll()` accepts what the last one returned, implicit mode),
//! `session.timeout.ms` and `heartbeat.interval.ms` (a share group's are the
//! group configs `share.session.timeout.ms`, 45 s to 60 s in Kafka 4.4, and
//! `share.heartbeat.interval.ms`; the variant's `share` patch sets them).
//!
//! Faults name consumers by number (`c<n>`: `World::new` numbers the groups'
//! consumers first, then the share groups'), so the converted group goes
//! first among the share groups and must be the scenario's last consumer
//! group: then every consumer keeps its number.

use super::patch::merge_patch;
use crate::sim::scenario::config::AutoOffsetReset;
use crate::sim::scenario::share_config::{ShareAutoOffsetReset, ShareConsumerConfig, ShareGroupConfig, ShareGroupSpec};
use crate::sim::{Fault, Scenario};
use serde_json::Value;
use std::collections::BTreeSet;

/// Moves group `group_id` from `groups` to the front of `shareGroups`, then
/// applies `patch` to the share group object. An error says in plain words
/// what cannot be converted.
pub fn into_share_group(s: &mut Scenario, group_id: &str, patch: Option<&Value>) -> Result<(), String> {
    let at: Vec<usize> = s.groups.iter().enumerate().filter(|(_, g)| g.group_id == group_id).map(|(i, _)| i).collect();
    let i = match at.as_slice() {
        [i] => *i,
        [] => return Err(format!("the scenario has no consumer group '{group_id}'")),
        more => {
            return Err(format!(
                "the group '{group_id}' has {} entries in groups; only a group with one entry can become a share group",
                more.len()
            ))
        }
    };
    if s.groups[i + 1..].iter().any(|g| g.consumers > 0) {
        return Err(format!(
            "'{group_id}' must be the last of the scenario's groups: share groups' consumers are numbered after \
             the consumer groups', so the consumers after it would change numbers and the faults would name \
             other consumers"
        ));
    }
    if s.share_groups.iter().any(|g| g.group_id == group_id) {
        return Err(format!("the scenario already has a share group '{group_id}'"));
    }
    let g = &s.groups[i];
    if g.static_members || g.config.group_instance_id.is_some() {
        return Err("a share group has no static membership (KafkaShareConsumer takes no group.instance.id); \
                    remove staticMembers and group.instance.id"
            .into());
    }
    check_faults(s, i)?;
    let c = &g.config;
    let spec = ShareGroupSpec {
        group_id: group_id.to_string(),
        consumers: g.consumers,
        topics: c.topics.clone(),
        config: ShareGroupConfig {
            auto_offset_reset: match c.auto_offset_reset {
                AutoOffsetReset::Earliest => ShareAutoOffsetReset::Earliest,
                AutoOffsetReset::Latest => ShareAutoOffsetReset::Latest,
            },
            ..ShareGroupConfig::default()
        },
        consumer: ShareConsumerConfig {
            max_poll_records: i64::from(c.max_poll_records),
            fetch_max_wait_ms: c.fetch_max_wait_ms,
            processing_ms_per_record: c.processing_ms_per_record,
            ..ShareConsumerConfig::default()
        },
        start_stagger_ms: g.start_stagger_ms,
    };
    let spec = match patch {
        None => spec,
        Some(p) => {
            if p.get("groupId").is_some() {
                return Err("share: groupId cannot be patched (metrics compare the same group)".into());
            }
            let mut value = serde_json::to_value(&spec).map_err(|e| format!("share: {e}"))?;
            merge_patch(&mut value, p);
            crate::json::from_value::<ShareGroupSpec>(&value).map_err(|e| crate::json::under("share", &e))?
        }
    };
    s.groups.remove(i);
    s.share_groups.insert(0, spec);
    s.validate().map_err(|e| crate::json::under("scenario", &e))
}

/// The faults a `KafkaShareConsumer` cannot take, if one names a consumer of
/// `groups[i]` (those it starts with, and those `addConsumer` adds to it).
fn check_faults(s: &Scenario, i: usize) -> Result<(), String> {
    let g = &s.groups[i];
    let first: u32 = s.groups[..i].iter().map(|g| g.consumers).sum::<u32>() + 1;
    let mut ours: BTreeSet<u32> = (first..first + g.consumers).collect();
    // Clients added later take the next number, in the order the faults happen.
    let mut next = s.groups.iter().map(|g| g.consumers).sum::<u32>()
        + s.share_groups.iter().map(|g| g.consumers).sum::<u32>()
        + s.connect_clusters.iter().map(|c| c.workers).sum::<u32>()
        + 1;
    let mut faults: Vec<_> = s.faults.iter().collect();
    faults.sort_by_key(|f| f.at);
    for f in faults {
        let why = match &f.fault {
            Fault::AddConsumer { group } => {
                if *group == g.group_id {
                    ours.insert(next);
                }
                next += 1;
                continue;
            }
            Fault::AddWorker { .. } => {
                next += 1;
                continue;
            }
            Fault::RestartConsumerAs { consumer, .. } if ours.contains(consumer) => {
                "restartConsumerAs switches static membership, which a share consumer does not have"
            }
            Fault::CloseConsumerWithOptions { consumer, .. } if ours.contains(consumer) => {
                "closeConsumerWithOptions takes CloseOptions, which KafkaShareConsumer.close does not (use closeConsumer)"
            }
            Fault::ChangeSubscription { consumer, .. } if ours.contains(consumer) => {
                "the simulator's share consumers keep the subscription they start with"
            }
            _ => continue,
        };
        return Err(format!("the fault at {} ms on c{}: {why}", f.at, fault_consumer(&f.fault).unwrap_or(0)));
    }
    Ok(())
}

fn fault_consumer(f: &Fault) -> Option<u32> {
    match f {
        Fault::RestartConsumerAs { consumer, .. }
        | Fault::CloseConsumerWithOptions { consumer, .. }
        | Fault::ChangeSubscription { consumer, .. } => Some(*consumer),
        _ => None,
    }
}
