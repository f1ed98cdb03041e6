//! The incremental cooperative assignor against the behaviours of Kafka's `IncrementalCooperativeAssignorTest`.

use super::*;

const MAX_DELAY: Millis = 300_000;

fn config(tasks: u32) -> ConfigSnapshot {
    ConfigSnapshot { offset: 1, connectors: [("sink".to_string(), tasks)].into_iter().collect() }
}

/// `sink` is a connector, `sink-3` a task.
fn load(worker: &str, items: &[&str]) -> WorkerLoad {
    let mut l = ConnectorsAndTasks::default();
    for i in items {
        match i.rsplit_once('-') {
            Some((c, n)) if n.parse::<i32>().is_ok() => l.tasks.push(ConnectorTaskId::new(c, n.parse().unwrap())),
            _ => l.connectors.push(i.to_string()),
        }
    }
    WorkerLoad { worker: worker.to_string(), load: l }
}

fn shown(a: &BTreeMap<String, ConnectorsAndTasks>, worker: &str) -> Vec<String> {
    a.get(worker).map_or(Vec::new(), |l| {
        super::super::protocol::join_items(&l.connectors, &l.tasks)
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    })
}

/// A leader that assigned generation `gen - 1` runs the round of generation `gen`.
fn round(
    a: &mut IncrementalCooperativeAssignor,
    now: Millis,
    gen: i32,
    tasks: u32,
    members: &[WorkerLoad],
) -> ClusterAssignment {
    a.perform_task_assignment(now, &config(tasks), gen - 1, gen, members)
}

#[test]
fn a_fresh_cluster_gets_every_connector_and_task_spread_over_the_least_loaded_workers() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    let r = round(&mut a, 0, 1, 6, &[load("w1", &[]), load("w2", &[]), load("w3", &[])]);
    assert_eq!(shown(&r.newly_assigned, "w1"), ["sink", "sink-0", "sink-3"]);
    assert_eq!(shown(&r.newly_assigned, "w2"), ["sink-1", "sink-4"]);
    assert_eq!(shown(&r.newly_assigned, "w3"), ["sink-2", "sink-5"]);
    assert!(r.newly_revoked.values().all(|x| x.is_empty()));
    assert_eq!(a.delay, 0);
}

/// IncrementalCooperativeAssignor `handleLostAssignments`: a departed worker's items stay unassigned for
/// scheduled.rebalance.max.delay.ms; rebalances inside the delay recompute the remaining time; at expiry they go to the
/// worker that came back empty.
#[test]
fn lost_tasks_wait_for_the_delay_then_go_to_the_worker_that_came_back() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    round(&mut a, 0, 1, 4, &[load("w1", &[]), load("w2", &[])]);
    // w2 (sink-1, sink-3) is gone at generation 2.
    let r = round(&mut a, 1_000, 2, 4, &[load("w1", &["sink", "sink-0", "sink-2"])]);
    assert!(r.newly_assigned.values().all(|x| x.is_empty()), "lost tasks are held back");
    assert_eq!(a.delay, MAX_DELAY);
    // It returns with a new member id and nothing assigned, 60 s later.
    let r = round(&mut a, 61_000, 3, 4, &[load("w1", &["sink", "sink-0", "sink-2"]), load("w2b", &[])]);
    assert!(r.newly_assigned.values().all(|x| x.is_empty()));
    assert_eq!(a.delay, 240_000, "the delay is what remains of the first one");
    // The delay expires: everything lost goes to the returning worker.
    let r = round(&mut a, 301_000, 4, 4, &[load("w1", &["sink", "sink-0", "sink-2"]), load("w2b", &[])]);
    assert_eq!(shown(&r.newly_assigned, "w2b"), ["sink-1", "sink-3"]);
    assert!(r.newly_assigned["w1"].is_empty());
    assert_eq!(a.delay, 0);
}

/// `handleLostAssignments`: with no candidate worker at expiry, lost items are treated as new
/// and spread over the least-loaded workers.
#[test]
fn lost_tasks_of_a_worker_that_never_returns_are_spread_over_the_others() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    round(&mut a, 0, 1, 6, &[load("w1", &[]), load("w2", &[]), load("w3", &[])]);
    let stay = [load("w1", &["sink", "sink-0", "sink-3"]), load("w2", &["sink-1", "sink-4"])];
    let r = round(&mut a, 1_000, 2, 6, &stay);
    assert!(r.newly_assigned.values().all(|x| x.is_empty()));
    let r = round(&mut a, 301_000, 3, 6, &stay);
    assert_eq!(shown(&r.newly_assigned, "w1"), ["sink-2"]);
    assert_eq!(shown(&r.newly_assigned, "w2"), ["sink-5"]);
}

