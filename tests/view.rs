//! The view model the page draws: ownership rows agree with the world.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::TestWorld;
use groupscope::sim::trace::EventKind;
use groupscope::sim::world::GroupType;
use groupscope::sim::{Scenario, World};
use groupscope::view;
use std::collections::BTreeMap;

#[test]
fn ownership_rows_show_owner_and_last_committed_offset() {
    let mut t = TestWorld::demo();
    t.sleep(13_000);
    let mut last_commit = BTreeMap::new();
    for e in &t.world.trace {
        if let EventKind::OffsetsCommitted { offsets, .. } = &e.kind {
            for (tp, o) in offsets {
                last_commit.insert(tp.clone(), *o);
            }
        }
    }
    let rows = view::partitions(&t.world);
    assert_eq!(rows.len(), 6);
    for r in rows {
        assert_eq!(r.committed, last_commit.get(&r.partition).copied(), "{}", r.partition);
        let owner = r.owner.expect("every partition is owned once Stable");
        assert!(t.consumer(owner).owned.contains(&r.partition));
        assert!(r.processed <= r.end_offset);
    }
}

/// Workers appear with their task instances and states (Connect's `AbstractStatus.State`).
#[test]
fn connect_workers_are_projected_with_their_tasks_and_states() {
    let mut w = groupscope::sim::World::new(common::connect::cluster(2, 2, |_| {})).unwrap();
    w.run_until(15_000);
    let views = groupscope::view::workers(&w);
    assert_eq!(views.len(), 2);
    let tasks: Vec<(String, String)> = views.iter().flat_map(|v| v.tasks.clone()).collect();
    assert_eq!(tasks.len(), 2);
    assert!(tasks.iter().all(|(_, s)| s == "RUNNING"));
    assert_ne!(views[0].x, views[1].x);
}

/// A zombie fenced with FENCED_INSTANCE_ID has stopped (the error is fatal)
/// even though its assignment still lists the partitions: the table shows the
/// replacement that really owns them (lesson 8's zombie).
#[test]
fn a_fenced_zombie_is_not_shown_as_the_owner() {
    use groupscope::lesson::{find, LessonSession};
    let lesson = find("static-membership").unwrap().clone();
    let step = lesson.step_index("zombie-fenced").unwrap();
    let (mut s, mut p) = LessonSession::start(lesson).unwrap();
    while s.step < step {
        s.play_step_through(&mut p, None).unwrap();
        s.next(&mut p);
    }
    s.play_step_through(&mut p, None).unwrap();
    let zombie = &p.world.clients.classic(4).unwrap();
    assert!(zombie.fatal.is_some() && zombie.alive, "c4 is fenced but its process is still up");
    for r in view::partitions(&p.world).iter().filter(|r| r.partition.topic == "audit-log") {
        assert_eq!(r.owner, Some(5), "{} belongs to the replacement c5", r.partition);
    }
}

/// Two groups reading the same topic each own all of it: the table has one
/// row per group and partition, each with that group's owner and offsets.
#[test]
fn two_groups_on_one_topic_each_get_their_own_rows() {
    let mut s = groupscope::sim::Scenario::demo();
    let mut other = s.groups[0].clone();
    other.group_id = "audit".into();
    other.consumers = 1;
    s.groups.push(other);
    let mut w = groupscope::sim::World::new(s).unwrap();
    w.run_until(20_000);
    let rows = view::partitions(&w);
    assert_eq!(rows.len(), 12, "6 partitions × 2 groups");
    for r in &rows {
        let owner = r.owner.expect("every partition owned in both groups");
        assert_eq!(
            w.clients.classic(owner).unwrap().group_id,
            r.group,
            "{} of {} is owned inside the group",
            r.partition,
            r.group
        );
    }
    let audit_owner: std::collections::BTreeSet<u32> =
        rows.iter().filter(|r| r.group == "audit").filter_map(|r| r.owner).collect();
    assert_eq!(audit_owner.len(), 1, "the audit group's single consumer owns all six");
}

