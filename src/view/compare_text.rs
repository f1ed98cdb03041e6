//! One plain sentence per metric on which the compared runs differ, saying
//! which did best and worst and why such a difference arises (in the page's
//! language), and "time to stable" said honestly when the group never left
//! Stable after the fault.

use crate::compare::metrics::Metrics;
use crate::i18n::{trf, Lang};
use crate::sim::scenario::config::GroupProtocol;
use crate::sim::scenario::GroupSpec;

/// `time to stable` as the page shows it: the time, "stayed stable" when the
/// fault did not unsettle the group (no rebalance, nothing unavailable), or "never".
pub fn time_to_stable(m: &Metrics, lang: Lang) -> String {
    match m.time_to_stable_ms {
        Some(0) if m.rebalances == 0 && m.unavailable_ms == 0 => trf(lang, "compare.stayed", &[]),
        Some(ms) => ms.to_string(),
        None if m.last_fault_ms.is_none() => "—".to_string(),
        None => trf(lang, "compare.never", &[]),
    }
}

/// `work resumed` as the page shows it: the time, "—" when no member
/// stopped, "not yet" while some of its work waits.
pub fn work_resumed(m: &Metrics, lang: Lang) -> String {
    match (m.work_resumed_ms, m.last_member_stop_ms) {
        (Some(ms), _) => ms.to_string(),
        (None, None) => "—".to_string(),
        (None, Some(_)) => trf(lang, "compare.notyet", &[]),
    }
}

/// A variant's name in `lang`: the words of the shipped comparisons
/// ("classic", "static members", "consumer protocol") in Chinese; Kafka's
/// names (assignors, `eager`, `cooperative-sticky`) as they are.
pub fn variant_name(name: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return name.to_string();
    }
    let mut s = name.to_string();
    for (en, zh) in [
        ("as in the logs", "按日志原样"),
        ("share group", "共享组"),
        ("consumer group", "消费者组"),
        ("static members", "静态成员"),
        ("consumer protocol", "consumer 协议"),
        ("classic ", "经典 "),
        (" (", "（"),
        ("(", "（"),
        (")", "）"),
    ] {
        s = s.replace(en, zh);
    }
    s
}

/// How a compared group runs, for the sentence that explains its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Classic protocol, an EAGER assignor (`ConsumerPartitionAssignor.RebalanceProtocol.EAGER`).
    Eager,
    /// Classic protocol, every assignor COOPERATIVE (`CooperativeStickyAssignor`).
    Cooperative,
    /// `group.protocol=consumer` (KIP-848).
    Consumer,
    /// Classic protocol with `group.instance.id` (KIP-345).
    Static,
    /// A share group (KIP-932, `shareGroups`).
    Share,
}

impl Kind {
    /// The kind of `spec`'s group. `ConsumerCoordinator` uses COOPERATIVE only
    /// when every assignor in partition.assignment.strategy supports it.
    pub fn of(spec: &GroupSpec) -> Kind {
        let c = &spec.config;
        if c.group_protocol == GroupProtocol::Consumer {
            Kind::Consumer
        } else if spec.static_members || c.group_instance_id.is_some() {
            Kind::Static
        } else if !c.assignors.is_empty() && c.assignors.iter().all(|a| a == "cooperative-sticky") {
            Kind::Cooperative
        } else {
            Kind::Eager
        }
    }

    /// The kind of `group` as `world`'s scenario defines it (eager if absent).
    pub fn in_world(world: &crate::sim::World, group: &str) -> Kind {
        if world.scenario.share_groups.iter().any(|g| g.group_id == group) {
            return Kind::Share;
        }
        world.scenario.groups.iter().find(|g| g.group_id == group).map_or(Kind::Eager, Kind::of)
    }
}

