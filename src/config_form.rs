//! The configuration panel's quick fields: each reads and writes one setting
//! of a scenario (the first group and topic, where a scenario has several),
//! under Kafka's config names. Everything else is edited in the JSON.

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
    Field { key: "session.timeout.ms", en: "how long the coordinator waits for a heartbeat", zh: "协调者等待心跳的时长" },
    Field { key: "heartbeat.interval.ms", en: "time between heartbeats", zh: "心跳间隔" },
    Field { key: "max.poll.interval.ms", en: "longest allowed gap between poll() calls; also the rebalance timeout", zh: "两次 poll() 之间允许的最长间隔；也是再均衡超时" },
    Field { key: "processing.ms.per.record", en: "simulated processing time per record", zh: "每条消息的模拟处理时间" },
    Field { key: "group.initial.rebalance.delay.ms", en: "how long an empty group waits for more members", zh: "空组等待更多成员的时间" },
    Field { key: "latencyMs", en: "one-way network latency", zh: "单向网络延迟" },
];

/// The protocol presets: (key, assignor list, description en, zh).
pub const PROTOCOLS: &[(&str, &[&str], &str, &str)] = &[
    ("default", &["range", "cooperative-sticky"], "Kafka's default [range, cooperative-sticky]: runs EAGER", "Kafka 默认的 [range, cooperative-sticky]：按 EAGER 运行"),
    ("eager-range", &["range"], "classic, eager, range", "经典协议，eager，range"),
    ("eager-roundrobin", &["roundrobin"], "classic, eager, roundrobin", "经典协议，eager，roundrobin"),
    ("eager-sticky", &["sticky"], "classic, eager, sticky", "经典协议，eager，sticky"),
    ("cooperative", &["cooperative-sticky"], "classic, cooperative (two-phase), cooperative-sticky", "经典协议，cooperative（两阶段），cooperative-sticky"),
];

/// The preset matching the first group's assignor list, if any.
pub fn protocol_of(s: &Scenario) -> Option<&'static str> {
    let list = &s.groups.first()?.config.assignors;
    PROTOCOLS.iter().find(|(_, a, _, _)| a.iter().map(|x| x.to_string()).eq(list.iter().cloned())).map(|p| p.0)
}

pub fn set_protocol(s: &mut Scenario, key: &str) -> Result<(), String> {
    let (_, list, _, _) = PROTOCOLS.iter().find(|p| p.0 == key).ok_or_else(|| format!("unknown protocol preset '{key}'"))?;
    for g in &mut s.groups {
        g.config.assignors = list.iter().map(|a| a.to_string()).collect();
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

fn group(s: &mut Scenario) -> Result<&mut crate::sim::config::ConsumerConfig, String> {
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
