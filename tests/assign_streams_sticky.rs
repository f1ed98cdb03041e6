#![cfg(not(target_arch = "wasm32"))]
//! The streams-group task assignor `sticky` (Kafka 4.4's `StickyTaskAssignor`
//! and its `ProcessState`).
//!
//! First, every test method of Kafka's `StickyTaskAssignorTest` and
//! `ProcessStateTest`
//! (group-coordinator/src/test/java/org/apache/kafka/coordinator/group/streams/assignor/,
//! branch 4.4), named after it, with its assertions and its helpers. Kafka's
//! tests build the member map with `Utils.mkMap` (a `LinkedHashMap`: members
//! iterate in the order listed, [`assign`]) or a `HashMap` ([`assign_hashed`]).
//! Then property tests of the assignor's invariants over random groups, and
//! the `assign` command's streams case.

use groupscope::assign::case::assign_text;
use groupscope::assign::streams::{
    sticky_assign, sticky_assign_with_member_order, ProcessState, StickyTaskAssignor, StreamsGroupSpec,
    StreamsMemberAssignment, StreamsMemberSpec, Subtopology, TaskId, Tasks, TopologyDescriber,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

type GroupAssignment = BTreeMap<String, StreamsMemberAssignment>;

// ---------------------------------------------------------------------------
// The helpers of StickyTaskAssignorTest

/// `mkMap(mkEntry(subtopology, Sets.newSet(...)), ...)`.
fn tasks(entries: &[(&str, &[i32])]) -> Tasks {
    entries.iter().map(|(s, ps)| (s.to_string(), ps.iter().copied().collect())).collect()
}

fn set(ps: &[i32]) -> BTreeSet<i32> {
    ps.iter().copied().collect()
}

/// `createMemberMetadata(processId)`.
fn create_member_metadata(process_id: &str) -> StreamsMemberSpec {
    StreamsMemberSpec { process_id: process_id.to_string(), ..StreamsMemberSpec::default() }
}

/// `createMemberMetadata(processId, prevActiveTasks, prevStandbyTasks)`.
fn create_member_metadata_with(process_id: &str, prev_active: Tasks, prev_standby: Tasks) -> StreamsMemberSpec {
    StreamsMemberSpec { active_tasks: prev_active, standby_tasks: prev_standby, ..create_member_metadata(process_id) }
}

/// `createMemberMetadataWithOffsets(processId, taskOffsets)`.
fn create_member_metadata_with_offsets(process_id: &str, offsets: &[(&str, &[(i32, i64)])]) -> StreamsMemberSpec {
    let task_offsets = offsets.iter().map(|(s, os)| (s.to_string(), os.iter().copied().collect())).collect();
    StreamsMemberSpec { task_offsets, ..create_member_metadata(process_id) }
}

/// `TopologyDescriberImpl(numTasks, isStateful, subtopologies)`.
fn topology(num_tasks: i32, stateful: bool, subtopologies: &[&str]) -> TopologyDescriber {
    TopologyDescriber {
        subtopologies: subtopologies.iter().map(|id| Subtopology { id: id.to_string(), num_tasks, stateful }).collect(),
    }
}

/// `TopologyDescriberImpl2`: test-subtopology1 with 6 tasks, test-subtopology2 with 1; stateless.
fn topology2() -> TopologyDescriber {
    TopologyDescriber {
        subtopologies: vec![
            Subtopology { id: "test-subtopology1".to_string(), num_tasks: 6, stateful: false },
            Subtopology { id: "test-subtopology2".to_string(), num_tasks: 1, stateful: false },
        ],
    }
}

fn group(members: &[(&str, StreamsMemberSpec)], num_standby_replicas: i32) -> StreamsGroupSpec {
    StreamsGroupSpec {
        members: members.iter().map(|(id, m)| (id.to_string(), m.clone())).collect(),
        num_standby_replicas,
    }
}

/// `assignor.assign(new GroupSpecImpl(mkMap(...), AssignmentConfigsImpl.DEFAULT
/// .withNumStandbyReplicas(n)), topology)`: members iterate in the order listed.
fn assign(members: &[(&str, StreamsMemberSpec)], num_standby_replicas: i32, t: &TopologyDescriber) -> GroupAssignment {
    let order: Vec<&str> = members.iter().map(|(id, _)| *id).collect();
    sticky_assign_with_member_order(&group(members, num_standby_replicas), &order, t).expect("an assignment")
}

/// The same with the members in a `java.util.HashMap`.
fn assign_hashed(
    members: &[(String, StreamsMemberSpec)],
    num_standby_replicas: i32,
    t: &TopologyDescriber,
) -> GroupAssignment {
    let spec = StreamsGroupSpec { members: members.iter().cloned().collect(), num_standby_replicas };
    sticky_assign(&spec, t).expect("an assignment")
}

/// `result.members().get(memberId)` with `assertNotNull`.
fn member<'a>(result: &'a GroupAssignment, id: &str) -> &'a StreamsMemberAssignment {
    result.get(id).unwrap_or_else(|| panic!("no assignment for {id}"))
}

/// `activeTasks().get(subtopology)`, which the Java tests dereference (a
/// missing entry is a `NullPointerException` there).
fn active<'a>(m: &'a StreamsMemberAssignment, subtopology: &str) -> &'a BTreeSet<i32> {
    m.active_tasks.get(subtopology).unwrap_or_else(|| panic!("no active tasks of {subtopology}"))
}

fn standby<'a>(m: &'a StreamsMemberAssignment, subtopology: &str) -> &'a BTreeSet<i32> {
    m.standby_tasks.get(subtopology).unwrap_or_else(|| panic!("no standby tasks of {subtopology}"))
}

/// `getAllActiveTaskCount`.
fn get_all_active_task_count(result: &GroupAssignment, ids: &[&str]) -> usize {
    ids.iter().map(|id| member(result, id).active_tasks.values().map(BTreeSet::len).sum::<usize>()).sum()
}

/// `getActiveTasks(result, topologyId, memberIds...)`.
fn get_active_tasks(result: &GroupAssignment, subtopology: &str, ids: &[&str]) -> BTreeSet<i32> {
    ids.iter().flat_map(|id| member(result, id).active_tasks.get(subtopology).cloned().unwrap_or_default()).collect()
}

/// `getStandbyTasks(result, topologyId, memberIds...)`.
fn get_standby_tasks(result: &GroupAssignment, subtopology: &str, ids: &[&str]) -> BTreeSet<i32> {
    ids.iter().flat_map(|id| member(result, id).standby_tasks.get(subtopology).cloned().unwrap_or_default()).collect()
}

/// `getAllActiveTaskIds(result, memberIds...)`: every partition, a list.
fn get_all_active_task_ids(result: &GroupAssignment, ids: &[&str]) -> Vec<i32> {
    ids.iter().flat_map(|id| member(result, id).active_tasks.values().flatten().copied().collect::<Vec<_>>()).collect()
}

/// `getAllActiveTaskIds(result)`: over every member of the result.
fn get_all_active_task_ids_of_all(result: &GroupAssignment) -> Vec<i32> {
    let ids: Vec<&str> = result.keys().map(String::as_str).collect();
    get_all_active_task_ids(result, &ids)
}

/// `getAllActiveTasks(result, memberId)`.
fn get_all_active_tasks(result: &GroupAssignment, id: &str) -> Tasks {
    member(result, id).active_tasks.clone()
}

/// `getAllStandbyTasks(result, memberId)`.
fn get_all_standby_tasks(result: &GroupAssignment, id: &str) -> Tasks {
    member(result, id).standby_tasks.clone()
}

/// `getAllStandbyTaskIds(result, memberIds...)`.
fn get_all_standby_task_ids(result: &GroupAssignment, ids: &[&str]) -> Vec<i32> {
    ids.iter().flat_map(|id| member(result, id).standby_tasks.values().flatten().copied().collect::<Vec<_>>()).collect()
}

/// `getAllStandbyTaskIds(result)`.
fn get_all_standby_task_ids_of_all(result: &GroupAssignment) -> Vec<i32> {
    let ids: Vec<&str> = result.keys().map(String::as_str).collect();
    get_all_standby_task_ids(result, &ids)
}

