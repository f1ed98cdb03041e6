//! The SVG topology: brokers, consumers, links and messages in flight.

use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::sim::world::parse_node;
use crate::sim::{NodeId, World};
use crate::view::{self, HEIGHT, WIDTH};
use super::app::SharedPlayer;
use super::cached::cached;
use crate::lesson::conceal::{hidden, Kind};
use yew::prelude::*;

/// Okabe–Ito colour-blind-safe palette; every consumer also carries its name.
pub const PALETTE: [&str; 8] = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];

pub fn colour(idx: u32) -> &'static str {
    PALETTE[(idx as usize + PALETTE.len() - 1) % PALETTE.len()]
}

/// What a press selects: the node, link or message under `target` (an
/// element inside it).
pub fn pressed_selection(world: &World, target: &web_sys::Element) -> Option<Selection> {
    let el = target.closest("[data-member], [data-broker], [data-link], [data-msg]").ok()??;
    let node = |s: &str| parse_node(s).filter(|n| world.exists(*n));
    if let Some(m) = el.get_attribute("data-member") {
        return node(&m).map(Selection::Node);
    }
    if let Some(b) = el.get_attribute("data-broker") {
        return node(&format!("broker-{b}")).map(Selection::Node);
    }
    if let Some(l) = el.get_attribute("data-link") {
        let (a, b) = l.split_once(' ')?;
        return Some(Selection::Link(node(a)?, node(b)?));
    }
    el.get_attribute("data-msg")?.parse().ok().map(Selection::Message)
}

/// The SVG; `on_press` and `on_key` are stable callbacks (one listener on the
/// SVG, not one per node re-created every frame) that resolve the node pressed.
/// In the compact drawing of a large group the nodes are redrawn only when
/// `nodes` (a version and the player) says so; the messages every frame.
/// Without `nodes` everything is drawn every time.
pub fn topology(world: &World, lang: Lang, selected: Option<&Selection>, highlights: &[String], on_press: Callback<MouseEvent>, on_key: Callback<KeyboardEvent>, nodes: Option<(u64, &SharedPlayer)>) -> Html {
    let is_sel = |s: Selection| selected == Some(&s);
    let brokers = view::brokers(world);
    let large = view::is_large(world);
    let reduced = super::prefs::reduced_motion();
    let messages = view::messages(world);
    let node_layer = if let Some((version, player)) = nodes.filter(|_| large) {
        let (player, selected, highlights) = (player.clone(), selected.cloned(), highlights.to_vec());
        cached(version, move || node_layer(&player.0.borrow().world, lang, selected.as_ref(), &highlights))
    } else {
        node_layer(world, lang, selected, highlights)
    };
    // The links need only where each client is (the node layer builds the full views).
    let clients: Vec<(u32, f64, f64)> = if large {
        Vec::new()
    } else {
        world.client_indices().into_iter().map(|i| {
            let (x, y) = view::node_pos(world, NodeId::Client(i));
            (i, x, y)
        }).collect()
    };
    html! {
        <svg id="topology" onmousedown={on_press} onkeydown={on_key} viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="group" aria-label={tr(lang, "topology.label")}>
            // Per-pair links only while they can be told apart.
            { for clients.iter().flat_map(|c| brokers.iter().map(move |b| {
                let (bn, cn) = (NodeId::Broker(b.id), NodeId::Client(c.0));
                let key = crate::sim::network::link(bn, cn);
                let n = &world.network;
                let class = classes!(
                    "link",
                    n.cut.contains(&key).then_some("cut"),
                    (n.held.contains(&(bn, cn)) || n.held.contains(&(cn, bn))).then_some("held"),
                    (n.extra_latency.contains_key(&key) || n.loss_percent.contains_key(&key)).then_some("degraded"),
                    is_sel(Selection::Link(bn, cn)).then_some("selected"),
                );
                // Symmetric ends, so a link's middle is the middle between the two nodes (reduced motion parks messages there).
                let (x1, y1, x2, y2) = (b.x.to_string(), (b.y + 40.0).to_string(), c.1.to_string(), (c.2 - 40.0).to_string());
                html! {
                    <g class={class} data-link={format!("{bn} {cn}")}>
                        <line class="link-hit" x1={x1.clone()} y1={y1.clone()} x2={x2.clone()} y2={y2.clone()} />
                        <line class="link-line" x1={x1} y1={y1} x2={x2} y2={y2} />
                    </g>
                }
            })) }
            { node_layer }
            { for messages.iter().map(|m| {
                // With prefers-reduced-motion a message waits at the middle of its link
                // instead of gliding along it.
                let progress = if reduced { 0.5 } else { m.progress };
                let x = m.from.0 + (m.to.0 - m.from.0) * progress;
                let y = m.from.1 + (m.to.1 - m.from.1) * progress;
                let class = classes!("msg", if m.request { "request" } else { "response" }, m.api.to_lowercase(),
                    is_sel(Selection::Message(m.id)).then_some("selected"));
                html! {
                    <g key={m.id} class={class} data-msg={m.id.to_string()}>
                        <circle cx={x.to_string()} cy={y.to_string()} r={if large { "4" } else { "7" }} />
                        if !large {
                            <text x={(x + 10.0).to_string()} y={(y + 4.0).to_string()}>{ m.label.clone() }</text>
                        }
                    </g>
                }
            }) }
        </svg>
    }
}

