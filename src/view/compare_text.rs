//! One plain sentence per metric on which the compared runs differ, saying
//! which did best and worst and why such a difference arises (in the page's
//! language), and "time to stable" said honestly when the group never left
//! Stable after the fault.

use crate::compare::metrics::Metrics;
use crate::i18n::{trf, Lang};

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

/// (value, key of the sentence): the metrics compared, lower is better.
fn measures(m: &Metrics) -> [(i64, &'static str); 5] {
    [
        (m.rebalances as i64, "compare.why.rebalances"),
        (m.unavailable_ms as i64, "compare.why.unavailable"),
        (m.longest_stop_the_world_ms as i64, "compare.why.stw"),
        (m.partitions_moved as i64, "compare.why.moved"),
        (m.records_redelivered, "compare.why.redelivered"),
    ]
}

/// For each metric whose values differ between `lanes` (name, metrics): one
/// sentence naming the best and the worst run and what makes the difference.
pub fn differences(lanes: &[(&str, &Metrics)], lang: Lang) -> Vec<String> {
    if lanes.len() < 2 {
        return Vec::new();
    }
    (0..5)
        .filter_map(|i| {
            let vals: Vec<(String, i64, &str)> = lanes
                .iter()
                .map(|(n, m)| {
                    let (v, key) = measures(m)[i];
                    (variant_name(n, lang), v, key)
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
}
