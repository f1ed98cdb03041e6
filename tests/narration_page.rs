//! The page's Chinese for the core's narration: every transition trigger and
//! every note the shipped scenarios (with crashes, restarts, a broker's death,
//! pauses and network faults; classic, KIP-848 and Connect) produce has
//! Chinese with no English left but Kafka's names (src/narrate_zh.rs), and the
//! caption under the drawing passes over routine keep-alives.

use std::collections::BTreeSet;

use crate::common::triggers;
use crate::common::words::plain_words;
use groupscope::i18n::Lang;
use groupscope::narrate;
use groupscope::narrate_zh;
use groupscope::sim::scenario::config::GroupProtocol;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, Scenario, World};

/// A scenario with faults of every kind a learner tries first.
fn with_faults(s: Scenario) -> World {
    let mut w = World::new(s.clone()).unwrap();
    w.run_until(8_000);
    w.inject(Fault::CrashConsumer { consumer: 1 });
    w.run_until(15_000);
    let b = w.cluster.coordinator_for(&s.groups[0].group_id).unwrap_or(0);
    w.inject(Fault::KillBroker { broker: b });
    w.run_until(22_000);
    w.inject(Fault::PauseConsumer { consumer: 2, duration_ms: 20_000 });
    w.inject(Fault::CutLink { a: "c3".into(), b: format!("broker-{}", (b + 1) % 3) });
    w.run_until(30_000);
    w.inject(Fault::RestartConsumer { consumer: 1 });
    w.inject(Fault::AddConsumer { group: s.groups[0].group_id.clone() });
    w.run_until(40_000);
    w.inject(Fault::RestartBroker { broker: b });
    w.inject(Fault::SlowProcessing { consumer: 3, ms_per_record: 2_000 });
    w.run_until(70_000);
    w
}

fn worlds() -> Vec<(String, World)> {
    let mut out = Vec::new();
    for (name, protocol, assignor) in [
        ("eager", GroupProtocol::Classic, "range"),
        ("cooperative", GroupProtocol::Classic, "cooperative-sticky"),
        ("consumer", GroupProtocol::Consumer, ""),
    ] {
        let mut s = Scenario::demo();
        s.groups[0].config.group_protocol = protocol;
        if !assignor.is_empty() {
            s.groups[0].config.assignors = vec![assignor.to_string()];
        }
        out.push((name.to_string(), with_faults(s)));
    }
    for file in ["connect.json", "coordinator-failover.json", "consumer-protocol-crash.json"] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/").to_string() + file;
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(s) = Scenario::from_json(&text) {
                let mut w = World::new(s).unwrap();
                w.run_until(60_000);
                out.push((file.to_string(), w));
            }
        }
    }
    out
}

fn is_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Lowercase words Kafka's own names bring into Chinese text: the glossary's
/// kept terms, `ms`, `poll` (the `pollTimer`), the `connect.protocol` values,
/// `fenced` (after 隔离, as the FENCED state).
const KEPT: &[&str] =
    &["broker", "leader", "worker", "herder", "ms", "poll", "eager", "compatible", "sessioned", "fenced"];

/// The names a run gives its groups, topics, assignors and connectors: they stay as they are.
fn names(s: &Scenario) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = KEPT.iter().map(|k| k.to_string()).collect();
    out.extend(s.topics.iter().map(|t| t.name.clone()));
    out.extend(s.broker.consumer_group_assignors.iter().cloned());
    for g in &s.groups {
        out.insert(g.group_id.clone());
        out.extend(g.config.assignors.iter().cloned());
    }
    for c in &s.connect_clusters {
        out.insert(c.group_id.clone());
        out.extend(c.connectors.iter().map(|c| c.name.clone()));
    }
    out
}

