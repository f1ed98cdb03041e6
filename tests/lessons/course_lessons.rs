//! Single lessons whose point is a number the simulation must produce:
//! lesson 16's timeout grades, lesson 17's duplicate and loss bounds, and lesson
//! 18's side-by-side rolling restart.

use super::*;

/// Lesson 17's bounds are the configs' arithmetic, not numbers picked to pass:
/// committing after processing (auto-commit) redelivers at most what is
/// processed in one auto.commit.interval.ms plus the batch in flight; committing
/// before processing loses at most one batch (max.poll.records).
#[test]
fn lesson_17_duplicate_and_loss_bounds_are_derived_from_the_groups_configs() {
    use groupscope::lesson::Expectation;
    let l = groupscope::lesson::find("delivery-semantics").expect("lesson 17");
    let config = |g: &str| &l.scenario.groups.iter().find(|s| s.group_id == g).expect("group").config;
    let after = config("after");
    let dup_bound =
        (after.auto_commit_interval_ms / after.processing_ms_per_record) as i64 + i64::from(after.max_poll_records);
    let loss_bound = i64::from(config("before").max_poll_records);
    let bound_of = |group: &str, skipped: bool| {
        l.steps.iter().flat_map(|s| &s.expect).find_map(|e| match e {
            Expectation::Redelivered { group: g, at_most, at_least }
                if !skipped && g == group && at_least.is_some() =>
            {
                *at_most
            }
            Expectation::Skipped { group: g, at_most, at_least } if skipped && g == group && at_least.is_some() => {
                *at_most
            }
            _ => None,
        })
    };
    assert_eq!(
        bound_of("after", false),
        Some(dup_bound),
        "redelivered ≤ auto.commit.interval.ms / processing.ms.per.record + max.poll.records"
    );
    assert_eq!(bound_of("before", true), Some(loss_bound), "skipped ≤ max.poll.records");
    // And the run lands inside them, with the other kind of failure absent.
    let report = run(l, Answers::Correct).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

/// Lesson 16 grades the whole choice of session.timeout.ms,
/// heartbeat.interval.ms, max.poll.interval.ms and max.poll.records: every
/// wrong deployment misses in the simulation (a false eviction, a crash noticed
/// too late, or a missed max.poll.interval.ms), and the hint shown names a
/// config in which it differs from the deployment that passes.
#[test]
fn lesson_16_grades_all_four_timeout_configs_and_the_hint_names_the_wrong_one() {
    use groupscope::sim::Fault;
    let l = groupscope::lesson::find("choosing-timeouts").expect("lesson 16");
    let at = l.steps.iter().position(|s| s.task.is_some()).expect("a task");
    let task = l.steps[at].task.clone().unwrap();
    let group_of = |o: &groupscope::lesson::TaskOption, w: &groupscope::sim::World| {
        let c = o.faults.iter().find_map(|f| match f {
            Fault::CrashConsumer { consumer } => Some(*consumer),
            _ => None,
        });
        w.clients.classic(c.expect("a crash")).unwrap().group_id.clone()
    };
    let four = |w: &groupscope::sim::World, g: &str| {
        let c = &l.scenario.groups.iter().find(|s| s.group_id == g).unwrap().config;
        let _ = w;
        [
            ("session.timeout.ms", c.session_timeout_ms),
            ("heartbeat.interval.ms", c.heartbeat_interval_ms),
            ("max.poll.interval.ms", c.max_poll_interval_ms),
            ("max.poll.records", u64::from(c.max_poll_records)),
        ]
    };
    let mut wrong_configs = std::collections::BTreeSet::new();
    for (i, o) in task.options.iter().enumerate() {
        let (mut s, mut player) = LessonSession::open_at(l.clone(), at).unwrap();
        let r = s.play_step_through(&mut player, Some(Choice::Index(i))).unwrap();
        let right = four(&player.world, &group_of(&task.options[task.answer], &player.world));
        let mine = four(&player.world, &group_of(o, &player.world));
        if i == task.answer {
            assert!(r.missed.is_none(), "the right deployment passes: {:?}", r.missed);
            continue;
        }
        assert!(r.missed.is_some(), "option {i} ({}) must miss", o.label.en);
        let differ: Vec<&str> = right.iter().zip(&mine).filter(|(a, b)| a.1 != b.1).map(|(a, _)| a.0).collect();
        let hints = s.hints();
        assert!(
            !hints.is_empty() && hints.iter().all(|h| *h != &task.hint),
            "option {i}: the hints of its failed checks, not the generic one"
        );
        let named: Vec<&str> =
            differ.iter().copied().filter(|c| hints.iter().any(|h| h.en.contains(c) && h.zh.contains(c))).collect();
        assert!(
            !named.is_empty(),
            "option {i} ({}): the hint {:?} names one of {differ:?}",
            o.label.en,
            hints.iter().map(|h| &h.en).collect::<Vec<_>>()
        );
        wrong_configs.extend(named);
    }
    assert_eq!(
        wrong_configs.len(),
        4,
        "each of the four configs is the wrong one in some deployment: {wrong_configs:?}"
    );
}

/// Lesson 18's step `static-deploy` opens the rolling restart side by side: the
/// same ten close()/restart pairs under eager, cooperative-sticky, the consumer
/// protocol and static members, one group per pane. The comparison counts a
/// rebalance when a classic group enters PreparingRebalance
/// (`ClassicGroup.transitionTo`) or a consumer group leaves Stable. Each
/// dynamic member's close() sends LeaveGroup and its restart a JoinGroup, each
/// a rebalance (`GroupMetadataManager.classicGroupLeave`, `prepareRebalance`);
/// cooperative-sticky adds a round after the revocation
/// (`ConsumerCoordinator.onJoinComplete` rejoins when partitions were revoked);
/// a static member sends no LeaveGroup and rejoins within session.timeout.ms
/// with its group.instance.id, replaced without a rebalance
/// (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`).
/// The panes agree with the lesson's own four groups (their counts include the first join).
#[test]
fn lesson_18_opens_the_rolling_restart_side_by_side_and_the_panes_count_what_the_lesson_says() {
    let lesson = course().iter().find(|l| l.number == 18).expect("lesson 18");
    let step = lesson.steps.iter().find(|s| s.id == "static-deploy").expect("the static-deploy step");
    let c = step.compare.as_ref().expect("the step offers a comparison").comparison().unwrap();
    let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
    use groupscope::compare::this_run::{CONSUMER, COOPERATIVE, EAGER, STATIC};
    assert_eq!(names, [EAGER, COOPERATIVE, CONSUMER, STATIC], "the four panes, named as Compare this run names them");
    let mut sbs = groupscope::compare::SideBySide::new(&c).unwrap();
    sbs.advance_to(c.until.unwrap());
    let rebalances: Vec<u32> = sbs.lanes.iter().map(|l| l.observer.metrics.rebalances).collect();
    assert_eq!(sbs.lanes.iter().map(|l| l.violations).sum::<usize>(), 0, "no invariant broken");
    assert_eq!(rebalances[0], 20, "eager: two per restarted member: {rebalances:?}");
    assert_eq!(rebalances[1], 30, "cooperative-sticky: three per restarted member: {rebalances:?}");
    assert_eq!(rebalances[3], 0, "static members replace themselves: {rebalances:?}");
    // KIP-848 counts each epoch bump that leaves Stable (a leave, then a join:
    // at most two per restart, as many as eager), but no round stops the whole
    // group: members keep processing what they own (`ConsumerGroup` has no join barrier).
    assert!(
        rebalances[2] <= rebalances[0],
        "the consumer protocol leaves Stable at most twice per restart: {rebalances:?}"
    );
    let stop: Vec<u64> = sbs.lanes.iter().map(|l| l.observer.metrics.longest_stop_the_world_ms).collect();
    assert_eq!(stop[2], 0, "the consumer protocol never stops the whole group: {stop:?}");
    assert!(stop[0] > 0, "eager stops the whole group at every rebalance: {stop:?}");
    // The page's sentence for each row of the metrics table says so, in both
    // languages: the KIP-848 count is the group leaving Stable, not a stop.
    use groupscope::view::compare_text::{row_note, Kind};
    let kip = &sbs.lanes[2];
    assert_eq!(Kind::in_world(&kip.world, &sbs.group), Kind::Consumer);
    let (en, zh) = (
        row_note(&kip.name, Kind::Consumer, &kip.observer.metrics, groupscope::i18n::Lang::En),
        row_note(&kip.name, Kind::Consumer, &kip.observer.metrics, groupscope::i18n::Lang::Zh),
    );
    let n = rebalances[2];
    assert!(en.contains(&format!("{n} {} counted", if n == 1 { "rebalance" } else { "rebalances" })), "{en}");
    assert!(
        en.contains("no member stops consuming the partitions it keeps") && en.contains("stopped for 0 ms"),
        "{en}"
    );
    assert!(zh.contains(&format!("计了 {} 次再均衡", rebalances[2])) && zh.contains("停顿了 0 毫秒"), "{zh}");
    assert_eq!(Kind::in_world(&sbs.lanes[0].world, &sbs.group), Kind::Eager);
    assert_eq!(Kind::in_world(&sbs.lanes[1].world, &sbs.group), Kind::Cooperative);
    assert_eq!(Kind::in_world(&sbs.lanes[3].world, &sbs.group), Kind::Static);
    assert_eq!(step_expectation_count(lesson, "dynamic-deploy"), rebalances[0] + 1);
    assert_eq!(step_expectation_count(lesson, "coop-deploy"), rebalances[1] + 1);
    assert_eq!(step_expectation_count(lesson, "static-deploy"), rebalances[3] + 1);
}
