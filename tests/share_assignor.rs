#![cfg(not(target_arch = "wasm32"))]
//! The share-group assignor `simple` (Kafka 4.4's `SimpleAssignor` with its
//! `SimpleHomogeneousAssignmentBuilder` and `SimpleHeterogeneousAssignmentBuilder`).
//!
//! First, every test method of Kafka's `SimpleAssignorTest`
//! (group-coordinator/src/test/java/org/apache/kafka/coordinator/group/assignor/SimpleAssignorTest.java,
//! branch 4.4; Kafka has no separate tests of the two builders), named after
//! it, with the expected values of Kafka's test source. Kafka's tests draw
//! their topic ids with `Uuid.randomUuid()`, so each port runs over
//! [`SEEDS`] sets of pseudo-random topic ids. Members go into a `HashMap` in
//! Kafka's tests; `memberIds()` is that map's key set, modelled with
//! [`JavaHashOrder`]. Then property tests of the class doc's principles.

use groupscope::assign::case::{Case, CaseMember, CaseParams};
use groupscope::assign::server::simple::{simple_target_assignment, SimpleAssignor};
use groupscope::assign::server::{
    GroupSpec, MemberSpec, ServerAssignment, ServerAssignor, SubscriptionType, TopicInfo, TopicMetadata,
};
use groupscope::assign::{Assignment, TopicPartition};
use groupscope::java::{string_hash, JavaHashOrder, Uuid};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use SubscriptionType::{Heterogeneous as HETEROGENEOUS, Homogeneous as HOMOGENEOUS};

/// How many sets of random topic ids each ported test runs over.
const SEEDS: u64 = 24;

/// `Uuid.randomUuid()` for a test: four ids from a seed (splitmix64).
fn topic_ids(seed: u64) -> [Uuid; 4] {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0x1234_5678);
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as i64
    };
    [(); 4].map(|_| Uuid { msb: next(), lsb: next() })
}

fn metadata(topics: &[(Uuid, &str, i32)]) -> TopicMetadata {
    TopicMetadata {
        topics: topics
            .iter()
            .map(|(id, name, n)| (*id, TopicInfo { name: name.to_string(), partitions: *n }))
            .collect(),
    }
}

/// `mkAssignment(mkTopicAssignment(...), ...)`: a `HashMap` of `HashSet`s.
fn mk_assignment(entries: &[(Uuid, &[i32])]) -> Vec<(Uuid, Vec<i32>)> {
    let sets: BTreeMap<Uuid, BTreeSet<i32>> =
        entries.iter().map(|(id, ps)| (*id, ps.iter().copied().collect())).collect();
    MemberSpec::java_assignment_order(&sets)
}

fn member(id: &str, subscribed: &[Uuid], assignment: Vec<(Uuid, Vec<i32>)>) -> MemberSpec {
    MemberSpec {
        member_id: id.to_string(),
        subscribed_topic_ids: subscribed.to_vec(),
        assignment,
        ..MemberSpec::default()
    }
}

/// Takes `&String`: the hash of a `JavaHashOrder<String>` is called with `&K`.
#[allow(clippy::ptr_arg)]
fn string_key_hash(s: &String) -> i32 {
    string_hash(s)
}

/// The test's `Map<String, MemberSubscriptionAndAssignmentImpl> members = new HashMap<>()`:
/// its key order (kept across puts and removes) and the members.
struct Members {
    order: JavaHashOrder<String>,
    specs: BTreeMap<String, MemberSpec>,
}

impl Members {
    fn new() -> Self {
        Members { order: JavaHashOrder::new(string_key_hash as fn(&String) -> i32), specs: BTreeMap::new() }
    }

    fn put(&mut self, m: MemberSpec) {
        self.order.put(m.member_id.clone());
        self.specs.insert(m.member_id.clone(), m);
    }

    fn remove(&mut self, id: &str) {
        self.order.remove(&id.to_string());
        self.specs.remove(id);
    }

