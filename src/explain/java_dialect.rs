//! The Apache Kafka Java consumer's dialect: its classic-protocol statements
//! (`java_classic`) and its KIP-848 and share-consumer ones (`java_consumer`), behind
//! their log context.

use super::event::{Ev, Who};
use super::java_classic;

/// The Apache Kafka Java consumer: classic protocol (`java_classic`), KIP-848 (`java_consumer`) and
/// the share consumer's reconciliation, behind their log context.
pub struct JavaConsumer;

impl super::dialect::Dialect for JavaConsumer {
    fn name(&self) -> &'static str {
        "Apache Kafka Java consumer (classic and KIP-848 protocols, share consumer)"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractCoordinator.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerCoordinator.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerRebalanceListenerInvoker.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractMembershipManager.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractHeartbeatRequestManager.java",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "(Re-)joining group",
            "Successfully joined group with generation {}",
            "Successfully synced group in generation {}",
            "Request joining group due to: {}",
            "Resetting generation {}due to: {}",
            "Finished assignment for group at generation {}: {}",
            "Notifying assignor about the new Assignment(partitions={})",
            "Adding newly assigned partitions: {}",
            "Revoke previously assigned partitions {}",
            "Lost previously assigned partitions {}",
            "consumer poll timeout has expired. This means the time between",
            "Member {} sending LeaveGroup request to coordinator {} due to {}",
            "Attempt to heartbeat failed since group is rebalancing",
            "Discovered group coordinator {}",
            "Group coordinator {} is unavailable or invalid due to cause: {}",
            "Member {} with epoch {} transitioned from {} to {}.",
            "Reconciling assignment with local epoch {}",
        ]
    }
    fn example(&self) -> &'static str {
        "2024-05-01 10:00:03,120 INFO [main] o.a.k.c.c.internals.ConsumerCoordinator - [Consumer clientId=consumer-demo-1, groupId=demo] Successfully joined group with generation Generation{generationId=5, memberId='consumer-demo-1-ab', protocol='range'}"
    }
    fn claims(&self, line: &super::layout::Stripped) -> bool {
        java_classic::context(&line.msg, &mut Who::default())
    }
    fn parse(&self, line: &super::layout::Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let msg = line.msg.as_str();
        let evs = java_classic::parse(msg).or_else(|| super::java_consumer::parse(msg))?;
        who.is_broker = false;
        who.offsets_partition = None;
        java_classic::context(msg, who);
        Some(evs)
    }
}
