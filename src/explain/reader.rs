//! Reads files line by line (bounded memory: a line longer than `MAX_LINE` is cut, binary
//! input is refused after its first bytes), strips each line's layout, resolves its time,
//! and hands the message to the parsers. Events are kept; the lines are not.

use super::clock::{civil_ms, year_start, Stamp};
use super::event::{Ev, Event, Who};
use super::layout::{strip, Stripped};
use super::{broker, java_classic, java_consumer, kafkajs, python, rdkafka};

/// Longest line kept (the rest of it is skipped).
pub const MAX_LINE: usize = 64 * 1024;
/// Most events kept over all files; beyond, lines are still counted.
pub const MAX_EVENTS: usize = 400_000;

/// A multi-line statement being read.
#[derive(Debug)]
enum Block {
    /// `Updating assignment with` (ConsumerCoordinator) or `Reconciling assignment with` (AbstractMembershipManager).
    Assignment { ts: i64, line: u64, who: Who, evs: Vec<Ev> },
    /// `ConsumerConfig values:` (AbstractConfig.logAll).
    Config { ts: i64, line: u64, who: Who, evs: Vec<Ev> },
}

/// What one file has told so far.
#[derive(Debug, Default)]
pub struct FileState {
    pub name: String,
    pub lines: u64,
    pub unparsed: u64,
    pub binary: bool,
    who: Who,
    last_ts: Option<i64>,
    /// Start of the day of the last full timestamp (for time-of-day-only layouts).
    day_base: Option<i64>,
    last_tod: i64,
    block: Option<Block>,
    partial: Vec<u8>,
    skipping: bool,
}

/// The whole input: files and the events read from them.
#[derive(Debug, Default)]
pub struct Reader {
    pub files: Vec<FileState>,
    pub events: Vec<Event>,
    pub dropped_events: u64,
}

impl Reader {
    pub fn begin_file(&mut self, name: &str) -> u32 {
        self.files.push(FileState { name: name.to_string(), ..FileState::default() });
        (self.files.len() - 1) as u32
    }

    /// Feeds raw bytes of a file (any chunking); complete lines are read at once.
    pub fn feed_bytes(&mut self, file: u32, mut bytes: &[u8]) {
        let f = file as usize;
        if self.files[f].binary {
            return;
        }
        if self.files[f].lines == 0 && self.files[f].partial.is_empty() && looks_binary(bytes) {
            self.files[f].binary = true;
            return;
        }
        while let Some(i) = bytes.iter().position(|&b| b == b'\n') {
            let (head, rest) = bytes.split_at(i);
            bytes = &rest[1..];
            let st = &mut self.files[f];
            if st.skipping {
                st.skipping = false;
                continue;
            }
            if st.partial.is_empty() {
                let line = String::from_utf8_lossy(head).into_owned();
                self.feed_line(file, &line);
            } else {
                let room = MAX_LINE.saturating_sub(st.partial.len());
                st.partial.extend_from_slice(&head[..head.len().min(room)]);
                let line = String::from_utf8_lossy(&std::mem::take(&mut st.partial)).into_owned();
                self.feed_line(file, &line);
            }
        }
        let st = &mut self.files[f];
        if st.skipping {
            return;
        }
        let room = MAX_LINE.saturating_sub(st.partial.len());
        st.partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
        if st.partial.len() >= MAX_LINE {
            // an over-long line: keep its start, skip to its end
            let line = String::from_utf8_lossy(&std::mem::take(&mut st.partial)).into_owned();
            st.skipping = true;
            self.feed_line(file, &line);
        }
    }

