//! Where the drawing puts things, chosen so that nothing overlaps for 1-16
//! clients and 1-5 brokers: brokers in a row at the top, clients in one row
//! (up to six) or two staggered rows (7-16), each client with a column below
//! it for its partition chips. Larger groups use the compact grid (`mod.rs`).
//! On a phone the narrow frame puts clients in up to three columns and
//! doubles the type, so labels stay at 10 px or more on a 360 px screen.
//! Presenter mode's frame is drawn about 1.31 times its units at 1280x720:
//! its type of 12.5 units or more renders at 16 px or more.

use super::labels::text_width;
use super::WIDTH;

/// The broker row: its centre line and the size of a broker's box.
pub const BROKER_Y: f64 = 62.0;
pub const BROKER_H: f64 = 84.0;
/// Centre line of the first client row.
const FIRST_ROW_Y: f64 = 250.0;
/// At most this many lines of partition chips under a client.
pub const CHIP_LINES: usize = 3;

/// The presenter frame's drawing at 1280x720: 960 units on about 1261 px
/// (the screen less the page's margins), when it is at most this tall; its
/// smallest type (12.5 units) then renders at 16 px or more.
pub const PRESENTER_SCALE: f64 = 1.31;
pub const PRESENTER_MAX_HEIGHT: f64 = 414.0;
/// The smallest type of the presenter frame, in user units.
pub const PRESENTER_MIN_PX: f64 = 12.5;

/// Which drawing: the wide one (laptops, projectors) or the narrow one of a
/// phone, whose 960 user units are shown about 370 px wide: its clients sit
/// in up to three columns, every size is doubled (type of 28 units or more
/// renders at 10 px on a 360 px screen), and a broker shows its name and role
/// only (what it leads is in its tooltip and the inspector).
/// Presenter mode's drawing fills a projected screen: up to eight clients in
/// one row, 9-16 in two staggered rows of up to eight, larger nodes, type of
/// 12.5 units or more, and brokers with their name and role (wrapped) only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Frame {
    #[default]
    Wide,
    Narrow,
    Presenter,
}

/// The smallest type of the narrow frame, in user units.
pub const NARROW_MIN_PX: f64 = 28.0;

/// Baseline to baseline of a broker's role lines on a phone
/// (`view::roles::narrow_role`): the rendered line's height, Chinese included
/// (Noto Sans CJK's glyph boxes are taller than the Latin ones'), so two
/// lines' boxes do not touch.
pub const NARROW_ROLE_STEP: f64 = 40.0;

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
    /// The generation line under the state.
    pub gen_px: f64,
    /// How much margins, strokes and markers are scaled (1 wide, 2 narrow).
    pub unit: f64,
    pub frame: Frame,
    /// Centre line of the broker row, a broker box's top and height (with one
    /// line of its role), and the first client row.
    pub broker_y: f64,
    pub broker_top: f64,
    pub broker_h: f64,
    pub first_row_y: f64,
    /// How much a broker's box grows for each further line of its role.
    pub role_step: f64,
    /// At most this many lines of chips under a client (`CHIP_LINES`, or two
    /// in the presenter frame's two rows).
    pub chip_lines: usize,
    /// Vertical distance between rows.
    pub row_pitch: f64,
    /// The drawing's height (its viewBox).
    pub height: f64,
}

impl Layout {
    pub fn new(clients: usize) -> Layout {
        Layout::framed(clients, Frame::Wide)
    }

