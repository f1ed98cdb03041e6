//! The course: every lesson file, embedded in the binary so the page has them
//! offline. Adding a lesson = adding its file to `lessons/` and one line here.

use super::model::Lesson;
use super::validate::load;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// (file name, contents), in course order.
pub const SOURCES: &[(&str, &str)] = &[
    ("01-finding-the-coordinator.json", include_str!("../../lessons/01-finding-the-coordinator.json")),
    ("02-joining.json", include_str!("../../lessons/02-joining.json")),
    ("03-the-leader-assigns.json", include_str!("../../lessons/03-the-leader-assigns.json")),
    ("04-consumer-crashes.json", include_str!("../../lessons/04-consumer-crashes.json")),
    ("05-alive-but-stuck.json", include_str!("../../lessons/05-alive-but-stuck.json")),
    ("06-offsets-and-duplicates.json", include_str!("../../lessons/06-offsets-and-duplicates.json")),
    ("07-eager-vs-cooperative.json", include_str!("../../lessons/07-eager-vs-cooperative.json")),
    ("08-static-membership.json", include_str!("../../lessons/08-static-membership.json")),
    ("09-coordinator-dies.json", include_str!("../../lessons/09-coordinator-dies.json")),
    ("10-kip-848.json", include_str!("../../lessons/10-kip-848.json")),
    ("11-kafka-connect.json", include_str!("../../lessons/11-kafka-connect.json")),
];

static LESSONS: OnceLock<Result<Vec<Lesson>, String>> = OnceLock::new();

fn load_all() -> Result<Vec<Lesson>, String> {
    let mut lessons = Vec::new();
    let mut errors = Vec::new();
    for (file, json) in SOURCES {
        match load(json) {
            Ok(l) => lessons.push(l),
            Err(e) => errors.push(format!("lessons/{file}:\n{e}")),
        }
    }
    let (mut ids, mut numbers) = (BTreeSet::new(), BTreeSet::new());
    for l in &lessons {
        if !ids.insert(l.id.clone()) {
            errors.push(format!("lesson id '{}' is used twice", l.id));
        }
        if !numbers.insert(l.number) {
            errors.push(format!("lesson number {} is used twice", l.number));
        }
    }
    if errors.is_empty() { Ok(lessons) } else { Err(errors.join("\n")) }
}

/// Every lesson, parsed and validated once.
pub fn lessons() -> Result<&'static [Lesson], String> {
    LESSONS.get_or_init(load_all).as_ref().map(Vec::as_slice).map_err(Clone::clone)
}

/// A lesson by number (`4`) or id (`consumer-crashes`).
pub fn find(key: &str) -> Option<&'static Lesson> {
    lessons().ok()?.iter().find(|l| l.id == key || l.number.to_string() == key)
}

impl Lesson {
    /// A step by 1-based number (`3`) or id.
    pub fn step_index(&self, key: &str) -> Option<usize> {
        if let Ok(n) = key.parse::<usize>() {
            return (1..=self.steps.len()).contains(&n).then(|| n - 1);
        }
        self.steps.iter().position(|s| s.id == key)
    }
}

/// Parses `#lesson=4&step=3` (or ids) into the lesson and step index.
pub fn parse_link(hash: &str) -> Option<(&'static Lesson, usize)> {
    let mut lesson = None;
    let mut step = None;
    for pair in hash.trim_start_matches('#').split('&') {
        match pair.split_once('=') {
            Some(("lesson", v)) => lesson = find(v),
            Some(("step", v)) => step = Some(v.to_string()),
            _ => {}
        }
    }
    let lesson = lesson?;
    let index = step.as_deref().map_or(Some(0), |s| lesson.step_index(s))?;
    Some((lesson, index))
}
