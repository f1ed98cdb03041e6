//! Offset commits: the simulated application's own commits
//! (`simulated.commit.mode`), how the client reacts to each OffsetCommit error,
//! commits through coordinator failover, and where FindCoordinator goes after a
//! broker dies (ConsumerCoordinator `OffsetCommitResponseHandler`, AbstractCoordinator `lookupCoordinator`).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::TestWorld;
use groupscope::assign::TopicPartition;
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::client::poll_loop::MainThread;
use groupscope::sim::commit_exception::{CommitException, LocalRefusal};
use groupscope::sim::coordinator::classic::ClassicGroupState::{self, Stable};
use groupscope::sim::note::Note;
use groupscope::sim::scenario::config::{CommitMode, ConsumerConfig, GroupProtocol};
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Errors, Fault, NodeId, Scenario};
use std::collections::BTreeMap;

fn manual(mode: CommitMode, f: impl FnOnce(&mut ConsumerConfig)) -> Scenario {
    let mut s = Scenario::demo();
    let c = &mut s.groups[0].config;
    c.enable_auto_commit = false;
    c.commit_mode = mode;
    f(c);
    s
}

/// Records client `idx` processed per partition (from the trace), up to `until` ms.
fn processed_by(t: &TestWorld, idx: u32, until: u64) -> BTreeMap<TopicPartition, i64> {
    let mut m = BTreeMap::new();
    for e in t.world.trace.iter().filter(|e| e.at <= until) {
        if let EventKind::RecordsProcessed { node, partition, from, to, .. } = &e.kind {
            if *node == NodeId::Client(idx) {
                *m.entry(partition.clone()).or_insert(0) += to - from;
            }
        }
    }
    m
}

fn redelivered(t: &TestWorld, tp: &TopicPartition) -> i64 {
    t.world.cluster.stats.redelivered.get("demo", tp)
}

fn notes_of(t: &TestWorld, idx: u32) -> Vec<String> {
    typed_notes_of(t, idx).into_iter().map(|n| n.en()).collect()
}

fn typed_notes_of(t: &TestWorld, idx: u32) -> Vec<&Note> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { node, note } if *node == NodeId::Client(idx) => Some(note),
            _ => None,
        })
        .collect()
}

#[test]
fn commit_mode_none_redelivers_everything_processed_since_the_start_after_a_crash() {
    // OffsetMetadataManager `fetchOffsets`: the new owner starts from the last committed offset; nothing was
    // ever committed (auto.offset.reset=earliest in the demo), so it starts at 0.
    let mut t = TestWorld::new(manual(CommitMode::None, |_| {}));
    t.sleep(20_000);
    let crash_at = t.world.now;
    let done = processed_by(&t, 2, crash_at);
    assert!(!done.is_empty() && done.values().all(|n| *n > 0));
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(20_000);
    assert_eq!(t.world.committed_offsets("demo").map_or(0, |c| c.len()), 0, "nobody ever commits");
    for (tp, n) in &done {
        assert_eq!(redelivered(&t, tp), *n, "{tp}: every record c2 processed is processed again");
    }
}

#[test]
fn commit_mode_sync_redelivers_at_most_the_batch_in_flight_at_a_crash() {
    let mut t = TestWorld::new(manual(CommitMode::Sync, |_| {}));
    t.sleep(20_000);
    while !matches!(t.consumer(2).main, MainThread::Processing { .. }) {
        t.sleep(1);
    }
    let MainThread::Processing { batch, .. } = t.consumer(2).main.clone() else { unreachable!() };
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(20_000);
    // Every batch c2 finished was committed before its next poll(): nothing it
    // processed is processed again; the new owner starts at the in-flight batch.
    for tp in &t.world.clients.classic(2).unwrap().owned.clone() {
        assert_eq!(redelivered(&t, tp), 0, "{tp}");
    }
    for (tp, from, _) in &batch {
        let first = t.world.trace.iter().find_map(|e| match &e.kind {
            EventKind::RecordsProcessed { node, partition, from, .. }
                if *node != NodeId::Client(2) && partition == tp =>
            {
                Some(*from)
            }
            _ => None,
        });
        assert_eq!(first, Some(*from), "{tp}: the new owner resumes at the start of c2's unfinished batch");
    }
}

