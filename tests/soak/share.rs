//! Share-group soak worlds (KIP-932): one or two share groups over one or two
//! topics on 1 to 3 brokers, 1 to 8 share consumers each, random group
//! configs within Kafka 4.4's group bounds (small
//! `share.partition.max.record.locks` and delivery limits among them),
//! implicit or explicit acknowledgement with poison records sometimes, and a
//! random schedule of the faults that apply to share consumers and brokers.
//! Every invariant (single acquirer, delivery limit, SPSO monotonic, terminal
//! stays terminal, epochs) is checked after every step. After healing, every
//! partition a group subscribes to is assigned to a live member of the group,
//! and every share-partition with records to deliver moves its start offset on.

use super::{dump_trace, heal, record_hash, Stepper};
use groupscope::assign::TopicPartition;
use groupscope::sim::scenario::share_config::{
    AcknowledgementMode, OnPoison, PoisonRecord, ShareAutoOffsetReset, ShareGroupConfig, ShareGroupSpec,
};
use groupscope::sim::scenario::{ScheduledFault, TopicSpec};
use groupscope::sim::{Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

pub fn run(seed: u64) -> Result<(), String> {
    let (mut world, faults_end) = random_world(seed);
    let label = format!("share seed {seed}");
    recover(&label, &mut world, faults_end)
        .inspect(|()| record_hash("share", seed, &world))
        .inspect_err(|_| dump_trace("share", seed, &world))
}

fn random_world(seed: u64) -> (World, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5ba7e);
    let mut s = Scenario::demo();
    s.seed = seed;
    s.groups.clear();
    s.brokers = rng.gen_range(1..=3);
    s.topics = vec![TopicSpec {
        name: "orders".into(),
        partitions: rng.gen_range(1..=6),
        records_per_sec: rng.gen_range(1..=20),
    }];
    if rng.gen_bool(0.3) {
        s.topics.push(TopicSpec {
            name: "payments".into(),
            partitions: rng.gen_range(1..=4),
            records_per_sec: rng.gen_range(1..=10),
        });
    }
    let names = s.topics.len();
    s.share_groups.push(random_group("queue", &s.topics, &mut rng));
    if rng.gen_bool(0.3) {
        let mut other = random_group("audit", &s.topics, &mut rng);
        other.consumers = rng.gen_range(1..=4);
        s.share_groups.push(other);
    }
    let clients: u32 = s.share_groups.iter().map(|g| g.consumers).sum();
    let group_ids: Vec<String> = s.share_groups.iter().map(|g| g.group_id.clone()).collect();
    let brokers = s.brokers;
    let mut faults_end = 0;
    for _ in 0..rng.gen_range(1..=8) {
        let at = rng.gen_range(2_000..60_000);
        faults_end = faults_end.max(at);
        let c = rng.gen_range(1..=clients);
        let b = rng.gen_range(0..brokers);
        let fault = match rng.gen_range(0..13) {
            0 => Fault::CrashConsumer { consumer: c },
            1 => Fault::RestartConsumer { consumer: c },
            2 => Fault::CloseConsumer { consumer: c },
            3 => {
                // Past the acquisition lock (15 to 60 s) and the session (45 to 60 s) sometimes.
                let duration_ms =
                    if rng.gen_bool(0.4) { rng.gen_range(30_000..70_000) } else { rng.gen_range(100..15_000) };
                faults_end = faults_end.max(at + duration_ms);
                Fault::PauseConsumer { consumer: c, duration_ms }
            }
            4 => Fault::SlowProcessing { consumer: c, ms_per_record: rng.gen_range(0..=200) },
            5 => Fault::KillBroker { broker: b },
            6 => Fault::RestartBroker { broker: b },
            7 => {
                // The broker stops at its next heartbeat to the controller (2 s
                // on): healing before then would find it still running.
                faults_end = faults_end.max(at + 2_500);
                Fault::ShutdownBroker { broker: b }
            }
            8 => Fault::CutLink { a: format!("c{c}"), b: format!("broker-{b}") },
            9 => Fault::HealLink { a: format!("c{c}"), b: format!("broker-{b}") },
            10 => {
                // `count` is the new total: one to three more than the topic started with.
                let t = &s.topics[rng.gen_range(0..names)];
                Fault::AddPartitions { topic: t.name.clone(), count: t.partitions + rng.gen_range(1..=3) }
            }
            _ => Fault::AddConsumer { group: group_ids[rng.gen_range(0..group_ids.len())].clone() },
        };
        s.faults.push(ScheduledFault { at, fault });
    }
    let world = World::new(s).expect("generated scenarios are valid");
    (world, faults_end)
}

