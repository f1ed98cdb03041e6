//! The labels of the share-group messages (KIP-932): what the animation,
//! the space-time diagram and the narration show of each.

use crate::sim::message::partition_list;
use crate::sim::share_message::{
    AcknowledgeType, ShareAcknowledgeRequest, ShareAcknowledgeResponse, ShareFetchRequest, ShareFetchResponse,
    ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, SharePartitionAcks, SHARE_SESSION_FINAL_EPOCH,
};
use crate::sim::types::Errors;
use std::fmt::Write as _;

/// `ShareGroupHeartbeat epoch=2`, or `... epoch=-1 (leave)`.
pub(crate) fn heartbeat_label(r: &ShareGroupHeartbeatRequest) -> String {
    match r.member_epoch {
        -1 => "ShareGroupHeartbeat epoch=-1 (leave)".into(),
        e => format!("ShareGroupHeartbeat epoch={e}"),
    }
}

/// `ShareGroupHeartbeat ← epoch=3 [orders-0, orders-1]`.
pub(crate) fn heartbeat_response_label(r: &ShareGroupHeartbeatResponse) -> String {
    match &r.assignment {
        Some(a) => format!("ShareGroupHeartbeat ← epoch={} {}", r.member_epoch, partition_list(a)),
        None => format!("ShareGroupHeartbeat ← epoch={}", r.member_epoch),
    }
}

/// `ACCEPT 100-149, RELEASE 150` for the acknowledgements a request carries.
fn acks_text(partitions: &[SharePartitionAcks]) -> String {
    let mut by_type: Vec<(AcknowledgeType, i64)> = Vec::new();
    for b in partitions.iter().flat_map(|p| &p.acknowledgements) {
        let n = b.last_offset - b.first_offset + 1;
        match by_type.iter_mut().find(|(t, _)| *t == b.ack_type) {
            Some((_, c)) => *c += n,
            None => by_type.push((b.ack_type, n)),
        }
    }
    let mut s = String::new();
    for (i, (t, n)) in by_type.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{} {n}", t.name());
    }
    s
}

/// `ShareFetch orders-0 +ACCEPT 12`: the partitions and the piggybacked acknowledgements.
pub(crate) fn fetch_label(r: &ShareFetchRequest) -> String {
    let tps: Vec<_> = r.partitions.iter().map(|p| p.partition.clone()).collect();
    let mut s = format!("ShareFetch {}", partition_list(&tps));
    let acks = acks_text(&r.partitions);
    if !acks.is_empty() {
        let _ = write!(s, " +{acks}");
    }
    if r.share_session_epoch == SHARE_SESSION_FINAL_EPOCH {
        s.push_str(" (close)");
    }
    s
}

/// `ShareFetch ← 12 records (delivery 2)`, or the first partition error.
pub(crate) fn fetch_response_label(r: &ShareFetchResponse) -> String {
    if let Some(p) = r.partitions.iter().find(|p| p.error != Errors::NONE) {
        let mut s = format!("ShareFetch ← {} {}", p.error, p.partition);
        if let Some(l) = p.current_leader {
            let _ = write!(s, " (leader broker-{l})");
        }
        return s;
    }
    let n: i64 = r.partitions.iter().map(|p| p.records()).sum();
    let max_delivery = r.partitions.iter().flat_map(|p| &p.acquired).map(|a| a.delivery_count).max().unwrap_or(0);
    let mut s = format!("ShareFetch ← {n} record{}", if n == 1 { "" } else { "s" });
    if max_delivery > 1 {
        let _ = write!(s, " (delivery {max_delivery})");
    }
    if let Some(p) = r.partitions.iter().find(|p| p.acknowledge_error != Errors::NONE) {
        let _ = write!(s, ", ack {}", p.acknowledge_error);
    }
    s
}

/// `ShareAcknowledge ACCEPT 12`.
pub(crate) fn acknowledge_label(r: &ShareAcknowledgeRequest) -> String {
    let mut s = format!("ShareAcknowledge {}", acks_text(&r.partitions));
    if r.share_session_epoch == SHARE_SESSION_FINAL_EPOCH {
        s.push_str(" (close)");
    }
    s
}

/// `ShareAcknowledge ← OK`, or the first partition's error.
pub(crate) fn acknowledge_response_label(r: &ShareAcknowledgeResponse) -> String {
    match r.partitions.iter().find(|(_, e)| *e != Errors::NONE) {
        Some((tp, e)) => format!("ShareAcknowledge ← {e} {tp}"),
        None => "ShareAcknowledge ← OK".into(),
    }
}
