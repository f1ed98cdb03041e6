//! Playing, natively: the simulation's share of a frame at 10×, as
//! tests/perf/page.mjs plays it in the browser (each case seeked to 15 s,
//! then 300 frames of 16.7 ms at 10×, so 50 simulated seconds), without the
//! page's panels and drawing. The player's checkpoints are part of it: every
//! 1,000 events or 2 simulated seconds it copies the world.
//!
//! `cargo bench --bench play` prints, per case, p50/p95/max of one frame's
//! simulating, the frames over the page's 10 ms budget (`FRAME_BUDGET_MS`,
//! what the page leaves simulating before it slows the run), the checkpoints
//! taken and the copy of the world a checkpoint makes (time and bytes, by a
//! counting allocator, with its parts). No criterion: the numbers are per frame, as the page
//! feels them.

use groupscope::player::{Action, Player, FRAME_BUDGET_MS};
use std::hint::black_box;
use std::time::Instant;

#[path = "common/mod.rs"]
mod common;
use common::{group, live};

fn pct(sorted: &[f64], p: usize) -> f64 {
    sorted[(p * sorted.len() / 100).min(sorted.len() - 1)]
}

/// The bytes a copy of `v` allocates.
fn bytes_of<T: Clone>(v: &T) -> isize {
    let before = live();
    let copy = black_box(v.clone());
    let bytes = live() - before;
    drop(copy);
    bytes
}

fn main() {
    let only = std::env::var("PLAY_CASE").ok();
    let cases = [
        ("10 members", group(10, 60, "classic")),
        ("100 members", group(100, 1000, "classic")),
        ("100 KIP-848 members", group(100, 1000, "consumer")),
    ];
    for (name, scenario) in cases {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let mut p = Player::new(scenario).expect("a valid scenario");
        p.dispatch(Action::Seek(15_000));
        p.dispatch(Action::SetSpeed(10.0));
        p.dispatch(Action::TogglePlay);
        let (events, checkpoints) = (p.events().len(), p.checkpoint_count());
        let t0 = Instant::now();
        let mut frames: Vec<f64> = (0..300)
            .map(|_| {
                let t = Instant::now();
                p.dispatch(Action::Tick(1000.0 / 60.0));
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        let total = t0.elapsed().as_secs_f64() * 1000.0;
        frames.sort_by(f64::total_cmp);
        let over = frames.iter().filter(|f| **f > FRAME_BUDGET_MS).count();
        // A checkpoint's copy: the world without its trace.
        let trace = std::mem::take(&mut p.world.trace);
        let before = live();
        let copy = black_box(p.world.clone());
        let bytes = live() - before;
        let t = Instant::now();
        for _ in 0..20 {
            black_box(p.world.clone());
        }
        let clone_ms = t.elapsed().as_secs_f64() * 1000.0 / 20.0;
        drop(copy);
        // Where the copy's bytes go.
        let w = &p.world;
        let parts = [
            ("clients", bytes_of(&w.clients)),
            ("brokers", bytes_of(&w.brokers)),
            ("cluster", bytes_of(&w.cluster)),
            ("network", bytes_of(&w.network)),
        ];
        let named: isize = parts.iter().map(|(_, b)| b).sum();
        let parts: Vec<String> = parts.iter().map(|(n, b)| format!("{n} {:.2} MB", *b as f64 / 1e6)).collect();
        p.world.trace = trace;
        println!(
            "{name}: 300 frames at 10x from 15 s to {} ms in {total:.0} ms; a frame's simulating p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms, {over} over {FRAME_BUDGET_MS} ms; {} events, {} checkpoints taken (held {}), a world copy {:.2} MB in {clone_ms:.2} ms ({}, the rest, mostly the event queue's messages in flight and the invariant monitor, {:.2} MB)",
            p.now(),
            pct(&frames, 50),
            pct(&frames, 95),
            pct(&frames, 100),
            p.events().len() - events,
            p.checkpoint_count() as isize - checkpoints as isize,
            p.checkpoint_count(),
            bytes as f64 / 1e6,
            parts.join(", "),
            (bytes - named) as f64 / 1e6,
        );
    }
}