/// One share group over a random choice of `topics`, its configs drawn within
/// Kafka 4.4's group bounds (`GroupConfig`, KIP-1240), its consumers in
/// implicit or explicit mode (with poison records sometimes).
fn random_group(group_id: &str, topics: &[TopicSpec], rng: &mut ChaCha8Rng) -> ShareGroupSpec {
    let mut subscribed: Vec<String> = topics.iter().filter(|_| rng.gen_bool(0.7)).map(|t| t.name.clone()).collect();
    if subscribed.is_empty() {
        subscribed.push(topics[0].name.clone());
    }
    let session_timeout_ms = rng.gen_range(45_000..=60_000);
    let config = ShareGroupConfig {
        session_timeout_ms,
        heartbeat_interval_ms: rng.gen_range(5_000..=15_000),
        record_lock_duration_ms: rng.gen_range(15_000..=60_000),
        delivery_count_limit: rng.gen_range(2..=10),
        partition_max_record_locks: if rng.gen_bool(0.4) {
            rng.gen_range(100..=200)
        } else {
            rng.gen_range(100..=4000)
        },
        assignment_interval_ms: rng.gen_range(0..=15_000),
        auto_offset_reset: if rng.gen_bool(0.5) {
            ShareAutoOffsetReset::Earliest
        } else {
            ShareAutoOffsetReset::Latest
        },
        renew_acknowledge_enable: rng.gen_bool(0.5),
    };
    let mut g = ShareGroupSpec {
        group_id: group_id.into(),
        consumers: rng.gen_range(1..=8),
        topics: subscribed,
        config,
        consumer: Default::default(),
        start_stagger_ms: [0, 300, 2_000][rng.gen_range(0..3)],
    };
    let c = &mut g.consumer;
    c.max_poll_records = [1, 5, 50, 500][rng.gen_range(0..4)];
    c.fetch_max_wait_ms = rng.gen_range(50..=1_000);
    // An application that finishes a full poll() within half the acquisition
    // lock (slower ones are the slowProcessing fault's, until healing).
    let most = g.config.record_lock_duration_ms / 2 / c.max_poll_records as u64;
    c.processing_ms_per_record = rng.gen_range(0..=most.min(50));
    if rng.gen_bool(0.5) {
        c.acknowledgement_mode = AcknowledgementMode::Explicit;
        c.on_poison = if rng.gen_bool(0.5) { OnPoison::Release } else { OnPoison::Reject };
        if rng.gen_bool(0.6) {
            for _ in 0..rng.gen_range(1..=4) {
                let topic = &g.topics[rng.gen_range(0..g.topics.len())];
                let partitions = topics.iter().find(|t| &t.name == topic).map_or(1, |t| t.partitions);
                c.poison_records.push(PoisonRecord {
                    topic: topic.clone(),
                    partition: rng.gen_range(0..partitions) as i32,
                    offset: rng.gen_range(0..200),
                });
            }
        }
    }
    g
}

