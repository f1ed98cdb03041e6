//! Faults as values: the world applies them at a simulated time.

pub mod cap;
pub mod check;

use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum Fault {
    /// The consumer process dies (no LeaveGroup).
    CrashConsumer {
        consumer: u32,
    },
    /// A crashed consumer starts again (static members keep their group.instance.id).
    RestartConsumer {
        consumer: u32,
    },
    /// The application calls `close()`: it commits (with auto-commit), runs
    /// onPartitionsRevoked and leaves the group (a dynamic member sends
    /// LeaveGroup / a leave heartbeat; a static one leaves its place for
    /// session.timeout.ms), then the process ends.
    CloseConsumer {
        consumer: u32,
    },
    /// `close(CloseOptions.groupMembershipOperation(...))` (KIP-1092, Kafka 4.1+):
    /// as `closeConsumer`, with LEAVE_GROUP (static members leave too) or
    /// REMAIN_IN_GROUP (no leave; a dynamic member waits for its session to expire).
    CloseConsumerWithOptions {
        consumer: u32,
        operation: crate::sim::client::close_options::GroupMembershipOperation,
    },
    /// The consumer process is restarted with (`static`) or without a
    /// group.instance.id (`<group>-<n>`), switching it between static and
    /// dynamic membership.
    RestartConsumerAs {
        consumer: u32,
        #[serde(rename = "static")]
        static_member: bool,
    },
    /// The consumer process stops (a GC pause): no thread runs, nothing is received.
    PauseConsumer {
        consumer: u32,
        #[serde(rename = "durationMs")]
        duration_ms: Millis,
    },
    /// Record processing becomes slower (may exceed max.poll.interval.ms).
    SlowProcessing {
        consumer: u32,
        #[serde(rename = "msPerRecord")]
        ms_per_record: u64,
    },
    /// The broker process dies; the controller fences it after
    /// broker.session.timeout.ms and its partitions' leadership moves to in-sync replicas.
    KillBroker {
        broker: u32,
    },
    RestartBroker {
        broker: u32,
    },
    /// Controlled shutdown: leadership moves away first, then the broker stops.
    ShutdownBroker {
        broker: u32,
    },
    /// Messages between the two nodes are dropped (both directions).
    CutLink {
        a: String,
        b: String,
    },
    HealLink {
        a: String,
        b: String,
    },
    /// A new consumer joins the group.
    AddConsumer {
        group: String,
    },
    /// The next message from `from` to `to` is lost.
    DropNextMessage {
        from: String,
        to: String,
    },
    /// Messages from `from` to `to` wait on the link until released.
    HoldLink {
        from: String,
        to: String,
    },
    ReleaseLink {
        from: String,
        to: String,
    },
    /// Extra one-way latency on a link (both directions).
    SetLinkLatency {
        a: String,
        b: String,
        #[serde(rename = "latencyMs")]
        latency_ms: Millis,
    },
    /// Percentage of messages lost on a link (both directions).
    SetLinkLoss {
        a: String,
        b: String,
        percent: u8,
    },
    /// The topic grows to more partitions (never fewer, as in Kafka).
    AddPartitions {
        topic: String,
        count: u32,
    },
    /// The consumer calls `subscribe()` with a new topic list.
    ChangeSubscription {
        consumer: u32,
        topics: Vec<String>,
    },
    /// A Connect task throws: it enters FAILED on the worker that runs it.
    FailTask {
        group: String,
        connector: String,
        task: i32,
    },
    /// `POST /connectors/{connector}/tasks/{task}/restart` to a Connect cluster.
    RestartTask {
        group: String,
        connector: String,
        task: i32,
    },
    /// `POST /connectors/{connector}/restart?includeTasks=&onlyFailed=` (KIP-745).
    RestartConnector {
        group: String,
        connector: String,
        #[serde(default, rename = "includeTasks")]
        include_tasks: bool,
        #[serde(default, rename = "onlyFailed")]
        only_failed: bool,
    },
    /// A new worker joins the Connect cluster.
    AddWorker {
        group: String,
    },
    /// `kafka-topics.sh --create`: a new topic (a streams group's missing source topic, say).
    CreateTopic {
        topic: String,
        partitions: u32,
    },
    /// `kafka-configs.sh --alter --entity-type groups --add-config
    /// streams.num.standby.replicas=N`: a streams group's standby count, at run time.
    SetStandbyReplicas {
        group: String,
        replicas: i32,
    },
    /// A new `KafkaStreams` instance of the application starts, with the
    /// application's `threadsPerInstance` stream threads (scaling out).
    AddInstance {
        group: String,
    },
    /// A stream thread hits an error its uncaught-exception handler answers
    /// with SHUTDOWN_APPLICATION: its next heartbeat asks every member to shut down.
    RequestShutdown {
        consumer: u32,
    },
}