#[test]
fn commit_mode_before_skips_the_batch_in_flight_at_a_crash_and_redelivers_nothing() {
    // The application commits (commitAsync) the positions past a batch as soon
    // as poll() returns it: at most once. The new owner starts past c2's
    // unfinished batch, so the group never processes those records.
    let mut s = manual(CommitMode::Before, |c| {
        c.processing_ms_per_record = 100;
        c.max_poll_records = 5;
    });
    // Slow enough production that the members keep up after the rebalance.
    s.topics[0].records_per_sec = 2;
    let mut t = TestWorld::new(s);
    t.sleep(20_000);
    while !matches!(t.consumer(2).main, MainThread::Processing { .. }) {
        t.sleep(1);
    }
    let MainThread::Processing { batch, .. } = t.consumer(2).main.clone() else { unreachable!() };
    // Let the commit of the batch land before the crash.
    let landed = |t: &TestWorld| {
        batch.iter().all(|(tp, _, to)| t.world.committed_offsets("demo").and_then(|c| c.get(tp)).copied() == Some(*to))
    };
    for _ in 0..100 {
        if landed(&t) {
            break;
        }
        t.sleep(1);
    }
    assert!(matches!(&t.consumer(2).main, MainThread::Processing { batch: b, .. } if *b == batch), "still mid-batch");
    for (tp, _, to) in &batch {
        assert_eq!(
            t.world.committed_offsets("demo").and_then(|c| c.get(tp)).copied(),
            Some(*to),
            "{tp}: committed before processing"
        );
    }
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(30_000);
    for (tp, from, to) in &batch {
        assert_eq!(redelivered(&t, tp), 0, "{tp}");
        let skipped = t.world.cluster.stats.skipped.get("demo", tp);
        assert_eq!(skipped, to - from, "{tp}: exactly the unfinished batch [{from}, {to}) is never processed");
    }
}

#[test]
fn commit_mode_async_commits_after_each_batch_without_waiting() {
    let mut t = TestWorld::new(manual(CommitMode::Async, |_| {}));
    t.sleep(20_000);
    let committed = t.world.committed_offsets("demo").cloned().unwrap_or_default();
    assert_eq!(committed.len(), 6, "every partition has a committed offset");
    assert!(t.world.clients.classics().all(|c| !matches!(c.main, MainThread::CommitSync { .. })));
    assert!(!t.any_note(|n| matches!(
        n,
        Note::CommitAsyncFailed { .. } | Note::CommitAsyncNotStable { .. } | Note::CommitAsyncCoordinatorUnknown
    )));
}

#[test]
fn commit_sync_during_a_cooperative_rebalance_fails_with_rebalance_in_progress_exception() {
    // A cooperative member keeps processing while its JoinGroup/SyncGroup are in
    // flight; its commitSync then fails at once (ConsumerCoordinator
    // sendOffsetCommitRequest: generationIfStable() is null and rebalanceInProgress()),
    // without resetting the generation: it stays in the group.
    let mut t = TestWorld::new(manual(CommitMode::Sync, |c| c.assignors = vec!["cooperative-sticky".into()]));
    t.sleep(15_000);
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(15_000);
    let failed: Vec<CommitException> = (1..=3)
        .flat_map(|i| typed_notes_of(&t, i))
        .filter_map(|n| match n {
            Note::CommitSyncFailed { exception } => Some(exception.clone()),
            _ => None,
        })
        .collect();
    assert!(!failed.is_empty(), "some member committed mid-rebalance");
    // Each failure is a RebalanceInProgressException.
    assert!(
        failed.iter().all(|e| matches!(
            e,
            CommitException::NotStable(LocalRefusal::RebalanceInProgress)
                | CommitException::AlreadyRejoining(_)
                | CommitException::RejoinRequested
                | CommitException::FencedOldGeneration { rejoining: true }
        )),
        "{failed:?}"
    );
    assert!(
        !t.labels_sent().iter().any(|l| l.starts_with("OffsetCommit →")),
        "refused locally: never sent, no error answers"
    );
    assert_eq!(t.group_state("demo").0, Stable);
    assert!((1..=4)
        .all(|i| t.consumer(i).membership.state == MemberState::STABLE && t.consumer(i).membership.generation >= 2));
}

