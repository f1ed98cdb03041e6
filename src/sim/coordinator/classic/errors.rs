//! The error answers of JoinGroup and SyncGroup, and failing the parked
//! SyncGroups of a group that rebalances again (GroupMetadataManager
//! `resetAndPropagateAssignmentWithError`).

use crate::sim::coordinator::classic::ClassicGroup;
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
    Response::SyncGroup { error, assignment: Vec::new(), connect_assignment: None }
}

/// `resetAndPropagateAssignmentWithError`: parked SyncGroups fail, assignments clear.
pub(crate) fn reset_and_propagate_assignment_with_error(group: &mut ClassicGroup, error: Errors, out: &mut Out) {
    for m in group.members.values_mut() {
        m.assignment.clear();
        m.connect_assignment = None;
        if let Some(p) = m.awaiting_sync.take() {
            out.respond(p.client, p.correlation, sync_error(error));
        }
    }
}
