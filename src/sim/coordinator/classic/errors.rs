//! The error answers of JoinGroup and SyncGroup, and the answers to parked
//! SyncGroups (GroupMetadataManager `propagateAssignment`), with an error when
//! the group rebalances again (`resetAndPropagateAssignmentWithError`).

use crate::sim::coordinator::classic::members::rearm_heartbeat;
use crate::sim::coordinator::classic::ClassicGroup;
use crate::sim::ctx::Ctx;
use crate::sim::message::{JoinGroupResponse, Response};
use crate::sim::out::Out;
use crate::sim::types::Errors;

pub(crate) fn join_error(member_id: &str, error: Errors) -> Response {
    Response::JoinGroup(JoinGroupResponse {
        error,
        generation_id: -1,
        protocol_name: None,
        leader: String::new(),
        skip_assignment: false,
        member_id: member_id.to_string(),
        members: Vec::new(),
    })
}

pub(crate) fn sync_error(error: Errors) -> Response {
    Response::SyncGroup { error, assignment: Vec::new(), connect_assignment: None, streams_assignment: None }
}

/// `resetAndPropagateAssignmentWithError`: parked SyncGroups fail, assignments clear.
pub(crate) fn reset_and_propagate_assignment_with_error(
    ctx: &Ctx,
    group: &mut ClassicGroup,
    error: Errors,
    out: &mut Out,
) {
    for m in group.members.values_mut() {
        m.assignment.clear();
        m.connect_assignment = None;
        m.streams_assignment = None;
    }
    propagate_assignment(ctx, group, error, out);
}

/// `propagateAssignment`: every parked SyncGroup is answered, with the member's
/// assignment or with `error`, and only those members' session timers restart
/// (`completeSyncFuture` returned true). A member that has not sent SyncGroup
/// keeps the session deadline its JoinGroup answer set, so one that died in
/// between expires on time.
pub(crate) fn propagate_assignment(ctx: &Ctx, group: &mut ClassicGroup, error: Errors, out: &mut Out) {
    let group_id = group.group_id.clone();
    for m in group.members.values_mut() {
        let Some(p) = m.awaiting_sync.take() else { continue };
        let response = Response::SyncGroup {
            error,
            assignment: m.assignment.clone(),
            connect_assignment: m.connect_assignment.clone(),
            streams_assignment: m.streams_assignment.clone().map(Box::new),
        };
        out.respond(p.client, p.correlation, response);
        rearm_heartbeat(ctx, &group_id, &m.member_id, m.session_timeout_ms, out);
    }
}
