//! The tasks a stream thread runs: a new assignment reconciled as
//! `StreamsMembershipManager` does (revoked tasks first, through
//! `StreamsRebalanceListener.onTasksRevoked`, then the new ones through
//! `onTasksAssigned`), and the active tasks' restoration from their
//! changelogs before they run (`StoreChangelogReader`, simplified to a time
//! proportional to the records a task lacks).

use super::{StreamsThread, TaskState};
use crate::assign::TopicPartition;
use crate::sim::client::consumer::MemberState;
use crate::sim::ctx::Ctx;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::streams_message::{task_names, Tasks, TasksTuple};
use crate::sim::streams_note::StreamsNote;
use crate::sim::trigger::Trigger;
use crate::sim::types::Millis;

/// Every task of a tuple, active then standby, as `0_3`.
pub(crate) fn names_of(t: &TasksTuple) -> Vec<String> {
    let mut v = task_names(&t.active);
    v.extend(task_names(&t.standby));
    v
}

fn each(tasks: &Tasks) -> impl Iterator<Item = (String, i32)> + '_ {
    tasks.iter().flat_map(|(s, ps)| ps.iter().map(move |p| (s.clone(), *p)))
}

impl StreamsThread {
    /// The coordinator sent a new assignment (`StreamsMembershipManager.onHeartbeatSuccess`
    /// → `maybeReconcile`): revoke what is gone, then take the rest.
    pub(crate) fn new_assignment(&mut self, ctx: &mut Ctx, a: TasksTuple, out: &mut Out) {
        if !self.is_classic() {
            let trigger = Trigger::NewTargetAssignment { partitions: Vec::new() };
            self.transition_to(MemberState::RECONCILING, trigger, out);
        }
        let revoked = self.owned.minus(&a);
        // A task that only changes role (active → standby) keeps its state: not revoked here.
        let revoked_active: Vec<String> = task_names(&revoked.active);
        // A standby promoted to active keeps its store (the task is recycled); others close.
        let gone_standby = revoked.standby.clone();
        for (s, p) in each(&gone_standby) {
            if !crate::sim::streams_message::has_task(&a.active, &s, p) {
                self.tasks.remove(&(s, p));
            }
        }
        self.owned.standby = crate::sim::streams_message::tasks_minus(&self.owned.standby, &gone_standby);
        self.target = Some(a);
        if revoked_active.is_empty() {
            self.finish_reconcile(ctx, out);
        } else {
            let until = ctx.now + self.config.on_tasks_revoked_ms;
            self.revoking_until = Some(until);
            out.set_timer(ClientTimer::Poll, until);
        }
    }

    /// The stream thread's loop ran: a revocation finished, or tasks restored.
    pub(crate) fn run_once(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.last_poll = ctx.now;
        if self.revoking_until.is_some_and(|u| ctx.now >= u) {
            self.revoking_until = None;
            self.finish_reconcile(ctx, out);
        }
        let restored: Vec<(String, i32)> = self
            .tasks
            .iter()
            .filter(|(_, st)| matches!(st, TaskState::Restoring { until } if *until <= ctx.now))
            .map(|(k, _)| k.clone())
            .collect();
        for k in restored {
            self.tasks.insert(k.clone(), TaskState::Running);
            self.note(StreamsNote::TaskRunning { client: self.name(), task: format!("{}_{}", k.0, k.1) }, out);
        }
        let caught_up: Vec<(String, i32)> = self
            .tasks
            .iter()
            .filter(|(_, st)| matches!(st, TaskState::CatchingUp { until } if *until <= ctx.now))
            .map(|(k, _)| k.clone())
            .collect();
        for k in caught_up {
            self.tasks.insert(k.clone(), TaskState::Standby);
            self.note(StreamsNote::StandbyCaughtUp { client: self.name(), task: format!("{}_{}", k.0, k.1) }, out);
        }
        if self.is_classic() {
            self.maybe_scheduled_rebalance(ctx, out);
        }
        self.arm_loop(out);
    }

    /// `onTasksRevoked` is done (the revoked tasks are committed and closed);
    /// `onTasksAssigned` creates the new tasks; the next heartbeat reports them.
    fn finish_reconcile(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let Some(a) = self.target.take() else { return };
        let revoked = crate::sim::streams_message::tasks_minus(&self.owned.active, &a.active);
        if !revoked.is_empty() {
            for (s, p) in each(&revoked) {
                // A task demoted to standby keeps its store; otherwise the store stays on disk.
                let standby_here = crate::sim::streams_message::has_task(&a.standby, &s, p);
                self.tasks.remove(&(s.clone(), p));
                if standby_here {
                    self.tasks.insert((s.clone(), p), TaskState::Standby);
                }
            }
            self.note(StreamsNote::TasksRevoked { client: self.name(), tasks: task_names(&revoked) }, out);
        }
        let added = a.minus(&self.owned);
        for (s, p) in each(&added.active) {
            self.start_active(ctx, &s, p, out);
        }
        for (s, p) in each(&added.standby) {
            let state = self.new_standby_state(ctx, &s);
            self.tasks.entry((s.clone(), p)).or_insert(state);
            self.local_state.insert((s, p));
        }
        if !added.is_empty() {
            let note = StreamsNote::TasksAssigned {
                client: self.name(),
                active: task_names(&added.active),
                standby: task_names(&added.standby),
            };
            self.note(note, out);
        }
        self.owned = a;
        self.owned_partitions = self.source_partitions();
        if self.is_classic() {
            // ConsumerCoordinator.onJoinComplete (cooperative): partitions
            // were revoked, so the thread rejoins (`requestRejoin`).
            if !revoked.is_empty() {
                self.request_rejoin(ctx, out);
            }
            return self.arm_loop(out);
        }
        self.transition_to(MemberState::ACKNOWLEDGING, Trigger::ReconciledNewAssignment, out);
        if !self.has_in_flight(crate::sim::message::ApiKey::StreamsGroupHeartbeat) {
            out.set_timer(ClientTimer::Heartbeat, ctx.now);
        }
        self.arm_loop(out);
    }

