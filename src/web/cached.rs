//! Panels that need not redraw at the animation's frame rate. A `Cached` view
//! runs, and its part of the page is compared and patched, only when its
//! `version` changes; the page gives the slower panels (state machines,
//! ownership, group and task tables, invariants) a version that moves a few
//! times a second while playing and at once on anything the user does. With
//! 100 members and 1,000 partitions, redrawing them every frame cost more than
//! the frame.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use yew::prelude::*;

/// How often the slower panels follow a playing simulation (wall-clock ms).
pub const PLAYING_REFRESH_MS: f64 = 250.0;

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

/// `<Cached>` for a view closure.
pub fn cached(version: u64, view: impl Fn() -> Html + 'static) -> Html {
    html! { <Cached version={version} view={Rc::new(view) as Rc<dyn Fn() -> Html>} /> }
}
