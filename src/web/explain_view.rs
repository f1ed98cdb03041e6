//! The "Explain logs" tab's drawing of an explanation: per group the diagnoses with the
//! configs to look at, the rebalances on a time axis, each rebalance with its causes, paused
//! time and evidence, the generations (or group epochs), the members, and who owned which
//! partition in each generation whose assignment was logged; and the replay buttons.

use crate::compare::Comparison;
use crate::explain::diagnose::configs;
use crate::explain::model::{Cause, Group, GroupKind, Report};
use crate::explain::replay;
use crate::explain::view::{self, clock, Mark, Names};
use crate::i18n::{tr, trf, Lang};
use crate::page::explain::Outcome;
use crate::sim::Scenario;
use crate::view::explain_text::duration;
use yew::prelude::*;

/// The palette as classes (`static/style.css`), as the ownership grid uses them.
const OWNER_CLASS: [&str; 8] = ["o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"];

fn owner_class(i: usize) -> &'static str {
    OWNER_CLASS[i % OWNER_CLASS.len()]
}

pub fn cause_text(lang: Lang, c: Cause) -> &'static str {
    tr(lang, &format!("cause.{}", c.as_str()))
}

fn generation_word(lang: Lang, g: &Group) -> &'static str {
    tr(lang, if g.kind == GroupKind::Consumer { "explain.col.epoch" } else { "explain.col.generation" })
}

/// "What I could not read": lines that look like group coordination but that no dialect read.
fn unread_view(r: &Report, lang: Lang) -> Html {
    if r.unread_count == 0 {
        return html! {};
    }
    let title = match lang {
        Lang::En => format!("What I could not read: {} lines that look like group coordination", r.unread_count),
        Lang::Zh => format!("未能读懂的行：{} 行看似与消费组协调有关", r.unread_count),
    };
    html! {
        <details id="explain-unread" class="explain-unread" data-unread={r.unread_count.to_string()}>
            <summary>{ title }</summary>
            <ul>
                { for r.unread.iter().map(|u| html! { <li><code>{ format!("{}:{}  {}", u.file, u.line, u.text) }</code></li> }) }
            </ul>
        </details>
    }
}

fn gen_text(g: Option<i64>) -> String {
    g.map_or("?".to_string(), |g| g.to_string())
}

pub fn report_view(o: &Outcome, lang: Lang, on_replay: &Callback<Scenario>, on_compare: &Callback<Comparison>) -> Html {
    let r = &o.report;
    let several = r.files.len() > 1;
    html! { <>
        <p id="explain-summary" class="explain-summary" data-lines-read={r.lines_read.to_string()} data-lines-unparsed={r.lines_unparsed.to_string()} data-groups={r.groups.len().to_string()}>
            { trf(lang, "explain.read", &[&r.lines_read, &r.lines_unparsed]) }
            { r.groups.first().and_then(|g| view::date(g.first_ms)).map(|d| format!(" · {}", trf(lang, "explain.date", &[&d]))).unwrap_or_default() }
        </p>
        if several || r.files.iter().any(|f| f.binary) {
            <ul class="explain-file-summary">
                { for r.files.iter().map(|f| html! {
                    <li>{ if f.binary { trf(lang, "explain.binary.some", &[&f.name]) } else { trf(lang, "explain.file", &[&f.name, &f.lines, &f.unparsed]) } }</li>
                }) }
            </ul>
        }
        if r.dropped_events > 0 {
            <p class="notice" role="status">{ trf(lang, "explain.dropped", &[&r.dropped_events]) }</p>
        }
        { unread_view(r, lang) }
        { for r.groups.iter().zip(&o.replays).enumerate().map(|(i, (g, rep))| group_view(i, g, rep, r, lang, on_replay, on_compare)) }
    </> }
}

