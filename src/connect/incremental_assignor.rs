//! `IncrementalCooperativeAssignor` (KIP-415; connect.protocol compatible and
//! sessioned). One instance lives in each worker process and keeps its state
//! across the rebalances that worker leads (IncrementalCooperativeAssignor `performTaskAssignment`
//! L203 ff., `handleLostAssignments` L437).

use super::protocol::{push_new, ConfigSnapshot, ConnectorTaskId, ConnectorsAndTasks};
use crate::java::{self, JavaHashOrder};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Connectors and tasks as sorted sets (Kafka's TreeSet-based derived sets).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemSet {
    pub connectors: BTreeSet<String>,
    pub tasks: BTreeSet<ConnectorTaskId>,
}

impl ItemSet {
    fn of(connectors: impl IntoIterator<Item = String>, tasks: impl IntoIterator<Item = ConnectorTaskId>) -> ItemSet {
        ItemSet { connectors: connectors.into_iter().collect(), tasks: tasks.into_iter().collect() }
    }

    pub fn is_empty(&self) -> bool {
        self.connectors.is_empty() && self.tasks.is_empty()
    }

    /// `diff(base, subtract...)`.
    fn minus(&self, others: &[&ItemSet]) -> ItemSet {
        let mut r = self.clone();
        for o in others {
            r.connectors.retain(|c| !o.connectors.contains(c));
            r.tasks.retain(|t| !o.tasks.contains(t));
        }
        r
    }

    fn ordered(&self) -> ConnectorsAndTasks {
        ConnectorsAndTasks {
            connectors: self.connectors.iter().cloned().collect(),
            tasks: self.tasks.iter().cloned().collect(),
        }
    }
}

/// `WorkerLoad`: one worker's connectors and tasks, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerLoad {
    pub worker: String,
    pub load: ConnectorsAndTasks,
}

/// `ClusterAssignment`, keyed by member id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterAssignment {
    pub newly_assigned: BTreeMap<String, ConnectorsAndTasks>,
    pub newly_revoked: BTreeMap<String, ConnectorsAndTasks>,
    /// What each worker runs after this round (next assignment minus revocations).
    pub all_assigned: BTreeMap<String, ConnectorsAndTasks>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncrementalCooperativeAssignor {
    /// `scheduled.rebalance.max.delay.ms`.
    pub max_delay: Millis,
    pub previous_assignment: ItemSet,
    pub previous_revocation: ItemSet,
    /// Absolute time of the delayed rebalance; 0 = none.
    pub scheduled_rebalance: Millis,
    pub revoked_in_previous: bool,
    /// Workers with nothing assigned while a delay runs (a LinkedHashSet).
    pub candidate_workers_for_reassignment: Vec<String>,
    pub delay: Millis,
    pub previous_generation_id: i32,
    pub previous_members: BTreeSet<String>,
    pub num_successive_revoking_rebalances: u32,
}

/// `ExponentialBackoff(maxDelay == 0 ? 0 : 1, 40, maxDelay, 0).backoff(attempts)`.
pub fn consecutive_revoking_backoff(max_delay: Millis, attempts: u32) -> Millis {
    let initial = if max_delay == 0 { 0 } else { 1u64.min(max_delay) };
    if max_delay <= initial {
        return initial;
    }
    let exp_max = (max_delay as f64 / initial.max(1) as f64).ln() / 40f64.ln();
    let exp = (attempts as f64).min(exp_max);
    let term = initial as f64 * 40f64.powf(exp);
    (term as u64).min(max_delay)
}

/// `new HashSet<>(items)` iteration order, as `intersection` copies a worker's items.
fn hash_set_copy_order<T: PartialEq + Clone>(items: &[T], hash: fn(&T) -> i32) -> Vec<T> {
    let mut set = JavaHashOrder::with_capacity(JavaHashOrder::<T>::copy_capacity(items.len()), hash);
    for i in items {
        set.put(i.clone());
    }
    set.keys().cloned().collect()
}

/// Takes `&String`: it is the hash of a `JavaHashOrder<String>`, called with `&K`.
#[allow(clippy::ptr_arg)]
fn string_hash(s: &String) -> i32 {
    java::string_hash(s)
}

fn task_hash(t: &ConnectorTaskId) -> i32 {
    t.java_hash()
}

/// `intersection(items, memberAssignments)`: per worker, its items that are in `items`.
fn intersection(items: &ItemSet, members: &[WorkerLoad]) -> Vec<(String, ConnectorsAndTasks)> {
    members
        .iter()
        .map(|w| {
            let connectors = hash_set_copy_order(&w.load.connectors, string_hash)
                .into_iter()
                .filter(|c| items.connectors.contains(c))
                .collect();
            let tasks =
                hash_set_copy_order(&w.load.tasks, task_hash).into_iter().filter(|t| items.tasks.contains(t)).collect();
            (w.worker.clone(), ConnectorsAndTasks { connectors, tasks })
        })
        .collect()
}

