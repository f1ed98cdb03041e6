//! A streams group's topology configured against the cluster's topics:
//! `InternalTopicManager.configureTopics` (ITM L57-125) with
//! `RepartitionTopics.setup`, `CopartitionedTopicsEnforcer.enforce` and
//! `ChangelogTopics.setup`. Missing source topics make the topology
//! unusable (MISSING_SOURCE_TOPICS); source topics of one copartition group
//! with different partition counts make it wrong
//! (INCORRECTLY_PARTITIONED_TOPICS); missing internal topics are listed for
//! the broker to create (MISSING_INTERNAL_TOPICS). Until none of these
//! holds, the group is NotReady and every member's target is empty.

use crate::sim::streams_message::{StreamsStatus, StreamsTopology};
use std::collections::BTreeMap;

/// One subtopology as configured: its task count (`maxNumInputPartitions`)
/// and whether it keeps state (`isStateful`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfiguredSubtopology {
    pub id: String,
    pub num_tasks: i32,
    pub stateful: bool,
}

/// `ConfiguredTopology`: the subtopologies if the topics could be
/// configured, the internal topics to create, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfiguredTopology {
    pub topology_epoch: i32,
    pub subtopologies: Vec<ConfiguredSubtopology>,
    /// Internal topics to create, with their partition counts.
    pub to_create: BTreeMap<String, i32>,
    /// `topicConfigurationException`: its status code and message.
    pub error: Option<(StreamsStatus, String)>,
}

impl ConfiguredTopology {
    /// `ConfiguredTopology.isReady`: no configuration error (missing internal
    /// topics are one).
    pub fn is_ready(&self) -> bool {
        self.error.is_none()
    }
}

/// `summarizeTopics`: names in order, comma separated.
fn summarize<'a>(topics: impl IntoIterator<Item = &'a String>) -> String {
    topics.into_iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// `InternalTopicManager.configureTopics` against `topics` (name → partition count).
pub fn configure(topology: &StreamsTopology, topics: &BTreeMap<String, i32>) -> ConfiguredTopology {
    let failed = |code, message: String| ConfiguredTopology {
        topology_epoch: topology.epoch,
        subtopologies: Vec::new(),
        to_create: BTreeMap::new(),
        error: Some((code, message)),
    };
    // throwOnMissingSourceTopics
    let missing: std::collections::BTreeSet<&String> = topology
        .subtopologies
        .iter()
        .flat_map(|s| s.source_topics.iter())
        .filter(|t| !topics.contains_key(*t))
        .collect();
    if !missing.is_empty() {
        return failed(
            StreamsStatus::MISSING_SOURCE_TOPICS,
            format!("Source topics {} are missing.", summarize(missing)),
        );
    }
    let decided = match decide_partition_counts(topology, topics) {
        Ok(d) => d,
        Err(message) => return failed(StreamsStatus::INCORRECTLY_PARTITIONED_TOPICS, message),
    };
    let count = |t: &str| topics.get(t).or_else(|| decided.get(t)).copied().unwrap_or(0);
    let subtopologies: Vec<ConfiguredSubtopology> = topology
        .subtopologies
        .iter()
        .map(|s| ConfiguredSubtopology {
            id: s.subtopology_id.clone(),
            num_tasks: s.input_topics().map(count).max().unwrap_or(0),
            stateful: s.is_stateful(),
        })
        .collect();
    // missingInternalTopics: every changelog and repartition topic that does not exist yet.
    let to_create: BTreeMap<String, i32> = topology
        .subtopologies
        .iter()
        .flat_map(|s| s.state_changelog_topics.iter().chain(s.repartition_source_topics.iter()))
        .filter(|t| !topics.contains_key(&t.name))
        .map(|t| (t.name.clone(), decided.get(&t.name).copied().unwrap_or(0)))
        .collect();
    let error = (!to_create.is_empty()).then(|| {
        (
            StreamsStatus::MISSING_INTERNAL_TOPICS,
            format!("Internal topics are missing: {}", summarize(to_create.keys())),
        )
    });
    ConfiguredTopology { topology_epoch: topology.epoch, subtopologies, to_create, error }
}

/// `decidePartitionCounts`: repartition topics take the largest task count
/// of the subtopologies writing to them, unless fixed (`RepartitionTopics.setup`,
/// iterated until nothing changes); copartitioned source topics must agree
/// (`CopartitionedTopicsEnforcer.enforce`); each changelog has one partition
/// per task of its subtopology (`ChangelogTopics.setup`).
fn decide_partition_counts(
    topology: &StreamsTopology,
    topics: &BTreeMap<String, i32>,
) -> Result<BTreeMap<String, i32>, String> {
    let mut decided: BTreeMap<String, i32> = BTreeMap::new();
    for s in &topology.subtopologies {
        for t in &s.repartition_source_topics {
            if let Some(n) = t.partitions.filter(|n| *n > 0) {
                decided.insert(t.name.clone(), n);
            }
        }
    }
    let known = |decided: &BTreeMap<String, i32>, t: &str| topics.get(t).or_else(|| decided.get(t)).copied();
    for _ in 0..=topology.subtopologies.len() {
        let mut changed = false;
        for writer in &topology.subtopologies {
            let inputs: Vec<Option<i32>> = writer.input_topics().map(|t| known(&decided, t)).collect();
            if inputs.iter().any(Option::is_none) {
                continue;
            }
            let tasks = inputs.into_iter().flatten().max().unwrap_or(0);
            for sink in &writer.repartition_sink_topics {
                let fixed = topology
                    .subtopologies
                    .iter()
                    .flat_map(|s| s.repartition_source_topics.iter())
                    .any(|t| t.name == *sink && t.partitions.is_some_and(|n| n > 0));
                if !fixed && decided.get(sink).is_none_or(|n| *n < tasks) {
                    decided.insert(sink.clone(), tasks);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for s in &topology.subtopologies {
        for group in &s.copartition_groups {
            let counts: std::collections::BTreeSet<i32> = group.iter().filter_map(|t| topics.get(t).copied()).collect();
            if counts.len() > 1 {
                return Err(format!(
                    "Following topics do not have the same number of partitions: [{}]",
                    group
                        .iter()
                        .map(|t| format!("{t}={}", topics.get(t).copied().unwrap_or(0)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        let tasks = s.input_topics().filter_map(|t| known(&decided, t)).max().unwrap_or(0);
        for t in &s.state_changelog_topics {
            decided.insert(t.name.clone(), t.partitions.filter(|n| *n > 0).unwrap_or(tasks));
        }
    }
    Ok(decided)
}
