//! A `__consumer_offsets` partition's log, compacted as Kafka's log cleaner
//! compacts it (the topic has `cleanup.policy=compact`).
//!
//! Records keep the offset they were written at; compaction removes records
//! whose key has a later record (`Cleaner.cleanSegments`, `shouldRetainRecord`)
//! and tombstones older than `delete.retention.ms`, but never renumbers, so a
//! reader that remembers an offset (the invariant monitor) reads on from it.
//! The last segment is the active one and is never cleaned
//! (`LogCleanerManager.cleanableOffsets`); a log is cleaned when at least half
//! of its closed segments' records are dirty (not yet cleaned), Kafka's default
//! `min.cleanable.dirty.ratio` of 0.5 (`LogCleanerManager.grabFilthiestCompactedLog`).
//! Simplifications: a segment holds `SEGMENT` records instead of
//! `offsets.topic.segment.bytes` (100 MB), cleaning runs when a segment rolls
//! instead of on the cleaner thread's `log.cleaner.backoff.ms` (15 s) polls,
//! and a tombstone's retention counts from its own timestamp instead of from
//! the first cleaning that saw it (KIP-534's delete horizon).
//!
//! The records sit in shared chunks, one per segment, so that copying a log
//! (the player copies the world at every checkpoint) shares every closed
//! segment; appending after a copy copies at most the active one.

use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Records per segment.
pub const SEGMENT: usize = 1024;

/// Kafka's default `delete.retention.ms` (`TopicConfig.DELETE_RETENTION_MS_CONFIG`):
/// how long a tombstone survives compaction.
pub const DELETE_RETENTION_MS: Millis = 86_400_000;

/// What compaction needs to know of a record: its key, and whether it is a
/// tombstone (a key with a null value).
pub trait Keyed {
    type Key: Ord;
    fn key(&self) -> Self::Key;
    fn is_tombstone(&self) -> bool;
}

/// One record with the offset and timestamp it was appended at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry<T> {
    pub offset: i64,
    pub timestamp: Millis,
    pub record: T,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLog<T> {
    /// Segments, oldest first; the last is the active one.
    chunks: Vec<Arc<Vec<Entry<T>>>>,
    /// Records kept.
    len: usize,
    /// The log end offset: the offset the next record gets.
    end_offset: i64,
    /// Records at the start already cleaned (the clean section); the rest of
    /// the closed segments are dirty.
    clean: usize,
    /// Cleanings run so far.
    cleanings: u64,
}

impl<T> Default for RecordLog<T> {
    fn default() -> Self {
        RecordLog { chunks: Vec::new(), len: 0, end_offset: 0, clean: 0, cleanings: 0 }
    }
}

impl<T: Clone + Keyed> RecordLog<T> {
    /// Appends a record written at `timestamp`; rolling to a new segment
    /// cleans the closed ones when they are dirty enough, unless the broker
    /// runs without a cleaner (`log.cleaner.enable=false`).
    pub fn push(&mut self, timestamp: Millis, record: T, cleaner_enabled: bool) {
        if self.chunks.last().is_none_or(|c| c.len() >= SEGMENT) {
            if cleaner_enabled && !self.chunks.is_empty() {
                self.maybe_clean(timestamp);
            }
            self.chunks.push(Arc::new(Vec::with_capacity(SEGMENT)));
        }
        let last = self.chunks.last_mut().expect("a segment was just ensured");
        Arc::make_mut(last).push(Entry { offset: self.end_offset, timestamp, record });
        self.end_offset += 1;
        self.len += 1;
    }

    /// Cleans the closed segments if at least half of their records are dirty.
    fn maybe_clean(&mut self, now: Millis) {
        let closed = self.len;
        let dirty = closed - self.clean;
        if dirty > 0 && 2 * dirty >= closed {
            self.clean_closed(now);
        }
    }

    /// Rewrites every segment but the active one, keeping the latest record of
    /// each key and dropping tombstones past `delete.retention.ms`. Here every
    /// segment is closed: `push` cleans just before it opens a new one.
    fn clean_closed(&mut self, now: Millis) {
        // Newest first: the first record seen of a key is its latest.
        let mut seen: BTreeSet<T::Key> = BTreeSet::new();
        let mut survivors: Vec<Entry<T>> = Vec::new();
        for e in self.chunks.iter().rev().flat_map(|c| c.iter().rev()) {
            let newest = seen.insert(e.record.key());
            let expired = e.record.is_tombstone() && e.timestamp.saturating_add(DELETE_RETENTION_MS) <= now;
            if newest && !expired {
                survivors.push(e.clone());
            }
        }
        survivors.reverse();
        let len = survivors.len();
        self.chunks = segments(survivors);
        self.len = len;
        self.clean = len;
        self.cleanings += 1;
    }
}