/// One sentence for a row of the metrics table: what that configuration's
/// rebalance count and stop-the-world mean (a KIP-848 group counts a
/// rebalance each time it leaves Stable, yet never stops the whole group).
pub fn row_note(name: &str, kind: Kind, m: &Metrics, lang: Lang) -> String {
    let key = match kind {
        Kind::Eager => "compare.row.eager",
        Kind::Cooperative => "compare.row.cooperative",
        Kind::Consumer => "compare.row.consumer",
        Kind::Static => "compare.row.static",
        Kind::Share => "compare.row.share",
    };
    trf(lang, key, &[&variant_name(name, lang), &m.rebalances, &m.longest_stop_the_world_ms])
}

/// (value, key of the sentence): the metrics compared, lower is better;
/// `None` where a run has no value to compare (no member stopped, or its
/// work not picked up yet).
fn measures(m: &Metrics) -> [(Option<i64>, &'static str); 7] {
    [
        (Some(m.rebalances as i64), "compare.why.rebalances"),
        (Some(m.unavailable_ms as i64), "compare.why.unavailable"),
        (Some(m.longest_stop_the_world_ms as i64), "compare.why.stw"),
        (Some(m.partitions_moved as i64), "compare.why.moved"),
        (Some(m.records_redelivered), "compare.why.redelivered"),
        (m.work_resumed_ms.map(|ms| ms as i64), "compare.why.resumed"),
        (Some(m.records_out_of_order), "compare.why.disorder"),
    ]
}

/// For each metric whose values differ between `lanes` (name, metrics): one
/// sentence naming the best and the worst run and what makes the difference.
pub fn differences(lanes: &[(&str, &Metrics)], lang: Lang) -> Vec<String> {
    if lanes.len() < 2 {
        return Vec::new();
    }
    (0..7)
        .filter_map(|i| {
            let vals: Vec<(String, i64, &str)> = lanes
                .iter()
                .filter_map(|(n, m)| {
                    let (v, key) = measures(m)[i];
                    Some((variant_name(n, lang), v?, key))
                })
                .collect();
            let best = vals.iter().min_by_key(|v| v.1)?;
            let worst = vals.iter().max_by_key(|v| v.1)?;
            (best.1 != worst.1).then(|| trf(lang, best.2, &[&worst.0, &worst.1, &best.0, &best.1]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sentence_per_differing_metric_and_an_honest_time_to_stable() {
        let a = Metrics {
            rebalances: 1,
            records_redelivered: 118,
            time_to_stable_ms: Some(4000),
            last_fault_ms: Some(15_000),
            ..Metrics::default()
        };
        let b = Metrics { rebalances: 1, records_redelivered: 58, ..Metrics::default() };
        let s = differences(&[("KIP-848", &a), ("eager", &b)], Lang::En);
        assert_eq!(s.len(), 1, "only the redelivered counts differ: {s:?}");
        assert!(
            s[0].contains("KIP-848") && s[0].contains("118") && s[0].contains("eager") && s[0].contains("58"),
            "{}",
            s[0]
        );
        assert!(!differences(&[("KIP-848", &a), ("eager", &b)], Lang::Zh)[0].is_empty());
        assert_eq!(time_to_stable(&a, Lang::En), "4000");
        assert_eq!(variant_name("static members (eager range)", Lang::Zh), "静态成员（eager range）");
        let calm = Metrics { time_to_stable_ms: Some(0), last_fault_ms: Some(15_000), ..Metrics::default() };
        assert_eq!(time_to_stable(&calm, Lang::En), "stayed stable");
        let never =
            Metrics { time_to_stable_ms: None, last_fault_ms: Some(15_000), rebalances: 2, ..Metrics::default() };
        assert_eq!(time_to_stable(&never, Lang::En), "never");
    }

    #[test]
    fn each_row_says_what_its_numbers_mean_and_a_kip_848_count_is_no_stop_the_world() {
        use crate::compare::this_run::{CONSUMER, COOPERATIVE, EAGER, STATIC};
        let scenario: crate::sim::Scenario = serde_json::from_str(
            r#"{"seed": 1, "brokers": 1, "topics": [{"name": "t", "partitions": 2}],
                "groups": [{"groupId": "g", "consumers": 2, "config": {"topics": ["t"]}}]}"#,
        )
        .unwrap();
        let c = crate::compare::this_run::comparison(&scenario, &[], 0).unwrap();
        let sbs = crate::compare::SideBySide::new(&c).unwrap();
        let kinds: Vec<(String, Kind)> =
            sbs.lanes.iter().map(|l| (l.name.clone(), Kind::in_world(&l.world, &sbs.group))).collect();
        assert_eq!(
            kinds,
            [
                (EAGER.to_string(), Kind::Eager),
                (COOPERATIVE.to_string(), Kind::Cooperative),
                (CONSUMER.to_string(), Kind::Consumer),
                (STATIC.to_string(), Kind::Static)
            ]
        );
        let m = Metrics { rebalances: 20, longest_stop_the_world_ms: 0, ..Metrics::default() };
        let en = row_note(CONSUMER, Kind::Consumer, &m, Lang::En);
        assert!(en.contains("20 rebalances") && en.contains("leaving") && en.contains("joining"), "{en}");
        assert!(en.contains("no member stops consuming the partitions it keeps") && en.contains("0 ms"), "{en}");
        let zh = row_note(CONSUMER, Kind::Consumer, &m, Lang::Zh);
        assert!(zh.contains("20 次") && zh.contains("没有成员停止消费"), "{zh}");
        let eager = Metrics { rebalances: 20, longest_stop_the_world_ms: 900, ..Metrics::default() };
        assert!(row_note(EAGER, Kind::Eager, &eager, Lang::En).contains("up to 900 ms"));
    }

    #[test]
    fn a_share_group_row_and_the_work_resumed_and_order_sentences() {
        let c = crate::examples::comparison("compare-share-crash").unwrap();
        let sbs = crate::compare::SideBySide::new(&c).unwrap();
        let kinds: Vec<Kind> = sbs.lanes.iter().map(|l| Kind::in_world(&l.world, &sbs.group)).collect();
        assert_eq!(kinds, [Kind::Consumer, Kind::Share]);
        let share = Metrics {
            last_member_stop_ms: Some(22_500),
            work_resumed_ms: Some(320),
            records_out_of_order: 175,
            ..Metrics::default()
        };
        let consumer = Metrics {
            last_member_stop_ms: Some(22_500),
            work_resumed_ms: Some(49_000),
            records_redelivered: 24,
            ..Metrics::default()
        };
        let s = differences(&[("consumer group (KIP-848)", &consumer), ("share group (KIP-932)", &share)], Lang::En);
        assert_eq!(s.len(), 3, "{s:?}");
        assert!(s[1].contains("49000 ms") && s[1].contains("320 ms") && s[1].contains("connection closes"), "{}", s[1]);
        assert!(s[2].contains("share group (KIP-932) processed 175 records after a higher offset"), "{}", s[2]);
        let zh = differences(&[("consumer group (KIP-848)", &consumer), ("share group (KIP-932)", &share)], Lang::Zh);
        assert!(zh[1].contains("共享组（KIP-932）") && zh[1].contains("消费者组（KIP-848）"), "{}", zh[1]);
        // A run whose stopped member's work still waits is left out, not counted as 0.
        let waiting = Metrics { last_member_stop_ms: Some(22_500), ..Metrics::default() };
        assert_eq!(differences(&[("a", &waiting), ("b", &share)], Lang::En).len(), 1, "only out of order differs");
        assert_eq!(work_resumed(&waiting, Lang::En), "not yet");
        assert_eq!(work_resumed(&waiting, Lang::Zh), "尚未恢复");
        assert_eq!(work_resumed(&Metrics::default(), Lang::En), "—");
        assert_eq!(work_resumed(&share, Lang::En), "320");
        let row = row_note("share group (KIP-932)", Kind::Share, &share, Lang::En);
        assert!(row.contains("0 rebalances") && row.contains("SimpleAssignor"), "{row}");
        assert!(row_note("share group (KIP-932)", Kind::Share, &share, Lang::Zh).contains("共享组"));
    }
}
