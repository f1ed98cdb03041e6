//! The config linter: settings Kafka rejects (errors, from `Scenario::validate`)
//! and settings Kafka accepts that cause trouble (warnings), each naming the
//! config and the consequence, in English and Chinese.

use crate::sim::Scenario;
use crate::small_sort::StableSort;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The scenario cannot run (Kafka refuses it, or the simulator cannot show it).
    Error,
    /// Kafka accepts it, but the group will misbehave.
    Warning,
    /// Worth knowing (e.g. which rebalance protocol the assignor list selects).
    Info,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    pub level: Level,
    /// The config it concerns, as Kafka names it (prefixed with the group).
    pub field: String,
    pub en: String,
    pub zh: String,
}

fn lint(level: Level, field: String, en: String, zh: String) -> Lint {
    Lint { level, field, en, zh }
}

/// Everything worth saying about `s`, errors first.
pub fn check(s: &Scenario) -> Vec<Lint> {
    let mut out = Vec::new();
    if let Err(e) = s.validate() {
        // The message starts with the field's path (groups[0].config.session.timeout.ms: ...).
        let field = e.split_once(": ").map(|(p, _)| p).filter(|p| !p.contains(' ')).unwrap_or("scenario");
        out.push(lint(Level::Error, field.to_string(), e.clone(), format!("场景无法运行：{e}")));
    }
    let b = &s.broker;
    for g in &s.groups {
        let c = &g.config;
        let id = &g.group_id;
        let f = |name: &str| format!("{id}: {name}");
        if c.session_timeout_ms < b.min_session_timeout_ms || c.session_timeout_ms > b.max_session_timeout_ms {
            out.push(lint(
                Level::Warning,
                f("session.timeout.ms"),
                format!(
                    "session.timeout.ms = {} is outside the broker's [group.min.session.timeout.ms, group.max.session.timeout.ms] = [{}, {}]: every JoinGroup is rejected with INVALID_SESSION_TIMEOUT and the consumers never join.",
                    c.session_timeout_ms, b.min_session_timeout_ms, b.max_session_timeout_ms
                ),
                format!(
                    "session.timeout.ms = {} 不在 broker 允许的 [group.min.session.timeout.ms, group.max.session.timeout.ms] = [{}, {}] 范围内：每个 JoinGroup 都会被 INVALID_SESSION_TIMEOUT 拒绝，消费者永远加入不了组。",
                    c.session_timeout_ms, b.min_session_timeout_ms, b.max_session_timeout_ms
                ),
            ));
        }
        if c.heartbeat_interval_ms < c.session_timeout_ms && c.heartbeat_interval_ms * 3 > c.session_timeout_ms {
            out.push(lint(
                Level::Warning,
                f("heartbeat.interval.ms"),
                format!(
                    "heartbeat.interval.ms = {} is more than a third of session.timeout.ms = {}: one or two late heartbeats are enough for the coordinator to expire the member. Kafka recommends no more than 1/3.",
                    c.heartbeat_interval_ms, c.session_timeout_ms
                ),
                format!(
                    "heartbeat.interval.ms = {} 超过了 session.timeout.ms = {} 的三分之一：只要迟到一两次心跳，协调者就会让这个成员过期。Kafka 建议不超过三分之一。",
                    c.heartbeat_interval_ms, c.session_timeout_ms
                ),
            ));
        }
        let batch_ms = u64::from(c.max_poll_records).saturating_mul(c.processing_ms_per_record);
        if batch_ms > c.max_poll_interval_ms {
            out.push(lint(
                Level::Warning,
                f("max.poll.interval.ms"),
                format!(
                    "A full poll of max.poll.records = {} at {} ms per record takes {} ms, longer than max.poll.interval.ms = {}: a busy consumer misses its poll deadline, leaves the group and triggers a rebalance.",
                    c.max_poll_records, c.processing_ms_per_record, batch_ms, c.max_poll_interval_ms
                ),
                format!(
                    "一次 poll 拿满 max.poll.records = {} 条、每条处理 {} 毫秒，共需 {} 毫秒，超过了 max.poll.interval.ms = {}：繁忙的消费者会错过 poll 截止时间，离开组并触发再均衡。",
                    c.max_poll_records, c.processing_ms_per_record, batch_ms, c.max_poll_interval_ms
                ),
            ));
        }
        let partitions: u32 = s.topics.iter().filter(|t| c.topics.contains(&t.name)).map(|t| t.partitions).sum();
        if g.consumers > partitions && partitions > 0 {
            out.push(lint(
                Level::Warning,
                f("consumers"),
                format!(
                    "{} consumers share {} partitions: {} of them will own nothing and sit idle.",
                    g.consumers,
                    partitions,
                    g.consumers - partitions
                ),
                format!(
                    "{} 个消费者分 {} 个分区：其中 {} 个分不到任何分区，只能空闲。",
                    g.consumers,
                    partitions,
                    g.consumers - partitions
                ),
            ));
        }
        for t in &c.topics {
            if !s.topics.iter().any(|x| &x.name == t) {
                out.push(lint(
                    Level::Warning,
                    f("topics"),
                    format!("The consumers subscribe to '{t}', which the scenario does not create: they get no partitions of it."),
                    format!("消费者订阅了场景中不存在的主题 '{t}'：它们不会从中分到任何分区。"),
                ));
            }
        }
        if c.assignors.iter().any(|a| a == crate::assign::unsafe_duplicate::NAME) {
            out.push(lint(
                Level::Warning,
                f("partition.assignment.strategy"),
                "unsafe-duplicate is not a Kafka assignor: it gives every member every partition, so two members own the same partition. It is here to show the invariant monitor at work.".into(),
                "unsafe-duplicate 不是 Kafka 的分配器：它把每个分区分给每个成员，于是两个成员会同时拥有同一个分区。它只是用来演示不变式监视器。".into(),
            ));
        }
        if let Some(first) = c.assignors.first() {
            let cooperative = c.assignors.iter().all(|a| a == "cooperative-sticky");
            let (en, zh) = if cooperative {
                (
                    "All assignors support COOPERATIVE: rebalances are incremental (two phases, members keep the partitions that do not move).".to_string(),
                    "所有分配器都支持 COOPERATIVE：再均衡是增量的（分两阶段，不需要移动的分区成员一直保留）。".to_string(),
                )
            } else {
                (
                    format!("partition.assignment.strategy starts with '{first}' and not every assignor supports COOPERATIVE, so the consumers run EAGER rebalancing: every rebalance revokes every partition (stop-the-world)."),
                    format!("partition.assignment.strategy 以 '{first}' 开头，而且并非所有分配器都支持 COOPERATIVE，所以消费者使用 EAGER 再均衡：每次再均衡都会撤销所有分区（全体暂停）。"),
                )
            };
            out.push(lint(Level::Info, f("partition.assignment.strategy"), en, zh));
        }
        if g.static_members && c.session_timeout_ms < 10_000 {
            out.push(lint(
                Level::Info,
                f("group.instance.id"),
                format!("Static members avoid a rebalance only if they restart within session.timeout.ms = {} ms; static groups usually set it much higher.", c.session_timeout_ms),
                format!("静态成员只有在 session.timeout.ms = {} 毫秒内重启才能避免再均衡；静态成员组通常会把它设得大得多。", c.session_timeout_ms),
            ));
        }
    }
    if b.initial_rebalance_delay_ms > 0 {
        out.push(lint(
            Level::Info,
            "group.initial.rebalance.delay.ms".into(),
            format!("The first rebalance of an empty group waits group.initial.rebalance.delay.ms = {} ms (extended while members keep arriving) so that members starting together join one generation.", b.initial_rebalance_delay_ms),
            format!("空组的第一次再均衡会等待 group.initial.rebalance.delay.ms = {} 毫秒（有新成员陆续到达时会延长），让同时启动的成员加入同一代。", b.initial_rebalance_delay_ms),
        ));
    }
    out.stable_sort_by_key(|l| l.level);
    out
}
