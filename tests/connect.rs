//! Kafka Connect distributed-herder groups (DistributedHerder, WorkerCoordinator, on the classic protocol of
//! AbstractCoordinator). Every test checks all invariants after every step (TestWorld::sleep).

use crate::common;

use common::connect::*;
use common::TestWorld;
use groupscope::connect::ConnectProtocolCompatibility::{self, *};
use groupscope::sim::connect::worker::State;
use groupscope::sim::note::Note;
use groupscope::sim::trigger::Trigger;
use groupscope::sim::Fault;
use std::collections::BTreeMap;

/// Which worker runs each task (tasks running nowhere are absent).
fn placement(t: &TestWorld) -> BTreeMap<String, u32> {
    let mut m = BTreeMap::new();
    for w in t.world.clients.workers().filter(|w| w.alive) {
        for id in w.tasks.keys() {
            assert!(m.insert(id.to_string(), w.idx).is_none(), "{id} runs twice");
        }
    }
    m
}

fn all_tasks(n: u32) -> Vec<String> {
    (0..n).map(|i| format!("sink-{i}")).collect()
}

fn protocol(t: &TestWorld) -> Option<String> {
    t.world.group(GROUP).and_then(|(_, g)| g.protocol_name.clone())
}

fn fault(t: &mut TestWorld, f: Fault) {
    t.inject(f);
}

fn fail(t: &mut TestWorld, task: i32) {
    fault(t, Fault::FailTask { group: GROUP.into(), connector: "sink".into(), task });
}

/// WorkerCoordinator: workers form a classic group of protocol type "connect"; with the
/// default connect.protocol (sessioned) every task and the connector run exactly once.
#[test]
fn workers_form_a_connect_group_and_every_task_runs_on_exactly_one_worker() {
    let mut t = TestWorld::new(cluster(3, 6, |_| {}));
    t.sleep(15_000);
    let (_, g) = t.world.group(GROUP).unwrap();
    assert_eq!(g.protocol_type.as_deref(), Some("connect"));
    assert_eq!(protocol(&t).as_deref(), Some("sessioned"));
    assert_eq!(placement(&t).keys().cloned().collect::<Vec<_>>(), {
        let mut v = all_tasks(6);
        v.sort();
        v
    });
    let connector_runs = t.world.clients.workers().filter(|w| w.connectors.contains_key("sink")).count();
    assert_eq!(connector_runs, 1);
    let per_worker: Vec<usize> = (1..=3).map(|i| worker(&t.world, i).tasks.len()).collect();
    assert_eq!(per_worker, [2, 2, 2], "least-loaded round robin balances 6 tasks over 3 workers");
}

fn vote(protocols: &[ConnectProtocolCompatibility]) -> Option<String> {
    let mut s = cluster(protocols.len() as u32, 2, |_| {});
    s.connect_clusters[0].worker_protocols = protocols.to_vec();
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    protocol(&t)
}

/// IncrementalCooperativeConnectProtocol `metadataRequest` and ClassicGroup `selectProtocol`: each worker
/// advertises its protocols best first; the vote picks the best one every worker supports, and one eager worker
/// downgrades the group.
#[test]
fn the_vote_picks_the_best_protocol_every_worker_supports() {
    assert_eq!(vote(&[SESSIONED, SESSIONED]).as_deref(), Some("sessioned"));
    assert_eq!(vote(&[SESSIONED, COMPATIBLE, SESSIONED]).as_deref(), Some("compatible"));
    assert_eq!(vote(&[SESSIONED, EAGER, COMPATIBLE]).as_deref(), Some("default"));
}

/// DistributedHerder `startWork`: under eager every rebalance stops everything and starts it again.
#[test]
fn eager_stops_and_restarts_every_task_on_every_rebalance() {
    let mut t = TestWorld::new(cluster(2, 4, with_protocol(EAGER)));
    t.sleep(15_000);
    assert_eq!(protocol(&t).as_deref(), Some("default"));
    for id in all_tasks(4) {
        assert_eq!(starts(&t.world, &id), 1, "{id}");
    }
    fault(&mut t, Fault::AddWorker { group: GROUP.into() });
    t.sleep(15_000);
    for id in all_tasks(4) {
        assert_eq!(starts(&t.world, &id), 2, "{id} restarted by the rebalance, even if it stays put");
    }
}