    pub fn framed(clients: usize, frame: Frame) -> Layout {
        let n = clients.max(1);
        let narrow = frame == Frame::Narrow;
        let presenter = frame == Frame::Presenter;
        let cols = match (frame, n) {
            (Frame::Wide, 0..=6) | (Frame::Presenter, 0..=8) => n,
            (Frame::Wide | Frame::Presenter, _) => n.div_ceil(2),
            (Frame::Narrow, 0..=1) => 1,
            (Frame::Narrow, 2..=4) => 2,
            (Frame::Narrow, _) => 3,
        };
        let rows = n.div_ceil(cols);
        let (radius, title_px, sub_px, chip_px) = match (frame, n) {
            (Frame::Narrow, _) => (92.0, 32.0, NARROW_MIN_PX, NARROW_MIN_PX),
            (Frame::Presenter, 0..=4) => (52.0, 18.0, 15.0, 15.0),
            (Frame::Presenter, 5..=6) => (48.0, 16.0, 14.0, 14.0),
            (Frame::Presenter, 7..=8) => (44.0, 15.0, 13.0, 13.0),
            (Frame::Presenter, _) => (40.0, 14.0, PRESENTER_MIN_PX, PRESENTER_MIN_PX),
            (Frame::Wide, 0..=4) => (40.0, 16.0, 13.0, 12.5),
            (Frame::Wide, 5..=6) => (34.0, 14.0, 11.5, 11.0),
            (Frame::Wide, _) => (36.0, 13.5, 10.5, 10.0),
        };
        let (gen_px, unit) = match frame {
            Frame::Narrow => (sub_px, 2.0),
            Frame::Presenter => (sub_px, 1.0),
            Frame::Wide => (sub_px * 0.92, 1.0),
        };
        let lines = if presenter && rows > 1 { 2 } else { CHIP_LINES };
        // Presenter: a broker's box (name and one line of role) runs from 6 to
        // 56; one row of clients leaves room for two more role lines and the
        // messages, two rows for one more line (the outer ring starts at 76).
        // Its links start 40 units under `broker_y`, at the box's bottom.
        let (broker_y, broker_top, broker_h, role_step) = match frame {
            Frame::Narrow => (62.0, 16.0, 100.0, NARROW_ROLE_STEP),
            Frame::Presenter => (18.0, 6.0, 50.0, 17.0),
            Frame::Wide => (BROKER_Y, BROKER_Y - 38.0, BROKER_H, 15.0),
        };
        // Narrow: the broker box ends at 116; the outer ring starts 50 units below it.
        let first_row_y = match frame {
            Frame::Narrow => 290.0,
            Frame::Presenter if rows > 1 => 76.0 + radius + 14.0,
            Frame::Presenter => 130.0 + radius + 14.0,
            Frame::Wide => FIRST_ROW_Y,
        };
        // Equal cells across the width; a second wide row is shifted by half a cell.
        let pitch = WIDTH / (cols as f64 + if rows > 1 && !narrow { 0.5 } else { 0.0 });
        let chip_lines = lines as f64 * (chip_px + 9.0);
        let row_pitch = 2.0 * (radius + 14.0 * unit) + 12.0 * unit + chip_lines + 8.0 * unit;
        let last_row = first_row_y + (rows - 1) as f64 * row_pitch;
        let height = last_row + radius + 24.0 * unit + chip_lines + 6.0 * unit;
        Layout {
            clients: n,
            cols,
            rows,
            radius,
            pitch,
            title_px,
            sub_px,
            chip_px,
            gen_px,
            unit,
            frame,
            broker_y,
            broker_top,
            broker_h,
            first_row_y,
            role_step,
            chip_lines: lines,
            row_pitch,
            height,
        }
    }

    /// Centre of client `i` (in index order).
    pub fn pos(&self, i: usize) -> (f64, f64) {
        let (row, col) = (i / self.cols, i % self.cols);
        let y = self.first_row_y + row as f64 * self.row_pitch;
        let shift = if row % 2 == 1 && self.frame != Frame::Narrow { 0.5 } else { 0.0 };
        let x = self.pitch * (col as f64 + 0.5 + shift);
        (x, y)
    }

    /// How much taller than `broker_h` a broker's box is with `lines` lines of role.
    pub fn broker_extra(&self, lines: usize) -> f64 {
        self.role_step * lines.saturating_sub(1) as f64
    }

    /// Radii of the three rings (session, heartbeat, poll) outside the body.
    pub fn ring_radius(&self, i: usize) -> f64 {
        self.radius + (4.0 + 5.0 * i as f64) * self.unit
    }

    /// Width available under a client for its chips.
    pub fn column_width(&self) -> f64 {
        let cap = match (self.cols, self.frame) {
            (1, _) => WIDTH - 140.0,
            (_, Frame::Narrow) => WIDTH,
            _ => 260.0,
        };
        (self.pitch - 12.0 * self.unit).min(cap)
    }

