//! `org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor`
//! ("sticky"), as of Kafka 4.4: active tasks go back to their previous active
//! owner, then to a previous standby holder (or a member that reported
//! offsets for the task), then to the least-loaded process; standbys go to the
//! previous active owner's or a previous standby holder's process, then to the
//! least-loaded process that does not hold the task yet. Not rack-aware; no
//! warm-up tasks.
//!
//! Java iteration order that the result depends on, reproduced here:
//! `memberIds()` (the coordinator's member `HashMap`), `processIdToState` (a
//! `HashMap` filled with `computeIfAbsent`), the two `PriorityQueue`s (ties go
//! by heap position) and each `ProcessState`'s `memberToTaskCounts`. Kafka
//! also iterates each member's task maps, which `MemberMetadataAndStateImpl`
//! copies into immutable collections whose order varies between JVM runs;
//! the result does not depend on that order (each member adds at most one
//! entry per task to any list), so those maps are read in key order.

use super::{ProcessState, StreamsGroupSpec, StreamsMemberAssignment, StreamsMemberSpec, TaskId, STICKY_TASK_ASSIGNOR};
use super::{Tasks, TopologyDescriber};
use crate::java::priority_queue::PriorityQueue;
use crate::java::{compare_strings, double_compare, hash_string, member_map_order, JavaHashOrder};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

/// Most tasks (over all subtopologies) one call takes; Kafka has no such
/// bound, but a larger topology would only exhaust memory here.
pub const MAX_TASKS: i64 = 1_000_000;

/// `StickyTaskAssignor` as an object: its `name()`, `toString()` and `assign`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StickyTaskAssignor;

impl StickyTaskAssignor {
    /// `name()`: "sticky".
    pub fn name(&self) -> &'static str {
        STICKY_TASK_ASSIGNOR
    }

    /// `assign`: [`sticky_assign`].
    pub fn assign(
        &self,
        group: &StreamsGroupSpec,
        topology: &TopologyDescriber,
    ) -> Result<BTreeMap<String, StreamsMemberAssignment>, String> {
        sticky_assign(group, topology)
    }
}

/// `toString()`: the name.
impl fmt::Display for StickyTaskAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `StickyTaskAssignor.assign`: each member's target active and standby tasks,
/// an entry for every member. `Err` carries the message of Kafka's
/// `TaskAssignorException` (or of the exception Kafka would throw otherwise),
/// or says why the input cannot be assigned (a subtopology listed twice, more
/// than [`MAX_TASKS`] tasks).
///
/// Members are taken in the order Kafka's `GroupSpec.memberIds()` iterates
/// them: `streams.TargetAssignmentBuilder.build` puts the members into a
/// default-capacity `java.util.HashMap<String, MemberMetadataAndStateImpl>`
/// and `GroupSpecImpl` hands out its key set. Members whose ids share a bucket
/// are put in ascending id order (the coordinator puts them in the order of
/// its own member map).
pub fn sticky_assign(
    group: &StreamsGroupSpec,
    topology: &TopologyDescriber,
) -> Result<BTreeMap<String, StreamsMemberAssignment>, String> {
    let order = member_map_order(group.members.keys().map(String::as_str));
    sticky_assign_with_member_order(group, &order, topology)
}

/// [`sticky_assign`] with `memberIds()` iterating in `member_order`, which
/// must list every member of `group` once (Kafka's tests build the spec from a
/// `LinkedHashMap`, which iterates in insertion order).
pub fn sticky_assign_with_member_order<S: AsRef<str>>(
    group: &StreamsGroupSpec,
    member_order: &[S],
    topology: &TopologyDescriber,
) -> Result<BTreeMap<String, StreamsMemberAssignment>, String> {
    check_member_order(group, member_order)?;
    check_topology(topology)?;
    let order: Vec<&str> = member_order.iter().map(AsRef::as_ref).collect();
    let mut state = initialize(group, &order, topology);
    do_assign(&mut state, topology)?;
    Ok(build_group_assignment(&state))
}

fn check_member_order<S: AsRef<str>>(group: &StreamsGroupSpec, order: &[S]) -> Result<(), String> {
    let mut seen = HashSet::new();
    for id in order.iter().map(AsRef::as_ref) {
        if !group.members.contains_key(id) {
            return Err(format!("the member order lists '{id}', which is not a member of the group"));
        }
        if !seen.insert(id) {
            return Err(format!("the member order lists '{id}' twice"));
        }
    }
    match group.members.keys().find(|id| !seen.contains(id.as_str())) {
        Some(id) => Err(format!("the member order leaves out member '{id}'")),
        None => Ok(()),
    }
}