fn merge(maps: impl Iterator<Item = Tasks>) -> Tasks {
    let mut res = Tasks::new();
    for m in maps {
        for (s, ps) in m {
            res.entry(s).or_default().extend(ps);
        }
    }
    res
}

/// `mergeAllActiveTasks(result, memberIds...)`.
fn merge_all_active_tasks(result: &GroupAssignment, ids: &[&str]) -> Tasks {
    merge(ids.iter().map(|id| get_all_active_tasks(result, id)))
}

/// `mergeAllStandbyTasks(result)`: over every member of the result.
fn merge_all_standby_tasks(result: &GroupAssignment) -> Tasks {
    merge(result.keys().map(|id| get_all_standby_tasks(result, id)))
}

fn as_set(v: &[i32]) -> BTreeSet<i32> {
    v.iter().copied().collect()
}

const SUB: &str = "test-subtopology";

// ---------------------------------------------------------------------------
// StickyTaskAssignorTest

#[test]
fn test_to_string_returns_name() {
    let assignor = StickyTaskAssignor;
    assert_eq!("sticky", assignor.name());
    assert_eq!(assignor.name(), assignor.to_string());
}

#[test]
fn should_assign_one_active_task_to_each_process_when_task_count_same_as_process_count() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    assert_eq!(3, result.len());
    let mut actual_active_tasks = BTreeSet::new();
    for i in 0..3 {
        let test_member = member(&result, &format!("member{}", i + 1));
        assert_eq!(1, test_member.active_tasks.len());
        actual_active_tasks.extend(active(test_member, SUB));
    }
    assert_eq!(set(&[0, 1, 2]), actual_active_tasks);
}

fn six_members_on_three_processes() -> Vec<(&'static str, StreamsMemberSpec)> {
    vec![
        ("member1_1", create_member_metadata("process1")),
        ("member1_2", create_member_metadata("process1")),
        ("member2_1", create_member_metadata("process2")),
        ("member2_2", create_member_metadata("process2")),
        ("member3_1", create_member_metadata("process3")),
        ("member3_2", create_member_metadata("process3")),
    ]
}

const SIX: [&str; 6] = ["member1_1", "member1_2", "member2_1", "member2_2", "member3_1", "member3_2"];

#[test]
fn should_assign_topic_group_id_evenly_across_clients_with_no_stand_by_tasks() {
    let result =
        assign(&six_members_on_three_processes(), 0, &topology(3, false, &["test-subtopology1", "test-subtopology2"]));

    for id in SIX {
        assert_eq!(1, get_all_active_task_count(&result, &[id]), "{id}");
    }
    assert_eq!(
        tasks(&[("test-subtopology1", &[0, 1, 2]), ("test-subtopology2", &[0, 1, 2])]),
        merge_all_active_tasks(&result, &SIX)
    );
}

#[test]
fn should_assign_topic_group_id_evenly_across_clients_with_stand_by_tasks() {
    let all = tasks(&[("test-subtopology1", &[0, 1, 2]), ("test-subtopology2", &[0, 1, 2])]);
    let result =
        assign(&six_members_on_three_processes(), 1, &topology(3, true, &["test-subtopology1", "test-subtopology2"]));

    // active tasks
    for id in SIX {
        assert_eq!(1, get_all_active_task_count(&result, &[id]), "{id}");
    }
    assert_eq!(all, merge_all_active_tasks(&result, &SIX));
}

#[test]
fn should_not_migrate_active_task_to_other_process() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    let test_member1 = member(&result, "member1");
    assert!(active(test_member1, SUB).contains(&0));
    let test_member2 = member(&result, "member2");
    assert!(active(test_member2, SUB).contains(&1));
    assert_eq!(3, active(test_member1, SUB).len() + active(test_member2, SUB).len());

    // flip the previous active tasks assignment around.
    let members = [
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member3", create_member_metadata_with("process1", tasks(&[(SUB, &[2])]), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    let test_member2 = member(&result, "member2");
    assert!(active(test_member2, SUB).contains(&1));
    let test_member3 = member(&result, "member3");
    assert!(active(test_member3, SUB).contains(&2));
    assert_eq!(3, active(test_member2, SUB).len() + active(test_member3, SUB).len());
}

#[test]
fn should_migrate_active_tasks_to_new_process_without_changing_all_assignments() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 2])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    let test_member1 = member(&result, "member1");
    assert!(active(test_member1, SUB).contains(&0) || active(test_member1, SUB).contains(&2));
    let test_member2 = member(&result, "member2");
    assert!(active(test_member2, SUB).contains(&1));
    let test_member3 = member(&result, "member3");
    assert!(active(test_member3, SUB).contains(&2) || active(test_member3, SUB).contains(&0));
    assert_eq!(3, active(test_member1, SUB).len() + active(test_member2, SUB).len() + active(test_member3, SUB).len());
}

#[test]
fn should_assign_based_on_capacity() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2_1", create_member_metadata("process2")),
        ("member2_2", create_member_metadata("process2")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    assert_eq!(1, active(member(&result, "member1"), SUB).len());
    assert_eq!(1, active(member(&result, "member2_1"), SUB).len());
    assert_eq!(1, active(member(&result, "member2_2"), SUB).len());
}

#[test]
fn should_assign_tasks_evenly_with_unequal_topic_group_sizes() {
    let active_tasks = tasks(&[("test-subtopology1", &[0, 1, 2, 3, 4, 5]), ("test-subtopology2", &[0])]);
    let members = [
        ("member1", create_member_metadata_with("process1", active_tasks.clone(), Tasks::new())),
        ("member2", create_member_metadata("process2")),
    ];
    let result = assign(&members, 0, &topology2());

    let test_member1 = member(&result, "member1");
    let member1_topology1 = active(test_member1, "test-subtopology1");
    let member1_topology2 = test_member1.active_tasks.get("test-subtopology2").cloned().unwrap_or_default();
    assert_eq!(4, member1_topology1.len() + member1_topology2.len());
    let test_member2 = member(&result, "member2");
    let member2_topology1 = active(test_member2, "test-subtopology1");
    let member2_topology2 = test_member2.active_tasks.get("test-subtopology2").cloned().unwrap_or_default();
    assert_eq!(3, member2_topology1.len() + member2_topology2.len());
    let mut union = Tasks::new();
    union.insert("test-subtopology1".to_string(), member1_topology1.union(member2_topology1).copied().collect());
    union.insert("test-subtopology2".to_string(), member1_topology2.union(&member2_topology2).copied().collect());
    assert_eq!(active_tasks, union);
}