    /// `new GroupSpecImpl(members, type, ...)`, optionally with the allowed map.
    fn spec(&self, subscription_type: SubscriptionType, allowed: Option<&[(Uuid, &[i32])]>) -> GroupSpec {
        GroupSpec {
            members: self.order.keys().map(|id| self.specs[id].clone()).collect(),
            subscription_type,
            without_inverted_assignment: false,
            assignable_partitions: allowed
                .map(|a| a.iter().map(|(id, ps)| (*id, ps.iter().copied().collect())).collect()),
        }
    }
}

fn members_of(list: Vec<MemberSpec>) -> Members {
    let mut m = Members::new();
    list.into_iter().for_each(|s| m.put(s));
    m
}

type Sets = BTreeMap<Uuid, BTreeSet<i32>>;

/// `computedGroupAssignment.members()` as member -> topic -> partitions.
fn by_member(out: &ServerAssignment, group: &GroupSpec) -> BTreeMap<String, Sets> {
    out.members(group).map(|(id, a)| (id.to_string(), a.topics().map(|(t, ps)| (t, ps.collect())).collect())).collect()
}

/// `assertEveryPartitionGetsAssignment`: how many distinct topic-partitions are assigned.
fn distinct_partitions(out: &ServerAssignment, group: &GroupSpec) -> usize {
    let mut all = BTreeSet::new();
    for (_, a) in out.members(group) {
        for (t, ps) in a.topics() {
            all.extend(ps.map(|p| (t, p)));
        }
    }
    all.len()
}

fn assign(group: &GroupSpec, topics: &TopicMetadata) -> ServerAssignment {
    SimpleAssignor.assign(group, topics).expect("assignment")
}

/// The previous result as a member's assignment (`new Assignment(partitions.partitions())`).
fn previous(out: &ServerAssignment, group: &GroupSpec, id: &str) -> Vec<(Uuid, Vec<i32>)> {
    by_member(out, group).get(id).map(MemberSpec::java_assignment_order).unwrap_or_default()
}

/// SimpleAssignorTest.testName
#[test]
fn test_name() {
    assert_eq!(SimpleAssignor.name(), "simple");
}

/// SimpleAssignorTest.testAssignWithEmptyMembers
#[test]
fn test_assign_with_empty_members() {
    for ty in [HOMOGENEOUS, HETEROGENEOUS] {
        let group = GroupSpec { subscription_type: ty, ..GroupSpec::default() };
        let out = SimpleAssignor.assign(&group, &TopicMetadata::default()).unwrap();
        assert_eq!(out, ServerAssignment::new());
    }
}

/// SimpleAssignorTest.testAssignWithNoSubscribedTopic
#[test]
fn test_assign_with_no_subscribed_topic() {
    for seed in 0..SEEDS {
        let [t1, ..] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3)]);
        let group = members_of(vec![member("A", &[], vec![])]).spec(HOMOGENEOUS, None);
        assert_eq!(SimpleAssignor.assign(&group, &topics).unwrap(), ServerAssignment::new());
    }
}

/// SimpleAssignorTest.testAssignWithSubscribedToNonExistentTopic
#[test]
fn test_assign_with_subscribed_to_non_existent_topic() {
    for seed in 0..SEEDS {
        let [t1, t2, ..] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3)]);
        let group = members_of(vec![member("A", &[t2], vec![])]).spec(HOMOGENEOUS, None);
        let err = SimpleAssignor.assign(&group, &topics).unwrap_err();
        assert!(err.contains("doesn't exist in the topic metadata"), "{err}");
    }
}

/// SimpleAssignorTest.testAssignWithTwoMembersAndTwoTopicsHomogeneous
#[test]
fn test_assign_with_two_members_and_two_topics_homogeneous() {
    for seed in 0..SEEDS {
        let [t1, _, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t3, "topic3", 2)]);
        let group =
            members_of(vec![member("A", &[t1, t3], vec![]), member("B", &[t1, t3], vec![])]).spec(HOMOGENEOUS, None);
        assert_eq!(distinct_partitions(&assign(&group, &topics), &group), 5);
    }
}

