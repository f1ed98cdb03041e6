//! The SVG topology: brokers, consumers, links and messages in flight.

use super::app::crash_or_restart;
use crate::sim::{Fault, World};
use crate::view::{self, HEIGHT, WIDTH};
use yew::prelude::*;

/// Okabe–Ito colour-blind-safe palette; every consumer also carries its name.
pub const PALETTE: [&str; 8] = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];

pub fn colour(idx: u32) -> &'static str {
    PALETTE[(idx as usize + PALETTE.len() - 1) % PALETTE.len()]
}

/// The fault a press on a node means: crash or restart a consumer, kill or
/// restart a broker. `target` is the pressed element or one inside the node.
pub fn press_fault(world: &World, target: &web_sys::Element) -> Option<Fault> {
    let node = target.closest("[data-member], [data-broker]").ok()??;
    if let Some(m) = node.get_attribute("data-member") {
        let consumer: u32 = m.strip_prefix('c')?.parse().ok()?;
        return Some(crash_or_restart(world.consumers.get(&consumer)?.alive, consumer));
    }
    let broker: u32 = node.get_attribute("data-broker")?.parse().ok()?;
    let alive = world.brokers.get(&broker)?.alive;
    Some(if alive { Fault::KillBroker { broker } } else { Fault::RestartBroker { broker } })
}

/// The SVG; `on_press` and `on_key` are stable callbacks (one listener on the
/// SVG, not one per node re-created every frame) that resolve the node pressed.
pub fn topology(world: &World, on_press: Callback<MouseEvent>, on_key: Callback<KeyboardEvent>) -> Html {
    let brokers = view::brokers(world);
    let consumers = view::consumers(world);
    let messages = view::messages(world);
    html! {
        <svg id="topology" onmousedown={on_press} onkeydown={on_key} viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label="brokers, consumers and messages">
            { for consumers.iter().flat_map(|c| brokers.iter().map(move |b| html! {
                <line class="link" x1={b.x.to_string()} y1={(b.y + 30.0).to_string()} x2={c.x.to_string()} y2={(c.y - 30.0).to_string()} />
            })) }
            { for brokers.iter().map(|b| {
                let coord = !b.coordinates.is_empty();
                let class = classes!("broker", (!b.alive).then_some("dead"), coord.then_some("coordinator"), b.loading.then_some("loading"));
                html! {
                    <g class={class} data-broker={b.id.to_string()} tabindex="0" role="button">
                        <rect x={(b.x - 70.0).to_string()} y={(b.y - 30.0).to_string()} width="140" height="60" rx="8" />
                        <text x={b.x.to_string()} y={(b.y - 8.0).to_string()} class="title">{ format!("broker-{}", b.id) }</text>
                        <text x={b.x.to_string()} y={(b.y + 10.0).to_string()} class="sub">
                            { if !b.alive { "DOWN".to_string() }
                              else if b.loading { "loading __consumer_offsets…".to_string() }
                              else { b.coordinates.iter().map(|(g, p)| format!("coordinator of {g} (p{p})")).collect::<Vec<_>>().join(", ") } }
                        </text>
                    </g>
                }
            }) }
            { for consumers.iter().map(|c| {
                let class = classes!("consumer", (!c.alive).then_some("dead"), c.paused.then_some("paused"), c.leader.then_some("leader"));
                let owned = c.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
                html! {
                    <g class={class} data-member={c.name.clone()} data-state={c.state.clone()} tabindex="0" role="button">
                        <title>{ format!("{} — click to {}", c.name, if c.alive { "crash it" } else { "restart it" }) }</title>
                        <circle class="hit" cx={c.x.to_string()} cy={c.y.to_string()} r="62" />
                        { for c.rings.iter().enumerate().map(|(i, (name, frac))| {
                            let r = 44.0 + 6.0 * i as f64;
                            let circ = 2.0 * std::f64::consts::PI * r;
                            html! { <circle class={classes!("ring", *name)} cx={c.x.to_string()} cy={c.y.to_string()} r={r.to_string()}
                                stroke-dasharray={format!("{:.1} {:.1}", circ * frac, circ)} /> }
                        }) }
                        <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r="38" style={format!("fill:{}", colour(c.idx))} />
                        <text x={c.x.to_string()} y={(c.y - 6.0).to_string()} class="title">{ if c.leader { format!("{} ★", c.name) } else { c.name.clone() } }</text>
                        <text x={c.x.to_string()} y={(c.y + 10.0).to_string()} class="sub">{ c.state.clone() }</text>
                        <text x={c.x.to_string()} y={(c.y + 24.0).to_string()} class="sub">{ if c.generation >= 0 { format!("gen {}", c.generation) } else { String::new() } }</text>
                        <text x={c.x.to_string()} y={(c.y + 66.0).to_string()} class="owned">{ owned }</text>
                    </g>
                }
            }) }
            { for messages.iter().map(|m| {
                let x = m.from.0 + (m.to.0 - m.from.0) * m.progress;
                let y = m.from.1 + (m.to.1 - m.from.1) * m.progress;
                let class = classes!("msg", if m.request { "request" } else { "response" }, m.api.to_lowercase());
                html! {
                    <g class={class} data-msg={m.id.to_string()}>
                        <circle cx={x.to_string()} cy={y.to_string()} r="7" />
                        <text x={(x + 10.0).to_string()} y={(y + 4.0).to_string()}>{ m.label.clone() }</text>
                    </g>
                }
            }) }
        </svg>
    }
}
