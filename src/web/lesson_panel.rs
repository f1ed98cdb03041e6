//! Guided lessons in the page: the course list (with saved progress) and the
//! panel of the open lesson: narration, the prediction (committed, then
//! watched: the verdict waits for the step's event), the learner's task, and
//! the way on. The lesson drives the page's own player, so the animation,
//! timeline and inspector all keep working during a lesson.

use crate::i18n::{tr, trf, Lang};
use crate::lesson::registry::BadLink;
use crate::lesson::{self, fair, live_text, Choice, Lesson, LessonSession, Phase, Progress};
use crate::page::{Learner, LessonMsg};
use crate::player::SPEEDS;
use crate::sim::Fault;
use yew::prelude::*;

const PROGRESS_KEY: &str = "groupscope.lessons";
const LEARNER_KEY: &str = "groupscope.learner";
const SAME_ORDER_KEY: &str = "groupscope.sameOrder";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saved progress of every lesson, by lesson id.
pub fn load_progress() -> std::collections::BTreeMap<String, Progress> {
    storage()
        .and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

pub fn save_progress(p: Progress) {
    let mut all = load_progress();
    all.insert(p.lesson.clone(), p);
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(&all)) {
        let _ = s.set_item(PROGRESS_KEY, &text);
    }
}

/// Whether presenters asked for the authored order of choices.
fn same_order() -> bool {
    storage().and_then(|s| s.get_item(SAME_ORDER_KEY).ok().flatten()).is_some_and(|v| v == "1")
}

pub fn set_same_order(on: bool) {
    if let Some(s) = storage() {
        let _ = s.set_item(SAME_ORDER_KEY, if on { "1" } else { "0" });
    }
}

