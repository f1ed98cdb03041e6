//! The group coordinator hosted by one broker: one context per
//! `__consumer_offsets` partition it leads (CoordinatorRuntime), routing of
//! group requests, loading after failover, and offsets (OffsetMetadataManager).
//! Each partition's state is a `Shard` (`shard.rs`); classic-group request
//! handling is in `classic/join.rs`, `classic/sync.rs` and
//! `classic/heartbeat.rs`, consumer groups' in `consumer/`.

pub mod classic;
pub mod consumer;
pub mod group;
pub mod modern;
pub mod shard;
pub mod share;
pub mod streams;

use crate::sim::coordinator::consumer::heartbeat::validate_request;
pub use crate::sim::coordinator::shard::{CoordinatorState, Shard};
use crate::sim::ctx::Ctx;
use crate::sim::message::{OffsetCommitRequest, Request, Response};
use crate::sim::note::Note;
use crate::sim::out::{BrokerTimer, GroupTimer, Out};
use crate::sim::scenario::config::BrokerConfig;
use crate::sim::state_machine::StateMachine;
use crate::sim::state_machine::StateName;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCoordinator {
    pub shards: BTreeMap<u32, Shard>,
}

/// The error a request gets when this broker cannot serve the group's partition.
fn context_error(shard: Option<&Shard>) -> Option<Errors> {
    match shard.map(|s| s.state) {
        None => Some(Errors::NOT_COORDINATOR),
        Some(CoordinatorState::LOADING) => Some(Errors::COORDINATOR_LOAD_IN_PROGRESS),
        Some(CoordinatorState::ACTIVE) => None,
        // CoordinatorRuntime: any other context state is not this broker's to serve.
        Some(CoordinatorState::INITIAL | CoordinatorState::CLOSED | CoordinatorState::FAILED) => {
            Some(Errors::NOT_COORDINATOR)
        }
    }
}

fn error_response(request: &Request, error: Errors) -> Response {
    match request {
        Request::FindCoordinator { .. } => Response::FindCoordinator { error, node_id: None },
        Request::JoinGroup(r) => crate::sim::coordinator::classic::errors::join_error(&r.member_id, error),
        Request::SyncGroup(_) => crate::sim::coordinator::classic::errors::sync_error(error),
        Request::Heartbeat { .. } => Response::Heartbeat { error },
        Request::LeaveGroup { .. } => Response::LeaveGroup { error },
        Request::OffsetCommit(r) => Response::OffsetCommit { error, offsets: r.offsets.clone() },
        Request::OffsetFetch { .. } => Response::OffsetFetch { error, offsets: Vec::new() },
        Request::Fetch(_) => Response::Fetch { error, partitions: Vec::new() },
        Request::ConsumerGroupHeartbeat(_) => crate::sim::coordinator::consumer::heartbeat::heartbeat_error(error),
        Request::ShareGroupHeartbeat(_) => crate::sim::coordinator::share::heartbeat::heartbeat_error(error),
        Request::StreamsGroupHeartbeat(_) => crate::sim::coordinator::streams::heartbeat::heartbeat_error(error, None),
        Request::ShareFetch(_) | Request::ShareAcknowledge(_) => {
            unreachable!("partition leaders answer ShareFetch and ShareAcknowledge themselves")
        }
    }
}

fn group_of(request: &Request) -> &str {
    match request {
        Request::FindCoordinator { key } => key,
        Request::JoinGroup(r) => &r.group_id,
        Request::SyncGroup(r) => &r.group_id,
        Request::Heartbeat { group_id, .. }
        | Request::LeaveGroup { group_id, .. }
        | Request::OffsetCommit(OffsetCommitRequest { group_id, .. })
        | Request::OffsetFetch { group_id, .. } => group_id,
        Request::ConsumerGroupHeartbeat(r) => &r.group_id,
        Request::ShareGroupHeartbeat(r) => &r.group_id,
        Request::StreamsGroupHeartbeat(r) => &r.group_id,
        Request::Fetch(_) | Request::ShareFetch(_) | Request::ShareAcknowledge(_) => "",
    }
}

