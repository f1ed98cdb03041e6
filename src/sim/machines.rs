//! Which state machine each of the trace's machines runs: the one place that
//! lists every machine's enum, so readers holding a trace event's names (the
//! tests, a lesson's conditions) can check them against the right table.

use crate::sim::state_machine::Table;
use crate::sim::trace::Machine;

/// Which enum a trace machine's states come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineKind {
    ClassicGroup,
    ClassicMember,
    CoordinatorContext,
    ConnectInstance,
    ConsumerGroup,
    ConsumerMember,
    ShareGroup,
    ShareMember,
    StreamsGroup,
    StreamsMember,
}

impl MachineKind {
    pub const ALL: [MachineKind; 10] = [
        MachineKind::ClassicGroup,
        MachineKind::ClassicMember,
        MachineKind::CoordinatorContext,
        MachineKind::ConnectInstance,
        MachineKind::ConsumerGroup,
        MachineKind::ConsumerMember,
        MachineKind::ShareGroup,
        MachineKind::ShareMember,
        MachineKind::StreamsGroup,
        MachineKind::StreamsMember,
    ];

    pub fn of(machine: &Machine) -> MachineKind {
        match machine {
            Machine::Group { .. } => MachineKind::ClassicGroup,
            Machine::Member => MachineKind::ClassicMember,
            Machine::CoordinatorContext { .. } => MachineKind::CoordinatorContext,
            Machine::Connector { .. } | Machine::Task { .. } => MachineKind::ConnectInstance,
            Machine::ConsumerGroup { .. } => MachineKind::ConsumerGroup,
            Machine::ConsumerMember => MachineKind::ConsumerMember,
            Machine::ShareGroup { .. } => MachineKind::ShareGroup,
            Machine::ShareMember => MachineKind::ShareMember,
            Machine::StreamsGroup { .. } => MachineKind::StreamsGroup,
            Machine::StreamsMember => MachineKind::StreamsMember,
        }
    }

    /// The machine's table, by name.
    pub fn table(self) -> Table {
        use crate::sim::client::abstract_coordinator::MemberState as ClassicMember;
        use crate::sim::client::consumer::member_state::MemberState as ConsumerMember;
        use crate::sim::connect::worker::State as Instance;
        use crate::sim::coordinator::classic::ClassicGroupState;
        use crate::sim::coordinator::consumer::ConsumerGroupState;
        use crate::sim::coordinator::shard::CoordinatorState;
        match self {
            MachineKind::ClassicGroup => Table::of::<ClassicGroupState>(),
            MachineKind::ClassicMember => Table::of::<ClassicMember>(),
            MachineKind::CoordinatorContext => Table::of::<CoordinatorState>(),
            MachineKind::ConnectInstance => Table::of::<Instance>(),
            MachineKind::ConsumerGroup => Table::of::<ConsumerGroupState>(),
            MachineKind::ConsumerMember => Table::of::<ConsumerMember>(),
            MachineKind::ShareGroup => Table::of::<crate::sim::coordinator::share::ShareGroupState>(),
            MachineKind::ShareMember => Table::of::<ConsumerMember>(),
            MachineKind::StreamsGroup => Table::of::<crate::sim::coordinator::streams::StreamsGroupState>(),
            MachineKind::StreamsMember => Table::of::<ConsumerMember>(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_machine_s_names_are_distinct_and_its_changes_are_between_its_own_states() {
        for kind in MachineKind::ALL {
            let t = kind.table();
            assert!(!t.names.is_empty(), "{}", t.machine);
            for (i, n) in t.names.iter().enumerate() {
                assert!(!t.names[..i].contains(n), "{} repeats {n}", t.machine);
            }
            for (from, to) in &t.allowed {
                assert!(t.names.contains(from) && t.names.contains(to), "{}: {from} -> {to}", t.machine);
            }
        }
    }

    #[test]
    fn a_transition_is_allowed_only_between_states_of_the_machine_that_its_table_lists() {
        // ClassicGroupState's validPreviousStates, CoordinatorState.canTransitionFrom
        // and the consumer protocol's MemberState.previousValidStates.
        let (group, context, member) = (
            MachineKind::ClassicGroup.table(),
            MachineKind::CoordinatorContext.table(),
            MachineKind::ConsumerMember.table(),
        );
        assert!(group.allows("CompletingRebalance", "Stable"));
        assert!(!group.allows("PreparingRebalance", "Stable"));
        assert!(!group.allows("Stable", "STABLE"));
        assert!(context.allows("LOADING", "ACTIVE") && context.allows("ACTIVE", "ACTIVE"));
        assert!(!context.allows("ACTIVE", "LOADING"));
        assert!(member.allows("ACKNOWLEDGING", "STABLE"));
        assert!(!member.allows("UNSUBSCRIBED", "STABLE"));
    }
}
