//! The example scenarios shipped with the page (the `scenarios/` folder),
//! embedded so the site works offline. The configuration panel offers them.

/// (id, English title, Chinese title, scenario JSON).
pub const EXAMPLES: &[(&str, &str, &str, &str)] = &[
    (
        "crash",
        "A consumer crashes (classic, eager range)",
        "消费者崩溃（经典协议，eager range）",
        include_str!("../scenarios/crash.json"),
    ),
    (
        "coordinator-failover",
        "The coordinator's broker dies",
        "协调者所在的 broker 宕机",
        include_str!("../scenarios/coordinator-failover.json"),
    ),
    (
        "connect",
        "Kafka Connect: a worker leaves, its tasks wait",
        "Kafka Connect：一个 worker 离开，它的任务等待",
        include_str!("../scenarios/connect.json"),
    ),
    (
        "consumer-protocol-crash",
        "KIP-848: one consumer of three crashes",
        "KIP-848：三个消费者中的一个崩溃",
        include_str!("../scenarios/consumer-protocol-crash.json"),
    ),
    (
        "unsafe-assignor",
        "A deliberately wrong assignor: the invariant monitor catches it",
        "一个故意出错的分配器：不变式监视器会抓住它",
        include_str!("../scenarios/unsafe-assignor.json"),
    ),
];

/// The example's scenario, validated.
pub fn load(id: &str) -> Result<crate::sim::Scenario, String> {
    let (_, _, _, text) = EXAMPLES.iter().find(|e| e.0 == id).ok_or_else(|| format!("no example named '{id}'"))?;
    crate::sim::Scenario::from_json(text)
}

/// The comparisons shipped with the page: (id, English title, Chinese title, JSON).
pub const COMPARISONS: &[(&str, &str, &str, &str)] = &[
    (
        "compare-protocols",
        "One consumer of ten crashes: eager, cooperative, KIP-848",
        "十个消费者中的一个崩溃：eager、cooperative、KIP-848",
        include_str!("../scenarios/compare-protocols.json"),
    ),
    (
        "compare-crash",
        "A consumer restarts 2 s after crashing: eager, cooperative, static members",
        "消费者崩溃 2 秒后重启：eager、cooperative、静态成员",
        include_str!("../scenarios/compare-crash.json"),
    ),
];

pub fn comparison(id: &str) -> Result<crate::compare::Comparison, String> {
    let (_, _, _, text) =
        COMPARISONS.iter().find(|e| e.0 == id).ok_or_else(|| format!("no comparison named '{id}'"))?;
    crate::compare::Comparison::from_json(text)
}
