//! The "Explain logs" tab (issue 16): paste logs or drop files (one per consumer or broker),
//! read them in the browser in slices with a pause for the page between slices, and show
//! what the engine (`crate::explain`) rebuilt. Nothing leaves the browser. The last
//! explanation, the paste and the chosen files are kept while other tabs are open.

use super::app::{AppContext, Msg};
use super::explain_view::{report_view, Outcome};
use crate::compare::Comparison;
use crate::explain::model::Problem;
use crate::explain::Explainer;
use crate::i18n::{tr, trf, Lang};
use crate::sim::Scenario;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// The most this page reads at once (the CLI reads any size).
const MAX_BYTES: f64 = 256.0 * 1024.0 * 1024.0;
/// Bytes fetched from a file at a time.
const FILE_SLICE: f64 = 1024.0 * 1024.0;
/// Bytes fed to the engine between looks at the clock.
const FEED: usize = 64 * 1024;
/// The longest the page goes without handing the event loop back (ms).
const BUDGET_MS: f64 = 30.0;

/// How the last run ended, as the tab shows it.
#[derive(Clone)]
enum Shown {
    Nothing,
    Explained(Rc<Outcome>),
    /// Too much to read here: (MB given, MB allowed).
    TooBig(u64, u64),
    Empty,
    Cancelled,
}

