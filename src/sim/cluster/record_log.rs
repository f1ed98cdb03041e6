//! A `__consumer_offsets` partition's log: append-only, kept in shared chunks
//! so that copying it (the player copies the world at every checkpoint, every
//! two simulated seconds) shares every full chunk instead of copying tens of
//! thousands of records. Appending after a copy copies at most the last chunk.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

const CHUNK: usize = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLog<T> {
    chunks: Vec<Arc<Vec<T>>>,
    len: usize,
}

impl<T> Default for RecordLog<T> {
    fn default() -> Self {
        RecordLog { chunks: Vec::new(), len: 0 }
    }
}

impl<T: Clone> RecordLog<T> {
    pub fn push(&mut self, record: T) {
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Arc::new(Vec::with_capacity(CHUNK)));
        }
        let last = self.chunks.last_mut().expect("a chunk was just ensured");
        Arc::make_mut(last).push(record);
        self.len += 1;
    }
}

impl<T> RecordLog<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.iter_from(0)
    }

    /// The records from offset `start` on.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> {
        let first = start / CHUNK;
        self.chunks
            .iter()
            .skip(first)
            .enumerate()
            .flat_map(move |(i, c)| c[if i == 0 { start % CHUNK } else { 0 }..].iter())
    }
}

impl<T: Clone> FromIterator<T> for RecordLog<T> {
    fn from_iter<I: IntoIterator<Item = T>>(records: I) -> Self {
        let mut log = RecordLog::default();
        records.into_iter().for_each(|r| log.push(r));
        log
    }
}

/// Written and read as a plain JSON array of records.
impl<T: Serialize> Serialize for RecordLog<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Deserialize<'de> + Clone> Deserialize<'de> for RecordLog<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(|v| v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_shares_full_chunks_and_both_sides_append_independently() {
        let mut log: RecordLog<usize> = (0..2500).collect();
        let copy = log.clone();
        assert!(Arc::ptr_eq(&log.chunks[0], &copy.chunks[0]) && Arc::ptr_eq(&log.chunks[1], &copy.chunks[1]));
        log.push(2500);
        assert_eq!((log.len(), copy.len()), (2501, 2500));
        assert!(Arc::ptr_eq(&log.chunks[0], &copy.chunks[0]), "full chunks stay shared");
        assert_eq!(log.iter().copied().collect::<Vec<_>>(), (0..2501).collect::<Vec<_>>());
        assert_eq!(copy.iter().copied().collect::<Vec<_>>(), (0..2500).collect::<Vec<_>>());
        for start in [0, 1, 1023, 1024, 1025, 2047, 2048, 2500, 2501] {
            assert_eq!(
                log.iter_from(start).copied().collect::<Vec<_>>(),
                (start..2501).collect::<Vec<_>>(),
                "from {start}"
            );
        }
        let json = serde_json::to_string(&log).unwrap();
        assert_eq!(json, serde_json::to_string(&(0..2501).collect::<Vec<_>>()).unwrap());
        assert_eq!(serde_json::from_str::<RecordLog<usize>>(&json).unwrap(), log);
    }
}
