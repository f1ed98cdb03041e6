//! The world's handling of brokers under KRaft: a crash, a controlled shutdown
//! and a restart, and the controller's reactions (fencing after
//! `broker.session.timeout.ms`, leader election from the ISR and ELR, the
//! coordinator contexts that load or close as leadership moves).
//! A child module of `world`, so it uses the world's routing directly.

use super::{Item, World};
use crate::sim::cluster::broker::Broker;
use crate::sim::cluster::LeaderChange;
use crate::sim::fault::Fault;
use crate::sim::note::Note;
use crate::sim::trace::EventKind;
use crate::sim::types::{EventId, NodeId};

impl World {
    pub(super) fn apply_broker_fault(&mut self, fault: Fault, cause: Option<EventId>) {
        match fault {
            Fault::KillBroker { broker } => self.crash_broker(broker, cause),
            Fault::ShutdownBroker { broker } => self.shutdown_broker(broker, cause),
            Fault::RestartBroker { broker } => self.restart_broker(broker, cause),
            _ => {}
        }
    }

    /// The process dies. The controller does not know yet: the broker stays
    /// registered, leader of its partitions and named by FindCoordinator until
    /// its session times out (`BrokerHeartbeatTracker`, broker.session.timeout.ms);
    /// clients meanwhile see their connections to it fail.
    fn crash_broker(&mut self, broker: u32, cause: Option<EventId>) {
        let now = self.now;
        let Some(b) = self.brokers.get_mut(&broker).filter(|b| b.alive) else { return };
        b.crash(now);
        self.cancel_timers_of(NodeId::Broker(broker));
        self.clients_lose(broker, cause);
        if self.cluster.shutting_down.contains(&broker) {
            // It had already handed off its partitions: the shutdown just ends early.
            let changes = self.cluster.fence(broker);
            return self.leaders_changed(changes, cause);
        }
        let timeout = self.scenario.broker.broker_session_timeout_ms;
        let note = Note::BrokerStillAlive { broker, session_timeout_ms: timeout };
        self.record(cause, EventKind::Note { node: NodeId::Broker(broker), note });
        self.push(now + timeout, Item::FenceBroker { broker });
    }

    /// Every client's in-flight requests to `broker` fail (its connections broke).
    fn clients_lose(&mut self, broker: u32, cause: Option<EventId>) {
        let ids: Vec<u32> = self.clients.indices().collect();
        for id in ids {
            self.with_node(NodeId::Client(id), cause, |n, ctx, out| n.on_connection_lost(ctx, broker, out));
        }
    }

    /// The controller's session check of a dead broker: fence it unless it came
    /// back (or died again later, with a later deadline).
    pub(super) fn session_expired(&mut self, broker: u32) {
        let timeout = self.scenario.broker.broker_session_timeout_ms;
        let Some(b) = self.brokers.get(&broker) else { return };
        let expired = !b.alive && b.down_since.is_some_and(|t| t + timeout <= self.now);
        if !expired || !self.cluster.alive.contains(&broker) {
            return;
        }
        let note = Note::BrokerFenced { broker, session_timeout_ms: timeout };
        let cause = Some(self.record(None, EventKind::Note { node: NodeId::Broker(broker), note }));
        let changes = self.cluster.fence(broker);
        self.leaders_changed(changes, cause);
    }

    /// Controlled shutdown (`controlled.shutdown.enable` = true): the broker asks
    /// the controller to move its leadership first (`handleBrokerInControlledShutdown`),
    /// its coordinator contexts close (clients then get NOT_COORDINATOR), and
    /// the process stops at its next heartbeat to the controller
    /// (broker.heartbeat.interval.ms = 2000), when it is fenced.
    fn shutdown_broker(&mut self, broker: u32, cause: Option<EventId>) {
        if !self.brokers.get(&broker).is_some_and(|b| b.alive) || self.cluster.shutting_down.contains(&broker) {
            return;
        }
        let changes = self.cluster.begin_controlled_shutdown(broker);
        self.leaders_changed(changes, cause);
        self.push(self.now + BROKER_HEARTBEAT_INTERVAL_MS, Item::ShutdownComplete { broker });
    }