thread_local! {
    static SHOWN: RefCell<Shown> = const { RefCell::new(Shown::Nothing) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    static FILES: RefCell<Vec<web_sys::File>> = const { RefCell::new(Vec::new()) };
    /// Bumped by every run and by Stop: a run that sees another number stops.
    static RUN: Cell<u64> = const { Cell::new(0) };
    /// (bytes read, bytes in all) while a run reads: kept here, not in the tab's state, so a
    /// tab opened again mid-read still shows the progress line.
    static READING: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
    /// Redraws the tab that is open (none while another tab is).
    static REDRAW: RefCell<Option<Callback<()>>> = const { RefCell::new(None) };
}

fn redraw() {
    let cb = REDRAW.with(|r| r.borrow().clone());
    if let Some(cb) = cb {
        cb.emit(());
    }
}

fn set_reading(r: Option<(u64, u64)>) {
    READING.set(r);
    redraw();
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Hands the event loop back to the browser (a zero-delay timer), so it paints and takes input.
async fn yield_to_page() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Feeds `bytes` to the engine in small pieces, yielding to the page when the time slice is
/// used up; `false` when the run was stopped.
async fn feed(
    x: &mut Explainer,
    file: u32,
    bytes: &[u8],
    run: u64,
    slice_start: &mut f64,
    progress: &dyn Fn(u64),
) -> bool {
    for piece in bytes.chunks(FEED) {
        x.feed_bytes(file, piece);
        if now_ms() - *slice_start > BUDGET_MS {
            progress(piece.len() as u64);
            yield_to_page().await;
            *slice_start = now_ms();
            if RUN.get() != run {
                return false;
            }
        } else {
            progress(piece.len() as u64);
        }
    }
    true
}

async fn read_slice(file: &web_sys::File, from: f64, to: f64) -> Result<Vec<u8>, String> {
    let blob = file.slice_with_f64_and_f64(from, to).map_err(|e| format!("{e:?}"))?;
    let buf = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
        .await
        .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// Reads the paste and the files; `None` when stopped.
async fn explain(
    text: String,
    pasted_name: String,
    files: Vec<web_sys::File>,
    run: u64,
    progress: Rc<dyn Fn(u64)>,
) -> Option<Outcome> {
    let mut x = Explainer::new();
    let mut slice_start = now_ms();
    let mut unreadable = Vec::new();
    if !text.trim().is_empty() {
        let f = x.begin_file(&pasted_name);
        if !feed(&mut x, f, text.as_bytes(), run, &mut slice_start, &*progress).await {
            return None;
        }
        x.end_file(f);
    }
    drop(text);
    for file in &files {
        let f = x.begin_file(&file.name());
        let size = file.size();
        let mut at = 0.0;
        while at < size {
            let to = (at + FILE_SLICE).min(size);
            match read_slice(file, at, to).await {
                Ok(bytes) => {
                    if !feed(&mut x, f, &bytes, run, &mut slice_start, &*progress).await {
                        return None;
                    }
                }
                Err(e) => {
                    unreadable.push((file.name(), e));
                    break;
                }
            }
            at = to;
            if RUN.get() != run {
                return None;
            }
        }
        x.end_file(f);
    }
    Some(Outcome::new(x.finish(), unreadable))
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The files of a drop (`event.dataTransfer.files`), read without web-sys's DataTransfer binding.
fn dropped_files(e: &DragEvent) -> Option<web_sys::FileList> {
    use wasm_bindgen::JsCast;
    let dt = js_sys::Reflect::get(e, &"dataTransfer".into()).ok().filter(|v| v.is_object())?;
    let files = js_sys::Reflect::get(&dt, &"files".into()).ok()?;
    files.dyn_into::<web_sys::FileList>().ok()
}

#[function_component]
pub fn ExplainTab() -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // A replay opens in the Simulation tab (the previous run stays recoverable),
    // a comparison in Side by side: messages to the page.
    let page = use_context::<AppContext>().expect("the tab is inside the page");
    let on_replay = page.dispatch.reform(|s: Scenario| Msg::Replay(Box::new(s)));
    let on_compare = page.dispatch.reform(|c: Comparison| Msg::CompareLogs(Box::new(c)));
    {
        // a run that goes on while another tab is open redraws this tab when it is back
        let force = use_force_update();
        use_effect_with((), move |_| {
            REDRAW.with(|r| *r.borrow_mut() = Some(Callback::from(move |_| force.force_update())));
            || REDRAW.with(|r| *r.borrow_mut() = None)
        });
    }
    let shown = SHOWN.with(|s| s.borrow().clone());
    let files = use_state(|| FILES.with(|f| f.borrow().clone()));
    let dragging = use_state(|| false);
    let area = use_node_ref();
    {
        // The paste comes back when the tab opens again.
        let area = area.clone();
        use_effect_with((), move |_| {
            if let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() {
                TEXT.with(|t| a.set_value(&t.borrow()));
            }
        });
    }
    let show = Callback::from(move |s: Shown| {
        SHOWN.with(|x| *x.borrow_mut() = s);
        redraw();
    });
    let start = {
        let (area, show) = (area.clone(), show.clone());
        Callback::from(move |chosen: Vec<web_sys::File>| {
            let text = area.cast::<web_sys::HtmlTextAreaElement>().map(|a| a.value()).unwrap_or_default();
            TEXT.with(|t| *t.borrow_mut() = text.clone());
            let total = text.len() as f64 + chosen.iter().map(|f| f.size()).sum::<f64>();
            if text.trim().is_empty() && chosen.is_empty() {
                show.emit(Shown::Empty);
                return;
            }
            if total > MAX_BYTES {
                show.emit(Shown::TooBig((total / 1e6).ceil() as u64, (MAX_BYTES / 1e6) as u64));
                return;
            }
            let run = RUN.get() + 1;
            RUN.set(run);
            let done = Rc::new(Cell::new(0u64));
            let total = total as u64;
            set_reading(Some((0, total)));
            let progress: Rc<dyn Fn(u64)> = {
                let done = done.clone();
                let last = Cell::new(0.0);
                Rc::new(move |n: u64| {
                    done.set(done.get() + n);
                    // a redraw a few times a second is enough
                    if now_ms() - last.get() > 150.0 {
                        last.set(now_ms());
                        set_reading(Some((done.get(), total)));
                    }
                })
            };
            let show = show.clone();
            let pasted = tr(lang, "explain.pasted").to_string();
            yew::platform::spawn_local(async move {
                let out = explain(text, pasted, chosen, run, progress).await;
                if RUN.get() != run {
                    return;
                }
                READING.set(None);
                show.emit(out.map_or(Shown::Cancelled, |o| Shown::Explained(Rc::new(o))));
            });
        })
    };
    let add_files = {
        let (files, start) = (files.clone(), start.clone());
        Callback::from(move |more: Vec<web_sys::File>| {
            if more.is_empty() {
                return;
            }
            let mut all = (*files).clone();
            all.extend(more);
            FILES.with(|f| *f.borrow_mut() = all.clone());
            files.set(all.clone());
            start.emit(all);
        })
    };
    let on_choose = {
        let add_files = add_files.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            add_files.emit(files_of(input.files()));
            input.set_value("");
        })
    };
    let on_drop = {
        let (add_files, dragging) = (add_files.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            add_files.emit(files_of(dropped_files(&e)));
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_run = {
        let (files, start) = (files.clone(), start.clone());
        Callback::from(move |_: MouseEvent| start.emit((*files).clone()))
    };
    let on_stop = {
        let show = show.clone();
        Callback::from(move |_: MouseEvent| {
            RUN.set(RUN.get() + 1);
            READING.set(None);
            show.emit(Shown::Cancelled);
        })
    };
    let on_clear = {
        let (area, files, show) = (area.clone(), files.clone(), show.clone());
        Callback::from(move |_: MouseEvent| {
            RUN.set(RUN.get() + 1);
            if let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() {
                a.set_value("");
            }
            TEXT.with(|t| t.borrow_mut().clear());
            FILES.with(|f| f.borrow_mut().clear());
            files.set(Vec::new());
            READING.set(None);
            show.emit(Shown::Nothing);
        })
    };
    let on_text_change = Callback::from(|e: Event| {
        let a = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>();
        TEXT.with(|t| *t.borrow_mut() = a.value());
    });
    let remove_file = {
        let files = files.clone();
        move |i: usize| {
            let files = files.clone();
            Callback::from(move |_: MouseEvent| {
                let mut all = (*files).clone();
                if i < all.len() {
                    all.remove(i);
                }
                FILES.with(|f| *f.borrow_mut() = all.clone());
                files.set(all);
            })
        }
    };
    let message = |key: &str, text: String| html! { <p id="explain-message" class="notice" role="status" data-problem={key.to_string()}>{ text }</p> };
    let reading = READING.get();
    let body = match &shown {
        Shown::Nothing => html! {},
        Shown::Empty => message("empty", tr(lang, "explain.empty").to_string()),
        Shown::Cancelled => message("cancelled", tr(lang, "explain.cancelled").to_string()),
        Shown::TooBig(mb, max) => message("too-big", trf(lang, "explain.too-big", &[mb, max])),
        Shown::Explained(o) => {
            let problem = match o.report.problem_kind() {
                Some(Problem::Binary(names)) => {
                    Some(message("binary", trf(lang, "explain.binary", &[&names.join(", ")])))
                }
                Some(Problem::Nothing { lines }) => Some(message("nothing", trf(lang, "explain.nothing", &[&lines]))),
                None => None,
            };
            html! { <>
                { problem.unwrap_or_default() }
                { for o.unreadable.iter().map(|(n, e)| html! { <p class="notice" role="status">{ trf(lang, "explain.unreadable", &[n, e]) }</p> }) }
                { report_view(o, lang, &on_replay, &on_compare) }
            </> }
        }
    };
    let busy = reading.is_some();
    html! {
        <section id="explain" class="explain" aria-label={tr(lang, "tab.explain")}>
            <h2>{ tr(lang, "explain.title") }</h2>
            <p class="hint">{ tr(lang, "explain.intro") }</p>
            <div class={classes!("explain-input", dragging.then_some("dragging"))} ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
                <label for="explain-text">{ tr(lang, "explain.paste") }</label>
                <textarea id="explain-text" ref={area} rows="8" spellcheck="false" placeholder={tr(lang, "explain.placeholder")} onchange={on_text_change} />
                <div class="explain-actions">
                    <button id="explain-run" class="primary" onclick={on_run} disabled={busy}>{ tr(lang, "explain.run") }</button>
                    <label class="file-button">{ tr(lang, "explain.files") }
                        <input id="explain-files" type="file" multiple=true onchange={on_choose} disabled={busy} />
                    </label>
                    <span class="hint">{ tr(lang, "explain.drop") }</span>
                    <button id="explain-clear" onclick={on_clear}>{ tr(lang, "explain.clear") }</button>
                </div>
                if !files.is_empty() {
                    <ul id="explain-file-list" class="explain-files" aria-label={tr(lang, "explain.chosen")}>
                        { for files.iter().enumerate().map(|(i, f)| html! {
                            <li>{ format!("{} ({} KB) ", f.name(), (f.size() / 1024.0).ceil()) }
                                <button class="close" onclick={remove_file(i)} aria-label={trf(lang, "explain.remove", &[&f.name()])} disabled={busy}>{"×"}</button></li>
                        }) }
                    </ul>
                }
            </div>
            if let Some((done, total)) = reading {
                <p id="explain-progress" class="notice" role="status">
                    { trf(lang, "explain.reading", &[&(done / 1_000_000), &(total / 1_000_000).max(1), &(done * 100 / total.max(1))]) }{" "}
                    <button id="explain-stop" onclick={on_stop}>{ tr(lang, "explain.cancel") }</button>
                </p>
            }
            { body }
        </section>
    }
}
