//! The course: every lesson validates, runs headless to its end with every
//! expectation holding (so lessons double as golden regression tests of the
//! simulation), and broken lessons are rejected with clear messages.

use groupscope::lesson::runner::{run, Answers};
use groupscope::lesson::{lessons, Lesson};

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
            if let Some(line) = groupscope::narrate::sentence(&player.world, e) {
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
