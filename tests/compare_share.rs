//! Side by side, a consumer group against a share group (`"groupType": "share"`):
//! the conversion, and the metrics that tell the two apart, checked against
//! Kafka's rules on the shipped comparison `scenarios/compare-share-crash.json`
//! (3 consumers on 2 partitions, c1 crashes at 22500 ms; KIP-848 with
//! `group.consumer.session.timeout.ms` 45 s, the share group with
//! `share.session.timeout.ms` 45 s, both Kafka's defaults).

use groupscope::assign::TopicPartition;
use groupscope::compare::ownership::{held_work, Held};
use groupscope::compare::{Comparison, Observer};
use groupscope::sim::cluster::stats::Stats;
use groupscope::sim::note::Note;
use groupscope::sim::share_note::{ReleaseCause, ShareNote};
use groupscope::sim::trace::EventKind;
use groupscope::sim::world::GroupType;
use groupscope::sim::{invariants, Millis, Scenario, World};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const SHIPPED: &str = include_str!("../scenarios/compare-share-crash.json");
const GROUP: &str = "orders-app";
const CRASH_AT: Millis = 22_500;
const UNTIL: Millis = 90_000;
const CONSUMER: &str = "consumer group (KIP-848)";
const SHARE: &str = "share group (KIP-932)";
/// Kafka 4.4's defaults: `group.consumer.session.timeout.ms`,
/// `group.consumer.heartbeat.interval.ms`, `share.session.timeout.ms`,
/// `share.heartbeat.interval.ms`, `share.record.lock.duration.ms`.
const SESSION_TIMEOUT: Millis = 45_000;
const HEARTBEAT_INTERVAL: Millis = 5000;
const LOCK_DURATION: Millis = 30_000;

fn shipped() -> Comparison {
    Comparison::from_json(SHIPPED).expect("the shipped comparison is valid")
}

fn variant(c: &Comparison, name: &str) -> Scenario {
    c.scenarios().unwrap().into_iter().find(|(n, _)| n == name).expect("variant exists").1
}

/// One variant run to the end, with what the world held when c1 stopped.
struct Run {
    world: World,
    observer: Observer,
    /// c1's work at the instant it crashed (`ownership::held_work`).
    held: BTreeMap<TopicPartition, Held>,
    /// The run's statistics and the group's committed offsets at that instant.
    stats_at_crash: Stats,
    committed_at_crash: BTreeMap<TopicPartition, i64>,
    /// The instant the metric says c1's work was picked up again, and how
    /// many members the group's coordinator held then.
    resumed: Option<(Millis, usize)>,
    /// The most members a share group's coordinator assigned one partition to.
    most_sharing: usize,
}

fn run(s: Scenario, until: Millis) -> Run {
    let mut world = World::new(s).expect("valid scenario");
    let mut observer = Observer::new(GROUP);
    observer.observe(&world);
    let mut crash = None;
    let mut resumed = None;
    let mut most_sharing = 0;
    while world.next_time().is_some_and(|t| t <= until) {
        world.step();
        if let Some((_, g)) = world.share_group(GROUP) {
            let partitions = g.members.values().flat_map(|m| m.assigned_partitions.iter()).collect::<BTreeSet<_>>();
            most_sharing = most_sharing.max(partitions.into_iter().map(|tp| g.holders(tp).len()).max().unwrap_or(0));
        }
        assert!(invariants::check(&world).is_empty(), "invariant violated at {} ms", world.now);
        observer.observe(&world);
        if crash.is_none() && !world.clients.is_alive(1) {
            crash = Some((
                held_work(&world, GROUP, 1),
                world.cluster.stats.clone(),
                world.committed_offsets(GROUP).cloned().unwrap_or_default(),
            ));
        }
        if resumed.is_none() {
            if let Some(ms) = observer.metrics.work_resumed_ms {
                let members = world.group_view(GROUP).map_or(0, |g| g.members);
                resumed = Some((observer.metrics.last_member_stop_ms.unwrap() + ms, members));
            }
        }
    }
    world.run_until(until);
    observer.observe(&world);
    let (held, stats_at_crash, committed_at_crash) = crash.expect("c1 crashed");
    Run { world, observer, held, stats_at_crash, committed_at_crash, resumed, most_sharing }
}

fn events(world: &World) -> impl Iterator<Item = &groupscope::sim::trace::Event> + '_ {
    world.trace[0..].iter()
}

