//! Broken lessons are rejected, or fail their run, with messages that name
//! the field and say what is wrong.

use super::*;

#[test]
fn a_lesson_without_chinese_text_is_rejected_naming_the_field() {
    let broken = demo_lesson().replacen(r#""zh": "消费者崩溃""#, r#""zh": """#, 1);
    assert!(load_error(&broken).contains("title.zh: the Chinese text is missing or empty"));
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["narration"].as_object_mut().unwrap().remove("zh");
    assert!(load_error(&v.to_string()).contains("missing field `zh`"));
    v = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["question"]["explanation"]["zh"] = "The coordinator waits session.timeout.ms".into();
    assert!(load_error(&v.to_string())
        .contains("step 2 (crash).question.explanation.zh: the Chinese text is English words"));
}

#[test]
fn a_note_condition_names_a_kind_of_note_or_a_piece_of_its_english() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["until"] = serde_json::json!({ "note": { "kind": "CoordinatorLost" } });
    assert!(load_error(&v.to_string())
        .contains("step 2 (crash).until: no note kind 'CoordinatorLost' (kinds: GroupCreated,"));
    v["steps"][1]["until"] = serde_json::json!({ "note": { "node": "broker-0" } });
    assert!(load_error(&v.to_string()).contains("step 2 (crash).until: note text is empty"));
    // The older form (text only) and the typed one both load.
    v["steps"][1]["until"] = serde_json::json!({ "note": { "contains": "no heartbeat from" } });
    load(&v.to_string()).expect("a note by its English");
    v["steps"][1]["until"] = serde_json::json!({ "note": { "kind": "SessionTimeout", "node": "broker-0" } });
    load(&v.to_string()).expect("a note by its kind");
}

#[test]
fn an_answer_out_of_range_is_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["question"]["answer"] = 7.into();
    assert!(
        load_error(&v.to_string()).contains("step 2 (crash).question.answer: 7 is out of range (there are 4 choices")
    );
    v = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][3]["question"]["answer"] = "c9".into();
    assert!(load_error(&v.to_string())
        .contains(r#"step 4 (who-gets-them).question.answer: Target("c9") is not one of the targets"#));
}

#[test]
fn unknown_nodes_partitions_and_states_are_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][0]["highlights"] = serde_json::json!(["c7", "broker-3", "orders-6", "payments-0"]);
    v["steps"][1]["until"] = serde_json::json!({ "groupState": { "group": "demo", "state": "Rebalancing" } });
    v["steps"][3]["question"]["targets"] = serde_json::json!(["c1", "c4", "c3"]);
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (stable-group).highlights: 'c7' is not a consumer of this lesson (c1..c3)",
        "'broker-3' is not a broker of this lesson (the scenario's brokers: 3, so broker-0..broker-2)",
        "'orders-6': orders has partitions 0..5",
        "'payments-0': no topic payments in this lesson (the scenario's topic names: [\"orders\"])",
        "step 2 (crash).until: unknown group state 'Rebalancing'",
        "step 4 (who-gets-them).question.targets: 'c4' is not a consumer",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
}

#[test]
fn duplicate_step_ids_too_few_questions_and_unchecked_questions_are_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][2]["id"] = "crash".into();
    v["steps"][3].as_object_mut().unwrap().remove("question");
    v["steps"][0].as_object_mut().unwrap().remove("question");
    v["steps"][1]["expect"] = serde_json::json!([]);
    let e = load_error(&v.to_string());
    assert!(e.contains("step 3 (crash).id: 'crash' is used by an earlier step"), "{e}");
    assert!(e.contains("a lesson needs at least 2 questions (predict, then reveal); this one has 1"), "{e}");
    assert!(e.contains("step 2 (crash).expect: a question step needs expectations"), "{e}");
}

