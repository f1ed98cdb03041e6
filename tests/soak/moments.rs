//! Faults aimed at a moment of the protocol rather than at a time: the group's
//! coordinator dies while a rebalance is under way, or its broker restarts
//! while a member is between JoinGroup and SyncGroup (KIP-848: between a new
//! target assignment and its reconciliation). Random times rarely hit these
//! windows, which last one or two round trips.

use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::client::consumer::MemberState as ConsumerMemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::coordinator::consumer::ConsumerGroupState;
use groupscope::sim::{Fault, World};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The group is rebalancing: classic PreparingRebalance or
    /// CompletingRebalance, consumer-group Assigning or Reconciling.
    Rebalance,
    /// A classic member (or Connect worker) is in COMPLETING_REBALANCE, a
    /// KIP-848 member in RECONCILING.
    MemberCompleting,
}

/// A fault waiting for its moment: from `after` until `until`, the first time
/// `group` is at `moment`, its coordinator's broker is killed and restarted
/// `down_ms` later (never after `until`, when the schedule's faults end).
#[derive(Clone, Debug)]
pub struct Aimed {
    pub moment: Moment,
    pub group: String,
    pub after: u64,
    pub until: u64,
    pub down_ms: u64,
    pub fired: bool,
}

impl Aimed {
    /// One in three schedules aims a fault at one of `groups`; it may come
    /// from `after` ms on, and the schedule's faults then last at least 15 s
    /// longer so it has a window.
    pub fn draw(rng: &mut ChaCha8Rng, groups: &[String], faults_end: &mut u64) -> Option<Aimed> {
        if groups.is_empty() || !rng.gen_bool(1.0 / 3.0) {
            return None;
        }
        let moment = if rng.gen_bool(0.5) { Moment::Rebalance } else { Moment::MemberCompleting };
        let group = groups[rng.gen_range(0..groups.len())].clone();
        let after = rng.gen_range(1_000..40_000);
        let down_ms = rng.gen_range(0..8_000);
        *faults_end = (*faults_end).max(after + 15_000);
        Some(Aimed { moment, group, after, until: *faults_end, down_ms, fired: false })
    }

    pub fn maybe_fire(&mut self, world: &mut World) {
        if self.fired || world.now < self.after || world.now >= self.until {
            return;
        }
        let Some(broker) = self.coordinator_at_moment(world) else { return };
        self.fired = true;
        world.inject(Fault::KillBroker { broker });
        world.schedule((world.now + self.down_ms).min(self.until), Fault::RestartBroker { broker });
    }

    /// The coordinator's broker, if the group is at the moment now.
    fn coordinator_at_moment(&self, world: &World) -> Option<u32> {
        let g = self.group.as_str();
        if let Some((b, group)) = world.group(g) {
            let at = match self.moment {
                Moment::Rebalance => matches!(
                    group.state,
                    ClassicGroupState::PreparingRebalance | ClassicGroupState::CompletingRebalance
                ),
                Moment::MemberCompleting => {
                    let completing = |s: MemberState| s == MemberState::COMPLETING_REBALANCE;
                    world.group_consumers(g).any(|c| c.alive && completing(c.membership.state))
                        || world.group_workers(g).any(|w| w.alive && completing(w.membership.state))
                }
            };
            return at.then_some(b);
        }
        let (b, group) = world.consumer_group(g)?;
        let at = match self.moment {
            Moment::Rebalance => matches!(group.state, ConsumerGroupState::Assigning | ConsumerGroupState::Reconciling),
            Moment::MemberCompleting => world
                .clients
                .async_consumers()
                .any(|c| c.alive && c.group_id == g && c.state == ConsumerMemberState::RECONCILING),
        };
        at.then_some(b)
    }
}