fn check_topology(topology: &TopologyDescriber) -> Result<(), String> {
    let mut ids = HashSet::new();
    let mut total = 0i64;
    for s in &topology.subtopologies {
        if !ids.insert(s.id.as_str()) {
            return Err(format!("subtopology '{}' is listed twice", s.id));
        }
        total += i64::from(s.num_tasks.max(0));
    }
    if total > MAX_TASKS {
        return Err(format!("the topology has {total} tasks; at most {MAX_TASKS}"));
    }
    Ok(())
}

/// `StickyTaskAssignor.Member`: a member and its process.
struct Member {
    /// Index into `LocalState::processes`.
    process: usize,
    id: String,
}

/// `StickyTaskAssignor.LocalState`.
struct LocalState {
    /// Every member of the group, in `memberIds()` order.
    members: Vec<Member>,
    /// `activeTaskToPrevMember`: task -> index into `members`.
    active_task_to_prev_member: HashMap<TaskId, usize>,
    /// `standbyTaskToPrevMember`: task -> ranked indices into `members`.
    standby_task_to_prev_member: HashMap<TaskId, Vec<usize>>,
    /// `processIdToState`'s values, in order of first appearance
    /// (`Member::process` indexes them).
    processes: Vec<ProcessState>,
    /// `processIdToState.values()` in the map's iteration order.
    process_order: Vec<usize>,
    num_standby_replicas: i32,
    /// `totalActiveTasks`, `totalMembersWithActiveTaskCapacity`, `activeTasksPerMember`.
    active: Quota,
    /// `totalTasks`, `totalMembersWithTaskCapacity`, `totalTasksPerMember`.
    total: Quota,
}

/// One quota of `LocalState`: the tasks still to share, the members still
/// below the quota, and the quota (tasks per member).
struct Quota {
    tasks: i32,
    members: i32,
    per_member: i32,
}

impl Quota {
    fn new(tasks: i32, members: i32) -> Self {
        Quota { tasks, members, per_member: compute_tasks_per_member(tasks, members) }
    }

    /// `maybeUpdateActiveTasksPerMember` / `maybeUpdateTotalTasksPerMember`: a
    /// member that reached the quota leaves the pool with its tasks, and the
    /// quota is recomputed over the rest.
    fn maybe_update(&mut self, member_tasks: i32) {
        if member_tasks == self.per_member {
            self.members = self.members.wrapping_sub(1);
            self.tasks = self.tasks.wrapping_sub(member_tasks);
            self.per_member = compute_tasks_per_member(self.tasks, self.members);
        }
    }
}

/// `StickyTaskAssignor.StandbyCandidate`.
struct StandbyCandidate {
    member: usize,
    is_prev_standby: bool,
    offset_sum: i64,
}

/// `STANDBY_CANDIDATE_ORDER`: standbys of the current assignment first, then
/// members only known through reported offsets; the largest offset sum first.
fn standby_candidate_order(a: &StandbyCandidate, b: &StandbyCandidate) -> Ordering {
    let rank = |c: &StandbyCandidate| if c.is_prev_standby { 0 } else { 1 };
    rank(a).cmp(&rank(b)).then(b.offset_sum.cmp(&a.offset_sum))
}