/// Runs the schedule, heals, and checks that every group recovers within a
/// bound derived from its configs.
fn recover(label: &str, world: &mut World, faults_end: u64) -> Result<(), String> {
    let mut stepper = Stepper::new(label.to_string(), None);
    stepper.run_to(world, faults_end + 1)?;
    heal(world);
    restart_fatal(world);
    // The slow application is fixed too; what it holds it still processes at
    // the slow pace it had when it took the batch (one poll() here is every
    // leader's answer, up to max.poll.records each), so the bound grows by
    // the longest such tail, or a full poll() at the pace it has now.
    let slow_tail = world
        .clients
        .share_consumers()
        .map(|c| {
            let held = c.processing_until.map_or(0, |t| t.saturating_sub(world.now));
            held.max(c.config.max_poll_records as u64 * c.config.processing_ms_per_record)
        })
        .max()
        .unwrap_or(0);
    for g in world.scenario.share_groups.clone() {
        let idx: Vec<u32> =
            world.clients.share_consumers().filter(|c| c.group_id == g.group_id).map(|c| c.idx).collect();
        for c in idx {
            let ms_per_record = g.consumer.processing_ms_per_record;
            world.inject(Fault::SlowProcessing { consumer: c, ms_per_record });
        }
    }
    let at_heal = leaders_start_offsets(world);
    let ends_at_heal: BTreeMap<TopicPartition, i64> =
        at_heal.keys().map(|(_, tp)| (tp.clone(), world.cluster.end_offset(tp))).collect();
    // A stale member's session expires (twice: one found before the heal, one
    // after a rejoin), a heartbeat interval and an assignment interval bring
    // the new target, a record held by a dead member waits its lock out.
    let bound = world
        .scenario
        .share_groups
        .iter()
        .map(|g| {
            let c = &g.config;
            2 * c.session_timeout_ms + c.heartbeat_interval_ms + c.assignment_interval_ms + c.record_lock_duration_ms
        })
        .max()
        .unwrap_or(0)
        + slow_tail
        + 10_000;
    stepper.run_to(world, world.now + bound)?;
    // A coordinator that has just taken a group over (the controller's
    // preferred leader election every leader.imbalance.check.interval.seconds
    // moves `__consumer_offsets` leaders back) loads it first: wait that out.
    let load_by = world.now + COORDINATOR_LOAD_WAIT_MS;
    while world.now < load_by && world.scenario.share_groups.iter().any(|g| world.share_group(&g.group_id).is_none()) {
        stepper.run_to(world, world.now + 100)?;
    }
    for g in world.scenario.share_groups.clone() {
        assigned(label, world, &g, bound)?;
    }
    // A member that cannot keep up is served its partitions in turn: the
    // leader rotates each ShareFetch's partitions by the share session epoch
    // (`SharePartitionManager.fetchMessages`, `PartitionRotateStrategy.rotateRoundRobin`)
    // and fills max.poll.records from the first, so a partition may wait one
    // full poll() per partition of the member's fetch; a released poison
    // record holds the start offset until it is delivered
    // share.delivery.count.limit times, each delivery on such a turn. A
    // share-partition not moved on within the bound gets that much longer.
    let stuck = |world: &World| -> Vec<(String, TopicPartition, i64)> {
        let now = start_offsets(world);
        at_heal
            .iter()
            .filter(|((gid, tp), before)| {
                let waiting = ends_at_heal.get(tp).is_some_and(|end| end > *before);
                waiting && now.get(&(gid.clone(), tp.clone())).is_none_or(|a| a <= *before)
            })
            .map(|((gid, tp), before)| (gid.clone(), tp.clone(), *before))
            .collect()
    };
    let mut first = stuck(world);
    if !first.is_empty() {
        let turns = first.iter().map(|(gid, tp, _)| rotation_turns(world, gid, tp)).max().unwrap_or(0);
        let until = world.now + turns;
        while world.now < until && !stuck(world).is_empty() {
            stepper.run_to(world, (world.now + 1_000).min(until))?;
        }
        first = stuck(world);
        if let Some((gid, tp, before)) = first.first() {
            let after = start_offsets(world).get(&(gid.clone(), tp.clone())).copied();
            return Err(format!(
                "{label}: {gid} {tp} start offset still {before} {} ms after healing (was {before}, log end {} then, now {after:?})",
                bound + turns,
                ends_at_heal[tp]
            ));
        }
    }
    Ok(())
}

/// How long a coordinator may still be loading a group it has just taken over.
const COORDINATOR_LOAD_WAIT_MS: u64 = 5_000;

