//! Kafka Streams applications as the page draws them (KIP-1071 streams
//! groups): each application's `KafkaStreams` instances (one process id
//! each) holding their stream threads, each thread's tasks as chips (`0_3`)
//! — active and running, active and restoring its stores (with how far),
//! standby, being revoked, or assigned by the coordinator and not yet taken
//! — the topology once (subtopologies with their topics), and the group as
//! its coordinator holds it with the status codes of the last heartbeats.
//! Pure functions of the world; `src/web/streams.rs` only draws them.

use crate::lesson::conceal::{Concealed, Kind};
use crate::sim::client::streams::{StreamsThread, TaskState};
use crate::sim::coordinator::streams::StreamsGroup;
use crate::sim::state_machine::StateMachine;
use crate::sim::streams_message::{has_task, StreamsStatus, Tasks, TasksTuple};
use crate::sim::world::MemberKind;
use crate::sim::{Millis, World};

/// What a chip shows of a task on a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipKind {
    /// An active task processing records (`Task.State.RUNNING`).
    Running,
    /// An active stateful task restoring its stores from the changelog
    /// (`Task.State.RESTORING`, `StoreChangelogReader`): how far, 0–100 %.
    Restoring { percent: u8 },
    /// A standby replica following the changelog (`StandbyTask`).
    Standby,
    /// Classic rebalancing: a new standby still catching up with its
    /// changelog (how far); `warmup` when the leader placed it so the task
    /// can move here at a probing rebalance (`TaskMovement`).
    CatchingUp { percent: u8, warmup: bool },
    /// The coordinator took it away; the thread is committing and closing it
    /// (`StreamsRebalanceListener.onTasksRevoked`).
    Revoking,
    /// In the coordinator's target for the member, not yet running on it:
    /// it waits for another thread to give it up, or for the next heartbeat.
    Pending { standby: bool },
}

impl ChipKind {
    /// A class name for the drawing and a stable word for tests.
    pub fn name(self) -> &'static str {
        match self {
            ChipKind::Running => "active",
            ChipKind::Restoring { .. } => "restoring",
            ChipKind::Standby => "standby",
            ChipKind::CatchingUp { .. } => "catching-up",
            ChipKind::Revoking => "revoking",
            ChipKind::Pending { .. } => "pending",
        }
    }
}

/// One task on one thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskChip {
    pub subtopology: String,
    pub partition: i32,
    pub kind: ChipKind,
}

impl TaskChip {
    /// `0_3`, as Kafka Streams prints a `TaskId`.
    pub fn label(&self) -> String {
        format!("{}_{}", self.subtopology, self.partition)
    }
}

/// A stream thread: one member of the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadView {
    /// The client (`c<n>`).
    pub idx: u32,
    /// 1-based within its instance (`StreamThread-<n>`).
    pub thread: u32,
    pub alive: bool,
    /// The member's `MemberState` (JOINING, RECONCILING, STABLE...).
    pub state: String,
    /// The member epoch, or under classic rebalancing the generation.
    pub member_epoch: i32,
    /// Active tasks first (by subtopology, partition), then standbys, then what is pending.
    pub chips: Vec<TaskChip>,
}

/// A `KafkaStreams` instance: a process and its threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceView {
    /// 1-based within the application.
    pub instance: u32,
    pub process_id: String,
    pub threads: Vec<ThreadView>,
}

impl InstanceView {
    /// A process whose threads have all crashed or stopped is down.
    pub fn alive(&self) -> bool {
        self.threads.iter().any(|t| t.alive)
    }
}

/// One subtopology with its topics, and how many tasks it has once configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtopologyView {
    pub id: String,
    pub source_topics: Vec<String>,
    pub repartition_sources: Vec<String>,
    pub repartition_sinks: Vec<String>,
    pub changelogs: Vec<String>,
    /// `maxNumInputPartitions` once the coordinator configured the topology.
    pub tasks: Option<i32>,
}

impl SubtopologyView {
    pub fn stateful(&self) -> bool {
        !self.changelogs.is_empty()
    }
}

