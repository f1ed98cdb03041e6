//! Classic Kafka Streams rebalancing (`group.protocol=classic`) against
//! the streams group, on facts-share-streams.md §2.9 and §5 scenario 10,
//! from the shipped example `scenarios/streams-10-classic-vs-streams.json`
//! (one application of each kind, one clock, a second instance joining
//! each at 30 s), run whole with every invariant checked after every step.
//! Kafka's classes: `StreamsPartitionAssignor` (`assign`,
//! `addClientAssignments`, `populateActiveTaskAndPartitionsLists`,
//! `onAssignment` → `maybeScheduleFollowupRebalance`),
//! `HighAvailabilityTaskAssignor` and `TaskMovement`.

use super::scenarios::{example, notes};
use groupscope::sim::streams_note::StreamsNote;
use groupscope::sim::{Millis, World};

fn run(until: Millis) -> World {
    super::scenarios::run(example("streams-10-classic-vs-streams.json"), until)
}

/// The threads, as the scenario starts them: c1, c2 (classic, instances 1
/// and 2), c3, c4 (streams group, instances 1 and 2).
fn active_of(w: &World, c: u32) -> Vec<String> {
    let t = w.clients.streams_thread(c).expect("a stream thread").client();
    groupscope::sim::streams_message::task_names(&t.owned.active)
}

/// Classic: when the second instance joins, the HA assignor leaves every
/// task with the caught-up first instance and gives the new one warm-ups
/// (standbys, `max.warmup.replicas` 2) with a probing rebalance
/// `probing.rebalance.interval.ms` later; at the probing rebalance the
/// caught-up warm-ups win their tasks, which the owner still holds, so the
/// leader holds them back and asks for a follow-up rebalance at once
/// (`setNextRebalanceTime(0)`); after it the new instance runs them without
/// restoring from scratch.
#[test]
fn classic_warmups_then_probing_then_follow_up() {
    let w = run(100_000);
    let n = notes(&w);
    let assigned: Vec<&(Millis, StreamsNote)> =
        n.iter().filter(|(_, x)| matches!(x, StreamsNote::ClassicTasksAssigned { .. })).collect();
    let joined = assigned
        .iter()
        .find(|(at, _)| *at > 30_000)
        .and_then(|(at, x)| match x {
            StreamsNote::ClassicTasksAssigned { threads, probing_at_ms, .. } => Some((*at, threads, *probing_at_ms)),
            _ => None,
        })
        .expect("a rebalance after the second instance joined");
    let (at, threads, probing) = joined;
    let c2 = threads.iter().find(|t| t.0 == "c2").expect("c2 in the assignment");
    assert!(c2.1.is_empty(), "the new instance gets no active task yet: {c2:?}");
    assert_eq!(c2.3.len(), 2, "two warm-ups (max.warmup.replicas = 2): {c2:?}");
    assert_eq!(probing, Some(at + 60_000), "probing.rebalance.interval.ms after the assignment");
    let probe = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::FollowupRebalance { probing: true, .. }))
        .expect("a probing rebalance");
    assert_eq!(probe.0, at + 60_000);
    let withheld = n
        .iter()
        .find(|(t, x)| {
            *t >= probe.0 && matches!(x, StreamsNote::ClassicTasksAssigned { withheld, .. } if !withheld.is_empty())
        })
        .expect("tasks held back until revoked");
    let follow_up = n
        .iter()
        .find(|(t, x)| *t >= withheld.0 && matches!(x, StreamsNote::FollowupRebalance { probing: false, .. }))
        .expect("a follow-up rebalance at once");
    assert!(follow_up.0 - withheld.0 < 1_000, "at once: {} ms", follow_up.0 - withheld.0);
    assert_eq!(active_of(&w, 1).len(), 2);
    assert_eq!(active_of(&w, 2).len(), 2);
    let c2_restored_all = n.iter().any(|(_, x)| {
        matches!(x, StreamsNote::RestorationStarted { client, records, .. } if client == "c2" && *records == 200_000)
    });
    assert!(!c2_restored_all, "the warm-ups caught up before the tasks moved");
}

/// Streams group, same join: the sticky assignor moves two tasks to the new
/// instance at once and (4.4: no warm-ups) they restore their whole
/// changelog there while active; no probing rebalance ever runs.
#[test]
fn streams_group_moves_tasks_at_once_and_restores_them_while_active() {
    let w = run(100_000);
    let n = notes(&w);
    let restores: Vec<&(Millis, StreamsNote)> = n
        .iter()
        .filter(|(at, x)| {
            *at > 30_000 && matches!(x, StreamsNote::RestorationStarted { client, records, .. } if client == "c4" && *records == 200_000)
        })
        .collect();
    assert_eq!(restores.len(), 2, "two tasks restore from scratch on the new instance");
    // The old owner learns of the revocation on its next heartbeat
    // (streams.heartbeat.interval.ms, 5 s), revokes, and the new owner's
    // next heartbeat brings the tasks: within about one interval of the join.
    assert!(restores.iter().all(|(at, _)| *at <= 30_000 + 5_000 + 1_000), "soon after the join: {restores:?}");
    assert_eq!(active_of(&w, 3).len(), 2);
    assert_eq!(active_of(&w, 4).len(), 2);
}

