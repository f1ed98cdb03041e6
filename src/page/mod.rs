//! The page's state as plain native code, with no browser type: one
//! `AppState`, one message enum (`Msg`) and one update function (`reduce`)
//! that returns what the page must do besides (`Effect`) and takes the wall
//! clock as an input. `src/web/` draws the state and performs the effects.
//!
//! `msg.rs` the messages (and the tabs, doors and switches they name),
//! `state.rs` the state, `run.rs` the run it shares, `reduce.rs` the update
//! function, with what toolbar actions (`actions.rs`), lesson messages
//! (`lesson_msgs.rs`) and the clock (`tick.rs`) do; `keys.rs` the keys,
//! `explain.rs` the Explain logs tab's kept work, `compare.rs` the panes' ids,
//! `effect.rs` the effects.

mod actions;
pub mod compare;
pub mod effect;
pub mod explain;
pub mod keys;
mod lesson_msgs;
pub mod msg;
mod reduce;
pub mod run;
pub mod state;
mod tick;

pub use effect::Effect;
pub use msg::{Door, Draft, Flag, LessonMsg, Msg, Tab};
pub use reduce::reduce;
pub use run::{Replayed, Run, RunView};
pub use state::{AppState, Learner, Startup};
