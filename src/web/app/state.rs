//! The page's one state and its one update function (yew's `Reducible`, as in
//! yew's `function_todomvc`): every click, key, timer tick, lesson message
//! and `window.groupscope` call is a `Msg`, and `reduce` is the only code that
//! changes the run, the open lesson, the side-by-side panes or the page's flags.
//!
//! The run (player, lesson, panes) is large and mutable: copying a world of
//! 100 members for every frame would cost more than the frame, so it lives in
//! one `Rc<RefCell<Run>>` that every state shares. Only this module borrows it
//! mutably, inside `reduce`; components and the JS API's getters read it
//! through `RunView`. What a message changed decides which counters `reduce`
//! bumps (`run_version`, `revision`), in one place, and the slower panels key
//! on them (`cached::slow_version`), so none can miss a change.

use super::super::compare_view::FROM_LOGS;
use super::super::config_panel::Draft;
use super::super::explain_tab::{ExplainMsg, Kept};
use super::super::lesson_panel::{save_progress, LessonMsg};
use super::super::prefs;
use super::super::toolbar::Tab;
use super::super::welcome::Door;
use super::{actions, lesson_msgs};
use crate::compare::clock::ComparePlayer;
use crate::compare::{Comparison, SideBySide};
use crate::examples::COMPARISONS;
use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::lesson::{Choice, LessonSession};
use crate::permalink::Permalink;
use crate::player::{Action, Player};
use crate::sim::Scenario;
use crate::view::history::{self, Undo};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use yew::prelude::*;

pub(crate) fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What the page simulates: the main run, the lesson driving it, and the
/// Side by side tab's panes.
pub struct Run {
    pub player: Player,
    /// The open lesson, if any: it drives the same player.
    pub lesson: Option<LessonSession>,
    /// The Side by side tab's panes, made when the tab first opens; while it
    /// shows, the toolbar's clock drives them and the main run waits.
    pub compare: Option<ComparePlayer>,
}

/// Read access to the run, for drawing and for the JS API's getters. It is
/// the same run for the page's whole life (equal to itself only), so a
/// component given it re-renders on its other props, not on every frame.
#[derive(Clone)]
pub struct RunView(Rc<RefCell<Run>>);

impl RunView {
    pub fn get(&self) -> Ref<'_, Run> {
        self.0.borrow()
    }

    pub fn player(&self) -> Ref<'_, Player> {
        Ref::map(self.0.borrow(), |r| &r.player)
    }

    /// The player, or `None` while `reduce` is changing it.
    pub fn try_player(&self) -> Option<Ref<'_, Player>> {
        self.0.try_borrow().ok().map(|r| Ref::map(r, |r| &r.player))
    }
}

