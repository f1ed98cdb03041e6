//! Seeded, structure-aware fuzzing of every input format: scenarios,
//! comparisons, assignor cases, fault-menu lines, permalinks and lesson files.
//! Each case mutates a valid input (a number set to a boundary, a field of the
//! wrong type, deleted or unknown, a long or hostile string, an array where an
//! object goes), then reads it as the page and the CLIs do and, if accepted,
//! runs it. Asserted: no panic, no run past its step budget (a livelock at
//! one simulated instant included), allocation within a budget, and that a
//! rejection names the mutated field (reported; at least 95 % required).
//!
//! `cargo test --test fuzz` runs a few dozen cases per format; for a long run
//! `GROUPSCOPE_FUZZ_CASES=10000 cargo test --release --test fuzz -- --nocapture`
//! (`GROUPSCOPE_FUZZ_SEED` picks another seed).
#![cfg(not(target_arch = "wasm32"))]

use groupscope::assign::case::assign_text;
use groupscope::compare::Comparison;
use groupscope::permalink::Permalink;
use groupscope::player::{Action, Player};
use groupscope::sim::fault::FORM_KINDS;
use groupscope::sim::{Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- allocation

/// Counts the bytes held, and refuses (aborting the test) past `HARD_LIMIT`.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
const HARD_LIMIT: usize = 4 << 30;
/// What one case may hold at its peak, above what was held before it.
const CASE_BUDGET: usize = 512 << 20;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if held > HARD_LIMIT {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        PEAK.fetch_max(held, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

// ---------------------------------------------------------------- budgets

/// Simulated time an accepted scenario runs for.
const RUN_MS: u64 = 4_000;
/// Steps an accepted run may take in all, and at one simulated instant.
const STEP_BUDGET: u64 = 400_000;
const INSTANT_BUDGET: u64 = 50_000;
/// Wall time one case may take (an assignor call, a permalink's restore).
const WALL_BUDGET: Duration = Duration::from_secs(60);

/// Runs `w` to `until`, or says how it overran its budget.
fn run_world(w: &mut World, until: u64) -> Result<(), String> {
    let (mut steps, mut at_instant, mut instant) = (0u64, 0u64, w.now);
    while w.next_time().is_some_and(|t| t <= until) {
        w.step();
        steps += 1;
        if w.now == instant {
            at_instant += 1;
        } else {
            (instant, at_instant) = (w.now, 0);
        }
        if at_instant > INSTANT_BUDGET {
            return Err(format!("livelock: {at_instant} steps at {instant} ms"));
        }
        if steps > STEP_BUDGET {
            return Err(format!("{steps} steps before {until} ms"));
        }
    }
    w.run_until(until);
    Ok(())
}

// ---------------------------------------------------------------- mutation

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn paths(v: &Value, here: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Seg::Key(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(xs) => {
            for (i, x) in xs.iter().enumerate() {
                here.push(Seg::Index(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.get_mut(k.as_str()),
        Seg::Index(i) => v.get_mut(*i),
    })
}

/// The names an error about `path` should mention: its last key (and the
/// key above an index).
fn names_of(path: &[Seg]) -> Vec<String> {
    path.iter()
        .rev()
        .find_map(|s| if let Seg::Key(k) = s { Some(vec![k.clone()]) } else { None })
        .unwrap_or_else(|| vec!["the top level".into()])
}

const NUMBERS: [&str; 22] = [
    "0",
    "1",
    "2",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1e308",
    "0.5",
    "-0",
    "100000000",
    "3",
    "7",
];

fn strings(rng: &mut ChaCha8Rng) -> Value {
    let long = "x".repeat(rng.gen_range(250..3000));
    let pick = [
        "",
        " ",
        "c99",
        "c0",
        "broker-99",
        "broker-",
        "__consumer_offsets",
        "<img src=x onerror=alert(1)>",
        "消费者组",
        "a b",
        "orders",
        "HashMap(18446744073709551615)",
        "HashMap(1073741824)",
        "\u{0}",
        "range",
        "uniform",
        "consumer",
        "demo",
        "c1",
        "broker-0",
    ];
    if rng.gen_bool(0.15) {
        Value::String(long)
    } else {
        Value::String(pick[rng.gen_range(0..pick.len())].to_string())
    }
}

fn number(rng: &mut ChaCha8Rng, old: Option<&Value>) -> Value {
    if let (Some(n), true) = (old.and_then(Value::as_u64), rng.gen_bool(0.3)) {
        let v = match rng.gen_range(0..4) {
            0 => n.saturating_add(1),
            1 => n.saturating_sub(1),
            2 => n.saturating_mul(1000),
            _ => n / 2,
        };
        return json!(v);
    }
    serde_json::from_str(NUMBERS[rng.gen_range(0..NUMBERS.len())]).unwrap_or(json!(0))
}

/// One mutation of `v`; returns the field names a rejection should mention.
fn mutate(v: &mut Value, rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    let path = all[rng.gen_range(0..all.len())].clone();
    let names = names_of(&path);
    let Some(target) = get_mut(v, &path) else { return names };
    let op = rng.gen_range(0..100);
    match target {
        Value::Number(_) if op < 70 => *target = number(rng, Some(target)),
        Value::String(_) if op < 60 => *target = strings(rng),
        Value::Object(m) if op < 25 && !m.is_empty() => {
            let k = m.keys().nth(rng.gen_range(0..m.len())).cloned().unwrap_or_default();
            m.remove(&k);
            return vec![k];
        }
        Value::Object(m) if op < 45 => {
            let k = ["topic", "consumer", "zzz", "groupID", "session.timeout", "max.poll.interval"]
                [rng.gen_range(0..6)]
            .to_string();
            m.insert(k.clone(), number(rng, None));
            return vec![k];
        }
        Value::Array(xs) if op < 30 && !xs.is_empty() => {
            let i = rng.gen_range(0..xs.len());
            let x = xs[i].clone();
            xs.push(x);
        }
        Value::Array(xs) if op < 50 && !xs.is_empty() => {
            xs.remove(rng.gen_range(0..xs.len()));
        }
        _ => {
            *target = match rng.gen_range(0..8) {
                0 => Value::Null,
                1 => json!(true),
                2 => json!([]),
                3 => json!({}),
                4 => json!([1, "two", 3]),
                5 => strings(rng),
                _ => number(rng, None),
            };
        }
    }
    names
}

fn mutated(seed: &Value, rng: &mut ChaCha8Rng) -> (Value, Vec<String>) {
    let mut v = seed.clone();
    let mut names = Vec::new();
    for _ in 0..rng.gen_range(1..=2) {
        names.extend(mutate(&mut v, rng));
    }
    (v, names)
}

// ---------------------------------------------------------------- stats

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    accepted: usize,
    rejected: usize,
    /// Rejections naming the mutated field.
    named: usize,
    /// Rejections naming the mutated field or another field by its path
    /// (e.g. a fault's target after its group lost consumers).
    by_path: usize,
    panics: Vec<String>,
    hangs: Vec<String>,
    over_budget: Vec<String>,
    unnamed: Vec<String>,
}

impl Stats {
    fn report(&self, format: &str) -> String {
        format!(
            "{format}: {} cases, {} accepted and run, {} rejected: {} ({:.1} %) name the mutated field, {} ({:.1} %) name it or another field by path; {} panics, {} hangs, {} over the allocation budget",
            self.cases,
            self.accepted,
            self.rejected,
            self.named,
            100.0 * self.named as f64 / self.rejected.max(1) as f64,
            self.by_path,
            100.0 * self.by_path as f64 / self.rejected.max(1) as f64,
            self.panics.len(),
            self.hangs.len(),
            self.over_budget.len()
        )
    }
}

/// What one case did.
enum Outcome {
    Accepted(Result<(), String>),
    Rejected(String),
}

fn one_case(stats: &mut Stats, input: &str, names: &[String], f: impl FnOnce() -> Outcome) {
    stats.cases += 1;
    let base = HELD.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let start = Instant::now();
    let shown = || input.chars().take(300).collect::<String>();
    match catch_unwind(AssertUnwindSafe(f)) {
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            stats.panics.push(format!("{msg}\n  input: {}", shown()));
        }
        Ok(Outcome::Accepted(Err(hang))) => stats.hangs.push(format!("{hang}\n  input: {}", shown())),
        Ok(Outcome::Accepted(Ok(()))) => stats.accepted += 1,
        Ok(Outcome::Rejected(e)) => {
            stats.rejected += 1;
            let mutated = names.iter().any(|n| e.contains(n.as_str()));
            stats.named += usize::from(mutated);
            stats.by_path += usize::from(mutated || names_a_path(&e));
            if !mutated && stats.unnamed.len() < 12 {
                let syntax =
                    if e.contains("not valid JSON") { format!("\n      input: {}", shown()) } else { String::new() };
                stats.unnamed.push(format!("{} ← {names:?}{syntax}", e.chars().take(200).collect::<String>()));
            }
        }
    }
    if start.elapsed() > WALL_BUDGET {
        stats.hangs.push(format!("{:?} of wall time\n  input: {}", start.elapsed(), shown()));
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    if peak > CASE_BUDGET {
        stats.over_budget.push(format!("{} MB\n  input: {}", peak >> 20, shown()));
    }
}

/// Whether a message names some field by its path: a `path: ` token (with a
/// dot or an index, or a plain field name) before the reason.
fn names_a_path(e: &str) -> bool {
    e.split(": ").take(4).any(|head| {
        let token = head.rsplit([' ', '(']).next().unwrap_or("");
        let plain = token.len() >= 2
            && token.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']' | '_' | '-'));
        plain && token != "JSON" && token.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '[')
    })
}

// ---------------------------------------------------------------- formats

fn file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn scenario_seeds() -> Vec<Value> {
    let mut seeds: Vec<Value> =
        ["crash", "connect", "consumer-protocol-crash", "coordinator-failover", "unsafe-assignor"]
            .iter()
            .map(|n| serde_json::from_str(&file(&format!("scenarios/{n}.json"))).unwrap())
            .collect();
    seeds.push(serde_json::to_value(Scenario::demo()).unwrap());
    seeds
}

fn run_scenario(s: Scenario) -> Result<(), String> {
    let mut w = World::new(s).map_err(|e| format!("validated, then World::new refused: {e}"))?;
    run_world(&mut w, RUN_MS)
}

fn fuzz_scenarios(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    let seeds = scenario_seeds();
    let mut stats = Stats::default();
    for _ in 0..n {
        let (v, names) = mutated(&seeds[rng.gen_range(0..seeds.len())], rng);
        let text = v.to_string();
        one_case(&mut stats, &text, &names, || match Scenario::from_json(&text) {
            Ok(s) => Outcome::Accepted(run_scenario(s)),
            Err(e) => Outcome::Rejected(e),
        });
    }
    stats
}

fn fuzz_comparisons(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    let seeds: Vec<Value> = ["compare-crash", "compare-protocols"]
        .iter()
        .map(|n| serde_json::from_str(&file(&format!("scenarios/{n}.json"))).unwrap())
        .collect();
    let mut stats = Stats::default();
    for _ in 0..n {
        let (v, names) = mutated(&seeds[rng.gen_range(0..seeds.len())], rng);
        let text = v.to_string();
        one_case(&mut stats, &text, &names, || match Comparison::from_json(&text) {
            Ok(c) => Outcome::Accepted((|| {
                for (_, s) in c.scenarios()? {
                    run_scenario(s)?;
                }
                let results = groupscope::compare::run(&c, 1_000)?;
                groupscope::compare::table::render(&results);
                Ok(())
            })()),
            Err(e) => Outcome::Rejected(e),
        });
    }
    stats
}

fn fuzz_cases(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(vector_path()).unwrap()).unwrap();
    let seeds: Vec<Value> = doc["vectors"].as_array().unwrap().iter().step_by(7).cloned().collect();
    let mut stats = Stats::default();
    for _ in 0..n {
        let (v, names) = mutated(&seeds[rng.gen_range(0..seeds.len())], rng);
        let text = v.to_string();
        one_case(&mut stats, &text, &names, || match assign_text(&text) {
            Ok(_) => Outcome::Accepted(Ok(())),
            Err(e) => Outcome::Rejected(e),
        });
    }
    stats
}

fn vector_path() -> std::path::PathBuf {
    match std::env::var("GROUPSCOPE_SHARED") {
        Ok(dir) => std::path::PathBuf::from(dir).join("kafka/vectors.json"),
        Err(_) => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/kafka/vectors.json"),
    }
}

/// The fault menu's three fields for each kind, as a user types them.
fn fault_lines() -> Vec<[String; 4]> {
    FORM_KINDS
        .iter()
        .map(|(kind, _)| {
            let (a, b, v) = match *kind {
                "killBroker" | "restartBroker" => ("broker-1", "", ""),
                "addConsumer" => ("demo", "", ""),
                "addWorker" => ("connect-cluster", "", ""),
                "failTask" | "restartTask" => ("connect-cluster", "sink-0", ""),
                "restartConnector" => ("connect-cluster", "sink", "includeTasks"),
                "addPartitions" => ("orders", "", "9"),
                "changeSubscription" => ("c1", "", "orders, payments"),
                "restartConsumerAs" => ("c2", "", "static"),
                "pauseConsumer" => ("c2", "", "5000"),
                "slowProcessing" => ("c2", "", "100"),
                k if k.ends_with("Consumer") => ("c2", "", ""),
                "setLinkLoss" => ("c2", "broker-1", "50"),
                _ => ("c2", "broker-1", "500"),
            };
            [kind.to_string(), a.into(), b.into(), v.into()]
        })
        .collect()
}

/// The words a fault-menu error starts with when it names a field.
const FAULT_FIELDS: [&str; 16] = [
    "consumer",
    "broker",
    "a",
    "b",
    "from",
    "to",
    "value",
    "group",
    "topic",
    "count",
    "partition count",
    "duration ms",
    "ms per record",
    "latency ms",
    "percent",
    "task",
];

fn fuzz_fault_lines(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    let seeds = fault_lines();
    let mut stats = Stats::default();
    let mut base = World::new(Scenario::demo()).unwrap();
    base.run_until(5_000);
    for _ in 0..n {
        let mut line = seeds[rng.gen_range(0..seeds.len())].clone();
        let field = rng.gen_range(1..4);
        line[field] = match strings(rng) {
            Value::String(s) if rng.gen_bool(0.5) => s,
            _ => match rng.gen_range(0..3) {
                0 => NUMBERS[rng.gen_range(0..NUMBERS.len())].to_string(),
                1 => format!("c{}", NUMBERS[rng.gen_range(0..NUMBERS.len())]),
                _ => format!("broker-{}", NUMBERS[rng.gen_range(0..NUMBERS.len())]),
            },
        };
        let text = format!("{line:?}");
        let names: Vec<String> = FAULT_FIELDS.iter().map(|f| format!("{f}: ")).collect();
        let world = &base;
        one_case(&mut stats, &text, &names, || {
            let fault = match Fault::from_form(&line[0], &line[1], &line[2], &line[3])
                .and_then(|f| world.check_fault(&f).map(|()| f))
            {
                Ok(f) => f,
                Err(e) => return Outcome::Rejected(e),
            };
            let mut w = world.clone();
            w.inject(fault);
            Outcome::Accepted(run_world(&mut w, 5_000 + RUN_MS))
        });
    }
    stats
}

fn link_seed() -> Value {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Seek(8_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(9_000));
    p.dispatch(Action::Inject(Fault::SetLinkLatency { a: "c1".into(), b: "broker-0".into(), latency_ms: 300 }));
    p.dispatch(Action::Seek(12_000));
    serde_json::from_str(&Permalink::of(&p).compact_json()).unwrap()
}

fn fuzz_permalinks(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    use base64::Engine;
    let seed = link_seed();
    let mut stats = Stats::default();
    for _ in 0..n {
        let (v, names) = mutated(&seed, rng);
        let fragment = format!("#run={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string()));
        one_case(&mut stats, &v.to_string(), &names, || match Permalink::decode(&fragment) {
            // A link's playhead may be hours away; the fuzz restores the near ones.
            Ok(link) if link.at <= 60_000 => Outcome::Accepted(link.restore().map(|_| ())),
            Ok(_) => Outcome::Accepted(Ok(())),
            Err(e) => Outcome::Rejected(e),
        });
    }
    stats
}

fn fuzz_lessons(rng: &mut ChaCha8Rng, n: usize) -> Stats {
    let dir = format!("{}/lessons", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let seeds: Vec<Value> =
        files.iter().map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
    let mut stats = Stats::default();
    for _ in 0..n {
        let (v, names) = mutated(&seeds[rng.gen_range(0..seeds.len())], rng);
        let text = v.to_string();
        one_case(&mut stats, &text, &names, || match groupscope::lesson::validate::load(&text) {
            Ok(lesson) => Outcome::Accepted(run_scenario(lesson.scenario)),
            Err(e) => Outcome::Rejected(e),
        });
    }
    stats
}

#[test]
fn every_input_format_survives_seeded_mutation() {
    let n: usize = std::env::var("GROUPSCOPE_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(24);
    let seed: u64 = std::env::var("GROUPSCOPE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(17);
    // Panics are caught and counted; keep their messages off the output.
    std::panic::set_hook(Box::new(|_| {}));
    let formats: [(&str, fn(&mut ChaCha8Rng, usize) -> Stats); 6] = [
        ("scenario", fuzz_scenarios),
        ("comparison", fuzz_comparisons),
        ("assignor case", fuzz_cases),
        ("fault menu line", fuzz_fault_lines),
        ("permalink", fuzz_permalinks),
        ("lesson file", fuzz_lessons),
    ];
    let mut failures = Vec::new();
    // GROUPSCOPE_FUZZ_FORMATS=permalink,lesson runs only those (by the start of their name).
    let only = std::env::var("GROUPSCOPE_FUZZ_FORMATS").unwrap_or_default();
    for (i, (format, fuzz)) in formats.iter().enumerate() {
        if !only.is_empty() && !only.split(',').any(|o| format.starts_with(o.trim())) {
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
        let stats = fuzz(&mut rng, n);
        println!("{}", stats.report(format));
        for u in &stats.unnamed {
            println!("    unnamed: {u}");
        }
        let named = stats.by_path as f64 / stats.rejected.max(1) as f64;
        if !stats.panics.is_empty()
            || !stats.hangs.is_empty()
            || !stats.over_budget.is_empty()
            || (stats.rejected >= 20 && named < 0.95)
        {
            failures.push(format!(
                "{}\n{:#?}",
                stats.report(format),
                (&stats.panics, &stats.hangs, &stats.over_budget, &stats.unnamed)
            ));
        }
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
