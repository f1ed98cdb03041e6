//! Guided lessons in the page: the course list (with saved progress) and the
//! panel of the open lesson: narration, the predict-then-reveal question,
//! feedback, and the way on. The lesson drives the page's own player, so the
//! animation, timeline and inspector all keep working during a lesson.

use crate::i18n::{tr, trf, Lang};
use crate::lesson::{self, Choice, Lesson, LessonSession, Phase, Progress};
use yew::prelude::*;

/// What the lesson panel asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonMsg {
    Open(u32, usize),
    Answer(Choice),
    Reveal,
    Next,
    Exit,
}

const PROGRESS_KEY: &str = "groupscope.lessons";

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

pub fn lesson_list(lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let lessons = match lesson::lessons() {
        Ok(l) => l,
        Err(e) if e == lesson::registry::NOT_LOADED => return html! { <p id="lessons-loading" class="hint" role="status">{ tr(lang, "lessons.loading") }</p> },
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
        </section>
    }
}

fn choice_label(l: &Lesson, step: usize, c: &Choice, lang: Lang) -> String {
    match c {
        Choice::Index(i) => l.steps[step].question.as_ref().and_then(|q| q.choices.get(*i)).map_or(String::new(), |t| t.get(lang).to_string()),
        Choice::Target(t) => t.clone(),
    }
}

pub fn lesson_panel(s: &LessonSession, lang: Lang, on: &Callback<LessonMsg>) -> Html {
    let step = s.current();
    let total = s.lesson.steps.len();
    let feedback = s.current_feedback();
    html! {
        <section id="lesson" class="lesson" data-lesson={s.lesson.number.to_string()} data-step={(s.step + 1).to_string()}
            data-phase={format!("{:?}", s.phase)} aria-label={tr(lang, "lessons.panel")}>
            <header>
                <h2>{ format!("{}. {}", s.lesson.number, s.lesson.title.get(lang)) }</h2>
                <span class="step-count">{ trf(lang, "lessons.step", &[&(s.step + 1), &total]) }</span>
                <a class="step-link" href={s.link()}>{"#"}</a>
                <button class="close" onclick={on.reform(|_| LessonMsg::Exit)} aria-label={tr(lang, "lessons.exit")}>{"×"}</button>
            </header>
            if s.phase == Phase::Free {
                <div class="try-it">
                    <h3>{ tr(lang, "lessons.tryit") }</h3>
                    <p>{ s.lesson.try_it.text.get(lang).to_string() }</p>
                    <p class="experiment">{ s.lesson.try_it.experiment.get(lang).to_string() }</p>
                </div>
            } else {
                <p class="narration" aria-live="polite">{ step.narration.get(lang).to_string() }</p>
            }
            if let Some(q) = s.question() {
                <div class="question" role="group" aria-label={tr(lang, "lessons.question")}>
                    <p class="prompt"><b>{ tr(lang, "lessons.predict") }</b>{" "}{ q.prompt.get(lang).to_string() }</p>
                    if q.choices.is_empty() {
                        <p class="hint">{ tr(lang, "lessons.click") }</p>
                        <div class="choices">
                            { for q.targets.iter().map(|t| {
                                let c = Choice::Target(t.clone());
                                html! { <button class="choice" data-target={t.clone()} onclick={on.reform(move |_| LessonMsg::Answer(c.clone()))}>{ t.clone() }</button> }
                            }) }
                        </div>
                    } else {
                        <div class="choices">
                            { for q.choices.iter().enumerate().map(|(i, c)| html! {
                                <button class="choice" data-choice={i.to_string()} onclick={on.reform(move |_| LessonMsg::Answer(Choice::Index(i)))}>
                                    { format!("{}. {}", (b'A' + i as u8) as char, c.get(lang)) }
                                </button>
                            }) }
                        </div>
                    }
                    <button class="reveal" onclick={on.reform(|_| LessonMsg::Reveal)}>{ tr(lang, "lessons.reveal") }</button>
                </div>
            }
            if let Some(f) = feedback {
                <div class={classes!("feedback", if f.chosen.is_none() { "revealed" } else if f.correct { "right" } else { "wrong" })} role="status">
                    <p><b>{ if f.chosen.is_none() { tr(lang, "lessons.answer") } else if f.correct { tr(lang, "lessons.right") } else { tr(lang, "lessons.wrong") } }</b>
                        {" "}{ choice_label(&s.lesson, s.step, &f.answer, lang) }</p>
                    <p>{ f.explanation.get(lang).to_string() }</p>
                </div>
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
