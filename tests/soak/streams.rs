//! Streams-group soak worlds (KIP-1071): one Kafka Streams application of 1
//! to 4 instances with 1 to 3 stream threads each, over a random topology (1
//! to 3 subtopologies, stateless or stateful, sometimes one reading a
//! repartition topic, sometimes one reading a source topic created later),
//! 0 to 2 standby replicas, static members sometimes, random group configs
//! within Kafka 4.4's bounds, and a random schedule of the faults that apply
//! to stream threads, instances and brokers. Every invariant (single active
//! owner, standby apart, epochs, member transitions) is checked after every
//! step. After healing, the group is Stable and every task of the topology
//! runs as an active task on exactly one live member.

use super::{dump_trace, heal, record_hash, Stepper};
use groupscope::sim::coordinator::streams::StreamsGroupState;
use groupscope::sim::scenario::streams_config::{StreamsAppSpec, StreamsInstanceConfig};
use groupscope::sim::scenario::{ScheduledFault, TopicSpec};
use groupscope::sim::streams_message::{has_task, StreamsGroupConfig, StreamsTopology, Subtopology, TopicInfo};
use groupscope::sim::{Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const APP: &str = "app";

pub fn run(seed: u64) -> Result<(), String> {
    let (mut world, faults_end, shutdown) = random_world(seed);
    let label = format!("streams seed {seed}");
    recover(&label, &mut world, faults_end, shutdown)
        .inspect(|()| record_hash("streams", seed, &world))
        .inspect_err(|_| dump_trace("streams", seed, &world))
}

/// A random application and fault schedule; also the time the last fault
/// ends and whether a thread asks for the application's shutdown.
fn random_world(seed: u64) -> (World, u64, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x57ea5);
    let mut s = Scenario::demo();
    s.seed = seed;
    s.groups.clear();
    s.brokers = rng.gen_range(1..=3);
    s.topics = vec![TopicSpec { name: "orders".into(), partitions: rng.gen_range(1..=6), records_per_sec: 10 }];
    if rng.gen_bool(0.3) {
        s.topics.push(TopicSpec { name: "clicks".into(), partitions: rng.gen_range(1..=4), records_per_sec: 10 });
    }
    let mut faults_end = 0;
    let mut faults = Vec::new();
    // A subtopology reading a topic that does not exist yet (the group is
    // NotReady with MISSING_SOURCE_TOPICS until it is created).
    let late = rng.gen_bool(0.15);
    if late {
        let at = rng.gen_range(1_000..40_000);
        faults_end = faults_end.max(at);
        let partitions = rng.gen_range(1..=4);
        faults.push(ScheduledFault { at, fault: Fault::CreateTopic { topic: "late".into(), partitions } });
    }
    let topology = random_topology(&s.topics, late, &mut rng);
    let static_members = rng.gen_bool(0.3);
    let session_timeout_ms = rng.gen_range(45_000..=60_000);
    let config = StreamsGroupConfig {
        session_timeout_ms,
        heartbeat_interval_ms: rng.gen_range(5_000..=15_000),
        num_standby_replicas: rng.gen_range(0..=2),
        initial_rebalance_delay_ms: [0, 3_000, 10_000][rng.gen_range(0..3)],
        assignment_interval_ms: rng.gen_range(0..=15_000),
    };
    // Shorter than the session sometimes, so that a rebalance timeout
    // fences a member before its session would.
    let max_poll_interval_ms =
        if rng.gen_bool(0.3) { rng.gen_range(10_000..30_000) } else { rng.gen_range(30_000..=300_000) };
    let instance = StreamsInstanceConfig {
        group_instance_id: static_members.then(|| APP.to_string()),
        max_poll_interval_ms,
        // A slow onTasksRevoked sometimes, so that faults land mid-revocation;
        // within half the rebalance timeout (an application whose revocation
        // outlasts max.poll.interval.ms is fenced at every rebalance and
        // never settles, in Kafka as here).
        on_tasks_revoked_ms: if rng.gen_bool(0.3) {
            rng.gen_range(1_000..=max_poll_interval_ms / 2)
        } else {
            rng.gen_range(0..=200)
        },
        changelog_records_per_task: rng.gen_range(0..=50_000),
        restore_records_per_second: rng.gen_range(1_000..=20_000),
        ..Default::default()
    };
    let instances = rng.gen_range(1..=4);
    let threads = rng.gen_range(1..=3);
    s.streams_apps.push(StreamsAppSpec {
        application_id: APP.into(),
        instances,
        threads_per_instance: threads,
        topology,
        config,
        instance,
        start_at_ms: 0,
        start_stagger_ms: [0, 300, 5_000][rng.gen_range(0..3)],
    });
    // Thread t of instance i is client c<(i-1)·threads + t>.
    let thread_of = |i: u32, t: u32| (i - 1) * threads + t;
    let brokers = s.brokers;
    let mut shutdown = false;
    for _ in 0..rng.gen_range(1..=8) {
        let at = rng.gen_range(2_000..60_000);
        faults_end = faults_end.max(at);
        let i = rng.gen_range(1..=instances);
        let one = thread_of(i, rng.gen_range(1..=threads));
        let all: Vec<u32> = (1..=threads).map(|t| thread_of(i, t)).collect();
        let b = rng.gen_range(0..brokers);
        let each = |f: fn(u32) -> Fault| all.iter().map(|c| f(*c)).collect::<Vec<_>>();
        let drawn: Vec<Fault> = match rng.gen_range(0..15) {
            0 => vec![Fault::CrashConsumer { consumer: one }],
            1 => each(|consumer| Fault::CrashConsumer { consumer }),
            2 => vec![Fault::RestartConsumer { consumer: one }],
            3 => each(|consumer| Fault::RestartConsumer { consumer }),
            // KafkaStreams.close(): a static member leaves with epoch −2.
            4 => each(|consumer| Fault::CloseConsumer { consumer }),
            5 => {
                // Past the session (45 to 60 s) sometimes.
                let duration_ms =
                    if rng.gen_bool(0.3) { rng.gen_range(40_000..70_000) } else { rng.gen_range(100..15_000) };
                faults_end = faults_end.max(at + duration_ms);
                all.iter().map(|c| Fault::PauseConsumer { consumer: *c, duration_ms }).collect()
            }
            6 => vec![Fault::KillBroker { broker: b }],
            7 => vec![Fault::RestartBroker { broker: b }],
            8 => {
                // The broker stops at its next heartbeat to the controller (2 s on).
                faults_end = faults_end.max(at + 2_500);
                vec![Fault::ShutdownBroker { broker: b }]
            }
            // A network partition: the instance (or one thread) from a broker.
            9 => all.iter().map(|c| Fault::CutLink { a: format!("c{c}"), b: format!("broker-{b}") }).collect(),
            10 => vec![Fault::CutLink { a: format!("c{one}"), b: format!("broker-{b}") }],
            11 => all.iter().map(|c| Fault::HealLink { a: format!("c{c}"), b: format!("broker-{b}") }).collect(),
            12 => vec![Fault::SetStandbyReplicas { group: APP.into(), replicas: rng.gen_range(0..=2) }],
            // SHUTDOWN_APPLICATION: every thread closes; the operator starts
            // the application again once the group is empty. Static members
            // keep the group from emptying for their session, so only dynamic ones.
            13 if !static_members => {
                shutdown = true;
                vec![Fault::RequestShutdown { consumer: one }]
            }
            _ => vec![Fault::AddInstance { group: APP.into() }],
        };
        s.faults.extend(drawn.into_iter().map(|fault| ScheduledFault { at, fault }));
    }
    s.faults.extend(faults);
    s.faults.sort_by_key(|f| f.at);
    let world = World::new(s).expect("generated scenarios are valid");
    (world, faults_end, shutdown)
}

