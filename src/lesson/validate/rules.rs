//! The validator's rules for what a learner sees and does: every wrong
//! choice has its own "why not", a question's concealed items name groups of
//! the lesson, and tasks (the learner acts) are well formed.

use super::{text, Names};
use crate::lesson::conceal::Secret;
use crate::lesson::model::{Choice, Lesson, Question, Task};

/// `whyNot` and `conceals` of a question at `at`.
pub(super) fn question(errors: &mut Vec<String>, names: &Names, at: &str, q: &Question) {
    // The wrong options, by the key `whyNot` uses for them.
    let wrong: Vec<(String, String)> = if q.choices.is_empty() {
        q.targets
            .iter()
            .filter(|t| Choice::Target((*t).clone()) != q.answer)
            .map(|t| (t.clone(), format!("the target {t} of targets")))
            .collect()
    } else {
        (0..q.choices.len())
            .filter(|i| Choice::Index(*i) != q.answer)
            .map(|i| (i.to_string(), format!("choices[{i}]")))
            .collect()
    };
    for (key, what) in &wrong {
        match q.why_not.get(key) {
            Some(t) => text(errors, &format!("{at}.whyNot.{key}"), t),
            None => errors
                .push(format!("{at}.whyNot: {what} has no \"why not\" (each wrong option needs its own short reason)")),
        }
    }
    for key in q.why_not.keys() {
        if !wrong.iter().any(|(k, _)| k == key) {
            let options = if q.choices.is_empty() {
                format!("targets {:?}", q.targets)
            } else {
                format!("choices 0..{}", q.choices.len().saturating_sub(1))
            };
            errors.push(format!("{at}.whyNot.{key}: not a wrong option of this question (its {options}, answer {:?}; keys are the wrong choices' indexes or target names)", q.answer));
        }
    }
    for (k, s) in q.conceals.iter().enumerate() {
        let checked = match s {
            Secret::Leader { group } => {
                names.classic_group(group).map_err(|e| format!("{e} (a leader is a classic group's)"))
            }
            other => names.group(other.group()),
        };
        if let Err(e) = checked {
            errors.push(format!("{at}.conceals[{k}]: {e}"));
        }
    }
}

/// A task at `at`: both languages, at least two options (a real choice),
/// valid faults and a goal.
pub(super) fn task(errors: &mut Vec<String>, names: &Names, at: &str, t: &Task) {
    text(errors, &format!("{at}.prompt"), &t.prompt);
    text(errors, &format!("{at}.hint"), &t.hint);
    text(errors, &format!("{at}.done"), &t.done);
    if t.options.len() < 2 {
        errors.push(format!("{at}.options: a task needs at least 2 options, so the learner chooses what to do"));
    }
    for (i, o) in t.options.iter().enumerate() {
        text(errors, &format!("{at}.options[{i}].label"), &o.label);
        if o.faults.is_empty() {
            errors.push(format!("{at}.options[{i}].faults: an option must do something (at least one fault)"));
        }
        for (k, f) in o.faults.iter().enumerate() {
            if let Err(e) = names.fault(f) {
                errors.push(format!("{at}.options[{i}].faults[{k}]: {e}"));
            }
        }
        for (k, c) in o.checks.iter().enumerate() {
            if let Err(e) = names.expectation(&c.expect) {
                errors.push(format!("{at}.options[{i}].checks[{k}].expect: {e}"));
            }
            text(errors, &format!("{at}.options[{i}].checks[{k}].hint"), &c.hint);
        }
    }
    if t.answer >= t.options.len() {
        errors.push(format!(
            "{at}.answer: {} is out of range (there are {} options, numbered from 0)",
            t.answer,
            t.options.len()
        ));
    }
    if t.goal.is_empty() && t.options.iter().any(|o| o.checks.is_empty()) {
        errors.push(format!("{at}.goal: a task needs a goal the run checks (or checks on every option)"));
    }
    for (k, e) in t.goal.iter().enumerate() {
        if let Err(e) = names.expectation(e) {
            errors.push(format!("{at}.goal[{k}]: {e}"));
        }
    }
}

/// Lesson-wide: at least one task, a question and a task never share a
/// step, and a sensible speed.
pub(super) fn lesson(errors: &mut Vec<String>, l: &Lesson) {
    for (i, s) in l.steps.iter().enumerate() {
        if matches!(s.until, crate::lesson::model::Condition::Acted) && s.task.is_none() {
            errors.push(format!(
                "step {} ({}).until: 'acted' waits for the learner's action, so the step needs a task",
                i + 1,
                s.id
            ));
        }
        if s.question.is_some() && s.task.is_some() {
            errors.push(format!(
                "step {} ({}): give a question or a task, not both (predict in one step, act in another)",
                i + 1,
                s.id
            ));
        }
    }
    if !l.steps.iter().any(|s| s.task.is_some()) {
        errors
            .push("steps: a lesson needs at least one step where the learner acts (a task); this one has none".into());
    }
    if !(1..=100).contains(&l.speed) {
        errors.push(format!("speed: {} is outside 1..=100 (simulated ms per wall ms)", l.speed));
    }
}