/// GroupCoordinatorService's checks before it schedules the request on the
/// group's partition (`runtime.scheduleWriteOperation`), so they come before
/// NOT_COORDINATOR and COORDINATOR_LOAD_IN_PROGRESS: an empty group id
/// (`isGroupIdNotEmpty`), a JoinGroup's session timeout outside
/// group.min/max.session.timeout.ms (`joinGroup`), and an invalid
/// ConsumerGroupHeartbeat (`throwIfConsumerGroupHeartbeatRequestIsInvalid`).
fn service_error(request: &Request, cfg: &BrokerConfig) -> Option<Errors> {
    let timeout_out_of_bounds = |ms: u64| ms < cfg.min_session_timeout_ms || ms > cfg.max_session_timeout_ms;
    match request {
        Request::JoinGroup(r) if r.group_id.is_empty() => Some(Errors::INVALID_GROUP_ID),
        Request::JoinGroup(r) if timeout_out_of_bounds(r.session_timeout_ms) => Some(Errors::INVALID_SESSION_TIMEOUT),
        Request::SyncGroup(r) if r.group_id.is_empty() => Some(Errors::INVALID_GROUP_ID),
        Request::Heartbeat { group_id, .. } | Request::LeaveGroup { group_id, .. } if group_id.is_empty() => {
            Some(Errors::INVALID_GROUP_ID)
        }
        Request::ConsumerGroupHeartbeat(r) => validate_request(r, &cfg.consumer_group_assignors).err(),
        Request::ShareGroupHeartbeat(r) => crate::sim::coordinator::share::heartbeat::validate_request(r).err(),
        Request::StreamsGroupHeartbeat(r) => crate::sim::coordinator::streams::heartbeat::validate_request(r).err(),
        _ => None,
    }
}

impl GroupCoordinator {
    pub fn handle_request(&mut self, ctx: &mut Ctx, from: NodeId, correlation: u64, request: Request, out: &mut Out) {
        if let Some(error) = service_error(&request, ctx.broker_config) {
            out.respond(from, correlation, error_response(&request, error));
            return;
        }
        let partition = ctx.cluster.offsets_partition_for(group_of(&request));
        if let Some(error) = context_error(self.shards.get(&partition)) {
            // GroupCoordinatorService.heartbeat: "The group is still loading, so
            // blindly respond" NONE to a classic Heartbeat.
            let error = match (&request, error) {
                (Request::Heartbeat { .. }, Errors::COORDINATOR_LOAD_IN_PROGRESS) => Errors::NONE,
                (_, e) => e,
            };
            out.respond(from, correlation, error_response(&request, error));
            return;
        }
        let shard = self.shards.get_mut(&partition).expect("active shard");
        if let Some(error) = shard.request_for_share_group(&request) {
            out.respond(from, correlation, error_response(&request, error));
            return;
        }
        if let Some(error) = shard.request_for_streams_group(&request) {
            out.respond(from, correlation, error_response(&request, error));
            return;
        }
        if let Some(error) = shard.classic_request_for_consumer_group(&request) {
            out.respond(from, correlation, error_response(&request, error));
            return;
        }
        match request {
            Request::JoinGroup(r) => shard.join_group(ctx, partition, from, correlation, r, out),
            Request::SyncGroup(r) => shard.sync_group(ctx, partition, from, correlation, r, out),
            Request::Heartbeat { group_id, generation_id, member_id, group_instance_id } => {
                let error =
                    shard.heartbeat(ctx, &group_id, generation_id, &member_id, group_instance_id.as_deref(), out);
                out.respond(from, correlation, Response::Heartbeat { error });
            }
            Request::LeaveGroup { group_id, members } => {
                let error = shard.leave_group(ctx, &group_id, &members, out);
                out.respond(from, correlation, Response::LeaveGroup { error });
            }
            Request::OffsetCommit(r) if shard.consumer_group(&r.group_id).is_some() => {
                let error = shard.commit_consumer_group_offsets(
                    partition,
                    &r.group_id,
                    r.generation_id,
                    &r.member_id,
                    &r.offsets,
                    out,
                );
                out.respond(from, correlation, Response::OffsetCommit { error, offsets: r.offsets });
            }
            Request::ConsumerGroupHeartbeat(r) => {
                let response = shard.consumer_group_heartbeat(ctx, partition, from, r, out);
                out.respond(from, correlation, response);
            }
            Request::OffsetCommit(r) => {
                let error = shard.commit_offsets(ctx, partition, &r, out);
                out.respond(from, correlation, Response::OffsetCommit { error, offsets: r.offsets });
            }
            Request::OffsetFetch { group_id, partitions } => {
                let response = shard.fetch_offsets(&group_id, &partitions);
                out.respond(from, correlation, response);
            }
            Request::ShareGroupHeartbeat(r) => {
                let response = shard.share_group_heartbeat(ctx, partition, r, out);
                out.respond(from, correlation, response);
            }
            Request::StreamsGroupHeartbeat(r) => {
                let response = shard.streams_group_heartbeat(ctx, partition, *r, out);
                out.respond(from, correlation, response);
            }
            Request::FindCoordinator { .. }
            | Request::Fetch(_)
            | Request::ShareFetch(_)
            | Request::ShareAcknowledge(_) => {
                unreachable!("brokers answer FindCoordinator, Fetch, ShareFetch and ShareAcknowledge themselves")
            }
        }
    }

