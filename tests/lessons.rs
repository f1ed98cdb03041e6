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
fn the_course_has_its_lessons_in_order_with_two_questions_each_in_both_languages() {
    let numbers: Vec<u32> = course().iter().map(|l| l.number).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "in course order: {numbers:?}");
    for n in 1..=11 {
        assert!(numbers.contains(&n), "lesson {n} is in the course: {numbers:?}");
    }
    for l in course() {
        assert!(l.steps.iter().filter(|s| s.question.is_some()).count() >= 2, "lesson {}", l.number);
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
        .filter(|f| f.ends_with(".json"))
        .collect();
    on_disk.sort();
    let listed: Vec<String> = groupscope::lesson::registry::FILES.iter().map(|f| f.to_string()).collect();
    assert_eq!(listed, on_disk);
}

#[test]
fn lesson_2_answers_in_chinese_whether_the_coordinator_runs_on_the_client() {
    let l = groupscope::lesson::find("joining").expect("lesson 2");
    let zh: String = l.steps.iter().map(|s| s.narration.zh.as_str()).collect();
    assert!(zh.contains("协调者在客户端吗？不在。"), "the question is asked and answered");
    assert!(zh.contains("组协调者（Group Coordinator）运行在 broker 上"));
}

#[test]
fn wrong_and_revealed_answers_play_the_same_simulation_and_say_so() {
    for lesson in course() {
        let right = run(lesson, Answers::Correct).unwrap();
        let wrong = run(lesson, Answers::Wrong).unwrap();
        let shown = run(lesson, Answers::Reveal).unwrap();
        assert_eq!(right.trace_hash, wrong.trace_hash, "lesson {}: answers must not change the simulation", lesson.number);
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
    assert_eq!(s.phase, Phase::Running);
    assert!(s.answer(&mut player, Choice::Index(0)).is_err(), "no question is waiting yet");
    s.play_step_through(&mut player, None).unwrap();
    s.next(&mut player);
    assert_eq!((s.step, s.phase), (1, Phase::Question));
    assert!(!player.playing, "the simulation waits for the answer");
    let crashed_at = player.now();
    assert!(s.answer(&mut player, Choice::Index(9)).is_err(), "out of range");
    assert!(s.answer(&mut player, Choice::Target("c1".into())).is_err(), "a click on a choice question");
    let f = s.answer(&mut player, Choice::Index(0)).unwrap();
    assert!(!f.correct);
    assert_eq!(f.answer, Choice::Index(1));
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
    assert!(!player.world.consumers[&2].alive, "step 2's crash was applied on the way");
    assert_eq!(s.feedback[1].as_ref().map(|f| f.chosen.is_none()), Some(true), "skipped questions are revealed, not answered");
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
    assert!(!player.world.consumers[&2].alive, "the crash is replayed from the timeline");
    while s.phase != Phase::Free {
        s.play_step_through(&mut player, None).unwrap();
        s.next(&mut player);
    }
    assert_eq!(groupscope::sim::trace::trace_hash(&player.world.trace), end_hash, "the same run, no duplicated actions");
}

fn demo_lesson() -> String {
    groupscope::lesson::registry::SOURCES[3].1.to_string()
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
    assert!(load_error(&v.to_string()).contains("step 2 (crash).question.explanation.zh: the Chinese text is English words"));
}

#[test]
fn an_answer_out_of_range_is_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["question"]["answer"] = 7.into();
    assert!(load_error(&v.to_string()).contains("step 2 (crash).question.answer: 7 is out of range (there are 4 choices"));
    v = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][3]["question"]["answer"] = "c9".into();
    assert!(load_error(&v.to_string()).contains(r#"step 4 (who-gets-them).question.answer: Target("c9") is not one of the targets"#));
}

#[test]
fn unknown_nodes_partitions_and_states_are_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][0]["highlights"] = serde_json::json!(["c7", "broker-3", "orders-6", "payments-0"]);
    v["steps"][1]["until"] = serde_json::json!({ "type": "groupState", "group": "demo", "state": "Rebalancing" });
    v["steps"][3]["question"]["targets"] = serde_json::json!(["c1", "c4", "c3"]);
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (stable-group).highlights: 'c7' is not a consumer of this lesson (c1..c3)",
        "'broker-3' is not a broker of this lesson (broker-0..broker-2)",
        "'orders-6': orders has partitions 0..5",
        "'payments-0': no topic payments in this lesson",
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
    v["steps"][1]["until"] = serde_json::json!({ "type": "coordinatorState", "group": "demo", "state": "LOADING" });
    let e = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap_err();
    assert_eq!(e, "lesson 4 (consumer-crashes), step 2 (crash): the question comes after its outcome (the coordinator context of group demo becomes LOADING already happened)");
    // Predict first, then act: the same step is fine.
    v["steps"][1]["actionsAfterAnswer"] = true.into();
    v["steps"][1]["expect"] = serde_json::json!([{ "type": "knownCoordinator", "consumer": "c1", "broker": "broker-1" }]);
    v["steps"].as_array_mut().unwrap().truncate(2);
    v["steps"][0]["question"] = v["steps"][1]["question"].clone();
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);

    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["until"] = serde_json::json!({ "type": "groupState", "group": "demo", "state": "Dead" });
    v["steps"][1]["withinMs"] = 20000.into();
    let e = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap_err();
    assert!(e.contains("step 2 (crash): waited for \"group demo changes to Dead\" from 6800 ms to 26800 ms of simulated time (withinMs = 20000), and it did not happen"), "{e}");
}

