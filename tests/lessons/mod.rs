//! The course: every lesson validates, runs headless to its end with every
//! expectation holding (so lessons double as golden regression tests of the
//! simulation), and broken lessons are rejected with clear messages.

use groupscope::lesson::runner::{run, Answers};
use groupscope::lesson::validate::{load, validate};
use groupscope::lesson::{lessons, parse_link, Choice, Lesson, LessonSession, Phase};
use groupscope::player::Action;

fn course() -> &'static [Lesson] {
    lessons().unwrap_or_else(|e| panic!("the course does not load:\n{e}"))
}

#[test]
fn every_lesson_runs_to_the_end_with_every_expectation_holding() {
    for lesson in course() {
        let report = run(lesson, Answers::Correct).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.failures.is_empty(), "lesson {}:\n{}", lesson.number, report.failures.join("\n"));
        assert_eq!(report.steps.len(), lesson.steps.len());
    }
}

#[test]
fn the_course_has_seventeen_lessons_in_order_with_two_questions_and_a_task_each_in_both_languages() {
    let numbers: Vec<u32> = course().iter().map(|l| l.number).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "in course order: {numbers:?}");
    for n in 0..=16 {
        assert!(numbers.contains(&n), "lesson {n} is in the course: {numbers:?}");
    }
    assert!(course().len() >= 17, "issue 14: at least 17 lessons");
    for l in course() {
        assert!(l.steps.iter().filter(|s| s.question.is_some()).count() >= 2, "lesson {}", l.number);
        assert!(l.steps.iter().any(|s| s.task.is_some()), "lesson {}: the learner acts", l.number);
        assert!(validate(l).is_empty());
    }
}

#[test]
fn the_course_lists_exactly_the_files_of_the_lessons_folder_which_the_page_fetches() {
    // The page fetches `lessons/<file>` for every file the course lists (the
    // e2e lesson walk checks those fetches): a file missing from the list is a
    // lesson nobody sees.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("lessons/")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8 name"))
        .filter(|f| f.ends_with(".json") && f != groupscope::lesson::registry::INDEX)
        .collect();
    on_disk.sort();
    let listed: Vec<String> = groupscope::lesson::registry::FILES.iter().map(|f| f.to_string()).collect();
    assert_eq!(listed, on_disk);
    // The page reads lessons/index.json at run time: it lists the same files, in course order.
    let index = std::fs::read_to_string(dir.join(groupscope::lesson::registry::INDEX)).expect("lessons/index.json");
    assert_eq!(groupscope::lesson::registry::parse_index(&index).unwrap(), listed);
}

#[test]
fn lesson_2_asks_in_chinese_whether_the_protocol_is_peer_to_peer_and_the_coordinator_on_the_client() {
    let l = groupscope::lesson::find("joining").expect("lesson 2");
    let q = l
        .steps
        .iter()
        .find_map(|s| s.question.as_ref().filter(|q| q.prompt.zh.contains("协调者在客户端吗？")))
        .expect("the origin question is a prediction");
    assert!(q.prompt.zh.contains("端对端"), "{}", q.prompt.zh);
    assert!(
        q.explanation.zh.contains("协调者在客户端吗？不在。")
            && q.explanation.zh.contains("组协调者（Group Coordinator）运行在 broker 上")
    );
    assert!(
        !l.steps.iter().any(|s| s.narration.zh.contains("不在。")),
        "the narration shown with the question does not answer it"
    );
}

#[test]
fn wrong_and_revealed_answers_play_the_same_simulation_and_say_so() {
    for lesson in course() {
        let right = run(lesson, Answers::Correct).unwrap();
        let wrong = run(lesson, Answers::Wrong).unwrap();
        let shown = run(lesson, Answers::Reveal).unwrap();
        assert_eq!(
            right.trace_hash, wrong.trace_hash,
            "lesson {}: answers must not change the simulation",
            lesson.number
        );
        assert_eq!(right.trace_hash, shown.trace_hash);
        for ((r, w), s) in right.steps.iter().zip(&wrong.steps).zip(&shown.steps) {
            let asked = lesson.steps.iter().find(|st| st.id == r.id).unwrap().question.is_some();
            assert_eq!(r.correct, asked.then_some(true), "lesson {} step {}", lesson.number, r.id);
            assert_eq!(w.correct, asked.then_some(false));
            assert_eq!(s.correct, None);
        }
    }
}

