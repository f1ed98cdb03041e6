//! Classic Kafka Streams rebalancing's default task assignor, run by the
//! group leader's `StreamsPartitionAssignor` (`group.protocol=classic`):
//! `org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor`
//! with `TaskMovement` (warm-ups and the moves back to caught-up clients),
//! `DefaultStandbyTaskAssignor` and `ConstrainedPrioritySet`. Not rack aware
//! (no `rack.aware.assignment.tags` here; Kafka skips that step without them).
//!
//! Clients are Kafka Streams instances (`ProcessId`), ordered by id as
//! Kafka's `TreeMap<ProcessId, ClientState>`; `ConstrainedPrioritySet`'s
//! priority queue is the least loaded eligible client, ties by id.

use super::TaskId;
use std::collections::{BTreeMap, BTreeSet};

/// `Task.LATEST_OFFSET`: the lag a client reports for a task it runs as an active task.
pub const LATEST_OFFSET: i64 = -2;

/// `ClientState`, the part the assignor reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientState {
    /// `capacity`: the instance's stream threads (consumers in this rebalance).
    pub capacity: u32,
    pub active: BTreeSet<TaskId>,
    pub standby: BTreeSet<TaskId>,
    /// `lagFor`: every stateful task's lag on this client (`computeTaskLags`):
    /// [`LATEST_OFFSET`] if it runs the task, else end offset sum − its offset sum.
    pub lags: BTreeMap<TaskId, i64>,
}

impl ClientState {
    pub fn new(capacity: u32, lags: BTreeMap<TaskId, i64>) -> ClientState {
        ClientState { capacity: capacity.max(1), lags, ..Default::default() }
    }

    fn assigned_task_count(&self) -> usize {
        self.active.len() + self.standby.len()
    }

    /// `assignedTaskLoad`.
    fn assigned_task_load(&self) -> f64 {
        self.assigned_task_count() as f64 / self.capacity as f64
    }

    /// `activeTaskLoad`.
    fn active_task_load(&self) -> f64 {
        self.active.len() as f64 / self.capacity as f64
    }

    /// `hasAssignedTask`.
    pub fn has_assigned_task(&self, t: &TaskId) -> bool {
        self.active.contains(t) || self.standby.contains(t)
    }

    /// `lagFor` (a stateless task has no lag entry: treated as not caught up).
    pub fn lag_for(&self, t: &TaskId) -> i64 {
        self.lags.get(t).copied().unwrap_or(i64::MAX)
    }
}

/// `AssignmentConfigs`, the part the HA assignor reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HaConfigs {
    /// `acceptable.recovery.lag` (10000).
    pub acceptable_recovery_lag: i64,
    /// `max.warmup.replicas` (2).
    pub max_warmup_replicas: i32,
    /// `num.standby.replicas` (0).
    pub num_standby_replicas: i32,
}

/// What `assign` decided besides the clients' tasks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HaOutcome {
    /// The return value: movements are pending, so a probing rebalance is needed.
    pub probing_rebalance_needed: bool,
    /// The standbys placed as warm-ups, by client (Kafka tracks them only inside `assign`).
    pub warmups: BTreeMap<String, BTreeSet<TaskId>>,
}

type Clients = BTreeMap<String, ClientState>;

/// `HighAvailabilityTaskAssignor.assign`.
pub fn assign(
    clients: &mut Clients,
    all_tasks: &BTreeSet<TaskId>,
    stateful: &BTreeSet<TaskId>,
    configs: HaConfigs,
) -> HaOutcome {
    assign_active_stateful_tasks(clients, stateful);
    assign_standby_replica_tasks(clients, stateful, configs.num_standby_replicas);
    let mut remaining_warmups = configs.max_warmup_replicas;
    let caught_up = tasks_to_caught_up_clients(stateful, clients, configs.acceptable_recovery_lag);
    let by_lag = tasks_to_client_by_lag(stateful, clients);
    let mut warmups: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
    let active_moves = assign_active_task_movements(&caught_up, &by_lag, clients, &mut warmups, &mut remaining_warmups);
    let standby_moves = assign_standby_task_movements(&caught_up, &by_lag, clients, &mut remaining_warmups, &warmups);
    let stateless: Vec<TaskId> = all_tasks.difference(stateful).cloned().collect();
    assign_stateless_active_tasks(clients, &stateless);
    HaOutcome { probing_rebalance_needed: active_moves + standby_moves > 0, warmups }
}