#[test]
fn should_keep_active_task_stickiness_when_more_client_than_active_tasks() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[2])]), Tasks::new())),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member4", create_member_metadata("process4")),
        ("member5", create_member_metadata("process5")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    for (id, expected) in [("member1", 0), ("member2", 2), ("member3", 1)] {
        assert_eq!(1, active(member(&result, id), SUB).len());
        assert_eq!(&set(&[expected]), active(member(&result, id), SUB));
    }
    assert!(!member(&result, "member4").active_tasks.contains_key(SUB));
    assert!(!member(&result, "member5").active_tasks.contains_key(SUB));

    // change up the assignment and make sure it is still sticky
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member3", create_member_metadata("process3")),
        ("member4", create_member_metadata_with("process4", tasks(&[(SUB, &[2])]), Tasks::new())),
        ("member5", create_member_metadata_with("process5", tasks(&[(SUB, &[1])]), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    assert!(!member(&result, "member1").active_tasks.contains_key(SUB));
    assert!(!member(&result, "member3").active_tasks.contains_key(SUB));
    for (id, expected) in [("member2", 0), ("member4", 2), ("member5", 1)] {
        assert_eq!(1, active(member(&result, id), SUB).len());
        assert_eq!(&set(&[expected]), active(member(&result, id), SUB));
    }
}

#[test]
fn should_assign_tasks_to_client_with_previous_standby_tasks() {
    let members = [
        ("member1", create_member_metadata_with("process1", Tasks::new(), tasks(&[(SUB, &[2])]))),
        ("member2", create_member_metadata_with("process2", Tasks::new(), tasks(&[(SUB, &[1])]))),
        ("member3", create_member_metadata_with("process3", Tasks::new(), tasks(&[(SUB, &[0])]))),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    for (id, expected) in [("member1", 2), ("member2", 1), ("member3", 0)] {
        assert_eq!(1, active(member(&result, id), SUB).len());
        assert_eq!(&set(&[expected]), active(member(&result, id), SUB));
    }
}

#[test]
fn should_not_assign_standby_tasks_to_client_with_previous_standby_tasks_and_current_active_tasks() {
    let members = [
        ("member1", create_member_metadata_with("process1", Tasks::new(), tasks(&[(SUB, &[0])]))),
        ("member2", create_member_metadata_with("process2", Tasks::new(), tasks(&[(SUB, &[1])]))),
    ];
    let result = assign(&members, 1, &topology(2, true, &[SUB]));

    let test_member1 = member(&result, "member1");
    assert_eq!(1, active(test_member1, SUB).len());
    assert_eq!(&set(&[0]), active(test_member1, SUB));
    assert_eq!(1, standby(test_member1, SUB).len());
    assert_eq!(&set(&[1]), standby(test_member1, SUB));
    let test_member2 = member(&result, "member2");
    assert_eq!(1, active(test_member2, SUB).len());
    assert_eq!(&set(&[1]), active(test_member2, SUB));
    assert_eq!(1, standby(test_member2, SUB).len());
    assert_eq!(&set(&[0]), standby(test_member2, SUB));
}

#[test]
fn should_assign_based_on_capacity_when_multiple_client_have_standby_tasks() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), tasks(&[(SUB, &[1])]))),
        ("member2_1", create_member_metadata_with("process2", tasks(&[(SUB, &[2])]), tasks(&[(SUB, &[1])]))),
        ("member2_2", create_member_metadata_with("process2", Tasks::new(), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    for (id, expected) in [("member1", 0), ("member2_1", 2), ("member2_2", 1)] {
        assert_eq!(1, active(member(&result, id), SUB).len());
        assert_eq!(&set(&[expected]), active(member(&result, id), SUB));
    }
}

#[test]
fn should_assign_standby_tasks_to_different_client_than_corresponding_active_task_is_assigned_to() {
    let all = tasks(&[(SUB, &[0, 1, 2, 3])]);
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[2])]), Tasks::new())),
        ("member4", create_member_metadata_with("process4", tasks(&[(SUB, &[3])]), Tasks::new())),
    ];
    let result = assign(&members, 1, &topology(4, true, &[SUB]));

    let mut non_empty_standby_task_count = 0;
    for (id, own) in [("member1", 0), ("member2", 1), ("member3", 2), ("member4", 3)] {
        let ids = get_all_standby_task_ids(&result, &[id]);
        assert!(!ids.contains(&own), "{id}: {ids:?}");
        assert!(ids.len() <= 2, "{id}: {ids:?}");
        non_empty_standby_task_count += usize::from(!ids.is_empty());
    }
    assert!(non_empty_standby_task_count >= 3);
    assert_eq!(all, merge_all_standby_tasks(&result));
}

#[test]
fn should_assign_multiple_replicas_of_standby_task() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[2])]), Tasks::new())),
    ];
    let result = assign(&members, 2, &topology(3, true, &[SUB]));

    assert_eq!(set(&[1, 2]), as_set(&get_all_standby_task_ids(&result, &["member1"])));
    assert_eq!(set(&[0, 2]), as_set(&get_all_standby_task_ids(&result, &["member2"])));
    assert_eq!(set(&[0, 1]), as_set(&get_all_standby_task_ids(&result, &["member3"])));
}

#[test]
fn should_not_assign_standby_task_replicas_when_no_client_available_without_having_the_task_assigned() {
    let members = [("member1", create_member_metadata("process1"))];
    let result = assign(&members, 1, &topology(1, true, &[SUB]));

    assert!(get_all_standby_tasks(&result, "member1").is_empty());
}

#[test]
fn should_assign_active_and_standby_tasks() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 1, &topology(3, true, &[SUB]));

    assert_eq!(set(&[0, 1, 2]), as_set(&get_all_active_task_ids_of_all(&result)));
    assert_eq!(set(&[0, 1, 2]), as_set(&get_all_standby_task_ids_of_all(&result)));
}

#[test]
fn should_assign_at_least_one_task_to_each_client_if_possible() {
    let members = [
        ("member1_1", create_member_metadata("process1")),
        ("member1_2", create_member_metadata("process1")),
        ("member1_3", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    assert_eq!(1, get_all_active_task_ids(&result, &["member1_1", "member1_2", "member1_3"]).len());
    assert_eq!(1, get_all_active_task_ids(&result, &["member2"]).len());
    assert_eq!(1, get_all_active_task_ids(&result, &["member3"]).len());
}

fn six_processes() -> Vec<(&'static str, StreamsMemberSpec)> {
    vec![
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata("process3")),
        ("member4", create_member_metadata("process4")),
        ("member5", create_member_metadata("process5")),
        ("member6", create_member_metadata("process6")),
    ]
}

#[test]
fn should_assign_each_active_task_to_one_client_when_more_clients_than_tasks() {
    let result = assign(&six_processes(), 0, &topology(3, false, &[SUB]));

    let all = ["member1", "member2", "member3", "member4", "member5", "member6"];
    assert_eq!(3, get_all_active_task_ids(&result, &all).len());
    assert_eq!(set(&[0, 1, 2]), get_active_tasks(&result, SUB, &all));
}

#[test]
fn should_balance_active_and_standby_tasks_across_available_clients() {
    let result = assign(&six_processes(), 1, &topology(3, true, &[SUB]));

    for id in result.keys() {
        // getAllStandbyTasks is the map by subtopology: its size counts subtopologies
        assert_eq!(
            1,
            get_all_standby_tasks(&result, id).len() + get_all_active_task_ids(&result, &[id.as_str()]).len(),
            "{id}"
        );
    }
}

#[test]
fn should_assign_more_tasks_to_client_with_more_capacity() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2_1", create_member_metadata("process2")),
        ("member2_2", create_member_metadata("process2")),
    ];
    let t = topology(3, false, &["test-subtopology0", "test-subtopology1", "test-subtopology2", "test-subtopology3"]);
    let result = assign(&members, 0, &t);

    assert_eq!(8, get_all_active_task_count(&result, &["member2_1", "member2_2"]));
    assert_eq!(4, get_all_active_task_count(&result, &["member1"]));
}

#[test]
fn should_re_balance_tasks_across_all_clients_when_capacity_and_task_count_the_same() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[0, 1, 2, 3])]), Tasks::new())),
        ("member4", create_member_metadata("process4")),
    ];
    let result = assign(&members, 0, &topology(4, false, &[SUB]));

    for id in ["member1", "member2", "member3", "member4"] {
        assert_eq!(1, get_all_active_task_count(&result, &[id]), "{id}");
    }
}

#[test]
fn should_re_balance_tasks_across_clients_when_capacity_less_than_task_count() {
    let members = [
        ("member1", create_member_metadata("process1")),
        ("member2", create_member_metadata("process2")),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[0, 1, 2, 3])]), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(4, false, &[SUB]));

    assert_eq!(1, get_all_active_task_count(&result, &["member1"]));
    assert_eq!(1, get_all_active_task_count(&result, &["member2"]));
    assert_eq!(2, get_all_active_task_count(&result, &["member3"]));
}

#[test]
fn should_rebalance_tasks_to_clients_based_on_capacity() {
    let members = [
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[0, 3, 2])]), Tasks::new())),
        ("member3_1", create_member_metadata("process3")),
        ("member3_2", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(3, false, &[SUB]));

    assert_eq!(1, get_all_active_task_count(&result, &["member2"]));
    assert_eq!(2, get_all_active_task_count(&result, &["member3_1", "member3_2"]));
}

