//! Diagnoses in plain words, each naming the config to look at (English and Chinese).

use super::model::{Cause, Diagnosis, Group, GroupKind};

/// The configs a diagnosis of this kind asks to look at (the page lists them under it).
pub fn configs(kind: &str) -> &'static [&'static str] {
    match kind {
        "poll-timeout" => &["max.poll.interval.ms", "max.poll.records"],
        "session-timeout" => &["session.timeout.ms"],
        "rolling-restart" => &["group.instance.id", "partition.assignment.strategy", "group.protocol"],
        "fenced" => &["group.instance.id", "session.timeout.ms"],
        "unknown-member" => &["session.timeout.ms"],
        "metadata-change" => &["metadata.max.age.ms"],
        _ => &[],
    }
}

fn d(kind: &str, text: String, text_zh: String) -> Diagnosis {
    Diagnosis { kind: kind.to_string(), text, text_zh }
}

/// `3 minutes`, `45 s`.
fn span(ms: i64) -> (String, String) {
    if ms >= 120_000 {
        let m = (ms + 30_000) / 60_000;
        (format!("{m} minutes"), format!("{m} 分钟"))
    } else {
        let s = (ms + 500) / 1000;
        (format!("{s} s"), format!("{s} 秒"))
    }
}

fn config_or(g: &Group, key: &str, default: i64) -> (i64, bool) {
    match g.config.get(key).and_then(|v| v.trim().parse().ok()) {
        Some(v) => (v, true),
        None => (default, false),
    }
}

fn value_text(v: i64, logged: bool) -> (String, String) {
    if logged {
        (format!("{v}"), format!("{v}"))
    } else {
        (format!("{v}, the default"), format!("{v}，默认值"))
    }
}

fn times(n: usize) -> String {
    if n == 1 {
        "once".to_string()
    } else {
        format!("{n} times")
    }
}

