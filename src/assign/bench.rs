//! `assign --bench DIR`: times every assignor on the benchmark inputs in DIR
//! (the layout of `shared/kafka/perf/`: `i-homogeneous-fresh.json`,
//! `ii-<assignor>.json`, `iii-heterogeneous-fresh.json`,
//! `is-homogeneous-fresh-small.json`, Kafka 4.4's outputs in `expected-44/`
//! and, optionally, its timings in `results-java44.txt`).
//!
//! Timed as Kafka's figures were: the inputs (and, for the client assignors,
//! a fresh assignor instance) are built outside the timed region, only the
//! `assign` call is timed, after warm-up runs; the median of the timed runs is
//! printed. Each output is compared with Kafka 4.4's as sets per member.
//! Inputs without `topicIds` get ids ascending with the topic names
//! ([`ascending_topic_ids`]), which is what Kafka's outputs there imply.

use super::case::{as_sets, Case, Family};
use super::{client_assignor, server_assignor, share_assignor, Assignment};
use crate::java::Uuid;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The assignors in the order of `results-java44.txt`'s table (file-name
/// spelling), then the share-group assignor `simple` (no Kafka outputs or
/// timings in DIR for it: its rows are unchecked).
pub const ASSIGNORS: [&str; 7] =
    ["uniform", "server-range", "cooperative-sticky", "range", "roundrobin", "sticky", "simple"];
/// The shapes, as named in `expected-44/<shape>-<assignor>.json`.
pub const SHAPES: [&str; 4] = ["i", "ii", "iii", "is"];

/// How many runs to make: untimed warm-up runs, then timed ones.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    pub warm_up: usize,
    pub timed: usize,
    /// Only this assignor (`--only NAME`), e.g. while profiling.
    pub only: Option<&'static str>,
    /// Only this shape (`--shape i|ii|iii|is`).
    pub shape: Option<&'static str>,
}

impl Default for Runs {
    /// Kafka's figures: 20 warm-up runs, median of 20.
    fn default() -> Self {
        Runs { warm_up: 20, timed: 20, only: None, shape: None }
    }
}

/// One line of the report.
#[derive(Clone, Debug)]
pub struct Row {
    pub assignor: &'static str,
    pub shape: &'static str,
    pub median_ms: f64,
    /// The fastest timed run: on a shared machine, the least disturbed one.
    pub min_ms: f64,
    /// `None` when DIR has no `expected-44/` file for this row.
    pub matches_kafka: Option<bool>,
    pub java_ms: Option<f64>,
}

