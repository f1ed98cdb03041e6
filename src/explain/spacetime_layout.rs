//! Where the space-time diagram of a logged run puts things, in pixels: time runs left to
//! right at a fixed scale, long quiet stretches are cut short (a break, labelled with the
//! time skipped), and instants close together are spread so that each label on a lane has
//! room before the next one on that lane. The box scrolls sideways on a narrow screen.

use super::spacetime::Diagram;

/// Pixels per millisecond of logged time.
pub const PX_PER_MS: f64 = 0.08;
/// A quiet stretch longer than this is drawn as a break of `BREAK_PX`.
pub const BREAK_MS: i64 = 4_000;
pub const BREAK_PX: f64 = 44.0;
/// The least room between two instants.
pub const MIN_STEP: f64 = 10.0;
/// Room after a label before the next thing on its lane.
pub const LABEL_GAP: f64 = 8.0;
pub const PAD: f64 = 12.0;
/// The least room between two clock labels under the axis.
pub const TICK_ROOM: f64 = 96.0;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    /// x of each arrow's two ends (sent, received) and of each mark.
    pub arrow_x: Vec<(f64, f64)>,
    pub mark_x: Vec<f64>,
    /// A break's x and the time it skips.
    pub breaks: Vec<(f64, i64)>,
    /// Clock labels under the axis: x and the instant.
    pub ticks: Vec<(f64, i64)>,
    pub width: f64,
}

/// Lays out `d`; `arrow_label(i)` and `mark_label(i)` are the label widths in pixels (a label
/// sits at an arrow's logged end on a member's lane, else its logged end, and at a mark).
pub fn layout(d: &Diagram, arrow_label: &dyn Fn(usize) -> f64, mark_label: &dyn Fn(usize) -> f64) -> Layout {
    // (time, lane, label width, which slot it fills)
    enum Slot {
        Sent(usize),
        Recv(usize),
        Mark(usize),
    }
    let mut pts: Vec<(i64, usize, f64, Slot)> = Vec::new();
    for (i, a) in d.arrows.iter().enumerate() {
        let on_sent = label_at_sent(d, i);
        pts.push((a.sent_ms, a.from, if on_sent { arrow_label(i) } else { 0.0 }, Slot::Sent(i)));
        pts.push((a.recv_ms, a.to, if on_sent { 0.0 } else { arrow_label(i) }, Slot::Recv(i)));
    }
    for (i, m) in d.marks.iter().enumerate() {
        pts.push((m.at_ms, m.lane, mark_label(i), Slot::Mark(i)));
    }
    pts.sort_by_key(|p| p.0);
    let mut out =
        Layout { arrow_x: vec![(0.0, 0.0); d.arrows.len()], mark_x: vec![0.0; d.marks.len()], ..Layout::default() };
    let mut free = vec![PAD; d.lanes.len()];
    let (mut x, mut prev): (f64, Option<i64>) = (PAD, None);
    let mut last_tick = f64::NEG_INFINITY;
    let mut i = 0;
    while i < pts.len() {
        let t = pts[i].0;
        let j = i + pts[i..].iter().take_while(|p| p.0 == t).count();
        let mut at = match prev {
            None => PAD,
            Some(p) if t - p > BREAK_MS => {
                out.breaks.push((x + BREAK_PX / 2.0, t - p));
                x + BREAK_PX
            }
            Some(p) => x + ((t - p) as f64 * PX_PER_MS).max(MIN_STEP),
        };
        for p in &pts[i..j] {
            at = at.max(free.get(p.1).copied().unwrap_or(PAD));
        }
        let broke = out.breaks.last().is_some_and(|b| b.0 > x);
        if prev.is_none() || broke || at - last_tick >= TICK_ROOM {
            out.ticks.push((at, t));
            last_tick = at;
        }
        for p in &pts[i..j] {
            if p.2 > 0.0 {
                if let Some(f) = free.get_mut(p.1) {
                    *f = at + p.2 + LABEL_GAP;
                }
            }
            match p.3 {
                Slot::Sent(k) => out.arrow_x[k].0 = at,
                Slot::Recv(k) => out.arrow_x[k].1 = at,
                Slot::Mark(k) => out.mark_x[k] = at,
            }
        }
        x = at;
        prev = Some(t);
        i = j;
    }
    out.width = free.iter().copied().fold(x + PAD, f64::max).max(x + TICK_ROOM) + PAD;
    out
}

/// Whether an arrow's label sits at its sending end: the end a line shows, on a member's lane
/// when both are shown.
pub fn label_at_sent(d: &Diagram, i: usize) -> bool {
    let a = &d.arrows[i];
    let member = |lane: usize| matches!(d.lanes.get(lane), Some(super::spacetime::Lane::Member(_)));
    match (a.sent_logged, a.recv_logged) {
        (true, false) => true,
        (false, true) => false,
        _ => member(a.from),
    }
}

/// A label's width in pixels at `font_px` (a little over, as DejaVu Sans and Noto draw it):
/// wide (CJK) characters a full em, capitals 0.72, other characters 0.62.
pub fn text_px(s: &str, font_px: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            _ if (c as u32) >= 0x2E80 => font_px,
            'A'..='Z' => font_px * 0.72,
            _ => font_px * 0.62,
        })
        .sum()
}
