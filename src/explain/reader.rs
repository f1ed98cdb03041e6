//! Reads files line by line (bounded memory: a line longer than `MAX_LINE` is cut, binary
//! input is refused after its first bytes), strips each line's layout, resolves its time,
//! and hands the message to the parsers. Events are kept; the lines are not.

use super::clock::{civil_ms, year_start, Stamp};
use super::event::{Ev, Event, Who};
use super::java_classic;
use super::java_streams;
use super::layout::{strip, Stripped};

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
    /// Lines that look like group coordination but no dialect read: how many, and the first few.
    pub unread_count: u64,
    pub unread: Vec<(u32, u64, String)>,
    /// (file, group) pairs already named by a line that changes nothing else.
    named: std::collections::BTreeSet<(u32, String)>,
}

/// How many unread lines the report quotes.
pub const UNREAD_KEPT: usize = 12;

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
            // kept once per file and group, so a group named only by such lines is still found
            match &ev.who.group {
                Some(g) if !self.named.contains(&(ev.file, g.clone())) => {
                    self.named.insert((ev.file, g.clone()));
                }
                _ => return,
            }
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
                    self.push(Event { ts, file, line, who: who.clone(), ev, quote: None });
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
            None if is_record_header(&s) => {}
            None => {
                st.unparsed += 1;
                if super::dialects::looks_like_coordination(&s.msg) {
                    self.unread_count += 1;
                    if self.unread.len() < UNREAD_KEPT {
                        let text: String = raw.trim().chars().take(300).collect();
                        self.unread.push((file, line_no, text));
                    }
                }
            }
            Some(evs) => {
                st.who = Who { broker: who.broker, is_broker: who.is_broker, ..who.clone() };
                if s.msg.contains("ConsumerConfig values:") {
                    st.block = Some(Block::Config { ts, line: line_no, who, evs: Vec::new() });
                } else if s.msg.contains("Updating assignment with") {
                    st.block = Some(Block::Assignment { ts, line: line_no, who, evs: Vec::new() });
                } else if evs.first().is_some_and(java_streams::opens_block) {
                    st.block = Some(Block::Assignment { ts, line: line_no, who, evs });
                } else if let Some(Ev::Reconciling { .. }) = evs.first() {
                    st.block = Some(Block::Assignment { ts, line: line_no, who, evs });
                } else {
                    for ev in evs {
                        let quote = ev.may_be_cause().then(|| raw.trim().chars().take(300).collect::<String>().into());
                        self.push(Event { ts, file, line: line_no, who: who.clone(), ev, quote });
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
        // log4j's `%m (%c)%n` after a multi-line message: the logger alone on the last line
        let t = msg.trim();
        if t.starts_with('(') && t.ends_with(')') && !t.contains(' ') {
            return true;
        }
        if let Some(Block::Assignment { evs, .. }) = self.files[f].block.as_mut() {
            if let Some(first) = evs.first_mut().filter(|e| java_streams::opens_block(e)) {
                return java_streams::continuation(first, msg);
            }
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

/// Reads a line with the dialects (`dialects::DIALECTS`).
fn parse_message(s: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
    super::dialects::parse(s, who)
}

/// A java.util.logging record's first line (`Jul 17, 2026 1:50:29 PM org.Foo method`): its
/// message is on the next line (`INFO: ...`), which takes its time.
fn is_record_header(s: &Stripped) -> bool {
    if s.stamp.is_none() {
        return false;
    }
    let mut toks = s.msg.split_whitespace();
    match (toks.next(), toks.next(), toks.next()) {
        (Some(class), Some(method), None) => {
            class.contains('.')
                && class.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '$' | '_'))
                && method.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '$' | '_' | '<' | '>'))
        }
        (None, _, _) => true, // a time alone (Kibana's display time above each record)
        _ => false,
    }
}
