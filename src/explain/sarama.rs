//! Sarama (IBM/sarama, formerly Shopify/sarama) through its `sarama.Logger` (`[sarama] ` by
//! convention): the coordinator look-ups in `client.go`, and the rebalances of the
//! sarama-cluster wrapper (`bsm/sarama-cluster consumer.go`), which logs through the same logger.

use super::event::{Ev, Who};
use super::layout::Stripped;
use super::pat::{capture, num};

/// One line of Sarama's or sarama-cluster's.
pub fn parse(msg: &str, who: &mut Who) -> Option<Vec<Ev>> {
    // client.go getConsumerMetadata / refreshCoordinator (older versions spell it "consumergoup")
    for spelling in ["consumergroup", "consumergoup"] {
        for head in ["coordinator for ", "Coordinator for "] {
            if let Some(c) = capture(&format!("{head}{spelling} {{}} is #{{}} ({{}})"), msg) {
                who.group = Some(c[0].to_string());
                return Some(vec![Ev::CoordinatorFound { broker: num(c[1]).map(|n| n as i32) }]);
            }
        }
        for head in ["requesting coordinator for ", "Requesting coordinator for "] {
            if let Some(c) = capture(&format!("{head}{spelling} {{}} from {{}}"), msg) {
                who.group = Some(c[0].to_string());
                return Some(vec![Ev::Info]);
            }
        }
    }
    // sarama-cluster consumer.go: `cluster/consumer %s rebalance`
    if msg.starts_with("cluster/consumer ") && msg.trim_end().ends_with(" rebalance") {
        return Some(vec![Ev::NewAttempt { reason: "rebalance".into() }]);
    }
    None
}

/// Sarama and sarama-cluster.
pub struct Sarama;

impl super::dialect::Dialect for Sarama {
    fn name(&self) -> &'static str {
        "Sarama (Go) and sarama-cluster"
    }
    fn sources(&self) -> &'static [&'static str] {
        &["IBM/sarama client.go", "bsm/sarama-cluster consumer.go"]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "client/coordinator requesting coordinator for consumergroup {} from {}",
            "client/coordinator coordinator for consumergroup {} is #{} ({})",
            "cluster/consumer {} rebalance",
        ]
    }
    fn example(&self) -> &'static str {
        "[sarama] 2016/06/03 18:14:05 client/coordinator coordinator for consumergoup nx-eptica is #1001 (192.168.0.100:9092)"
    }
    fn claims(&self, line: &Stripped) -> bool {
        line.logger.as_deref() == Some("sarama")
            || line.msg.starts_with("client/coordinator ")
            || line.msg.starts_with("cluster/consumer ")
    }
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let evs = parse(&line.msg, who)?;
        who.is_broker = false;
        Some(evs)
    }
}
