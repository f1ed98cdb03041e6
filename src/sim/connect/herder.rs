//! The herder's side of a Connect worker: applying an assignment
//! (WC `onJoinComplete`, DH `onAssigned`, `handleRebalanceCompleted`,
//! `startWork`), stopping revoked work (`onRevoked`), task failure and the REST
//! restart actions (DH `restartTask`, `restartConnectorAndTasks`).

use crate::connect::protocol::push_new;
use crate::connect::{ConnectAssignment, ConnectProtocolCompatibility, ConnectorTaskId, ConnectorsAndTasks};
use crate::sim::connect::worker::{ConnectWorker, State};
use crate::sim::ctx::Ctx;
use crate::sim::note::Note;
use crate::sim::out::{ConnectTimer, Out};
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;

impl ConnectWorker {
    fn instance_changed(&self, machine: Machine, from: State, to: State, trigger: Trigger, out: &mut Out) {
        out.emit(EventKind::StateChanged {
            node: self.node(),
            machine,
            from: crate::sim::state_machine::StateName::of(from),
            to: crate::sim::state_machine::StateName::of(to),
            trigger,
        });
    }

    fn set_connector(&mut self, name: &str, to: State, trigger: Trigger, out: &mut Out) {
        let from = self.connectors.get(name).copied().unwrap_or(State::UNASSIGNED);
        match to {
            State::UNASSIGNED => {
                self.stranded.connectors.retain(|c| c != name);
                self.connectors.remove(name)
            }
            _ => self.connectors.insert(name.to_string(), to),
        };
        self.instance_changed(Machine::Connector { name: name.to_string() }, from, to, trigger, out);
    }

    fn set_task(&mut self, id: &ConnectorTaskId, to: State, trigger: Trigger, out: &mut Out) {
        let from = self.tasks.get(id).copied().unwrap_or(State::UNASSIGNED);
        match to {
            State::UNASSIGNED => {
                self.stranded.tasks.retain(|t| t != id);
                self.tasks.remove(id)
            }
            _ => self.tasks.insert(id.clone(), to),
        };
        self.instance_changed(Machine::Task { id: id.to_string() }, from, to, trigger, out);
    }

    /// `onRevoked`: stop the instances and forget them in the running assignment.
    /// A stopped task writes UNASSIGNED (`WorkerTask.onShutdown`); a FAILED one,
    /// whose thread already ended in `onFailure`, writes nothing: its status stays FAILED.
    pub(crate) fn on_revoked(&mut self, connectors: &[String], tasks: &[ConnectorTaskId], why: Trigger, out: &mut Out) {
        for c in connectors {
            if self.connectors.contains_key(c) {
                self.set_connector(c, State::UNASSIGNED, why.clone(), out);
            }
        }
        for t in tasks {
            match self.tasks.get(t) {
                Some(State::FAILED) => {
                    self.tasks.remove(t);
                    self.stranded.tasks.retain(|s| s != t);
                }
                Some(_) => self.set_task(t, State::UNASSIGNED, why.clone(), out),
                None => {}
            }
        }
        self.running_assignment.remove_all(connectors, tasks);
    }

    /// WC `onJoinComplete`, then DH `onAssigned` and `handleRebalanceCompleted`.
    pub(crate) fn on_join_complete(&mut self, ctx: &mut Ctx, mut a: ConnectAssignment, out: &mut Out) {
        let protocol = self
            .membership
            .protocol_name
            .as_deref()
            .and_then(ConnectProtocolCompatibility::from_protocol)
            .unwrap_or(ConnectProtocolCompatibility::EAGER);
        self.current_protocol = protocol;
        if protocol.is_incremental() {
            if !a.revoked_connectors.is_empty() || !a.revoked_tasks.is_empty() {
                self.on_revoked(&a.revoked_connectors.clone(), &a.revoked_tasks.clone(), Trigger::RevokedByLeader, out);
            }
            // The assignment carries only what is new: add what this worker keeps.
            if let Some(mut old) = self.assignment_snapshot.take() {
                old.connectors.retain(|c| !a.revoked_connectors.contains(c));
                old.tasks.retain(|t| !a.revoked_tasks.contains(t));
                push_new(&mut a.connectors, &old.connectors);
                push_new(&mut a.tasks, &old.tasks);
            }
        }
        self.last_completed_generation = self.membership.generation;
        self.membership.needs_join_prepare = true;
        // onAssigned: the delay schedules a rejoin.
        self.scheduled_rebalance = (a.delay > 0).then_some(ctx.now + a.delay);
        match self.scheduled_rebalance {
            Some(at) => out.set_timer(ConnectTimer::ScheduledRebalance, at),
            None => out.cancel_timer(ConnectTimer::ScheduledRebalance),
        }
        self.assignment_snapshot = Some(a.clone());
        if a.failed() {
            self.membership.rejoin_needed = true;
            return self.note(Note::AssignmentConfigMismatch, out);
        }
        self.start_work(&a, protocol, out);
        if !a.revoked_connectors.is_empty() || !a.revoked_tasks.is_empty() {
            self.membership.rejoin_needed = true;
            self.note(Note::StoppedRevoked, out);
        }
    }

