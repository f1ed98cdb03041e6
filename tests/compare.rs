//! Side-by-side protocol comparison (issue 5): the metrics on hand-computable
//! scenarios, then the qualitative facts of the shipped comparison
//! `scenarios/compare-crash.json` (one consumer of ten crashes at 15000 ms and
//! restarts at 17000 ms; session.timeout.ms 6000, heartbeat.interval.ms 2000,
//! 100 ms per message).
#![cfg(not(target_arch = "wasm32"))]

use groupscope::assign::TopicPartition;
use groupscope::compare::ownership::snapshot;
use groupscope::compare::patch::merge_patch;
use groupscope::compare::{run, Comparison, Observer, SideBySide};
use groupscope::sim::trace::{Callback, EventKind};
use groupscope::sim::{invariants, Fault, Millis, Scenario, World};
use serde_json::json;
use std::collections::BTreeMap;

const EXAMPLE: &str = include_str!("../scenarios/compare-crash.json");
const CRASH_AT: Millis = 15_000;
const RESTART_AT: Millis = 17_000;
const UNTIL: Millis = 40_000;
const SESSION_TIMEOUT: Millis = 6000;
const HEARTBEAT_INTERVAL: Millis = 2000;
const LATENCY: Millis = 100;

fn example() -> Comparison {
    Comparison::from_json(EXAMPLE).expect("the shipped comparison is valid")
}

/// The example's variant `name`, as a scenario.
fn variant(name: &str) -> Scenario {
    example().scenarios().unwrap().into_iter().find(|(n, _)| n == name).expect("variant exists").1
}

/// Runs `s` to `until`, checking invariants and calling `f` after every step.
fn watch(s: Scenario, until: Millis, mut f: impl FnMut(&World, &Observer)) -> (World, Observer) {
    let mut world = World::new(s).expect("valid scenario");
    let mut obs = Observer::new("demo");
    while world.next_time().is_some_and(|t| t <= until) {
        world.step();
        assert!(invariants::check(&world).is_empty(), "invariant violated at {} ms", world.now);
        obs.observe(&world);
        f(&world, &obs);
    }
    world.run_until(until);
    obs.observe(&world);
    (world, obs)
}

/// `consumers` consumers of `demo` on `orders` with `partitions` partitions.
fn small(consumers: u32, partitions: u32, assignor: &str) -> Scenario {
    let mut s = Scenario::demo();
    s.topics[0].partitions = partitions;
    s.groups[0].consumers = consumers;
    s.groups[0].config.assignors = vec![assignor.into()];
    s
}

fn owned_at(world: &World, c: u32) -> Vec<TopicPartition> {
    world.clients.classic(c).unwrap().owned.clone()
}

// ---- merge-patch and validation ----

#[test]
fn merge_patch_follows_rfc_7386() {
    // RFC 7386 appendix A, a selection.
    let cases = [
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "b"}), json!({"b": "c"}), json!({"a": "b", "b": "c"})),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": {"b": "c"}}), json!({"a": {"b": "d", "c": null}}), json!({"a": {"b": "d"}})),
        (json!({"a": [{"b": "c"}]}), json!({"a": [1]}), json!({"a": [1]})),
        (json!(["a", "b"]), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"e": null}), json!({"a": 1}), json!({"e": null, "a": 1})),
        (json!({}), json!({"a": {"bb": {"ccc": null}}}), json!({"a": {"bb": {}}})),
    ];
    for (mut target, patch, expected) in cases {
        merge_patch(&mut target, &patch);
        assert_eq!(target, expected, "patch {patch}");
    }
}

#[test]
fn a_variant_patches_every_groups_config_and_group_fields_but_not_the_fault_script() {
    let c = example();
    let scenarios = c.scenarios().unwrap();
    assert_eq!(scenarios[0].1.groups[0].config.assignors, ["range"]);
    assert_eq!(scenarios[1].1.groups[0].config.assignors, ["cooperative-sticky"]);
    assert!(scenarios[2].1.groups[0].static_members && !scenarios[0].1.groups[0].static_members);
    for (_, s) in &scenarios {
        assert_eq!(s.faults, c.scenario.faults);
        assert_eq!(s.groups[0].config.session_timeout_ms, SESSION_TIMEOUT, "keys the patch does not name are kept");
    }
}