#[test]
fn a_question_asked_after_its_outcome_or_an_event_that_never_comes_fails_the_run_clearly() {
    // Step 2 kills the coordinator, then asks about the LOADING that the kill itself caused.
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    // A controlled shutdown moves leadership at once (a crash only after broker.session.timeout.ms).
    v["steps"][1]["actions"] = serde_json::json!([{ "type": "shutdownBroker", "broker": 1 }]);
    v["steps"][1]["until"] = serde_json::json!({ "coordinatorState": { "group": "demo", "state": "LOADING" } });
    let e = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap_err();
    assert_eq!(e, "lesson 4 (consumer-crashes), step 2 (crash): the question comes after its outcome (the coordinator context of group demo becomes LOADING already happened)");
    // Predict first, then act: the same step is fine.
    v["steps"][1]["actionsAfterAnswer"] = true.into();
    v["steps"][1]["expect"] = serde_json::json!([{ "knownCoordinator": { "consumer": "c1", "broker": "broker-1" } }]);
    v["steps"].as_array_mut().unwrap().truncate(2);
    v["steps"][0]["question"] = v["steps"][1]["question"].clone();
    // A lesson needs a task: crash c1 (the wrong option crashes c3 and leaves c1 alive).
    v["steps"].as_array_mut().unwrap().push(serde_json::json!({
        "id": "act", "narration": { "en": "Crash c1.", "zh": "让 c1 崩溃。" },
        "task": { "prompt": { "en": "Crash c1.", "zh": "让 c1 崩溃。" },
                  "options": [{ "label": { "en": "c1", "zh": "c1" }, "faults": [{ "type": "crashConsumer", "consumer": 1 }] },
                              { "label": { "en": "c3", "zh": "c3" }, "faults": [{ "type": "crashConsumer", "consumer": 3 }] }],
                  "answer": 0, "goal": [{ "memberState": { "consumer": "c1", "state": "crashed" } }],
                  "hint": { "en": "Not c1.", "zh": "不是 c1。" }, "done": { "en": "Done.", "zh": "完成。" } },
        "until": "acted" }));
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);

    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["until"] = serde_json::json!({ "groupState": { "group": "demo", "state": "Dead" } });
    v["steps"][1]["withinMs"] = 20000.into();
    let e = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap_err();
    assert!(e.contains("step 2 (crash): waited for \"group demo changes to Dead\" from 6800 ms to 26800 ms of simulated time (withinMs = 20000), and it did not happen"), "{e}");
}

#[test]
fn an_expectation_that_does_not_hold_is_reported_with_what_the_world_holds() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][3]["expect"] = serde_json::json!([{ "owner": { "partition": "orders-3", "consumer": "c1" } },
                                                 { "generation": { "group": "demo", "generation": 5 } }]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    assert_eq!(
        report.failures,
        vec![
            r#"lesson 4 step 4 (who-gets-them): expected orders-3 owned by c1, but it is ["c3"]"#.to_string(),
            "lesson 4 step 4 (who-gets-them): expected group demo at generation 5, but it is 2".to_string(),
        ]
    );
}

#[test]
fn a_course_whose_right_answers_sit_in_one_position_or_are_the_longest_is_rejected() {
    use groupscope::lesson::fair::balance;
    assert_eq!(balance(course()), Vec::<String>::new(), "the course itself is balanced");
    // Every right answer moved to position A, and made the longest choice.
    let mut broken: Vec<Lesson> = course().to_vec();
    for l in &mut broken {
        for st in &mut l.steps {
            let Some(q) = st.question.as_mut() else { continue };
            let Choice::Index(a) = q.answer else { continue };
            let right = q.choices.remove(a);
            q.choices.insert(0, right);
            q.choices[0]
                .en
                .push_str(" — and this is certainly the most complete and careful of the options offered here");
            q.answer = Choice::Index(0);
        }
    }
    let e = balance(&broken).join("\n");
    assert!(e.contains("right answers are choice A (at most"), "{e}");
    assert!(e.contains("the right answer is the longest choice in"), "{e}");
    assert!(e.contains("all 2 right answers are choice A") || e.contains("right answers are choice A; vary"), "{e}");
}

#[test]
fn a_task_with_one_option_unknown_faults_or_no_goal_is_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    let i = v["steps"].as_array().unwrap().iter().position(|s| s["task"].is_object()).unwrap();
    let id = v["steps"][i]["id"].as_str().unwrap().to_string();
    v["steps"][i]["task"]["options"].as_array_mut().unwrap().truncate(1);
    v["steps"][i]["task"]["options"][0]["faults"] = serde_json::json!([{ "type": "crashConsumer", "consumer": 9 }]);
    v["steps"][i]["task"]["goal"] = serde_json::json!([]);
    v["steps"][i]["task"]["answer"] = 3.into();
    let e = load_error(&v.to_string());
    let at = format!("step {} ({id}).task", i + 1);
    for needle in [
        format!("{at}.options: a task needs at least 2 options"),
        format!("{at}.options[0].faults[0]: 'c9' is not a consumer of this lesson"),
        format!("{at}.goal: a task needs a goal the run checks"),
        format!("{at}.answer: 3 is out of range (there are 1 options"),
    ] {
        assert!(e.contains(&needle), "missing '{needle}' in:\n{e}");
    }
}

