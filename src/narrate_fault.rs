//! Faults in words: what a fault button does, as a verb ("Crash c3",
//! "Kill broker-1"), in English and Simplified Chinese; and the Chinese for the
//! sentence the core records when a fault is injected (`Fault::describe`,
//! "c3 crashed"), and the triggers of state transitions ("sent JoinGroup") in
//! either language.

use crate::i18n::Lang;
use crate::narrate_zh::translate_table;
use crate::sim::trigger::Trigger;
use crate::sim::Fault;

fn secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{:.1}", ms as f64 / 1000.0)
    }
}

/// The label of a button that injects `f`: what it will do, as a verb.
pub fn action(f: &Fault, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let pick = |en: String, cn: String| if zh { cn } else { en };
    match f {
        Fault::CrashConsumer { consumer: c } => pick(format!("Crash c{c}"), format!("让 c{c} 崩溃")),
        Fault::RestartConsumer { consumer: c } => pick(format!("Restart c{c}"), format!("重启 c{c}")),
        Fault::CloseConsumer { consumer: c } => pick(
            format!("Close c{c} (close(): commit, revoke, leave)"),
            format!("关闭 c{c}（close()：提交、撤销、离组）"),
        ),
        Fault::CloseConsumerWithOptions { consumer: c, operation } => pick(
            format!("Close c{c} with close(CloseOptions {operation:?})"),
            format!("用 close(CloseOptions {operation:?}) 关闭 c{c}"),
        ),
        Fault::RestartConsumerAs { consumer: c, static_member: true } => {
            pick(format!("Restart c{c} as a static member"), format!("以静态成员身份重启 c{c}"))
        }
        Fault::RestartConsumerAs { consumer: c, static_member: false } => {
            pick(format!("Restart c{c} as a dynamic member"), format!("以动态成员身份重启 c{c}"))
        }
        Fault::PauseConsumer { consumer: c, duration_ms } => {
            let s = secs(*duration_ms);
            pick(format!("Pause c{c} for {s} s (GC pause)"), format!("让 c{c} 停顿 {s} 秒（GC 停顿）"))
        }
        Fault::SlowProcessing { consumer: c, ms_per_record: ms } => {
            pick(format!("Make c{c} take {ms} ms per record"), format!("让 c{c} 每条消息处理 {ms} 毫秒"))
        }
        Fault::KillBroker { broker: b } => pick(format!("Kill broker-{b}"), format!("停掉 broker-{b}")),
        Fault::ShutdownBroker { broker: b } => pick(
            format!("Shut broker-{b} down (controlled shutdown)"),
            format!("让 broker-{b} 受控关闭（controlled shutdown）"),
        ),
        Fault::RestartBroker { broker: b } => pick(format!("Restart broker-{b}"), format!("重启 broker-{b}")),
        Fault::CutLink { a, b } => pick(format!("Cut the network {a} ↔ {b}"), format!("切断 {a} ↔ {b} 的网络")),
        Fault::HealLink { a, b } => pick(format!("Heal the network {a} ↔ {b}"), format!("恢复 {a} ↔ {b} 的网络")),
        Fault::AddConsumer { group } => {
            pick(format!("Add a consumer to {group}"), format!("给 {group} 添加一个消费者"))
        }
        Fault::DropNextMessage { from, to } => {
            pick(format!("Lose the next message {from} → {to}"), format!("丢掉下一条 {from} → {to} 的消息"))
        }
        Fault::HoldLink { from, to } => {
            pick(format!("Hold messages {from} → {to}"), format!("扣住 {from} → {to} 的消息"))
        }
        Fault::ReleaseLink { from, to } => {
            pick(format!("Release held messages {from} → {to}"), format!("放行扣住的 {from} → {to} 消息"))
        }
        Fault::SetLinkLatency { a, b, latency_ms: 0 } => {
            pick(format!("Remove the extra latency {a} ↔ {b}"), format!("去掉 {a} ↔ {b} 的额外延迟"))
        }
        Fault::SetLinkLatency { a, b, latency_ms: ms } => {
            pick(format!("Add {ms} ms latency {a} ↔ {b}"), format!("给 {a} ↔ {b} 增加 {ms} 毫秒延迟"))
        }
        Fault::SetLinkLoss { a, b, percent: 0 } => {
            pick(format!("Stop losing messages {a} ↔ {b}"), format!("停止 {a} ↔ {b} 的丢包"))
        }
        Fault::SetLinkLoss { a, b, percent } => {
            pick(format!("Lose {percent}% of messages {a} ↔ {b}"), format!("让 {a} ↔ {b} 丢失 {percent}% 的消息"))
        }
        Fault::AddPartitions { topic, count } => {
            pick(format!("Grow {topic} to {count} partitions"), format!("把 {topic} 扩到 {count} 个分区"))
        }
        Fault::ChangeSubscription { consumer: c, topics } => {
            let t = topics.join(", ");
            pick(format!("Subscribe c{c} to [{t}]"), format!("让 c{c} 改为订阅 [{t}]"))
        }
        Fault::FailTask { connector, task, .. } => {
            pick(format!("Fail task {connector}-{task}"), format!("让任务 {connector}-{task} 失败"))
        }
        Fault::RestartTask { connector, task, .. } => {
            pick(format!("Restart task {connector}-{task}"), format!("重启任务 {connector}-{task}"))
        }
        Fault::RestartConnector { connector, include_tasks, only_failed, .. } => match (include_tasks, only_failed) {
            (true, true) => pick(
                format!("Restart connector {connector} and its failed tasks"),
                format!("重启连接器 {connector} 及其失败的任务"),
            ),
            (true, false) => pick(
                format!("Restart connector {connector} and all its tasks"),
                format!("重启连接器 {connector} 及其全部任务"),
            ),
            _ => pick(format!("Restart connector {connector}"), format!("重启连接器 {connector}")),
        },
        Fault::AddWorker { group } => pick(format!("Add a worker to {group}"), format!("给 {group} 添加一个 worker")),
        Fault::CreateTopic { topic, partitions } => pick(
            format!("Create topic {topic} with {partitions} partitions"),
            format!("创建主题 {topic}（{partitions} 个分区）"),
        ),
        Fault::SetStandbyReplicas { group, replicas } => pick(
            format!("Set streams.num.standby.replicas={replicas} on {group}"),
            format!("把 {group} 的 streams.num.standby.replicas 设为 {replicas}"),
        ),
        Fault::AddInstance { group } => {
            pick(format!("Add a Kafka Streams instance to {group}"), format!("给 {group} 添加一个 Kafka Streams 实例"))
        }
        Fault::RequestShutdown { consumer: c } => {
            pick(format!("Make c{c} ask to shut the application down"), format!("让 c{c} 请求关闭整个应用"))
        }
    }
}