    /// Top of the chip area under a client at height `y`.
    pub fn chips_top(&self, y: f64) -> f64 {
        y + self.radius + 22.0 * self.unit
    }
}

/// The compact drawing of a large group (more than 16 clients) on a phone:
/// discs in `GRID_COLS` columns, one row after another, so each name keeps
/// the narrow frame's type (28 units, 10 px on a 360 px screen) however many
/// clients there are; the drawing grows downwards and the page scrolls.
pub mod compact_narrow {
    use super::{NARROW_MIN_PX, WIDTH};
    pub const GRID_COLS: usize = 5;
    /// Top of the first row's cells (below the narrow broker boxes, which end at 116).
    pub const TOP: f64 = 150.0;
    pub const CELL_H: f64 = 110.0;
    /// A disc's radius and its name's size (user units).
    pub const RADIUS: f64 = 44.0;
    pub const NAME_PX: f64 = NARROW_MIN_PX;

    /// Centre of client `i`.
    pub fn pos(i: usize) -> (f64, f64) {
        let cw = WIDTH / GRID_COLS as f64;
        (cw * ((i % GRID_COLS) as f64 + 0.5), TOP + CELL_H * ((i / GRID_COLS) as f64 + 0.5))
    }

    /// The drawing's height for `n` clients.
    pub fn height(n: usize) -> f64 {
        TOP + CELL_H * n.div_ceil(GRID_COLS).max(1) as f64 + 16.0
    }
}

/// The compact drawing of a large group (more than 16 clients) in presenter
/// mode: discs in a grid under the brokers, each name on its disc at the
/// presenter frame's smallest type (12.5 units, 16 px at 1280x720). Up to 120
/// clients the grid fits the projected screen (cells about as wide as
/// tall); beyond, cells keep a readable size and the drawing grows downwards.
pub mod compact_presenter {
    use super::{text_width, PRESENTER_MAX_HEIGHT, PRESENTER_MIN_PX, WIDTH};
    /// Top of the grid: under broker boxes of up to three role lines and the
    /// messages leaving them.
    pub const TOP: f64 = 110.0;
    const SIDE: f64 = 20.0;
    const BOTTOM_MARGIN: f64 = 12.0;
    /// A cell is never narrower than this: room for "c500" (`MAX_CONSUMERS`).
    pub const MIN_CELL: f64 = 46.0;
    const MAX_RADIUS: f64 = 32.0;
    pub const NAME_PX: f64 = PRESENTER_MIN_PX;

    /// Columns, rows and the cell's width and height for `n` clients.
    fn grid(n: usize) -> (usize, usize, f64, f64) {
        let n = n.max(1);
        let (w, h) = (WIDTH - 2.0 * SIDE, PRESENTER_MAX_HEIGHT - TOP - BOTTOM_MARGIN);
        let mut cols = ((n as f64 * w / h).sqrt().ceil() as usize).clamp(1, n);
        if w / (cols as f64) < MIN_CELL {
            cols = (w / MIN_CELL).floor() as usize;
        }
        let rows = n.div_ceil(cols);
        let cw = w / cols as f64;
        let ch = (h / rows as f64).clamp(MIN_CELL, cw * 1.2);
        (cols, rows, cw, ch)
    }

    /// Centre of client `i` of `n`.
    pub fn pos(i: usize, n: usize) -> (f64, f64) {
        let (cols, _, cw, ch) = grid(n);
        (SIDE + cw * ((i % cols) as f64 + 0.5), TOP + ch * ((i / cols) as f64 + 0.5))
    }

    /// A disc's radius for `n` clients.
    pub fn radius(n: usize) -> f64 {
        let (_, _, cw, ch) = grid(n);
        (0.42 * cw.min(ch)).min(MAX_RADIUS)
    }

    /// The drawing's height for `n` clients.
    pub fn height(n: usize) -> f64 {
        let (_, rows, _, ch) = grid(n);
        (TOP + ch * rows as f64 + BOTTOM_MARGIN).max(PRESENTER_MAX_HEIGHT)
    }

