//! The Apache Kafka Java consumer, classic protocol: the statements of
//! `AbstractCoordinator`, `ConsumerCoordinator` and `ConsumerRebalanceListenerInvoker`
//! (clients/.../consumer/internals), behind the log context `ConsumerUtils.createLogContext`
//! prints: `[Consumer clientId=..., groupId=...] ` or `[Consumer instanceId=..., clientId=..., groupId=...] `.

use super::event::{error_name, Ev, Who};
use super::pat::{after, capture, num, partitions};
use std::collections::BTreeMap;

/// Reads the log context into `who`; true when the line has one.
pub fn context(msg: &str, who: &mut Who) -> bool {
    // the consumer's, the share consumer's (ShareConsumerImpl) and a Connect worker's
    // (WorkerGroupMember: `[Worker clientId=..., groupId=...] `)
    let Some((i, key)) =
        ["[Consumer ", "[ShareConsumer ", "[Worker "].iter().find_map(|k| msg.find(k).map(|i| (i, *k)))
    else {
        return false;
    };
    let Some(end) = msg[i..].find(']') else { return false };
    let ctx = &msg[i + key.len()..i + end];
    for kv in ctx.split(", ") {
        match kv.split_once('=') {
            Some(("clientId", v)) => who.client_id = Some(v.to_string()),
            Some(("groupId", v)) if v != "null" => who.group = Some(v.to_string()),
            Some(("instanceId", v)) => who.instance_id = Some(v.to_string()),
            _ => {}
        }
    }
    true
}

/// `AbstractCoordinator.Generation.toString`: `Generation{generationId=5, memberId='m', protocol='range'}`.
pub fn generation(s: &str) -> Option<(i64, Option<String>, Option<String>)> {
    let g = num(after(s, "generationId=", &[',', '}'])?)?;
    let m = after(s, "memberId='", &['\'']).filter(|m| !m.is_empty()).map(str::to_string);
    let p = after(s, "protocol='", &['\'']).map(str::to_string);
    Some((g, m, p))
}

/// A coordinator `Node`: `host:9092 (id: +1 rack: null ...)` (4.x `GroupCoordinatorNode`) or
/// `host:9092 (id: 2147483646 rack: null)` (before 4.0, `Integer.MAX_VALUE - nodeId`).
pub fn coordinator_node(s: &str) -> Option<i32> {
    let id = after(s, "(id: ", &[' ', ')'])?;
    if let Some(n) = id.strip_prefix('+') {
        return n.parse().ok();
    }
    let n: i64 = id.parse().ok()?;
    Some(if n > i64::from(i32::MAX) - 1_000_000 { (i64::from(i32::MAX) - n) as i32 } else { n as i32 })
}

/// `{m1=Assignment(partitions=[orders-0, orders-1]), m2=Assignment(partitions=[orders-2])}`.
fn assignment_map(s: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut rest = s.trim().trim_start_matches('{');
    while let Some(eq) = rest.find("=Assignment(partitions=") {
        let member = rest[..eq].trim().trim_start_matches(',').trim().to_string();
        let after_eq = &rest[eq + "=Assignment(partitions=".len()..];
        let end = after_eq.find(']').map(|i| i + 1).unwrap_or(after_eq.len());
        out.insert(member, partitions(&after_eq[..end]));
        rest = &after_eq[end..];
        rest = rest.find(", ").map(|i| &rest[i + 2..]).unwrap_or("");
    }
    out
}