/// `text` in `lang` from a table of English templates and their Chinese
/// (kept as recorded when no row matches).
fn in_lang(table: &[(&str, &str)], text: &str, lang: Lang) -> String {
    match lang {
        Lang::En => text.to_string(),
        Lang::Zh => translate_table(table, text).unwrap_or_else(|| text.to_string()),
    }
}

/// `Fault::describe`'s sentences (what happened), in Chinese.
pub const DESCRIPTIONS: &[(&str, &str)] = &[
    ("{} crashed", "{0} 崩溃了"),
    ("{} restarted", "{0} 重启了"),
    ("{} closed (close(): commit, revoke, leave)", "{0} 已关闭（close()：提交、撤销、离组）"),
    ("{} restarted as a static member", "{0} 以静态成员身份重启了"),
    ("{} restarted as a dynamic member", "{0} 以动态成员身份重启了"),
    ("{} paused for {} ms (GC pause)", "{0} 停顿 {1} 毫秒（GC 停顿）"),
    ("{} now needs {} ms per record", "{0} 现在每条消息要处理 {1} 毫秒"),
    ("{} died", "{0} 宕机了"),
    ("{} closed with close(CloseOptions {})", "{0} 以 close(CloseOptions {1}) 关闭了"),
    ("{} shuts down (controlled shutdown)", "{0} 受控关闭（controlled shutdown）"),
    ("network cut between {} and {}", "{0} 与 {1} 之间的网络被切断"),
    ("network healed between {} and {}", "{0} 与 {1} 之间的网络恢复了"),
    ("a consumer was added to {}", "{0} 新增了一个消费者"),
    ("the next message {} → {} will be lost", "下一条 {0} → {1} 的消息将会丢失"),
    ("messages {} → {} are held", "{0} → {1} 的消息被扣住"),
    ("held messages {} → {} are released", "扣住的 {0} → {1} 消息被放行"),
    ("{} ms extra latency between {} and {}", "{1} 与 {2} 之间增加了 {0} 毫秒延迟"),
    ("{}% message loss between {} and {}", "{1} 与 {2} 之间丢失 {0}% 的消息"),
    ("{} grows to {} partitions", "{0} 扩到 {1} 个分区"),
    ("{} subscribes to [{}]", "{0} 改为订阅 [{1}]"),
    ("task {} of {} fails", "{1} 的任务 {0} 失败"),
    ("POST {} to {}", "向 {1} 发送 POST {0}"),
    ("a worker was added to {}", "{0} 新增了一个 worker"),
    ("topic {} created with {} partitions", "主题 {0} 已创建（{1} 个分区）"),
    ("streams.num.standby.replicas={} for group {}", "组 {1} 的 streams.num.standby.replicas={0}"),
    ("{} asks to shut the application down", "{0} 请求关闭整个应用"),
    ("a Kafka Streams instance was added to {}", "给 {0} 添加了一个 Kafka Streams 实例"),
];

