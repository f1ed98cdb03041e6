//! "Explain my rebalance" (issue 16): reads real Kafka client and broker logs, rebuilds what
//! each consumer group did (members, generations or epochs, rebalances with their causes and
//! paused time, the coordinator), diagnoses it in plain words and builds a simulator scenario
//! that replays it. Native and wasm alike; nothing leaves the machine.
//!
//! `Explainer` takes files in any chunking (`feed_bytes`) and keeps only the events it
//! recognised, so a 50 MB log is read in bounded memory; `finish` merges all files on their
//! timestamps and rebuilds the groups.

pub mod broker;
pub mod broker_streams;
pub mod causes;
pub mod clock;
pub mod connect;
pub mod diagnose;
pub mod dialect;
pub mod dialects;
pub mod event;
pub mod franz_go;
pub mod java_classic;
pub mod java_consumer;
pub mod java_dialect;
pub mod java_streams;
pub mod kafka_node;
pub mod kafkajs;
pub mod layout;
pub mod members;
pub mod model;
pub mod pat;
pub mod python;
pub mod rdkafka;
pub mod reader;
pub mod rebuild;
pub mod replay;
pub mod sarama;
pub mod spacetime;
pub mod spacetime_layout;
pub mod talk;
pub mod view;

use event::Event;
use model::{FileSummary, Report};
use std::collections::BTreeMap;

/// Reads several files (each fed in chunks) and explains them.
#[derive(Debug, Default)]
pub struct Explainer {
    reader: reader::Reader,
}

impl Explainer {
    pub fn new() -> Explainer {
        Explainer::default()
    }

    /// Starts a file; returns its index for `feed_bytes`.
    pub fn begin_file(&mut self, name: &str) -> u32 {
        self.reader.begin_file(name)
    }

    pub fn feed_bytes(&mut self, file: u32, bytes: &[u8]) {
        self.reader.feed_bytes(file, bytes);
    }

    pub fn end_file(&mut self, file: u32) {
        self.reader.end_file(file);
    }

    /// Lines read so far (for progress).
    pub fn lines_read(&self) -> u64 {
        self.reader.files.iter().map(|f| f.lines).sum()
    }

    /// Merges the files on their timestamps and rebuilds every group.
    pub fn finish(self) -> Report {
        let reader::Reader { files, mut events, dropped_events, unread_count, unread, .. } = self.reader;
        // stable: equal times keep file then line order
        events.sort_by_key(|e| (e.ts, e.file, e.line));
        let groups = split_by_group(&events);
        let mut out = Vec::new();
        for (id, evs) in groups {
            let mut b = rebuild::Rebuild::new(&id);
            for e in evs {
                b.feed(e);
            }
            let mut g = b.finish();
            // a group some line names is reported, even with nothing but its coordinator
            if g.rebalances.is_empty()
                && g.generations.is_empty()
                && g.members.is_empty()
                && g.coordinators.is_empty()
                && g.processes.is_empty()
                && g.streams.is_none()
            {
                continue;
            }
            diagnose::diagnose(&mut g);
            out.push(g);
        }
        Report {
            groups: out,
            lines_read: files.iter().map(|f| f.lines).sum(),
            lines_unparsed: files.iter().map(|f| f.unparsed).sum(),
            files: files
                .iter()
                .map(|f| FileSummary { name: f.name.clone(), lines: f.lines, unparsed: f.unparsed, binary: f.binary })
                .collect(),
            dropped_events,
            unread_count,
            unread: unread
                .into_iter()
                .map(|(f, line, text)| model::UnreadLine {
                    file: files.get(f as usize).map(|x| x.name.clone()).unwrap_or_default(),
                    line,
                    text,
                })
                .collect(),
        }
    }
}

/// Explains one text (a paste: one "file").
pub fn explain_text(text: &str) -> Report {
    explain_files(&[("pasted", text)])
}

/// Explains several named texts.
pub fn explain_files(files: &[(&str, &str)]) -> Report {
    let mut x = Explainer::new();
    for (name, text) in files {
        let f = x.begin_file(name);
        x.feed_bytes(f, text.as_bytes());
        x.end_file(f);
    }
    x.finish()
}

/// Which group each event is about: the group its line names; for a broker's loading lines,
/// the group whose lines came from the same `__consumer_offsets` partition; when only one
/// group appears, that one.
fn split_by_group(events: &[Event]) -> BTreeMap<String, Vec<&Event>> {
    let mut partition_group: BTreeMap<i64, String> = BTreeMap::new();
    let mut names: BTreeMap<String, ()> = BTreeMap::new();
    for e in events {
        let g = e.ev.group().map(str::to_string).or_else(|| e.who.group.clone());
        if let Some(g) = g {
            if let Some(p) = e.who.offsets_partition {
                if e.ev.group().is_some() {
                    partition_group.insert(p, g.clone());
                }
            }
            names.insert(g, ());
        }
    }
    let only = (names.len() == 1).then(|| names.keys().next().cloned()).flatten();
    let mut out: BTreeMap<String, Vec<&Event>> = BTreeMap::new();
    for e in events {
        let g =
            e.ev.group()
                .map(str::to_string)
                .or_else(|| e.who.group.clone())
                .or_else(|| e.who.offsets_partition.and_then(|p| partition_group.get(&p).cloned()))
                .or_else(|| loading_partition(&e.ev).and_then(|p| partition_group.get(&p).cloned()))
                .or_else(|| only.clone());
        if let Some(g) = g {
            out.entry(g).or_default().push(e);
        }
    }
    out
}

fn loading_partition(ev: &event::Ev) -> Option<i64> {
    match ev {
        event::Ev::Loading { partition, .. }
        | event::Ev::Loaded { partition, .. }
        | event::Ev::Resigned { partition } => *partition,
        _ => None,
    }
}
