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
    let mut evs = parse_text(msg, fields, who)?;
    // `generationId` on ConsumerGroup's lines (received unsubscribed topics, ...)
    if let Some(g) = fields.get("generationId").and_then(Value::as_i64).filter(|g| *g >= 0) {
        evs.insert(0, Ev::AtGeneration { generation: g });
    }
    Some(evs)
}

fn parse_text(msg: &str, fields: &Map<String, Value>, who: &mut Who) -> Option<Vec<Ev>> {
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

/// kafkajs, whose JSON lines carry `logger: "kafkajs"` (or its default text layout with the
/// same fields in a trailing JSON object).
pub struct Kafkajs;

impl super::dialect::Dialect for Kafkajs {
    fn name(&self) -> &'static str {
        "kafkajs"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "tulios/kafkajs src/consumer/consumerGroup.js",
            "tulios/kafkajs src/consumer/runner.js",
            "tulios/kafkajs src/consumer/index.js",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "[ConsumerGroup] Consumer has joined the group",
            "[Runner] The group is rebalancing, re-joining",
            "[Runner] The coordinator is not aware of this member, re-joining the group",
            "[ConsumerGroup] Consumer group received unsubscribed topics",
            "[Consumer] Starting",
            "[Consumer] Stopped",
            "[Consumer] Crash: {}",
        ]
    }
    fn example(&self) -> &'static str {
        r#"{"level":"ERROR","timestamp":"2018-12-03T04:48:00.286Z","logger":"kafkajs","message":"[Runner] The group is rebalancing, re-joining","groupId":"kafka-reader","memberId":"kafka-reader-0ef5","error":"The group is rebalancing, so a rejoin is needed","retryCount":0,"retryTime":259}"#
    }
    fn claims(&self, line: &super::layout::Stripped) -> bool {
        line.logger.as_deref() == Some("kafkajs")
            || line.fields.as_ref().is_some_and(|f| f.get("logger").and_then(Value::as_str) == Some("kafkajs"))
    }
    fn parse(&self, line: &super::layout::Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let fields = line.fields.as_ref()?;
        // kafkajs's own lines, or an application logging its events with the same fields
        if !self.claims(line) && !fields.contains_key("groupId") {
            return None;
        }
        who.is_broker = false;
        parse(&line.msg, fields, who)
    }
}