fn add_all(to: &mut BTreeMap<String, ConnectorsAndTasks>, add: &[(String, ConnectorsAndTasks)]) {
    for (w, a) in add {
        to.entry(w.clone()).or_default().add_all(&a.connectors, &a.tasks);
    }
}

fn remove_all(loads: &mut [WorkerLoad], remove: &[(String, ConnectorsAndTasks)]) {
    for l in loads.iter_mut() {
        if let Some((_, r)) = remove.iter().find(|(w, _)| *w == l.worker) {
            l.load.remove_all(&r.connectors, &r.tasks);
        }
    }
}

impl IncrementalCooperativeAssignor {
    pub fn new(max_delay: Millis) -> IncrementalCooperativeAssignor {
        IncrementalCooperativeAssignor {
            max_delay,
            previous_assignment: ItemSet::default(),
            previous_revocation: ItemSet::default(),
            scheduled_rebalance: 0,
            revoked_in_previous: false,
            candidate_workers_for_reassignment: Vec::new(),
            delay: 0,
            previous_generation_id: -1,
            previous_members: BTreeSet::new(),
            num_successive_revoking_rebalances: 0,
        }
    }

    /// One round. `members` holds each member's reported assignment, in the
    /// leader's `HashMap<memberId, ...>` iteration order.
    pub fn perform_task_assignment(
        &mut self,
        now: Millis,
        config: &ConfigSnapshot,
        last_completed_generation_id: i32,
        current_generation_id: i32,
        members: &[WorkerLoad],
    ) -> ClusterAssignment {
        // A leader that missed a generation cannot trust its view of the previous round.
        if self.previous_generation_id != last_completed_generation_id {
            self.previous_assignment = ItemSet::default();
        }
        let configured = ItemSet::of(config.connectors.keys().cloned(), config.all_tasks());
        let active = ItemSet::of(
            members.iter().flat_map(|w| w.load.connectors.iter().cloned()),
            members.iter().flat_map(|w| w.load.tasks.iter().cloned()),
        );
        // A revocation of the previous round that did not take effect is applied again.
        if !self.previous_revocation.is_empty() {
            let r = &self.previous_revocation;
            if r.connectors.iter().any(|c| active.connectors.contains(c))
                || r.tasks.iter().any(|t| active.tasks.contains(t))
            {
                self.previous_assignment = active.clone();
            }
            self.previous_revocation = ItemSet::default();
        }
        // deleted = previous - configured
        let deleted = self.previous_assignment.minus(&[&configured]);
        // duplicated = running on more than one worker
        let duplicated = duplicated_assignments(members);
        // lost = previous - active - deleted
        let lost = self.previous_assignment.minus(&[&active, &deleted]);
        // created = configured - previous - active
        let created = configured.minus(&[&self.previous_assignment, &active]);

        let current: Vec<WorkerLoad> = members
            .iter()
            .map(|w| {
                let mut load = w.load.clone();
                load.connectors.retain(|c| !deleted.connectors.contains(c));
                load.tasks.retain(|t| !deleted.tasks.contains(t));
                WorkerLoad { worker: w.worker.clone(), load }
            })
            .collect();

        // Deleted and duplicated items are revoked from whoever runs them.
        let mut to_revoke: BTreeMap<String, ConnectorsAndTasks> = BTreeMap::new();
        let deleted_to_revoke = intersection(&deleted, members);
        add_all(&mut to_revoke, &deleted_to_revoke);
        let duplicated_to_revoke = intersection(&duplicated, members);
        add_all(&mut to_revoke, &duplicated_to_revoke);

        let mut next: Vec<WorkerLoad> = members.to_vec();
        remove_all(&mut next, &deleted_to_revoke);
        remove_all(&mut next, &duplicated_to_revoke);

        let mut lost_to_reassign = ItemSet::default();
        self.handle_lost_assignments(now, &lost, &mut lost_to_reassign, &mut next);

        // No load-balancing revocations while a delayed rebalance is active.
        if self.delay == 0 {
            let balancing = perform_load_balancing_revocations(&configured, &next);
            if self.revoked_in_previous && !balancing.is_empty() {
                self.num_successive_revoking_rebalances += 1;
                self.delay = consecutive_revoking_backoff(self.max_delay, self.num_successive_revoking_rebalances);
                if self.delay != 0 {
                    self.scheduled_rebalance = now + self.delay;
                } else {
                    add_all(&mut to_revoke, &balancing);
                    remove_all(&mut next, &balancing);
                }
            } else if !balancing.is_empty() {
                add_all(&mut to_revoke, &balancing);
                remove_all(&mut next, &balancing);
                self.revoked_in_previous = true;
            } else if self.revoked_in_previous {
                self.revoked_in_previous = false;
                self.num_successive_revoking_rebalances = 0;
            }
        } else {
            self.revoked_in_previous = false;
        }

        // New items first, then lost ones being reassigned.
        let mut to_assign = created.ordered();
        let lost_ordered = lost_to_reassign.ordered();
        to_assign.add_all(&lost_ordered.connectors, &lost_ordered.tasks);
        assign_round_robin(&mut next, &to_assign.connectors, connectors_of);
        assign_round_robin(&mut next, &to_assign.tasks, tasks_of);

        let mut result = ClusterAssignment::default();
        for w in &next {
            let cur = current.iter().find(|c| c.worker == w.worker).map(|c| c.load.clone()).unwrap_or_default();
            let mut added = w.load.clone();
            added.remove_all(&cur.connectors, &cur.tasks);
            result.newly_assigned.insert(w.worker.clone(), added);
            let revoked = to_revoke.get(&w.worker).cloned().unwrap_or_default();
            let mut all = w.load.clone();
            all.remove_all(&revoked.connectors, &revoked.tasks);
            result.all_assigned.insert(w.worker.clone(), all);
            result.newly_revoked.insert(w.worker.clone(), revoked);
        }
        self.compute_previous_assignment(&to_revoke, &next, &lost);
        self.previous_generation_id = current_generation_id;
        self.previous_members = members.iter().map(|w| w.worker.clone()).collect();
        result
    }

