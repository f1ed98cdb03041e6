//! The Explain tab's space-time diagram of a logged run (`crate::explain::spacetime`): lane
//! names in a fixed column, the lanes in a box that scrolls sideways, drawn at a fixed pixel
//! scale (not shrunk to the box) so labels stay legible on a phone. Styles as the
//! simulator's diagram (`.spacetime` in static/style.css).

use crate::explain::model::Group;
use crate::explain::spacetime::{diagram, Api, Diagram, Label, Lane};
use crate::explain::spacetime_layout::{label_at_sent, layout, text_px, TICK_ROOM};
use crate::explain::view::clock;
use crate::i18n::{tr, trf, Lang};
use crate::view::explain_text::duration;
use yew::prelude::*;

const FONT: f64 = 11.0;
const LANE_H: f64 = 44.0;
const TOP: f64 = 34.0;
const NAMES_W: f64 = 124.0;

fn api(a: Api) -> &'static str {
    match a {
        Api::JoinGroup => "JoinGroup",
        Api::SyncGroup => "SyncGroup",
        Api::LeaveGroup => "LeaveGroup",
        Api::Heartbeat => "ConsumerGroupHeartbeat",
    }
}

pub fn lane_name(lang: Lang, l: &Lane) -> String {
    match l {
        Lane::Member(n) => n.clone(),
        Lane::Coordinator(Some(b)) => trf(lang, "explain.st.coordinator", &[b]),
        Lane::Coordinator(None) => tr(lang, "explain.st.coordinator.any").to_string(),
    }
}

pub fn label_text(lang: Lang, l: &Label) -> String {
    let f = |k: &str, a: &[&dyn std::fmt::Display]| trf(lang, k, a);
    match l {
        Label::Request(a) => api(*a).to_string(),
        Label::HeartbeatJoin => tr(lang, "explain.st.hb.join").into(),
        Label::HeartbeatAck => tr(lang, "explain.st.hb.ack").into(),
        Label::HeartbeatLeave => tr(lang, "explain.st.hb.leave").into(),
        Label::Answer(Api::Heartbeat, e) => f("explain.st.hb.epoch", &[&e.map_or("?".into(), |e| e.to_string())]),
        Label::Answer(a, Some(g)) => f("explain.st.gen", &[&api(*a), g]),
        Label::Answer(a, None) => api(*a).to_string(),
        Label::Error(e) => e.clone(),
        Label::Revoked(n) => f("explain.st.revoked", &[n]),
        Label::Assigned(n) => f("explain.st.assigned", &[n]),
        Label::Lost(n) => f("explain.st.lost", &[n]),
        Label::PollTimeout => tr(lang, "explain.st.poll").into(),
        Label::SessionExpired => tr(lang, "explain.st.session").into(),
        Label::Rejoin => tr(lang, "explain.st.rejoin").into(),
        Label::CoordinatorFound(Some(b)) => f("explain.st.coordinator", &[b]),
        Label::CoordinatorFound(None) => tr(lang, "explain.st.found").into(),
        Label::CoordinatorLost => tr(lang, "explain.st.lost-coordinator").into(),
        Label::Transition(a, b) => format!("{a} → {b}"),
        Label::Prepare(g) => f("explain.st.prepare", &[g]),
        Label::Stabilized(g) => f("explain.st.stabilized", &[g]),
        Label::Empty(g) => f("explain.st.empty", &[g]),
        Label::Expired(m) => f("explain.st.expired", &[m]),
        Label::Fenced(m) => f("explain.st.fenced", &[m]),
        Label::Loaded => tr(lang, "explain.st.loaded").into(),
        Label::Resigned => tr(lang, "explain.st.resigned").into(),
        Label::EpochBumped(e) => f("explain.st.bumped", &[e]),
        Label::TargetComputed(e) => f("explain.st.target", &[e]),
    }
}

/// A lane name cut to fit `px` (with an ellipsis; the whole name in its tooltip): bold
/// Latin letters take about 0.68 em, wide (CJK) ones a full em.
fn fit(s: &str, px: f64) -> String {
    let w = |c: char| if (c as u32) >= 0x2E80 { FONT } else { FONT * 0.68 };
    if s.chars().map(w).sum::<f64>() <= px {
        return s.to_string();
    }
    let (mut out, mut used) = (String::new(), w('…'));
    for c in s.chars() {
        if used + w(c) > px {
            break;
        }
        used += w(c);
        out.push(c);
    }
    out + "…"
}

