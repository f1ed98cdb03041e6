//! A broker's role line: which groups it coordinates (`GroupCoordinator`, the
//! leader of each group's `__consumer_offsets` partition), that it is down,
//! or that it is loading. On a phone the role is named as on a laptop,
//! "coordinator of payments", never a bare "coordinator" and never cut
//! (issue 32: in lesson 1 step 1 broker-2 read just "coordinator", which
//! steered the learner's answer about payments, whose coordinator broker-2 is
//! not). A group whose coordinator the open question hides is left out.

use super::labels::text_width;
use super::layout::NARROW_ROLE_STEP;
use super::BrokerView;
use crate::i18n::{tr, trf, Lang};
use crate::lesson::conceal::{Concealed, Kind};

/// The groups `b` coordinates that the question does not conceal.
fn shown_groups<'a>(b: &'a BrokerView, concealed: &'a Concealed) -> impl Iterator<Item = &'a (String, u32)> {
    b.coordinates.iter().filter(|(g, _)| !concealed.hides(Kind::Coordinator, g))
}

/// The laptop's and the projector's role line: "coordinator of payments
/// (p13)" for each group, "DOWN", or "loading __consumer_offsets…".
pub fn broker_role(b: &BrokerView, lang: Lang, concealed: &Concealed) -> String {
    if !b.alive {
        tr(lang, "broker.down").to_string()
    } else if b.loading {
        tr(lang, "broker.loading").to_string()
    } else {
        shown_groups(b, concealed).map(|(g, p)| trf(lang, "broker.coordinates", &[g, p])).collect::<Vec<_>>().join(", ")
    }
}

/// The phone's role line, in the narrow drawing's box.
#[derive(Clone, Debug, PartialEq)]
pub struct NarrowRole {
    /// Type size (drawing units).
    pub px: f64,
    /// The whole text, broken between words; never cut.
    pub lines: Vec<String>,
    /// Baseline to baseline (the box grows by as much a line, `Layout::broker_extra`).
    pub step: f64,
}

/// The phone's role type: its smallest (10 px and more on a 390 px screen).
pub const NARROW_ROLE_PX: f64 = super::layout::NARROW_MIN_PX;

/// The width of a broker's box in the narrow drawing, `n` brokers across.
pub fn narrow_box_width(n: usize) -> f64 {
    (super::WIDTH / n.max(1) as f64 - 16.0).min(300.0)
}

/// The phone's role line of every broker, each in its box (`narrow_box_width`
/// less its margins).
pub fn narrow_roles(brokers: &[BrokerView], lang: Lang, concealed: &Concealed) -> Vec<NarrowRole> {
    let max = narrow_box_width(brokers.len()) - 28.0;
    brokers.iter().map(|b| narrow_role(b, lang, concealed, max)).collect()
}

/// The phone's role line of `b` in a box `max` units wide inside: "coordinator
/// of shipping", "DOWN", "loading…", or nothing.
pub fn narrow_role(b: &BrokerView, lang: Lang, concealed: &Concealed, max: f64) -> NarrowRole {
    let text = if !b.alive {
        tr(lang, "broker.down").to_string()
    } else if b.loading {
        tr(lang, "broker.loading.short").to_string()
    } else {
        let groups: Vec<&str> = shown_groups(b, concealed).map(|(g, _)| g.as_str()).collect();
        if groups.is_empty() {
            String::new()
        } else {
            trf(lang, "broker.coordinates.short", &[&groups.join(", ")])
        }
    };
    let px = NARROW_ROLE_PX;
    let lines = if text.is_empty() { Vec::new() } else { wrap_whole(&text, max, px) };
    NarrowRole { px, lines, step: NARROW_ROLE_STEP }
}

/// `text` broken between words into lines at most `max` wide at `px`; a
/// word wider than a line is broken between its characters. Nothing is cut:
/// the lines joined give the text back.
pub fn wrap_whole(text: &str, max: f64, px: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let joined = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if text_width(&joined, px, false) <= max {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            if !line.is_empty() && text_width(&format!("{line}{c}"), px, false) > max {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