/// `assignActiveStatefulTasks`: round robin over the clients in id order,
/// then `balanceTasksOverThreads` (previous owners play no part here; the
/// movements put tasks back on caught-up clients).
fn assign_active_stateful_tasks(clients: &mut Clients, stateful: &BTreeSet<TaskId>) {
    let ids: Vec<String> = clients.keys().cloned().collect();
    if ids.is_empty() {
        return;
    }
    for (i, t) in stateful.iter().enumerate() {
        if let Some(c) = clients.get_mut(&ids[i % ids.len()]) {
            c.active.insert(t.clone());
        }
    }
    balance_tasks_over_threads(clients, Role::Active);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Active,
    Standby,
}

fn role_tasks(c: &mut ClientState, role: Role) -> &mut BTreeSet<TaskId> {
    match role {
        Role::Active => &mut c.active,
        Role::Standby => &mut c.standby,
    }
}

/// `balanceTasksOverThreads`: move tasks of one role from a client to
/// another while it improves the skew of tasks per thread.
fn balance_tasks_over_threads(clients: &mut Clients, role: Role) {
    let ids: Vec<String> = clients.keys().cloned().collect();
    let mut keep_balancing = true;
    while keep_balancing {
        keep_balancing = false;
        for source in &ids {
            for dest in &ids {
                if source == dest {
                    continue;
                }
                let source_tasks: Vec<TaskId> = match role {
                    Role::Active => clients[source].active.iter().cloned().collect(),
                    Role::Standby => clients[source].standby.iter().cloned().collect(),
                };
                let mut it = source_tasks.into_iter();
                while should_move_a_task(&clients[source], &clients[dest]) {
                    let Some(task) = it.next() else { break };
                    if !clients[dest].has_assigned_task(&task) {
                        if let Some(s) = clients.get_mut(source) {
                            role_tasks(s, role).remove(&task);
                        }
                        if let Some(d) = clients.get_mut(dest) {
                            role_tasks(d, role).insert(task);
                        }
                        keep_balancing = true;
                    }
                }
            }
        }
    }
}

/// `shouldMoveATask`: only if the move lowers the skew without reversing it.
fn should_move_a_task(source: &ClientState, dest: &ClientState) -> bool {
    let skew = source.assigned_task_load() - dest.assigned_task_load();
    if skew <= 0.0 {
        return false;
    }
    let at_dest = (dest.assigned_task_count() as f64 + 1.0) / dest.capacity as f64;
    let at_source = (source.assigned_task_count() as f64 - 1.0) / source.capacity as f64;
    let proposed = at_source - at_dest;
    proposed >= 0.0 && proposed < skew
}

/// `assignStandbyReplicaTasks` with `DefaultStandbyTaskAssignor`: each
/// stateful task's replicas go to the least loaded clients that do not
/// have it yet; without capacity some are skipped (Kafka logs "Unable to
/// assign N of M standby tasks").
fn assign_standby_replica_tasks(clients: &mut Clients, stateful: &BTreeSet<TaskId>, replicas: i32) {
    if replicas <= 0 {
        return;
    }
    for t in stateful {
        for _ in 0..replicas {
            let pick = least_loaded(clients, |_, c| !c.has_assigned_task(t), ClientState::assigned_task_load);
            let Some(id) = pick else { break };
            if let Some(c) = clients.get_mut(&id) {
                c.standby.insert(t.clone());
            }
        }
    }
    balance_tasks_over_threads(clients, Role::Standby);
}

/// `ConstrainedPrioritySet.poll`: the least loaded client meeting `ok`, ties by id.
fn least_loaded(
    clients: &Clients,
    ok: impl Fn(&str, &ClientState) -> bool,
    load: fn(&ClientState) -> f64,
) -> Option<String> {
    clients
        .iter()
        .filter(|(id, c)| ok(id, c))
        .min_by(|(a, ca), (b, cb)| load(ca).total_cmp(&load(cb)).then_with(|| a.cmp(b)))
        .map(|(id, _)| id.clone())
}

