//! Safety properties checked after every step in tests and shown live in the UI.

mod consumer_group;
pub mod monitor;
mod owners;
mod share;
mod streams;

use crate::sim::client::abstract_coordinator::MemberState;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::consumer::records::ConsumerGroupRecord;
use crate::sim::coordinator::shard::CoordinatorState;
use crate::sim::coordinator::share::records::ShareGroupRecord;
pub use crate::sim::invariants::monitor::{Monitor, Violation};
use crate::sim::world::{World, MONITOR_EVERY_STEP_UP_TO, MONITOR_LARGE_EVERY_MS};
use std::collections::BTreeMap;

/// All invariants, at the world's current instant.
pub fn check(world: &World) -> Vec<Violation> {
    Monitor::default().check(world)
}

impl Monitor {
    pub fn check(&mut self, world: &World) -> Vec<Violation> {
        let mut v = Vec::new();
        single_owner(world, &mut v);
        single_active_coordinator(world, &mut v);
        self.read_new_records(world, &mut v);
        connect_single_runner(world, &mut v);
        self.connect_generation_persisted(world, &mut v);
        crate::sim::invariants::consumer_group::check(world, &mut v);
        crate::sim::invariants::share::check(world, &mut self.share_spso, &mut v);
        crate::sim::invariants::streams::check(world, &mut v);
        routing(world, &mut v);
        v
    }

    /// Persisted generations never go backwards in a group, and committed
    /// offsets never go backwards for a (group, partition).
    fn read_new_records(&mut self, world: &World, v: &mut Vec<Violation>) {
        let logs = &world.cluster.offsets_logs;
        self.read.resize(logs.len(), 0);
        self.offsets.resize_with(logs.len(), Default::default);
        for (i, log) in logs.iter().enumerate() {
            if log.end_offset() < self.read[i] {
                // A log end offset never goes back (compaction removes records but
                // keeps offsets); if it did, start over rather than miss records.
                self.read[i] = 0;
                self.generations.retain(|(l, _), _| *l != i);
                self.offsets[i].clear();
                self.epochs.retain(|(l, _, _), _| *l != i);
                self.max_generation.retain(|(l, _), _| *l != i);
            }
            for r in log.iter_from(self.read[i]) {
                match r {
                    CoordinatorRecord::GroupMetadata { group_id, generation_id, .. } => {
                        let max = self.max_generation.entry((i, group_id.clone())).or_insert(*generation_id);
                        *max = (*max).max(*generation_id);
                        if let Some(prev) = self.generations.insert((i, group_id.clone()), *generation_id) {
                            if *generation_id < prev {
                                v.push(Violation {
                                    invariant: "generation-monotonic",
                                    detail: format!(
                                        "group {group_id} persisted generation {generation_id} after {prev}"
                                    ),
                                });
                            }
                        }
                    }
                    CoordinatorRecord::OffsetCommit { group_id, partition, offset } => {
                        let groups = &mut self.offsets[i];
                        if !groups.contains_key(group_id) {
                            groups.insert(group_id.clone(), Default::default());
                        }
                        let committed = groups.get_mut(group_id).expect("inserted above");
                        if let Some(prev) = committed.insert(partition.clone(), *offset) {
                            if *offset < prev {
                                v.push(Violation {
                                    invariant: "offsets-monotonic",
                                    detail: format!("{group_id} committed {partition} at {offset} after {prev}"),
                                });
                            }
                        }
                    }
                    CoordinatorRecord::ConsumerGroup(ConsumerGroupRecord::Metadata { group_id, epoch }) => {
                        self.epoch_never_goes_back(i, group_id, "group epoch", *epoch, v);
                    }
                    CoordinatorRecord::ConsumerGroup(ConsumerGroupRecord::TargetAssignmentMetadata {
                        group_id,
                        assignment_epoch,
                        ..
                    }) => {
                        self.epoch_never_goes_back(i, group_id, "assignment epoch", *assignment_epoch, v);
                    }
                    CoordinatorRecord::ShareGroup(ShareGroupRecord::Metadata { group_id, epoch, .. }) => {
                        self.epoch_never_goes_back(i, group_id, "share group epoch", *epoch, v);
                    }
                    CoordinatorRecord::StreamsGroup(
                        crate::sim::coordinator::streams::records::StreamsGroupRecord::Metadata {
                            group_id, epoch, ..
                        },
                    ) => {
                        self.epoch_never_goes_back(i, group_id, "streams group epoch", *epoch, v);
                    }
                    _ => {}
                }
            }
            self.read[i] = log.end_offset();
        }
    }

