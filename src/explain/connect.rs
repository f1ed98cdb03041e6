//! Kafka Connect's distributed workers: `WorkerCoordinator` (a classic-protocol group member,
//! its `AbstractCoordinator` statements read by `java_classic`) and `DistributedHerder`, behind
//! the log context `[Worker clientId=..., groupId=...] `.

use super::event::{Ev, Who};
use super::java_classic;
use super::pat::{after, capture, num};

/// Connect's own statements.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    // WorkerCoordinator.onJoinPrepare
    if msg.ends_with("Rebalance started") {
        return Some(vec![Ev::RejoinRequested { reason: "Rebalance started".into() }]);
    }
    // DistributedHerder.RebalanceListener.onAssigned
    if let Some(c) = capture("Joined group at generation {} with protocol version {} and got assignment: {}", msg) {
        let generation = num(c[0]);
        let leader = after(c[2], "leader='", &['\'']).filter(|l| !l.is_empty()).map(str::to_string);
        return Some(vec![
            Ev::Joined { generation, member: None, protocol: None, leader },
            Ev::Synced { generation, member: None, protocol: None },
        ]);
    }
    // DistributedHerder.startWork / handleRebalanceCompleted
    if msg.ends_with("Finished starting connectors and tasks")
        || capture("Starting connectors and tasks using config offset {}", msg).is_some()
        || msg.contains("Catching up to assignment's config offset")
    {
        return Some(vec![Ev::Info]);
    }
    None
}

/// A Connect worker's group membership.
pub struct Connect;

impl super::dialect::Dialect for Connect {
    fn name(&self) -> &'static str {
        "Kafka Connect distributed worker"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "apache/kafka connect/runtime/src/main/java/org/apache/kafka/connect/runtime/distributed/WorkerCoordinator.java",
            "apache/kafka connect/runtime/src/main/java/org/apache/kafka/connect/runtime/distributed/DistributedHerder.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractCoordinator.java",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "Rebalance started",
            "Joined group at generation {} with protocol version {} and got assignment: {} with rebalance delay: {}",
            "Finished starting connectors and tasks",
            "Starting connectors and tasks using config offset {}",
        ]
    }
    fn example(&self) -> &'static str {
        "[2026-09-17 23:10:44,003] INFO [Worker clientId=connect-1, groupId=connect-cluster] Joined group at generation 8 with protocol version 2 and got assignment: Assignment{error=0, leader='connect-1-25d0', leaderUrl='http://connect:8083/', offset=1, connectorIds=[], taskIds=[], revokedConnectorIds=[], revokedTaskIds=[], delay=0} with rebalance delay: 0 (org.apache.kafka.connect.runtime.distributed.DistributedHerder:2900)"
    }
    fn claims(&self, line: &super::layout::Stripped) -> bool {
        line.msg.contains("[Worker ")
    }
    fn parse(&self, line: &super::layout::Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        if !self.claims(line) {
            return None;
        }
        let msg = line.msg.as_str();
        let evs = parse(msg).or_else(|| java_classic::parse(msg))?;
        who.is_broker = false;
        who.offsets_partition = None;
        java_classic::context(msg, who);
        Some(evs)
    }
}
