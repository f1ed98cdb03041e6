//! The classic consumer, the classic coordinator and broker failover as Apache
//! Kafka 4.4 does them: each test names the Kafka class and method it follows.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::TestWorld;
use groupscope::sim::coordinator::classic::ClassicGroupState::*;
use groupscope::sim::note::Note;
use groupscope::sim::trace::{Callback, EventKind, Machine};
use groupscope::sim::{Fault, NodeId, Scenario};

const C1: NodeId = NodeId::Client(1);

/// Times at which `node` sent a message whose label starts with `prefix`.
fn sent_at(t: &TestWorld, node: NodeId, prefix: &str) -> Vec<u64> {
    t.world
        .trace
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::MessageSent { from, label, .. } if *from == node && label.starts_with(prefix)))
        .map(|e| e.at)
        .collect()
}

/// Labels of messages `node` sent.
fn labels_from(t: &TestWorld, node: NodeId) -> Vec<String> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { from, label, .. } if *from == node => Some(label.to_string()),
            _ => None,
        })
        .collect()
}

/// The classic `MemberState` transitions of client `idx`, with their times.
fn member_states(t: &TestWorld, idx: u32) -> Vec<(u64, String)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StateChanged { node, machine: Machine::Member, to, .. } if *node == NodeId::Client(idx) => {
                Some((e.at, to.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn group_transition_times(t: &TestWorld, to: &str) -> Vec<u64> {
    t.world
        .trace
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { .. }, to: x, .. } if x == to))
        .map(|e| e.at)
        .collect()
}

// --- 1. ConsumerCoordinator.onJoinComplete: nextAutoCommitTimer.updateAndReset ---

#[test]
fn the_auto_commit_timer_restarts_a_full_interval_after_each_assignment() {
    // ConsumerCoordinator.onJoinComplete: `if (autoCommitEnabled)
    // this.nextAutoCommitTimer.updateAndReset(autoCommitIntervalMs)`. The first
    // auto-commit after an assignment comes auto.commit.interval.ms (5000) later,
    // not at once because the consumer started more than 5 s ago.
    let mut t = TestWorld::demo();
    t.sleep(20_000);
    let stable = member_states(&t, 1).into_iter().find(|(_, s)| s == "STABLE").expect("c1 joined").0;
    assert!(stable > 5000, "the consumer started more than an interval before its assignment");
    let first = sent_at(&t, C1, "OffsetCommit").into_iter().find(|at| *at >= stable).expect("c1 auto-commits");
    assert!(first >= stable + 5000, "first commit {first} ms, assignment at {stable} ms");
    assert!(first < stable + 5000 + 500, "it comes at the first poll() after the interval: {first} ms");
}

// --- 2. AbstractCoordinator.shouldSendLeaveGroupRequest / GMM maybeCompleteJoinPhase ---

#[test]
fn close_during_the_first_join_sends_leave_group_as_soon_as_the_member_has_an_id() {
    // AbstractCoordinator.maybeLeaveGroup → shouldSendLeaveGroupRequest: coordinator
    // known, state not UNJOINED and `generation.hasMemberId()`: a member waiting in
    // its first JoinGroup (generation -1, id from MEMBER_ID_REQUIRED) leaves. It is
    // then not in generation 1, and no second rebalance follows at session timeout.
    let mut t = TestWorld::demo();
    t.sleep(2000);
    let c3 = t.consumer(3);
    assert!(
        !c3.membership.member_id.is_empty() && c3.membership.generation == -1,
        "c3 waits in its first join with a member id"
    );
    t.inject(Fault::CloseConsumer { consumer: 3 });
    assert_eq!(labels_from(&t, NodeId::Client(3)).last().map(String::as_str), Some("LeaveGroup"));
    t.sleep(30_000);
    let (_, g) = t.world.group("demo").unwrap();
    assert_eq!((g.state, g.generation_id, g.members.len()), (Stable, 1, 2), "one rebalance, without c3");
    let mut owned: Vec<String> = t.owned(1).into_iter().chain(t.owned(2)).collect();
    owned.sort();
    assert_eq!(owned.len(), 6, "c1 and c2 own every partition: {owned:?}");
}

#[test]
fn a_leave_group_during_the_initial_rebalance_does_not_complete_the_join_early() {
    // GroupMetadataManager.classicGroupLeaveToClassicGroup → maybeCompleteJoinPhase,
    // which returns while `group.previousState() == EMPTY`: the initial rebalance
    // still ends by its delay timer (500 + 3000 + 3000 = 6500 ms, as without the
    // leave), although c1 and c2 have joined and c3 has left.
    let mut t = TestWorld::demo();
    t.sleep(2000);
    t.inject(Fault::CloseConsumer { consumer: 3 });
    t.sleep(8000);
    assert_eq!(group_transition_times(&t, "CompletingRebalance"), vec![6500]);
    assert_eq!(t.world.group("demo").unwrap().1.members.len(), 2);
}

// --- 3. GroupCoordinatorService.heartbeat: a loading coordinator answers NONE ---

#[test]
fn heartbeats_to_a_loading_coordinator_are_answered_none() {
    // GroupCoordinatorService.heartbeat: on COORDINATOR_LOAD_IN_PROGRESS "The group
    // is still loading, so blindly respond" with NONE. Other requests still get
    // COORDINATOR_LOAD_IN_PROGRESS.
    let mut s = Scenario::demo();
    s.broker.coordinator_load_ms = 5000;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::ShutdownBroker { broker: old });
    let new = t.world.cluster.coordinator_for("demo").unwrap();
    t.sleep(4_500);
    let from_new = labels_from(&t, NodeId::Broker(new));
    assert!(from_new.iter().any(|l| l == "Heartbeat ← OK"), "heartbeats reached the loading coordinator: {from_new:?}");
    assert!(!from_new.iter().any(|l| l == "Heartbeat → COORDINATOR_LOAD_IN_PROGRESS"));
    t.sleep(5_000);
    assert_eq!(t.group_state("demo"), (Stable, 1), "loaded at its generation, no rebalance");
}

// --- 5. ConsumerCoordinator.onLeavePrepare / AbstractCoordinator.generationIfStable ---