    /// Ends a file: its last line without a newline, an open multi-line statement.
    pub fn end_file(&mut self, file: u32) {
        let f = file as usize;
        if !self.files[f].partial.is_empty() && !self.files[f].skipping {
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.files[f].partial)).into_owned();
            self.feed_line(file, &line);
        }
        self.files[f].skipping = false;
        self.flush_block(file);
    }

    fn push(&mut self, ev: Event) {
        if matches!(ev.ev, Ev::Info) {
            return;
        }
        if self.events.len() >= MAX_EVENTS {
            self.dropped_events += 1;
            return;
        }
        self.events.push(ev);
    }

    fn flush_block(&mut self, file: u32) {
        let Some(block) = self.files[file as usize].block.take() else { return };
        match block {
            Block::Assignment { ts, line, who, evs } | Block::Config { ts, line, who, evs } => {
                for ev in evs {
                    self.push(Event { ts, file, line, who: who.clone(), ev });
                }
            }
        }
    }

    /// Reads one line of a file.
    pub fn feed_line(&mut self, file: u32, raw: &str) {
        let f = file as usize;
        self.files[f].lines += 1;
        let line_no = self.files[f].lines;
        if raw.trim().is_empty() {
            return;
        }
        let mut s = strip(raw);
        // a continuation line of a multi-line statement
        if s.stamp.is_none() && self.continue_block(f, &s.msg) {
            return;
        }
        // a JSON line carries a multi-line statement in one message
        let rest = match s.msg.split_once('\n') {
            Some((first, rest)) => {
                let rest = rest.to_string();
                s.msg = first.to_string();
                Some(rest)
            }
            None => None,
        };
        self.flush_block(file);
        let ts = self.resolve_time(f, s.stamp);
        let mut who = self.files[f].who.clone();
        let evs = parse_message(&s, &mut who);
        let st = &mut self.files[f];
        match evs {
            None => st.unparsed += 1,
            Some(evs) => {
                st.who = Who { broker: who.broker, is_broker: who.is_broker, ..who.clone() };
                if s.msg.contains("ConsumerConfig values:") {
                    st.block = Some(Block::Config { ts, line: line_no, who, evs: Vec::new() });
                } else if s.msg.contains("Updating assignment with") {
                    st.block = Some(Block::Assignment { ts, line: line_no, who, evs: Vec::new() });
                } else if let Some(Ev::Reconciling { .. }) = evs.first() {
                    st.block = Some(Block::Assignment { ts, line: line_no, who, evs });
                } else {
                    for ev in evs {
                        self.push(Event { ts, file, line: line_no, who: who.clone(), ev });
                    }
                }
            }
        }
        for l in rest.iter().flat_map(|r| r.lines()) {
            self.continue_block(f, l);
        }
    }

    /// Adds a continuation line to the open multi-line statement; false if it is not one.
    fn continue_block(&mut self, f: usize, msg: &str) -> bool {
        if self.files[f].block.is_none() {
            return false;
        }
        if let Some(ev) = java_classic::continuation(msg) {
            match (self.files[f].block.as_mut(), ev) {
                (Some(Block::Assignment { evs, .. }), Ev::Owned { partitions }) => {
                    if let Some(Ev::Reconciling { assigned, .. }) = evs.first_mut() {
                        *assigned = partitions;
                    } else {
                        evs.push(Ev::Owned { partitions });
                    }
                }
                (Some(Block::Assignment { evs, .. }), Ev::Revoked { partitions }) => {
                    if let Some(Ev::Reconciling { revoked, .. }) = evs.first_mut() {
                        *revoked = partitions;
                    } else if !partitions.is_empty() {
                        evs.push(Ev::Revoked { partitions });
                    }
                }
                (Some(Block::Assignment { evs, .. }), Ev::MemberId { member: m }) => {
                    if let Some(Ev::Reconciling { member, .. }) = evs.first_mut() {
                        *member = Some(m);
                    }
                }
                (Some(Block::Config { evs, .. }), ev @ Ev::Config { .. }) => evs.push(ev),
                _ => {}
            }
            return true;
        }
        // a config line we do not read (a list value, a password placeholder)
        matches!(self.files[f].block, Some(Block::Config { .. }))
    }

    fn resolve_time(&mut self, f: usize, stamp: Option<Stamp>) -> i64 {
        let st = &mut self.files[f];
        let ts = match stamp {
            Some(Stamp::Full(t)) => {
                st.day_base = Some(t.div_euclid(86_400_000) * 86_400_000);
                st.last_tod = t.rem_euclid(86_400_000);
                t
            }
            Some(Stamp::TimeOfDay(tod)) => {
                let base = st.day_base.unwrap_or(civil_ms(1970, 1, 1, 0));
                // past midnight
                let base = if tod + 3_600_000 < st.last_tod { base + 86_400_000 } else { base };
                st.day_base = Some(base);
                st.last_tod = tod;
                base + tod
            }
            Some(Stamp::NoYear(ms)) => year_start(st.last_ts.unwrap_or(0)) + ms,
            None => st.last_ts.unwrap_or(0),
        };
        st.last_ts = Some(ts);
        ts
    }
}

