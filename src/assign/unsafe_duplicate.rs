//! A deliberately wrong assignor, not Kafka's: it gives every member every
//! partition it subscribes to. It exists to show what the invariant monitor
//! catches (two members of one generation owning one partition); choose it
//! as `partition.assignment.strategy: ["unsafe-duplicate"]`.

use super::{Assignment, ClientAssignor, ClusterMetadata, Subscription, TopicPartition};

pub struct UnsafeDuplicateAssignor;

pub const NAME: &str = "unsafe-duplicate";

impl ClientAssignor for UnsafeDuplicateAssignor {
    fn name(&self) -> &'static str {
        NAME
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        Ok(members
            .iter()
            .map(|m| {
                let all = m.topics.iter().flat_map(|t| {
                    let n = cluster.partitions.get(t).copied().unwrap_or(0);
                    (0..n).map(move |p| TopicPartition::new(t.clone(), p))
                });
                (m.member_id.clone(), all.collect())
            })
            .collect())
    }
}