impl PartialEq for RunView {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// What leaf components and the JS API take from context: the dispatcher
/// and read access to the run. Both stay the same for the page's life, so
/// providing it never re-renders a consumer by itself.
#[derive(Clone, PartialEq)]
pub struct AppContext {
    pub dispatch: Callback<Msg>,
    pub run: RunView,
}

/// A run replaced by a replay of logs, kept to bring it back.
#[derive(Clone)]
pub struct Replayed {
    pub before: Rc<Permalink>,
    pub group: String,
    pub faults: usize,
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

/// The page's state. Copied by a message that may change it (a tick that
/// moves nothing returns the state as it was, uncopied): everything but the
/// run is small (the undo's script sits behind an `Rc`).
#[derive(Clone)]
pub struct AppState {
    run: Rc<RefCell<Run>>,
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
    /// Bumped by every change of the main run: a tick that simulated, an
    /// action, a load, a lesson message. Paused, the slower panels redraw when it moves.
    pub run_version: u64,
    /// Bumped when the run is replaced (load, replay) or a lesson message
    /// acts: the slower panels redraw at once, even while playing.
    pub revision: u64,
}

/// Two states are equal when they are the same state: `reduce` returns the
/// state it was given when a message changed nothing (a tick while paused),
/// and `use_reducer_eq` then skips the render.
impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// What a message changed, and so which counters move.
enum Changed {
    Nothing,
    /// The page's flags, tab, selection or panes; the main run is as it was.
    Page,
    /// The main run moved.
    Run,
    /// The main run was replaced, or a lesson acted on it.
    Replaced,
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        // Most ticks change nothing (paused, or the panes paused): answer before copying.
        if matches!(msg, Msg::Tick(_)) && !moving(self.tab, &self.run.borrow()) {
            return self;
        }
        let mut next = (*self).clone();
        let run = Rc::clone(&self.run);
        let changed = next.apply(&mut run.borrow_mut(), msg);
        match changed {
            Changed::Nothing => return self,
            Changed::Page => {}
            Changed::Run => next.run_version += 1,
            Changed::Replaced => {
                next.run_version += 1;
                next.revision += 1;
            }
        }
        Rc::new(next)
    }
}

impl AppState {
    /// The linked run, or the demo (with a notice saying why a link could not
    /// be opened; the address bar keeps the link).
    pub fn new(autoplay: bool, link: Option<&Result<Permalink, String>>) -> AppState {
        let lang = prefs::initial_lang();
        let demo = || Player::new(Scenario::demo()).expect("the demo scenario is valid");
        let (mut player, notice) = match link.map(|l| l.clone().and_then(|l| l.restore())) {
            None => (demo(), None),
            Some(Ok(p)) => (p, None),
            Some(Err(e)) => (demo(), Some(trf(lang, "notice.badlink", &[&e]))),
        };
        player.playing = autoplay;
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
            run_version: 0,
            revision: 0,
        }
    }

    pub fn run_view(&self) -> RunView {
        RunView(Rc::clone(&self.run))
    }

    fn flag(&mut self, f: Flag) -> &mut bool {
        match f {
            Flag::Presenter => &mut self.presenter,
            Flag::Help => &mut self.help,
            Flag::Legend => &mut self.legend,
            Flag::Panels => &mut self.panels,
            Flag::More => &mut self.more,
            Flag::Blank => &mut self.blank,
        }
    }

    fn set(&mut self, f: Flag, on: bool) -> Changed {
        if f == Flag::Presenter {
            // Full screen needs the user's gesture: asked for here, while the
            // click or key that sent the message is still being handled.
            prefs::set_fullscreen(on);
            self.blank &= on;
        }
        *self.flag(f) = on;
        Changed::Page
    }

