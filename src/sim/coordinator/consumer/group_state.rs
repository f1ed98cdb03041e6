//! A consumer group's state as the coordinator announces it
//! (GroupMetadataManager `maybeUpdateGroupState`) and what loading a partition
//! restarts (`onLoaded`): every member's session timeout, and the rebalance
//! timeout of members still revoking.

use crate::sim::coordinator::consumer::{rebalance_key, session_key, ConsumerGroup, MemberState};
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::state_machine::{StateMachine, StateName};
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;

impl Shard {
    /// Announces the group's state if the operation changed it (`maybeUpdateGroupState`).
    pub(crate) fn update_consumer_group_state(&mut self, ctx: &Ctx, group_id: &str, trigger: Trigger, out: &mut Out) {
        let Some(group) = self.consumer_group_mut(group_id) else { return };
        let to = group.compute_state();
        if to == group.state {
            return;
        }
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::ConsumerGroup { group_id: group_id.into() },
            from: StateName::of(group.state),
            to: StateName::of(to),
            trigger,
        });
        group.state = to;
    }

    /// `onLoaded` for consumer groups: every member gets a fresh session timeout,
    /// members in UNREVOKED_PARTITIONS a rebalance timeout too.
    pub(crate) fn consumer_groups_loaded(&mut self, ctx: &Ctx, out: &mut Out) {
        for group in self.consumer_groups_mut() {
            group.state = group.compute_state();
            if group.members.is_empty() && group.group_epoch == ConsumerGroup::INITIAL_EPOCH {
                continue;
            }
            let note = Note::ConsumerGroupLoaded {
                group_id: group.group_id.clone(),
                state: group.state.name().to_string(),
                group_epoch: group.group_epoch,
                assignment_epoch: group.assignment_epoch,
                members: group.members.len(),
            };
            out.emit(EventKind::Note { node: ctx.me, note });
            for m in group.members.values() {
                out.set_timer(
                    session_key(&group.group_id, &m.member_id),
                    ctx.now + ctx.broker_config.consumer_group_session_timeout_ms,
                );
                if m.state == MemberState::UNREVOKED_PARTITIONS {
                    group.rebalance_timeouts.insert(m.member_id.clone(), m.member_epoch);
                    out.set_timer(rebalance_key(&group.group_id, &m.member_id), ctx.now + m.rebalance_timeout_ms);
                }
            }
        }
    }
}
