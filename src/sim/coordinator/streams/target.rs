//! A streams group's target assignment (streams `TargetAssignmentBuilder`
//! with the `sticky` task assignor, GroupMetadataManager
//! `maybeUpdateStreamsTargetAssignment`): every member with its process id
//! and its previous target, the configured subtopologies with their task
//! counts, and `streams.num.standby.replicas`. A NotReady group's members
//! all get an empty target.

use crate::assign::streams::{
    sticky_assign, StreamsGroupSpec, StreamsMemberSpec, Subtopology, TopologyDescriber, STICKY_TASK_ASSIGNOR,
};
use crate::sim::coordinator::streams::StreamsGroup;
use crate::sim::streams_message::TasksTuple;
use std::collections::BTreeMap;

/// The task assignor (`group.streams.assignors` = `sticky`, the default).
pub const STREAMS_ASSIGNOR: &str = STICKY_TASK_ASSIGNOR;

/// Every member's new target, or the assignor's exception.
pub fn compute(group: &StreamsGroup, num_standby_replicas: i32) -> Result<BTreeMap<String, TasksTuple>, String> {
    let Some(configured) = group.configured.as_ref().filter(|c| c.is_ready()) else {
        return Ok(group.members.keys().map(|m| (m.clone(), TasksTuple::default())).collect());
    };
    let members = group
        .members
        .iter()
        .map(|(id, m)| {
            let previous = group.target_assignment.get(id).cloned().unwrap_or_default();
            let spec = StreamsMemberSpec {
                instance_id: m.instance_id.clone(),
                rack_id: m.rack_id.clone(),
                process_id: m.process_id.clone(),
                client_tags: BTreeMap::new(),
                active_tasks: previous.active,
                standby_tasks: previous.standby,
                warmup_tasks: previous.warmup,
                task_offsets: BTreeMap::new(),
                task_end_offsets: BTreeMap::new(),
            };
            (id.clone(), spec)
        })
        .collect();
    let spec = StreamsGroupSpec { members, num_standby_replicas };
    let topology = TopologyDescriber {
        subtopologies: configured
            .subtopologies
            .iter()
            .map(|s| Subtopology { id: s.id.clone(), num_tasks: s.num_tasks, stateful: s.stateful })
            .collect(),
    };
    let result = sticky_assign(&spec, &topology)?;
    Ok(group
        .members
        .keys()
        .map(|id| {
            let a = result.get(id).cloned().unwrap_or_default();
            (id.clone(), TasksTuple { active: a.active_tasks, standby: a.standby_tasks, warmup: a.warmup_tasks })
        })
        .collect())
}