#[test]
fn answering_gives_feedback_with_the_explanation_and_resumes_the_run() {
    let lesson = groupscope::lesson::find("4").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    assert_eq!(s.phase, Phase::Question, "lesson 4 opens with who heartbeats whom");
    assert!(s.choose(&mut player, 0).is_err(), "no task is waiting");
    s.play_step_through(&mut player, None).unwrap();
    s.next(&mut player);
    assert_eq!((s.step, s.phase), (1, Phase::Question));
    assert!(!player.playing, "the simulation waits for the answer");
    let crashed_at = player.now();
    assert!(s.answer(&mut player, Choice::Index(9)).is_err(), "out of range");
    assert!(s.answer(&mut player, Choice::Target("c1".into())).is_err(), "a click on a choice question");
    let f = s.answer(&mut player, Choice::Index(0)).unwrap();
    assert!(!f.correct);
    assert_eq!(f.answer, Choice::Index(3));
    assert!(f.explanation.en.contains("session.timeout.ms") && f.explanation.zh.contains("session.timeout.ms"));
    assert!(player.playing && s.phase == Phase::Running);
    // The page's animation frames: the lesson pauses on the session timeout, not later.
    let mut reached = None;
    for _ in 0..10_000 {
        if let Some(r) = s.tick(&mut player, 16.0) {
            reached = Some(r);
            break;
        }
    }
    let r = reached.expect("the session timeout happens");
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.at, crashed_at + 6000 - 100, "paused on the event (deadline re-armed 100 ms before the crash)");
    assert!(!player.playing && s.phase == Phase::Reached);
    assert_eq!(s.progress().answers.get("crash"), Some(&false));
    assert_eq!(s.link(), "#lesson=4&step=2");
}

#[test]
fn a_deep_link_opens_the_lesson_at_its_step_with_earlier_steps_played() {
    let (lesson, index) = parse_link("#lesson=4&step=3").expect("link parses");
    assert_eq!((lesson.id.as_str(), index), ("consumer-crashes", 2));
    assert_eq!(parse_link("#lesson=consumer-crashes&step=who-gets-them").map(|(l, i)| (l.number, i)), Some((4, 3)));
    assert!(parse_link("#lesson=4&step=99").is_none());
    let (s, player) = LessonSession::open_at(lesson.clone(), index).unwrap();
    assert_eq!(s.step, 2);
    assert!(!player.world.clients.classic(2).unwrap().alive, "step 2's crash was applied on the way");
    assert_eq!(
        s.feedback[1].as_ref().map(|f| f.chosen.is_none()),
        Some(true),
        "skipped questions are revealed, not answered"
    );
}

#[test]
fn seeking_back_returns_the_lesson_to_the_step_of_that_time_and_replays_identically() {
    let lesson = groupscope::lesson::find("4").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    let mut times = Vec::new();
    while s.phase != Phase::Free {
        let a = s.question().map(|q| q.answer.clone());
        times.push(s.play_step_through(&mut player, a).unwrap().at);
        s.next(&mut player);
    }
    let end_hash = groupscope::sim::trace::trace_hash(&player.world.trace);
    // Back into step 2 (after the crash, before the session timeout).
    player.dispatch(Action::Seek(times[0] + 1000));
    s.resync(&mut player);
    assert_eq!((s.step, s.phase), (1, Phase::Running));
    assert!(!player.world.clients.classic(2).unwrap().alive, "the crash is replayed from the timeline");
    while s.phase != Phase::Free {
        s.play_step_through(&mut player, None).unwrap();
        s.next(&mut player);
    }
    assert_eq!(
        groupscope::sim::trace::trace_hash(&player.world.trace),
        end_hash,
        "the same run, no duplicated actions"
    );
}

fn demo_lesson() -> String {
    groupscope::lesson::registry::SOURCES
        .iter()
        .find(|(f, _)| *f == "04-consumer-crashes.json")
        .expect("lesson 4")
        .1
        .to_string()
}