fn input_file(shape: &str, assignor: &str) -> String {
    match shape {
        "i" => "i-homogeneous-fresh.json".to_string(),
        // simple has no steady state of its own in DIR: it starts from uniform's
        // (a balanced, unshared previous target)
        "ii" if assignor == "simple" => "ii-uniform.json".to_string(),
        "ii" => format!("ii-{assignor}.json"),
        "iii" => "iii-heterogeneous-fresh.json".to_string(),
        _ => "is-homogeneous-fresh-small.json".to_string(),
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: invalid JSON: {e}", path.display()))
}

/// The case of `shape` for `assignor` (the files carry no assignor, or another one).
pub fn load_case(dir: &Path, shape: &str, assignor: &str) -> Result<Case, String> {
    let path = dir.join(input_file(shape, assignor));
    let mut value = read_json(&path)?;
    let object = value.as_object_mut().ok_or_else(|| format!("{}: not a case object", path.display()))?;
    object.insert("assignor".to_string(), serde_json::Value::String(assignor.to_string()));
    let mut case: Case = crate::json::from_value(&value).map_err(|e| format!("{}: {e}", path.display()))?;
    if case.topic_ids.is_empty() {
        case.topic_ids = ascending_topic_ids(&case);
    }
    case.validate().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(case)
}

/// Topic ids for inputs that give none: `Uuid(0, k)` for the k-th topic name
/// (from 1, Java `String.compareTo` order), so ids ascend with the names both
/// in `Uuid.compareTo` and in `HashSet<Uuid>` order. The uniform assignor's
/// result depends on that order; these ids reproduce every uniform output in
/// `expected-44/` (the ids the CLI derives from names by default do not).
fn ascending_topic_ids(case: &Case) -> BTreeMap<String, String> {
    let mut names: Vec<&String> = case.topics.keys().collect();
    names.sort_by(|a, b| crate::java::compare_strings(a, b));
    names.into_iter().enumerate().map(|(k, t)| (t.clone(), Uuid { msb: 0, lsb: k as i64 + 1 }.to_string())).collect()
}

/// Kafka 4.4's output for the row, if DIR has it.
fn expected(dir: &Path, shape: &str, assignor: &str) -> Result<Option<Assignment>, String> {
    let path = dir.join("expected-44").join(format!("{shape}-{assignor}.json"));
    if !path.exists() {
        return Ok(None);
    }
    let value = read_json(&path)?;
    let assignment =
        value.pointer("/output/assignment").ok_or_else(|| format!("{}: no output.assignment", path.display()))?;
    crate::json::from_value(assignment).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

/// `results-java44.txt`: (assignor, shape) -> median ms.
fn java_medians(dir: &Path) -> BTreeMap<(String, String), f64> {
    let Ok(text) = std::fs::read_to_string(dir.join("results-java44.txt")) else { return BTreeMap::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut f = line.split_whitespace();
            let (assignor, shape, median) = (f.next()?, f.next()?, f.next()?.parse().ok()?);
            Some(((assignor.to_string(), shape.to_string()), median))
        })
        .collect()
}

/// (median, minimum) of the run times.
fn median_and_min(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    (median, times.first().copied().unwrap_or(f64::NAN))
}

/// Runs `call` `runs.warm_up + runs.timed` times on a fresh `setup()` each
/// time, timing only `call`; the median of the timed runs in ms and the last result.
fn timed<S, T>(
    runs: Runs,
    mut setup: impl FnMut() -> Result<S, String>,
    mut call: impl FnMut(&mut S) -> Result<T, String>,
) -> Result<((f64, f64), T), String> {
    let mut times = Vec::with_capacity(runs.timed);
    let mut last = None;
    for run in 0..runs.warm_up + runs.timed.max(1) {
        let mut state = setup()?;
        let start = Instant::now();
        let out = call(&mut state);
        let elapsed = start.elapsed();
        if run >= runs.warm_up {
            times.push(elapsed.as_secs_f64() * 1e3);
        }
        // the previous output is dropped here, outside the timed region
        last = Some(out?);
    }
    Ok((median_and_min(times), last.ok_or("no run")?))
}

/// Times one assignor on one case; returns (median, min) in ms and the last output.
pub fn time_case(case: &Case, runs: Runs) -> Result<((f64, f64), Assignment), String> {
    let family = case.family()?;
    let name = family.kafka_name();
    if family.is_server() {
        let (group, topics) = case.group_spec()?;
        let assignor = if family.is_share() { share_assignor(name) } else { server_assignor(name) }
            .ok_or_else(|| format!("no server assignor {name}"))?;
        let (ms, out) = timed(runs, || Ok(()), |_| assignor.assign(&group, &topics))?;
        Ok((ms, topics.named(&group, &out)))
    } else {
        let (cluster, subs) = (case.cluster(), case.subscriptions()?);
        let fresh = || {
            let mut a = client_assignor(name).ok_or_else(|| format!("no client assignor {name}"))?;
            a.set_prefer_rack_aware_logic(case.prefer_rack_aware_logic);
            Ok(a)
        };
        timed(runs, fresh, |a| a.assign(&cluster, &subs))
    }
}

/// Every assignor on every shape of DIR.
pub fn run(dir: &Path, runs: Runs, mut each: impl FnMut(&Row)) -> Result<Vec<Row>, String> {
    let java = java_medians(dir);
    let mut rows = Vec::new();
    for assignor in ASSIGNORS.into_iter().filter(|a| runs.only.is_none_or(|o| o == *a)) {
        Family::parse(assignor)?;
        for shape in SHAPES.into_iter().filter(|s| runs.shape.is_none_or(|o| o == *s)) {
            let case = load_case(dir, shape, assignor)?;
            let ((median_ms, min_ms), out) = time_case(&case, runs).map_err(|e| format!("{assignor} {shape}: {e}"))?;
            let matches_kafka = expected(dir, shape, assignor)?.map(|want| as_sets(&want) == as_sets(&out));
            let java_ms = java.get(&(assignor.to_string(), shape.to_string())).copied();
            let row = Row { assignor, shape, median_ms, min_ms, matches_kafka, java_ms };
            each(&row);
            rows.push(row);
        }
    }
    Ok(rows)
}

/// `<assignor> <shape> <median ms> <match|mismatch|unchecked>`, the fastest run,
/// then Java 4.4's median and Java / ours when `results-java44.txt` gives it.
pub fn format_row(row: &Row) -> String {
    let check = match row.matches_kafka {
        Some(true) => "match",
        Some(false) => "mismatch",
        None => "unchecked",
    };
    let mut line =
        format!("{:<18} {:<3} {:>9.3} {:<9} min {:>9.3}", row.assignor, row.shape, row.median_ms, check, row.min_ms);
    if let Some(java) = row.java_ms {
        line.push_str(&format!(" java44 {java:>8.2} ratio {:>6.1}x", java / row.median_ms));
    }
    line
}

/// The `--bench DIR [--runs N] [--warm-up N] [--only ASSIGNOR] [--shape SHAPE]` command line, if `args` (without
/// the program name) starts with `--bench`; its exit code.
pub fn from_args(args: impl IntoIterator<Item = String>) -> Option<ExitCode> {
    let args: Vec<String> = args.into_iter().collect();
    if args.first().map(String::as_str) != Some("--bench") {
        return None;
    }
    Some(match parse_args(&args[1..]).and_then(|(dir, runs)| report(&dir, runs)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("assign --bench: {e}");
            ExitCode::from(2)
        }
    })
}