/// `StickyTaskAssignor.initialize`.
fn initialize(group: &StreamsGroupSpec, order: &[&str], topology: &TopologyDescriber) -> LocalState {
    let num_standby_replicas = group.num_standby_replicas;
    let (mut total_active_tasks, mut total_tasks) = (0i32, 0i32);
    for s in &topology.subtopologies {
        total_tasks = total_tasks.wrapping_add(s.num_tasks);
        total_active_tasks = total_active_tasks.wrapping_add(s.num_tasks);
        if s.stateful {
            total_tasks = total_tasks.wrapping_add(s.num_tasks.wrapping_mul(num_standby_replicas));
        }
    }
    let num_members = order.len() as i32;

    // processIdToState = new HashMap<>(totalMembersWithActiveTaskCapacity),
    // filled with computeIfAbsent in memberIds() order.
    let mut process_keys = JavaHashOrder::with_capacity(order.len(), hash_string as fn(&String) -> i32);
    let mut process_index: HashMap<&str, usize> = HashMap::new();
    let mut processes: Vec<ProcessState> = Vec::new();
    let mut members = Vec::with_capacity(order.len());
    let mut active_task_to_prev_member = HashMap::new();
    let mut candidates: HashMap<TaskId, Vec<StandbyCandidate>> = HashMap::new();
    for id in order {
        let Some(spec) = group.members.get(*id) else { continue };
        let m = members.len();
        let pid = spec.process_id.as_str();
        process_keys.compute_if_absent(pid.to_string());
        let process = *process_index.entry(pid).or_insert_with(|| {
            processes.push(ProcessState::new(pid));
            processes.len() - 1
        });
        processes[process].add_member(id);
        members.push(Member { process, id: id.to_string() });

        for (subtopology, partitions) in &spec.active_tasks {
            for p in partitions {
                active_task_to_prev_member.insert(TaskId::new(subtopology.as_str(), *p), m);
            }
        }
        collect_standby_candidates(&mut candidates, spec, m);
    }
    let process_order = process_keys.keys().filter_map(|pid| process_index.get(pid.as_str()).copied()).collect();

    // rankStandbyCandidates (List.sort is stable)
    let standby_task_to_prev_member = candidates
        .into_iter()
        .map(|(task, mut list)| {
            list.sort_by(standby_candidate_order);
            (task, list.into_iter().map(|c| c.member).collect())
        })
        .collect();

    LocalState {
        members,
        active_task_to_prev_member,
        standby_task_to_prev_member,
        processes,
        process_order,
        num_standby_replicas,
        active: Quota::new(total_active_tasks, num_members),
        total: Quota::new(total_tasks, num_members),
    }
}

/// `collectStandbyCandidates`: the member's current standbys (with the offset
/// sum it reported for each, 0 if none), then every other task it reported
/// offsets for (state on local disk after a restart).
fn collect_standby_candidates(
    candidates: &mut HashMap<TaskId, Vec<StandbyCandidate>>,
    spec: &StreamsMemberSpec,
    member: usize,
) {
    let reported = |subtopology: &str, p: i32| spec.task_offsets.get(subtopology).and_then(|o| o.get(&p)).copied();
    for (subtopology, partitions) in &spec.standby_tasks {
        for p in partitions {
            candidates.entry(TaskId::new(subtopology.as_str(), *p)).or_default().push(StandbyCandidate {
                member,
                is_prev_standby: true,
                offset_sum: reported(subtopology, *p).unwrap_or(0),
            });
        }
    }
    for (subtopology, offsets) in &spec.task_offsets {
        let standby = spec.standby_tasks.get(subtopology);
        for (p, offset) in offsets {
            if standby.is_some_and(|s| s.contains(p)) {
                continue;
            }
            candidates.entry(TaskId::new(subtopology.as_str(), *p)).or_default().push(StandbyCandidate {
                member,
                is_prev_standby: false,
                offset_sum: *offset,
            });
        }
    }
}

/// `StickyTaskAssignor.doAssign` without building the result.
fn do_assign(state: &mut LocalState, topology: &TopologyDescriber) -> Result<(), String> {
    assign_active(state, task_ids(topology, true))?;
    if state.num_standby_replicas > 0 {
        assign_standby(state, task_ids(topology, false))?;
    }
    Ok(())
}

/// `taskIds`: every task of every subtopology (active), or of the stateful ones.
fn task_ids(topology: &TopologyDescriber, is_active: bool) -> Vec<TaskId> {
    topology
        .subtopologies
        .iter()
        .filter(|s| is_active || s.stateful)
        .flat_map(|s| (0..s.num_tasks).map(|p| TaskId::new(s.id.as_str(), p)))
        .collect()
}

/// `buildGroupAssignment`: an entry for every member, its tasks by subtopology.
fn build_group_assignment(state: &LocalState) -> BTreeMap<String, StreamsMemberAssignment> {
    let compacted = |tasks: Option<&BTreeSet<TaskId>>| -> Tasks {
        let mut out = Tasks::new();
        for t in tasks.into_iter().flatten() {
            out.entry(t.subtopology_id.clone()).or_default().insert(t.partition);
        }
        out
    };
    let mut result = BTreeMap::new();
    for member in &state.members {
        let process = &state.processes[member.process];
        let assignment = StreamsMemberAssignment {
            active_tasks: compacted(process.assigned_active_tasks_by_member().get(&member.id)),
            standby_tasks: compacted(process.assigned_standby_tasks_by_member().get(&member.id)),
            warmup_tasks: Tasks::new(),
        };
        result.insert(member.id.clone(), assignment);
    }
    result
}

