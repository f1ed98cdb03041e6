//! Panels that need not redraw at the animation's frame rate. A `Cached` view
//! runs, and its part of the page is compared and patched, only when its
//! `version` changes; the page gives the slower panels (state machines,
//! ownership, group and task tables, invariants) a version that moves a few
//! times a second while playing and at once on anything the user does
//! (`slow_version`, from the counters the page's reducer keeps). With 100
//! members and 1,000 partitions, redrawing them every frame cost more than
//! the frame.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use yew::prelude::*;

/// How often the slower panels follow a playing simulation (wall-clock ms).
const PLAYING_REFRESH_MS: f64 = 250.0;

#[derive(Properties, Clone)]
pub struct CachedProps {
    pub version: u64,
    pub view: Rc<dyn Fn() -> Html>,
}

impl PartialEq for CachedProps {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

#[function_component]
pub fn Cached(props: &CachedProps) -> Html {
    (props.view)()
}

/// A version from everything a panel's drawing depends on.
pub fn version(parts: impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    parts.hash(&mut h);
    h.finish()
}

/// The version of a slower panel drawn in `phase` (0-7) of the refresh
/// period. While the run plays it moves every `PLAYING_REFRESH_MS` of wall
/// time, each phase at its own moment, so no single frame redraws every
/// panel; paused, it moves with `run_version`, which the reducer bumps on
/// every change of the run, so any change shows at once. `revision` (the run
/// replaced, a lesson message) and `rest` (what else the panels draw from:
/// language, selection, a lesson's highlights) move it at once in both cases.
pub fn slow_version(phase: u32, playing: bool, run_version: u64, revision: u64, rest: impl Hash) -> u64 {
    let clock = if playing {
        let now = super::clock::now_ms();
        ((now + f64::from(phase) * PLAYING_REFRESH_MS / 8.0) / PLAYING_REFRESH_MS) as u64
    } else {
        run_version
    };
    version((clock, playing, revision, rest))
}

/// `<Cached>` for a view closure.
pub fn cached(version: u64, view: impl Fn() -> Html + 'static) -> Html {
    html! { <Cached version={version} view={Rc::new(view) as Rc<dyn Fn() -> Html>} /> }
}
