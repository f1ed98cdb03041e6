//! A streams member's way to its target: Kafka's streams
//! `CurrentAssignmentBuilder` (SCAB `build` L159-220, `computeNextAssignment`,
//! `buildNewMember` L773-829). Revocation is acknowledged by the member: a
//! task it must give up stays pending until a heartbeat reports it no longer
//! owned. A new active task waits while any process still runs it; a new
//! standby waits only for holders on the member's own process.
//!
//! Simplified: the per-task assignment epochs (KAFKA-19779) are not kept,
//! and of the in-place role changes only the two a standby count of 0-2
//! produces are modelled (an active demoted to standby keeps its state at
//! once; a standby promoted to active stays a standby until the active is
//! granted). Warm-up tasks are carried but never assigned (Kafka 4.4 assigns
//! none, `AssignmentRefiner.refine`).

use crate::sim::coordinator::streams::{StreamsGroup, StreamsGroupMember, StreamsMemberState};
use crate::sim::streams_message::{has_task, Tasks, TasksTuple};
use crate::sim::types::Errors;

/// What the member reported owning in this heartbeat (`None` = not sent).
pub type Owned<'a> = Option<&'a TasksTuple>;

/// `CurrentAssignmentBuilder.build`: the member's next state, or itself.
pub fn build(
    group: &StreamsGroup,
    member: &StreamsGroupMember,
    target: &TasksTuple,
    target_epoch: i32,
    owned: Owned,
) -> Result<StreamsGroupMember, Errors> {
    match member.state {
        StreamsMemberState::STABLE if member.member_epoch != target_epoch => {
            Ok(compute_next(group, member, target, target_epoch, member.member_epoch, owned))
        }
        StreamsMemberState::STABLE => Ok(member.clone()),
        StreamsMemberState::UNREVOKED_TASKS => {
            if has_not_released(owned, &member.pending_revocation) {
                return Ok(member.clone());
            }
            Ok(compute_next(group, member, target, target_epoch, member.member_epoch + 1, owned))
        }
        StreamsMemberState::UNRELEASED_TASKS => {
            Ok(compute_next(group, member, target, target_epoch, member.member_epoch, owned))
        }
        StreamsMemberState::UNKNOWN => Err(Errors::FENCED_MEMBER_EPOCH),
    }
}

/// `hasNotReleased` (L766-771): revocation is acknowledged by the member, so
/// tasks count as still held when it reported no owned tasks in this
/// heartbeat, or reported some of them.
fn has_not_released(owned: Owned, tasks: &TasksTuple) -> bool {
    owned.is_none_or(|o| overlaps(o, tasks))
}

fn overlaps(a: &TasksTuple, b: &TasksTuple) -> bool {
    let any = |x: &Tasks, y: &Tasks| x.iter().any(|(s, ps)| ps.iter().any(|p| has_task(y, s, *p)));
    any(&a.active, &b.active) || any(&a.standby, &b.standby) || any(&a.warmup, &b.warmup)
}

/// The three parts of one role's difference (`computeAssignmentDifference`).
#[derive(Default)]
struct Diff {
    assigned: Tasks,
    revoke: Tasks,
    pending: Tasks,
    unreleased: bool,
}

fn diff(current: &Tasks, target: &Tasks, unreleased: impl Fn(&str, i32) -> bool) -> Diff {
    let mut d = Diff::default();
    for (s, ps) in current {
        for p in ps {
            let into = if has_task(target, s, *p) { &mut d.assigned } else { &mut d.revoke };
            into.entry(s.clone()).or_default().insert(*p);
        }
    }
    for (s, ps) in target {
        for p in ps {
            if has_task(current, s, *p) {
                continue;
            }
            if unreleased(s, *p) {
                d.unreleased = true;
            } else {
                d.pending.entry(s.clone()).or_default().insert(*p);
            }
        }
    }
    d
}

fn remove(tasks: &mut Tasks, s: &str, p: i32) {
    if let Some(ps) = tasks.get_mut(s) {
        ps.remove(&p);
        if ps.is_empty() {
            tasks.remove(s);
        }
    }
}

fn add(tasks: &mut Tasks, s: &str, p: i32) {
    tasks.entry(s.to_string()).or_default().insert(p);
}

