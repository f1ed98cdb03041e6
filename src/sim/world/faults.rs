//! Faults applied to the world: client processes crash, restart, close and
//! pause; brokers die and restart (`brokers.rs`); links are cut, held, slowed
//! and made lossy; topics grow; subscriptions change; Connect's faults
//! (`connect.rs`). A fault naming a node that does not exist is narrated as
//! ignored, not applied.

use super::{parse_node, Item, World};
use crate::sim::fault::Fault;
use crate::sim::network::link;
use crate::sim::note::Note;
use crate::sim::trace::EventKind;
use crate::sim::types::{EventId, Millis, NodeId};

impl World {
    /// Injects a fault now (from the UI), remembering it for replay.
    pub fn inject(&mut self, fault: Fault) {
        self.injected.push((self.now, fault.clone()));
        self.apply_fault(fault);
    }

    /// Schedules a fault at a later time (scenario scripts, tests).
    pub fn schedule(&mut self, at: Millis, fault: Fault) {
        self.push(at, Item::Fault { fault });
    }

    pub(super) fn apply_fault(&mut self, fault: Fault) {
        let cause = Some(self.record(None, EventKind::FaultInjected { description: fault.describe() }));
        if let Err(e) = self.within_caps(&fault) {
            self.record(cause, EventKind::Note { node: NodeId::Broker(0), note: Note::FaultIgnored { reason: e } });
            return;
        }
        match fault {
            Fault::CrashConsumer { consumer } => self.stop_client(consumer),
            Fault::RestartConsumer { consumer } => {
                if self.clients.restart(consumer) {
                    self.start_client(consumer, cause);
                }
            }
            Fault::CloseConsumer { consumer } | Fault::CloseConsumerWithOptions { consumer, .. } => {
                let operation = match fault {
                    Fault::CloseConsumerWithOptions { operation, .. } => operation,
                    _ => crate::sim::client::close_options::GroupMembershipOperation::DEFAULT,
                };
                let mut closed = false;
                self.with_client(consumer, cause, |c, ctx, out| closed = c.close(ctx, operation, out));
                if closed {
                    self.stop_client(consumer);
                }
            }
            Fault::RestartConsumerAs { consumer, static_member } => {
                let Some(client) = self.clients.get_mut(consumer).map(|p| &mut p.client) else { return };
                let instance = static_member.then(|| format!("{}-{consumer}", client.group_id()));
                // Not a consumer (a Connect worker): nothing to restart as.
                let Some(config) = client.consumer_config_mut() else { return };
                config.group_instance_id = instance;
                self.stop_client(consumer);
                self.apply_fault(Fault::RestartConsumer { consumer });
            }
            Fault::PauseConsumer { consumer, duration_ms } => {
                self.paused_until.insert(NodeId::Client(consumer), self.now.saturating_add(duration_ms));
            }
            Fault::SlowProcessing { consumer, ms_per_record } => {
                // A worker's tasks have no such setting.
                if let Some(p) = self.clients.get_mut(consumer) {
                    p.client.set_processing_ms(ms_per_record);
                }
            }
            Fault::KillBroker { .. } | Fault::RestartBroker { .. } | Fault::ShutdownBroker { .. } => {
                self.apply_broker_fault(fault, cause)
            }
            Fault::CutLink { a, b } => {
                if let Some((x, y)) = self.nodes(&a, &b, cause) {
                    self.network.cut.insert(link(x, y));
                }
            }
            Fault::HealLink { a, b } => {
                if let Some((x, y)) = self.nodes(&a, &b, cause) {
                    self.network.cut.remove(&link(x, y));
                }
            }
            Fault::DropNextMessage { from, to } => {
                if let Some((x, y)) = self.nodes(&from, &to, cause) {
                    self.network.drop_next.insert((x, y));
                }
            }
            Fault::HoldLink { from, to } => {
                if let Some((x, y)) = self.nodes(&from, &to, cause) {
                    self.network.held.insert((x, y));
                }
            }
            Fault::ReleaseLink { from, to } => {
                if let Some((x, y)) = self.nodes(&from, &to, cause) {
                    for (env, sent) in self.network.release(x, y) {
                        self.push(self.now, Item::Deliver { env, sent_event: sent });
                    }
                }
            }
            Fault::SetLinkLatency { a, b, latency_ms } => {
                if let Some((x, y)) = self.nodes(&a, &b, cause) {
                    self.network.extra_latency.insert(link(x, y), latency_ms);
                }
            }
            Fault::SetLinkLoss { a, b, percent } => {
                if let Some((x, y)) = self.nodes(&a, &b, cause) {
                    self.network.loss_percent.insert(link(x, y), percent.min(100));
                }
            }
            Fault::AddPartitions { topic, count } => {
                if !self.cluster.add_partitions(&topic, count) {
                    self.record(cause, EventKind::Note { node: NodeId::Broker(0), note: Note::NoSuchTopic { topic } });
                }
            }
            Fault::CreateTopic { topic, partitions } => {
                if !self.cluster.topics.contains_key(&topic) {
                    self.cluster.add_topic(&topic, partitions, 0);
                }
            }
            Fault::SetStandbyReplicas { group, replicas } => {
                let cfg = self.cluster.streams_group_configs.entry(group).or_default();
                cfg.num_standby_replicas = replicas;
            }
            Fault::AddInstance { group } => {
                let Some(a) = self.scenario.streams_apps.iter().find(|a| a.application_id == group).cloned() else {
                    return;
                };
                let instance = self.clients.streams_threads().filter(|t| t.group_id == group).map(|t| t.instance).max();
                let instance = instance.unwrap_or(0) + 1;
                for t in 1..=a.threads_per_instance {
                    let idx = self.add_streams_thread(&a, instance, t);
                    self.start_client(idx, cause);
                }
            }
            Fault::RequestShutdown { consumer } => {
                if let Some(t) = self.clients.streams_thread_mut(consumer) {
                    t.shutdown_request = true;
                }
            }
            Fault::ChangeSubscription { consumer, topics } => {
                self.with_client(consumer, cause, |c, _, out| {
                    // Connect workers have no subscription.
                    c.subscribe(topics, out);
                });
            }
            Fault::FailTask { .. }
            | Fault::RestartTask { .. }
            | Fault::RestartConnector { .. }
            | Fault::AddWorker { .. } => self.apply_connect_fault(fault, cause),
            Fault::AddConsumer { group } => {
                let idx = if let Some(spec) = self.scenario.groups.iter().find(|g| g.group_id == group).cloned() {
                    self.add_consumer_process(&spec)
                } else if let Some(spec) = self.scenario.share_groups.iter().find(|g| g.group_id == group).cloned() {
                    self.add_share_process(&spec)
                } else {
                    return;
                };
                self.start_client(idx, cause);
            }
        }
    }

