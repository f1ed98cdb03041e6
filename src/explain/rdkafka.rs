//! librdkafka (and the clients built on it: confluent-kafka-python/-go/-dotnet, node-rdkafka):
//! the `cgrp` debug contexts and warnings of `rdkafka_cgrp.c` — CGRPJOINSTATE, CGRPCOORD,
//! JOINGROUP, HEARTBEAT, REBALANCE (with the EAGER/COOPERATIVE tag of
//! `rd_kafka_rebalance_protocol2str`), ASSIGN, MAXPOLL, SESSTMOUT, MEMBERID, REJOIN.

use super::event::{error_name, Ev, Who};
use super::layout::Stripped;
use super::pat::{after, capture, num};

/// `Group "demo" ...`: the group the line names.
pub fn context(msg: &str, who: &mut Who) -> bool {
    match after(msg, "Group \"", &['"']).or_else(|| after(msg, "group \"", &['"'])) {
        Some(g) => {
            who.group = Some(g.to_string());
            true
        }
        None => false,
    }
}

/// One librdkafka line.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    // rd_kafka_cgrp_set_join_state
    if let Some(c) = capture("changed join state {} -> {}", msg) {
        let to = c[1].split(' ').next().unwrap_or("");
        return match to {
            "wait-join" => one(Ev::JoinStart),
            "steady" => one(Ev::Synced { generation: None, member: None, protocol: None }),
            _ => one(Ev::Info),
        };
    }
    // rd_kafka_cgrp_heartbeat: the generation this member is in
    if let Some(c) = capture("Heartbeat for group \"{}\" generation id {}", msg) {
        return match num(c[1]) {
            Some(g) if g >= 0 => one(Ev::AtGeneration { generation: g }),
            _ => one(Ev::Info),
        };
    }
    if msg.contains("\" changed state ") {
        return one(Ev::Info);
    }
    // rd_kafka_cgrp_coord_update, rd_kafka_cgrp_handle_FindCoordinator
    if let Some(c) = capture("changing coordinator {} -> {}", msg) {
        return Some(vec![
            Ev::CoordinatorLost { broker: num(c[0]).map(|n| n as i32) },
            Ev::CoordinatorFound { broker: num(c[1]).map(|n| n as i32) },
        ]);
    }
    if let Some(c) = capture("\" coordinator is {} id {}", msg) {
        return one(Ev::CoordinatorFound { broker: num(c[1]).map(|n| n as i32) });
    }
    // rd_kafka_cgrp_handle_JoinGroup
    // before 1.x: "..., my MemberId {}, {} members in group: {}"
    let join = capture(
        "JoinGroup response: GenerationId {}, Protocol {}, LeaderId {}, my MemberId {}, member metadata count {}: {}",
        msg,
    )
    .or_else(|| {
        capture(
            "JoinGroup response: GenerationId {}, Protocol {}, LeaderId {}, my MemberId {}, {} members in group: {}",
            msg,
        )
    });
    if let Some(c) = join.as_ref().filter(|c| num(c[0]).is_none_or(|g| g < 0)) {
        // a failed join (GenerationId -1): the member id it was given, if any
        return match c[3].trim() {
            "" => one(Ev::Info),
            m => one(Ev::MemberId { member: m.to_string() }),
        };
    }
    if let Some(c) = join {
        let leader = c[2].trim_end_matches(" (me)").to_string();
        return one(Ev::Joined {
            generation: num(c[0]),
            member: Some(c[3].to_string()),
            protocol: Some(c[1].to_string()),
            leader: Some(leader),
        });
    }
    if msg.contains("I am elected leader for group") {
        return one(Ev::LeaderElected);
    }
    // rd_kafka_cgrp_set_member_id
    if let Some(c) = capture(": updating member id \"{}\" -> \"{}\"", msg) {
        return match c[1] {
            "" | "(not-set)" => one(Ev::Info),
            m => one(Ev::MemberId { member: m.to_string() }),
        };
    }
    // rd_kafka_cgrp_handle_Heartbeat
    if let Some(c) = capture("heartbeat error response in state {} (join-state {}, {} partition(s) assigned): {}", msg)
    {
        return match error_name(c[3]) {
            Some(e) => one(Ev::GroupError { error: e.to_string() }),
            None => one(Ev::Info),
        };
    }
    if msg.starts_with("Heartbeat failed due to coordinator") {
        return one(Ev::CoordinatorLost { broker: None });
    }
    // rd_kafka_cgrp_revoke_all_rejoin_maybe / rd_kafka_cgrp_revoke_all_rejoin
    if let Some(c) = capture("\" {} ({}) in state {} (join-state {}) with {} assigned partition(s){}: {}", msg) {
        if c[0] == "initiating rebalance" || c[0] == "is rebalancing" {
            return one(Ev::RejoinRequested { reason: format!("{} ({})", c[6].trim(), c[1]) });
        }
    }
    // rd_kafka_cgrp_rejoin's reasons, older wordings
    if let Some(c) = capture("\": {}: rejoining group", msg) {
        return one(Ev::RejoinRequested { reason: c[0].trim().to_string() });
    }
    if capture("\" rejoining in join-state {} without an assignment", msg).is_some() {
        return one(Ev::RejoinRequested { reason: "rejoining without an assignment".into() });
    }
    if let Some(c) = capture("\" is rebalancing in state {} (join-state {}) without assignment: {}", msg) {
        return one(Ev::RejoinRequested { reason: c[2].trim().to_string() });
    }
    if let Some(c) = capture("\" (re)joining in join-state {} with {} assigned partition(s): {}", msg) {
        return one(Ev::RejoinRequested { reason: c[2].trim().to_string() });
    }
    if let Some(c) = capture("\": {} group{}: {}", msg) {
        if c[0] == "Rejoining" || c[0] == "Joining" {
            return one(Ev::RejoinRequested { reason: c[2].trim().to_string() });
        }
    }
    if let Some(c) = capture("\": revoking all {} partition(s){}", msg) {
        let lost = c[1].contains("assignment lost");
        let n = num(c[0]).unwrap_or(0);
        let placeholder = vec![format!("({n} partitions)")];
        return one(if lost { Ev::Lost { partitions: placeholder } } else { Ev::Revoked { partitions: placeholder } });
    }
    if msg.contains("rebalance (") && msg.contains("already in progress, skipping")
        || msg.contains(": skipping COOPERATIVE rebalance")
    {
        return one(Ev::Info);
    }
    // rd_kafka_cgrp_handle_assignment, rd_kafka_rebalance_op(_incr)
    if let Some(c) = capture("\": new assignment of {} partition(s) in join-state {}", msg) {
        let _ = c;
        return one(Ev::Info);
    }
    if let Some(c) = capture("\": delegating {} of {} partition(s) to application on queue {}: {}", msg) {
        let what = c[0].trim_start_matches("incremental ");
        let ps = vec![format!("({} partitions)", c[1])];
        return one(if what == "revoke" { Ev::Revoked { partitions: ps } } else { Ev::Assigned { partitions: ps } });
    }
    // rd_kafka_cgrp_max_poll_interval_check_tmr_cb
    if let Some(c) = capture("Application maximum poll interval ({}ms) exceeded by {}ms", msg) {
        return one(Ev::PollTimeout { interval_ms: num(c[0]) });
    }
    // rd_kafka_cgrp_session_timeout_check
    if let Some(c) =
        capture("Consumer group session timed out (in join-state {}) after {} ms without a successful response", msg)
    {
        return one(Ev::SessionExpired { after_ms: num(c[1]) });
    }
    // rd_kafka_cgrp_leave
    if msg.starts_with("Leaving group") || msg.ends_with(": Leaving group") || msg.contains("\": leave (in state ") {
        return one(Ev::Leaving { member: None, reason: "the consumer is leaving the group".into() });
    }
    if msg.starts_with("LeaveGroup response") {
        return one(Ev::Info);
    }
    if let Some(c) = capture("\": \"{}\" assignor run for {} member(s)", msg) {
        let _ = c;
        return one(Ev::LeaderElected);
    }
    None
}