/// IncrementalCooperativeAssignor `performTaskAssignment`: incremental cooperative revokes only what moves;
/// the worker that lost a task rejoins for a second round in which the task moves.
#[test]
fn incremental_cooperative_revokes_only_what_moves_and_needs_a_second_rejoin() {
    let mut t = TestWorld::new(cluster(2, 4, with_protocol(COMPATIBLE)));
    t.sleep(15_000);
    let before = placement(&t);
    let gen_before = t.group_state(GROUP).1;
    fault(&mut t, Fault::AddWorker { group: GROUP.into() });
    t.sleep(15_000);
    let after = placement(&t);
    let moved: Vec<&String> = after.iter().filter(|(id, w)| before[*id] != **w).map(|(id, _)| id).collect();
    assert_eq!(moved.len(), 1, "4 tasks over 3 workers: one moves to the new worker ({after:?})");
    assert_eq!(after[moved[0]], 3);
    for id in all_tasks(4) {
        let expected = if id == *moved[0] { 2 } else { 1 };
        assert_eq!(starts(&t.world, &id), expected, "{id}: only the moved task is stopped and started again");
    }
    assert!(t.any_note(|n| matches!(n, Note::StoppedRevoked)));
    assert_eq!(t.group_state(GROUP).1, gen_before + 2, "the join and the follow-up rebalance");
}

/// WorkerCoordinator `onJoinPrepare` (revokes only under eager) and `onJoinComplete` (eager revokes nothing), then
/// DistributedHerder `startWork` (starts what is new, stops nothing): when a worker that speaks only eager joins a
/// cooperative group, the group downgrades to "default", and what the cooperative workers ran and their eager
/// assignment no longer names keeps running on them. The worker says so. When the eager worker leaves and the group
/// returns to cooperative, those instances still run where they were: no member's reported assignment names them,
/// so nothing revokes them, while the assignor hands the same tasks out again (Kafka soak seed 335850 of issue 39).
#[test]
fn a_downgrade_to_eager_leaves_cooperative_workers_running_what_they_are_no_longer_assigned() {
    let mut s = cluster(3, 4, |c| c.scheduled_rebalance_max_delay_ms = 0);
    s.connect_clusters[0].worker_protocols = vec![SESSIONED, SESSIONED, EAGER];
    let mut t = TestWorld::new(s);
    fault(&mut t, Fault::CrashConsumer { consumer: 3 });
    t.sleep(15_000);
    assert_eq!(protocol(&t).as_deref(), Some("sessioned"));
    let before = placement(&t);
    assert_eq!(before.len(), 4);

    fault(&mut t, Fault::RestartConsumer { consumer: 3 });
    t.sleep(15_000);
    assert_eq!(protocol(&t).as_deref(), Some("default"), "one eager worker downgrades the group");
    let eager_owned = running(&t.world, 3);
    assert!(!eager_owned.is_empty(), "the eager assignment gives the returning worker tasks");
    let mut stranded_seen = 0;
    for id in &eager_owned {
        let old = before[id];
        let w = worker(&t.world, old);
        assert!(running(&t.world, old).contains(id), "{id} still runs on c{old}, which never revoked it");
        assert!(w.stranded.tasks.iter().any(|s| s.to_string() == *id), "c{old} records {id} as stranded");
        stranded_seen += 1;
    }
    assert!(stranded_seen > 0);
    assert!(t.any_note(|n| matches!(n, Note::KeptRunningAfterDowngrade { instances } if !instances.is_empty())));

    fault(&mut t, Fault::CrashConsumer { consumer: 3 });
    t.sleep(30_000);
    assert_eq!(protocol(&t).as_deref(), Some("sessioned"), "without the eager worker the group is cooperative again");
    for id in &eager_owned {
        let old = before[id];
        assert!(running(&t.world, old).contains(id), "{id} still runs on c{old}: nothing revoked it");
    }
    let assigned: usize = (1..=2)
        .map(|i| {
            let w = worker(&t.world, i);
            w.tasks.keys().filter(|id| !w.stranded.tasks.contains(id)).count()
        })
        .sum();
    assert_eq!(assigned, 4, "every task is assigned once among the live workers, beside the stranded copies");
    let twice: Vec<&String> =
        eager_owned.iter().filter(|id| (1..=2).filter(|i| running(&t.world, *i).contains(id)).count() == 2).collect();
    assert!(!twice.is_empty(), "a stranded task also runs where the cooperative assignor put it: {eager_owned:?}");

    // DistributedHerder `restartTask` restarts a task only where `assignment.tasks()` holds it: the
    // stranded copy is not restarted and stays stranded (soak seeds 408865, 452831 of issue 39).
    let id = twice[0].clone();
    let task: i32 = id.rsplit('-').next().unwrap().parse().unwrap();
    let stranded_on =
        (1..=2).find(|i| worker(&t.world, *i).stranded.tasks.iter().any(|s| s.to_string() == id)).unwrap();
    let restarts_before = task_changes(&t.world).len();
    fault(&mut t, Fault::RestartTask { group: GROUP.into(), connector: "sink".into(), task });
    t.sleep(100);
    let restarted: Vec<String> =
        task_changes(&t.world)[restarts_before..].iter().filter(|c| c.1 == id).map(|c| c.0.clone()).collect();
    assert!(!restarted.is_empty() && !restarted.contains(&format!("c{stranded_on}")), "{restarted:?}");
    assert!(worker(&t.world, stranded_on).stranded.tasks.iter().any(|s| s.to_string() == id), "still stranded");
}

