//! A broker's box in the topology: its role line (the groups it coordinates,
//! down, loading), the partitions it leads, and how wide the boxes are, which
//! the messages in flight need too (they leave from under a box).

use crate::i18n::Lang;
use crate::lesson::conceal::Concealed;
use crate::view;
use crate::view::labels::{fit, text_width};
use crate::view::layout::{Frame, PRESENTER_MIN_PX};
use crate::view::roles::NarrowRole;

/// A text element's font size.
pub(super) fn fs(px: f64) -> String {
    format!("font-size:{px:.1}px")
}

/// The width of a broker's box: the narrow frame's cell, or in the wide and
/// presenter drawings as wide as its longest line needs (`needed`), at least
/// 180 units and at most what its neighbours allow (`view::max_broker_width`).
fn broker_width(n: usize, frame: Frame, needed: f64) -> f64 {
    if frame == Frame::Narrow {
        view::roles::narrow_box_width(n)
    } else {
        let max = view::max_broker_width(n);
        // `label` squeezes a line over 98 % of the inner width: leave it room.
        (needed / 0.97 + 14.0).clamp(180.0_f64.min(max), max)
    }
}

/// `text` in at most three lines of at most `max` wide (broken between words;
/// the last line cut with "…" only if even three do not hold it).
fn wrap(text: &str, max: f64, px: f64) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let n = lines.len();
        let Some(last) = lines.last_mut() else { break };
        let joined = if last.is_empty() { word.to_string() } else { format!("{last} {word}") };
        if text_width(&joined, px, false) <= max || last.is_empty() || n == 3 {
            *last = joined;
        } else {
            lines.push(word.to_string());
        }
    }
    lines.into_iter().map(|l| fit(&l, max, px, false)).collect()
}

pub(super) use crate::view::roles::broker_role;

pub(super) fn broker_leads(b: &view::BrokerView) -> String {
    b.leads
        .iter()
        .map(|(t, ps)| {
            if ps.len() <= 3 {
                format!("{t} {}", ps.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            } else {
                format!("{t} ×{}", ps.len())
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The size of a broker's role line: 12 units, or in the presenter frame
/// its smallest type (its leads are only in the tooltip and the inspector).
fn role_px(frame: Frame) -> f64 {
    if frame == Frame::Presenter {
        PRESENTER_MIN_PX
    } else {
        12.0
    }
}

/// The width of the brokers' boxes (as wide as the longest role or leads line
/// needs, where the neighbours allow) and each broker's role line wrapped to
/// it (to three lines at most; in the narrow drawing the phone's role, whole
/// broken between words).
pub(super) fn broker_boxes(
    brokers: &[view::BrokerView],
    lang: Lang,
    concealed: &Concealed,
    frame: Frame,
) -> (f64, Vec<Vec<String>>) {
    let px = role_px(frame);
    let leads =
        |b: &view::BrokerView| if frame == Frame::Presenter { 0.0 } else { text_width(&broker_leads(b), 11.0, false) };
    let needed = brokers
        .iter()
        .map(|b| text_width(&broker_role(b, lang, concealed), px, false).max(leads(b)))
        .fold(0.0, f64::max);
    let bw = broker_width(brokers.len(), frame, needed);
    let lines = brokers
        .iter()
        .map(|b| {
            if frame == Frame::Narrow {
                narrow_role(b, lang, concealed, bw).lines
            } else {
                wrap(&broker_role(b, lang, concealed), bw - 14.0, px)
            }
        })
        .collect();
    (bw, lines)
}

/// The narrow drawing's role of `b` in a box `bw` wide: "coordinator of
/// shipping" whole, broken between words (`view::roles::narrow_role`).
pub(super) fn narrow_role(b: &view::BrokerView, lang: Lang, concealed: &Concealed, bw: f64) -> NarrowRole {
    view::roles::narrow_role(b, lang, concealed, bw - 28.0)
}