/// `tasksToCaughtUpClients`: running it, or within `acceptable.recovery.lag`.
fn tasks_to_caught_up_clients(
    stateful: &BTreeSet<TaskId>,
    clients: &Clients,
    acceptable: i64,
) -> BTreeMap<TaskId, BTreeSet<String>> {
    stateful
        .iter()
        .map(|t| {
            let ids = clients
                .iter()
                .filter(|(_, c)| {
                    let lag = c.lag_for(t);
                    lag == LATEST_OFFSET || acceptable == i64::MAX || (lag >= 0 && lag <= acceptable)
                })
                .map(|(id, _)| id.clone())
                .collect();
            (t.clone(), ids)
        })
        .collect()
}

/// `tasksToClientByLag`: every client, least lag first, ties by id.
fn tasks_to_client_by_lag(stateful: &BTreeSet<TaskId>, clients: &Clients) -> BTreeMap<TaskId, Vec<String>> {
    stateful
        .iter()
        .map(|t| {
            let mut ids: Vec<(i64, String)> = clients.iter().map(|(id, c)| (c.lag_for(t), id.clone())).collect();
            ids.sort();
            (t.clone(), ids.into_iter().map(|(_, id)| id).collect())
        })
        .collect()
}

/// `TaskMovement.taskIsNotCaughtUpOnClientAndOtherMoreCaughtUpClientsExist`.
fn needs_movement(
    t: &TaskId,
    client: &str,
    clients: &Clients,
    caught_up: &BTreeMap<TaskId, BTreeSet<String>>,
    by_lag: &BTreeMap<TaskId, Vec<String>>,
) -> bool {
    if caught_up.get(t).is_some_and(|s| s.contains(client)) {
        return false;
    }
    let Some(first) = by_lag.get(t).and_then(|v| v.first()) else { return false };
    clients[first].lag_for(t) < clients[client].lag_for(t)
}

/// `TaskMovement.mostCaughtUpEligibleClient`: clients by lag, up to the destination.
fn most_caught_up_eligible(
    by_lag: &BTreeMap<TaskId, Vec<String>>,
    ok: impl Fn(&str) -> bool,
    t: &TaskId,
    dest: &str,
) -> Option<String> {
    for c in by_lag.get(t).into_iter().flatten() {
        if c == dest {
            break;
        }
        if ok(c) {
            return Some(c.clone());
        }
    }
    None
}

/// `TaskMovement.assignActiveTaskMovements`: an active task placed on a
/// client that is not caught up goes to a caught-up client (one holding a
/// caught-up standby first, swapping roles; then the least loaded caught-up
/// one; else the most caught-up), and the intended client gets a warm-up
/// while `max.warmup.replicas` lasts. Returns how many moves were needed.
fn assign_active_task_movements(
    caught_up: &BTreeMap<TaskId, BTreeSet<String>>,
    by_lag: &BTreeMap<TaskId, Vec<String>>,
    clients: &mut Clients,
    warmups: &mut BTreeMap<String, BTreeSet<TaskId>>,
    remaining: &mut i32,
) -> usize {
    // PriorityQueue<TaskMovement>: fewest caught-up clients first, then task.
    let mut moves: Vec<(usize, TaskId, String)> = Vec::new();
    for (id, c) in clients.iter() {
        for t in &c.active {
            if needs_movement(t, id, clients, caught_up, by_lag) {
                moves.push((caught_up.get(t).map_or(0, |s| s.len()), t.clone(), id.clone()));
            }
        }
    }
    moves.sort();
    let needed = moves.len();
    for (_, t, dest) in moves {
        let is_caught_up = |id: &str| caught_up.get(&t).is_some_and(|s| s.contains(id));
        // tryToSwapStandbyAndActiveOnCaughtUpClient
        let standby_source =
            least_loaded(clients, |id, c| is_caught_up(id) && c.standby.contains(&t), ClientState::assigned_task_load);
        if let Some(src) = standby_source {
            swap_standby_and_active(clients, &t, &src, &dest);
            continue;
        }
        // tryToMoveActiveToCaughtUpClientAndTryToWarmUp
        if let Some(src) = least_loaded(clients, |id, _| is_caught_up(id), ClientState::assigned_task_load) {
            move_active_and_try_to_warm_up(clients, warmups, remaining, &t, &src, &dest);
            continue;
        }
        // tryToMoveActiveToMostCaughtUpClient
        if let Some(src) = most_caught_up_eligible(by_lag, |_| true, &t, &dest) {
            if clients[&src].standby.contains(&t) {
                swap_standby_and_active(clients, &t, &src, &dest);
            } else {
                move_active_and_try_to_warm_up(clients, warmups, remaining, &t, &src, &dest);
            }
        }
    }
    needed
}