/// The order of choices this browser asked for: "same order for everyone",
/// the seed it kept, and a fresh seed for its first lesson (the page keeps it
/// then, `save_learner_seed`).
pub fn learner() -> Learner {
    let seed = storage().and_then(|s| s.get_item(LEARNER_KEY).ok().flatten()).and_then(|v| v.parse().ok());
    let fresh = (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64;
    Learner { same_order: same_order(), seed, fresh }
}

pub fn save_learner_seed(seed: u64) {
    if let Some(s) = storage() {
        let _ = s.set_item(LEARNER_KEY, &seed.to_string());
    }
}

/// A bad deep link, explained in the learner's language.
pub fn link_error(lang: Lang, e: &BadLink) -> String {
    match e {
        BadLink::NoLesson { key, first, last } => trf(lang, "lessons.link.nolesson", &[key, first, last]),
        BadLink::NoStep { lesson, key, steps } => trf(lang, "lessons.link.nostep", &[lesson, key, steps]),
        BadLink::Course(e) => e.clone(),
    }
}

pub fn lesson_list(lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let lessons = match lesson::lessons() {
        Ok(l) => l,
        Err(e) if e == lesson::registry::NOT_LOADED => {
            return html! { <p id="lessons-loading" class="hint" role="status">{ tr(lang, "lessons.loading") }</p> }
        }
        Err(e) => return html! { <p class="fault-error" role="alert">{ e.to_string() }</p> },
    };
    let progress = load_progress();
    html! {
        <section id="lessons" class="lessons" aria-label={tr(lang, "tab.lessons")}>
            <h2>{ tr(lang, "lessons.title") }</h2>
            <p class="hint">{ tr(lang, "lessons.intro") }</p>
            <ol class="lesson-cards">
                { for lessons.iter().map(|l| {
                    let p = progress.get(&l.id);
                    let status = match p {
                        Some(p) if p.finished => trf(lang, "lessons.done", &[&p.answers.values().filter(|c| **c).count(), &p.answers.len()]),
                        Some(p) => trf(lang, "lessons.at", &[&(l.step_index(&p.step).unwrap_or(0) + 1), &l.steps.len()]),
                        None => trf(lang, "lessons.steps", &[&l.steps.len()]),
                    };
                    let resume = p.filter(|p| !p.finished).and_then(|p| l.step_index(&p.step)).unwrap_or(0);
                    let n = l.number;
                    html! {
                        <li class="lesson-card" data-lesson={l.number.to_string()}>
                            <h3>{ format!("{}. {}", l.number, l.title.get(lang)) }</h3>
                            <p>{ l.summary.get(lang).to_string() }</p>
                            <p class="status">{ status }</p>
                            <button class="open-lesson" onclick={on.reform(move |_| LessonMsg::Open(n, 0))}>{ tr(lang, "lessons.start") }</button>
                            if resume > 0 {
                                {" "}<button class="resume-lesson" onclick={on.reform(move |_| LessonMsg::Open(n, resume))}>{ tr(lang, "lessons.resume") }</button>
                            }
                        </li>
                    }
                }) }
            </ol>
            <DraftOpener on={on.clone()} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct DraftProps {
    on: Callback<LessonMsg>,
}

/// Authors open a lesson file from disk: it is validated like the course,
/// and every problem is listed with its file, step and field.
#[function_component]
fn DraftOpener(props: &DraftProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let error = use_state(|| None::<String>);
    let onchange = {
        let (on, error) = (props.on.clone(), error.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let name = input.files().and_then(|l| l.get(0)).map(|f| f.name()).unwrap_or_default();
            let (on, error) = (on.clone(), error.clone());
            super::files::read_text(&input, move |text| match lesson::validate::load(&text) {
                Ok(l) => {
                    error.set(None);
                    on.emit(LessonMsg::OpenDraft(Box::new(l)));
                }
                Err(e) => {
                    error.set(Some(format!("{}\n{}", trf(lang, "lessons.badfile", &[&format!("lessons/{name}")]), e)))
                }
            });
        })
    };
    html! {
        <div class="lesson-draft">
            <label>{ tr(lang, "lessons.openfile") }{" "}<input type="file" id="lesson-file" accept=".json,application/json" {onchange} /></label>
            if let Some(e) = (*error).clone() {
                <pre id="lesson-file-error" class="fault-error" role="alert">{ e }</pre>
            }
        </div>
    }
}

/// A "try it yourself" button's label in the learner's language.
fn fault_label(f: &Fault, lang: Lang) -> String {
    match f {
        Fault::CrashConsumer { consumer } => trf(lang, "lessons.f.crash", &[consumer]),
        Fault::RestartConsumer { consumer } => trf(lang, "lessons.f.restart", &[consumer]),
        Fault::CloseConsumer { consumer } => trf(lang, "lessons.f.close", &[consumer]),
        Fault::PauseConsumer { consumer, duration_ms } => trf(lang, "lessons.f.pause", &[consumer, duration_ms]),
        Fault::SlowProcessing { consumer, ms_per_record } => trf(lang, "lessons.f.slow", &[consumer, ms_per_record]),
        Fault::KillBroker { broker } => trf(lang, "lessons.f.kill", &[broker]),
        Fault::RestartBroker { broker } => trf(lang, "lessons.f.restartbroker", &[broker]),
        Fault::AddConsumer { group } => trf(lang, "lessons.f.add", &[group]),
        Fault::AddPartitions { topic, count } => trf(lang, "lessons.f.partitions", &[topic, count]),
        // Kafka's own operations (REST calls, static restarts) read the same in both languages.
        other => other.describe(),
    }
}

/// The text of an answer: its choice or target.
fn choice_label(l: &Lesson, step: usize, c: &Choice, lang: Lang) -> String {
    match c {
        Choice::Index(i) => l.steps[step]
            .question
            .as_ref()
            .and_then(|q| q.choices.get(*i))
            .map_or(String::new(), |t| t.get(lang).to_string()),
        Choice::Target(t) => t.clone(),
    }
}

/// `B. the text` as the learner sees it (their letter).
fn lettered(s: &LessonSession, c: &Choice, lang: Lang) -> String {
    let letter = s.letter_of(s.step, c).map(|l| l.to_string()).unwrap_or_default();
    format!("{letter}. {}", choice_label(&s.lesson, s.step, c, lang))
}

/// In presenter mode the step's narration is the caption under the drawing,
/// where a room looks (the panel beside it keeps the question and its
/// choices in view at 1280x720); nothing once the lesson is done.
pub fn lesson_caption(s: &LessonSession, lang: Lang) -> Html {
    if s.phase == Phase::Free {
        return html! {};
    }
    html! { <p id="lesson-caption" class="lesson-caption" aria-live="polite">{ s.current().narration.get(lang).to_string() }</p> }
}

fn speed_control(s: &LessonSession, speed: f64, lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let at = SPEEDS.iter().position(|x| (x - speed).abs() < 1e-9);
    let slower = SPEEDS.iter().rev().find(|x| **x < speed - 1e-9).copied();
    let faster = SPEEDS.iter().find(|x| **x > speed + 1e-9).copied();
    let same = s.learner.is_none();
    html! {
        <div class="lesson-controls">
            <button class="lesson-slower" disabled={slower.is_none() || at == Some(0)} onclick={on.reform(move |_| LessonMsg::Speed(slower.unwrap_or(speed)))}>{ tr(lang, "lessons.slower") }</button>
            <span class="lesson-speed">{ trf(lang, "lessons.speed", &[&speed]) }</span>
            <button class="lesson-faster" disabled={faster.is_none()} onclick={on.reform(move |_| LessonMsg::Speed(faster.unwrap_or(speed)))}>{ tr(lang, "lessons.faster") }</button>
            <label class="same-order">
                <input type="checkbox" id="same-order" checked={same} onchange={on.reform(move |_| LessonMsg::SameOrder(!same))} />
                { tr(lang, "lessons.sameorder") }
            </label>
        </div>
    }
}

fn question_view(s: &LessonSession, lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let Some(q) = s.question() else { return html! {} };
    let order = s.order();
    html! {
        <div class="question" role="group" aria-label={tr(lang, "lessons.question")}>
            <p class="prompt"><b>{ tr(lang, "lessons.predict") }</b>{" "}{ q.prompt.get(lang).to_string() }</p>
            if q.choices.is_empty() {
                <p class="hint">{ tr(lang, "lessons.click") }</p>
            }
            <div class="choices">
                { for order.iter().enumerate().map(|(pos, &i)| {
                    let letter = fair::letter(pos);
                    if q.choices.is_empty() {
                        let t = q.targets[i].clone();
                        let c = Choice::Target(t.clone());
                        html! { <button class="choice" data-target={t.clone()} data-letter={letter.to_string()} onclick={on.reform(move |_| LessonMsg::Answer(c.clone()))}>{ format!("{letter}. {t}") }</button> }
                    } else {
                        html! { <button class="choice" data-choice={i.to_string()} data-letter={letter.to_string()} onclick={on.reform(move |_| LessonMsg::Answer(Choice::Index(i)))}>
                            { format!("{letter}. {}", q.choices[i].get(lang)) }
                        </button> }
                    }
                }) }
            </div>
            <button class="reveal" onclick={on.reform(|_| LessonMsg::Reveal)}>{ tr(lang, "lessons.reveal") }</button>
            <p class="hint keys keys-desk">{ tr(lang, "lessons.keys") }</p>
            <p class="hint keys keys-presenter">{ tr(lang, "lessons.keys.presenter") }</p>
        </div>
    }
}

fn task_view(s: &LessonSession, lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let Some(t) = s.task() else { return html! {} };
    html! {
        <div class="task" role="group" data-tries={s.tries[s.step].0.to_string()}>
            <p class="prompt"><b>{ tr(lang, "lessons.act") }</b>{" "}{ t.prompt.get(lang).to_string() }</p>
            if s.phase == Phase::Act {
                <div class="choices">
                    { for s.order().into_iter().enumerate().map(|(pos, i)| html! {
                        <button class="task-option" data-option={i.to_string()} data-letter={fair::letter(pos).to_string()} onclick={on.reform(move |_| LessonMsg::Choose(i))}>
                            { format!("{}. {}", fair::letter(pos), t.options[i].label.get(lang)) }
                        </button>
                    }) }
                </div>
                <p class="hint keys keys-presenter">{ tr(lang, "lessons.keys.task") }</p>
            } else {
                <div class="task-missed" role="status">
                    <p><b>{ tr(lang, "lessons.missed") }</b>{" "}{ s.hints().iter().map(|h| h.get(lang)).collect::<Vec<_>>().join(" ") }</p>
                    if let Some(m) = &s.missed {
                        <p class="hint missed-reason">{ m.clone() }</p>
                    }
                    <button class="retry" onclick={on.reform(|_| LessonMsg::Retry)}>{ tr(lang, "lessons.retry") }</button>
                </div>
            }
        </div>
    }
}

/// The committed prediction while the run plays (saying so while the
/// watched event plays in slow motion), then the verdict.
fn verdict_view(s: &LessonSession, slow_motion: bool, lang: Lang) -> Html {
    if let Some(f) = s.prediction() {
        let text = match &f.chosen {
            Some(c) => trf(lang, "lessons.predicted", &[&s.letter_of(s.step, c).unwrap_or('?')]),
            None => tr(lang, "lessons.watch").to_string(),
        };
        return html! {
            <p class="prediction" role="status">{ text }
                if slow_motion {
                    {" "}<span class="slow-motion">{ tr(lang, "lessons.slowmotion") }</span>
                }
            </p>
        };
    }
    let Some(f) = s.verdict() else { return html! {} };
    let (class, head) = match (&f.chosen, f.correct) {
        (None, _) => ("revealed", tr(lang, "lessons.answer")),
        (Some(_), true) => ("right", tr(lang, "lessons.right")),
        (Some(_), false) => ("wrong", tr(lang, "lessons.wrong")),
    };
    html! {
        <div class={classes!("feedback", class)} role="status">
            <p><b>{ head }</b>{" "}{ lettered(s, &f.answer, lang) }</p>
            if let (Some(c), Some(w)) = (&f.chosen, &f.why_not) {
                <p class="why-not"><b>{ trf(lang, "lessons.whynot", &[&s.letter_of(s.step, c).unwrap_or('?')]) }</b>{" "}{ w.get(lang).to_string() }</p>
            }
            <p class="explanation">{ f.explanation.get(lang).to_string() }</p>
        </div>
    }
}

pub fn lesson_panel(
    s: &LessonSession,
    world: &crate::sim::World,
    speed: f64,
    slow_motion: bool,
    lang: Lang,
    on: &Callback<LessonMsg>,
) -> Html {
    let step = s.current();
    let total = s.lesson.steps.len();
    let next_lesson = match lesson::lessons().ok().and_then(|all| all.iter().find(|l| l.number > s.lesson.number)) {
        Some(n) => {
            let k = n.number;
            let label = trf(lang, "lessons.nextlesson", &[&format!("{}. {}", n.number, n.title.get(lang))]);
            html! { <button class="next-lesson" onclick={on.reform(move |_| LessonMsg::Open(k, 0))}>{ label }</button> }
        }
        None => html! {},
    };
    html! {
        <section id="lesson" class="lesson" data-lesson={s.lesson.number.to_string()} data-step={(s.step + 1).to_string()}
            data-phase={format!("{:?}", s.phase)} aria-label={tr(lang, "lessons.panel")}>
            <header>
                <h2>{ format!("{}. {}", s.lesson.number, s.lesson.title.get(lang)) }</h2>
                <span class="step-count">{ trf(lang, "lessons.step", &[&(s.step + 1), &total]) }</span>
                <a class="step-link" href={s.link()}>{"#"}</a>
                <button class="close" onclick={on.reform(|_| LessonMsg::Exit)} aria-label={tr(lang, "lessons.exit")}>{"×"}</button>
            </header>
            { speed_control(s, speed, lang, on) }
            if s.phase == Phase::Free {
                <div class="try-it">
                    <h3>{ tr(lang, "lessons.tryit") }</h3>
                    <p class="wrap-up">{ live_text::fill(s.lesson.try_it.text.get(lang), world) }</p>
                    <p class="experiment">{ s.lesson.try_it.experiment.get(lang).to_string() }</p>
                    <div class="try-faults">
                        { for s.lesson.try_it.faults.iter().map(|f| {
                            let f2 = f.clone();
                            html! { <button class="try-fault" onclick={on.reform(move |_| LessonMsg::Fault(f2.clone()))}>{ fault_label(f, lang) }</button> }
                        }) }
                    </div>
                    { next_lesson }
                </div>
            } else {
                <p class="narration" aria-live="polite">{ step.narration.get(lang).to_string() }</p>
            }
            if let Some(c) = step.compare.as_ref().filter(|_| s.phase != Phase::Free) {
                <button id="lesson-compare" class="lesson-compare" onclick={on.reform(|_| LessonMsg::Compare)}>{ c.label.get(lang).to_string() }</button>
            }
            { question_view(s, lang, on) }
            { task_view(s, lang, on) }
            { verdict_view(s, slow_motion, lang) }
            if s.phase == Phase::Reached {
                if let Some(t) = step.task.as_ref().filter(|_| s.tries[s.step].1) {
                    <p class="task-done" role="status">{ live_text::fill(t.done.get(lang), world) }</p>
                }
            }
            if s.phase == Phase::Running {
                <p class="hint">{ tr(lang, "lessons.running") }</p>
            }
            if s.phase == Phase::Reached {
                { for s.failures.iter().filter(|(i, _)| *i == s.step).map(|(_, m)| html! { <p class="fault-error">{ m.clone() }</p> }) }
                <button id="lesson-next" class="next" onclick={on.reform(|_| LessonMsg::Next)}>
                    { if s.step + 1 < total { tr(lang, "lessons.next") } else { tr(lang, "lessons.finish") } }
                </button>
            }
        </section>
    }
}