pub fn spacetime_view(i: usize, g: &Group, lang: Lang) -> Html {
    let d: Diagram = diagram(g);
    if d.arrows.is_empty() && d.marks.is_empty() {
        return html! {};
    }
    let arrow_labels: Vec<String> = d.arrows.iter().map(|a| label_text(lang, &a.label)).collect();
    let mark_labels: Vec<String> = d.marks.iter().map(|m| label_text(lang, &m.label)).collect();
    let l = layout(&d, &|k| text_px(&arrow_labels[k], FONT) + 4.0, &|k| text_px(&mark_labels[k], FONT) + 8.0);
    let y = |lane: usize| TOP + lane as f64 * LANE_H;
    let axis = y(d.lanes.len().saturating_sub(1)) + 26.0;
    let h = axis + 34.0;
    let coordinator = |lane: usize| matches!(d.lanes.get(lane), Some(Lane::Coordinator(_)));
    // labels sit above a member's lane, below a coordinator's (the arrows come from above)
    let label_y = |lane: usize| if coordinator(lane) { y(lane) + 14.0 } else { y(lane) - 6.0 };
    let head = format!("st-head-{i}");
    let label = trf(
        lang,
        "explain.st.label",
        &[&g.group_id, &d.lanes.len(), &d.arrows.len(), &d.marks.len(), &clock(d.from_ms), &clock(d.to_ms)],
    );
    let mut tick_rows = [f64::NEG_INFINITY; 2];
    let ticks: Vec<(f64, i64, usize)> = l
        .ticks
        .iter()
        .map(|&(x, t)| {
            let row = if x - tick_rows[0] >= TICK_ROOM { 0 } else { 1 };
            tick_rows[row] = x;
            (x, t, row)
        })
        .collect();
    let n = |v: f64| format!("{v:.1}");
    html! {
        <figure class="spacetime explain-spacetime" id={format!("explain-spacetime-{i}")} data-lanes={d.lanes.iter().map(|x| lane_name(Lang::En, x)).collect::<Vec<_>>().join("|")}>
            <h4>{ tr(lang, "explain.st.title") }</h4>
            <div class="st-wrap">
                <svg class="st-names" width={n(NAMES_W)} height={n(h)} aria-hidden="true">
                    { for d.lanes.iter().enumerate().map(|(k, lane)| {
                        let name = lane_name(lang, lane);
                        html! { <text class={classes!("st-lane-name", coordinator(k).then_some("coordinator"))} x="4" y={n(y(k) + 4.0)}><title>{ name.clone() }</title>{ fit(&name, NAMES_W - 8.0) }</text> }
                    }) }
                </svg>
                <div class="st-scroll" tabindex="0" role="img" aria-label={label}>
                    <svg width={n(l.width)} height={n(h)}>
                        <defs>
                            <marker id={head.clone()} viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                                <path d="M0,0 L8,4 L0,8 z" class="st-head" />
                            </marker>
                        </defs>
                        { for d.lanes.iter().enumerate().map(|(k, _)| html! {
                            <line class={classes!("st-lane", coordinator(k).then_some("coordinator"))} x1="0" x2={n(l.width)} y1={n(y(k))} y2={n(y(k))} />
                        }) }
                        { for l.breaks.iter().map(|(x, gap)| html! { <g class="st-break">
                            <line x1={n(*x)} x2={n(*x)} y1={n(TOP - 12.0)} y2={n(axis)} />
                            <text x={n(*x)} y="11">{ format!("+{}", duration(lang, *gap)) }</text>
                        </g> }) }
                        { for d.arrows.iter().enumerate().map(|(k, a)| {
                            let (x1, x2) = l.arrow_x[k];
                            let (y1, y2) = (y(a.from), y(a.to));
                            // stop short of the lane so the head shows
                            let y2s = if y2 > y1 { y2 - 3.0 } else { y2 + 3.0 };
                            let at_sent = label_at_sent(&d, k);
                            let (lx, ll) = if at_sent { (x1, a.from) } else { (x2, a.to) };
                            let unlogged = !(a.sent_logged && a.recv_logged);
                            let mut tip = format!("{} · {} → {}", arrow_labels[k], clock(a.sent_ms), clock(a.recv_ms));
                            if unlogged { tip = format!("{tip} ({})", tr(lang, "explain.st.unlogged")); }
                            html! { <g class={classes!("st-arrow", unlogged.then_some("unlogged"), matches!(a.label, Label::Error(_)).then_some("error"))} data-label={label_text(Lang::En, &a.label)}>
                                <title>{ tip }</title>
                                <line x1={n(x1)} y1={n(y1)} x2={n(x2)} y2={n(y2s)} marker-end={format!("url(#{head})")} />
                                <text class="st-label" x={n(lx + 3.0)} y={n(label_y(ll))}>{ arrow_labels[k].clone() }</text>
                            </g> }
                        }) }
                        { for d.marks.iter().enumerate().map(|(k, m)| {
                            let x = l.mark_x[k];
                            html! { <g class={classes!("st-mark", coordinator(m.lane).then_some("coordinator"))} data-label={label_text(Lang::En, &m.label)}>
                                <title>{ format!("{} · {}", mark_labels[k], clock(m.at_ms)) }</title>
                                <circle cx={n(x)} cy={n(y(m.lane))} r="3.5" />
                                <text class="st-label" x={n(x + 5.0)} y={n(label_y(m.lane))}>{ mark_labels[k].clone() }</text>
                            </g> }
                        }) }
                        <line class="st-axis" x1="0" x2={n(l.width)} y1={n(axis)} y2={n(axis)} />
                        { for ticks.iter().map(|(x, t, row)| html! { <g class="st-tick">
                            <line x1={n(*x)} x2={n(*x)} y1={n(axis)} y2={n(axis + 4.0)} />
                            <text x={n(*x)} y={n(axis + 15.0 + *row as f64 * 13.0)}>{ clock(*t) }</text>
                        </g> }) }
                    </svg>
                </div>
            </div>
            <figcaption>
                { tr(lang, "explain.st.caption") }
                if d.items_left_out > 0 { { " " }{ trf(lang, "explain.st.left-out", &[&(d.arrows.len() + d.marks.len()), &d.items_left_out]) } }
                if d.members_left_out > 0 { { " " }{ trf(lang, "explain.st.members-left-out", &[&d.members_left_out]) } }
            </figcaption>
        </figure>
    }
}