/// Issue 17: a wrong type inside a lesson expectation is blamed on the field
/// that has it, under its kind (`expect[0].owns.partitions[1]`).
#[test]
fn a_wrong_type_inside_an_expectation_list_names_the_element() {
    let mut v: serde_json::Value = serde_json::from_str(
        groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| f.starts_with("17-")).unwrap().1,
    )
    .unwrap();
    v["steps"][0]["expect"] = serde_json::json!([{ "owns": { "consumer": "c1", "partitions": ["orders-0", 7] } }]);
    let e = load(&v.to_string()).unwrap_err();
    assert!(e.contains("steps[0].expect[0].owns.partitions[1]: invalid type: integer `7`"), "{e}");
    v["steps"][0]["expect"] = serde_json::json!([{ "owns": { "consumer": "c1", "partitions": ["orders-0", "c1"] } }]);
    let e = load(&v.to_string()).unwrap_err();
    assert!(e.contains("expect[0]: partitions[1]: 'c1' is not a topic-partition"), "{e}");
}

/// A lesson file in the older format, where conditions, expectations and
/// secrets carried their kind inside (`{"type": "owns", "consumer": ...}`,
/// `{"type": "acted"}`), reads as the same lesson as today's
/// (`{"owns": {"consumer": ...}}`, `"acted"`); faults keep their `type`.
#[test]
fn a_lesson_in_the_older_internally_tagged_format_reads_the_same() {
    use serde_json::{json, Value};
    fn old(v: &mut Value) {
        *v = match v.take() {
            Value::String(kind) => json!({ "type": kind }),
            Value::Object(m) => {
                let (kind, fields) = m.into_iter().next().expect("one kind");
                let mut fields = fields.as_object().cloned().expect("fields");
                fields.insert("type".into(), Value::String(kind));
                Value::Object(fields)
            }
            other => panic!("not a kind: {other}"),
        };
    }
    let mut seen = 0;
    for (file, text) in groupscope::lesson::registry::SOURCES {
        let mut v: Value = serde_json::from_str(text).unwrap();
        for st in v["steps"].as_array_mut().unwrap() {
            old(&mut st["until"]);
            st.get_mut("expect").and_then(Value::as_array_mut).into_iter().flatten().for_each(old);
            if let Some(q) = st.get_mut("question") {
                q.get_mut("conceals").and_then(Value::as_array_mut).into_iter().flatten().for_each(old);
            }
            if let Some(t) = st.get_mut("task") {
                t.get_mut("goal").and_then(Value::as_array_mut).into_iter().flatten().for_each(old);
                for o in t["options"].as_array_mut().unwrap() {
                    for c in o.get_mut("checks").and_then(Value::as_array_mut).into_iter().flatten() {
                        old(&mut c["expect"]);
                        seen += 1;
                    }
                }
            }
        }
        let older = v.to_string();
        let tags = |t: &str| t.matches(r#""type":"#).count();
        let today: Value = serde_json::from_str(text).unwrap();
        assert!(tags(&older) > tags(&today.to_string()), "{file} was rewritten to the older form");
        assert_eq!(load(&older).unwrap(), load(text).unwrap(), "{file}");
    }
    assert!(seen > 0, "some task option has checks");
}

#[test]
fn a_step_comparison_that_is_missing_unknown_or_broken_is_rejected_naming_the_field() {
    let at = "step 5 (static-deploy).compare";
    let mut v = storms_lesson();
    v["steps"][4]["compare"].as_object_mut().unwrap().remove("comparison");
    assert!(load_error(&v.to_string())
        .contains(&format!("{at}.shipped, comparison: give a shipped comparison's id or a comparison")));
    v["steps"][4]["compare"]["shipped"] = "compare-storms".into();
    let e = load_error(&v.to_string());
    assert!(
        e.contains(&format!(
            "{at}.shipped: no comparison named 'compare-storms'; the shipped ones are compare-protocols"
        )),
        "{e}"
    );
    v["steps"][4]["compare"]["shipped"] = "compare-crash".into();
    assert!(load(&v.to_string()).is_ok(), "a shipped comparison by id");
    let mut v = storms_lesson();
    v["steps"][4]["compare"]["comparison"]["variants"].as_array_mut().unwrap().truncate(1);
    let e = load_error(&v.to_string());
    assert!(e.contains(&format!("{at}.comparison.variants: 1 given; a comparison runs 2 to 4")), "{e}");
    let mut v = storms_lesson();
    v["steps"][4]["compare"]["comparison"]["scenario"]["faults"][0]["fault"]["consumer"] = 99.into();
    let e = load_error(&v.to_string());
    assert!(e.contains(&format!("{at}.comparison.scenario.faults[0]")), "{e}");
    let mut v = storms_lesson();
    v["steps"][4]["compare"]["label"]["zh"] = "".into();
    assert!(load_error(&v.to_string()).contains(&format!("{at}.label.zh: the Chinese text is missing or empty")));
    let mut v = storms_lesson();
    v["steps"][4]["compare"]["comparison"]["group"] = "nope".into();
    assert!(load_error(&v.to_string()).contains(&format!("{at}.comparison.group: the scenario has no group 'nope'")));
}

/// Share groups (KIP-932): their consumers are numbered after the groups'
/// ones, their states are `ShareGroupState`'s, and the kinds of a classic or
/// KIP-848 group are refused for them, naming what to use instead.
#[test]
fn a_share_group_lesson_names_its_consumers_and_states_and_refuses_classic_kinds() {
    let (_, json) = groupscope::lesson::registry::SOURCES
        .iter()
        .find(|(f, _)| *f == "20-share-group-crash.json")
        .expect("lesson 20");
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    load(&v.to_string()).expect("lesson 20 loads");
    v["steps"][0]["expect"] = serde_json::json!([
        { "groupState": { "group": "queue", "state": "PreparingRebalance" } },
        { "generation": { "group": "queue", "generation": 1 } },
        { "groupEpoch": { "group": "queue", "epoch": 2 } },
        { "memberEpoch": { "consumer": "c2", "epoch": 2 } },
        { "sharedBy": { "group": "queue", "partition": "orders-1", "count": 1 } },
        { "owns": { "consumer": "c3", "partitions": [] } },
        { "memberState": { "consumer": "c1", "state": "STABLE" } },
        { "groupState": { "group": "queue", "state": "Empty" } }
    ]);
    let e = load_error(&v.to_string());
    for needle in [
        "unknown share group state 'PreparingRebalance' (Kafka's ShareGroupState for a share group: Empty, Stable, Dead)",
        "'queue' is a share group (KIP-932): it has no generation",
        "'c2' is a share consumer (KIP-932)",
        "'orders-1': orders has partitions 0..0",
        "'c3' is not a consumer of this lesson (c1..c2)",
    ] {
        assert!(e.contains(needle), "missing {needle:?} in:\n{e}");
    }
    assert_eq!(e.matches("expect[").count(), 6, "the last two (STABLE, Empty) are fine:\n{e}");
}

/// `sharedBy` and `shareStartOffset` read the coordinator's assignment and
/// the share coordinator's SPSO, and say what they hold instead.
#[test]
fn share_expectations_report_what_the_world_holds() {
    use groupscope::lesson::Expectation;
    let scenario = groupscope::sim::Scenario::from_json(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/share-2-more-consumers.json"))
            .unwrap(),
    )
    .unwrap();
    let mut w = groupscope::sim::World::new(scenario).unwrap();
    w.run_until(20_000);
    let shared = |count| Expectation::SharedBy { group: "queue".into(), partition: "orders-1".into(), count };
    assert_eq!(shared(3).check(&w), Ok(()));
    assert_eq!(
        shared(2).check(&w),
        Err("expected orders-1 assigned to 2 members of share group queue, but it is 3".into())
    );
    let spso =
        |at_least| Expectation::ShareStartOffset { group: "queue".into(), partition: "orders-0".into(), at_least };
    assert_eq!(spso(1).check(&w), Ok(()));
    let e = spso(1_000_000).check(&w).unwrap_err();
    assert!(
        e.starts_with("expected share group queue's start offset (SPSO) of orders-0 at least 1000000, but it is "),
        "{e}"
    );
    let members = Expectation::Members { group: "queue".into(), count: 5 };
    assert_eq!(members.check(&w), Ok(()));
}
