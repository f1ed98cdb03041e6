//! The Explain logs tab's work, kept in the page's state (`AppState::explain`)
//! so it outlives the tab while other tabs are open: the paste, the chosen
//! files, the read in progress and what the last read found. Changed only by
//! `ExplainMsg`s through the page's reducer; the reading itself is the tab's
//! (`web/explain_tab.rs`).

use crate::explain::model::Report;
use crate::explain::replay;
use crate::sim::Scenario;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;

/// What one read of the tab gave.
pub struct Outcome {
    pub report: Report,
    /// Files that could not be read (name, why).
    pub unreadable: Vec<(String, String)>,
    /// Per group (in report order), its replay scenario or why there is none.
    pub replays: Vec<Result<Scenario, String>>,
}

impl Outcome {
    pub fn new(report: Report, unreadable: Vec<(String, String)>) -> Outcome {
        let replays = report.groups.iter().map(replay::scenario_for).collect();
        Outcome { report, unreadable, replays }
    }
}

/// A log file the learner chose: its name and size, and the handle the tab
/// reads it through (the browser's `File` on the page).
#[derive(Clone)]
pub struct LogFile {
    pub name: String,
    /// Bytes.
    pub size: f64,
    pub handle: Rc<dyn Any>,
}

/// How the last read ended, as the tab shows it.
#[derive(Clone, Default)]
pub enum Shown {
    #[default]
    Nothing,
    Explained(Rc<Outcome>),
    /// Too much to read here: (MB given, MB allowed).
    TooBig(u64, u64),
    Empty,
    Cancelled,
}

/// The tab's work (a new `Kept` for every change: the tab redraws when it is another one).
#[derive(Clone, Default)]
pub struct Kept {
    pub text: Rc<String>,
    pub files: Rc<Vec<LogFile>>,
    /// (bytes read, bytes in all) while a read runs.
    pub reading: Option<(u64, u64)>,
    pub shown: Shown,
    /// The read in progress: set to `true` to stop it (a new read, Stop, Clear).
    stop: Option<Rc<Cell<bool>>>,
}

/// What happens in the tab, for the page's reducer.
pub enum ExplainMsg {
    /// The paste, as the learner left it.
    Text(String),
    Files(Vec<LogFile>),
    /// A read of this many bytes begins; its token stops it.
    Started(u64, Rc<Cell<bool>>),
    /// The read with this token has read this many bytes.
    Progress(Rc<Cell<bool>>, u64),
    /// The read with this token ended (`None`: it was stopped).
    Done(Rc<Cell<bool>>, Option<Outcome>),
    /// Nothing to read, or too much.
    Refused(Shown),
    Stop,
    Clear,
}

impl Kept {
    fn is_current(&self, token: &Rc<Cell<bool>>) -> bool {
        self.stop.as_ref().is_some_and(|t| Rc::ptr_eq(t, token))
    }

    /// Stops the read in progress, if any.
    fn stop_reading(&mut self) {
        if let Some(t) = self.stop.take() {
            t.set(true);
        }
        self.reading = None;
    }

    /// Applies one message (from the page's `reduce`).
    pub fn apply(&mut self, m: ExplainMsg) {
        match m {
            ExplainMsg::Text(t) => self.text = Rc::new(t),
            ExplainMsg::Files(f) => self.files = Rc::new(f),
            ExplainMsg::Started(total, token) => {
                self.stop_reading();
                self.stop = Some(token);
                self.reading = Some((0, total));
            }
            ExplainMsg::Progress(token, done) => {
                if self.is_current(&token) {
                    self.reading = self.reading.map(|(_, total)| (done, total));
                }
            }
            ExplainMsg::Done(token, out) => {
                if self.is_current(&token) {
                    self.stop = None;
                    self.reading = None;
                    self.shown = out.map_or(Shown::Cancelled, |o| Shown::Explained(Rc::new(o)));
                }
            }
            ExplainMsg::Refused(shown) => self.shown = shown,
            ExplainMsg::Stop => {
                self.stop_reading();
                self.shown = Shown::Cancelled;
            }
            ExplainMsg::Clear => {
                self.stop_reading();
                self.text = Rc::default();
                self.files = Rc::default();
                self.shown = Shown::Nothing;
            }
        }
    }
}
