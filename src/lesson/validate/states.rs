//! The state names a lesson may name, as Kafka spells them: a classic or
//! KIP-848 group's state, a member's state on the client and on the
//! coordinator, the coordinator's context state and a Connect connector's or
//! task's state. Each check's error lists the names that exist.

use crate::sim::coordinator::classic::ClassicGroupState;
use crate::sim::coordinator::consumer::ConsumerGroupState;

const MEMBER_STATES: [&str; 4] = ["UNJOINED", "PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"];
/// The client `MemberState` of a consumer-protocol consumer (`clients/.../internals/MemberState.java`).
const CLIENT_MEMBER_STATES: [&str; 10] = [
    "UNSUBSCRIBED",
    "JOINING",
    "RECONCILING",
    "ACKNOWLEDGING",
    "STABLE",
    "FENCED",
    "PREPARE_LEAVING",
    "LEAVING",
    "STALE",
    "FATAL",
];
/// The coordinator's reconciliation state of a KIP-848 member (`modern/MemberState.java`).
pub(super) const COORDINATOR_MEMBER_STATES: [&str; 3] = ["STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS"];
const CONSUMER_GROUP_STATES: [ConsumerGroupState; 5] = [
    ConsumerGroupState::Empty,
    ConsumerGroupState::Assigning,
    ConsumerGroupState::Reconciling,
    ConsumerGroupState::Stable,
    ConsumerGroupState::Dead,
];
pub(super) const CONTEXT_STATES: [&str; 2] = ["LOADING", "ACTIVE"];

/// `AbstractStatus.State`.
const INSTANCE_STATES: [&str; 7] = ["UNASSIGNED", "RUNNING", "PAUSED", "FAILED", "DESTROYED", "RESTARTING", "STOPPED"];

pub(super) fn group_state(s: &str) -> Result<(), String> {
    if ClassicGroupState::ALL.iter().any(|g| g.name() == s) {
        Ok(())
    } else {
        Err(format!("unknown group state '{s}' (Kafka's ClassicGroupState: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead)"))
    }
}

pub(super) fn consumer_group_state(s: &str) -> Result<(), String> {
    if CONSUMER_GROUP_STATES.iter().any(|g| g.name() == s) {
        Ok(())
    } else {
        Err(format!("unknown consumer group state '{s}' (Kafka's ConsumerGroupState for group.protocol=consumer: Empty, Assigning, Reconciling, Stable, Dead)"))
    }
}

pub(super) fn client_member_state(s: &str) -> Result<(), String> {
    if CLIENT_MEMBER_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!(
            "unknown consumer-protocol member state '{s}' (the client's MemberState: {})",
            CLIENT_MEMBER_STATES.join(", ")
        ))
    }
}

pub(super) fn instance_state(s: &str) -> Result<(), String> {
    if INSTANCE_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!(
            "unknown connector/task state '{s}' (Connect's AbstractStatus.State: {})",
            INSTANCE_STATES.join(", ")
        ))
    }
}

pub(super) fn member_state(s: &str) -> Result<(), String> {
    if MEMBER_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!("unknown member state '{s}' ({MEMBER_STATES:?})"))
    }
}