/// Brokers show the partitions they lead: every partition of every topic and
/// every `__consumer_offsets` partition has exactly one live leader, and when
/// a broker dies its partitions move to other replicas (KafkaApis `getCoordinator`: the group
/// coordinator is the leader of the group's `__consumer_offsets` partition).
#[test]
fn brokers_show_the_partitions_they_lead_and_leadership_moves_when_one_dies() {
    let mut t = TestWorld::demo();
    t.sleep(1_000);
    let check = |world: &groupscope::sim::World, dead: Option<u32>| {
        let brokers = view::brokers(world);
        let offsets: usize = brokers.iter().map(|b| b.offsets_led).sum();
        assert_eq!(
            offsets,
            world.cluster.offsets_partitions.len(),
            "every __consumer_offsets partition has one leader"
        );
        for (topic, meta) in &world.cluster.topics {
            let mut led: Vec<u32> = brokers
                .iter()
                .flat_map(|b| b.leads.iter().filter(|(t, _)| t == topic).flat_map(|(_, ps)| ps.clone()))
                .collect();
            led.sort_unstable();
            assert_eq!(
                led,
                (0..meta.partitions.len() as u32).collect::<Vec<_>>(),
                "each partition of {topic} led once"
            );
        }
        for b in &brokers {
            if Some(b.id) == dead {
                assert!(b.leads.is_empty() && b.offsets_led == 0, "a dead broker leads nothing");
            }
            for (group, p) in &b.coordinates {
                assert_eq!(world.cluster.offsets_partition_for(group), *p);
                assert_eq!(
                    world.cluster.offsets_partitions[*p as usize].leader,
                    Some(b.id),
                    "the coordinator leads the group's partition"
                );
            }
            assert!(b.leads_summary().ends_with(&format!("__consumer_offsets ×{}", b.offsets_led)));
        }
    };
    check(&t.world, None);
    let coordinator =
        view::brokers(&t.world).into_iter().find(|b| !b.coordinates.is_empty()).expect("a coordinator").id;
    t.inject(groupscope::sim::Fault::KillBroker { broker: coordinator });
    // Leadership moves when the controller fences it (broker.session.timeout.ms = 9000).
    t.sleep(9_100);
    check(&t.world, Some(coordinator));
    let new = view::brokers(&t.world).into_iter().find(|b| !b.coordinates.is_empty()).map(|b| b.id);
    assert!(new.is_some() && new != Some(coordinator), "another broker coordinates the group");
}

/// The ownership view tells revoking and pending partitions apart (KIP-848's
/// revoke-first reconciliation, CurrentAssignmentBuilder `computeNextAssignment`: a partition moves only after its old
/// owner revoked it): a partition is `revoking` while its owner holds it
/// against the target assignment, `pending` while nobody holds it but the
/// target names a member, and all are `owned` again once reconciled.
#[test]
fn kip848_reconciliation_shows_revoking_then_pending_then_owned() {
    use view::PartitionStatus::*;
    let mut t = TestWorld::new(common::consumer_protocol_demo(2));
    t.sleep(15_000);
    assert!(view::partitions(&t.world).iter().all(|r| r.status == Owned), "stable before");
    t.inject(groupscope::sim::Fault::AddConsumer { group: "demo".into() });
    let (mut saw_revoking, mut saw_pending) = (false, false);
    for _ in 0..400 {
        t.sleep(25);
        for r in view::partitions(&t.world) {
            match r.status {
                Revoking => {
                    saw_revoking = true;
                    let owner = r.owner.expect("a revoking partition has its owner");
                    let (_, g) = t.world.consumer_group("demo").expect("group");
                    let member = &t.async_consumer(owner).member_id;
                    assert!(
                        !g.target_assignment.get(member).is_some_and(|ps| ps.contains(&r.partition)),
                        "{} is revoking but still targeted to c{owner}",
                        r.partition
                    );
                }
                Pending => {
                    saw_pending = true;
                    assert_eq!(r.owner, None, "{} pending but owned", r.partition);
                }
                Unowned => panic!("{} unowned during a reconciliation of live members", r.partition),
                Owned => {}
            }
        }
    }
    assert!(saw_revoking && saw_pending, "revoking {saw_revoking}, pending {saw_pending}");
    assert!(view::partitions(&t.world).iter().all(|r| r.status == Owned), "reconciled after");
    // The page names KIP-848's epochs as such: the group epoch and the target
    // assignment's epoch for the group, member epochs for the consumers.
    let (_, g) = t.world.consumer_group("demo").expect("group");
    let shown = &view::groups(&t.world)[0];
    assert_eq!((shown.generation, shown.assignment_epoch), (g.group_epoch, Some(g.assignment_epoch)));
    for c in view::consumers(&t.world) {
        assert!(c.epoch);
        assert_eq!(c.generation, t.async_consumer(c.idx).member_epoch);
    }
    let classic = TestWorld::demo();
    assert_eq!(view::groups(&classic.world)[0].assignment_epoch, None);
    assert!(view::consumers(&classic.world).iter().all(|c| !c.epoch));
}

