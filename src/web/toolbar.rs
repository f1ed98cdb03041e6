//! The header: playback controls, speed, clock, permalink, import/export,
//! presenter mode, help, language and the tabs.

use super::app::SharedPlayer;
use super::files;
use crate::i18n::{tr, trf, Lang};
use crate::permalink::Permalink;
use crate::player::{Action, Player, SPEEDS};
use yew::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Simulation,
    Config,
    Lab,
    Lessons,
    Compare,
    Explain,
}

/// Everything the toolbar reads and changes.
pub struct Toolbar<'a> {
    pub player: &'a Player,
    pub shared: &'a SharedPlayer,
    pub dispatch: &'a Callback<Action>,
    pub load: &'a Callback<Player>,
    pub tab: &'a UseStateHandle<Tab>,
    pub lang: &'a UseStateHandle<Lang>,
    pub presenter: &'a UseStateHandle<bool>,
    pub help: &'a UseStateHandle<bool>,
    pub notice: &'a UseStateHandle<Option<String>>,
    pub link: &'a UseStateHandle<String>,
    /// Reset and forget the user's faults (Reset itself keeps them).
    pub reset_clear: &'a Callback<MouseEvent>,
    /// The folded actions are open (narrow screens; wide ones show them all).
    pub more: &'a UseStateHandle<bool>,
    /// What the clock shows instead of the main run's (playing, simulated ms):
    /// the side-by-side panes while their tab is open (one clock drives them).
    pub panes: Option<(bool, crate::sim::Millis)>,
}

fn toggle(h: &UseStateHandle<bool>) -> Callback<MouseEvent> {
    let h = h.clone();
    Callback::from(move |_| h.set(!*h))
}

fn tab_button(t: &Toolbar, id: &'static str, which: Tab, key: &str) -> Html {
    let handle = t.tab.clone();
    html! {
        <button id={id} aria-pressed={(**t.tab == which).to_string()} onclick={move |_| handle.set(which)}>
            { tr(**t.lang, key) }
        </button>
    }
}