    pub(super) fn finish_controlled_shutdown(&mut self, broker: u32) {
        let now = self.now;
        let Some(b) = self.brokers.get_mut(&broker).filter(|b| b.alive) else { return };
        b.crash(now);
        let note = Note::ControlledShutdownDone { broker };
        let cause = Some(self.record(None, EventKind::Note { node: NodeId::Broker(broker), note }));
        self.cancel_timers_of(NodeId::Broker(broker));
        self.clients_lose(broker, cause);
        let changes = self.cluster.fence(broker);
        self.leaders_changed(changes, cause);
    }

    /// The process starts again with empty memory. If the controller had not
    /// fenced it yet, its new registration fences the old incarnation first;
    /// then it is unfenced, catches up and rejoins the ISR as a follower.
    fn restart_broker(&mut self, broker: u32, cause: Option<EventId>) {
        let Some(b) = self.brokers.get_mut(&broker).filter(|b| !b.alive) else { return };
        *b = Broker::new(broker);
        if self.cluster.alive.contains(&broker) {
            let changes = self.cluster.fence(broker);
            self.leaders_changed(changes, cause);
        }
        let changes = self.cluster.unfence(broker);
        self.leaders_changed(changes, cause);
        self.schedule_preferred_election();
    }

    /// The controller runs `electPreferred` every
    /// `leader.imbalance.check.interval.seconds` from its activation at time 0
    /// (`PeriodicTaskControlManager`), when `auto.leader.rebalance.enable`
    /// (ControllerServer). Only a restart makes a preferred replica able to
    /// lead again, so the next run is queued then, if it would move a leader.
    fn schedule_preferred_election(&mut self) {
        let b = &self.scenario.broker;
        if !b.auto_leader_rebalance_enable || !self.cluster.preferred_leader_electable() {
            return;
        }
        let interval = b.leader_imbalance_check_interval_seconds.max(1) * 1000;
        let next = (self.now / interval + 1) * interval;
        self.push(next, Item::ElectPreferred);
    }

    /// `ReplicationControlManager.maybeBalancePartitionLeaders`: leadership goes
    /// back to preferred replicas; a coordinator moves back with its partition.
    pub(super) fn elect_preferred_leaders(&mut self) {
        let (changes, moved) = self.cluster.elect_preferred_leaders();
        let interval = self.scenario.broker.leader_imbalance_check_interval_seconds;
        for (broker, n) in moved {
            let note = Note::PreferredLeadersElected { broker, partitions: n, interval_s: interval };
            let cause = Some(self.record(None, EventKind::Note { node: NodeId::Broker(broker), note }));
            let mine = changes.iter().copied().filter(|c| c.to == Some(broker)).collect();
            self.leaders_changed(mine, cause);
        }
    }

    /// Coordinator contexts follow leadership of `__consumer_offsets`: the old
    /// leader (if still running) closes its context, the new one loads.
    fn leaders_changed(&mut self, changes: Vec<LeaderChange>, cause: Option<EventId>) {
        self.drop_stale_share_partitions();
        for LeaderChange { partition, from, to } in changes {
            let note = match to {
                Some(leader) => Note::LeadershipMoved { partition, leader },
                None => Note::PartitionOffline { partition },
            };
            self.record(cause, EventKind::Note { node: NodeId::Broker(to.or(from).unwrap_or(0)), note });
            if let Some(old) = from.filter(|b| self.brokers.get(b).is_some_and(|b| b.alive)) {
                self.with_broker(old, cause, |b, ctx, out| b.coordinator.resign_leader(ctx, partition, out));
            }
            if let Some(l) = to.filter(|b| self.brokers.get(b).is_some_and(|b| b.alive)) {
                self.with_broker(l, cause, |b, ctx, out| b.coordinator.become_leader(ctx, partition, out));
            }
        }
    }
}

impl World {
    /// A broker that no longer leads a data partition drops its
    /// share-partitions there (`SharePartitionManager` removes them when the
    /// replica becomes a follower); the new leader loads them from the share
    /// coordinator.
    fn drop_stale_share_partitions(&mut self) {
        for b in self.brokers.values_mut() {
            let stale: Vec<crate::assign::TopicPartition> = b
                .share
                .partitions
                .values()
                .flat_map(|g| g.keys())
                .filter(|tp| self.cluster.partition_leader(tp) != Some(Some(b.id)))
                .cloned()
                .collect();
            for tp in stale {
                b.share.leadership_lost(&tp);
            }
        }
    }
}

/// `broker.heartbeat.interval.ms` (KRaftConfigs, default 2000).
const BROKER_HEARTBEAT_INTERVAL_MS: u64 = 2000;