#[test]
fn should_move_minimal_number_of_tasks_when_previously_above_capacity_and_new_client_added() {
    let mut p1_prev_tasks = set(&[0, 2]);
    let p2_prev_tasks = set(&[1, 3]);
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 2])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1, 3])]), Tasks::new())),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(4, false, &[SUB]));

    assert_eq!(1, get_all_active_task_count(&result, &["member3"]));
    let p3_active_tasks = get_all_active_task_ids(&result, &["member3"]);
    // p1PrevTasks.removeAll(p3ActiveTasks): whether p1PrevTasks changed
    let before = p1_prev_tasks.len();
    p1_prev_tasks.retain(|t| !p3_active_tasks.contains(t));
    if p1_prev_tasks.len() != before {
        assert_eq!(p2_prev_tasks, as_set(&get_all_active_task_ids(&result, &["member2"])));
    } else {
        assert_eq!(p1_prev_tasks, as_set(&get_all_active_task_ids(&result, &["member1"])));
    }
}

#[test]
fn should_not_move_any_tasks_when_new_tasks_added() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 1])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[2, 3])]), Tasks::new())),
    ];
    let result = assign(&members, 0, &topology(6, false, &[SUB]));

    let mem1_tasks = get_all_active_task_ids(&result, &["member1"]);
    assert!(mem1_tasks.contains(&0));
    assert!(mem1_tasks.contains(&1));
    let mem2_tasks = get_all_active_task_ids(&result, &["member2"]);
    assert!(mem2_tasks.contains(&2));
    assert!(mem2_tasks.contains(&3));
}

#[test]
fn should_assign_new_tasks_to_new_client_when_previous_tasks_assigned_to_old_clients() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[2, 1])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[0, 3])]), Tasks::new())),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(6, false, &[SUB]));

    let mem1_tasks = get_all_active_task_ids(&result, &["member1"]);
    assert!(mem1_tasks.contains(&2));
    assert!(mem1_tasks.contains(&1));
    let mem2_tasks = get_all_active_task_ids(&result, &["member2"]);
    assert!(mem2_tasks.contains(&0));
    assert!(mem2_tasks.contains(&3));
    let mem3_tasks = get_all_active_task_ids(&result, &["member3"]);
    assert!(mem3_tasks.contains(&4));
    assert!(mem3_tasks.contains(&5));
}

const SUB0: &str = "test-subtopology0";
const SUB1: &str = "test-subtopology1";
const SUB2: &str = "test-subtopology2";

/// member1 and member2 of the two "not previously active" tests: their
/// previous actives and standbys, and the actives they keep.
fn previously_active_members() -> Vec<(&'static str, StreamsMemberSpec)> {
    vec![
        (
            "member1",
            create_member_metadata_with(
                "process1",
                tasks(&[(SUB0, &[1]), (SUB1, &[2, 3])]),
                tasks(&[(SUB0, &[0]), (SUB1, &[1]), (SUB2, &[0, 1, 3])]),
            ),
        ),
        (
            "member2",
            create_member_metadata_with(
                "process2",
                tasks(&[(SUB0, &[0]), (SUB1, &[1]), (SUB2, &[2])]),
                tasks(&[(SUB0, &[1, 2, 3]), (SUB1, &[0, 2, 3]), (SUB2, &[0, 1, 3])]),
            ),
        ),
    ]
}

fn assert_previously_active_members_keep_their_tasks(result: &GroupAssignment) {
    assert_eq!(tasks(&[(SUB0, &[1]), (SUB1, &[2, 3])]), get_all_active_tasks(result, "member1"));
    assert_eq!(tasks(&[(SUB0, &[0]), (SUB1, &[1]), (SUB2, &[2])]), get_all_active_tasks(result, "member2"));
}

#[test]
fn should_assign_tasks_not_previously_active_to_new_client() {
    let mut members = previously_active_members();
    members.push((
        "member3",
        create_member_metadata_with("process3", tasks(&[(SUB2, &[0, 1, 3])]), tasks(&[(SUB0, &[2]), (SUB1, &[2])])),
    ));
    members.push((
        "newMember",
        create_member_metadata_with(
            "process4",
            Tasks::new(),
            tasks(&[(SUB0, &[0, 1, 2, 3]), (SUB1, &[0, 1, 2, 3]), (SUB2, &[0, 1, 2, 3])]),
        ),
    ));
    let result = assign(&members, 0, &topology(4, false, &[SUB0, SUB1, SUB2]));

    assert_previously_active_members_keep_their_tasks(&result);
    assert_eq!(tasks(&[(SUB2, &[0, 1, 3])]), get_all_active_tasks(&result, "member3"));
    assert_eq!(tasks(&[(SUB0, &[2, 3]), (SUB1, &[0])]), get_all_active_tasks(&result, "newMember"));
}

#[test]
fn should_assign_tasks_not_previously_active_to_multiple_new_clients() {
    let mut members = previously_active_members();
    members
        .push(("bounce_member1", create_member_metadata_with("bounce1", Tasks::new(), tasks(&[(SUB2, &[0, 1, 3])]))));
    members.push((
        "bounce_member2",
        create_member_metadata_with("bounce2", Tasks::new(), tasks(&[(SUB0, &[2, 3]), (SUB1, &[0])])),
    ));
    let result = assign(&members, 0, &topology(4, false, &[SUB0, SUB1, SUB2]));

    assert_previously_active_members_keep_their_tasks(&result);
    assert_eq!(tasks(&[(SUB2, &[0, 1, 3])]), get_all_active_tasks(&result, "bounce_member1"));
    assert_eq!(tasks(&[(SUB0, &[2, 3]), (SUB1, &[0])]), get_all_active_tasks(&result, "bounce_member2"));
}

#[test]
fn should_assign_tasks_to_new_client() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[1, 2])]), Tasks::new())),
        ("member2", create_member_metadata("process2")),
    ];
    let result = assign(&members, 0, &topology(2, false, &[SUB]));

    assert_eq!(1, get_all_active_task_count(&result, &["member1"]));
}

/// The assertions of both "without flipping" tests: member1 holds none of
/// 3, 4, 5 and `member1_tasks` tasks; member2 none of 0, 1, 2 and two; newMember two.
fn assert_no_flipping(result: &GroupAssignment, member1_tasks: usize) {
    let mem1_tasks = get_all_active_task_ids(result, &["member1"]);
    assert!(!mem1_tasks.contains(&3));
    assert!(!mem1_tasks.contains(&4));
    assert!(!mem1_tasks.contains(&5));
    assert_eq!(member1_tasks, mem1_tasks.len());
    let mem2_tasks = get_all_active_task_ids(result, &["member2"]);
    assert!(!mem2_tasks.contains(&0));
    assert!(!mem2_tasks.contains(&1));
    assert!(!mem2_tasks.contains(&2));
    assert_eq!(2, mem2_tasks.len());
    assert_eq!(2, get_all_active_task_ids(result, &["newMember"]).len());
}

#[test]
fn should_assign_tasks_to_new_client_without_flipping_assignment_between_existing_clients() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 1, 2])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[3, 4, 5])]), Tasks::new())),
        ("newMember", create_member_metadata("process3")),
    ];
    let result = assign(&members, 0, &topology(6, false, &[SUB]));

    assert_no_flipping(&result, 2);
}

#[test]
fn should_assign_tasks_to_new_client_without_flipping_assignment_between_existing_and_bounced_clients() {
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 1, 2, 6])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", Tasks::new(), tasks(&[(SUB, &[3, 4, 5])]))),
        ("newMember", create_member_metadata("newProcess")),
    ];
    let result = assign(&members, 0, &topology(7, false, &[SUB]));

    assert_no_flipping(&result, 3);
}

/// `members.put("member" + i, createMemberMetadata("process" + i))` into a `HashMap`.
fn hashed_members(num_clients: usize) -> Vec<(String, StreamsMemberSpec)> {
    (0..num_clients).map(|i| (format!("member{i}"), create_member_metadata(&format!("process{i}")))).collect()
}

