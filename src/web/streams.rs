//! Kafka Streams applications under the drawing (KIP-1071): the streams
//! group's state, epochs and the status codes of the last heartbeats in
//! plain words; the topology once, one line per subtopology; then each
//! `KafkaStreams` instance as a box holding its stream threads, each thread
//! with its tasks as chips (active, restoring with how far, standby, being
//! revoked, waiting). Everything comes from `view::streams`; nothing when
//! the run has no Kafka Streams application.

use super::topology::colour;
use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::lesson::conceal::Concealed;
use crate::sim::{NodeId, World};
use crate::view::streams::{
    conceal, streams_apps, ChipKind, InstanceView, StreamsAppView, SubtopologyView, TaskChip, ThreadView,
};
use yew::prelude::*;

fn chip(c: &TaskChip, lang: Lang) -> Html {
    let label = c.label();
    let (key, percent) = match c.kind {
        ChipKind::Running => ("streams.t.active", None),
        ChipKind::Restoring { percent } => ("streams.t.restoring", Some(percent)),
        ChipKind::Standby => ("streams.t.standby", None),
        ChipKind::CatchingUp { percent, warmup: false } => ("streams.t.catching-up", Some(percent)),
        ChipKind::CatchingUp { percent, warmup: true } => ("streams.t.warmup", Some(percent)),
        ChipKind::Revoking => ("streams.t.revoking", None),
        ChipKind::Pending { standby: false } => ("streams.t.pending", None),
        ChipKind::Pending { standby: true } => ("streams.t.pending-standby", None),
    };
    let title = trf(lang, key, &[&label, &percent.unwrap_or(0)]);
    let pending_standby = matches!(c.kind, ChipKind::Pending { standby: true });
    html! {
        <span class={classes!("st-task", format!("k-{}", c.kind.name()), pending_standby.then_some("k-pending-standby"))}
            title={title.clone()} aria-label={title} data-task={label.clone()} data-kind={c.kind.name()}
            data-percent={percent.map(|p| p.to_string()).unwrap_or_default()}>
            if matches!(c.kind, ChipKind::Pending { .. }) { <span class="in" aria-hidden="true">{ "→" }</span> }
            { label }
            if let Some(p) = percent {
                <span class="pct">{ format!("{p}%") }</span>
                <span class="restore-bar" style={format!("width:{p}%")} />
            }
        </span>
    }
}

/// One stream thread; pressing it selects it in the inspector (its faults).
/// `hidden`: a lesson's question hides the tasks (no "no tasks" either).
fn thread(t: &ThreadView, hidden: bool, lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let state = if t.alive { t.state.clone() } else { tr(lang, "streams.down").to_string() };
    let idx = t.idx;
    let onclick = on_select.reform(move |_: MouseEvent| Some(Selection::Node(NodeId::Client(idx))));
    html! {
        <div class={classes!("st-thread", (!t.alive).then_some("down"))} data-client={format!("c{}", t.idx)} data-state={t.state.clone()} {onclick}>
            <span class="who" style={format!("--who:{}", colour(t.idx))}>{ format!("c{}", t.idx) }</span>
            <span class="st-meta">{ format!("{} · {state}", trf(lang, "streams.thread", &[&t.thread])) }</span>
            // A crashed thread says so in its line; a live one lists its tasks.
            if t.alive {
                <span class="tasks">
                    if t.chips.is_empty() && !hidden { <span class="none">{ tr(lang, "streams.none") }</span> }
                    { for t.chips.iter().map(|c| chip(c, lang)) }
                </span>
            }
        </div>
    }
}

fn instance(i: &InstanceView, hidden: bool, lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let alive = i.alive();
    html! {
        <div class={classes!("st-instance", (!alive).then_some("down"))} data-process={i.process_id.clone()}>
            <p class="st-inst-head"><b>{ trf(lang, "streams.instance", &[&i.instance]) }</b>{ format!(" · {}", i.process_id) }
                if !alive { { format!(" · {}", tr(lang, "streams.down")) } }</p>
            { for i.threads.iter().map(|t| thread(t, hidden, lang, on_select)) }
        </div>
    }
}

/// `0 · orders → totals-by-customer-repartition · store → totals-store-changelog · 4 tasks`.
fn subtopology(s: &SubtopologyView, lang: Lang) -> Html {
    let reads: Vec<String> = s.source_topics.iter().chain(&s.repartition_sources).cloned().collect();
    html! {
        <li class={classes!("st-sub", s.stateful().then_some("stateful"))} data-subtopology={s.id.clone()}>
            <b>{ trf(lang, "streams.sub", &[&s.id]) }</b>{ ": " }
            <span class="topic">{ reads.join(", ") }</span>
            if !s.repartition_sinks.is_empty() { { " → " }<span class="topic internal">{ s.repartition_sinks.join(", ") }</span> }
            if s.stateful() {
                { format!(" · {} ", tr(lang, "streams.store")) }<span class="topic internal">{ s.changelogs.join(", ") }</span>
            } else {
                { format!(" · {}", tr(lang, "streams.stateless")) }
            }
            if let Some(n) = s.tasks { { format!(" · {}", trf(lang, "streams.tasks", &[&n])) } }
        </li>
    }
}

