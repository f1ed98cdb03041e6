//! Dense integer ids and shared output building for the assignors' hot paths:
//! topic names and member ids become indices once per call, so the inner loops
//! index vectors instead of hashing or comparing strings. None of this changes
//! an assignor's result; it only changes how it is computed.

use super::{member_info_order, Assignment, Subscription, TopicPartition};
use crate::java::Uuid;
use crate::small_sort::StableSort;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher (the Firefox/rustc "Fx" hash) for short keys
/// that come from the group itself: deterministic, and several times faster
/// than SipHash on topic names. Only for lookups; never for iteration order.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let mut tail = [0u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail));
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub(crate) type FxSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

/// Topic names -> dense ids, in order of first appearance.
#[derive(Default)]
pub(crate) struct TopicIds<'a> {
    index: FxMap<&'a str, u32>,
    pub names: Vec<&'a str>,
}

impl<'a> TopicIds<'a> {
    pub fn id(&mut self, name: &'a str) -> u32 {
        let next = self.names.len() as u32;
        let id = *self.index.entry(name).or_insert(next);
        if id == next {
            self.names.push(name);
        }
        id
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// Every member's subscribed topics as dense ids (duplicates kept, in
/// subscription order); members with the same list as the member before
/// them (every member of a homogeneous group) share one list.
pub(crate) struct MemberTopics {
    pub lists: Vec<Vec<u32>>,
    pub of_member: Vec<usize>,
}

impl MemberTopics {
    pub fn new<'a>(members: &'a [Subscription], ids: &mut TopicIds<'a>) -> Self {
        let mut lists: Vec<Vec<u32>> = Vec::new();
        let mut of_member = Vec::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            if i > 0 && m.topics == members[i - 1].topics {
                of_member.push(lists.len() - 1);
            } else {
                lists.push(m.topics.iter().map(|t| ids.id(t)).collect());
                of_member.push(lists.len() - 1);
            }
        }
        MemberTopics { lists, of_member }
    }

    pub fn of(&self, member: usize) -> &[u32] {
        &self.lists[self.of_member[member]]
    }
}

/// Whether Java's `String.compareTo` on `s` and any other string is plain byte
/// order (true unless `s` has a character at or above U+E000).
fn byte_order_is_java_order(s: &str) -> bool {
    s.bytes().all(|b| b < 0xEE)
}

/// The first 16 bytes of `key` as a big-endian integer, zero-padded: if two
/// keys' prefixes differ, they order the keys as byte order does.
fn prefix(key: &[u8]) -> u128 {
    let mut bytes = [0u8; 16];
    let n = key.len().min(16);
    bytes[..n].copy_from_slice(&key[..n]);
    u128::from_be_bytes(bytes)
}

/// The positions `0..n` stably sorted by the byte order of `key(position)`
/// (`String`'s `Ord`): integers are sorted, and whole keys compared only
/// when their 16-byte prefixes tie, which is several times faster than
/// sorting strings (member ids such as `member-17` differ within 16 bytes).
pub(crate) fn byte_sorted<'k>(n: usize, key: impl Fn(usize) -> &'k [u8]) -> Vec<usize> {
    let mut keyed: Vec<(u128, usize)> = (0..n).map(|i| (prefix(key(i)), i)).collect();
    // the position breaks ties, so this unstable sort is the stable one
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| key(a.1).cmp(key(b.1))).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Whether Java's `String.compareTo` orders every one of `ids` as byte order does.
pub(crate) fn all_byte_ordered<'s>(mut ids: impl Iterator<Item = &'s str>) -> bool {
    ids.all(byte_order_is_java_order)
}

/// Member positions stably sorted by `AbstractPartitionAssignor.MemberInfo`
/// order ([`member_info_order`]).
pub(crate) fn member_info_sorted(members: &[Subscription]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    let plain = members.iter().all(|m| {
        byte_order_is_java_order(&m.member_id) && m.instance_id.as_deref().is_none_or(byte_order_is_java_order)
    });
    if plain && members.iter().all(|m| m.instance_id.is_none()) {
        return byte_sorted(members.len(), |i| members[i].member_id.as_bytes());
    }
    if plain {
        // the position breaks ties, so this unstable sort is the stable one
        order.sort_unstable_by(|&a, &b| {
            let (x, y) = (&members[a], &members[b]);
            let primary = match (&x.instance_id, &y.instance_id) {
                (Some(p), Some(q)) => p.as_bytes().cmp(q.as_bytes()),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => x.member_id.as_bytes().cmp(y.member_id.as_bytes()),
            };
            primary.then(a.cmp(&b))
        });
    } else {
        order.stable_sort_by(|a, b| member_info_order(&members[*a], &members[*b]));
    }
    order
}

/// The output slot of each member of a client assignor: members with the same
/// id share the slot of the first of them (their partitions land in one list
/// of the result map, as with `Map.get(memberId).add(...)`).
pub(crate) struct Slots {
    pub of_member: Vec<usize>,
    /// The first member of each slot; slots ascend by member id.
    firsts: Vec<usize>,
}

