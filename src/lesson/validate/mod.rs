//! Static checks of a lesson: both languages present, ids unique and stable,
//! names that exist in the scenario, questions well formed. Every problem is
//! reported with where it is.

use super::check::{broker_id, callback_named, consumer_idx};
use super::model::{Choice, Condition, Expectation, Lesson, Question, Text};
use crate::assign::TopicPartition;
use crate::sim::coordinator::classic::ClassicGroupState;
use crate::sim::coordinator::consumer::ConsumerGroupState;
use crate::sim::scenario::config::GroupProtocol;
use crate::sim::Fault;
use std::collections::{BTreeMap, BTreeSet};

mod rules;

const MEMBER_STATES: [&str; 4] = ["UNJOINED", "PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"];
/// The client `MemberState` of a consumer-protocol consumer (`clients/.../internals/MemberState.java`).
const CLIENT_MEMBER_STATES: [&str; 10] = [
    "UNSUBSCRIBED",
    "JOINING",
    "RECONCILING",
    "ACKNOWLEDGING",
    "STABLE",
    "FENCED",
    "PREPARE_LEAVING",
    "LEAVING",
    "STALE",
    "FATAL",
];
/// The coordinator's reconciliation state of a KIP-848 member (`modern/MemberState.java`).
const COORDINATOR_MEMBER_STATES: [&str; 3] = ["STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS"];
const CONSUMER_GROUP_STATES: [ConsumerGroupState; 5] = [
    ConsumerGroupState::Empty,
    ConsumerGroupState::Assigning,
    ConsumerGroupState::Reconciling,
    ConsumerGroupState::Stable,
    ConsumerGroupState::Dead,
];
const CONTEXT_STATES: [&str; 2] = ["LOADING", "ACTIVE"];
/// Longest a step may wait for its event.
pub const MAX_WITHIN_MS: u64 = 600_000;

/// What the lesson's scenario (and its actions) make exist.
struct Names {
    /// Consumer indexes (`c<n>`).
    consumers: BTreeSet<u32>,
    brokers: u32,
    groups: BTreeSet<String>,
    topics: BTreeMap<String, u32>,
    offsets_partitions: u32,
    /// Connect workers (`c<n>`, numbered after the consumers) and their cluster.
    workers: BTreeMap<u32, String>,
    /// Connect clusters: connector name → number of tasks.
    connect: BTreeMap<String, BTreeMap<String, u32>>,
    /// Groups with `group.protocol=consumer` (KIP-848) and their consumers.
    consumer_groups: BTreeSet<String>,
    modern: BTreeSet<u32>,
}

/// `AbstractStatus.State`.
const INSTANCE_STATES: [&str; 7] = ["UNASSIGNED", "RUNNING", "PAUSED", "FAILED", "DESTROYED", "RESTARTING", "STOPPED"];