/// SimpleAssignorTest.testAssignWithTwoMembersAndTwoTopicsHomogeneousWithAllowedMap
#[test]
fn test_assign_with_two_members_and_two_topics_homogeneous_with_allowed_map() {
    for seed in 0..SEEDS {
        let [t1, _, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t3, "topic3", 3)]);
        let allowed: &[(Uuid, &[i32])] = &[(t1, &[0, 1, 2]), (t3, &[0, 1])]; // but not topic3-2
        let group = members_of(vec![member("A", &[t1, t3], vec![]), member("B", &[t1, t3], vec![])])
            .spec(HOMOGENEOUS, Some(allowed));
        assert_eq!(distinct_partitions(&assign(&group, &topics), &group), 5);
    }
}

/// SimpleAssignorTest.testAssignWithTwoMembersAndTwoTopicsHomogeneousWithNonAssignableTopic
#[test]
fn test_assign_with_two_members_and_two_topics_homogeneous_with_non_assignable_topic() {
    for seed in 0..SEEDS {
        let [t1, _, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t3, "topic3", 2)]);
        let allowed: &[(Uuid, &[i32])] = &[(t1, &[0, 1, 2])];
        let group = members_of(vec![member("A", &[t1, t3], vec![]), member("B", &[t1, t3], vec![])])
            .spec(HOMOGENEOUS, Some(allowed));
        assert_eq!(distinct_partitions(&assign(&group, &topics), &group), 3);
    }
}

/// A - {T1, T2}, B - {T3}, C - {T2, T3}: the group of the heterogeneous tests.
fn three_members(t1: Uuid, t2: Uuid, t3: Uuid) -> Members {
    members_of(vec![member("A", &[t1, t2], vec![]), member("B", &[t3], vec![]), member("C", &[t2, t3], vec![])])
}

/// SimpleAssignorTest.testAssignWithThreeMembersThreeTopicsHeterogeneous
#[test]
fn test_assign_with_three_members_three_topics_heterogeneous() {
    for seed in 0..SEEDS {
        let [t1, t2, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t2, "topic2", 3), (t3, "topic3", 2)]);
        let group = three_members(t1, t2, t3).spec(HETEROGENEOUS, None);
        // T1: 3 partitions + T2: 3 partitions + T3: 2 partitions = 8 partitions
        assert_eq!(distinct_partitions(&assign(&group, &topics), &group), 8);
    }
}

/// SimpleAssignorTest.testAssignWithThreeMembersThreeTopicsHeterogeneousWithAllowedMap
#[test]
fn test_assign_with_three_members_three_topics_heterogeneous_with_allowed_map() {
    for seed in 0..SEEDS {
        let [t1, t2, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t2, "topic2", 3), (t3, "topic3", 2)]);
        let allowed: &[(Uuid, &[i32])] = &[(t1, &[0, 1]), (t2, &[0, 2]), (t3, &[1])];
        let group = three_members(t1, t2, t3).spec(HETEROGENEOUS, Some(allowed));
        // T1: 2 partitions + T2: 2 partitions + T3: 1 partition = 5 partitions
        assert_eq!(distinct_partitions(&assign(&group, &topics), &group), 5);
    }
}

/// SimpleAssignorTest.testAssignWithThreeMembersThreeTopicsHeterogeneousWithNonAssignableTopic
#[test]
fn test_assign_with_three_members_three_topics_heterogeneous_with_non_assignable_topic() {
    for seed in 0..SEEDS {
        let [t1, t2, t3, _] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t2, "topic2", 3), (t3, "topic3", 2)]);
        let allowed: &[(Uuid, &[i32])] = &[(t1, &[0, 1, 2]), (t2, &[0, 1, 2])];
        let group = three_members(t1, t2, t3).spec(HETEROGENEOUS, Some(allowed));
        let out = assign(&group, &topics);
        let expected: BTreeMap<String, Sets> =
            [("A", vec![(t1, vec![0, 1, 2]), (t2, vec![0, 2])]), ("B", vec![]), ("C", vec![(t2, vec![1])])]
                .into_iter()
                .map(|(m, ts)| (m.to_string(), ts.into_iter().map(|(t, ps)| (t, ps.into_iter().collect())).collect()))
                .collect();
        // T1: 3 partitions + T2: 3 partitions + T3: 2 partitions (non-assignable) = 6 partitions
        assert_eq!(distinct_partitions(&out, &group), 6);
        assert_eq!(by_member(&out, &group), expected, "seed {seed}");
    }
}