/// `Comparator.comparingDouble(ProcessState::load)` over process indices.
fn by_load(processes: &[ProcessState]) -> impl Fn(&usize, &usize) -> Ordering + '_ {
    move |a, b| double_compare(processes[*a].load(), processes[*b].load())
}

/// `assignActive`.
fn assign_active(state: &mut LocalState, mut tasks: Vec<TaskId>) -> Result<(), String> {
    // "Assuming our current assignment pairs same partitions (range-based), we
    // want to sort by partition first"
    tasks.sort_by(|a, b| a.partition.cmp(&b.partition).then(compare_strings(&a.subtopology_id, &b.subtopology_id)));

    // 1. re-assigning existing active tasks to clients that previously had the same active tasks
    let mut remaining = Vec::with_capacity(tasks.len());
    for task in tasks {
        if let Some(&m) = state.active_task_to_prev_member.get(&task) {
            if has_unfulfilled_active_task_quota(state, m) {
                assign_sticky_active(state, m, task)?;
                continue;
            }
        }
        remaining.push(task);
    }

    // 2. re-assigning tasks to clients that previously have seen the same task (as standby task)
    let mut tasks = Vec::with_capacity(remaining.len());
    for task in remaining {
        let prev = state
            .standby_task_to_prev_member
            .get(&task)
            .and_then(|ms| find_prev_member_with_least_load(state, ms, None));
        if let Some(m) = prev {
            if has_unfulfilled_active_task_quota(state, m) {
                assign_sticky_active(state, m, task)?;
                continue;
            }
        }
        tasks.push(task);
    }

    // "To achieve an initially range-based assignment, sort by subtopology"
    tasks.sort();

    // 3. assign any remaining unassigned tasks
    let mut process_by_load = PriorityQueue::new();
    process_by_load.add_all(state.process_order.iter().copied(), by_load(&state.processes));
    for task in tasks {
        let Some(p) = process_by_load.poll(by_load(&state.processes)) else {
            return Err(format!("No process available to assign active task {task}."));
        };
        let shown = task.to_string();
        let n = state.processes[p].add_task_to_least_loaded_member(task, true)?;
        if n == -1 {
            return Err(format!("No member available to assign active task {shown}."));
        }
        state.active.maybe_update(n);
        state.total.maybe_update(n);
        process_by_load.add(p, by_load(&state.processes));
    }
    Ok(())
}

/// Steps 1 and 2 of `assignActive`: `addTask` to a previous owner, then the
/// two quota updates.
fn assign_sticky_active(state: &mut LocalState, member: usize, task: TaskId) -> Result<(), String> {
    let Member { process, id } = &state.members[member];
    let n = state.processes[*process].add_task(id, task, true)?;
    state.active.maybe_update(n);
    state.total.maybe_update(n);
    Ok(())
}

/// `assignStandbyToMemberWithLeastLoad`: polls processes until one does not
/// hold `task`, gives it to that process's least-loaded member, and puts the
/// polled processes back (the last polled first, as Kafka's recursion does).
fn assign_standby_to_member_with_least_load(
    state: &mut LocalState,
    queue: &mut PriorityQueue<usize>,
    task: &TaskId,
) -> Result<bool, String> {
    let mut polled = Vec::new();
    let mut found = false;
    while let Some(p) = queue.poll(by_load(&state.processes)) {
        polled.push(p);
        if !state.processes[p].has_task(task) {
            let n = state.processes[p].add_task_to_least_loaded_member(task.clone(), false)?;
            if n != -1 {
                found = true;
                state.total.maybe_update(n);
            }
            break;
        }
        if queue.is_empty() {
            break;
        }
    }
    for p in polled.into_iter().rev() {
        queue.add(p, by_load(&state.processes));
    }
    Ok(found)
}

/// `findPrevMemberWithLeastLoad`: the first of `members` whose process is
/// below every earlier pick in both process load and member task count
/// (skipping processes that already hold `standby_task`).
fn find_prev_member_with_least_load(
    state: &LocalState,
    members: &[usize],
    standby_task: Option<&TaskId>,
) -> Option<usize> {
    let mut candidate = None;
    let (mut candidate_process_load, mut candidate_member_load) = (f64::MAX, f64::MAX);
    for &m in members {
        let Member { process, id } = &state.members[m];
        let process = &state.processes[*process];
        // A process that already owns a standby task (either as active or standby) cannot take it again
        if standby_task.is_some_and(|t| process.has_task(t)) {
            continue;
        }
        let new_process_load = process.load();
        let new_member_load = f64::from(member_task_count(process, id));
        if candidate.is_none() || (new_process_load < candidate_process_load && new_member_load < candidate_member_load)
        {
            candidate_process_load = new_process_load;
            candidate_member_load = new_member_load;
            candidate = Some(m);
        }
    }
    candidate
}

