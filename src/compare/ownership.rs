//! What the comparison reads from a world: who owns and processes each
//! partition, whether the group is Stable, when a rebalance begins, what a
//! stopped member was working on and which records the group processed. This is
//! the only file that knows the client and group types; a new group protocol
//! plugs in here.

use crate::assign::TopicPartition;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::cluster::share_partition::RecordState;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::world::MemberKind;
use crate::sim::World;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The member process (`c<n>`) that owns a partition, and whether it processes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Owner {
    pub member: u32,
    /// The owner can process the partition now: it is not paused (GC), has no
    /// fatal error, holds a fetch position for the partition (its committed
    /// offset has been fetched), has not marked it pending revocation (KIP-848,
    /// during the commit before a revocation), and its poll loop is not waiting for the group
    /// (`MainThread::InPoll` after a step means `poll()` waits for the
    /// coordinator, a JoinGroup/SyncGroup, an offset fetch or the onJoinPrepare
    /// commit; a share consumer's `InPoll` is a ShareFetch waiting for records,
    /// which is processing as a share group does it).
    pub processing: bool,
}

/// One group at one instant, as the metrics see it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GroupSnapshot {
    /// Member processes of the group that are alive (a paused process is alive).
    pub live: BTreeSet<u32>,
    /// Partitions of every topic any member process of the group (alive or
    /// dead) subscribes to.
    pub partitions: BTreeSet<TopicPartition>,
    /// Partitions of the topics the live member processes subscribe to.
    pub live_subscribed: BTreeSet<TopicPartition>,
    /// Owner of each owned partition: an alive member process whose assignment
    /// holds it (under eager, ownership ends at revocation in onJoinPrepare).
    /// If two alive processes claim it (a zombie), the processing one wins, then
    /// the lower `c<n>`.
    pub owners: BTreeMap<TopicPartition, Owner>,
}

impl GroupSnapshot {
    pub fn processing(&self, tp: &TopicPartition) -> bool {
        self.owners.get(tp).is_some_and(|o| o.processing)
    }

    /// Partitions of the group with no owner processing them.
    pub fn unprocessed(&self) -> usize {
        self.partitions.iter().filter(|tp| !self.processing(tp)).count()
    }

    /// Live members exist and none of them processes any partition.
    pub fn stopped_the_world(&self) -> bool {
        !self.live.is_empty() && !self.owners.values().any(|o| o.processing)
    }

    /// Every partition of a live subscriber is owned.
    pub fn fully_owned(&self) -> bool {
        self.live_subscribed.iter().all(|tp| self.owners.contains_key(tp))
    }
}

fn partitions_of<'a>(world: &World, topics: impl Iterator<Item = &'a String>) -> BTreeSet<TopicPartition> {
    let mut out = BTreeSet::new();
    for t in topics {
        for p in 0..world.cluster.partition_count(t) {
            out.insert(TopicPartition::new(t.clone(), p));
        }
    }
    out
}

/// THE function that says which member owns and processes each partition of
/// `group` right now, whatever its members' protocol.
pub fn snapshot(world: &World, group: &str) -> GroupSnapshot {
    let mut s = GroupSnapshot::default();
    let mut all_topics = BTreeSet::new();
    let mut live_topics = BTreeSet::new();
    // KIP-848 clients follow the same rule (their poll() reconciles, it never
    // waits for the group), except that a partition pending revocation is not fetched.
    for c in world.members_of(group).filter(|c| c.is_consumer()) {
        all_topics.extend(c.topics.iter().cloned());
        if !c.alive {
            continue;
        }
        s.live.insert(c.idx);
        live_topics.extend(c.topics.iter().cloned());
        let paused = world.paused_until.get(&crate::sim::NodeId::Client(c.idx)).is_some_and(|until| *until > world.now);
        // A share consumer's poll() never waits for the group once it has an
        // assignment: `InPoll` is its ShareFetch waiting for records.
        let waits_for_group = c.main == Some(&MainThread::InPoll) && !matches!(c.kind, MemberKind::Share(_));
        let running = !paused && c.fatal.is_none() && !waits_for_group;
        for tp in c.owned {
            let processing = running && c.fetches(tp);
            let keep_old = s.owners.get(tp).is_some_and(|old| old.processing || !processing);
            if !keep_old {
                s.owners.insert(tp.clone(), Owner { member: c.idx, processing });
            }
        }
    }
    s.partitions = partitions_of(world, all_topics.iter());
    s.live_subscribed = partitions_of(world, live_topics.iter());
    s
}