    /// KIP-848: group epochs and target assignment epochs written to
    /// `__consumer_offsets` never go backwards.
    fn epoch_never_goes_back(
        &mut self,
        log: usize,
        group_id: &str,
        kind: &'static str,
        epoch: i32,
        v: &mut Vec<Violation>,
    ) {
        if let Some(prev) = self.epochs.insert((log, group_id.to_string(), kind), epoch) {
            if epoch < prev {
                v.push(Violation {
                    invariant: "group-epoch-monotonic",
                    detail: format!("group {group_id} persisted {kind} {epoch} after {prev}"),
                });
            }
        }
    }
}

/// No connector or task instance exists on two Connect workers at once.
/// An instance exists on a worker from its start until it is stopped (on
/// revocation, eager's onJoinPrepare, or the worker's death); RUNNING and
/// FAILED both count. Workers are checked once they act on the group's current
/// assignment: alive, a member of the coordinator's group under their member
/// id, and having completed SyncGroup for the coordinator's current generation.
/// (A worker expelled from the group keeps its work until it learns so; Kafka
/// does not prevent that zombie, and neither does this invariant claim to.)
/// Instances a worker keeps running outside any assignment after the group
/// downgraded from cooperative to eager ("default") are not counted: that
/// worker revoked nothing (WorkerCoordinator `onJoinPrepare`/`onJoinComplete`
/// only revoke under the protocol they had), so in Kafka they run beside the
/// eager assignment's owner, and go on running after the group returns to
/// cooperative, since no member's reported assignment names them. The worker
/// records them (`stranded`) and says so in its trace.
fn connect_single_runner(world: &World, v: &mut Vec<Violation>) {
    for c in &world.scenario.connect_clusters {
        let Some((_, group)) = world.group(&c.group_id) else { continue };
        let mut connectors: BTreeMap<&str, u32> = BTreeMap::new();
        let mut tasks: BTreeMap<&crate::connect::ConnectorTaskId, u32> = BTreeMap::new();
        for w in world.group_workers(&c.group_id) {
            let current = w.alive
                && group.members.contains_key(&w.membership.member_id)
                && w.last_completed_generation == group.generation_id;
            if !current {
                continue;
            }
            let twice = |what: String, other: u32| Violation {
                invariant: "connect-single-runner",
                detail: format!("{what} runs on c{other} and c{} in {}", w.idx, c.group_id),
            };
            let stranded = &w.client().stranded;
            for name in w.client().connectors.keys().filter(|n| !stranded.connectors.contains(n)) {
                if let Some(other) = connectors.insert(name, w.idx) {
                    v.push(twice(format!("connector {name}"), other));
                }
            }
            for id in w.client().tasks.keys().filter(|t| !stranded.tasks.contains(t)) {
                if let Some(other) = tasks.insert(id, w.idx) {
                    v.push(twice(format!("task {id}"), other));
                }
            }
        }
    }
}

impl Monitor {
    /// A worker never completes a generation its coordinator has not persisted:
    /// SyncGroup answers only after the GroupMetadata record is appended. (The
    /// highest persisted generation comes from the records read once each.)
    fn connect_generation_persisted(&self, world: &World, v: &mut Vec<Violation>) {
        for c in &world.scenario.connect_clusters {
            let p = world.cluster.offsets_partition_for(&c.group_id) as usize;
            let persisted = self.max_generation.get(&(p, c.group_id.clone())).copied().unwrap_or(0);
            for w in world.group_workers(&c.group_id).filter(|w| w.last_completed_generation > persisted) {
                v.push(Violation {
                    invariant: "generation-monotonic",
                    detail: format!(
                        "c{} completed generation {} of {}, beyond the persisted {persisted}",
                        w.idx, w.last_completed_generation, c.group_id
                    ),
                });
            }
        }
    }
}

