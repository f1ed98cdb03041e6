//! What leaf components and the JS API take from context: the dispatcher and
//! read access to the run. Both stay the same for the page's life, so
//! providing it never re-renders a consumer by itself.

use crate::page::{Msg, RunView};
use yew::Callback;

#[derive(Clone, PartialEq)]
pub struct AppContext {
    pub dispatch: Callback<Msg>,
    pub run: RunView,
}
