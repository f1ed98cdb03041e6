//! The page's one update function: every click, key, timer tick, lesson
//! message and `window.groupscope` call is a `Msg`, and `reduce` is the only
//! code that changes the run, the open lesson, the side-by-side panes or the
//! page's flags. It touches nothing outside the state: what the page must do
//! besides (keep progress, full screen) comes back as `Effect`s, and the wall
//! clock is an input. What a message changed decides which counters move
//! (`run_version`, `revision`), in one place, and the slower panels key on
//! them, so none can miss a change.

use super::compare::FROM_LOGS;
use super::effect::{Changed, Effect};
use super::msg::{Door, Flag, LessonMsg, Msg, Tab};
use super::run::{Replayed, Run};
use super::state::AppState;
use super::tick::{moving, tick};
use super::{actions, lesson_msgs};
use crate::compare::clock::ComparePlayer;
use crate::compare::{Comparison, SideBySide};
use crate::examples::COMPARISONS;
use crate::i18n::{tr, trf};
use crate::inspect::Selection;
use crate::lesson::Choice;
use crate::narrate::poll_wait::SHORT_POLL_INTERVAL_MS;
use crate::permalink::Permalink;
use crate::player::{Action, Player};
use crate::sim::Scenario;
use crate::view::history;
use std::rc::Rc;

/// Applies `msg` to `state`; `clock` reads the wall clock (ms). Returns the
/// next state (the same `Rc` when nothing changed, so the page skips the
/// render) and what the page must do besides.
pub fn reduce(state: Rc<AppState>, msg: Msg, clock: &mut dyn FnMut() -> f64) -> (Rc<AppState>, Vec<Effect>) {
    // Most ticks change nothing (paused, or the panes paused): answer before copying.
    if matches!(msg, Msg::Tick(_)) && !moving(state.tab, &state.run.borrow()) {
        return (state, Vec::new());
    }
    let mut next = (*state).clone();
    let run = Rc::clone(&state.run);
    let mut cx = Cx { clock, effects: Vec::new() };
    let changed = next.apply(&mut run.borrow_mut(), msg, &mut cx);
    match changed {
        Changed::Nothing => return (state, cx.effects),
        Changed::Page => {}
        Changed::Run => next.run_version += 1,
        Changed::Replaced => {
            next.run_version += 1;
            next.revision += 1;
        }
    }
    (Rc::new(next), cx.effects)
}

/// What `reduce` reads (the clock) and collects (the effects) while it applies a message.
struct Cx<'a> {
    clock: &'a mut dyn FnMut() -> f64,
    effects: Vec<Effect>,
}

impl AppState {
    fn apply(&mut self, run: &mut Run, msg: Msg, cx: &mut Cx) -> Changed {
        match msg {
            Msg::Tick(dt) => tick(self.tab, run, dt, &mut *cx.clock, &mut cx.effects),
            Msg::Action(a) => self.action(run, a, cx),
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
                lesson_msgs::apply(m, run, self, &mut cx.effects);
                Changed::Replaced
            }
            Msg::Press(sel) => self.press(run, sel, cx),
            // On the Side by side tab the one clock steps the panes (a clicker's "next").
            Msg::RunToCaption if self.tab == Tab::Compare => self.apply(run, Msg::Action(Action::Step), cx),
            Msg::RunToCaption => run_to_caption(&mut run.player),
            Msg::SetTab(t) => {
                self.tab = t;
                if t == Tab::Compare && run.compare.is_none() {
                    run.compare = ComparePlayer::shipped(COMPARISONS[0].0).ok();
                }
                Changed::Page
            }
            Msg::Toggle(f) => {
                let on = !self.flag(f);
                self.apply(run, Msg::Set(f, on), cx)
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
            Msg::Set(f, on) => self.set(f, on, cx),
            Msg::Undo => {
                let Some(u) = self.undo.take() else { return Changed::Nothing };
                if let Ok(np) = history::undo(&run.player, &u) {
                    run.player = np;
                }
                Changed::Replaced
            }
            Msg::ResetClear => {
                if let Ok(np) = history::reset(&run.player, true) {
                    run.player = np;
                }
                self.undo = None;
                Changed::Replaced
            }
            Msg::ShortenPollInterval(group) => self.shorten_poll_interval(run, &group),
            Msg::Replay(s) => self.replay(run, *s),
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
            Msg::CompareLogs(c) => self.compare_logs(run, &c),
            Msg::Door(d) => self.door(run, d),
            Msg::Explain(m) => {
                Rc::make_mut(&mut self.explain).apply(m);
                Changed::Page
            }
            m => self.page_only(m),
        }
    }

