//! Classic Kafka Streams rebalancing soak worlds (`group.protocol=classic`):
//! one application of 1 to 4 instances with 1 to 3 stream threads each over
//! a random topology (as the streams-group worlds draw it), 0 to 2 standby
//! replicas, 1 or 2 warm-up replicas, a random acceptable recovery lag and
//! probing interval, and a random schedule of the faults that apply to
//! stream threads, instances and brokers. Every invariant (among them no
//! task active on two threads of one generation) is checked after every
//! step. After healing, once the group has settled (Stable, every live
//! thread STABLE in its generation, nothing being revoked, no follow-up
//! rebalance due at once), every task runs as an active task on exactly one
//! live thread.

use super::{dump_trace, heal, record_hash, Stepper};
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::coordinator::streams::topology;
use groupscope::sim::scenario::streams_config::{StreamsAppSpec, StreamsGroupProtocol, StreamsInstanceConfig};
use groupscope::sim::scenario::{ScheduledFault, TopicSpec};
use groupscope::sim::streams_message::has_task;
use groupscope::sim::{Fault, Scenario, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const APP: &str = "app";

pub fn run(seed: u64) -> Result<(), String> {
    let (mut world, faults_end) = random_world(seed);
    let label = format!("streams-classic seed {seed}");
    recover(&label, &mut world, faults_end)
        .inspect(|()| record_hash("streams-classic", seed, &world))
        .inspect_err(|_| dump_trace("streams-classic", seed, &world))
}

fn random_world(seed: u64) -> (World, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xc1a55);
    let mut s = Scenario::demo();
    s.seed = seed;
    s.groups.clear();
    s.brokers = rng.gen_range(1..=3);
    s.topics = vec![TopicSpec { name: "orders".into(), partitions: rng.gen_range(1..=6), records_per_sec: 10 }];
    if rng.gen_bool(0.3) {
        s.topics.push(TopicSpec { name: "clicks".into(), partitions: rng.gen_range(1..=4), records_per_sec: 10 });
    }
    let topology = super::streams::random_topology(&s.topics, false, &mut rng);
    let instance = StreamsInstanceConfig {
        group_protocol: StreamsGroupProtocol::Classic,
        num_standby_replicas: rng.gen_range(0..=2),
        max_warmup_replicas: rng.gen_range(1..=2),
        acceptable_recovery_lag: [0, 1_000, 10_000][rng.gen_range(0..3)],
        probing_rebalance_interval_ms: rng.gen_range(60_000..=120_000),
        session_timeout_ms: rng.gen_range(10_000..=45_000),
        on_tasks_revoked_ms: rng.gen_range(0..=500),
        max_poll_interval_ms: rng.gen_range(30_000..=300_000),
        changelog_records_per_task: rng.gen_range(0..=200_000),
        restore_records_per_second: rng.gen_range(5_000..=20_000),
        ..Default::default()
    };
    let instances = rng.gen_range(1..=4);
    let threads = rng.gen_range(1..=3);
    s.streams_apps.push(StreamsAppSpec {
        application_id: APP.into(),
        instances,
        threads_per_instance: threads,
        topology,
        config: Default::default(),
        instance,
        start_at_ms: 0,
        start_stagger_ms: [0, 300, 5_000][rng.gen_range(0..3)],
    });
    let thread_of = |i: u32, t: u32| (i - 1) * threads + t;
    let brokers = s.brokers;
    let mut faults_end = 0;
    for _ in 0..rng.gen_range(1..=8) {
        let at = rng.gen_range(2_000..90_000);
        faults_end = faults_end.max(at);
        let i = rng.gen_range(1..=instances);
        let one = thread_of(i, rng.gen_range(1..=threads));
        let all: Vec<u32> = (1..=threads).map(|t| thread_of(i, t)).collect();
        let b = rng.gen_range(0..brokers);
        let each = |f: fn(u32) -> Fault| all.iter().map(|c| f(*c)).collect::<Vec<_>>();
        let drawn: Vec<Fault> = match rng.gen_range(0..12) {
            0 => vec![Fault::CrashConsumer { consumer: one }],
            1 => each(|consumer| Fault::CrashConsumer { consumer }),
            2 => vec![Fault::RestartConsumer { consumer: one }],
            3 => each(|consumer| Fault::RestartConsumer { consumer }),
            // KafkaStreams.close(): no LeaveGroup under the classic protocol.
            4 => each(|consumer| Fault::CloseConsumer { consumer }),
            5 => {
                let duration_ms =
                    if rng.gen_bool(0.3) { rng.gen_range(40_000..70_000) } else { rng.gen_range(100..15_000) };
                faults_end = faults_end.max(at + duration_ms);
                all.iter().map(|c| Fault::PauseConsumer { consumer: *c, duration_ms }).collect()
            }
            6 => vec![Fault::KillBroker { broker: b }],
            7 => vec![Fault::RestartBroker { broker: b }],
            8 => {
                faults_end = faults_end.max(at + 2_500);
                vec![Fault::ShutdownBroker { broker: b }]
            }
            9 => all.iter().map(|c| Fault::CutLink { a: format!("c{c}"), b: format!("broker-{b}") }).collect(),
            10 => vec![Fault::CutLink { a: format!("c{one}"), b: format!("broker-{b}") }],
            _ => vec![Fault::AddInstance { group: APP.into() }],
        };
        s.faults.extend(drawn.into_iter().map(|fault| ScheduledFault { at, fault }));
    }
    s.faults.sort_by_key(|f| f.at);
    (World::new(s).expect("generated scenarios are valid"), faults_end)
}

