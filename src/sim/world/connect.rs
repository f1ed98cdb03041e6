//! The world's handling of Kafka Connect workers: the Connect faults (task
//! failure, REST restarts, a new worker) and lookups (a worker crashes and
//! restarts like any client process, `faults.rs`).
//! A child module of `world`, so it uses the world's routing directly.

use super::{Seen, World};
use crate::connect::ConnectorTaskId;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::fault::Fault;
use crate::sim::note::Note;
use crate::sim::trace::EventKind;
use crate::sim::types::{EventId, NodeId};

impl World {
    /// Workers of a Connect cluster, by index.
    pub fn group_workers<'a>(&'a self, group: &'a str) -> impl Iterator<Item = Seen<'a, ConnectWorker>> + 'a {
        self.clients.workers().filter(move |w| w.group_id == group)
    }

    fn note_world(&mut self, cause: Option<EventId>, note: Note) {
        self.record(cause, EventKind::Note { node: NodeId::Broker(0), note });
    }

    /// Live workers of `group`, by index.
    fn live_workers(&self, group: &str) -> Vec<u32> {
        self.group_workers(group).filter(|w| w.alive).map(|w| w.idx).collect()
    }

    pub(super) fn apply_connect_fault(&mut self, fault: Fault, cause: Option<EventId>) {
        match fault {
            Fault::FailTask { group, connector, task } => {
                let id = ConnectorTaskId::new(&connector, task);
                let mut failed = false;
                for idx in self.live_workers(&group) {
                    self.with_worker(idx, cause, |w, _, out| {
                        failed |= w.fail_task(&id, out);
                    });
                }
                if !failed {
                    self.note_world(cause, Note::NoWorkerRunsTask { group, task: id.to_string() });
                }
            }
            Fault::RestartTask { group, connector, task } => {
                // The REST call is forwarded to the worker that owns the task.
                let id = ConnectorTaskId::new(&connector, task);
                let mut done = false;
                for idx in self.live_workers(&group) {
                    self.with_worker(idx, cause, |w, _, out| {
                        done |= w.restart_task(&id, out);
                    });
                }
                if !done {
                    self.note_world(cause, Note::TaskNotAssigned { task: id.to_string(), group });
                }
            }
            Fault::RestartConnector { group, connector, include_tasks, only_failed } => {
                // The leader writes the restart request to the config topic; every
                // worker restarts the matching instances it owns.
                let mut restarted = 0;
                for idx in self.live_workers(&group) {
                    self.with_worker(idx, cause, |w, _, out| {
                        restarted += w.restart_connector(&connector, include_tasks, only_failed, out);
                    });
                }
                if restarted == 0 {
                    self.note_world(cause, Note::RestartMatchedNothing { target: connector, group });
                }
            }
            Fault::AddWorker { group } => {
                let Some(spec) = self.scenario.connect_clusters.iter().find(|c| c.group_id == group).cloned() else {
                    return self.note_world(cause, Note::NoConnectCluster { group });
                };
                let k = self.group_workers(&group).count();
                let idx = self.add_worker_process(&spec, k);
                self.start_client(idx, cause);
            }
            _ => {}
        }
    }
}
