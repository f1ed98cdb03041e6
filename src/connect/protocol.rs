//! The Connect group protocol: connector and task ids, `connect.protocol`
//! modes and their protocol names, the worker metadata a JoinGroup carries
//! (`ExtendedWorkerState`) and the assignment a SyncGroup returns
//! (`ExtendedAssignment`): ConnectProtocol, IncrementalCooperativeConnectProtocol,
//! ConnectProtocolCompatibility.

use crate::java;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

/// `ConnectorTaskId`: a connector name and a task number, shown `sink-0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConnectorTaskId {
    pub connector: String,
    pub task: i32,
}

impl ConnectorTaskId {
    pub fn new(connector: &str, task: i32) -> ConnectorTaskId {
        ConnectorTaskId { connector: connector.to_string(), task }
    }

    /// `ConnectorTaskId.hashCode`: 31 * connector.hashCode() + task.
    pub fn java_hash(&self) -> i32 {
        java::string_hash(&self.connector).wrapping_mul(31).wrapping_add(self.task)
    }
}

/// `compareTo`: connector name (Java `String.compareTo`), then task number.
impl Ord for ConnectorTaskId {
    fn cmp(&self, other: &Self) -> Ordering {
        java::compare_strings(&self.connector, &other.connector).then(self.task.cmp(&other.task))
    }
}

impl PartialOrd for ConnectorTaskId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ConnectorTaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.connector, self.task)
    }
}

/// `connect.protocol` (`ConnectProtocolCompatibility`).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConnectProtocolCompatibility {
    EAGER,
    COMPATIBLE,
    SESSIONED,
}

impl ConnectProtocolCompatibility {
    /// The protocol name in JoinGroup: eager is "default" (V0).
    pub fn protocol(self) -> &'static str {
        match self {
            ConnectProtocolCompatibility::EAGER => "default",
            ConnectProtocolCompatibility::COMPATIBLE => "compatible",
            ConnectProtocolCompatibility::SESSIONED => "sessioned",
        }
    }

    pub fn protocol_version(self) -> i16 {
        match self {
            ConnectProtocolCompatibility::EAGER => 0,
            ConnectProtocolCompatibility::COMPATIBLE => 1,
            ConnectProtocolCompatibility::SESSIONED => 2,
        }
    }

    /// `fromProtocol`: the mode a chosen protocol name stands for.
    pub fn from_protocol(name: &str) -> Option<ConnectProtocolCompatibility> {
        [Self::EAGER, Self::COMPATIBLE, Self::SESSIONED].into_iter().find(|m| m.protocol() == name)
    }

    /// The protocols a worker in this mode advertises, best first
    /// (`IncrementalCooperativeConnectProtocol.metadataRequest`).
    pub fn advertised(self) -> &'static [ConnectProtocolCompatibility] {
        use ConnectProtocolCompatibility::*;
        match self {
            EAGER => &[EAGER],
            COMPATIBLE => &[COMPATIBLE, EAGER],
            SESSIONED => &[SESSIONED, COMPATIBLE, EAGER],
        }
    }

    pub fn is_incremental(self) -> bool {
        self != ConnectProtocolCompatibility::EAGER
    }
}

/// `ConnectProtocol.Assignment.NO_ERROR` / `CONFIG_MISMATCH`.
pub const NO_ERROR: i16 = 0;
pub const CONFIG_MISMATCH: i16 = 1;

/// `ExtendedAssignment` (V0 assignments leave the revoked lists empty and delay 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectAssignment {
    pub version: i16,
    pub error: i16,
    pub leader: String,
    pub leader_url: String,
    pub config_offset: i64,
    pub connectors: Vec<String>,
    pub tasks: Vec<ConnectorTaskId>,
    pub revoked_connectors: Vec<String>,
    pub revoked_tasks: Vec<ConnectorTaskId>,
    /// Milliseconds until the worker must rejoin (`scheduled.rebalance.max.delay.ms` at most).
    pub delay: u64,
}

impl ConnectAssignment {
    pub fn failed(&self) -> bool {
        self.error != NO_ERROR
    }

