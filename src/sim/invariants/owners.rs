//! Who holds each partition during one invariant check: a dense table indexed
//! by the cluster's partitions. The single-owner checks look up every owned
//! partition after every step; a tree keyed by topic name and partition made
//! those lookups most of a large run's time (1,000 partitions: a thousand
//! string comparisons per step).

use crate::assign::TopicPartition;
use crate::sim::cluster::Cluster;
use std::collections::BTreeMap;

pub(crate) struct Owners<'w, V: Copy> {
    /// Per topic: where its partitions start in `slots`, and how many it has.
    base: BTreeMap<&'w str, (usize, usize)>,
    /// The topic last found in `base`, and its place: an assignment lists a
    /// topic's partitions together, and every partition of a topic shares
    /// one interned name (`TopicName`), so the next one is found by pointer.
    last: Option<(&'w str, (usize, usize))>,
    slots: Vec<Option<V>>,
    /// Partitions the cluster does not have (a deleted topic still in an assignment).
    unknown: BTreeMap<&'w TopicPartition, V>,
}

impl<'w, V: Copy> Owners<'w, V> {
    pub(crate) fn new(cluster: &'w Cluster) -> Owners<'w, V> {
        let mut base = BTreeMap::new();
        let mut n = 0;
        for (name, t) in &cluster.topics {
            base.insert(name.as_str(), (n, t.partitions.len()));
            n += t.partitions.len();
        }
        Owners { base, last: None, slots: vec![None; n], unknown: BTreeMap::new() }
    }

    /// Records `owner` for `tp`; returns the owner it already had, if any.
    pub(crate) fn insert(&mut self, tp: &'w TopicPartition, owner: V) -> Option<V> {
        let topic = tp.topic.as_str();
        let place = match self.last {
            Some((name, place)) if std::ptr::eq(name, topic) => Some(place),
            _ => {
                let place = self.base.get(topic).copied();
                self.last = place.map(|p| (topic, p));
                place
            }
        };
        let slot =
            place.and_then(|(start, len)| usize::try_from(tp.partition).ok().filter(|p| *p < len).map(|p| start + p));
        match slot {
            Some(i) => self.slots[i].replace(owner),
            None => self.unknown.insert(tp, owner),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_owner_is_reported_with_the_first_even_for_unknown_partitions() {
        let mut c = Cluster::new(3, 1, 3);
        c.add_topic("a", 2, 3);
        c.add_topic("b", 3, 3);
        let (a1, b0, b2, gone) = (
            TopicPartition::new("a", 1),
            TopicPartition::new("b", 0),
            TopicPartition::new("b", 2),
            TopicPartition::new("b", 7),
        );
        let mut o = Owners::new(&c);
        assert_eq!(o.insert(&a1, 1), None);
        assert_eq!(o.insert(&b0, 2), None);
        assert_eq!(o.insert(&gone, 3), None);
        assert_eq!(o.insert(&b2, 4), None);
        assert_eq!(o.insert(&a1, 5), Some(1));
        assert_eq!(o.insert(&gone, 6), Some(3));
        assert_eq!(o.insert(&b0, 7), Some(2));
    }
}
