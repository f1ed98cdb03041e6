//! What Kafka's two share-group builders (`SimpleHomogeneousAssignmentBuilder`,
//! `SimpleHeterogeneousAssignmentBuilder`) have in common: the sizes of the
//! Java collections they create (`AssignorHelpers.newHashMap/newHashSet`), the
//! desired assignment counts, and `assignRemainingPartitions`.
//!
//! Only the collections whose iteration order reaches the result are modelled
//! with [`JavaHashOrder`]: the partition -> members map (its key order decides
//! which partition is handed out first), the member sets of each partition
//! (which member gives up an over-shared partition) and the partition sets of
//! each member (which partitions an over-filled member gives up). The
//! `unfilledMembers` set is a `HashSet<Integer>` sized for every member index,
//! so it iterates ascending: a `BTreeSet` with a cursor. Assignments that are
//! only looked up or copied are `BTreeMap`s.

use super::{GroupSpec, MemberAssignment, ServerAssignment};
use crate::java::{JavaHashOrder, Uuid};
use std::collections::{BTreeMap, BTreeSet};

/// A member's assignment as content: topic id -> partitions.
pub(super) type Owned = BTreeMap<Uuid, BTreeSet<i32>>;

/// The initial capacity `AssignorHelpers.newHashMap(n)` / `newHashSet(n)` pass to
/// `new HashMap<>(...)`: `(int) (((n + 1) / 0.75f) + 1)`, in `float`.
pub(super) fn helper_capacity(n: usize) -> usize {
    (((n as i32).wrapping_add(1) as f32 / 0.75f32) + 1.0f32) as i32 as usize
}

fn integer_hash(i: &i32) -> i32 {
    *i
}

/// `new HashSet<Integer>()` (capacity 16).
pub(super) fn int_set() -> JavaHashOrder<i32> {
    JavaHashOrder::new(integer_hash as fn(&i32) -> i32)
}

/// `AssignorHelpers.newHashMap(n)` keyed by `Integer`.
pub(super) fn int_map_keys(n: usize) -> JavaHashOrder<i32> {
    JavaHashOrder::with_capacity(helper_capacity(n), integer_hash as fn(&i32) -> i32)
}

/// `desiredSharing`: `(members + partitions - 1) / partitions` in `int`, 0 without partitions.
pub(super) fn desired_sharing(members: usize, partitions: usize) -> i32 {
    if partitions == 0 {
        0
    } else {
        ((members as i32).wrapping_add(partitions as i32).wrapping_sub(1)) / partitions as i32
    }
}

/// The desired number of assignments of the `n`-th of `members` members, as the
/// builders' constructors compute it: with `precise = desiredSharing *
/// numTargetPartitions / (double) members`, `(int) Math.ceil(precise * (n + 1))
/// - (int) Math.ceil(precise * n)`. The counts add up to `ceil(precise * members)`.
pub(super) fn desired_counts(sharing: i32, partitions: usize, members: usize) -> Vec<i32> {
    let precise = f64::from(sharing.wrapping_mul(partitions as i32)) / members as f64;
    (0..members).map(|n| (precise * (n + 1) as f64).ceil() as i32 - (precise * n as f64).ceil() as i32).collect()
}

/// `unfilledMembers.iterator()`: ascending member indices; `next` is the first
/// index above the last one returned, which is what a `HashIterator` yields
/// when only the element it returned last is removed meanwhile.
#[derive(Default)]
struct Cursor {
    last: Option<usize>,
}

impl Cursor {
    fn peek(&self, set: &BTreeSet<usize>) -> Option<usize> {
        match self.last {
            None => set.first().copied(),
            Some(l) => set.range(l + 1..).next().copied(),
        }
    }
}

/// `assignRemainingPartitions` of both builders. `partitions` are the keys of
/// `finalAssignmentByPartition` in iteration order with their member sets
/// (which this step never changes); `assign(member, partition)` adds the
/// partition to the member's new assignment and final set and returns the
/// size of that set.
///
/// As in Kafka: one member iterator runs across all partitions and restarts
/// only after it handed out something since its last start; a member that
/// already has the partition is skipped, but one picked twice for the same
/// partition after a restart counts twice (its set does not grow), and a
/// restart over an empty set is Java's `NoSuchElementException`.
pub(super) fn assign_remaining<P: Copy>(
    partitions: &[(P, &JavaHashOrder<i32>)],
    sharing: i32,
    desired: &[i32],
    unfilled: &mut BTreeSet<usize>,
    mut assign: impl FnMut(usize, P) -> usize,
) -> Result<(), String> {
    if unfilled.is_empty() {
        return Ok(());
    }
    let mut cursor = Cursor::default();
    let mut assigned_since_start = false;
    for (partition, members) in partitions {
        let held = members.len() as i32;
        if held < sharing {
            let mut to_make = sharing - held;
            while to_make > 0 {
                if cursor.peek(unfilled).is_none() {
                    if !assigned_since_start {
                        break;
                    }
                    cursor = Cursor::default();
                    assigned_since_start = false;
                }
                let Some(member) = cursor.peek(unfilled) else {
                    return Err("java.util.NoSuchElementException: SimpleAssignor's assignRemainingPartitions \
                                ran out of unfilled members"
                        .to_string());
                };
                cursor.last = Some(member);
                if !members.contains(&(member as i32)) {
                    let size = assign(member, *partition);
                    to_make -= 1;
                    assigned_since_start = true;
                    if size as i64 >= i64::from(desired[member]) {
                        unfilled.remove(&member);
                    }
                }
            }
        }
        if unfilled.is_empty() {
            break;
        }
    }
    Ok(())
}

/// A member's previous assignment as content.
pub(super) fn owned(assignment: &[(Uuid, Vec<i32>)]) -> Owned {
    let mut out = Owned::new();
    for (id, ps) in assignment {
        out.entry(*id).or_default().extend(ps.iter().copied());
    }
    out
}

/// A set given as a list (`subscribedTopicIds()`), in its iteration order, once each.
pub(super) fn distinct(ids: &[Uuid]) -> Vec<Uuid> {
    let mut seen = BTreeSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

/// The result: each member's new assignment, in the spec's member order.
pub(super) fn result(group: &GroupSpec, current: &[Owned]) -> ServerAssignment {
    let targets = current.iter().map(MemberAssignment::from_sets).collect();
    ServerAssignment::of_members(group, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helper_capacity_is_the_float_expression_of_assignor_helpers() {
        // (int) ((n + 1) / 0.75f + 1): 0 -> 2, 2 -> 5, 3 -> 6, 11 -> 17
        assert_eq!(helper_capacity(0), 2);
        assert_eq!(helper_capacity(2), 5);
        assert_eq!(helper_capacity(3), 6);
        assert_eq!(helper_capacity(11), 17);
    }

    #[test]
    fn desired_counts_split_the_shared_total_in_member_order() {
        // 2 partitions, 5 members: sharing 3, counts [2, 1, 1, 1, 1] (facts 1.6)
        let sharing = desired_sharing(5, 2);
        assert_eq!(sharing, 3);
        assert_eq!(desired_counts(sharing, 2, 5), vec![2, 1, 1, 1, 1]);
        // 7 partitions, 3 members: sharing 1, counts [3, 2, 2]
        assert_eq!(desired_counts(desired_sharing(3, 7), 7, 3), vec![3, 2, 2]);
        assert_eq!(desired_counts(desired_sharing(3, 0), 0, 3), vec![0, 0, 0]);
    }
}
