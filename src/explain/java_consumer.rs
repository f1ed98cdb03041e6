//! The Apache Kafka Java consumer with `group.protocol=consumer` (KIP-848): the statements
//! of `AbstractMembershipManager`, `ConsumerMembershipManager`, `AbstractHeartbeatRequestManager`
//! and `CoordinatorRequestManager` (same log context as the classic consumer).

use super::event::Ev;
use super::java_classic::coordinator_node;
use super::pat::{capture, num, partitions};

/// One line of the consumer-protocol client.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    // AbstractMembershipManager.transitionTo
    if let Some(c) = capture("Member {} with epoch {} transitioned from {} to {}.", msg) {
        return one(Ev::Transition {
            member: c[0].to_string(),
            epoch: num(c[1])?,
            from: c[2].to_string(),
            to: c[3].to_string(),
        });
    }
    if let Some(c) = capture("Member {} with epoch {} transitioned to fatal state", msg) {
        return one(Ev::Transition {
            member: c[0].to_string(),
            epoch: num(c[1])?,
            from: String::new(),
            to: "FATAL".into(),
        });
    }
    // AbstractMembershipManager.maybeReconcile: the partitions follow on continuation lines
    if let Some(c) = capture("Reconciling assignment with local epoch {}", msg) {
        let epoch = num(c[0].lines().next().unwrap_or(""))?;
        return one(Ev::Reconciling { epoch, member: None, assigned: Vec::new(), revoked: Vec::new() });
    }
    // AbstractMembershipManager.revokePartitions
    if let Some(c) = capture("Revoking previously assigned partitions {}", msg) {
        if !msg.contains(" for group ") {
            return one(Ev::Revoked { partitions: partitions(c[0]) });
        }
    }
    // ConsumerMembershipManager.signalMemberLeavingGroup
    if let Some(c) = capture("Member {} is triggering callbacks to release assignment {} and leave group", msg) {
        return one(Ev::Leaving { member: Some(c[0].to_string()), reason: "the consumer is leaving the group".into() });
    }
    // AbstractHeartbeatRequestManager.onErrorResponse (logInfo: "<message> in <backoff>ms: <error message>")
    if let Some(c) = capture("failed for member {} because epoch {} is fenced.", msg) {
        let _ = c;
        return one(Ev::GroupError { error: "FENCED_MEMBER_EPOCH".into() });
    }
    if capture("HeartbeatRequest failed because member {} is unknown.", msg).is_some() {
        return one(Ev::GroupError { error: "UNKNOWN_MEMBER_ID".into() });
    }
    if let Some(c) = capture("HeartbeatRequest failed because the group coordinator {} is ", msg) {
        return one(Ev::CoordinatorLost { broker: coordinator_node(c[0]) });
    }
    if msg.contains("HeartbeatRequest failed due to fenced instance id")
        || msg.contains("HeartbeatRequest failed due to unreleased instance id")
    {
        return one(Ev::GroupError { error: "FENCED_INSTANCE_ID".into() });
    }
    if let Some(c) = capture("Time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, exceeded approximately by {} ms. Member {} will rejoin the group now.", msg) {
        let _ = c;
        return one(Ev::RejoinRequested { reason: "the application polled again after the poll timeout".into() });
    }
    if msg.contains("received heartbeat interval") && msg.contains("from the group coordinator") {
        return one(Ev::Info);
    }
    if let Some(c) =
        capture("Group coordinator {} is unavailable or invalid due to cause: {}. Rediscovery will be attempted.", msg)
    {
        return one(Ev::CoordinatorLost { broker: coordinator_node(c[0]) });
    }
    if msg.contains("Interrupting reconciliation that is not relevant anymore") {
        return one(Ev::Info);
    }
    None
}
