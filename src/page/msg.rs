//! Everything that can happen to the page, as values: the tabs, the welcome's
//! doors, the page's switches, a lesson's messages and the one message enum
//! `Msg` that `reduce` (`reduce.rs`) applies.

use super::explain::ExplainMsg;
use crate::compare::Comparison;
use crate::i18n::Lang;
use crate::inspect::Selection;
use crate::lesson::clicker::Press;
use crate::lesson::{Choice, Lesson};
use crate::player::{Action, Player};
use crate::sim::{Fault, Scenario};
use std::rc::Rc;

/// The page's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Simulation,
    Config,
    Lab,
    Lessons,
    Compare,
    Explain,
}

/// A door of the first-visit welcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door {
    Course,
    Demo,
    Sandbox,
}

/// The page's on/off switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// Presenter mode (large type, full screen).
    Presenter,
    Help,
    Legend,
    /// Presenter mode folds the secondary panels away; this shows them again.
    Panels,
    /// The folded actions (narrow screens).
    More,
    /// Presenter mode's blank screen (a clicker's `b` or `.`): the room looks
    /// at the teacher; the run pauses.
    Blank,
}

/// Unapplied JSON edits of the configuration tab with the scenario they
/// started from, kept in the page's state while the panel is unmounted
/// (another tab): a new run drops them.
pub type Draft = Rc<(Scenario, String)>;

/// What the lesson panel, the clicker and deep links ask of the open lesson.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonMsg {
    Open(u32, usize),
    /// A lesson file opened from disk (already validated).
    OpenDraft(Box<Lesson>),
    Answer(Choice),
    Reveal,
    /// The learner takes option `n` of the step's task.
    Choose(usize),
    Retry,
    Next,
    /// Open the step's side-by-side comparison (`Step::compare`).
    Compare,
    /// A "try it yourself" fault.
    Fault(Fault),
    Speed(f64),
    SameOrder(bool),
    Exit,
}

/// The lesson's message for a key's press (`lesson::clicker`).
impl From<Press> for LessonMsg {
    fn from(p: Press) -> LessonMsg {
        match p {
            Press::Answer(c) => LessonMsg::Answer(c),
            Press::Choose(i) => LessonMsg::Choose(i),
            Press::Reveal => LessonMsg::Reveal,
            Press::Retry => LessonMsg::Retry,
            Press::Next => LessonMsg::Next,
            Press::Open { number, step } => LessonMsg::Open(number, step),
        }
    }
}

/// Everything that can happen to the page.
pub enum Msg {
    /// The 16 ms timer: this much wall time (ms) passed.
    Tick(f64),
    /// The toolbar's clock (play, step, back, seek, speed, reset, a fault):
    /// the side-by-side panes while their tab shows, else the main run
    /// inside the lesson if one is open (undo offered after a fork).
    Action(Action),
    /// An action on the main run itself, whatever tab or lesson is open:
    /// what `window.groupscope` does.
    Direct(Action),
    /// Play the main run (`window.groupscope.play()`).
    Play,
    /// Replace the run (config panel, import, the JS API); closes any lesson.
    Load(Box<Player>),
    Lesson(LessonMsg),
    /// A press on the drawing: the answer to a "click what you predict"
    /// question, else the inspector's selection.
    Press(Selection),
    Select(Option<Selection>),
    /// Closes help and the selection.
    Escape,
    /// Presenting: pause and run on to the next event worth a caption.
    RunToCaption,
    SetTab(Tab),
    SetLang(Lang),
    Toggle(Flag),
    Set(Flag, bool),
    /// "Show fetches", chosen by the learner.
    ShowFetches(bool),
    Notice(Option<String>),
    /// The permalink, once compressed.
    Link(String),
    /// Undo the last fork.
    Undo,
    DismissUndo,
    /// Reset and forget the user's faults (Reset keeps them).
    ResetClear,
    /// The caption's offer while a slow consumer waits out its poll interval:
    /// this group's max.poll.interval.ms shortened, the run replayed with the faults.
    ShortenPollInterval(String),
    /// "Replay in the simulator" from the Explain logs tab.
    Replay(Box<Scenario>),
    /// Back to the run a replay replaced.
    ReplayBack,
    DismissReplay,
    /// A shipped comparison, by id.
    ComparePick(String),
    /// Compare the main run's scenario and faults.
    CompareThisRun,
    /// A comparison built from logs (the Explain logs tab).
    CompareLogs(Box<Comparison>),
    /// The welcome's demo or sandbox door (the course's door opens a lesson).
    Door(Door),
    /// The configuration panel's unapplied edits (`None`: none).
    ConfigDraft(Option<Draft>),
    /// The Explain logs tab: its paste, files, reading and findings.
    Explain(ExplainMsg),
    /// Nothing in the state changed but the page must draw again: the window
    /// was resized (the drawing's frame), the course arrived.
    Redraw,
}