fn load_error(json: &str) -> String {
    load(json).expect_err("the lesson must be rejected")
}

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

fn connect_lesson() -> serde_json::Value {
    let (_, json) =
        groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| *f == "12-kafka-connect.json").expect("lesson 12");
    serde_json::from_str(json).unwrap()
}

/// Lesson 11 (Kafka Connect): the trace of the lesson agrees with facts G.
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

#[test]
fn the_readme_example_lesson_is_valid_and_runs_to_its_end() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Writing a lesson").expect("README section")..];
    let start = section.find("```json\n").expect("an example") + 8;
    let json = &section[start..start + section[start..].find("```").unwrap()];
    let lesson = load(json).unwrap_or_else(|e| panic!("{e}"));
    let report = run(&lesson, Answers::Correct).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

/// `LESSON=4 cargo test --test native lessons::show_a_lesson -- --nocapture` prints when
/// each step of lesson 4 ends and the trace's narration, for lesson authors;
/// `LESSON_FILE=lessons/04-consumer-crashes.json` reads a draft from disk instead.
#[test]
fn show_a_lesson() {
    let from_disk = std::env::var("LESSON_FILE")
        .ok()
        .map(|f| load(&std::fs::read_to_string(&f).expect("LESSON_FILE")).unwrap_or_else(|e| panic!("{e}")));
    let lesson = match (from_disk, std::env::var("LESSON")) {
        (Some(l), _) => Box::leak(Box::new(l)),
        (None, Ok(key)) => {
            course().iter().find(|l| l.id == key || l.number.to_string() == key).expect("no such lesson")
        }
        (None, Err(_)) => return,
    };
    let (mut s, mut player) = groupscope::lesson::LessonSession::start(lesson.clone()).unwrap();
    let mut shown = 0;
    while s.phase != groupscope::lesson::Phase::Free {
        let answer = s.question().map(|q| q.answer.clone());
        let r = s.play_step_through(&mut player, answer);
        if let Ok(r) = &r {
            println!("  (step began at {} ms; missed try: {:?})", s.started_at(), r.missed);
        }
        for e in &player.world.trace[shown..] {
            if let Some(line) = groupscope::narrate::sentence(&player.world, e, groupscope::i18n::Lang::En) {
                if !line.contains("Heartbeat") && !line.contains("heartbeat.interval") {
                    println!("{:>7} {line}", e.at);
                }
            }
        }
        shown = player.world.trace.len();
        match r {
            Ok(r) => println!(
                "===== step {} ({}) reached at {} ms; failures {:?}",
                r.step + 1,
                s.current().id,
                r.at,
                r.failures
            ),
            Err(e) => {
                println!("===== {e}");
                break;
            }
        }
        s.next(&mut player);
    }
}

fn kip848_part2() -> serde_json::Value {
    let (_, json) = groupscope::lesson::registry::SOURCES
        .iter()
        .find(|(f, _)| *f == "11-kip-848-reconciliation.json")
        .expect("lesson 11");
    serde_json::from_str(json).unwrap()
}

fn kip848_lesson() -> serde_json::Value {
    let (_, json) =
        groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| *f == "10-kip-848.json").expect("lesson 10");
    serde_json::from_str(json).unwrap()
}

/// Lesson 10 (KIP-848): the coordinator fences the crashed member exactly
/// group.consumer.session.timeout.ms after its last heartbeat arrived (facts E4, E9).
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

