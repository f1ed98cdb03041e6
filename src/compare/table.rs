//! The metrics table `simulate --compare` prints.

use super::RunResult;

const HEADERS: [&str; 7] =
    ["variant", "rebalances", "unavailable (partition-ms)", "longest stop-the-world (ms)", "partitions moved", "redelivered", "time to stable (ms)"];

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
    let line = |cells: [&str; 7]| {
        let mut s = format!("{:<w$}", cells[0], w = widths[0]);
        for i in 1..7 {
            s += &format!("  {:>w$}", cells[i], w = widths[i]);
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(HEADERS);
    for r in &rows {
        out += &line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6]]);
    }
    out
}