/// Why a message was lost (`network::Fate::Lost`, the world's "is down"), in Chinese.
pub const DROP_REASONS: &[(&str, &str)] = &[
    ("network cut between {} and {}", "{0} 与 {1} 之间的网络被切断"),
    ("dropped on purpose on the link {} → {}", "在 {0} → {1} 的连线上被故意丢弃"),
    ("lost on the link {} → {} ({}% loss)", "在 {0} → {1} 的连线上丢失（丢包率 {2}%）"),
    ("{} is down", "{0} 已宕机"),
    ("the connection of {} before its restart is closed", "{0} 重启前的连接已关闭"),
];

/// The words inside a message's label (`Body::label`), in `lang`; Kafka's
/// API names, error codes and fields (`gen=`, `epoch=`) stay as they are.
pub fn message_label(label: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return label.to_string();
    }
    let mut s = label.to_string();
    for (en, zh) in [
        ("connection refused", "连接被拒绝"),
        (" (static leave)", "（静态成员离开）"),
        (" (leave)", "（离开）"),
        (" assignments", " 个分配"),
        (" members", " 个成员"),
        (" partitions)", " 个分区）"),
        (" leader, ", " leader，"),
        (" records", " 条记录"),
        (" record", " 条记录"),
        (" (leader broker-", "（leader 为 broker-"),
    ] {
        s = s.replace(en, zh);
    }
    let s = s.replace("OffsetCommit (", "OffsetCommit（");
    // `Fetch ← NOT_LEADER_OR_FOLLOWER orders-0（leader 为 broker-2)`: close the bracket in kind.
    if s.contains("（leader 为 broker-") && s.ends_with(')') {
        return format!("{}）", &s[..s.len() - 1]);
    }
    s
}

/// Why a message was lost, in `lang`.
pub fn drop_reason(text: &str, lang: Lang) -> String {
    in_lang(DROP_REASONS, text, lang)
}

/// A fault's recorded sentence in `lang` (kept as recorded when no row matches).
pub fn description(text: &str, lang: Lang) -> String {
    in_lang(DESCRIPTIONS, text, lang)
}

/// The coordinator's timers (`TimerKey::describe`), in Chinese; the clients'
/// timers are named by their configs (`heartbeat.interval.ms`).
pub const TIMERS: &[(&str, &str)] = &[
    ("session timeout of {}", "{0} 的会话超时"),
    ("join phase deadline of {}", "{0} 的加入阶段截止时间"),
    ("pending-sync deadline of {}", "{0} 的待同步截止时间"),
    ("load of __consumer_offsets-{}", "__consumer_offsets-{0} 的加载"),
    ("rebalance timeout of {}", "{0} 的再均衡超时"),
    ("streams session timeout of {}", "{0} 的流组会话超时"),
    ("streams rebalance timeout of {}", "{0} 的流组再均衡超时"),
    ("streams.initial.rebalance.delay.ms of {}", "{0} 的 streams.initial.rebalance.delay.ms"),
];

