//! The ids the Side by side tab's panes go by besides the shipped
//! comparisons' (`examples::COMPARISONS`) and `compare::clock::THIS_RUN`.

/// The id of the comparison replayed from logs (the Explain logs tab's "Compare").
pub const FROM_LOGS: &str = "from-logs";

/// The id of a lesson step's comparison (`Step::compare`).
pub fn lesson_id(lesson: &str, step: &str) -> String {
    format!("lesson-{lesson}-{step}")
}
