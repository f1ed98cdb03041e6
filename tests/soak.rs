//! Seeded random-fault soak: random schedules of crashes, restarts, pauses,
//! broker deaths and network cuts over random configurations. Safety
//! invariants are checked after every step; after the faults stop (everything
//! restarted and healed), every partition must be owned again within a bound
//! derived from the configured timeouts. A failure names the seed to rerun.
//! `SOAK_SCHEDULES=10000 cargo test --release --test soak` runs a long soak.
//! The same schedules also run against consumer-protocol groups (KIP-848).
#![cfg(not(target_arch = "wasm32"))]

use groupscope::sim::config::GroupProtocol;
use groupscope::sim::{invariants, Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_world(seed: u64) -> (World, u64) {
    random_world_with(seed, GroupProtocol::Classic)
}

fn random_world_with(seed: u64, protocol: GroupProtocol) -> (World, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = Scenario::demo();
    s.seed = seed;
    s.brokers = rng.gen_range(1..=5);
    s.topics[0].partitions = rng.gen_range(1..=12);
    let g = &mut s.groups[0];
    g.consumers = rng.gen_range(1..=6);
    g.static_members = rng.gen_bool(0.3);
    g.config.max_poll_interval_ms = rng.gen_range(8_000..=20_000);
    g.config.session_timeout_ms = rng.gen_range(6_000..=12_000);
    g.config.heartbeat_interval_ms = g.config.session_timeout_ms / 3;
    g.config.assignors = match rng.gen_range(0..4) {
        0 => vec!["range".into()],
        1 => vec!["roundrobin".into()],
        2 => vec!["sticky".into()],
        _ => vec!["cooperative-sticky".into()],
    };
    if protocol == GroupProtocol::Consumer {
        // The broker's consumer-group timeouts (lowered bounds, as a test cluster may set them).
        let session = g.config.session_timeout_ms;
        g.config.group_protocol = GroupProtocol::Consumer;
        g.config.group_remote_assignor = [None, Some("uniform".to_string()), Some("range".to_string())][(seed % 3) as usize].clone();
        s.broker.consumer_group_min_session_timeout_ms = 6000;
        s.broker.consumer_group_session_timeout_ms = session;
        s.broker.consumer_group_min_heartbeat_interval_ms = 1000;
        s.broker.consumer_group_heartbeat_interval_ms = session / 3;
    }
    let g = &s.groups[0];
    let consumers = g.consumers;
    let static_members = g.static_members;
    let brokers = s.brokers;
    let mut faults_end = 0;
    for _ in 0..rng.gen_range(1..=8) {
        let at = rng.gen_range(2_000..60_000);
        faults_end = faults_end.max(at);
        let c = rng.gen_range(1..=consumers);
        let peer = format!("broker-{}", rng.gen_range(0..brokers));
        let fault = match rng.gen_range(0..13) {
            0 => Fault::CrashConsumer { consumer: c },
            1 => Fault::RestartConsumer { consumer: c },
            2 => Fault::PauseConsumer { consumer: c, duration_ms: rng.gen_range(100..15_000) },
            3 => Fault::KillBroker { broker: rng.gen_range(0..brokers) },
            4 => Fault::RestartBroker { broker: rng.gen_range(0..brokers) },
            5 => Fault::CutLink { a: format!("c{c}"), b: peer },
            // DropNextMessage and SetLinkLoss are left out: losing one message inside a
            // connection is not something TCP does, and it can leave a member unaware
            // it was expelled (a zombie) — the invariant monitor rightly flags that.
            6 => Fault::SetLinkLatency { a: peer, b: format!("c{c}"), latency_ms: 0 },
            7 => Fault::HoldLink { from: format!("c{c}"), to: peer },
            8 => Fault::ReleaseLink { from: format!("c{c}"), to: peer },
            9 => Fault::SetLinkLatency { a: format!("c{c}"), b: peer, latency_ms: rng.gen_range(0..3000) },
            10 => Fault::CutLink { a: format!("c{c}"), b: format!("broker-{}", rng.gen_range(0..brokers)) },
            // Not for static groups: a static leader restarting with SkipAssignment takes
            // the grown metadata as its snapshot and never reassigns (Kafka's own
            // behaviour, shown by tests/classic_protocol.rs).
            11 if !static_members => Fault::AddPartitions { topic: "orders".into(), count: rng.gen_range(1..=16) },
            _ => Fault::AddConsumer { group: "demo".into() },
        };
        s.faults.push(groupscope::sim::scenario::ScheduledFault { at, fault });
    }
    let world = World::new(s).expect("generated scenarios are valid");
    (world, faults_end)
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
    let classic = world.consumers.values().filter(|c| c.fatal.is_some()).map(|c| c.idx);
    let fatal: Vec<u32> = classic.chain(world.async_consumers.values().filter(|c| c.fatal.is_some()).map(|c| c.idx)).collect();
    for c in fatal {
        world.inject(Fault::CrashConsumer { consumer: c });
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}

fn run(seed: u64) -> Result<(), String> {
    let (mut world, faults_end) = random_world(seed);
    let step_checked = |world: &mut World, until: u64| -> Result<(), String> {
        while world.next_time().is_some_and(|t| t <= until) {
            world.step();
            if let Some(v) = invariants::check(world).first() {
                return Err(format!("seed {seed}: {} at {} ms: {}", v.invariant, world.now, v.detail));
            }
        }
        world.run_until(until);
        Ok(())
    };
    step_checked(&mut world, faults_end + 1)?;
    heal(&mut world);
    let g = &world.scenario.groups[0].config;
    // Worst case after healing: a stale session expires, a join phase waits a
    // rebalance timeout, a sync phase another, plus the initial delay and lookups.
    let bound = 2 * g.session_timeout_ms + 3 * g.max_poll_interval_ms + 3_000 + 10_000;
    let deadline = world.now + bound;
    step_checked(&mut world, deadline)?;
    let (_, group) = world.group("demo").ok_or(format!("seed {seed}: group not loaded after healing"))?;
    for (topic, t) in &world.cluster.topics {
        for p in 0..t.partitions.len() {
            let owned = world.consumers.values().any(|c| {
                c.alive && c.generation == group.generation_id && c.owned.iter().any(|tp| tp.topic == *topic && tp.partition == p as i32)
            });
            if !owned {
                return Err(format!("seed {seed}: {topic}-{p} unowned {bound} ms after healing (group {:?} gen {})", group.state, group.generation_id));
            }
        }
    }
    Ok(())
}

/// The consumer-protocol run: same faults; after healing, every partition must be
/// owned by a live client that is a member of the consumer group.
fn run_consumer_protocol(seed: u64) -> Result<(), String> {
    let (mut world, faults_end) = random_world_with(seed, GroupProtocol::Consumer);
    let step_checked = |world: &mut World, until: u64, supervise: bool| -> Result<(), String> {
        while world.next_time().is_some_and(|t| t <= until) {
            world.step();
            if let Some(v) = invariants::check(world).first() {
                return Err(format!("seed {seed} (consumer protocol): {} at {} ms: {}", v.invariant, world.now, v.detail));
            }
            if supervise && world.async_consumers.values().any(|c| c.fatal.is_some()) {
                restart_fatal(world);
            }
        }
        world.run_until(until);
        Ok(())
    };
    step_checked(&mut world, faults_end + 1, false)?;
    heal(&mut world);
    let g = &world.scenario.groups[0].config;
    let session = world.scenario.broker.consumer_group_session_timeout_ms;
    let bound = 3 * session + 2 * g.max_poll_interval_ms + 10_000;
    let deadline = world.now + bound;
    step_checked(&mut world, deadline, true)?;
    let (_, group) = world.consumer_group("demo").ok_or(format!("seed {seed}: consumer group not loaded after healing"))?;
    for (topic, t) in &world.cluster.topics {
        for p in 0..t.partitions.len() {
            let owned = world.async_consumers.values().any(|c| {
                c.alive && group.members.contains_key(&c.member_id) && c.owned.iter().any(|tp| tp.topic == *topic && tp.partition == p as i32)
            });
            if !owned {
                return Err(format!("seed {seed} (consumer protocol): {topic}-{p} unowned {bound} ms after healing (group {:?} epoch {})", group.state, group.group_epoch));
            }
        }
    }
    Ok(())
}

#[test]
fn random_fault_schedules_keep_every_invariant_and_recover_under_the_consumer_protocol() {
    let n: u64 = std::env::var("SOAK_SCHEDULES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let failures: Vec<String> = (0..n).filter_map(|seed| run_consumer_protocol(seed).err()).collect();
    assert!(failures.is_empty(), "{} of {n} schedules failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn random_fault_schedules_keep_every_invariant_and_recover() {
    let n: u64 = std::env::var("SOAK_SCHEDULES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let failures: Vec<String> = (0..n).filter_map(|seed| run(seed).err()).collect();
    assert!(failures.is_empty(), "{} of {n} schedules failed:\n{}", failures.len(), failures.join("\n"));
}
