//! The page's one state: the run (shared, see `run.rs`) and everything small
//! around it: language, tab, selection, notices, the undo a fork offers, the
//! switches, the permalink, the tabs' kept work and the counters that tell the
//! slower panels to redraw.

use super::explain::Kept;
use super::msg::{Draft, Flag, Tab};
use super::run::{Replayed, Run, RunView};
use crate::i18n::{trf, Lang};
use crate::inspect::Selection;
use crate::permalink::Permalink;
use crate::player::Player;
use crate::sim::Scenario;
use crate::view::history::Undo;
use std::cell::{Ref, RefCell};
use std::rc::Rc;

/// The order of a lesson's choices for this learner: the browser's own seed
/// (drawn once, then kept), or the authored order for everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learner {
    /// "Same order for everyone" (presenters ask for it).
    pub same_order: bool,
    /// The seed this browser kept, if it has one.
    pub seed: Option<u64>,
    /// A seed drawn at start, kept (`Effect::SaveLearnerSeed`) if the browser had none.
    pub fresh: u64,
}

/// What the page starts from: read from the browser before it mounts.
pub struct Startup {
    pub lang: Lang,
    /// Start playing at once (tests); the page starts paused.
    pub autoplay: bool,
    /// The permalink the page was opened with: the run, or why it cannot be opened.
    pub link: Option<Result<Permalink, String>>,
    pub learner: Learner,
}

/// The page's state. Copied by a message that may change it (a tick that
/// moves nothing returns the state as it was, uncopied): everything but the
/// run is small (the undo's script sits behind an `Rc`).
#[derive(Clone)]
pub struct AppState {
    pub(super) run: Rc<RefCell<Run>>,
    pub lang: Lang,
    pub tab: Tab,
    pub selection: Option<Selection>,
    pub notice: Option<String>,
    /// What the last fork discarded, while it can be undone.
    pub undo: Option<Rc<Undo>>,
    /// The run a replay of logs replaced, while it can be brought back.
    pub replayed: Option<Replayed>,
    pub presenter: bool,
    pub help: bool,
    pub legend: bool,
    pub panels: bool,
    pub more: bool,
    pub blank: bool,
    /// "Show fetches": the learner's choice, or (None) on at 2× and slower.
    pub show_fetches: Option<bool>,
    /// The permalink's address, once made.
    pub link: String,
    /// The configuration panel's unapplied edits, kept while other tabs are open.
    pub config_draft: Option<Draft>,
    /// The Explain logs tab's work, kept while other tabs are open (a new
    /// `Kept` for every change: the tab redraws when it is another one).
    pub explain: Rc<Kept>,
    pub learner: Learner,
    /// Bumped by every change of the main run: a tick that simulated, an
    /// action, a load, a lesson message. Paused, the slower panels redraw when it moves.
    pub run_version: u64,
    /// Bumped when the run is replaced (load, replay) or a lesson message
    /// acts: the slower panels redraw at once, even while playing.
    pub revision: u64,
}

/// Two states are equal when they are the same state: `reduce` returns the
/// state it was given when a message changed nothing (a tick while paused),
/// and the page then skips the render.
impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl AppState {
    /// The linked run, or the demo (with a notice saying why a link could not
    /// be opened; the address bar keeps the link).
    pub fn new(start: Startup) -> AppState {
        let lang = start.lang;
        let demo = || Player::new(Scenario::demo()).expect("the demo scenario is valid");
        let (mut player, notice) = match start.link.map(|l| l.and_then(|l| l.restore())) {
            None => (demo(), None),
            Some(Ok(p)) => (p, None),
            Some(Err(e)) => (demo(), Some(trf(lang, "notice.badlink", &[&e]))),
        };
        player.playing = start.autoplay;
        AppState {
            run: Rc::new(RefCell::new(Run { player, lesson: None, compare: None })),
            lang,
            tab: Tab::Simulation,
            selection: None,
            notice,
            undo: None,
            replayed: None,
            presenter: false,
            help: false,
            legend: false,
            panels: false,
            more: false,
            blank: false,
            show_fetches: None,
            link: String::new(),
            config_draft: None,
            explain: Rc::default(),
            learner: start.learner,
            run_version: 0,
            revision: 0,
        }
    }

    pub fn run_view(&self) -> RunView {
        RunView(Rc::clone(&self.run))
    }

    /// Reads the run (as `RunView::get`).
    pub fn run(&self) -> Ref<'_, Run> {
        self.run.borrow()
    }

    pub fn flag(&self, f: Flag) -> bool {
        match f {
            Flag::Presenter => self.presenter,
            Flag::Help => self.help,
            Flag::Legend => self.legend,
            Flag::Panels => self.panels,
            Flag::More => self.more,
            Flag::Blank => self.blank,
        }
    }

    pub(super) fn flag_mut(&mut self, f: Flag) -> &mut bool {
        match f {
            Flag::Presenter => &mut self.presenter,
            Flag::Help => &mut self.help,
            Flag::Legend => &mut self.legend,
            Flag::Panels => &mut self.panels,
            Flag::More => &mut self.more,
            Flag::Blank => &mut self.blank,
        }
    }
}
