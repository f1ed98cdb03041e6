//! Whether a fault can happen in a run: the consumers, brokers, groups, topics
//! and connectors it names exist, and it stays within the caps scenarios have
//! (partitions, consumers, workers, durations). Scenario scripts and permalink
//! scripts are checked before a run starts (`Targets::of_scenario`, replaying
//! the additions in time order); faults injected into a running world against
//! the world itself (`World::check_fault`).

use crate::sim::fault::cap::CapExceeded;
use crate::sim::scenario::connect_config::MAX_WORKERS;
use crate::sim::scenario::limits::{self, in_range};
use crate::sim::scenario::{Scenario, MAX_CONSUMERS, MAX_PARTITIONS};
use crate::sim::types::{Millis, NodeId};
use crate::sim::world::{parse_node, Client, World};
use crate::sim::Fault;
use std::collections::BTreeMap;

/// What a fault may name.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    /// Client index (c<n>) → whether it is a consumer (false: a Connect worker).
    pub clients: BTreeMap<u32, bool>,
    pub brokers: u32,
    /// Consumer group ids, and how many consumers each has.
    pub groups: BTreeMap<String, u32>,
    /// Connect cluster group ids → connector → tasks.
    pub connect: BTreeMap<String, BTreeMap<String, u32>>,

    /// Topic → partitions.
    pub topics: BTreeMap<String, u32>,
    /// Kafka Streams application ids → threads per instance.
    pub streams: BTreeMap<String, u32>,
}

impl Targets {
    /// At the start of a run of `s` (clients numbered as `World::new` does:
    /// the groups' consumers in order, then the share groups', then the
    /// Streams applications' threads, then the Connect workers).
    pub fn of_scenario(s: &Scenario) -> Targets {
        let mut t = Targets { brokers: s.brokers, ..Targets::default() };
        let mut next = 1u32;
        for g in &s.groups {
            for _ in 0..g.consumers {
                t.clients.insert(next, true);
                next += 1;
            }
            *t.groups.entry(g.group_id.clone()).or_default() += g.consumers;
        }
        for g in &s.share_groups {
            for _ in 0..g.consumers {
                t.clients.insert(next, true);
                next += 1;
            }
            *t.groups.entry(g.group_id.clone()).or_default() += g.consumers;
        }
        for a in &s.streams_apps {
            for _ in 0..a.instances.saturating_mul(a.threads_per_instance) {
                t.clients.insert(next, true);
                next += 1;
            }
            t.streams.entry(a.application_id.clone()).or_insert(a.threads_per_instance);
        }
        for c in &s.connect_clusters {
            for _ in 0..c.workers {
                t.clients.insert(next, false);
                next += 1;
            }
            t.connect.insert(c.group_id.clone(), c.connectors.iter().map(|k| (k.name.clone(), k.tasks)).collect());
        }
        t.topics = s.topics.iter().map(|x| (x.name.clone(), x.partitions)).collect();
        t
    }

    /// Now, in a running world.
    pub fn of_world(w: &World) -> Targets {
        let mut t = Targets::of_scenario(&w.scenario);
        // Each client, and whether it is a consumer (not a Connect worker).
        t.clients = w.clients.iter().map(|(i, p)| (i, !matches!(p.client, Client::Worker(_)))).collect();
        t.brokers = w.brokers.len() as u32;
        for n in t.groups.values_mut() {
            *n = 0;
        }
        for p in w.clients.iter().map(|(_, p)| p).filter(|p| !matches!(p.client, Client::Worker(_))) {
            *t.groups.entry(p.client.group_id().to_string()).or_default() += 1;
        }
        t.topics = w.cluster.topics.iter().map(|(n, x)| (n.clone(), x.partitions.len() as u32)).collect();
        t
    }

    fn consumers(&self) -> u32 {
        self.clients.values().filter(|c| **c).count() as u32
    }

    fn workers(&self) -> u32 {
        self.clients.values().filter(|c| !**c).count() as u32
    }

    fn client(&self, field: &str, c: u32, consumer_only: bool) -> Result<(), String> {
        match self.clients.get(&c) {
            None => Err(format!("{field}: there is no c{c} in this run ({})", self.client_range())),
            Some(false) if consumer_only => Err(format!("{field}: c{c} is a Connect worker, not a consumer")),
            Some(_) => Ok(()),
        }
    }

    fn client_range(&self) -> String {
        match (self.clients.keys().next(), self.clients.keys().next_back()) {
            (Some(a), Some(b)) => format!("clients are c{a} to c{b}"),
            _ => "it has no clients".into(),
        }
    }

    fn broker(&self, b: u32) -> Result<(), String> {
        if b < self.brokers {
            Ok(())
        } else {
            Err(format!(
                "broker: there is no broker-{b} (brokers are broker-0 to broker-{})",
                self.brokers.saturating_sub(1)
            ))
        }
    }

