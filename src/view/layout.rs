//! Where the drawing puts things, chosen so that nothing overlaps for 1-16
//! clients and 1-5 brokers: brokers in a row at the top, clients in one row
//! (up to six) or two staggered rows (7-16), each client with a column below
//! it for its partition chips. Larger groups use the compact grid (`mod.rs`).

use super::labels::text_width;
use super::WIDTH;

/// The broker row: its centre line and the size of a broker's box.
pub const BROKER_Y: f64 = 62.0;
pub const BROKER_H: f64 = 84.0;
/// Centre line of the first client row.
const FIRST_ROW_Y: f64 = 250.0;
/// At most this many lines of partition chips under a client.
pub const CHIP_LINES: usize = 3;

/// The geometry of one drawing, from how many clients it has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub clients: usize,
    pub cols: usize,
    pub rows: usize,
    /// Radius of a client's body; its rings lie just outside it.
    pub radius: f64,
    /// Distance between neighbours in a row.
    pub pitch: f64,
    /// Font sizes (user units): the name, the state and generation, a chip.
    pub title_px: f64,
    pub sub_px: f64,
    pub chip_px: f64,
    /// Vertical distance between rows.
    pub row_pitch: f64,
    /// The drawing's height (its viewBox).
    pub height: f64,
}

impl Layout {
    pub fn new(clients: usize) -> Layout {
        let n = clients.max(1);
        let cols = if n <= 6 { n } else { n.div_ceil(2) };
        let rows = n.div_ceil(cols);
        let (radius, title_px, sub_px, chip_px) = match n {
            0..=4 => (40.0, 16.0, 13.0, 12.5),
            5..=6 => (34.0, 14.0, 11.5, 11.0),
            _ => (36.0, 13.5, 10.5, 10.0),
        };
        // Equal cells across the width; a second row is shifted by half a cell.
        let pitch = WIDTH / (cols as f64 + if rows > 1 { 0.5 } else { 0.0 });
        let row_pitch = 2.0 * (radius + 14.0) + 12.0 + CHIP_LINES as f64 * (chip_px + 9.0) + 8.0;
        let last_row = FIRST_ROW_Y + (rows - 1) as f64 * row_pitch;
        let height = last_row + radius + 14.0 + 10.0 + CHIP_LINES as f64 * (chip_px + 9.0) + 6.0;
        Layout { clients: n, cols, rows, radius, pitch, title_px, sub_px, chip_px, row_pitch, height }
    }

    /// Centre of client `i` (in index order).
    pub fn pos(&self, i: usize) -> (f64, f64) {
        let (row, col) = (i / self.cols, i % self.cols);
        let y = FIRST_ROW_Y + row as f64 * self.row_pitch;
        let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
        let x = self.pitch * (col as f64 + 0.5 + shift);
        (x, y)
    }

    /// Radii of the three rings (session, heartbeat, poll) outside the body.
    pub fn ring_radius(&self, i: usize) -> f64 {
        self.radius + 4.0 + 5.0 * i as f64
    }

    /// Width available under a client for its chips.
    pub fn column_width(&self) -> f64 {
        (self.pitch - 12.0).min(if self.cols == 1 { WIDTH - 140.0 } else { 260.0 })
    }

    /// Top of the chip area under a client at height `y`.
    pub fn chips_top(&self, y: f64) -> f64 {
        y + self.radius + 14.0 + 8.0
    }
}

/// A partition (or task) chip, placed: its text and box.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    pub text: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// `None` for a chip standing for the ones that did not fit ("+3").
    pub index: Option<usize>,
}

/// Lays `labels` out as chips wrapped in lines centred on `cx` within
/// `width`, starting at `top`; what does not fit in `CHIP_LINES` lines is
/// counted in a last "+n" chip.
pub fn chips(labels: &[String], cx: f64, top: f64, width: f64, font_px: f64) -> Vec<Chip> {
    let (h, gap, pad) = (font_px + 6.0, 4.0, 5.0);
    let w_of = |s: &str| text_width(s, font_px, false) + 2.0 * pad;
    let mut lines: Vec<Vec<(usize, f64)>> = vec![Vec::new()];
    let mut used = 0.0;
    let mut overflow = 0;
    for (i, l) in labels.iter().enumerate() {
        let w = w_of(l).min(width);
        let line_w = if lines.last().unwrap().is_empty() { w } else { used + gap + w };
        if line_w > width && !lines.last().unwrap().is_empty() {
            if lines.len() == CHIP_LINES {
                overflow = labels.len() - i;
                break;
            }
            lines.push(Vec::new());
            used = w;
        } else {
            used = line_w;
        }
        lines.last_mut().unwrap().push((i, w));
    }
    if overflow > 0 {
        // Make room on the last line for "+n".
        let more = format!("+{overflow}");
        let mw = w_of(&more);
        let last = lines.last_mut().unwrap();
        while !last.is_empty() && last.iter().map(|(_, w)| w + gap).sum::<f64>() + mw > width {
            last.pop();
            overflow += 1;
        }
        last.push((usize::MAX, mw));
    }
    let more = format!("+{overflow}");
    let mut out = Vec::new();
    for (row, line) in lines.iter().enumerate() {
        let total: f64 = line.iter().map(|(_, w)| *w).sum::<f64>() + gap * line.len().saturating_sub(1) as f64;
        let mut x = cx - total / 2.0;
        let y = top + row as f64 * (h + 3.0);
        for (i, w) in line {
            let (text, index) = if *i == usize::MAX { (more.clone(), None) } else { (labels[*i].clone(), Some(*i)) };
            out.push(Chip { text, x, y, w: *w, h, index });
            x += w + gap;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
    }

    /// Every client's area (rings and chip column) is apart from every other's.
    #[test]
    fn client_areas_never_overlap_for_one_to_sixteen_clients() {
        for n in 1..=16 {
            let l = Layout::new(n);
            let area = |i: usize| {
                let (x, y) = l.pos(i);
                let w = l.column_width().max(2.0 * l.ring_radius(2));
                let bottom = l.chips_top(y) + CHIP_LINES as f64 * (l.chip_px + 9.0);
                (x - w / 2.0, y - l.ring_radius(2), w, bottom - (y - l.ring_radius(2)))
            };
            for i in 0..n {
                let a = area(i);
                assert!(
                    a.0 >= 0.0 && a.0 + a.2 <= WIDTH && a.1 + a.3 <= l.height,
                    "{n} clients: client {i} inside the drawing: {a:?}"
                );
                assert!(a.1 > BROKER_Y + BROKER_H / 2.0, "{n} clients: below the brokers");
                for j in 0..i {
                    assert!(!overlaps(a, area(j)), "{n} clients: {i} and {j} overlap");
                }
            }
        }
    }

    #[test]
    fn chips_wrap_within_their_column_and_count_what_does_not_fit() {
        let labels: Vec<String> = (0..30).map(|p| format!("orders-{p}")).collect();
        let cs = chips(&labels, 300.0, 100.0, 120.0, 10.0);
        assert!(cs.iter().all(|c| c.x >= 240.0 - 0.01 && c.x + c.w <= 360.0 + 0.01), "inside the column");
        assert_eq!(cs.iter().map(|c| (c.y * 10.0) as i64).collect::<std::collections::BTreeSet<_>>().len(), CHIP_LINES);
        let shown = cs.iter().filter(|c| c.index.is_some()).count();
        let more = cs.iter().find(|c| c.index.is_none()).expect("a +n chip");
        assert_eq!(more.text, format!("+{}", 30 - shown));
        assert!(chips(&[], 0.0, 0.0, 100.0, 10.0).is_empty());
    }
}
