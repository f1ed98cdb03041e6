//! `org.apache.kafka.coordinator.group.streams.assignor.TaskId`.

use crate::java::compare_strings;
use std::cmp::Ordering;
use std::fmt;

/// A task: the subtopology id and the input partition it processes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TaskId {
    pub subtopology_id: String,
    pub partition: i32,
}

impl TaskId {
    pub fn new(subtopology_id: impl Into<String>, partition: i32) -> Self {
        TaskId { subtopology_id: subtopology_id.into(), partition }
    }
}

/// `TaskId.compareTo`: subtopology id (`String.compareTo`), then partition.
impl Ord for TaskId {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_strings(&self.subtopology_id, &other.subtopology_id).then(self.partition.cmp(&other.partition))
    }
}

impl PartialOrd for TaskId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `TaskId.toString`: `subtopologyId_partition`.
impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology_id, self.partition)
    }
}