/// SimpleAssignorTest.testAssignWithOneMemberNoAssignedTopicHeterogeneous
#[test]
fn test_assign_with_one_member_no_assigned_topic_heterogeneous() {
    for seed in 0..SEEDS {
        let [t1, t2, ..] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 3), (t2, "topic2", 2)]);
        let group =
            members_of(vec![member("A", &[t1, t2], vec![]), member("B", &[], vec![])]).spec(HETEROGENEOUS, None);
        let out = assign(&group, &topics);
        let mut expected: BTreeMap<String, Sets> = BTreeMap::new();
        expected.insert("A".into(), [(t1, [0, 1, 2].into()), (t2, [0, 1].into())].into());
        expected.insert("B".into(), Sets::new());
        // T1: 3 partitions + T2: 2 partitions = 5 partitions
        assert_eq!(distinct_partitions(&out, &group), 5);
        assert_eq!(by_member(&out, &group), expected);
    }
}

/// SimpleAssignorTest.testIncrementalAssignmentIncreasingMembersHomogeneous:
/// 24 partitions; members M0..M100 join one at a time, each keeping its result.
#[test]
fn test_incremental_assignment_increasing_members_homogeneous() {
    for seed in 0..SEEDS / 4 {
        let [t1, ..] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 24)]);
        let mut members = Members::new();
        for m in 0..101 {
            members.put(member(&format!("M{m}"), &[t1], vec![]));
            let group = members.spec(HOMOGENEOUS, None);
            let out = assign(&group, &topics);
            assert_eq!(distinct_partitions(&out, &group), 24, "seed {seed}, {} members", m + 1);
            for (id, _) in out.members(&group) {
                members.put(member(id, &[t1], previous(&out, &group, id)));
            }
        }
    }
}

/// SimpleAssignorTest.testIncrementalAssignmentDecreasingMembersHomogeneous:
/// 101 members from scratch, then M100..M1 leave one at a time.
#[test]
fn test_incremental_assignment_decreasing_members_homogeneous() {
    for seed in 0..SEEDS / 4 {
        let [t1, ..] = topic_ids(seed);
        let topics = metadata(&[(t1, "topic1", 24)]);
        let mut members = Members::new();
        (0..101).for_each(|m| members.put(member(&format!("M{m}"), &[t1], vec![])));
        let group = members.spec(HOMOGENEOUS, None);
        let out = assign(&group, &topics);
        assert_eq!(distinct_partitions(&out, &group), 24);
        for m in 0..101 {
            let id = format!("M{m}");
            members.put(member(&id, &[t1], previous(&out, &group, &id)));
        }
        for m in (1..101).rev() {
            members.remove(&format!("M{m}"));
            let group = members.spec(HOMOGENEOUS, None);
            let out = assign(&group, &topics);
            assert_eq!(distinct_partitions(&out, &group), 24, "seed {seed}, {m} members");
            for (id, _) in out.members(&group) {
                members.put(member(id, &[t1], previous(&out, &group, id)));
            }
        }
    }
}

