//! The page's view of Kafka Streams applications (`view::streams`), checked
//! against the coordinator's assignment and Kafka's rules, not against what
//! the view prints: once the group is Stable every thread's chips are its
//! member's target (`TargetAssignmentBuilder`); a standby never shares a
//! process with its active task (`StickyTaskAssignor`, standbys go to other
//! processes); only active tasks of stateful subtopologies restore
//! (`StoreChangelogReader`); a crashed instance runs nothing; the group's
//! state and the statuses are those its coordinator and heartbeats give.

use crate::common::TestWorld;
use groupscope::sim::client::streams::{StreamsThread, TaskState};
use groupscope::sim::coordinator::streams::StreamsGroup;
use groupscope::sim::streams_message::{task_names, StreamsStatus};
use groupscope::sim::world::MemberKind;
use groupscope::sim::{Scenario, World};
use groupscope::view::streams::{conceal, streams_apps, ChipKind, StreamsAppView, ThreadView};
use std::collections::{BTreeMap, BTreeSet};

fn example(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn group<'a>(w: &'a World, id: &str) -> &'a StreamsGroup {
    w.streams_group(id).expect("the streams group exists").1
}

fn thread(w: &World, idx: u32) -> &StreamsThread {
    match w.member(idx).expect("client").kind {
        MemberKind::Streams(t) => t,
        _ => panic!("c{idx} is a stream thread"),
    }
}

fn only(w: &World) -> StreamsAppView {
    let mut apps = streams_apps(w);
    assert_eq!(apps.len(), 1);
    apps.remove(0)
}

fn threads(a: &StreamsAppView) -> impl Iterator<Item = (&str, &ThreadView)> {
    a.instances.iter().flat_map(|i| i.threads.iter().map(move |t| (i.process_id.as_str(), t)))
}

/// The labels of a thread's chips of `kinds`, sorted.
fn chips(t: &ThreadView, kinds: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = t.chips.iter().filter(|c| kinds.contains(&c.kind.name())).map(|c| c.label()).collect();
    v.sort();
    v
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Once Stable, each thread's active and standby chips are exactly its
/// member's target; each task is active on exactly one thread; no standby
/// is on the process of its active; nothing is pending or being revoked.
fn check_stable(w: &World, app: &str) {
    let g = group(w, app);
    assert_eq!(g.state.to_string_name(), "Stable", "at {} ms", w.now);
    let a = only(w);
    assert_eq!(a.state, Some("Stable"));
    assert_eq!((a.group_epoch, a.assignment_epoch), (g.group_epoch, g.assignment_epoch));
    let mut active_on: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut standby_on: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (process, t) in threads(&a) {
        let member = &thread(w, t.idx).member_id;
        let target = g.target_assignment.get(member).cloned().unwrap_or_default();
        assert_eq!(chips(t, &["active", "restoring"]), sorted(task_names(&target.active)), "c{} active", t.idx);
        assert_eq!(chips(t, &["standby"]), sorted(task_names(&target.standby)), "c{} standby", t.idx);
        assert!(chips(t, &["pending", "revoking"]).is_empty(), "c{} has nothing in motion once Stable", t.idx);
        for c in t.chips.iter() {
            let on = if c.kind == ChipKind::Standby { &mut standby_on } else { &mut active_on };
            on.entry(c.label()).or_default().push(process);
        }
    }
    let configured: i32 = g.configured.as_ref().unwrap().subtopologies.iter().map(|s| s.num_tasks).sum();
    assert_eq!(active_on.len() as i32, configured, "every task is active somewhere: {active_on:?}");
    for (task, on) in &active_on {
        assert_eq!(on.len(), 1, "{task} is active on one thread only: {on:?}");
        for p in standby_on.get(task).into_iter().flatten() {
            assert_ne!(p, &on[0], "the standby of {task} is on another process than its active");
        }
    }
}

trait StateName {
    fn to_string_name(&self) -> &'static str;
}
impl StateName for groupscope::sim::coordinator::streams::StreamsGroupState {
    fn to_string_name(&self) -> &'static str {
        groupscope::sim::state_machine::StateMachine::name(*self)
    }
}

