//! The course: every lesson validates, runs headless to its end with every
//! expectation holding (so lessons double as golden regression tests of the
//! simulation), and broken lessons are rejected with clear messages.

use groupscope::lesson::runner::{run, Answers};
use groupscope::lesson::validate::{load, validate};
use groupscope::lesson::{lessons, parse_link, Choice, Lesson, LessonSession, Phase};
use groupscope::player::Action;

mod clicker;
mod course_lessons;
mod live_text;
mod protocols;
mod questions;
mod session;
mod streams;
mod validation;
mod watch;

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

fn connect_lesson() -> serde_json::Value {
    course_file("12-kafka-connect.json")
}

#[test]
fn the_docs_example_lesson_is_valid_and_runs_to_its_end() {
    let doc = include_str!("../../docs/lessons.md");
    let section = &doc[doc.find("## A complete lesson").expect("docs/lessons.md section")..];
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

/// A lesson of the course as JSON, by its file name.
fn course_file(name: &str) -> serde_json::Value {
    let (_, json) = groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| *f == name).expect(name);
    serde_json::from_str(json).unwrap()
}

fn kip848_part2() -> serde_json::Value {
    course_file("11-kip-848-reconciliation.json")
}

fn kip848_lesson() -> serde_json::Value {
    course_file("10-kip-848.json")
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

fn storms_lesson() -> serde_json::Value {
    let text = groupscope::lesson::registry::SOURCES.iter().find(|(f, _)| f.starts_with("18-")).expect("lesson 18").1;
    serde_json::from_str(text).unwrap()
}

fn step_expectation_count(lesson: &Lesson, step: &str) -> u32 {
    let v = serde_json::to_value(lesson.steps.iter().find(|s| s.id == step).unwrap()).unwrap();
    v["expect"][0]["rebalances"]["count"].as_u64().unwrap() as u32
}
