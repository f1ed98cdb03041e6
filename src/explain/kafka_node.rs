//! kafka-node's `HighLevelConsumer` (ZooKeeper-based rebalancing, before the group protocol),
//! through the `debug` module (`kafka-node:HighLevelConsumer ...`): `lib/highLevelConsumer.js`
//! and `lib/zookeeper.js`.

use super::event::{Ev, Who};
use super::layout::Stripped;
use super::pat::capture;

/// The message without `debug`'s namespace and its `+12ms`.
fn text(msg: &str) -> &str {
    let mut t = msg.trim();
    if let Some(rest) = t.strip_prefix("kafka-node:") {
        t = rest.split_once(' ').map_or("", |(_, r)| r);
    }
    if let Some((head, tail)) = t.rsplit_once(" +") {
        if tail.ends_with("ms") && tail[..tail.len() - 2].bytes().all(|b| b.is_ascii_digit()) {
            t = head;
        }
    }
    t
}

/// One line of kafka-node's.
pub fn parse(msg: &str, who: &mut Who) -> Option<Vec<Ev>> {
    let t = text(msg);
    // zookeeper.js registerConsumer: the group and the consumer id from the node's path
    if let Some(c) = capture("Node: /consumers/{}/ids/{} was created.", t) {
        who.group = Some(c[0].to_string());
        who.client_id = Some(c[1].to_string());
        return Some(vec![Ev::MemberId { member: c[1].to_string() }]);
    }
    if let Some(c) = capture("HighLevelConsumer {} is attempting to rebalance", t) {
        who.client_id = Some(c[0].to_string());
        return Some(vec![Ev::NewAttempt { reason: "rebalance".into() }]);
    }
    if let Some(c) = capture("HighLevelConsumer {} rebalance attempt was successful", t) {
        who.client_id = Some(c[0].to_string());
        return Some(vec![Ev::Synced { generation: None, member: None, protocol: None }]);
    }
    for tail in [
        " stopping data read during rebalance",
        " assembling data for rebalance",
        " releasing current partitions during rebalance",
        " determining the partitions to own during rebalance",
        " gaining ownership of partitions during rebalance",
        " has been assigned no partitions during rebalance",
    ] {
        if t.starts_with("HighLevelConsumer ") && t.ends_with(tail) {
            return Some(vec![Ev::Info]);
        }
    }
    if capture("rebalance() {} is rebalancing: {} ready: {}", t).is_some() {
        return Some(vec![Ev::Info]);
    }
    None
}

/// kafka-node.
pub struct KafkaNode;

impl super::dialect::Dialect for KafkaNode {
    fn name(&self) -> &'static str {
        "kafka-node (HighLevelConsumer)"
    }
    fn sources(&self) -> &'static [&'static str] {
        &["SOHU-Co/kafka-node lib/highLevelConsumer.js", "SOHU-Co/kafka-node lib/zookeeper.js"]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "Node: /consumers/{}/ids/{} was created.",
            "HighLevelConsumer {} is attempting to rebalance",
            "HighLevelConsumer {} rebalance attempt was successful",
            "HighLevelConsumer {} releasing current partitions during rebalance",
            "rebalance() {} is rebalancing: {} ready: {}",
        ]
    }
    fn example(&self) -> &'static str {
        "  kafka-node:zookeeper Node: /consumers/my-group/ids/my-consumer-id-3 was created. +0ms"
    }
    fn claims(&self, line: &Stripped) -> bool {
        line.msg.contains("kafka-node:") || line.msg.starts_with("HighLevelConsumer ")
    }
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let evs = parse(&line.msg, who)?;
        who.is_broker = false;
        Some(evs)
    }
}