#[test]
fn an_offset_commit_from_a_removed_member_gets_unknown_member_id_and_commit_failed_then_it_rejoins_as_new() {
    // ConsumerCoordinator `OffsetCommitResponseHandler`: UNKNOWN_MEMBER_ID resets generation and member id
    // (CommitFailedException); the member rejoins and reports its partitions lost.
    let mut t = TestWorld::new(manual(CommitMode::Sync, |c| c.processing_ms_per_record = 50));
    t.sleep(15_000);
    let old_member = t.consumer(2).membership.member_id.clone();
    while !matches!(t.consumer(2).main, MainThread::Processing { .. }) {
        t.sleep(1);
    }
    // Frozen past session.timeout.ms: the group removes c2; when it wakes up the
    // end of its batch comes first, so its commitSync reaches the coordinator.
    t.inject(Fault::PauseConsumer { consumer: 2, duration_ms: 9000 });
    t.sleep(20_000);
    let notes = notes_of(&t, 2);
    assert!(
        t.labels_sent().iter().any(|l| l == "OffsetCommit → UNKNOWN_MEMBER_ID"),
        "{:?}",
        t.labels_sent().iter().filter(|l| l.starts_with("OffsetCommit")).collect::<Vec<_>>()
    );
    assert!(
        notes.iter().any(|n| n.contains("commitSync() failed: UNKNOWN_MEMBER_ID: CommitFailedException")),
        "{notes:?}"
    );
    t.sleep_until(60_000, |t| {
        t.group_state("demo").0 == Stable && t.consumer(2).membership.state == MemberState::STABLE
    });
    assert_ne!(t.consumer(2).membership.member_id, old_member, "rejoined as a new member");
    assert_eq!((1..=3).map(|i| t.owned(i).len()).sum::<usize>(), 6);
}

#[test]
fn commit_sync_through_coordinator_failover_is_retried_until_the_new_coordinator_has_loaded() {
    // AbstractCoordinator `markCoordinatorUnknown`: the connection breaks (retriable), the client rediscovers,
    // gets COORDINATOR_LOAD_IN_PROGRESS while the new coordinator loads, backs
    // off retry.backoff.ms and retries; commitSync never reports a failure.
    let mut t = TestWorld::new(manual(CommitMode::Sync, |c| c.processing_ms_per_record = 1));
    t.sleep(15_000);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    while !t.world.clients.classics().any(|c| matches!(c.main, MainThread::CommitSync { .. })) {
        t.sleep(1);
    }
    let committing: Vec<u32> =
        t.world.clients.classics().filter(|c| matches!(c.main, MainThread::CommitSync { .. })).map(|c| c.idx).collect();
    t.inject(Fault::KillBroker { broker: old });
    // The dead broker is fenced after broker.session.timeout.ms, then the new one loads.
    t.sleep(9_000 + 10_000);
    let labels = t.labels_sent();
    assert!(
        labels.iter().any(|l| l == "OffsetCommit → COORDINATOR_LOAD_IN_PROGRESS"),
        "a retry reached the loading coordinator"
    );
    assert!(t
        .notes()
        .iter()
        .any(|n| n.contains("commitSync(): COORDINATOR_LOAD_IN_PROGRESS (retriable), retrying in")));
    assert!(!t.any_note(|n| matches!(n, Note::CommitSyncFailed { .. })), "no commit was reported failed");
    let new = t.world.cluster.coordinator_for("demo").unwrap();
    assert_ne!(new, old);
    for i in committing {
        // Its commitSync returned: the new coordinator accepted a commit of c{i}
        // (the application commits again after every batch since).
        let accepted = t.world.trace.iter().any(|e| {
            matches!(&e.kind, EventKind::MessageSent { from, to, label, .. }
                if *from == NodeId::Broker(new) && *to == NodeId::Client(i) && label == "OffsetCommit ← OK")
        });
        assert!(accepted, "c{i} got out of commitSync");
    }
    let committed = t.world.committed_offsets("demo").expect("loaded");
    for c in t.world.clients.classics() {
        for tp in &c.owned {
            assert!(committed.get(tp).copied().unwrap_or(-1) > 0, "{tp} committed on the new coordinator");
        }
    }
    assert_eq!(t.group_state("demo"), (Stable, 1), "no rebalance");
}

