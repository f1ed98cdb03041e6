#![cfg(not(target_arch = "wasm32"))]
//! Property tests of the assignors over random groups.

use groupscope::assign::case::{Case, CaseMember};
use groupscope::assign::{Assignment, TopicPartition};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

const ALL: [&str; 6] = ["range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "server-range"];

/// A random group: topic partition counts and each member's subscription mask.
#[derive(Clone, Debug)]
struct Group {
    topics: Vec<i32>,
    masks: Vec<u8>,
}

fn group(homogeneous: bool) -> impl Strategy<Value = Group> {
    (prop::collection::vec(1i32..9, 1..5), prop::collection::vec(1u8..16, 1..7)).prop_map(move |(topics, masks)| {
        let all = (1u8 << topics.len()) - 1;
        let masks = masks.iter().map(|m| if homogeneous { all } else { (m & all).max(1) }).collect();
        Group { topics, masks }
    })
}

fn topic(i: usize) -> String {
    format!("t{i}")
}

fn case(assignor: &str, g: &Group, owned: &Assignment, skip: Option<usize>) -> Case {
    Case {
        assignor: assignor.to_string(),
        topics: g.topics.iter().enumerate().map(|(i, n)| (topic(i), *n)).collect(),
        members: g
            .masks
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .map(|(i, mask)| {
                let id = format!("member-{i}");
                CaseMember {
                    subscriptions: (0..g.topics.len()).filter(|t| mask & (1 << t) != 0).map(topic).collect(),
                    owned: owned.get(&id).cloned().unwrap_or_default(),
                    id,
                    ..CaseMember::default()
                }
            })
            .collect(),
        ..Case::default()
    }
}

fn run(c: &Case) -> Assignment {
    let mut a = c.new_assignor().expect("assignor");
    c.run(&mut a).unwrap_or_else(|e| panic!("{} failed: {e}", c.assignor))
}

fn subscribers(c: &Case) -> BTreeMap<String, BTreeSet<String>> {
    c.members.iter().map(|m| (m.id.clone(), m.subscriptions.iter().cloned().collect())).collect()
}

/// Each partition at most once (exactly once when `complete`), only to subscribers.
fn check_coverage(c: &Case, a: &Assignment, complete: bool) -> Result<(), TestCaseError> {
    let subs = subscribers(c);
    let mut seen = BTreeSet::new();
    for (m, parts) in a {
        for tp in parts {
            prop_assert!(seen.insert(tp.clone()), "{} assigned twice by {}", tp, c.assignor);
            prop_assert!(subs[m].contains(tp.topic.as_str()), "{} got unsubscribed {} from {}", m, tp, c.assignor);
        }
    }
    if complete {
        let wanted: BTreeSet<TopicPartition> = c
            .topics
            .iter()
            .filter(|(t, _)| subs.values().any(|s| s.contains(*t)))
            .flat_map(|(t, n)| (0..*n).map(move |p| TopicPartition::new(t.clone(), p)))
            .collect();
        prop_assert_eq!(seen, wanted, "{} left partitions out", &c.assignor);
    }
    Ok(())
}

fn sizes(a: &Assignment) -> Vec<usize> {
    a.values().map(Vec::len).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_partition_goes_to_exactly_one_subscriber(g in group(false)) {
        for name in ALL {
            let c = case(name, &g, &Assignment::new(), None);
            check_coverage(&c, &run(&c), true)?;
        }
    }

    #[test]
    fn reassignment_after_a_member_leaves_still_covers_everything(g in group(false), leaver in 0usize..6) {
        for name in ALL {
            let first = run(&case(name, &g, &Assignment::new(), None));
            let c = case(name, &g, &first, Some(leaver % g.masks.len()));
            if c.members.is_empty() {
                continue;
            }
            // cooperative-sticky may withhold partitions it revokes this round
            check_coverage(&c, &run(&c), name != "cooperative-sticky")?;
        }
    }

    #[test]
    fn homogeneous_groups_are_balanced_within_one(g in group(true)) {
        for name in ["roundrobin", "sticky", "cooperative-sticky", "uniform"] {
            let s = sizes(&run(&case(name, &g, &Assignment::new(), None)));
            let (min, max) = (s.iter().min().copied().unwrap_or(0), s.iter().max().copied().unwrap_or(0));
            prop_assert!(max - min <= 1, "{} sizes {:?}", name, s);
        }
    }

    #[test]
    fn sticky_keeps_partitions_of_members_within_quota(g in group(true), joiners in 1usize..3) {
        // the first members get an assignment; then more join
        let mut small = g.clone();
        small.masks.truncate(g.masks.len().saturating_sub(joiners).max(1));
        for name in ["sticky", "cooperative-sticky", "uniform"] {
            let before = run(&case(name, &small, &Assignment::new(), None));
            let after = run(&case(name, &g, &before, None));
            let total: i32 = g.topics.iter().sum();
            let min_quota = total as usize / g.masks.len();
            for (m, owned) in &before {
                if owned.len() <= min_quota {
                    let now: BTreeSet<&TopicPartition> = after[m].iter().collect();
                    prop_assert!(owned.iter().all(|tp| now.contains(tp)), "{} moved {}'s {:?} -> {:?}", name, m, owned, after[m]);
                }
            }
        }
    }

    #[test]
    fn cooperative_sticky_never_moves_a_partition_in_one_round(g in group(false), joiners in 1usize..3, leaver in 0usize..6) {
        let mut small = g.clone();
        small.masks.truncate(g.masks.len().saturating_sub(joiners).max(1));
        let before = run(&case("cooperative-sticky", &small, &Assignment::new(), None));
        let c = case("cooperative-sticky", &g, &before, Some(leaver % g.masks.len()));
        let after = run(&c);
        let present: BTreeSet<&str> = c.members.iter().map(|m| m.id.as_str()).collect();
        for (m, parts) in &after {
            for tp in parts {
                let previous = before.iter().find(|(_, ps)| ps.contains(tp)).map(|(o, _)| o.as_str());
                if let Some(owner) = previous.filter(|o| present.contains(o)) {
                    prop_assert_eq!(owner, m.as_str(), "{} handed from {} to {} in one round", tp, owner, m);
                }
            }
        }
    }

    #[test]
    fn same_input_gives_same_output(g in group(false), leaver in 0usize..6) {
        for name in ALL {
            let first = run(&case(name, &g, &Assignment::new(), None));
            let c = case(name, &g, &first, Some(leaver % g.masks.len()));
            if c.members.is_empty() {
                continue;
            }
            prop_assert_eq!(run(&c), run(&c), "{} is not deterministic", name);
        }
    }
}

/// A leader that resumes a sticky assignor from the `maxGeneration` it returned
/// behaves exactly like the same instance called again (what the simulation relies on).
#[test]
fn resuming_a_sticky_assignor_equals_calling_the_same_instance_again() {
    use groupscope::assign::{
        client_assignor, client_assignor_resuming, ClusterMetadata, Subscription, TopicPartition,
    };
    let cluster = ClusterMetadata::from_counts([("t1", 4), ("t2", 2)]);
    let member = |id: &str, topics: &[&str], owned: &[(&str, i32)], generation: i32| Subscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        owned: owned.iter().map(|(t, p)| TopicPartition::new(*t, *p)).collect(),
        generation: Some(generation),
        ..Subscription::default()
    };
    // Found by search: heterogeneous subscriptions, where the general builder's
    // previous-owner bookkeeping depends on the generation seen in an earlier call.
    let first = [
        member("m0", &["t1", "t2"], &[("t1", 0), ("t1", 2)], 4),
        member("m1", &["t2"], &[("t2", 0)], 4),
        member("m2", &["t2"], &[], 5),
    ];
    let second = [
        member("m0", &["t1", "t2"], &[("t1", 0), ("t2", 0), ("t2", 1)], 3),
        member("m1", &["t2"], &[("t2", 0), ("t2", 1)], 2),
        member("m2", &["t2"], &[("t2", 0), ("t2", 1)], 2),
    ];
    for name in ["sticky", "cooperative-sticky"] {
        let mut same = client_assignor(name).unwrap();
        same.assign(&cluster, &first).unwrap();
        let carried = same.max_generation().unwrap();
        assert_eq!(carried, 5, "{name}: maxGeneration is the highest generation seen");
        let expected = same.assign(&cluster, &second).unwrap();
        let mut resumed = client_assignor_resuming(name, carried).unwrap();
        assert_eq!(resumed.assign(&cluster, &second).unwrap(), expected, "{name}");
        if name == "sticky" {
            let fresh = client_assignor(name).unwrap().assign(&cluster, &second).unwrap();
            assert_ne!(fresh, expected, "the carried maxGeneration changes this outcome, so carrying it matters");
        }
    }
}