#[test]
fn stable_chips_are_the_coordinators_target_with_standbys_off_their_actives_process() {
    let mut t = TestWorld::new(example("streams-4-standbys.json"));
    t.sleep(19_000);
    check_stable(&t.world, "totals");
    assert!(threads(&only(&t.world)).all(|(_, th)| chips(th, &["standby"]).is_empty()), "no standby before 20 s");
    t.sleep(21_000);
    check_stable(&t.world, "totals");
    let a = only(&t.world);
    assert_eq!(a.standby_replicas, 1);
    let standbys: Vec<String> = threads(&a).flat_map(|(_, th)| chips(th, &["standby"])).collect();
    // streams.num.standby.replicas=1: one standby for each task of the stateful subtopology 1, none for 0.
    let stateful_tasks = group(&t.world, "totals").configured.as_ref().unwrap().subtopologies[1].num_tasks;
    assert_eq!(standbys.len() as i32, stateful_tasks, "{standbys:?}");
    assert!(standbys.iter().all(|s| s.starts_with("1_")), "{standbys:?}");
}

#[test]
fn only_active_tasks_of_stateful_subtopologies_restore_and_their_progress_grows() {
    let mut t = TestWorld::new(example("streams-4-standbys.json"));
    let mut seen_restoring = 0;
    let mut last: BTreeMap<(u32, String), u8> = BTreeMap::new();
    while t.world.now < 40_000 {
        t.sleep(100);
        let a = only(&t.world);
        let stateful: BTreeSet<&str> = a.topology.iter().filter(|s| s.stateful()).map(|s| s.id.as_str()).collect();
        for (_, th) in threads(&a) {
            let me = thread(&t.world, th.idx);
            for c in &th.chips {
                if let ChipKind::Restoring { percent } = c.kind {
                    seen_restoring += 1;
                    assert!(stateful.contains(c.subtopology.as_str()), "{} restores at {} ms", c.label(), t.world.now);
                    assert!(
                        matches!(
                            me.tasks.get(&(c.subtopology.clone(), c.partition)),
                            Some(TaskState::Restoring { .. })
                        ),
                        "c{} {} is restoring on the thread",
                        th.idx,
                        c.label()
                    );
                    assert!(percent < 100);
                    let key = (th.idx, c.label());
                    assert!(last.get(&key).is_none_or(|p| *p <= percent), "{key:?} goes back");
                    last.insert(key, percent);
                }
            }
        }
    }
    assert!(seen_restoring > 0, "the first assignment restores the stateful tasks (20,000 records at 10,000/s)");
}

#[test]
fn a_crashed_instance_runs_nothing_and_its_tasks_come_back_on_the_standbys() {
    let mut t = TestWorld::new(example("streams-5-crash-with-standby.json"));
    t.sleep(29_000);
    check_stable(&t.world, "totals");
    let before = only(&t.world);
    let standby_of_c2 = chips(&before.instances[1].threads[0], &["standby"]);
    assert!(!standby_of_c2.is_empty(), "p2 holds standbys of p1's actives");
    t.sleep(2_000);
    let a = only(&t.world);
    assert!(!a.instances[0].alive(), "instance 1 crashed at 30 s");
    assert!(a.instances[0].threads[0].chips.is_empty(), "a crashed process runs nothing");
    // Until the session timeout (45 s) the coordinator still counts c1: the group stays Stable.
    assert_eq!(a.state, Some("Stable"));
    t.sleep(59_000);
    check_stable(&t.world, "totals");
    let after = only(&t.world);
    let c2 = &after.instances[1].threads[0];
    let active = chips(c2, &["active"]);
    assert!(standby_of_c2.iter().all(|s| active.contains(s)), "c2 runs its former standbys: {active:?}");
    assert!(chips(c2, &["standby"]).is_empty(), "no other process is left for a standby");
}