#[test]
fn an_auto_commit_answered_coordinator_load_in_progress_is_retried_after_retry_backoff() {
    // A slow load (simulated.coordinator.load.ms) so an auto-commit lands in it.
    let mut s = Scenario::demo();
    s.broker.coordinator_load_ms = 6000;
    let mut t = TestWorld::new(s);
    t.sleep(14_900);
    let old = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::KillBroker { broker: old });
    t.sleep(9_000 + 15_000);
    let notes = t.notes();
    let failed =
        notes.iter().filter(|n| n.starts_with("auto-commit failed: COORDINATOR_LOAD_IN_PROGRESS (retriable)")).count();
    assert!(failed > 0, "auto-commits reached the loading coordinator");
    assert!(notes.iter().all(|n| !n.contains("CommitFailedException")));
    // The retry came retry.backoff.ms later, not auto.commit.interval.ms later.
    let load_done = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::StateChanged { to, .. } if to == "ACTIVE" => Some(e.at),
        _ => None,
    });
    let first_commit_after = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::OffsetsCommitted { .. } if Some(e.at) > load_done => Some(e.at),
        _ => None,
    });
    assert!(first_commit_after.unwrap() - load_done.unwrap() < 1500, "{first_commit_after:?} vs load at {load_done:?}");
}

fn find_coordinator_targets_after(t: &TestWorld, at: u64) -> Vec<NodeId> {
    t.world
        .trace
        .iter()
        .filter(|e| e.at >= at)
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { from: NodeId::Client(_), to, label, .. }
                if label.starts_with("FindCoordinator ") =>
            {
                Some(*to)
            }
            _ => None,
        })
        .collect()
}

fn rediscovery_goes_to_a_live_broker_first(protocol: GroupProtocol) {
    let mut s = Scenario::demo();
    s.groups[0].config.group_protocol = protocol;
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    let dead = t.world.cluster.coordinator_for("demo").unwrap();
    // Every client asked broker-0 first, so its round-robin cursor points at broker-1.
    assert_eq!(dead, 1, "the demo group's coordinator is the broker the old rule would retry");
    let at = t.world.now;
    t.inject(Fault::KillBroker { broker: dead });
    t.sleep(5000);
    let targets = find_coordinator_targets_after(&t, at);
    assert!(targets.len() >= 3, "every client rediscovers: {targets:?}");
    assert!(
        !targets.contains(&NodeId::Broker(dead)),
        "leastLoadedNode skips the broker in reconnect backoff: {targets:?}"
    );
    let refused =
        t.world.trace.iter().filter(|e| e.at >= at).any(
            |e| matches!(&e.kind, EventKind::MessageDropped { label, .. } if label.starts_with("FindCoordinator")),
        );
    assert!(!refused, "no FindCoordinator is refused by the dead broker");
}

#[test]
fn classic_rediscovery_after_the_coordinator_dies_asks_a_live_broker_first() {
    rediscovery_goes_to_a_live_broker_first(GroupProtocol::Classic);
}

#[test]
fn consumer_protocol_rediscovery_after_the_coordinator_dies_asks_a_live_broker_first() {
    rediscovery_goes_to_a_live_broker_first(GroupProtocol::Consumer);
}

#[test]
fn the_consumer_protocol_client_commits_sync_after_each_batch_too() {
    let mut s = manual(CommitMode::Sync, |c| c.group_protocol = GroupProtocol::Consumer);
    s.groups[0].consumers = 2;
    let mut t = TestWorld::new(s);
    t.sleep(20_000);
    let crash_at = t.world.now;
    let done = processed_by(&t, 2, crash_at);
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(60_000);
    assert!(!done.is_empty());
    let committed = t.world.committed_offsets("demo").cloned().unwrap_or_default();
    assert_eq!(committed.len(), 6);
    let redone: i64 = done.keys().map(|tp| redelivered(&t, tp)).sum();
    let batch_max = i64::from(t.world.scenario.groups[0].config.max_poll_records);
    assert!(redone <= batch_max, "at most one batch is processed again: {redone}");
    // ConsumerGroup `validateOffsetCommit`: a commit sent with the epoch the member had before the
    // coordinator bumped it (c1 takes c2's partitions) is accepted for the partitions assigned at or
    // before that epoch (KIP-1251, Kafka 4.3+); any other would get STALE_MEMBER_EPOCH, which
    // commitSync turns into CommitFailedException (CommitRequestManager); no other failure.
    let failed: Vec<&Note> =
        t.typed_notes().into_iter().filter(|n| matches!(n, Note::CommitSyncFailed { .. })).collect();
    assert!(
        failed.iter().all(|n| matches!(
            n,
            Note::CommitSyncFailed { exception: CommitException::Failed(Errors::STALE_MEMBER_EPOCH) }
        )),
        "{failed:?}"
    );
}

