//! Assignor benchmarks on three generated shapes (see docs/assignors.md):
//! (i) 1,000 members, 10 topics x 1,000 partitions, all subscribed, fresh;
//! (ii) the same after 10 members leave, survivors owning their assignment;
//! (iii) heterogeneous: each member subscribes to a seeded random half of
//!       50 topics x 200 partitions.
//! Plus the streams task assignor `sticky`: 20 processes x 4 members on 3
//! stateful subtopologies of 32 tasks, 1 standby replica, fresh.

use criterion::{criterion_group, criterion_main, Criterion};
use groupscope::assign::case::{AnyAssignor, Case, CaseMember};
use groupscope::assign::streams::{sticky_assign, StreamsGroupSpec, StreamsMemberSpec, Subtopology, TopologyDescriber};
use groupscope::assign::{client_assignor, server_assignor, Assignment};
use rand::Rng;
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

const ASSIGNORS: [&str; 6] = ["uniform", "server-range", "range", "roundrobin", "sticky", "cooperative-sticky"];

fn members(n: usize, topics: impl Fn(usize) -> Vec<String>) -> Vec<CaseMember> {
    (0..n)
        .map(|i| CaseMember { id: format!("consumer-{i:04}"), subscriptions: topics(i), ..CaseMember::default() })
        .collect()
}

fn homogeneous(assignor: &str) -> Case {
    let names: Vec<String> = (0..10).map(|t| format!("topic-{t}")).collect();
    Case {
        assignor: assignor.to_string(),
        topics: names.iter().map(|t| (t.clone(), 1000)).collect(),
        members: members(1000, |_| names.clone()),
        ..Case::default()
    }
}

/// Shape (ii): ten members leave; the rest own what they got in shape (i).
fn after_leave(assignor: &str, fresh: &Assignment) -> Case {
    let mut c = homogeneous(assignor);
    let leavers: Vec<String> = (0..10).map(|k| format!("consumer-{:04}", k * 100 + 7)).collect();
    c.members.retain(|m| !leavers.contains(&m.id));
    for m in &mut c.members {
        m.owned = fresh.get(&m.id).cloned().unwrap_or_default();
        m.generation = Some(1);
    }
    c
}

fn heterogeneous(assignor: &str) -> Case {
    let names: Vec<String> = (0..50).map(|t| format!("topic-{t:02}")).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let subs: Vec<Vec<String>> = (0..1000)
        .map(|_| {
            // a partial Fisher-Yates shuffle picks 25 of the 50 topics
            let mut order: Vec<usize> = (0..names.len()).collect();
            for i in 0..25 {
                let j = rng.gen_range(i..order.len());
                order.swap(i, j);
            }
            let mut picked: Vec<usize> = order[..25].to_vec();
            picked.sort_unstable();
            picked.iter().map(|t| names[*t].clone()).collect()
        })
        .collect();
    Case {
        assignor: assignor.to_string(),
        topics: names.iter().map(|t| (t.clone(), 200)).collect(),
        members: members(1000, |i| subs[i].clone()),
        ..Case::default()
    }
}

fn run(case: &Case) -> Assignment {
    let mut assignor: AnyAssignor = case.new_assignor().expect("assignor");
    case.run(&mut assignor).expect("assignment")
}

/// Times only the assignor call: inputs are built once, outside the loop (a
/// fresh client assignor per call, as a new leader would have).
fn time_assign(b: &mut criterion::Bencher, case: &Case) {
    if case.family().expect("family").is_server() {
        let (group, topics) = case.group_spec().expect("group spec");
        let assignor = server_assignor(case.family().expect("family").kafka_name()).expect("assignor");
        b.iter(|| black_box(assignor.assign(&group, &topics).expect("assignment")));
    } else {
        let (cluster, subs) = (case.cluster(), case.subscriptions().expect("subscriptions"));
        let name = case.family().expect("family").kafka_name();
        b.iter(|| {
            let mut assignor = client_assignor(name).expect("assignor");
            black_box(assignor.assign(&cluster, &subs).expect("assignment"))
        });
    }
}

/// 20 processes x 4 members (stream threads), 3 stateful subtopologies x 32 tasks, 1 standby.
fn streams_group() -> (StreamsGroupSpec, TopologyDescriber) {
    let members = (0..20)
        .flat_map(|p| (0..4).map(move |t| (p, t)))
        .map(|(p, t)| {
            let spec = StreamsMemberSpec { process_id: format!("process-{p:02}"), ..StreamsMemberSpec::default() };
            (format!("process-{p:02}-thread-{t}"), spec)
        })
        .collect();
    let subtopologies = (0..3).map(|s| Subtopology { id: s.to_string(), num_tasks: 32, stateful: true }).collect();
    (StreamsGroupSpec { members, num_standby_replicas: 1 }, TopologyDescriber { subtopologies })
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("assignors");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for name in ASSIGNORS {
        let fresh = homogeneous(name);
        let fresh_out = run(&fresh);
        let leave = after_leave(name, &fresh_out);
        let hetero = heterogeneous(name);
        group.bench_function(format!("{name}/i-fresh"), |b| time_assign(b, &fresh));
        group.bench_function(format!("{name}/ii-after-leave"), |b| time_assign(b, &leave));
        group.bench_function(format!("{name}/iii-heterogeneous"), |b| time_assign(b, &hetero));
    }
    let (streams, topology) = streams_group();
    group.bench_function("streams-sticky/20x4-3x32-standby1", |b| {
        b.iter(|| black_box(sticky_assign(&streams, &topology).expect("assignment")))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