#[test]
fn close_during_a_rebalance_calls_on_partitions_lost_and_commits_nothing() {
    // ConsumerCoordinator.onLeavePrepare: invokePartitionsLost when the generation
    // was reset or `rebalanceInProgress()`; the close-time auto-commit is refused
    // (sendOffsetCommitRequest takes generationIfStable(), null while rebalancing).
    let mut s = Scenario::demo();
    s.groups[0].config.assignors = vec!["cooperative-sticky".into()];
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    assert!(!t.owned(1).is_empty());
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(10_000, |t| {
        t.consumer(1).membership.state
            == groupscope::sim::client::abstract_coordinator::MemberState::PREPARING_REBALANCE
    });
    let owned = t.consumer(1).owned.clone();
    assert!(!owned.is_empty(), "a cooperative member keeps its partitions while rebalancing");
    let at = t.world.now;
    let commits_before = sent_at(&t, C1, "OffsetCommit").len();
    t.inject(Fault::CloseConsumer { consumer: 1 });
    let callbacks: Vec<(Callback, usize)> = t
        .world
        .trace
        .iter()
        .filter(|e| e.at >= at)
        .filter_map(|e| match &e.kind {
            EventKind::CallbackInvoked { node, callback, partitions } if *node == C1 => {
                Some((*callback, partitions.len()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(callbacks, vec![(Callback::OnPartitionsLost, owned.len())]);
    assert_eq!(sent_at(&t, C1, "OffsetCommit").len(), commits_before, "no OffsetCommit on close during a rebalance");
    assert_eq!(labels_from(&t, C1).last().map(String::as_str), Some("LeaveGroup"));
}

// --- 6. AbstractCoordinator.joinGroupIfNeeded: timer.sleep(retryBackoffMs) ---

#[test]
fn a_join_group_answered_coordinator_load_in_progress_is_retried_after_a_fixed_retry_backoff() {
    // AbstractCoordinator.joinGroupIfNeeded: a retriable failure other than
    // UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS and
    // MEMBER_ID_REQUIRED sleeps `rebalanceConfig.retryBackoffMs` (100 ms, not
    // doubling) before the next JoinGroup: each retry is one round trip (200 ms)
    // plus 100 ms after the previous one.
    let mut s = Scenario::demo();
    s.broker.coordinator_load_ms = 3000;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::ShutdownBroker { broker: old });
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(2_900);
    let answered = labels_from(&t, NodeId::Broker(t.world.cluster.coordinator_for("demo").unwrap()));
    assert!(answered.iter().filter(|l| *l == "JoinGroup → COORDINATOR_LOAD_IN_PROGRESS").count() >= 4, "{answered:?}");
    let joins = sent_at(&t, NodeId::Client(4), "JoinGroup");
    let gaps: Vec<u64> = joins.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.len() >= 4, "{joins:?}");
    assert!(gaps.iter().all(|g| *g == 300), "a fixed retry.backoff.ms between retries: {gaps:?}");
}

// --- 7. ClassicGroup.replaceStaticMember: the old id's SyncGroup gets a SyncGroup error ---

#[test]
fn a_fenced_static_members_parked_sync_group_is_answered_with_a_sync_group_error() {
    // ClassicGroup.replaceStaticMember completes the old member id's pending
    // SyncGroup future with a SyncGroup response FENCED_INSTANCE_ID (and its
    // pending JoinGroup with a JoinGroup one).
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep_until(20_000, |t| t.world.group("demo").is_some_and(|(_, g)| g.state == CompletingRebalance));
    let (coordinator, g) = t.world.group("demo").unwrap();
    // Static member ids are `<group.instance.id>-<uuid>`, instance ids `demo-<n>`.
    let idx_of = |id: &str| {
        id.strip_prefix("demo-").and_then(|r| r.split('-').next()).and_then(|n| n.parse::<u32>().ok()).unwrap()
    };
    let leader = idx_of(g.leader_id.as_deref().unwrap());
    let follower = (1..=3).find(|i| *i != leader).unwrap();
    // Hold the leader's SyncGroup so the group stays CompletingRebalance.
    t.inject(Fault::HoldLink { from: format!("c{leader}"), to: format!("broker-{coordinator}") });
    t.sleep(300);
    let parked = t
        .world
        .group("demo")
        .unwrap()
        .1
        .members
        .values()
        .any(|m| idx_of(&m.member_id) == follower && m.awaiting_sync.is_some());
    assert!(parked, "the follower's SyncGroup is parked");
    t.inject(Fault::CrashConsumer { consumer: follower });
    t.inject(Fault::RestartConsumer { consumer: follower });
    t.sleep(1000);
    let answers = labels_from(&t, NodeId::Broker(coordinator));
    assert!(answers.iter().any(|l| l == "SyncGroup → FENCED_INSTANCE_ID"), "{answers:?}");
    assert!(!answers.iter().any(|l| l == "JoinGroup → FENCED_INSTANCE_ID"));
}

// --- 8. AbstractCoordinator.resetStateAndGeneration is the only way to UNJOINED ---

#[test]
fn the_member_state_stays_preparing_rebalance_through_member_id_required() {
    // AbstractCoordinator: `initiateJoinGroup` sets PREPARING_REBALANCE, the
    // JoinGroup handler COMPLETING_REBALANCE, the SyncGroup handler STABLE; a
    // retriable failure (here MEMBER_ID_REQUIRED) leaves the state alone, and only
    // `resetStateAndGeneration` sets UNJOINED.
    let mut t = TestWorld::demo();
    t.sleep(10_000);
    let states: Vec<String> = member_states(&t, 1).into_iter().map(|(_, s)| s).collect();
    assert_eq!(states, vec!["PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"]);
    assert!(labels_from(&t, NodeId::Broker(t.world.cluster.coordinator_for("demo").unwrap()))
        .iter()
        .any(|l| l == "JoinGroup → MEMBER_ID_REQUIRED"));
}

#[test]
fn a_sync_group_answered_rebalance_in_progress_keeps_completing_rebalance_until_the_next_join_group() {
    // AbstractCoordinator.SyncGroupResponseHandler raises REBALANCE_IN_PROGRESS
    // without touching the state; joinGroupIfNeeded loops and initiateJoinGroup
    // sets PREPARING_REBALANCE again. The member is never UNJOINED.
    let mut s = Scenario::demo();
    s.groups[0].consumers = 2;
    let mut t = TestWorld::new(s);
    t.sleep_until(20_000, |t| t.world.group("demo").is_some_and(|(_, g)| g.state == CompletingRebalance));
    let (coordinator, g) = t.world.group("demo").unwrap();
    let leader =
        t.world.clients.classics().find(|c| Some(&c.membership.member_id) == g.leader_id.as_ref()).map(|c| c.idx);
    let leader = leader.unwrap_or(1);
    let follower = 3 - leader;
    t.inject(Fault::HoldLink { from: format!("c{leader}"), to: format!("broker-{coordinator}") });
    t.sleep(300);
    // A new member: the parked SyncGroup of the follower gets REBALANCE_IN_PROGRESS.
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(1000);
    t.inject(Fault::ReleaseLink { from: format!("c{leader}"), to: format!("broker-{coordinator}") });
    t.sleep(10_000);
    assert!(labels_from(&t, NodeId::Broker(coordinator)).iter().any(|l| l == "SyncGroup → REBALANCE_IN_PROGRESS"));
    let states: Vec<String> = member_states(&t, follower).into_iter().map(|(_, s)| s).collect();
    assert!(!states.contains(&"UNJOINED".to_string()), "c{follower}: {states:?}");
    assert!(
        states.windows(2).any(|w| w[0] == "COMPLETING_REBALANCE" && w[1] == "PREPARING_REBALANCE"),
        "c{follower}: {states:?}"
    );
}

// --- 10-12. KRaft: fencing, controlled shutdown, election from the ISR/ELR ---

#[test]
fn a_crashed_broker_stays_leader_and_is_named_by_find_coordinator_until_the_controller_fences_it() {
    // BrokerHeartbeatTracker: a broker is fenced once it has sent no heartbeat for
    // broker.session.timeout.ms (9000, settable in the scenario's broker config);
    // only then ReplicationControlManager.handleBrokerFenced elects new leaders.
    // Meanwhile KafkaApis.getCoordinator still answers with the dead broker.
    for timeout in [9000, 4000] {
        let mut s = Scenario::demo();
        s.broker.broker_session_timeout_ms = timeout;
        let mut t = TestWorld::new(s);
        t.sleep(12_000);
        let dead = t.world.cluster.coordinator_for("demo").unwrap();
        t.inject(Fault::KillBroker { broker: dead });
        let crash = t.world.now;
        t.sleep(timeout - 100);
        assert_eq!(t.world.cluster.coordinator_for("demo"), Some(dead), "still the leader before the session timeout");
        let named = t.world.trace.iter().filter(|e| e.at > crash).any(|e| {
            matches!(&e.kind, EventKind::MessageSent { label, .. } if *label == format!("FindCoordinator ← broker-{dead}"))
        });
        assert!(named, "FindCoordinator still names broker-{dead}");
        assert!(labels_from(&t, NodeId::Broker(dead)).len() < t.labels_sent().len(), "sanity");
        let refused = t
            .world
            .trace
            .iter()
            .filter(|e| e.at > crash)
            .any(|e| matches!(&e.kind, EventKind::MessageDropped { to, .. } if *to == NodeId::Broker(dead)));
        assert!(refused, "clients' requests to the dead broker fail");
        t.sleep(200);
        let new = t.world.cluster.coordinator_for("demo");
        assert!(new.is_some() && new != Some(dead), "fenced after {timeout} ms: {new:?}");
        t.sleep(10_000);
        assert_eq!(t.group_state("demo"), (Stable, 1), "the group survives on the new coordinator");
    }
}

#[test]
fn a_controlled_shutdown_moves_leadership_first_and_clients_get_not_coordinator() {
    // ReplicationControlManager.handleBrokerInControlledShutdown moves leadership
    // away while the broker still runs; its coordinator context closes
    // (GroupMetadataManager.onUnloaded), so requests to it get NOT_COORDINATOR and
    // the clients rediscover the coordinator (AbstractCoordinator.markCoordinatorUnknown).
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::ShutdownBroker { broker: old });
    let new = t.world.cluster.coordinator_for("demo").unwrap();
    assert_ne!(new, old, "leadership moved at once");
    t.sleep(1_900);
    assert!(t.world.brokers[&old].alive, "the broker still runs while it hands off");
    let answers = labels_from(&t, NodeId::Broker(old));
    assert!(answers.iter().any(|l| l.ends_with("→ NOT_COORDINATOR")), "{answers:?}");
    t.sleep(5_000);
    assert!(!t.world.brokers[&old].alive, "then it stops");
    for i in 1..=3 {
        assert_eq!(t.consumer(i).membership.coordinator, Some(new), "c{i} found the new coordinator");
    }
    assert_eq!(t.group_state("demo"), (Stable, 1), "no rebalance");
}

#[test]
fn a_replica_that_was_down_cannot_lead_and_the_partition_stays_offline_until_the_last_in_sync_replica_returns() {
    // ReplicationControlManager / PartitionChangeBuilder with
    // unclean.leader.election.enable=false and ELR (KIP-966, on for new clusters
    // since 4.1): a leader comes from the ISR, else the ELR. A broker fenced while
    // the others kept writing is out of both; with no eligible replica left the
    // partition is offline and FindCoordinator answers COORDINATOR_NOT_AVAILABLE.
    let mut s = Scenario::demo();
    s.broker.broker_session_timeout_ms = 2000;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    let p = t.world.cluster.offsets_partition_for("demo") as usize;
    let replicas = t.world.cluster.offsets_partitions[p].replicas.clone();
    assert_eq!(replicas.len(), 3);
    for b in &replicas {
        t.inject(Fault::KillBroker { broker: *b });
        t.sleep(3_000);
    }
    assert_eq!(t.world.cluster.coordinator_for("demo"), None);
    let (first, last) = (replicas[0], replicas[2]);
    assert_eq!(t.world.cluster.offsets_partitions[p].elr, vec![last], "the last in-sync replica is eligible");
    t.inject(Fault::RestartBroker { broker: first });
    t.sleep(3_000);
    assert_eq!(t.world.cluster.coordinator_for("demo"), None, "broker-{first} was down while records were written");
    let at = t.world.now;
    t.sleep(2_000);
    let unavailable = t.world.trace.iter().filter(|e| e.at >= at).any(|e| {
        matches!(&e.kind, EventKind::MessageSent { label, .. } if label == "FindCoordinator → COORDINATOR_NOT_AVAILABLE")
    });
    assert!(unavailable, "the clients keep being told COORDINATOR_NOT_AVAILABLE");
    t.inject(Fault::RestartBroker { broker: last });
    assert_eq!(t.world.cluster.coordinator_for("demo"), Some(last), "the ELR member leads again");
    assert!(t.world.cluster.offsets_partitions[p].isr.contains(&first), "and the other live replica catches up");
    t.sleep(15_000);
    assert_eq!(t.group_state("demo"), (Stable, 1));
}

// --- 13. Preferred-leader election after a restart ---

#[test]
fn the_controller_moves_leadership_back_to_a_restarted_preferred_replica_at_its_next_imbalance_check() {
    // QuorumController.registerElectPreferred runs ReplicationControlManager
    // .maybeBalancePartitionLeaders every leader.imbalance.check.interval.seconds
    // (PeriodicTaskControlManager, from activation) when auto.leader.rebalance.enable
    // (ControllerServer); PartitionChangeBuilder.electPreferredLeader gives each
    // partition back to its first replica once it is in the ISR and active. The
    // coordinator moves back with its __consumer_offsets partition, so the old one
    // answers NOT_COORDINATOR and the clients rediscover it.
    for (interval_s, enabled) in [(300, true), (60, true), (60, false)] {
        let mut s = Scenario::demo();
        s.broker.leader_imbalance_check_interval_seconds = interval_s;
        s.broker.auto_leader_rebalance_enable = enabled;
        let mut t = TestWorld::new(s);
        t.sleep(12_000);
        let preferred = t.world.cluster.coordinator_for("demo").unwrap();
        let p = t.world.cluster.offsets_partition_for("demo") as usize;
        assert_eq!(t.world.cluster.offsets_partitions[p].replicas[0], preferred, "sanity: it starts as leader");
        t.inject(Fault::KillBroker { broker: preferred });
        t.sleep(10_000);
        let other = t.world.cluster.coordinator_for("demo").unwrap();
        assert_ne!(other, preferred, "fenced, so leadership moved");
        t.sleep(8_000);
        t.inject(Fault::RestartBroker { broker: preferred });
        let check = interval_s * 1000;
        t.sleep(check - 100 - t.world.now);
        assert_eq!(t.world.cluster.coordinator_for("demo"), Some(other), "nothing moves before the check");
        let before = t.world.now;
        t.sleep(20_000);
        if !enabled {
            assert_eq!(t.world.cluster.coordinator_for("demo"), Some(other), "auto.leader.rebalance.enable=false");
            continue;
        }
        assert_eq!(t.world.cluster.coordinator_for("demo"), Some(preferred), "back at the {interval_s} s check");
        let led_by_preferred =
            |m: (&Option<u32>, &Vec<u32>)| *m.0 == m.1.first().copied() || m.1.first().is_none_or(|r| *r != preferred);
        assert!(
            t.world.cluster.offsets_partitions.iter().all(|m| led_by_preferred((&m.leader, &m.replicas))),
            "every __consumer_offsets partition preferring broker-{preferred} is led by it again"
        );
        assert!(
            t.world
                .cluster
                .topics
                .values()
                .flat_map(|t| &t.partitions)
                .all(|m| led_by_preferred((&m.leader, &m.replicas))),
            "and so is every topic partition"
        );
        let not_coordinator = t.world.trace.iter().filter(|e| e.at >= before).any(|e| {
            matches!(&e.kind, EventKind::MessageSent { from, label, .. }
                if *from == NodeId::Broker(other) && label.ends_with("→ NOT_COORDINATOR"))
        });
        assert!(not_coordinator, "the old coordinator sends clients away");
        for i in 1..=3 {
            assert_eq!(t.consumer(i).membership.coordinator, Some(preferred), "c{i} found the coordinator again");
        }
        assert_eq!(t.group_state("demo"), (Stable, 1), "the group moved without a rebalance");
    }
}

// --- 14. FindCoordinatorResponse has no partition ---

#[test]
fn clients_are_not_narrated_as_knowing_the_coordinators_partition() {
    // FindCoordinatorResponse (v4+: Coordinators[Key, NodeId, Host, Port,
    // ErrorCode, ErrorMessage]) carries no partition: a client learns only the
    // coordinator's node.
    let mut t = TestWorld::demo();
    t.sleep(10_000);
    let client_notes: Vec<&Note> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { node: NodeId::Client(_), note } => Some(note),
            _ => None,
        })
        .collect();
    assert!(client_notes.iter().any(|n| matches!(n, Note::CoordinatorFound { group_id, .. } if group_id == "demo")));
    assert!(client_notes.iter().all(|n| !n.en().contains("__consumer_offsets")), "{client_notes:?}");
}

