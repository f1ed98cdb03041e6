//! Messages in flight on the topology: where each disc is drawn, and whether it
//! passes behind a client it neither leaves nor reaches (a message to the
//! second row of clients crosses the first row: drawn over it, it covered the
//! first row's names, states and partition chips).

use super::topology_brokers::{broker_boxes, fs};
use crate::i18n::Lang;
use crate::lesson::conceal::Concealed;
use crate::view::labels::{clear_of_each_other, text_width, Rect};
use crate::view::layout::{Frame, Layout};
use crate::view::{self, MessageView, WIDTH};
use yew::prelude::*;

/// A message placed: its view, its disc's centre and radius, and whether it
/// is drawn under the node layer.
pub struct Placed<'a> {
    pub m: &'a MessageView,
    pub x: f64,
    pub y: f64,
    pub r: f64,
    pub progress: f64,
    pub behind: bool,
    /// Its label, where it has room (mid-way, clear of the nodes' own labels
    /// and of every earlier message's label); written beside the disc (`label_x`).
    pub label: Option<String>,
    /// The label's type size.
    pub label_px: f64,
    /// One of the messages of the event the lesson's learner watches for.
    pub watched: bool,
}

/// Where a label beside a disc at `x` of radius `r` starts, and whether it
/// reads leftwards from there: on the right half it does, so it is never cut
/// at the edge.
fn label_x(x: f64, r: f64) -> (f64, bool) {
    let gap = (r + 3.0).max(10.0);
    if x > WIDTH / 2.0 {
        (x - gap, true)
    } else {
        (x + gap, false)
    }
}

/// The label's font size, in user units: on a phone (the narrow drawing,
/// where only the watched event's messages are named) its smallest type, on
/// a projector the presenter's. The watched event's messages are named
/// larger on a laptop and a projector: those are the words the learner or
/// the room reads (on a projector, 17.5 units render at about 23 px at
/// 1280x720, the drawing taking the width while the event plays).
fn label_px(frame: Frame, watched: bool) -> f64 {
    match (frame, watched) {
        (Frame::Wide, false) => 12.0,
        (Frame::Wide, true) => 15.0,
        (Frame::Narrow, _) => crate::view::layout::NARROW_MIN_PX,
        (Frame::Presenter, false) => crate::view::layout::PRESENTER_MIN_PX,
        (Frame::Presenter, true) => 1.4 * crate::view::layout::PRESENTER_MIN_PX,
    }
}

fn same(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 0.5 && (a.1 - b.1).abs() < 0.5
}

/// Where a message's path leaves the node at `at` towards `other`, `reach`
/// from its centre: below a broker's box, the top of a client's disc (the
/// ends the links use).
fn edge(at: (f64, f64), other: (f64, f64), reach: f64) -> (f64, f64) {
    let dy = if other.1 > at.1 {
        reach
    } else if other.1 < at.1 {
        -reach
    } else {
        0.0
    };
    (at.0, at.1 + dy)
}

/// How the messages are drawn: in which language, what the open question
/// hides, and which of them may or must be named.
#[derive(Clone, Copy)]
pub struct MessageStyle<'a> {
    pub lang: Lang,
    pub concealed: &'a Concealed,
    /// The compact drawing of a large group.
    pub large: bool,
    /// prefers-reduced-motion: a message waits at the middle of its link.
    pub reduced: bool,
    /// The drawing has room for messages' labels at all.
    pub labels: bool,
    /// The messages of the event the lesson's learner watches for.
    pub watched: &'a [u64],
}

