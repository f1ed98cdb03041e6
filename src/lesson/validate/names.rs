//! `Names`: what a lesson's scenario (and its actions) make exist — its
//! consumers and Connect workers (`c<n>`), brokers, groups (classic or
//! `group.protocol=consumer`, share groups, KIP-932, or the streams groups
//! of Kafka Streams applications, KIP-1071), topics and partitions,
//! connectors and tasks — and the checks that a name a step uses is one of them.

use super::states::{
    client_member_state, consumer_group_state, group_state, member_state, share_group_state, streams_group_state,
};
use crate::assign::TopicPartition;
use crate::lesson::check::{broker_id, consumer_idx};
use crate::lesson::model::Lesson;
use crate::sim::coordinator::streams::topology::configure;
use crate::sim::scenario::config::GroupProtocol;
use crate::sim::Fault;
use std::collections::{BTreeMap, BTreeSet};

/// What the lesson's scenario (and its actions) make exist.
pub(super) struct Names {
    /// Consumer indexes (`c<n>`).
    consumers: BTreeSet<u32>,
    brokers: u32,
    groups: BTreeSet<String>,
    pub(super) topics: BTreeMap<String, u32>,
    offsets_partitions: u32,
    /// Connect workers (`c<n>`, numbered after the consumers) and their cluster.
    pub(super) workers: BTreeMap<u32, String>,
    /// Connect clusters: connector name → number of tasks.
    connect: BTreeMap<String, BTreeMap<String, u32>>,
    /// Groups with `group.protocol=consumer` (KIP-848) and their consumers.
    consumer_groups: BTreeSet<String>,
    modern: BTreeSet<u32>,
    /// Share groups (KIP-932) and their share consumers.
    share_groups: BTreeSet<String>,
    share: BTreeSet<u32>,
    /// Streams groups (KIP-1071, one per `application.id`) and their stream
    /// threads (one member each), with each group's topology's task names.
    streams_groups: BTreeMap<String, BTreeSet<String>>,
    streams: BTreeMap<u32, String>,
}