/// How long a share-partition of `gid` may wait for its turns when its
/// members cannot keep up: one poll() per partition the group subscribes to
/// (a member may fetch them all from one leader), times the deliveries its
/// records may need (a released poison record, records whose locks run out
/// while the application still processes them). A poll() processes each leader's
/// answer (up to max.poll.records each) at the group's pace, after at most
/// fetch.max.wait.ms at the leader and a round trip.
fn rotation_turns(world: &World, gid: &str, tp: &TopicPartition) -> u64 {
    let Some(g) = world.scenario.share_groups.iter().find(|g| g.group_id == gid) else { return 0 };
    let partitions: u64 = world
        .cluster
        .topics
        .iter()
        .filter(|(name, _)| g.topics.iter().any(|t| t == name.as_str()))
        .map(|(_, t)| t.partitions.len() as u64)
        .sum();
    let c = &g.consumer;
    let poll = world.brokers.len() as u64 * c.max_poll_records as u64 * c.processing_ms_per_record
        + c.fetch_max_wait_ms
        + 1_000;
    let released = if c.acknowledgement_mode == AcknowledgementMode::Explicit && c.on_poison == OnPoison::Release {
        c.poison_records.iter().filter(|p| p.topic == tp.topic.as_str() && p.partition == tp.partition).count() as u64
    } else {
        0
    };
    let limit = g.config.delivery_count_limit as u64;
    // A poll() longer than the acquisition lock may see every record it holds
    // time out before its acknowledgement (INVALID_RECORD_STATE): the start
    // offset then moves on only once they reach the limit and are ARCHIVED.
    let per_record = if poll > g.config.record_lock_duration_ms { limit } else { 1 };
    partitions * poll * (per_record + released * limit)
}

/// A share consumer that raised a fatal error is closed and started again by
/// the application's supervisor.
fn restart_fatal(world: &mut World) {
    let fatal: Vec<u32> = world.clients.share_consumers().filter(|c| c.fatal.is_some()).map(|c| c.idx).collect();
    for c in fatal {
        world.inject(Fault::CrashConsumer { consumer: c });
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}

/// Each share-partition's start offset, by (group, partition): its live
/// leader's if that leader has loaded it, else the share coordinator's
/// stored one (a new leader loads it from there on first use, as Kafka's
/// `SharePartitionManager` does lazily).
fn start_offsets(world: &World) -> BTreeMap<(String, TopicPartition), i64> {
    let mut out = leaders_start_offsets(world);
    for (gid, parts) in &world.cluster.share_state {
        for (tp, stored) in parts {
            if stored.start_offset >= 0 {
                out.entry((gid.clone(), tp.clone())).or_insert(stored.start_offset);
            }
        }
    }
    out
}

/// Each share-partition's start offset on its partition's live leader, by (group, partition).
fn leaders_start_offsets(world: &World) -> BTreeMap<(String, TopicPartition), i64> {
    let mut out = BTreeMap::new();
    for b in world.brokers.values().filter(|b| b.alive) {
        for (gid, parts) in &b.share.partitions {
            for (tp, sp) in parts {
                if world.cluster.leader_of(tp) == Some(b.id) {
                    out.insert((gid.clone(), tp.clone()), sp.start_offset);
                }
            }
        }
    }
    out
}

/// Every partition of the group's topics is assigned to at least one live
/// share consumer that is a member of the group (the simple assignor leaves
/// no initialized partition out while the group has members).
fn assigned(label: &str, world: &World, g: &ShareGroupSpec, bound: u64) -> Result<(), String> {
    let gid = g.group_id.as_str();
    let (_, group) = world.share_group(gid).ok_or(format!("{label}: share group {gid} not loaded after healing"))?;
    let topics = world.cluster.topics.iter().filter(|(name, _)| g.topics.iter().any(|t| t == name.as_str()));
    for (topic, t) in topics {
        for p in 0..t.partitions.len() as i32 {
            let owned = world.clients.share_consumers().any(|c| {
                c.alive
                    && c.group_id == gid
                    && group.members.contains_key(&c.member_id)
                    && c.assignment.iter().any(|tp| tp.topic == topic.as_str() && tp.partition == p)
            });
            if !owned {
                return Err(format!(
                    "{label}: {topic}-{p} assigned to no live member of {gid} {bound} ms after healing (group {:?} epoch {})",
                    group.state, group.group_epoch
                ));
            }
        }
    }
    Ok(())
}
