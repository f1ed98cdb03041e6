//! The SVG topology: brokers, consumers, links and messages in flight. Where
//! things go and how long a label may be come from `view::layout` and
//! `view::labels`, so no two labels overlap for 1-16 clients and 1-5 brokers.

use super::cached::cached;
use super::topology_brokers::{broker_boxes, broker_leads, broker_role, fs, narrow_role};
use super::topology_msgs::{message, place_messages, MessageStyle};
use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::lesson::conceal::{Concealed, Kind};
use crate::page::RunView;
use crate::sim::world::parse_node;
use crate::sim::{NodeId, World};
use crate::view::labels::{fit, short_state, shortest_state, text_width};
use crate::view::layout::{chips, compact_narrow, compact_presenter, Frame, Layout, PRESENTER_MIN_PX};
use crate::view::{self, WIDTH};
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

/// What the drawing shows of a world besides the world itself.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub lang: Lang,
    pub selected: Option<&'a Selection>,
    /// What the open lesson's step highlights (node names).
    pub highlights: &'a [String],
    /// What the open lesson's question hides now (`lesson::conceal`).
    pub concealed: &'a Concealed,
    /// The messages of the event the lesson's learner watches for: named at
    /// every width, also where other messages go unnamed (a phone).
    pub watched: &'a [u64],
    /// Draw the consumers' Fetches to partition leaders (one message per
    /// consumer and broker, so a hundred members stay light).
    pub show_fetches: bool,
    /// Presenter mode is on (its frame, unless on a phone).
    pub presenter: bool,
}

/// The state a node shows: Kafka's name, or "crashed" in the page's language.
fn state_label(state: &str, lang: Lang) -> String {
    if state == "crashed" {
        tr(lang, "state.crashed").to_string()
    } else {
        state.to_string()
    }
}

/// A text element that never runs past `max` (abbreviated first, squeezed if
/// the estimate says it still would).
fn label(x: f64, y: f64, class: &'static str, text: &str, px: f64, bold: bool, max: f64) -> Html {
    let t = fit(text, max, px, bold);
    let squeeze = text_width(&t, px, bold) > max * 0.98;
    html! {
        <text x={format!("{x:.1}")} y={format!("{y:.1}")} class={class} style={fs(px)}
            textLength={squeeze.then(|| format!("{:.1}", max * 0.98))} lengthAdjust={squeeze.then_some("spacingAndGlyphs")}>{ t }</text>
    }
}

/// A label that is squeezed (textLength) rather than cut while it is at most
/// a third wider than `max`: the presenter frame's nodes keep Kafka's whole
/// (abbreviated) state names, such as COMPL_REB and PREP_LEAVE.
fn squeezed(x: f64, y: f64, class: &'static str, text: &str, px: f64, bold: bool, max: f64) -> Html {
    let w = text_width(text, px, bold);
    if w <= max * 0.98 || w > max / 0.75 {
        return label(x, y, class, text, px, bold, max);
    }
    html! {
        <text x={format!("{x:.1}")} y={format!("{y:.1}")} class={class} style={fs(px)}
            textLength={format!("{:.1}", max * 0.98)} lengthAdjust="spacingAndGlyphs">{ text }</text>
    }
}