/// A classic eager rebalance: every partition is revoked before JoinGroup,
/// so while the group rebalances the unowned partitions are `pending`.
#[test]
fn classic_partitions_are_pending_while_the_group_rebalances() {
    use view::PartitionStatus::*;
    let mut t = TestWorld::demo();
    t.sleep(15_000);
    t.inject(groupscope::sim::Fault::AddConsumer { group: "demo".into() });
    let mut saw_pending = false;
    for _ in 0..400 {
        t.sleep(25);
        let (state, _) = t.group_state("demo");
        for r in view::partitions(&t.world) {
            assert_ne!(r.status, Revoking, "classic consumers revoke at once");
            if r.status == Pending {
                saw_pending = true;
                assert!(r.owner.is_none());
                assert!(matches!(
                    state,
                    groupscope::sim::coordinator::classic::ClassicGroupState::PreparingRebalance
                        | groupscope::sim::coordinator::classic::ClassicGroupState::CompletingRebalance
                ));
            }
            if r.status == Unowned {
                assert_eq!(
                    state,
                    groupscope::sim::coordinator::classic::ClassicGroupState::Stable,
                    "unowned only outside a rebalance"
                );
            }
        }
    }
    assert!(saw_pending);
    assert!(view::partitions(&t.world).iter().all(|r| r.status == Owned));
}

/// The timeline marks faults, the start of every rebalance (classic
/// PreparingRebalance, a KIP-848 group leaving Stable for a new epoch), groups
/// settling, and a coordinator loading its partition after a failover; and
/// nothing else (heartbeats and fetches would bury them).
#[test]
fn the_timeline_marks_faults_rebalances_settling_and_coordinator_failover() {
    let marks = |s: groupscope::sim::Scenario, until: u64| {
        let mut w = groupscope::sim::World::new(s).unwrap();
        w.run_until(until);
        w.trace
            .iter()
            .filter_map(|e| view::timeline_marker(&e.kind).map(|(class, _)| (e.at, class)))
            .collect::<Vec<_>>()
    };
    // A consumer crashes at 12 s: a fault, then a rebalance, then Stable again.
    let crash = marks(groupscope::sim::Scenario::from_json(include_str!("../scenarios/crash.json")).unwrap(), 40_000);
    let fault = crash.iter().find(|(_, c)| *c == "fault").expect("the crash is marked").0;
    let rebalance =
        crash.iter().find(|(at, c)| *c == "rebalance" && *at > fault).expect("a rebalance after the crash").0;
    assert!(crash.iter().any(|(at, c)| *c == "stable" && *at > rebalance), "{crash:?}");
    // The same for a KIP-848 group.
    let kip848 = marks(
        groupscope::sim::Scenario::from_json(include_str!("../scenarios/consumer-protocol-crash.json")).unwrap(),
        40_000,
    );
    let fault = kip848.iter().find(|(_, c)| *c == "fault").expect("the crash is marked").0;
    assert!(kip848.iter().any(|(at, c)| *c == "rebalance" && *at > fault), "{kip848:?}");
    // The coordinator's broker dies: its partition loads on another broker.
    let failover = marks(
        groupscope::sim::Scenario::from_json(include_str!("../scenarios/coordinator-failover.json")).unwrap(),
        40_000,
    );
    assert!(failover.iter().any(|(_, c)| *c == "coordinator"), "{failover:?}");
    // Few marks: a handful per incident, not one per message.
    assert!(crash.len() < 12, "{crash:?}");
}

#[test]
fn a_crashed_leader_loses_its_star_and_the_new_leader_alone_has_one() {
    // Issue 32: after the leader crashed, the drawing showed two ★.
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let leader = view::consumers(&t.world).into_iter().find(|c| c.leader).expect("a leader").idx;
    t.inject(groupscope::sim::Fault::CrashConsumer { consumer: leader });
    t.sleep(30_000);
    let starred: Vec<String> = view::consumers(&t.world).into_iter().filter(|c| c.leader).map(|c| c.name).collect();
    assert_eq!(starred.len(), 1, "one leader drawn: {starred:?}");
    assert_ne!(starred[0], format!("c{leader}"), "not the crashed one");
}