#[test]
fn invalid_comparisons_are_rejected_with_a_message_naming_the_variant_and_field() {
    let with_variants = |variants: serde_json::Value| {
        let mut c: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
        c["variants"] = variants;
        Comparison::from_json(&c.to_string()).unwrap_err()
    };
    let e = with_variants(json!([{"name": "a"}, {"name": "typo", "config": {"group.protocl": "consumer"}}]));
    assert!(
        e.contains("variant 'typo'") && e.contains("groups[0].config.group.protocl: unknown field `group.protocl`"),
        "{e}"
    );
    let e =
        with_variants(json!([{"name": "a"}, {"name": "b", "config": {"partition.assignment.strategy": ["fancy"]}}]));
    assert!(e.contains("variant 'b'") && e.contains("unknown assignor 'fancy'"), "{e}");
    let e = with_variants(json!([{"name": "a"}, {"name": "b", "config": {"heartbeat.interval.ms": 9000}}]));
    assert!(e.contains("variant 'b'") && e.contains("heartbeat.interval.ms"), "{e}");
    let e = with_variants(json!([{"name": "a"}, {"name": "b", "group": {"groupId": "other"}}]));
    assert!(e.contains("groupId cannot be patched"), "{e}");
    let e = with_variants(json!([{"name": "a"}, {"name": "a"}]));
    assert!(e.contains("'a' is used twice"), "{e}");
    let e = with_variants(json!([{"name": "a"}]));
    assert!(e.contains("1 given"), "{e}");
    let e = with_variants(json!([{"name": "a"}, {"name": "b", "config": ["range"]}]));
    assert!(e.contains("config must be a JSON object"), "{e}");
}

// ---- each metric on a hand-computable scenario ----

#[test]
fn a_gc_pause_makes_the_paused_members_partitions_unavailable_for_exactly_its_duration() {
    // 2 consumers, 4 partitions, 2 each. c1 pauses for 3000 ms at 12000: less than
    // session.timeout.ms (6000) minus heartbeat.interval.ms (2000), so the
    // coordinator never expires it and nothing rebalances. Its 2 partitions stop
    // for exactly 3000 ms each; c2 keeps processing, so the world never stops.
    let mut s = small(2, 4, "range");
    s.faults.push(groupscope::sim::scenario::ScheduledFault {
        at: 12_000,
        fault: Fault::PauseConsumer { consumer: 1, duration_ms: 3000 },
    });
    let (_, obs) = watch(s, 20_000, |_, _| {});
    let m = &obs.metrics;
    assert!(m.measured_from_ms.unwrap() < 12_000, "start-up is over before the pause");
    assert_eq!(m.unavailable_ms, 2 * 3000);
    assert_eq!(m.longest_stop_the_world_ms, 0);
    assert_eq!((m.rebalances, m.partitions_moved), (0, 0));
    assert_eq!(m.time_to_stable_ms, Some(0), "a paused member still owns its partitions in a Stable group");
}

#[test]
fn a_pause_of_the_only_member_is_a_stop_the_world_pause_of_its_duration() {
    let mut s = small(1, 2, "range");
    s.faults.push(groupscope::sim::scenario::ScheduledFault {
        at: 12_000,
        fault: Fault::PauseConsumer { consumer: 1, duration_ms: 2500 },
    });
    let (_, obs) = watch(s, 20_000, |_, _| {});
    assert_eq!(obs.metrics.longest_stop_the_world_ms, 2500);
    assert_eq!(obs.metrics.unavailable_ms, 2 * 2500);
}