// --- 4. AbstractCoordinator.joinGroupIfNeeded on the application thread ---

#[test]
fn a_busy_leaders_join_group_answer_is_handled_at_its_next_poll_holding_up_the_sync() {
    // HeartbeatThread.run disables itself while PREPARING_REBALANCE
    // (`state.hasNotJoinedGroup()`), so the JoinGroup answer is handled by
    // joinGroupIfNeeded in the application's next poll(): a cooperative leader
    // busy with a batch runs the assignor and sends SyncGroup only then, and the
    // group waits in CompletingRebalance meanwhile.
    let mut s = Scenario::demo();
    s.groups[0].config.assignors = vec!["cooperative-sticky".into()];
    // Batches of 30 records at 100 ms each keep c1 busy 3 s per poll(), within
    // session.timeout.ms (6 s): no heartbeats go out while its answer waits.
    s.groups[0].config.max_poll_records = 30;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    let leader = t.world.group("demo").unwrap().1.leader_id.clone().unwrap();
    assert_eq!(t.consumer(1).membership.member_id, leader);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 100 });
    t.sleep(5_000);
    let at = t.world.now;
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(60_000);
    let answered = t.world.trace.iter().filter(|e| e.at >= at).find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to, label, .. } if *to == C1 && label.starts_with("JoinGroup ← gen=2") => {
            Some(e.at)
        }
        _ => None,
    });
    let answered = answered.expect("c1 got the JoinGroup answer of generation 2");
    let synced = sent_at(&t, C1, "SyncGroup gen=2").into_iter().next().expect("c1 synced generation 2");
    assert!(synced > answered + 500, "SyncGroup at {synced} ms, the JoinGroup answer came at {answered} ms");
    let polled = t
        .world
        .trace
        .iter()
        .any(|e| e.at == synced && matches!(&e.kind, EventKind::RecordsProcessed { node, .. } if *node == C1));
    assert!(polled, "the SyncGroup goes out in the poll() that ends the batch");
    let stable = group_transition_times(&t, "Stable").into_iter().find(|x| *x > at).expect("generation 2 completes");
    assert!(
        stable > synced,
        "the group waited for the leader's SyncGroup: stable {stable}, synced {synced}, answered {answered}, {:?}",
        group_transition_times(&t, "Stable")
    );
}

