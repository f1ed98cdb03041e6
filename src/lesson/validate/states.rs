//! The state names a lesson may name, as Kafka spells them: a classic or
//! KIP-848, share or streams group's state, a member's state on the client and on the
//! coordinator, the coordinator's context state and a Connect connector's or
//! task's state. The names come from each machine's enum (`StateMachine`), so
//! a state added there is accepted here. Each check's error lists the names
//! that exist.

use crate::sim::client::abstract_coordinator::MemberState as ClassicMemberState;
use crate::sim::client::consumer::MemberState as ClientMemberState;
use crate::sim::connect::worker::State as InstanceState;
use crate::sim::coordinator::classic::ClassicGroupState;
use crate::sim::coordinator::consumer::{ConsumerGroupState, MemberState as CoordinatorMemberState};
use crate::sim::coordinator::shard::CoordinatorState;
use crate::sim::coordinator::share::ShareGroupState;
use crate::sim::coordinator::streams::StreamsGroupState;
use crate::sim::state_machine::StateMachine;

/// `s` if it is a state of `S`; otherwise "unknown {what} '{s}' ({list})"
/// with the machine's states listed after `intro`.
fn check<S: StateMachine>(s: &str, what: &str, intro: &str) -> Result<(), String> {
    match S::parse(s) {
        Some(_) => Ok(()),
        None => Err(format!("unknown {what} '{s}' ({intro}{})", S::names().join(", "))),
    }
}

pub(super) fn group_state(s: &str) -> Result<(), String> {
    check::<ClassicGroupState>(s, "group state", "Kafka's ClassicGroupState: ")
}

pub(super) fn consumer_group_state(s: &str) -> Result<(), String> {
    check::<ConsumerGroupState>(s, "consumer group state", "Kafka's ConsumerGroupState for group.protocol=consumer: ")
}

/// A share group's state (`ShareGroup.ShareGroupState`, KIP-932).
pub(super) fn share_group_state(s: &str) -> Result<(), String> {
    check::<ShareGroupState>(s, "share group state", "Kafka's ShareGroupState for a share group: ")
}

/// A streams group's state (`StreamsGroup.StreamsGroupState`, KIP-1071).
pub(super) fn streams_group_state(s: &str) -> Result<(), String> {
    check::<StreamsGroupState>(s, "streams group state", "Kafka's StreamsGroupState for a streams group: ")
}

pub(super) fn client_member_state(s: &str) -> Result<(), String> {
    check::<ClientMemberState>(s, "consumer-protocol member state", "the client's MemberState: ")
}

pub(super) fn instance_state(s: &str) -> Result<(), String> {
    check::<InstanceState>(s, "connector/task state", "Connect's AbstractStatus.State: ")
}

pub(super) fn member_state(s: &str) -> Result<(), String> {
    check::<ClassicMemberState>(s, "member state", "AbstractCoordinator's MemberState: ")
}

/// The coordinator's reconciliation state of a KIP-848 member (`modern/MemberState.java`).
pub(super) fn coordinator_member_state(s: &str) -> Result<(), String> {
    check::<CoordinatorMemberState>(s, "coordinator member state", "Kafka's modern MemberState: ")
}

/// A `__consumer_offsets` partition's coordinator context (`CoordinatorRuntime.CoordinatorState`).
pub(super) fn context_state(s: &str) -> Result<(), String> {
    check::<CoordinatorState>(s, "coordinator state", "CoordinatorRuntime's CoordinatorState: ")
}
