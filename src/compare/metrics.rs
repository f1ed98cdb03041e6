//! The comparison's metrics, observed after every step of a run. Everything is
//! integer milliseconds of simulated time. The state of a group only changes at
//! steps, so each observation holds until the next one and the integrals below
//! are exact.
//!
//! The measurement window opens at start-up's end: the first instant at which
//! every partition of the group is processed (`measured_from_ms`). Rebalances,
//! unavailability, stop-the-world pauses and moves are counted inside it, so
//! the group forming is not charged to any variant.

use super::order::Order;
use super::ownership::{group_is_stable, held_work, processed, rebalance_began, snapshot, GroupSnapshot};
use super::resume::Resume;
use crate::assign::TopicPartition;
use crate::sim::trace::EventKind;
use crate::sim::{Millis, World};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    /// End of start-up: the first instant every partition of the group was
    /// processed (`None`: the group never got there; nothing else is counted).
    pub measured_from_ms: Option<Millis>,
    /// Rebalances begun inside the window (`ownership::rebalance_began`: a classic
    /// group's transitions into PreparingRebalance).
    pub rebalances: u32,
    /// Sum over the group's partitions of the time inside the window during
    /// which no owner processed them (partition-milliseconds). See
    /// `ownership::Owner::processing` for what processing requires.
    pub unavailable_ms: Millis,
    /// Longest interval inside the window during which the group had at least
    /// one live member process and no member processed any partition. A run
    /// still in such an interval counts it up to now.
    pub longest_stop_the_world_ms: Millis,
    /// Times a partition's owner changed from one member process (`c<n>`; for
    /// static members, their group.instance.id) to another inside the window.
    /// A partition revoked and given back to the same process did not move; one
    /// whose owner died and that another process then owns did.
    pub partitions_moved: u32,
    /// Records of the group processed more than once over the whole run (the
    /// cluster's `stats.redelivered`, summed over the group's partitions).
    pub records_redelivered: i64,
    /// The latest fault (scripted or injected) applied so far.
    pub last_fault_ms: Option<Millis>,
    /// Time from the latest fault to the first instant at or after it when the
    /// group is Stable on its coordinator and every partition of the topics its
    /// live members subscribe to is owned by a live member; `None` if that has
    /// not happened (or there was no fault).
    pub time_to_stable_ms: Option<Millis>,
    /// The latest instant a member process of the group stopped (crashed or
    /// closed); `None`: none has.
    pub last_member_stop_ms: Option<Millis>,
    /// Time from `last_member_stop_ms` until the group picked up again all the
    /// work that member held (`resume.rs`: its partitions processed again in a
    /// consumer group, its acquired records delivered again in a share
    /// group); `None` while some of it waits (or no member stopped).
    pub work_resumed_ms: Option<Millis>,
    /// Records processed for the first time after a higher offset of the same
    /// partition had been processed by the group, over the whole run
    /// (`order.rs`; a consumer group keeps offset order, a share group need not).
    pub records_out_of_order: i64,
}

/// Watches one group of one world; call `observe` after every step.
#[derive(Clone, Debug)]
pub struct Observer {
    pub group: String,
    pub metrics: Metrics,
    last: GroupSnapshot,
    last_at: Millis,
    trace_seen: usize,
    stop_since: Option<Millis>,
    last_owner: BTreeMap<TopicPartition, u32>,
    resume: Resume,
    order: Order,
}

impl Observer {
    pub fn new(group: &str) -> Observer {
        Observer {
            group: group.to_string(),
            metrics: Metrics::default(),
            last: GroupSnapshot::default(),
            last_at: 0,
            trace_seen: 0,
            stop_since: None,
            last_owner: BTreeMap::new(),
            resume: Resume::default(),
            order: Order::default(),
        }
    }

    /// Takes in the world's current instant (call after every step, and after
    /// `run_until` moved the clock).
    pub fn observe(&mut self, world: &World) {
        let now = world.now;
        let started = self.metrics.measured_from_ms.is_some();
        // The previous observation held from last_at until now.
        if started {
            let dt = now.saturating_sub(self.last_at);
            self.metrics.unavailable_ms += dt * self.last.unprocessed() as Millis;
        }
        for e in &world.trace[self.trace_seen.min(world.trace.len())..] {
            if matches!(e.kind, EventKind::FaultInjected { .. }) {
                self.metrics.last_fault_ms = Some(e.at);
                self.metrics.time_to_stable_ms = None;
            }
            if started && rebalance_began(&e.kind, &self.group) {
                self.metrics.rebalances += 1;
            }
            if let Some((_, tp, from, to)) = processed(world, &e.kind, &self.group) {
                self.metrics.records_out_of_order += self.order.processed(tp, from, to);
            }
        }
        self.trace_seen = world.trace.len();
        let snap = snapshot(world, &self.group);
        let stopped: Vec<u32> = self.last.live.difference(&snap.live).copied().collect();
        if !stopped.is_empty() {
            let work = stopped
                .iter()
                .flat_map(|c| held_work(world, &self.group, *c).into_iter().map(move |(tp, h)| ((*c, tp), h)))
                .collect();
            self.resume.stopped(now, work);
            self.metrics.last_member_stop_ms = Some(now);
            self.metrics.work_resumed_ms = None;
        }
        if self.metrics.work_resumed_ms.is_none() {
            self.metrics.work_resumed_ms = self.resume.resumed_after(world, &self.group, &snap);
        }
        for (tp, o) in &snap.owners {
            if let Some(prev) = self.last_owner.insert(tp.clone(), o.member) {
                if started && prev != o.member {
                    self.metrics.partitions_moved += 1;
                }
            }
        }
        if !started && !snap.partitions.is_empty() && snap.unprocessed() == 0 {
            self.metrics.measured_from_ms = Some(now);
        }
        if self.metrics.measured_from_ms.is_some() {
            self.track_stop_the_world(now, snap.stopped_the_world());
        }
        if let (Some(fault), None) = (self.metrics.last_fault_ms, self.metrics.time_to_stable_ms) {
            if group_is_stable(world, &self.group) && snap.fully_owned() && !snap.live.is_empty() {
                self.metrics.time_to_stable_ms = Some(now - fault);
            }
        }
        self.metrics.records_redelivered = world.cluster.stats.redelivered.group_total(&self.group);
        self.last = snap;
        self.last_at = now;
    }

    fn track_stop_the_world(&mut self, now: Millis, stopped: bool) {
        match (stopped, self.stop_since) {
            (true, None) => self.stop_since = Some(now),
            (false, Some(since)) => {
                self.stop_since = None;
                self.close_pause(now - since);
            }
            (true, Some(since)) => self.close_pause(now - since),
            (false, None) => {}
        }
    }

    fn close_pause(&mut self, ms: Millis) {
        self.metrics.longest_stop_the_world_ms = self.metrics.longest_stop_the_world_ms.max(ms);
    }

    /// The snapshot of the latest observation.
    pub fn snapshot(&self) -> &GroupSnapshot {
        &self.last
    }
}
