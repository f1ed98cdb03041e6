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
    (
        "share-1-join",
        "Share group: join, initialize, then assign",
        "共享组：加入、初始化，然后分配",
        include_str!("../scenarios/share-1-join.json"),
    ),
    (
        "share-2-more-consumers",
        "Share group: five consumers share two partitions",
        "共享组：五个消费者共享两个分区",
        include_str!("../scenarios/share-2-more-consumers.json"),
    ),
    (
        "share-3-acquire-ack",
        "Share group: acquire, then accept",
        "共享组：获取，然后确认",
        include_str!("../scenarios/share-3-acquire-ack.json"),
    ),
    (
        "share-4-crash",
        "Share group: a consumer crashes holding records",
        "共享组：消费者持有记录时崩溃",
        include_str!("../scenarios/share-4-crash.json"),
    ),
    (
        "share-5-hang",
        "Share group: a consumer hangs for 35 s",
        "共享组：消费者卡住 35 秒",
        include_str!("../scenarios/share-5-hang.json"),
    ),
    (
        "share-6-poison",
        "Share group: a poison record reaches the delivery limit",
        "共享组：毒记录达到投递上限",
        include_str!("../scenarios/share-6-poison.json"),
    ),
    (
        "share-7-reject",
        "Share group: a rejected record is archived",
        "共享组：被拒绝的记录被归档",
        include_str!("../scenarios/share-7-reject.json"),
    ),
    (
        "share-8-in-flight-cap",
        "Share group: the in-flight cap",
        "共享组：在途记录上限",
        include_str!("../scenarios/share-8-in-flight-cap.json"),
    ),
    (
        "share-9-leader-failover",
        "Share group: the partition leader fails over",
        "共享组：分区 leader 故障转移",
        include_str!("../scenarios/share-9-leader-failover.json"),
    ),
    (
        "share-10-scale-in",
        "Share group: one consumer of three leaves",
        "共享组：三个消费者中的一个离开",
        include_str!("../scenarios/share-10-scale-in.json"),
    ),
    (
        "streams-1-first-instance",
        "Streams group: the first instance joins; internal topics are created; tasks wait 3 s",
        "流组：第一个实例加入，创建内部主题，任务等待 3 秒",
        include_str!("../scenarios/streams-1-first-instance.json"),
    ),
    (
        "streams-2-missing-source",
        "Streams group: a source topic is missing (NotReady until it is created)",
        "流组：源主题缺失（创建之前处于 NotReady）",
        include_str!("../scenarios/streams-2-missing-source.json"),
    ),
    (
        "streams-3-second-instance",
        "Streams group: a second instance joins and half the tasks move",
        "流组：第二个实例加入，一半任务迁移过去",
        include_str!("../scenarios/streams-3-second-instance.json"),
    ),
    (
        "streams-4-standbys",
        "Streams group: standby replicas turned on at run time",
        "流组：运行时开启备用副本",
        include_str!("../scenarios/streams-4-standbys.json"),
    ),
    (
        "streams-5-crash-with-standby",
        "Streams group: an instance crashes; its tasks move to the standbys",
        "流组：一个实例崩溃，它的任务迁移到备用副本",
        include_str!("../scenarios/streams-5-crash-with-standby.json"),
    ),
    (
        "streams-6-stuck-revocation",
        "Streams group: a member never finishes revoking; the rebalance timeout fences it",
        "流组：成员一直没有交出任务，再均衡超时把它隔离",
        include_str!("../scenarios/streams-6-stuck-revocation.json"),
    ),
    (
        "streams-7-static-bounce",
        "Streams group: a static member restarts and takes its tasks back",
        "流组：静态成员重启后取回自己的任务",
        include_str!("../scenarios/streams-7-static-bounce.json"),
    ),
    (
        "streams-8-shutdown",
        "Streams group: one thread asks to shut the whole application down",
        "流组：一个线程请求关闭整个应用",
        include_str!("../scenarios/streams-8-shutdown.json"),
    ),
    (
        "streams-9-topology-change",
        "Streams group: a redeploy with a changed topology is refused; an older one is stale",
        "流组：拓扑变化的重新部署被拒绝，更旧的拓扑已过时",
        include_str!("../scenarios/streams-9-topology-change.json"),
    ),
    (
        "streams-10-classic-vs-streams",
        "Kafka Streams both ways: a second instance joins under classic rebalancing and under a streams group",
        "Kafka Streams 两种方式：第二个实例分别在经典再平衡和流组下加入",
        include_str!("../scenarios/streams-10-classic-vs-streams.json"),
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
    (
        "compare-share-crash",
        "Consumer group vs share group: a crash (3 consumers, 2 partitions)",
        "消费者组与共享组：一次崩溃（3 个消费者，2 个分区）",
        include_str!("../scenarios/compare-share-crash.json"),
    ),
];

pub fn comparison(id: &str) -> Result<crate::compare::Comparison, String> {
    let (_, _, _, text) =
        COMPARISONS.iter().find(|e| e.0 == id).ok_or_else(|| format!("no comparison named '{id}'"))?;
    crate::compare::Comparison::from_json(text)
}
