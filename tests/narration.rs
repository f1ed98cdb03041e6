//! The Chinese narration of the core's free-text notes (src/narrate_zh.rs):
//! every note the shipped scenarios produce has a translation, captures land
//! in the right placeholders, and each Chinese template keeps its English
//! template's placeholders.

use crate::common;

use std::collections::BTreeSet;

use common::TestWorld;
use groupscope::compare::Comparison;
use groupscope::i18n::Lang;
use groupscope::narrate;
use groupscope::narrate_zh::{capture, translate, FRAGMENTS, TEMPLATES};
use groupscope::sim::scenario::config::GroupProtocol;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, Millis, Scenario, World};

const RUN_MS: Millis = 60_000;

/// Every scenario in scenarios/*.json (a comparison gives one per variant).
fn shipped() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
        .expect("scenarios/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Ok(s) = Scenario::from_json(&text) {
            out.push((name, s));
        } else {
            let c = Comparison::from_json(&text)
                .unwrap_or_else(|e| panic!("{name}: neither a scenario nor a comparison: {e}"));
            for (variant, s) in c.scenarios().unwrap() {
                out.push((format!("{name} / {variant}"), s));
            }
        }
    }
    assert!(out.len() >= 7, "expected the shipped scenarios, found {}", out.len());
    out
}

/// The demo (either protocol) with a crash, a restart, a kill of the
/// coordinator's broker, a pause and the broker's return.
fn demo_with_faults(protocol: GroupProtocol) -> TestWorld {
    let mut s = Scenario::demo();
    s.groups[0].config.group_protocol = protocol;
    let mut t = TestWorld::new(s);
    t.sleep(8_000);
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.sleep(7_000);
    let coordinator = match protocol {
        GroupProtocol::Consumer => t.world.consumer_group("demo").map(|(b, _)| b),
        _ => t.world.group("demo").map(|(b, _)| b),
    };
    let broker = coordinator.unwrap_or(0);
    t.inject(Fault::KillBroker { broker });
    t.sleep(10_000);
    t.inject(Fault::PauseConsumer { consumer: 2, duration_ms: 20_000 });
    t.sleep(5_000);
    t.inject(Fault::RestartConsumer { consumer: 1 });
    t.sleep(15_000);
    t.inject(Fault::RestartBroker { broker });
    t.sleep(RUN_MS - 45_000);
    t
}

/// A shipped scenario run for `RUN_MS`. Not with `TestWorld::sleep`, which
/// asserts the invariants: unsafe-assignor.json breaks one on purpose.
fn run_shipped(name: &str, s: Scenario) -> TestWorld {
    let mut t = TestWorld { world: World::new(s).unwrap_or_else(|e| panic!("{name}: {e}")) };
    t.world.run_until(RUN_MS);
    t
}

#[test]
fn every_note_of_the_shipped_scenarios_has_a_chinese_translation() {
    let mut runs: Vec<(String, TestWorld)> =
        shipped().into_iter().map(|(name, s)| (name.clone(), run_shipped(&name, s))).collect();
    runs.push(("demo with faults (classic)".into(), demo_with_faults(GroupProtocol::Classic)));
    runs.push(("demo with faults (consumer)".into(), demo_with_faults(GroupProtocol::Consumer)));

    let mut seen = 0;
    let mut missing = BTreeSet::new();
    for (name, t) in &runs {
        for note in t.typed_notes() {
            seen += 1;
            let text = note.en();
            match translate(&text) {
                None => {
                    missing.insert(format!("{name}: {text}"));
                }
                // The typed Chinese is what matching the English gave.
                Some(zh) if zh != groupscope::narrate_zh::note(note) => {
                    missing.insert(format!("{name}: {text}: {} != {zh}", groupscope::narrate_zh::note(note)));
                }
                Some(_) => {}
            }
        }
    }
    assert!(seen > 50, "too few notes to be a check: {seen}");
    assert!(
        missing.is_empty(),
        "{} note(s) without a Chinese translation:\n{}",
        missing.len(),
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );

    // The page's sentence uses the translation.
    let w = &runs[runs.len() - 1].1.world;
    let e = w.trace.iter().find(|e| matches!(e.kind, EventKind::Note { .. })).expect("a note");
    let zh = narrate::sentence(w, e, Lang::Zh).unwrap();
    let en = narrate::sentence(w, e, Lang::En).unwrap();
    assert_ne!(zh, en);
    assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
}