/// The SVG; `on_press` and `on_key` are stable callbacks (one listener on the
/// SVG, not one per node re-created every frame) that resolve the node pressed.
/// In the compact drawing of a large group the nodes are redrawn only when
/// `nodes` (a version and the player) says so; the messages every frame.
/// Without `nodes` everything is drawn every time.
pub fn topology(
    world: &World,
    look: Look,
    on_press: Callback<MouseEvent>,
    on_key: Callback<KeyboardEvent>,
    nodes: Option<(u64, &RunView)>,
) -> Html {
    let Look { lang, selected, highlights, concealed, watched, show_fetches, presenter } = look;
    let is_sel = |s: Selection| selected == Some(&s);
    // A phone gets the narrow drawing (larger type, clients in columns), a
    // projector the presenter's (larger type, at most two rows).
    let frame = super::prefs::frame(presenter);
    let layout = Layout::framed(world.client_count(), frame);
    let unit = layout.unit;
    let brokers = view::brokers_in(world, frame);
    let large = view::is_large(world);
    let reduced = super::prefs::reduced_motion();
    let mut messages = view::messages_in(world, frame);
    if !show_fetches {
        messages.retain(|m| m.api != "Fetch");
    }
    let node_layer = if let Some((version, player)) = nodes.filter(|_| large) {
        let (player, selected, highlights, concealed) =
            (player.clone(), selected.cloned(), highlights.to_vec(), concealed.clone());
        // The frame (wide, narrow, presenter) is part of the version: presenter mode or a
        // turned phone redraws the nodes at once, paused or not.
        cached(super::cached::version((version, frame as u8)), move || {
            // The node layer draws no messages: the watched ones are not its business.
            let look = Look {
                selected: selected.as_ref(),
                highlights: &highlights,
                concealed: &concealed,
                watched: &[],
                ..look
            };
            node_layer(&player.player().world, look, frame)
        })
    } else {
        node_layer(world, look, frame)
    };
    // The links need only where each client is (the node layer builds the full views).
    let clients: Vec<(u32, f64, f64)> = if large {
        Vec::new()
    } else {
        world
            .client_indices()
            .into_iter()
            .map(|i| {
                let (x, y) = view::node_pos_in(world, NodeId::Client(i), frame);
                (i, x, y)
            })
            .collect()
    };
    // Message labels only while there is room for them between the rows.
    let message_labels = !large && world.client_count() <= 6 && frame == Frame::Wide;
    let height = view::height_in(world, frame);
    let style = MessageStyle { lang, concealed, large, reduced, labels: message_labels, watched };
    let placed = place_messages(&messages, &brokers, &clients, &layout, style);
    html! {
        <svg id="topology" onmousedown={on_press} onkeydown={on_key} viewBox={format!("0 0 {WIDTH} {height:.0}")} role="group" aria-label={tr(lang, "topology.label")}>
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
                let (x1, y1, x2, y2) = (b.x.to_string(), (b.y + 40.0 * unit).to_string(), c.1.to_string(), (c.2 - 40.0 * unit).to_string());
                html! {
                    <g class={class} data-link={format!("{bn} {cn}")}>
                        <line class="link-hit" x1={x1.clone()} y1={y1.clone()} x2={x2.clone()} y2={y2.clone()} />
                        <line class="link-line" x1={x1} y1={y1} x2={x2} y2={y2} />
                    </g>
                }
            })) }
            // A message crossing a client it neither leaves nor reaches passes behind
            // that client's disc and chips (as the links do), never over its text.
            { for placed.iter().filter(|p| p.behind).map(|p| message(p, lang, is_sel(Selection::Message(p.m.id)))) }
            { node_layer }
            { for placed.iter().filter(|p| !p.behind).map(|p| message(p, lang, is_sel(Selection::Message(p.m.id)))) }
        </svg>
    }
}