#[test]
fn commit_mode_defaults_to_none_and_is_named_as_a_simulated_application_setting() {
    assert_eq!(ConsumerConfig::default().commit_mode, CommitMode::None);
    let json = serde_json::to_string(&ConsumerConfig::default()).unwrap();
    assert!(!json.contains("simulated.commit.mode"), "the default is not written, so saved scenarios keep their form");
    let c: ConsumerConfig =
        serde_json::from_str(r#"{"enable.auto.commit": false, "simulated.commit.mode": "sync"}"#).unwrap();
    assert_eq!(c.commit_mode, CommitMode::Sync);
    assert!(serde_json::from_str::<ConsumerConfig>(r#"{"simulated.commit.mode": "sometimes"}"#).is_err());
}

/// KIP-848: members committing after each batch while others join 100 ms
/// apart, so the coordinator bumps their epochs in heartbeats answered while
/// their commits are on the way. Until Kafka 4.2 such a commit was answered
/// STALE_MEMBER_EPOCH; since 4.3 (KIP-1251, ConsumerGroup `validateOffsetCommit`
/// with `createAssignmentEpochValidator`) an older epoch commits every partition
/// the member was assigned at or before it, which is all a member commits: it
/// commits only partitions it owns, and learns of a new one only from an answer
/// carrying the epoch it was assigned at. So no commit of the storm is stale.
#[test]
fn kip848_commits_racing_epoch_bumps_in_a_join_storm_are_never_stale() {
    let mut s = manual(CommitMode::Sync, |c| c.group_protocol = GroupProtocol::Consumer);
    // Members joining 100 ms apart while the others commit after each batch
    // (the batches' timing follows the Fetch answers from the partition leaders).
    s.groups[0].consumers = 15;
    s.groups[0].start_stagger_ms = 100;
    s.topics[0].partitions = 30;
    // Every join recomputes the target at once (no KIP-1263 batching), so epochs move often.
    s.broker.consumer_group_assignment_interval_ms = 0;
    let mut t = TestWorld::new(s);
    t.sleep(30_000);
    let answers: Vec<String> = t.labels_sent().into_iter().filter(|l| l.starts_with("OffsetCommit ")).collect();
    assert!(answers.len() > 100, "{} commits answered", answers.len());
    let stale: Vec<&String> = answers.iter().filter(|l| l.contains("STALE_MEMBER_EPOCH")).collect();
    assert_eq!(stale, Vec::<&String>::new());
    for idx in t.world.client_indices() {
        assert!(!notes_of(&t, idx).iter().any(|n| n.contains("CommitFailedException")), "c{idx} failed a commit");
    }
}

// --- KIP-848: what CommitRequestManager does with each OffsetCommit error ---------------

mod kip848_commit_errors {
    use super::*;
    use groupscope::sim::client::consumer::{AsyncConsumer, MemberState, Pending};
    use groupscope::sim::cluster::Cluster;
    use groupscope::sim::ctx::Ctx;
    use groupscope::sim::message::{ApiKey, Body, Request, Response};
    use groupscope::sim::out::Out;
    use groupscope::sim::scenario::config::BrokerConfig;
    use rand::SeedableRng;

    const NOW: u64 = 10_000;
    const COMMIT: u64 = 7;

    /// c1, STABLE at member epoch `epoch` and owning orders-0, with one
    /// OffsetCommit (correlation 7) in flight: the application's own (`mode`),
    /// or the auto-commit before a rebalance (`None`).
    fn committing(mode: Option<CommitMode>, epoch: i32) -> AsyncConsumer {
        let config = ConsumerConfig {
            enable_auto_commit: mode.is_none(),
            commit_mode: mode.unwrap_or(CommitMode::None),
            topics: vec!["orders".into()],
            ..ConsumerConfig::default()
        };
        let mut c = AsyncConsumer::new(1, "demo", config);
        let tp = TopicPartition::new("orders", 0);
        (c.member_id, c.member_epoch, c.state) = ("m".into(), epoch, MemberState::STABLE);
        c.link.coordinator = Some(0);
        c.owned = vec![tp.clone()];
        c.positions.insert(tp.clone(), 42);
        let before_revocation = mode.is_none();
        let pending = Pending { broker: 0, api: ApiKey::OffsetCommit, member_epoch: epoch, before_revocation };
        c.link.in_flight.insert(COMMIT, pending);
        match mode {
            Some(m) => {
                c.app_commits.insert(COMMIT, m);
                c.main = match m {
                    CommitMode::Sync => {
                        MainThread::CommitSync { offsets: vec![(tp, 42)], deadline: NOW + 60_000, retry_at: 0 }
                    }
                    _ => MainThread::Processing { until: NOW + 500, batch: vec![] },
                };
            }
            None => c.main = MainThread::Idle,
        }
        c
    }

    /// The commit is answered `error` at NOW: the notes, and whether an OffsetCommit went out again.
    fn answer(c: &mut AsyncConsumer, error: Errors) -> (Vec<Note>, bool) {
        let mut cluster = Cluster::new(3, 50, 3);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let broker_config = BrokerConfig::default();
        let mut ctx = Ctx {
            now: NOW,
            me: NodeId::Client(1),
            rng: &mut rng,
            cluster: &mut cluster,
            broker_config: &broker_config,
        };
        let mut out = Out::default();
        c.handle_response(&mut ctx, COMMIT, Response::OffsetCommit { error, offsets: vec![] }, &mut out);
        let notes = out
            .events
            .iter()
            .filter_map(|e| match e {
                EventKind::Note { note, .. } => Some(note.clone()),
                _ => None,
            })
            .collect();
        let resent =
            out.sends.iter().any(|(_, b)| matches!(b, Body::Request { request: Request::OffsetCommit(_), .. }));
        (notes, resent)
    }

    /// CommitRequestManager `commitSyncWithRetries` retries only a
    /// RetriableException. `OffsetCommitRequestState.onResponse` fails the
    /// commit with a CommitFailedException for UNKNOWN_MEMBER_ID and with a
    /// StaleMemberEpochException for STALE_MEMBER_EPOCH, which
    /// `commitSyncExceptionForError` turns into a CommitFailedException: the
    /// exception the application must handle, even while the member has an
    /// epoch (Kafka 4.4 has no retry on these group errors). A retriable error
    /// is retried after retry.backoff.ms.
    #[test]
    fn commit_sync_answered_stale_member_epoch_or_unknown_member_id_raises_commit_failed_exception() {
        for error in [Errors::STALE_MEMBER_EPOCH, Errors::UNKNOWN_MEMBER_ID] {
            let mut c = committing(Some(CommitMode::Sync), 5);
            let (notes, resent) = answer(&mut c, error);
            let failed = Note::CommitSyncFailed { exception: CommitException::Failed(error) };
            assert!(notes.contains(&failed), "{error}: {notes:?}");
            assert!(!matches!(c.main, MainThread::CommitSync { .. }), "{error}: commitSync returned");
            assert!(!resent && !notes.iter().any(|n| matches!(n, Note::CommitSyncRetry { .. })), "{error}: {notes:?}");
        }
        let mut c = committing(Some(CommitMode::Sync), 5);
        let (notes, _) = answer(&mut c, Errors::COORDINATOR_LOAD_IN_PROGRESS);
        assert!(notes.iter().any(|n| matches!(n, Note::CommitSyncRetry { .. })), "{notes:?}");
        assert!(matches!(c.main, MainThread::CommitSync { retry_at, .. } if retry_at > NOW));
    }

    /// CommitRequestManager `commitAsync`: a retriable error reaches the
    /// callback as a RetriableCommitFailedException
    /// (`commitAsyncExceptionForError`), a stale epoch as the
    /// StaleMemberEpochException itself, an unknown member id as a CommitFailedException.
    #[test]
    fn commit_async_passes_a_stale_member_epoch_to_its_callback_as_it_is() {
        let expected = [
            (Errors::STALE_MEMBER_EPOCH, CommitException::Raised(Some(Errors::STALE_MEMBER_EPOCH))),
            (Errors::UNKNOWN_MEMBER_ID, CommitException::Failed(Errors::UNKNOWN_MEMBER_ID)),
            (
                Errors::COORDINATOR_LOAD_IN_PROGRESS,
                CommitException::RetriableCommitFailed(Box::new(CommitException::Retriable(Some(
                    Errors::COORDINATOR_LOAD_IN_PROGRESS,
                )))),
            ),
        ];
        for (error, exception) in expected {
            let (notes, resent) = answer(&mut committing(Some(CommitMode::Async), 5), error);
            assert_eq!(notes, vec![Note::CommitAsyncFailed { exception }], "{error}");
            assert!(!resent, "{error}: commitAsync is not retried");
        }
    }

    /// CommitRequestManager `autoCommitSyncBeforeRebalanceWithRetries` retries a
    /// RetriableException, except UNKNOWN_TOPIC_OR_PARTITION (a deleted
    /// partition would hold the rebalance), and a STALE_MEMBER_EPOCH while the
    /// member has a valid epoch (`isStaleEpochErrorAndValidEpochAvailable`:
    /// `memberInfo.memberEpoch` is set only for an epoch above 0); anything else,
    /// UNKNOWN_MEMBER_ID included, ends the commit and the reconciliation
    /// revokes without it (AbstractMembershipManager `maybeReconcile`).
    #[test]
    fn the_auto_commit_before_a_rebalance_retries_a_stale_epoch_but_not_an_unknown_member_id() {
        let cases = [
            (Errors::STALE_MEMBER_EPOCH, 5, true),
            (Errors::STALE_MEMBER_EPOCH, 0, false),
            (Errors::UNKNOWN_MEMBER_ID, 5, false),
            (Errors::UNKNOWN_TOPIC_OR_PARTITION, 5, false),
            (Errors::COORDINATOR_LOAD_IN_PROGRESS, 5, true),
            (Errors::NONE, 5, false),
        ];
        for (error, epoch, retried) in cases {
            let mut c = committing(None, epoch);
            answer(&mut c, error);
            let r = &c.reconcile_commit;
            assert_eq!((!r.done, r.retry_at > NOW), (retried, retried), "{error} at epoch {epoch}: {r:?}");
        }
    }
}

/// CommitRequestManager `maybeAutoCommitAsync`: `AutoCommitState.shouldAutoCommit`
/// is false while an auto-commit is in flight (`hasInflightCommit`, set by
/// `requestAutoCommit`, cleared when its answer comes), and the interval timer
/// is then left expired, not reset: with the coordinator link held for two
/// intervals there is one auto-commit OffsetCommit, not one per interval, and the
/// next goes as soon as the first is answered.
#[test]
fn kip848_the_interval_auto_commit_waits_while_one_is_in_flight() {
    let mut s = Scenario::demo();
    s.groups[0].consumers = 1;
    s.groups[0].config.group_protocol = GroupProtocol::Consumer;
    let mut t = TestWorld::new(s);
    t.sleep(20_000);
    let commits_of_c1 = |t: &TestWorld, from: u64| -> Vec<u64> {
        t.world
            .trace
            .iter()
            .filter(|e| e.at >= from)
            .filter_map(|e| match &e.kind {
                EventKind::MessageSent { from: NodeId::Client(1), label, .. } if label.starts_with("OffsetCommit") => {
                    Some(e.at)
                }
                _ => None,
            })
            .collect()
    };
    let interval = t.world.scenario.groups[0].config.auto_commit_interval_ms;
    let coordinator = format!("broker-{}", t.world.cluster.coordinator_for("demo").unwrap());
    let held_at = t.world.now;
    t.inject(Fault::HoldLink { from: "c1".into(), to: coordinator.clone() });
    t.sleep(2 * interval + 1000);
    assert_eq!(commits_of_c1(&t, held_at).len(), 1, "one auto-commit while the link is held");
    t.inject(Fault::ReleaseLink { from: "c1".into(), to: coordinator });
    t.sleep(3000);
    let answered = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to: NodeId::Client(1), label, .. }
            if e.at > held_at && label.starts_with("OffsetCommit") =>
        {
            Some(e.at)
        }
        _ => None,
    });
    let answered = answered.expect("the held commit is answered");
    let next = commits_of_c1(&t, answered + 1);
    assert!(
        next.first().is_some_and(|at| at - answered < 1000),
        "the next auto-commit at once: {next:?} after {answered}"
    );
}

