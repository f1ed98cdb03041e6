//! The "Explain logs" tab (issue 16): paste logs or drop files (one per consumer or broker),
//! read them in the browser in slices with a pause for the page between slices, and show
//! what the engine (`crate::explain`) rebuilt. Nothing leaves the browser. The last
//! explanation, the paste and the chosen files are kept while other tabs are open.

use super::context::AppContext;
use super::explain_view::report_view;
use crate::compare::Comparison;
use crate::explain::model::Problem;
use crate::explain::Explainer;
use crate::i18n::{tr, trf, Lang};
use crate::page::explain::{ExplainMsg, Kept, LogFile, Outcome, Shown};
use crate::page::Msg;
use crate::sim::Scenario;
use std::cell::Cell;
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
    stop: &Cell<bool>,
    slice_start: &mut f64,
    progress: &dyn Fn(u64),
) -> bool {
    for piece in bytes.chunks(FEED) {
        x.feed_bytes(file, piece);
        if now_ms() - *slice_start > BUDGET_MS {
            progress(piece.len() as u64);
            yield_to_page().await;
            *slice_start = now_ms();
            if stop.get() {
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
    files: Vec<LogFile>,
    stop: Rc<Cell<bool>>,
    progress: Rc<dyn Fn(u64)>,
) -> Option<Outcome> {
    let mut x = Explainer::new();
    let mut slice_start = now_ms();
    let mut unreadable = Vec::new();
    if !text.trim().is_empty() {
        let f = x.begin_file(&pasted_name);
        if !feed(&mut x, f, text.as_bytes(), &stop, &mut slice_start, &*progress).await {
            return None;
        }
        x.end_file(f);
    }
    drop(text);
    for chosen in &files {
        let f = x.begin_file(&chosen.name);
        let Some(file) = chosen.handle.downcast_ref::<web_sys::File>() else {
            unreadable.push((chosen.name.clone(), "not a file".to_string()));
            x.end_file(f);
            continue;
        };
        let size = file.size();
        let mut at = 0.0;
        while at < size {
            let to = (at + FILE_SLICE).min(size);
            match read_slice(file, at, to).await {
                Ok(bytes) => {
                    if !feed(&mut x, f, &bytes, &stop, &mut slice_start, &*progress).await {
                        return None;
                    }
                }
                Err(e) => {
                    unreadable.push((file.name(), e));
                    break;
                }
            }
            at = to;
            if stop.get() {
                return None;
            }
        }
        x.end_file(f);
    }
    Some(Outcome::new(x.finish(), unreadable))
}

/// The chosen files, each with its name and size for the page's state.
fn files_of(list: Option<web_sys::FileList>) -> Vec<LogFile> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| LogFile { name: f.name(), size: f.size(), handle: Rc::new(f) })
        .collect()
}

/// The files of a drop (`event.dataTransfer.files`), read without web-sys's DataTransfer binding.
fn dropped_files(e: &DragEvent) -> Option<web_sys::FileList> {
    use wasm_bindgen::JsCast;
    let dt = js_sys::Reflect::get(e, &"dataTransfer".into()).ok().filter(|v| v.is_object())?;
    let files = js_sys::Reflect::get(&dt, &"files".into()).ok()?;
    files.dyn_into::<web_sys::FileList>().ok()
}

#[derive(Properties)]
pub struct ExplainProps {
    /// The tab's work, from the page's state.
    pub kept: Rc<Kept>,
}

/// The same work: the reducer makes a new `Kept` for every change.
impl PartialEq for ExplainProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.kept, &other.kept)
    }
}

#[function_component]
pub fn ExplainTab(props: &ExplainProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // A replay opens in the Simulation tab (the previous run stays recoverable),
    // a comparison in Side by side; the tab's own work is kept by the page too:
    // messages to the page.
    let page = use_context::<AppContext>().expect("the tab is inside the page");
    let on_replay = page.dispatch.reform(|s: Scenario| Msg::Replay(Box::new(s)));
    let on_compare = page.dispatch.reform(|c: Comparison| Msg::CompareLogs(Box::new(c)));
    let send = page.dispatch.reform(Msg::Explain);
    let kept = &props.kept;
    let shown = &kept.shown;
    let files = &kept.files;
    let dragging = use_state(|| false);
    let area = use_node_ref();
    {
        // The paste comes back when the tab opens again.
        let (area, text) = (area.clone(), kept.text.clone());
        use_effect_with((), move |_| {
            if let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() {
                a.set_value(&text);
            }
        });
    }
    let start = {
        let (area, send) = (area.clone(), send.clone());
        Callback::from(move |chosen: Vec<LogFile>| {
            let text = area.cast::<web_sys::HtmlTextAreaElement>().map(|a| a.value()).unwrap_or_default();
            send.emit(ExplainMsg::Text(text.clone()));
            let total = text.len() as f64 + chosen.iter().map(|f| f.size).sum::<f64>();
            if text.trim().is_empty() && chosen.is_empty() {
                send.emit(ExplainMsg::Refused(Shown::Empty));
                return;
            }
            if total > MAX_BYTES {
                send.emit(ExplainMsg::Refused(Shown::TooBig((total / 1e6).ceil() as u64, (MAX_BYTES / 1e6) as u64)));
                return;
            }
            let stop = Rc::new(Cell::new(false));
            let total = total as u64;
            send.emit(ExplainMsg::Started(total, stop.clone()));
            let progress: Rc<dyn Fn(u64)> = {
                let (done, last, send, stop) = (Cell::new(0u64), Cell::new(0.0), send.clone(), stop.clone());
                Rc::new(move |n: u64| {
                    done.set(done.get() + n);
                    // a redraw a few times a second is enough
                    if now_ms() - last.get() > 150.0 {
                        last.set(now_ms());
                        send.emit(ExplainMsg::Progress(stop.clone(), done.get()));
                    }
                })
            };
            let send = send.clone();
            let pasted = tr(lang, "explain.pasted").to_string();
            yew::platform::spawn_local(async move {
                let out = explain(text, pasted, chosen, stop.clone(), progress).await;
                // A stopped read's end changes nothing (the reducer checks its token).
                send.emit(ExplainMsg::Done(stop, out));
            });
        })
    };
    let add_files = {
        let (files, start, send) = (files.clone(), start.clone(), send.clone());
        Callback::from(move |more: Vec<LogFile>| {
            if more.is_empty() {
                return;
            }
            let mut all = (*files).clone();
            all.extend(more);
            send.emit(ExplainMsg::Files(all.clone()));
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
    let on_stop = send.reform(|_: MouseEvent| ExplainMsg::Stop);
    let on_clear = {
        let (area, send) = (area.clone(), send.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() {
                a.set_value("");
            }
            send.emit(ExplainMsg::Clear);
        })
    };
    let on_text_change =
        send.reform(|e: Event| ExplainMsg::Text(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()));
    let remove_file = |i: usize| {
        let (files, send) = (files.clone(), send.clone());
        Callback::from(move |_: MouseEvent| {
            let mut all = (*files).clone();
            if i < all.len() {
                all.remove(i);
            }
            send.emit(ExplainMsg::Files(all));
        })
    };
    let message = |key: &str, text: String| html! { <p id="explain-message" class="notice" role="status" data-problem={key.to_string()}>{ text }</p> };
    let reading = kept.reading;
    let body = match shown {
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
                            <li>{ format!("{} ({} KB) ", f.name, (f.size / 1024.0).ceil()) }
                                <button class="close" onclick={remove_file(i)} aria-label={trf(lang, "explain.remove", &[&f.name])} disabled={busy}>{"×"}</button></li>
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