impl Names {
    fn of(lesson: &Lesson) -> Names {
        let s = &lesson.scenario;
        let mut topics: BTreeMap<String, u32> = s.topics.iter().map(|t| (t.name.clone(), t.partitions)).collect();
        let initial: u32 = s.groups.iter().map(|g| g.consumers).sum();
        let mut consumers: BTreeSet<u32> = (1..=initial).collect();
        let consumer_groups: BTreeSet<String> = s
            .groups
            .iter()
            .filter(|g| g.config.group_protocol == GroupProtocol::Consumer)
            .map(|g| g.group_id.clone())
            .collect();
        // Each group's consumers are numbered in scenario order.
        let mut modern = BTreeSet::new();
        let mut first = 1;
        for g in &s.groups {
            if consumer_groups.contains(&g.group_id) {
                modern.extend(first..first + g.consumers);
            }
            first += g.consumers;
        }
        // Consumers and workers share the client numbering: consumers first,
        // then each cluster's workers, then processes added by faults in order.
        let mut next = initial + 1;
        let mut workers = BTreeMap::new();
        for c in &s.connect_clusters {
            for _ in 0..c.workers {
                workers.insert(next, c.group_id.clone());
                next += 1;
            }
        }
        let connect = s
            .connect_clusters
            .iter()
            .map(|c| (c.group_id.clone(), c.connectors.iter().map(|k| (k.name.clone(), k.tasks)).collect()))
            .collect();
        // A task's options count too (a consumer one of them adds is nameable).
        let options = lesson
            .steps
            .iter()
            .flat_map(|st| st.task.iter())
            .flat_map(|t| t.options.iter())
            .flat_map(|o| o.faults.iter());
        let faults = lesson
            .steps
            .iter()
            .flat_map(|st| st.actions.iter())
            .chain(options)
            .chain(s.faults.iter().map(|f| &f.fault));
        for f in faults {
            match f {
                Fault::AddConsumer { group } => {
                    if consumer_groups.contains(group) {
                        modern.insert(next);
                    }
                    consumers.insert(next);
                    next += 1;
                }
                // The world adds a worker only to a cluster it knows.
                Fault::AddWorker { group } if s.connect_clusters.iter().any(|c| &c.group_id == group) => {
                    workers.insert(next, group.clone());
                    next += 1;
                }
                Fault::AddPartitions { topic, count } => {
                    if let Some(n) = topics.get_mut(topic) {
                        *n = (*n).max(*count);
                    }
                }
                _ => {}
            }
        }
        Names {
            consumers,
            brokers: s.brokers,
            groups: s
                .groups
                .iter()
                .map(|g| g.group_id.clone())
                .chain(s.connect_clusters.iter().map(|c| c.group_id.clone()))
                .collect(),
            topics,
            offsets_partitions: s.broker.offsets_topic_num_partitions,
            workers,
            connect,
            consumer_groups,
            modern,
        }
    }