// --- a group the coordinator does not hold (issue 34) ---

use common::coordinator::{join_request, Coordinator, GROUP};
use groupscope::sim::cluster::CoordinatorRecord;
use groupscope::sim::message::{OffsetCommitRequest, Request, Response};

fn commit(generation_id: i32, member_id: &str) -> Request {
    Request::OffsetCommit(OffsetCommitRequest {
        group_id: GROUP.into(),
        generation_id,
        member_id: member_id.into(),
        group_instance_id: None,
        offsets: vec![(TopicPartition::new("orders", 0), 42)],
    })
}

/// `OffsetMetadataManager.validateOffsetCommit`: for a group the coordinator
/// does not hold (`GroupMetadataManager.group` throws GroupIdNotFoundException),
/// a commit with a generation gets GROUP_ID_NOT_FOUND (OffsetCommit v9+; the
/// classic consumer sends v9) and creates nothing; only a commit without one
/// (generation -1) creates a simple, Empty group, and writes no group record.
#[test]
fn an_offset_commit_with_a_generation_for_an_unknown_group_gets_group_id_not_found_and_creates_no_group() {
    let mut c = Coordinator::demo(true);
    let refused = c.send(1, commit(3, "consumer-demo-1-4f2a"));
    assert_eq!(c.error_of(refused), Some(Errors::GROUP_ID_NOT_FOUND));
    assert!(c.group().is_none(), "no group was created");
    assert!(c.records.is_empty(), "nothing was written");
    let simple = c.send(1, commit(-1, ""));
    assert_eq!(c.error_of(simple), Some(Errors::NONE));
    assert_eq!(c.group().map(|g| (g.state, g.generation_id)), Some((ClassicGroupState::Empty, 0)));
    assert!(
        c.records.iter().all(|(_, r)| matches!(r, CoordinatorRecord::OffsetCommit { .. })),
        "only the offset: {:?}",
        c.records
    );
}

