//! `org.apache.kafka.coordinator.group.streams.assignor.ProcessState`: one
//! Kafka Streams process (`processId`) during an assignment: its members
//! (the capacity), the tasks each holds, and the load.

use super::TaskId;
use crate::java::priority_queue::PriorityQueue;
use crate::java::{double_compare, hash_string, JavaHashOrder};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The state of one process in the group coordinator's assignment.
#[derive(Clone, Debug)]
pub struct ProcessState {
    process_id: String,
    /// Number of members.
    capacity: i32,
    load: f64,
    task_count: i32,
    /// `memberToTaskCounts`: a `HashMap<String, Integer>`; its iteration
    /// order (kept in `member_order`) fills `membersByLoad`.
    member_to_task_counts: BTreeMap<String, i32>,
    member_order: JavaHashOrder<String>,
    assigned_active_tasks: BTreeMap<String, BTreeSet<TaskId>>,
    assigned_standby_tasks: BTreeMap<String, BTreeSet<TaskId>>,
    assigned_tasks: BTreeSet<TaskId>,
    /// `membersByLoad`: (member id, task count) entries, or `None` (Kafka's
    /// null) until `addTaskToLeastLoadedMember` needs it.
    members_by_load: Option<PriorityQueue<(String, i32)>>,
}

/// `Map.Entry.comparingByValue()` over (member id, task count).
fn by_count(a: &(String, i32), b: &(String, i32)) -> Ordering {
    a.1.cmp(&b.1)
}

impl ProcessState {
    /// `new ProcessState(processId)`: no members, load `Double.MAX_VALUE`.
    pub fn new(process_id: impl Into<String>) -> Self {
        ProcessState {
            process_id: process_id.into(),
            capacity: 0,
            load: f64::MAX,
            task_count: 0,
            member_to_task_counts: BTreeMap::new(),
            member_order: JavaHashOrder::new(hash_string as fn(&String) -> i32),
            assigned_active_tasks: BTreeMap::new(),
            assigned_standby_tasks: BTreeMap::new(),
            assigned_tasks: BTreeSet::new(),
            members_by_load: None,
        }
    }

    pub fn process_id(&self) -> &str {
        &self.process_id
    }

    pub fn capacity(&self) -> i32 {
        self.capacity
    }

    pub fn load(&self) -> f64 {
        self.load
    }

    /// `memberToTaskCounts()`: member id -> tasks (active and standby) held.
    pub fn member_to_task_counts(&self) -> &BTreeMap<String, i32> {
        &self.member_to_task_counts
    }

    /// `assignedActiveTasks()`: the active tasks of every member.
    pub fn assigned_active_tasks(&self) -> BTreeSet<TaskId> {
        self.assigned_active_tasks.values().flatten().cloned().collect()
    }

    pub fn assigned_active_tasks_by_member(&self) -> &BTreeMap<String, BTreeSet<TaskId>> {
        &self.assigned_active_tasks
    }

    /// `assignedStandbyTasks()`: the standby tasks of every member.
    pub fn assigned_standby_tasks(&self) -> BTreeSet<TaskId> {
        self.assigned_standby_tasks.values().flatten().cloned().collect()
    }

    pub fn assigned_standby_tasks_by_member(&self) -> &BTreeMap<String, BTreeSet<TaskId>> {
        &self.assigned_standby_tasks
    }

    /// `addTask`: assigns `task` to `member_id` and returns how many tasks the
    /// member now has. Drops `membersByLoad` (it cannot be kept ordered when a
    /// given member gains a task). Err for a member this process does not
    /// have (Kafka: a `NullPointerException`).
    pub fn add_task(&mut self, member_id: &str, task: TaskId, is_active: bool) -> Result<i32, String> {
        let n = self.add_task_internal(member_id, task, is_active)?;
        self.members_by_load = None;
        Ok(n)
    }

    fn add_task_internal(&mut self, member_id: &str, task: TaskId, is_active: bool) -> Result<i32, String> {
        let Some(count) = self.member_to_task_counts.get_mut(member_id) else {
            return Err(format!("member {member_id} is not a member of process {}", self.process_id));
        };
        *count = count.wrapping_add(1);
        let new_count = *count;
        self.task_count = self.task_count.wrapping_add(1);
        self.assigned_tasks.insert(task.clone());
        let by_member = if is_active { &mut self.assigned_active_tasks } else { &mut self.assigned_standby_tasks };
        by_member.entry(member_id.to_string()).or_default().insert(task);
        self.compute_load();
        Ok(new_count)
    }

    /// `addTaskToLeastLoadedMember`: assigns `task` to the member with the
    /// fewest tasks (a `PriorityQueue` by task count, filled in
    /// `memberToTaskCounts` order and kept between calls); returns how many
    /// tasks that member now has, or -1 if the process has no member.
    pub fn add_task_to_least_loaded_member(&mut self, task: TaskId, is_active: bool) -> Result<i32, String> {
        if self.member_to_task_counts.is_empty() {
            return Ok(-1);
        }
        if self.member_to_task_counts.len() == 1 {
            let only = self.member_order.keys().next().cloned().unwrap_or_default();
            return self.add_task_internal(&only, task, is_active);
        }
        let mut heap = match self.members_by_load.take() {
            Some(heap) => heap,
            None => {
                let mut heap = PriorityQueue::new();
                let counts = &self.member_to_task_counts;
                let entries = self.member_order.keys().map(|m| (m.clone(), counts.get(m).copied().unwrap_or(0)));
                heap.add_all(entries, by_count);
                heap
            }
        };
        let Some((member, _)) = heap.poll(by_count) else {
            return Err(format!("No members available to assign task {task}"));
        };
        let result = self.add_task_internal(&member, task, is_active);
        if let Ok(n) = result {
            heap.add((member, n), by_count);
        }
        self.members_by_load = Some(heap);
        result
    }

    /// `computeLoad`: tasks per member (-1 without members).
    pub fn compute_load(&mut self) {
        self.load = if self.capacity <= 0 { -1.0 } else { f64::from(self.task_count) / f64::from(self.capacity) };
    }

    /// `addMember`: the member starts with no tasks; the capacity grows by one.
    pub fn add_member(&mut self, member_id: &str) {
        self.member_to_task_counts.insert(member_id.to_string(), 0);
        self.member_order.put_java(member_id.to_string());
        self.capacity = self.capacity.wrapping_add(1);
        self.compute_load();
    }

    /// `hasCapacity`: fewer tasks than members.
    pub fn has_capacity(&self) -> bool {
        self.load < 1.0
    }

    /// `compareTo`: by load, then the larger capacity first.
    pub fn compare_to(&self, other: &ProcessState) -> Ordering {
        match double_compare(self.load, other.load) {
            Ordering::Equal => other.capacity.cmp(&self.capacity),
            o => o,
        }
    }

    /// `hasTask`: the process holds `task`, active or standby, in any member.
    pub fn has_task(&self, task: &TaskId) -> bool {
        self.assigned_tasks.contains(task)
    }

    /// `assignedTasks()`: every task the process holds.
    pub fn assigned_tasks(&self) -> &BTreeSet<TaskId> {
        &self.assigned_tasks
    }
}