    fn apply(&mut self, run: &mut Run, msg: Msg) -> Changed {
        match msg {
            Msg::Tick(dt) => tick(self.tab, run, dt),
            Msg::Action(a) => {
                // One clock: on the Side by side tab the toolbar drives the panes (the speed is shared).
                if self.tab == Tab::Compare && !matches!(a, Action::SetSpeed(_)) {
                    if let Some(c) = run.compare.as_mut() {
                        c.dispatch(a, run.player.speed);
                        return Changed::Page;
                    }
                }
                actions::apply(a, &mut run.lesson, &mut run.player, &mut self.undo);
                Changed::Run
            }
            Msg::Direct(a) => {
                run.player.dispatch(a);
                Changed::Run
            }
            Msg::Play => {
                run.player.playing = true;
                Changed::Run
            }
            Msg::Load(p) => self.load(run, *p),
            Msg::Lesson(m) => {
                lesson_msgs::apply(m, run, self);
                Changed::Replaced
            }
            Msg::Press(sel) => {
                let wanted = run.lesson.as_ref().and_then(|s| s.question()).map(|q| q.targets.clone());
                if let Selection::Node(n) = &sel {
                    if wanted.unwrap_or_default().contains(&n.to_string()) {
                        return self.apply(run, Msg::Lesson(LessonMsg::Answer(Choice::Target(n.to_string()))));
                    }
                }
                self.selection = Some(sel);
                Changed::Page
            }
            Msg::Select(s) => {
                self.selection = s;
                Changed::Page
            }
            Msg::Escape => {
                self.help = false;
                self.selection = None;
                Changed::Page
            }
            // On the Side by side tab the one clock steps the panes (a clicker's "next").
            Msg::RunToCaption if self.tab == Tab::Compare => self.apply(run, Msg::Action(Action::Step)),
            Msg::RunToCaption => {
                // The next thing worth a sentence (the caption changes), not the next heartbeat.
                let p = &mut run.player;
                p.playing = false;
                let (from, until) = (p.world.trace.len(), p.now() + 60_000);
                p.advance_until(until, |w| {
                    w.trace[from.min(w.trace.len())..].iter().any(crate::narrate::worth_a_caption)
                });
                Changed::Run
            }
            Msg::SetTab(t) => {
                self.tab = t;
                if t == Tab::Compare && run.compare.is_none() {
                    run.compare = ComparePlayer::shipped(COMPARISONS[0].0).ok();
                }
                Changed::Page
            }
            Msg::SetLang(l) => {
                self.lang = l;
                Changed::Page
            }
            Msg::Toggle(f) => {
                let on = !*self.flag(f);
                self.apply(run, Msg::Set(f, on))
            }
            // The blank screen pauses everything, so the room misses nothing.
            Msg::Set(Flag::Blank, true) => {
                self.blank = true;
                run.player.playing = false;
                if let Some(c) = run.compare.as_mut() {
                    c.dispatch(Action::Pause, run.player.speed);
                }
                Changed::Run
            }
            Msg::Set(f, on) => self.set(f, on),
            Msg::ShowFetches(on) => {
                self.show_fetches = Some(on);
                Changed::Page
            }
            Msg::Notice(n) => {
                self.notice = n;
                Changed::Page
            }
            Msg::Link(l) => {
                self.link = l;
                Changed::Page
            }
            Msg::Undo => {
                let Some(u) = self.undo.take() else { return Changed::Nothing };
                if let Ok(np) = history::undo(&run.player, &u) {
                    run.player = np;
                }
                Changed::Replaced
            }
            Msg::DismissUndo => {
                self.undo = None;
                Changed::Page
            }
            Msg::ResetClear => {
                if let Ok(np) = history::reset(&run.player, true) {
                    run.player = np;
                }
                self.undo = None;
                Changed::Replaced
            }
            Msg::ShortenPollInterval(group) => {
                match run.player.with_max_poll_interval(&group, crate::narrate::poll_wait::SHORT_POLL_INTERVAL_MS) {
                    Ok((mut p, _)) => {
                        p.playing = true;
                        let seconds = crate::narrate::poll_wait::SHORT_POLL_INTERVAL_MS / 1000;
                        self.notice = Some(trf(self.lang, "caption.slow.shortened", &[&group, &seconds]));
                        self.load(run, p)
                    }
                    Err(e) => {
                        self.notice = Some(e);
                        Changed::Page
                    }
                }
            }
            Msg::Replay(s) => {
                let (group, faults) =
                    (s.groups.first().map(|g| g.group_id.clone()).unwrap_or_default(), s.faults.len());
                match Player::new(*s) {
                    Ok(p) => {
                        let before = Rc::new(Permalink::of(&run.player));
                        self.replayed = Some(Replayed { before, group, faults });
                        self.tab = Tab::Simulation;
                        self.load(run, p)
                    }
                    Err(e) => {
                        self.notice = Some(trf(self.lang, "explain.replay.error", &[&e]));
                        Changed::Page
                    }
                }
            }
            Msg::ReplayBack => {
                let Some(r) = self.replayed.take() else { return Changed::Nothing };
                match r.before.restore() {
                    Ok(p) => self.load(run, p),
                    Err(e) => {
                        self.notice = Some(e);
                        Changed::Page
                    }
                }
            }
            Msg::DismissReplay => {
                self.replayed = None;
                Changed::Page
            }
            Msg::ComparePick(id) => {
                if let Ok(cp) = ComparePlayer::shipped(&id) {
                    run.compare = Some(cp);
                }
                Changed::Page
            }
            Msg::CompareThisRun => {
                match ComparePlayer::this_run(&run.player) {
                    Ok(cp) => {
                        run.compare = Some(cp);
                        self.notice = None;
                    }
                    Err(e) => self.notice = Some(trf(self.lang, "compare.thisrun.error", &[&e])),
                }
                Changed::Page
            }
            Msg::CompareLogs(c) => {
                match SideBySide::new(&c) {
                    Ok(s) => {
                        run.compare = Some(ComparePlayer::new(FROM_LOGS, s));
                        self.tab = Tab::Compare;
                    }
                    Err(e) => self.notice = Some(trf(self.lang, "explain.replay.error", &[&e])),
                }
                Changed::Page
            }
            Msg::Door(Door::Demo) => {
                self.tab = Tab::Simulation;
                run.player.playing = true;
                Changed::Run
            }
            Msg::Door(Door::Sandbox) => {
                self.tab = Tab::Simulation;
                self.notice = Some(tr(self.lang, "welcome.sandbox").to_string());
                Changed::Page
            }
            // The course's door waits for the course, then opens a lesson (`Msg::Lesson`).
            Msg::Door(Door::Course) => Changed::Nothing,
            Msg::ConfigDraft(d) => {
                self.config_draft = d;
                Changed::Page
            }
            Msg::Explain(m) => {
                Rc::make_mut(&mut self.explain).apply(m);
                Changed::Page
            }
            Msg::Redraw => Changed::Page,
        }
    }

