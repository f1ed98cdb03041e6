//! What the page's "Explain logs" tab draws from an explanation (`src/explain/view.rs`), the
//! side-by-side what-if built from a replay, and the kinds of bad input the tab explains.

use groupscope::explain::model::{Cause, Problem};
use groupscope::explain::view::{self, Mark, Names};
use groupscope::explain::{diagnose, explain_text, replay, Explainer};

use crate::common;
use common::logs::{files, fixture};

/// A paste is one text: the files of a story pasted one after the other read the same as the
/// files given separately (the merge is on the lines' timestamps).
#[test]
fn a_paste_of_several_files_reads_like_the_files() {
    let pasted: String =
        files("session-timeout").iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>().join("\n");
    let (one, files) = (explain_text(&pasted), fixture("session-timeout"));
    assert_eq!(serde_json::to_value(&one.groups).unwrap(), serde_json::to_value(&files.groups).unwrap());
}

#[test]
fn clock_and_date_of_logged_instants() {
    let t = 1_714_557_670_000; // 2024-05-01T10:01:10Z
    assert_eq!(view::clock(t + 5), "10:01:10.005");
    assert_eq!(view::date(t).as_deref(), Some("2024-05-01"));
    assert_eq!(view::date(951_782_400_000).as_deref(), Some("2000-02-29"));
    // a layout with only a time of day
    assert_eq!(view::date(36_000_000), None);
}

/// Three consumers, one killed: each member id is named by its client's process, in the
/// order the processes appeared, and the timeline marks both rebalances with their causes.
#[test]
fn members_are_named_by_their_process_and_rebalances_are_marked() {
    let r = fixture("session-timeout");
    let g = &r.groups[0];
    let n = Names::of(g);
    assert_eq!(n.processes, vec!["consumer-demo-1", "consumer-demo-2", "consumer-demo-3"]);
    assert_eq!(n.name("consumer-demo-3-d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70"), "consumer-demo-3");
    assert_eq!(n.name("someone-else"), "someone-else");
    let ((from, to), marks) = view::marks(g);
    assert_eq!((from, to), (g.first_ms, g.last_ms));
    let causes: Vec<Cause> =
        marks.iter().filter_map(|m| if let Mark::Rebalance { cause, .. } = m { Some(*cause) } else { None }).collect();
    assert_eq!(causes, vec![Cause::MemberJoined, Cause::SessionTimeout]);
    for m in &marks {
        if let Mark::Rebalance { from_ms, to_ms, .. } = m {
            assert!(from <= *from_ms && from_ms <= to_ms && *to_ms <= to, "{m:?} within the axis");
        }
    }
}

