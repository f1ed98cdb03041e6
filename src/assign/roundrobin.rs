//! `org.apache.kafka.clients.consumer.RoundRobinAssignor` ("roundrobin").

use super::dense::{member_info_sorted, MemberTopics, Slots, TopicIds};
use super::{Assignment, ClientAssignor, ClusterMetadata, Subscription, TopicName, TopicPartition};
use crate::java::compare_strings;

pub struct RoundRobinAssignor;

impl ClientAssignor for RoundRobinAssignor {
    fn name(&self) -> &'static str {
        "roundrobin"
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        let slots = Slots::new(members);
        // Utils.sorted: a stable sort of the map's iteration order by MemberInfo.
        let circle = member_info_sorted(members);
        let mut ids = TopicIds::default();
        let member_topics = MemberTopics::new(members, &mut ids);
        // allPartitionsSorted: a TreeSet of the subscribed topic names.
        let mut topics: Vec<u32> = (0..ids.len() as u32).collect();
        topics.sort_unstable_by(|a, b| compare_strings(ids.names[*a as usize], ids.names[*b as usize]));
        // which topics the member at each place of the circle subscribes to
        let words = ids.len().div_ceil(64);
        let mut subscribes = vec![0u64; circle.len() * words];
        for (place, m) in circle.iter().enumerate() {
            for t in member_topics.of(*m) {
                subscribes[place * words + *t as usize / 64] |= 1 << (t % 64);
            }
        }
        let takes = |place: usize, t: u32| subscribes[place * words + t as usize / 64] >> (t % 64) & 1 == 1;
        // sized for an even share (members of a heterogeneous group may grow theirs)
        let total: usize = topics
            .iter()
            .filter_map(|t| cluster.partitions.get(ids.names[*t as usize]))
            .map(|n| (*n).max(0) as usize)
            .sum();
        let share = total.div_ceil(circle.len().max(1));
        let mut lists: Vec<Vec<TopicPartition>> = (0..slots.len()).map(|_| Vec::with_capacity(share)).collect();
        let mut next = 0usize; // the CircularIterator's peeked position
        for t in topics {
            let topic = ids.names[t as usize];
            let Some(&count) = cluster.partitions.get(topic) else { continue };
            let shared = TopicName::from(topic);
            for p in 0..count {
                // every topic here has a subscriber, so this finds one within a lap
                let Some(step) = (0..circle.len()).find(|k| takes((next + k) % circle.len(), t)) else {
                    return Err(format!("no member subscribes to topic {topic}"));
                };
                let place = (next + step) % circle.len();
                lists[slots.of_member[circle[place]]].push(TopicPartition::new(&shared, p));
                next = (place + 1) % circle.len();
            }
        }
        Ok(slots.assignment_from(members, lists))
    }
}