/// Places every message; `clients` are (index, x, y) of the clients drawn in
/// full (empty for the compact drawing of a large group).
pub fn place_messages<'a>(
    messages: &'a [MessageView],
    brokers: &[view::BrokerView],
    clients: &[(u32, f64, f64)],
    layout: &Layout,
    style: MessageStyle,
) -> Vec<Placed<'a>> {
    let MessageStyle { lang, concealed, large, reduced, labels, watched } = style;
    let frame = layout.frame;
    let unit = layout.unit;
    let r = if frame == Frame::Narrow {
        14.0
    } else if large {
        4.0
    } else {
        7.0
    };
    // A broker's end sits just under its box (a wrapped role line makes the box
    // taller), so a message leaving or reaching it does not cover its last line.
    let (_, role_lines) = broker_boxes(brokers, lang, concealed, frame);
    let broker_reach = |at: (f64, f64)| {
        brokers.iter().zip(&role_lines).find(|(b, _)| same((b.x, b.y), at)).map_or(40.0 * unit, |(b, lines)| {
            let bottom = layout.broker_top + layout.broker_h + layout.broker_extra(lines.len()) - b.y;
            (bottom + r + 1.0).max(40.0 * unit)
        })
    };
    let client_reach = if large { 10.0 } else { 40.0 * unit };
    // A client's area: its outer ring and, under it, its chip column.
    let half_w = layout.column_width().max(2.0 * layout.ring_radius(2)) / 2.0;
    let crosses = |x: f64, y: f64, own: (f64, f64)| {
        clients.iter().any(|&(_, cx, cy)| {
            let (top, bottom) =
                (cy - layout.ring_radius(2), layout.chips_top(cy) + layout.chip_lines as f64 * (layout.chip_px + 9.0));
            !same((cx, cy), own) && (x - cx).abs() < half_w + r && y + r > top && y - r < bottom
        })
    };
    let mut placed: Vec<Placed<'a>> = messages
        .iter()
        .map(|m| {
            // With prefers-reduced-motion a message waits at the middle of its link
            // instead of gliding along it.
            let progress = if reduced { 0.5 } else { m.progress };
            let (broker_end, client_end) = if m.request { (m.to, m.from) } else { (m.from, m.to) };
            // Parked, it sits at the middle of the link as the link is drawn (its
            // broker end 40 units under the broker's centre); only a gliding
            // message starts below a taller box.
            let broker_end_reach = if reduced { 40.0 * unit } else { broker_reach(broker_end) };
            let (from_reach, to_reach) =
                if m.request { (client_reach, broker_end_reach) } else { (broker_end_reach, client_reach) };
            let (from, to) = (edge(m.from, m.to, from_reach), edge(m.to, m.from, to_reach));
            let x = from.0 + (to.0 - from.0) * progress;
            let y = from.1 + (to.1 - from.1) * progress;
            // The watched event's messages pass in front: hidden behind a
            // client's disc, the one thing the learner watches for would vanish.
            let watched = watched.contains(&m.id);
            let behind = !watched && crosses(x, y, client_end);
            Placed { m, x, y, r, progress, behind, label: None, label_px: label_px(frame, watched), watched }
        })
        .collect();
    // Only mid-way, clear of the brokers' and clients' own labels. Two messages
    // flying side by side would write over each other: the older keeps its label.
    let wanted: Vec<Option<String>> = placed
        .iter()
        .map(|p| {
            // The watched event's messages are named at every width, for most of their (slowed) flight.
            let room = !p.behind
                && if p.watched {
                    (0.12..=0.88).contains(&p.progress)
                } else {
                    labels && (0.28..=0.72).contains(&p.progress)
                };
            room.then(|| crate::narrate::fault::message_label(&p.m.label, lang))
        })
        .collect();
    let boxes: Vec<Option<Rect>> = placed
        .iter()
        .zip(&wanted)
        .map(|(p, text)| {
            text.as_ref().map(|text| {
                let (start, leftwards) = label_x(p.x, p.r);
                let w = text_width(text, p.label_px, false);
                let (left, right) = if leftwards { (start - w, start) } else { (start, start + w) };
                (left, p.y - 0.65 * p.label_px, right, p.y + 0.65 * p.label_px)
            })
        })
        .collect();
    for ((p, w), keep) in placed.iter_mut().zip(wanted).zip(clear_of_each_other(&boxes)) {
        p.label = w.filter(|_| keep);
    }
    placed
}

/// One message's disc (and its label, where `place_messages` found room).
pub fn message(p: &Placed, lang: Lang, selected: bool) -> Html {
    let m = p.m;
    let class = classes!(
        "msg",
        if m.request { "request" } else { "response" },
        m.api.to_lowercase(),
        selected.then_some("selected"),
        p.behind.then_some("behind"),
        p.watched.then_some("watched")
    );
    let (x, y) = (p.x, p.y);
    let title = p.label.clone().unwrap_or_else(|| crate::narrate::fault::message_label(&m.label, lang));
    let label = p.label.as_ref().map(|text| {
        let (start, leftwards) = label_x(x, p.r);
        let style = if leftwards { format!("{};text-anchor:end", fs(p.label_px)) } else { fs(p.label_px) };
        html! { <text x={start.to_string()} y={(y + 0.35 * p.label_px).to_string()} style={style}>{ text.clone() }</text> }
    });
    html! {
        <g key={m.id} class={class} data-msg={m.id.to_string()}>
            <title>{ title }</title>
            <circle cx={x.to_string()} cy={y.to_string()} r={p.r.to_string()} />
            { label.unwrap_or_default() }
        </g>
    }
}
