//! A refused fault in plain words, in English or Chinese: the core's reason
//! (`sim::fault_check`, e.g. "consumer: there is no c99 in this run (clients are
//! c1 to c3)") without its JSON field, and for a file the fault's number.

use crate::i18n::Lang;

fn between<'a>(s: &'a str, pre: &str, post: &str) -> Option<&'a str> {
    s.strip_prefix(pre)?.strip_suffix(post)
}

/// The reason alone, translated (unknown reasons are kept as the core says them).
fn reason(r: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return r.to_string();
    }
    if let Some((c, range)) = r.strip_prefix("there is no ").and_then(|x| x.split_once(" in this run (")) {
        let range = range.trim_end_matches(')');
        let range = match between(range, "clients are ", "") {
            Some(x) => format!("客户端为 {}", x.replace(" to ", " 到 ")),
            None if range == "it has no clients" => "它没有客户端".to_string(),
            None => range.to_string(),
        };
        return format!("这次运行中没有 {c}（{range}）");
    }
    if let Some((b, range)) = r.strip_prefix("there is no broker-").and_then(|x| x.split_once(" (brokers are ")) {
        return format!("没有 broker-{b}（broker 为 {}）", range.trim_end_matches(')').replace(" to ", " 到 "));
    }
    for (pre, zh) in [
        ("there is no consumer group ", "这次运行中没有消费者组 "),
        ("there is no topic ", "这次运行中没有主题 "),
        ("there is no Connect cluster ", "这次运行中没有 Connect 集群 "),
    ] {
        if let Some(x) = r.strip_prefix(pre) {
            let (name, hint) = x.split_once(" in this run").unwrap_or((x, ""));
            return format!("{zh}{name}{hint}");
        }
    }
    if let Some((a, b)) =
        between(r, "there is no link between ", ": clients talk only to brokers").and_then(|x| x.split_once(" and "))
    {
        return format!("{a} 和 {b} 之间没有连接：客户端只与 broker 通信");
    }
    if let Some((a, b)) =
        between(r, "a link joins two different nodes (", " are the same)").and_then(|x| x.split_once(" and "))
    {
        return format!("一条连接要连着两个不同的节点（{a} 和 {b} 是同一个）");
    }
    if let Some(x) = between(r, "", " is not a node (write c<n> or broker-<n>)") {
        return format!("{x} 不是节点（请写 c<n> 或 broker-<n>）");
    }
    if let Some(c) = between(r, "", " is a Connect worker, not a consumer") {
        return format!("{c} 是 Connect worker，不是消费者");
    }
    r.to_string()
}

/// Splits "script[2].consumer: reason" into (Some(2), "reason"); "a: reason" into (None, "reason").
fn split(err: &str) -> (Option<usize>, &str) {
    let Some((path, rest)) = err.split_once(": ") else { return (None, err) };
    if path.contains(' ') {
        return (None, err);
    }
    let index = ["script[", "faults[", "scenario.faults["]
        .iter()
        .find_map(|p| path.strip_prefix(p))
        .and_then(|x| x.split(']').next())
        .and_then(|n| n.parse().ok());
    (index, rest)
}

/// The fault menu's message for a fault the run cannot take: nothing happened.
pub fn refused(err: &str, lang: Lang) -> String {
    // Side by side checks every pane: "variant 'classic eager': consumer: ...".
    let err = err.split_once("': ").filter(|(p, _)| p.starts_with("variant '")).map_or(err, |(_, r)| r);
    let (_, r) = split(err);
    match lang {
        Lang::En => format!("Not injected, nothing happened: {}.", reason(r, lang)),
        Lang::Zh => format!("没有注入，什么也没有发生：{}。", reason(r, lang)),
    }
}

/// An imported file's error: a fault naming what the run lacks says which fault
/// of the file, in plain words; other errors are kept.
pub fn in_file(err: &str, lang: Lang) -> String {
    match split(err) {
        (Some(i), r) => match lang {
            Lang::En => format!("fault {} of the file cannot happen in this run: {}", i + 1, reason(r, lang)),
            Lang::Zh => format!("文件中的第 {} 个故障在这次运行中无法发生：{}", i + 1, reason(r, lang)),
        },
        (None, _) => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Fault, Scenario, World};

    fn why(f: Fault) -> String {
        World::new(Scenario::demo()).unwrap().check_fault(&f).unwrap_err()
    }

    #[test]
    fn missing_targets_in_both_languages() {
        let c99 = why(Fault::CrashConsumer { consumer: 99 });
        assert_eq!(
            refused(&c99, Lang::En),
            "Not injected, nothing happened: there is no c99 in this run (clients are c1 to c3)."
        );
        assert_eq!(refused(&c99, Lang::Zh), "没有注入，什么也没有发生：这次运行中没有 c99（客户端为 c1 到 c3）。");
        let b7 = why(Fault::KillBroker { broker: 7 });
        assert_eq!(
            refused(&b7, Lang::Zh),
            "没有注入，什么也没有发生：没有 broker-7（broker 为 broker-0 到 broker-2）。"
        );
        let link = why(Fault::CutLink { a: "c1".into(), b: "c2".into() });
        assert_eq!(
            refused(&link, Lang::En),
            "Not injected, nothing happened: there is no link between c1 and c2: clients talk only to brokers."
        );
        assert_eq!(
            refused(&link, Lang::Zh),
            "没有注入，什么也没有发生：c1 和 c2 之间没有连接：客户端只与 broker 通信。"
        );
        let topic = why(Fault::AddPartitions { topic: "nope".into(), count: 1 });
        assert_eq!(refused(&format!("variant 'classic eager (range)': {c99}"), Lang::En), refused(&c99, Lang::En));
        assert!(refused(&topic, Lang::Zh).contains("这次运行中没有主题 'nope'"), "{}", refused(&topic, Lang::Zh));
    }

    #[test]
    fn a_file_names_which_fault() {
        let e = "script[1].consumer: there is no c99 in this run (clients are c1 to c3)";
        assert_eq!(
            in_file(e, Lang::En),
            "fault 2 of the file cannot happen in this run: there is no c99 in this run (clients are c1 to c3)"
        );
        assert_eq!(
            in_file(e, Lang::Zh),
            "文件中的第 2 个故障在这次运行中无法发生：这次运行中没有 c99（客户端为 c1 到 c3）"
        );
        assert_eq!(in_file("at: not a number", Lang::Zh), "at: not a number");
    }
}