/// Under classic rebalancing a task is never active on two threads of one
/// generation, and the moved tasks run on the new instance only after the
/// old owner revoked them (the cooperative rule the follow-up rebalance
/// exists for).
#[test]
fn classic_moves_a_task_only_after_its_owner_revoked_it() {
    let w = run(100_000);
    let n = notes(&w);
    let revoked = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::TasksRevoked { client, .. } if client == "c1"))
        .map(|(at, _)| *at)
        .expect("c1 revokes");
    let c2_active = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::TasksAssigned { client, active, .. } if client == "c2" && !active.is_empty()))
        .map(|(at, _)| *at)
        .expect("c2 gets active tasks");
    assert!(revoked < c2_active);
}

/// The page's view (`view::streams`) of the classic application 40 s in:
/// the classic group's state and generation from its coordinator, the
/// leader thread, the probing rebalance the leader's thread scheduled, and
/// the new instance's two warm-ups catching up (neither done, neither
/// active); the streams-group application beside it is no classic one.
#[test]
fn page_shows_the_classic_group_and_the_warmups_catching_up() {
    use groupscope::view::streams::{streams_apps, ChipKind};
    let w = run(40_000);
    let apps = streams_apps(&w);
    let classic = apps.iter().find(|a| a.group_id == "totals-classic").expect("the classic app");
    let c = classic.classic.as_ref().expect("classic rebalancing");
    let (_, g) = w.group("totals-classic").expect("the classic group");
    assert_eq!(c.state, Some("Stable"));
    assert_eq!(c.generation, g.generation_id);
    assert_eq!(c.leader, Some(1), "c1 joined first and leads");
    let t1 = w.clients.streams_thread(1).expect("c1").client();
    assert_eq!(c.next_rebalance_ms, t1.next_rebalance_at);
    assert!(c.next_rebalance_ms.is_some_and(|at| at > 40_000));
    let c2 = classic.instances.iter().flat_map(|i| &i.threads).find(|t| t.idx == 2).expect("c2");
    let warming: Vec<&groupscope::view::streams::TaskChip> =
        c2.chips.iter().filter(|x| matches!(x.kind, ChipKind::CatchingUp { warmup: true, .. })).collect();
    assert_eq!(warming.len(), 2, "{:?}", c2.chips);
    assert!(warming.iter().all(|x| matches!(x.kind, ChipKind::CatchingUp { percent, .. } if percent < 100)));
    assert!(!c2.chips.iter().any(|x| x.kind == ChipKind::Running));
    let streams = apps.iter().find(|a| a.group_id == "totals-streams").expect("the streams app");
    assert!(streams.classic.is_none());
}

/// The inspector offers a classic stream thread the faults of its kind
/// (crash, close, pause, one more instance) but not the streams group's
/// own: SHUTDOWN_APPLICATION and `streams.num.standby.replicas` belong to
/// StreamsGroupHeartbeat and the streams group's configs.
#[test]
fn the_inspector_offers_a_classic_thread_no_streams_group_fault() {
    use groupscope::inspect::{actions, Selection};
    use groupscope::sim::{Fault, NodeId};
    let w = run(10_000);
    let offered = actions(&w, &Selection::Node(NodeId::Client(1)));
    for f in [
        Fault::CrashConsumer { consumer: 1 },
        Fault::CloseConsumer { consumer: 1 },
        Fault::AddInstance { group: "totals-classic".into() },
    ] {
        assert!(offered.contains(&f), "{f:?} in {offered:?}");
    }
    assert!(!offered.iter().any(|f| matches!(f, Fault::RequestShutdown { .. } | Fault::SetStandbyReplicas { .. })));
    for f in &offered {
        assert_eq!(w.check_fault(f), Ok(()), "{f:?}");
    }
}

/// The state diagram of a Streams application under classic rebalancing is
/// the classic group's (`ClassicGroupState`), showing the state its
/// coordinator holds; the streams group's is `StreamsGroupState`.
#[test]
fn the_state_diagram_of_a_classic_application_is_the_classic_groups() {
    let w = run(40_000);
    let classic = groupscope::diagram::for_group(&w, "totals-classic");
    assert_eq!(classic.machine, "ClassicGroupState");
    assert_eq!(classic.current.as_deref(), Some("Stable"));
    assert_eq!(groupscope::diagram::for_group(&w, "totals-streams").machine, "StreamsGroupState");
}