/// 1 to 3 subtopologies: the first reads `orders` (and maybe writes a
/// repartition topic a second one reads), others read `clicks` or the topic
/// created later; each stateful (a changelog) or not.
pub(super) fn random_topology(topics: &[TopicSpec], late: bool, rng: &mut ChaCha8Rng) -> StreamsTopology {
    let changelog = |id: &str, rng: &mut ChaCha8Rng| {
        if rng.gen_bool(0.6) {
            vec![TopicInfo { name: format!("{APP}-store{id}-changelog"), partitions: None }]
        } else {
            Vec::new()
        }
    };
    let mut subs = vec![Subtopology {
        subtopology_id: "0".into(),
        source_topics: vec!["orders".into()],
        state_changelog_topics: changelog("0", rng),
        ..Subtopology::default()
    }];
    if rng.gen_bool(0.4) {
        let repartition = format!("{APP}-by-key-repartition");
        subs[0].repartition_sink_topics.push(repartition.clone());
        let partitions = rng.gen_bool(0.5).then(|| rng.gen_range(1..=6));
        subs.push(Subtopology {
            subtopology_id: subs.len().to_string(),
            repartition_source_topics: vec![TopicInfo { name: repartition, partitions }],
            state_changelog_topics: changelog("1", rng),
            ..Subtopology::default()
        });
    }
    for name in ["clicks", "late"] {
        let exists = topics.iter().any(|t| t.name == name) || (name == "late" && late);
        if exists {
            let id = subs.len().to_string();
            subs.push(Subtopology {
                subtopology_id: id.clone(),
                source_topics: vec![name.into()],
                state_changelog_topics: changelog(&id, rng),
                ..Subtopology::default()
            });
        }
    }
    StreamsTopology { epoch: 1, subtopologies: subs }
}