#[test]
fn should_handle_large_number_of_tasks_with_standby_assignment() {
    let (num_tasks, num_clients, num_standby_replicas) = (100, 5, 2);
    let result = assign_hashed(&hashed_members(num_clients), num_standby_replicas, &topology(num_tasks, true, &[SUB]));

    // Verify all active tasks are assigned
    let all_active_tasks = as_set(&get_all_active_task_ids_of_all(&result));
    assert_eq!(num_tasks as usize, all_active_tasks.len());

    // Verify standby tasks are assigned (should be numTasks * numStandbyReplicas total)
    let all_standby_tasks = as_set(&get_all_standby_task_ids_of_all(&result));
    assert!(!all_standby_tasks.is_empty(), "Should have some standby tasks assigned");
    let max_possible_standby_tasks = num_tasks as usize * (num_standby_replicas as usize).min(num_clients - 1);
    assert!(
        all_standby_tasks.len() <= max_possible_standby_tasks,
        "Should not exceed maximum possible standby tasks: {max_possible_standby_tasks}"
    );

    // Verify no client has both active and standby for the same task
    for id in result.keys() {
        let member_active_tasks = as_set(&get_all_active_task_ids(&result, &[id.as_str()]));
        let member_standby_tasks = as_set(&get_all_standby_task_ids(&result, &[id.as_str()]));
        assert!(
            member_active_tasks.is_disjoint(&member_standby_tasks),
            "Client {id} has both active and standby for same task"
        );
    }

    // Verify load distribution is reasonable
    let active_counts: Vec<usize> =
        result.keys().map(|id| get_all_active_task_count(&result, &[id.as_str()])).collect();
    // With 100 tasks and 5 clients, each should have 20 tasks
    assert_eq!(Some(&20), active_counts.iter().min());
    assert_eq!(Some(&20), active_counts.iter().max());

    // Verify standby task distribution is reasonable
    let standby_counts: Vec<usize> =
        result.keys().map(|id| get_all_standby_task_ids(&result, &[id.as_str()]).len()).collect();
    // Each client should have some standby tasks, but not necessarily equal distribution
    // (Java's ints, from Integer.MAX_VALUE and 0 as in the test)
    let min_standby_tasks = standby_counts.iter().map(|n| *n as i64).fold(i64::from(i32::MAX), i64::min);
    let max_standby_tasks = standby_counts.iter().map(|n| *n as i64).fold(0, i64::max);
    assert!(min_standby_tasks >= 0);
    assert!(max_standby_tasks > 0);
}

#[test]
fn should_handle_odd_number_of_clients_with_standby_tasks() {
    // Test with odd number of clients (7) and even number of tasks (14)
    let (num_tasks, num_clients, num_standby_replicas) = (14, 7, 1);
    let result = assign_hashed(&hashed_members(num_clients), num_standby_replicas, &topology(num_tasks, true, &[SUB]));

    // Verify all active tasks are assigned
    assert_eq!(num_tasks as usize, as_set(&get_all_active_task_ids_of_all(&result)).len());

    // Verify standby tasks are assigned
    assert_eq!((num_tasks * num_standby_replicas) as usize, as_set(&get_all_standby_task_ids_of_all(&result)).len());

    // With 14 tasks and 7 clients, each client should have 2 active tasks
    let expected_tasks_per_client = num_tasks as usize / num_clients; // 14 / 7 = 2
    let remainder = num_tasks as usize % num_clients; // 14 % 7 = 0
    let (mut clients_with_expected_tasks, mut clients_with_one_more_task) = (0, 0);
    for id in result.keys() {
        let active_task_count = get_all_active_task_count(&result, &[id.as_str()]);
        if active_task_count == expected_tasks_per_client {
            clients_with_expected_tasks += 1;
        } else if active_task_count == expected_tasks_per_client + 1 {
            clients_with_one_more_task += 1;
        }
    }
    assert_eq!(num_clients - remainder, clients_with_expected_tasks); // 7 clients should have 2 tasks
    assert_eq!(remainder, clients_with_one_more_task); // 0 clients should have 3 tasks
}

#[test]
fn should_handle_high_standby_replica_count() {
    // Test with high number of standby replicas (5) and limited clients (3)
    let (num_tasks, num_clients, num_standby_replicas) = (6, 3, 5);
    let result = assign_hashed(&hashed_members(num_clients), num_standby_replicas, &topology(num_tasks, true, &[SUB]));

    // Verify all active tasks are assigned
    assert_eq!(num_tasks as usize, as_set(&get_all_active_task_ids_of_all(&result)).len());

    // With only 3 clients and 5 standby replicas, not all standby replicas can be assigned
    // since each client can only hold standby tasks for tasks it doesn't have active
    let all_standby_tasks = as_set(&get_all_standby_task_ids_of_all(&result));
    // Maximum possible = numTasks * min(numStandbyReplicas, numClients - 1) = 6 * 2 = 12
    let max_possible_standby_tasks = num_tasks as usize * (num_standby_replicas as usize).min(num_clients - 1);
    assert!(all_standby_tasks.len() <= max_possible_standby_tasks);
    assert!(!all_standby_tasks.is_empty()); // Should assign at least some standby tasks
}

#[test]
fn should_handle_large_number_of_subtopologies_with_standby_tasks() {
    // Test with many subtopologies (10) each with different numbers of tasks
    let (num_subtopologies, num_clients, num_standby_replicas) = (10, 4, 1);
    let subtopologies: Vec<String> = (0..num_subtopologies).map(|i| format!("subtopology-{i}")).collect();
    let names: Vec<&str> = subtopologies.iter().map(String::as_str).collect();
    let result = assign_hashed(&hashed_members(num_clients), num_standby_replicas, &topology(5, true, &names)); // 5 tasks per subtopology

    // Verify all subtopologies have tasks assigned
    let subtopologies_with_tasks: BTreeSet<&String> = result.values().flat_map(|m| m.active_tasks.keys()).collect();
    assert_eq!(num_subtopologies, subtopologies_with_tasks.len());

    // Verify standby tasks are assigned across subtopologies
    let subtopologies_with_standby_tasks: BTreeSet<&String> =
        result.values().flat_map(|m| m.standby_tasks.keys()).collect();
    assert_eq!(num_subtopologies, subtopologies_with_standby_tasks.len());
}

#[test]
fn should_handle_edge_case_with_single_client_and_multiple_standby_replicas() {
    // Test edge case: single client with multiple standby replicas
    let (num_tasks, num_standby_replicas) = (10, 3);
    let members = [("member1", create_member_metadata("process1"))];
    let result = assign(&members, num_standby_replicas, &topology(num_tasks, true, &[SUB]));

    // Single client should get all active tasks
    assert_eq!(num_tasks as usize, get_all_active_task_count(&result, &["member1"]));

    // No standby tasks should be assigned since there's only one client
    // (standby tasks can't be assigned to the same client as active tasks)
    assert!(get_all_standby_task_ids(&result, &["member1"]).is_empty());
}

#[test]
fn should_handle_edge_case_with_more_standby_replicas_than_available_clients() {
    // Test edge case: more standby replicas than available clients
    let (num_tasks, num_clients, num_standby_replicas) = (4, 2, 5); // More than available clients
    let result = assign_hashed(&hashed_members(num_clients), num_standby_replicas, &topology(num_tasks, true, &[SUB]));

    // Verify all active tasks are assigned
    assert_eq!(num_tasks as usize, as_set(&get_all_active_task_ids_of_all(&result)).len());

    // With only 2 clients, maximum standby tasks per task = 1 (since each client has active tasks)
    // Maximum possible = numTasks * 1 = 4
    assert_eq!(num_tasks as usize, as_set(&get_all_standby_task_ids_of_all(&result)).len());
}

#[test]
fn should_reassign_tasks_when_new_node_joins_with_existing_active_and_standby_assignments() {
    // Initial setup: Node 1 has active tasks 0,1 and standby tasks 2,3
    // Node 2 has active tasks 2,3 and standby tasks 0,1
    // Node 3 joins as new client
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0, 1])]), tasks(&[(SUB, &[2, 3])]))),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[2, 3])]), tasks(&[(SUB, &[0, 1])]))),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 1, &topology(4, true, &[SUB]));

    let ids = ["member1", "member2", "member3"];
    // Verify all active tasks are assigned
    assert_eq!(set(&[0, 1, 2, 3]), as_set(&get_all_active_task_ids(&result, &ids)));
    // Verify all standby tasks are assigned
    assert_eq!(set(&[0, 1, 2, 3]), as_set(&get_all_standby_task_ids(&result, &ids)));

    // Verify each member has 1-2 active tasks and at most 3 tasks total
    for id in ids {
        let active = get_all_active_task_ids(&result, &[id]).len();
        assert!((1..=2).contains(&active), "{id}: {active}");
        assert!(active + get_all_standby_task_ids(&result, &[id]).len() <= 3, "{id}");
    }
}

