//! The metrics table `simulate --compare` prints.

use super::RunResult;

const HEADERS: [&str; 7] = [
    "variant",
    "rebalances",
    "unavailable (partition-ms)",
    "longest stop-the-world (ms)",
    "partitions moved",
    "redelivered",
    "time to stable (ms)",
];

/// One row per variant, columns aligned.
pub fn render(results: &[RunResult]) -> String {
    let rows: Vec<[String; 7]> = results
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
                m.time_to_stable_ms.map_or("never".into(), |t| t.to_string()),
            ]
        })
        .collect();
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).chain([HEADERS[i].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..7).map(width).collect();
    // Padded by hand: `format!`'s width argument is limited to u16 (a variant
    // name of 65,536 characters made it panic).
    let pad = |s: &str, w: usize| " ".repeat(w.saturating_sub(s.chars().count()));
    let line = |cells: [&str; 7]| {
        let mut s = format!("{}{}", cells[0], pad(cells[0], widths[0]));
        for i in 1..7 {
            s += &format!("  {}{}", pad(cells[i], widths[i]), cells[i]);
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(HEADERS);
    for r in &rows {
        out += &line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6]]);
    }
    out
}