    /// The messages that change only the page around the run.
    fn page_only(&mut self, msg: Msg) -> Changed {
        match msg {
            Msg::Select(s) => self.selection = s,
            Msg::Escape => {
                self.help = false;
                self.selection = None;
            }
            Msg::SetLang(l) => self.lang = l,
            Msg::ShowFetches(on) => self.show_fetches = Some(on),
            Msg::Notice(n) => self.notice = n,
            Msg::Link(l) => self.link = l,
            Msg::DismissUndo => self.undo = None,
            Msg::DismissReplay => self.replayed = None,
            Msg::ConfigDraft(d) => self.config_draft = d,
            Msg::Redraw => {}
            // Every other message is applied by `apply`.
            _ => return Changed::Nothing,
        }
        Changed::Page
    }

    /// The toolbar's clock: one clock, so on the Side by side tab it drives
    /// the panes (the speed is shared); else the main run, inside its lesson.
    fn action(&mut self, run: &mut Run, a: Action, cx: &mut Cx) -> Changed {
        if self.tab == Tab::Compare && !matches!(a, Action::SetSpeed(_)) {
            if let Some(c) = run.compare.as_mut() {
                c.dispatch(a, run.player.speed);
                return Changed::Page;
            }
        }
        actions::apply(a, &mut run.lesson, &mut run.player, &mut self.undo, &mut cx.effects);
        Changed::Run
    }

    /// A press on the drawing answers a "click what you predict" question
    /// when it names one of its targets; else it selects.
    fn press(&mut self, run: &mut Run, sel: Selection, cx: &mut Cx) -> Changed {
        let wanted = run.lesson.as_ref().and_then(|s| s.question()).map(|q| q.targets.clone());
        if let Selection::Node(n) = &sel {
            if wanted.unwrap_or_default().contains(&n.to_string()) {
                return self.apply(run, Msg::Lesson(LessonMsg::Answer(Choice::Target(n.to_string()))), cx);
            }
        }
        self.selection = Some(sel);
        Changed::Page
    }

    fn set(&mut self, f: Flag, on: bool, cx: &mut Cx) -> Changed {
        if f == Flag::Presenter {
            // Full screen needs the user's gesture: the page asks for it while
            // the click or key that sent the message is still being handled.
            cx.effects.push(Effect::FullScreen(on));
            self.blank &= on;
        }
        *self.flag_mut(f) = on;
        Changed::Page
    }

    fn door(&mut self, run: &mut Run, d: Door) -> Changed {
        match d {
            Door::Demo => {
                self.tab = Tab::Simulation;
                run.player.playing = true;
                Changed::Run
            }
            Door::Sandbox => {
                self.tab = Tab::Simulation;
                self.notice = Some(tr(self.lang, "welcome.sandbox").to_string());
                Changed::Page
            }
            // The course's door waits for the course, then opens a lesson (`Msg::Lesson`).
            Door::Course => Changed::Nothing,
        }
    }

    fn shorten_poll_interval(&mut self, run: &mut Run, group: &str) -> Changed {
        match run.player.with_max_poll_interval(group, SHORT_POLL_INTERVAL_MS) {
            Ok((mut p, _)) => {
                p.playing = true;
                let seconds = SHORT_POLL_INTERVAL_MS / 1000;
                self.notice = Some(trf(self.lang, "caption.slow.shortened", &[&group, &seconds]));
                self.load(run, p)
            }
            Err(e) => {
                self.notice = Some(e);
                Changed::Page
            }
        }
    }

    fn replay(&mut self, run: &mut Run, s: Scenario) -> Changed {
        let (group, faults) = (s.groups.first().map(|g| g.group_id.clone()).unwrap_or_default(), s.faults.len());
        match Player::new(s) {
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

    fn compare_logs(&mut self, run: &mut Run, c: &Comparison) -> Changed {
        match SideBySide::new(c) {
            Ok(s) => {
                run.compare = Some(ComparePlayer::new(FROM_LOGS, s));
                self.tab = Tab::Compare;
            }
            Err(e) => self.notice = Some(trf(self.lang, "explain.replay.error", &[&e])),
        }
        Changed::Page
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

/// Presenting: pause and run on to the next thing worth a sentence (the
/// caption changes), not the next heartbeat; at most a minute on.
fn run_to_caption(p: &mut Player) -> Changed {
    p.playing = false;
    let (from, until) = (p.world.trace.len(), p.now() + 60_000);
    p.advance_until(until, |w| w.trace[from.min(w.trace.len())..].iter().any(crate::narrate::worth_a_caption));
    Changed::Run
}