/// The head line: the streams group's state and epochs, or under classic
/// rebalancing the classic group's state, generation, leader and the next
/// scheduled rebalance.
fn head(a: &StreamsAppView, lang: Lang) -> Html {
    match &a.classic {
        None => {
            let state = a.state.unwrap_or("—");
            html! {
                <p class="st-head">
                    <b>{ trf(lang, "streams.group", &[&a.group_id]) }</b>{ " · " }
                    <span class={classes!("st-state", format!("s-{state}"))}>{ state }</span>
                    { format!(" · {} · {}", trf(lang, "group.epochs", &[&a.group_epoch, &a.assignment_epoch]), trf(lang, "streams.standbys", &[&a.standby_replicas])) }
                </p>
            }
        }
        Some(c) => {
            let state = c.state.unwrap_or("—");
            let leader = c
                .leader
                .map(|l| format!(" · {}", trf(lang, "streams.c.leader", &[&format!("c{l}")])))
                .unwrap_or_default();
            let next = c
                .next_rebalance_ms
                .map(|at| format!(" · {}", trf(lang, "streams.c.next", &[&(at / 1000)])))
                .unwrap_or_default();
            html! {
                <p class="st-head" data-protocol="classic">
                    <b>{ trf(lang, "streams.c.group", &[&a.group_id]) }</b>{ " · " }
                    <span class={classes!("st-state", format!("s-{state}"))}>{ state }</span>
                    { format!(" · {}{leader}{next}", trf(lang, "streams.c.generation", &[&c.generation])) }
                </p>
            }
        }
    }
}

fn app(a: &StreamsAppView, lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let state = a.classic.as_ref().map_or(a.state, |c| c.state).unwrap_or("—");
    html! {
        <div class="streams-app" data-group={a.group_id.clone()} data-group-state={state}
            data-protocol={if a.classic.is_some() { "classic" } else { "streams" }}>
            { head(a, lang) }
            { statuses(&a.statuses, lang) }
            { motion(a, lang) }
            <ul class="st-topology" aria-label={trf(lang, "streams.topology", &[&a.topology_epoch])}>
                { for a.topology.iter().map(|s| subtopology(s, lang)) }
            </ul>
            if a.tasks_hidden { <p class="st-hidden" data-hidden="tasks">{ tr(lang, "streams.hidden") }</p> }
            <div class="st-instances">{ for a.instances.iter().map(|i| instance(i, a.tasks_hidden, lang, on_select)) }</div>
        </div>
    }
}

/// One line of what is in motion: crashed threads, tasks waiting, restoring, given up.
fn motion(a: &StreamsAppView, lang: Lang) -> Html {
    let m = a.motion();
    let parts: Vec<String> = [
        (m.crashed_threads, "streams.m.crashed"),
        (m.waiting, "streams.m.waiting"),
        (m.restoring, "streams.m.restoring"),
        (m.giving_up, "streams.m.giving-up"),
        (m.catching_up, "streams.m.catching-up"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, key)| trf(lang, key, &[&n]))
    .collect();
    if parts.is_empty() {
        return html! {};
    }
    html! { <p class="st-motion">{ tr(lang, "streams.m.now") }{ parts.join(" · ") }</p> }
}

/// The status codes of the last heartbeats, each with what it means.
pub fn statuses(codes: &[crate::sim::streams_message::StreamsStatus], lang: Lang) -> Html {
    if codes.is_empty() {
        return html! {};
    }
    html! {
        <ul class="st-statuses">
            { for codes.iter().map(|s| html! {
                <li data-status={s.name()}><code>{ s.name() }</code>{ ": " }{ tr(lang, crate::view::streams::status_key(*s)) }</li>
            }) }
        </ul>
    }
}

/// The streams panel, or nothing when the run has no Kafka Streams application.
/// `concealed`: what the open lesson's question hides now (`view::streams::conceal`).
pub fn streams_panel(
    world: &World,
    concealed: &Concealed,
    lang: Lang,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    if world.scenario.streams_apps.is_empty() {
        return html! {};
    }
    let mut apps = streams_apps(world);
    let classic = apps.iter().any(|a| a.classic.is_some());
    let kinds: &[&str] = if classic {
        &["active", "restoring", "standby", "catching-up", "revoking", "pending"]
    } else {
        &["active", "restoring", "standby", "revoking", "pending"]
    };
    conceal(&mut apps, concealed);
    html! {
        <section id="streams-apps" class="streams-apps" aria-label={tr(lang, "streams.title").to_string()}>
            <h3>{ tr(lang, "streams.title") }</h3>
            <p class="st-legend">
                { for kinds.iter().map(|k| html! { <span class={classes!("st-task", "swatch", format!("k-{k}"))}>
                    if *k == "pending" { <span class="in" aria-hidden="true">{ "→" }</span> }
                    { tr(lang, &format!("streams.k.{k}")) }</span> }) }
            </p>
            { for apps.iter().map(|a| app(a, lang, on_select)) }
        </section>
    }
}
