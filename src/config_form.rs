//! The configuration panel's quick fields: each reads and writes one setting
//! of a scenario (the first group and topic, where a scenario has several),
//! under Kafka's config names. Everything else is edited in the JSON.

use crate::sim::scenario::config::{CommitMode, GroupProtocol};
use crate::sim::Scenario;

/// A field: its Kafka name (or scenario name), and its English and Chinese help.
pub struct Field {
    pub key: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

pub const FIELDS: &[Field] = &[
    Field { key: "brokers", en: "brokers in the cluster (1-9)", zh: "集群中的 broker 数（1-9）" },
    Field { key: "consumers", en: "consumers in the group", zh: "组里的消费者数" },
    Field { key: "partitions", en: "partitions of the topic", zh: "主题的分区数" },
    Field {
        key: "session.timeout.ms",
        en: "how long the coordinator waits for a heartbeat",
        zh: "协调者等待心跳的时长",
    },
    Field { key: "heartbeat.interval.ms", en: "time between heartbeats", zh: "心跳间隔" },
    Field {
        key: "max.poll.interval.ms",
        en: "longest allowed gap between poll() calls; also the rebalance timeout",
        zh: "两次 poll() 之间允许的最长间隔；也是再均衡超时",
    },
    Field {
        key: "processing.ms.per.record", en: "simulated processing time per record", zh: "每条消息的模拟处理时间"
    },
    Field {
        key: "group.initial.rebalance.delay.ms",
        en: "how long an empty group waits for more members",
        zh: "空组等待更多成员的时间",
    },
    Field { key: "latencyMs", en: "one-way network latency", zh: "单向网络延迟" },
];

/// A protocol preset: `group.protocol` with, for the classic protocol, the
/// client-side `partition.assignment.strategy`, or for the consumer protocol
/// (KIP-848) the server-side `group.remote.assignor` (`None`: the broker's
/// first `group.consumer.assignors`, uniform).
pub struct Preset {
    pub key: &'static str,
    pub protocol: GroupProtocol,
    pub assignors: &'static [&'static str],
    pub remote_assignor: Option<&'static str>,
    pub en: &'static str,
    pub zh: &'static str,
}

const fn classic(key: &'static str, assignors: &'static [&'static str], en: &'static str, zh: &'static str) -> Preset {
    Preset { key, protocol: GroupProtocol::Classic, assignors, remote_assignor: None, en, zh }
}

pub const PROTOCOLS: &[Preset] = &[
    classic(
        "default",
        &["range", "cooperative-sticky"],
        "Kafka's default [range, cooperative-sticky]: runs EAGER",
        "Kafka 默认的 [range, cooperative-sticky]：按 EAGER 运行",
    ),
    classic("eager-range", &["range"], "classic, eager, range", "经典协议，eager，range"),
    classic("eager-roundrobin", &["roundrobin"], "classic, eager, roundrobin", "经典协议，eager，roundrobin"),
    classic("eager-sticky", &["sticky"], "classic, eager, sticky", "经典协议，eager，sticky"),
    classic(
        "cooperative",
        &["cooperative-sticky"],
        "classic, cooperative (two-phase), cooperative-sticky",
        "经典协议，cooperative（两阶段），cooperative-sticky",
    ),
    Preset {
        key: "consumer",
        protocol: GroupProtocol::Consumer,
        assignors: &[],
        remote_assignor: None,
        en: "consumer (KIP-848), the broker's server assignor (uniform)",
        zh: "consumer（KIP-848），broker 的服务端分配器（uniform）",
    },
    Preset {
        key: "consumer-range",
        protocol: GroupProtocol::Consumer,
        assignors: &[],
        remote_assignor: Some("range"),
        en: "consumer (KIP-848), server-side range",
        zh: "consumer（KIP-848），服务端 range",
    },
];

/// The preset matching the first group's protocol and assignors, if any.
pub fn protocol_of(s: &Scenario) -> Option<&'static str> {
    let c = &s.groups.first()?.config;
    PROTOCOLS
        .iter()
        .find(|p| {
            p.protocol == c.group_protocol
                && match p.protocol {
                    GroupProtocol::Classic => p.assignors.iter().map(|x| x.to_string()).eq(c.assignors.iter().cloned()),
                    GroupProtocol::Consumer => p.remote_assignor == c.group_remote_assignor.as_deref(),
                }
        })
        .map(|p| p.key)
}

