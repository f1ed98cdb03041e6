//! Streams assignment cases for the `assign` command: a group of Kafka
//! Streams members (each with its process and current tasks), the topology's
//! subtopologies and `numStandbyReplicas`, read from JSON; one call of the
//! streams task assignor; the result as JSON.
//!
//! ```json
//! {"assignor": "streams.sticky", "numStandbyReplicas": 1,
//!  "subtopologies": [{"id": "0", "numTasks": 4, "stateful": true}],
//!  "members": [{"id": "m1", "processId": "p1", "activeTasks": {"0": [0, 1]}}]}
//! ```

use super::{sticky_assign, sticky_assign_with_member_order, StreamsGroupSpec, StreamsMemberSpec};
use super::{Subtopology, Tasks, TopologyDescriber};
use crate::sim::scenario::limits::{name, shown};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The `assignor` of a streams case.
pub const STREAMS_STICKY: &str = "streams.sticky";

/// Most members, and most tasks over all subtopologies, of one case (as the
/// partition assignors' cases allow members and partitions).
pub const MAX_MEMBERS: usize = 10_000;
pub const MAX_CASE_TASKS: i64 = 100_000;
/// Longest member, process, instance, rack or subtopology id.
pub const MAX_ID_LEN: usize = 249;

/// One member of a streams case.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StreamsCaseMember {
    pub id: String,
    pub process_id: String,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack_id: Option<String>,
    #[serde(default)]
    pub client_tags: BTreeMap<String, String>,
    /// The member's current tasks, subtopology id -> partitions.
    #[serde(default)]
    pub active_tasks: Tasks,
    #[serde(default)]
    pub standby_tasks: Tasks,
    #[serde(default)]
    pub warmup_tasks: Tasks,
    /// Reported changelog offsets, subtopology id -> partition -> offset sum.
    #[serde(default)]
    pub task_offsets: BTreeMap<String, BTreeMap<i32, i64>>,
    #[serde(default)]
    pub task_end_offsets: BTreeMap<String, BTreeMap<i32, i64>>,
}

/// One subtopology of a streams case.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StreamsCaseSubtopology {
    pub id: String,
    pub num_tasks: i32,
    #[serde(default)]
    pub stateful: bool,
}

/// One streams case: the inputs of one `TaskAssignor.assign` call.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StreamsCase {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    pub assignor: String,
    #[serde(default)]
    pub num_standby_replicas: i32,
    pub subtopologies: Vec<StreamsCaseSubtopology>,
    pub members: Vec<StreamsCaseMember>,
    /// How `memberIds()` iterates: `HashMap` (the coordinator's, the default)
    /// or `LinkedHashMap` (the order of `members`, as in Kafka's tests).
    #[serde(default)]
    pub member_map: Option<String>,
}

/// Whether a case (a JSON object) names a streams assignor.
pub fn is_streams_case(v: &serde_json::Value) -> bool {
    v.get("assignor").and_then(|a| a.as_str()).is_some_and(|a| a.starts_with("streams."))
}

impl StreamsCase {
    /// Reads and checks one case.
    pub fn parse(v: &serde_json::Value) -> Result<StreamsCase, String> {
        let case: StreamsCase = crate::json::from_value(v)?;
        case.validate()?;
        Ok(case)
    }

