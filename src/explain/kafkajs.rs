//! kafkajs's JSON logs (`src/loggers/console.js` writes `{"level", "timestamp", "logger":
//! "kafkajs", "message": "[Namespace] text", ...extra}`): the statements of
//! `src/consumer/consumerGroup.js` (`[ConsumerGroup]`), `runner.js` (`[Runner]`) and
//! `index.js` (`[Consumer]`).

use super::event::{Ev, Who};
use serde_json::{Map, Value};

fn field<'a>(f: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    f.get(k).and_then(Value::as_str)
}

/// One kafkajs line (its message and the JSON fields beside it).
pub fn parse(msg: &str, fields: &Map<String, Value>, who: &mut Who) -> Option<Vec<Ev>> {
    if let Some(g) = field(fields, "groupId") {
        who.group = Some(g.to_string());
    }
    let member = field(fields, "memberId").map(str::to_string);
    if let Some(m) = &member {
        who.client_id = Some(m.clone());
    }
    let one = |e: Ev| Some(vec![e]);
    let text = msg.split_once("] ").map(|(_, t)| t).unwrap_or(msg);
    match text {
        // ConsumerGroup.joinAndSync
        "Consumer has joined the group" => {
            let mut evs = Vec::new();
            let mut owned = Vec::new();
            if let Some(Value::Object(a)) = fields.get("memberAssignment") {
                for (topic, ps) in a {
                    for p in ps.as_array().into_iter().flatten() {
                        if let Some(p) = p.as_i64() {
                            owned.push(format!("{topic}-{p}"));
                        }
                    }
                }
            }
            evs.push(Ev::Owned { partitions: owned });
            evs.push(Ev::Synced { generation: None, member, protocol: None });
            Some(evs)
        }
        // Runner.start / scheduleFetchManager
        "The group is rebalancing, re-joining" => one(Ev::GroupError { error: "REBALANCE_IN_PROGRESS".into() }),
        "The coordinator is not aware of this member, re-joining the group" => {
            one(Ev::GroupError { error: "UNKNOWN_MEMBER_ID".into() })
        }
        "Starting" if msg.starts_with("[Consumer]") => one(Ev::JoinStart),
        "Stopped" if msg.starts_with("[Consumer]") => {
            one(Ev::Leaving { member, reason: "the consumer stopped".into() })
        }
        "Consumer group received unsubscribed topics"
        | "Consumer is not aware of all assigned partitions, refreshing metadata" => {
            one(Ev::RejoinRequested { reason: "metadata/subscription changed".into() })
        }
        _ if text.starts_with("Crash: ") => one(Ev::Leaving { member, reason: text.to_string() }),
        _ if text.starts_with("Restarting the consumer in") || text.starts_with("consumer not running") => {
            one(Ev::Info)
        }
        _ if text.starts_with("Pausing fetching from") || text.starts_with("Resuming fetching from") => one(Ev::Info),
        _ => None,
    }
}
