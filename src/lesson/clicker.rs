//! The keys inside a lesson, for a keyboard or a presenter's clicker.
//!
//! A clicker sends four keys: PageDown, PageUp, `b` and `.` (the last two for
//! "blank screen"). In presenter mode PageDown alone carries a room through
//! the whole course: it reveals a waiting question, performs a task's
//! intended action ("show me"), retries a missed try, goes on after an event,
//! and after the last step opens the next lesson. PageUp mirrors it: back to
//! this step's start, or from a question to the step before. Letters never
//! answer in presenter mode (`b` blanks the screen); digits 1–9 still pick.
//! At a desk, letters a–i and digits pick the choice at that position, and
//! → or PageDown reveal, retry or go on.

use crate::lesson::session::{LessonSession, Phase};
use crate::lesson::Choice;

/// What a key does to the lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Press {
    /// Commit this answer to the step's question.
    Answer(Choice),
    /// Try this option of the step's task (its index in the lesson file).
    Choose(usize),
    /// Show the question's answer without choosing (the room decides aloud).
    Reveal,
    /// Go back to before a missed try.
    Retry,
    /// On to the next step after the event.
    Next,
    /// Open lesson `number` at step index `step`: the next lesson after the
    /// last step, or a step's start going back.
    Open { number: u32, step: usize },
}

/// Keys that move forward: a clicker's "next" is PageDown.
fn forward(key: &str) -> bool {
    matches!(key, "ArrowRight" | "PageDown")
}

/// What `key` does in this lesson's current phase (`None`: the key is left to
/// the page, e.g. Space plays and pauses).
pub fn press(s: &LessonSession, key: &str, presenter: bool) -> Option<Press> {
    let position = match key.chars().next() {
        Some(c @ '1'..='9') if key.len() == 1 => Some(c as usize - '1' as usize),
        // A clicker's blank-screen key is `b`: letters never answer in presenter mode.
        Some(c @ ('a'..='i' | 'A'..='I')) if key.len() == 1 && !presenter => {
            Some(c.to_ascii_lowercase() as usize - 'a' as usize)
        }
        _ => None,
    };
    if presenter && key == "PageUp" {
        return back(s);
    }
    match s.phase {
        Phase::Question => match position {
            Some(p) => s.choice_at(p).map(Press::Answer),
            None => forward(key).then_some(Press::Reveal),
        },
        Phase::Act => match position {
            Some(p) => s.order().get(p).copied().map(Press::Choose),
            // "Show me": the option the task names as reaching its goal.
            None if presenter && forward(key) => s.task().map(|t| Press::Choose(t.answer)),
            None => None,
        },
        Phase::Missed if forward(key) => Some(Press::Retry),
        Phase::Reached if forward(key) => Some(Press::Next),
        Phase::Free if presenter && forward(key) => next_lesson(s),
        _ => None,
    }
}

/// PageUp in presenter mode: from a question or task, the step before (its
/// start); anywhere else in a step, back to this step's start.
fn back(s: &LessonSession) -> Option<Press> {
    let number = s.lesson.number;
    let waiting = matches!(s.phase, Phase::Question | Phase::Act);
    let step = if waiting { s.step.checked_sub(1)? } else { s.step };
    in_course(s).then_some(Press::Open { number, step })
}

/// The course's lesson after this one, if there is one.
fn next_lesson(s: &LessonSession) -> Option<Press> {
    if !in_course(s) {
        return None;
    }
    let lessons = crate::lesson::lessons().ok()?;
    let next = lessons.iter().filter(|l| l.number > s.lesson.number).min_by_key(|l| l.number)?;
    Some(Press::Open { number: next.number, step: 0 })
}

/// The lesson is the course's (a draft opened from a file cannot be reopened by number).
fn in_course(s: &LessonSession) -> bool {
    crate::lesson::find(&s.lesson.number.to_string()).is_some_and(|l| l.id == s.lesson.id)
}