/// Runs the schedule, heals, restarts closed threads, and waits for the
/// group to settle within a bound derived from its configs.
fn recover(label: &str, world: &mut World, faults_end: u64) -> Result<(), String> {
    let mut stepper = Stepper::new(label.to_string(), None);
    stepper.run_to(world, faults_end + 1)?;
    heal(world);
    restart_stopped(world);
    let c = world.scenario.streams_apps[0].instance.clone();
    // A dead member's session expires (twice: one found before the heal, one
    // after), the initial rebalance delay, a probing rebalance once warm-ups
    // have caught up (restoration), the follow-up after it, heartbeats to
    // notice each rebalance, and revocations; and a JoinGroup lost on a cut
    // link, which fails only after its timeout (the rebalance timeout + 5 s,
    // `joinGroupTimeoutMs`: no heartbeat runs while a member is joining).
    let restore = (c.changelog_records_per_task as u64 * 1000).div_ceil(c.restore_records_per_second as u64);
    let bound = 2 * c.session_timeout_ms
        + 3_000
        + restore
        + 2 * c.probing_rebalance_interval_ms
        + 6 * c.heartbeat_interval_ms
        + 4 * c.on_tasks_revoked_ms
        + c.max_poll_interval_ms
        + 5_000
        + 10_000;
    let deadline = world.now + bound;
    while world.now < deadline {
        stepper.run_to(world, (world.now + 1_000).min(deadline))?;
        restart_stopped(world);
        if settled(world) {
            return owned_once(label, world);
        }
    }
    Err(format!("{label}: the group has not settled {bound} ms after healing ({})", describe(world)))
}

/// Threads that closed or raised a fatal error are started again.
fn restart_stopped(world: &mut World) {
    let stopped: Vec<u32> = world
        .clients
        .streams_threads()
        .filter(|t| t.alive && (t.fatal.is_some() || t.closing))
        .map(|t| t.idx)
        .collect();
    for c in stopped {
        world.inject(Fault::CrashConsumer { consumer: c });
        world.inject(Fault::RestartConsumer { consumer: c });
    }
}

/// The group is Stable with only live threads as members (a dead one's
/// session has expired), every live thread is STABLE in the group's
/// generation with nothing being revoked and no rebalance due within a second.
fn settled(world: &World) -> bool {
    let Some((_, g)) = world.group(APP) else { return false };
    if g.state != ClassicGroupState::Stable {
        return false;
    }
    let live: Vec<&str> =
        world.clients.streams_threads().filter(|t| t.alive).map(|t| t.client().membership.member_id.as_str()).collect();
    if g.members.keys().any(|m| !live.contains(&m.as_str())) {
        return false;
    }
    world.clients.streams_threads().filter(|t| t.alive).all(|t| {
        t.membership.state == MemberState::STABLE
            && t.membership.generation == g.generation_id
            && t.revoking_until.is_none()
            && t.next_rebalance_at.is_none_or(|at| at > world.now + 1_000)
            && g.members.contains_key(&t.membership.member_id)
    })
}

/// Every task of the topology is active on exactly one live thread.
fn owned_once(label: &str, world: &World) -> Result<(), String> {
    let topics: BTreeMap<String, i32> =
        world.cluster.topics.iter().map(|(n, t)| (n.clone(), t.partitions.len() as i32)).collect();
    let app = &world.scenario.streams_apps[0];
    let configured = topology::configure(&app.topology, &topics);
    for sub in &configured.subtopologies {
        for p in 0..sub.num_tasks {
            let owners: Vec<String> = world
                .clients
                .streams_threads()
                .filter(|t| t.alive && has_task(&t.owned.active, &sub.id, p))
                .map(|t| t.name())
                .collect();
            if owners.len() != 1 {
                return Err(format!(
                    "{label}: task {}_{p} active on {owners:?} once settled ({})",
                    sub.id,
                    describe(world)
                ));
            }
        }
    }
    Ok(())
}

fn describe(world: &World) -> String {
    let group = world.group(APP).map(|(_, g)| format!("{:?} generation {}", g.state, g.generation_id));
    let threads: Vec<String> = world
        .clients
        .streams_threads()
        .filter(|t| t.alive)
        .map(|t| format!("{} {:?} gen {}", t.name(), t.membership.state, t.membership.generation))
        .collect();
    format!("group {group:?}; threads {}", threads.join(", "))
}
