//! Lessons about Kafka Connect (lesson 11) and the consumer protocol (lesson
//! 10): their names are checked against the scenario's workers, connectors,
//! tasks, groups and consumers, and failing expectations say what the world holds.

use super::*;

/// Lesson 11 (Kafka Connect): the trace of the lesson agrees with IncrementalCooperativeAssignor
/// `handleLostAssignments` (lost tasks held for the delay) and DistributedHerder `startWork` (no restart).
#[test]
fn lesson_11_holds_the_lost_tasks_for_the_delay_and_a_rebalance_does_not_restart_a_failed_task() {
    let lesson = groupscope::lesson::find("kafka-connect").expect("lesson 11");
    let report = run(lesson, Answers::Correct).unwrap();
    let at = |id: &str| report.steps.iter().find(|s| s.id == id).unwrap().reached_at;
    assert_eq!(
        at("delay-expires") - at("lost-tasks-held"),
        20_000,
        "scheduled.rebalance.max.delay.ms after the assignment arrived"
    );
    assert!(at("rebalance-does-not-restart") > at("task-fails"));
}

#[test]
fn connect_names_in_a_lesson_are_checked_against_its_workers_connectors_and_tasks() {
    let mut v = connect_lesson();
    v["steps"][0]["until"] =
        serde_json::json!({ "taskState": { "group": "connect-cluster", "task": "sink-6", "state": "RUNNING" } });
    v["steps"][0]["highlights"] = serde_json::json!(["c4", "sink-0", "sink"]);
    v["steps"][1]["until"] = serde_json::json!({ "taskState": { "group": "connect-cluster", "task": "source-0", "state": "RUNNING", "worker": "c2" } });
    v["steps"][1]["expect"] = serde_json::json!([
        { "task": { "group": "connect-cluster", "task": "sink-1", "worker": null, "state": "BROKEN" } },
        { "task": { "group": "demo", "task": "sink-1", "worker": null } },
        { "workerGeneration": { "worker": "c9", "generation": 2 } },
        { "task": { "group": "connect-cluster", "task": "sink", "worker": "c1" } },
        { "connector": { "group": "connect-cluster", "connector": "sink", "worker": "c1", "state": "RUNNING" } }
    ]);
    v["steps"][5]["actions"] = serde_json::json!([{ "type": "failTask", "group": "connect-cluster", "connector": "sink", "task": 8 },
                                                  { "type": "crashConsumer", "consumer": 5 },
                                                  { "type": "addWorker", "group": "nowhere" }]);
    v["steps"][6]["until"] =
        serde_json::json!({ "scheduledRebalance": { "group": "connect-cluster", "worker": "broker-1" } });
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (workers-join).until: task sink-6: connector sink of connect-cluster has tasks sink-0..sink-5",
        "step 1 (workers-join).highlights: 'c4' is neither a consumer (this lesson has none) nor a Connect worker (c1 of connect-cluster, c2 of connect-cluster, c3 of connect-cluster) of this lesson",
        "step 2 (worker-crashes).until: no connector 'source' in connect-cluster ([\"sink\"])",
        "step 2 (worker-crashes).expect[0]: unknown connector/task state 'BROKEN' (Connect's AbstractStatus.State: UNASSIGNED, RUNNING, PAUSED, FAILED, DESTROYED, RESTARTING, STOPPED)",
        "step 2 (worker-crashes).expect[1]: 'demo' is not a Connect cluster of this lesson ([\"connect-cluster\"])",
        "step 2 (worker-crashes).expect[2]: 'c9' is not a Connect worker of this lesson (c1 of connect-cluster",
        "step 2 (worker-crashes).expect[3]: 'sink' is not a task id (<connector>-<number>, e.g. sink-0)",
        "step 6 (task-fails).actions[0]: task sink-8: connector sink of connect-cluster has tasks sink-0..sink-5",
        "step 6 (task-fails).actions[1]: 'c5' is neither a consumer",
        "step 6 (task-fails).actions[2]: 'nowhere' is not a Connect cluster",
        "step 7 (rebalance-does-not-restart).until: 'broker-1' is not a Connect worker",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
    assert!(
        !e.contains("expect[4]") && !e.contains("'sink-0'") && !e.contains("'sink' is not a node"),
        "connectors and tasks are valid highlights and expectations:\n{e}"
    );
}

#[test]
fn workers_are_numbered_after_consumers_and_a_worker_is_not_a_consumer() {
    let mut v = connect_lesson();
    v["scenario"]["topics"] = serde_json::json!([{ "name": "orders", "partitions": 2 }]);
    v["scenario"]["groups"] =
        serde_json::json!([{ "groupId": "demo", "consumers": 2, "config": { "topics": ["orders"] } }]);
    // Workers are now c3..c5: c1 is a consumer, c6 does not exist; a worker cannot be a consumer.
    v["steps"][0]["until"] = serde_json::json!({ "taskState": { "group": "connect-cluster", "task": "sink-5", "state": "RUNNING", "worker": "c1" } });
    v["steps"][1]["until"] = serde_json::json!({ "pollTimeout": { "consumer": "c4" } });
    v["steps"][1]["expect"] = serde_json::json!([{ "workerTasks": { "worker": "c6", "tasks": [] } }, { "leader": { "group": "demo", "consumer": "c5" } }]);
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (workers-join).until: 'c1' is not a Connect worker of this lesson (c3 of connect-cluster, c4 of connect-cluster, c5 of connect-cluster)",
        "step 2 (worker-crashes).until: 'c4' is a Connect worker, not a consumer (c1..c2)",
        "step 2 (worker-crashes).expect[0]: 'c6' is not a Connect worker",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
    assert!(
        !e.contains("step 2 (worker-crashes).expect[1]"),
        "a worker may lead a group (the check is on the world):\n{e}"
    );
}