    /// Checks the case for input the assignor cannot take or that is surely a mistake.
    pub fn validate(&self) -> Result<(), String> {
        if self.assignor != STREAMS_STICKY {
            return Err(format!(
                "assignor: unknown streams assignor '{}' (expected {STREAMS_STICKY})",
                shown(&self.assignor)
            ));
        }
        if self.num_standby_replicas < 0 {
            return Err(format!("numStandbyReplicas: {} is negative", self.num_standby_replicas));
        }
        match self.member_map.as_deref() {
            None | Some("HashMap") | Some("LinkedHashMap") => {}
            Some(other) => {
                return Err(format!("memberMap: '{}' (expected HashMap or LinkedHashMap)", shown(other)));
            }
        }
        let mut counts: BTreeMap<&str, i32> = BTreeMap::new();
        let mut total = 0i64;
        for (i, s) in self.subtopologies.iter().enumerate() {
            name(&format!("subtopologies[{i}].id"), &s.id, MAX_ID_LEN)?;
            if s.num_tasks < 0 {
                return Err(format!("subtopologies[{i}].numTasks: {} is negative", s.num_tasks));
            }
            if counts.insert(&s.id, s.num_tasks).is_some() {
                return Err(format!("subtopologies[{i}].id: subtopology '{}' is listed twice", shown(&s.id)));
            }
            total += i64::from(s.num_tasks);
        }
        if total > MAX_CASE_TASKS {
            return Err(format!("subtopologies: {total} tasks in all; at most {MAX_CASE_TASKS}"));
        }
        if self.members.len() > MAX_MEMBERS {
            return Err(format!("members: {} members; at most {MAX_MEMBERS}", self.members.len()));
        }
        let mut ids = HashSet::new();
        for (i, m) in self.members.iter().enumerate() {
            name(&format!("members[{i}].id"), &m.id, MAX_ID_LEN)?;
            if !ids.insert(m.id.as_str()) {
                return Err(format!("members[{i}].id: member '{}' is listed twice", shown(&m.id)));
            }
            name(&format!("members[{i}].processId"), &m.process_id, MAX_ID_LEN)?;
            for (field, v) in [("instanceId", &m.instance_id), ("rackId", &m.rack_id)] {
                if let Some(v) = v {
                    name(&format!("members[{i}].{field}"), v, MAX_ID_LEN)?;
                }
            }
            let offsets = |o: &BTreeMap<String, BTreeMap<i32, i64>>| -> Tasks {
                o.iter().map(|(s, ps)| (s.clone(), ps.keys().copied().collect::<BTreeSet<i32>>())).collect()
            };
            for (field, tasks) in [
                ("activeTasks", &m.active_tasks),
                ("standbyTasks", &m.standby_tasks),
                ("warmupTasks", &m.warmup_tasks),
                ("taskOffsets", &offsets(&m.task_offsets)),
                ("taskEndOffsets", &offsets(&m.task_end_offsets)),
            ] {
                check_tasks(&format!("members[{i}].{field}"), tasks, &counts)?;
            }
        }
        Ok(())
    }

    /// The assignor's inputs.
    pub fn group_spec(&self) -> (StreamsGroupSpec, TopologyDescriber) {
        let members = self
            .members
            .iter()
            .map(|m| {
                let spec = StreamsMemberSpec {
                    instance_id: m.instance_id.clone(),
                    rack_id: m.rack_id.clone(),
                    process_id: m.process_id.clone(),
                    client_tags: m.client_tags.clone(),
                    active_tasks: m.active_tasks.clone(),
                    standby_tasks: m.standby_tasks.clone(),
                    warmup_tasks: m.warmup_tasks.clone(),
                    task_offsets: m.task_offsets.clone(),
                    task_end_offsets: m.task_end_offsets.clone(),
                };
                (m.id.clone(), spec)
            })
            .collect();
        let subtopologies = self
            .subtopologies
            .iter()
            .map(|s| Subtopology { id: s.id.clone(), num_tasks: s.num_tasks, stateful: s.stateful })
            .collect();
        (
            StreamsGroupSpec { members, num_standby_replicas: self.num_standby_replicas },
            TopologyDescriber { subtopologies },
        )
    }

    /// One call of the assignor, printed as `{"assignment": {member:
    /// {"activeTasks": {subtopology: [partitions]}, "standbyTasks": {...}}}}`.
    pub fn run(&self) -> Result<serde_json::Value, String> {
        self.validate()?;
        let (group, topology) = self.group_spec();
        let result = if self.member_map.as_deref() == Some("LinkedHashMap") {
            let order: Vec<&str> = self.members.iter().map(|m| m.id.as_str()).collect();
            sticky_assign_with_member_order(&group, &order, &topology)?
        } else {
            sticky_assign(&group, &topology)?
        };
        let assignment: serde_json::Map<String, serde_json::Value> = result
            .into_iter()
            .map(|(member, a)| {
                (member, serde_json::json!({ "activeTasks": a.active_tasks, "standbyTasks": a.standby_tasks }))
            })
            .collect();
        Ok(serde_json::json!({ "assignment": assignment }))
    }
}

/// A member's task map names partitions its subtopology has (tasks of a
/// subtopology the topology lacks are allowed: the assignor ignores them).
fn check_tasks(path: &str, tasks: &Tasks, counts: &BTreeMap<&str, i32>) -> Result<(), String> {
    for (subtopology, partitions) in tasks {
        let count = counts.get(subtopology.as_str()).copied();
        for p in partitions {
            if *p < 0 {
                return Err(format!("{path}: task {}_{p} has a negative partition", shown(subtopology)));
            }
            if let Some(n) = count.filter(|n| p >= n) {
                let s = shown(subtopology);
                return Err(format!("{path}: task {s}_{p}, but subtopology '{s}' has {n} tasks"));
            }
        }
    }
    Ok(())
}
