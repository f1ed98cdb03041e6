//! Two rules every classic-group handler applies to a member: `validateMember`
//! (unknown ids and zombie static members) and re-arming its session timeout.

use crate::sim::coordinator::classic::ClassicGroup;
use crate::sim::ctx::Ctx;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::types::{Errors, Millis};

/// `validateMember`: unknown ids and zombie static members.
pub(crate) fn validate_member(group: &ClassicGroup, member_id: &str, instance_id: Option<&str>) -> Option<Errors> {
    if let Some(inst) = instance_id {
        match group.static_members.get(inst) {
            Some(current) if current != member_id => return Some(Errors::FENCED_INSTANCE_ID),
            None if !group.members.contains_key(member_id) => return Some(Errors::UNKNOWN_MEMBER_ID),
            _ => {}
        }
    }
    if !group.members.contains_key(member_id) {
        return Some(Errors::UNKNOWN_MEMBER_ID);
    }
    None
}

/// Session deadline of `member` from now.
pub(crate) fn rearm_heartbeat(ctx: &Ctx, group_id: &str, member_id: &str, after: Millis, out: &mut Out) {
    out.set_timer(
        GroupTimer::MemberHeartbeat { group_id: group_id.into(), member_id: member_id.into() },
        ctx.now + after,
    );
}
