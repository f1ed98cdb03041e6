//! The group leader's `StreamsPartitionAssignor.assign` under classic Kafka
//! Streams rebalancing: the topology configured against the topics (the
//! leader creates missing internal topics, `InternalTopicManager.makeReady`),
//! tasks from the partition counts, each instance's lags from its threads'
//! `SubscriptionInfo`, the `HighAvailabilityTaskAssignor`
//! (`assign::streams::high_availability`), each instance's tasks spread
//! over its threads (`assignTasksToThreads`), and the cooperative rule of
//! `populateActiveTaskAndPartitionsLists`: a task whose partitions another
//! thread still owns is held back (kept as a standby where the thread had
//! one) and a follow-up rebalance is requested at once
//! (`setNextRebalanceTime(0)`); with warm-ups pending, the leader's own
//! instance gets the probing rebalance's time.
//!
//! Simplified (fidelity notes): lags are sent, not offset sums; the leader
//! knows the changelog sizes without ListOffsets; the threads' leftover
//! tasks are taken in task order where Kafka iterates a `PriorityQueue`'s
//! array; missing source topics give every thread no tasks (Kafka's
//! `MissingSourceTopicException` path is not modelled).

use super::StreamsThread;
use crate::assign::streams::high_availability::{self as ha, ClientState, HaConfigs, LATEST_OFFSET};
use crate::assign::streams::TaskId;
use crate::assign::TopicPartition;
use crate::sim::coordinator::streams::topology;
use crate::sim::ctx::Ctx;
use crate::sim::message::{JoinGroupResponse, JoinGroupResponseMember};
use crate::sim::out::Out;
use crate::sim::streams_message::{StreamsAssignmentInfo, StreamsStatus, StreamsSubscriptionInfo, Tasks};
use crate::sim::streams_note::StreamsNote;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

type Assignments = (Vec<(String, Vec<TopicPartition>)>, Vec<(String, StreamsAssignmentInfo)>);

/// The thread a member id names (`c5-<uuid>` → `c5`).
fn thread_of(member_id: &str) -> String {
    member_id.split_once('-').map_or(member_id, |(c, _)| c).to_string()
}

fn to_tasks<'a>(ids: impl IntoIterator<Item = &'a TaskId>) -> Tasks {
    let mut t = Tasks::new();
    for id in ids {
        t.entry(id.subtopology_id.clone()).or_default().insert(id.partition);
    }
    t
}

fn names<'a>(ids: impl IntoIterator<Item = &'a TaskId>) -> Vec<String> {
    ids.into_iter().map(|t| t.to_string()).collect()
}

/// One instance in this rebalance: its threads (member ids, sorted) and state.
struct Client {
    consumers: Vec<String>,
    state: ClientState,
    /// Each consumer's previously owned stateful tasks (active or standby).
    prev_by_consumer: BTreeMap<String, BTreeSet<TaskId>>,
    prev_standby: BTreeSet<TaskId>,
}