/// One member view for every kind (`World::members`): a world with a classic
/// group and a KIP-848 consumer group shows every client once, in index
/// order, each with its group's type, and each group as its coordinator holds it.
#[test]
fn every_member_is_seen_whatever_its_protocol() {
    let mut s = Scenario::demo();
    s.groups[0].consumers = 2;
    let mut kip848 = s.groups[0].clone();
    kip848.group_id = "kip848".into();
    kip848.config.group_protocol = groupscope::sim::scenario::config::GroupProtocol::Consumer;
    s.groups.push(kip848);
    let mut w = World::new(s).unwrap();
    w.run_until(30_000);
    let members: Vec<(u32, &str, GroupType)> = w.members().map(|m| (m.idx, m.group_id, m.group_type)).collect();
    assert_eq!(
        members,
        vec![
            (1, "demo", GroupType::Classic),
            (2, "demo", GroupType::Classic),
            (3, "kip848", GroupType::Consumer),
            (4, "kip848", GroupType::Consumer)
        ]
    );
    for m in w.members() {
        assert!(!m.member_id.is_empty() && m.generation > 0, "c{} joined: {m:?}", m.idx);
        assert_eq!(m.state, "STABLE", "c{} settled", m.idx);
    }
    let owned: usize = w.members_of("kip848").map(|m| m.owned.len()).sum();
    assert_eq!(owned, w.cluster.partition_count("orders") as usize, "the KIP-848 members own every partition");
    let classic = w.group_view("demo").unwrap();
    let consumer = w.group_view("kip848").unwrap();
    assert_eq!((classic.group_type, classic.state, classic.members), (GroupType::Classic, "Stable", 2));
    assert!(classic.leader.is_some(), "a classic group has a leader");
    assert_eq!(
        (consumer.group_type, consumer.state, consumer.members, consumer.leader),
        (GroupType::Consumer, "Stable", 2, None)
    );
}

/// Issue 32: on a phone (the narrow drawing) lesson 1 step 1 showed broker-2
/// as just "coordinator" while the question asks which broker coordinates
/// payments: broker-2 coordinates shipping. Each role names its group, whole
/// (never cut with "…"), in English and Chinese; the concealed group's
/// coordinator is named nowhere, and no other broker's label reads as the
/// answer.
#[test]
fn on_a_phone_a_coordinator_is_named_with_its_group_whole_and_the_hidden_one_nowhere() {
    use groupscope::i18n::Lang;
    use groupscope::lesson::LessonSession;
    use groupscope::view::layout::Frame;
    use groupscope::view::roles::{narrow_box_width, narrow_roles};
    let lesson = groupscope::lesson::find("1").expect("lesson 1").clone();
    let (s, player) = LessonSession::start(lesson).unwrap();
    let concealed = s.concealed();
    assert!(!concealed.is_empty(), "step 1's question hides payments' coordinator");
    let brokers = view::brokers_in(&player.world, Frame::Narrow);
    let max = narrow_box_width(brokers.len()) - 28.0;
    for lang in [Lang::En, Lang::Zh] {
        let roles = narrow_roles(&brokers, lang, &concealed);
        let text = |id: u32| {
            let i = brokers.iter().position(|b| b.id == id).unwrap();
            roles[i].lines.join(" ")
        };
        let shipping = match lang {
            Lang::En => "coordinator of shipping",
            Lang::Zh => "shipping 的协调者",
        };
        assert_eq!(text(2), shipping, "{lang:?}: broker-2 says whose coordinator it is");
        assert_eq!(text(1), "", "{lang:?}: broker-1's role is the answer, hidden until the reveal");
        assert_eq!(text(0), "");
        for (b, r) in brokers.iter().zip(&roles) {
            assert!(r.lines.len() <= 2, "broker-{}: {:?}", b.id, r.lines);
            for l in &r.lines {
                assert!(!l.contains('…'), "broker-{}: never cut: {l}", b.id);
                assert!(view::labels::text_width(l, r.px, false) <= max, "broker-{}: {l} fits its box", b.id);
                assert!(!l.contains("payments"), "broker-{}: nothing names payments' coordinator: {l}", b.id);
            }
            assert_ne!(r.lines.join(" "), "coordinator", "broker-{}: a bare 'coordinator' answers any group", b.id);
        }
        // Revealed (nothing concealed): broker-1 names payments.
        let open = narrow_roles(&brokers, lang, &Default::default());
        let i = brokers.iter().position(|b| b.id == 1).unwrap();
        assert!(open[i].lines.join(" ").contains("payments"), "{:?}", open[i]);
    }
    // A long group name wraps between words, and a word longer than a line
    // between characters, never cut.
    let long = groupscope::view::roles::wrap_whole("coordinator of payments-consumers-europe-west", 200.0, 28.0);
    assert!(
        long.len() >= 3 && long.concat().replace(' ', "") == "coordinatorofpayments-consumers-europe-west",
        "{long:?}"
    );
    assert!(long.iter().all(|l| view::labels::text_width(l, 28.0, false) <= 200.0), "{long:?}");
}
