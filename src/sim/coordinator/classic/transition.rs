//! A classic group's state change (`ClassicGroup.transitionTo`), checked
//! against `ClassicGroupState.validPreviousStates` and recorded in the trace.

use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupState};
use crate::sim::ctx::Ctx;
use crate::sim::out::Out;
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;

/// Records a group state transition, enforcing Kafka's valid-previous-state table.
pub(crate) fn transition(ctx: &Ctx, group: &mut ClassicGroup, to: ClassicGroupState, trigger: Trigger, out: &mut Out) {
    let from = group.state;
    if !to.valid_previous_states().contains(&from) {
        out.emit(EventKind::InvariantViolated {
            invariant: "valid-previous-state".into(),
            detail: format!("group {} cannot go from {} to {}", group.group_id, from.name(), to.name()),
        });
    }
    group.previous_state = Some(from);
    group.state = to;
    out.emit(EventKind::StateChanged {
        node: ctx.me,
        machine: Machine::Group { group_id: group.group_id.clone() },
        from: crate::sim::state_machine::StateName::of(from),
        to: crate::sim::state_machine::StateName::of(to),
        trigger,
    });
}
