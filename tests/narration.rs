//! The Chinese narration of the core's notes (src/narrate_zh.rs): every kind
//! of note has Chinese written from its fields, no note of the shipped
//! scenarios comes out in English, the phrases inside notes land in the right
//! placeholders, and each Chinese fault sentence keeps its English's placeholders.

use crate::common;

use std::collections::BTreeSet;

use common::TestWorld;
use groupscope::compare::Comparison;
use groupscope::i18n::Lang;
use groupscope::narrate;
use groupscope::narrate::fault::DESCRIPTIONS;
use groupscope::narrate_zh::{self, capture};
use groupscope::sim::commit_exception::CommitException;
use groupscope::sim::message::ApiKey;
use groupscope::sim::note::Note;
use groupscope::sim::reason::{ClientReason, FenceReason};
use groupscope::sim::scenario::config::GroupProtocol;
use groupscope::sim::share_note::ShareNote;
use groupscope::sim::streams_note::StreamsNote;
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

    // Every note has its Chinese by construction (narrate_zh::note matches
    // every kind); what is checked is that the shipped runs reach many kinds
    // and that none of their notes comes out in English.
    let mut seen = 0;
    let mut kinds = BTreeSet::new();
    let mut english = BTreeSet::new();
    for (name, t) in &runs {
        for note in t.typed_notes() {
            seen += 1;
            kinds.insert(common::notes::kind(note));
            let zh = narrate_zh::note(note);
            if !has_chinese(&zh) {
                english.insert(format!("{name}: {zh}"));
            }
        }
    }
    assert!(seen > 50 && kinds.len() > 20, "too few notes to be a check: {seen} of {} kinds", kinds.len());
    assert!(
        english.is_empty(),
        "{} note(s) without Chinese:\n{}",
        english.len(),
        english.into_iter().collect::<Vec<_>>().join("\n")
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
fn a_note_s_chinese_is_written_from_its_fields() {
    let zh = |n: Note| narrate_zh::note(&n);
    assert_eq!(
        zh(Note::InitialRebalanceDelay { delay_ms: 3000 }),
        "首次再均衡：等待 group.initial.rebalance.delay.ms = 3000 ms，以便更多成员加入"
    );
    // Fields in another order than the English's, a reason written from its own fields.
    assert_eq!(
        zh(Note::CoordinatorUnknown {
            broker: 2,
            reason: ClientReason::RequestFailed { api: ApiKey::Heartbeat, broker: 2 }
        }),
        "协调者 broker-2 被标记为未知：发往 broker-2 的 Heartbeat 失败"
    );
    assert_eq!(
        zh(Note::SessionTimeout { member_id: "consumer-demo-1-abc".into(), session_timeout_ms: 10_000 }),
        "session.timeout.ms = 10000 ms 内没有收到 consumer-demo-1-abc 的心跳：将其移除"
    );
    let fenced = Note::MemberFenced {
        member_id: "m-1".into(),
        group_id: "demo".into(),
        reason: FenceReason::SessionExpired,
        epoch: 7,
    };
    assert_eq!(fenced.en(), "member m-1 fenced from demo because the member session expired; group epoch bumped to 7");
    assert_eq!(zh(fenced), "成员 m-1 被组 demo 隔离（fenced），原因：成员会话已过期；组纪元增至 7");
    // An exception inside an exception.
    let exception = CommitException::RetriableCommitFailed(Box::new(CommitException::Retriable(None)));
    assert_eq!(exception.to_string(), "RetriableCommitFailedException (the connection broke (retriable))");
    assert_eq!(
        zh(Note::CommitAsyncFailed { exception }),
        "commitAsync() 失败：RetriableCommitFailedException（连接已断开（可重试））；交给回调，不重试"
    );
    assert_eq!(
        zh(Note::HeartbeatRebalanceInProgress { next_poll: true }),
        "心跳返回 REBALANCE_IN_PROGRESS：下次 poll() 时重新加入"
    );
    // A name stays as it is.
    assert_eq!(zh(Note::UnknownAssignor { name: "fancy".into() }), "未知的分配器 fancy");
    assert_eq!(
        capture("{} from {} is held on the link", "JoinGroup from c1 is held on the link"),
        Some(vec!["JoinGroup", "c1"])
    );
    assert_eq!(capture("{} failed", " failed"), None, "a variable part is never empty");
}

#[test]
fn every_kind_of_note_has_chinese_with_nothing_left_to_fill() {
    // The samples cover every variant (tests/common/notes.rs matches them
    // exhaustively); `Note::KINDS`, which lessons are validated against, names each.
    let named: BTreeSet<&str> = common::notes::one_of_each().iter().map(|n| n.kind()).collect();
    let kinds: Vec<&str> = Note::KINDS.iter().chain(ShareNote::KINDS).chain(StreamsNote::KINDS).copied().collect();
    assert_eq!(named, kinds.iter().copied().collect::<BTreeSet<_>>());
    assert_eq!(named.len(), kinds.len(), "a kind listed twice");
    assert!(kinds.iter().all(|k| Note::is_kind(k)));
    for n in common::notes::one_of_each() {
        let (en, zh) = (n.en(), narrate_zh::note(&n));
        assert!(has_chinese(&zh) && zh != en, "{en} → {zh}");
        assert!(!zh.contains('{') && !en.contains('{'), "a placeholder left: {en} → {zh}");
    }
}

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
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
fn each_chinese_fault_sentence_has_exactly_its_english_placeholders() {
    let mut english = BTreeSet::new();
    for (en, zh) in DESCRIPTIONS {
        let n = en.matches("{}").count();
        assert_eq!(placeholders(zh), (0..n).collect::<BTreeSet<_>>(), "{en:?} → {zh:?}");
        assert!(!en.contains("{}{}"), "adjacent placeholders can't be split: {en:?}");
        assert!(english.insert(*en), "template listed twice: {en:?}");
    }
}

/// A slow consumer explains itself (issue 32): while c2 sits in a long batch,
/// the quiet caption says what the group waits for instead of calling it
/// settled. A batch within max.poll.interval.ms: c2 polls again in time. One
/// that outlasts it: the caption says when c2 leaves (ConsumerCoordinator's
/// poll timer, the heartbeat thread's `maybeLeaveGroup` once it expires), and
/// the leaving happens then.
#[test]
fn a_quiet_run_waiting_on_a_slow_consumer_names_it_and_when_it_will_leave() {
    use groupscope::narrate::poll_wait;
    let max = Scenario::demo().groups[0].config.max_poll_interval_ms;
    let slowed = |ms_per_record: u64| {
        let mut t = TestWorld::new(Scenario::demo());
        t.sleep(20_000);
        assert!(poll_wait::longest(&t.world).is_none(), "a settled group waits on nobody");
        t.inject(Fault::SlowProcessing { consumer: 2, ms_per_record });
        t.sleep(40_000);
        let wait = poll_wait::longest(&t.world).expect("c2 is in a long batch");
        assert_eq!(wait.consumer, 2);
        (t, wait)
    };

    let (t, wait) = slowed(10_000);
    assert!(!wait.will_leave(), "{wait:?}");
    let (_, en) = narrate::caption(&t.world, Lang::En).unwrap();
    assert!(en.contains("c2") && en.contains("polls again"), "{en}");

    let (mut t, wait) = slowed(200_000);
    assert!(wait.will_leave(), "{wait:?}");
    let (_, en) = narrate::caption(&t.world, Lang::En).unwrap();
    assert!(
        en.contains("c2") && en.contains(&format!("max.poll.interval.ms = {max} ms")) && en.contains("leaves"),
        "{en}"
    );
    let (_, zh) = narrate::caption(&t.world, Lang::Zh).unwrap();
    assert!(zh.contains("c2") && zh.contains("离开组"), "{zh}");
    let deadline = wait.deadline();
    t.sleep(deadline - t.world.now - 1);
    assert!(!t.any_note(|n| matches!(n, Note::PollTimeoutLeaving { .. })), "not before the deadline the caption gave");
    t.sleep(1_000);
    assert!(t.any_note(|n| matches!(n, Note::PollTimeoutLeaving { .. })), "c2 leaves when the caption said");
}
