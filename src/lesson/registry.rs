//! The course: the lesson files of `lessons/`, in course order. Native builds
//! (tests, tools) embed them; the page reads the site's `lessons/index.json`
//! at run time and fetches the files it lists, when the Lessons tab or a
//! lesson link is opened. So a teacher adds a lesson to a built site by adding
//! its file and one line to `index.json`; in the repository, the line goes in
//! `course!` here too (a test checks the two lists agree).

use super::model::Lesson;
use super::validate::load;
use std::collections::BTreeSet;
use std::sync::OnceLock;

macro_rules! course {
    ($($file:literal),* $(,)?) => {
        /// The lesson file names, in course order.
        pub const FILES: &[&str] = &[$($file),*];
        /// (file name, contents), in course order.
        #[cfg(not(target_arch = "wasm32"))]
        pub const SOURCES: &[(&str, &str)] = &[$(($file, include_str!(concat!("../../lessons/", $file)))),*];
    };
}

course!(
    "00-kafka-in-the-simulator.json",
    "01-finding-the-coordinator.json",
    "02-joining.json",
    "03-the-leader-assigns.json",
    "04-consumer-crashes.json",
    "05-alive-but-stuck.json",
    "06-offsets-and-duplicates.json",
    "07-eager-vs-cooperative.json",
    "08-static-membership.json",
    "09-coordinator-dies.json",
    "10-kip-848.json",
    "11-kip-848-reconciliation.json",
    "12-kafka-connect.json",
    "13-lag-and-scaling.json",
    "14-rebalance-storms.json",
    "15-assignor-trade-offs.json",
    "16-choosing-timeouts.json",
    "17-delivery-semantics.json",
    "18-storms-compared.json",
    "19-share-groups-queues.json",
    "20-share-group-crash.json",
    "21-poison-record.json",
    "22-share-scaling.json",
    "23-streams-tasks.json",
    "24-streams-standbys.json",
    "25-streams-not-ready.json",
);

/// The runtime index of the site's `lessons/` folder: a JSON array of file names.
pub const INDEX: &str = "index.json";

/// Parses `lessons/index.json`: file names in course order, each a plain
/// `*.json` name in the folder.
pub fn parse_index(json: &str) -> Result<Vec<String>, String> {
    let files: Vec<String> = serde_json::from_str(json)
        .map_err(|e| format!("lessons/{INDEX}: {e} (expected a JSON array of lesson file names)"))?;
    for (i, f) in files.iter().enumerate() {
        if !f.ends_with(".json") || f.contains('/') || f.contains('\\') || f == INDEX {
            return Err(format!(
                "lessons/{INDEX}[{i}]: '{f}' is not a lesson file name in the folder (like 04-consumer-crashes.json)"
            ));
        }
    }
    if files.is_empty() {
        return Err(format!("lessons/{INDEX}: the index lists no lessons"));
    }
    Ok(files)
}

/// What `lessons()` says in the page before the course has been fetched.
pub const NOT_LOADED: &str = "the lessons are not loaded yet";

static LESSONS: OnceLock<Result<Vec<Lesson>, String>> = OnceLock::new();

/// Parses and validates every lesson, and checks ids and numbers are unique.
pub fn parse_course<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Vec<Lesson>, String> {
    let mut lessons = Vec::new();
    let mut errors = Vec::new();
    for (file, json) in sources {
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
    if errors.is_empty() {
        errors.extend(super::fair::balance(&lessons));
    }
    if errors.is_empty() {
        Ok(lessons)
    } else {
        Err(errors.join("\n"))
    }
}

/// The page hands over the fetched course (or why it could not be fetched)
/// once; later calls change nothing.
pub fn install(course: Result<Vec<Lesson>, String>) {
    let _ = LESSONS.set(course);
}

/// Every lesson, parsed and validated once (in the page: once fetched).
pub fn lessons() -> Result<&'static [Lesson], String> {
    #[cfg(not(target_arch = "wasm32"))]
    let course = Some(LESSONS.get_or_init(|| parse_course(SOURCES.iter().copied())));
    #[cfg(target_arch = "wasm32")]
    let course = LESSONS.get();
    course.ok_or_else(|| NOT_LOADED.to_string())?.as_ref().map(Vec::as_slice).map_err(Clone::clone)
}

/// Whether `lessons()` has its answer (always, natively).
pub fn loaded() -> bool {
    cfg!(not(target_arch = "wasm32")) || LESSONS.get().is_some()
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
    explain_link(hash).ok()
}

/// Why a lesson link cannot be opened (the page says it in the learner's language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLink {
    /// No lesson has this number or id; the course's numbers are `first..=last`.
    NoLesson { key: String, first: u32, last: u32 },
    /// The lesson has no such step; its steps are `1..=steps`.
    NoStep { lesson: u32, key: String, steps: usize },
    /// The course itself did not load (the reason).
    Course(String),
}

/// `parse_link`, saying what is wrong with a bad link.
pub fn explain_link(hash: &str) -> Result<(&'static Lesson, usize), BadLink> {
    let course = lessons().map_err(BadLink::Course)?;
    let (mut key, mut step) = (String::new(), None);
    for pair in hash.trim_start_matches('#').split('&') {
        match pair.split_once('=') {
            Some(("lesson", v)) => key = v.to_string(),
            Some(("step", v)) => step = Some(v.to_string()),
            _ => {}
        }
    }
    let numbers =
        || (course.iter().map(|l| l.number).min().unwrap_or(0), course.iter().map(|l| l.number).max().unwrap_or(0));
    let Some(lesson) = find(&key) else {
        let (first, last) = numbers();
        return Err(BadLink::NoLesson { key, first, last });
    };
    match step {
        None => Ok((lesson, 0)),
        Some(s) => lesson.step_index(&s).map(|i| (lesson, i)).ok_or(BadLink::NoStep {
            lesson: lesson.number,
            key: s,
            steps: lesson.steps.len(),
        }),
    }
}
