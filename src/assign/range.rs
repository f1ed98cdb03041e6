//! `org.apache.kafka.clients.consumer.RangeAssignor` ("range").

use super::{Assignment, ClientAssignor, ClusterMetadata, Subscription, TopicPartition};
use std::collections::BTreeMap;

pub struct RangeAssignor;

/// `AbstractPartitionAssignor.MemberInfo` order: static members first by
/// instance id, then dynamic members by member id.
pub fn member_info_order(a: &Subscription, b: &Subscription) -> std::cmp::Ordering {
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => x.cmp(y).then_with(|| a.member_id.cmp(&b.member_id)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.member_id.cmp(&b.member_id),
    }
}

impl ClientAssignor for RangeAssignor {
    fn name(&self) -> &'static str {
        "range"
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        let mut out: Assignment = members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect();
        let mut subscribers: BTreeMap<&str, Vec<&Subscription>> = BTreeMap::new();
        for m in members {
            for t in &m.topics {
                if cluster.partitions.get(t).copied().unwrap_or(0) > 0 {
                    subscribers.entry(t.as_str()).or_default().push(m);
                }
            }
        }
        for (topic, mut subs) in subscribers {
            subs.sort_by(|a, b| member_info_order(a, b));
            subs.dedup_by(|a, b| a.member_id == b.member_id);
            let p = cluster.partitions[topic];
            let n = subs.len() as i32;
            let (q, r) = (p / n, p % n);
            let mut next = 0;
            for (i, m) in subs.iter().enumerate() {
                let take = q + i32::from((i as i32) < r);
                let list = out.get_mut(&m.member_id).expect("member listed");
                list.extend((next..next + take).map(|k| TopicPartition::new(topic, k)));
                next += take;
            }
        }
        Ok(out)
    }
}