#[test]
fn an_expectation_that_does_not_hold_is_reported_with_what_the_world_holds() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][3]["expect"] = serde_json::json!([{ "type": "owner", "partition": "orders-3", "consumer": "c1" },
                                                 { "type": "generation", "group": "demo", "generation": 5 }]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    assert_eq!(report.failures, vec![
        r#"lesson 4 step 4 (who-gets-them): expected orders-3 owned by c1, but it is ["c3"]"#.to_string(),
        "lesson 4 step 4 (who-gets-them): expected group demo at generation 5, but it is 2".to_string(),
    ]);
}

fn connect_lesson() -> serde_json::Value {
    let (_, json) = groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| *f == "11-kafka-connect.json").expect("lesson 11");
    serde_json::from_str(json).unwrap()
}

/// Lesson 11 (Kafka Connect): the trace of the lesson agrees with facts G.
#[test]
fn lesson_11_holds_the_lost_tasks_for_the_delay_and_a_rebalance_does_not_restart_a_failed_task() {
    let lesson = groupscope::lesson::find("kafka-connect").expect("lesson 11");
    let report = run(lesson, Answers::Correct).unwrap();
    let at = |id: &str| report.steps.iter().find(|s| s.id == id).unwrap().reached_at;
    assert_eq!(at("delay-expires") - at("lost-tasks-held"), 20_000, "scheduled.rebalance.max.delay.ms after the assignment arrived");
    assert!(at("rebalance-does-not-restart") > at("task-fails"));
}

#[test]
fn connect_names_in_a_lesson_are_checked_against_its_workers_connectors_and_tasks() {
    let mut v = connect_lesson();
    v["steps"][0]["until"] = serde_json::json!({ "type": "taskState", "group": "connect-cluster", "task": "sink-6", "state": "RUNNING" });
    v["steps"][0]["highlights"] = serde_json::json!(["c4", "sink-0", "sink"]);
    v["steps"][1]["until"] = serde_json::json!({ "type": "taskState", "group": "connect-cluster", "task": "source-0", "state": "RUNNING", "worker": "c2" });
    v["steps"][1]["expect"] = serde_json::json!([
        { "type": "task", "group": "connect-cluster", "task": "sink-1", "worker": null, "state": "BROKEN" },
        { "type": "task", "group": "demo", "task": "sink-1", "worker": null },
        { "type": "workerGeneration", "worker": "c9", "generation": 2 },
        { "type": "task", "group": "connect-cluster", "task": "sink", "worker": "c1" },
        { "type": "connector", "group": "connect-cluster", "connector": "sink", "worker": "c1", "state": "RUNNING" }
    ]);
    v["steps"][5]["actions"] = serde_json::json!([{ "type": "failTask", "group": "connect-cluster", "connector": "sink", "task": 8 },
                                                  { "type": "crashConsumer", "consumer": 5 },
                                                  { "type": "addWorker", "group": "nowhere" }]);
    v["steps"][6]["until"] = serde_json::json!({ "type": "scheduledRebalance", "group": "connect-cluster", "worker": "broker-1" });
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
    assert!(!e.contains("expect[4]") && !e.contains("'sink-0'") && !e.contains("'sink' is not a node"), "connectors and tasks are valid highlights and expectations:\n{e}");
}

