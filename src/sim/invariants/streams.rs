//! Streams groups' safety (KIP-1071), checked after every step like the others:
//!
//! - `streams-single-active-owner`: on the coordinator, no task is held as
//!   active by two members at once, counting a task a member still has to
//!   revoke (`CurrentAssignmentBuilder` grants an active task only once no
//!   process runs it).
//! - `streams-standby-apart`: in the target, a standby is never on the process
//!   of its task's active (`StickyTaskAssignor.assignStandby`).
//!
//! - `streams-classic-single-active-owner`: under classic rebalancing, no
//!   task runs as an active task on two live threads of one application that
//!   took their assignments in the same generation (their SyncGroup's; the leader's
//!   `StreamsPartitionAssignor` gives each task to one thread, and a task
//!   still owned elsewhere is held back until revoked).
//!
//! The group epoch never going back is checked on the records, with the
//! other groups' epochs (`invariants/mod.rs`).

use crate::sim::invariants::Violation;
use crate::sim::streams_message::task_names;
use crate::sim::world::World;
use std::collections::BTreeMap;

pub(super) fn check(world: &World, v: &mut Vec<Violation>) {
    check_classic(world, v);
    for b in world.brokers.values().filter(|b| b.alive) {
        for shard in b.coordinator.shards.values() {
            for g in shard.groups.values().filter_map(crate::sim::coordinator::group::Group::as_streams) {
                let mut owner: BTreeMap<String, &str> = BTreeMap::new();
                for m in g.members.values() {
                    let mut tasks = task_names(&m.assigned.active);
                    tasks.extend(task_names(&m.pending_revocation.active));
                    for t in tasks {
                        if let Some(other) = owner.insert(t.clone(), &m.client_id) {
                            v.push(Violation {
                                invariant: "streams-single-active-owner",
                                detail: format!("{}: task {t} is active on {other} and {}", g.group_id, m.client_id),
                            });
                        }
                    }
                }
                let process = |id: &str| g.members.get(id).map(|m| m.process_id.as_str());
                let mut active_on: BTreeMap<String, &str> = BTreeMap::new();
                for (id, t) in &g.target_assignment {
                    for task in task_names(&t.active) {
                        if let Some(p) = process(id) {
                            active_on.insert(task, p);
                        }
                    }
                }
                for (id, t) in &g.target_assignment {
                    for task in task_names(&t.standby) {
                        if process(id).is_some() && active_on.get(&task).copied() == process(id) {
                            v.push(Violation {
                                invariant: "streams-standby-apart",
                                detail: format!("{}: task {task}'s standby is on its active's process", g.group_id),
                            });
                        }
                    }
                }
            }
        }
    }
}

/// Classic Kafka Streams rebalancing, on the threads themselves.
fn check_classic(world: &World, v: &mut Vec<Violation>) {
    let mut owner: BTreeMap<(String, i32, String), String> = BTreeMap::new();
    for t in world.clients.streams_threads().filter(|t| t.alive && t.is_classic()) {
        let t = t.client();
        for task in task_names(&t.owned.active) {
            let key = (t.group_id.clone(), t.assignment_generation, task.clone());
            if let Some(other) = owner.insert(key, t.name()) {
                v.push(Violation {
                    invariant: "streams-classic-single-active-owner",
                    detail: format!(
                        "{}: task {task} is active on {other} and {} in generation {}",
                        t.group_id,
                        t.name(),
                        t.assignment_generation
                    ),
                });
            }
        }
    }
}