/// The group as its coordinator holds it is Stable.
pub fn group_is_stable(world: &World, group: &str) -> bool {
    world.group_view(group).is_some_and(|g| g.state == "Stable")
}

/// A trace event that begins a rebalance of `group`: a classic group's
/// transition into `PreparingRebalance`, or a consumer group (KIP-848) leaving
/// Stable because its group epoch was bumped (to Assigning or Reconciling).
pub fn rebalance_began(kind: &EventKind, group: &str) -> bool {
    match kind {
        EventKind::StateChanged { machine: Machine::Group { group_id }, to, .. } => {
            group_id == group && to == "PreparingRebalance"
        }
        EventKind::StateChanged { machine: Machine::ConsumerGroup { group_id }, from, .. } => {
            group_id == group && from == "Stable"
        }
        _ => false,
    }
}

/// What one member process was doing for its group at the instant it stopped
/// (before anything reacts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// A consumer group's member owned the partition: its stream of records.
    Partition,
    /// A share group's member held these records ACQUIRED on the partition's
    /// leader (`SharePartition`'s in-flight state names the member).
    Records { member_id: String, offsets: BTreeSet<i64> },
}

/// The work member process `c<idx>` of `group` holds now, per partition.
pub fn held_work(world: &World, group: &str, idx: u32) -> BTreeMap<TopicPartition, Held> {
    let Some(m) = world.member(idx).filter(|m| m.group_id == group) else { return BTreeMap::new() };
    let MemberKind::Share(_) = m.kind else {
        return m.owned.iter().map(|tp| (tp.clone(), Held::Partition)).collect();
    };
    let mut held = BTreeMap::new();
    for topic in m.topics {
        let Some(t) = world.cluster.topics.get(topic.as_str()) else { continue };
        for (p, state) in t.partitions.iter().enumerate() {
            let tp = TopicPartition::new(topic.as_str(), p as i32);
            let Some(sp) = share_partition(world, state.leader, group, &tp) else { continue };
            let offsets: BTreeSet<i64> = sp
                .records
                .iter()
                .filter(|(_, r)| r.state == RecordState::ACQUIRED && r.member_id.as_deref() == Some(m.member_id))
                .map(|(o, _)| *o)
                .collect();
            if !offsets.is_empty() {
                held.insert(tp, Held::Records { member_id: m.member_id.to_string(), offsets });
            }
        }
    }
    held
}

/// The share-partition of `group` on `tp`'s leader, if that broker is alive and holds one.
fn share_partition<'a>(
    world: &'a World,
    leader: Option<u32>,
    group: &str,
    tp: &TopicPartition,
) -> Option<&'a crate::sim::cluster::share_partition::SharePartition> {
    leader.and_then(|l| world.brokers.get(&l)).filter(|b| b.alive).and_then(|b| b.share.partitions.get(group)?.get(tp))
}

/// A record `member_id` held ACQUIRED that has been delivered again, or that
/// no one will deliver again, on the partition's leader: ACQUIRED by another
/// member, ACKNOWLEDGED or ARCHIVED, or behind the share-partition start
/// offset (`SharePartition`: only AVAILABLE records are acquired; an
/// acknowledgement the stopped member sent before it stopped may still land).
pub fn share_record_moved_on(world: &World, group: &str, tp: &TopicPartition, offset: i64, member_id: &str) -> bool {
    let leader = world.cluster.partition_leader(tp).flatten();
    share_partition(world, leader, group, tp).is_some_and(|sp| {
        offset < sp.start_offset
            || sp.records.get(&offset).is_some_and(|r| {
                r.state.is_terminal() || (r.state == RecordState::ACQUIRED && r.member_id.as_deref() != Some(member_id))
            })
    })
}

/// A trace event in which a member of `group` finished processing records:
/// (the member process, the partition, from, to), offsets `[from, to)`.
pub fn processed<'a>(world: &World, kind: &'a EventKind, group: &str) -> Option<(u32, &'a TopicPartition, i64, i64)> {
    let EventKind::RecordsProcessed { node: crate::sim::NodeId::Client(c), partition, from, to, .. } = kind else {
        return None;
    };
    world.member(*c).filter(|m| m.group_id == group).map(|_| (*c, partition, *from, *to))
}
