//! `cargo run --release --bin simulate -- [--scenario file.json] [--seed N] [--until ms] [--trace]`
//! `cargo run --release --bin simulate -- --compare comparison.json [--until ms] [--json]`
//!
//! Runs a scenario headless and prints a JSON summary (final states, ownership,
//! rebalance and redelivery counts, invariant violations, trace hash); with
//! `--trace`, the trace as JSON lines first. With `--compare`, runs every
//! variant of a comparison and prints the metrics table (or JSON with `--json`).
//! Bad input: a clear message, exit 2.

use groupscope::sim::trace::{trace_hash, EventKind, Machine};
use groupscope::sim::{invariants, Scenario, World};
use serde_json::json;
use std::process::ExitCode;

struct Args {
    scenario: Option<String>,
    seed: Option<u64>,
    until: Option<u64>,
    trace: bool,
    compare: Option<String>,
    json: bool,
}

const USAGE: &str = "usage: simulate [--scenario file.json] [--seed N] [--until ms] [--trace]\n       simulate --compare comparison.json [--until ms] [--json]";

/// Default run length in ms of simulated time.
const DEFAULT_UNTIL: u64 = 60_000;

fn parse_args() -> Result<Args, String> {
    let mut args = Args { scenario: None, seed: None, until: None, trace: false, compare: None, json: false };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--scenario" => args.scenario = Some(value("--scenario")?),
            "--seed" => args.seed = Some(value("--seed")?.parse().map_err(|e| format!("--seed: {e}"))?),
            "--until" => args.until = Some(value("--until")?.parse().map_err(|e| format!("--until: {e}"))?),
            "--trace" => args.trace = true,
            "--compare" => args.compare = Some(value("--compare")?),
            "--json" => args.json = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}' (see --help)")),
        }
    }
    Ok(args)
}

fn compare(path: &str, args: &Args) -> Result<(), String> {
    if args.scenario.is_some() || args.seed.is_some() || args.trace {
        return Err("--compare takes only --until and --json (the seed is the comparison scenario's)".into());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let comparison = groupscope::compare::Comparison::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let until = args.until.or(comparison.until).unwrap_or(DEFAULT_UNTIL);
    let results = groupscope::compare::run(&comparison, until)?;
    if args.json {
        let out = json!({ "comparison": comparison.name, "group": comparison.group_id()?, "until": until, "runs": results });
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        println!("{} (group {}, 0..{until} ms)", comparison.name, comparison.group_id()?);
        print!("{}", groupscope::compare::table::render(&results));
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    if let Some(path) = &args.compare {
        return compare(path, &args);
    }
    let until = args.until.unwrap_or(DEFAULT_UNTIL);
    let mut scenario = match &args.scenario {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Scenario::from_json(&text)?
        }
        None => Scenario::demo(),
    };
    if let Some(seed) = args.seed {
        scenario.seed = seed;
    }
    let mut world = World::new(scenario)?;
    let mut violations = Vec::new();
    while world.next_time().is_some_and(|t| t <= until) {
        world.step();
        for v in invariants::check(&world) {
            violations.push(json!({"at": world.now, "invariant": v.invariant, "detail": v.detail}));
        }
    }
    world.run_until(until);
    if args.trace {
        for e in &world.trace {
            println!("{}", serde_json::to_string(e).map_err(|e| e.to_string())?);
        }
    }
    let rebalances = world
        .trace
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { .. }, to, .. } if to == "PreparingRebalance"))
        .count();
    let groups: Vec<_> = world
        .scenario
        .groups
        .iter()
        .map(|g| {
            if let Some((b, cg)) = world.consumer_group(&g.group_id) {
                return json!({
                    "groupId": g.group_id, "coordinator": b, "state": cg.state.name(),
                    "groupEpoch": cg.group_epoch, "assignmentEpoch": cg.assignment_epoch, "protocol": "consumer",
                });
            }
            let found = world.group(&g.group_id);
            json!({
                "groupId": g.group_id,
                "coordinator": found.map(|(b, _)| b),
                "state": found.map(|(_, gr)| gr.state.name()),
                "generation": found.map(|(_, gr)| gr.generation_id),
                "protocol": found.and_then(|(_, gr)| gr.protocol_name.clone()),
            })
        })
        .collect();
    let consumers: Vec<_> = world
        .consumers
        .values()
        .map(|c| {
            json!({
                "name": format!("c{}", c.idx), "group": c.group_id, "alive": c.alive,
                "state": format!("{:?}", c.state), "generation": c.generation, "memberId": c.member_id,
                "owned": c.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>(), "fatal": c.fatal,
            })
        })
        .chain(world.async_consumers.values().map(|c| {
            json!({
                "name": format!("c{}", c.idx), "group": c.group_id, "alive": c.alive,
                "state": format!("{:?}", c.state), "memberEpoch": c.member_epoch, "memberId": c.member_id,
                "owned": c.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>(), "fatal": c.fatal,
            })
        }))
        .collect();
    let redelivered: i64 = world.cluster.stats.redelivered.values().sum();
    let summary = json!({
        "until": world.now,
        "seed": world.scenario.seed,
        "groups": groups,
        "consumers": consumers,
        "rebalances": rebalances,
        "recordsRedelivered": redelivered,
        "invariantViolations": violations,
        "events": world.trace.len(),
        "traceHash": format!("{:016x}", trace_hash(&world.trace)),
    });
    println!("{}", serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?);
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("simulate: {e}");
            ExitCode::from(2)
        }
    }
}
