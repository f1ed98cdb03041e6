//! What the comparison reads from a world: who owns and processes each
//! partition, whether the group is Stable, and when a rebalance begins. This is
//! the only file that knows the client and group types; a new group protocol
//! plugs in here.

use crate::assign::TopicPartition;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::trace::{EventKind, Machine};
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
    /// commit).
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
        let running = !paused && c.fatal.is_none() && c.main != Some(&MainThread::InPoll);
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