#[test]
fn a_missing_source_topic_shows_not_ready_with_its_status_then_tasks() {
    let mut t = TestWorld::new(example("streams-2-missing-source.json"));
    t.sleep(19_000);
    let a = only(&t.world);
    assert_eq!(a.state, Some("NotReady"));
    assert_eq!(a.statuses, vec![StreamsStatus::MISSING_SOURCE_TOPICS]);
    assert!(threads(&a).all(|(_, th)| th.chips.is_empty()), "a NotReady group assigns nothing");
    assert_eq!(a.instances.len(), 1, "one instance with two threads");
    assert_eq!(a.instances[0].threads.len(), 2);
    assert_eq!(a.topology.len(), 1);
    assert_eq!(a.topology[0].source_topics, ["payments"]);
    assert_eq!(a.topology[0].changelogs, ["payments-app-store-changelog"]);
    assert_eq!(a.topology[0].tasks, None, "not configured while its source topic is missing");
    t.sleep(21_000);
    check_stable(&t.world, "payments-app");
    let a = only(&t.world);
    assert!(!a.statuses.contains(&StreamsStatus::MISSING_SOURCE_TOPICS), "{:?}", a.statuses);
    assert_eq!(a.topology[0].tasks, Some(4), "one task per partition of payments");
}

#[test]
fn in_the_middle_of_a_scale_out_moving_tasks_are_revoking_on_one_thread_and_pending_on_the_other() {
    let mut t = TestWorld::new(example("streams-3-second-instance.json"));
    let (mut revoking, mut pending) = (BTreeSet::new(), BTreeSet::new());
    while t.world.now < 30_000 {
        t.sleep(10);
        let Some((_, g)) = t.world.streams_group("totals") else { continue };
        let a = only(&t.world);
        for (_, th) in threads(&a) {
            let me = thread(&t.world, th.idx);
            let target = g.target_assignment.get(&me.member_id).cloned().unwrap_or_default();
            for c in &th.chips {
                let in_target = |tasks: &groupscope::sim::streams_message::Tasks| {
                    groupscope::sim::streams_message::has_task(tasks, &c.subtopology, c.partition)
                };
                match c.kind {
                    ChipKind::Pending { standby } => {
                        assert!(in_target(if standby { &target.standby } else { &target.active }));
                        pending.insert(c.label());
                    }
                    ChipKind::Revoking => {
                        assert!(!in_target(&target.active), "a revoking task has left the member's target");
                        revoking.insert(c.label());
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(!revoking.is_empty(), "the first instance gives tasks up");
    assert!(revoking.is_subset(&pending), "what one revokes the other waits for: {revoking:?} ⊆ {pending:?}");
}

/// The state machine panel draws only the changes the coordinator makes:
/// every change of the nine shipped scenarios is an edge of the diagram, each
/// edge happens in one of them, and each is one `maybeUpdateGroupState` allows.
#[test]
fn the_streams_group_diagram_has_exactly_the_changes_the_scenarios_make() {
    use groupscope::diagram::{for_group, STREAMS_GROUP_EDGES};
    use groupscope::sim::coordinator::streams::StreamsGroupState;
    use groupscope::sim::state_machine::StateMachine;
    use groupscope::sim::trace::{EventKind, Machine};
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for n in 1..=9 {
        let name = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .find(|f| f.starts_with(&format!("streams-{n}-")))
            .unwrap();
        let mut t = TestWorld::new(example(&name));
        // Scenario 6's fence comes after the 300 s rebalance timeout.
        t.sleep(330_000);
        for e in &t.world.trace {
            if let EventKind::StateChanged { machine: Machine::StreamsGroup { .. }, from, to, .. } = &e.kind {
                seen.insert((from.to_string(), to.to_string()));
            }
        }
        let app = t.world.scenario.streams_app_ids().next().unwrap().clone();
        let d = for_group(&t.world, &app);
        assert_eq!(d.machine, "StreamsGroupState", "{name}");
        assert_eq!(d.current.as_deref(), Some(group(&t.world, &app).state.name()), "{name}");
    }
    let edges: BTreeSet<(String, String)> =
        STREAMS_GROUP_EDGES.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect();
    assert_eq!(seen, edges, "the diagram's edges are the changes the scenarios make");
    let allowed: BTreeSet<(String, String)> =
        StreamsGroupState::edges().into_iter().map(|(f, t)| (f.name().to_string(), t.name().to_string())).collect();
    assert!(edges.is_subset(&allowed));
}

/// The inspector offers a stream thread the streams faults, each one the run accepts:
/// crash, close, pause, SHUTDOWN_APPLICATION, another standby count, one more
/// instance, and the missing source topic created; a crashed thread a restart.
#[test]
fn the_inspector_offers_a_stream_thread_the_streams_faults_and_the_run_takes_each() {
    use groupscope::inspect::{actions, Selection};
    use groupscope::sim::{Fault, NodeId};
    let mut t = TestWorld::new(example("streams-2-missing-source.json"));
    t.sleep(10_000);
    let offered = actions(&t.world, &Selection::Node(NodeId::Client(1)));
    for f in [
        Fault::CrashConsumer { consumer: 1 },
        Fault::CloseConsumer { consumer: 1 },
        Fault::RequestShutdown { consumer: 1 },
        Fault::SetStandbyReplicas { group: "payments-app".into(), replicas: 1 },
        Fault::AddInstance { group: "payments-app".into() },
        Fault::CreateTopic { topic: "payments".into(), partitions: 4 },
    ] {
        assert!(offered.contains(&f), "{f:?} in {offered:?}");
    }
    for f in &offered {
        assert_eq!(t.world.check_fault(f), Ok(()), "{f:?}");
    }
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.sleep(100);
    let offered = actions(&t.world, &Selection::Node(NodeId::Client(1)));
    assert!(offered.contains(&Fault::RestartConsumer { consumer: 1 }), "{offered:?}");
    assert!(!offered.contains(&Fault::RequestShutdown { consumer: 1 }), "a crashed thread asks nothing");
}

/// The "why" links of the fence that frees a crashed thread's tasks reach
/// its cause: c1's streams session ran out (`streamsGroupSessionTimeoutKey`)
/// as no heartbeat came since its crash, which the chain names
/// (`narrate::why`, as for a consumer group's session timeout). The heartbeat
/// answer that then gives c2 the tasks is caused, in the trace, by c2's own
/// heartbeat, so its chain does not reach the fence.
#[test]
fn why_the_fence_that_frees_a_crashed_threads_tasks_reaches_the_crash() {
    use groupscope::i18n::Lang;
    use groupscope::sim::note::Note;
    use groupscope::sim::reason::FenceReason;
    use groupscope::sim::trace::EventKind;
    let mut t = TestWorld::new(example("streams-5-crash-with-standby.json"));
    t.sleep(90_000);
    let w = &t.world;
    let fenced = w
        .trace
        .iter()
        .find(|e| {
            matches!(
                &e.kind,
                EventKind::Note { note: Note::MemberFenced { reason: FenceReason::SessionExpired, .. }, .. }
            )
        })
        .expect("c1 is fenced when its session times out");
    let chain = groupscope::narrate::why(w, fenced, Lang::En);
    let text: Vec<&str> = chain.iter().map(|l| l.sentence.as_str()).collect();
    let crash = w.trace.iter().find(|e| matches!(&e.kind, EventKind::FaultInjected { .. })).unwrap();
    assert!(chain.iter().any(|l| l.id == crash.id), "the chain names the crash at 30 s: {text:#?}");
    assert!(chain.len() <= 4, "straight to the crash, not through c1's old heartbeats: {text:#?}");
    let zh = groupscope::narrate::why(w, fenced, Lang::Zh);
    assert_eq!(zh.len(), chain.len());
}

/// While a lesson's question hides `owners` the panel shows no chip of the
/// group (which thread runs which task would answer it); while it hides
/// `status` no chip says restoring, giving up or waiting and no status code
/// shows, but the active and standby tasks each thread holds still do.
#[test]
fn a_lessons_question_hides_the_tasks_or_where_they_are_heading() {
    use groupscope::lesson::conceal::{Concealed, Secret};
    let hide = |s: Secret| Concealed(std::iter::once(s).collect());
    let mut t = TestWorld::new(example("streams-3-second-instance.json"));
    let (mut moving, mut statuses) = (0, 0);
    while t.world.now < 30_000 {
        t.sleep(50);
        let plain = only(&t.world);
        moving += plain.motion().waiting + plain.motion().restoring + plain.motion().giving_up;
        statuses += plain.statuses.len();

        let mut owners = streams_apps(&t.world);
        conceal(&mut owners, &hide(Secret::Owners { group: "totals".into() }));
        assert!(owners[0].tasks_hidden);
        assert!(threads(&owners[0]).all(|(_, th)| th.chips.is_empty()), "no chip at {} ms", t.world.now);

        let mut status = streams_apps(&t.world);
        conceal(&mut status, &hide(Secret::Status { group: "totals".into() }));
        let a = &status[0];
        assert!(!a.tasks_hidden && a.statuses.is_empty());
        assert_eq!(a.motion(), groupscope::view::streams::Motion::default(), "nothing in motion shows");
        for ((_, th), (_, before)) in threads(a).zip(threads(&plain)) {
            // Every task the thread holds is still drawn: active (restoring or
            // being given up included) as active, standbys as standbys.
            let held = |k: &[&str]| chips(before, k);
            assert_eq!(chips(th, &["active"]), held(&["active", "restoring", "revoking"]));
            assert_eq!(chips(th, &["standby"]), held(&["standby"]));
        }

        // Another group's secret hides nothing of this one.
        let mut other = streams_apps(&t.world);
        conceal(&mut other, &hide(Secret::Owners { group: "billing".into() }));
        assert_eq!(other[0], plain);
    }
    assert!(moving > 0 && statuses > 0, "the scale-out moves, restores and delays tasks ({moving}, {statuses})");
}

/// The ownership table lists a Kafka Streams application's source and
/// repartition partitions under its group, each owned by the live thread
/// running the task that reads it (`<subtopology>_<partition>`), not as
/// partitions nobody reads.
#[test]
fn the_ownership_table_gives_each_source_partition_to_the_thread_running_its_task() {
    let mut t = TestWorld::new(example("streams-4-standbys.json"));
    t.sleep(40_000);
    check_stable(&t.world, "totals");
    let topology = &group(&t.world, "totals").topology.clone().expect("the group's topology");
    let rows = groupscope::view::partitions(&t.world);
    let mut checked = 0;
    for s in &topology.subtopologies {
        let reads = s.source_topics.iter().chain(s.repartition_source_topics.iter().map(|x| &x.name));
        for topic in reads {
            for r in rows.iter().filter(|r| &r.partition.topic == topic) {
                assert_eq!(r.group, "totals", "{} is listed under the application", r.partition);
                let runs = |idx: &u32| {
                    let me = thread(&t.world, *idx);
                    matches!(me.tasks.get(&(s.subtopology_id.clone(), r.partition.partition)), Some(TaskState::Running))
                };
                let owner = r.owner.expect("every source partition of a Stable group is owned");
                assert!(
                    runs(&owner),
                    "{} owned by c{owner}, which runs task {}_{}",
                    r.partition,
                    s.subtopology_id,
                    r.partition.partition
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "both subtopologies' partitions were checked ({checked})");
}