/// Applies a preset to every consumer group (the classic assignor list is
/// kept when switching to the consumer protocol, which ignores it).
pub fn set_protocol(s: &mut Scenario, key: &str) -> Result<(), String> {
    let p = PROTOCOLS.iter().find(|p| p.key == key).ok_or_else(|| format!("unknown protocol preset '{key}'"))?;
    for g in &mut s.groups {
        g.config.group_protocol = p.protocol;
        g.config.group_remote_assignor = p.remote_assignor.map(str::to_string);
        if p.protocol == GroupProtocol::Classic {
            g.config.assignors = p.assignors.iter().map(|a| a.to_string()).collect();
        }
    }
    Ok(())
}

/// `simulated.commit.mode` of the first group (the simulated application's
/// commits after each batch), and setting it on every group.
pub fn commit_mode_of(s: &Scenario) -> Option<CommitMode> {
    s.groups.first().map(|g| g.config.commit_mode)
}

pub fn set_commit_mode(s: &mut Scenario, mode: &str) -> Result<(), String> {
    let m = match mode {
        "none" => CommitMode::None,
        "sync" => CommitMode::Sync,
        "async" => CommitMode::Async,
        "before" => CommitMode::Before,
        _ => return Err(format!("simulated.commit.mode: '{mode}' is not none, sync, async or before")),
    };
    for g in &mut s.groups {
        g.config.commit_mode = m;
    }
    Ok(())
}

/// The field's current value, if the scenario has the group or topic it reads.
pub fn get(s: &Scenario, key: &str) -> Option<u64> {
    let g = s.groups.first();
    Some(match key {
        "brokers" => u64::from(s.brokers),
        "consumers" => u64::from(g?.consumers),
        "partitions" => u64::from(s.topics.first()?.partitions),
        "session.timeout.ms" => g?.config.session_timeout_ms,
        "heartbeat.interval.ms" => g?.config.heartbeat_interval_ms,
        "max.poll.interval.ms" => g?.config.max_poll_interval_ms,
        "processing.ms.per.record" => g?.config.processing_ms_per_record,
        "group.initial.rebalance.delay.ms" => s.broker.initial_rebalance_delay_ms,
        "latencyMs" => s.network.latency_ms,
        _ => return None,
    })
}

fn group(s: &mut Scenario) -> Result<&mut crate::sim::scenario::config::ConsumerConfig, String> {
    s.groups.first_mut().map(|g| &mut g.config).ok_or_else(|| "the scenario has no group".to_string())
}

/// Sets a field from what the user typed; says why a value is not a number.
/// Range checks are the linter's job, so impossible values are explained there.
pub fn set(s: &mut Scenario, key: &str, typed: &str) -> Result<(), String> {
    let v: u64 = typed.trim().parse().map_err(|_| format!("{key}: '{typed}' is not a whole number"))?;
    let small = |v: u64| u32::try_from(v).map_err(|_| format!("{key}: {v} is too large"));
    match key {
        "brokers" => s.brokers = small(v)?,
        "consumers" => s.groups.first_mut().ok_or("the scenario has no group")?.consumers = small(v)?,
        "partitions" => s.topics.first_mut().ok_or("the scenario has no topic")?.partitions = small(v)?,
        "session.timeout.ms" => group(s)?.session_timeout_ms = v,
        "heartbeat.interval.ms" => group(s)?.heartbeat_interval_ms = v,
        "max.poll.interval.ms" => group(s)?.max_poll_interval_ms = v,
        "processing.ms.per.record" => group(s)?.processing_ms_per_record = v,
        "group.initial.rebalance.delay.ms" => s.broker.initial_rebalance_delay_ms = v,
        "latencyMs" => s.network.latency_ms = v,
        _ => return Err(format!("unknown field '{key}'")),
    }
    Ok(())
}