#[test]
fn a_failed_heartbeat_is_retried_after_the_retry_backoff_not_a_full_interval() {
    // Heartbeat.failHeartbeat: `heartbeatTimer.reset(retryBackoff.backoff(heartbeatAttempts++))`,
    // 100 ms for the first failure. c1 is busy processing (only its heartbeat
    // thread runs), its Heartbeat gets NOT_COORDINATOR from a broker in controlled
    // shutdown, and the heartbeat thread looks the coordinator up 100 ms later
    // instead of at its next heartbeat.interval.ms (2000).
    let mut s = Scenario::demo();
    s.groups[0].config.max_poll_records = 30;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 100 });
    t.sleep(4_000);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::ShutdownBroker { broker: old });
    t.sleep(3_000);
    let failed = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to, label, .. } if *to == C1 && label == "Heartbeat → NOT_COORDINATOR" => {
            Some(e.at)
        }
        _ => None,
    });
    let failed = failed.expect("c1's Heartbeat reached the broker after it handed off the partition");
    let lookup =
        sent_at(&t, C1, "FindCoordinator").into_iter().find(|at| *at >= failed).expect("c1 looks the coordinator up");
    assert_eq!(lookup, failed + 100, "retry.backoff.ms after the failed heartbeat");
}

/// `AbstractCoordinator.HeartbeatResponseHandler.handle`: FENCED_INSTANCE_ID is
/// raised to the application only `if (generationUnchanged())`; the answer to a
/// heartbeat sent under an older generation is ignored ("Ignoring heartbeat
/// response with error FENCED_INSTANCE_ID"), and the member keeps its place.
#[test]
fn heartbeat_response_handler_acts_on_fenced_instance_id_only_if_the_generation_is_unchanged() {
    use groupscope::sim::client::abstract_coordinator::{InFlight, MemberState};
    use groupscope::sim::client::classic::ClassicConsumer;
    use groupscope::sim::cluster::Cluster;
    use groupscope::sim::ctx::Ctx;
    use groupscope::sim::message::ApiKey;
    use groupscope::sim::message::Response;
    use groupscope::sim::out::Out;
    use groupscope::sim::scenario::config::{BrokerConfig, ConsumerConfig};
    use groupscope::sim::Errors;
    use rand::SeedableRng;

    let config = ConsumerConfig {
        group_instance_id: Some("demo-1".into()),
        topics: vec!["orders".into()],
        ..ConsumerConfig::default()
    };
    let mut c = ClassicConsumer::new(1, "demo", config);
    c.membership.member_id = "demo-1-member".into();
    c.membership.generation = 3;
    c.membership.state = MemberState::STABLE;
    c.membership.rejoin_needed = false;
    c.membership.coordinator = Some(0);
    let heartbeat = |generation| InFlight { broker: 0, api: ApiKey::Heartbeat, generation, for_join_prepare: false };
    let mut cluster = Cluster::new(3, 50, 3);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let broker_config = BrokerConfig::default();
    let mut ctx = Ctx { now: 10_000, me: C1, rng: &mut rng, cluster: &mut cluster, broker_config: &broker_config };

    // Sent under generation 2; the member has rejoined into generation 3 since.
    c.membership.in_flight.insert(7, heartbeat(2));
    let mut out = Out::default();
    c.handle_response(&mut ctx, 7, Response::Heartbeat { error: Errors::FENCED_INSTANCE_ID }, &mut out);
    assert_eq!(c.fatal, None, "an old generation's FENCED_INSTANCE_ID is ignored");
    assert_eq!((c.membership.generation, c.membership.state), (3, MemberState::STABLE));
    assert_eq!(c.membership.member_id, "demo-1-member");

    // Sent under the current generation: fatal, raised to the application.
    c.membership.in_flight.insert(8, heartbeat(3));
    let mut out = Out::default();
    c.handle_response(&mut ctx, 8, Response::Heartbeat { error: Errors::FENCED_INSTANCE_ID }, &mut out);
    assert!(c.fatal.as_deref().is_some_and(|f| f.contains("FENCED_INSTANCE_ID")), "{:?}", c.fatal);
}

