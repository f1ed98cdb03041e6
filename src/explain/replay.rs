//! A simulator scenario from what the logs show: the group's member processes (in the order
//! they appeared; later ones are added), its topics with the partition counts seen, the
//! timeouts and assignors as logged (Kafka's defaults otherwise), and the faults the causes
//! imply, at their times: a session timeout becomes a crash `session.timeout.ms` before the
//! coordinator removed the member (and a restart when it came back), a poll timeout slower
//! processing from `max.poll.interval.ms` before it, a LeaveGroup a `close()`, a later member
//! `addConsumer`, a coordinator move the death of the simulated coordinator.
//! Metadata changes are not replayed (the logs do not say what changed).

use super::model::{Cause, Group, GroupKind, Report};
use crate::compare::{Comparison, Variant};
use crate::sim::fault::Fault;
use crate::sim::scenario::config::{ConsumerConfig, GroupProtocol};
use crate::sim::scenario::{GroupSpec, Scenario, ScheduledFault, TopicSpec};

/// The earliest simulated time a replayed fault happens (the simulated group forms first).
pub const LEAD_MS: i64 = 8_000;

/// Kafka's class names and librdkafka's/kafkajs's names for the client assignors, as GroupScope names them.
pub fn assignor_name(s: &str) -> Option<&'static str> {
    let s = s.trim().trim_start_matches("class ").to_ascii_lowercase();
    let name = if s.contains("cooperativesticky") || s.contains("cooperative-sticky") {
        "cooperative-sticky"
    } else if s.contains("roundrobin") {
        "roundrobin"
    } else if s.contains("sticky") {
        "sticky"
    } else if s.contains("range") {
        "range"
    } else {
        return None;
    };
    Some(name)
}

fn cfg(g: &Group, key: &str) -> Option<u64> {
    g.config.get(key).and_then(|v| v.trim().parse().ok())
}

/// The scenario for the first group that rebalanced (or the first group).
pub fn scenario(report: &Report) -> Result<Scenario, String> {
    let g = report
        .groups
        .iter()
        .find(|g| !g.rebalances.is_empty())
        .or(report.groups.first())
        .ok_or("no consumer group in these logs to replay")?;
    scenario_for(g)
}