/// Per partition, records processed for the first time below the highest
/// offset processed before them, recounted from the trace.
fn out_of_order_from_the_trace(world: &World) -> i64 {
    let mut seen: BTreeMap<TopicPartition, (BTreeSet<i64>, i64)> = BTreeMap::new();
    let mut late = 0;
    for e in events(world) {
        let EventKind::RecordsProcessed { partition, from, to, node, .. } = &e.kind else { continue };
        let groupscope::sim::NodeId::Client(c) = node else { continue };
        if world.member(*c).is_none_or(|m| m.group_id != GROUP) {
            continue;
        }
        let (done, highest) = seen.entry(partition.clone()).or_insert_with(|| (BTreeSet::new(), i64::MIN));
        for o in *from..*to {
            if done.insert(o) && o < *highest {
                late += 1;
            }
        }
        *highest = (*highest).max(*to);
    }
    late
}

// ---- the conversion ----

#[test]
fn a_share_variant_moves_the_group_with_its_consumers_topics_and_faults() {
    let c = shipped();
    let base = &c.scenario;
    let s = variant(&c, SHARE);
    assert!(s.groups.is_empty(), "the compared group left groups");
    let g = &s.share_groups[0];
    let from = &base.groups[0];
    assert_eq!((g.group_id.as_str(), g.consumers, &g.topics), (GROUP, from.consumers, &from.config.topics));
    assert_eq!(g.consumer.processing_ms_per_record, from.config.processing_ms_per_record, "the same workload");
    assert_eq!(g.consumer.max_poll_records, i64::from(from.config.max_poll_records));
    assert_eq!(
        serde_json::to_value(g.config.auto_offset_reset).unwrap(),
        json!("earliest"),
        "auto.offset.reset=earliest becomes share.auto.offset.reset=earliest"
    );
    assert_eq!(s.faults, base.faults, "the fault script is the same");
    // The crash still hits the same consumer: c1 is now a KafkaShareConsumer of the group.
    let world = World::new(s).unwrap();
    let members: Vec<(u32, GroupType)> = world.members_of(GROUP).map(|m| (m.idx, m.group_type)).collect();
    assert_eq!(members, [(1, GroupType::Share), (2, GroupType::Share), (3, GroupType::Share)]);
    // The other variant is untouched.
    assert_eq!(variant(&c, CONSUMER), *base);
}

#[test]
fn what_a_share_group_cannot_take_is_refused_in_plain_words() {
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut c: Value = serde_json::from_str(SHIPPED).unwrap();
        edit(&mut c);
        Comparison::from_json(&c.to_string()).unwrap_err()
    };
    let e = with(&|c| c["scenario"]["groups"][0]["staticMembers"] = true.into());
    assert!(e.contains("share group (KIP-932)") && e.contains("no static membership"), "{e}");
    let e = with(&|c| {
        c["scenario"]["faults"]
            .as_array_mut()
            .unwrap()
            .push(json!({"at": 30000, "fault": {"type": "restartConsumerAs", "consumer": 1, "static": true}}))
    });
    assert!(e.contains("30000 ms on c1") && e.contains("static membership"), "{e}");
    let e = with(&|c| {
        c["scenario"]["faults"]
            .as_array_mut()
            .unwrap()
            .push(json!({"at": 30000, "fault": {"type": "changeSubscription", "consumer": 3, "topics": ["orders"]}}))
    });
    assert!(e.contains("c3") && e.contains("subscription"), "{e}");
    // A consumer added to the group later is one of its consumers too.
    let e = with(&|c| {
        let faults = c["scenario"]["faults"].as_array_mut().unwrap();
        faults.push(json!({"at": 30000, "fault": {"type": "addConsumer", "group": GROUP}}));
        faults.push(json!({"at": 31000, "fault": {"type": "closeConsumerWithOptions", "consumer": 4, "operation": "LEAVE_GROUP"}}));
    });
    assert!(e.contains("c4") && e.contains("CloseOptions"), "{e}");
    let e = with(&|c| {
        let mut other = c["scenario"]["groups"][0].clone();
        other["groupId"] = "other".into();
        c["scenario"]["groups"].as_array_mut().unwrap().push(other);
    });
    assert!(e.contains("must be the last") && e.contains("change numbers"), "{e}");
    let e = with(&|c| c["variants"][0]["share"] = json!({"config": {}}));
    assert!(e.contains("variants[0].share") && e.contains("groupType"), "{e}");
    let e = with(&|c| c["variants"][1]["share"] = json!({"groupId": "x"}));
    assert!(e.contains("groupId cannot be patched"), "{e}");
    // Kafka 4.4's bounds for share.session.timeout.ms (GroupConfig): 45 s to 60 s.
    let e = with(&|c| c["variants"][1]["share"] = json!({"config": {"share.session.timeout.ms": 6000}}));
    assert!(e.contains("share.session.timeout.ms is 6000") && e.contains("45000 to 60000"), "{e}");
    let e = with(&|c| c["variants"][1]["groupType"] = "queue".into());
    assert!(e.contains("groupType") || e.contains("queue"), "{e}");
}

