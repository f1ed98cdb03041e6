//! `cargo run --release --bin simulate -- [--scenario file.json] [--seed N] [--until ms] [--trace]`
//! `cargo run --release --bin simulate -- --compare comparison.json [--until ms] [--json]`
//!
//! Runs a scenario headless and prints a JSON summary (final states, ownership,
//! rebalance and redelivery counts, invariant violations, trace hash); with
//! `--trace`, the trace as JSON lines first. With `--compare`, runs every
//! variant of a comparison and prints the metrics table (or JSON with `--json`).
//! Bad input: a clear message, exit 2. A closed output (`| head`) ends it quietly.

use groupscope::sim::scenario::limits::MAX_RUN_MS;
use groupscope::sim::state_machine::StateMachine;
use groupscope::sim::trace::{trace_hash, EventKind, Machine};
use groupscope::sim::world::GroupType;
use groupscope::sim::{invariants, Scenario, World};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

/// Violations listed in the summary (all are counted).
const MAX_LISTED_VIOLATIONS: usize = 100;

/// Why the run stopped early.
enum Stop {
    /// Bad input or a failed run: exit 2 with the message.
    Error(String),
    /// Standard output was closed (`simulate --trace | head -1`): exit 0, quietly.
    ClosedOutput,
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Error(e)
    }
}

/// Writes one line to standard output; a closed pipe stops the run quietly.
fn out(line: &str) -> Result<(), Stop> {
    let mut o = std::io::stdout().lock();
    match writeln!(o, "{line}") {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Stop::ClosedOutput),
        Err(e) => Err(Stop::Error(format!("cannot write the output: {e}"))),
    }
}

fn until_arg(v: &str) -> Result<u64, String> {
    let ms: u64 = v.parse().map_err(|e| format!("--until: '{}': {e}", groupscope::sim::scenario::limits::shown(v)))?;
    if ms > MAX_RUN_MS {
        return Err(format!("--until: {ms} ms is more than a simulated day ({MAX_RUN_MS} ms), the longest run"));
    }
    Ok(ms)
}

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
            "--until" => args.until = Some(until_arg(&value("--until")?)?),
            "--trace" => args.trace = true,
            "--compare" => args.compare = Some(value("--compare")?),
            "--json" => args.json = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}' (see --help)")),
        }
    }
    Ok(args)
}

fn compare(path: &str, args: &Args) -> Result<(), Stop> {
    if args.scenario.is_some() || args.seed.is_some() || args.trace {
        return Err(Stop::Error(
            "--compare takes only --until and --json (the seed is the comparison scenario's)".into(),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let comparison = groupscope::compare::Comparison::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let until = args.until.or(comparison.until).unwrap_or(DEFAULT_UNTIL);
    let until = until_arg(&until.to_string())?;
    let results = groupscope::compare::run(&comparison, until)?;
    if args.json {
        let out =
            json!({ "comparison": comparison.name, "group": comparison.group_id()?, "until": until, "runs": results });
        self::out(&serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?)?;
    } else {
        self::out(&format!("{} (group {}, 0..{until} ms)", comparison.name, comparison.group_id()?))?;
        self::out(groupscope::compare::table::render(&results).trim_end())?;
    }
    Ok(())
}

fn run() -> Result<(), Stop> {
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
    // The incremental monitor (the page's): each __consumer_offsets record is read once.
    let mut monitor = invariants::Monitor::default();
    let mut violations = Vec::new();
    let mut violation_count = 0usize;
    while world.next_time().is_some_and(|t| t <= until) {
        world.step();
        for v in monitor.check(&world) {
            violation_count += 1;
            if violations.len() < MAX_LISTED_VIOLATIONS {
                violations.push(json!({"at": world.now, "invariant": v.invariant, "detail": v.detail}));
            }
        }
    }
    world.run_until(until);
    if args.trace {
        for e in &world.trace {
            out(&serde_json::to_string(e).map_err(|e| e.to_string())?)?;
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
        .chain(world.scenario.share_groups.iter().map(|g| share_group_summary(&world, &g.group_id)))
        .chain(world.scenario.streams_app_ids().map(|id| streams_group_summary(&world, id)))
        .collect();
    let consumers: Vec<_> = world
        .members()
        .filter(|c| c.is_consumer())
        .map(|c| {
            let epoch = match c.group_type {
                GroupType::Consumer | GroupType::Share | GroupType::Streams => "memberEpoch",
                GroupType::Classic => "generation",
            };
            json!({
                "name": format!("c{}", c.idx), "group": c.group_id, "alive": c.alive,
                "state": c.state, epoch: c.generation, "memberId": c.member_id,
                "owned": c.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>(), "fatal": c.fatal,
            })
        })
        .collect();
    let redelivered: i64 = world.cluster.stats.redelivered.total();
    let summary = json!({
        "until": world.now,
        "seed": world.scenario.seed,
        "groups": groups,
        "consumers": consumers,
        "rebalances": rebalances,
        "recordsRedelivered": redelivered,
        "invariantViolations": violations,
        "invariantViolationCount": violation_count,
        "events": world.trace.len(),
        "traceHash": format!("{:016x}", trace_hash(&world.trace)),
    });
    out(&serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?)
}

/// A share group (KIP-932) as its coordinator holds it: state, epochs and
/// members; each share-partition's start offset (SPSO) as the share
/// coordinator stores it; and the records its consumers processed again.
fn share_group_summary(world: &World, group_id: &str) -> serde_json::Value {
    let found = world.share_group(group_id);
    let stored = world.cluster.share_state.get(group_id);
    let partitions: Vec<_> = stored
        .into_iter()
        .flatten()
        .map(|(tp, p)| json!({"partition": tp.to_string(), "spso": p.start_offset}))
        .collect();
    json!({
        "groupId": group_id,
        "type": "share",
        "coordinator": found.map(|(b, _)| b),
        "state": found.map(|(_, g)| g.state.name()),
        "groupEpoch": found.map(|(_, g)| g.group_epoch),
        "assignmentEpoch": found.map(|(_, g)| g.assignment_epoch),
        "members": found.map(|(_, g)| g.members.keys().cloned().collect::<Vec<_>>()).unwrap_or_default(),
        "sharePartitions": partitions,
        "recordsRedelivered": world.cluster.stats.redelivered.group_total(group_id),
    })
}

/// A streams group: its state, epochs, and every member's tasks.
fn streams_group_summary(world: &World, group_id: &str) -> serde_json::Value {
    let found = world.streams_group(group_id);
    let members: Vec<_> = found
        .map(|(_, g)| {
            g.members
                .values()
                .map(|m| {
                    json!({
                        "client": m.client_id, "process": m.process_id, "state": m.state.name(),
                        "memberEpoch": m.member_epoch,
                        "active": groupscope::sim::streams_message::task_names(&m.assigned.active),
                        "standby": groupscope::sim::streams_message::task_names(&m.assigned.standby),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "groupId": group_id,
        "type": "streams",
        "coordinator": found.map(|(b, _)| b),
        "state": found.map(|(_, g)| g.state.name()),
        "groupEpoch": found.map(|(_, g)| g.group_epoch),
        "assignmentEpoch": found.map(|(_, g)| g.assignment_epoch),
        "members": members,
    })
}

fn main() -> ExitCode {
    match run() {
        Ok(()) | Err(Stop::ClosedOutput) => ExitCode::SUCCESS,
        Err(Stop::Error(e)) => {
            // stderr may be closed too: nothing more to say then.
            let _ = writeln!(std::io::stderr(), "simulate: {e}");
            ExitCode::from(2)
        }
    }
}
