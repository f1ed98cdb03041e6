//! The header: playback controls, speed, clock, permalink, import/export,
//! presenter mode, help, language and the tabs.

use super::files;
use crate::i18n::{tr, trf, Lang};
use crate::page::{AppState, Flag, Msg, RunView, Tab};
use crate::permalink::Permalink;
use crate::player::{Action, Player, SPEEDS};
use yew::prelude::*;

/// Everything the toolbar reads, and where its messages go.
pub struct Toolbar<'a> {
    pub state: &'a AppState,
    pub player: &'a Player,
    pub run: &'a RunView,
    pub dispatch: &'a Callback<Msg>,
    /// What the clock shows instead of the main run's (playing, simulated ms):
    /// the side-by-side panes while their tab is open (one clock drives them).
    pub panes: Option<(bool, crate::sim::Millis)>,
}

fn tab_button(t: &Toolbar, id: &'static str, which: Tab, key: &str) -> Html {
    html! {
        <button id={id} aria-pressed={(t.state.tab == which).to_string()} onclick={t.dispatch.reform(move |_| Msg::SetTab(which))}>
            { tr(t.state.lang, key) }
        </button>
    }
}

pub fn toolbar(t: Toolbar) -> Html {
    let s = t.state;
    let lang = s.lang;
    let p = t.player;
    let d = t.dispatch.reform(Msg::Action);
    let on_speed = d.reform(|e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::SetSpeed(v.parse().unwrap_or(1.0))
    });
    let on_link = {
        let (run, dispatch) = (t.run.clone(), t.dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            // Inside a lesson the link reopens the lesson at its step (#lesson=4&step=3);
            // else it is the moment of the click, which the browser takes a moment to compress.
            let lesson = run.get().lesson.as_ref().map(|s| s.link().trim_start_matches('#').to_string());
            let moment = lesson.is_none().then(|| Permalink::of(&run.player()));
            let dispatch = dispatch.clone();
            yew::platform::spawn_local(async move {
                let fragment = match (lesson, moment) {
                    (Some(l), _) => l,
                    (None, Some(m)) => super::links::encode(&m).await,
                    (None, None) => return,
                };
                let fragment = if lang == Lang::En { fragment } else { format!("lang=zh&{fragment}") };
                if let Some(w) = web_sys::window() {
                    if let Ok(h) = w.history() {
                        let _ =
                            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
                    }
                    dispatch.emit(Msg::Link(w.location().href().unwrap_or_default()));
                }
            });
        })
    };
    let on_export = {
        let run = t.run.clone();
        Callback::from(move |_: MouseEvent| {
            let json = Permalink::of(&run.player()).to_json();
            files::download("groupscope-run.json", "application/json", &json);
        })
    };
    let on_import = {
        let dispatch = t.dispatch.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let dispatch = dispatch.clone();
            files::read_text(&input, move |text| {
                // An exported run, or a bare scenario file (scenarios/*.json), which starts a new run.
                let run = Permalink::from_json(&text).and_then(|l| l.restore());
                let bare = || crate::sim::Scenario::from_json(&text).and_then(Player::new);
                match run {
                    Ok(p) => {
                        dispatch.emit(Msg::Notice(None));
                        dispatch.emit(Msg::Load(Box::new(p)));
                    }
                    Err(err) => match bare() {
                        Ok(p) => {
                            dispatch.emit(Msg::Notice(Some(tr(lang, "import.scenario").to_string())));
                            dispatch.emit(Msg::Load(Box::new(p)));
                        }
                        Err(_) => dispatch.emit(Msg::Notice(Some(trf(
                            lang,
                            "import.error",
                            &[&crate::fault_words::in_file(&err, lang)],
                        )))),
                    },
                }
            });
        })
    };
    let on_svg = Callback::from(|_: MouseEvent| files::export_svg("topology", "groupscope.svg"));
    let on_png = Callback::from(|_: MouseEvent| files::export_png("topology", "groupscope.png"));
    let on_lang = t.dispatch.reform(|e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Msg::SetLang(Lang::parse(&v).unwrap_or_default())
    });
    let toggle = |f: Flag| t.dispatch.reform(move |_: MouseEvent| Msg::Toggle(f));
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
                    // `~value`: the select's property. Once the user has picked in a select,
                    // the browser ignores an option's `selected` attribute being added (the
                    // option is "dirty"), and the speed a lesson set showed as another.
                    <select id="speed" onchange={on_speed} ~value={speed.to_string()}>
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
                    let (dispatch, on) = (t.dispatch.clone(), !s.presenter);
                    Callback::from(move |e: MouseEvent| {
                        dispatch.emit(Msg::Set(Flag::Presenter, on));
                        // The page's keys (Space plays) work at once, not Space pressing this button again.
                        if on {
                            let _ = e.target_unchecked_into::<web_sys::HtmlElement>().blur();
                        }
                    })
                }} aria-pressed={s.presenter.to_string()} title={tr(lang, "presenter.title")}>{ tr(lang, "presenter") }</button>
                <button id="help-button" onclick={toggle(Flag::Help)} aria-pressed={s.help.to_string()} title={tr(lang, "help.title")}>{ tr(lang, "help") }</button>
                <label class="lang">{ tr(lang, "language") }{" "}
                    <select id="lang" onchange={on_lang}>
                        { for Lang::ALL.iter().map(|l| html! { <option value={l.tag()} selected={*l == lang}>{ l.name() }</option> }) }
                    </select>
                </label>
                // Less frequent actions, folded so the bar stays one line (and short on a phone).
                <div id="more" class={classes!("more", s.more.then_some("open"))}>
                    <button id="more-button" class="more-button" aria-expanded={s.more.to_string()} aria-controls="more-menu" onclick={toggle(Flag::More)}>{ tr(lang, "more") }</button>
                    <div id="more-menu" class="more-menu">
                        if faults > 0 {
                            <button id="reset-clear" onclick={t.dispatch.reform(|_| Msg::ResetClear)}>{ trf(lang, "reset.clear", &[&faults]) }</button>
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
            if !s.link.is_empty() {
                <p class="notice">{ tr(lang, "permalink.notice") }<input id="permalink-url" readonly=true value={s.link.clone()} aria-label={tr(lang, "permalink")} /></p>
            }
        </header>
    }
}