impl Names {
    pub(super) fn of(lesson: &Lesson) -> Names {
        let s = &lesson.scenario;
        let mut topics: BTreeMap<String, u32> = s.topics.iter().map(|t| (t.name.clone(), t.partitions)).collect();
        let classic_and_modern: u32 = s.groups.iter().map(|g| g.consumers).sum();
        // The world starts the groups' consumers, then the share groups' ones.
        let initial = classic_and_modern + s.share_groups.iter().map(|g| g.consumers).sum::<u32>();
        let share_groups: BTreeSet<String> = s.share_groups.iter().map(|g| g.group_id.clone()).collect();
        let mut share: BTreeSet<u32> = (classic_and_modern + 1..=initial).collect();
        // Then every Streams application's threads, instance by instance.
        let mut streams: BTreeMap<u32, String> = BTreeMap::new();
        for a in &s.streams_apps {
            for _ in 0..a.instances * a.threads_per_instance {
                streams.insert(initial + 1 + streams.len() as u32, a.application_id.clone());
            }
        }
        let initial = initial + streams.len() as u32;
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
                Fault::AddInstance { group } => {
                    let per = s
                        .streams_apps
                        .iter()
                        .find(|a| &a.application_id == group)
                        .map_or(0, |a| a.threads_per_instance);
                    for _ in 0..per {
                        streams.insert(next, group.clone());
                        consumers.insert(next);
                        next += 1;
                    }
                }
                Fault::AddConsumer { group } => {
                    if consumer_groups.contains(group) {
                        modern.insert(next);
                    }
                    if share_groups.contains(group) {
                        share.insert(next);
                    }
                    consumers.insert(next);
                    next += 1;
                }
                // The world adds a worker only to a cluster it knows.
                Fault::AddWorker { group } if s.connect_clusters.iter().any(|c| &c.group_id == group) => {
                    workers.insert(next, group.clone());
                    next += 1;
                }
                Fault::CreateTopic { topic, partitions } => {
                    topics.entry(topic.clone()).or_insert(*partitions);
                }
                Fault::AddPartitions { topic, count } => {
                    if let Some(n) = topics.get_mut(topic) {
                        *n = (*n).max(*count);
                    }
                }
                _ => {}
            }
        }
        // Each streams group's tasks, from the topics as the lesson leaves them:
        // the coordinator's own `InternalTopicManager.configureTopics` gives each
        // subtopology's task count (none while a source topic is missing).
        let counts: BTreeMap<String, i32> = topics.iter().map(|(t, n)| (t.clone(), *n as i32)).collect();
        let mut streams_groups: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for a in &s.streams_apps {
            let tasks = streams_groups.entry(a.application_id.clone()).or_default();
            for sub in configure(&a.topology, &counts).subtopologies {
                tasks.extend((0..sub.num_tasks).map(|p| format!("{}_{p}", sub.id)));
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
                .chain(share_groups.iter().cloned())
                .chain(streams_groups.keys().cloned())
                .collect(),
            topics,
            offsets_partitions: s.broker.offsets_topic_num_partitions,
            workers,
            connect,
            consumer_groups,
            modern,
            share_groups,
            share,
            streams_groups,
            streams,
        }
    }

    /// A streams group (KIP-1071): a Kafka Streams application's `application.id`.
    pub(super) fn streams_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        if self.streams_groups.contains_key(group) {
            Ok(())
        } else {
            Err(format!(
                "'{group}' is not a streams group (a Kafka Streams application, KIP-1071) of this lesson ({:?})",
                self.streams_groups.keys().collect::<Vec<_>>()
            ))
        }
    }

    /// A task `<subtopology>_<partition>` of the streams group's topology.
    pub(super) fn streams_task(&self, group: &str, task: &str) -> Result<(), String> {
        self.streams_group(group)?;
        let tasks = &self.streams_groups[group];
        if tasks.contains(task) {
            Ok(())
        } else {
            Err(format!("'{task}' is not a task of {group}'s topology (its tasks: {tasks:?})"))
        }
    }

    /// The streams group of a stream thread (empty if it is none).
    pub(super) fn streams_group_of(&self, name: &str) -> String {
        consumer_idx(name).and_then(|c| self.streams.get(&c)).cloned().unwrap_or_default()
    }

    /// A Kafka Streams thread (`StreamThread`, one streams-group member).
    pub(super) fn stream_thread(&self, name: &str) -> Result<(), String> {
        self.consumer(name)?;
        match consumer_idx(name) {
            Some(c) if self.streams.contains_key(&c) => Ok(()),
            _ => Err(format!("'{name}' is not a Kafka Streams thread of this lesson")),
        }
    }

    /// A share group (KIP-932).
    pub(super) fn share_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        if self.share_groups.contains(group) {
            Ok(())
        } else {
            Err(format!("'{group}' is not a share group (KIP-932) of this lesson ({:?})", self.share_groups))
        }
    }

    /// Not a share group: a share group has no generation, leader,
    /// reconciliation, offset commits or rebalances (KIP-932).
    fn not_share(&self, group: &str) -> Result<(), String> {
        if self.share_groups.contains(group) {
            Err(format!("'{group}' is a share group (KIP-932): it has no generation, leader, committed offsets or revocation; use groupState (Empty, Stable), members, owns, sharedBy, shareStartOffset or a share note"))
        } else {
            Ok(())
        }
    }

    /// Not a streams group: its members are Kafka Streams threads, with tasks
    /// instead of partitions, epochs instead of generations (KIP-1071).
    fn not_streams(&self, group: &str) -> Result<(), String> {
        if self.streams_groups.contains_key(group) {
            Err(format!("'{group}' is a streams group (KIP-1071): use groupState (NotReady, Assigning, Reconciling, Stable), members, streamsTasks, taskOwner or a streams note"))
        } else {
            Ok(())
        }
    }

    /// A group that commits offsets: classic or consumer protocol, not a share group.
    pub(super) fn consumer_or_classic(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        self.not_share(group)?;
        self.not_streams(group)
    }

    /// A share consumer (`KafkaShareConsumer`).
    pub(super) fn share_consumer(&self, name: &str) -> bool {
        consumer_idx(name).is_some_and(|c| self.share.contains(&c))
    }

    /// A group with `group.protocol=consumer` (KIP-848).
    pub(super) fn consumer_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        self.not_share(group)?;
        self.not_streams(group)?;
        if self.consumer_groups.contains(group) {
            Ok(())
        } else {
            Err(format!("'{group}' is a classic group: epochs, targets and fencing belong to a group.protocol=consumer group (KIP-848); use generation"))
        }
    }

    /// A classic group (generations, a leader, a protocol vote, rebalances).
    pub(super) fn classic_group(&self, group: &str) -> Result<(), String> {
        self.group(group)?;
        self.not_share(group)?;
        self.not_streams(group)?;
        if self.consumer_groups.contains(group) {
            Err(format!("'{group}' uses group.protocol=consumer (KIP-848): it has no generation, leader or protocol vote; use groupEpoch, targetAssignmentEpoch or memberEpoch"))
        } else {
            Ok(())
        }
    }

    /// A consumer of a classic group (its member ids carry its client id).
    pub(super) fn classic_consumer(&self, name: &str) -> Result<(), String> {
        self.consumer(name)?;
        match consumer_idx(name) {
            Some(c) if self.share.contains(&c) => Err(format!(
                "'{name}' is a share consumer (KIP-932): use the fenced condition, or a share note (RecordsReleased, LocksExpired)"
            )),
            Some(c) if self.modern.contains(&c) => {
                Err(format!("'{name}' uses group.protocol=consumer (KIP-848): use the fenced condition or memberEpoch"))
            }
            _ => Ok(()),
        }
    }

    /// A consumer of a `group.protocol=consumer` group.
    pub(super) fn modern_consumer(&self, name: &str) -> Result<(), String> {
        self.consumer(name)?;
        match consumer_idx(name) {
            Some(c) if self.modern.contains(&c) => Ok(()),
            Some(c) if self.share.contains(&c) => Err(format!("'{name}' is a share consumer (KIP-932): its member epoch follows the group epoch, with no reconciliation; use owns, fenced or a share note")),
            _ => Err(format!("'{name}' is a classic consumer: member epochs, targets and fencing belong to group.protocol=consumer (KIP-848)")),
        }
    }

    /// The group-state names of `group`'s protocol.
    pub(super) fn group_state(&self, group: &str, state: &str) -> Result<(), String> {
        self.group(group)?;
        if self.share_groups.contains(group) {
            share_group_state(state)
        } else if self.streams_groups.contains_key(group) {
            streams_group_state(state)
        } else if self.consumer_groups.contains(group) {
            consumer_group_state(state)
        } else {
            group_state(state)
        }
    }

    /// The member-state names of `name`'s kind of client.
    pub(super) fn member_state(&self, name: &str, state: &str) -> Result<(), String> {
        self.client(name)?;
        match consumer_idx(name) {
            Some(c) if self.modern.contains(&c) || self.share.contains(&c) || self.streams.contains_key(&c) => {
                client_member_state(state)
            }
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

    /// A task of any streams group's topology (`0_3`, for highlights).
    fn streams_task_anywhere(&self, name: &str) -> bool {
        self.streams_groups.values().any(|tasks| tasks.contains(name))
    }

    /// A Connect worker of any cluster.
    pub(super) fn worker(&self, name: &str) -> Result<(), String> {
        match consumer_idx(name) {
            Some(c) if self.workers.contains_key(&c) => Ok(()),
            _ => Err(format!("'{name}' is not a Connect worker of this lesson ({})", self.worker_list())),
        }
    }

    /// A Connect worker of the cluster `group`.
    pub(super) fn worker_in(&self, name: &str, group: &str) -> Result<(), String> {
        self.worker(name)?;
        match consumer_idx(name).and_then(|c| self.workers.get(&c)) {
            Some(g) if g == group => Ok(()),
            Some(g) => Err(format!("'{name}' is a worker of {g}, not of {group}")),
            None => unreachable!("checked above"),
        }
    }

    /// A consumer or a Connect worker: the `c<n>` of a client process.
    pub(super) fn client(&self, name: &str) -> Result<(), String> {
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

    pub(super) fn connect_group(&self, group: &str) -> Result<&BTreeMap<String, u32>, String> {
        self.connect.get(group).ok_or_else(|| {
            let clusters: Vec<&String> = self.connect.keys().collect();
            if self.groups.contains(group) {
                format!("'{group}' is a consumer group, not a Connect cluster ({clusters:?})")
            } else {
                format!("'{group}' is not a Connect cluster of this lesson ({clusters:?})")
            }
        })
    }

    pub(super) fn connector(&self, group: &str, connector: &str) -> Result<u32, String> {
        let connectors = self.connect_group(group)?;
        connectors.get(connector).copied().ok_or_else(|| {
            let names: Vec<&String> = connectors.keys().collect();
            format!("no connector '{connector}' in {group} ({names:?})")
        })
    }

    pub(super) fn task_number(&self, group: &str, connector: &str, task: i32) -> Result<(), String> {
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
    pub(super) fn task(&self, group: &str, task: &str) -> Result<(), String> {
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

    pub(super) fn consumer(&self, name: &str) -> Result<(), String> {
        match consumer_idx(name) {
            Some(c) if self.consumers.contains(&c) => Ok(()),
            Some(c) if self.workers.contains_key(&c) => {
                Err(format!("'{name}' is a Connect worker, not a consumer ({})", self.consumer_list()))
            }
            _ => Err(format!("'{name}' is not a consumer of this lesson ({})", self.consumer_list())),
        }
    }

    pub(super) fn broker(&self, name: &str) -> Result<(), String> {
        match broker_id(name) {
            Some(b) if b < self.brokers => Ok(()),
            _ => Err(format!(
                "'{name}' is not a broker of this lesson (the scenario's brokers: {}, so broker-0..broker-{})",
                self.brokers,
                self.brokers.saturating_sub(1)
            )),
        }
    }

    pub(super) fn node(&self, name: &str) -> Result<(), String> {
        if name.starts_with("broker-") {
            self.broker(name)
        } else {
            self.client(name)
        }
    }

    pub(super) fn group(&self, name: &str) -> Result<(), String> {
        if self.groups.contains(name) {
            Ok(())
        } else {
            Err(format!("'{name}' is not a group of this lesson ({:?})", self.groups))
        }
    }

    pub(super) fn partition(&self, name: &str) -> Result<(), String> {
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
    pub(super) fn partitions(&self, names: &[String]) -> Result<(), String> {
        names.iter().enumerate().try_for_each(|(i, p)| self.partition(p).map_err(|e| format!("partitions[{i}]: {e}")))
    }

    /// A highlight or click target: a node, a partition, a group, or a
    /// Connect connector or task.
    pub(super) fn element(&self, name: &str) -> Result<(), String> {
        if consumer_idx(name).is_some() || broker_id(name).is_some() {
            self.node(name)
        } else if self.groups.contains(name) || self.connect_element(name) || self.streams_task_anywhere(name) {
            Ok(())
        } else if name.contains('-') && name.rsplit_once('-').is_some_and(|(_, p)| p.parse::<u32>().is_ok()) {
            self.partition(name)
        } else {
            Err(format!(
                "'{name}' is not a node, partition, group, connector, Connect task or Streams task of this lesson"
            ))
        }
    }
}
