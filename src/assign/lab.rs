//! The assignor lab: run one assignor call on a case written in the
//! vectors.json format and describe the outcome for people (what each member
//! keeps, gains and gives up, how balanced the result is).

use super::case::parse_cases;
use super::TopicPartition;
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberOutcome {
    pub member: String,
    pub assigned: Vec<TopicPartition>,
    /// Assigned and already owned.
    pub kept: Vec<TopicPartition>,
    /// Assigned, not owned before.
    pub added: Vec<TopicPartition>,
    /// Owned before, not assigned now (revoked).
    pub revoked: Vec<TopicPartition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabResult {
    pub assignor: String,
    pub members: Vec<MemberOutcome>,
    /// Partitions of subscribed topics nobody got (e.g. withheld by
    /// cooperative-sticky until their owner has revoked them).
    pub unassigned: Vec<TopicPartition>,
    /// Largest minus smallest number of partitions per member.
    pub spread: usize,
    /// Partitions handed to a member other than the one that owned them: a
    /// partition a member gains counts when one of its previous owners lost it
    /// (with `simple`, a partition now shared with its owner has not moved).
    pub moved: usize,
}

/// Runs the single case in `json`.
pub fn run(json: &str) -> Result<LabResult, String> {
    let (mut cases, _) = parse_cases(json)?;
    if cases.len() != 1 {
        return Err(format!("the lab runs one case at a time; this input has {}", cases.len()));
    }
    let case = cases.remove(0);
    let mut assignor = case.new_assignor()?;
    let assignment = case.run(&mut assignor)?;
    let mut members = Vec::new();
    for m in &case.members {
        let assigned = assignment.get(&m.id).cloned().unwrap_or_default();
        let owned: BTreeSet<&TopicPartition> = m.owned.iter().collect();
        let now: BTreeSet<&TopicPartition> = assigned.iter().collect();
        members.push(MemberOutcome {
            member: m.id.clone(),
            kept: assigned.iter().filter(|p| owned.contains(p)).cloned().collect(),
            added: assigned.iter().filter(|p| !owned.contains(p)).cloned().collect(),
            revoked: m.owned.iter().filter(|p| !now.contains(p)).cloned().collect(),
            assigned,
        });
    }
    let subscribed: BTreeSet<&String> = case.members.iter().flat_map(|m| m.subscriptions.iter()).collect();
    let given: BTreeSet<&TopicPartition> = members.iter().flat_map(|m| m.assigned.iter()).collect();
    let unassigned = case
        .topics
        .iter()
        .filter(|(t, _)| subscribed.contains(t))
        .flat_map(|(t, n)| (0..*n).map(move |p| TopicPartition::new(t.clone(), p)))
        .filter(|p| !given.contains(p))
        .collect();
    // a partition some previous owner no longer has (for the exclusive
    // assignors: every owned partition handed to someone else)
    let revoked: BTreeSet<&TopicPartition> = members.iter().flat_map(|m| m.revoked.iter()).collect();
    let moved = members.iter().flat_map(|m| m.added.iter()).filter(|p| revoked.contains(p)).count();
    let sizes: Vec<usize> = members.iter().map(|m| m.assigned.len()).collect();
    let spread = sizes.iter().max().unwrap_or(&0) - sizes.iter().min().unwrap_or(&0);
    Ok(LabResult { assignor: case.assignor, members, unassigned, spread, moved })
}

/// A starting case for `assignor`: three members, two topics, one member owning
/// what it had before a fourth member joined.
pub fn example(assignor: &str) -> String {
    format!(
        r#"{{
  "assignor": "{assignor}",
  "topics": {{ "orders": 6, "payments": 3 }},
  "members": [
    {{ "id": "c1", "subscriptions": ["orders", "payments"], "owned": ["orders-0", "orders-1", "orders-2", "payments-0"], "generation": 1 }},
    {{ "id": "c2", "subscriptions": ["orders", "payments"], "owned": ["orders-3", "orders-4", "orders-5", "payments-1", "payments-2"], "generation": 1 }},
    {{ "id": "c3", "subscriptions": ["orders"] }}
  ]
}}"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_assignor_runs_its_example_and_the_outcome_adds_up() {
        for name in ["range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "server-range", "simple"] {
            let r = run(&example(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            for m in &r.members {
                let mut parts: Vec<_> = m.kept.iter().chain(&m.added).cloned().collect();
                parts.sort();
                let mut assigned = m.assigned.clone();
                assigned.sort();
                assert_eq!(parts, assigned, "{name}: kept + added = assigned");
            }
            let given: usize = r.members.iter().map(|m| m.assigned.len()).sum();
            assert_eq!(
                given + r.unassigned.len(),
                9,
                "{name}: every subscribed partition is given or listed unassigned"
            );
            assert!(r.moved <= given);
        }
    }

    #[test]
    fn cooperative_sticky_withholds_what_it_takes_from_an_owner() {
        let r = run(&example("cooperative-sticky")).unwrap();
        let c3 = r.members.iter().find(|m| m.member == "c3").unwrap();
        assert!(c3.assigned.is_empty(), "first round: c3 gets nothing yet");
        assert!(!r.unassigned.is_empty(), "partitions revoked from c1/c2 are withheld");
        let revoked: usize = r.members.iter().map(|m| m.revoked.len()).sum();
        assert_eq!(revoked, r.unassigned.len());
        assert_eq!(r.moved, 0, "nothing changes owner in the same round");
    }

    #[test]
    fn bad_cases_get_a_message() {
        assert!(run("{").is_err());
        assert!(run("[]").unwrap_err().contains("one case"));
        assert!(run(&example("nonsense")).is_err());
    }

    #[test]
    fn with_equal_subscriptions_sticky_moves_fewer_partitions_than_range() {
        // a owns t-0..2, b owns t-3..5, c joins. Range re-deals blocks by member id
        // (t-2 to b, t-4 and t-5 to c); sticky keeps two each and moves only two.
        let case = |assignor: &str| {
            format!(
                r#"{{"assignor": "{assignor}", "topics": {{"t": 6}}, "members": [
                {{"id": "a", "subscriptions": ["t"], "owned": ["t-0", "t-1", "t-2"], "generation": 1}},
                {{"id": "b", "subscriptions": ["t"], "owned": ["t-3", "t-4", "t-5"], "generation": 1}},
                {{"id": "c", "subscriptions": ["t"]}}]}}"#
            )
        };
        assert_eq!(run(&case("range")).unwrap().moved, 3);
        let sticky = run(&case("sticky")).unwrap();
        assert_eq!(sticky.moved, 2);
        assert_eq!(sticky.spread, 0);
    }
}