    /// This broker became leader of `__consumer_offsets-<partition>`: load it.
    pub fn become_leader(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        self.shards.insert(partition, Shard::loading());
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: StateName::of(CoordinatorState::INITIAL),
            to: StateName::of(CoordinatorState::LOADING),
            trigger: Trigger::BecameLeader,
        });
        out.set_timer(BrokerTimer::Load { partition }, ctx.now + ctx.broker_config.coordinator_load_ms);
    }

    /// This broker is no longer leader of `__consumer_offsets-<partition>`
    /// (`scheduleUnloadOperation`, GMM `onUnloaded`): the context is closed, its
    /// classic groups become Dead and every parked JoinGroup and SyncGroup is
    /// answered NOT_COORDINATOR.
    pub fn resign_leader(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        let Some(shard) = self.shards.remove(&partition) else { return };
        for group in shard.classics() {
            for m in group.members.values() {
                if let Some(p) = &m.awaiting_join {
                    out.respond(
                        p.client,
                        p.correlation,
                        crate::sim::coordinator::classic::errors::join_error(&m.member_id, Errors::NOT_COORDINATOR),
                    );
                }
                if let Some(p) = &m.awaiting_sync {
                    out.respond(
                        p.client,
                        p.correlation,
                        crate::sim::coordinator::classic::errors::sync_error(Errors::NOT_COORDINATOR),
                    );
                }
            }
        }
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: StateName::of(shard.state),
            to: StateName::of(CoordinatorState::CLOSED),
            trigger: Trigger::LeadershipMovedAway,
        });
    }

    /// One of a group's timers fired: the shard of the group's `__consumer_offsets` partition handles it.
    pub fn handle_group_timer(&mut self, ctx: &mut Ctx, key: &GroupTimer, out: &mut Out) {
        let partition = ctx.cluster.offsets_partition_for(key.group_id());
        let Some(shard) = self.shards.get_mut(&partition) else { return };
        match key {
            GroupTimer::MemberHeartbeat { group_id, member_id } => {
                shard.member_heartbeat_expired(ctx, group_id, member_id, out)
            }
            GroupTimer::Join { group_id } => shard.join_deadline(ctx, group_id, out),
            GroupTimer::Sync { group_id } => shard.sync_deadline(ctx, group_id, out),
            GroupTimer::ConsumerGroupSessionTimeout { group_id, member_id } => {
                shard.consumer_session_expired(ctx, partition, group_id, member_id, out)
            }
            GroupTimer::ConsumerGroupRebalanceTimeout { group_id, member_id } => {
                shard.consumer_rebalance_timed_out(ctx, partition, group_id, member_id, out)
            }
            GroupTimer::ShareGroupSessionTimeout { group_id, member_id } => {
                shard.share_session_expired(ctx, partition, group_id, member_id, out)
            }
            GroupTimer::ShareGroupStateInitialize { group_id } => {
                shard.share_state_initialized(ctx, partition, group_id, out)
            }
            GroupTimer::StreamsGroupSessionTimeout { group_id, member_id } => {
                shard.streams_session_expired(ctx, partition, group_id, member_id, out)
            }
            GroupTimer::StreamsGroupRebalanceTimeout { group_id, member_id } => {
                shard.streams_rebalance_timed_out(ctx, partition, group_id, member_id, out)
            }
            GroupTimer::StreamsGroupInitialRebalance { group_id } => {
                shard.streams_initial_delay_over(ctx, partition, group_id, out)
            }
        }
    }

    /// Replays the partition's log (GMM `replay`) and re-arms timers (`onLoaded`).
    pub(crate) fn finish_load(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        let Some(shard) = self.shards.get_mut(&partition) else { return };
        for record in ctx.cluster.offsets_logs[partition as usize].iter() {
            shard.replay(record.clone());
        }
        shard.state = CoordinatorState::ACTIVE;
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: StateName::of(CoordinatorState::LOADING),
            to: StateName::of(CoordinatorState::ACTIVE),
            trigger: Trigger::Replayed { records: ctx.cluster.offsets_logs[partition as usize].len() },
        });
        for group in shard.classics() {
            if !group.members.is_empty() {
                out.emit(EventKind::Note {
                    node: ctx.me,
                    note: Note::GroupLoaded {
                        group_id: group.group_id.clone(),
                        state: group.state.name().to_string(),
                        generation: group.generation_id,
                        members: group.members.len(),
                    },
                });
            }
            for m in group.members.values() {
                out.set_timer(
                    GroupTimer::MemberHeartbeat { group_id: group.group_id.clone(), member_id: m.member_id.clone() },
                    ctx.now + m.session_timeout_ms,
                );
            }
        }
        shard.consumer_groups_loaded(ctx, out);
        shard.share_groups_loaded(ctx, out);
        shard.streams_groups_loaded(ctx, out);
    }
}
