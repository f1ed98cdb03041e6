//! The headless runner: plays a lesson to the end on the native core, the
//! way the page does, and reports every expectation that did not hold.

use super::model::{Choice, Lesson};
use super::session::{LessonSession, Phase};
use crate::sim::{invariants, Millis};

/// How the runner answers questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    Correct,
    /// The first option that is not the answer.
    Wrong,
    /// Reveal without answering (presenter mode).
    Reveal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepReport {
    pub id: String,
    /// Simulated time when the step began.
    pub started_at: Millis,
    /// Simulated time when the step's event happened.
    pub reached_at: Millis,
    /// Whether the given answer was right (`None`: no question, or revealed).
    pub correct: Option<bool>,
    /// A task step: the tries that missed its goal before one reached it.
    pub missed_tries: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub steps: Vec<StepReport>,
    /// Expectations that did not hold and invariant violations, each naming its step.
    pub failures: Vec<String>,
    pub trace_hash: u64,
}

fn wrong(q: &super::model::Question) -> Choice {
    if q.choices.is_empty() {
        let t = q.targets.iter().find(|t| Choice::Target((*t).clone()) != q.answer).expect("validated: 2+ targets");
        Choice::Target(t.clone())
    } else {
        (0..q.choices.len()).map(Choice::Index).find(|c| *c != q.answer).expect("validated: 2+ choices")
    }
}

/// Plays `lesson` to its end. `Err` when a step's event never happens or a
/// question would come after its outcome.
pub fn run(lesson: &Lesson, answers: Answers) -> Result<Report, String> {
    let (mut s, mut player) = LessonSession::start(lesson.clone())?;
    let mut report = Report { steps: Vec::new(), failures: Vec::new(), trace_hash: 0 };
    while s.phase != Phase::Free {
        let at = format!("lesson {} step {} ({})", lesson.number, s.step + 1, s.current().id);
        let started_at = s.started_at();
        let choice = match (s.question(), answers) {
            (Some(q), Answers::Correct) => Some(q.answer.clone()),
            (Some(q), Answers::Wrong) => Some(wrong(q)),
            _ => None,
        };
        // A task: the wrong pass first tries an option that misses the goal.
        let task = s.task().cloned();
        let reached = match (&task, answers) {
            (Some(t), Answers::Wrong) => {
                let miss = (0..t.options.len())
                    .find(|i| *i != t.answer)
                    .ok_or(format!("{at}: the task has only one option"))?;
                let r = s.play_step_through(&mut player, Some(Choice::Index(miss)))?;
                if r.missed.is_none() {
                    return Err(format!("{at}: option {miss} of the task should miss its goal, but it reached it"));
                }
                s.retry(&mut player)?;
                s.play_step_through(&mut player, None)?
            }
            _ => s.play_step_through(&mut player, choice)?,
        };
        if let (Some(m), Some(t)) = (&reached.missed, &task) {
            return Err(format!("{at}: the task's answer (option {}) missed its goal: {m}", t.answer));
        }
        let correct = s.current_feedback().filter(|f| f.chosen.is_some()).map(|f| f.correct);
        report.failures.extend(reached.failures.iter().map(|f| format!("{at}: {f}")));
        report.failures.extend(
            invariants::check(&player.world)
                .into_iter()
                .map(|v| format!("{at}: invariant {}: {}", v.invariant, v.detail)),
        );
        report.steps.push(StepReport {
            id: s.current().id.clone(),
            started_at,
            reached_at: reached.at,
            correct,
            missed_tries: s.tries[s.step].0,
        });
        s.next(&mut player);
    }
    for e in &player.world.trace {
        if let crate::sim::trace::EventKind::InvariantViolated { invariant, detail } = &e.kind {
            report.failures.push(format!("lesson {}: invariant {invariant} at {} ms: {detail}", lesson.number, e.at));
        }
    }
    report.trace_hash = crate::sim::trace::trace_hash(&player.world.trace);
    Ok(report)
}