#[test]
fn workers_are_numbered_after_consumers_and_a_worker_is_not_a_consumer() {
    let mut v = connect_lesson();
    v["scenario"]["topics"] = serde_json::json!([{ "name": "orders", "partitions": 2 }]);
    v["scenario"]["groups"] = serde_json::json!([{ "groupId": "demo", "consumers": 2, "config": { "topics": ["orders"] } }]);
    // Workers are now c3..c5: c1 is a consumer, c6 does not exist; a worker cannot be a consumer.
    v["steps"][0]["until"] = serde_json::json!({ "type": "taskState", "group": "connect-cluster", "task": "sink-5", "state": "RUNNING", "worker": "c1" });
    v["steps"][1]["until"] = serde_json::json!({ "type": "pollTimeout", "consumer": "c4" });
    v["steps"][1]["expect"] = serde_json::json!([{ "type": "workerTasks", "worker": "c6", "tasks": [] }, { "type": "leader", "group": "demo", "consumer": "c5" }]);
    let e = load_error(&v.to_string());
    for needle in [
        "step 1 (workers-join).until: 'c1' is not a Connect worker of this lesson (c3 of connect-cluster, c4 of connect-cluster, c5 of connect-cluster)",
        "step 2 (worker-crashes).until: 'c4' is a Connect worker, not a consumer (c1..c2)",
        "step 2 (worker-crashes).expect[0]: 'c6' is not a Connect worker",
    ] {
        assert!(e.contains(needle), "missing '{needle}' in:\n{e}");
    }
    assert!(!e.contains("step 2 (worker-crashes).expect[1]"), "a worker may lead a group (the check is on the world):\n{e}");
}