fn group_view(
    i: usize,
    g: &Group,
    rep: &Result<Scenario, String>,
    r: &Report,
    lang: Lang,
    on_replay: &Callback<Scenario>,
    on_compare: &Callback<Comparison>,
) -> Html {
    let names = Names::of(g);
    let kind = tr(lang, if g.kind == GroupKind::Consumer { "explain.kind.consumer" } else { "explain.kind.classic" });
    let coordinators = (!g.coordinators.is_empty()).then(|| {
        let list: Vec<String> =
            g.coordinators.iter().map(|(t, b)| trf(lang, "explain.coordinator.at", &[b, &clock(*t)])).collect();
        trf(lang, "explain.coordinators", &[&list.join(" → ")])
    });
    let replay_buttons = match rep {
        Ok(s) => {
            let (s, on_replay) = (s.clone(), on_replay.clone());
            let replay = Callback::from(move |_: MouseEvent| on_replay.emit(s.clone()));
            let (group, on_compare) = (g.clone(), on_compare.clone());
            let compare = Callback::from(move |_: MouseEvent| {
                if let Ok(c) = replay::comparison_for(&group) {
                    on_compare.emit(c);
                }
            });
            let faults = s_faults(rep);
            html! {
                <p class="explain-replay-bar">
                    <button class="explain-replay primary" data-group={g.group_id.clone()} onclick={replay}>{ tr(lang, "explain.replay") }</button>
                    <button class="explain-compare" data-group={g.group_id.clone()} onclick={compare}>{ tr(lang, "explain.compare") }</button>
                    <span class="hint">{ trf(lang, "explain.replay.hint", &[&names.processes.len(), &faults]) }</span>
                </p>
            }
        }
        Err(e) => {
            let why = if names.processes.is_empty() {
                tr(lang, "explain.replay.none").to_string()
            } else {
                trf(lang, "explain.replay.error", &[e])
            };
            html! { <p class="explain-replay-bar hint">{ why }</p> }
        }
    };
    html! {
        <section class="explain-group" data-group={g.group_id.clone()} aria-labelledby={format!("explain-group-{i}")}>
            <h3 id={format!("explain-group-{i}")}>{ trf(lang, "explain.group", &[&g.group_id]) }</h3>
            <p class="hint">{ kind }{ trf(lang, if g.kind == GroupKind::Consumer { "explain.counts.consumer" } else { "explain.counts.classic" }, &[&names.processes.len(), &g.generations.len(), &g.rebalances.len()]) }
                { coordinators.map(|c| format!(" · {c}")).unwrap_or_default() }</p>
            { replay_buttons }
            { diagnoses(g, lang) }
            { timeline(i, g, lang) }
            { super::explain_spacetime::spacetime_view(i, g, lang) }
            { rebalances(g, r, &names, lang) }
            { generations(i, g, &names, lang) }
            { members(g, &names, lang) }
            { ownership(i, g, &names, lang) }
        </section>
    }
}

fn s_faults(rep: &Result<Scenario, String>) -> usize {
    rep.as_ref().map_or(0, |s| s.faults.len())
}

fn diagnoses(g: &Group, lang: Lang) -> Html {
    if g.diagnoses.is_empty() {
        return html! {};
    }
    html! { <>
        <h4>{ tr(lang, "explain.diagnoses") }</h4>
        <ul class="explain-diagnoses">
            { for g.diagnoses.iter().map(|d| {
                let look = configs(&d.kind);
                html! {
                    <li class="diagnosis" data-kind={d.kind.clone()}>
                        { if lang == Lang::Zh { d.text_zh.clone() } else { d.text.clone() } }
                        if !look.is_empty() {
                            <span class="look">{ tr(lang, "explain.look") }{" "}
                                { for look.iter().map(|c| html! { <><code>{ *c }</code>{" "}</> }) }</span>
                        }
                    </li>
                }
            }) }
        </ul>
    </> }
}

fn pct(t: i64, from: i64, span: i64) -> f64 {
    ((t - from) as f64 * 100.0 / span as f64).clamp(0.0, 100.0)
}