#[test]
fn a_crashed_members_partitions_move_once_each_after_one_rebalance() {
    // 2 consumers, 4 partitions: range gives c1 demo-0,1 and c2 2,3. c2 crashes at
    // 12000; its session expires, one rebalance gives c1 all four: 2 moves.
    for assignor in ["range", "cooperative-sticky"] {
        let mut s = small(2, 4, assignor);
        s.faults.push(groupscope::sim::scenario::ScheduledFault {
            at: 12_000,
            fault: Fault::CrashConsumer { consumer: 2 },
        });
        let mut c2_owned = Vec::new();
        let (world, obs) = watch(s, 30_000, |w, _| {
            if w.now < 12_000 {
                c2_owned = owned_at(w, 2);
            }
        });
        let m = &obs.metrics;
        assert_eq!(c2_owned.len(), 2, "{assignor}");
        assert_eq!(owned_at(&world, 1).len(), 4, "{assignor}");
        assert_eq!((m.rebalances, m.partitions_moved), (1, 2), "{assignor}");
        // c2's last successful heartbeat was at most one interval plus a round trip
        // before the crash; the coordinator expires it session.timeout.ms after its
        // last heartbeat, so recovery takes at least 6000 - 2000 - 200 ms, and c1
        // hears of the rebalance within one heartbeat interval after that.
        let t = m.time_to_stable_ms.expect("the group recovers");
        assert!(
            (SESSION_TIMEOUT - HEARTBEAT_INTERVAL - 2 * LATENCY..=SESSION_TIMEOUT + HEARTBEAT_INTERVAL + 10 * LATENCY)
                .contains(&t),
            "{assignor}: {t}"
        );
        // c2's two partitions stay unavailable from the crash until c1 owns them.
        assert!(m.unavailable_ms >= 2 * t, "{assignor}: {} < 2 × {t}", m.unavailable_ms);
    }
}

#[test]
fn time_to_stable_is_none_when_the_group_never_recovers() {
    let mut s = small(1, 2, "range");
    s.faults
        .push(groupscope::sim::scenario::ScheduledFault { at: 12_000, fault: Fault::CrashConsumer { consumer: 1 } });
    let (_, obs) = watch(s, 30_000, |_, _| {});
    assert_eq!(obs.metrics.last_fault_ms, Some(12_000));
    assert_eq!(obs.metrics.time_to_stable_ms, None);
    assert_eq!(obs.metrics.longest_stop_the_world_ms, 0, "no live member, so no one is paused");
    assert_eq!(obs.metrics.unavailable_ms, 2 * (30_000 - 12_000));
}

// ---- the comparison: one consumer of ten crashes ----

#[test]
fn eager_run_revokes_every_members_partitions_and_stops_the_world() {
    let mut before: BTreeMap<u32, Vec<TopicPartition>> = BTreeMap::new();
    let (world, obs) = watch(variant("classic eager range"), UNTIL, |w, _| {
        if w.now < CRASH_AT {
            before = w.clients.classics().map(|c| (c.idx, c.owned.clone())).collect();
        }
    });
    for (c, owned) in before.iter().filter(|(c, _)| **c != 3) {
        assert_eq!(owned.len(), 2);
        let revoked_all = world.trace.iter().any(|e| {
            e.at > CRASH_AT
                && matches!(&e.kind, EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsRevoked, partitions }
                    if *node == groupscope::sim::NodeId::Client(*c) && partitions == owned)
        });
        assert!(revoked_all, "c{c} revokes all it owned in onJoinPrepare");
    }
    // Every member revoked before its JoinGroup, and the join phase ends only when
    // all have joined; from there no member processes until the JoinGroup
    // response, the SyncGroup round trip and the OffsetFetch round trip: at least
    // 5 one-way messages.
    let m = &obs.metrics;
    assert!(m.longest_stop_the_world_ms >= 5 * LATENCY, "{m:?}");
    assert!(m.rebalances >= 1);
}