impl Fault {
    pub fn describe(&self) -> String {
        match self {
            Fault::CrashConsumer { consumer } => format!("c{consumer} crashed"),
            Fault::RestartConsumer { consumer } => format!("c{consumer} restarted"),
            Fault::CloseConsumer { consumer } => format!("c{consumer} closed (close(): commit, revoke, leave)"),
            Fault::CloseConsumerWithOptions { consumer, operation } => {
                format!("c{consumer} closed with close(CloseOptions {operation:?})")
            }
            Fault::RestartConsumerAs { consumer, static_member: true } => {
                format!("c{consumer} restarted as a static member")
            }
            Fault::RestartConsumerAs { consumer, static_member: false } => {
                format!("c{consumer} restarted as a dynamic member")
            }
            Fault::PauseConsumer { consumer, duration_ms } => {
                format!("c{consumer} paused for {duration_ms} ms (GC pause)")
            }
            Fault::SlowProcessing { consumer, ms_per_record } => {
                format!("c{consumer} now needs {ms_per_record} ms per record")
            }
            Fault::KillBroker { broker } => format!("broker-{broker} died"),
            Fault::RestartBroker { broker } => format!("broker-{broker} restarted"),
            Fault::ShutdownBroker { broker } => format!("broker-{broker} shuts down (controlled shutdown)"),
            Fault::CutLink { a, b } => format!("network cut between {a} and {b}"),
            Fault::HealLink { a, b } => format!("network healed between {a} and {b}"),
            Fault::AddConsumer { group } => format!("a consumer was added to {group}"),
            Fault::DropNextMessage { from, to } => format!("the next message {from} → {to} will be lost"),
            Fault::HoldLink { from, to } => format!("messages {from} → {to} are held"),
            Fault::ReleaseLink { from, to } => format!("held messages {from} → {to} are released"),
            Fault::SetLinkLatency { a, b, latency_ms } => format!("{latency_ms} ms extra latency between {a} and {b}"),
            Fault::SetLinkLoss { a, b, percent } => format!("{percent}% message loss between {a} and {b}"),
            Fault::AddPartitions { topic, count } => format!("{topic} grows to {count} partitions"),
            Fault::ChangeSubscription { consumer, topics } => {
                format!("c{consumer} subscribes to [{}]", topics.join(", "))
            }
            Fault::FailTask { group, connector, task } => format!("task {connector}-{task} of {group} fails"),
            Fault::RestartTask { group, connector, task } => {
                format!("POST /connectors/{connector}/tasks/{task}/restart to {group}")
            }
            Fault::RestartConnector { group, connector, include_tasks, only_failed } => {
                format!("POST /connectors/{connector}/restart?includeTasks={include_tasks}&onlyFailed={only_failed} to {group}")
            }
            Fault::AddWorker { group } => format!("a worker was added to {group}"),
            Fault::CreateTopic { topic, partitions } => format!("topic {topic} created with {partitions} partitions"),
            Fault::SetStandbyReplicas { group, replicas } => {
                format!("streams.num.standby.replicas={replicas} for group {group}")
            }
            Fault::RequestShutdown { consumer } => format!("c{consumer} asks to shut the application down"),
            Fault::AddInstance { group } => format!("a Kafka Streams instance was added to {group}"),
        }
    }
}

/// The fault kinds the UI's fault menu offers, with what each field means.
pub const FORM_KINDS: [(&str, &str); 24] = [
    ("crashConsumer", "consumer c<n>"),
    ("restartConsumer", "consumer c<n>"),
    ("closeConsumer", "consumer c<n>"),
    ("closeConsumerWithOptions", "consumer c<n>, LEAVE_GROUP, REMAIN_IN_GROUP or DEFAULT"),
    ("restartConsumerAs", "consumer c<n>, static or dynamic"),
    ("pauseConsumer", "consumer c<n>, duration ms"),
    ("slowProcessing", "consumer c<n>, ms per record"),
    ("killBroker", "broker-<n>"),
    ("restartBroker", "broker-<n>"),
    ("shutdownBroker", "broker-<n>"),
    ("cutLink", "node, node"),
    ("healLink", "node, node"),
    ("dropNextMessage", "from node, to node"),
    ("holdLink", "from node, to node"),
    ("releaseLink", "from node, to node"),
    ("setLinkLatency", "node, node, latency ms"),
    ("setLinkLoss", "node, node, percent"),
    ("addConsumer", "group id"),
    ("addPartitions", "topic, partition count"),
    ("changeSubscription", "consumer c<n>, topics (comma separated)"),
    ("failTask", "connect group id, task (e.g. sink-0)"),
    ("restartTask", "connect group id, task (e.g. sink-0)"),
    ("restartConnector", "connect group id, connector, flags (includeTasks, onlyFailed)"),
    ("addWorker", "connect group id"),
];

