//! Static checks of a lesson: both languages present, ids unique and stable,
//! names that exist in the scenario, questions well formed. Every problem is
//! reported with where it is.
//!
//! - this file: `validate`, `load`, `upgrade` (the older file format) and the
//!   text and question checks;
//! - `names`: what the scenario makes exist, and the checks of a name;
//! - `steps`: the names a step's actions, `until` and `expect` use;
//! - `states`: the state names Kafka has (groups, members, Connect);
//! - `rules`: what a learner sees and does (`whyNot`, `conceals`, tasks).

use super::model::{Choice, Condition, Lesson, Question, Text};
use names::Names;
use std::collections::BTreeSet;

mod names;
mod rules;
mod states;
mod steps;

/// Longest a step may wait for its event.
pub const MAX_WITHIN_MS: u64 = 600_000;

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Han characters: a `zh` sentence must contain some (an untranslated copy does not).
fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Two plain words in a row (`the group`): English prose rather than a name
/// like `__consumer_offsets-8`, which reads the same in both languages.
fn is_prose(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    words.windows(2).any(|w| w.iter().all(|x| x.chars().all(|c| c.is_ascii_alphabetic())))
}

fn text(errors: &mut Vec<String>, at: &str, t: &Text) {
    if t.en.trim().is_empty() {
        errors.push(format!("{at}.en: the English text is missing or empty"));
    }
    if t.zh.trim().is_empty() {
        errors.push(format!("{at}.zh: the Chinese text is missing or empty"));
    } else if !has_han(&t.zh) && is_prose(&t.zh) {
        errors.push(format!("{at}.zh: the Chinese text is English words with no Chinese characters"));
    }
}

fn question(errors: &mut Vec<String>, names: &Names, at: &str, q: &Question) {
    text(errors, &format!("{at}.prompt"), &q.prompt);
    text(errors, &format!("{at}.explanation"), &q.explanation);
    match (q.choices.is_empty(), q.targets.is_empty()) {
        (false, false) => errors.push(format!("{at}: give either choices or targets, not both")),
        (true, true) => {
            errors.push(format!("{at}: give choices (multiple choice) or targets (click a node or partition)"))
        }
        (false, true) => {
            if q.choices.len() < 2 {
                errors.push(format!("{at}.choices: a question needs at least 2 choices"));
            }
            for (i, c) in q.choices.iter().enumerate() {
                text(errors, &format!("{at}.choices[{i}]"), c);
            }
            match &q.answer {
                Choice::Index(i) if *i < q.choices.len() => {}
                Choice::Index(i) => errors.push(format!(
                    "{at}.answer: {i} is out of range (there are {} choices, numbered from 0)",
                    q.choices.len()
                )),
                Choice::Target(t) => errors.push(format!("{at}.answer: '{t}' must be the index of a choice")),
            }
        }
        (true, false) => {
            if q.targets.len() < 2 {
                errors.push(format!("{at}.targets: a question needs at least 2 targets"));
            }
            for t in &q.targets {
                if let Err(e) = names.element(t) {
                    errors.push(format!("{at}.targets: {e}"));
                }
            }
            match &q.answer {
                Choice::Target(t) if q.targets.contains(t) => {}
                other => errors.push(format!("{at}.answer: {other:?} is not one of the targets {:?}", q.targets)),
            }
        }
    }
}

