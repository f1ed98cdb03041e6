//! Share-partitions as the page shows them (KIP-932): for each share group and
//! partition, the in-flight window its leader holds, from the start offset
//! (SPSO) to the end (SPEO), as runs of records alike — same state, same
//! holder, same delivery count — with each holder's lock countdown.

use crate::assign::TopicPartition;
use crate::sim::cluster::share_partition::{RecordState, SharePartition};
use crate::sim::{Millis, World};
use std::collections::BTreeMap;

/// A run of consecutive records alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordRun {
    pub first: i64,
    pub last: i64,
    pub state: RecordState,
    /// The client (c<n>) holding them while ACQUIRED.
    pub holder: Option<u32>,
    pub delivery_count: i32,
    /// Time left on the earliest acquisition lock of the run.
    pub lock_left_ms: Option<Millis>,
}

impl RecordRun {
    pub fn len(&self) -> i64 {
        self.last - self.first + 1
    }

    pub fn is_empty(&self) -> bool {
        self.last < self.first
    }

    /// `offsets 100-149` / `offset 7`.
    pub fn offsets(&self) -> String {
        crate::sim::share_note::offsets(self.first, self.last)
    }
}

/// One share-partition's strip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareStrip {
    pub group: String,
    pub partition: TopicPartition,
    /// The broker leading the partition, which holds the share-partition.
    pub leader: Option<u32>,
    /// SPSO and one past SPEO; `None` before the leader has loaded it.
    pub window: Option<(i64, i64)>,
    pub log_end: i64,
    pub runs: Vec<RecordRun>,
    /// Runs left out past `max_runs`.
    pub hidden_runs: usize,
    /// The members the coordinator assigns the partition to (several may share it).
    pub readers: Vec<u32>,
    /// `share.record.lock.duration.ms`, for the countdown's full length.
    pub lock_ms: Millis,
    pub delivery_limit: i32,
}

/// Every share-partition of every share group, at most `max_runs` runs each.
pub fn share_strips(world: &World, max_runs: usize) -> Vec<ShareStrip> {
    let mut strips = Vec::new();
    for g in &world.scenario.share_groups {
        let cfg = world.cluster.share_group_config(&g.group_id);
        // member id → client, and the clients each partition is assigned to.
        let mut client_of: BTreeMap<&str, u32> = BTreeMap::new();
        for m in world.members_of(&g.group_id).filter(|m| !m.member_id.is_empty()) {
            client_of.insert(m.member_id, m.idx);
        }
        let assigned = world.share_group(&g.group_id).map(|(_, sg)| sg);
        for topic in &g.topics {
            let Some(t) = world.cluster.topics.get(topic.as_str()) else { continue };
            for (p, state) in t.partitions.iter().enumerate() {
                let tp = TopicPartition::new(topic.as_str(), p as i32);
                let sp = state
                    .leader
                    .and_then(|l| world.brokers.get(&l))
                    .filter(|b| b.alive)
                    .and_then(|b| b.share.partitions.get(&g.group_id)?.get(&tp));
                let mut readers: Vec<u32> = assigned
                    .map(|sg| sg.holders(&tp).into_iter().filter_map(|m| client_of.get(m).copied()).collect())
                    .unwrap_or_default();
                readers.sort_unstable();
                let (runs, hidden_runs) = sp.map_or((Vec::new(), 0), |sp| runs(sp, &client_of, world.now, max_runs));
                strips.push(ShareStrip {
                    group: g.group_id.clone(),
                    partition: tp,
                    leader: state.leader,
                    window: sp.map(|sp| (sp.start_offset, sp.end_offset)),
                    log_end: state.end_offset,
                    runs,
                    hidden_runs,
                    readers,
                    lock_ms: cfg.record_lock_duration_ms,
                    delivery_limit: cfg.delivery_count_limit,
                });
            }
        }
    }
    strips
}

/// The window's records as runs alike, the first `max_runs` of them and how many more.
fn runs(sp: &SharePartition, client_of: &BTreeMap<&str, u32>, now: Millis, max_runs: usize) -> (Vec<RecordRun>, usize) {
    let mut out: Vec<RecordRun> = Vec::new();
    for (offset, r) in &sp.records {
        let holder = r.member_id.as_deref().and_then(|m| client_of.get(m).copied());
        let lock_left = r.lock_deadline.map(|d| d.saturating_sub(now));
        match out.last_mut() {
            Some(run)
                if run.last + 1 == *offset
                    && run.state == r.state
                    && run.holder == holder
                    && run.delivery_count == r.delivery_count =>
            {
                run.last = *offset;
                run.lock_left_ms = match (run.lock_left_ms, lock_left) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            _ => out.push(RecordRun {
                first: *offset,
                last: *offset,
                state: r.state,
                holder,
                delivery_count: r.delivery_count,
                lock_left_ms: lock_left,
            }),
        }
    }
    let hidden = out.len().saturating_sub(max_runs);
    out.truncate(max_runs);
    (out, hidden)
}