/// `sink-3` → (`sink`, 3).
fn task_id(s: &str) -> Result<(String, i32), String> {
    s.trim()
        .rsplit_once('-')
        .and_then(|(c, n)| Some((c.to_string(), n.parse().ok()?)))
        .filter(|(c, _)| !c.is_empty())
        .ok_or_else(|| {
            format!(
                "task: '{}' is not a task (write <connector>-<n>, e.g. sink-0)",
                crate::sim::scenario::limits::shown(s)
            )
        })
}

fn consumer_index(s: &str) -> Result<u32, String> {
    s.trim().strip_prefix('c').and_then(|n| n.parse().ok()).ok_or_else(|| {
        format!("consumer: '{}' is not a consumer (write c1, c2, ...)", crate::sim::scenario::limits::shown(s))
    })
}

fn broker_index(s: &str) -> Result<u32, String> {
    s.trim().strip_prefix("broker-").and_then(|n| n.parse().ok()).ok_or_else(|| {
        format!("broker: '{}' is not a broker (write broker-0, broker-1, ...)", crate::sim::scenario::limits::shown(s))
    })
}

/// A whole number of type `T`: says whether the text is no number at all, a
/// negative or fractional one, or one too large.
fn number<T: TryFrom<u64> + Into<u64> + Copy + Bounded>(s: &str, what: &str) -> Result<T, String> {
    let t = s.trim();
    let shown = crate::sim::scenario::limits::shown(t);
    match t.parse::<u64>() {
        Ok(v) => T::try_from(v).map_err(|_| format!("{what}: {shown} is more than {}", T::MAX.into())),
        Err(_) if t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty() => {
            Err(format!("{what}: {shown} is more than {}", T::MAX.into()))
        }
        Err(_) if t.parse::<f64>().is_ok_and(f64::is_finite) => {
            Err(format!("{what}: {shown} is not a whole number from 0 to {}", T::MAX.into()))
        }
        Err(_) => Err(format!("{what}: '{shown}' is not a number")),
    }
}

