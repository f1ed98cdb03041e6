//! The share coordinator's durable state (`__share_group_state`, kept by
//! `ShareCoordinatorShard`): each share-partition's start offset and state
//! batches, written by its partition leader (WriteShareGroupState) on
//! acknowledge, release and lock timeout, and created by the group
//! coordinator (InitializeShareGroupState). The topic is replicated, so the
//! state outlives any one broker; the share coordinator's own RPCs and its
//! failover are not drawn (fidelity notes).

use crate::assign::TopicPartition;
use crate::sim::cluster::share_partition::PersistedShareState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One write to the share coordinator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareStateWrite {
    pub group_id: String,
    pub partition: TopicPartition,
    pub state: PersistedShareState,
}

/// Every share-partition's state, by group then partition.
pub type ShareStates = BTreeMap<String, BTreeMap<TopicPartition, PersistedShareState>>;

/// `ShareCoordinatorService.partitionFor`: the `__share_group_state`
/// partition of a share-partition, `abs("group:topicId:partition".hashCode()) % 50`
/// (topic ids derived from topic names, as everywhere here).
pub fn share_state_partition(group_id: &str, tp: &TopicPartition, partitions: u32) -> u32 {
    let topic_id = crate::java::Uuid::from_name(&tp.topic);
    let key = format!("{group_id}:{topic_id}:{}", tp.partition);
    (crate::java::kafka_abs(crate::java::string_hash(&key)) as u32) % partitions.max(1)
}