    fn node(&self, field: &str, s: &str) -> Result<NodeId, String> {
        let n = parse_node(s.trim())
            .ok_or_else(|| format!("{field}: '{}' is not a node (write c<n> or broker-<n>)", limits::shown(s)))?;
        match n {
            NodeId::Broker(b) => self.broker(b).map_err(|e| e.replacen("broker", field, 1))?,
            NodeId::Client(c) => self.client(field, c, false)?,
        }
        Ok(n)
    }

    fn link(&self, (fa, a): (&str, &str), (fb, b): (&str, &str)) -> Result<(), String> {
        if self.node(fa, a)? == self.node(fb, b)? {
            return Err(format!("{fb}: a link joins two different nodes ({a} and {b} are the same)"));
        }
        // Clients reach only brokers (NetworkClient connects to a broker's
        // listener; consumers and workers never connect to one another).
        if let (Some(NodeId::Client(_)), Some(NodeId::Client(_))) = (parse_node(a.trim()), parse_node(b.trim())) {
            return Err(format!(
                "{fb}: there is no link between {} and {}: clients talk only to brokers",
                a.trim(),
                b.trim()
            ));
        }
        Ok(())
    }

    /// The Connect cluster must exist; an unknown connector or task is the
    /// cluster's to answer (NotFoundException, NotAssignedException), only its
    /// name's length is checked.
    fn connector(&self, group: &str, connector: &str) -> Result<(), String> {
        if !self.connect.contains_key(group) {
            return Err(format!("group: there is no Connect cluster '{}' in this run", limits::shown(group)));
        }
        limits::name("connector", connector, limits::MAX_NAME_LEN)
    }

    /// Whether `f` can happen now; the message names the fault's field.
    pub fn check(&self, f: &Fault) -> Result<(), String> {
        match f {
            Fault::CrashConsumer { consumer } | Fault::RestartConsumer { consumer } => {
                self.client("consumer", *consumer, false)
            }
            Fault::CloseConsumer { consumer }
            | Fault::CloseConsumerWithOptions { consumer, .. }
            | Fault::RestartConsumerAs { consumer, .. } => self.client("consumer", *consumer, true),
            Fault::PauseConsumer { consumer, duration_ms } => {
                self.client("consumer", *consumer, false)?;
                in_range("durationMs", *duration_ms, 0, limits::MAX_SIM_DURATION_MS, "a simulated day")
            }
            Fault::SlowProcessing { consumer, ms_per_record } => {
                self.client("consumer", *consumer, true)?;
                in_range("msPerRecord", *ms_per_record, 0, limits::MAX_SIM_DURATION_MS, "a simulated day")
            }
            Fault::KillBroker { broker } | Fault::ShutdownBroker { broker } | Fault::RestartBroker { broker } => {
                self.broker(*broker)
            }
            Fault::CutLink { a, b } | Fault::HealLink { a, b } => self.link(("a", a), ("b", b)),
            Fault::DropNextMessage { from, to } | Fault::HoldLink { from, to } | Fault::ReleaseLink { from, to } => {
                self.link(("from", from), ("to", to))
            }
            Fault::SetLinkLatency { a, b, latency_ms } => {
                self.link(("a", a), ("b", b))?;
                in_range(
                    "latencyMs",
                    *latency_ms,
                    0,
                    limits::MAX_LATENCY_MS,
                    "the simulator's cap, 10 simulated minutes",
                )
            }
            Fault::SetLinkLoss { a, b, percent } => {
                self.link(("a", a), ("b", b))?;
                in_range("percent", u64::from(*percent), 0, 100, "a percentage")
            }
            Fault::AddConsumer { group } => {
                if !self.groups.contains_key(group) {
                    let hint =
                        if self.connect.contains_key(group) { " (it is a Connect cluster: use addWorker)" } else { "" };
                    return Err(format!(
                        "group: there is no consumer group '{}' in this run{hint}",
                        limits::shown(group)
                    ));
                }
                if self.consumers() >= MAX_CONSUMERS {
                    return Err(format!(
                        "group: the run already has {} consumers; the simulator runs at most {MAX_CONSUMERS}",
                        self.consumers()
                    ));
                }
                Ok(())
            }
            Fault::AddPartitions { topic, count } => {
                let now = *self
                    .topics
                    .get(topic)
                    .ok_or_else(|| format!("topic: there is no topic '{}' in this run", limits::shown(topic)))?;
                // Fewer or as many partitions as the topic has change nothing (the
                // world keeps them: Kafka refuses with InvalidPartitionsException).
                let total: u64 =
                    self.topics.values().map(|n| u64::from(*n)).sum::<u64>() - u64::from(now) + u64::from(*count);
                if total > u64::from(MAX_PARTITIONS) {
                    return Err(format!("count: {count} partitions would make {total} in all; the simulator shows at most {MAX_PARTITIONS}"));
                }
                Ok(())
            }
            Fault::ChangeSubscription { consumer, topics } => {
                self.client("consumer", *consumer, true)?;
                if topics.len() > limits::MAX_SUBSCRIBED_TOPICS {
                    return Err(format!("topics: {} topics; at most {}", topics.len(), limits::MAX_SUBSCRIBED_TOPICS));
                }
                for (i, t) in topics.iter().enumerate() {
                    limits::name(&format!("topics[{i}]"), t, limits::MAX_TOPIC_NAME_LEN)?;
                }
                Ok(())
            }
            Fault::FailTask { group, connector, .. }
            | Fault::RestartTask { group, connector, .. }
            | Fault::RestartConnector { group, connector, .. } => self.connector(group, connector),
            Fault::AddWorker { group } => {
                if !self.connect.contains_key(group) {
                    return Err(format!("group: there is no Connect cluster '{}' in this run", limits::shown(group)));
                }
                if self.workers() >= MAX_WORKERS {
                    return Err(format!(
                        "group: the run already has {} workers; the simulator runs at most {MAX_WORKERS}",
                        self.workers()
                    ));
                }
                Ok(())
            }
            Fault::CreateTopic { topic, partitions } => {
                limits::name("topic", topic, limits::MAX_TOPIC_NAME_LEN)?;
                if self.topics.contains_key(topic) {
                    return Err(format!("topic: '{}' already exists (TOPIC_ALREADY_EXISTS)", limits::shown(topic)));
                }
                let total: u64 = self.topics.values().map(|n| u64::from(*n)).sum::<u64>() + u64::from(*partitions);
                if *partitions == 0 || total > u64::from(MAX_PARTITIONS) {
                    return Err(format!(
                        "partitions: give 1 or more, and at most {MAX_PARTITIONS} partitions in all (this makes {total})"
                    ));
                }
                Ok(())
            }
            Fault::SetStandbyReplicas { group, replicas } => {
                limits::name("group", group, limits::MAX_NAME_LEN)?;
                // group.streams.max.standby.replicas (2) caps streams.num.standby.replicas.
                in_range(
                    "replicas",
                    u64::try_from(*replicas).unwrap_or(u64::MAX),
                    0,
                    2,
                    "group.streams.max.standby.replicas",
                )
            }
            Fault::RequestShutdown { consumer } => self.client("consumer", *consumer, true),
            Fault::AddInstance { group } => {
                let Some(threads) = self.streams.get(group) else {
                    return Err(format!(
                        "group: there is no Kafka Streams application '{}' in this run",
                        limits::shown(group)
                    ));
                };
                if self.consumers() + threads > MAX_CONSUMERS {
                    return Err(format!(
                        "group: the run already has {} consumers; the simulator runs at most {MAX_CONSUMERS}",
                        self.consumers()
                    ));
                }
                Ok(())
            }
        }
    }