/// The largest value of an unsigned type the fault menu reads.
trait Bounded {
    const MAX: Self;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

impl Fault {
    /// Builds a fault from the fault menu's three text fields, or says which
    /// field is wrong.
    pub fn from_form(kind: &str, a: &str, b: &str, value: &str) -> Result<Fault, String> {
        let (a, b) = (a.trim().to_string(), b.trim().to_string());
        Ok(match kind {
            "crashConsumer" => Fault::CrashConsumer { consumer: consumer_index(&a)? },
            "restartConsumer" => Fault::RestartConsumer { consumer: consumer_index(&a)? },
            "closeConsumer" => Fault::CloseConsumer { consumer: consumer_index(&a)? },
            "closeConsumerWithOptions" => Fault::CloseConsumerWithOptions {
                consumer: consumer_index(&a)?,
                operation: crate::sim::client::close_options::GroupMembershipOperation::parse(if b.is_empty() {
                    value
                } else {
                    &b
                })?,
            },
            "restartConsumerAs" => Fault::RestartConsumerAs {
                consumer: consumer_index(&a)?,
                static_member: match value.trim() {
                    "static" | "true" => true,
                    "dynamic" | "false" => false,
                    other => {
                        return Err(format!(
                            "value: write static or dynamic, not '{}'",
                            crate::sim::scenario::limits::shown(other)
                        ))
                    }
                },
            },
            "pauseConsumer" => {
                Fault::PauseConsumer { consumer: consumer_index(&a)?, duration_ms: number(value, "duration ms")? }
            }
            "slowProcessing" => {
                Fault::SlowProcessing { consumer: consumer_index(&a)?, ms_per_record: number(value, "ms per record")? }
            }
            "killBroker" => Fault::KillBroker { broker: broker_index(&a)? },
            "restartBroker" => Fault::RestartBroker { broker: broker_index(&a)? },
            "shutdownBroker" => Fault::ShutdownBroker { broker: broker_index(&a)? },
            "cutLink" => Fault::CutLink { a, b },
            "healLink" => Fault::HealLink { a, b },
            "dropNextMessage" => Fault::DropNextMessage { from: a, to: b },
            "holdLink" => Fault::HoldLink { from: a, to: b },
            "releaseLink" => Fault::ReleaseLink { from: a, to: b },
            "setLinkLatency" => Fault::SetLinkLatency { a, b, latency_ms: number(value, "latency ms")? },
            "setLinkLoss" => {
                let percent: u64 = number(value, "percent")?;
                if percent > 100 {
                    return Err(format!("percent: {percent} is more than 100"));
                }
                Fault::SetLinkLoss { a, b, percent: percent as u8 }
            }
            "addConsumer" => Fault::AddConsumer { group: a },
            "addPartitions" => Fault::AddPartitions { topic: a, count: number(value, "partition count")? },
            "changeSubscription" => Fault::ChangeSubscription {
                consumer: consumer_index(&a)?,
                topics: value.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect(),
            },
            "failTask" => {
                let (connector, task) = task_id(&b)?;
                Fault::FailTask { group: a, connector, task }
            }
            "restartTask" => {
                let (connector, task) = task_id(&b)?;
                Fault::RestartTask { group: a, connector, task }
            }
            "restartConnector" => Fault::RestartConnector {
                group: a,
                connector: b,
                include_tasks: value.contains("includeTasks"),
                only_failed: value.contains("onlyFailed"),
            },
            "addWorker" => Fault::AddWorker { group: a },
            other => return Err(format!("kind: unknown fault '{}'", crate::sim::scenario::limits::shown(other))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_menu_kind_parses_from_reasonable_fields() {
        for (kind, _) in FORM_KINDS {
            let (a, b, v) = match kind {
                "killBroker" | "restartBroker" | "shutdownBroker" => ("broker-1", "", ""),
                "addConsumer" | "addWorker" => ("demo", "", ""),
                "failTask" | "restartTask" => ("connect-cluster", "sink-0", ""),
                "restartConnector" => ("connect-cluster", "sink", "includeTasks onlyFailed"),
                "addPartitions" => ("orders", "", "9"),
                "changeSubscription" => ("c1", "", "orders, payments"),
                "restartConsumerAs" => ("c2", "", "static"),
                "closeConsumerWithOptions" => ("c2", "", "LEAVE_GROUP"),
                k if k.ends_with("Consumer") || k == "slowProcessing" => ("c2", "", "100"),
                _ => ("c2", "broker-1", "50"),
            };
            assert!(Fault::from_form(kind, a, b, v).is_ok(), "{kind}");
        }
    }

    #[test]
    fn bad_fields_are_named_in_the_error() {
        assert!(Fault::from_form("crashConsumer", "x2", "", "").unwrap_err().contains("not a consumer"));
        assert!(Fault::from_form("killBroker", "2", "", "").unwrap_err().contains("not a broker"));
        assert!(Fault::from_form("pauseConsumer", "c1", "", "soon").unwrap_err().contains("duration ms"));
        assert!(Fault::from_form("setLinkLoss", "c1", "broker-0", "150").unwrap_err().contains("more than 100"));
        // Out of range is not "not a number" (issue 17).
        assert_eq!(
            Fault::from_form("setLinkLoss", "c1", "broker-0", "300").unwrap_err(),
            "percent: 300 is more than 100"
        );
        assert_eq!(
            Fault::from_form("addPartitions", "orders", "", "4294967296").unwrap_err(),
            "partition count: 4294967296 is more than 4294967295"
        );
        assert_eq!(
            Fault::from_form("addPartitions", "orders", "", "-3").unwrap_err(),
            "partition count: -3 is not a whole number from 0 to 4294967295"
        );
        assert_eq!(
            Fault::from_form("pauseConsumer", "c1", "", "99999999999999999999999").unwrap_err(),
            "duration ms: 99999999999999999999999 is more than 18446744073709551615"
        );
        assert_eq!(
            Fault::from_form("changeSubscription", "c1", "", "orders, payments").unwrap(),
            Fault::ChangeSubscription { consumer: 1, topics: vec!["orders".into(), "payments".into()] }
        );
    }
}