fn departed(restart: bool) -> (TestWorld, BTreeMap<String, u32>) {
    let mut t = TestWorld::new(cluster(3, 6, |c| c.scheduled_rebalance_max_delay_ms = 30_000));
    t.sleep(15_000);
    let before = placement(&t);
    fault(&mut t, Fault::CrashConsumer { consumer: 2 });
    // Session timeout (10 s) then a rebalance that sees w2's tasks lost.
    t.sleep(15_000);
    let lost: Vec<String> = before.iter().filter(|(_, w)| **w == 2).map(|(id, _)| id.clone()).collect();
    assert!(!lost.is_empty());
    for id in &lost {
        assert!(!placement(&t).contains_key(id), "{id} held unassigned during scheduled.rebalance.max.delay.ms");
    }
    if restart {
        fault(&mut t, Fault::RestartConsumer { consumer: 2 });
    }
    t.sleep(10_000);
    for id in &lost {
        assert!(!placement(&t).contains_key(id), "{id} still held: the delay has not elapsed");
    }
    t.sleep(30_000);
    (t, before)
}

/// IncrementalCooperativeAssignor `handleLostAssignments`: a departed worker's tasks stay unassigned for
/// scheduled.rebalance.max.delay.ms, then go to the worker that came back.
#[test]
fn a_departed_workers_tasks_wait_for_the_delay_then_go_back_to_the_returning_worker() {
    let (t, before) = departed(true);
    let after = placement(&t);
    for (id, w) in &before {
        assert_eq!(after.get(id), Some(w), "{id} is back where it was");
    }
}

/// IncrementalCooperativeAssignor `handleLostAssignments`: if the worker does not return, its tasks are spread
/// over the others.
#[test]
fn a_departed_workers_tasks_are_spread_over_the_others_when_it_does_not_return() {
    let (t, _) = departed(false);
    let after = placement(&t);
    assert_eq!(after.len(), 6);
    let counts: Vec<usize> = [1, 3].iter().map(|w| after.values().filter(|x| *x == w).count()).collect();
    assert_eq!(counts, [3, 3]);
}

/// DistributedHerder `startWork` and `restartTask`: a FAILED task stays on its worker and stays FAILED across a
/// cooperative rebalance; a REST restart of the task runs it again.
#[test]
fn a_failed_task_stays_failed_across_a_cooperative_rebalance_and_runs_after_restart_task() {
    let mut t = TestWorld::new(cluster(2, 4, |_| {}));
    t.sleep(15_000);
    let owner = placement(&t)["sink-0"];
    fail(&mut t, 0);
    assert!(tasks(&t.world, owner).contains(&"sink-0 FAILED".to_string()));
    fault(&mut t, Fault::AddWorker { group: GROUP.into() });
    t.sleep(15_000);
    assert!(t.group_state(GROUP).1 >= 2);
    assert_eq!(
        worker(&t.world, owner).tasks.get(&groupscope::connect::ConnectorTaskId::new("sink", 0)),
        Some(&State::FAILED)
    );
    fault(&mut t, Fault::RestartTask { group: GROUP.into(), connector: "sink".into(), task: 0 });
    assert!(running(&t.world, owner).contains(&"sink-0".to_string()));
}

/// DistributedHerder `startWork`: under eager, the rebalance itself restarts a failed task.
#[test]
fn under_eager_a_rebalance_restarts_a_failed_task() {
    let mut t = TestWorld::new(cluster(2, 4, with_protocol(EAGER)));
    t.sleep(15_000);
    fail(&mut t, 0);
    fault(&mut t, Fault::AddWorker { group: GROUP.into() });
    t.sleep(15_000);
    let owner = placement(&t)["sink-0"];
    assert!(running(&t.world, owner).contains(&"sink-0".to_string()));
}