/// A timer's name in `lang`.
pub fn timer(text: &str, lang: Lang) -> String {
    in_lang(TIMERS, text, lang)
}

/// The trigger of a state transition in `lang`.
pub fn trigger(t: &Trigger, lang: Lang) -> String {
    match lang {
        Lang::En => t.to_string(),
        Lang::Zh => crate::narrate_zh::trigger(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One fault of every kind, with the values the inspector offers.
    pub(crate) fn every_fault() -> Vec<Fault> {
        let (a, b) = ("c1".to_string(), "broker-0".to_string());
        vec![
            Fault::CrashConsumer { consumer: 3 },
            Fault::RestartConsumer { consumer: 3 },
            Fault::CloseConsumer { consumer: 3 },
            Fault::RestartConsumerAs { consumer: 3, static_member: true },
            Fault::RestartConsumerAs { consumer: 3, static_member: false },
            Fault::PauseConsumer { consumer: 3, duration_ms: 10_000 },
            Fault::SlowProcessing { consumer: 3, ms_per_record: 1_000 },
            Fault::KillBroker { broker: 1 },
            Fault::RestartBroker { broker: 1 },
            Fault::CutLink { a: a.clone(), b: b.clone() },
            Fault::HealLink { a: a.clone(), b: b.clone() },
            Fault::AddConsumer { group: "demo".into() },
            Fault::DropNextMessage { from: a.clone(), to: b.clone() },
            Fault::HoldLink { from: a.clone(), to: b.clone() },
            Fault::ReleaseLink { from: a.clone(), to: b.clone() },
            Fault::SetLinkLatency { a: a.clone(), b: b.clone(), latency_ms: 2_000 },
            Fault::SetLinkLoss { a: a.clone(), b: b.clone(), percent: 30 },
            Fault::AddPartitions { topic: "orders".into(), count: 7 },
            Fault::CreateTopic { topic: "payments".into(), partitions: 4 },
            Fault::SetStandbyReplicas { group: "totals".into(), replicas: 1 },
            Fault::RequestShutdown { consumer: 2 },
            Fault::AddInstance { group: "totals".into() },
            Fault::ChangeSubscription { consumer: 3, topics: vec!["orders".into()] },
            Fault::FailTask { group: "connect".into(), connector: "sink".into(), task: 0 },
            Fault::RestartTask { group: "connect".into(), connector: "sink".into(), task: 0 },
            Fault::RestartConnector {
                group: "connect".into(),
                connector: "sink".into(),
                include_tasks: true,
                only_failed: true,
            },
            Fault::AddWorker { group: "connect".into() },
        ]
    }

    #[test]
    fn every_fault_button_is_a_verb_and_every_fault_sentence_has_chinese() {
        for f in every_fault() {
            let en = action(&f, Lang::En);
            let first = en.split(' ').next().unwrap();
            assert!(
                [
                    "Crash",
                    "Restart",
                    "Close",
                    "Pause",
                    "Make",
                    "Kill",
                    "Cut",
                    "Heal",
                    "Add",
                    "Lose",
                    "Hold",
                    "Release",
                    "Grow",
                    "Subscribe",
                    "Fail",
                    "Create",
                    "Set"
                ]
                .contains(&first),
                "{en}: starts with a verb"
            );
            assert!(!en.contains("crashed") && !en.contains("died"), "{en}: not the past tense");
            let zh = action(&f, Lang::Zh);
            assert!(zh.chars().any(|c| (c as u32) >= 0x4E00), "{zh}: Chinese");
            let said = f.describe();
            let cn = description(&said, Lang::Zh);
            assert_ne!(cn, said, "no Chinese for the fault sentence '{said}'");
            assert!(cn.chars().any(|c| (c as u32) >= 0x4E00), "{cn}");
        }
        assert_eq!(message_label("SyncGroup gen=2 +3 assignments", Lang::Zh), "SyncGroup gen=2 +3 个分配");
        assert_eq!(
            message_label("JoinGroup ← gen=2 leader, 3 members", Lang::Zh),
            "JoinGroup ← gen=2 leader，3 个成员"
        );
        assert_eq!(
            drop_reason("lost on the link c1 → broker-0 (30% loss)", Lang::Zh),
            "在 c1 → broker-0 的连线上丢失（丢包率 30%）"
        );
    }
}