/// Brokers, consumers and workers.
fn node_layer(world: &World, look: Look, frame: Frame) -> Html {
    let Look { lang, selected, highlights, concealed, .. } = look;
    let is_sel = |s: Selection| selected == Some(&s);
    let lit = |name: String| highlights.contains(&name).then_some("highlight");
    let brokers = view::brokers_in(world, frame);
    let consumers = view::consumers_in(world, frame);
    let workers = view::workers_in(world, frame);
    let large = view::is_large(world);
    let layout = Layout::framed(world.client_count(), frame);
    let (bw, wrapped) = broker_boxes(&brokers, lang, concealed, frame);
    let narrow = frame == Frame::Narrow;
    html! {
        <>
            { for brokers.iter().zip(wrapped).map(|(b, role_lines)| {
                // A lesson question may conceal which broker coordinates a group.
                let coord = b.coordinates.iter().any(|(g, _)| !concealed.hides(Kind::Coordinator, g));
                let class = classes!("broker", (!b.alive).then_some("dead"), coord.then_some("coordinator"), b.loading.then_some("loading"),
                    is_sel(Selection::Node(NodeId::Broker(b.id))).then_some("selected"), lit(format!("broker-{}", b.id)));
                let role = broker_role(b, lang, concealed);
                let leads = broker_leads(b);
                let inner = bw - 14.0;
                // The box grows down by a line's height for each line of the role after the first.
                let extra = layout.broker_extra(role_lines.len());
                let top = layout.broker_top;
                // The narrow drawing's role: "coordinator of shipping", whole, broken between words.
                let short_role = if narrow { Some(narrow_role(b, lang, concealed, bw)) } else { None };
                let full = trf(lang, "broker.leads", &[&format!("broker-{}", b.id), &b.leads_summary()]);
                html! {
                    <g class={class} data-broker={b.id.to_string()} tabindex="0" role="button">
                        <title>{ if role.is_empty() { full } else { format!("{role} · {full}") } }</title>
                        <rect x={(b.x - bw / 2.0).to_string()} y={top.to_string()} width={bw.to_string()} height={(layout.broker_h + extra).to_string()} rx={(8.0 * layout.unit).to_string()} />
                        if narrow {
                            // Name and role only; what it leads is in its tooltip and the inspector.
                            { label(b.x, b.y - 8.0, "title", &format!("broker-{}", b.id), 32.0, true, inner - 14.0) }
                            { for short_role.iter().flat_map(|r| r.lines.iter().enumerate().map(move |(k, l)| (r, k, l))).map(|(r, k, l)|
                                label(b.x, b.y + 34.0 + r.step * k as f64, "sub role", l, r.px, false, inner - 14.0)) }
                        } else if frame == Frame::Presenter {
                            // Name and the whole role; what it leads is in its tooltip and the inspector.
                            { label(b.x, top + 20.0, "title", &format!("broker-{}", b.id), 16.0, true, inner) }
                            { for role_lines.iter().enumerate().map(|(k, l)| label(b.x, top + 39.0 + layout.role_step * k as f64, "sub role", l, PRESENTER_MIN_PX, false, inner)) }
                        } else {
                            { label(b.x, b.y - 16.0, "title", &format!("broker-{}", b.id), 15.0, true, inner) }
                            { for role_lines.iter().enumerate().map(|(k, l)| label(b.x, b.y + 2.0 + 15.0 * k as f64, "sub role", l, 12.0, false, inner)) }
                            // The partitions it leads: the coordinator of a group is the leader of the group's __consumer_offsets partition.
                            { label(b.x, b.y + 19.0 + extra, "tiny leads", &leads, 11.0, false, inner) }
                            { label(b.x, b.y + 35.0 + extra, "tiny leads", &format!("__consumer_offsets ×{}", b.offsets_led), 11.0, false, inner) }
                        }
                    </g>
                }
            }) }
            if large {
                { for consumers.iter().map(|c| compact_consumer(c, lang, is_sel(Selection::Node(NodeId::Client(c.idx))), lit(c.name.clone()).is_some(), frame, world.client_count())) }
            }
            { for consumers.iter().filter(|_| !large).map(|c| {
                // A lesson question may conceal the group's leader or owners.
                let (leader, owners_hidden) =
                    (c.leader && !concealed.hides(Kind::Leader, &c.group), concealed.hides(Kind::Owners, &c.group));
                let class = classes!("consumer", (!c.alive).then_some("dead"), c.paused.then_some("paused"), leader.then_some("leader"),
                    c.poll_overdue.then_some("overdue"),
                    is_sel(Selection::Node(NodeId::Client(c.idx))).then_some("selected"), lit(c.name.clone()));
                let gen = if c.generation >= 0 { trf(lang, if c.epoch { "consumer.epoch" } else { "consumer.generation" }, &[&c.generation]) } else { String::new() };
                let owned: Vec<String> = if owners_hidden { vec!["?".to_string()] } else { c.owned.iter().map(|p| p.to_string()).collect() };
                let chip_class = if c.stale { "stale" } else { "owned" };
                let summary = node_summary(lang, &c.name, &c.state, &gen, &owned, c.stale, c.poll_overdue);
                html! {
                    <g class={class} data-member={c.name.clone()} data-state={c.state.clone()} data-stale={c.stale.to_string()} tabindex="0" role="button">
                        <title>{ summary }</title>
                        <circle class="hit" cx={c.x.to_string()} cy={c.y.to_string()} r={(layout.ring_radius(2) + 4.0).to_string()} />
                        { for c.rings.iter().enumerate().map(|(i, (name, frac))| {
                            let r = layout.ring_radius(i);
                            let circ = 2.0 * std::f64::consts::PI * r;
                            html! { <circle class={classes!("ring", *name)} cx={c.x.to_string()} cy={c.y.to_string()} r={r.to_string()}
                                stroke-dasharray={format!("{:.1} {:.1}", circ * frac, circ)} /> }
                        }) }
                        <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r={layout.radius.to_string()} style={format!("fill:{}", colour(c.idx))} />
                        { node_texts(&layout, (c.x, c.y), NodeText { name: &c.name, leader, state: &c.state, gen: &gen }, lang) }
                        if c.poll_overdue {
                            { overdue_badge(&layout, c.x, c.y, lang) }
                        }
                        { chip_row(&layout, c.x, c.y, &owned.iter().map(|o| (o.clone(), chip_class)).collect::<Vec<_>>()) }
                    </g>
                }
            }) }
            { for workers.iter().map(|w| {
                let class = classes!("consumer", "worker", (!w.alive).then_some("dead"), w.paused.then_some("paused"), w.leader.then_some("leader"),
                    is_sel(Selection::Node(NodeId::Client(w.idx))).then_some("selected"), lit(w.name.clone()));
                let tasks = w.tasks.iter().map(|(t, st)| if st == "RUNNING" { t.clone() } else { format!("{t} {st}") }).collect::<Vec<_>>().join(" ");
                let gen = if w.generation >= 0 { trf(lang, "consumer.generation", &[&w.generation]) } else { String::new() };
                let mut chips_of: Vec<(String, &'static str)> = w.tasks.iter().map(|(t, st)| match st.as_str() {
                    "RUNNING" => (t.clone(), if w.alive { "owned" } else { "stale" }),
                    "FAILED" => (format!("{t} ✗"), "failed"),
                    _ => (format!("{t} {st}"), "stale"),
                }).collect();
                let delay = w.scheduled_rebalance_in.map(|ms| trf(lang, "connect.delay", &[&format!("{:.1}", ms as f64 / 1000.0)]));
                if let Some(ms) = w.scheduled_rebalance_in {
                    chips_of.insert(0, (format!("⏱ {:.1} s", ms as f64 / 1000.0), "delay"));
                }
                let r = layout.radius;
                let mut summary = node_summary(lang, &w.name, &w.state, &gen, &w.tasks.iter().map(|(t, s)| format!("{t} {s}")).collect::<Vec<_>>(), !w.alive, false);
                if let Some(d) = delay {
                    summary = format!("{summary} · {d}");
                }
                html! {
                    <g class={class} data-member={w.name.clone()} data-state={w.state.clone()} data-tasks={tasks} tabindex="0" role="button">
                        <title>{ summary }</title>
                        <circle class="hit" cx={w.x.to_string()} cy={w.y.to_string()} r={(layout.ring_radius(2) + 4.0).to_string()} />
                        <rect class="body" x={(w.x - r).to_string()} y={(w.y - r).to_string()} width={(2.0 * r).to_string()} height={(2.0 * r).to_string()} rx="10" style={format!("fill:{}", colour(w.idx))} />
                        { node_texts(&layout, (w.x, w.y), NodeText { name: &w.name, leader: w.leader, state: &w.state, gen: &gen }, lang) }
                        { chip_row(&layout, w.x, w.y, &chips_of) }
                    </g>
                }
            }) }
        </>
    }
}

