//! The consumer-protocol client's `MemberState`
//! (`org.apache.kafka.clients.consumer.internals.MemberState`) with Kafka's
//! table of valid previous states, which `AbstractMembershipManager.transitionTo`
//! enforces.

use serde::{Deserialize, Serialize};

/// The client's `MemberState` (`clients/.../consumer/internals/MemberState.java`).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemberState {
    UNSUBSCRIBED,
    JOINING,
    RECONCILING,
    ACKNOWLEDGING,
    STABLE,
    FENCED,
    PREPARE_LEAVING,
    LEAVING,
    STALE,
    FATAL,
}

impl crate::sim::state_machine::StateMachine for MemberState {
    const MACHINE: &'static str = "MemberState";
    crate::sim::state_machine::states!(MemberState: UNSUBSCRIBED, JOINING, RECONCILING, ACKNOWLEDGING, STABLE, FENCED, PREPARE_LEAVING, LEAVING, STALE, FATAL);

    /// The states this one may be entered from: `MemberState`'s static block
    /// setting each state's `previousValidStates` (Kafka 4.4). A state without an
    /// entry there (none in 4.4) could only be "entered" from itself.
    fn valid_previous_states(self) -> &'static [MemberState] {
        use MemberState::*;
        match self {
            STABLE => &[JOINING, ACKNOWLEDGING, RECONCILING],
            RECONCILING => &[STABLE, JOINING, ACKNOWLEDGING, RECONCILING],
            ACKNOWLEDGING => &[RECONCILING],
            FATAL => &[JOINING, STABLE, RECONCILING, ACKNOWLEDGING, PREPARE_LEAVING, LEAVING, UNSUBSCRIBED],
            FENCED => &[JOINING, STABLE, RECONCILING, ACKNOWLEDGING, PREPARE_LEAVING, LEAVING],
            JOINING => &[FENCED, UNSUBSCRIBED, STALE],
            PREPARE_LEAVING => &[JOINING, STABLE, RECONCILING, ACKNOWLEDGING, UNSUBSCRIBED],
            LEAVING => &[PREPARE_LEAVING],
            UNSUBSCRIBED => &[PREPARE_LEAVING, LEAVING, FENCED],
            STALE => &[LEAVING],
        }
    }
}

impl MemberState {
    /// `canHandleNewAssignment`: the states RECONCILING may be entered from.
    pub fn can_handle_new_assignment(self) -> bool {
        use crate::sim::state_machine::StateMachine;
        MemberState::RECONCILING.valid_previous_states().contains(&self)
    }

    /// `isNotInGroup`.
    pub fn is_not_in_group(self) -> bool {
        matches!(self, MemberState::UNSUBSCRIBED | MemberState::FENCED | MemberState::FATAL | MemberState::STALE)
    }
}

/// `transitionTo` of a client whose states are the consumer protocol's
/// `MemberState` (a KIP-848 consumer, a share consumer): the check, the trace
/// event on `machine`, then the change.
pub(crate) fn transition_member(
    node: crate::sim::types::NodeId,
    machine: crate::sim::trace::Machine,
    state: &mut MemberState,
    to: MemberState,
    trigger: crate::sim::trigger::Trigger,
    out: &mut crate::sim::out::Out,
) {
    if *state == to {
        return;
    }
    crate::sim::client::member_transition::check_transition(node, *state, to, out);
    out.emit(crate::sim::trace::EventKind::StateChanged {
        node,
        machine,
        from: crate::sim::state_machine::StateName::of(*state),
        to: crate::sim::state_machine::StateName::of(to),
        trigger,
    });
    *state = to;
}