impl StreamsThread {
    /// `StreamsPartitionAssignor.assign` (this thread leads the group).
    pub(crate) fn assign_as_leader(&mut self, ctx: &mut Ctx, r: &JoinGroupResponse, out: &mut Out) -> Assignments {
        let topics: BTreeMap<String, i32> =
            ctx.cluster.topics.iter().map(|(name, t)| (name.clone(), t.partitions.len() as i32)).collect();
        let configured = topology::configure(&self.topology, &topics);
        if !configured.to_create.is_empty() {
            // InternalTopicManager.makeReady: the leader creates the internal topics.
            let created: Vec<(String, i32)> = configured.to_create.iter().map(|(t, n)| (t.clone(), *n)).collect();
            out.create_topics.extend(created.iter().cloned());
            self.note(StreamsNote::LeaderCreatedInternalTopics { client: self.name(), topics: created }, out);
        }
        let (all, stateful) = tasks_of(&configured);
        let mut clients = clients_of(&r.members, &stateful, self.config.changelog_records_per_task);
        let configs = HaConfigs {
            acceptable_recovery_lag: self.config.acceptable_recovery_lag,
            max_warmup_replicas: self.config.max_warmup_replicas,
            num_standby_replicas: self.config.num_standby_replicas,
        };
        let mut states: BTreeMap<String, ClientState> =
            clients.iter().map(|(id, c)| (id.clone(), c.state.clone())).collect();
        // Missing internal topics are created above; anything else leaves no task to assign.
        let usable = configured.error.as_ref().is_none_or(|(code, _)| *code == StreamsStatus::MISSING_INTERNAL_TOPICS);
        let outcome = if usable { ha::assign(&mut states, &all, &stateful, configs) } else { ha::HaOutcome::default() };
        for (id, st) in states {
            if let Some(c) = clients.get_mut(&id) {
                c.state.active = st.active;
                c.state.standby = st.standby;
            }
        }
        let probing_at = outcome.probing_rebalance_needed.then(|| ctx.now + self.config.probing_rebalance_interval_ms);
        let owners = owned_partitions(&r.members);
        let mut partitions = Vec::new();
        let mut infos = Vec::new();
        let mut shown = Vec::new();
        let mut withheld_all = Vec::new();
        for (process, c) in &clients {
            let warm = outcome.warmups.get(process).cloned().unwrap_or_default();
            let mut load = BTreeMap::new();
            let stateful_active: BTreeSet<TaskId> = c.state.active.intersection(&stateful).cloned().collect();
            let stateless_active: BTreeSet<TaskId> = c.state.active.difference(&stateful).cloned().collect();
            let lag = |t: &TaskId| c.state.lag_for(t);
            let prev = |consumer: &str| {
                let mut v: Vec<TaskId> = c.prev_by_consumer.get(consumer).into_iter().flatten().cloned().collect();
                v.sort_by(|a, b| lag(a).cmp(&lag(b)).then_with(|| a.cmp(b)));
                v
            };
            let active_stateful = assign_tasks_to_threads(&stateful_active, true, &c.consumers, &prev, &mut load);
            let standby = assign_tasks_to_threads(&c.state.standby, true, &c.consumers, &prev, &mut load);
            let active_stateless = assign_tasks_to_threads(&stateless_active, false, &c.consumers, &prev, &mut load);
            // Only the leader's instance is asked to trigger the probing rebalance, by one thread.
            let mut encode_probing = self.process_id == *process && probing_at.is_some();
            for consumer in &c.consumers {
                let mut active: Vec<TaskId> = active_stateful.get(consumer).cloned().unwrap_or_default();
                active.extend(active_stateless.get(consumer).cloned().unwrap_or_default());
                // populateActiveTaskAndPartitionsLists: hold back a task still owned by another thread.
                let mut given = BTreeSet::new();
                let mut removed = BTreeSet::new();
                let mut tps = Vec::new();
                for t in active {
                    let parts = self.partitions_of(&t);
                    if parts.iter().any(|p| owners.get(p).is_some_and(|o| o != consumer)) {
                        removed.insert(t);
                    } else {
                        tps.extend(parts);
                        given.insert(t);
                    }
                }
                tps.sort();
                // buildStandbyTaskMap: a held-back task this instance had as a standby stays one.
                let mut standbys: BTreeSet<TaskId> =
                    standby.get(consumer).cloned().unwrap_or_default().into_iter().collect();
                for t in &removed {
                    if c.prev_standby.contains(t) && stateful.contains(t) {
                        standbys.insert(t.clone());
                    }
                }
                let warmups: BTreeSet<TaskId> = standbys.intersection(&warm).cloned().collect();
                let next_rebalance_ms = if !removed.is_empty() {
                    encode_probing = false;
                    Some(0)
                } else if encode_probing {
                    encode_probing = false;
                    probing_at
                } else {
                    None
                };
                let thread = thread_of(consumer);
                shown.push((thread.clone(), names(&given), names(&standbys), names(&warmups)));
                if !removed.is_empty() {
                    withheld_all.push((thread, names(&removed)));
                }
                partitions.push((consumer.clone(), tps));
                let info = StreamsAssignmentInfo {
                    active: to_tasks(&given),
                    standby: to_tasks(&standbys),
                    warmup: to_tasks(&warmups),
                    next_rebalance_ms,
                };
                infos.push((consumer.clone(), info));
            }
        }
        let note = StreamsNote::ClassicTasksAssigned {
            client: self.name(),
            generation: self.membership.generation,
            threads: shown,
            withheld: withheld_all,
            probing_at_ms: probing_at,
        };
        self.note(note, out);
        (partitions, infos)
    }

    /// The partitions a task reads: partition p of each of its input topics.
    fn partitions_of(&self, t: &TaskId) -> Vec<TopicPartition> {
        self.topology
            .subtopology(&t.subtopology_id)
            .map(|s| s.input_topics().map(|topic| TopicPartition::new(topic, t.partition)).collect())
            .unwrap_or_default()
    }
}

/// Every task and the stateful ones, from the configured subtopologies.
fn tasks_of(c: &topology::ConfiguredTopology) -> (BTreeSet<TaskId>, BTreeSet<TaskId>) {
    let mut all = BTreeSet::new();
    let mut stateful = BTreeSet::new();
    for s in &c.subtopologies {
        for p in 0..s.num_tasks {
            let t = TaskId::new(s.id.clone(), p);
            if s.stateful {
                stateful.insert(t.clone());
            }
            all.insert(t);
        }
    }
    (all, stateful)
}

