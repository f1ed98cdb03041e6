//! Text that must fit where the drawing puts it: a width estimate for the
//! page's sans-serif fonts, abbreviations of Kafka's long state names inside a
//! node (the full name stays in the node's tooltip and the inspector), and
//! cutting a label to a width with an ellipsis.

/// An upper estimate of the width of `text` at `font_px`, in the same units:
/// wide enough for DejaVu Sans and Noto Sans CJK (the fonts of the headless
/// browser the tests use), which are wider than most system fonts.
pub fn text_width(text: &str, font_px: f64, bold: bool) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            c if (c as u32) >= 0x2E80 => 1.0,
            'i' | 'l' | 'j' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' | ' ' => 0.34,
            'm' | 'w' | 'M' | 'W' => 0.92,
            c if c.is_ascii_uppercase() => 0.74,
            '_' | '-' | '·' | '(' | ')' => 0.5,
            _ => 0.63,
        })
        .sum();
    em * font_px * if bold { 1.1 } else { 1.0 }
}

/// A short form of a client state for the inside of a node (at most about
/// nine characters); the full name goes in the tooltip and the inspector.
/// Each word of Kafka's name keeps its start, so the name can be read back.
pub fn short_state(state: &str) -> String {
    let short = match state {
        "PREPARING_REBALANCE" => "PREP_REB",
        "COMPLETING_REBALANCE" => "COMPL_REB",
        "RECONCILING" => "RECONCIL",
        "ACKNOWLEDGING" => "ACKING",
        "UNSUBSCRIBED" => "UNSUB",
        "PREPARE_LEAVING" => "PREP_LEAVE",
        "UNREVOKED_PARTITIONS" => "UNREVOKED",
        s => s,
    };
    short.to_string()
}

/// The shortest form of a client state, for a node too small for
/// `short_state` even squeezed: at most nine characters, each word's start.
pub fn shortest_state(state: &str) -> String {
    let short = match state {
        "COMPLETING_REBALANCE" => "COMP_REB",
        "PREPARE_LEAVING" => "PREP_LEAV",
        "UNREVOKED_PARTITIONS" => "UNREVOKD",
        s => return short_state(s),
    };
    short.to_string()
}

/// `text` cut (with "…") so that it is at most `max` wide at `font_px`.
pub fn fit(text: &str, max: f64, font_px: f64, bold: bool) -> String {
    if text_width(text, font_px, bold) <= max {
        return text.to_string();
    }
    let mut out: String = text.to_string();
    while !out.is_empty() {
        out.pop();
        let candidate = format!("{}…", out.trim_end());
        if text_width(&candidate, font_px, bold) <= max {
            return candidate;
        }
    }
    "…".to_string()
}

/// A box on the drawing: left, top, right, bottom (user units).
pub type Rect = (f64, f64, f64, f64);

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Which of `boxes`, in order of priority, to draw so that no two drawn ones
/// overlap: a box is drawn unless it meets one drawn before it (`None`, a
/// label that has no place now, is never drawn). Messages flying side by
/// side (two members' JoinGroups) keep their discs; only the later label goes.
pub fn clear_of_each_other(boxes: &[Option<Rect>]) -> Vec<bool> {
    let mut drawn: Vec<Rect> = Vec::new();
    boxes
        .iter()
        .map(|b| match b {
            Some(b) if !drawn.iter().any(|d| overlap(b, d)) => {
                drawn.push(*b);
                true
            }
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_that_would_overlap_are_dropped_later_first() {
        let a = Some((0.0, 0.0, 100.0, 15.0));
        let touching_a = Some((90.0, 5.0, 190.0, 20.0));
        let beside_a = Some((100.0, 0.0, 200.0, 15.0));
        let under_a = Some((0.0, 15.0, 100.0, 30.0));
        assert_eq!(clear_of_each_other(&[a, touching_a, beside_a, under_a, None]), [true, false, true, true, false]);
        // The order is the priority: the same boxes the other way round keep the later one.
        assert_eq!(clear_of_each_other(&[touching_a, a]), [true, false]);
    }

    #[test]
    fn long_states_are_shortened_and_labels_cut_to_fit() {
        assert_eq!(short_state("PREPARING_REBALANCE"), "PREP_REB");
        assert_eq!(short_state("STABLE"), "STABLE");
        for s in [
            "PREPARING_REBALANCE",
            "COMPLETING_REBALANCE",
            "RECONCILING",
            "ACKNOWLEDGING",
            "UNSUBSCRIBED",
            "PREPARE_LEAVING",
            "UNREVOKED_PARTITIONS",
        ] {
            let (a, b) = (short_state(s), shortest_state(s));
            assert!(
                a.len() <= 10 && b.len() <= 9 && text_width(&b, 10.0, false) <= text_width(&a, 10.0, false),
                "{s}: {a} {b}"
            );
            // Every word of the shortest forms starts as a word of Kafka's name does.
            for w in b.split('_') {
                assert!(s.split('_').any(|k| k.starts_with(&w[..w.len().min(3)])), "{s}: {b}");
            }
        }
        let cut = fit("coordinator of payments-consumers (p12)", 120.0, 11.0, false);
        assert!(cut.ends_with('…') && text_width(&cut, 11.0, false) <= 120.0, "{cut}");
        assert_eq!(fit("broker-1", 120.0, 11.0, false), "broker-1");
        assert!(text_width("消费者组", 10.0, false) > text_width("abcd", 10.0, false));
    }
}