#[test]
fn a_connect_expectation_that_does_not_hold_says_where_the_task_is() {
    let mut v = connect_lesson();
    v["steps"][2]["expect"] = serde_json::json!([
        { "type": "task", "group": "connect-cluster", "task": "sink-1", "worker": "c1" },
        { "type": "task", "group": "connect-cluster", "task": "sink-0", "worker": null },
        { "type": "task", "group": "connect-cluster", "task": "sink-2", "worker": "c3", "state": "FAILED" },
        { "type": "workerGeneration", "worker": "c1", "generation": 7 },
        { "type": "scheduledRebalance", "worker": "c1", "at": null }
    ]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    let at = "lesson 11 step 3 (lost-tasks-held): ";
    assert_eq!(report.failures, vec![
        format!("{at}expected task sink-1 of connect-cluster on c1, but it is unassigned"),
        format!("{at}expected task sink-0 of connect-cluster unassigned (on no live worker), but it is RUNNING on c1"),
        format!("{at}expected task sink-2 of connect-cluster FAILED on c3, but it is RUNNING on c3"),
        format!("{at}expected c1 at generation 7, but it is 2"),
        format!("{at}expected c1's scheduled rebalance at none ms, but it is 39200"),
    ]);
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

/// `LESSON=4 cargo test --test lessons show_a_lesson -- --nocapture` prints when
/// each step of lesson 4 ends and the trace's narration, for lesson authors.
#[test]
fn show_a_lesson() {
    let Ok(key) = std::env::var("LESSON") else { return };
    let lesson = course().iter().find(|l| l.id == key || l.number.to_string() == key).expect("no such lesson");
    let (mut s, mut player) = groupscope::lesson::LessonSession::start(lesson.clone()).unwrap();
    let mut shown = 0;
    while s.phase != groupscope::lesson::Phase::Free {
        let answer = s.question().map(|q| q.answer.clone());
        let r = s.play_step_through(&mut player, answer);
        for e in &player.world.trace[shown..] {
            if let Some(line) = groupscope::narrate::sentence(&player.world, e, groupscope::i18n::Lang::En) {
                if !line.contains("Heartbeat") && !line.contains("heartbeat.interval") {
                    println!("{:>7} {line}", e.at);
                }
            }
        }
        shown = player.world.trace.len();
        match r {
            Ok(r) => println!("===== step {} ({}) reached at {} ms; failures {:?}", r.step + 1, s.current().id, r.at, r.failures),
            Err(e) => {
                println!("===== {e}");
                break;
            }
        }
        s.next(&mut player);
    }
}

fn kip848_lesson() -> serde_json::Value {
    let (_, json) = groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| *f == "10-kip-848.json").expect("lesson 10");
    serde_json::from_str(json).unwrap()
}

/// Lesson 10 (KIP-848): the coordinator fences the crashed member exactly
/// group.consumer.session.timeout.ms after its last heartbeat arrived (facts E4, E9).
#[test]
fn lesson_10_fences_the_crashed_member_one_session_timeout_after_its_last_heartbeat() {
    use groupscope::sim::trace::EventKind;
    use groupscope::sim::NodeId;
    let lesson = groupscope::lesson::find("kip-848").expect("lesson 10").clone();
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
            EventKind::MessageDelivered { from: NodeId::Client(2), to: NodeId::Broker(_), label, .. } if label.starts_with("ConsumerGroupHeartbeat") => Some(e.at),
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
    v["steps"][0]["until"] = serde_json::json!({ "type": "groupState", "group": "demo", "state": "PreparingRebalance" });
    v["steps"][1]["expect"] = serde_json::json!([
        { "type": "generation", "group": "demo", "generation": 1 },
        { "type": "leader", "group": "demo", "consumer": "c1" },
        { "type": "coordinatorMemberState", "consumer": "c1", "state": "UNREVOKED" },
        { "type": "memberState", "consumer": "c1", "state": "COMPLETING_REBALANCE" },
        { "type": "groupState", "group": "demo", "state": "Reconciling" },
        { "type": "memberEpoch", "consumer": "c9", "epoch": 1 }
    ]);
    v["steps"][2]["until"] = serde_json::json!({ "type": "memberState", "consumer": "c2", "state": "ACKNOWLEDGING" });
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
    assert!(!e.contains("expect[4]") && !e.contains("step 3"), "Reconciling and ACKNOWLEDGING are names of this protocol:\n{e}");

    // The other way round: KIP-848 pieces on a classic group and consumer.
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    v["steps"][1]["until"] = serde_json::json!({ "type": "fenced", "consumer": "c2" });
    v["steps"][1]["expect"] = serde_json::json!([
        { "type": "groupEpoch", "group": "demo", "epoch": 2 },
        { "type": "targetAssignmentEpoch", "group": "demo", "epoch": 2 },
        { "type": "memberEpoch", "consumer": "c1", "epoch": null },
        { "type": "targetAssignment", "consumer": "c1", "partitions": ["orders-0"] },
        { "type": "groupState", "group": "demo", "state": "Assigning" }
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
    let mut v = kip848_lesson();
    // A classic group next to the consumer group: c3 (classic) starts with the scenario,
    // the consumer added to demo by step 5 is c4.
    v["scenario"]["groups"].as_array_mut().unwrap().push(serde_json::json!({ "groupId": "classic", "consumers": 1, "config": { "topics": ["orders"] } }));
    v["steps"][5]["expect"] = serde_json::json!([
        { "type": "memberEpoch", "consumer": "c4", "epoch": 3 },
        { "type": "memberEpoch", "consumer": "c3", "epoch": 3 }
    ]);
    let e = load_error(&v.to_string());
    assert!(e.contains("step 6 (revoke-first).expect[1]: 'c3' is a classic consumer"), "{e}");
    assert!(!e.contains("expect[0]"), "c4 joined demo, a consumer-protocol group:\n{e}");
}

#[test]
fn a_kip_848_expectation_that_does_not_hold_says_what_the_coordinator_holds() {
    let mut v = kip848_lesson();
    v["steps"][4]["expect"] = serde_json::json!([
        { "type": "groupEpoch", "group": "demo", "epoch": 2 },
        { "type": "targetAssignmentEpoch", "group": "demo", "epoch": 5 },
        { "type": "memberEpoch", "consumer": "c3", "epoch": null },
        { "type": "consumerEpoch", "consumer": "c1", "epoch": 4 },
        { "type": "targetAssignment", "consumer": "c3", "partitions": ["orders-0"] },
        { "type": "coordinatorMemberState", "consumer": "c3", "state": "STABLE" },
        { "type": "owns", "consumer": "c1", "partitions": ["orders-0"] },
        { "type": "owner", "partition": "orders-5", "consumer": "c3" },
        { "type": "groupState", "group": "demo", "state": "Stable" },
        { "type": "memberState", "consumer": "c3", "state": "RECONCILING" }
    ]);
    let report = run(&load(&v.to_string()).unwrap(), Answers::Correct).unwrap();
    let at = "lesson 10 step 5 (third-member-joins): ";
    assert_eq!(report.failures, vec![
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
    ]);
}