/// DistributedHerder `restartConnectorAndTasks` (KIP-745): restart with includeTasks and onlyFailed restarts
/// the failed tasks only, and not the running connector.
#[test]
fn restart_connector_with_only_failed_restarts_only_the_failed_tasks() {
    let mut t = TestWorld::new(cluster(2, 4, |_| {}));
    t.sleep(15_000);
    fail(&mut t, 0);
    fail(&mut t, 3);
    let changes = task_changes(&t.world).len();
    fault(
        &mut t,
        Fault::RestartConnector {
            group: GROUP.into(),
            connector: "sink".into(),
            include_tasks: true,
            only_failed: true,
        },
    );
    let restarted: Vec<String> =
        task_changes(&t.world)[changes..].iter().filter(|c| c.3 == "RESTARTING").map(|c| c.1.clone()).collect();
    assert_eq!(restarted, ["sink-0", "sink-3"]);
    assert_eq!(placement(&t).len(), 4);
    assert!(t.world.clients.workers().all(|w| w.tasks.values().all(|s| *s == State::RUNNING)));
    assert!(!t.world.trace.iter().any(|e| matches!(&e.kind,
        groupscope::sim::trace::EventKind::StateChanged { machine: groupscope::sim::trace::Machine::Connector { .. }, to, .. } if to == "RESTARTING")));
}