fn timeline(i: usize, g: &Group, lang: Lang) -> Html {
    let ((from, to), marks) = view::marks(g);
    if marks.is_empty() {
        return html! {};
    }
    let span = (to - from).max(1);
    let mut present: Vec<Cause> =
        marks.iter().filter_map(|m| if let Mark::Rebalance { cause, .. } = m { Some(*cause) } else { None }).collect();
    present.sort();
    present.dedup();
    let moved = marks.iter().any(|m| matches!(m, Mark::Coordinator { .. }));
    let label = trf(lang, "explain.timeline.label", &[&g.rebalances.len(), &clock(from), &clock(to)]);
    html! {
        <figure class="explain-timeline" id={format!("explain-timeline-{i}")}>
            <h4>{ tr(lang, "explain.timeline") }</h4>
            <div class="axis" role="img" aria-label={label}>
                { for marks.iter().map(|m| match m {
                    Mark::Rebalance { index, from_ms, to_ms, cause } => {
                        let (l, w) = (pct(*from_ms, from, span), pct(*to_ms, from, span) - pct(*from_ms, from, span));
                        let title = format!("#{} {} · {} · {}", index + 1, clock(*from_ms), duration(lang, to_ms - from_ms), cause_text(lang, *cause));
                        html! { <span class={classes!("rb-mark", format!("cause-{}", cause.as_str()))} data-rebalance={(index + 1).to_string()}
                            style={format!("left:{l:.2}%;width:{w:.2}%")} title={title} /> }
                    }
                    Mark::Coordinator { at_ms, broker } => html! {
                        <span class="coord-mark" style={format!("left:{:.2}%", pct(*at_ms, from, span))} title={trf(lang, "explain.coordinator.moved", &[broker, &clock(*at_ms)])} />
                    },
                }) }
            </div>
            <div class="axis-labels" aria-hidden="true">
                <span>{ clock(from) }</span><span>{ clock(from + span / 2) }</span><span>{ clock(to) }</span>
            </div>
            <figcaption class="explain-legend">
                { for present.iter().map(|c| html! { <span class="key"><span class={classes!("swatch", format!("cause-{}", c.as_str()))} />{ cause_text(lang, *c) }</span> }) }
                if moved {
                    <span class="key"><span class="swatch coord" />{ tr(lang, "cause.coordinator-moved") }</span>
                }
            </figcaption>
        </figure>
    }
}

fn rebalances(g: &Group, r: &Report, names: &Names, lang: Lang) -> Html {
    if g.rebalances.is_empty() {
        return html! { <p class="hint">{ tr(lang, "explain.no-rebalance") }</p> };
    }
    let word = generation_word(lang, g);
    html! { <>
        <h4>{ tr(lang, "explain.rebalances") }</h4>
        <ol class="explain-rebalances">
            { for g.rebalances.iter().map(|rb| {
                let causes: Vec<&str> = rb.causes.iter().map(|c| c.as_str()).collect();
                let took = rb.end_ms.map_or(tr(lang, "explain.unfinished").to_string(), |e| trf(lang, "explain.took", &[&duration(lang, e - rb.start_ms)]));
                html! {
                    <li class="rebalance" data-causes={causes.join(" ")} data-paused-ms={rb.paused_ms.to_string()}>
                        <strong>{ clock(rb.start_ms) }</strong>{" · "}
                        { format!("{word} {} → {}", gen_text(rb.from_generation), gen_text(rb.to_generation)) }{" · "}{ took }{" · "}
                        { trf(lang, "explain.paused", &[&duration(lang, rb.paused_ms)]) }
                        <br />{ tr(lang, "explain.causes") }{" "}
                        { for rb.causes.iter().map(|c| html! { <span class={classes!("cause", format!("cause-{}", c.as_str()))}>{ cause_text(lang, *c) }</span> }) }
                        if !rb.why.is_empty() {
                            <details class="why-evidence">
                                <summary>{ trf(lang, "explain.why", &[&rb.why.len()]) }</summary>
                                <ul>
                                    { for rb.why.iter().map(|w| {
                                        let file = r.files.get(w.file as usize).map(|f| f.name.as_str()).unwrap_or("?");
                                        let mut parts = vec![clock(w.ts)];
                                        if let Some(c) = w.cause { parts.push(cause_text(lang, c).to_string()); }
                                        if let Some(m) = &w.member { parts.push(names.name(m).to_string()); }
                                        parts.push(format!("{file}:{}", w.line));
                                        html! { <li>{ parts.join(" · ") }if let Some(q) = &w.quote { <br /><code class="why-quote">{ q.clone() }</code> }</li> }
                                    }) }
                                </ul>
                            </details>
                        }
                    </li>
                }
            }) }
        </ol>
    </> }
}