#[test]
fn the_matcher_fills_placeholders() {
    assert_eq!(
        translate("initial rebalance: waiting group.initial.rebalance.delay.ms = 3000 ms for more members").as_deref(),
        Some("首次再均衡：等待 group.initial.rebalance.delay.ms = 3000 ms，以便更多成员加入")
    );
    // Placeholders in another order, a nested reason translated as a fragment.
    assert_eq!(
        translate("coordinator broker-2 marked unknown: Heartbeat to broker-2 failed").as_deref(),
        Some("协调者 broker-2 被标记为未知：发往 broker-2 的 Heartbeat 失败")
    );
    assert_eq!(
        translate("no heartbeat from consumer-demo-1-abc for session.timeout.ms = 10000 ms: removing it").as_deref(),
        Some("session.timeout.ms = 10000 ms 内没有收到 consumer-demo-1-abc 的心跳：将其移除")
    );
    assert_eq!(
        translate("member m-1 fenced from demo because the member session expired; group epoch bumped to 7").as_deref(),
        Some("成员 m-1 被组 demo 隔离（fenced），原因：成员会话已过期；组纪元增至 7")
    );
    // Fragments inside fragments.
    assert_eq!(
        translate("commitAsync() failed: RetriableCommitFailedException (the connection broke (retriable)); passed to the callback, not retried").as_deref(),
        Some("commitAsync() 失败：RetriableCommitFailedException（连接已断开（可重试））；交给回调，不重试")
    );
    // The most specific template wins over a generic one.
    assert_eq!(
        translate("heartbeat says REBALANCE_IN_PROGRESS: rejoin on next poll()").as_deref(),
        Some("心跳返回 REBALANCE_IN_PROGRESS：下次 poll() 时重新加入")
    );
    // A captured part that is no known phrase stays as it is.
    assert_eq!(translate("unknown assignor fancy").as_deref(), Some("未知的分配器 fancy"));
    // No template: None (the page shows the English).
    assert_eq!(translate("something the core never says"), None);
    assert_eq!(translate("created group (Empty)"), None, "a variable part is never empty");
    assert_eq!(
        capture("{} from {} is held on the link", "JoinGroup from c1 is held on the link"),
        Some(vec!["JoinGroup", "c1"])
    );
}

/// `{0}`, `{1}`... in `zh`, as a set, and whether anything else looks like a placeholder.
fn placeholders(zh: &str) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let mut rest = zh;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        let close = after.find('}').unwrap_or_else(|| panic!("unclosed brace in {zh:?}"));
        let n: usize = after[..close].parse().unwrap_or_else(|_| panic!("not a placeholder in {zh:?}"));
        assert!(out.insert(n), "{{{n}}} used twice in {zh:?}");
        rest = &after[close + 1..];
    }
    out
}

#[test]
fn each_chinese_template_has_exactly_its_english_placeholders() {
    let mut english = BTreeSet::new();
    for (en, zh) in TEMPLATES.iter().chain(FRAGMENTS) {
        let n = en.matches("{}").count();
        assert_eq!(placeholders(zh), (0..n).collect::<BTreeSet<_>>(), "{en:?} → {zh:?}");
        assert!(!en.contains("{}{}"), "adjacent placeholders can't be split: {en:?}");
        assert!(english.insert(*en), "template listed twice: {en:?}");
    }
    assert!(TEMPLATES.len() >= 47, "{} templates", TEMPLATES.len());
}