/// Lesson authors: `COURSE_FROM_DISK=1 cargo test --test native lessons::the_course_on_disk -- --nocapture`
/// validates the lessons/ folder as it is on disk (the page's runtime index
/// included) and plays every lesson right and wrong, without a rebuild.
#[test]
fn the_course_on_disk() {
    if std::env::var("COURSE_FROM_DISK").is_err() {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".json") && f != "index.json")
        .collect();
    files.sort();
    let texts: Vec<(String, String)> =
        files.iter().map(|f| (f.clone(), std::fs::read_to_string(dir.join(f)).unwrap())).collect();
    let course = groupscope::lesson::registry::parse_course(texts.iter().map(|(f, t)| (f.as_str(), t.as_str())))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut bad = Vec::new();
    for l in &course {
        for a in [Answers::Correct, Answers::Wrong] {
            match run(l, a) {
                Ok(r) => {
                    bad.extend(r.failures.iter().map(|f| format!("{a:?}: {f}")));
                    for st in &r.steps {
                        let wall = (st.reached_at - st.started_at) / u64::from(l.speed);
                        if wall > 10_000 {
                            bad.push(format!(
                                "lesson {} step {}: waits {wall} ms of wall time at speed {}",
                                l.number, st.id, l.speed
                            ));
                        }
                    }
                }
                Err(e) => bad.push(format!("{a:?}: {e}")),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    println!("{} lessons on disk validate and run", course.len());
}

#[test]
fn a_prediction_is_committed_and_the_verdict_and_its_why_not_wait_for_the_event() {
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    while s.question().is_none() {
        let a = s.task().map(|t| Choice::Index(t.answer));
        s.play_step_through(&mut player, a).unwrap();
        s.next(&mut player);
    }
    let q = s.question().unwrap().clone();
    let wrong = (0..q.choices.len()).map(Choice::Index).find(|c| *c != q.answer).unwrap();
    s.answer(&mut player, wrong.clone()).unwrap();
    let committed = s.prediction().expect("while the run plays, the learner sees what they predicted");
    assert_eq!(committed.chosen.as_ref(), Some(&wrong));
    assert!(s.verdict().is_none(), "no right/wrong and no explanation before the step's event");
    let r = loop {
        if let Some(r) = s.tick(&mut player, 16.0) {
            break r;
        }
    };
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    let v = s.verdict().expect("the verdict once the event happened");
    assert!(!v.correct);
    let key = match &wrong {
        Choice::Index(i) => i.to_string(),
        Choice::Target(t) => t.clone(),
    };
    assert_eq!(v.why_not.as_ref(), q.why_not.get(&key), "the chosen wrong option's own why-not");
    assert!(v.why_not.is_some());
    assert!(s.prediction().is_none());
}

#[test]
fn every_wrong_option_needs_its_own_why_not_and_the_answer_none() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    let q = |v: &mut serde_json::Value| -> usize {
        v["steps"].as_array().unwrap().iter().position(|s| s["question"]["choices"].is_array()).unwrap()
    };
    let i = q(&mut v);
    let answer = v["steps"][i]["question"]["answer"].as_u64().unwrap();
    let wrong = (0..4).find(|k| *k != answer).unwrap();
    v["steps"][i]["question"]["whyNot"].as_object_mut().unwrap().remove(&wrong.to_string());
    v["steps"][i]["question"]["whyNot"][answer.to_string()] =
        serde_json::json!({ "en": "it is right", "zh": "它是对的" });
    let e = load_error(&v.to_string());
    let id = v["steps"][i]["id"].as_str().unwrap().to_string();
    assert!(e.contains(&format!("step {} ({id}).question.whyNot: choices[{wrong}] has no \"why not\"", i + 1)), "{e}");
    assert!(e.contains(&format!("step {} ({id}).question.whyNot.{answer}: not a wrong option", i + 1)), "{e}");
}

#[test]
fn choices_are_shuffled_per_learner_stably_and_presenters_see_the_authored_order() {
    use groupscope::lesson::fair::order;
    assert_eq!(order(4, None, "consumer-crashes", "crash"), vec![0, 1, 2, 3], "same order for everyone");
    let a = order(4, Some(7), "consumer-crashes", "crash");
    assert_eq!(a, order(4, Some(7), "consumer-crashes", "crash"), "stable for one learner");
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, vec![0, 1, 2, 3], "a permutation");
    // Over many learners every choice lands in every position.
    let mut seen = [[0u32; 4]; 4];
    for seed in 0..400 {
        for (pos, c) in order(4, Some(seed), "consumer-crashes", "crash").into_iter().enumerate() {
            seen[c][pos] += 1;
        }
    }
    assert!(seen.iter().flatten().all(|n| *n > 50), "{seen:?}");
    // The session labels answers by the learner's letters.
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, _player) = LessonSession::start(lesson).unwrap();
    s.learner = Some(7);
    let step =
        s.lesson.steps.iter().position(|st| st.question.as_ref().is_some_and(|q| !q.choices.is_empty())).unwrap();
    let pos = order(
        s.lesson.steps[step].question.as_ref().unwrap().choices.len(),
        Some(7),
        "consumer-crashes",
        &s.lesson.steps[step].id,
    )
    .iter()
    .position(|c| *c == 1)
    .unwrap();
    assert_eq!(s.letter_of(step, &Choice::Index(1)), Some((b'A' + pos as u8) as char));
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
fn a_question_conceals_its_declared_items_only_while_it_waits_and_they_must_exist() {
    use groupscope::lesson::conceal::Kind;
    let lesson = groupscope::lesson::find("finding-the-coordinator").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    assert_eq!(s.phase, Phase::Question);
    assert!(s.concealed().hides(Kind::Coordinator, "payments"), "the question is which broker coordinates payments");
    assert!(!s.concealed().hides(Kind::Coordinator, "shipping"));
    let a = s.question().unwrap().answer.clone();
    s.answer(&mut player, a).unwrap();
    assert!(s.concealed().is_empty(), "once answered, the run may show it");
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    let i = v["steps"].as_array().unwrap().iter().position(|s| s["question"].is_object()).unwrap();
    v["steps"][i]["question"]["conceals"] = serde_json::json!([{ "leader": { "group": "nowhere" } }, { "owners": { "group": "demo" } }, { "ring": { "group": "demo" } }]);
    let e = load_error(&v.to_string());
    assert!(e.contains("unknown variant `ring`"), "{e}");
    v["steps"][i]["question"]["conceals"] =
        serde_json::json!([{ "leader": { "group": "nowhere" } }, { "owners": { "group": "demo" } }]);
    let e = load_error(&v.to_string());
    assert!(e.contains(&"question.conceals[0]: 'nowhere' is not a group of this lesson".to_string()), "{e}");
    assert!(!e.contains("conceals[1]"), "{e}");
}

