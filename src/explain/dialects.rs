//! Every dialect of the explainer (`dialect::Dialect`), listed once, and what reads a line
//! with them: a line goes first to the dialects that claim it, then to every other one in the
//! list's order; nothing is skipped because it lacks a word a dialect expected.

use super::dialect::Dialect;
use super::event::{Ev, Who};
use super::layout::Stripped;
use super::pat::find;
use std::sync::OnceLock;

/// Every dialect, in the order that keeps their statements apart when none claims a line.
pub const DIALECTS: [&dyn Dialect; 10] = [
    &super::kafkajs::Kafkajs,
    &super::broker::Broker,
    &super::java_streams::JavaStreams,
    &super::connect::Connect,
    &super::rdkafka::Librdkafka,
    &super::python::PythonClients,
    &super::java_dialect::JavaConsumer,
    &super::franz_go::FranzGo,
    &super::sarama::Sarama,
    &super::kafka_node::KafkaNode,
];

/// Reads one line with the dialects: those that claim it first, then the others.
pub fn parse(line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
    for claimed in [true, false] {
        for d in DIALECTS {
            if d.claims(line) != claimed {
                continue;
            }
            let mut w = who.clone();
            if let Some(evs) = d.parse(line, &mut w) {
                *who = w;
                return Some(evs);
            }
        }
    }
    None
}

/// Words of group coordination in any client's or broker's lines: an unread line that has one
/// is listed under "What I could not read".
pub fn looks_like_coordination(msg: &str) -> bool {
    const WORDS: [&str; 16] = [
        "rebalanc",
        "generation",
        "heartbeat",
        "coordinator",
        "joingroup",
        "syncgroup",
        "leavegroup",
        "join group",
        "joining group",
        "joined group",
        "member id",
        "memberid",
        "member_id",
        "member epoch",
        "revok",
        "assigned partitions",
    ];
    let lower = msg.to_ascii_lowercase();
    WORDS.iter().any(|w| find(&lower, w).is_some()) || statement_texts().iter().any(|p| find(msg, p).is_some())
}

/// The fixed texts of every dialect's statements longer than 12 characters, split once.
fn statement_texts() -> &'static [&'static str] {
    static TEXTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        DIALECTS.iter().flat_map(|d| d.keywords().iter()).flat_map(|k| k.split("{}")).filter(|p| p.len() > 12).collect()
    })
}

/// The docs page listing every dialect (docs/explain-dialects.md is this text; a test keeps
/// them equal): name, the source files it reads, one example line, the statements it reads.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Explain logs: the dialects it reads\n\n\
         Generated from `src/explain/dialects.rs` (`explain --dialects` prints it; a test keeps this page\n\
         equal to it). Each dialect reads one client library's or the broker's own log statements,\n\
         wherever they sit in a line: any timestamp, level, thread, logger, JSON or logfmt field,\n\
         container prefix or Markdown decoration around them. A line is offered first to the\n\
         dialects that claim it (by its log context, logger or layout), then to all the others.\n",
    );
    for d in DIALECTS {
        out.push_str(&format!("\n## {}\n\nSources:\n\n", d.name()));
        for s in d.sources() {
            out.push_str(&format!("- `{s}`\n"));
        }
        out.push_str(&format!("\nExample:\n\n```text\n{}\n```\n\nStatements:\n\n", d.example()));
        for k in d.keywords() {
            let tick = if k.contains('`') { "``" } else { "`" };
            let pad = if k.contains('`') { " " } else { "" };
            out.push_str(&format!("- {tick}{pad}{k}{pad}{tick}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::layout::strip;

    /// Each dialect reads its own example line into at least one fact, and claims it.
    #[test]
    fn every_dialect_reads_its_example() {
        for d in DIALECTS {
            let s = strip(d.example());
            assert!(d.claims(&s), "{} claims its example {:?}", d.name(), s.msg);
            let mut who = Who::default();
            let evs = d.parse(&s, &mut who).unwrap_or_else(|| panic!("{} reads its example", d.name()));
            assert!(!evs.is_empty(), "{}", d.name());
            assert!(!d.sources().is_empty() && !d.keywords().is_empty(), "{}", d.name());
        }
    }
}