/// The assertions of both range-assignment tests.
fn assert_each_member_has_one_task_of_each_subtopology(result: &GroupAssignment) {
    // Each client should get one task from each subtopology
    let test_member1 = member(result, "member1");
    assert_eq!(1, active(test_member1, SUB1).len());
    assert_eq!(1, active(test_member1, SUB2).len());
    let test_member2 = member(result, "member2");
    assert_eq!(1, active(test_member2, SUB1).len());
    assert_eq!(1, active(test_member2, SUB2).len());

    // Verify all tasks are assigned exactly once
    let all_subtopology1_tasks: BTreeSet<i32> =
        active(test_member1, SUB1).union(active(test_member2, SUB1)).copied().collect();
    assert_eq!(set(&[0, 1]), all_subtopology1_tasks);
    let all_subtopology2_tasks: BTreeSet<i32> =
        active(test_member1, SUB2).union(active(test_member2, SUB2)).copied().collect();
    assert_eq!(set(&[0, 1]), all_subtopology2_tasks);

    // Each client should get one task from each subtopology
    assert_eq!(1, standby(test_member1, SUB1).len());
    assert_eq!(1, standby(test_member1, SUB2).len());
    assert_eq!(1, standby(test_member2, SUB1).len());
    assert_eq!(1, standby(test_member2, SUB2).len());
}

#[test]
fn should_range_assign_tasks_when_scaling_up() {
    // Two clients, the second one is new
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB1, &[0, 1]), (SUB2, &[0, 1])]), Tasks::new())),
        ("member2", create_member_metadata("process2")),
    ];
    // Two subtopologies with 2 tasks each (4 tasks total) with standby replicas enabled
    let result = assign(&members, 1, &topology(2, true, &[SUB1, SUB2]));

    assert_each_member_has_one_task_of_each_subtopology(&result);
}

#[test]
fn should_range_assign_tasks_when_starting_empty() {
    // Two clients starting empty (no previous tasks)
    let members = [("member1", create_member_metadata("process1")), ("member2", create_member_metadata("process2"))];
    // Two subtopologies with 2 tasks each (4 tasks total) with standby replicas enabled
    let result = assign(&members, 1, &topology(2, true, &[SUB1, SUB2]));

    assert_each_member_has_one_task_of_each_subtopology(&result);
}

#[test]
fn should_assign_standby_task_to_previous_owner_based_on_below_quota_condition() {
    // Process1: active=[0], standby=[1]; Process2: active=[1]; Process3: no previous tasks.
    // 2 active tasks + 1 standby replica: quota per process = ceil(4 / 3) = 2.
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), tasks(&[(SUB, &[1])]))),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member3", create_member_metadata("process3")),
    ];
    let result = assign(&members, 1, &topology(2, true, &[SUB]));

    let member1 = member(&result, "member1");
    // Member1 should retain its active task 0
    assert!(active(member1, SUB).contains(&0));
    // Member1 should get standby task 1 because it previously owned it and is below quota
    assert!(member1.standby_tasks.contains_key(SUB), "Member1 should have standby tasks assigned");
    assert!(
        standby(member1, SUB).contains(&1),
        "Member1 should have standby task 1, but has: {:?}",
        standby(member1, SUB)
    );
    // Verify that member1 doesn't have active task 1 (standby can't be same as active)
    assert!(!active(member1, SUB).contains(&1));
    // Verify the process1's total task count is at or below quota
    let member1_total_tasks = active(member1, SUB).len() + standby(member1, SUB).len();
    assert!(member1_total_tasks <= 2, "Member1 should have <= 2 total tasks (quota), but has {member1_total_tasks}");
}

#[test]
fn should_assign_standby_to_previous_standby_that_does_not_hold_the_active_task() {
    // starting assignment [active] [standby]:
    //   member1/process1: [] [2]
    //   member2/process2: [0] [2]
    //   member3/process3: [1] []
    //   member4/process4: [] []
    // (members in a LinkedHashMap)
    let members = [
        ("member1", create_member_metadata_with("process1", Tasks::new(), tasks(&[(SUB, &[2])]))),
        ("member2", create_member_metadata_with("process2", tasks(&[(SUB, &[0])]), tasks(&[(SUB, &[2])]))),
        ("member3", create_member_metadata_with("process3", tasks(&[(SUB, &[1])]), Tasks::new())),
        ("member4", create_member_metadata("process4")),
    ];
    let result = assign(&members, 1, &topology(3, true, &[SUB]));

    let result_invariants: [BTreeMap<&str, Vec<i32>>; 3] = [
        // member1 may be empty; standby-2 should always be on member2; member3 can never hold standby-1
        BTreeMap::from([("member1", vec![]), ("member2", vec![2]), ("member3", vec![0]), ("member4", vec![1])]),
        // member3 may be empty; member4 should either hold 0 or 1
        BTreeMap::from([("member1", vec![1]), ("member2", vec![2]), ("member3", vec![]), ("member4", vec![0])]),
        BTreeMap::from([("member1", vec![0]), ("member2", vec![2]), ("member3", vec![]), ("member4", vec![1])]),
    ];

    assert_eq!(set(&[2]), get_active_tasks(&result, SUB, &["member1"]));
    assert_eq!(set(&[0]), get_active_tasks(&result, SUB, &["member2"]));
    assert_eq!(set(&[1]), get_active_tasks(&result, SUB, &["member3"]));
    assert_eq!(set(&[]), get_active_tasks(&result, SUB, &["member4"]));

    // member2 must always host standby-2
    assert_eq!(vec![2], get_all_standby_task_ids(&result, &["member2"]));

    let standbys = |id: &str| get_all_standby_task_ids(&result, &[id]);
    if standbys("member1") == result_invariants[0]["member1"] {
        assert_eq!(result_invariants[0]["member3"], standbys("member3"));
        assert_eq!(result_invariants[0]["member4"], standbys("member4"));
    } else if standbys("member1") == result_invariants[1]["member1"] {
        assert_eq!(result_invariants[1]["member3"], standbys("member3"));
        assert_eq!(result_invariants[1]["member4"], standbys("member4"));
    } else {
        assert_eq!(result_invariants[2]["member1"], standbys("member1"));
        assert_eq!(result_invariants[2]["member3"], standbys("member3"));
        assert_eq!(result_invariants[2]["member4"], standbys("member4"));
    }
}

#[test]
fn should_assign_tasks_to_members_reporting_task_offsets_on_cold_start() {
    // Cold start (KAFKA-20719): all members have fresh member IDs and empty target assignments, but report
    // cumulative offsets for the tasks whose state they hold on local disk.
    let members = [
        ("member1", create_member_metadata_with_offsets("process1", &[(SUB, &[(0, 100), (1, 100)])])),
        ("member2", create_member_metadata_with_offsets("process2", &[(SUB, &[(2, 100), (3, 100)])])),
    ];
    let result = assign(&members, 0, &topology(4, true, &[SUB]));

    assert_eq!(set(&[0, 1]), get_active_tasks(&result, SUB, &["member1"]));
    assert_eq!(set(&[2, 3]), get_active_tasks(&result, SUB, &["member2"]));
}

#[test]
fn should_assign_tasks_to_processes_reporting_task_offsets_on_cold_start_with_multiple_members_per_process() {
    // Members of the same process share the state directory and report the same offsets; tasks should stay
    // on the process holding the state, spread across its members.
    let process1_offsets: &[(&str, &[(i32, i64)])] = &[(SUB, &[(0, 100), (1, 100)])];
    let process2_offsets: &[(&str, &[(i32, i64)])] = &[(SUB, &[(2, 100), (3, 100)])];
    let members = [
        ("member1_1", create_member_metadata_with_offsets("process1", process1_offsets)),
        ("member1_2", create_member_metadata_with_offsets("process1", process1_offsets)),
        ("member2_1", create_member_metadata_with_offsets("process2", process2_offsets)),
        ("member2_2", create_member_metadata_with_offsets("process2", process2_offsets)),
    ];
    let result = assign(&members, 0, &topology(4, true, &[SUB]));

    assert_eq!(tasks(&[(SUB, &[0, 1])]), merge_all_active_tasks(&result, &["member1_1", "member1_2"]));
    assert_eq!(tasks(&[(SUB, &[2, 3])]), merge_all_active_tasks(&result, &["member2_1", "member2_2"]));
}

