//! The group state machine, drawn from the core's transition table, with the
//! current state lit and the trigger of the last transition.

use crate::diagram::{for_group, StateDiagram, DIAGRAM_H, DIAGRAM_W, STATE_HALF_W};
use crate::i18n::{tr, trf, Lang};
use crate::sim::World;
use yew::prelude::*;

/// The point where the line from a state's centre `(x, y)` towards `(tx, ty)`
/// leaves its rounded box, so arrows start and end at the box's edge.
fn edge_point(x: f64, y: f64, tx: f64, ty: f64) -> (f64, f64) {
    let (dx, dy) = (tx - x, ty - y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let d = (64.0 / ux.abs().max(1e-9)).min(15.0 / uy.abs().max(1e-9));
    (x + ux * d, y + uy * d)
}

fn chart(world: &World, d: &StateDiagram, group: &str, lang: Lang) -> Html {
    let pos = |name: &str| d.states.iter().find(|s| s.name == name).map(|s| (s.x, s.y)).unwrap_or_default();
    let last_edge = d.last.as_ref().map(|(f, t, _)| (f.clone(), t.clone()));
    html! {
        <figure class="statechart" data-chart-group={group.to_string()} data-current={d.current.clone().unwrap_or_default()}>
            <svg viewBox={format!("0 0 {DIAGRAM_W} {DIAGRAM_H}")} role="img"
                aria-label={trf(lang, "statechart.label", &[&d.machine, &group, &d.current.clone().unwrap_or_else(|| "—".into())])}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" />
                    </marker>
                </defs>
                { for d.edges.iter().map(|(f, t)| {
                    let ((cx1, cy1), (cx2, cy2)) = (pos(f), pos(t));
                    // Bend each edge to the side so a→b and b→a do not overlap.
                    let (mx, my) = ((cx1 + cx2) / 2.0 + (cy2 - cy1) * 0.18, (cy1 + cy2) / 2.0 - (cx2 - cx1) * 0.18);
                    let (x1, y1) = edge_point(cx1, cy1, mx, my);
                    let (x2, y2) = edge_point(cx2, cy2, mx, my);
                    let lit = last_edge.as_ref().is_some_and(|(lf, lt)| lf == f && lt == t);
                    html! { <path class={classes!("edge", lit.then_some("last"), (*t == "Dead").then_some("to-dead"))} marker-end="url(#arrow)"
                        d={format!("M {x1:.0} {y1:.0} Q {mx:.0} {my:.0} {x2:.0} {y2:.0}")} /> }
                }) }
                { for d.states.iter().map(|s| {
                    let current = d.current.as_deref() == Some(s.name);
                    let label = if current { format!("● {}", s.name) } else { s.name.to_string() };
                    // A long name (PreparingRebalance, bold and marked when current) would spill
                    // past its box: squeeze it to the box's width.
                    let fit = (label.chars().count() > 15).then(|| (2.0 * STATE_HALF_W - 12.0).to_string());
                    let adjust = fit.is_some().then_some("spacingAndGlyphs");
                    html! {
                        <g class={classes!("state", current.then_some("current"))} data-state={s.name}>
                            <rect x={(s.x - STATE_HALF_W).to_string()} y={(s.y - 13.0).to_string()} width={(2.0 * STATE_HALF_W).to_string()} height="26" rx="13" />
                            <text x={s.x.to_string()} y={(s.y + 4.0).to_string()} textLength={fit} lengthAdjust={adjust}>{ label }</text>
                        </g>
                    }
                }) }
            </svg>
            <figcaption>
                { format!("{} · {group}", d.machine) }
                { d.last.as_ref().map(|(f, t, why)| trf(lang, "statechart.last", &[f, t, &crate::narrate::readable(world, &crate::narrate::fault::trigger(why, lang))])).unwrap_or_else(|| tr(lang, "statechart.none").to_string()) }
            </figcaption>
        </figure>
    }
}

pub fn statecharts(world: &World, lang: Lang) -> Html {
    html! {
        <div class="statecharts">
            { for crate::view::group_ids(world).iter().map(|g| chart(world, &for_group(world, g), g, lang)) }
        </div>
    }
}