/// Runs the schedule, heals, and checks that the group recovers within a
/// bound derived from its configs.
fn recover(label: &str, world: &mut World, faults_end: u64, shutdown: bool) -> Result<(), String> {
    let mut stepper = Stepper::new(label.to_string(), None);
    stepper.run_to(world, faults_end + 1)?;
    heal(world);
    supervise(world);
    let app = world.scenario.streams_apps[0].clone();
    let c = &app.config;
    // Configs changed by setStandbyReplicas apply on the next heartbeat; the
    // group's session, heartbeat, delay and interval stay as configured.
    let revoke = app.instance.on_tasks_revoked_ms;
    // A stale member's session expires (twice: one found before the heal, one
    // after a rejoin); the initial rebalance delay of a group that emptied,
    // the assignment interval, heartbeat intervals to take the target and to
    // report the revocation, the revocation itself (twice: a newer target may
    // revoke again); internal topics are created 500 ms after a heartbeat
    // asks. No rebalance timeout (max.poll.interval.ms): after healing every
    // member revoking is live and acknowledges in onTasksRevokedMs (half
    // its rebalance timeout at most), or is dead and its session or
    // rebalance timeout, counted from before the heal, fences it. After a shutdown the application
    // starts again once the group is empty: one more session.
    let bound = 2 * c.session_timeout_ms
        + c.initial_rebalance_delay_ms
        + c.assignment_interval_ms
        + 3 * c.heartbeat_interval_ms
        + 2 * revoke
        + if shutdown { c.session_timeout_ms + c.heartbeat_interval_ms } else { 0 }
        + 10_000;
    let deadline = world.now + bound;
    while world.now < deadline {
        stepper.run_to(world, (world.now + 1_000).min(deadline))?;
        supervise(world);
    }
    // A coordinator that has just taken the group over loads it first.
    let load_by = world.now + COORDINATOR_LOAD_WAIT_MS;
    while world.now < load_by && world.streams_group(APP).is_none() {
        stepper.run_to(world, world.now + 100)?;
    }
    stale_rebalance_timeouts(label, world)?;
    owned_once(label, world, bound)
}

/// A rebalance timeout fences only a member still at the epoch it was armed
/// at (`scheduleStreamsGroupRebalanceTimeout`), and it is armed only while
/// the member revokes, at an epoch of 0 or more: a member fenced by it at a
/// negative epoch (a static member that left with −2) was fenced by a
/// timeout armed before it left.
fn stale_rebalance_timeouts(label: &str, world: &World) -> Result<(), String> {
    use groupscope::sim::note::Note;
    use groupscope::sim::reason::FenceReason;
    use groupscope::sim::trace::EventKind;
    for e in world.trace.iter() {
        if let EventKind::Note {
            note: Note::MemberFenced { member_id, reason: FenceReason::RevocationTimeout { epoch }, .. },
            ..
        } = &e.kind
        {
            if *epoch < 0 {
                return Err(format!(
                    "{label}: {member_id} fenced at {} ms by a rebalance timeout at epoch {epoch}",
                    e.at
                ));
            }
        }
    }
    Ok(())
}

/// How long a coordinator may still be loading a group it has just taken over.
const COORDINATOR_LOAD_WAIT_MS: u64 = 5_000;

/// The application's operator: a thread that raised a fatal error is
/// started again; threads that closed on SHUTDOWN_APPLICATION are started
/// again once the group has forgotten the request (it is cleared when the
/// group becomes empty, `StreamsGroup.maybeUpdateGroupState`).
fn supervise(world: &mut World) {
    let requested = world.streams_group(APP).is_some_and(|(_, g)| g.shutdown_requested_by.is_some());
    let stopped: Vec<u32> = world
        .clients
        .streams_threads()
        .filter(|t| t.alive && (t.fatal.is_some() || (t.closing && !requested)))
        .map(|t| t.idx)
        .collect();
    for c in stopped {
        world.inject(Fault::CrashConsumer { consumer: c });
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}

/// The group is Stable and every task of the configured topology is active
/// on exactly one live thread that is a member of the group.
fn owned_once(label: &str, world: &World, bound: u64) -> Result<(), String> {
    let (_, group) =
        world.streams_group(APP).ok_or(format!("{label}: streams group {APP} not loaded after healing"))?;
    if group.state != StreamsGroupState::Stable {
        return Err(format!(
            "{label}: group {:?} {bound} ms after healing (group epoch {}, assignment epoch {})",
            group.state, group.group_epoch, group.assignment_epoch
        ));
    }
    let configured =
        group.configured.as_ref().ok_or(format!("{label}: the topology is not configured {bound} ms after healing"))?;
    for sub in &configured.subtopologies {
        for p in 0..sub.num_tasks {
            let owners: Vec<String> = world
                .clients
                .streams_threads()
                .filter(|t| {
                    t.alive
                        && !t.closing
                        && group.members.contains_key(&t.member_id)
                        && has_task(&t.owned.active, &sub.id, p)
                })
                .map(|t| t.name())
                .collect();
            if owners.len() != 1 {
                return Err(format!(
                    "{label}: task {}_{p} active on {owners:?} {bound} ms after healing (group epoch {})",
                    sub.id, group.group_epoch
                ));
            }
        }
    }
    Ok(())
}