/// `handleLostAssignments`: with scheduled.rebalance.max.delay.ms = 0 lost items are reassigned at once.
#[test]
fn with_no_max_delay_lost_tasks_are_reassigned_immediately() {
    let mut a = IncrementalCooperativeAssignor::new(0);
    round(&mut a, 0, 1, 4, &[load("w1", &[]), load("w2", &[])]);
    let r = round(&mut a, 1_000, 2, 4, &[load("w1", &["sink", "sink-0", "sink-2"])]);
    assert_eq!(shown(&r.newly_assigned, "w1"), ["sink-1", "sink-3"]);
    assert_eq!(a.delay, 0);
}

/// `handleLostAssignments`: if no member departed (a failed sync lost the items) they are reassigned at once.
#[test]
fn items_missing_without_a_departed_worker_are_reassigned_immediately() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    round(&mut a, 0, 1, 4, &[load("w1", &[]), load("w2", &[])]);
    // w2 missed its assignment and reports nothing, but it is still a member.
    let r = round(&mut a, 1_000, 2, 4, &[load("w1", &["sink", "sink-0", "sink-2"]), load("w2", &[])]);
    assert_eq!(shown(&r.newly_assigned, "w2"), ["sink-1", "sink-3"]);
    assert_eq!(a.delay, 0);
}

/// `performLoadBalancingRevocations`: a new worker triggers load-balancing revocations down to ⌊total/workers⌋
/// (total mod workers of them keep one more); the revoked task moves only in the
/// follow-up round, after its worker has stopped it and rejoined.
#[test]
fn a_joining_worker_gets_work_through_a_revocation_and_a_second_round() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    round(&mut a, 0, 1, 4, &[load("w1", &[]), load("w2", &[])]);
    let r = round(
        &mut a,
        1_000,
        2,
        4,
        &[load("w1", &["sink", "sink-0", "sink-2"]), load("w2", &["sink-1", "sink-3"]), load("w3", &[])],
    );
    assert_eq!(shown(&r.newly_revoked, "w2"), ["sink-1"]);
    assert!(r.newly_revoked["w1"].is_empty(), "w1 may keep the one extra task (4 mod 3 = 1)");
    assert!(r.newly_assigned.values().all(|x| x.is_empty()), "nothing moves in the revoking round");
    let r = round(
        &mut a,
        1_500,
        3,
        4,
        &[load("w1", &["sink", "sink-0", "sink-2"]), load("w2", &["sink-3"]), load("w3", &[])],
    );
    assert_eq!(shown(&r.newly_assigned, "w3"), ["sink-1"]);
    assert!(r.newly_revoked.values().all(|x| x.is_empty()));
}

/// `performTaskAssignment`: an item running on two workers is revoked from both.
#[test]
fn a_task_running_on_two_workers_is_revoked_from_both() {
    let mut a = IncrementalCooperativeAssignor::new(MAX_DELAY);
    round(&mut a, 0, 1, 2, &[load("w1", &[]), load("w2", &[])]);
    let r = round(&mut a, 1_000, 2, 2, &[load("w1", &["sink", "sink-0", "sink-1"]), load("w2", &["sink-1"])]);
    assert!(shown(&r.newly_revoked, "w1").contains(&"sink-1".to_string()));
    assert!(shown(&r.newly_revoked, "w2").contains(&"sink-1".to_string()));
}

/// `performTaskAssignment`: consecutive revoking rounds back off exponentially (1 ms × 40^n, capped).
#[test]
fn consecutive_revoking_rounds_back_off_from_1_ms_times_40_up_to_the_max_delay() {
    let delays: Vec<Millis> = (1..=4).map(|n| consecutive_revoking_backoff(MAX_DELAY, n)).collect();
    assert_eq!(delays, [40, 1_600, 64_000, MAX_DELAY]);
    assert_eq!(consecutive_revoking_backoff(0, 3), 0);
}