/// Every transition trigger and every note of the runs has Chinese written
/// from its variant (`narrate_zh::trigger`, `narrate_zh::note`) that leaves
/// no English word but Kafka's names and the run's own.
#[test]
fn every_transition_trigger_and_note_has_chinese_with_no_english_left() {
    let mut english = BTreeSet::new();
    let (mut transitions, mut notes) = (0, 0);
    let mut kinds = BTreeSet::new();
    for (name, w) in worlds() {
        let kept = names(&w.scenario);
        let mut check = |en: String, zh: String| {
            let left: Vec<String> = plain_words(&zh).into_iter().filter(|w| !kept.contains(w)).collect();
            // A trigger of Kafka's words only (`ConsumerGroupHeartbeat`, `MEMBER_ID_REQUIRED`) needs no Chinese.
            let kafka_only = plain_words(&en).iter().all(|w| kept.contains(w));
            if !left.is_empty() || (!kafka_only && !is_chinese(&zh)) {
                english.insert(format!("{name}: {en} → {zh} ({left:?})"));
            }
        };
        for e in &w.trace {
            match &e.kind {
                EventKind::StateChanged { trigger, .. } => {
                    transitions += 1;
                    kinds.extend(triggers::kinds([trigger]));
                    check(trigger.to_string(), narrate::fault::trigger(trigger, Lang::Zh));
                }
                EventKind::Note { note, .. } => {
                    notes += 1;
                    check(note.en(), narrate_zh::note(note));
                }
                _ => {}
            }
        }
    }
    assert!(transitions > 50 && notes > 50, "only {transitions} transitions and {notes} notes seen");
    assert!(kinds.len() >= 15, "only {} kinds of trigger seen", kinds.len());
    assert!(
        english.is_empty(),
        "Chinese with English left in it (src/narrate_zh.rs):\n{}",
        english.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The same for one trigger of every kind and every phrase inside a note.
#[test]
fn every_kind_of_trigger_and_phrase_has_chinese() {
    let kept: BTreeSet<String> = KEPT.iter().map(|k| k.to_string()).chain(["range".to_string()]).collect();
    for (en, zh) in triggers::texts() {
        let left: Vec<String> = plain_words(&zh).into_iter().filter(|w| !kept.contains(w)).collect();
        assert!(left.is_empty(), "{en} → {zh}: {left:?} left in English");
        assert!(!zh.contains('{'), "a placeholder left: {en} → {zh}");
        let kafka_only = plain_words(&en).iter().all(|w| kept.contains(w));
        assert!(kafka_only || (is_chinese(&zh) && zh != en), "{en} → {zh}");
    }
}

#[test]
fn the_caption_passes_over_keep_alives_but_not_errors() {
    assert!(narrate::routine_message("Heartbeat gen=1"));
    assert!(narrate::routine_message("Heartbeat ← OK"));
    assert!(!narrate::routine_message("Heartbeat → REBALANCE_IN_PROGRESS"));
    assert!(narrate::routine_message("ConsumerGroupHeartbeat epoch=3"));
    assert!(!narrate::routine_message("ConsumerGroupHeartbeat ← epoch=4 orders-0, orders-1"));
    assert!(!narrate::routine_message("JoinGroup member=\"\""));
    let mut w = World::new(Scenario::demo()).unwrap();
    w.run_until(20_000);
    let (_, first) = narrate::caption(&w, Lang::En).expect("a caption");
    assert!(!first.contains("Heartbeat gen="), "{first}");
    w.inject(Fault::CrashConsumer { consumer: 2 });
    let (at, text) = narrate::caption(&w, Lang::En).unwrap();
    assert_eq!((at, text.as_str()), (20_000, "Fault: c2 crashed"));
    assert_eq!(narrate::caption(&w, Lang::Zh).unwrap().1, "故障：c2 崩溃了");
}

#[test]
fn a_quiet_group_gets_a_caption_that_says_so_not_an_old_event() {
    // The demo group is Stable by 9 s; after that only Heartbeat, Fetch and
    // OffsetCommit go on until something is injected.
    let mut w = World::new(Scenario::demo()).unwrap();
    w.run_until(9_000);
    let (at, recent) = narrate::caption(&w, Lang::En).expect("a caption");
    assert!(at <= 9_000 && 9_000 - at < narrate::QUIET_MS, "{at} {recent}");
    assert!(!recent.starts_with("Quiet"), "{recent}");
    w.run_until(69_000);
    let (at, quiet) = narrate::caption(&w, Lang::En).unwrap();
    assert_eq!(at, 69_000);
    assert!(quiet.starts_with("Quiet since "), "{quiet}");
    assert!(narrate::caption(&w, Lang::Zh).unwrap().1.starts_with("自 "));
    // Far past the look-back window it still reads as quiet, not "press Play".
    w.run_until(400_000);
    assert!(narrate::caption(&w, Lang::En).unwrap().1.starts_with("Quiet"));
    w.inject(Fault::CrashConsumer { consumer: 2 });
    assert_eq!(narrate::caption(&w, Lang::En).unwrap(), (400_000, "Fault: c2 crashed".to_string()));
}

/// Fetches to partition leaders: the request and a plain answer are routine
/// (hidden in the space-time diagram and skipped by the caption); a leader
/// move (`NOT_LEADER_OR_FOLLOWER`, KIP-951's CurrentLeader) or an error is not.
#[test]
fn routine_fetches_are_told_apart_from_leader_moves() {
    use groupscope::spacetime::is_routine_fetch;
    for routine in
        ["Fetch orders-0,orders-3", "Fetch orders-0,orders-3,orders-6 +2", "Fetch ← 12 records", "Fetch ← 0 records"]
    {
        assert!(is_routine_fetch(routine), "{routine}");
        assert!(narrate::routine_message(routine), "{routine}");
    }
    for notable in [
        "Fetch ← NOT_LEADER_OR_FOLLOWER orders-0 (leader broker-2)",
        "Fetch ← NOT_LEADER_OR_FOLLOWER orders-0",
        "Fetch → UNKNOWN_TOPIC_OR_PARTITION",
        "FetchOffsets",
        "OffsetFetch",
    ] {
        assert!(!is_routine_fetch(notable), "{notable}");
    }
    assert!(!narrate::routine_message("Fetch ← NOT_LEADER_OR_FOLLOWER orders-0 (leader broker-2)"));
}