#[test]
fn a_missed_try_shows_the_hint_goes_back_and_a_right_try_reaches_the_goal() {
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    while s.task().is_none() {
        let a = s.question().map(|q| q.answer.clone());
        s.play_step_through(&mut player, a).unwrap();
        s.next(&mut player);
    }
    let t = s.task().unwrap().clone();
    let before = (player.now(), player.script.len(), groupscope::sim::trace::trace_hash(&player.world.trace));
    assert!(!player.playing, "the run waits for the learner");
    let wrong = (0..t.options.len()).find(|i| *i != t.answer).unwrap();
    let r = s.play_step_through(&mut player, Some(Choice::Index(wrong))).unwrap();
    assert!(r.missed.is_some(), "a wrong try misses the goal");
    assert_eq!(s.phase, Phase::Missed);
    assert_eq!(s.task().map(|t| &t.hint), Some(&t.hint), "the hint is shown");
    s.retry(&mut player).unwrap();
    assert_eq!(
        (player.now(), player.script.len(), groupscope::sim::trace::trace_hash(&player.world.trace)),
        before,
        "back to just before the try"
    );
    assert_eq!(s.phase, Phase::Act);
    let r = s.play_step_through(&mut player, Some(Choice::Index(t.answer))).unwrap();
    assert_eq!(r.missed, None);
    assert_eq!(s.phase, Phase::Reached);
    assert_eq!(s.tries[s.step], (1, true));
}

#[test]
fn every_task_misses_with_each_wrong_option_and_reaches_its_goal_with_its_answer() {
    for lesson in course() {
        for (i, st) in lesson.steps.iter().enumerate() {
            let Some(t) = &st.task else { continue };
            for o in 0..t.options.len() {
                let (mut s, mut player) = LessonSession::open_at(lesson.clone(), i).unwrap();
                let r = s.play_step_through(&mut player, Some(Choice::Index(o))).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    r.missed.is_none(),
                    o == t.answer,
                    "lesson {} step {} option {o}: {:?}",
                    lesson.number,
                    st.id,
                    r.missed
                );
            }
        }
    }
}