impl<T> RecordLog<T> {
    /// Records kept (after compaction, fewer than the log end offset).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The offset the next record gets.
    pub fn end_offset(&self) -> i64 {
        self.end_offset
    }

    /// Cleanings run so far.
    pub fn cleanings(&self) -> u64 {
        self.cleanings
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.entries_from(0).map(|e| &e.record)
    }

    /// The records kept at offset `start` or later.
    pub fn iter_from(&self, start: i64) -> impl Iterator<Item = &T> {
        self.entries_from(start).map(|e| &e.record)
    }

    /// The entries kept at offset `start` or later, oldest first.
    pub fn entries_from(&self, start: i64) -> impl Iterator<Item = &Entry<T>> {
        // Offsets rise through the segments: find the first segment that ends
        // at or past `start`, then the first entry in it.
        let first = self.chunks.partition_point(|c| c.last().is_some_and(|e| e.offset < start));
        self.chunks[first..].iter().enumerate().flat_map(move |(i, c)| {
            let skip = if i == 0 { c.partition_point(|e| e.offset < start) } else { 0 };
            c[skip..].iter()
        })
    }
}

/// `records` cut into full segments of `SEGMENT`, the last one partly full.
fn segments<T>(records: Vec<Entry<T>>) -> Vec<Arc<Vec<Entry<T>>>> {
    let mut records = records.into_iter().peekable();
    let mut chunks = Vec::new();
    while records.peek().is_some() {
        chunks.push(Arc::new(records.by_ref().take(SEGMENT).collect()));
    }
    chunks
}

/// Written and read as the log end offset and the records kept, with their
/// offsets and timestamps.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored<T> {
    end_offset: i64,
    #[serde(default)]
    clean: usize,
    #[serde(default)]
    cleanings: u64,
    records: Vec<Entry<T>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StoredRef<'a, T> {
    end_offset: i64,
    clean: usize,
    cleanings: u64,
    records: Vec<&'a Entry<T>>,
}