/// Brokers, consumers and workers.
fn node_layer(world: &World, lang: Lang, selected: Option<&Selection>, highlights: &[String]) -> Html {
    let is_sel = |s: Selection| selected == Some(&s);
    let lit = |name: String| highlights.contains(&name).then_some("highlight");
    let brokers = view::brokers(world);
    let consumers = view::consumers(world);
    let workers = view::workers(world);
    let large = view::is_large(world);
    html! {
        <>
            { for brokers.iter().map(|b| {
                // A lesson question may conceal which broker coordinates a group.
                let coord = b.coordinates.iter().any(|(g, _)| !hidden(Kind::Coordinator, g));
                let class = classes!("broker", (!b.alive).then_some("dead"), coord.then_some("coordinator"), b.loading.then_some("loading"),
                    is_sel(Selection::Node(NodeId::Broker(b.id))).then_some("selected"), lit(format!("broker-{}", b.id)));
                html! {
                    <g class={class} data-broker={b.id.to_string()} tabindex="0" role="button">
                        <title>{ trf(lang, "broker.leads", &[&format!("broker-{}", b.id), &b.leads_summary()]) }</title>
                        <rect x={(b.x - 90.0).to_string()} y={(b.y - 30.0).to_string()} width="180" height="70" rx="8" />
                        <text x={b.x.to_string()} y={(b.y - 8.0).to_string()} class="title">{ format!("broker-{}", b.id) }</text>
                        <text x={b.x.to_string()} y={(b.y + 10.0).to_string()} class="sub">
                            { if !b.alive { tr(lang, "broker.down").to_string() }
                              else if b.loading { tr(lang, "broker.loading").to_string() }
                              else { b.coordinates.iter().filter(|(g, _)| !hidden(Kind::Coordinator, g)).map(|(g, p)| trf(lang, "broker.coordinates", &[g, p])).collect::<Vec<_>>().join(", ") } }
                        </text>
                        // The partitions it leads: the coordinator of a group is the leader of the group's __consumer_offsets partition.
                        <text x={b.x.to_string()} y={(b.y + 28.0).to_string()} class="tiny leads">{ b.leads_summary() }</text>
                    </g>
                }
            }) }
            if large {
                { for consumers.iter().map(|c| compact_consumer(c, lang, is_sel(Selection::Node(NodeId::Client(c.idx))), lit(c.name.clone()).is_some())) }
            }
            { for consumers.iter().filter(|_| !large).map(|c| {
                // A lesson question may conceal the group's leader or owners.
                let (leader, owners_hidden) = (c.leader && !hidden(Kind::Leader, &c.group), hidden(Kind::Owners, &c.group));
                let class = classes!("consumer", (!c.alive).then_some("dead"), c.paused.then_some("paused"), leader.then_some("leader"),
                    is_sel(Selection::Node(NodeId::Client(c.idx))).then_some("selected"), lit(c.name.clone()));
                let owned = if owners_hidden { "?".to_string() } else { c.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ") };
                html! {
                    <g class={class} data-member={c.name.clone()} data-state={c.state.clone()} tabindex="0" role="button">
                        <title>{ trf(lang, "consumer.select", &[&c.name]) }</title>
                        <circle class="hit" cx={c.x.to_string()} cy={c.y.to_string()} r="62" />
                        { for c.rings.iter().enumerate().map(|(i, (name, frac))| {
                            let r = 44.0 + 6.0 * i as f64;
                            let circ = 2.0 * std::f64::consts::PI * r;
                            html! { <circle class={classes!("ring", *name)} cx={c.x.to_string()} cy={c.y.to_string()} r={r.to_string()}
                                stroke-dasharray={format!("{:.1} {:.1}", circ * frac, circ)} /> }
                        }) }
                        <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r="38" style={format!("fill:{}", colour(c.idx))} />
                        <text x={c.x.to_string()} y={(c.y - 6.0).to_string()} class="title">{ if leader { format!("{} ★", c.name) } else { c.name.clone() } }</text>
                        <text x={c.x.to_string()} y={(c.y + 10.0).to_string()} class="sub">{ c.state.clone() }</text>
                        <text x={c.x.to_string()} y={(c.y + 24.0).to_string()} class="sub">{ if c.generation >= 0 { trf(lang, if c.epoch { "consumer.epoch" } else { "consumer.generation" }, &[&c.generation]) } else { String::new() } }</text>
                        <text x={c.x.to_string()} y={(c.y + 66.0).to_string()} class="owned">{ owned }</text>
                    </g>
                }
            }) }
            { for workers.iter().map(|w| {
                let class = classes!("consumer", "worker", (!w.alive).then_some("dead"), w.paused.then_some("paused"), w.leader.then_some("leader"),
                    is_sel(Selection::Node(NodeId::Client(w.idx))).then_some("selected"), lit(w.name.clone()));
                let tasks = w.tasks.iter().map(|(t, st)| if st == "RUNNING" { t.clone() } else { format!("{t} {st}") }).collect::<Vec<_>>().join(" ");
                html! {
                    <g class={class} data-member={w.name.clone()} data-state={w.state.clone()} data-tasks={tasks.clone()} tabindex="0" role="button">
                        <title>{ trf(lang, "consumer.select", &[&w.name]) }</title>
                        <circle class="hit" cx={w.x.to_string()} cy={w.y.to_string()} r="62" />
                        <rect class="body" x={(w.x - 38.0).to_string()} y={(w.y - 38.0).to_string()} width="76" height="76" rx="10" style={format!("fill:{}", colour(w.idx))} />
                        <text x={w.x.to_string()} y={(w.y - 6.0).to_string()} class="title">{ if w.leader { format!("{} ★", w.name) } else { w.name.clone() } }</text>
                        <text x={w.x.to_string()} y={(w.y + 10.0).to_string()} class="sub">{ w.state.clone() }</text>
                        <text x={w.x.to_string()} y={(w.y + 24.0).to_string()} class="sub">{ if w.generation >= 0 { trf(lang, "consumer.generation", &[&w.generation]) } else { String::new() } }</text>
                        <text x={w.x.to_string()} y={(w.y + 54.0).to_string()} class="owned">{ tasks }</text>
                        if let Some(ms) = w.scheduled_rebalance_in {
                            <text x={w.x.to_string()} y={(w.y + 68.0).to_string()} class="owned delay">{ trf(lang, "connect.delay", &[&format!("{:.1}", ms as f64 / 1000.0)]) }</text>
                        }
                    </g>
                }
            }) }
        </>
    }
}

/// A consumer in the compact drawing of a large group: a small disc with its
/// name; the state is in its class and title, the details in the inspector.
fn compact_consumer(c: &view::ConsumerView, lang: Lang, selected: bool, highlighted: bool) -> Html {
    let class = classes!("consumer", "compact", (!c.alive).then_some("dead"), c.paused.then_some("paused"), c.leader.then_some("leader"),
        selected.then_some("selected"), highlighted.then_some("highlight"), c.owned.is_empty().then_some("idle"));
    html! {
        <g class={class} data-member={c.name.clone()} data-state={c.state.clone()} tabindex="0" role="button">
            <title>{ format!("{} · {} · {}", trf(lang, "consumer.select", &[&c.name]), c.state, c.owned.len()) }</title>
            <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r="11" style={format!("fill:{}", colour(c.idx))} />
            <text x={c.x.to_string()} y={(c.y + 3.5).to_string()} class="tiny">{ c.name.clone() }</text>
        </g>
    }
}
