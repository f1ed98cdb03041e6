//! The page's state driven natively as a user drives the page: every click,
//! key and frame is a `Msg` given to `page::reduce`, with a wall clock of our
//! own, and the effects it asks for are collected. One module per part of
//! the page: the welcome, a lesson, undo and forks, presenter mode, tabs and
//! Side by side, links and replays.

mod lesson;
mod links;
mod presenter;
mod tabs;
mod undo;
mod welcome;

use groupscope::i18n::Lang;
use groupscope::inspect::Selection;
use groupscope::lesson::{LessonSession, Phase};
use groupscope::page::{self, AppState, Effect, Learner, LessonMsg, Msg, Run, Startup};
use groupscope::permalink::Permalink;
use groupscope::player::Action;
use groupscope::sim::{Millis, NodeId};
use std::cell::Ref;
use std::rc::Rc;

/// The seed a first visit draws for the order of a lesson's choices.
const FRESH_SEED: u64 = 42;

/// One open page: its state and every effect it asked for so far.
struct Page {
    state: Rc<AppState>,
    /// The wall clock the page reads (ms).
    wall: f64,
    effects: Vec<Effect>,
}

impl Page {
    /// A first visit: no link, English, nothing kept in this browser.
    fn open() -> Page {
        Page::opened_with(None)
    }

    fn opened_with(link: Option<Result<Permalink, String>>) -> Page {
        let learner = Learner { same_order: false, seed: None, fresh: FRESH_SEED };
        let state = AppState::new(Startup { lang: Lang::En, autoplay: false, link, learner });
        Page { state: Rc::new(state), wall: 0.0, effects: Vec::new() }
    }

    /// Sends one message; returns the effects it asked for.
    fn send(&mut self, msg: Msg) -> Vec<Effect> {
        let wall = self.wall;
        let (next, effects) = page::reduce(Rc::clone(&self.state), msg, &mut || wall);
        self.state = next;
        self.effects.extend(effects.iter().cloned());
        effects
    }

    fn lesson(&mut self, m: LessonMsg) -> Vec<Effect> {
        self.send(Msg::Lesson(m))
    }

    /// One frame of the page's clock, 16 ms after the last.
    fn frame(&mut self) -> Vec<Effect> {
        self.wall += 16.0;
        self.send(Msg::Tick(16.0))
    }

    /// Frames until `done` holds (at most `frames` of them); whether it did.
    fn frames_until(&mut self, frames: usize, done: impl Fn(&Page) -> bool) -> bool {
        for _ in 0..frames {
            if done(self) {
                return true;
            }
            self.frame();
        }
        done(self)
    }

    fn run(&self) -> Ref<'_, Run> {
        self.state.run()
    }

    fn now(&self) -> Millis {
        self.run().player.now()
    }

    fn playing(&self) -> bool {
        self.run().player.playing
    }

    fn session(&self) -> Ref<'_, LessonSession> {
        Ref::map(self.run(), |r| r.lesson.as_ref().expect("a lesson is open"))
    }

    fn phase(&self) -> Phase {
        self.session().phase
    }

    /// Presses node `name` on the drawing (`broker-1`, `c2`).
    fn press(&mut self, node: NodeId) -> Vec<Effect> {
        self.send(Msg::Press(Selection::Node(node)))
    }

    /// Plays the main run until `ms` of simulated time.
    fn play_to(&mut self, ms: Millis) {
        self.send(Msg::Action(Action::Seek(ms)));
    }
}

/// The progress a list of effects saved last, if any.
fn saved_progress(effects: &[Effect]) -> Option<&groupscope::lesson::Progress> {
    effects.iter().rev().find_map(|e| match e {
        Effect::SaveProgress(p) => Some(p),
        _ => None,
    })
}

/// The page's state is plain native code: no file of `src/page/` names a
/// browser crate (the effects it returns are performed in `src/web/app/`).
#[test]
fn the_page_state_names_no_browser_type() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/page");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).expect("src/page") {
        let path = entry.expect("a file of src/page").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        for name in ["yew", "web_sys", "gloo", "js_sys", "wasm_bindgen"] {
            assert!(!text.contains(&format!("{name}::")), "{} names {name}", path.display());
        }
        files += 1;
    }
    assert!(files >= 10, "read {files} files of src/page");
}
