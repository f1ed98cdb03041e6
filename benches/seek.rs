//! Seeking (the timeline scrubber), natively: a run is played to its end, then
//! the playhead jumps to seeded random moments, as a drag across the timeline
//! does. Cases as in tests/perf/seek.mjs: the demo (3 members) over 5
//! simulated minutes, 10 members (60 partitions) over 10 minutes, 100 members
//! (1,000 partitions, classic and KIP-848) over 2 minutes.
//!
//! `cargo bench --bench seek` prints, per case, p50/p95/max of 200 seeks, the
//! events, checkpoints and the heap the player holds (a counting allocator),
//! then criterion's estimate of one seek (`cargo bench --bench seek -- --quick`
//! for a short run; `SEEK_SUMMARY_ONLY=1` skips criterion).

use criterion::Criterion;
use groupscope::player::{Action, Player};
use groupscope::sim::Scenario;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/mod.rs"]
mod common;
use common::{group, live};

fn cases() -> Vec<(&'static str, Scenario, u64)> {
    vec![
        ("demo, 3 members, 5 min", Scenario::demo(), 300_000),
        ("10 members, 10 min", group(10, 60, "classic"), 600_000),
        ("100 members, 2 min", group(100, 1000, "classic"), 120_000),
        ("100 KIP-848 members, 2 min", group(100, 1000, "consumer"), 120_000),
    ]
}

/// Seeded seek targets over the run: mostly a drag (small steps either way),
/// sometimes a jump anywhere.
fn targets(end: u64, n: usize) -> Vec<u64> {
    let mut seed: u64 = 42;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut at = end / 2;
    (0..n)
        .map(|_| {
            at = if next() % 4 == 0 {
                next() % end
            } else {
                (at + next() % (end / 50)).saturating_sub(end / 100).min(end)
            };
            at
        })
        .collect()
}

fn played(scenario: &Scenario, end: u64) -> Player {
    let mut p = Player::new(scenario.clone()).expect("a valid scenario");
    p.dispatch(Action::Seek(end));
    p
}

fn pct(sorted: &[Duration], p: usize) -> f64 {
    sorted[(p * sorted.len() / 100).min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

fn summary() {
    for (name, scenario, end) in cases() {
        let before = live();
        let t0 = Instant::now();
        let mut p = played(&scenario, end);
        let play = t0.elapsed();
        let held = live() - before;
        let events = p.events().len();
        // A checkpoint's copy: the world without its trace.
        let trace = std::mem::take(&mut p.world.trace);
        let before = live();
        let copy = black_box(p.world.clone());
        let world_bytes = live() - before;
        let t0 = Instant::now();
        let copies = 20;
        for _ in 0..copies {
            black_box(p.world.clone());
        }
        let clone_ms = t0.elapsed().as_secs_f64() * 1000.0 / copies as f64;
        drop(copy);
        p.world.trace = trace;
        let mut times: Vec<Duration> = targets(end, 200)
            .into_iter()
            .map(|t| {
                let t0 = Instant::now();
                p.dispatch(Action::Seek(t));
                t0.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "{name}: {} events, played in {:.0} ms, holding {:.1} MB ({} checkpoints; a checkpoint {:.2} MB, copied in {:.2} ms); seek p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            events,
            play.as_secs_f64() * 1000.0,
            held as f64 / 1e6,
            p.checkpoint_count(),
            world_bytes as f64 / 1e6,
            clone_ms,
            pct(&times, 50),
            pct(&times, 95),
            pct(&times, 100),
        );
    }
}

fn bench(c: &mut Criterion) {
    for (name, scenario, end) in cases() {
        let mut p = played(&scenario, end);
        let ts = targets(end, 64);
        let mut i = 0;
        c.bench_function(&format!("seek: {name}"), |b| {
            b.iter(|| {
                i = (i + 1) % ts.len();
                p.dispatch(Action::Seek(black_box(ts[i])));
            })
        });
    }
}

fn main() {
    summary();
    if std::env::var_os("SEEK_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args().sample_size(20);
        bench(&mut c);
        c.final_summary();
    }
}