/// No partition is owned by two members of the same group at once. "Owned"
/// (classic protocol): the partition is in the consumer's assignment, the
/// consumer is alive and in the coordinator's current generation under its
/// current member id, and its assignment dates from the current generation or
/// the one before. Under eager rebalancing ownership ends at revocation
/// (onJoinPrepare), under cooperative at the revoke after SyncGroup.
///
/// A member between JoinGroup and SyncGroup (COMPLETING_REBALANCE) still holds
/// the assignment of the generation whose SyncGroup gave it, and the
/// coordinator knows of its claim from the subscription its last JoinGroup
/// stored (`generationId`). When either is older than the previous generation,
/// the member missed rebalances (cut off from its coordinator while static
/// membership, or a rebalance that completed without it, kept it in the group)
/// and Kafka lets it hold them anyway:
/// `ConsumerCoordinator.onJoinPrepare` keeps a cooperative member's partitions
/// unless its generation was reset, the leader's `AbstractStickyAssignor` gives
/// a partition claimed twice to the newer generation's claim (and drops it from
/// both when the generations tie, logging "Found multiple consumers ... claiming
/// the same TopicPartition"), and the stale member revokes it in
/// `onJoinComplete` once SyncGroup answers. Such a zombie's claim is not counted
/// here; its commits are fenced by generation.
///
/// The subscription's `generationId` alone is not enough: a JoinGroup answer
/// can carry a generation the coordinator loses before any SyncGroup is stored
/// (`completeClassicGroupJoin` writes nothing for a non-empty group; the next
/// coordinator loads the one before and numbers its next generation the same),
/// so two members can claim "generation 2" for two different generations. A generation a SyncGroup answered was
/// stored first (`classicGroupSyncToLeader` answers after the append), so its
/// number is never reused.
fn single_owner(world: &World, v: &mut Vec<Violation>) {
    for g in &world.scenario.groups {
        let Some((_, group)) = world.group(&g.group_id) else { continue };
        let mut owner = owners::Owners::new(&world.cluster);
        for c in world.group_consumers(&g.group_id) {
            let Some(member) = group.members.get(&c.membership.member_id) else { continue };
            let claimed_in = member.protocols.first().map_or(-1, |p| p.metadata.generation_id);
            let recent = |generation: i32| generation >= group.generation_id - 1;
            let dated = match c.membership.state {
                MemberState::STABLE => true,
                MemberState::COMPLETING_REBALANCE => recent(claimed_in) && recent(c.client().assignment_generation),
                _ => false,
            };
            if !(c.alive && dated && c.membership.generation == group.generation_id) {
                continue;
            }
            for tp in &c.client().owned {
                if let Some(other) = owner.insert(tp, c.idx) {
                    v.push(Violation {
                        invariant: "single-owner",
                        detail: format!("{tp} owned by c{other} and c{} in group {}", c.idx, g.group_id),
                    });
                }
            }
        }
    }
}

/// At most one broker has an ACTIVE coordinator context for a group's partition.
fn single_active_coordinator(world: &World, v: &mut Vec<Violation>) {
    for group_id in world.scenario.group_ids() {
        let p = world.cluster.offsets_partition_for(group_id);
        let active: Vec<u32> = world
            .brokers
            .values()
            .filter(|b| b.alive && b.coordinator.shards.get(&p).is_some_and(|s| s.state == CoordinatorState::ACTIVE))
            .map(|b| b.id)
            .collect();
        if active.len() > 1 {
            v.push(Violation {
                invariant: "single-coordinator",
                detail: format!("group {group_id} has active coordinators on brokers {active:?}"),
            });
        }
    }
}

impl World {
    /// Records violations of the invariants not seen before. Small worlds are
    /// checked after every step; with more than `MONITOR_EVERY_STEP_UP_TO`
    /// clients (a check then costs about a thousand partition lookups) at most
    /// every `MONITOR_LARGE_EVERY_MS` of simulated time, so a violation shorter
    /// than that may go unseen on the page (the tests check every step).
    pub(crate) fn monitor_invariants(&mut self) {
        if self.client_count() > MONITOR_EVERY_STEP_UP_TO {
            if self.now < self.monitor_next {
                return;
            }
            self.monitor_next = self.now + MONITOR_LARGE_EVERY_MS;
        }
        let mut m = std::mem::take(&mut self.monitor_state);
        let found = m.check(self);
        self.monitor_state = m;
        for v in found {
            if self.monitored.insert((v.invariant.to_string(), v.detail.clone())) {
                self.record(
                    None,
                    crate::sim::trace::EventKind::InvariantViolated {
                        invariant: v.invariant.to_string(),
                        detail: v.detail,
                    },
                );
            }
        }
    }
}

/// Every input reached a node that takes it (`sim::node::Node`): a request a
/// broker, a response or a disconnect the client that sent the request, a
/// timer the node that set it.
fn routing(world: &World, v: &mut Vec<Violation>) {
    for detail in &world.misroutes {
        v.push(Violation { invariant: crate::sim::world::ROUTING, detail: detail.clone() });
    }
}
