//! Seeded random-fault soak: random schedules of crashes, restarts, pauses,
//! broker deaths and network cuts over random configurations, for every group
//! type (classic, KIP-848 consumer, KIP-932 share and KIP-1071 streams groups,
//! Kafka Connect). Safety
//! invariants are checked after every step; after the faults stop (everything
//! restarted and healed), every partition (connector, task, streams task) must be owned again
//! within a bound derived from the configured timeouts. A failure names the
//! seed to rerun.
//!
//! - `groups`: the consumer-group worlds (both protocols) and their recovery check;
//! - `connect`: the Connect worlds and theirs;
//! - `share`: the share-group worlds (KIP-932) and theirs;
//! - `streams`: the Kafka Streams worlds (KIP-1071 streams groups) and theirs;
//! - `streams_classic`: Kafka Streams under classic rebalancing and theirs;
//! - `moments`: faults aimed at a moment of the protocol rather than a time
//!   (the coordinator dies in a join phase, a broker restarts while a member
//!   is between JoinGroup and SyncGroup).
//!
//! Environment: `SOAK_SEEDS=1,2,3` reruns exactly those seeds; otherwise
//! `SOAK_FROM` (0) and `SOAK_SCHEDULES` (200) give a range, and from 0 the
//! seeds that once failed run too. `SOAK_THREADS` (1) runs seeds on that
//! many threads. `SOAK_TRACE=DIR` writes each failing run's narrated trace;
//! `SOAK_HASHES=FILE` appends each run's trace hash (a refactor can show that
//! thousands of seeded runs behave exactly as before: sort and diff).
//! `scripts/soak.sh FROM COUNT` runs a wide soak on every core.
#![cfg(not(target_arch = "wasm32"))]

mod connect;
mod groups;
mod moments;
mod share;
mod streams;
mod streams_classic;

use crate::common::member_states::invalid_member_transitions;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{invariants, Fault, World};

/// Seeds that once failed, named by the issue that fixed them; they run
/// whenever the range starts at 0 (CI's short soak).
const ONCE_FAILED: &[(&str, u64)] = &[
    // A restarted static member fenced by its old process's JoinGroup answer (issue 39).
    ("classic", 50931),
    // A zombie's stale claim read as a second owner (issue 39).
    ("classic", 55621),
    // A static member back before its cooperative follow-up rebalance: the
    // withheld partition stays unassigned, as in Kafka (issue 39).
    ("classic", 637404),
    // A zombie of a generation its coordinator lost and numbered again, read
    // as a second owner (issue 39).
    ("classic", 691055),
    // A KIP-848 member behind its coordinator's epoch read as a second owner (issue 39).
    ("consumer", 100402),
    // A KIP-848 member adding partitions from an older target after its heartbeat
    // reported the assignment before, read as a second owner (issue 39).
    ("consumer", 300275),
    ("consumer", 319120),
    // A Connect task left running by a downgrade to eager read as assigned twice
    // after the group went back to cooperative (issue 39).
    ("connect", 335850),
    // A share consumer started again before its staggered start: the late
    // start sent it from STABLE back to JOINING (AbstractMembershipManager.onConsumerPoll).
    ("share", 153),
    // A ShareFetch (or heartbeat) lost on a cut link, never given up: the share
    // consumer had no request.timeout.ms (NetworkClient.handleTimedOutRequests).
    ("share", 127),
    ("share", 182),
];

/// The seeds to run for `kind`, and how to name them in the summary.
fn seeds(kind: &str) -> (Vec<u64>, String) {
    let listed: Vec<u64> =
        std::env::var("SOAK_SEEDS").unwrap_or_default().split(',').filter_map(|v| v.trim().parse().ok()).collect();
    if !listed.is_empty() {
        return (listed, "as listed".into());
    }
    let number = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (from, count) = (number("SOAK_FROM", 0), number("SOAK_SCHEDULES", 200));
    let mut seeds: Vec<u64> = (from..from + count).collect();
    let mut named = format!("{from}..{}", from + count);
    if from == 0 {
        let once: Vec<u64> = ONCE_FAILED.iter().filter(|(k, _)| *k == kind).map(|(_, s)| *s).collect();
        if !once.is_empty() {
            named += &format!(" and {} that once failed", once.len());
        }
        seeds.extend(once);
    }
    (seeds, named)
}