/// The scenario for one group.
pub fn scenario_for(g: &Group) -> Result<Scenario, String> {
    let mut config = ConsumerConfig::default();
    if let Some(v) = cfg(g, "session.timeout.ms") {
        config.session_timeout_ms = v;
    }
    if let Some(v) = cfg(g, "heartbeat.interval.ms") {
        config.heartbeat_interval_ms = v;
    }
    let poll = g.processes.iter().find_map(|p| p.poll_interval_ms).map(|v| v as u64);
    if let Some(v) = cfg(g, "max.poll.interval.ms").or(poll) {
        config.max_poll_interval_ms = v;
    }
    if let Some(v) = cfg(g, "max.poll.records") {
        config.max_poll_records = v as u32;
    }
    if config.heartbeat_interval_ms >= config.session_timeout_ms {
        config.heartbeat_interval_ms = (config.session_timeout_ms / 3).max(1);
    }
    let mut assignors: Vec<String> = Vec::new();
    if let Some(v) = g.config.get("partition.assignment.strategy") {
        assignors = v.trim_matches(['[', ']']).split(',').filter_map(assignor_name).map(str::to_string).collect();
    }
    if assignors.is_empty() {
        assignors = g
            .generations
            .iter()
            .rev()
            .find_map(|gen| gen.protocol.as_deref().and_then(assignor_name))
            .map(|a| vec![a.to_string()])
            .unwrap_or_default();
    }
    if g.kind == GroupKind::Consumer {
        config.group_protocol = GroupProtocol::Consumer;
        let remote =
            g.generations.iter().rev().find_map(|gen| gen.protocol.clone()).filter(|p| p == "uniform" || p == "range");
        config.group_remote_assignor = remote;
    } else if !assignors.is_empty() {
        assignors.dedup();
        config.assignors = assignors;
    }
    // topics as seen
    let mut topics: Vec<TopicSpec> = g
        .topics
        .iter()
        .filter(|(name, _)| !name.is_empty() && !name.starts_with("__"))
        .map(|(name, n)| TopicSpec { name: name.clone(), partitions: (*n).clamp(1, 1000), records_per_sec: 10 })
        .collect();
    // member processes, by first appearance (only those that were members)
    let mut procs: Vec<&super::model::Process> = g.processes.iter().filter(|p| !p.member_ids.is_empty()).collect();
    procs.sort_by_key(|p| (p.first_ms, p.name.clone()));
    if procs.is_empty() {
        return Err(format!("group {}: no members were seen, nothing to replay", g.group_id));
    }
    if topics.is_empty() {
        topics.push(TopicSpec { name: "topic".into(), partitions: procs.len() as u32, records_per_sec: 10 });
    }
    config.topics = topics.iter().map(|t| t.name.clone()).collect();
    let t0 = g.first_ms;
    // the processes present when the logs start form the group; the others are added
    let formation_end = g.rebalances.first().and_then(|r| r.end_ms).unwrap_or(t0) + 1_000;
    let initial = procs.iter().filter(|p| p.first_ms <= formation_end).count().max(1);
    let mut raw: Vec<(i64, Fault)> = Vec::new();
    for (i, p) in procs.iter().enumerate() {
        let c = i as u32 + 1;
        if i >= initial {
            raw.push((p.first_ms, Fault::AddConsumer { group: g.group_id.clone() }));
        }
        let session = config.session_timeout_ms as i64;
        let mut joins: Vec<i64> = p.joins.clone();
        joins.sort_unstable();
        let mut out_of_group_until_join = |from: i64, raw: &mut Vec<(i64, Fault)>, min_gap: i64| {
            if let Some(j) = joins.iter().copied().find(|j| *j > from) {
                raw.push((j.max(from + min_gap), Fault::RestartConsumer { consumer: c }));
                joins.retain(|x| *x != j);
            }
        };
        for (removed, _) in &p.session_timeouts {
            let crash = removed - session;
            raw.push((crash, Fault::CrashConsumer { consumer: c }));
            out_of_group_until_join(*removed, &mut raw, 1_000);
        }
        for (t, cause) in &p.leaves {
            match cause {
                Cause::PollTimeout => {
                    let per_record =
                        (2 * config.max_poll_interval_ms).div_ceil(u64::from(config.max_poll_records.max(1)));
                    raw.push((
                        t - config.max_poll_interval_ms as i64,
                        Fault::SlowProcessing { consumer: c, ms_per_record: per_record },
                    ));
                    raw.push((
                        t + 1,
                        Fault::SlowProcessing { consumer: c, ms_per_record: config.processing_ms_per_record },
                    ));
                }
                Cause::MemberLeft => {
                    raw.push((*t, Fault::CloseConsumer { consumer: c }));
                    out_of_group_until_join(*t, &mut raw, 500);
                }
                Cause::UnknownMember | Cause::Fenced if p.session_timeouts.is_empty() => {
                    raw.push((
                        t - session - 2_000,
                        Fault::PauseConsumer { consumer: c, duration_ms: (session + 2_000) as u64 },
                    ));
                }
                _ => {}
            }
        }
    }
    let mut s = Scenario {
        name: format!("replay of group {} from logs", g.group_id),
        seed: 1,
        brokers: 3,
        topics,
        groups: vec![GroupSpec {
            group_id: g.group_id.clone(),
            consumers: initial as u32,
            config,
            static_members: procs.iter().any(|p| p.instance_id.is_some()),
            start_stagger_ms: 300,
        }],
        ..Scenario::demo()
    };
    // a coordinator move: the simulated coordinator dies at the logged time
    if let Some(&(t, _)) = g.coordinators.get(1) {
        let world = crate::sim::world::World::new(s.clone())?;
        if let Some(b) = world.cluster.coordinator_for(&g.group_id) {
            raw.push((t, Fault::KillBroker { broker: b }));
        }
    }
    let min = raw.iter().map(|(t, _)| t - t0).min().unwrap_or(LEAD_MS);
    let shift = (LEAD_MS - min).max(0);
    let mut faults: Vec<ScheduledFault> =
        raw.into_iter().map(|(t, f)| ScheduledFault { at: (t - t0 + shift) as u64, fault: f }).collect();
    faults.sort_by_key(|f| f.at);
    s.faults = faults;
    s.validate()?;
    Ok(s)
}

/// The variant name of the replay as logged (the page translates it).
pub const AS_LOGGED: &str = "as in the logs";

/// The replay side by side with what-ifs (the same faults at the same times): the group as
/// logged, and the first two of cooperative-sticky, static membership (`group.instance.id`)
/// and the consumer protocol (KIP-848) that the logged group did not already use.
pub fn comparison_for(g: &Group) -> Result<Comparison, String> {
    let scenario = scenario_for(g)?;
    let spec = &scenario.groups[0];
    let classic = spec.config.group_protocol.is_classic();
    let cooperative = classic && spec.config.assignors.iter().any(|a| a == "cooperative-sticky");
    let mut what_if: Vec<Variant> = Vec::new();
    if !cooperative {
        let mut config = serde_json::json!({"partition.assignment.strategy": ["cooperative-sticky"]});
        if !classic {
            config["group.protocol"] = "classic".into();
        }
        what_if.push(Variant {
            name: "classic cooperative-sticky".into(),
            config: Some(config),
            group: None,
            broker: None,
            ..Variant::default()
        });
    }
    if !spec.static_members {
        what_if.push(Variant {
            name: "static members".into(),
            config: None,
            group: Some(serde_json::json!({"staticMembers": true})),
            broker: None,
            ..Variant::default()
        });
    }
    if classic {
        what_if.push(Variant {
            name: "consumer protocol (uniform)".into(),
            config: Some(serde_json::json!({"group.protocol": "consumer", "group.remote.assignor": "uniform"})),
            group: None,
            broker: None,
            ..Variant::default()
        });
    }
    what_if.truncate(crate::compare::MAX_VARIANTS - 1);
    let mut variants = vec![Variant { name: AS_LOGGED.into(), ..Variant::default() }];
    variants.extend(what_if);
    // run on a minute past the last replayed fault
    let until = scenario.faults.iter().map(|f| f.at).max().unwrap_or(0) + 60_000;
    let c = Comparison {
        name: scenario.name.clone(),
        group: Some(g.group_id.clone()),
        until: Some(until),
        scenario,
        variants,
    };
    c.validate()?;
    Ok(c)
}