#[test]
fn a_connect_expectation_that_does_not_hold_says_where_the_task_is() {
    let mut v = connect_lesson();
    v["steps"][2]["expect"] = serde_json::json!([
        { "task": { "group": "connect-cluster", "task": "sink-1", "worker": "c1" } },
        { "task": { "group": "connect-cluster", "task": "sink-0", "worker": null } },
        { "task": { "group": "connect-cluster", "task": "sink-2", "worker": "c3", "state": "FAILED" } },
        { "workerGeneration": { "worker": "c1", "generation": 7 } },
        { "scheduledRebalance": { "worker": "c1", "at": null } }
    ]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    let at = "lesson 12 step 3 (lost-tasks-held): ";
    assert_eq!(
        report.failures,
        vec![
            format!("{at}expected task sink-1 of connect-cluster on c1, but it is unassigned"),
            format!(
                "{at}expected task sink-0 of connect-cluster unassigned (on no live worker), but it is RUNNING on c1"
            ),
            format!("{at}expected task sink-2 of connect-cluster FAILED on c3, but it is RUNNING on c3"),
            format!("{at}expected c1 at generation 7, but it is 2"),
            format!("{at}expected c1's scheduled rebalance at none ms, but it is 39200"),
        ]
    );
}

/// Lesson 10 (KIP-848): the coordinator fences the crashed member exactly
/// group.consumer.session.timeout.ms after its last heartbeat arrived
/// (GroupMetadataManager `consumerGroupFenceMember`).
#[test]
fn lesson_10_fences_the_crashed_member_one_session_timeout_after_its_last_heartbeat() {
    use groupscope::sim::trace::EventKind;
    use groupscope::sim::NodeId;
    let lesson = groupscope::lesson::find("kip-848-reconciliation").expect("lesson 11").clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    let mut fenced_at = None;
    while s.phase != Phase::Free {
        let a = s.question().map(|q| q.answer.clone());
        let r = s.play_step_through(&mut player, a).unwrap();
        assert!(r.failures.is_empty(), "{:?}", r.failures);
        if s.current().id == "crash" {
            fenced_at = Some(r.at);
        }
        s.next(&mut player);
    }
    let fenced_at = fenced_at.expect("the crash step");
    let last_heartbeat = player
        .world
        .trace
        .iter()
        .filter(|e| e.at < fenced_at)
        .filter_map(|e| match &e.kind {
            EventKind::MessageDelivered { from: NodeId::Client(2), to: NodeId::Broker(_), label, .. }
                if label.starts_with("ConsumerGroupHeartbeat") =>
            {
                Some(e.at)
            }
            _ => None,
        })
        .max()
        .expect("c2 heartbeated");
    assert_eq!(fenced_at - last_heartbeat, 6000, "group.consumer.session.timeout.ms of the lesson's broker");
    let classic_rebalances = player.world.trace.iter().filter(|e| matches!(&e.kind, EventKind::MessageSent { label, .. } if label.starts_with("JoinGroup") || label.starts_with("SyncGroup"))).count();
    assert_eq!(classic_rebalances, 0, "no JoinGroup or SyncGroup in a consumer-protocol group");
}

#[test]
fn kip_848_names_are_checked_against_the_protocol_of_the_group_and_consumer() {
    let mut v = kip848_lesson();
    v["steps"][0]["until"] = serde_json::json!({ "groupState": { "group": "demo", "state": "PreparingRebalance" } });
    v["steps"][1]["expect"] = serde_json::json!([
        { "generation": { "group": "demo", "generation": 1 } },
        { "leader": { "group": "demo", "consumer": "c1" } },
        { "coordinatorMemberState": { "consumer": "c1", "state": "UNREVOKED" } },
        { "memberState": { "consumer": "c1", "state": "COMPLETING_REBALANCE" } },
        { "groupState": { "group": "demo", "state": "Reconciling" } },
        { "memberEpoch": { "consumer": "c9", "epoch": 1 } }
    ]);
    v["steps"][2]["until"] = serde_json::json!({ "memberState": { "consumer": "c2", "state": "ACKNOWLEDGING" } });
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (first-heartbeat).until: unknown consumer group state 'PreparingRebalance' (Kafka's ConsumerGroupState for group.protocol=consumer: Empty, Assigning, Reconciling, Stable, Dead)",
        "step 2 (coordinator-assigns).expect[0]: 'demo' uses group.protocol=consumer (KIP-848): it has no generation, leader or protocol vote; use groupEpoch",
        "step 2 (coordinator-assigns).expect[1]: 'demo' uses group.protocol=consumer",
        "step 2 (coordinator-assigns).expect[2]: unknown coordinator member state 'UNREVOKED' (Kafka's modern MemberState: STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS)",
        "step 2 (coordinator-assigns).expect[3]: unknown consumer-protocol member state 'COMPLETING_REBALANCE' (the client's MemberState: UNSUBSCRIBED, JOINING, RECONCILING, ACKNOWLEDGING, STABLE, FENCED",
        "step 2 (coordinator-assigns).expect[5]: 'c9' is not a consumer of this lesson (c1..c3)",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
    assert!(
        !e.contains("expect[4]") && !e.contains("step 3"),
        "Reconciling and ACKNOWLEDGING are names of this protocol:\n{e}"
    );

    // The other way round: KIP-848 pieces on a classic group and consumer.
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["until"] = serde_json::json!({ "fenced": { "consumer": "c2" } });
    v["steps"][1]["expect"] = serde_json::json!([
        { "groupEpoch": { "group": "demo", "epoch": 2 } },
        { "targetAssignmentEpoch": { "group": "demo", "epoch": 2 } },
        { "memberEpoch": { "consumer": "c1", "epoch": null } },
        { "targetAssignment": { "consumer": "c1", "partitions": ["orders-0"] } },
        { "groupState": { "group": "demo", "state": "Assigning" } }
    ]);
    let e = load_error(&v.to_string());
    for needle in [
        "step 2 (crash).until: 'c2' is a classic consumer: member epochs, targets and fencing belong to group.protocol=consumer (KIP-848)",
        "step 2 (crash).expect[0]: 'demo' is a classic group: epochs, targets and fencing belong to a group.protocol=consumer group (KIP-848); use generation",
        "step 2 (crash).expect[1]: 'demo' is a classic group",
        "step 2 (crash).expect[2]: 'c1' is a classic consumer",
        "step 2 (crash).expect[3]: 'c1' is a classic consumer",
        "step 2 (crash).expect[4]: unknown group state 'Assigning' (Kafka's ClassicGroupState",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
}

#[test]
fn a_consumer_added_to_a_kip_848_group_is_a_consumer_protocol_consumer() {
    let mut v = kip848_part2();
    // A classic group next to the consumer group: c3 (classic) starts with the scenario,
    // the consumer added to demo by step 5 is c4.
    v["scenario"]["groups"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "groupId": "classic", "consumers": 1, "config": { "topics": ["orders"] } }));
    v["steps"][3]["expect"] = serde_json::json!([
        { "memberEpoch": { "consumer": "c4", "epoch": 3 } },
        { "memberEpoch": { "consumer": "c3", "epoch": 3 } }
    ]);
    let e = load_error(&v.to_string());
    assert!(e.contains("step 4 (revoke-first).expect[1]: 'c3' is a classic consumer"), "{e}");
    assert!(!e.contains("expect[0]"), "c4 joined demo, a consumer-protocol group:\n{e}");
}

#[test]
fn a_kip_848_expectation_that_does_not_hold_says_what_the_coordinator_holds() {
    let mut v = kip848_part2();
    v["steps"][2]["expect"] = serde_json::json!([
        { "groupEpoch": { "group": "demo", "epoch": 2 } },
        { "targetAssignmentEpoch": { "group": "demo", "epoch": 5 } },
        { "memberEpoch": { "consumer": "c3", "epoch": null } },
        { "consumerEpoch": { "consumer": "c1", "epoch": 4 } },
        { "targetAssignment": { "consumer": "c3", "partitions": ["orders-0"] } },
        { "coordinatorMemberState": { "consumer": "c3", "state": "STABLE" } },
        { "owns": { "consumer": "c1", "partitions": ["orders-0"] } },
        { "owner": { "partition": "orders-5", "consumer": "c3" } },
        { "groupState": { "group": "demo", "state": "Stable" } },
        { "memberState": { "consumer": "c3", "state": "RECONCILING" } }
    ]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    let at = "lesson 11 step 3 (third-member-joins): ";
    assert_eq!(
        report.failures,
        vec![
            format!("{at}expected group demo at group epoch 2, but it is 4"),
            format!("{at}expected group demo's target assignment at epoch 5, but it is 4"),
            format!("{at}expected c3's member at epoch none on the coordinator, but it is 4"),
            format!("{at}expected c1 to hold member epoch 4, but it is 3"),
            format!(r#"{at}expected c3's target assignment to be ["orders-0"], but it is ["orders-2", "orders-5"]"#),
            format!("{at}expected c3's member to be STABLE on the coordinator, but it is UNRELEASED_PARTITIONS"),
            format!(r#"{at}expected c1 to own ["orders-0"], but it is ["orders-0", "orders-1", "orders-2"]"#),
            format!(r#"{at}expected orders-5 owned by c3, but it is ["c2"]"#),
            format!("{at}expected group demo to be Stable, but it is Reconciling"),
            format!("{at}expected c3 to be RECONCILING, but it is JOINING"),
        ]
    );
}