pub fn toolbar(t: Toolbar) -> Html {
    let lang = **t.lang;
    let p = t.player;
    let d = t.dispatch;
    let on_speed = d.reform(|e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::SetSpeed(v.parse().unwrap_or(1.0))
    });
    let on_link = {
        let (player, link) = (t.shared.0.clone(), t.link.clone());
        Callback::from(move |_: MouseEvent| {
            // The moment of the click; compressing it takes the browser a moment.
            let run = Permalink::of(&player.borrow());
            let link = link.clone();
            yew::platform::spawn_local(async move {
                let fragment = super::links::encode(&run).await;
                let fragment = if lang == Lang::En { fragment } else { format!("lang=zh&{fragment}") };
                if let Some(w) = web_sys::window() {
                    if let Ok(h) = w.history() {
                        let _ =
                            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
                    }
                    link.set(w.location().href().unwrap_or_default());
                }
            });
        })
    };
    let on_export = {
        let player = t.shared.0.clone();
        Callback::from(move |_: MouseEvent| {
            let json = Permalink::of(&player.borrow()).to_json();
            files::download("groupscope-run.json", "application/json", &json);
        })
    };
    let on_import = {
        let (load, notice) = (t.load.clone(), t.notice.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let (load, notice) = (load.clone(), notice.clone());
            files::read_text(&input, move |text| {
                // An exported run, or a bare scenario file (scenarios/*.json), which starts a new run.
                let run = Permalink::from_json(&text).and_then(|l| l.restore());
                let bare = || crate::sim::Scenario::from_json(&text).and_then(Player::new);
                match run {
                    Ok(p) => {
                        notice.set(None);
                        load.emit(p);
                    }
                    Err(err) => match bare() {
                        Ok(p) => {
                            notice.set(Some(tr(lang, "import.scenario").to_string()));
                            load.emit(p);
                        }
                        Err(_) => {
                            notice.set(Some(trf(lang, "import.error", &[&crate::fault_words::in_file(&err, lang)])))
                        }
                    },
                }
            });
        })
    };
    let on_svg = Callback::from(|_: MouseEvent| files::export_svg("topology", "groupscope.svg"));
    let on_png = Callback::from(|_: MouseEvent| files::export_png("topology", "groupscope.png"));
    let on_lang = {
        let handle = t.lang.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            handle.set(Lang::parse(&v).unwrap_or_default());
        })
    };
    let speed = p.speed;
    let faults = p.script.len();
    let (playing, now) = t.panes.unwrap_or((p.playing, p.world.now));
    html! {
        <header class="bar">
            <h1>{"GroupScope"}</h1>
            <div class="controls" role="toolbar" aria-label={tr(lang, "toolbar")}>
                <button id="play" class="primary" onclick={d.reform(|_| Action::TogglePlay)} aria-pressed={playing.to_string()}>
                    { tr(lang, if playing { "pause" } else { "play" }) }
                </button>
                <button id="step-back" onclick={d.reform(|_| Action::StepBack)} title={tr(lang, "back.title")}>{ tr(lang, "back") }</button>
                <button id="step" onclick={d.reform(|_| Action::Step)} title={tr(lang, "step.title")}>{ tr(lang, "step") }</button>
                <label class="speed">{ tr(lang, "speed") }{" "}
                    <select id="speed" onchange={on_speed}>
                        { for SPEEDS.iter().map(|s| html! {
                            <option value={s.to_string()} selected={(*s - speed).abs() < 1e-9}>{ format!("{s}×") }</option>
                        }) }
                    </select>
                </label>
                if let Some(r) = p.pace.behind(speed).filter(|_| playing && t.panes.is_none()) {
                    <span id="pace" class="pace" role="status" title={tr(lang, "pace.title")}>
                        { trf(lang, "pace.reached", &[&if r >= 10.0 { format!("{r:.0}") } else { format!("{r:.1}") }]) }
                    </span>
                }
                <button id="reset" onclick={d.reform(|_| Action::Reset)} title={tr(lang, if faults > 0 { "reset.keeps" } else { "reset.title" })}>{ tr(lang, "reset") }</button>
                <span id="clock" class="clock">{ trf(lang, "clock", &[&format!("{:.1}", now as f64 / 1000.0)]) }</span>
                <button id="presenter" onclick={{
                    let h = t.presenter.clone();
                    Callback::from(move |e: MouseEvent| {
                        let on = !*h;
                        super::prefs::set_fullscreen(on);
                        h.set(on);
                        // The page's keys (Space plays) work at once, not Space pressing this button again.
                        if on {
                            let _ = e.target_unchecked_into::<web_sys::HtmlElement>().blur();
                        }
                    })
                }} aria-pressed={t.presenter.to_string()} title={tr(lang, "presenter.title")}>{ tr(lang, "presenter") }</button>
                <button id="help-button" onclick={toggle(t.help)} aria-pressed={t.help.to_string()} title={tr(lang, "help.title")}>{ tr(lang, "help") }</button>
                <label class="lang">{ tr(lang, "language") }{" "}
                    <select id="lang" onchange={on_lang}>
                        { for Lang::ALL.iter().map(|l| html! { <option value={l.tag()} selected={*l == lang}>{ l.name() }</option> }) }
                    </select>
                </label>
                // Less frequent actions, folded so the bar stays one line (and short on a phone).
                <div id="more" class={classes!("more", t.more.then_some("open"))}>
                    <button id="more-button" class="more-button" aria-expanded={t.more.to_string()} aria-controls="more-menu" onclick={toggle(t.more)}>{ tr(lang, "more") }</button>
                    <div id="more-menu" class="more-menu">
                        if faults > 0 {
                            <button id="reset-clear" onclick={t.reset_clear.clone()}>{ trf(lang, "reset.clear", &[&faults]) }</button>
                        }
                        <button id="permalink" onclick={on_link} title={tr(lang, "permalink.title")}>{ tr(lang, "permalink") }</button>
                        <button id="export-run" onclick={on_export} title={tr(lang, "export.json.title")}>{ tr(lang, "export.json") }</button>
                        <label class="file-button">{ tr(lang, "import.json") }
                            <input id="import-run" type="file" accept=".json,application/json" onchange={on_import} />
                        </label>
                        <button id="export-svg" onclick={on_svg} title={tr(lang, "export.title")}>{ tr(lang, "export.svg") }</button>
                        <button id="export-png" onclick={on_png} title={tr(lang, "export.title")}>{ tr(lang, "export.png") }</button>
                    </div>
                </div>
            </div>
            <nav class="tabs" aria-label={tr(lang, "tabs")}>
                { tab_button(&t, "tab-sim", Tab::Simulation, "tab.sim") }
                { tab_button(&t, "tab-lessons", Tab::Lessons, "tab.lessons") }
                { tab_button(&t, "tab-compare", Tab::Compare, "tab.compare") }
                { tab_button(&t, "tab-config", Tab::Config, "tab.config") }
                { tab_button(&t, "tab-lab", Tab::Lab, "tab.lab") }
                { tab_button(&t, "tab-explain", Tab::Explain, "tab.explain") }
            </nav>
            if !t.link.is_empty() {
                <p class="notice">{ tr(lang, "permalink.notice") }<input id="permalink-url" readonly=true value={(**t.link).clone()} aria-label={tr(lang, "permalink")} /></p>
            }
        </header>
    }
}
