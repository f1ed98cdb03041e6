//! franz-go (`kgo`): the group consumer's statements in `pkg/kgo/consumer_group.go`, logged
//! through its `Logger` as a message and key-value pairs, which users route to zap, zerolog,
//! slog or logrus, so they arrive as JSON lines or logfmt (`msg="joining group" group=g`).

use super::event::{error_name, Ev, Who};
use super::layout::Stripped;
use serde_json::{Map, Value};

fn field<'a>(f: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| f.get(*k).and_then(Value::as_str))
}

fn int(f: &Map<String, Value>, k: &str) -> Option<i64> {
    match f.get(k)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// One kgo statement with its key-value pairs.
pub fn parse(msg: &str, f: &Map<String, Value>) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    let member = field(f, &["member_id", "memberID"]).map(str::to_string);
    match msg.trim() {
        "joining group" => one(Ev::JoinStart),
        "join returned MemberIDRequired, rejoining with response's MemberID" => match member {
            Some(m) => one(Ev::MemberId { member: m }),
            None => one(Ev::Info),
        },
        "joined, balancing group" | "joined" => {
            let leader = field(f, &["leader"]) == Some("true") || f.get("leader") == Some(&Value::Bool(true));
            one(Ev::Joined {
                generation: int(f, "generation"),
                member: member.clone(),
                protocol: field(f, &["balance_protocol"]).map(str::to_string),
                leader: if leader { member } else { None },
            })
        }
        "synced" | "new group session begun" => one(Ev::Synced { generation: None, member, protocol: None }),
        m if m.starts_with("heartbeat errored") => {
            let err = field(f, &["err", "error"]).unwrap_or("");
            match error_name(err) {
                Some(e) => one(Ev::GroupError { error: e.to_string() }),
                None => one(Ev::Info),
            }
        }
        "leaving group" => one(Ev::Leaving { member, reason: "the client is leaving the group".into() }),
        "beginning to manage the group lifecycle"
        | "beginning heartbeat loop"
        | "beginning autocommit loop"
        | "assigning partitions"
        | "syncing"
        | "entering OnPartitionsAssigned"
        | "entering OnPartitionsRevoked"
        | "entering OnPartitionsLost"
        | "cooperative consumer calling onRevoke at the end of a session even though no partitions were lost" => {
            one(Ev::Info)
        }
        _ => None,
    }
}

/// franz-go's group consumer.
pub struct FranzGo;

impl super::dialect::Dialect for FranzGo {
    fn name(&self) -> &'static str {
        "franz-go (kgo)"
    }
    fn sources(&self) -> &'static [&'static str] {
        &["twmb/franz-go pkg/kgo/consumer_group.go"]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "beginning to manage the group lifecycle",
            "joining group",
            "join returned MemberIDRequired, rejoining with response's MemberID",
            "joined, balancing group",
            "joined",
            "syncing",
            "synced",
            "new group session begun",
            "heartbeat errored",
            "leaving group",
            "cooperative consumer calling onRevoke at the end of a session even though no partitions were lost",
        ]
    }
    fn example(&self) -> &'static str {
        r#"time=2025-04-24T14:23:02.960+03:00 level=INFO msg="joined, balancing group" group=go-group3 member_id=kgo-eb4c instance_id=<nil> generation=6 balance_protocol=cooperative-sticky leader=true"#
    }
    fn claims(&self, line: &Stripped) -> bool {
        line.fields.as_ref().is_some_and(|f| f.contains_key("group") || f.contains_key("member_id"))
    }
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let f = line.fields.as_ref()?;
        let evs = parse(&line.msg, f)?;
        who.is_broker = false;
        if let Some(g) = field(f, &["group"]) {
            who.group = Some(g.to_string());
        }
        if let Some(m) = field(f, &["member_id", "memberID"]) {
            who.client_id.get_or_insert_with(|| m.to_string());
        }
        Some(evs)
    }
}
