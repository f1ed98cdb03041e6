//! The check every client `MemberState` change goes through. Kafka's
//! `AbstractMembershipManager.transitionTo` (the consumer protocol's client)
//! throws `IllegalStateException("Invalid state transition from X to Y")` when
//! the current state is not among the next state's `previousValidStates`, a bug
//! in Kafka's terms. Here the transition is recorded as an invariant violation,
//! which the page's invariant panel shows and the tests fail on (native debug
//! builds also panic, so any test reaching one fails); the state still changes,
//! so the page keeps running. A transition to the current state is no change
//! (`transitionTo` skips the check when `state.equals(nextState)`).

use crate::sim::out::Out;
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::EventKind;
use crate::sim::types::NodeId;

/// The invariant name a rejected client transition is recorded under.
pub const INVALID_MEMBER_STATE_TRANSITION: &str = "member-state-transition";

/// True when `from` → `to` is allowed by the next state's valid previous
/// states; otherwise records the violation.
pub(crate) fn check_transition<S: StateMachine>(node: NodeId, from: S, to: S, out: &mut Out) -> bool {
    if from == to || to.valid_previous_states().contains(&from) {
        return true;
    }
    let detail = format!("{node}: invalid state transition from {} to {}", from.name(), to.name());
    if cfg!(all(debug_assertions, not(target_arch = "wasm32"))) {
        panic!("{INVALID_MEMBER_STATE_TRANSITION}: {detail}");
    }
    out.emit(EventKind::InvariantViolated { invariant: INVALID_MEMBER_STATE_TRANSITION.into(), detail });
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::client::abstract_coordinator::MemberState as Classic;
    use crate::sim::client::consumer::{AsyncConsumer, MemberState};
    use crate::sim::scenario::config::ConsumerConfig;

    fn violations(out: &Out) -> Vec<String> {
        out.events
            .iter()
            .filter_map(|e| match e {
                EventKind::InvariantViolated { invariant, detail } => Some(format!("{invariant}: {detail}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn transitions_in_the_tables_and_to_the_same_state_pass_unrecorded() {
        let mut out = Out::default();
        let node = NodeId::Client(1);
        let (joining, reconciling) = (MemberState::JOINING, MemberState::RECONCILING);
        assert!(check_transition(node, joining, reconciling, &mut out));
        let stale = MemberState::STALE;
        assert!(check_transition(node, stale, stale, &mut out));
        let (joined, synced) = (Classic::COMPLETING_REBALANCE, Classic::STABLE);
        assert!(check_transition(node, joined, synced, &mut out));
        assert!(violations(&out).is_empty());
    }

    /// `AbstractMembershipManager.transitionTo` throws for STALE → FENCED (FENCED's
    /// `previousValidStates` lack STALE); the client's `transition_to` records it.
    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "c1: invalid state transition from STALE to FENCED"))]
    fn the_consumer_protocol_client_records_a_transition_kafka_rejects() {
        let mut c = AsyncConsumer::new(1, "g", ConsumerConfig::default());
        c.state = MemberState::STALE;
        let mut out = Out::default();
        c.transition_to(
            MemberState::FENCED,
            crate::sim::trigger::Trigger::HeartbeatError { error: crate::sim::types::Errors::FENCED_MEMBER_EPOCH },
            &mut out,
        );
        assert_eq!(violations(&out), ["member-state-transition: c1: invalid state transition from STALE to FENCED"]);
    }

    /// AbstractCoordinator's `SyncGroupResponseHandler` sets STABLE only from
    /// COMPLETING_REBALANCE: PREPARING_REBALANCE → STABLE is rejected.
    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "c2: invalid state transition from PREPARING_REBALANCE"))]
    fn the_classic_table_rejects_stable_straight_after_join_group_was_sent() {
        let mut out = Out::default();
        let (from, to) = (Classic::PREPARING_REBALANCE, Classic::STABLE);
        assert!(!check_transition(NodeId::Client(2), from, to, &mut out));
        assert_eq!(
            violations(&out),
            ["member-state-transition: c2: invalid state transition from PREPARING_REBALANCE to STABLE"]
        );
    }
}
