//! Classic Kafka Streams rebalancing's `HighAvailabilityTaskAssignor`
//! (`assign::streams::high_availability`) on cases of Kafka's own
//! `HighAvailabilityTaskAssignorTest` (Kafka 4.4, the rack-unaware
//! parameter), with the same inputs and the same expectations.

use groupscope::assign::streams::high_availability::{assign, ClientState, HaConfigs};
use groupscope::assign::streams::TaskId;
use std::collections::{BTreeMap, BTreeSet};

fn t(s: &str, p: i32) -> TaskId {
    TaskId::new(s, p)
}

fn set(ts: &[TaskId]) -> BTreeSet<TaskId> {
    ts.iter().cloned().collect()
}

/// Kafka's `new ClientState(prevActive, prevStandby, taskLags, tags, capacity, pid)`:
/// only the lags and the capacity matter to `assign`.
fn client(lags: &[(TaskId, i64)], capacity: u32) -> ClientState {
    ClientState::new(capacity, lags.iter().cloned().collect())
}

fn configs(lag: i64, warmups: i32, standbys: i32) -> HaConfigs {
    HaConfigs { acceptable_recovery_lag: lag, max_warmup_replicas: warmups, num_standby_replicas: standbys }
}

fn clients(cs: Vec<ClientState>) -> BTreeMap<String, ClientState> {
    cs.into_iter().enumerate().map(|(i, c)| (format!("pid-{}", i + 1), c)).collect()
}

/// `shouldBeStickyForActiveAndStandbyTasksWhileWarmingUp`: nine stateful
/// tasks, client 1 caught up on all (lag 0), client 2 within the acceptable
/// lag of 11 (lag 10), client 3 without state: clients 1 and 2 hold nine
/// tasks each (actives and standbys), client 3 two (`max.warmup.replicas`
/// 2), and a probing rebalance is needed.
#[test]
fn sticky_for_active_and_standby_tasks_while_warming_up() {
    let all: Vec<TaskId> = (0..3).flat_map(|s| (0..3).map(move |p| t(&s.to_string(), p))).collect();
    let lags = |l: i64| all.iter().map(|x| (x.clone(), l)).collect::<Vec<_>>();
    let mut cs = clients(vec![client(&lags(0), 1), client(&lags(10), 1), client(&lags(i64::MAX), 1)]);
    let out = assign(&mut cs, &set(&all), &set(&all), configs(11, 2, 1));
    let count = |id: &str| cs[id].active.len() + cs[id].standby.len();
    assert_eq!((count("pid-1"), count("pid-2"), count("pid-3")), (9, 9, 2));
    assert!(out.probing_rebalance_needed);
}

/// `shouldComputeNewAssignmentIfActiveTasksWasNotOnCaughtUpClient`: 0_0 is
/// stateful, client 2 is caught up on it (lag 0) and client 1 is not (its
/// lag 500 is above 100): 0_0 goes to client 2, the stateless 0_1 to client 1, and a
/// probing rebalance follows (client 1 warms 0_0 up).
#[test]
fn active_task_moves_to_the_caught_up_client() {
    let mut cs = clients(vec![client(&[(t("0", 0), 500)], 1), client(&[(t("0", 0), 0)], 1)]);
    let out = assign(&mut cs, &set(&[t("0", 0), t("0", 1)]), &set(&[t("0", 0)]), configs(100, 2, 0));
    assert_eq!(cs["pid-1"].active, set(&[t("0", 1)]));
    assert_eq!(cs["pid-2"].active, set(&[t("0", 0)]));
    assert!(out.probing_rebalance_needed);
}

/// `shouldAssignToMostCaughtUpIfActiveTasksWasNotOnCaughtUpClient`: nobody
/// is within 100 of 0_0's changelog end; the most caught-up client (3, lag
/// 500) runs it, client 2 (lag 1000) holds the standby and client 1 (no
/// state) a warm-up.
#[test]
fn most_caught_up_client_runs_the_task_when_none_is_caught_up() {
    let mut cs = clients(vec![
        client(&[(t("0", 0), i64::MAX)], 1),
        client(&[(t("0", 0), 1000)], 1),
        client(&[(t("0", 0), 500)], 1),
    ]);
    let out = assign(&mut cs, &set(&[t("0", 0)]), &set(&[t("0", 0)]), configs(100, 2, 1));
    assert!(cs["pid-1"].active.is_empty() && cs["pid-2"].active.is_empty());
    assert_eq!(cs["pid-3"].active, set(&[t("0", 0)]));
    assert_eq!(cs["pid-1"].standby, set(&[t("0", 0)]), "warm-up");
    assert_eq!(cs["pid-2"].standby, set(&[t("0", 0)]), "standby");
    assert!(cs["pid-3"].standby.is_empty());
    assert!(out.probing_rebalance_needed);
}

/// `shouldNotAssignMoreThanMaxWarmupReplicas`: client 1 is caught up on
/// four tasks, client 2 has nothing; with `max.warmup.replicas` 1 client 1
/// keeps every active task and client 2 warms up exactly one.
#[test]
fn no_more_warmups_than_max_warmup_replicas() {
    let all: Vec<TaskId> = (0..4).map(|p| t("0", p)).collect();
    let c1 = client(&all.iter().map(|x| (x.clone(), 0)).collect::<Vec<_>>(), 1);
    let c2 = client(&all.iter().map(|x| (x.clone(), i64::MAX)).collect::<Vec<_>>(), 1);
    let mut cs = clients(vec![c1, c2]);
    let out = assign(&mut cs, &set(&all), &set(&all), configs(100, 1, 0));
    assert_eq!(cs["pid-1"].active, set(&all));
    assert!(cs["pid-1"].standby.is_empty());
    assert!(cs["pid-2"].active.is_empty());
    assert_eq!(cs["pid-2"].standby.len(), 1);
    assert!(out.probing_rebalance_needed);
}

/// `shouldAssignActiveTasksToNotCaughtUpClientIfNoneExist`: one client
/// with no state runs both tasks, gets no standby (it cannot hold a copy of
/// its own active task) and no probing rebalance is needed.
#[test]
fn a_client_without_state_runs_the_tasks_if_nobody_is_caught_up() {
    let all = [t("0", 0), t("0", 1)];
    let none = all.iter().map(|x| (x.clone(), i64::MAX)).collect::<Vec<_>>();
    let mut cs = clients(vec![client(&none, 1)]);
    let out = assign(&mut cs, &set(&all), &set(&all), configs(100, 2, 1));
    assert_eq!(cs["pid-1"].active, set(&all));
    assert!(cs["pid-1"].standby.is_empty());
    assert!(!out.probing_rebalance_needed);
}

/// `assignActiveStatefulTasks`' round robin over the clients in id order:
/// with no state anywhere nothing moves and no probing rebalance follows.
#[test]
fn no_state_anywhere_means_no_warmups_and_no_probing() {
    let all: Vec<TaskId> = (0..4).map(|p| t("0", p)).collect();
    let none = all.iter().map(|x| (x.clone(), i64::MAX)).collect::<Vec<_>>();
    let mut cs = clients(vec![client(&none, 1), client(&none, 1)]);
    let out = assign(&mut cs, &set(&all), &set(&all), configs(100, 2, 0));
    assert_eq!(cs["pid-1"].active, set(&[t("0", 0), t("0", 2)]));
    assert_eq!(cs["pid-2"].active, set(&[t("0", 1), t("0", 3)]));
    assert!(!out.probing_rebalance_needed && out.warmups.is_empty());
}