fn parse_args(args: &[String]) -> Result<(PathBuf, Runs), String> {
    let usage = "usage: assign --bench DIR [--runs N] [--warm-up N] [--only ASSIGNOR] [--shape SHAPE]";
    let dir = args.first().filter(|a| !a.starts_with("--")).ok_or(usage)?;
    let mut runs = Runs::default();
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let text = rest.next();
        if flag == "--only" {
            runs.only = ASSIGNORS.into_iter().find(|a| Some(*a) == text.map(String::as_str));
            if runs.only.is_none() {
                return Err(format!("--only needs one of {}", ASSIGNORS.join(", ")));
            }
            continue;
        }
        if flag == "--shape" {
            runs.shape = SHAPES.into_iter().find(|s| Some(*s) == text.map(String::as_str));
            if runs.shape.is_none() {
                return Err(format!("--shape needs one of {}", SHAPES.join(", ")));
            }
            continue;
        }
        let value = text.and_then(|v| v.parse::<usize>().ok());
        match (flag.as_str(), value) {
            ("--runs", Some(n)) if n > 0 => runs.timed = n,
            ("--warm-up", Some(n)) => runs.warm_up = n,
            _ => return Err(format!("bad argument '{flag}' ({usage}; --runs needs a count of at least 1)")),
        }
    }
    Ok((PathBuf::from(dir), runs))
}

/// Prints every row as it is measured; true when every checked output matches.
fn report(dir: &Path, runs: Runs) -> Result<bool, String> {
    println!(
        "# assignor shape median_ms check min_ms (only assign() timed; {} warm-up runs, median of {})",
        runs.warm_up, runs.timed
    );
    let rows = run(dir, runs, |row| println!("{}", format_row(row)))?;
    let mismatches = rows.iter().filter(|r| r.matches_kafka == Some(false)).count();
    let slow = rows.iter().filter(|r| r.java_ms.is_some_and(|j| r.median_ms * 2.0 > j)).count();
    println!("# {} rows, {mismatches} mismatching Kafka 4.4, {slow} not at least 2x faster than Java 4.4", rows.len());
    Ok(mismatches == 0)
}