impl Slots {
    pub fn new(members: &[Subscription]) -> Self {
        let by_id = byte_sorted(members.len(), |i| members[i].member_id.as_bytes());
        let mut of_member = vec![0; members.len()];
        let mut firsts: Vec<usize> = Vec::with_capacity(members.len());
        for &m in &by_id {
            let same = firsts.last().is_some_and(|f| members[*f].member_id == members[m].member_id);
            if !same {
                firsts.push(m);
            }
            of_member[m] = firsts.len() - 1;
        }
        Slots { of_member, firsts }
    }

    pub fn len(&self) -> usize {
        self.firsts.len()
    }

    /// The result map from one list per slot (already in key order, so the
    /// map is built without searching).
    pub fn assignment_from(&self, members: &[Subscription], lists: Vec<Vec<TopicPartition>>) -> Assignment {
        self.firsts.iter().zip(lists).map(|(m, list)| (members[*m].member_id.clone(), list)).collect()
    }
}

/// Topic ids -> dense indices (open addressing; the ids of one group).
pub(crate) struct UuidIndex {
    slots: Vec<(Uuid, u32)>,
    mask: usize,
}

const EMPTY: u32 = u32::MAX;

impl UuidIndex {
    pub fn new(ids: &[Uuid]) -> Self {
        let cap = (ids.len() * 2).max(8).next_power_of_two();
        let mut index = UuidIndex { slots: vec![(Uuid::default(), EMPTY); cap], mask: cap - 1 };
        for (i, id) in ids.iter().enumerate() {
            index.insert(*id, i as u32);
        }
        index
    }

    fn home(&self, id: &Uuid) -> usize {
        let x = (id.msb ^ id.lsb.rotate_left(29)) as u64;
        (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask
    }

    /// Keeps the first index given for an id.
    fn insert(&mut self, id: Uuid, value: u32) {
        let mut i = self.home(&id);
        loop {
            let slot = &mut self.slots[i];
            if slot.1 == EMPTY {
                *slot = (id, value);
                return;
            }
            if slot.0 == id {
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    pub fn get(&self, id: &Uuid) -> Option<usize> {
        let mut i = self.home(id);
        loop {
            let (key, value) = self.slots[i];
            if value == EMPTY {
                return None;
            }
            if key == *id {
                return Some(value as usize);
            }
            i = (i + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::{hashmap_order, java_hash_order, string_hash};

    #[test]
    fn java_hash_order_matches_the_bucket_model_across_resizes() {
        for (n, cap) in [(0, 16), (5, 16), (13, 16), (100, 16), (1000, 16), (40, 3), (700, 1024)] {
            let keys: Vec<String> = (0..n).map(|i| format!("member-{}", i * 7919 % 1009)).collect();
            let mut distinct: Vec<&str> = Vec::new();
            for k in &keys {
                if !distinct.contains(&k.as_str()) {
                    distinct.push(k);
                }
            }
            let hashes: Vec<i32> = distinct.iter().map(|k| string_hash(k)).collect();
            let fast: Vec<&str> = java_hash_order(&hashes, cap).into_iter().map(|i| distinct[i]).collect();
            let model = hashmap_order(keys.iter().map(String::as_str), Some(cap));
            assert_eq!(fast, model, "{n} keys, capacity {cap}");
        }
    }

    #[test]
    fn member_info_order_is_kept_by_the_fast_sort() {
        let sub = |id: &str, inst: Option<&str>| Subscription {
            member_id: id.into(),
            instance_id: inst.map(String::from),
            ..Subscription::default()
        };
        let members = vec![
            sub("b", None),
            sub("a", Some("z")),
            sub("a", None),
            sub("c", Some("y")),
            sub("\u{FF21}", None),
            sub("\u{10000}", None),
        ];
        let mut want: Vec<usize> = (0..members.len()).collect();
        want.stable_sort_by(|a, b| member_info_order(&members[*a], &members[*b]));
        assert_eq!(member_info_sorted(&members), want);
        assert_eq!(member_info_sorted(&members[..4]), vec![3, 1, 2, 0]);
    }

    #[test]
    fn byte_sorted_is_the_stable_sort_by_bytes() {
        // ties in the 16-byte prefix, a key that is a prefix of another, a NUL, duplicates
        let keys: Vec<&str> = vec![
            "member-0123456789-b",
            "member-0123456789-a",
            "ab\0",
            "ab",
            "member-2",
            "ab",
            "",
            "member-10",
            "\u{FF21}",
            "member-0123456789-a",
        ];
        let mut want: Vec<usize> = (0..keys.len()).collect();
        want.sort_by(|a, b| keys[*a].as_bytes().cmp(keys[*b].as_bytes()));
        assert_eq!(byte_sorted(keys.len(), |i| keys[i].as_bytes()), want);
    }

    #[test]
    fn uuid_index_finds_every_id_and_nothing_else() {
        let ids: Vec<Uuid> = (0..300).map(|i| Uuid::from_name(&format!("topic-{i}"))).collect();
        let index = UuidIndex::new(&ids);
        assert!(ids.iter().enumerate().all(|(i, id)| index.get(id) == Some(i)));
        assert_eq!(index.get(&Uuid::from_name("other")), None);
    }

    #[test]
    fn slots_share_a_list_between_members_with_one_id() {
        let sub = |id: &str| Subscription { member_id: id.into(), ..Subscription::default() };
        let members = vec![sub("b"), sub("a"), sub("b")];
        let slots = Slots::new(&members);
        assert_eq!(slots.of_member, vec![1, 0, 1]);
        assert_eq!(slots.len(), 2);
    }
}
