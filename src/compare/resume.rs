//! Time until work resumes: from the latest instant a member process of the
//! group stopped (crashed or closed) to the first instant at which the group
//! has picked up again everything that member was working on.
//!
//! What it was working on is read at the instant it stopped
//! (`ownership::held_work`), and picked up again means:
//! - consumer group (classic or KIP-848): each partition it owned is
//!   processed by a live member again, as the other metrics define processing
//!   (`ownership::Owner::processing`: owned, a fetch position, not waiting for
//!   the group). No one else fetches the partition before the coordinator
//!   gives it to another member: after the session timeout for a crash
//!   (`GroupMetadataManager`: the member's session expires, the group epoch is
//!   bumped and the partition reassigned), at once for a member that leaves.
//! - share group (KIP-932): each record it held ACQUIRED is delivered again,
//!   that is acquired by another member, or will never be delivered again
//!   (ACKNOWLEDGED or ARCHIVED on the leader, or behind the share-partition
//!   start offset). The leader releases them when the member's connection
//!   closes (`SharePartition.releaseAcquiredRecords`) or when their
//!   acquisition locks expire (`share.record.lock.duration.ms`); then any
//!   member assigned the partition acquires them with its next ShareFetch,
//!   long before the coordinator removes the stopped member, if another
//!   member shares the partition.
//!
//! A member that held nothing had nothing to resume: 0 ms.

use super::ownership::{share_record_moved_on, GroupSnapshot, Held};
use crate::assign::TopicPartition;
use crate::sim::{Millis, World};
use std::collections::BTreeMap;

/// The work of the latest stopped member(s) not yet picked up again.
#[derive(Clone, Debug, Default)]
pub struct Resume {
    /// When they stopped.
    pub since: Option<Millis>,
    /// By member process, then partition.
    pending: BTreeMap<(u32, TopicPartition), Held>,
}

impl Resume {
    /// Member processes stopped at `now`, each with what it held (replaces
    /// what an earlier stop left pending: the metric follows the latest stop).
    pub fn stopped(&mut self, now: Millis, work: BTreeMap<(u32, TopicPartition), Held>) {
        self.since = Some(now);
        self.pending = work;
    }

    /// Drops what has been picked up again in `world` (`snap` its snapshot);
    /// the time since the stop once nothing is pending.
    pub fn resumed_after(&mut self, world: &World, group: &str, snap: &GroupSnapshot) -> Option<Millis> {
        let since = self.since?;
        self.pending.retain(|(_, tp), held| match held {
            Held::Partition => !snap.processing(tp),
            Held::Records { member_id, offsets } => {
                offsets.retain(|o| !share_record_moved_on(world, group, tp, *o, member_id));
                !offsets.is_empty()
            }
        });
        self.pending.is_empty().then(|| world.now.saturating_sub(since))
    }
}