fn merge(a: &Tasks, b: &Tasks) -> Tasks {
    let mut m = a.clone();
    for (s, ps) in b {
        m.entry(s.clone()).or_default().extend(ps.iter().copied());
    }
    m
}

/// `computeNextAssignment` then `buildNewMember`.
fn compute_next(
    group: &StreamsGroup,
    member: &StreamsGroupMember,
    target: &TasksTuple,
    target_epoch: i32,
    member_epoch: i32,
    owned: Owned,
) -> StreamsGroupMember {
    let owners = group.active_owners();
    let process = member.process_id.as_str();
    let me = member.member_id.as_str();
    let current = &member.assigned;
    // isUnreleasedActiveTask: some process runs it, or another member of
    // this process holds it as a standby or warm-up.
    let active = diff(&current.active, &target.active, |s, p| {
        owners.contains_key(&(s.to_string(), p))
            || group.held_on_process(process, me, |t| &t.standby, s, p)
            || group.held_on_process(process, me, |t| &t.warmup, s, p)
    });
    // isUnreleasedStandbyTask: another member of this process runs it or holds it as a standby.
    let mut standby = diff(&current.standby, &target.standby, |s, p| {
        owners.get(&(s.to_string(), p)).is_some_and(|(proc_, m)| *proc_ == process && *m != me)
            || group.held_on_process(process, me, |t| &t.standby, s, p)
            || group.held_on_process(process, me, |t| &t.warmup, s, p)
    });
    let warmup = diff(&current.warmup, &target.warmup, |s, p| {
        owners.get(&(s.to_string(), p)).is_some_and(|(proc_, _)| *proc_ == process)
            || group.held_on_process(process, me, |t| &t.standby, s, p)
            || group.held_on_process(process, me, |t| &t.warmup, s, p)
    });
    // demoteActiveTasksToStandby: a standby of an active task the member gives
    // up is assigned at once (the client keeps the state); the active part
    // still waits in revocation.
    for (s, ps) in &active.revoke {
        for p in ps {
            if has_task(&standby.pending, s, *p) {
                remove(&mut standby.pending, s, *p);
                add(&mut standby.assigned, s, *p);
            }
        }
    }
    // applyPromotionsToActive: a standby whose active the member is to get is
    // never revoked (dropPromotedTasksFromRevocation); it stays until the
    // active is granted in a step with nothing left to revoke
    // (keepPromotedTasksUntilGranted), then goes in that same step.
    let mut standby_revoke = standby.revoke.clone();
    for (s, ps) in &standby.revoke {
        for p in ps {
            if has_task(&target.active, s, *p) {
                remove(&mut standby_revoke, s, *p);
            }
        }
    }
    let revoke = TasksTuple { active: active.revoke, standby: standby_revoke, warmup: warmup.revoke };
    // buildNewMember: tasks the heartbeat already reports released need no
    // revocation round.
    let to_revoke = !revoke.is_empty() && has_not_released(owned, &revoke);
    for (s, ps) in &current.standby {
        for p in ps {
            let promoted_now = !to_revoke && has_task(&active.pending, s, *p);
            if has_task(&target.active, s, *p) && !promoted_now {
                add(&mut standby.assigned, s, *p);
            }
        }
    }
    let assigned = TasksTuple { active: active.assigned, standby: standby.assigned, warmup: warmup.assigned };
    let pending = TasksTuple { active: active.pending, standby: standby.pending, warmup: warmup.pending };
    let unreleased = active.unreleased || standby.unreleased || warmup.unreleased;
    let mut next = member.clone();
    if to_revoke {
        // Tasks to revoke: UNREVOKED_TASKS at the epoch given.
        next.state = StreamsMemberState::UNREVOKED_TASKS;
        next.member_epoch = member_epoch;
        next.assigned = assigned;
        next.pending_revocation = revoke;
    } else {
        next.member_epoch = target_epoch;
        next.assigned = TasksTuple {
            active: merge(&assigned.active, &pending.active),
            standby: merge(&assigned.standby, &pending.standby),
            warmup: merge(&assigned.warmup, &pending.warmup),
        };
        next.pending_revocation = TasksTuple::default();
        next.state = if unreleased { StreamsMemberState::UNRELEASED_TASKS } else { StreamsMemberState::STABLE };
    }
    if next.member_epoch != member.member_epoch {
        next.previous_member_epoch = member.member_epoch;
    }
    next
}