fn is_rdkafka(s: &Stripped) -> bool {
    s.logger
        .as_deref()
        .is_some_and(|l| l.len() > 2 && l.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
}

/// librdkafka, directly or through its wrappers (confluent-kafka-python, -go, -dotnet,
/// node-rdkafka, rdkafka-ruby, php-rdkafka), whose lines keep librdkafka's text.
pub struct Librdkafka;

impl super::dialect::Dialect for Librdkafka {
    fn name(&self) -> &'static str {
        "librdkafka (C) and its wrappers: confluent-kafka-python, -go, -dotnet, node-rdkafka"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "confluentinc/librdkafka src/rdkafka_cgrp.c",
            "confluentinc/librdkafka src/rdkafka_assignment.c",
            "confluentinc/librdkafka src/rdkafka_broker.c",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "Group \"{}\" changed join state {} -> {}",
            "Heartbeat for group \"{}\" generation id {}",
            "JoinGroup response: GenerationId {}, Protocol {}, LeaderId {}, my MemberId {}, member metadata count {}: {}",
            "Group \"{}\" heartbeat error response in state {} (join-state {}, {} partition(s) assigned): {}",
            "Group \"{}\" is rebalancing ({}) in state {} (join-state {}) with {} assigned partition(s): {}",
            "Group \"{}\": delegating {} of {} partition(s) to application on queue {}: {}",
            "Application maximum poll interval ({}ms) exceeded by {}ms",
            "Consumer group session timed out (in join-state {}) after {} ms without a successful response",
            "Group \"{}\" changing coordinator {} -> {}",
            "Group \"{}\": {}: rejoining group",
        ]
    }
    fn example(&self) -> &'static str {
        "%7|1647975761.928|HEARTBEAT|rdkafka#consumer-1| [thrd:main]: GroupCoordinator/300: Heartbeat for group \"consumer_group_name\" generation id 8"
    }
    fn claims(&self, line: &Stripped) -> bool {
        is_rdkafka(line) || context(&line.msg, &mut Who::default())
    }
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let evs = parse(&line.msg)?;
        who.is_broker = false;
        who.offsets_partition = None;
        context(&line.msg, who);
        if let Some(n) = line.fields.as_ref().and_then(|f| f.get("rk_name")).and_then(|v| v.as_str()) {
            who.client_id = Some(n.to_string());
        }
        Some(evs)
    }
}