// --- 15. Classic coordinator edge cases (issue 34), on a hand-driven coordinator ---

use common::coordinator::{join_request, Coordinator, GROUP, REBALANCE_MS, SESSION_MS};
use groupscope::sim::message::Request;
use groupscope::sim::out::{GroupTimer, TimerKey};
use groupscope::sim::Errors;

/// Three dynamic members (clients 1-3) joined into generation 1, none synced
/// yet: their ids by client, when the join phase completed, the leader's client.
fn completing_generation_one(c: &mut Coordinator) -> (Vec<String>, u64, u32) {
    let ids: Vec<String> = (1..=3).map(|i| c.join_dynamic(i).0).collect();
    c.advance_to(10_000);
    let g = c.group().unwrap();
    assert_eq!((g.state, g.generation_id), (CompletingRebalance, 1));
    let joined = c.timers[&TimerKey::from(GroupTimer::Sync { group_id: GROUP.into() })] - REBALANCE_MS;
    let leader = g.leader_id.as_ref().and_then(|l| ids.iter().position(|id| id == l)).unwrap() as u32 + 1;
    (ids, joined, leader)
}

/// Three dynamic members (clients 1-3) synced into generation 1; their ids by client.
fn stable_generation_one(c: &mut Coordinator) -> Vec<String> {
    let (ids, _, _) = completing_generation_one(c);
    for (i, id) in ids.iter().enumerate() {
        c.sync(i as u32 + 1, id, None, 1);
    }
    assert_eq!(c.group().map(|g| g.state), Some(Stable));
    ids
}

fn heartbeat_key(member_id: &str) -> TimerKey {
    GroupTimer::MemberHeartbeat { group_id: GROUP.into(), member_id: member_id.into() }.into()
}

/// `GroupMetadataManager.classicGroupJoinToClassicGroup`: when
/// `acceptJoiningMember` refuses a JoinGroup, `group.remove(memberId)` runs
/// before the GROUP_MAX_SIZE_REACHED answer. In PreparingRebalance a member that
/// has not rejoined is refused once group.max.size members await their join
/// (`numAwaitingJoinResponse`), and it leaves the group at once (a leader is
/// replaced by another member), not at the end of the join phase.
#[test]
fn a_member_refused_for_group_max_size_while_rebalancing_is_removed_from_the_group() {
    let mut config = Scenario::demo().broker;
    config.group_max_size = 3;
    let mut c = Coordinator::new(config, true);
    let ids = stable_generation_one(&mut c);
    let leader = c.group().unwrap().leader_id.clone().unwrap();
    let leader_client = ids.iter().position(|id| *id == leader).unwrap() as u32 + 1;
    let follower_client = (1..=3).find(|i| *i != leader_client).unwrap();
    // A follower rejoins with a new subscription: PreparingRebalance, one member
    // awaiting; two new members fill the group up to group.max.size.
    let mut changed = join_request(follower_client, &ids[follower_client as usize - 1], None);
    changed.protocols[0].metadata.topics.push("payments".into());
    c.send(follower_client, Request::JoinGroup(changed));
    assert_eq!(c.group().unwrap().state, PreparingRebalance);
    c.join_dynamic(4);
    c.join_dynamic(5);
    assert_eq!((c.group().unwrap().members.len(), c.group().unwrap().num_awaiting_join()), (5, 3));
    // The leader, not yet rejoined, is refused and removed.
    let refused = c.send(leader_client, Request::JoinGroup(join_request(leader_client, &leader, None)));
    assert_eq!(c.error_of(refused), Some(Errors::GROUP_MAX_SIZE_REACHED));
    let g = c.group().unwrap();
    assert!(!g.members.contains_key(&leader), "the refused member left the group");
    assert_eq!(g.members.len(), 4);
    assert!(g.leader_id.as_ref().is_some_and(|l| *l != leader && g.members.contains_key(l)), "a new leader");
    assert!(!c.timers.contains_key(&heartbeat_key(&leader)));
    assert_eq!(c.join_answer(refused).member_id, "", "answered with UNKNOWN_MEMBER_ID");
    assert!(c
        .notes
        .iter()
        .any(|n| matches!(n, Note::MemberRemovedGroupFull { member_id, max_size: 3 } if *member_id == leader)));
}

