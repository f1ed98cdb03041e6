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
        }
    }
}