#[test]
fn the_share_patch_sets_the_share_groups_own_configs() {
    let mut c: Value = serde_json::from_str(SHIPPED).unwrap();
    c["variants"][1]["share"] =
        json!({"config": {"share.record.lock.duration.ms": 15000}, "consumer": {"max.poll.records": 50}});
    let c = Comparison::from_json(&c.to_string()).unwrap();
    let s = variant(&c, SHARE);
    assert_eq!(s.share_groups[0].config.record_lock_duration_ms, 15_000);
    assert_eq!(s.share_groups[0].consumer.max_poll_records, 50);
}

// ---- the metrics, against Kafka's rules ----

#[test]
fn the_share_group_delivers_the_crashed_members_records_again_at_once_the_consumer_group_waits_for_its_session() {
    let c = shipped();
    let consumer = run(variant(&c, CONSUMER), UNTIL);
    let share = run(variant(&c, SHARE), UNTIL);

    // KIP-848: c1 owned a partition. Nobody else fetches it until the coordinator
    // expires c1's session (GroupMetadataManager's session timer, 45 s after c1's
    // last heartbeat, which was at most one heartbeat interval before the crash),
    // bumps the group epoch and assigns the partition to another member.
    assert!(consumer.held.values().any(|h| *h == Held::Partition), "{:?}", consumer.held);
    let expired = events(&consumer.world)
        .find(|e| {
            e.at >= CRASH_AT
                && matches!(&e.kind, EventKind::StateChanged { .. })
                && serde_json::to_string(&e.kind).unwrap().contains("session expired")
        })
        .map(|e| e.at)
        .expect("the coordinator expires c1's session");
    assert!(expired >= CRASH_AT + SESSION_TIMEOUT - HEARTBEAT_INTERVAL, "expired at {expired}");
    let (consumer_resumed, _) = consumer.resumed.expect("the consumer group picks c1's partitions up");
    assert!(consumer_resumed >= expired, "resumed at {consumer_resumed}, before the session expired at {expired}");

    // KIP-932: c1 held ACQUIRED records. Its connection closes with the process;
    // the partition's leader then releases them (SharePartition.releaseAcquiredRecords,
    // from ClientConnectionDisconnectListener.onDisconnect), and a member sharing
    // the partition acquires them with its next ShareFetch: neither the 30 s
    // acquisition lock nor the 45 s share session timeout is waited for.
    assert!(share.held.values().any(|h| matches!(h, Held::Records { .. })), "{:?}", share.held);
    let released = events(&share.world)
        .find_map(|e| match &e.kind {
            EventKind::Note {
                note: Note::Share(ShareNote::RecordsReleased { client, cause: ReleaseCause::ConnectionClosed, .. }),
                ..
            } if client.contains("c1") => Some(e.at),
            _ => None,
        })
        .expect("the leader releases c1's records when its connection closes");
    assert!(released > CRASH_AT && released < CRASH_AT + 1000, "released at {released}");
    let (share_resumed, members_then) = share.resumed.expect("the share group delivers c1's records again");
    assert!(share_resumed >= released, "delivered again at {share_resumed}, before the release at {released}");
    assert!(share_resumed < CRASH_AT + LOCK_DURATION, "not by lock expiry: {share_resumed}");
    assert_eq!(members_then, 3, "c1 was still a member on the coordinator: the leader did not wait for it");
    let removed = events(&share.world)
        .find(|e| e.at > CRASH_AT && serde_json::to_string(&e.kind).unwrap().contains("session expired"))
        .map(|e| e.at);
    assert!(removed.is_some_and(|t| t >= CRASH_AT + SESSION_TIMEOUT - HEARTBEAT_INTERVAL), "{removed:?}");

    assert!(share_resumed - CRASH_AT < 1000 && consumer_resumed - CRASH_AT > SESSION_TIMEOUT - HEARTBEAT_INTERVAL);
    let ms = |r: &Run| r.observer.metrics.work_resumed_ms.unwrap();
    assert_eq!((ms(&consumer), ms(&share)), (consumer_resumed - CRASH_AT, share_resumed - CRASH_AT));
}