/// `ClassicGroup.replaceStaticMember` does not touch `pendingSyncMembers`: a
/// static member restarted while the group is Stable, before its old member id
/// sent SyncGroup, takes over without a rebalance, but the old id stays pending
/// and `GroupMetadataManager.expirePendingSync` removes it and rebalances the
/// group when the sync deadline (the rebalance timeout) passes.
#[test]
fn a_static_member_replaced_before_its_old_id_synced_still_rebalances_at_the_sync_deadline() {
    let mut c = Coordinator::demo(true);
    let instance = |i: u32| format!("{GROUP}-{i}");
    let joins: Vec<u64> =
        (1..=3).map(|i| c.send(i, Request::JoinGroup(join_request(i, "", Some(&instance(i)))))).collect();
    c.advance_to(10_000);
    let ids: Vec<String> = joins.iter().map(|j| c.join_answer(*j).member_id).collect();
    let g = c.group().unwrap();
    assert_eq!((g.state, g.generation_id), (CompletingRebalance, 1));
    let leader = g.leader_id.clone().unwrap();
    let late = (1..=3).find(|i| ids[*i as usize - 1] != leader).unwrap();
    for i in (1..=3).filter(|i| *i != late) {
        c.sync(i, &ids[i as usize - 1], Some(&instance(i)), 1);
    }
    assert_eq!(c.group().unwrap().state, Stable);
    let sync_key = TimerKey::from(GroupTimer::Sync { group_id: GROUP.into() });
    let deadline = c.timers[&sync_key];
    // The late member restarts: same protocols, so it is replaced without a rebalance.
    let old_id = ids[late as usize - 1].clone();
    let rejoin = c.send(late, Request::JoinGroup(join_request(late, "", Some(&instance(late)))));
    let new_id = c.join_answer(rejoin).member_id;
    assert_ne!(new_id, old_id);
    c.sync(late, &new_id, Some(&instance(late)), 1);
    assert_eq!(c.group().unwrap().pending_sync.iter().collect::<Vec<_>>(), vec![&old_id], "the old id stays pending");
    let alive: Vec<(u32, String, Option<String>)> = (1..=3)
        .map(|i| (i, if i == late { new_id.clone() } else { ids[i as usize - 1].clone() }, Some(instance(i))))
        .collect();
    c.advance_heartbeating(deadline - 1, &alive, 1);
    assert_eq!(c.group().map(|g| g.state), Some(Stable));
    c.advance_to(deadline);
    assert!(c.notes.iter().any(|n| matches!(n, Note::SyncGroupTimeout { member_id } if *member_id == old_id)));
    let g = c.group().unwrap();
    assert_eq!(g.state, PreparingRebalance, "expirePendingSync rebalances the group");
    assert!(g.members.contains_key(&new_id), "the new member id stays");
}

/// `GroupMetadataManager.propagateAssignment` reschedules the session timeout
/// only of members whose SyncGroup it answers (`completeSyncFuture` true). A
/// member that got its JoinGroup answer and died before sending SyncGroup keeps
/// the deadline `completeClassicGroupJoin` gave it, session.timeout.ms after the
/// join phase, and expires then, although the leader's SyncGroup came later.
#[test]
fn the_leaders_sync_group_restarts_the_session_only_of_members_whose_sync_group_was_parked() {
    let mut c = Coordinator::demo(true);
    let (ids, joined, leader) = completing_generation_one(&mut c);
    assert_eq!(c.timers[&heartbeat_key(&ids[0])], joined + SESSION_MS, "completeClassicGroupJoin armed it");
    let followers: Vec<u32> = (1..=3).filter(|i| *i != leader).collect();
    let (parked, dead) = (followers[0], followers[1]);
    let (parked_id, dead_id) = (ids[parked as usize - 1].clone(), ids[dead as usize - 1].clone());
    c.sync(parked, &parked_id, None, 1);
    c.advance_to(joined + 4_000);
    c.sync(leader, &ids[leader as usize - 1], None, 1);
    assert_eq!(c.group().unwrap().state, Stable);
    assert_eq!(c.timers[&heartbeat_key(&parked_id)], joined + 4_000 + SESSION_MS, "answered, so restarted");
    assert_eq!(c.timers[&heartbeat_key(&dead_id)], joined + SESSION_MS, "never parked, so not restarted");
    c.advance_to(joined + SESSION_MS);
    assert!(c.notes.iter().any(|n| matches!(n, Note::SessionTimeout { member_id, .. } if *member_id == dead_id)));
    assert_eq!(c.group().map(|g| g.state), Some(PreparingRebalance));
}

/// `GroupMetadataManager.resetAndPropagateAssignmentWithError`, through
/// `propagateAssignment`: when the group rebalances again during
/// CompletingRebalance, a parked SyncGroup is answered REBALANCE_IN_PROGRESS and
/// that member's session timeout starts again from the answer.
#[test]
fn a_parked_sync_group_failed_by_a_new_rebalance_restarts_that_members_session() {
    let mut c = Coordinator::demo(true);
    let (ids, joined, leader) = completing_generation_one(&mut c);
    let follower = (1..=3).find(|i| *i != leader).unwrap();
    let follower_id = ids[follower as usize - 1].clone();
    let parked = c.sync(follower, &follower_id, None, 1);
    assert_eq!(c.answer(parked), None, "parked until the leader's assignment");
    c.advance_to(joined + 3_000);
    c.join_dynamic(4);
    assert_eq!(c.error_of(parked), Some(Errors::REBALANCE_IN_PROGRESS));
    assert_eq!(c.timers[&heartbeat_key(&follower_id)], joined + 3_000 + SESSION_MS);
}