/// NUL bytes, or mostly control characters, in the first bytes: not a log.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    if head.is_empty() {
        return false;
    }
    let bad =
        head.iter().filter(|&&b| b == 0 || (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x1b | 0x0c))).count();
    head.contains(&0) || bad * 10 > head.len()
}

/// Tries the parsers, in an order that keeps their statements apart.
fn parse_message(s: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
    let msg = s.msg.as_str();
    // most lines of a big log are about something else: skip them before trying every statement
    const WORDS: [&str; 22] = [
        "roup",
        "ember",
        "artition",
        "oordinator",
        "poll",
        "ebalanc",
        "eartbeat",
        "eneration",
        "ConsumerConfig",
        "eaving",
        "ssign",
        "epoch",
        "oin",
        "etadata",
        "Elected",
        "Resigned",
        "Starting",
        "Stopped",
        "Crash",
        "MAXPOLL",
        "session",
        "Consumer",
    ];
    if !WORDS.iter().any(|w| msg.contains(w)) {
        return None;
    }
    if let Some(fields) = &s.fields {
        let is_kafkajs =
            fields.get("logger").and_then(|v| v.as_str()) == Some("kafkajs") || s.logger.as_deref() == Some("kafkajs");
        if is_kafkajs {
            return kafkajs::parse(msg, fields, who);
        }
    }
    let mut line_who = Who { broker: who.broker, is_broker: who.is_broker, ..Who::default() };
    if broker::context(msg, &mut line_who) || looks_like_broker(msg) {
        if let Some(evs) = broker::parse(msg) {
            if let Some(p) = super::pat::after(msg, " partition=", &[']', ' ']).and_then(super::pat::num) {
                line_who.offsets_partition = Some(p);
            } else if let Some(p) = super::pat::after(msg, "(__consumer_offsets-", &[')']).and_then(super::pat::num) {
                line_who.offsets_partition = Some(p);
            }
            line_who.is_broker = true;
            *who = line_who;
            return Some(evs);
        }
    }
    let mut client_who = who.clone();
    client_who.is_broker = false;
    client_who.offsets_partition = None;
    if java_classic::context(msg, &mut client_who) {
        let evs = java_classic::parse(msg).or_else(|| java_consumer::parse(msg));
        if evs.is_some() {
            *who = client_who;
        }
        return evs;
    }
    if rdkafka::context(msg, &mut client_who) || is_rdkafka(s) {
        if let Some(n) = s.fields.as_ref().and_then(|f| f.get("rk_name")).and_then(|v| v.as_str()) {
            client_who.client_id = Some(n.to_string());
        }
        if let Some(evs) = rdkafka::parse(msg) {
            *who = client_who;
            return Some(evs);
        }
    }
    let mut py_who = who.clone();
    py_who.is_broker = false;
    python::context(msg, &mut py_who);
    if let Some(evs) = python::parse(msg) {
        *who = py_who;
        return Some(evs);
    }
    // Java lines whose layout dropped the log context
    let evs = java_classic::parse(msg).or_else(|| java_consumer::parse(msg));
    if evs.is_some() {
        who.is_broker = false;
    }
    evs
}

fn is_rdkafka(s: &Stripped) -> bool {
    s.logger
        .as_deref()
        .is_some_and(|l| l.len() > 2 && l.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
}

fn looks_like_broker(msg: &str) -> bool {
    msg.contains("[GroupId ")
        || msg.contains("Preparing to rebalance group")
        || msg.contains("Stabilized group")
        || msg.contains("has failed, removing it from the group")
        || msg.contains("of metadata from __consumer_offsets")
        || msg.contains("group coordinator for partition")
        || msg.contains("through explicit `LeaveGroup`")
        || msg.contains("Assignment received from leader")
}
