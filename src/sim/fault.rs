//! Faults as values: the world applies them at a simulated time.

use super::types::Millis;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum Fault {
    /// The consumer process dies (no LeaveGroup).
    CrashConsumer { consumer: u32 },
    /// A crashed consumer starts again (static members keep their group.instance.id).
    RestartConsumer { consumer: u32 },
    /// The consumer process stops (a GC pause): no thread runs, nothing is received.
    PauseConsumer { consumer: u32, #[serde(rename = "durationMs")] duration_ms: Millis },
    /// Record processing becomes slower (may exceed max.poll.interval.ms).
    SlowProcessing { consumer: u32, #[serde(rename = "msPerRecord")] ms_per_record: u64 },
    /// The broker process dies; its partitions' leadership moves to replicas.
    KillBroker { broker: u32 },
    RestartBroker { broker: u32 },
    /// Messages between the two nodes are dropped (both directions).
    CutLink { a: String, b: String },
    HealLink { a: String, b: String },
    /// A new consumer joins the group.
    AddConsumer { group: String },
    /// The next message from `from` to `to` is lost.
    DropNextMessage { from: String, to: String },
    /// Messages from `from` to `to` wait on the link until released.
    HoldLink { from: String, to: String },
    ReleaseLink { from: String, to: String },
    /// Extra one-way latency on a link (both directions).
    SetLinkLatency { a: String, b: String, #[serde(rename = "latencyMs")] latency_ms: Millis },
    /// Percentage of messages lost on a link (both directions).
    SetLinkLoss { a: String, b: String, percent: u8 },
    /// The topic grows to more partitions (never fewer, as in Kafka).
    AddPartitions { topic: String, count: u32 },
    /// The consumer calls `subscribe()` with a new topic list.
    ChangeSubscription { consumer: u32, topics: Vec<String> },
}

impl Fault {
    pub fn describe(&self) -> String {
        match self {
            Fault::CrashConsumer { consumer } => format!("c{consumer} crashed"),
            Fault::RestartConsumer { consumer } => format!("c{consumer} restarted"),
            Fault::PauseConsumer { consumer, duration_ms } => format!("c{consumer} paused for {duration_ms} ms (GC pause)"),
            Fault::SlowProcessing { consumer, ms_per_record } => {
                format!("c{consumer} now needs {ms_per_record} ms per record")
            }
            Fault::KillBroker { broker } => format!("broker-{broker} died"),
            Fault::RestartBroker { broker } => format!("broker-{broker} restarted"),
            Fault::CutLink { a, b } => format!("network cut between {a} and {b}"),
            Fault::HealLink { a, b } => format!("network healed between {a} and {b}"),
            Fault::AddConsumer { group } => format!("a consumer was added to {group}"),
            Fault::DropNextMessage { from, to } => format!("the next message {from} → {to} will be lost"),
            Fault::HoldLink { from, to } => format!("messages {from} → {to} are held"),
            Fault::ReleaseLink { from, to } => format!("held messages {from} → {to} are released"),
            Fault::SetLinkLatency { a, b, latency_ms } => format!("{latency_ms} ms extra latency between {a} and {b}"),
            Fault::SetLinkLoss { a, b, percent } => format!("{percent}% message loss between {a} and {b}"),
            Fault::AddPartitions { topic, count } => format!("{topic} grows to {count} partitions"),
            Fault::ChangeSubscription { consumer, topics } => format!("c{consumer} subscribes to [{}]", topics.join(", ")),
        }
    }
}
