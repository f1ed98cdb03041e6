//! The labels of the streams-group messages (KIP-1071): what the animation,
//! the space-time diagram and the narration show of each.

use crate::sim::streams_message::{task_names, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

/// `StreamsGroupHeartbeat epoch=0 +topology`, `... owns [0_1]`, `... epoch=-2 (static leave)`.
pub(crate) fn heartbeat_label(r: &StreamsGroupHeartbeatRequest) -> String {
    let mut s = match r.member_epoch {
        -1 => "StreamsGroupHeartbeat epoch=-1 (leave)".to_string(),
        -2 => "StreamsGroupHeartbeat epoch=-2 (static leave)".to_string(),
        e => format!("StreamsGroupHeartbeat epoch={e}"),
    };
    if r.topology.is_some() {
        s.push_str(" +topology");
    }
    if let Some(a) = &r.active_tasks {
        if r.member_epoch > 0 {
            s.push_str(&format!(" owns [{}]", task_names(a).join(", ")));
        }
    }
    if r.shutdown_application {
        s.push_str(" shutdownApplication");
    }
    s
}

/// `StreamsGroupHeartbeat ← epoch=3 [0_0, 1_0] standby [0_1]`, with statuses.
pub(crate) fn heartbeat_response_label(r: &StreamsGroupHeartbeatResponse) -> String {
    let mut s = format!("StreamsGroupHeartbeat ← epoch={}", r.member_epoch);
    if let Some(a) = &r.assignment {
        s.push_str(&format!(" [{}]", task_names(&a.active).join(", ")));
        if !a.standby.is_empty() {
            s.push_str(&format!(" standby [{}]", task_names(&a.standby).join(", ")));
        }
    }
    for st in &r.status {
        s.push(' ');
        s.push_str(st.code.name());
    }
    s
}