/// Classic Kafka Streams rebalancing: the application's classic group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicView {
    /// `ClassicGroupState` on the coordinator; `None` before the first JoinGroup.
    pub state: Option<&'static str>,
    pub generation: i32,
    /// The thread leading the group (it runs `StreamsPartitionAssignor`).
    pub leader: Option<u32>,
    /// The next follow-up or probing rebalance a live thread has scheduled.
    pub next_rebalance_ms: Option<Millis>,
}

/// One Kafka Streams application and its streams group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamsAppView {
    pub group_id: String,
    /// `Some` under classic rebalancing (`group.protocol=classic`): the
    /// group's own fields below are then those of no streams group.
    pub classic: Option<ClassicView>,
    /// `StreamsGroupState` on the coordinator; `None` before the first heartbeat.
    pub state: Option<&'static str>,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// `streams.num.standby.replicas` the last target was computed with.
    pub standby_replicas: i32,
    /// The status codes of the last heartbeat answers of the live threads, each once.
    pub statuses: Vec<StreamsStatus>,
    /// The group's topology (the first member's), else the scenario's.
    pub topology: Vec<SubtopologyView>,
    pub topology_epoch: i32,
    pub instances: Vec<InstanceView>,
    /// A lesson's question hides which thread runs which task (no chips are drawn).
    pub tasks_hidden: bool,
}

/// What is in motion in an application, for a one-line summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Motion {
    pub crashed_threads: usize,
    pub waiting: usize,
    pub restoring: usize,
    pub giving_up: usize,
    pub catching_up: usize,
}

impl StreamsAppView {
    /// Crashed threads and the chips waiting, restoring and being given up.
    pub fn motion(&self) -> Motion {
        let mut m = Motion::default();
        for t in self.instances.iter().flat_map(|i| &i.threads) {
            m.crashed_threads += usize::from(!t.alive);
            for c in &t.chips {
                match c.kind {
                    ChipKind::Pending { .. } => m.waiting += 1,
                    ChipKind::Restoring { .. } => m.restoring += 1,
                    ChipKind::Revoking => m.giving_up += 1,
                    ChipKind::CatchingUp { .. } => m.catching_up += 1,
                    ChipKind::Running | ChipKind::Standby => {}
                }
            }
        }
        m
    }
}

/// Every Kafka Streams application of the run, in scenario order.
pub fn streams_apps(world: &World) -> Vec<StreamsAppView> {
    world.scenario.streams_app_ids().map(|id| app(world, id)).collect()
}