/// SimpleAssignorTest.testAssignWithCurrentAssignmentHeterogeneous
#[test]
fn test_assign_with_current_assignment_heterogeneous() {
    for seed in 0..SEEDS {
        let [t1, t2, t3, t4] = topic_ids(seed);
        // Current assignment setup - 3 members A - {T1, T2}, B - {T3}, C - {T2, T3}.
        let topics1 = metadata(&[(t1, "topic1", 3), (t2, "topic2", 3), (t3, "topic3", 2)]);
        let group1 = three_members(t1, t2, t3).spec(HETEROGENEOUS, None);
        assert_eq!(distinct_partitions(&assign(&group1, &topics1), &group1), 8);
        // New assignment setup - 2 members A - {T1, T2, T3}, B - {T3, T4}.
        let topics2 = metadata(&[(t1, "topic1", 3), (t2, "topic2", 3), (t3, "topic3", 2), (t4, "topic4", 1)]);
        let group2 = members_of(vec![
            member("A", &[t1, t2, t3], mk_assignment(&[(t1, &[0, 1, 2]), (t2, &[0, 2])])),
            member("B", &[t3, t4], mk_assignment(&[(t3, &[0, 1])])),
        ])
        .spec(HETEROGENEOUS, None);
        assert_eq!(distinct_partitions(&assign(&group2, &topics2), &group2), 9);
    }
}

/// The four subscriptions of the heterogeneous incremental tests, by `member % 4`.
fn subscription(ids: &[Uuid; 4], m: usize) -> Vec<Uuid> {
    let [t1, t2, t3, _] = *ids;
    [vec![t1, t2, t3], vec![t2], vec![t3], vec![t1, t2]][m % 4].clone()
}

/// T1: 12, T2: 8, T3: 4 partitions (24 in all).
fn heterogeneous_topics(ids: &[Uuid; 4]) -> TopicMetadata {
    metadata(&[(ids[0], "topic1", 12), (ids[1], "topic2", 8), (ids[2], "topic3", 4)])
}

/// SimpleAssignorTest.testIncrementalAssignmentIncreasingMembersHeterogeneous
/// (as in Kafka, the member that just joined is not given its result back).
#[test]
fn test_incremental_assignment_increasing_members_heterogeneous() {
    for seed in 0..SEEDS / 4 {
        let ids = topic_ids(seed);
        let topics = heterogeneous_topics(&ids);
        let mut members = Members::new();
        for m in 0..101 {
            members.put(member(&format!("M{m}"), &subscription(&ids, m), vec![]));
            let group = members.spec(HETEROGENEOUS, None);
            let out = assign(&group, &topics);
            assert_eq!(distinct_partitions(&out, &group), 24, "seed {seed}, {} members", m + 1);
            for k in 0..m {
                let id = format!("M{k}");
                members.put(member(&id, &subscription(&ids, k), previous(&out, &group, &id)));
            }
        }
    }
}

/// SimpleAssignorTest.testIncrementalAssignmentDecreasingMembersHeterogeneous
#[test]
fn test_incremental_assignment_decreasing_members_heterogeneous() {
    for seed in 0..SEEDS / 4 {
        let ids = topic_ids(seed);
        let topics = heterogeneous_topics(&ids);
        let mut members = Members::new();
        (0..101).for_each(|m| members.put(member(&format!("M{m}"), &subscription(&ids, m), vec![])));
        let group = members.spec(HETEROGENEOUS, None);
        let out = assign(&group, &topics);
        assert_eq!(distinct_partitions(&out, &group), 24);
        for m in 0..101 {
            let id = format!("M{m}");
            members.put(member(&id, &subscription(&ids, m), previous(&out, &group, &id)));
        }
        for m in (1..101).rev() {
            members.remove(&format!("M{m}"));
            let group = members.spec(HETEROGENEOUS, None);
            let out = assign(&group, &topics);
            assert_eq!(distinct_partitions(&out, &group), 24, "seed {seed}, {m} members");
            for k in 0..m {
                let id = format!("M{k}");
                members.put(member(&id, &subscription(&ids, k), previous(&out, &group, &id)));
            }
        }
    }
}