    /// A group with `group.protocol=consumer` (KIP-848).
    fn consumer_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        if self.consumer_groups.contains(group) {
            Ok(())
        } else {
            Err(format!("'{group}' is a classic group: epochs, targets and fencing belong to a group.protocol=consumer group (KIP-848); use generation"))
        }
    }

    /// A classic group (generations, a leader, a protocol vote, rebalances).
    fn classic_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        if self.consumer_groups.contains(group) {
            Err(format!("'{group}' uses group.protocol=consumer (KIP-848): it has no generation, leader or protocol vote; use groupEpoch, targetAssignmentEpoch or memberEpoch"))
        } else {
            Ok(())
        }
    }

    /// A consumer of a classic group (its member ids carry its client id).
    fn classic_consumer(&self, name: &str) -> Result<(), String> {
        self.consumer(name)?;
        match consumer_idx(name) {
            Some(c) if self.modern.contains(&c) => {
                Err(format!("'{name}' uses group.protocol=consumer (KIP-848): use the fenced condition or memberEpoch"))
            }
            _ => Ok(()),
        }
    }

    /// A consumer of a `group.protocol=consumer` group.
    fn modern_consumer(&self, name: &str) -> Result<(), String> {
        self.consumer(name)?;
        match consumer_idx(name) {
            Some(c) if self.modern.contains(&c) => Ok(()),
            _ => Err(format!("'{name}' is a classic consumer: member epochs, targets and fencing belong to group.protocol=consumer (KIP-848)")),
        }
    }

    /// The group-state names of `group`'s protocol.
    fn group_state(&self, group: &str, state: &str) -> Result<(), String> {
        self.group(group)?;
        if self.consumer_groups.contains(group) {
            consumer_group_state(state)
        } else {
            group_state(state)
        }
    }

    /// The member-state names of `name`'s kind of client.
    fn member_state(&self, name: &str, state: &str) -> Result<(), String> {
        self.client(name)?;
        match consumer_idx(name) {
            Some(c) if self.modern.contains(&c) => client_member_state(state),
            _ => member_state(state),
        }
    }

    fn worker_list(&self) -> String {
        if self.workers.is_empty() {
            return "this lesson has none".into();
        }
        let names: Vec<String> = self.workers.iter().map(|(i, g)| format!("c{i} of {g}")).collect();
        names.join(", ")
    }

    /// A Connect worker of any cluster.
    fn worker(&self, name: &str) -> Result<(), String> {
        match consumer_idx(name) {
            Some(c) if self.workers.contains_key(&c) => Ok(()),
            _ => Err(format!("'{name}' is not a Connect worker of this lesson ({})", self.worker_list())),
        }
    }

    /// A Connect worker of the cluster `group`.
    fn worker_in(&self, name: &str, group: &str) -> Result<(), String> {
        self.worker(name)?;
        match consumer_idx(name).and_then(|c| self.workers.get(&c)) {
            Some(g) if g == group => Ok(()),
            Some(g) => Err(format!("'{name}' is a worker of {g}, not of {group}")),
            None => unreachable!("checked above"),
        }
    }

    /// A consumer or a Connect worker: the `c<n>` of a client process.
    fn client(&self, name: &str) -> Result<(), String> {
        match consumer_idx(name) {
            Some(c) if self.workers.contains_key(&c) => Ok(()),
            _ if self.workers.is_empty() => self.consumer(name),
            _ => self.consumer(name).map_err(|_| {
                format!(
                    "'{name}' is neither a consumer ({}) nor a Connect worker ({}) of this lesson",
                    self.consumer_list(),
                    self.worker_list()
                )
            }),
        }
    }

    fn connect_group(&self, group: &str) -> Result<&BTreeMap<String, u32>, String> {
        self.connect.get(group).ok_or_else(|| {
            let clusters: Vec<&String> = self.connect.keys().collect();
            if self.groups.contains(group) {
                format!("'{group}' is a consumer group, not a Connect cluster ({clusters:?})")
            } else {
                format!("'{group}' is not a Connect cluster of this lesson ({clusters:?})")
            }
        })
    }

    fn connector(&self, group: &str, connector: &str) -> Result<u32, String> {
        let connectors = self.connect_group(group)?;
        connectors.get(connector).copied().ok_or_else(|| {
            let names: Vec<&String> = connectors.keys().collect();
            format!("no connector '{connector}' in {group} ({names:?})")
        })
    }

    fn task_number(&self, group: &str, connector: &str, task: i32) -> Result<(), String> {
        let n = self.connector(group, connector)?;
        if task >= 0 && (task as u32) < n {
            Ok(())
        } else {
            Err(format!(
                "task {connector}-{task}: connector {connector} of {group} has tasks {connector}-0..{connector}-{}",
                n.saturating_sub(1)
            ))
        }
    }

    /// A task id `<connector>-<n>` of the cluster `group`.
    fn task(&self, group: &str, task: &str) -> Result<(), String> {
        let parsed = task.rsplit_once('-').and_then(|(c, n)| n.parse::<i32>().ok().map(|n| (c, n)));
        let Some((connector, n)) = parsed else {
            return Err(format!("'{task}' is not a task id (<connector>-<number>, e.g. sink-0)"));
        };
        self.task_number(group, connector, n)
    }

    /// A task id or connector name of any Connect cluster (for highlights and targets).
    fn connect_element(&self, name: &str) -> bool {
        self.connect.iter().any(|(g, connectors)| connectors.contains_key(name) || self.task(g, name).is_ok())
    }

    /// `c1..c3`, or the list when workers sit between consumers.
    fn consumer_list(&self) -> String {
        let n = self.consumers.len() as u32;
        if n == 0 {
            "this lesson has none".into()
        } else if self.consumers.iter().copied().eq(1..=n) {
            format!("c1..c{n}")
        } else {
            self.consumers.iter().map(|c| format!("c{c}")).collect::<Vec<_>>().join(", ")
        }
    }

    fn consumer(&self, name: &str) -> Result<(), String> {
        match consumer_idx(name) {
            Some(c) if self.consumers.contains(&c) => Ok(()),
            Some(c) if self.workers.contains_key(&c) => {
                Err(format!("'{name}' is a Connect worker, not a consumer ({})", self.consumer_list()))
            }
            _ => Err(format!("'{name}' is not a consumer of this lesson ({})", self.consumer_list())),
        }
    }

    fn broker(&self, name: &str) -> Result<(), String> {
        match broker_id(name) {
            Some(b) if b < self.brokers => Ok(()),
            _ => Err(format!(
                "'{name}' is not a broker of this lesson (the scenario's brokers: {}, so broker-0..broker-{})",
                self.brokers,
                self.brokers.saturating_sub(1)
            )),
        }
    }

    fn node(&self, name: &str) -> Result<(), String> {
        if name.starts_with("broker-") {
            self.broker(name)
        } else {
            self.client(name)
        }
    }

    fn group(&self, name: &str) -> Result<(), String> {
        if self.groups.contains(name) {
            Ok(())
        } else {
            Err(format!("'{name}' is not a group of this lesson ({:?})", self.groups))
        }
    }

    fn partition(&self, name: &str) -> Result<(), String> {
        let tp: TopicPartition = name.parse()?;
        let n = if tp.topic == "__consumer_offsets" {
            Some(self.offsets_partitions)
        } else {
            self.topics.get(tp.topic.as_str()).copied()
        };
        match n {
            Some(n) if tp.partition >= 0 && (tp.partition as u32) < n => Ok(()),
            Some(n) => Err(format!("'{name}': {} has partitions 0..{}", tp.topic, n.saturating_sub(1))),
            None => Err(format!(
                "'{name}': no topic {} in this lesson (the scenario's topic names: {:?})",
                tp.topic,
                self.topics.keys().collect::<Vec<_>>()
            )),
        }
    }

    /// A `partitions` list: each entry a partition of the lesson, an error naming its index.
    fn partitions(&self, names: &[String]) -> Result<(), String> {
        names.iter().enumerate().try_for_each(|(i, p)| self.partition(p).map_err(|e| format!("partitions[{i}]: {e}")))
    }

    /// A highlight or click target: a node, a partition, a group, or a
    /// Connect connector or task.
    fn element(&self, name: &str) -> Result<(), String> {
        if consumer_idx(name).is_some() || broker_id(name).is_some() {
            self.node(name)
        } else if self.groups.contains(name) || self.connect_element(name) {
            Ok(())
        } else if name.contains('-') && name.rsplit_once('-').is_some_and(|(_, p)| p.parse::<u32>().is_ok()) {
            self.partition(name)
        } else {
            Err(format!("'{name}' is not a node, partition, group, connector or task of this lesson"))
        }
    }

    fn fault(&self, f: &Fault) -> Result<(), String> {
        let c = |i: &u32| self.consumer(&format!("c{i}"));
        let b = |i: &u32| self.broker(&format!("broker-{i}"));
        match f {
            // Workers are crashed and restarted by their c<n> like consumers.
            Fault::CrashConsumer { consumer } | Fault::RestartConsumer { consumer } => {
                self.client(&format!("c{consumer}"))
            }
            Fault::PauseConsumer { consumer, .. }
            | Fault::SlowProcessing { consumer, .. }
            | Fault::CloseConsumer { consumer }
            | Fault::CloseConsumerWithOptions { consumer, .. }
            | Fault::RestartConsumerAs { consumer, .. } => c(consumer),
            Fault::ChangeSubscription { consumer, topics } => {
                c(consumer)?;
                topics.iter().try_for_each(|t| {
                    if self.topics.contains_key(t) {
                        Ok(())
                    } else {
                        Err(format!("no topic {t}"))
                    }
                })
            }
            Fault::KillBroker { broker } | Fault::RestartBroker { broker } | Fault::ShutdownBroker { broker } => {
                b(broker)
            }
            Fault::CutLink { a, b }
            | Fault::HealLink { a, b }
            | Fault::SetLinkLatency { a, b, .. }
            | Fault::SetLinkLoss { a, b, .. } => self.node(a).and(self.node(b)),
            Fault::DropNextMessage { from, to } | Fault::HoldLink { from, to } | Fault::ReleaseLink { from, to } => {
                self.node(from).and(self.node(to))
            }
            Fault::AddConsumer { group } => self.group(group),
            Fault::AddWorker { group } => self.connect_group(group).map(|_| ()),
            Fault::FailTask { group, connector, task } | Fault::RestartTask { group, connector, task } => {
                self.task_number(group, connector, *task)
            }
            Fault::RestartConnector { group, connector, .. } => self.connector(group, connector).map(|_| ()),
            Fault::AddPartitions { topic, .. } => {
                if self.topics.contains_key(topic) {
                    Ok(())
                } else {
                    Err(format!("no topic {topic}"))
                }
            }
        }
    }

    fn condition(&self, c: &Condition) -> Result<(), String> {
        match c {
            Condition::GroupState { group, state } => self.group_state(group, state),
            Condition::MemberState { consumer, state } => self.member_state(consumer, state),
            Condition::Fenced { consumer } => self.modern_consumer(consumer),
            Condition::SessionTimeout { consumer } => self.client(consumer),
            Condition::PollTimeout { consumer } => self.consumer(consumer),
            Condition::Callback { consumer, callback, partition } => {
                self.consumer(consumer)?;
                callback_named(callback).ok_or_else(|| {
                    format!(
                        "unknown callback '{callback}' (onPartitionsRevoked, onPartitionsAssigned, onPartitionsLost)"
                    )
                })?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::Message { label, from, to } => {
                if label.trim().is_empty() {
                    return Err("message label is empty".into());
                }
                from.iter().chain(to.iter()).try_for_each(|n| self.node(n))
            }
            Condition::Redelivered { consumer } => consumer.as_deref().map_or(Ok(()), |c| self.consumer(c)),
            Condition::Processed { consumer, partition } => {
                self.consumer(consumer)?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::OffsetsCommitted { group, partition, .. } => {
                self.group(group)?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::CoordinatorState { group, state } => {
                self.group(group)?;
                if CONTEXT_STATES.contains(&state.as_str()) {
                    Ok(())
                } else {
                    Err(format!("unknown coordinator state '{state}' ({CONTEXT_STATES:?})"))
                }
            }
            Condition::Fault { contains } => {
                if contains.trim().is_empty() {
                    Err("fault text is empty".into())
                } else {
                    Ok(())
                }
            }
            Condition::Note { kind, contains, node } => {
                match kind.as_deref() {
                    Some(k) if !crate::sim::note::Note::KINDS.contains(&k) => {
                        return Err(format!("no note kind '{k}' (kinds: {})", crate::sim::note::Note::KINDS.join(", ")))
                    }
                    None if contains.trim().is_empty() => return Err("note text is empty".into()),
                    _ => {}
                }
                node.as_deref().map_or(Ok(()), |n| self.node(n))
            }
            Condition::Elapsed { ms } => {
                if *ms == 0 {
                    Err("elapsed ms must be positive".into())
                } else {
                    Ok(())
                }
            }
            Condition::Acted => Ok(()),
            Condition::TaskState { group, task, state, worker } => {
                self.task(group, task)?;
                instance_state(state)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
            Condition::ConnectorState { group, connector, state, worker } => {
                self.connector(group, connector)?;
                instance_state(state)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
            Condition::ScheduledRebalance { group, worker } => {
                self.connect_group(group)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
        }
    }

    fn expectation(&self, e: &Expectation) -> Result<(), String> {
        match e {
            Expectation::GroupState { group, state } => self.group_state(group, state),
            Expectation::Generation { group, .. }
            | Expectation::Protocol { group, .. }
            | Expectation::Rebalances { group, .. } => self.classic_group(group),
            Expectation::Members { group, .. }
            | Expectation::Redelivered { group, .. }
            | Expectation::Skipped { group, .. } => self.group(group),
            Expectation::Leader { group, consumer } => self.classic_group(group).and(self.client(consumer)),
            Expectation::GroupEpoch { group, .. } | Expectation::TargetAssignmentEpoch { group, .. } => {
                self.consumer_group(group)
            }
            Expectation::MemberEpoch { consumer, .. } | Expectation::ConsumerEpoch { consumer, .. } => {
                self.modern_consumer(consumer)
            }
            Expectation::TargetAssignment { consumer, partitions } => {
                self.modern_consumer(consumer)?;
                self.partitions(partitions)
            }
            Expectation::CoordinatorMemberState { consumer, state } => {
                self.modern_consumer(consumer)?;
                if COORDINATOR_MEMBER_STATES.contains(&state.as_str()) {
                    Ok(())
                } else {
                    Err(format!(
                        "unknown coordinator member state '{state}' (Kafka's modern MemberState: {})",
                        COORDINATOR_MEMBER_STATES.join(", ")
                    ))
                }
            }
            Expectation::Coordinator { group, broker } => self.group(group).and(self.broker(broker)),
            Expectation::KnownCoordinator { consumer, broker } => {
                self.consumer(consumer).and(broker.as_deref().map_or(Ok(()), |b| self.broker(b)))
            }
            Expectation::Owner { partition, consumer } => {
                self.partition(partition).and(consumer.as_deref().map_or(Ok(()), |c| self.consumer(c)))
            }
            Expectation::Owns { consumer, partitions } => {
                self.consumer(consumer)?;
                self.partitions(partitions)
            }
            Expectation::MemberState { consumer, state } => {
                self.client(consumer)?;
                if state == "crashed" {
                    Ok(())
                } else {
                    self.member_state(consumer, state)
                }
            }
            Expectation::Fatal { consumer, .. } | Expectation::PollTimeouts { consumer, .. } => self.consumer(consumer),
            Expectation::SessionTimeouts { consumer, .. } => self.classic_consumer(consumer),
            Expectation::Committed { group, partition, .. } | Expectation::CommittedNext { group, partition } => {
                self.group(group).and(self.partition(partition))
            }
            Expectation::Time { .. } => Ok(()),
            Expectation::Task { group, task, worker, state } => {
                self.task(group, task)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))?;
                state.as_deref().map_or(Ok(()), instance_state)
            }
            Expectation::Connector { group, connector, worker, state } => {
                self.connector(group, connector)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))?;
                state.as_deref().map_or(Ok(()), instance_state)
            }
            Expectation::WorkerTasks { worker, tasks } => {
                self.worker(worker)?;
                let group = consumer_idx(worker).and_then(|c| self.workers.get(&c)).cloned().unwrap_or_default();
                tasks.iter().try_for_each(|t| self.task(&group, t))
            }
            Expectation::WorkerGeneration { worker, .. } | Expectation::ScheduledRebalance { worker, .. } => {
                self.worker(worker)
            }
        }
    }
}

fn group_state(s: &str) -> Result<(), String> {
    if ClassicGroupState::ALL.iter().any(|g| g.name() == s) {
        Ok(())
    } else {
        Err(format!("unknown group state '{s}' (Kafka's ClassicGroupState: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead)"))
    }
}

fn consumer_group_state(s: &str) -> Result<(), String> {
    if CONSUMER_GROUP_STATES.iter().any(|g| g.name() == s) {
        Ok(())
    } else {
        Err(format!("unknown consumer group state '{s}' (Kafka's ConsumerGroupState for group.protocol=consumer: Empty, Assigning, Reconciling, Stable, Dead)"))
    }
}

fn client_member_state(s: &str) -> Result<(), String> {
    if CLIENT_MEMBER_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!(
            "unknown consumer-protocol member state '{s}' (the client's MemberState: {})",
            CLIENT_MEMBER_STATES.join(", ")
        ))
    }
}