fn generations(i: usize, g: &Group, names: &Names, lang: Lang) -> Html {
    if g.generations.is_empty() {
        return html! {};
    }
    let title = tr(lang, if g.kind == GroupKind::Consumer { "explain.epochs" } else { "explain.generations" });
    let heads = [
        generation_word(lang, g),
        tr(lang, "explain.col.from"),
        tr(lang, "explain.col.to"),
        tr(lang, "explain.col.leader"),
        tr(lang, "explain.col.assignor"),
        tr(lang, "explain.col.members"),
    ];
    let id = format!("explain-generations-{i}");
    html! { <>
        <h4 id={id.clone()}>{ title }</h4>
        // On a phone each row becomes a card, each cell labelled with its column (data-label).
        <table class="explain-generations" aria-labelledby={id}>
            <thead><tr>{ for heads.iter().map(|h| html! { <th scope="col">{ *h }</th> }) }</tr></thead>
            <tbody>
                { for g.generations.iter().map(|gen| {
                    let cells = [
                        gen.generation.to_string(),
                        clock(gen.start_ms),
                        gen.end_ms.map(clock).unwrap_or_else(|| "—".into()),
                        gen.leader.as_deref().map(|l| names.name(l).to_string()).unwrap_or_else(|| "—".into()),
                        gen.protocol.clone().unwrap_or_else(|| "—".into()),
                        gen.members.iter().map(|m| names.name(m).to_string()).collect::<Vec<_>>().join(", "),
                    ];
                    html! {
                        <tr data-generation={gen.generation.to_string()}>
                            { for cells.into_iter().zip(heads).map(|(c, h)| html! { <td data-label={h}>{ c }</td> }) }
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    </> }
}

fn members(g: &Group, names: &Names, lang: Lang) -> Html {
    html! { <>
        <h4>{ tr(lang, "explain.members") }</h4>
        <ul class="explain-members">
            { for names.processes.iter().enumerate().map(|(i, p)| {
                let ms: Vec<_> = g.members.iter().filter(|m| names.index(&m.id) == Some(i)).collect();
                let instance = ms.iter().find_map(|m| m.instance_id.clone());
                let host = ms.iter().find_map(|m| m.host.clone());
                html! {
                    <li class="explain-member" data-member={p.clone()}>
                        <span class={classes!("swatch", "cell", owner_class(i))} aria-hidden="true">{ i + 1 }</span>{" "}
                        <strong>{ p.clone() }</strong>
                        if let Some(id) = instance { { format!(" · group.instance.id={id}") } }
                        if let Some(h) = host { { format!(" · {}", trf(lang, "explain.host", &[&h])) } }
                        if !ms.is_empty() {
                            <br /><span class="ids">{ trf(lang, "explain.member-ids", &[&ms.len()]) }{" "}
                                { for ms.iter().map(|m| html! { <><code>{ m.id.clone() }</code>{" "}</> }) }</span>
                        }
                    </li>
                }
            }) }
        </ul>
    </> }
}

fn ownership(i: usize, g: &Group, names: &Names, lang: Lang) -> Html {
    let Some(o) = view::ownership(g, names) else {
        return html! { <p class="hint">{ tr(lang, "explain.ownership.none") }</p> };
    };
    let word = generation_word(lang, g);
    let heading = format!("explain-ownership-title-{i}");
    html! { <>
        <h4 id={heading.clone()}>{ tr(lang, "explain.ownership") }</h4>
        <div class="table-scroll">
            <table class="explain-ownership" id={format!("explain-ownership-{i}")} aria-labelledby={heading}>
                <thead><tr>
                    <th scope="col">{ tr(lang, "explain.partition") }</th>
                    { for o.columns.iter().map(|(gen, t)| html! { <th scope="col">{ format!("{word} {gen}") }<br /><small>{ clock(*t) }</small></th> }) }
                </tr></thead>
                <tbody>
                    { for o.rows.iter().map(|(p, owners)| html! {
                        <tr data-partition={p.clone()}>
                            <th scope="row">{ p.clone() }</th>
                            { for owners.iter().map(|ow| match ow {
                                Some(k) => html! { <td class={classes!("cell", owner_class(*k))} data-owner={names.processes[*k].clone()} title={names.processes[*k].clone()}>{ k + 1 }</td> },
                                None => html! { <td class="cell none" title={tr(lang, "explain.unowned")}>{"—"}</td> },
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    </> }
}
