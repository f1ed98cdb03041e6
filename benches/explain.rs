//! Explaining a 100,000-line log, natively (issue 35: under 5 s). The log is the real logs of
//! tests/fixtures/real-logs, every dialect and layout among them, repeated with their group
//! names suffixed per copy (so there are many groups, as in a big shared log) until 100,000
//! lines; it is fed in 256 KiB chunks as the CLI and the page feed files.
//!
//! `cargo bench --bench explain` prints the lines, the time of each of 5 runs and the median,
//! and what was found (groups, rebalances, unread lines).

use groupscope::explain::Explainer;
use std::path::Path;
use std::time::Instant;

const LINES: usize = 100_000;

fn corpus() -> Vec<(String, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/real-logs")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).expect("a log")).into_owned();
            let side: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p.with_extension("json")).expect("a sidecar"))
                    .expect("json");
            let groups = side["labels"]["groups"]
                .as_array()
                .map(|a| a.iter().filter_map(|g| g.as_str().map(String::from)).collect())
                .unwrap_or_default();
            (text, groups)
        })
        .collect()
}

fn big_log() -> String {
    let files = corpus();
    let mut out = String::new();
    let mut lines = 0;
    let mut copy = 0;
    while lines < LINES {
        for (text, groups) in &files {
            let mut t = text.clone();
            for g in groups.iter().filter(|g| g.len() > 3) {
                t = t.replace(g.as_str(), &format!("{g}-{copy}"));
            }
            for l in t.lines() {
                if lines == LINES {
                    break;
                }
                out.push_str(l);
                out.push('\n');
                lines += 1;
            }
        }
        copy += 1;
    }
    out
}

fn main() {
    let log = big_log();
    println!("{} lines, {} bytes", log.lines().count(), log.len());
    let mut times = Vec::new();
    for run in 0..5 {
        let t0 = Instant::now();
        let mut x = Explainer::new();
        let f = x.begin_file("big.log");
        for chunk in log.as_bytes().chunks(256 * 1024) {
            x.feed_bytes(f, chunk);
        }
        x.end_file(f);
        let r = x.finish();
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        let rebalances: usize = r.groups.iter().map(|g| g.rebalances.len()).sum();
        println!(
            "run {run}: {ms:.0} ms; {} groups, {rebalances} rebalances, {} lines not recognised, {} unread coordination lines",
            r.groups.len(),
            r.lines_unparsed,
            r.unread_count
        );
    }
    times.sort_by(f64::total_cmp);
    println!("median {:.0} ms for {LINES} lines", times[2]);
}
