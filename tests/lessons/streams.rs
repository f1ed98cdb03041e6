//! Lessons about Kafka Streams applications (KIP-1071 streams groups): the
//! validator knows their threads, tasks and group states, and the
//! expectations about tasks report what the threads hold.

use super::*;

fn standbys_lesson() -> serde_json::Value {
    course_file("24-streams-standbys.json")
}

#[test]
fn stream_threads_are_numbered_after_share_consumers_and_before_connect_workers() {
    // The world starts consumer-group consumers, then share consumers, then
    // every Streams application's threads, then Connect workers
    // (World::new); a fault adds processes after all of them.
    let mut v = standbys_lesson();
    v["scenario"]["groups"] =
        serde_json::json!([{ "groupId": "billing", "consumers": 1, "config": { "topics": ["orders"] } }]);
    v["scenario"]["shareGroups"] = serde_json::json!([{ "groupId": "queue", "consumers": 1, "topics": ["orders"] }]);
    v["scenario"]["connectClusters"] =
        serde_json::json!([{ "groupId": "connect", "workers": 1, "connectors": [{ "name": "sink", "tasks": 1 }] }]);
    // c1 billing, c2 queue, c3 and c4 the threads of totals, c5 the worker.
    v["steps"][1]["task"]["options"][0]["faults"] = serde_json::json!([{ "type": "requestShutdown", "consumer": 3 }]);
    v["steps"][1]["task"]["options"][1]["faults"] = serde_json::json!([{ "type": "requestShutdown", "consumer": 5 }]);
    let e = load_error(&v.to_string());
    assert!(e.contains("'c5' is a Connect worker, not a consumer (c1..c4)"), "{e}");
    // c1 is billing's consumer now, so the lesson's expectations about thread c1 are refused.
    assert!(e.contains("step 1 (where).expect[0]: 'c1' is not a Kafka Streams thread of this lesson"), "{e}");
    assert!(!e.contains("'c3'") && !e.contains("'c4'"), "{e}");
    // addInstance adds num.stream.threads threads (one here), numbered after every process.
    v["steps"][1]["task"]["options"][1]["faults"] =
        serde_json::json!([{ "type": "addInstance", "group": "totals" }, { "type": "requestShutdown", "consumer": 6 }]);
    v["steps"][2]["until"] = serde_json::json!({ "sessionTimeout": { "consumer": "c4" } });
    v["steps"][0]["highlights"] = serde_json::json!(["c1", "c2", "c5", "c6", "0_3"]);
    let e = load_error(&v.to_string());
    assert!(!e.contains("'c6'") && !e.contains("'c5'"), "{e}");
    assert!(!e.contains("highlights"), "{e}");
}

#[test]
fn streams_faults_and_expectations_name_a_streams_group_its_threads_and_its_tasks() {
    let mut v = standbys_lesson();
    v["scenario"]["groups"] =
        serde_json::json!([{ "groupId": "billing", "consumers": 1, "config": { "topics": ["orders"] } }]);
    // c1 is billing's consumer; the threads are c2 and c3.
    v["steps"][1]["task"]["options"][0]["faults"] =
        serde_json::json!([{ "type": "setStandbyReplicas", "group": "billing", "replicas": 1 }]);
    v["steps"][1]["task"]["options"][1]["faults"] = serde_json::json!([{ "type": "addInstance", "group": "billing" }]);
    v["steps"][0]["expect"] = serde_json::json!([
        { "streamsTasks": { "consumer": "c1", "active": [] } },
        { "streamsTasks": { "consumer": "c2", "active": ["0_1", "0_4"] } },
        { "streamsTasks": { "consumer": "c3", "active": ["0_1"], "restoring": ["0_2"] } },
        { "taskOwner": { "group": "totals", "task": "1_0", "consumer": "c2" } },
        { "generation": { "group": "totals", "generation": 1 } },
    ]);
    v["steps"][2]["until"] = serde_json::json!({ "groupState": { "group": "totals", "state": "PreparingRebalance" } });
    let e = load_error(&v.to_string());
    for needle in [
        "'billing' is not a streams group (a Kafka Streams application, KIP-1071) of this lesson ([\"totals\"])",
        "'c1' is not a Kafka Streams thread of this lesson",
        "'0_4' is not a task of totals's topology (its tasks: {\"0_0\", \"0_1\", \"0_2\", \"0_3\"})",
        "restoring task 0_2 is not among c3's active tasks [\"0_1\"]",
        "'1_0' is not a task of totals's topology",
        "'totals' is a streams group (KIP-1071): use groupState (NotReady, Assigning, Reconciling, Stable)",
        "unknown streams group state 'PreparingRebalance' (Kafka's StreamsGroupState for a streams group: Empty, NotReady, Assigning, Reconciling, Stable",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
}

#[test]
fn a_created_source_topic_makes_its_tasks_nameable() {
    // Lesson 25's topology reads payments, which its task creates with 4
    // partitions: tasks 0_0..0_3 exist once it does; a fifth does not.
    let mut v = course_file("25-streams-not-ready.json");
    v["steps"][2]["expect"] = serde_json::json!([
        { "streamsTasks": { "consumer": "c1", "active": ["0_3"] } },
        { "taskOwner": { "group": "payments-app", "task": "0_4", "consumer": null } },
    ]);
    let e = load_error(&v.to_string());
    assert!(e.contains("'0_4' is not a task of payments-app's topology"), "{e}");
    assert!(!e.contains("'0_3'"), "{e}");
}

#[test]
fn task_expectations_that_do_not_hold_say_what_the_threads_hold() {
    // Lesson 24's first step ends with c1 active on 0_1 and 0_3 and standby
    // for 0_0 and 0_2 (StickyTaskAssignor: never a standby on its active's process).
    let mut v = standbys_lesson();
    v["steps"][0]["expect"] = serde_json::json!([
        { "streamsTasks": { "consumer": "c1", "active": ["0_0", "0_1"] } },
        { "streamsTasks": { "consumer": "c1", "active": ["0_1", "0_3"], "standby": ["0_1"] } },
        { "taskOwner": { "group": "totals", "task": "0_0", "consumer": "c1" } },
        { "taskOwner": { "group": "totals", "task": "0_1", "consumer": "c1" } },
        { "groupState": { "group": "totals", "state": "Reconciling" } },
    ]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    let at = "lesson 24 step 1 (where)";
    assert_eq!(
        report.failures,
        vec![
            format!(r#"{at}: expected c1 to run active tasks ["0_0", "0_1"], but it is ["0_1", "0_3"]"#),
            format!(r#"{at}: expected c1 to hold standby tasks ["0_1"], but it is ["0_0", "0_2"]"#),
            format!("{at}: expected task 0_0 of totals active on c1, but it is on c2"),
            format!("{at}: expected group totals to be Reconciling, but it is Stable"),
        ]
    );
}