    /// `computePreviousAssignment`: next minus revoked, plus everything lost.
    fn compute_previous_assignment(
        &mut self,
        revoked: &BTreeMap<String, ConnectorsAndTasks>,
        next: &[WorkerLoad],
        lost: &ItemSet,
    ) {
        let mut prev = ItemSet::of(
            next.iter().flat_map(|w| w.load.connectors.iter().cloned()),
            next.iter().flat_map(|w| w.load.tasks.iter().cloned()),
        );
        for r in revoked.values() {
            for c in &r.connectors {
                prev.connectors.remove(c);
                self.previous_revocation.connectors.insert(c.clone());
            }
            for t in &r.tasks {
                prev.tasks.remove(t);
                self.previous_revocation.tasks.insert(t.clone());
            }
        }
        prev.connectors.extend(lost.connectors.iter().cloned());
        prev.tasks.extend(lost.tasks.iter().cloned());
        self.previous_assignment = prev;
    }

    /// `handleLostAssignments`: hold a departed worker's items for
    /// `scheduled.rebalance.max.delay.ms`, then give them to workers that came
    /// back empty, or treat them as new.
    fn handle_lost_assignments(
        &mut self,
        now: Millis,
        lost: &ItemSet,
        to_reassign: &mut ItemSet,
        next: &mut [WorkerLoad],
    ) {
        if lost.is_empty() && !self.revoked_in_previous {
            self.reset_delay();
            return;
        }
        let active_members: BTreeSet<&String> = next.iter().map(|w| &w.worker).collect();
        if self.scheduled_rebalance == 0 && self.previous_members.iter().all(|m| active_members.contains(m)) {
            // Nobody left: the items went missing in a failed sync. Reassign now.
            *to_reassign = lost.clone();
            return;
        }
        if self.max_delay == 0 {
            *to_reassign = lost.clone();
            return;
        }
        if self.scheduled_rebalance > 0 && now >= self.scheduled_rebalance {
            let candidates: Vec<usize> = self
                .candidate_workers_for_reassignment
                .iter()
                .filter_map(|c| next.iter().position(|w| w.worker == *c))
                .collect();
            if candidates.is_empty() {
                *to_reassign = lost.clone();
            } else {
                for (i, c) in lost.connectors.iter().enumerate() {
                    next[candidates[i % candidates.len()]].load.connectors.push(c.clone());
                }
                for (i, t) in lost.tasks.iter().enumerate() {
                    next[candidates[i % candidates.len()]].load.tasks.push(t.clone());
                }
            }
            self.reset_delay();
            self.revoked_in_previous = false;
        } else {
            let empty: Vec<String> = next.iter().filter(|w| w.load.is_empty()).map(|w| w.worker.clone()).collect();
            let empty_in_hash_order = java::hashmap_order(empty.iter().map(String::as_str), None);
            push_new(&mut self.candidate_workers_for_reassignment, &empty_in_hash_order);
            self.delay = if now < self.scheduled_rebalance {
                // calculateDelay: the time left, at most maxDelay
                (self.scheduled_rebalance - now).min(self.max_delay)
            } else {
                self.max_delay
            };
            self.scheduled_rebalance = now + self.delay;
        }
    }