    /// What `f` adds: a consumer, a worker, partitions.
    pub fn apply(&mut self, f: &Fault) {
        let next = self.clients.keys().next_back().map_or(1, |c| c + 1);
        match f {
            Fault::AddConsumer { group } => {
                self.clients.insert(next, true);
                *self.groups.entry(group.clone()).or_default() += 1;
            }
            Fault::AddWorker { .. } => {
                self.clients.insert(next, false);
            }
            Fault::AddPartitions { topic, count } => {
                if let Some(n) = self.topics.get_mut(topic) {
                    *n = (*n).max(*count);
                }
            }
            Fault::CreateTopic { topic, partitions } => {
                self.topics.entry(topic.clone()).or_insert(*partitions);
            }
            Fault::AddInstance { group } => {
                for i in 0..self.streams.get(group).copied().unwrap_or(0) {
                    self.clients.insert(next + i, true);
                }
            }
            _ => {}
        }
    }
}

/// Checks faults at their times against a run of `s`: the scenario's own
/// script (`faults[i]`) and the `extra` faults (named `extra_name[i]`, e.g. a
/// permalink's script), merged in time order as a run applies them.
pub fn check_faults(s: &Scenario, extra: &[(Millis, Fault)], extra_name: &str) -> Result<(), String> {
    let total = s.faults.len() + extra.len();
    if total > limits::MAX_FAULTS {
        return Err(format!("faults: {total} faults; at most {}", limits::MAX_FAULTS));
    }
    let mut all: Vec<(Millis, String, &Fault)> =
        s.faults.iter().enumerate().map(|(i, f)| (f.at, format!("faults[{i}]"), &f.fault)).collect();
    all.extend(extra.iter().enumerate().map(|(i, (at, f))| (*at, format!("{extra_name}[{i}]"), f)));
    for (at, path, _) in &all {
        in_range(&format!("{path}.at"), *at, 0, limits::MAX_RUN_MS, "a simulated day")?;
    }
    // Stable: faults at the same time apply in list order.
    all.sort_by_key(|(at, _, _)| *at);
    let mut targets = Targets::of_scenario(s);
    for (_, path, f) in all {
        let inner = if path.starts_with("faults[") { format!("{path}.fault") } else { path };
        targets.check(f).map_err(|e| format!("{inner}.{e}"))?;
        targets.apply(f);
    }
    Ok(())
}