/// What a node says: its name (with ★ for a leader), state and generation.
struct NodeText<'a> {
    name: &'a str,
    leader: bool,
    state: &'a str,
    gen: &'a str,
}

/// Name, state and generation inside a node at `(x, y)`, each cut to the node's width.
fn node_texts(l: &Layout, (x, y): (f64, f64), node: NodeText, lang: Lang) -> Html {
    let NodeText { name, leader, state, gen } = node;
    let r = l.radius;
    let title = if leader { format!("{name} ★") } else { name.to_string() };
    let full_state = state;
    let state = state_label(&short_state(state), lang);
    // Three lines centred in the node, spaced by the fonts' ascent (0.93 em)
    // and descent (0.24 em) so their boxes never touch.
    let (t, s, g) = (l.title_px, l.sub_px, l.gen_px);
    // Noto Sans CJK's descent (0.32 em) is deeper than the estimate: at the
    // narrow frame's doubled type the Chinese lines need 4 units between them,
    // at the presenter's larger type 2.
    let m = match l.frame {
        Frame::Narrow => 4.0,
        Frame::Presenter => 2.0,
        Frame::Wide => 1.0,
    };
    let (gap1, gap2) = (0.24 * t + 0.93 * s + m, 0.24 * s + 0.93 * g + m);
    let top = y - (0.93 * t + gap1 + gap2 + 0.24 * g) / 2.0;
    let (b1, b2) = (top + 0.93 * t, top + 0.93 * t + gap1);
    let b3 = b2 + gap2;
    // The chord of the circle at the line's farthest edge from the centre, less a margin.
    let chord = |baseline: f64, px: f64| {
        let dy = (baseline - 0.93 * px - y).abs().max((baseline + 0.24 * px - y).abs());
        2.0 * (r * r - dy * dy).max(0.0).sqrt() - 6.0
    };
    let text = if l.frame == Frame::Presenter { squeezed } else { label };
    html! {
        <>
            { text(x, b1, "title", &title, t, true, chord(b1, t)) }
            { state_text(x, b2, &state, &state_label(&shortest_state(full_state), lang), s, chord(b2, s)) }
            { text(x, b3, "sub gen", gen, g, false, chord(b3, g)) }
        </>
    }
}

