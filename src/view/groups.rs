//! Groups as the page shows them (classic groups, KIP-848 consumer groups,
//! Connect clusters), and what the timeline marks.

use crate::java;
use crate::sim::message::short_member;
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::World;

#[derive(Clone, Debug, PartialEq)]
pub struct GroupView {
    pub group_id: String,
    pub coordinator: Option<u32>,
    pub partition: u32,
    pub hash: i32,
    pub partitions_count: u32,
    pub state: String,
    pub generation: i32,
    pub protocol: Option<String>,
    pub leader: Option<String>,
    /// KIP-848: the epoch of the target assignment (`generation` is then the group epoch).
    pub assignment_epoch: Option<i32>,
    /// A streams group: the status codes of its members' last heartbeats.
    pub statuses: Vec<crate::sim::streams_message::StreamsStatus>,
}

/// Every group of the scenario: consumer groups, share groups, then Connect clusters.
pub fn group_ids(world: &World) -> Vec<String> {
    group_ids_of(&world.scenario)
}

/// Every group of a scenario: consumer groups, share groups, then Connect clusters.
pub fn group_ids_of(s: &crate::sim::Scenario) -> Vec<String> {
    s.group_ids().cloned().collect()
}

pub fn groups(world: &World) -> Vec<GroupView> {
    group_ids(world)
        .into_iter()
        .map(|group_id| {
            if let Some((_, cg)) = world.consumer_group(&group_id) {
                return consumer_group_view(world, &group_id, cg);
            }
            if let Some((_, sg)) = world.share_group(&group_id) {
                return share_group_view(world, &group_id, sg);
            }
            if let Some((_, sg)) = world.streams_group(&group_id) {
                let state = sg.state.name().to_string();
                let protocol = format!("streams ({})", crate::sim::coordinator::streams::target::STREAMS_ASSIGNOR);
                let mut v = modern_group_view(world, &group_id, state, (sg.group_epoch, sg.assignment_epoch), protocol);
                v.statuses = crate::view::streams::last_statuses(world, &group_id);
                return v;
            }
            let found = world.group(&group_id);
            let g = &group_id;
            GroupView {
                group_id: g.clone(),
                coordinator: world.cluster.coordinator_for(g),
                partition: world.cluster.offsets_partition_for(g),
                hash: java::string_hash(g),
                partitions_count: world.cluster.offsets_partitions.len() as u32,
                state: found.map_or("(no group yet)".into(), |(_, gr)| gr.state.name().to_string()),
                generation: found.map_or(0, |(_, gr)| gr.generation_id),
                protocol: found.and_then(|(_, gr)| gr.protocol_name.clone()),
                leader: found.and_then(|(_, gr)| gr.leader_id.clone()).map(|l| {
                    let member = world.members().find(|m| m.member_id == l).map(|m| m.idx);
                    member.map_or(short_member(&l), |i| format!("c{i}"))
                }),
                assignment_epoch: None,
                statuses: Vec::new(),
            }
        })
        .collect()
}

/// A consumer group (KIP-848): its state and group epoch (in `generation`); the
/// protocol column names the server assignor in use.
fn consumer_group_view(
    world: &World,
    group_id: &str,
    g: &crate::sim::coordinator::consumer::ConsumerGroup,
) -> GroupView {
    let assignor = crate::sim::coordinator::consumer::ConsumerGroup::preferred_server_assignor(g.members.values())
        .or_else(|| world.scenario.broker.consumer_group_assignors.first().cloned())
        .unwrap_or_default();
    let state = g.state.name().to_string();
    modern_group_view(world, group_id, state, (g.group_epoch, g.assignment_epoch), format!("consumer ({assignor})"))
}

/// A modern group (consumer or share): no leader; its group and target assignment epochs.
fn modern_group_view(world: &World, group_id: &str, state: String, epochs: (i32, i32), protocol: String) -> GroupView {
    GroupView {
        group_id: group_id.to_string(),
        coordinator: world.cluster.coordinator_for(group_id),
        partition: world.cluster.offsets_partition_for(group_id),
        hash: java::string_hash(group_id),
        partitions_count: world.cluster.offsets_partitions.len() as u32,
        state,
        generation: epochs.0,
        protocol: Some(protocol),
        leader: None,
        assignment_epoch: Some(epochs.1),
        statuses: Vec::new(),
    }
}

/// A share group (KIP-932): Empty or Stable, its group epoch and target
/// assignment epoch; the protocol column names the `simple` assignor.
fn share_group_view(world: &World, group_id: &str, g: &crate::sim::coordinator::share::ShareGroup) -> GroupView {
    let state = crate::sim::state_machine::StateMachine::name(g.state).to_string();
    modern_group_view(world, group_id, state, (g.group_epoch, g.assignment_epoch), "share (simple)".to_string())
}

/// What a trace event marks on the timeline, if anything: a fault, the start
/// of a rebalance (a classic group preparing one, a consumer group or Connect
/// cluster getting a new epoch), a group settling (Stable), or a coordinator
/// loading its `__consumer_offsets` partition (failover).
pub fn timeline_marker(kind: &EventKind) -> Option<(&'static str, String)> {
    Some(match kind {
        EventKind::FaultInjected { description } => ("fault", description.clone()),
        EventKind::StateChanged {
            machine:
                Machine::Group { group_id }
                | Machine::ConsumerGroup { group_id }
                | Machine::ShareGroup { group_id }
                | Machine::StreamsGroup { group_id },
            from,
            to,
            ..
        } => match (from.as_str(), to.as_str()) {
            (_, "PreparingRebalance") | ("Stable" | "Empty", "Assigning" | "Reconciling") => {
                ("rebalance", format!("{group_id}: {from} → {to}"))
            }
            (_, "Stable") => ("stable", format!("{group_id}: {from} → {to}")),
            _ => return None,
        },
        EventKind::StateChanged { machine: Machine::CoordinatorContext { partition }, to, .. } if to == "LOADING" => {
            ("coordinator", format!("__consumer_offsets-{partition}: {to}"))
        }
        _ => return None,
    })
}