/// `GroupCoordinatorService` checks a request before it schedules it on the
/// group's partition (`runtime.scheduleWriteOperation`): `joinGroup` the group
/// id (INVALID_GROUP_ID) and the session timeout against
/// group.min/max.session.timeout.ms (INVALID_SESSION_TIMEOUT); `syncGroup`,
/// `heartbeat` and `leaveGroup` the group id; `consumerGroupHeartbeat` the request
/// (`throwIfConsumerGroupHeartbeatRequestIsInvalid`, INVALID_REQUEST). A loading
/// coordinator, or a broker that is not the coordinator, answers those errors,
/// not COORDINATOR_LOAD_IN_PROGRESS or NOT_COORDINATOR.
#[test]
fn group_coordinator_service_validates_a_request_before_the_coordinators_state() {
    use groupscope::sim::message::{ConsumerGroupHeartbeatRequest, SyncGroupRequest};
    let mut c = Coordinator::demo(false);
    let demo_partition = c.cluster.offsets_partition_for(GROUP);
    let elsewhere =
        (0..).map(|i| format!("other-{i}")).find(|g| c.cluster.offsets_partition_for(g) != demo_partition).unwrap();
    for (group_id, state_error) in
        [(GROUP.to_string(), Errors::COORDINATOR_LOAD_IN_PROGRESS), (elsewhere, Errors::NOT_COORDINATOR)]
    {
        let join = |session_timeout_ms| {
            let mut r = join_request(1, "", None);
            r.group_id = group_id.clone();
            r.session_timeout_ms = session_timeout_ms;
            Request::JoinGroup(r)
        };
        let valid = c.send(1, join(SESSION_MS));
        assert_eq!(c.error_of(valid), Some(state_error), "{group_id}: a valid JoinGroup meets the state");
        for bad in [1_000, c.config.max_session_timeout_ms + 1] {
            let j = c.send(1, join(bad));
            assert_eq!(c.error_of(j), Some(Errors::INVALID_SESSION_TIMEOUT), "{group_id}: session {bad} ms");
        }
        let invalid = ConsumerGroupHeartbeatRequest { group_id: group_id.clone(), ..Default::default() };
        let h = c.send(1, Request::ConsumerGroupHeartbeat(invalid));
        assert_eq!(c.error_of(h), Some(Errors::INVALID_REQUEST), "{group_id}: no member id");
    }
    let mut nameless = join_request(1, "", None);
    nameless.group_id = String::new();
    let sync = SyncGroupRequest {
        group_id: String::new(),
        generation_id: 1,
        member_id: "m".into(),
        group_instance_id: None,
        protocol_name: None,
        assignments: Vec::new(),
        connect_assignments: Vec::new(),
        streams_assignments: Vec::new(),
    };
    let heartbeat = Request::Heartbeat {
        group_id: String::new(),
        generation_id: 1,
        member_id: "m".into(),
        group_instance_id: None,
    };
    let leave = Request::LeaveGroup { group_id: String::new(), members: Vec::new() };
    for request in [Request::JoinGroup(nameless), Request::SyncGroup(sync), heartbeat, leave] {
        let label = format!("{request:?}");
        let r = c.send(1, request);
        assert_eq!(c.error_of(r), Some(Errors::INVALID_GROUP_ID), "{label}");
    }
}

/// `GroupMetadataManager.classicGroupJoinToClassicGroup` runs
/// `acceptJoiningMember` before `classicGroupJoinNewMember` and
/// `classicGroupJoinExistingMember` look at a Dead group or the protocols: a new
/// member of a full group gets GROUP_MAX_SIZE_REACHED even if it shares no
/// protocol with the group.
#[test]
fn group_max_size_reached_comes_before_inconsistent_group_protocol() {
    let mut config = Scenario::demo().broker;
    config.group_max_size = 3;
    let mut c = Coordinator::new(config, true);
    stable_generation_one(&mut c);
    let mut odd = join_request(4, "", None);
    odd.protocols[0].name = "roundrobin".into();
    let j = c.send(4, Request::JoinGroup(odd.clone()));
    assert_eq!(c.error_of(j), Some(Errors::GROUP_MAX_SIZE_REACHED));
    // With room in the group, the same JoinGroup meets the protocol check.
    let mut c = Coordinator::demo(true);
    stable_generation_one(&mut c);
    let j = c.send(4, Request::JoinGroup(odd));
    assert_eq!(c.error_of(j), Some(Errors::INCONSISTENT_GROUP_PROTOCOL));
}