#[test]
fn should_rank_current_owners_ahead_of_reported_task_offsets_and_most_caught_up_first() {
    // member3 reports the largest offset sums for tasks 0 and 1 but loses both: the current active owner
    // keeps task 0 and the current standby is promoted for task 1. Task 2 goes to the more caught-up of
    // the two members known only through their offsets, leaving task 3 for the other.
    let members = [
        ("member1", create_member_metadata_with("process1", tasks(&[(SUB, &[0])]), Tasks::new())),
        ("member2", create_member_metadata_with("process2", Tasks::new(), tasks(&[(SUB, &[0, 1])]))),
        (
            "member3",
            create_member_metadata_with_offsets("process3", &[(SUB, &[(0, 1_000_000), (1, 1_000_000), (2, 100)])]),
        ),
        ("member4", create_member_metadata_with_offsets("process4", &[(SUB, &[(2, 50)])])),
    ];
    let result = assign(&members, 0, &topology(4, true, &[SUB]));

    assert_eq!(set(&[0]), get_active_tasks(&result, SUB, &["member1"]));
    assert_eq!(set(&[1]), get_active_tasks(&result, SUB, &["member2"]));
    assert_eq!(set(&[2]), get_active_tasks(&result, SUB, &["member3"]));
    assert_eq!(set(&[3]), get_active_tasks(&result, SUB, &["member4"]));
}

#[test]
fn should_assign_standbys_away_from_process_holding_state_on_cold_start() {
    // On cold start with standbys enabled, actives follow the reported state and standbys land on the
    // other process (a standby may not be co-located with its active).
    let members = [
        ("member1", create_member_metadata_with_offsets("process1", &[(SUB, &[(0, 100)])])),
        ("member2", create_member_metadata_with_offsets("process2", &[(SUB, &[(1, 100)])])),
    ];
    let result = assign(&members, 1, &topology(2, true, &[SUB]));

    assert_eq!(set(&[0]), get_active_tasks(&result, SUB, &["member1"]));
    assert_eq!(set(&[1]), get_active_tasks(&result, SUB, &["member2"]));
    assert_eq!(set(&[1]), get_standby_tasks(&result, SUB, &["member1"]));
    assert_eq!(set(&[0]), get_standby_tasks(&result, SUB, &["member2"]));
}

// ---------------------------------------------------------------------------
// ProcessStateTest

/// `new ProcessState("process1")` after `addMember("member1")`.
fn process1_with_member1() -> ProcessState {
    let mut process_state = ProcessState::new("process1");
    process_state.add_member("member1");
    process_state
}

#[test]
fn should_add_active_task_to_member() {
    let mut process_state = process1_with_member1();
    let task_id = TaskId::new("id1", 0);

    process_state.add_task("member1", task_id.clone(), true).expect("a member of the process");

    assert!(process_state.assigned_active_tasks().contains(&task_id));
    assert_eq!(Some(&1), process_state.member_to_task_counts().get("member1"));
}

#[test]
fn should_add_standby_task_to_member() {
    let mut process_state = process1_with_member1();
    let task_id = TaskId::new("id1", 0);

    process_state.add_task("member1", task_id.clone(), false).expect("a member of the process");

    assert!(process_state.assigned_standby_tasks().contains(&task_id));
    assert_eq!(Some(&1), process_state.member_to_task_counts().get("member1"));
}

#[test]
fn should_increase_capacity() {
    let mut process_state = ProcessState::new("process1");

    process_state.add_member("member1");

    assert_eq!(1, process_state.capacity());
}

#[test]
fn should_return_true_when_capacity_is_available() {
    let process_state = process1_with_member1();

    assert!(process_state.has_capacity());
}

#[test]
fn should_return_false_when_capacity_is_full() {
    let mut process_state = process1_with_member1();
    process_state.add_task("member1", TaskId::new("id1", 0), true).expect("a member of the process");

    assert!(!process_state.has_capacity());
}

#[test]
fn should_compare_based_on_load_and_capacity() {
    let mut process_state1 = ProcessState::new("process1");
    let mut process_state2 = ProcessState::new("process2");
    process_state1.add_member("member1");
    process_state2.add_member("member2");
    process_state1.add_task("member1", TaskId::new("id1", 0), true).expect("a member of the process");

    assert!(process_state1.compare_to(&process_state2).is_gt());
}

#[test]
fn should_return_true_if_task_is_assigned() {
    let mut process_state = process1_with_member1();
    let task_id = TaskId::new("id1", 0);
    process_state.add_task("member1", task_id.clone(), true).expect("a member of the process");

    assert!(process_state.has_task(&task_id));
}

#[test]
fn should_return_false_if_task_is_not_assigned() {
    let process_state = process1_with_member1();
    let task_id = TaskId::new("id1", 0);

    assert!(!process_state.has_task(&task_id));
}

#[test]
fn should_return_all_assigned_tasks() {
    let mut process_state = process1_with_member1();
    let active_task_id = TaskId::new("id1", 0);
    let standby_task_id = TaskId::new("id1", 1);
    process_state.add_task("member1", active_task_id.clone(), true).expect("a member of the process");
    process_state.add_task("member1", standby_task_id.clone(), false).expect("a member of the process");

    let assigned_tasks = process_state.assigned_tasks();

    assert!(assigned_tasks.contains(&active_task_id));
    assert!(assigned_tasks.contains(&standby_task_id));
}

// ---------------------------------------------------------------------------
// Invariants over random groups

/// A random group: processes of one to four members, subtopologies of up to
/// 12 tasks, and (if `sticky`) previous active and standby tasks and reported
/// offsets drawn at random, some of them for the same task on several members.
#[derive(Clone, Debug)]
struct RandomGroup {
    group: StreamsGroupSpec,
    topology: TopologyDescriber,
}

fn random_group(seed: u64, sticky: bool) -> RandomGroup {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let subtopologies: Vec<Subtopology> = (0..rng.gen_range(1..=4))
        .map(|i| Subtopology { id: format!("{i}"), num_tasks: rng.gen_range(0..=12), stateful: rng.gen_bool(0.6) })
        .collect();
    let mut members = BTreeMap::new();
    for p in 0..rng.gen_range(1..=6) {
        for m in 0..rng.gen_range(1..=4) {
            let id = format!("{:08x}-{p}-{m}", rng.gen::<u32>());
            members.insert(id, create_member_metadata(&format!("process-{p}")));
        }
    }
    if sticky {
        let ids: Vec<String> = members.keys().cloned().collect();
        for s in &subtopologies {
            for t in 0..s.num_tasks {
                let pick = |rng: &mut rand_chacha::ChaCha8Rng| ids[rng.gen_range(0..ids.len())].clone();
                if rng.gen_bool(0.7) {
                    let owner = pick(&mut rng);
                    members.entry(owner).or_default().active_tasks.entry(s.id.clone()).or_default().insert(t);
                }
                for _ in 0..rng.gen_range(0..=2) {
                    let holder = pick(&mut rng);
                    members.entry(holder).or_default().standby_tasks.entry(s.id.clone()).or_default().insert(t);
                }
                if rng.gen_bool(0.3) {
                    let reporter = pick(&mut rng);
                    let offset = rng.gen_range(0..1_000i64);
                    members
                        .entry(reporter)
                        .or_default()
                        .task_offsets
                        .entry(s.id.clone())
                        .or_default()
                        .insert(t, offset);
                }
            }
        }
    }
    let group = StreamsGroupSpec { members, num_standby_replicas: rng.gen_range(0..=3) };
    RandomGroup { group, topology: TopologyDescriber { subtopologies } }
}