/// Beyond Kafka's tests: the class doc's example of sharing (facts 1.6): two
/// partitions, five members, so each partition goes to three members and the
/// counts are [2, 1, 1, 1, 1] in `memberIds()` order.
#[test]
fn more_members_than_partitions_share_each_partition_ceil_m_over_p_times() {
    let [t1, ..] = topic_ids(1);
    let topics = metadata(&[(t1, "topic1", 2)]);
    let ids = ["A", "B", "C", "D", "E"];
    let group = members_of(ids.iter().map(|id| member(id, &[t1], vec![])).collect()).spec(HOMOGENEOUS, None);
    let out = assign(&group, &topics);
    let counts: Vec<usize> = out.members(&group).map(|(_, a)| a.len()).collect();
    assert_eq!(counts, vec![2, 1, 1, 1, 1]);
    for p in 0..2 {
        let holders = out.members(&group).filter(|(_, a)| a.partitions(t1).any(|q| q == p)).count();
        assert_eq!(holders, 3, "partition {p}");
    }
    // the coordinator's form: every member, by id
    let named = simple_target_assignment(&group, &topics).unwrap();
    assert_eq!(named.len(), 5);
    assert_eq!(named.values().map(BTreeSet::len).sum::<usize>(), 6);
}

// ---- property tests -------------------------------------------------------

/// A random share group: partition counts, each member's subscription mask,
/// and which partitions are assignable.
#[derive(Clone, Debug)]
struct Group {
    topics: Vec<i32>,
    masks: Vec<u8>,
    assignable: Option<Vec<bool>>,
}

fn group(homogeneous: bool) -> impl Strategy<Value = Group> {
    (
        prop::collection::vec(1i32..9, 1..4),
        prop::collection::vec(1u8..8, 1..14),
        prop::option::of(prop::collection::vec(any::<bool>(), 24)),
    )
        .prop_map(move |(topics, masks, assignable)| {
            let all = (1u8 << topics.len()) - 1;
            let masks = masks.iter().map(|m| if homogeneous { all } else { (m & all).max(1) }).collect();
            Group { topics, masks, assignable }
        })
}

fn topic(i: usize) -> String {
    format!("t{i}")
}

impl Group {
    fn is_assignable(&self, t: usize, p: i32) -> bool {
        self.assignable.as_ref().is_none_or(|a| a[(t * 8 + p as usize) % a.len()])
    }

    fn case(&self, owned: &Assignment, skip: Option<usize>) -> Case {
        let assignable = self.assignable.as_ref().map(|_| {
            let mut list = Vec::new();
            for (t, n) in self.topics.iter().enumerate() {
                list.extend((0..*n).filter(|p| self.is_assignable(t, *p)).map(|p| TopicPartition::new(topic(t), p)));
            }
            list
        });
        Case {
            assignor: "simple".to_string(),
            topics: self.topics.iter().enumerate().map(|(i, n)| (topic(i), *n)).collect(),
            members: self
                .masks
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != skip)
                .map(|(i, mask)| {
                    let id = format!("member-{i}");
                    CaseMember {
                        subscriptions: (0..self.topics.len()).filter(|t| mask & (1 << t) != 0).map(topic).collect(),
                        owned: owned.get(&id).cloned().unwrap_or_default(),
                        id,
                        ..CaseMember::default()
                    }
                })
                .collect(),
            params: CaseParams { assignable_partitions: assignable, ..CaseParams::default() },
            ..Case::default()
        }
    }

    /// Each assignable partition of a subscribed topic, with how many of `c`'s members subscribe to its topic.
    fn wanted(&self, c: &Case) -> BTreeMap<TopicPartition, usize> {
        let mut out = BTreeMap::new();
        for (t, n) in self.topics.iter().enumerate() {
            let subscribers = c.members.iter().filter(|m| m.subscriptions.contains(&topic(t))).count();
            if subscribers == 0 {
                continue;
            }
            for p in (0..*n).filter(|p| self.is_assignable(t, *p)) {
                out.insert(TopicPartition::new(topic(t), p), subscribers);
            }
        }
        out
    }
}

fn run(c: &Case) -> Assignment {
    let mut a = c.new_assignor().expect("assignor");
    c.run(&mut a).unwrap_or_else(|e| panic!("simple failed: {e}"))
}

/// How many members hold each partition.
fn holders(a: &Assignment) -> BTreeMap<TopicPartition, usize> {
    let mut out = BTreeMap::new();
    for tp in a.values().flatten() {
        *out.entry(tp.clone()).or_default() += 1;
    }
    out
}