#[test]
fn cooperative_run_leaves_unaffected_members_processing() {
    let mut before: BTreeMap<u32, Vec<TopicPartition>> = BTreeMap::new();
    let mut stopped: Vec<(Millis, TopicPartition)> = Vec::new();
    let (world, obs) = watch(variant("classic cooperative-sticky"), UNTIL, |w, o| {
        if w.now < CRASH_AT {
            before = w.clients.classics().map(|c| (c.idx, c.owned.clone())).collect();
        } else {
            let snap = snapshot(w, "demo");
            for tp in before.iter().filter(|(c, _)| **c != 3).flat_map(|(_, o)| o) {
                if !snap.processing(tp) {
                    stopped.push((w.now, tp.clone()));
                }
            }
            assert_eq!(*o.snapshot(), snap);
        }
    });
    assert_eq!(stopped, [], "partitions of the nine unaffected members never stop");
    let revoked_after_crash = world.trace.iter().any(|e| {
        e.at > CRASH_AT && matches!(&e.kind, EventKind::CallbackInvoked { callback: Callback::OnPartitionsRevoked, partitions, .. } if !partitions.is_empty())
    });
    assert!(!revoked_after_crash, "cooperative-sticky revokes nothing: only the dead member's partitions move");
    let m = &obs.metrics;
    assert_eq!(m.longest_stop_the_world_ms, 0);
    // c3's two partitions wait at least until its old member's session expires
    // (the rebalance the restarted c3 starts cannot complete before): its last
    // heartbeat was at most 2000 + 200 ms before the crash.
    let least = SESSION_TIMEOUT - HEARTBEAT_INTERVAL - 2 * LATENCY;
    assert!(m.unavailable_ms >= 2 * least, "{m:?}");
    let eager = run(&example(), UNTIL).unwrap()[0].metrics.clone();
    assert!(
        m.unavailable_ms < eager.unavailable_ms,
        "eager stops everyone: {} vs {}",
        m.unavailable_ms,
        eager.unavailable_ms
    );
}

#[test]
fn static_member_restarting_within_session_timeout_causes_no_rebalance() {
    let mut before = Vec::new();
    let (world, obs) = watch(variant("static members (eager range)"), UNTIL, |w, _| {
        if w.now < CRASH_AT {
            before = owned_at(w, 3);
        }
    });
    let m = &obs.metrics;
    assert_eq!(m.rebalances, 0, "after the initial one");
    assert_eq!(m.partitions_moved, 0);
    assert_eq!(m.longest_stop_the_world_ms, 0);
    assert_eq!(owned_at(&world, 3), before, "the restarted member gets its partitions back");
    assert_eq!(before.len(), 2);
    // Only c3's 2 partitions were unavailable: at least from the crash to the
    // restart, and less than a session timeout.
    let gap = RESTART_AT - CRASH_AT;
    assert!((2 * gap..2 * SESSION_TIMEOUT).contains(&m.unavailable_ms), "{m:?}");
    assert!(m.time_to_stable_ms.is_some_and(|t| t < SESSION_TIMEOUT), "{m:?}");
}

#[test]
fn redelivered_records_agree_with_the_cluster_stats_and_the_trace() {
    for (name, s) in example().scenarios().unwrap() {
        let (world, obs) = watch(s, UNTIL, |_, _| {});
        let stats: i64 = world.cluster.stats.redelivered.group_total("demo");
        let traced: i64 = world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::RecordsProcessed { redelivered, .. } => Some(*redelivered),
                _ => None,
            })
            .sum();
        assert_eq!(obs.metrics.records_redelivered, stats, "{name}");
        assert_eq!(stats, traced, "{name}");
        // c3 processed records after its last auto-commit (every 5000 ms); its
        // partitions' next owner starts from the committed offset.
        assert!(stats > 0, "{name}");
    }
}

#[test]
fn same_comparison_gives_the_same_metrics_whether_run_at_once_or_stepped() {
    let c = example();
    let once = run(&c, UNTIL).unwrap();
    assert_eq!(once, run(&c, UNTIL).unwrap());
    assert!(once.iter().all(|r| r.invariant_violations == 0));
    let mut s = SideBySide::new(&c).unwrap();
    for t in (0..=UNTIL).step_by(1700) {
        s.advance_to(t);
        assert!(s.lanes.iter().all(|l| l.world.now == t), "lanes stay synchronised");
    }
    s.advance_to(UNTIL);
    assert_eq!(s.results(), once);
    s.seek(5000);
    assert_eq!(s.now(), 5000);
    s.seek(UNTIL);
    assert_eq!(s.results(), once, "seeking back re-runs to the same results");
    let (_, direct) = watch(variant("classic eager range"), UNTIL, |_, _| {});
    assert_eq!(direct.metrics, once[0].metrics);
}