fn ceil_div(a: usize, b: usize) -> usize {
    a.div_ceil(b)
}

/// Coverage, one holder per task and process, standbys only where stateful,
/// exactly `min(replicas, processes - 1)` standbys per stateful task.
fn check_invariants(g: &RandomGroup, result: &GroupAssignment) -> Result<(), TestCaseError> {
    let group = &g.group;
    prop_assert_eq!(result.keys().collect::<Vec<_>>(), group.members.keys().collect::<Vec<_>>());
    let processes: BTreeSet<&str> = group.members.values().map(|m| m.process_id.as_str()).collect();
    let mut actives: BTreeMap<(String, i32), usize> = BTreeMap::new();
    let mut standbys: BTreeMap<(String, i32), usize> = BTreeMap::new();
    let mut held: BTreeSet<(&str, String, i32)> = BTreeSet::new();
    for (id, a) in result {
        prop_assert!(a.warmup_tasks.is_empty());
        let process = group.members[id].process_id.as_str();
        for (kind, tasks) in [("active", &a.active_tasks), ("standby", &a.standby_tasks)] {
            for (s, ps) in tasks {
                prop_assert!(!ps.is_empty(), "{} has an empty {} entry for {}", id, kind, s);
                for p in ps {
                    let counts = if kind == "active" { &mut actives } else { &mut standbys };
                    *counts.entry((s.clone(), *p)).or_default() += 1;
                    prop_assert!(held.insert((process, s.clone(), *p)), "process {} holds {}_{} twice", process, s, p);
                }
            }
        }
    }
    let replicas = usize::try_from(group.num_standby_replicas).unwrap_or(0).min(processes.len().saturating_sub(1));
    let mut all_tasks = 0;
    for s in &g.topology.subtopologies {
        for p in 0..s.num_tasks {
            all_tasks += 1;
            let key = (s.id.clone(), p);
            prop_assert_eq!(actives.get(&key).copied().unwrap_or(0), 1, "active {}_{}", s.id, p);
            let expected = if s.stateful { replicas } else { 0 };
            prop_assert_eq!(standbys.get(&key).copied().unwrap_or(0), expected, "standbys of {}_{}", s.id, p);
        }
    }
    prop_assert_eq!(actives.len(), all_tasks, "actives of tasks outside the topology");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every task assigned once as active, no process holding a task twice,
    /// standbys only of stateful subtopologies, as many as processes allow.
    #[test]
    fn every_task_is_active_once_and_no_process_holds_a_task_twice(seed in any::<u64>(), sticky in any::<bool>()) {
        let g = random_group(seed, sticky);
        let result = sticky_assign(&g.group, &g.topology).map_err(TestCaseError::fail)?;
        check_invariants(&g, &result)?;
    }

    /// With nothing sticky, no member gets more than ceil(active tasks /
    /// members) active tasks.
    #[test]
    fn without_previous_tasks_no_member_exceeds_the_active_quota(seed in any::<u64>()) {
        let g = random_group(seed, false);
        let result = sticky_assign(&g.group, &g.topology).map_err(TestCaseError::fail)?;
        let total: usize = g.topology.subtopologies.iter().map(|s| s.num_tasks as usize).sum();
        let quota = ceil_div(total, g.group.members.len());
        for (id, a) in &result {
            let n: usize = a.active_tasks.values().map(BTreeSet::len).sum();
            prop_assert!(n <= quota, "{} has {} active tasks; quota {}", id, n, quota);
        }
    }

    /// The member order the coordinator's HashMap gives is the one used.
    #[test]
    fn members_iterate_in_the_coordinators_hash_map_order(seed in any::<u64>()) {
        let g = random_group(seed, true);
        let order = groupscope::java::member_map_order(g.group.members.keys().map(String::as_str));
        prop_assert_eq!(
            sticky_assign(&g.group, &g.topology),
            sticky_assign_with_member_order(&g.group, &order, &g.topology)
        );
    }
}

// ---------------------------------------------------------------------------
// Bad input and the `assign` command

#[test]
fn tasks_without_members_are_an_error_and_nothing_to_assign_is_not() {
    let empty = StreamsGroupSpec::default();
    assert_eq!(
        Err("No process available to assign active task test-subtopology_0.".to_string()),
        sticky_assign(&empty, &topology(2, true, &[SUB]))
    );
    assert_eq!(Ok(GroupAssignment::new()), sticky_assign(&empty, &topology(0, true, &[SUB])));
}

#[test]
fn a_bad_member_order_or_topology_is_an_error() {
    let g = group(&[("member1", create_member_metadata("process1"))], 0);
    let t = topology(2, false, &[SUB]);
    assert!(sticky_assign_with_member_order(&g, &["member1", "member2"], &t).is_err());
    assert!(sticky_assign_with_member_order(&g, &["member1", "member1"], &t).is_err());
    assert!(sticky_assign_with_member_order::<&str>(&g, &[], &t).is_err());
    assert!(sticky_assign(&g, &topology(2, false, &[SUB, SUB])).is_err());
    assert!(sticky_assign(&g, &topology(i32::MAX, false, &[SUB])).is_err());
}

/// The example the docs give for the `assign` command.
const EXAMPLE: &str = include_str!("../docs/examples/streams-sticky.json");

#[test]
fn the_assign_command_runs_the_streams_sticky_example() {
    let out: serde_json::Value = serde_json::from_str(&assign_text(EXAMPLE).expect("the example runs")).expect("JSON");
    let case: serde_json::Value = serde_json::from_str(EXAMPLE).expect("JSON");
    // the same result as a direct call
    let (group, t) = groupscope::assign::streams::case::StreamsCase::parse(&case).expect("a streams case").group_spec();
    let direct = sticky_assign(&group, &t).expect("an assignment");
    for (id, a) in &direct {
        assert_eq!(out["assignment"][id]["activeTasks"], serde_json::to_value(&a.active_tasks).expect("JSON"), "{id}");
        assert_eq!(
            out["assignment"][id]["standbyTasks"],
            serde_json::to_value(&a.standby_tasks).expect("JSON"),
            "{id}"
        );
    }
    // one task per member and process pair at most, previous owners keep their actives
    assert_eq!(out["assignment"]["p1-t1"]["activeTasks"]["0"], serde_json::json!([0]));
    assert_eq!(out["assignment"]["p2-t1"]["activeTasks"]["0"], serde_json::json!([1]));
    // an array of cases answers with an array, streams and partition cases mixed
    let partitions = groupscope::assign::lab::example("range");
    let both = format!("[{EXAMPLE}, {partitions}]");
    let out: serde_json::Value = serde_json::from_str(&assign_text(&both).expect("both run")).expect("JSON");
    assert!(out[0]["assignment"]["p1-t1"]["activeTasks"].is_object());
    assert!(out[1]["assignment"]["c1"].is_array());
}

#[test]
fn the_assign_command_names_what_is_wrong_with_a_streams_case() {
    let run = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut case: serde_json::Value = serde_json::from_str(EXAMPLE).expect("JSON");
        edit(&mut case);
        assign_text(&case.to_string()).expect_err("an error")
    };
    let e = run(&|c| c["assignor"] = "streams.other".into());
    assert!(e.contains("unknown streams assignor 'streams.other'"), "{e}");
    let e = run(&|c| c["numStandbyReplicas"] = (-1).into());
    assert!(e.contains("numStandbyReplicas"), "{e}");
    let e = run(&|c| c["subtopologies"][0]["numTasks"] = (-3).into());
    assert!(e.contains("subtopologies[0].numTasks"), "{e}");
    let e = run(&|c| c["members"][0]["activeTasks"] = serde_json::json!({"0": [99]}));
    assert!(e.contains("members[0].activeTasks: task 0_99"), "{e}");
    let e = run(&|c| c["members"][1]["id"] = c["members"][0]["id"].clone());
    assert!(e.contains("members[1].id"), "{e}");
    let e = run(&|c| c["members"][0]["procesId"] = "typo".into());
    assert!(e.contains("procesId"), "{e}");
    let e = run(&|c| c["memberMap"] = "TreeMap".into());
    assert!(e.contains("memberMap"), "{e}");
}