/// Runs `run` over the seeds of `kind` (on `SOAK_THREADS` threads), prints
/// one summary line and fails with every failing seed's message.
fn soak(kind: &str, run: fn(u64) -> Result<(), String>) {
    let (seeds, named) = seeds(kind);
    let threads: usize = std::env::var("SOAK_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    let mut failures: Vec<(u64, String)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<u64> = seeds.iter().copied().skip(t).step_by(threads).collect();
                s.spawn(move || {
                    mine.into_iter().filter_map(|seed| run(seed).err().map(|e| (seed, e))).collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a soak thread panicked")).collect()
    });
    failures.sort();
    let failing: Vec<String> = failures.iter().map(|(s, _)| s.to_string()).collect();
    println!(
        "soak {kind}: {} seeds ({named}), {} failed{}{}",
        seeds.len(),
        failures.len(),
        if failing.is_empty() { "" } else { ": " },
        failing.join(",")
    );
    let messages: Vec<&str> = failures.iter().map(|(_, e)| e.as_str()).collect();
    assert!(failures.is_empty(), "{} of {} schedules failed:\n{}", failures.len(), seeds.len(), messages.join("\n"));
}

#[test]
fn random_fault_schedules_keep_every_invariant_and_recover() {
    soak("classic", groups::run_classic);
}

#[test]
fn random_fault_schedules_keep_every_invariant_and_recover_under_the_consumer_protocol() {
    soak("consumer", groups::run_consumer_protocol);
}

#[test]
fn random_share_fault_schedules_keep_every_invariant_and_recover() {
    soak("share", share::run);
}

#[test]
fn random_streams_fault_schedules_keep_every_invariant_and_recover() {
    soak("streams", streams::run);
}

#[test]
fn random_classic_streams_fault_schedules_keep_every_invariant_and_recover() {
    soak("streams-classic", streams_classic::run);
}

#[test]
fn random_connect_fault_schedules_keep_every_invariant_and_recover() {
    soak("connect", connect::run);
}

/// One run's stepping: the invariant monitor (reading each offsets-log record
/// once), the member transitions read so far, the fault aimed at a moment, and
/// whether the application supervisor restarts clients that raised a fatal error.
struct Stepper {
    label: String,
    monitor: invariants::Monitor,
    read: usize,
    aimed: Option<moments::Aimed>,
    supervise: bool,
}

impl Stepper {
    fn new(label: String, aimed: Option<moments::Aimed>) -> Stepper {
        Stepper { label, monitor: invariants::Monitor::default(), read: 0, aimed, supervise: false }
    }

    /// Steps to `until`, checking every invariant after each step.
    fn run_to(&mut self, world: &mut World, until: u64) -> Result<(), String> {
        while world.next_time().is_some_and(|t| t <= until) {
            world.step();
            if let Some(v) = self.monitor.check(world).first() {
                return Err(format!("{}: {} at {} ms: {}", self.label, v.invariant, world.now, v.detail));
            }
            if let Some(t) = invalid_member_transitions(world, self.read).first() {
                return Err(format!("{}: invalid member state transition at {t}", self.label));
            }
            self.read = world.trace.len();
            if let Some(a) = &mut self.aimed {
                a.maybe_fire(world);
            }
            if self.supervise && world.clients.async_consumers().any(|c| c.fatal.is_some()) {
                restart_fatal(world);
            }
        }
        world.run_until(until);
        Ok(())
    }
}

/// With `SOAK_HASHES` set, appends `<kind> <seed> <trace hash>` to that file.
fn record_hash(kind: &str, seed: u64, world: &World) {
    use std::io::Write;
    let Ok(path) = std::env::var("SOAK_HASHES") else { return };
    let line = format!("{kind} {seed} {:016x}\n", groupscope::sim::trace::trace_hash(&world.trace));
    let mut f =
        std::fs::OpenOptions::new().create(true).append(true).open(path).expect("SOAK_HASHES is a writable file");
    f.write_all(line.as_bytes()).expect("SOAK_HASHES is writable");
}

/// With `SOAK_TRACE=DIR`, writes a failing run's narrated trace (with the
/// messages delivered) to `DIR/<kind>-<seed>.txt`, to read what led there.
fn dump_trace(kind: &str, seed: u64, world: &World) {
    use std::fmt::Write;
    let Ok(dir) = std::env::var("SOAK_TRACE") else { return };
    let mut text = String::new();
    for e in world.trace.iter() {
        let line = match &e.kind {
            EventKind::MessageDelivered { from, to, label, .. } => format!("{from} -> {to} delivered {label}"),
            _ => match groupscope::narrate::sentence(world, e, groupscope::i18n::Lang::En) {
                Some(s) => s,
                None => continue,
            },
        };
        let _ = writeln!(text, "{:>7} #{} <- {:?} {line}", e.at, e.id, e.cause);
    }
    std::fs::create_dir_all(&dir).expect("SOAK_TRACE is a writable folder");
    std::fs::write(format!("{dir}/{kind}-{seed}.txt"), text).expect("SOAK_TRACE is a writable folder");
}

/// Heals everything: brokers and consumers restarted, links healed, held
/// messages released, extra latency and loss removed.
fn heal(world: &mut World) {
    for b in world.brokers.keys().copied().collect::<Vec<_>>() {
        world.inject(Fault::RestartBroker { broker: b });
    }
    let net = world.network.clone();
    for (a, b) in net.cut {
        world.inject(Fault::HealLink { a: a.to_string(), b: b.to_string() });
    }
    for (from, to) in net.held {
        world.inject(Fault::ReleaseLink { from: from.to_string(), to: to.to_string() });
    }
    for (a, b) in net.extra_latency.keys().chain(net.loss_percent.keys()) {
        world.inject(Fault::SetLinkLatency { a: a.to_string(), b: b.to_string(), latency_ms: 0 });
        world.inject(Fault::SetLinkLoss { a: a.to_string(), b: b.to_string(), percent: 0 });
    }
    // Applications restart a consumer that raised a fatal error (e.g. a fenced
    // static member): crash it and start it again.
    restart_fatal(world);
    for c in world.client_indices() {
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}

/// The application's supervisor: a consumer that raised a fatal error (a fenced
/// static member, UNRELEASED_INSTANCE_ID while its old member is still in the
/// group) is closed and started again.
fn restart_fatal(world: &mut World) {
    let classic = world.clients.classics().filter(|c| c.fatal.is_some()).map(|c| c.idx);
    let fatal: Vec<u32> =
        classic.chain(world.clients.async_consumers().filter(|c| c.fatal.is_some()).map(|c| c.idx)).collect();
    for c in fatal {
        world.inject(Fault::CrashConsumer { consumer: c });
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}