    /// A new active task: a stateless one runs at once; a stateful one
    /// restores first — only the lag if the thread held its standby, all of
    /// its changelog otherwise.
    fn start_active(&mut self, ctx: &Ctx, s: &str, p: i32, out: &mut Out) {
        let stateful = self.topology.subtopology(s).is_some_and(|x| x.is_stateful());
        let key = (s.to_string(), p);
        if !stateful {
            self.tasks.insert(key, TaskState::Running);
            return;
        }
        let (from_standby, records) = match self.tasks.get(&key) {
            Some(TaskState::Standby) => (true, 0),
            Some(TaskState::CatchingUp { until }) => (true, self.records_behind(ctx.now, *until)),
            _ => (false, self.config.changelog_records_per_task),
        };
        let ms = self.restore_ms(records);
        if ms == 0 {
            self.tasks.insert(key.clone(), TaskState::Running);
        } else {
            let until = ctx.now + ms;
            self.tasks.insert(key.clone(), TaskState::Restoring { until });
            let note = StreamsNote::RestorationStarted {
                client: self.name(),
                task: format!("{s}_{p}"),
                records,
                until_ms: until,
                from_standby,
            };
            self.note(note, out);
        }
        self.local_state.insert(key);
    }

    /// The loop wakes when the next task finishes restoring.
    fn arm_loop(&mut self, out: &mut Out) {
        let next = self
            .tasks
            .values()
            .filter_map(|t| match t {
                TaskState::Restoring { until } | TaskState::CatchingUp { until } => Some(*until),
                _ => None,
            })
            .chain(self.revoking_until)
            .chain(self.next_rebalance_at)
            .min();
        match next {
            Some(at) => out.set_timer(ClientTimer::Poll, at),
            None => out.cancel_timer(ClientTimer::Poll),
        }
    }

    /// A new standby: caught up at once in a streams group (simplified);
    /// under classic rebalancing it catches up with its changelog first, as
    /// a warm-up must before the probing rebalance can hand it the task.
    fn new_standby_state(&self, ctx: &Ctx, s: &str) -> TaskState {
        let stateful = self.topology.subtopology(s).is_some_and(|x| x.is_stateful());
        if !self.is_classic() || !stateful {
            return TaskState::Standby;
        }
        match self.restore_ms(self.config.changelog_records_per_task) {
            0 => TaskState::Standby,
            ms => TaskState::CatchingUp { until: ctx.now + ms },
        }
    }

    /// How long restoring `records` takes.
    pub(crate) fn restore_ms(&self, records: i64) -> Millis {
        (records.max(0) as u64 * 1000).div_ceil(self.config.restore_records_per_second.max(1) as u64)
    }

    /// The changelog records a task restoring or catching up until `until` still lacks at `now`.
    pub(crate) fn records_behind(&self, now: Millis, until: Millis) -> i64 {
        let left = until.saturating_sub(now);
        let records = (left * self.config.restore_records_per_second.max(1) as u64).div_ceil(1000);
        (records as i64).min(self.config.changelog_records_per_task)
    }

    /// Every task is gone (fenced, closed, fatal).
    pub(crate) fn clear_tasks(&mut self) {
        self.owned = TasksTuple::default();
        self.tasks.clear();
        self.target = None;
        self.revoking_until = None;
        self.owned_partitions.clear();
    }

    /// The source-topic partitions its active tasks read.
    fn source_partitions(&self) -> Vec<TopicPartition> {
        let mut v: Vec<TopicPartition> = each(&self.owned.active)
            .flat_map(|(s, p)| {
                self.topology
                    .subtopology(&s)
                    .map(|x| x.input_topics().map(|t| TopicPartition::new(t, p)).collect::<Vec<_>>())
                    .unwrap_or_default()
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Tasks restoring now, with when each finishes.
    pub fn restoring(&self) -> impl Iterator<Item = (&(String, i32), Millis)> + '_ {
        self.tasks.iter().filter_map(|(k, t)| match t {
            TaskState::Restoring { until } => Some((k, *until)),
            _ => None,
        })
    }
}