/// Every problem of `lesson`, each naming where it is; empty when valid.
pub fn validate(lesson: &Lesson) -> Vec<String> {
    let mut errors = Vec::new();
    if !is_id(&lesson.id) {
        errors.push(format!("id: '{}' must be lowercase letters, digits and '-'", lesson.id));
    }
    text(&mut errors, "title", &lesson.title);
    text(&mut errors, "summary", &lesson.summary);
    if let Err(e) = lesson.scenario.validate() {
        // The steps name the scenario's consumers and topics: an impossible
        // scenario (4 billion consumers) is reported alone, its names never built.
        errors.push(crate::json::under("scenario", &e));
        let prefix = format!("lesson {} ({})", lesson.number, lesson.id);
        return errors.into_iter().map(|e| format!("{prefix}: {e}")).collect();
    }
    let names = Names::of(lesson);
    if lesson.steps.is_empty() {
        errors.push("steps: a lesson needs at least one step".into());
    }
    let mut ids = BTreeSet::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = format!("step {} ({})", i + 1, step.id);
        if !is_id(&step.id) {
            errors.push(format!("{at}.id: must be lowercase letters, digits and '-'"));
        }
        if !ids.insert(step.id.as_str()) {
            errors.push(format!("{at}.id: '{}' is used by an earlier step", step.id));
        }
        text(&mut errors, &format!("{at}.narration"), &step.narration);
        for h in &step.highlights {
            if let Err(e) = names.element(h) {
                errors.push(format!("{at}.highlights: {e}"));
            }
        }
        for (k, f) in step.actions.iter().enumerate() {
            if let Err(e) = names.fault(f) {
                errors.push(format!("{at}.actions[{k}]: {e}"));
            }
        }
        if let Err(e) = names.condition(&step.until) {
            errors.push(format!("{at}.until: {e}"));
        }
        if step.within_ms == 0 || step.within_ms > MAX_WITHIN_MS {
            errors.push(format!("{at}.withinMs: {} is outside 1..={MAX_WITHIN_MS}", step.within_ms));
        }
        for (k, e) in step.expect.iter().enumerate() {
            if let Err(e) = names.expectation(e) {
                errors.push(format!("{at}.expect[{k}]: {e}"));
            }
        }
        if step.actions_after_answer && (step.question.is_none() || step.actions.is_empty()) {
            errors.push(format!("{at}.actionsAfterAnswer: needs both a question and actions"));
        }
        if let Some(q) = &step.question {
            question(&mut errors, &names, &format!("{at}.question"), q);
            if matches!(step.until, Condition::Elapsed { .. }) {
                errors.push(format!(
                    "{at}.until: a question step must wait for the event it asks about, not for elapsed time"
                ));
            }
            if step.expect.is_empty() {
                errors
                    .push(format!("{at}.expect: a question step needs expectations that check the outcome it reveals"));
            }
            rules::question(&mut errors, &names, &format!("{at}.question"), q);
        }
        if let Some(t) = &step.task {
            rules::task(&mut errors, &names, &format!("{at}.task"), t);
        }
        if let Some(c) = &step.compare {
            text(&mut errors, &format!("{at}.compare.label"), &c.label);
            if let Err(e) = c.comparison() {
                errors.push(format!("{at}.compare.{e}"));
            }
        }
    }
    let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
    if questions < 2 {
        errors.push(format!(
            "steps: a lesson needs at least 2 questions (predict, then reveal); this one has {questions}"
        ));
    }
    rules::lesson(&mut errors, lesson);
    text(&mut errors, "tryIt.text", &lesson.try_it.text);
    text(&mut errors, "tryIt.experiment", &lesson.try_it.experiment);
    // Wrap-ups and a task's "done" may say what the run shows then (lesson/live_text.rs).
    let groups = crate::view::group_ids_of(&lesson.scenario);
    let live = [("tryIt.text", &lesson.try_it.text)].into_iter().chain(
        lesson
            .steps
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.task.as_ref().map(move |t| (i, t)))
            .map(|(_, t)| ("task.done", &t.done)),
    );
    for (at, t) in live {
        for (lang, words) in [("en", &t.en), ("zh", &t.zh)] {
            for e in crate::lesson::live_text::check(words, &groups) {
                errors.push(format!("{at}.{lang}: {e}"));
            }
        }
    }
    for (k, f) in lesson.try_it.faults.iter().enumerate() {
        if let Err(e) = names.fault(f) {
            errors.push(format!("tryIt.faults[{k}]: {e}"));
        }
    }
    let prefix = format!("lesson {} ({})", lesson.number, lesson.id);
    errors.into_iter().map(|e| format!("{prefix}: {e}")).collect()
}

/// Parses a lesson file and validates it; the error lists every problem.
/// A file in the older format (see [`upgrade`]) is read too.
pub fn load(json: &str) -> Result<Lesson, String> {
    let mut value: Option<serde_json::Value> = crate::json::from_str(json).ok();
    let upgraded = value.as_mut().and_then(|v| upgrade(v).then(|| v.to_string()));
    let json = upgraded.as_deref().unwrap_or(json);
    let lesson: Lesson = crate::json::from_str_object(json).map_err(|e| format!("lesson JSON: {e}"))?;
    let errors = validate(&lesson);
    if errors.is_empty() {
        Ok(lesson)
    } else {
        Err(errors.join("\n"))
    }
}

/// Rewrites a lesson written in the older format, where a step's `until`, its
/// `expect`, a task's `goal` and `checks[].expect`, and a question's
/// `conceals` were tagged inside (`{"type": "groupState", "group": "demo"}`),
/// to today's (`{"groupState": {"group": "demo"}}`, and `"acted"`). Faults
/// keep their `type`. Says whether anything changed.
pub fn upgrade(lesson: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    fn tagged(v: &mut Value) -> bool {
        let Some(map) = v.as_object_mut() else { return false };
        let Some(Value::String(kind)) = map.get("type").cloned() else { return false };
        map.remove("type");
        let fields = std::mem::take(map);
        *v = if fields.is_empty() && kind == "acted" {
            Value::String(kind)
        } else {
            Value::Object([(kind, Value::Object(fields))].into_iter().collect())
        };
        true
    }
    fn each(v: Option<&mut Value>, f: &mut impl FnMut(&mut Value) -> bool) -> bool {
        let Some(Value::Array(xs)) = v else { return false };
        xs.iter_mut().fold(false, |changed, x| f(x) | changed)
    }
    let mut changed = false;
    for step in lesson.get_mut("steps").and_then(Value::as_array_mut).into_iter().flatten() {
        changed |= step.get_mut("until").is_some_and(tagged);
        changed |= each(step.get_mut("expect"), &mut tagged);
        if let Some(q) = step.get_mut("question") {
            changed |= each(q.get_mut("conceals"), &mut tagged);
        }
        if let Some(t) = step.get_mut("task") {
            changed |= each(t.get_mut("goal"), &mut tagged);
            changed |= each(t.get_mut("options"), &mut |o| {
                each(o.get_mut("checks"), &mut |c| c.get_mut("expect").is_some_and(tagged))
            });
        }
    }
    changed
}