/// `TaskMovement.assignStandbyTaskMovements`: the same for standbys (a
/// warm-up placed above is not moved again).
fn assign_standby_task_movements(
    caught_up: &BTreeMap<TaskId, BTreeSet<String>>,
    by_lag: &BTreeMap<TaskId, Vec<String>>,
    clients: &mut Clients,
    remaining: &mut i32,
    warmups: &BTreeMap<String, BTreeSet<TaskId>>,
) -> usize {
    let mut moves: Vec<(usize, TaskId, String)> = Vec::new();
    for (id, c) in clients.iter() {
        for t in &c.standby {
            let warmup = warmups.get(id).is_some_and(|w| w.contains(t));
            if !warmup && needs_movement(t, id, clients, caught_up, by_lag) {
                moves.push((caught_up.get(t).map_or(0, |s| s.len()), t.clone(), id.clone()));
            }
        }
    }
    moves.sort();
    let mut needed = 0;
    for (_, t, dest) in moves {
        let is_caught_up = |id: &str| caught_up.get(&t).is_some_and(|s| s.contains(id));
        let src = least_loaded(
            clients,
            |id, c| is_caught_up(id) && !c.has_assigned_task(&t),
            ClientState::assigned_task_load,
        )
        .or_else(|| most_caught_up_eligible(by_lag, |id| !clients[id].has_assigned_task(&t), &t, &dest));
        let Some(src) = src else { continue };
        // moveStandbyAndTryToWarmUp
        if let Some(s) = clients.get_mut(&src) {
            s.standby.insert(t.clone());
        }
        let warm = *remaining > 0;
        *remaining -= 1;
        if !warm {
            if let Some(d) = clients.get_mut(&dest) {
                d.standby.remove(&t);
            }
        }
        needed += 1;
    }
    needed
}

/// `TaskMovement.swapStandbyAndActive`.
fn swap_standby_and_active(clients: &mut Clients, t: &TaskId, src: &str, dest: &str) {
    if let Some(s) = clients.get_mut(src) {
        s.standby.remove(t);
        s.active.insert(t.clone());
    }
    if let Some(d) = clients.get_mut(dest) {
        d.active.remove(t);
        d.standby.insert(t.clone());
    }
}

/// `TaskMovement.moveActiveAndTryToWarmUp` (`getAndDecrement() > 0`).
fn move_active_and_try_to_warm_up(
    clients: &mut Clients,
    warmups: &mut BTreeMap<String, BTreeSet<TaskId>>,
    remaining: &mut i32,
    t: &TaskId,
    src: &str,
    dest: &str,
) {
    if let Some(s) = clients.get_mut(src) {
        s.active.insert(t.clone());
    }
    let warm = *remaining > 0;
    *remaining -= 1;
    if let Some(d) = clients.get_mut(dest) {
        d.active.remove(t);
        if warm {
            d.standby.insert(t.clone());
        }
    }
    if warm {
        warmups.entry(dest.to_string()).or_default().insert(t.clone());
    }
}

/// `assignStatelessActiveTasks`: each to the client with the least active load.
fn assign_stateless_active_tasks(clients: &mut Clients, stateless: &[TaskId]) {
    for t in stateless {
        if let Some(id) = least_loaded(clients, |_, _| true, ClientState::active_task_load) {
            if let Some(c) = clients.get_mut(&id) {
                c.active.insert(t.clone());
            }
        }
    }
}