fn instance_state(s: &str) -> Result<(), String> {
    if INSTANCE_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!(
            "unknown connector/task state '{s}' (Connect's AbstractStatus.State: {})",
            INSTANCE_STATES.join(", ")
        ))
    }
}

fn member_state(s: &str) -> Result<(), String> {
    if MEMBER_STATES.contains(&s) {
        Ok(())
    } else {
        Err(format!("unknown member state '{s}' ({MEMBER_STATES:?})"))
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Han characters: a `zh` sentence must contain some (an untranslated copy does not).
fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Two plain words in a row (`the group`): English prose rather than a name
/// like `__consumer_offsets-8`, which reads the same in both languages.
fn is_prose(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    words.windows(2).any(|w| w.iter().all(|x| x.chars().all(|c| c.is_ascii_alphabetic())))
}

fn text(errors: &mut Vec<String>, at: &str, t: &Text) {
    if t.en.trim().is_empty() {
        errors.push(format!("{at}.en: the English text is missing or empty"));
    }
    if t.zh.trim().is_empty() {
        errors.push(format!("{at}.zh: the Chinese text is missing or empty"));
    } else if !has_han(&t.zh) && is_prose(&t.zh) {
        errors.push(format!("{at}.zh: the Chinese text is English words with no Chinese characters"));
    }
}

fn question(errors: &mut Vec<String>, names: &Names, at: &str, q: &Question) {
    text(errors, &format!("{at}.prompt"), &q.prompt);
    text(errors, &format!("{at}.explanation"), &q.explanation);
    match (q.choices.is_empty(), q.targets.is_empty()) {
        (false, false) => errors.push(format!("{at}: give either choices or targets, not both")),
        (true, true) => {
            errors.push(format!("{at}: give choices (multiple choice) or targets (click a node or partition)"))
        }
        (false, true) => {
            if q.choices.len() < 2 {
                errors.push(format!("{at}.choices: a question needs at least 2 choices"));
            }
            for (i, c) in q.choices.iter().enumerate() {
                text(errors, &format!("{at}.choices[{i}]"), c);
            }
            match &q.answer {
                Choice::Index(i) if *i < q.choices.len() => {}
                Choice::Index(i) => errors.push(format!(
                    "{at}.answer: {i} is out of range (there are {} choices, numbered from 0)",
                    q.choices.len()
                )),
                Choice::Target(t) => errors.push(format!("{at}.answer: '{t}' must be the index of a choice")),
            }
        }
        (true, false) => {
            if q.targets.len() < 2 {
                errors.push(format!("{at}.targets: a question needs at least 2 targets"));
            }
            for t in &q.targets {
                if let Err(e) = names.element(t) {
                    errors.push(format!("{at}.targets: {e}"));
                }
            }
            match &q.answer {
                Choice::Target(t) if q.targets.contains(t) => {}
                other => errors.push(format!("{at}.answer: {other:?} is not one of the targets {:?}", q.targets)),
            }
        }
    }
}

/// Every problem of `lesson`, each naming where it is; empty when valid.
pub fn validate(lesson: &Lesson) -> Vec<String> {
    let mut errors = Vec::new();
    if !is_id(&lesson.id) {
        errors.push(format!("id: '{}' must be lowercase letters, digits and '-'", lesson.id));
    }
    text(&mut errors, "title", &lesson.title);
    text(&mut errors, "summary", &lesson.summary);
    if let Err(e) = lesson.scenario.validate() {
        // The steps name the scenario's consumers and topics: an impossible
        // scenario (4 billion consumers) is reported alone, its names never built.
        errors.push(crate::json::under("scenario", &e));
        let prefix = format!("lesson {} ({})", lesson.number, lesson.id);
        return errors.into_iter().map(|e| format!("{prefix}: {e}")).collect();
    }
    let names = Names::of(lesson);
    if lesson.steps.is_empty() {
        errors.push("steps: a lesson needs at least one step".into());
    }
    let mut ids = BTreeSet::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = format!("step {} ({})", i + 1, step.id);
        if !is_id(&step.id) {
            errors.push(format!("{at}.id: must be lowercase letters, digits and '-'"));
        }
        if !ids.insert(step.id.as_str()) {
            errors.push(format!("{at}.id: '{}' is used by an earlier step", step.id));
        }
        text(&mut errors, &format!("{at}.narration"), &step.narration);
        for h in &step.highlights {
            if let Err(e) = names.element(h) {
                errors.push(format!("{at}.highlights: {e}"));
            }
        }
        for (k, f) in step.actions.iter().enumerate() {
            if let Err(e) = names.fault(f) {
                errors.push(format!("{at}.actions[{k}]: {e}"));
            }
        }
        if let Err(e) = names.condition(&step.until) {
            errors.push(format!("{at}.until: {e}"));
        }
        if step.within_ms == 0 || step.within_ms > MAX_WITHIN_MS {
            errors.push(format!("{at}.withinMs: {} is outside 1..={MAX_WITHIN_MS}", step.within_ms));
        }
        for (k, e) in step.expect.iter().enumerate() {
            if let Err(e) = names.expectation(e) {
                errors.push(format!("{at}.expect[{k}]: {e}"));
            }
        }
        if step.actions_after_answer && (step.question.is_none() || step.actions.is_empty()) {
            errors.push(format!("{at}.actionsAfterAnswer: needs both a question and actions"));
        }
        if let Some(q) = &step.question {
            question(&mut errors, &names, &format!("{at}.question"), q);
            if matches!(step.until, Condition::Elapsed { .. }) {
                errors.push(format!(
                    "{at}.until: a question step must wait for the event it asks about, not for elapsed time"
                ));
            }
            if step.expect.is_empty() {
                errors
                    .push(format!("{at}.expect: a question step needs expectations that check the outcome it reveals"));
            }
            rules::question(&mut errors, &names, &format!("{at}.question"), q);
        }
        if let Some(t) = &step.task {
            rules::task(&mut errors, &names, &format!("{at}.task"), t);
        }
        if let Some(c) = &step.compare {
            text(&mut errors, &format!("{at}.compare.label"), &c.label);
            if let Err(e) = c.comparison() {
                errors.push(format!("{at}.compare.{e}"));
            }
        }
    }
    let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
    if questions < 2 {
        errors.push(format!(
            "steps: a lesson needs at least 2 questions (predict, then reveal); this one has {questions}"
        ));
    }
    rules::lesson(&mut errors, lesson);
    text(&mut errors, "tryIt.text", &lesson.try_it.text);
    text(&mut errors, "tryIt.experiment", &lesson.try_it.experiment);
    for (k, f) in lesson.try_it.faults.iter().enumerate() {
        if let Err(e) = names.fault(f) {
            errors.push(format!("tryIt.faults[{k}]: {e}"));
        }
    }
    let prefix = format!("lesson {} ({})", lesson.number, lesson.id);
    errors.into_iter().map(|e| format!("{prefix}: {e}")).collect()
}

/// Parses a lesson file and validates it; the error lists every problem.
/// A file in the older format (see [`upgrade`]) is read too.
pub fn load(json: &str) -> Result<Lesson, String> {
    let mut value: Option<serde_json::Value> = crate::json::from_str(json).ok();
    let upgraded = value.as_mut().and_then(|v| upgrade(v).then(|| v.to_string()));
    let json = upgraded.as_deref().unwrap_or(json);
    let lesson: Lesson = crate::json::from_str_object(json).map_err(|e| format!("lesson JSON: {e}"))?;
    let errors = validate(&lesson);
    if errors.is_empty() {
        Ok(lesson)
    } else {
        Err(errors.join("\n"))
    }
}

/// Rewrites a lesson written in the older format, where a step's `until`, its
/// `expect`, a task's `goal` and `checks[].expect`, and a question's
/// `conceals` were tagged inside (`{"type": "groupState", "group": "demo"}`),
/// to today's (`{"groupState": {"group": "demo"}}`, and `"acted"`). Faults
/// keep their `type`. Says whether anything changed.
pub fn upgrade(lesson: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    fn tagged(v: &mut Value) -> bool {
        let Some(map) = v.as_object_mut() else { return false };
        let Some(Value::String(kind)) = map.get("type").cloned() else { return false };
        map.remove("type");
        let fields = std::mem::take(map);
        *v = if fields.is_empty() && kind == "acted" {
            Value::String(kind)
        } else {
            Value::Object([(kind, Value::Object(fields))].into_iter().collect())
        };
        true
    }
    fn each(v: Option<&mut Value>, f: &mut impl FnMut(&mut Value) -> bool) -> bool {
        let Some(Value::Array(xs)) = v else { return false };
        xs.iter_mut().fold(false, |changed, x| f(x) | changed)
    }
    let mut changed = false;
    for step in lesson.get_mut("steps").and_then(Value::as_array_mut).into_iter().flatten() {
        changed |= step.get_mut("until").is_some_and(tagged);
        changed |= each(step.get_mut("expect"), &mut tagged);
        if let Some(q) = step.get_mut("question") {
            changed |= each(q.get_mut("conceals"), &mut tagged);
        }
        if let Some(t) = step.get_mut("task") {
            changed |= each(t.get_mut("goal"), &mut tagged);
            changed |= each(t.get_mut("options"), &mut |o| {
                each(o.get_mut("checks"), &mut |c| c.get_mut("expect").is_some_and(tagged))
            });
        }
    }
    changed
}
