//! Helpers for Connect tests: a cluster of workers with connectors, and what
//! each worker runs.

use groupscope::connect::ConnectProtocolCompatibility;
use groupscope::sim::connect::worker::{ConnectWorker, State};
use groupscope::sim::scenario::connect_config::{ConnectClusterSpec, ConnectorSpec, WorkerConfig};
use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::{Scenario, World};

pub const GROUP: &str = "connect-cluster";

/// A scenario with one Connect cluster of `workers` workers and connector
/// `sink` with `tasks` tasks; no consumer groups.
pub fn cluster(workers: u32, tasks: u32, f: impl FnOnce(&mut WorkerConfig)) -> Scenario {
    let mut config = WorkerConfig::default();
    f(&mut config);
    let mut s = Scenario::demo();
    s.groups.clear();
    s.connect_clusters.push(ConnectClusterSpec {
        group_id: GROUP.into(),
        workers,
        connectors: vec![ConnectorSpec { name: "sink".into(), tasks }],
        config,
        worker_protocols: Vec::new(),
        start_stagger_ms: 300,
    });
    s
}

pub fn with_protocol(p: ConnectProtocolCompatibility) -> impl FnOnce(&mut WorkerConfig) {
    move |c| c.connect_protocol = p
}

pub fn worker(world: &World, idx: u32) -> &ConnectWorker {
    world.clients.worker(idx).unwrap().client()
}

/// Task instances on a worker with their state, e.g. `sink-0 RUNNING`.
pub fn tasks(world: &World, idx: u32) -> Vec<String> {
    worker(world, idx).tasks.iter().map(|(t, s)| format!("{t} {s:?}")).collect()
}

/// Ids of the tasks RUNNING on a worker.
pub fn running(world: &World, idx: u32) -> Vec<String> {
    worker(world, idx).tasks.iter().filter(|(_, s)| **s == State::RUNNING).map(|(t, _)| t.to_string()).collect()
}

/// Every task state change (worker, task, from, to), in order.
pub fn task_changes(world: &World) -> Vec<(String, String, String, String)> {
    world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StateChanged { node, machine: Machine::Task { id }, from, to, .. } => {
                Some((node.to_string(), id.clone(), from.to_string(), to.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// How many times each task was started (entered RUNNING from UNASSIGNED).
pub fn starts(world: &World, task: &str) -> usize {
    task_changes(world).iter().filter(|(_, id, from, to)| id == task && from == "UNASSIGNED" && to == "RUNNING").count()
}