#[test]
fn duplicates_are_what_each_kind_of_group_cannot_know_was_done() {
    let c = shipped();
    let consumer = run(variant(&c, CONSUMER), UNTIL);
    let share = run(variant(&c, SHARE), UNTIL);

    // Consumer group: the new owner starts at the committed offset (OffsetFetch),
    // so what c1 processed after its last auto-commit is processed again.
    let uncommitted: i64 = consumer
        .held
        .keys()
        .map(|tp| consumer.stats_at_crash.processed_until.get(GROUP, tp) - consumer.committed_at_crash[tp])
        .sum();
    assert!(uncommitted > 0, "c1 processed records after its last auto-commit (auto.commit.interval.ms 5 s)");
    let before = consumer.stats_at_crash.redelivered.group_total(GROUP);
    assert_eq!(consumer.observer.metrics.records_redelivered - before, uncommitted);

    // Share group: an ACKNOWLEDGED record is never delivered again
    // (SharePartition.acknowledge; the state is terminal). Of what c1 held,
    // only records it had processed, whose acknowledgement had not reached the
    // leader (implicit mode sends it with the next ShareFetch), can be
    // processed twice.
    let processed_unacked: i64 = share
        .held
        .iter()
        .map(|(tp, h)| match h {
            Held::Records { offsets, .. } => {
                let ranges = share.stats_at_crash.processed_ranges.get(GROUP).and_then(|g| g.get(tp));
                offsets.iter().filter(|o| ranges.is_some_and(|r| r.iter().any(|(s, e)| *s <= **o && **o < *e))).count()
                    as i64
            }
            Held::Partition => 0,
        })
        .sum();
    let share_before = share.stats_at_crash.redelivered.group_total(GROUP);
    let share_after = share.observer.metrics.records_redelivered - share_before;
    assert!(share_after <= processed_unacked, "{share_after} duplicates > {processed_unacked} unacknowledged");
    assert!(share.observer.metrics.records_redelivered < consumer.observer.metrics.records_redelivered);
}

#[test]
fn a_share_group_processes_a_shared_partition_out_of_order_a_consumer_group_never_does() {
    let c = shipped();
    let consumer = run(variant(&c, CONSUMER), UNTIL);
    let share = run(variant(&c, SHARE), UNTIL);
    // One owner per partition (KIP-848's assignment), whose position only moves forward.
    assert_eq!(consumer.observer.metrics.records_out_of_order, 0);
    assert_eq!(out_of_order_from_the_trace(&consumer.world), 0);
    // SimpleAssignor: with 3 members on 2 partitions, desiredSharing = ceil(3/2) = 2,
    // so members acquire different batches of one partition and finish them apart.
    assert_eq!(share.most_sharing, 2, "each partition shared by two members");
    let late = share.observer.metrics.records_out_of_order;
    assert!(late > 0);
    assert_eq!(late, out_of_order_from_the_trace(&share.world), "the metric is the trace's count");
}

#[test]
fn with_a_partition_per_member_a_share_group_also_waits_for_the_session_timeout() {
    // Three partitions for three members: SimpleAssignor gives each partition
    // one member (desiredSharing = 1). c1's records are released when its
    // connection closes, but no other member fetches its partition until the
    // coordinator removes c1 after share.session.timeout.ms and reassigns it.
    let mut c: Value = serde_json::from_str(SHIPPED).unwrap();
    c["scenario"]["topics"][0]["partitions"] = 3.into();
    // Busier members (100 ms a record at 10 records/s): c1 holds records when it crashes.
    c["scenario"]["groups"][0]["config"]["processing.ms.per.record"] = 100.into();
    let c = Comparison::from_json(&c.to_string()).unwrap();
    let share = run(variant(&c, SHARE), UNTIL);
    assert!(share.held.values().any(|h| matches!(h, Held::Records { .. })), "{:?}", share.held);
    let (resumed, members_then) = share.resumed.expect("delivered again after the reassignment");
    assert!(resumed >= CRASH_AT + SESSION_TIMEOUT - HEARTBEAT_INTERVAL, "resumed at {resumed}");
    assert_eq!(members_then, 2, "only once the coordinator removed c1");
    assert_eq!(share.most_sharing, 1, "no partition shared");
}

#[test]
fn consumer_groups_in_the_older_comparisons_never_process_out_of_order() {
    for text in [include_str!("../scenarios/compare-crash.json"), include_str!("../scenarios/compare-protocols.json")] {
        let c = Comparison::from_json(text).unwrap();
        for r in groupscope::compare::run(&c, c.until.unwrap()).unwrap() {
            assert_eq!(r.metrics.records_out_of_order, 0, "{}", r.variant);
            assert!(
                r.metrics.work_resumed_ms.is_some(),
                "{}: the crashed member's partitions are processed again",
                r.variant
            );
        }
    }
}

#[test]
fn the_shipped_comparison_is_deterministic_and_keeps_every_invariant() {
    let c = shipped();
    let once = groupscope::compare::run(&c, UNTIL).unwrap();
    assert_eq!(once, groupscope::compare::run(&c, UNTIL).unwrap());
    assert!(once.iter().all(|r| r.invariant_violations == 0), "{once:?}");
}
