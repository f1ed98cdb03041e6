//! Share-partitions under the drawing (KIP-932): for each, its in-flight
//! window from SPSO to SPEO as runs of records — AVAILABLE, ACQUIRED by a
//! member (in its colour, with its lock counting down), ACKNOWLEDGED,
//! ARCHIVED — with delivery counts, and which members the partition is
//! assigned to. Drawn every frame while the run has share groups (the locks
//! count down); nothing otherwise.

use super::topology::colour;
use crate::i18n::{tr, trf, Lang};
use crate::lesson::conceal::{Concealed, Kind};
use crate::sim::cluster::share_partition::RecordState;
use crate::sim::World;
use crate::view::share_strip::{share_strips, RecordRun, ShareStrip};
use yew::prelude::*;

/// Runs drawn per share-partition; the rest are counted.
const MAX_RUNS: usize = 14;

fn state_class(s: RecordState) -> &'static str {
    match s {
        RecordState::AVAILABLE => "st-available",
        RecordState::ACQUIRED => "st-acquired",
        RecordState::ACKNOWLEDGED => "st-acknowledged",
        RecordState::ARCHIVED => "st-archived",
    }
}

fn state_key(s: RecordState) -> &'static str {
    match s {
        RecordState::AVAILABLE => "share.available",
        RecordState::ACQUIRED => "share.acquired",
        RecordState::ACKNOWLEDGED => "share.acknowledged",
        RecordState::ARCHIVED => "share.archived",
    }
}

/// `100–149`, or `7`.
fn span(run: &RecordRun) -> String {
    if run.first == run.last {
        run.first.to_string()
    } else {
        format!("{}–{}", run.first, run.last)
    }
}

fn run_cell(strip: &ShareStrip, run: &RecordRun, hide_holders: bool, lang: Lang) -> Html {
    let holder = run.holder.filter(|_| !hide_holders);
    let style = match (run.state, holder) {
        (RecordState::ACQUIRED, Some(c)) => format!("--holder:{}", colour(c)),
        _ => String::new(),
    };
    let lock = run.lock_left_ms.filter(|_| run.state == RecordState::ACQUIRED);
    let mut title = format!("{} · {}", run.offsets(), tr(lang, state_key(run.state)));
    if let Some(c) = holder {
        title.push_str(&format!(" · c{c}"));
    }
    title.push_str(&format!(" · {}", trf(lang, "share.delivery", &[&run.delivery_count, &strip.delivery_limit])));
    if let Some(ms) = lock {
        title.push_str(&format!(" · {}", trf(lang, "share.lock", &[&ms.div_ceil(1000)])));
    }
    let at_limit = run.delivery_count >= strip.delivery_limit;
    html! {
        <span class={classes!("run", state_class(run.state), at_limit.then_some("at-limit"))} style={style} title={title.clone()} aria-label={title}
            data-state={tr(lang, state_key(run.state)).to_string()} data-first={run.first.to_string()} data-last={run.last.to_string()}
            data-holder={holder.map(|c| format!("c{c}")).unwrap_or_default()} data-delivery={run.delivery_count.to_string()}>
            <span class="offs">{ span(run) }</span>
            if let Some(c) = holder { <span class="who">{ format!("c{c}") }</span> }
            if run.state == RecordState::ARCHIVED { <span class="mark" aria-hidden="true">{ "✕" }</span> }
            if run.state == RecordState::ACKNOWLEDGED { <span class="mark" aria-hidden="true">{ "✓" }</span> }
            if run.delivery_count > 1 { <span class="dc">{ format!("×{}", run.delivery_count) }</span> }
            if let Some(ms) = lock {
                <span class="lock-s">{ trf(lang, "share.lock-short", &[&ms.div_ceil(1000)]) }</span>
                <span class="lock" style={format!("width:{:.0}%", 100.0 * ms as f64 / strip.lock_ms.max(1) as f64)} />
            }
        </span>
    }
}

/// `groups`: how many share groups the run has; with more than one, each
/// strip names its group first (each group keeps its own share-partition).
fn strip(s: &ShareStrip, groups: usize, concealed: &Concealed, lang: Lang) -> Html {
    let hide = concealed.hides(Kind::Owners, &s.group);
    let readers = if hide || s.readers.is_empty() {
        "—".to_string()
    } else {
        s.readers.iter().map(|c| format!("c{c}")).collect::<Vec<_>>().join(" ")
    };
    let head = match s.window {
        Some((start, end)) => trf(lang, "share.window", &[&start, &end.saturating_sub(1).max(start), &s.log_end]),
        None => tr(lang, "share.not-loaded").to_string(),
    };
    html! {
        <div class="share-strip" data-group={s.group.clone()} data-partition={s.partition.to_string()}
            data-spso={s.window.map(|w| w.0.to_string()).unwrap_or_default()} data-readers={readers.clone()}>
            <p class="strip-head">
                if groups > 1 { <span class="of-group">{ trf(lang, "share.of-group", &[&s.group]) }{ " · " }</span> }
                <b>{ s.partition.to_string() }</b>
                { format!(" · {} · ", s.leader.map_or("—".to_string(), |l| format!("broker-{l}"))) }
                { trf(lang, "share.readers", &[&readers]) }
                { format!(" · {head}") }
            </p>
            <div class="runs">
                if s.runs.is_empty() && s.window.is_some() { <span class="empty">{ tr(lang, "share.empty") }</span> }
                { for s.runs.iter().map(|r| run_cell(s, r, hide, lang)) }
                if s.hidden_runs > 0 { <span class="more">{ format!("+{}", s.hidden_runs) }</span> }
            </div>
        </div>
    }
}

/// The share-partitions panel, or nothing when the run has no share group.
pub fn share_strips_panel(world: &World, concealed: &Concealed, lang: Lang) -> Html {
    if world.scenario.share_groups.is_empty() {
        return html! {};
    }
    let strips = share_strips(world, MAX_RUNS);
    html! {
        <section id="share-strips" class="share-strips" aria-label={tr(lang, "share.title").to_string()}>
            <h3>{ tr(lang, "share.title") }</h3>
            <p class="share-legend">
                { for [RecordState::AVAILABLE, RecordState::ACQUIRED, RecordState::ACKNOWLEDGED, RecordState::ARCHIVED].into_iter().map(|s| html! {
                    <span class={classes!("run", "swatch", state_class(s))}>{ tr(lang, state_key(s)) }</span>
                }) }
            </p>
            { for strips.iter().map(|s| strip(s, world.scenario.share_groups.len(), concealed, lang)) }
        </section>
    }
}