/// `GroupMetadataManager.classicGroupJoinToClassicGroup`: a JoinGroup that
/// creates the group and produces no records of its own (here MEMBER_ID_REQUIRED)
/// appends `newEmptyGroupMetadataRecord` (generation 0, no members), which
/// commits the new group: after a failover the coordinator holds it, Empty.
#[test]
fn a_join_group_that_creates_the_group_writes_an_empty_group_record() {
    let mut c = Coordinator::demo(true);
    let first = c.send(1, Request::JoinGroup(join_request(1, "", None)));
    assert_eq!(c.error_of(first), Some(Errors::MEMBER_ID_REQUIRED));
    let empty = CoordinatorRecord::GroupMetadata {
        group_id: GROUP.into(),
        generation_id: 0,
        protocol_type: None,
        protocol_name: None,
        leader: None,
        members: Vec::new(),
    };
    assert_eq!(c.records.iter().map(|(_, r)| r).collect::<Vec<_>>(), vec![&empty]);
    c.send(2, Request::JoinGroup(join_request(2, "", None)));
    assert_eq!(c.records.len(), 1, "only the JoinGroup that created the group writes it");
    c.reload();
    assert_eq!(c.group().map(|g| (g.state, g.generation_id)), Some((ClassicGroupState::Empty, 0)));
    let member = c.send(1, commit(1, "consumer-demo-1-4f2a"));
    assert_eq!(c.error_of(member), Some(Errors::UNKNOWN_MEMBER_ID), "the group is known, the member is not");
    assert!(matches!(c.answer(member), Some(Response::OffsetCommit { .. })));

    // The same in the demo: the group's first record is the empty one.
    let mut t = TestWorld::demo();
    t.sleep(1_000);
    let p = t.world.cluster.offsets_partition_for(GROUP) as usize;
    assert_eq!(t.world.cluster.offsets_logs[p].iter().next(), Some(&empty));
}