    /// The client process `idx` starts (either protocol).
    pub(super) fn start_client(&mut self, idx: u32, cause: Option<EventId>) {
        self.with_node(NodeId::Client(idx), cause, |n, ctx, out| n.on_start(ctx, out));
    }

    /// The client process ends (a crash, or the end of `close()`): nothing
    /// of it runs any more; its timers go with it.
    fn stop_client(&mut self, idx: u32) {
        if !self.clients.contains(idx) || !self.clients.is_alive(idx) {
            return;
        }
        self.clients.stop(idx);
        self.cancel_timers_of(NodeId::Client(idx));
        if self.clients.share_consumer(idx).is_some() {
            self.close_share_connections(idx);
        }
    }

    /// The process's connections close with it: each broker sees the close
    /// after whatever the process sent before it (a connection delivers in
    /// order), and releases the share sessions it carried.
    fn close_share_connections(&mut self, idx: u32) {
        let client = NodeId::Client(idx);
        let brokers: Vec<u32> = self.brokers.values().filter(|b| b.alive).map(|b| b.id).collect();
        let net = &self.scenario.network;
        let slowest = net.latency_ms + net.jitter_ms;
        for broker in brokers {
            let at = self.network.arrival(client, NodeId::Broker(broker), self.now, slowest) + 1;
            self.push(at, Item::ConnectionClosed { client: idx, broker });
        }
    }

    /// Both named nodes, or a note saying which name is unknown.
    fn nodes(&mut self, a: &str, b: &str, cause: Option<EventId>) -> Option<(NodeId, NodeId)> {
        let known = |s: &str| parse_node(s).filter(|n| self.exists(*n));
        match (known(a), known(b)) {
            (Some(x), Some(y)) => Some((x, y)),
            _ => {
                let note = Note::FaultIgnoredUnknownNode { a: a.to_string(), b: b.to_string() };
                self.record(cause, EventKind::Note { node: NodeId::Broker(0), note });
                None
            }
        }
    }
}
