//! What the page must do outside its state after a message: `reduce` returns
//! these instead of touching the browser, and the page (`web/app/reducer.rs`)
//! performs them at once, while the click or key that sent the message is
//! still being handled (full screen needs that gesture).

use crate::lesson::Progress;

#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Keep this lesson's progress (the course list shows it, a reload resumes it).
    SaveProgress(Progress),
    /// Presenter mode asks for full screen; leaving it leaves full screen.
    FullScreen(bool),
    /// Keep "same order for everyone" on or off for the next visit.
    SaveSameOrder(bool),
    /// Keep this browser's seed for the order of choices, drawn for its first lesson.
    SaveLearnerSeed(u64),
}

/// What a message changed, and so which of the state's counters move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    /// The page's flags, tab, selection or panes; the main run is as it was.
    Page,
    /// The main run moved.
    Run,
    /// The main run was replaced, or a lesson acted on it.
    Replaced,
}