/// One line of the classic Java consumer.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    // AbstractCoordinator.sendJoinGroupRequest
    if msg.ends_with("(Re-)joining group") {
        return one(Ev::JoinStart);
    }
    // AbstractCoordinator.JoinGroupResponseHandler
    if let Some(c) = capture("Successfully joined group with generation {}", msg) {
        let (g, m, p) = generation(c[0])?;
        return one(Ev::Joined { generation: Some(g), member: m, protocol: p, leader: None });
    }
    // AbstractCoordinator.SyncGroupResponseHandler
    if let Some(c) = capture("Successfully synced group in generation {}", msg) {
        let (g, m, p) = generation(c[0])?;
        return one(Ev::Synced { generation: Some(g), member: m, protocol: p });
    }
    // AbstractCoordinator.requestRejoin
    if let Some(c) = capture("Request joining group due to: {}", msg) {
        return one(Ev::RejoinRequested { reason: c[0].trim().to_string() });
    }
    // AbstractCoordinator.resetStateAndGeneration
    if let Some(c) = capture("Resetting generation {}due to: {}", msg) {
        return one(Ev::ResetGeneration { reason: c[1].trim().to_string() });
    }
    // ConsumerCoordinator.onLeaderElected
    if let Some(c) = capture("Finished assignment for group at generation {}: {}", msg) {
        return one(Ev::LeaderAssigned { generation: num(c[0]), assignment: assignment_map(c[1]) });
    }
    if capture("Skipped assignment for returning static leader at generation {}.", msg).is_some() {
        return one(Ev::LeaderElected);
    }
    // ConsumerCoordinator.onJoinComplete
    if let Some(c) = capture("Notifying assignor about the new Assignment(partitions={})", msg) {
        return one(Ev::Owned { partitions: partitions(c[0]) });
    }
    // ConsumerRebalanceListenerInvoker
    if let Some(c) = capture("Adding newly assigned partitions: {}", msg) {
        return one(Ev::Assigned { partitions: partitions(c[0]) });
    }
    if let Some(c) = capture("Revoke previously assigned partitions {}", msg) {
        return one(Ev::Revoked { partitions: partitions(c[0]) });
    }
    if let Some(c) = capture("Lost previously assigned partitions {}", msg) {
        return one(Ev::Lost { partitions: partitions(c[0]) });
    }
    if msg.contains("Giving away all assigned partitions as lost since generation") {
        return one(Ev::Info);
    }
    // AbstractCoordinator.handlePollTimeoutExpiry (and AsyncKafkaConsumer's heartbeat manager)
    if msg.contains("consumer poll timeout has expired. This means the time between")
        || msg.contains("Consumer poll timeout has expired. This means the time between")
    {
        return one(Ev::PollTimeout { interval_ms: None });
    }
    // AbstractCoordinator.maybeLeaveGroup
    if let Some(c) = capture("Member {} sending LeaveGroup request to coordinator {} due to {}", msg) {
        return one(Ev::Leaving { member: Some(c[0].to_string()), reason: c[2].trim().to_string() });
    }
    // AbstractCoordinator.HeartbeatResponseHandler (4.x and the older wordings)
    if let Some(c) =
        capture("Attempt to heartbeat with {} and group instance id {} failed due to {}, resetting generation", msg)
    {
        return one(Ev::GroupError { error: error_name(c[2]).unwrap_or("UNKNOWN").to_string() });
    }
    if msg.contains("Attempt to heartbeat with stale") {
        return one(Ev::Info);
    }
    if msg.contains("Attempt to heartbeat failed since group is rebalancing") {
        return one(Ev::GroupError { error: "REBALANCE_IN_PROGRESS".into() });
    }
    if msg.contains("Attempt to heartbeat failed for since member id")
        || msg.contains("Attempt to heartbeat failed since member id")
    {
        return one(Ev::GroupError { error: "UNKNOWN_MEMBER_ID".into() });
    }
    if msg.contains("Attempt to heartbeat failed since generation") {
        return one(Ev::GroupError { error: "ILLEGAL_GENERATION".into() });
    }
    if let Some(c) = capture("Attempt to heartbeat failed since coordinator {} is either not started or not valid", msg)
    {
        return one(Ev::CoordinatorLost { broker: coordinator_node(c[0]) });
    }
    // JoinGroup / SyncGroup / OffsetCommit failures naming a group error
    for prefix in ["JoinGroup failed", "SyncGroup failed", "OffsetCommit failed with"] {
        if let Some(rest) = msg.find(prefix).map(|i| &msg[i..]) {
            if rest.contains("Coordinator") && rest.contains("is loading the group") {
                return one(Ev::Info);
            }
            if rest.contains("Marking coordinator unknown") {
                return one(Ev::CoordinatorLost { broker: None });
            }
            return match error_name(rest) {
                Some(e) => one(Ev::GroupError { error: e.to_string() }),
                None => one(Ev::Info),
            };
        }
    }
    // AbstractCoordinator.FindCoordinatorResponseHandler, markCoordinatorUnknown
    if let Some(c) = capture("Discovered group coordinator {}", msg) {
        return one(Ev::CoordinatorFound { broker: coordinator_node(c[0]) });
    }
    if let Some(c) = capture("Group coordinator {} is unavailable or invalid due to cause: {}", msg) {
        return one(Ev::CoordinatorLost { broker: coordinator_node(c[0]) });
    }
    if msg.contains("Requesting disconnect from last known coordinator")
        || msg.contains("Consumer has been disconnected from the group coordinator")
    {
        return one(Ev::Info);
    }
    if let Some(c) = capture("Updating assignment with{}", msg) {
        // the rest follows on continuation lines; see `continuation`
        let _ = c;
        return Some(Vec::new());
    }
    if msg.contains("ConsumerConfig values:") {
        return Some(Vec::new());
    }
    None
}

/// A `\tkey: value` line after `Updating assignment with` (ConsumerCoordinator.onJoinComplete)
/// or `Reconciling assignment with` (AbstractMembershipManager), or `\tkey = value` after
/// `ConsumerConfig values:` (AbstractConfig.logAll).
pub fn continuation(msg: &str) -> Option<Ev> {
    let t = msg.trim_start();
    if let Some(v) = t.strip_prefix("Assigned partitions:") {
        return Some(Ev::Owned { partitions: partitions(v) });
    }
    if let Some(v) = t.strip_prefix("Revoked partitions (owned - assigned):") {
        return Some(Ev::Revoked { partitions: partitions(v) });
    }
    if t.starts_with("Current owned partitions:") || t.starts_with("Added partitions (assigned - owned):") {
        return Some(Ev::Info);
    }
    if let Some(v) = t.strip_prefix("Member:") {
        return Some(Ev::MemberId { member: v.trim().to_string() });
    }
    let (k, v) = t.split_once(" =")?;
    if k.contains(' ') || !k.contains('.') && k != "topics" {
        return None;
    }
    Some(Ev::Config { key: k.to_string(), value: v.trim().to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_generations_and_nodes() {
        assert_eq!(
            generation("Generation{generationId=5, memberId='consumer-demo-1-ab', protocol='range'}"),
            Some((5, Some("consumer-demo-1-ab".into()), Some("range".into())))
        );
        assert_eq!(coordinator_node("broker-1:9092 (id: +1 rack: null isFenced: false)"), Some(1));
        assert_eq!(coordinator_node("broker-3:9092 (id: 2147483644 rack: null)"), Some(3));
        let m = assignment_map("{a=Assignment(partitions=[t-0, t-1]), b=Assignment(partitions=[])}");
        assert_eq!(m["a"], vec!["t-0", "t-1"]);
        assert!(m["b"].is_empty());
    }
}