fn app(world: &World, group_id: &str) -> StreamsAppView {
    let group = world.streams_group(group_id).map(|(_, g)| g);
    let threads: Vec<(bool, &StreamsThread)> = world
        .members_of(group_id)
        .filter_map(|m| match m.kind {
            MemberKind::Streams(t) => Some((m.alive, t)),
            _ => None,
        })
        .collect();
    let mut instances: Vec<InstanceView> = Vec::new();
    for (alive, t) in &threads {
        let view = thread_view(world, group, *alive, t);
        match instances.iter_mut().find(|i| i.instance == t.instance) {
            Some(i) => i.threads.push(view),
            None => instances.push(InstanceView {
                instance: t.instance,
                process_id: t.process_id.clone(),
                threads: vec![view],
            }),
        }
    }
    instances.sort_by_key(|i| i.instance);
    for i in &mut instances {
        i.threads.sort_by_key(|t| t.thread);
    }
    let statuses = last_statuses(world, group_id);
    let spec = world.scenario.streams_apps.iter().rev().find(|a| a.application_id == group_id);
    let topology = group.and_then(|g| g.topology.as_ref()).or(spec.map(|a| &a.topology));
    let configured = group.and_then(|g| g.configured.as_ref());
    let classic = threads.iter().any(|(_, t)| t.is_classic()).then(|| classic_view(world, group_id, &threads));
    StreamsAppView {
        group_id: group_id.to_string(),
        classic,
        state: group.map(|g| g.state.name()),
        group_epoch: group.map_or(0, |g| g.group_epoch),
        assignment_epoch: group.map_or(0, |g| g.assignment_epoch),
        standby_replicas: group.map_or(0, |g| g.num_standby_replicas),
        statuses,
        topology_epoch: topology.map_or(0, |t| t.epoch),
        topology: topology
            .map(|t| {
                t.subtopologies
                    .iter()
                    .map(|s| SubtopologyView {
                        id: s.subtopology_id.clone(),
                        source_topics: s.source_topics.clone(),
                        repartition_sources: s.repartition_source_topics.iter().map(|x| x.name.clone()).collect(),
                        repartition_sinks: s.repartition_sink_topics.clone(),
                        changelogs: s.state_changelog_topics.iter().map(|x| x.name.clone()).collect(),
                        tasks: configured
                            .and_then(|c| c.subtopologies.iter().find(|x| x.id == s.subtopology_id))
                            .map(|x| x.num_tasks),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        instances,
        tasks_hidden: false,
    }
}

/// The classic group of an application under classic rebalancing.
fn classic_view(world: &World, group_id: &str, threads: &[(bool, &StreamsThread)]) -> ClassicView {
    let group = world.group(group_id).map(|(_, g)| g);
    let leader = group
        .and_then(|g| g.leader_id.as_deref())
        .and_then(|id| threads.iter().find(|(alive, t)| *alive && t.membership.member_id == id).map(|(_, t)| t.idx));
    ClassicView {
        state: group.map(|g| g.state.name()),
        generation: group.map_or(0, |g| g.generation_id),
        leader,
        next_rebalance_ms: threads.iter().filter(|(alive, _)| *alive).filter_map(|(_, t)| t.next_rebalance_at).min(),
    }
}

/// What an open lesson's question hides (`lesson::conceal`), so the panel
/// does not answer it: `owners` hides which thread runs which task (every
/// chip); `status` hides where tasks are heading — restoring, being given
/// up, waiting (an active task shows as active) — and the heartbeats'
/// status codes.
pub fn conceal(apps: &mut [StreamsAppView], concealed: &Concealed) {
    for a in apps {
        let chips = a.instances.iter_mut().flat_map(|i| i.threads.iter_mut()).map(|t| &mut t.chips);
        if concealed.hides(Kind::Owners, &a.group_id) {
            a.tasks_hidden = true;
            chips.for_each(Vec::clear);
        } else if concealed.hides(Kind::Status, &a.group_id) {
            for c in chips {
                c.retain(|c| !matches!(c.kind, ChipKind::Pending { .. }));
                for chip in c.iter_mut() {
                    if matches!(chip.kind, ChipKind::Restoring { .. } | ChipKind::Revoking) {
                        chip.kind = ChipKind::Running;
                    }
                    if matches!(chip.kind, ChipKind::CatchingUp { .. }) {
                        chip.kind = ChipKind::Standby;
                    }
                }
            }
        }
        if concealed.hides(Kind::Status, &a.group_id) {
            a.statuses.clear();
        }
    }
}

/// The status codes of the streams groups' last heartbeats that a lesson's
/// question does not hide (`status`), for the caption.
pub fn shown_statuses(world: &World, concealed: &Concealed) -> Vec<StreamsStatus> {
    let shown = world.scenario.streams_app_ids().filter(|g| !concealed.hides(Kind::Status, g));
    let mut v: Vec<StreamsStatus> = shown.flat_map(|g| last_statuses(world, g)).collect();
    v.sort();
    v.dedup();
    v
}

fn each(tasks: &Tasks) -> impl Iterator<Item = (&String, i32)> + '_ {
    tasks.iter().flat_map(|(s, ps)| ps.iter().map(move |p| (s, *p)))
}

/// How far a restoring task is: the thread restores
/// `changelogRecordsPerTask` at `restoreRecordsPerSecond` (as
/// `StreamsThread::start_active` times it), ending at `until`.
fn restored_percent(t: &StreamsThread, until: Millis, now: Millis) -> u8 {
    let c = &t.config;
    let full: Millis =
        (c.changelog_records_per_task.max(0) as u64 * 1000).div_ceil(c.restore_records_per_second.max(1) as u64);
    if full == 0 {
        return 100;
    }
    let left = until.saturating_sub(now).min(full);
    (100 - (left * 100).div_ceil(full)) as u8
}

fn thread_view(world: &World, group: Option<&StreamsGroup>, alive: bool, t: &StreamsThread) -> ThreadView {
    let mut chips = Vec::new();
    // A crashed process runs nothing; what it last held is not shown as running.
    if alive {
        // The assignment being moved to, if a revocation is under way.
        let next: Option<&TasksTuple> = t.target.as_ref();
        for (s, p) in each(&t.owned.active) {
            let kind = if next.is_some_and(|n| !has_task(&n.active, s, p)) {
                ChipKind::Revoking
            } else {
                match t.tasks.get(&(s.clone(), p)) {
                    Some(TaskState::Restoring { until }) => {
                        ChipKind::Restoring { percent: restored_percent(t, *until, world.now) }
                    }
                    _ => ChipKind::Running,
                }
            };
            chips.push(TaskChip { subtopology: s.clone(), partition: p, kind });
        }
        // What the coordinator's target gives the member that it does not run yet.
        let target = group.and_then(|g| g.target_assignment.get(&t.member_id));
        for (s, p) in each(&t.owned.standby) {
            // A standby about to become active here is drawn once, as waiting.
            if !target.is_some_and(|x| has_task(&x.active, s, p)) {
                let kind = match t.tasks.get(&(s.clone(), p)) {
                    Some(TaskState::CatchingUp { until }) => ChipKind::CatchingUp {
                        percent: restored_percent(t, *until, world.now),
                        warmup: has_task(&t.warmups, s, p),
                    },
                    _ => ChipKind::Standby,
                };
                chips.push(TaskChip { subtopology: s.clone(), partition: p, kind });
            }
        }
        if let Some(target) = target.filter(|_| !t.member_id.is_empty()) {
            for (tasks, owned, standby) in
                [(&target.active, &t.owned.active, false), (&target.standby, &t.owned.standby, true)]
            {
                for (s, p) in each(tasks) {
                    if !has_task(owned, s, p) {
                        chips.push(TaskChip {
                            subtopology: s.clone(),
                            partition: p,
                            kind: ChipKind::Pending { standby },
                        });
                    }
                }
            }
        }
    }
    let (state, member_epoch) = if t.is_classic() {
        (t.membership.state.name().to_string(), t.membership.generation)
    } else {
        (t.state.name().to_string(), t.member_epoch)
    };
    ThreadView { idx: t.idx, thread: t.thread, alive, state, member_epoch, chips }
}

/// The i18n key of what a status code means, in plain words
/// (`StreamsGroupHeartbeatResponse.Status`, KIP-1071).
pub fn status_key(s: StreamsStatus) -> &'static str {
    match s {
        StreamsStatus::STALE_TOPOLOGY => "streams.status.stale",
        StreamsStatus::MISSING_SOURCE_TOPICS => "streams.status.missing-source",
        StreamsStatus::INCORRECTLY_PARTITIONED_TOPICS => "streams.status.partitioned",
        StreamsStatus::MISSING_INTERNAL_TOPICS => "streams.status.missing-internal",
        StreamsStatus::SHUTDOWN_APPLICATION => "streams.status.shutdown",
        StreamsStatus::ASSIGNMENT_DELAYED => "streams.status.delayed",
    }
}

/// The status codes the live threads of `group_id` got in their last
/// heartbeat answers, each once.
pub fn last_statuses(world: &World, group_id: &str) -> Vec<StreamsStatus> {
    let mut v: Vec<StreamsStatus> = world
        .members_of(group_id)
        .filter(|m| m.alive)
        .filter_map(|m| match m.kind {
            MemberKind::Streams(t) => Some(t.statuses.iter().copied()),
            _ => None,
        })
        .flatten()
        .collect();
    v.sort();
    v.dedup();
    v
}