#[test]
fn a_fault_injected_side_by_side_reaches_every_variant_at_the_same_instant() {
    let mut s = SideBySide::new(&example()).unwrap();
    s.advance_to(25_000);
    s.inject(Fault::PauseConsumer { consumer: 5, duration_ms: 1000 });
    s.advance_to(30_000);
    for r in s.results() {
        assert_eq!(r.metrics.last_fault_ms, Some(25_000), "{}", r.variant);
    }
    let mut replay = s.clone();
    replay.seek(26_000);
    replay.seek(30_000);
    assert_eq!(replay.results(), s.results());
}

#[test]
fn the_readme_comparison_example_is_valid() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Comparing protocols side by side").expect("README section")..];
    let start = section.find("```json\n").expect("a JSON example") + "```json\n".len();
    let text = &section[start..start + section[start..].find("```").unwrap()];
    let c = Comparison::from_json(text).unwrap_or_else(|e| panic!("README example: {e}"));
    assert_eq!(c.variants.len(), 3);
}

/// The issue's third protocol on the same failure (scenarios/compare-protocols.json:
/// one consumer of ten crashes for good): under KIP-848 the coordinator fences
/// the dead member and assigns its partitions; the nine others keep processing
/// what they own throughout (CurrentAssignmentBuilder `computeNextAssignment` revokes only what moves),
/// and there is no stop-the-world pause, unlike eager.
#[test]
fn consumer_protocol_run_leaves_unaffected_members_processing() {
    let c = Comparison::from_json(include_str!("../scenarios/compare-protocols.json")).unwrap();
    let scenarios = c.scenarios().unwrap();
    let (_, s) = scenarios.iter().find(|(n, _)| n.starts_with("consumer protocol")).unwrap();
    let mut before: BTreeMap<u32, Vec<TopicPartition>> = BTreeMap::new();
    let mut stopped: Vec<(Millis, TopicPartition)> = Vec::new();
    let (world, obs) = watch(s.clone(), UNTIL, |w, _| {
        if w.now < CRASH_AT {
            before = w.clients.async_consumers().map(|c| (c.idx, c.owned.clone())).collect();
        } else {
            let snap = snapshot(w, "demo");
            for tp in before.iter().filter(|(c, _)| **c != 3).flat_map(|(_, o)| o) {
                if !snap.processing(tp) {
                    stopped.push((w.now, tp.clone()));
                }
            }
        }
    });
    assert_eq!(before.len(), 10, "ten consumer-protocol members");
    assert_eq!(stopped, [], "partitions of the nine unaffected members never stop");
    let m = &obs.metrics;
    assert_eq!(m.longest_stop_the_world_ms, 0);
    assert!(m.rebalances >= 1, "the fencing bumps the group epoch");
    // The dead member's partitions are owned again by the end.
    let snap = snapshot(&world, "demo");
    assert!(before[&3].iter().all(|tp| snap.owners.get(tp).is_some_and(|o| o.member != 3)), "{snap:?}");
    let results = run(&c, UNTIL).unwrap();
    let eager = &results[0].metrics;
    assert!(eager.longest_stop_the_world_ms > 0, "eager stops the world: {eager:?}");
    // What the crash costs: partition-ms unavailable from the crash on. (Over the
    // whole run the staggered start-up counts too, which Kafka 4.3+'s assignment
    // batching, group.consumer.assignment.interval.ms, makes slower under KIP-848.)
    let since_crash = |s: &Scenario| {
        let mut before = 0;
        let (_, obs) = watch(s.clone(), UNTIL, |w, o| {
            if w.now < CRASH_AT {
                before = o.metrics.unavailable_ms
            }
        });
        obs.metrics.unavailable_ms - before
    };
    let (_, eager_scenario) = &scenarios[0];
    let (kip848, eager) = (since_crash(s), since_crash(eager_scenario));
    assert!(kip848 < eager, "{kip848} vs {eager} partition-ms since the crash");
}
