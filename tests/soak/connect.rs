//! Kafka Connect soak worlds: a cluster of 1 to 5 workers in any
//! `connect.protocol`, random connectors and tasks, and a random fault
//! schedule (workers crash, restart, pause; brokers die; links are cut; tasks
//! fail and are restarted); after healing, every connector and task runs on
//! exactly one worker of the current generation.

use super::moments::Aimed;
use super::{dump_trace, heal, record_hash, Stepper};
use groupscope::sim::{Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random Connect cluster with a random fault schedule (workers crash,
/// restart, pause; brokers die; links are cut; tasks fail and are restarted).
fn random_world(seed: u64) -> (World, u64, Option<Aimed>) {
    use groupscope::connect::ConnectProtocolCompatibility::*;
    use groupscope::sim::scenario::connect_config::{ConnectClusterSpec, ConnectorSpec, WorkerConfig};
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xc0ec7);
    let mut s = Scenario::demo();
    s.seed = seed;
    s.groups.clear();
    s.brokers = rng.gen_range(1..=4);
    let workers = rng.gen_range(1..=5);
    let modes = [EAGER, COMPATIBLE, SESSIONED];
    let mut config = WorkerConfig {
        session_timeout_ms: rng.gen_range(6_000..=12_000),
        rebalance_timeout_ms: rng.gen_range(8_000..=20_000),
        connect_protocol: modes[rng.gen_range(0..3)],
        scheduled_rebalance_max_delay_ms: [0, 5_000, 20_000][rng.gen_range(0..3)],
        ..WorkerConfig::default()
    };
    config.heartbeat_interval_ms = config.session_timeout_ms / 3;
    let worker_protocols =
        if rng.gen_bool(0.2) { (0..workers).map(|_| modes[rng.gen_range(0..3)]).collect() } else { Vec::new() };
    let connectors = (0..rng.gen_range(1..=3))
        .map(|i| ConnectorSpec { name: format!("conn{i}"), tasks: rng.gen_range(0..=6) })
        .collect();
    s.connect_clusters.push(ConnectClusterSpec {
        group_id: "connect-cluster".into(),
        workers,
        connectors,
        config,
        worker_protocols,
        start_stagger_ms: 300,
    });
    let mut faults_end = 0;
    for _ in 0..rng.gen_range(1..=8) {
        let at = rng.gen_range(2_000..60_000);
        faults_end = faults_end.max(at);
        let w = rng.gen_range(1..=workers);
        let peer = format!("broker-{}", rng.gen_range(0..s.brokers));
        let group = "connect-cluster".to_string();
        let connector = format!("conn{}", rng.gen_range(0..3));
        let task = rng.gen_range(0..6);
        let fault = match rng.gen_range(0..12) {
            0 => Fault::CrashConsumer { consumer: w },
            1 => Fault::RestartConsumer { consumer: w },
            2 => Fault::PauseConsumer { consumer: w, duration_ms: rng.gen_range(100..15_000) },
            3 => Fault::KillBroker { broker: rng.gen_range(0..s.brokers) },
            4 => Fault::RestartBroker { broker: rng.gen_range(0..s.brokers) },
            5 => Fault::CutLink { a: format!("c{w}"), b: peer },
            6 => Fault::HoldLink { from: format!("c{w}"), to: peer },
            7 => Fault::SetLinkLatency { a: format!("c{w}"), b: peer, latency_ms: rng.gen_range(0..3000) },
            8 => Fault::FailTask { group, connector, task },
            9 => Fault::RestartTask { group, connector, task },
            10 => Fault::RestartConnector {
                group,
                connector,
                include_tasks: rng.gen_bool(0.5),
                only_failed: rng.gen_bool(0.5),
            },
            _ => Fault::AddWorker { group },
        };
        s.faults.push(groupscope::sim::scenario::ScheduledFault { at, fault });
    }
    // A fault aimed at a moment of the Connect group's rebalances.
    let mut wide = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0f39);
    let aimed = Aimed::draw(&mut wide, &["connect-cluster".to_string()], &mut faults_end);
    let world = World::new(s).expect("generated scenarios are valid");
    (world, faults_end, aimed)
}

/// After healing, every configured connector and task has an instance on
/// exactly one worker of the current generation, within a bound derived from
/// the timeouts and the scheduled rebalance delay.
pub fn run(seed: u64) -> Result<(), String> {
    let (mut world, faults_end, aimed) = random_world(seed);
    check(seed, &mut world, faults_end, aimed)
        .inspect(|()| record_hash("connect", seed, &world))
        .inspect_err(|_| dump_trace("connect", seed, &world))
}

fn check(seed: u64, world: &mut World, faults_end: u64, aimed: Option<Aimed>) -> Result<(), String> {
    let mut stepper = Stepper::new(format!("connect seed {seed}"), aimed);
    stepper.run_to(world, faults_end + 1)?;
    heal(world);
    for w in world.clients.workers().map(|c| c.idx).collect::<Vec<_>>() {
        world.inject(Fault::RestartConsumer { consumer: w });
    }
    let spec = world.scenario.connect_clusters[0].clone();
    let c = &spec.config;
    // A stale session expires, a join and a sync phase, the scheduled delay
    // (at most twice: a departure, then consecutive revocations), a follow-up round.
    let bound =
        2 * c.session_timeout_ms + 4 * c.rebalance_timeout_ms + 2 * c.scheduled_rebalance_max_delay_ms + 3_000 + 10_000;
    let deadline = world.now + bound;
    stepper.run_to(world, deadline)?;
    let (_, group) =
        world.group(&spec.group_id).ok_or(format!("connect seed {seed}: group not loaded after healing"))?;
    let current: Vec<_> = world
        .group_workers(&spec.group_id)
        .filter(|w| w.alive && w.last_completed_generation == group.generation_id)
        .collect();
    let snapshot = spec.config_snapshot();
    // Exactly once under incremental cooperative; after a downgrade to eager,
    // cooperative workers' earlier instances may still run beside the new ones.
    let cooperative = group.protocol_name.as_deref() != Some("default");
    let placed = |n: usize| if cooperative { n == 1 } else { n >= 1 };
    for name in snapshot.connectors.keys() {
        if !placed(current.iter().filter(|w| w.connectors.contains_key(name)).count()) {
            return Err(format!(
                "connect seed {seed}: connector {name} not on exactly one worker {bound} ms after healing"
            ));
        }
    }
    for id in snapshot.all_tasks() {
        if !placed(current.iter().filter(|w| w.tasks.contains_key(&id)).count()) {
            return Err(format!(
                "connect seed {seed}: task {id} not on exactly one worker {bound} ms after healing (group {:?} gen {})",
                group.state, group.generation_id
            ));
        }
    }
    Ok(())
}
