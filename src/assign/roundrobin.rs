//! `org.apache.kafka.clients.consumer.RoundRobinAssignor` ("roundrobin").

use crate::small_sort::StableSort;
use super::{member_info_order, Assignment, ClientAssignor, ClusterMetadata, Subscription, TopicPartition};
use std::collections::{BTreeSet, HashSet};

pub struct RoundRobinAssignor;

impl ClientAssignor for RoundRobinAssignor {
    fn name(&self) -> &'static str {
        "roundrobin"
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        let mut out: Assignment = members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect();
        // Utils.sorted: a stable sort of the map's iteration order by MemberInfo.
        let mut circle: Vec<&Subscription> = members.iter().collect();
        circle.stable_sort_by(|a, b| member_info_order(a, b));
        let topics_of: Vec<HashSet<&str>> =
            circle.iter().map(|m| m.topics.iter().map(String::as_str).collect()).collect();
        // allPartitionsSorted: a TreeSet of the subscribed topic names.
        let mut topics: Vec<&str> = members
            .iter()
            .flat_map(|m| m.topics.iter().map(String::as_str))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        topics.stable_sort_by(|a, b| crate::java::compare_strings(a, b));
        let mut next = 0usize; // the CircularIterator's peeked position
        for topic in topics {
            let Some(&count) = cluster.partitions.get(topic) else { continue };
            for p in 0..count {
                // every topic here has a subscriber, so this finds one within a lap
                let Some(step) = (0..circle.len()).find(|k| topics_of[(next + k) % circle.len()].contains(topic))
                else {
                    return Err(format!("no member subscribes to topic {topic}"));
                };
                let member = (next + step) % circle.len();
                if let Some(list) = out.get_mut(&circle[member].member_id) {
                    list.push(TopicPartition::new(topic, p));
                }
                next = (member + 1) % circle.len();
            }
        }
        Ok(out)
    }
}
