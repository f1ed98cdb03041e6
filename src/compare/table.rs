//! The metrics table `simulate --compare` prints.

use super::RunResult;

const COLUMNS: usize = 9;

const HEADERS: [&str; COLUMNS] = [
    "variant",
    "rebalances",
    "unavailable (partition-ms)",
    "longest stop-the-world (ms)",
    "partitions moved",
    "redelivered",
    "work resumed (ms)",
    "out of order",
    "time to stable (ms)",
];

/// One row per variant, columns aligned.
pub fn render(results: &[RunResult]) -> String {
    let rows: Vec<[String; COLUMNS]> = results
        .iter()
        .map(|r| {
            let m = &r.metrics;
            [
                r.variant.clone(),
                m.rebalances.to_string(),
                m.unavailable_ms.to_string(),
                m.longest_stop_the_world_ms.to_string(),
                m.partitions_moved.to_string(),
                m.records_redelivered.to_string(),
                match (m.work_resumed_ms, m.last_member_stop_ms) {
                    (Some(t), _) => t.to_string(),
                    (None, Some(_)) => "not yet".into(),
                    (None, None) => "-".into(),
                },
                m.records_out_of_order.to_string(),
                m.time_to_stable_ms.map_or("never".into(), |t| t.to_string()),
            ]
        })
        .collect();
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).chain([HEADERS[i].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..COLUMNS).map(width).collect();
    // Padded by hand: `format!`'s width argument is limited to u16 (a variant
    // name of 65,536 characters made it panic).
    let pad = |s: &str, w: usize| " ".repeat(w.saturating_sub(s.chars().count()));
    let line = |cells: [&str; COLUMNS]| {
        let mut s = format!("{}{}", cells[0], pad(cells[0], widths[0]));
        for i in 1..COLUMNS {
            s += &format!("  {}{}", pad(cells[i], widths[i]), cells[i]);
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(HEADERS);
    for r in &rows {
        out += &line(std::array::from_fn(|i| r[i].as_str()));
    }
    out
}