/// `ClientMetadata` per process id, from the members' subscriptions, with
/// `computeTaskLags`: a task no thread of the instance has state for lags
/// by its whole changelog.
fn clients_of(
    members: &[JoinGroupResponseMember],
    stateful: &BTreeSet<TaskId>,
    changelog_records: i64,
) -> BTreeMap<String, Client> {
    let mut by_process: BTreeMap<String, Vec<(&String, &StreamsSubscriptionInfo)>> = BTreeMap::new();
    for m in members {
        if let Some(info) = &m.metadata.streams {
            by_process.entry(info.process_id.clone()).or_default().push((&m.member_id, info));
        }
    }
    by_process
        .into_iter()
        .map(|(process, threads)| {
            let mut lags: BTreeMap<TaskId, i64> = stateful.iter().map(|t| (t.clone(), changelog_records)).collect();
            let mut prev_by_consumer: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
            let mut prev_standby = BTreeSet::new();
            for (member, info) in &threads {
                let mine = prev_by_consumer.entry((*member).clone()).or_default();
                for (s, p, lag) in &info.task_lags {
                    let t = TaskId::new(s.clone(), *p);
                    if let Some(l) = lags.get_mut(&t) {
                        // The instance's lag: running beats any offset; else the least lag.
                        *l = if *lag == LATEST_OFFSET || *l == LATEST_OFFSET { LATEST_OFFSET } else { (*l).min(*lag) };
                        mine.insert(t);
                    }
                }
                for (s, ps) in &info.prev_standby {
                    for p in ps {
                        prev_standby.insert(TaskId::new(s.clone(), *p));
                    }
                }
            }
            let mut consumers: Vec<String> = threads.iter().map(|(m, _)| (*m).clone()).collect();
            consumers.sort();
            let state = ClientState::new(consumers.len() as u32, lags);
            (process, Client { consumers, state, prev_by_consumer, prev_standby })
        })
        .collect()
}

/// Who owns each partition now (the subscriptions' `ownedPartitions`).
fn owned_partitions(members: &[JoinGroupResponseMember]) -> BTreeMap<TopicPartition, String> {
    let mut owners = BTreeMap::new();
    for m in members {
        for tp in &m.metadata.owned_partitions {
            owners.insert(tp.clone(), m.member_id.clone());
        }
    }
    owners
}

/// `StreamsPartitionAssignor.assignTasksToThreads`: balanced over the
/// instance's threads, stateful tasks first back to their previous thread
/// (least lag first) up to the even share; `load` carries each thread's
/// count across the calls for active, standby and stateless tasks.
pub(crate) fn assign_tasks_to_threads(
    tasks: &BTreeSet<TaskId>,
    stateful: bool,
    consumers: &[String],
    prev_by_lag: &dyn Fn(&str) -> Vec<TaskId>,
    load: &mut BTreeMap<String, usize>,
) -> BTreeMap<String, Vec<TaskId>> {
    let mut assignment: BTreeMap<String, Vec<TaskId>> = consumers.iter().map(|c| (c.clone(), Vec::new())).collect();
    if consumers.is_empty() {
        return assignment;
    }
    let total = tasks.len() + load.values().sum::<usize>();
    let min_per_thread = total / consumers.len();
    let mut unassigned: BTreeSet<TaskId> = tasks.clone();
    let mut to_fill: VecDeque<String> = VecDeque::new();
    let mut skipped_prev_owner: BTreeMap<TaskId, String> = BTreeMap::new();
    let count = |c: &str, a: &BTreeMap<String, Vec<TaskId>>, load: &BTreeMap<String, usize>| {
        a.get(c).map_or(0, Vec::len) + load.get(c).copied().unwrap_or(0)
    };
    if !unassigned.is_empty() {
        for c in consumers {
            let target = min_per_thread as i64 - load.get(c).copied().unwrap_or(0) as i64;
            if stateful {
                for t in prev_by_lag(c) {
                    if unassigned.contains(&t) {
                        let mine = assignment.entry(c.clone()).or_default();
                        if (mine.len() as i64) < target {
                            mine.push(t.clone());
                            unassigned.remove(&t);
                        } else {
                            skipped_prev_owner.insert(t, c.clone());
                        }
                    }
                }
            }
            if (assignment[c].len() as i64) < target {
                to_fill.push_back(c.clone());
            }
        }
        while let Some(c) = to_fill.pop_front() {
            let Some(t) = unassigned.pop_first() else { break };
            assignment.entry(c.clone()).or_default().push(t);
            if count(&c, &assignment, load) < min_per_thread {
                to_fill.push_back(c);
            }
        }
        if !unassigned.is_empty() {
            for c in consumers {
                if count(c, &assignment, load) == min_per_thread {
                    to_fill.push_back(c.clone());
                }
            }
            for (t, c) in skipped_prev_owner {
                if to_fill.contains(&c) && unassigned.contains(&t) {
                    assignment.entry(c.clone()).or_default().push(t.clone());
                    unassigned.remove(&t);
                    to_fill.retain(|x| *x != c);
                }
            }
            for t in std::mem::take(&mut unassigned) {
                let Some(c) = to_fill.pop_front() else { break };
                assignment.entry(c).or_default().push(t);
            }
        }
    }
    for (c, ts) in &assignment {
        *load.entry(c.clone()).or_default() += ts.len();
    }
    assignment
}