    fn reset_delay(&mut self) {
        self.candidate_workers_for_reassignment.clear();
        self.scheduled_rebalance = 0;
        self.delay = 0;
    }
}

fn duplicated_assignments(members: &[WorkerLoad]) -> ItemSet {
    let mut seen = ItemSet::default();
    let mut dup = ItemSet::default();
    for w in members {
        for c in &w.load.connectors {
            if !seen.connectors.insert(c.clone()) {
                dup.connectors.insert(c.clone());
            }
        }
        for t in &w.load.tasks {
            if !seen.tasks.insert(t.clone()) {
                dup.tasks.insert(t.clone());
            }
        }
    }
    dup
}

/// `performLoadBalancingRevocations`: revoke from workers above the balanced
/// share (⌊total/workers⌋, with total mod workers of them allowed one more).
fn perform_load_balancing_revocations(
    configured: &ItemSet,
    workers: &[WorkerLoad],
) -> Vec<(String, ConnectorsAndTasks)> {
    if workers.iter().all(|w| w.load.is_empty()) || configured.is_empty() {
        return Vec::new();
    }
    let connectors = load_balancing_revocations(configured.connectors.len(), workers, |l| &l.connectors);
    let tasks = load_balancing_revocations(configured.tasks.len(), workers, |l| &l.tasks);
    let mut result: BTreeMap<String, ConnectorsAndTasks> = BTreeMap::new();
    for (w, c) in connectors {
        result.entry(w).or_default().connectors = c;
    }
    for (w, t) in tasks {
        result.entry(w).or_default().tasks = t;
    }
    result.into_iter().collect()
}

fn load_balancing_revocations<T: Clone>(
    total: usize,
    workers: &[WorkerLoad],
    items: impl Fn(&ConnectorsAndTasks) -> &Vec<T>,
) -> Vec<(String, Vec<T>)> {
    let n = workers.len();
    let min_per_worker = total / n;
    let extra = total % n;
    let at_min = workers.iter().filter(|w| items(&w.load).len() == min_per_worker).count();
    let at_extra = workers.iter().filter(|w| items(&w.load).len() == min_per_worker + 1).count();
    if at_extra == extra && at_min + at_extra == n {
        return Vec::new();
    }
    let mut result = Vec::new();
    let mut allocated_extras = 0;
    for w in workers {
        let have = items(&w.load).len();
        if have <= min_per_worker {
            continue;
        }
        let max_for_worker = if allocated_extras < extra {
            allocated_extras += 1;
            if have == min_per_worker + 1 {
                continue;
            }
            min_per_worker + 1
        } else {
            min_per_worker
        };
        result.push((w.worker.clone(), items(&w.load).iter().take(have - max_for_worker).cloned().collect()));
    }
    result
}

/// `assignConnectors` / `assignTasks`: sort workers by (load, id), then fill
/// the least-loaded tier one item each, round after round.
fn assign_round_robin<T: Clone>(
    workers: &mut [WorkerLoad],
    items: &[T],
    field: fn(&mut ConnectorsAndTasks) -> &mut Vec<T>,
) {
    if workers.is_empty() {
        return;
    }
    let mut keyed: Vec<(usize, WorkerLoad)> =
        workers.iter_mut().map(|w| (field(&mut w.load).len(), w.clone())).collect();
    keyed.sort_by(|(la, a), (lb, b)| la.cmp(lb).then_with(|| java::compare_strings(&a.worker, &b.worker)));
    for (slot, (_, w)) in workers.iter_mut().zip(keyed) {
        *slot = w;
    }
    let mut it = items.iter().peekable();
    while it.peek().is_some() {
        let first_load = field(&mut workers[0].load).len();
        let up_to =
            (0..workers.len()).find(|&i| field(&mut workers[i].load).len() > first_load).unwrap_or(workers.len());
        for w in workers[..up_to].iter_mut() {
            let Some(item) = it.next() else { break };
            field(&mut w.load).push(item.clone());
        }
    }
}

fn connectors_of(l: &mut ConnectorsAndTasks) -> &mut Vec<String> {
    &mut l.connectors
}

fn tasks_of(l: &mut ConnectorsAndTasks) -> &mut Vec<ConnectorTaskId> {
    &mut l.tasks
}

#[cfg(test)]
#[path = "incremental_assignor_tests.rs"]
mod tests;