/// The consumer protocol's reconciliation: orders-2 and orders-3 move from A to B at epoch 2,
/// back to A when B's session times out (epoch 3), and to B again at epoch 4.
#[test]
fn ownership_over_time_follows_the_logged_assignments() {
    let r = fixture("consumer-protocol");
    let g = &r.groups[0];
    let n = Names::of(g);
    assert_eq!(n.processes, vec!["consumer-demo-1", "consumer-demo-2"]);
    let o = view::ownership(g, &n).expect("assignments were logged");
    assert_eq!(o.columns.iter().map(|c| c.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    let row = |p: &str| o.rows.iter().find(|r| r.0 == p).unwrap_or_else(|| panic!("{p} in {:?}", o.rows)).1.clone();
    assert_eq!(
        o.rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        vec!["orders-0", "orders-1", "orders-2", "orders-3"]
    );
    assert_eq!(row("orders-0"), vec![Some(0); 4]);
    assert_eq!(row("orders-2"), vec![Some(0), Some(1), Some(0), Some(1)]);
    // a group whose assignments were not logged has no ownership view
    let r = fixture("broker-3x");
    assert!(view::ownership(&r.groups[0], &Names::of(&r.groups[0])).is_none());
}

/// Every diagnosis the fixtures produce names a config to look at (the summary and the
/// coordinator move are about the group and the brokers, not a consumer setting), and each
/// config it lists appears in its English text.
#[test]
fn diagnoses_name_the_configs_to_look_at() {
    let mut seen = Vec::new();
    for dir in ["session-timeout", "slow-consumer", "rolling-restart", "consumer-protocol", "coordinator-move"] {
        for g in &fixture(dir).groups {
            for d in &g.diagnoses {
                let configs = diagnose::configs(&d.kind);
                if d.kind != "summary" && d.kind != "coordinator-moved" {
                    assert!(!configs.is_empty(), "{}: {}", d.kind, d.text);
                }
                for c in configs {
                    assert!(d.text.contains(c), "{}: '{}' does not mention {c}", d.kind, d.text);
                }
                assert!(!d.text_zh.is_empty(), "{} has Chinese", d.kind);
                seen.push(d.kind.clone());
            }
        }
    }
    for k in ["session-timeout", "poll-timeout", "rolling-restart", "unknown-member", "coordinator-moved", "summary"] {
        assert!(seen.iter().any(|s| s == k), "no fixture gave {k}: {seen:?}");
    }
}

/// The replay of a rolling restart side by side: as logged and under the what-ifs. Under
/// static membership a close() sends no LeaveGroup (AbstractCoordinator.maybeLeaveGroup:
/// only a dynamic member leaves by DEFAULT), and the restarted member rejoining with its
/// group.instance.id within session.timeout.ms gets its old assignment back without a
/// rebalance (GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin), so it
/// rebalances less than the dynamic members of the logs did.
#[test]
fn the_what_if_of_a_rolling_restart_under_static_membership_rebalances_less() {
    let r = fixture("rolling-restart");
    let c = replay::comparison_for(&r.groups[0]).expect("a comparison");
    let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
    // A comparison holds up to four variants (compare::MAX_VARIANTS): the logs and every what-if.
    assert_eq!(
        names,
        vec![replay::AS_LOGGED, "classic cooperative-sticky", "static members", "consumer protocol (uniform)"]
    );
    let until = c.until.expect("until");
    assert!(until > c.scenario.faults.iter().map(|f| f.at).max().unwrap());
    let results = groupscope::compare::run(&c, until).expect("runs");
    let of = |n: &str| results.iter().find(|r| r.variant == n).unwrap();
    assert!(results.iter().all(|r| r.invariant_violations == 0), "no invariant broken");
    let (logged, stat) = (of(replay::AS_LOGGED).metrics.rebalances, of("static members").metrics.rebalances);
    assert!(stat < logged, "static members rebalanced {stat} times, the logged group {logged}");
    // a consumer-protocol group is compared with classic cooperative-sticky and static members
    let r = fixture("consumer-protocol");
    let c = replay::comparison_for(&r.groups[0]).expect("a comparison");
    let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, vec![replay::AS_LOGGED, "classic cooperative-sticky", "static members"]);
    assert_eq!(c.variants[1].config.as_ref().unwrap()["group.protocol"], "classic");
}

/// What the tab says about input it cannot explain: text without a group line, and files that
/// are all binary; a binary file among logs is skipped and the logs are still explained.
#[test]
fn bad_input_kinds() {
    assert_eq!(explain_text("GET /index.html 200\nnothing here\n").problem_kind(), Some(Problem::Nothing { lines: 2 }));
    assert_eq!(explain_text("").problem_kind(), Some(Problem::Nothing { lines: 0 }));
    let mut x = Explainer::new();
    let f = x.begin_file("photo.jpg");
    x.feed_bytes(f, &[0xff, 0xd8, 0xff, 0xe0, 0, 0x10, b'J', b'F', b'I', b'F', 0, 1]);
    x.end_file(f);
    assert_eq!(x.finish().problem_kind(), Some(Problem::Binary(vec!["photo.jpg".into()])));
    let mut x = Explainer::new();
    let f = x.begin_file("photo.jpg");
    x.feed_bytes(f, &[0xff, 0xd8, 0, 0, 0, 0]);
    x.end_file(f);
    let log = std::fs::read(format!("{}/tests/fixtures/logs/rolling-restart/compose.log", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let f = x.begin_file("compose.log");
    for chunk in log.chunks(7) {
        x.feed_bytes(f, chunk);
    }
    x.end_file(f);
    let r = x.finish();
    assert_eq!(r.problem_kind(), None);
    assert_eq!(r.groups[0].rebalances.len(), 5);
}

/// The tab names every cause in both languages (its keys are built from the cause's word).
#[test]
fn every_cause_has_words_on_the_page() {
    use groupscope::i18n::{tr, Lang};
    for c in Cause::ALL {
        for lang in Lang::ALL {
            assert_ne!(
                tr(lang, &format!("cause.{}", c.as_str())),
                "⟨missing text⟩",
                "cause {} in {lang:?}",
                c.as_str()
            );
        }
    }
}
