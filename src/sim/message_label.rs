//! The labels of messages (`Body::label`): what the animation, the space-time
//! diagram, the narration and the trace show of each message sent.

use crate::assign::TopicPartition;
use crate::sim::label::Label;
use crate::sim::message::{
    partition_list, short_member, Body, ConsumerGroupHeartbeatRequest, FetchRequest, FetchedPartition, Request,
    Response, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::sim::types::Errors;
use std::fmt::Write as _;

impl Body {
    /// A short label for the animation, e.g. `JoinGroup member=21b6` or
    /// `SyncGroup ← [orders-1, orders-4]`: formatted when the message is sent
    /// (`World::transmit`), then shared.
    pub fn label(&self) -> Label {
        Label::from(self.label_text())
    }

    fn label_text(&self) -> String {
        match self {
            Body::Request { request, .. } => match request {
                Request::FindCoordinator { key } => format!("FindCoordinator {key}"),
                Request::JoinGroup(r) if r.member_id.is_empty() => "JoinGroup member=\"\"".into(),
                // The rejoin with the id MEMBER_ID_REQUIRED gave (its last 4 characters).
                Request::JoinGroup(r) => format!("JoinGroup member={}", short_member(&r.member_id)),
                Request::SyncGroup(r) if r.assignments.is_empty() && r.connect_assignments.is_empty() => {
                    format!("SyncGroup gen={}", r.generation_id)
                }
                Request::SyncGroup(r) => {
                    format!(
                        "SyncGroup gen={} +{} assignments",
                        r.generation_id,
                        r.assignments.len() + r.connect_assignments.len()
                    )
                }
                Request::Heartbeat { generation_id, .. } => format!("Heartbeat gen={generation_id}"),
                Request::LeaveGroup { .. } => "LeaveGroup".into(),
                Request::OffsetCommit(r) => format!("OffsetCommit ({} partitions)", r.offsets.len()),
                Request::OffsetFetch { .. } => "OffsetFetch".into(),
                Request::ConsumerGroupHeartbeat(r) => consumer_heartbeat_label(r),
                Request::Fetch(FetchRequest { partitions, .. }) => {
                    fetch_request_label(partitions.iter().map(|p| &p.partition), partitions.len())
                }
                Request::ShareGroupHeartbeat(r) => crate::sim::share_label::heartbeat_label(r),
                Request::ShareFetch(r) => crate::sim::share_label::fetch_label(r),
                Request::ShareAcknowledge(r) => crate::sim::share_label::acknowledge_label(r),
                Request::StreamsGroupHeartbeat(r) => crate::sim::streams_label::heartbeat_label(r),
            },
            Body::Response { response, .. } => {
                let err = response.error();
                match response {
                    Response::Fetch { partitions, error: Errors::NONE } => fetch_response_label(partitions),
                    Response::ShareGroupHeartbeat(r) if err == Errors::NONE => {
                        crate::sim::share_label::heartbeat_response_label(r)
                    }
                    Response::ShareFetch(r) if err == Errors::NONE => crate::sim::share_label::fetch_response_label(r),
                    Response::StreamsGroupHeartbeat(r) if err == Errors::NONE => {
                        crate::sim::streams_label::heartbeat_response_label(r)
                    }
                    Response::ShareAcknowledge(r) if err == Errors::NONE => {
                        crate::sim::share_label::acknowledge_response_label(r)
                    }
                    Response::FindCoordinator { node_id: Some(n), error: Errors::NONE, .. } => {
                        format!("FindCoordinator ← broker-{n}")
                    }
                    Response::JoinGroup(r) if err == Errors::NONE => {
                        if r.members.is_empty() {
                            format!("JoinGroup ← gen={}", r.generation_id)
                        } else {
                            format!("JoinGroup ← gen={} leader, {} members", r.generation_id, r.members.len())
                        }
                    }
                    Response::SyncGroup { connect_assignment: Some(a), error: Errors::NONE, .. } => {
                        format!("SyncGroup ← {}", a.summary())
                    }
                    Response::SyncGroup { assignment, error: Errors::NONE, .. } => {
                        format!("SyncGroup ← {}", partition_list(assignment))
                    }
                    Response::ConsumerGroupHeartbeat(r) if err == Errors::NONE => match &r.assignment {
                        Some(a) => format!("ConsumerGroupHeartbeat ← epoch={} {}", r.member_epoch, partition_list(a)),
                        None => format!("ConsumerGroupHeartbeat ← epoch={}", r.member_epoch),
                    },
                    _ if err == Errors::NONE => format!("{} ← OK", response.api()),
                    _ => format!("{} → {}", response.api(), err),
                }
            }
            Body::Disconnected { .. } => "connection refused".into(),
        }
    }
}

/// `Fetch ← 12 records`, or `Fetch ← NOT_LEADER_OR_FOLLOWER orders-0 (leader broker-2)`
/// when a partition's leader moved.
fn fetch_response_label(partitions: &[FetchedPartition]) -> String {
    let moved: Vec<&FetchedPartition> = partitions.iter().filter(|p| p.error != Errors::NONE).collect();
    let Some(first) = moved.first() else {
        let n: i64 = partitions.iter().map(FetchedPartition::records).sum();
        return format!("Fetch ← {n} record{}", if n == 1 { "" } else { "s" });
    };
    let mut s = format!("Fetch ← {} ", first.error);
    push_partitions(&mut s, moved.iter().map(|p| &p.partition), moved.len());
    if let Some(l) = first.current_leader {
        let _ = write!(s, " (leader broker-{l})");
    }
    s
}

/// Partitions a Fetch label names at most; the rest are counted (`+7`).
const FETCH_LABEL_PARTITIONS: usize = 3;

/// `Fetch orders-0,orders-3,orders-6 +2`: a consumer's fetch to one leader
/// (one of these goes out per leader broker about twice a second, so it is
/// written straight into one string).
fn fetch_request_label<'a>(partitions: impl Iterator<Item = &'a TopicPartition>, n: usize) -> String {
    let mut s = String::with_capacity(48);
    s.push_str("Fetch ");
    push_partitions(&mut s, partitions, n);
    s
}

fn push_partitions<'a>(s: &mut String, partitions: impl Iterator<Item = &'a TopicPartition>, n: usize) {
    for (i, p) in partitions.take(FETCH_LABEL_PARTITIONS).enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&p.topic);
        let _ = write!(s, "-{}", p.partition);
    }
    if n > FETCH_LABEL_PARTITIONS {
        let _ = write!(s, " +{}", n - FETCH_LABEL_PARTITIONS);
    }
}

/// `ConsumerGroupHeartbeat epoch=3 owned=[orders-1]`, or `... leave` for epochs −1/−2.
fn consumer_heartbeat_label(r: &ConsumerGroupHeartbeatRequest) -> String {
    match r.member_epoch {
        LEAVE_GROUP_MEMBER_EPOCH => "ConsumerGroupHeartbeat epoch=-1 (leave)".into(),
        LEAVE_GROUP_STATIC_MEMBER_EPOCH => "ConsumerGroupHeartbeat epoch=-2 (static leave)".into(),
        e => match &r.topic_partitions {
            Some(owned) => format!("ConsumerGroupHeartbeat epoch={e} owned={}", partition_list(owned)),
            None => format!("ConsumerGroupHeartbeat epoch={e}"),
        },
    }
}