    /// Replaces the whole run, at the current speed; closes any lesson.
    fn load(&mut self, run: &mut Run, mut p: Player) -> Changed {
        p.speed = run.player.speed;
        run.player = p;
        run.lesson = None;
        self.selection = None;
        // An undo rebuilds the run it came from: it means nothing for another.
        self.undo = None;
        Changed::Replaced
    }
}

/// Whether the clock moves anything: the panes on the Side by side tab, else the main run.
fn moving(tab: Tab, run: &Run) -> bool {
    if tab == Tab::Compare {
        run.compare.as_ref().is_some_and(|c| c.playing)
    } else {
        run.player.playing
    }
}

/// One frame of the clock: the panes on the Side by side tab (the main run
/// waits), else the main run (inside its lesson, if one is open) while it plays.
/// Each frame simulates within a budget (`Pace`): when the run cannot keep
/// up it plays slower than asked and the toolbar says so.
fn tick(tab: Tab, run: &mut Run, dt: f64) -> Changed {
    let t = now_ms();
    let Run { player: p, lesson, compare } = run;
    if tab == Tab::Compare {
        let Some(c) = compare.as_mut().filter(|c| c.playing) else { return Changed::Nothing };
        let speed = p.speed;
        let (before, wall) = (c.now(), c.pace.allow(dt, speed));
        c.dispatch(Action::Tick(wall), speed);
        let sim = c.now().saturating_sub(before) as f64;
        c.pace.observe(sim, now_ms() - t, dt);
        return Changed::Page;
    }
    if !p.playing {
        return Changed::Nothing;
    }
    let (before, wall) = (p.now(), p.pace.allow(dt, p.speed));
    match lesson.as_mut() {
        Some(s) => {
            if s.tick(p, wall).is_some() {
                save_progress(s.progress());
            }
        }
        None => p.dispatch(Action::Tick(wall)),
    }
    // A seek back (a lesson's replay) simulated nothing new worth counting.
    let sim = p.now().saturating_sub(before) as f64;
    p.pace.observe(sim, now_ms() - t, dt);
    Changed::Run
}