/// The scenario's own fault script.
pub fn script(s: &Scenario) -> Result<(), String> {
    check_faults(s, &[], "")
}

impl World {
    /// The caps alone (partitions, consumers, workers): the world refuses
    /// additions beyond them whatever door a fault came through.
    pub(crate) fn within_caps(&self, f: &Fault) -> Result<(), CapExceeded> {
        let w = self;
        match f {
            Fault::AddPartitions { topic, count } => {
                let others: u64 =
                    w.cluster.topics.iter().filter(|(n, _)| *n != topic).map(|(_, t)| t.partitions.len() as u64).sum();
                if others + u64::from(*count) > u64::from(MAX_PARTITIONS) {
                    return Err(CapExceeded::Partitions { count: *count, max: MAX_PARTITIONS });
                }
                Ok(())
            }
            Fault::AddConsumer { .. }
                if w.clients.classics().count() + w.clients.async_consumers().count() >= MAX_CONSUMERS as usize =>
            {
                Err(CapExceeded::Consumers { max: MAX_CONSUMERS })
            }
            Fault::AddInstance { .. }
                if w.clients.iter().filter(|(_, p)| !matches!(p.client, Client::Worker(_))).count()
                    >= MAX_CONSUMERS as usize =>
            {
                Err(CapExceeded::Consumers { max: MAX_CONSUMERS })
            }
            Fault::AddWorker { .. } if w.clients.workers().count() >= MAX_WORKERS as usize => {
                Err(CapExceeded::Workers { max: MAX_WORKERS })
            }
            _ => Ok(()),
        }
    }

    /// Whether `f` can be injected now (its targets exist, it stays within the
    /// caps); the message names the fault's field.
    pub fn check_fault(&self, f: &Fault) -> Result<(), String> {
        Targets::of_world(self).check(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_must_name_what_the_run_has() {
        let w = World::new(Scenario::demo()).unwrap();
        assert!(w.check_fault(&Fault::CrashConsumer { consumer: 3 }).is_ok());
        assert_eq!(
            w.check_fault(&Fault::CrashConsumer { consumer: 99 }).unwrap_err(),
            "consumer: there is no c99 in this run (clients are c1 to c3)"
        );
        assert!(w
            .check_fault(&Fault::KillBroker { broker: 99 })
            .unwrap_err()
            .starts_with("broker: there is no broker-99"));
        // NetworkClient connects clients to brokers only: there is no c1-c2 link to cut.
        assert_eq!(
            w.check_fault(&Fault::CutLink { a: "c1".into(), b: "c2".into() }).unwrap_err(),
            "b: there is no link between c1 and c2: clients talk only to brokers"
        );
        assert!(w.check_fault(&Fault::CutLink { a: "c1".into(), b: "broker-0".into() }).is_ok());
        assert!(w.check_fault(&Fault::AddConsumer { group: "nope".into() }).unwrap_err().starts_with("group: "));
        let e = w.check_fault(&Fault::AddPartitions { topic: "orders".into(), count: u32::MAX }).unwrap_err();
        assert!(e.starts_with("count: ") && e.contains("at most 10000"), "{e}");
        assert!(w
            .check_fault(&Fault::PauseConsumer { consumer: 1, duration_ms: u64::MAX })
            .unwrap_err()
            .starts_with("durationMs: "));
        assert!(w.check_fault(&Fault::CutLink { a: "c1".into(), b: "c1".into() }).unwrap_err().starts_with("b: "));
        assert!(w
            .check_fault(&Fault::SetLinkLatency { a: "c1".into(), b: "broker-0".into(), latency_ms: u64::MAX })
            .unwrap_err()
            .starts_with("latencyMs: "));
    }

    #[test]
    fn a_script_may_name_consumers_it_adds_earlier() {
        let mut s = Scenario::demo();
        let at = |at, fault| crate::sim::scenario::ScheduledFault { at, fault };
        s.faults =
            vec![at(5000, Fault::CrashConsumer { consumer: 4 }), at(1000, Fault::AddConsumer { group: "demo".into() })];
        assert!(s.validate().is_ok());
        s.faults[1].at = 6000;
        assert_eq!(
            s.validate().unwrap_err(),
            "faults[0].fault.consumer: there is no c4 in this run (clients are c1 to c3)"
        );
    }
}