/// `AbstractCoordinator.SyncGroupResponseHandler.handle` names
/// GROUP_AUTHORIZATION_FAILED, REBALANCE_IN_PROGRESS, FENCED_INSTANCE_ID,
/// UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, COORDINATOR_NOT_AVAILABLE and
/// NOT_COORDINATOR; any other error is raised as `new KafkaException("Unexpected
/// error from SyncGroup: ...")`, which is not retriable, so `joinGroupIfNeeded`
/// throws it out of poll(). COORDINATOR_LOAD_IN_PROGRESS, which
/// `JoinGroupResponseHandler` retries after retry.backoff.ms, is fatal on SyncGroup.
#[test]
fn a_sync_group_answered_coordinator_load_in_progress_is_raised_out_of_poll() {
    use groupscope::sim::client::abstract_coordinator::{InFlight, MemberState};
    use groupscope::sim::client::classic::ClassicConsumer;
    use groupscope::sim::cluster::Cluster;
    use groupscope::sim::ctx::Ctx;
    use groupscope::sim::message::{ApiKey, JoinGroupResponse, Response};
    use groupscope::sim::out::{ClientTimer, Out, Retry, TimerKey, TimerOp};
    use groupscope::sim::scenario::config::{BrokerConfig, ConsumerConfig};
    use rand::SeedableRng;

    let consumer = |state| {
        let config = ConsumerConfig { topics: vec!["orders".into()], ..ConsumerConfig::default() };
        let mut c = ClassicConsumer::new(1, "demo", config);
        c.membership.member_id = "consumer-demo-1-4f2a".into();
        c.membership.generation = if state == MemberState::COMPLETING_REBALANCE { 3 } else { -1 };
        c.membership.state = state;
        c.membership.coordinator = Some(0);
        c
    };
    let in_flight = |api| InFlight { broker: 0, api, generation: 3, for_join_prepare: false };
    let mut cluster = Cluster::new(3, 50, 3);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let broker_config = BrokerConfig::default();
    let mut ctx = Ctx { now: 10_000, me: C1, rng: &mut rng, cluster: &mut cluster, broker_config: &broker_config };
    let load = Errors::COORDINATOR_LOAD_IN_PROGRESS;
    let notes = |out: &Out| -> Vec<Note> {
        out.events
            .iter()
            .filter_map(|e| match e {
                EventKind::Note { note, .. } => Some(note.clone()),
                _ => None,
            })
            .collect()
    };

    let mut c = consumer(MemberState::COMPLETING_REBALANCE);
    c.membership.in_flight.insert(7, in_flight(ApiKey::SyncGroup));
    let mut out = Out::default();
    let answer =
        Response::SyncGroup { error: load, assignment: Vec::new(), connect_assignment: None, streams_assignment: None };
    c.handle_response(&mut ctx, 7, answer, &mut out);
    assert_eq!(c.fatal.as_deref(), Some("COORDINATOR_LOAD_IN_PROGRESS"), "raised to the application");
    assert!(notes(&out).contains(&Note::UnexpectedGroupError { api: ApiKey::SyncGroup, error: load }));
    assert!(!out
        .timers
        .iter()
        .any(|t| matches!(t, TimerOp::Set(TimerKey::Client(ClientTimer::Backoff(Retry::JoinGroup)), _))));

    // The same error on JoinGroup is retried after retry.backoff.ms.
    let mut c = consumer(MemberState::PREPARING_REBALANCE);
    c.membership.in_flight.insert(8, in_flight(ApiKey::JoinGroup));
    let mut out = Out::default();
    let answer = Response::JoinGroup(JoinGroupResponse {
        error: load,
        generation_id: -1,
        protocol_name: None,
        leader: String::new(),
        skip_assignment: false,
        member_id: String::new(),
        members: Vec::new(),
    });
    c.handle_response(&mut ctx, 8, answer, &mut out);
    assert_eq!(c.fatal, None);
    assert!(out
        .timers
        .iter()
        .any(|t| matches!(t, TimerOp::Set(TimerKey::Client(ClientTimer::Backoff(Retry::JoinGroup)), _))));
}

/// `GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`: a new
/// process of a static member joining a Stable group without changing the
/// selected protocol is answered at once, in the current generation, with the
/// old member's assignment: no rebalance. When the old process's last JoinGroup
/// claimed a partition the cooperative leader then withheld from everyone (it
/// was to move in the follow-up rebalance the old process would have asked for
/// after revoking it, `ConsumerCoordinator.onJoinComplete`), nobody owns it
/// until something else rebalances the group, and the simulation says so.
#[test]
fn a_static_cooperative_member_restarted_before_its_follow_up_rejoin_leaves_the_revoked_partition_unassigned() {
    use groupscope::assign::TopicPartition;
    use groupscope::sim::message::SyncGroupRequest;
    let mut c = Coordinator::demo(true);
    let instance = |i: u32| format!("{GROUP}-{i}");
    let orders = |ps: &[i32]| ps.iter().map(|p| TopicPartition::new("orders", *p)).collect::<Vec<_>>();
    let join = |c: &mut Coordinator, i: u32, member: &str, owned: Vec<TopicPartition>, generation: i32| {
        let mut r = join_request(i, member, Some(&instance(i)));
        r.protocols[0].name = "cooperative-sticky".into();
        r.protocols[0].metadata.owned_partitions = owned;
        r.protocols[0].metadata.generation_id = generation;
        c.send(i, Request::JoinGroup(r))
    };
    let sync = |c: &mut Coordinator, i: u32, member: &str, generation: i32, a: Vec<(String, Vec<TopicPartition>)>| {
        let request = SyncGroupRequest {
            group_id: GROUP.into(),
            generation_id: generation,
            member_id: member.into(),
            group_instance_id: Some(instance(i)),
            protocol_name: Some("cooperative-sticky".into()),
            assignments: a,
            connect_assignments: Vec::new(),
            streams_assignments: Vec::new(),
        };
        c.send(i, Request::SyncGroup(request))
    };
    // Generation 1: c1 leads; c1 gets orders-0..2, c2 orders-3..5.
    let joins = [join(&mut c, 1, "", Vec::new(), -1), join(&mut c, 2, "", Vec::new(), -1)];
    c.advance_to(10_000);
    let ids: Vec<String> = joins.iter().map(|j| c.join_answer(*j).member_id).collect();
    assert_eq!(c.group().unwrap().leader_id.as_ref(), Some(&ids[0]));
    let first = vec![(ids[0].clone(), orders(&[0, 1, 2])), (ids[1].clone(), orders(&[3, 4, 5]))];
    sync(&mut c, 1, &ids[0], 1, first);
    sync(&mut c, 2, &ids[1], 1, Vec::new());
    // Generation 2 (a rebalance for any reason): both claim what they own; the
    // leader withholds orders-5 from c2 to move it in the follow-up rebalance.
    join(&mut c, 2, &ids[1], orders(&[3, 4, 5]), 1);
    join(&mut c, 1, &ids[0], orders(&[0, 1, 2]), 1);
    assert_eq!((c.group().unwrap().state, c.group().unwrap().generation_id), (CompletingRebalance, 2));
    let second = vec![(ids[0].clone(), orders(&[0, 1, 2])), (ids[1].clone(), orders(&[3, 4]))];
    sync(&mut c, 1, &ids[0], 2, second);
    sync(&mut c, 2, &ids[1], 2, Vec::new());
    assert_eq!(c.group().unwrap().state, Stable);
    // c2 revoked orders-5 and crashed before its follow-up JoinGroup; its new
    // process joins with the same group.instance.id and owns nothing.
    let rejoin = join(&mut c, 2, "", Vec::new(), -1);
    let answer = c.join_answer(rejoin);
    assert_eq!((c.error_of(rejoin), answer.generation_id), (Some(Errors::NONE), 2), "answered at once");
    let g = c.group().unwrap();
    assert_eq!((g.state, g.generation_id), (Stable, 2), "no rebalance");
    assert_eq!(g.members[&answer.member_id].assignment, orders(&[3, 4]), "the old member's assignment is kept");
    assert!(!g.members.values().any(|m| m.assignment.contains(&TopicPartition::new("orders", 5))));
    assert!(c.notes.iter().any(|n| matches!(n,
        Note::FollowUpRebalanceLost { instance_id, generation: 2, partitions, .. }
            if *instance_id == instance(2) && *partitions == orders(&[5]))));
}
