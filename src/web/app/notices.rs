//! What the page says above the drawing: its notice, the undo a fork offers,
//! the way back from a replay of logs, presenter mode's blank screen, and help.

use super::super::caption::legend;
use super::super::welcome;
use crate::i18n::{tr, trf, Lang};
use crate::page::{AppState, Flag, Msg};
use yew::prelude::*;

/// A button's click that sends `m()`.
fn send(dispatch: &Callback<Msg>, m: fn() -> Msg) -> Callback<MouseEvent> {
    dispatch.reform(move |_: MouseEvent| m())
}

fn close_button(lang: Lang, onclick: Callback<MouseEvent>) -> Html {
    html! { <button class="close" {onclick} aria-label={tr(lang, "close")}>{"×"}</button> }
}

/// The page's notice, the fork's undo and the replay's way back, each closable.
pub(super) fn notices(state: &AppState, dispatch: &Callback<Msg>) -> Html {
    let lang = state.lang;
    let notice = state.notice.clone().map(|n| {
        html! { <p id="notice" class="notice" role="status">{ n }{ close_button(lang, send(dispatch, || Msg::Notice(None))) }</p> }
    });
    let fork = state.undo.as_ref().map(|u| {
        let at = format!("{:.1}", u.at as f64 / 1000.0);
        let horizon = format!("{:.1}", u.horizon as f64 / 1000.0);
        html! {
            <p id="undo-notice" class="notice" role="status">{ trf(lang, "undo.notice", &[&at, &horizon, &u.dropped_faults]) }{" "}
                <button id="undo" onclick={send(dispatch, || Msg::Undo)}>{ tr(lang, "undo") }</button>
                { close_button(lang, send(dispatch, || Msg::DismissUndo)) }
            </p>
        }
    });
    let replay = state.replayed.as_ref().map(|r| {
        html! {
            <p id="replay-notice" class="notice" role="status">{ trf(lang, "explain.replay.notice", &[&r.group, &r.faults]) }{" "}
                <button id="replay-back" onclick={send(dispatch, || Msg::ReplayBack)}>{ tr(lang, "explain.replay.back") }</button>
                { close_button(lang, send(dispatch, || Msg::DismissReplay)) }
            </p>
        }
    });
    html! { <>{ notice.unwrap_or_default() }{ fork.unwrap_or_default() }{ replay.unwrap_or_default() }</> }
}

/// Presenter mode's blank screen, and the help dialog.
pub(super) fn overlays(state: &AppState, dispatch: &Callback<Msg>) -> Html {
    let lang = state.lang;
    let again = {
        let d = dispatch.clone();
        move |_| {
            d.emit(Msg::Set(Flag::Help, false));
            welcome::show_again();
        }
    };
    html! { <>
        if state.blank && state.presenter {
            <div id="blank" class="blank" role="status" aria-label={tr(lang, "presenter.blank")}>
                <p>{ tr(lang, "presenter.blank") }</p>
            </div>
        }
        if state.help {
            <div id="help" class="help" role="dialog" aria-label={tr(lang, "help.title")}>
                <h2>{ tr(lang, "help.title") }</h2>
                <p>{ tr(lang, "help.keys") }</p>
                <h3>{ tr(lang, "help.drawing.title") }</h3>
                <p>{ tr(lang, "help.drawing") }</p>
                { legend(lang, "help-legend") }
                <p class="help-buttons">
                    <button id="welcome-again" onclick={again}>{ tr(lang, "help.welcome") }</button>
                    <button id="help-ok" onclick={send(dispatch, || Msg::Set(Flag::Help, false))}>{ tr(lang, "ok") }</button>
                </p>
            </div>
        }
    </> }
}
