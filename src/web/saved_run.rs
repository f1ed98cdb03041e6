//! The run kept in this browser, so a reload never loses it: the main run's
//! permalink (scenario, injected faults, playhead) is written to
//! localStorage as it changes (at most once a second while it plays, at once
//! when paused), and read when the page opens without a link. A lesson's run
//! is not kept (the lesson's own progress is); a saved run that no longer
//! reads is dropped.

use crate::permalink::Permalink;
use crate::player::Player;

const KEY: &str = "groupscope.run";
/// While the run plays, it is written at most this often (wall ms).
pub const EVERY_MS: f64 = 1000.0;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The run saved by the last visit, if it still reads.
pub fn load() -> Option<Permalink> {
    let s = storage()?;
    let text = s.get_item(KEY).ok()??;
    match Permalink::from_json(&text) {
        Ok(p) => Some(p),
        Err(_) => {
            let _ = s.remove_item(KEY);
            None
        }
    }
}

pub fn save(player: &Player) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, &Permalink::of(player).to_json());
    }
}