/// Without includeTasks and onlyFailed only the connector instance restarts,
/// through the old path (ConnectorsResource.restartConnector ->
/// DistributedHerder.restartConnector), which writes no RESTARTING status.
#[test]
fn restart_connector_without_include_tasks_restarts_only_the_connector_without_a_restarting_status() {
    let mut t = TestWorld::new(cluster(2, 4, |_| {}));
    t.sleep(15_000);
    fail(&mut t, 1);
    let changes = task_changes(&t.world).len();
    fault(
        &mut t,
        Fault::RestartConnector {
            group: GROUP.into(),
            connector: "sink".into(),
            include_tasks: false,
            only_failed: false,
        },
    );
    assert_eq!(task_changes(&t.world).len(), changes, "no task restarted");
    let owner = placement(&t)["sink-1"];
    assert!(tasks(&t.world, owner).contains(&"sink-1 FAILED".to_string()));
    let connector: Vec<(String, String)> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            groupscope::sim::trace::EventKind::StateChanged {
                machine: groupscope::sim::trace::Machine::Connector { name },
                from,
                to,
                trigger,
                ..
            } if name == "sink"
                && matches!(trigger, Trigger::RestartConnector { .. } | Trigger::RestartTask { .. }) =>
            {
                Some((from.to_string(), to.to_string()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        connector,
        [("RUNNING".to_string(), "UNASSIGNED".to_string()), ("UNASSIGNED".to_string(), "RUNNING".to_string())]
    );
}

/// DistributedHerder.restartTask stops and starts the task (WorkerTask.onShutdown
/// writes UNASSIGNED for a running task, nothing for a failed one): no RESTARTING.
#[test]
fn a_single_task_restart_writes_no_restarting_status() {
    let mut t = TestWorld::new(cluster(2, 4, |_| {}));
    t.sleep(15_000);
    fail(&mut t, 0);
    let changes = task_changes(&t.world).len();
    fault(&mut t, Fault::RestartTask { group: GROUP.into(), connector: "sink".into(), task: 0 });
    fault(&mut t, Fault::RestartTask { group: GROUP.into(), connector: "sink".into(), task: 1 });
    let after: Vec<(String, String, String)> =
        task_changes(&t.world)[changes..].iter().map(|c| (c.1.clone(), c.2.clone(), c.3.clone())).collect();
    let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        after,
        [s("sink-0", "FAILED", "RUNNING"), s("sink-1", "RUNNING", "UNASSIGNED"), s("sink-1", "UNASSIGNED", "RUNNING")]
    );
}

/// WorkerTask.run: a task that threw ends in onFailure (FAILED) and writes no
/// UNASSIGNED when an eager rebalance stops it.
#[test]
fn an_eager_revoke_does_not_overwrite_a_failed_status() {
    let mut t = TestWorld::new(cluster(2, 4, with_protocol(EAGER)));
    t.sleep(15_000);
    fail(&mut t, 0);
    let changes = task_changes(&t.world).len();
    fault(&mut t, Fault::AddWorker { group: GROUP.into() });
    t.sleep(15_000);
    let sink0: Vec<(String, String)> = task_changes(&t.world)[changes..]
        .iter()
        .filter(|c| c.1 == "sink-0")
        .map(|c| (c.2.clone(), c.3.clone()))
        .collect();
    assert!(!sink0.contains(&("FAILED".to_string(), "UNASSIGNED".to_string())), "{sink0:?}");
    assert!(sink0.last().is_some_and(|(_, to)| to == "RUNNING"), "the eager rebalance starts it again: {sink0:?}");
}

/// `AbstractCoordinator.JoinGroupResponseHandler.handle`: a JoinGroup answer that
/// finds the worker no longer PREPARING_REBALANCE (it left meanwhile) raises
/// `UnjoinedGroupException`, a `RetriableException`, so `joinGroupIfNeeded`
/// sleeps `retry.backoff.ms` before the next JoinGroup, as `WorkerCoordinator`
/// inherits it; one that finds the coordinator unknown cannot send its SyncGroup
/// (`coordinatorNotAvailable`, retriable) and backs off too instead of being dropped.
#[test]
fn join_group_response_handler_backs_off_after_an_answer_the_worker_can_no_longer_use() {
    use groupscope::connect::ConfigSnapshot;
    use groupscope::sim::client::abstract_coordinator::{InFlight, MemberState};
    use groupscope::sim::cluster::Cluster;
    use groupscope::sim::connect::worker::ConnectWorker;
    use groupscope::sim::ctx::Ctx;
    use groupscope::sim::message::{ApiKey, Body, JoinGroupResponse, Response};
    use groupscope::sim::out::{ClientTimer, Out, Retry, TimerOp};
    use groupscope::sim::scenario::config::BrokerConfig;
    use groupscope::sim::scenario::connect_config::WorkerConfig;
    use groupscope::sim::{Errors, NodeId};
    use rand::SeedableRng;

    let answer = || {
        Response::JoinGroup(JoinGroupResponse {
            error: Errors::NONE,
            generation_id: 4,
            protocol_name: Some("sessioned".into()),
            leader: "other".into(),
            skip_assignment: false,
            member_id: "connect-1-member".into(),
            members: Vec::new(),
        })
    };
    let join = InFlight { broker: 0, api: ApiKey::JoinGroup, generation: -1, for_join_prepare: false };
    let mut cluster = Cluster::new(3, 50, 3);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let broker_config = BrokerConfig::default();
    let now = 10_000;
    let mut ctx =
        Ctx { now, me: NodeId::Client(1), rng: &mut rng, cluster: &mut cluster, broker_config: &broker_config };
    let backoff = WorkerConfig::default().retry_backoff_ms;
    let backs_off = |out: &Out| {
        out.timers.contains(&TimerOp::Set(ClientTimer::Backoff(Retry::JoinGroup).into(), now + backoff))
            && !out
                .sends
                .iter()
                .any(|(_, b)| matches!(b, Body::Request { request, .. } if request.api_key() == ApiKey::JoinGroup))
    };

    // The worker left (UNJOINED) while its JoinGroup was in flight.
    let mut w = ConnectWorker::new(1, "connect-cluster", WorkerConfig::default(), ConfigSnapshot::default());
    w.membership.coordinator = Some(0);
    w.membership.state = MemberState::UNJOINED;
    w.membership.in_flight.insert(7, join.clone());
    let mut out = Out::default();
    w.handle_response(&mut ctx, 7, answer(), &mut out);
    assert!(backs_off(&out), "UnjoinedGroupException sleeps retry.backoff.ms: {out:?}");
    assert_eq!((w.membership.state, w.membership.generation), (MemberState::UNJOINED, -1));

    // The coordinator was marked unknown while the JoinGroup was in flight.
    let mut w = ConnectWorker::new(1, "connect-cluster", WorkerConfig::default(), ConfigSnapshot::default());
    w.membership.state = MemberState::PREPARING_REBALANCE;
    w.membership.in_flight.insert(8, join);
    let mut out = Out::default();
    w.handle_response(&mut ctx, 8, answer(), &mut out);
    assert!(backs_off(&out), "no SyncGroup without a coordinator: retry.backoff.ms: {out:?}");
    assert!(w.membership.rejoin_needed);
}