    /// True if the name stays within its cell (clear of its neighbours' names;
    /// a long name may be wider than a small disc).
    pub fn name_fits(name: &str, n: usize) -> bool {
        let (_, _, cw, _) = grid(n);
        text_width(name, NAME_PX, false) <= cw - 6.0
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
/// `width`, starting at `top`; what does not fit in `max_lines` lines is
/// counted in a last "+n" chip.
pub fn chips(labels: &[String], cx: f64, top: f64, width: f64, font_px: f64, max_lines: usize) -> Vec<Chip> {
    let (h, gap, pad) = (font_px + 6.0, 4.0, 5.0);
    let w_of = |s: &str| text_width(s, font_px, false) + 2.0 * pad;
    let mut lines: Vec<Vec<(usize, f64)>> = vec![Vec::new()];
    let mut used = 0.0;
    let mut overflow = 0;
    for (i, l) in labels.iter().enumerate() {
        let w = w_of(l).min(width);
        let line_w = if lines.last().unwrap().is_empty() { w } else { used + gap + w };
        if line_w > width && !lines.last().unwrap().is_empty() {
            if lines.len() == max_lines {
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

    /// Client `i`'s area: its outer ring and its chip column.
    fn area(l: &Layout, i: usize) -> (f64, f64, f64, f64) {
        let (x, y) = l.pos(i);
        let w = l.column_width().max(2.0 * l.ring_radius(2));
        let bottom = l.chips_top(y) + l.chip_lines as f64 * (l.chip_px + 9.0);
        (x - w / 2.0, y - l.ring_radius(2), w, bottom - (y - l.ring_radius(2)))
    }

    fn overlaps(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
    }

    /// Every client's area of `l` is inside the drawing, below `brokers` and
    /// apart from every other's.
    fn assert_apart(l: &Layout, brokers: f64) {
        let n = l.clients;
        for i in 0..n {
            let a = area(l, i);
            assert!(
                a.0 >= 0.0 && a.0 + a.2 <= WIDTH && a.1 + a.3 <= l.height,
                "{n} clients: client {i} inside the drawing: {a:?}"
            );
            assert!(a.1 > brokers, "{n} clients: below the brokers ({} > {brokers})", a.1);
            for j in 0..i {
                assert!(!overlaps(a, area(l, j)), "{n} clients: {i} and {j} overlap");
            }
        }
    }

    /// Every client's area (rings and chip column) is apart from every other's.
    #[test]
    fn client_areas_never_overlap_for_one_to_sixteen_clients() {
        for n in 1..=16 {
            assert_apart(&Layout::new(n), BROKER_Y + BROKER_H / 2.0);
        }
    }

    /// The phone's drawing: the same guarantees, and type that renders at 10 px
    /// or more when the 960 units are drawn 348 px wide (a 360 px phone).
    #[test]
    fn the_narrow_frame_keeps_areas_apart_and_type_legible_on_a_phone() {
        for n in 1..=16 {
            let l = Layout::framed(n, Frame::Narrow);
            assert!(l.cols <= 3, "{n} clients: {} columns", l.cols);
            let scale = 348.0 / WIDTH;
            for px in [l.title_px, l.sub_px, l.gen_px, l.chip_px] {
                assert!(px * scale >= 10.0, "{n} clients: type of {px} units renders at {:.1} px", px * scale);
            }
            assert_apart(&l, l.broker_top + l.broker_h);
        }
        assert_eq!(Layout::new(7), Layout::framed(7, Frame::Wide));
    }

    /// Presenter mode at 1280x720 (the drawing 1261 px wide): at most two rows
    /// of at most eight, type that renders at 16 px or more, areas apart and
    /// inside, the first row under a broker box of three role lines (one row)
    /// or two (two rows), and a drawing short enough to be scaled by its width.
    #[test]
    fn the_presenter_grid_of_a_large_group_keeps_names_in_their_cells_at_16_px_and_discs_apart() {
        use super::compact_presenter as g;
        const { assert!(g::NAME_PX * PRESENTER_SCALE >= 16.0) };
        for n in (17..=120).chain([150, 200, 400, crate::sim::scenario::MAX_CONSUMERS as usize]) {
            let r = g::radius(n);
            let name = format!("c{n}");
            assert!(g::name_fits(&name, n), "{n} clients: \"{name}\" is wider than its cell");
            let ps: Vec<(f64, f64)> = (0..n).map(|i| g::pos(i, n)).collect();
            for (i, &(x, y)) in ps.iter().enumerate() {
                assert!(x - r >= 0.0 && x + r <= WIDTH, "{n} clients: c{} leaves the width", i + 1);
                assert!(y - r >= g::TOP - 6.0 && y + r <= g::height(n), "{n} clients: c{} at {y}", i + 1);
                if let Some(&(nx, ny)) = ps.get(i + 1) {
                    assert!((nx - x).hypot(ny - y) >= 2.0 * r + 4.0, "{n} clients: c{} and c{} touch", i + 1, i + 2);
                }
            }
            if n <= 120 {
                assert!(g::height(n) <= PRESENTER_MAX_HEIGHT, "{n} clients fit the projected screen");
            }
        }
    }

    #[test]
    fn the_presenter_frame_keeps_areas_apart_and_type_at_16_px_at_1280x720() {
        for n in 1..=16 {
            let l = Layout::framed(n, Frame::Presenter);
            assert!(l.rows <= 2 && l.cols <= 8, "{n} clients: {} rows of {}", l.rows, l.cols);
            assert!(l.height <= PRESENTER_MAX_HEIGHT, "{n} clients: {} units tall", l.height);
            for px in [l.title_px, l.sub_px, l.gen_px, l.chip_px] {
                assert!(
                    px * PRESENTER_SCALE >= 16.0,
                    "{n} clients: {px} units render at {:.1} px",
                    px * PRESENTER_SCALE
                );
            }
            let role_lines = if l.rows > 1 { 2 } else { 3 };
            assert_apart(&l, l.broker_top + l.broker_h + l.broker_extra(role_lines));
        }
    }

    /// A large group on a phone (17 clients or more): names stay at 10 px or more
    /// on a 360 px screen (the drawing 348 px wide), discs apart and inside.
    #[test]
    fn the_narrow_compact_grid_keeps_names_legible_for_large_groups() {
        use compact_narrow::*;
        let scale = 348.0 / WIDTH;
        assert!(NAME_PX * scale >= 10.0, "names render at {:.1} px", NAME_PX * scale);
        for n in [17, 20, 40, 100, 250] {
            let h = height(n);
            let name_w = text_width(&format!("c{n}"), NAME_PX, false);
            assert!(name_w < 2.0 * RADIUS - 4.0, "{n} clients: the name ({name_w:.0} units) fits its disc");
            for i in 0..n {
                let (x, y) = pos(i);
                assert!(
                    x - RADIUS >= 0.0 && x + RADIUS <= WIDTH && y - RADIUS > 116.0 && y + RADIUS <= h,
                    "{n}: disc {i} inside"
                );
                for j in 0..i {
                    let (a, b) = pos(j);
                    assert!((x - a).hypot(y - b) > 2.0 * RADIUS + 8.0, "{n}: discs {i} and {j} apart");
                }
            }
        }
    }

    #[test]
    fn chips_wrap_within_their_column_and_count_what_does_not_fit() {
        let labels: Vec<String> = (0..30).map(|p| format!("orders-{p}")).collect();
        let cs = chips(&labels, 300.0, 100.0, 120.0, 10.0, CHIP_LINES);
        assert!(cs.iter().all(|c| c.x >= 240.0 - 0.01 && c.x + c.w <= 360.0 + 0.01), "inside the column");
        assert_eq!(cs.iter().map(|c| (c.y * 10.0) as i64).collect::<std::collections::BTreeSet<_>>().len(), CHIP_LINES);
        let shown = cs.iter().filter(|c| c.index.is_some()).count();
        let more = cs.iter().find(|c| c.index.is_none()).expect("a +n chip");
        assert_eq!(more.text, format!("+{}", 30 - shown));
        assert!(chips(&[], 0.0, 0.0, 100.0, 10.0, CHIP_LINES).is_empty());
        let two = chips(&labels, 300.0, 100.0, 120.0, 10.0, 2);
        assert_eq!(two.iter().map(|c| (c.y * 10.0) as i64).collect::<std::collections::BTreeSet<_>>().len(), 2);
    }
}