/// Every assignable partition of a subscribed topic goes to at least one
/// member, and members get only assignable partitions of topics they subscribe to.
fn check_coverage(g: &Group, c: &Case, a: &Assignment) -> Result<(), TestCaseError> {
    let wanted = g.wanted(c);
    let held = holders(a);
    for (m, parts) in a {
        let member = c.members.iter().find(|x| &x.id == m).expect("a member of the case");
        for tp in parts {
            prop_assert!(member.subscriptions.iter().any(|s| s == tp.topic.as_str()), "{} got unsubscribed {}", m, tp);
            prop_assert!(wanted.contains_key(tp), "{} got non-assignable {}", m, tp);
        }
    }
    for tp in wanted.keys() {
        prop_assert!(held.get(tp).copied().unwrap_or(0) >= 1, "{} assigned to nobody: {:?}", tp, a);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// SimpleAssignor class doc: with members, every assignable subscribed partition is assigned.
    #[test]
    fn every_assignable_partition_goes_to_a_subscriber(g in group(false)) {
        let c = g.case(&Assignment::new(), None);
        check_coverage(&g, &c, &run(&c))?;
    }

    /// The same after a member leaves, from the previous target.
    #[test]
    fn after_a_member_leaves_every_assignable_partition_is_still_assigned(g in group(false), leaver in 0usize..14) {
        let first = run(&g.case(&Assignment::new(), None));
        let c = g.case(&first, Some(leaver % g.masks.len()));
        if !c.members.is_empty() {
            check_coverage(&g, &c, &run(&c))?;
        }
    }

    /// Homogeneous: each partition is shared by desiredSharing = ceil(members / partitions)
    /// members, and the members' counts differ by at most one.
    #[test]
    fn homogeneous_groups_share_ceil_m_over_p_and_balance_within_one(g in group(true)) {
        let c = g.case(&Assignment::new(), None);
        let a = run(&c);
        let wanted = g.wanted(&c);
        if !wanted.is_empty() {
            let sharing = c.members.len().div_ceil(wanted.len());
            for (tp, n) in holders(&a) {
                prop_assert_eq!(n, sharing, "{} shared by {} members, not {}", tp, n, sharing);
            }
            prop_assert_eq!(holders(&a).len(), wanted.len());
        }
        let sizes: Vec<usize> = c.members.iter().map(|m| a.get(&m.id).map_or(0, Vec::len)).collect();
        let (min, max) = (sizes.iter().min().copied().unwrap_or(0), sizes.iter().max().copied().unwrap_or(0));
        prop_assert!(max - min <= 1, "sizes {:?}", sizes);
    }

    /// Stickiness: when members join a homogeneous group, a member that held no
    /// more than its fair share (floor(partitions / members), sharing 1) keeps it all.
    #[test]
    fn members_within_their_share_keep_their_partitions_when_others_join(g in group(true), joiners in 1usize..4) {
        let mut small = g.clone();
        small.masks.truncate(g.masks.len().saturating_sub(joiners).max(1));
        let before = run(&small.case(&Assignment::new(), None));
        let c = g.case(&before, None);
        let after = run(&c);
        let targets = g.wanted(&c).len();
        if targets >= c.members.len() {
            let fair = targets / c.members.len();
            for (m, owned) in &before {
                if owned.len() <= fair {
                    let now: BTreeSet<&TopicPartition> = after[m].iter().collect();
                    prop_assert!(owned.iter().all(|tp| now.contains(tp)), "{} moved {:?} -> {:?}", m, owned, after[m]);
                }
            }
        }
    }

    /// The same input gives the same output.
    #[test]
    fn same_input_gives_same_output(g in group(false), leaver in 0usize..14) {
        let first = run(&g.case(&Assignment::new(), None));
        let c = g.case(&first, Some(leaver % g.masks.len()));
        if !c.members.is_empty() {
            prop_assert_eq!(run(&c), run(&c));
        }
    }
}