/// `memberToTaskCounts().get(memberId)` for a member of the process.
fn member_task_count(process: &ProcessState, member_id: &str) -> i32 {
    process.member_to_task_counts().get(member_id).copied().unwrap_or(0)
}

/// `hasUnfulfilledActiveTaskQuota`.
fn has_unfulfilled_active_task_quota(state: &LocalState, member: usize) -> bool {
    let Member { process, id } = &state.members[member];
    member_task_count(&state.processes[*process], id) < state.active.per_member
}

/// `hasUnfulfilledTaskQuota`.
fn has_unfulfilled_task_quota(state: &LocalState, member: usize) -> bool {
    let Member { process, id } = &state.members[member];
    member_task_count(&state.processes[*process], id) < state.total.per_member
}

/// `StickyTaskAssignor.StandbyToAssign`: a task and how many of its standby
/// replicas are still to place.
struct StandbyToAssign {
    task: TaskId,
    remaining_replicas: i32,
}

/// `assignStandby`.
fn assign_standby(state: &mut LocalState, mut tasks: Vec<TaskId>) -> Result<(), String> {
    // new ArrayList<>(standbyTasks.size() * numStandbyReplicas): an int product
    // that wraps below zero makes Kafka throw.
    let capacity = (tasks.len() as i32).wrapping_mul(state.num_standby_replicas);
    if capacity < 0 {
        return Err(format!("Illegal Capacity: {capacity}"));
    }
    let mut to_least_loaded = Vec::new();

    // "Assuming our current assignment is range-based, we want to sort by partition first."
    // (the whole comparator reversed: partition descending, then subtopology descending)
    tasks.sort_by(|a, b| b.partition.cmp(&a.partition).then(compare_strings(&b.subtopology_id, &a.subtopology_id)));

    for task in tasks {
        for i in 0..state.num_standby_replicas {
            // prev active task
            if let Some(&m) = state.active_task_to_prev_member.get(&task) {
                let process = state.members[m].process;
                if !state.processes[process].has_task(&task) && has_unfulfilled_task_quota(state, m) {
                    assign_sticky_standby(state, m, task.clone())?;
                    continue;
                }
            }

            // prev standby tasks
            let prev = state
                .standby_task_to_prev_member
                .get(&task)
                .filter(|ms| !ms.is_empty())
                .and_then(|ms| find_prev_member_with_least_load(state, ms, Some(&task)));
            if let Some(m) = prev {
                if has_unfulfilled_task_quota(state, m) {
                    assign_sticky_standby(state, m, task.clone())?;
                    continue;
                }
            }

            to_least_loaded
                .push(StandbyToAssign { task: task.clone(), remaining_replicas: state.num_standby_replicas - i });
            break;
        }
    }

    // "To achieve a range-based assignment, sort by subtopology" (reversed:
    // subtopology descending, then partition descending)
    to_least_loaded.sort_by(|a, b| b.task.cmp(&a.task));

    let mut process_by_load = PriorityQueue::new();
    process_by_load.add_all(state.process_order.iter().copied(), by_load(&state.processes));
    for to_assign in &to_least_loaded {
        for _ in 0..to_assign.remaining_replicas {
            // Kafka logs a WARN "Unable to assign N of M standby tasks for task [T]" here.
            if !assign_standby_to_member_with_least_load(state, &mut process_by_load, &to_assign.task)? {
                break;
            }
        }
    }
    Ok(())
}

/// The previous-owner branches of `assignStandby`: `addTask` as a standby,
/// then the total quota update.
fn assign_sticky_standby(state: &mut LocalState, member: usize, task: TaskId) -> Result<(), String> {
    let Member { process, id } = &state.members[member];
    let n = state.processes[*process].add_task(id, task, false)?;
    state.total.maybe_update(n);
    Ok(())
}

/// `computeTasksPerMember`: the ceiling of tasks / members (0 without members),
/// in Java `int` arithmetic.
fn compute_tasks_per_member(tasks: i32, members: i32) -> i32 {
    if members == 0 {
        return 0;
    }
    let per_member = tasks.wrapping_div(members);
    if tasks.wrapping_rem(members) > 0 {
        per_member.wrapping_add(1)
    } else {
        per_member
    }
}