#[test]
fn every_lesson_has_a_task_and_no_step_waits_more_than_ten_seconds_of_wall_time() {
    for lesson in course() {
        assert!(lesson.steps.iter().any(|s| s.task.is_some()), "lesson {}: the learner acts", lesson.number);
        let report = run(lesson, Answers::Correct).unwrap();
        for st in &report.steps {
            let wall = (st.reached_at - st.started_at) / u64::from(lesson.speed);
            assert!(
                wall <= groupscope::lesson::model::MAX_WAIT_WALL_MS,
                "lesson {} step {}: {wall} ms of wall time at speed {}",
                lesson.number,
                st.id,
                lesson.speed
            );
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    for st in v["steps"].as_array_mut().unwrap() {
        st.as_object_mut().unwrap().remove("task");
        if st["until"] == "acted" {
            st["until"] = serde_json::json!({ "elapsed": { "ms": 1 } });
        }
    }
    let e = load_error(&v.to_string());
    assert!(
        e.contains("steps: a lesson needs at least one step where the learner acts (a task); this one has none"),
        "{e}"
    );
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

#[test]
fn bad_deep_links_say_what_is_wrong_and_a_bad_index_names_its_entry() {
    use groupscope::lesson::registry::{explain_link, parse_index, BadLink};
    let last = course().iter().map(|l| l.number).max().unwrap();
    let steps = groupscope::lesson::find("4").unwrap().steps.len();
    assert_eq!(explain_link("#lesson=99").err(), Some(BadLink::NoLesson { key: "99".into(), first: 0, last }));
    assert_eq!(explain_link("#lesson=abc").err(), Some(BadLink::NoLesson { key: "abc".into(), first: 0, last }));
    assert_eq!(explain_link("#lesson=4&step=99").err(), Some(BadLink::NoStep { lesson: 4, key: "99".into(), steps }));
    assert_eq!(explain_link("#lesson=consumer-crashes&step=crash").map(|(l, i)| (l.number, i)), Ok((4, 1)));
    assert!(parse_index(r#"["01-finding-the-coordinator.json", "../secret.json"]"#)
        .unwrap_err()
        .contains("lessons/index.json[1]: '../secret.json' is not a lesson file name"));
    assert!(parse_index("{}").unwrap_err().contains("expected a JSON array of lesson file names"));
}

/// Lesson 17's bounds are the configs' arithmetic, not numbers picked to pass:
/// committing after processing (auto-commit) redelivers at most what is
/// processed in one auto.commit.interval.ms plus the batch in flight; committing
/// before processing loses at most one batch (max.poll.records).
#[test]
fn lesson_17_duplicate_and_loss_bounds_are_derived_from_the_groups_configs() {
    use groupscope::lesson::Expectation;
    let l = groupscope::lesson::find("delivery-semantics").expect("lesson 17");
    let config = |g: &str| &l.scenario.groups.iter().find(|s| s.group_id == g).expect("group").config;
    let after = config("after");
    let dup_bound =
        (after.auto_commit_interval_ms / after.processing_ms_per_record) as i64 + i64::from(after.max_poll_records);
    let loss_bound = i64::from(config("before").max_poll_records);
    let bound_of = |group: &str, skipped: bool| {
        l.steps.iter().flat_map(|s| &s.expect).find_map(|e| match e {
            Expectation::Redelivered { group: g, at_most, at_least }
                if !skipped && g == group && at_least.is_some() =>
            {
                *at_most
            }
            Expectation::Skipped { group: g, at_most, at_least } if skipped && g == group && at_least.is_some() => {
                *at_most
            }
            _ => None,
        })
    };
    assert_eq!(
        bound_of("after", false),
        Some(dup_bound),
        "redelivered ≤ auto.commit.interval.ms / processing.ms.per.record + max.poll.records"
    );
    assert_eq!(bound_of("before", true), Some(loss_bound), "skipped ≤ max.poll.records");
    // And the run lands inside them, with the other kind of failure absent.
    let report = run(l, Answers::Correct).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
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

/// Lesson 16 grades the whole choice of session.timeout.ms,
/// heartbeat.interval.ms, max.poll.interval.ms and max.poll.records: every
/// wrong deployment misses in the simulation (a false eviction, a crash noticed
/// too late, or a missed max.poll.interval.ms), and the hint shown names a
/// config in which it differs from the deployment that passes.
#[test]
fn lesson_16_grades_all_four_timeout_configs_and_the_hint_names_the_wrong_one() {
    use groupscope::sim::Fault;
    let l = groupscope::lesson::find("choosing-timeouts").expect("lesson 16");
    let at = l.steps.iter().position(|s| s.task.is_some()).expect("a task");
    let task = l.steps[at].task.clone().unwrap();
    let group_of = |o: &groupscope::lesson::TaskOption, w: &groupscope::sim::World| {
        let c = o.faults.iter().find_map(|f| match f {
            Fault::CrashConsumer { consumer } => Some(*consumer),
            _ => None,
        });
        w.clients.classic(c.expect("a crash")).unwrap().group_id.clone()
    };
    let four = |w: &groupscope::sim::World, g: &str| {
        let c = &l.scenario.groups.iter().find(|s| s.group_id == g).unwrap().config;
        let _ = w;
        [
            ("session.timeout.ms", c.session_timeout_ms),
            ("heartbeat.interval.ms", c.heartbeat_interval_ms),
            ("max.poll.interval.ms", c.max_poll_interval_ms),
            ("max.poll.records", u64::from(c.max_poll_records)),
        ]
    };
    let mut wrong_configs = std::collections::BTreeSet::new();
    for (i, o) in task.options.iter().enumerate() {
        let (mut s, mut player) = LessonSession::open_at(l.clone(), at).unwrap();
        let r = s.play_step_through(&mut player, Some(Choice::Index(i))).unwrap();
        let right = four(&player.world, &group_of(&task.options[task.answer], &player.world));
        let mine = four(&player.world, &group_of(o, &player.world));
        if i == task.answer {
            assert!(r.missed.is_none(), "the right deployment passes: {:?}", r.missed);
            continue;
        }
        assert!(r.missed.is_some(), "option {i} ({}) must miss", o.label.en);
        let differ: Vec<&str> = right.iter().zip(&mine).filter(|(a, b)| a.1 != b.1).map(|(a, _)| a.0).collect();
        let hints = s.hints();
        assert!(
            !hints.is_empty() && hints.iter().all(|h| *h != &task.hint),
            "option {i}: the hints of its failed checks, not the generic one"
        );
        let named: Vec<&str> =
            differ.iter().copied().filter(|c| hints.iter().any(|h| h.en.contains(c) && h.zh.contains(c))).collect();
        assert!(
            !named.is_empty(),
            "option {i} ({}): the hint {:?} names one of {differ:?}",
            o.label.en,
            hints.iter().map(|h| &h.en).collect::<Vec<_>>()
        );
        wrong_configs.extend(named);
    }
    assert_eq!(
        wrong_configs.len(),
        4,
        "each of the four configs is the wrong one in some deployment: {wrong_configs:?}"
    );
}

fn storms_lesson() -> serde_json::Value {
    let text = groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| f.starts_with("18-")).expect("lesson 18").1;
    serde_json::from_str(text).unwrap()
}

/// Lesson 18's step `static-deploy` opens the rolling restart side by side: the
/// same ten close()/restart pairs under eager, cooperative-sticky, the consumer
/// protocol and static members, one group per pane. The comparison counts a
/// rebalance when a classic group enters PreparingRebalance
/// (`ClassicGroup.transitionTo`) or a consumer group leaves Stable. Each
/// dynamic member's close() sends LeaveGroup and its restart a JoinGroup, each
/// a rebalance (`GroupMetadataManager.classicGroupLeave`, `prepareRebalance`);
/// cooperative-sticky adds a round after the revocation
/// (`ConsumerCoordinator.onJoinComplete` rejoins when partitions were revoked);
/// a static member sends no LeaveGroup and rejoins within session.timeout.ms
/// with its group.instance.id, replaced without a rebalance
/// (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`).
/// The panes agree with the lesson's own four groups (their counts include the first join).
#[test]
fn lesson_18_opens_the_rolling_restart_side_by_side_and_the_panes_count_what_the_lesson_says() {
    let lesson = course().iter().find(|l| l.number == 18).expect("lesson 18");
    let step = lesson.steps.iter().find(|s| s.id == "static-deploy").expect("the static-deploy step");
    let c = step.compare.as_ref().expect("the step offers a comparison").comparison().unwrap();
    let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
    use groupscope::compare::this_run::{CONSUMER, COOPERATIVE, EAGER, STATIC};
    assert_eq!(names, [EAGER, COOPERATIVE, CONSUMER, STATIC], "the four panes, named as Compare this run names them");
    let mut sbs = groupscope::compare::SideBySide::new(&c).unwrap();
    sbs.advance_to(c.until.unwrap());
    let rebalances: Vec<u32> = sbs.lanes.iter().map(|l| l.observer.metrics.rebalances).collect();
    assert_eq!(sbs.lanes.iter().map(|l| l.violations).sum::<usize>(), 0, "no invariant broken");
    assert_eq!(rebalances[0], 20, "eager: two per restarted member: {rebalances:?}");
    assert_eq!(rebalances[1], 30, "cooperative-sticky: three per restarted member: {rebalances:?}");
    assert_eq!(rebalances[3], 0, "static members replace themselves: {rebalances:?}");
    // KIP-848 counts each epoch bump that leaves Stable (a leave, then a join:
    // at most two per restart, as many as eager), but no round stops the whole
    // group: members keep processing what they own (`ConsumerGroup` has no join barrier).
    assert!(
        rebalances[2] <= rebalances[0],
        "the consumer protocol leaves Stable at most twice per restart: {rebalances:?}"
    );
    let stop: Vec<u64> = sbs.lanes.iter().map(|l| l.observer.metrics.longest_stop_the_world_ms).collect();
    assert_eq!(stop[2], 0, "the consumer protocol never stops the whole group: {stop:?}");
    assert!(stop[0] > 0, "eager stops the whole group at every rebalance: {stop:?}");
    // The page's sentence for each row of the metrics table says so, in both
    // languages: the KIP-848 count is the group leaving Stable, not a stop.
    use groupscope::view::compare_text::{row_note, Kind};
    let kip = &sbs.lanes[2];
    assert_eq!(Kind::in_world(&kip.world, &sbs.group), Kind::Consumer);
    let (en, zh) = (
        row_note(&kip.name, Kind::Consumer, &kip.observer.metrics, groupscope::i18n::Lang::En),
        row_note(&kip.name, Kind::Consumer, &kip.observer.metrics, groupscope::i18n::Lang::Zh),
    );
    assert!(en.contains(&format!("{} rebalance(s) counted", rebalances[2])), "{en}");
    assert!(
        en.contains("no member stops consuming the partitions it keeps") && en.contains("stopped for 0 ms"),
        "{en}"
    );
    assert!(zh.contains(&format!("计了 {} 次再均衡", rebalances[2])) && zh.contains("停顿了 0 毫秒"), "{zh}");
    assert_eq!(Kind::in_world(&sbs.lanes[0].world, &sbs.group), Kind::Eager);
    assert_eq!(Kind::in_world(&sbs.lanes[1].world, &sbs.group), Kind::Cooperative);
    assert_eq!(Kind::in_world(&sbs.lanes[3].world, &sbs.group), Kind::Static);
    assert_eq!(step_expectation_count(lesson, "dynamic-deploy"), rebalances[0] + 1);
    assert_eq!(step_expectation_count(lesson, "coop-deploy"), rebalances[1] + 1);
    assert_eq!(step_expectation_count(lesson, "static-deploy"), rebalances[3] + 1);
}

fn step_expectation_count(lesson: &Lesson, step: &str) -> u32 {
    let v = serde_json::to_value(lesson.steps.iter().find(|s| s.id == step).unwrap()).unwrap();
    v["expect"][0]["rebalances"]["count"].as_u64().unwrap() as u32
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