    /// A short text for labels and notes: `[sink, sink-0] revoked [sink-1] delay 300000`.
    pub fn summary(&self) -> String {
        let mut s = format!("[{}]", join_items(&self.connectors, &self.tasks));
        if !self.revoked_connectors.is_empty() || !self.revoked_tasks.is_empty() {
            s.push_str(&format!(" revoked [{}]", join_items(&self.revoked_connectors, &self.revoked_tasks)));
        }
        if self.delay > 0 {
            s.push_str(&format!(" delay {} ms", self.delay));
        }
        s
    }
}

pub fn join_items(connectors: &[String], tasks: &[ConnectorTaskId]) -> String {
    connectors.iter().cloned().chain(tasks.iter().map(|t| t.to_string())).collect::<Vec<_>>().join(", ")
}

/// `ExtendedWorkerState`: what a worker puts in each JoinGroup protocol entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectProtocolMetadata {
    pub url: String,
    pub config_offset: i64,
    /// The worker's current assignment (V1 and V2 only; None for "default").
    pub assignment: Option<ConnectAssignment>,
}

/// The connectors and tasks of the config topic at one offset (`ClusterConfigState`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigSnapshot {
    pub offset: i64,
    /// Connector name -> number of tasks.
    pub connectors: BTreeMap<String, u32>,
}

impl ConfigSnapshot {
    /// Connector names in `String.compareTo` order.
    pub fn connectors_sorted(&self) -> Vec<String> {
        let mut c: Vec<String> = self.connectors.keys().cloned().collect();
        c.sort_by(|a, b| java::compare_strings(a, b));
        c
    }

    /// Tasks of one connector, sorted.
    pub fn tasks(&self, connector: &str) -> Vec<ConnectorTaskId> {
        let n = self.connectors.get(connector).copied().unwrap_or(0) as i32;
        (0..n).map(|t| ConnectorTaskId::new(connector, t)).collect()
    }

    pub fn all_tasks(&self) -> Vec<ConnectorTaskId> {
        self.connectors_sorted().iter().flat_map(|c| self.tasks(c)).collect()
    }
}

/// `ConnectorsAndTasks`: two insertion-ordered sets (LinkedHashSet in Kafka).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectorsAndTasks {
    pub connectors: Vec<String>,
    pub tasks: Vec<ConnectorTaskId>,
}

impl ConnectorsAndTasks {
    pub fn is_empty(&self) -> bool {
        self.connectors.is_empty() && self.tasks.is_empty()
    }

    /// `Builder.addAll`: appends what is not there yet.
    pub fn add_all(&mut self, connectors: &[String], tasks: &[ConnectorTaskId]) {
        push_new(&mut self.connectors, connectors);
        push_new(&mut self.tasks, tasks);
    }

    /// `removeAll` on both sets.
    pub fn remove_all(&mut self, connectors: &[String], tasks: &[ConnectorTaskId]) {
        self.connectors.retain(|c| !connectors.contains(c));
        self.tasks.retain(|t| !tasks.contains(t));
    }
}

pub(crate) fn push_new<T: PartialEq + Clone>(to: &mut Vec<T>, items: &[T]) {
    for i in items {
        if !to.contains(i) {
            to.push(i.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_print_and_sort_like_kafka() {
        let mut ids = [ConnectorTaskId::new("sink", 10), ConnectorTaskId::new("sink", 2), ConnectorTaskId::new("a", 5)];
        ids.sort();
        let shown: Vec<String> = ids.iter().map(|t| t.to_string()).collect();
        assert_eq!(shown, ["a-5", "sink-2", "sink-10"]);
    }

    #[test]
    fn modes_advertise_best_first_and_name_eager_default() {
        use ConnectProtocolCompatibility::*;
        let names: Vec<&str> = SESSIONED.advertised().iter().map(|m| m.protocol()).collect();
        assert_eq!(names, ["sessioned", "compatible", "default"]);
        assert_eq!(EAGER.advertised(), &[EAGER]);
        assert_eq!(ConnectProtocolCompatibility::from_protocol("default"), Some(EAGER));
    }
}