    /// `startWork`: start what the assignment holds and is not already running.
    /// Under eager the running assignment is then emptied, so the next
    /// rebalance starts everything again.
    ///
    /// When an eager generation follows a cooperative one, this worker revoked
    /// nothing before it (WorkerCoordinator `onJoinPrepare` revokes only under
    /// eager) and eager's `onJoinComplete` revokes nothing either: what it still
    /// runs and the new assignment does not name keeps running, stranded, until
    /// something stops it. Kafka does the same; the worker says so.
    fn start_work(&mut self, a: &ConnectAssignment, protocol: ConnectProtocolCompatibility, out: &mut Out) {
        let trigger = Trigger::AssignedInGeneration { generation: self.membership.generation };
        self.stranded.remove_all(&a.connectors, &a.tasks);
        if !protocol.is_incremental() && !self.running_assignment.is_empty() {
            let connectors: Vec<String> =
                self.connectors.keys().filter(|c| !a.connectors.contains(c)).cloned().collect();
            let tasks: Vec<ConnectorTaskId> = self.tasks.keys().filter(|t| !a.tasks.contains(t)).cloned().collect();
            if !connectors.is_empty() || !tasks.is_empty() {
                let instances = connectors.iter().cloned().chain(tasks.iter().map(|t| t.to_string())).collect();
                self.stranded.add_all(&connectors, &tasks);
                self.note(Note::KeptRunningAfterDowngrade { instances }, out);
            }
        }
        let running = std::mem::take(&mut self.running_assignment);
        for c in a.connectors.iter().filter(|c| !running.connectors.contains(c)) {
            self.set_connector(c, State::RUNNING, trigger.clone(), out);
        }
        for t in a.tasks.iter().filter(|t| !running.tasks.contains(t)) {
            self.set_task(t, State::RUNNING, trigger.clone(), out);
        }
        self.running_assignment = if protocol.is_incremental() {
            ConnectorsAndTasks { connectors: a.connectors.clone(), tasks: a.tasks.clone() }
        } else {
            ConnectorsAndTasks::default()
        };
    }

    /// The task throws: FAILED, and it stays on this worker.
    pub fn fail_task(&mut self, id: &ConnectorTaskId, out: &mut Out) -> bool {
        if self.tasks.get(id) != Some(&State::RUNNING) {
            return false;
        }
        self.set_task(id, State::FAILED, Trigger::TaskThrew, out);
        true
    }

    /// `POST /connectors/{name}/tasks/{id}/restart` on the worker that owns the task
    /// (`DistributedHerder.restartTask`): stop it (a running task writes UNASSIGNED,
    /// a failed one nothing) and start it (RUNNING). No RESTARTING is written:
    /// only the KIP-745 restart request does that.
    /// A copy stranded here by a downgrade is in no assignment, and Kafka
    /// restarts only what `assignment.tasks()` holds: it is left alone.
    pub fn restart_task(&mut self, id: &ConnectorTaskId, out: &mut Out) -> bool {
        if self.stranded.tasks.contains(id) {
            return false;
        }
        let Some(state) = self.tasks.get(id).copied() else { return false };
        let trigger = Trigger::RestartTask { connector: id.connector.clone(), task: id.task };
        if state != State::FAILED {
            self.set_task(id, State::UNASSIGNED, trigger.clone(), out);
        }
        self.set_task(id, State::RUNNING, trigger, out);
        true
    }

    /// `POST /connectors/{name}/restart?includeTasks=&onlyFailed=` (KIP-745), as
    /// each worker applies the restart request to the instances it owns:
    /// the connector unless onlyFailed and not FAILED; a task when
    /// `includeTasks && (!onlyFailed || FAILED)`. Returns how many restarted.
    /// Without either flag (`RestartRequest.forceRestartConnectorOnly`) it is the
    /// old `DistributedHerder.restartConnector`: the connector is stopped
    /// (UNASSIGNED) and started (RUNNING), with no RESTARTING status. Either way
    /// only what the worker's assignment holds restarts
    /// (`doRestartConnectorAndTasks` filters by `assignment`): a copy stranded
    /// here by a downgrade is left alone.
    pub fn restart_connector(&mut self, name: &str, include_tasks: bool, only_failed: bool, out: &mut Out) -> usize {
        let trigger = Trigger::RestartConnector { name: name.to_string(), include_tasks, only_failed };
        let connector_assigned = !self.stranded.connectors.iter().any(|c| c == name);
        if !include_tasks && !only_failed {
            if !self.connectors.contains_key(name) || !connector_assigned {
                return 0;
            }
            self.set_connector(name, State::UNASSIGNED, trigger.clone(), out);
            self.set_connector(name, State::RUNNING, trigger, out);
            return 1;
        }
        let mut n = 0;
        if let Some(s) = self.connectors.get(name).copied().filter(|_| connector_assigned) {
            if !only_failed || s == State::FAILED {
                self.set_connector(name, State::RESTARTING, trigger.clone(), out);
                self.set_connector(name, State::RUNNING, trigger.clone(), out);
                n += 1;
            }
        }
        let tasks: Vec<ConnectorTaskId> = self
            .tasks
            .iter()
            .filter(|(t, s)| t.connector == name && include_tasks && (!only_failed || **s == State::FAILED))
            .filter(|(t, _)| !self.stranded.tasks.contains(t))
            .map(|(t, _)| t.clone())
            .collect();
        for t in tasks {
            self.set_task(&t, State::RESTARTING, trigger.clone(), out);
            self.set_task(&t, State::RUNNING, trigger.clone(), out);
            n += 1;
        }
        n
    }
}