impl<T: Serialize> Serialize for RecordLog<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StoredRef {
            end_offset: self.end_offset,
            clean: self.clean,
            cleanings: self.cleanings,
            records: self.entries_from(0).collect(),
        }
        .serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for RecordLog<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let s = Stored::<T>::deserialize(deserializer)?;
        let rising = s.records.windows(2).all(|w| w[0].offset < w[1].offset);
        if !rising || s.records.last().is_some_and(|e| e.offset >= s.end_offset) || s.clean > s.records.len() {
            return Err(D::Error::custom("a log's offsets must rise and stay below its end offset"));
        }
        let len = s.records.len();
        Ok(RecordLog {
            chunks: segments(s.records),
            len,
            end_offset: s.end_offset,
            clean: s.clean,
            cleanings: s.cleanings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of the tests: (key, value), `None` a tombstone.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    struct R(u32, Option<u32>);

    impl Keyed for R {
        type Key = u32;
        fn key(&self) -> u32 {
            self.0
        }
        fn is_tombstone(&self) -> bool {
            self.1.is_none()
        }
    }

    fn log_of(n: u32, keys: u32) -> RecordLog<R> {
        let mut log = RecordLog::default();
        for i in 0..n {
            log.push(i as Millis, R(i % keys, Some(i)), true);
        }
        log
    }

    #[test]
    fn without_repeated_keys_nothing_is_removed_and_a_copy_shares_closed_segments() {
        let mut log = log_of(2500, u32::MAX);
        assert_eq!((log.len(), log.end_offset(), log.cleanings()), (2500, 2500, 2));
        let copy = log.clone();
        assert!(Arc::ptr_eq(&log.chunks[0], &copy.chunks[0]) && Arc::ptr_eq(&log.chunks[1], &copy.chunks[1]));
        log.push(2500, R(2500, Some(2500)), true);
        assert_eq!((log.len(), copy.len()), (2501, 2500));
        assert!(Arc::ptr_eq(&log.chunks[0], &copy.chunks[0]), "closed segments stay shared");
        let values = |l: &RecordLog<R>, from: i64| l.iter_from(from).map(|r| r.1.unwrap()).collect::<Vec<_>>();
        assert_eq!(values(&log, 0), (0..2501).collect::<Vec<_>>());
        assert_eq!(values(&copy, 0), (0..2500).collect::<Vec<_>>());
        for start in [0, 1, 1023, 1024, 1025, 2047, 2048, 2500, 2501, 9999] {
            assert_eq!(values(&log, start), (start.min(2501) as u32..2501).collect::<Vec<_>>(), "from {start}");
        }
    }

    #[test]
    fn cleaning_keeps_the_latest_record_of_each_key_at_its_offset_and_never_touches_the_active_segment() {
        // Ten keys written round-robin: when the first segment rolls, it is all
        // dirty and is cleaned down to the last record of each key.
        let log = log_of(SEGMENT as u32 + 5, 10);
        assert_eq!(log.cleanings(), 1);
        let entries: Vec<_> = log.entries_from(0).map(|e| (e.offset, e.record.0)).collect();
        let first: Vec<_> = (SEGMENT as i64 - 10..SEGMENT as i64).map(|o| (o, (o % 10) as u32)).collect();
        let active: Vec<_> = (SEGMENT as i64..SEGMENT as i64 + 5).map(|o| (o, (o % 10) as u32)).collect();
        assert_eq!(entries, [first, active].concat());
        assert_eq!(log.end_offset(), SEGMENT as i64 + 5, "offsets are never renumbered");
        // A reader at an offset inside a removed stretch reads on from the next kept record.
        assert_eq!(log.entries_from(5).next().map(|e| e.offset), Some(SEGMENT as i64 - 10));
    }

    #[test]
    fn the_dirty_ratio_decides_when_to_clean_and_memory_stays_bounded() {
        // With ten keys the clean section stays at ten records, so every
        // segment roll finds its closed segment dirty enough to clean.
        let log = log_of(100 * SEGMENT as u32, 10);
        assert_eq!(log.cleanings(), 99);
        assert!(log.len() <= SEGMENT + 10, "{} records kept", log.len());
        // Unique keys: the log is never worth cleaning twice in a row (half the
        // closed records must be dirty), so it cleans at 1, 2, 4, 8 ... segments.
        let log = log_of(16 * SEGMENT as u32 + 1, u32::MAX);
        assert_eq!(log.cleanings(), 5);
        assert_eq!(log.len(), 16 * SEGMENT + 1);
    }

    #[test]
    fn tombstones_survive_cleaning_for_delete_retention_ms() {
        let mut log = RecordLog::default();
        log.push(0, R(1, Some(1)), true);
        log.push(0, R(1, None), true);
        log.push(0, R(2, None), true);
        let mut t = 1;
        while log.cleanings() == 0 {
            log.push(t, R(3, Some(t as u32)), true);
            t += 1;
        }
        let keys = |l: &RecordLog<R>| l.iter().map(|r| (r.0, r.1.is_none())).take(2).collect::<Vec<_>>();
        assert_eq!(keys(&log), vec![(1, true), (2, true)], "a fresh tombstone stays; the value it deletes goes");
        while log.cleanings() < 2 {
            log.push(DELETE_RETENTION_MS + t, R(3, Some(t as u32)), true);
            t += 1;
        }
        assert!(log.iter().all(|r| r.0 == 3), "after delete.retention.ms the tombstones are gone too");
    }

    #[test]
    fn json_round_trip_keeps_offsets_and_refuses_offsets_that_do_not_rise() {
        let log = log_of(3000, 7);
        let json = serde_json::to_string(&log).unwrap();
        let back: RecordLog<R> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.entries_from(0).collect::<Vec<_>>(), log.entries_from(0).collect::<Vec<_>>());
        assert_eq!((back.end_offset(), back.len(), back.cleanings()), (log.end_offset(), log.len(), log.cleanings()));
        let bad = r#"{"endOffset": 5, "records": [{"offset": 3, "timestamp": 0, "record": [1, 1]},
                                             {"offset": 2, "timestamp": 0, "record": [2, 2]}]}"#;
        assert!(serde_json::from_str::<RecordLog<R>>(bad).is_err());
    }
}