/// The state line of a node: the short form of Kafka's name, squeezed a
/// little where it must; where even that would cut it, the shortest form, so
/// a state is never cut to a stub ("PREP_R…") that loses its meaning.
fn state_text(x: f64, y: f64, short: &str, shortest: &str, px: f64, max: f64) -> Html {
    let t = if text_width(short, px, false) <= max / 0.75 { short } else { shortest };
    squeezed(x, y, "sub state", t, px, false, max)
}

/// The red "!" of a member past `max.poll.interval.ms` without a `poll()`.
fn overdue_badge(l: &Layout, x: f64, y: f64, lang: Lang) -> Html {
    let (bx, by, u) = (x + l.radius * 0.8, y - l.radius * 0.8, l.unit);
    html! {
        <g class="overdue-badge">
            <title>{ tr(lang, "consumer.overdue") }</title>
            <circle cx={bx.to_string()} cy={by.to_string()} r={(9.0 * u).to_string()} />
            <text x={bx.to_string()} y={(by + 4.5 * u).to_string()} style={fs(14.0 * u)}>{"!"}</text>
        </g>
    }
}

/// A client's partitions (or tasks) as wrapped chips under it.
fn chip_row(l: &Layout, x: f64, y: f64, items: &[(String, &'static str)]) -> Html {
    let texts: Vec<String> = items.iter().map(|(t, _)| t.clone()).collect();
    let placed = chips(&texts, x, l.chips_top(y), l.column_width(), l.chip_px, l.chip_lines);
    html! {
        <g class="chips">
            { for placed.iter().map(|c| {
                // "+n" is a `rest` chip: the toolbar's `.more` menu is hidden in presenter mode.
                let class = c.index.map_or("rest", |i| items[i].1);
                html! {
                    <g class={classes!("chip", class)}>
                        <rect x={format!("{:.1}", c.x)} y={format!("{:.1}", c.y)} width={format!("{:.1}", c.w)} height={format!("{:.1}", c.h)} rx="4" />
                        { label(c.x + c.w / 2.0, c.y + c.h - 4.5, "chip-text", &c.text, l.chip_px, false, c.w - 6.0) }
                    </g>
                }
            }) }
        </g>
    }
}

/// Everything a node says, in words, for its tooltip and screen readers.
fn node_summary(
    lang: Lang,
    name: &str,
    state: &str,
    gen: &str,
    owned: &[String],
    stale: bool,
    overdue: bool,
) -> String {
    let mut parts = vec![name.to_string(), state_label(state, lang)];
    if !gen.is_empty() {
        parts.push(gen.to_string());
    }
    if !owned.is_empty() {
        let key = if stale { "consumer.stale" } else { "consumer.owns" };
        parts.push(trf(lang, key, &[&owned.join(", ")]));
    }
    if overdue {
        parts.push(tr(lang, "consumer.overdue").to_string());
    }
    format!("{} — {}", parts.join(" · "), tr(lang, "consumer.click"))
}

/// A consumer in the compact drawing of a large group: a small disc with its
/// name; the state is in its class and title, the details in the inspector.
/// On a phone (`Frame::Narrow`) the discs are larger and the names keep the
/// narrow frame's type (`layout::compact_narrow`); in presenter mode they keep
/// the presenter's (`layout::compact_presenter`).
fn compact_consumer(
    c: &view::ConsumerView,
    lang: Lang,
    selected: bool,
    highlighted: bool,
    frame: Frame,
    n: usize,
) -> Html {
    let class = classes!(
        "consumer",
        "compact",
        (!c.alive).then_some("dead"),
        c.paused.then_some("paused"),
        c.leader.then_some("leader"),
        selected.then_some("selected"),
        highlighted.then_some("highlight"),
        (c.owned.is_empty() || c.stale).then_some("idle")
    );
    html! {
        <g class={class} data-member={c.name.clone()} data-state={c.state.clone()} tabindex="0" role="button">
            <title>{ format!("{} · {} · {}", trf(lang, "consumer.select", &[&c.name]), state_label(&c.state, lang), c.owned.len()) }</title>
            if frame == Frame::Narrow {
                <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r={compact_narrow::RADIUS.to_string()} style={format!("fill:{}", colour(c.idx))} />
                <text x={c.x.to_string()} y={(c.y + 0.35 * compact_narrow::NAME_PX).to_string()} class="compact-name" style={fs(compact_narrow::NAME_PX)}>{ c.name.clone() }</text>
            } else if frame == Frame::Presenter {
                <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r={compact_presenter::radius(n).to_string()} style={format!("fill:{}", colour(c.idx))} />
                <text x={c.x.to_string()} y={(c.y + 0.35 * compact_presenter::NAME_PX).to_string()} class="compact-name" style={fs(compact_presenter::NAME_PX)}>{ c.name.clone() }</text>
            } else {
                <circle class="body" cx={c.x.to_string()} cy={c.y.to_string()} r="11" style={format!("fill:{}", colour(c.idx))} />
                <text x={c.x.to_string()} y={(c.y + 3.5).to_string()} class="tiny">{ c.name.clone() }</text>
            }
        </g>
    }
}