/// Fills `g.diagnoses`.
pub fn diagnose(g: &mut Group) {
    let mut out = Vec::new();
    let consumer_protocol = g.kind == GroupKind::Consumer;
    // poll timeouts, per process
    let (poll_default, _) = config_or(g, "max.poll.interval.ms", 300_000);
    for p in &g.processes {
        let polls: Vec<i64> = p.leaves.iter().filter(|(_, c)| *c == Cause::PollTimeout).map(|(t, _)| *t).collect();
        let polls = dedup_close(polls, 1_000);
        if polls.is_empty() {
            continue;
        }
        let (interval, logged) = match p.poll_interval_ms {
            Some(v) => (v, true),
            None => config_or(g, "max.poll.interval.ms", poll_default),
        };
        let (mpr, mpr_logged) = config_or(g, "max.poll.records", 500);
        let (iv, iv_zh) = value_text(interval, logged);
        let (mv, mv_zh) = value_text(mpr, mpr_logged);
        let window = polls.last().unwrap_or(&0) - polls.first().unwrap_or(&0);
        let (w, w_zh) = span(window.max(60_000));
        let n = polls.len();
        let during = if n > 1 { format!(", {} in {w}", times(n)) } else { String::new() };
        let during_zh = if n > 1 { format!("，{w_zh}内 {n} 次") } else { String::new() };
        out.push(d(
            "poll-timeout",
            format!("{} left because processing exceeded max.poll.interval.ms ({iv}){during} — lower max.poll.records ({mv}) or speed up processing (or raise max.poll.interval.ms)", p.name),
            format!("{} 因处理时间超过 max.poll.interval.ms（{iv_zh}）而离开组{during_zh} —— 调低 max.poll.records（{mv_zh}）或加快处理（或调高 max.poll.interval.ms）", p.name),
        ));
    }
    // session timeouts, per process
    let (session, s_logged) = config_or(g, "session.timeout.ms", 45_000);
    for p in &g.processes {
        for (removed, _) in &p.session_timeouts {
            // Heartbeats are not logged at INFO: the coordinator waited session.timeout.ms.
            let (gs, gs_zh) = span(session);
            let (sv, sv_zh) = value_text(session, s_logged);
            let back = p.joins.iter().any(|j| j > removed);
            let (came, came_zh) = if back {
                (
                    " (it came back later, so it was paused or cut off rather than dead)",
                    "（它之后又回来了，说明是停顿或断网，而不是进程退出）",
                )
            } else {
                ("", "")
            };
            out.push(d(
                "session-timeout",
                format!("heartbeats from {} stopped for {gs}: a GC pause or a network cut longer than session.timeout.ms ({sv}), or the process died{came} — check GC logs and the network, or raise session.timeout.ms", p.name),
                format!("{} 的心跳停止了 {gs_zh}：GC 停顿或网络中断超过了 session.timeout.ms（{sv_zh}），或者进程已退出{came_zh} —— 检查 GC 日志和网络，或调高 session.timeout.ms", p.name),
            ));
        }
    }
    // a rolling restart of dynamic members
    let churn: Vec<usize> = g
        .rebalances
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.causes.iter().all(|c| matches!(c, Cause::MemberJoined | Cause::MemberLeft))
                && r.causes.contains(&Cause::MemberLeft)
        })
        .map(|(i, _)| i)
        .collect();
    let restarted = g
        .processes
        .iter()
        .filter(|p| !p.joins.is_empty() && p.leaves.iter().any(|(_, c)| *c == Cause::MemberLeft))
        .count();
    let dynamic = g.members.iter().all(|m| m.instance_id.is_none());
    if restarted >= 2 && dynamic && !consumer_protocol {
        // the rebalances from the first leave to the last rejoin
        let first = churn.first().map(|&i| g.rebalances[i].start_ms).unwrap_or(0);
        let last_join = g.processes.iter().flat_map(|p| p.joins.iter().copied()).max().unwrap_or(first);
        let n = g.rebalances.iter().filter(|r| r.start_ms >= first && r.start_ms <= last_join + 1_000).count();
        out.push(d(
            "rolling-restart",
            format!("a rolling restart of dynamic members ({restarted} restarted) caused {n} rebalances — group.instance.id (static membership), cooperative-sticky (partition.assignment.strategy) or the consumer protocol (group.protocol=consumer) avoid most of them"),
            format!("动态成员的滚动重启（{restarted} 个成员重启）引发了 {n} 次再均衡 —— group.instance.id（静态成员）、cooperative-sticky（partition.assignment.strategy）或新的消费者协议（group.protocol=consumer）可以避免其中大部分"),
        ));
    }
    // coordinator moves
    for w in g.coordinators.windows(2) {
        out.push(d(
            "coordinator-moved",
            format!("the coordinator moved from broker {} to broker {}", w[0].1, w[1].1),
            format!("组协调者从 broker {} 迁移到了 broker {}", w[0].1, w[1].1),
        ));
    }
    // fenced / unknown member
    let fenced: Vec<&str> = g
        .processes
        .iter()
        .filter(|p| p.leaves.iter().any(|(_, c)| *c == Cause::Fenced))
        .map(|p| p.name.as_str())
        .collect();
    if !fenced.is_empty() {
        let who = fenced.join(", ");
        let (en, zh) = if consumer_protocol {
            (
                format!("{who} was fenced: its member epoch fell behind the group's (a pause longer than session.timeout.ms, or revoking slower than max.poll.interval.ms)"),
                format!("{who} 被隔离（fenced）：它的成员纪元落后于组纪元（停顿超过 session.timeout.ms，或撤销分区慢于 max.poll.interval.ms）"),
            )
        } else {
            (
                format!("{who} was fenced (stale generation or a group.instance.id used by another process) — check that each group.instance.id is unique and the member is not paused past session.timeout.ms"),
                format!("{who} 被隔离（fenced）：代已过期，或它的 group.instance.id 被另一个进程使用 —— 检查每个 group.instance.id 是否唯一、成员是否停顿超过 session.timeout.ms"),
            )
        };
        out.push(d("fenced", en, zh));
    }
    let unknown: Vec<&str> = g
        .processes
        .iter()
        .filter(|p| p.leaves.iter().any(|(_, c)| *c == Cause::UnknownMember))
        .map(|p| p.name.as_str())
        .collect();
    if !unknown.is_empty() {
        let who = unknown.join(", ");
        out.push(d(
            "unknown-member",
            format!("the coordinator no longer knew {who} (UNKNOWN_MEMBER_ID): it had already been removed, usually after its session timed out — see session.timeout.ms and what paused it"),
            format!("组协调者已不认识 {who}（UNKNOWN_MEMBER_ID）：它已被移出组，通常是会话超时所致 —— 查看 session.timeout.ms 以及是什么让它停顿"),
        ));
    }
    let meta = g.rebalances.iter().filter(|r| r.causes.contains(&Cause::MetadataChange)).count();
    if meta > 0 {
        out.push(d(
            "metadata-change",
            format!("{meta} {} followed a metadata or subscription change (partitions added to a subscribed topic, a pattern matching a new topic, or members subscribing differently) — check the subscriptions and metadata.max.age.ms", if meta == 1 { "rebalance" } else { "rebalances" }),
            format!("{meta} 次再均衡由元数据或订阅变化引起（订阅的主题增加了分区、正则匹配到新主题，或成员订阅不一致）—— 检查订阅和 metadata.max.age.ms"),
        ));
    }
    // the summary
    if !g.rebalances.is_empty() {
        let n = g.rebalances.len();
        let longest = g.rebalances.iter().map(|r| r.paused_ms).max().unwrap_or(0);
        let (l, l_zh) = span(longest);
        let (w, w_zh) = span((g.last_ms - g.first_ms).max(0));
        out.push(d(
            "summary",
            format!(
                "{} rebalanced {n} {} in {w}; partitions waited up to {l} for an owner",
                g.group_id,
                if n == 1 { "time" } else { "times" }
            ),
            format!("{} 在 {w_zh} 内再均衡了 {n} 次；分区最长等待了 {l_zh} 才有新的所有者", g.group_id),
        ));
    }
    g.diagnoses = out;
}

fn dedup_close(mut v: Vec<i64>, within: i64) -> Vec<i64> {
    v.sort_unstable();
    let mut out: Vec<i64> = Vec::new();
    for t in v {
        if out.last().is_none_or(|l| t - l > within) {
            out.push(t);
        }
    }
    out
}
