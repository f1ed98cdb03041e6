//! The page's native models: translations, inspector, state diagram,
//! space-time diagram, linter, configuration fields and why-chains.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;
use groupscope::sim::state_machine::StateMachine;

use groupscope::config_form;
use groupscope::diagram::classic_group;
use groupscope::i18n::{tr, trf, Lang, TABLE};
use groupscope::inspect::{actions, inspect, Selection};
use groupscope::lint::{check, Level};
use groupscope::narrate;
use groupscope::permalink::Permalink;
use groupscope::player::{Action, Player};
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::fault::FORM_KINDS;
use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::{Fault, NodeId, Scenario, World};
use groupscope::spacetime::{build, Fate};
use std::collections::BTreeSet;

fn placeholders(s: &str) -> BTreeSet<String> {
    (0..10).map(|i| format!("{{{i}}}")).filter(|p| s.contains(p.as_str())).collect()
}

#[test]
fn every_text_has_english_and_chinese_with_the_same_placeholders() {
    let mut keys = BTreeSet::new();
    for (k, en, zh) in TABLE {
        assert!(keys.insert(*k), "key {k} appears twice");
        assert!(!en.trim().is_empty() && !zh.trim().is_empty(), "{k} lacks a translation");
        assert_eq!(placeholders(en), placeholders(zh), "{k}: placeholders differ");
    }
    assert_eq!(trf(Lang::Zh, "clock", &[&"1.5"]), "t = 1.5 秒");
}

/// Counts read as English: "1 fault", "3 faults" (`{0|fault|faults}`), never "fault(s)".
#[test]
fn english_counts_agree_with_their_number() {
    use groupscope::i18n::PAGE;
    for (k, en, _) in TABLE.iter().chain(PAGE.iter()) {
        assert!(!en.contains("(s)") && !en.contains("(es)"), "{k}: write {{n|one|other}} instead of (s): {en}");
    }
    assert_eq!(trf(Lang::En, "reset.clear", &[&1]), "Reset and clear my 1 fault");
    assert_eq!(trf(Lang::En, "reset.clear", &[&0]), "Reset and clear my 0 faults");
    assert_eq!(trf(Lang::En, "reset.clear", &[&12]), "Reset and clear my 12 faults");
    assert_eq!(trf(Lang::Zh, "reset.clear", &[&1]), "重置并清除我注入的 1 个故障");
    assert_eq!(
        trf(Lang::En, "explain.counts.classic", &[&1, &2, &1]),
        ": 1 member process, 2 generations, 1 rebalance"
    );
    // Braces that are not a plural stay as written.
    assert_eq!(trf(Lang::En, "inv.violated", &[&"{x|y}"]), "✗ {x|y} invariant violations");
}

/// Every `tr(lang, "key")` / `trf(lang, "key", ..)` in the page's code names a key of the table.
#[test]
fn every_key_the_page_uses_is_translated() {
    let mut used = 0;
    // The page's files, its folders' (src/web/app/) included.
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from("src/web")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    for path in files {
        let code = std::fs::read_to_string(&path).unwrap();
        let calls = code.match_indices("tr(").chain(code.match_indices("trf(")).filter(|(i, _)| {
            // `tr(` itself, not the end of `as_str(` or `attr(`.
            *i == 0 || !code.as_bytes()[i - 1].is_ascii_alphanumeric() && code.as_bytes()[i - 1] != b'_'
        });
        for (i, _) in calls {
            let part = &code[i..];
            let Some(args) = part.split_once('(').map(|(_, r)| r) else { continue };
            // The key is the second argument: a literal right after the language.
            let Some((_, rest)) = args.split_once(", \"") else { continue };
            if args.find(", \"") > args.find(')') {
                continue;
            }
            let Some((key, _)) = rest.split_once('"') else { continue };
            if key.contains('{') {
                continue;
            }
            used += 1;
            assert_ne!(tr(Lang::En, key), "⟨missing text⟩", "{} uses untranslated key {key}", path.display());
        }
    }
    assert!(used > 50, "found only {used} uses; the scan is broken");
    for (kind, _) in FORM_KINDS {
        assert_ne!(tr(Lang::Zh, &format!("fk.{kind}")), "⟨missing text⟩", "fault kind {kind} has no hint");
    }
}

#[test]
fn languages_parse_from_urls_and_browsers() {
    assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
    assert_eq!(Lang::parse("zh-Hans"), Some(Lang::Zh));
    assert_eq!(Lang::parse("EN-us"), Some(Lang::En));
    assert_eq!(Lang::parse("fr"), None);
}

fn demo_at(ms: u64) -> World {
    let mut w = World::new(Scenario::demo()).unwrap();
    w.run_until(ms);
    w
}

/// Every kind of fault the menu offers can also be injected by clicking
/// something in the picture (the "by clicking a node or a link").
#[test]
fn every_fault_kind_is_reachable_from_a_click() {
    let mut s = Scenario::demo();
    s.topics.push(groupscope::sim::scenario::TopicSpec { name: "payments".into(), partitions: 2, records_per_sec: 1 });
    s.connect_clusters = common::connect::cluster(2, 3, |_| {}).connect_clusters;
    let mut w = World::new(s).unwrap();
    w.run_until(15_000);
    let mut kinds = BTreeSet::new();
    let mut selections: Vec<Selection> = Vec::new();
    selections.extend(w.brokers.keys().map(|b| Selection::Node(NodeId::Broker(*b))));
    selections.extend(
        w.clients
            .classics()
            .map(|c| c.idx)
            .chain(w.clients.workers().map(|w| w.idx))
            .map(|c| Selection::Node(NodeId::Client(c))),
    );
    selections.push(Selection::Link(NodeId::Broker(0), NodeId::Client(1)));
    for sel in &selections {
        for f in actions(&w, sel) {
            kinds.insert(serde_json::to_value(&f).unwrap()["type"].as_str().unwrap().to_string());
        }
    }
    // The opposite actions appear once the first ones were applied.
    w.inject(Fault::CrashConsumer { consumer: 2 });
    w.inject(Fault::KillBroker { broker: 0 });
    w.inject(Fault::HoldLink { from: "c1".into(), to: "broker-0".into() });
    w.inject(Fault::CutLink { a: "c1".into(), b: "broker-0".into() });
    w.inject(Fault::FailTask { group: "connect-cluster".into(), connector: "sink".into(), task: 0 });
    let mut again = vec![
        Selection::Node(NodeId::Client(2)),
        Selection::Node(NodeId::Broker(0)),
        Selection::Link(NodeId::Broker(0), NodeId::Client(1)),
    ];
    again.extend(w.clients.workers().map(|w| Selection::Node(NodeId::Client(w.idx))));
    for sel in again {
        for f in actions(&w, &sel) {
            kinds.insert(serde_json::to_value(&f).unwrap()["type"].as_str().unwrap().to_string());
        }
    }
    for (kind, _) in FORM_KINDS {
        assert!(kinds.contains(kind), "no click leads to {kind}");
    }
}

#[test]
fn the_inspector_shows_a_members_protocol_state_and_a_partitions_offsets() {
    let w = demo_at(20_000);
    let c = inspect(&w, &Selection::Node(NodeId::Client(1))).unwrap();
    let fact = |k: &str| c.facts.iter().find(|(f, _)| *f == k).map(|(_, v)| v.clone()).unwrap();
    assert_eq!(fact("state"), "STABLE");
    assert_eq!(fact("group.id"), "demo");
    assert_eq!(fact("generation"), w.group("demo").unwrap().1.generation_id.to_string());
    assert!(c.json.contains("\"member_id\""), "the full state is there");
    let p = inspect(&w, &Selection::Partition(groupscope::assign::TopicPartition::new("orders", 0))).unwrap();
    assert_eq!(p.title, "orders-0");
    assert!(p.facts.iter().any(|(k, v)| *k == "owner" && v.starts_with('c')));
    // A message that has arrived can no longer be inspected.
    assert!(inspect(&w, &Selection::Message(1)).is_none());
}

#[test]
fn the_state_diagram_is_kafkas_table_lit_at_the_current_state() {
    let w = demo_at(20_000);
    let d = classic_group(&w, "demo");
    for &to in ClassicGroupState::ALL {
        for from in to.valid_previous_states().iter().filter(|f| **f != to) {
            assert!(d.edges.contains(&(from.name(), to.name())), "missing {from:?} → {to:?}");
        }
    }
    assert_eq!(
        d.edges.len(),
        ClassicGroupState::ALL
            .iter()
            .map(|t| t.valid_previous_states().iter().filter(|f| *f != t).count())
            .sum::<usize>()
    );
    assert_eq!(d.current.as_deref(), Some("Stable"));
    let (from, to, _) = d.last.unwrap();
    assert_eq!((from.as_str(), to.as_str()), ("CompletingRebalance", "Stable"));
}

#[test]
fn the_space_time_diagram_shows_lost_and_flying_messages() {
    let mut w = demo_at(15_000);
    let coordinator = format!("broker-{}", w.group("demo").unwrap().0);
    w.inject(Fault::CrashConsumer { consumer: 2 });
    w.inject(Fault::CutLink { a: "c1".into(), b: coordinator.clone() });
    w.run_until(24_000);
    let st = build(&w, 12_000, false);
    assert_eq!(st.lanes.len(), 3 + 3);
    assert!(st.arrows.iter().all(|a| a.sent_at >= 12_000 && a.sent_at <= 24_000));
    assert!(
        st.arrows
            .iter()
            .any(|a| a.fate == Fate::Lost && a.from == NodeId::Client(1) && a.label.starts_with("Heartbeat")),
        "c1's heartbeats are lost on the cut link"
    );
    assert!(
        !st.arrows.iter().any(|a| a.from == NodeId::Client(2) && a.sent_at > 15_000),
        "the crashed c2 sends nothing"
    );
    let hidden = build(&w, 12_000, true);
    assert!(hidden.arrows.iter().all(|a| !a.label.starts_with("Heartbeat")));
    assert!(hidden.arrows.len() < st.arrows.len());
    // Arrows in flight end at their due time, after the playhead's last delivery.
    assert!(st.arrows.iter().filter(|a| a.fate == Fate::InFlight).all(|a| a.end_at >= w.now));
}

/// Keep-alive heartbeats of both protocols are hidden from the space-time
/// diagram; KIP-848 heartbeats that join, leave, report owned partitions,
/// carry an assignment or an error stay, since they are the protocol.
#[test]
fn the_space_time_diagram_hides_keepalive_heartbeats_of_both_protocols() {
    use groupscope::spacetime::is_keepalive;
    for label in [
        "Heartbeat gen=3",
        "Heartbeat ← OK",
        "Heartbeat → REBALANCE_IN_PROGRESS",
        "ConsumerGroupHeartbeat epoch=5",
        "ConsumerGroupHeartbeat ← epoch=5",
    ] {
        assert!(is_keepalive(label), "{label}");
    }
    for label in [
        "ConsumerGroupHeartbeat epoch=0 owned=[]",
        "ConsumerGroupHeartbeat epoch=0",
        "ConsumerGroupHeartbeat epoch=5 owned=[orders-0, orders-1]",
        "ConsumerGroupHeartbeat ← epoch=6 [orders-0]",
        "ConsumerGroupHeartbeat → FENCED_MEMBER_EPOCH",
        "ConsumerGroupHeartbeat epoch=-1 (leave)",
        "JoinGroup gen=3",
        "OffsetCommit (2 partitions)",
    ] {
        assert!(!is_keepalive(label), "{label}");
    }
    // A settled KIP-848 group: the hidden diagram keeps the reconciliation, drops the chatter.
    let mut w =
        World::new(Scenario::from_json(include_str!("../scenarios/consumer-protocol-crash.json")).unwrap()).unwrap();
    w.run_until(11_000);
    let (all, shown) = (build(&w, 11_000, false), build(&w, 11_000, true));
    assert!(shown.arrows.len() < all.arrows.len());
    assert!(
        shown.arrows.iter().any(|a| a.label.starts_with("ConsumerGroupHeartbeat ← epoch=") && a.label.contains('[')),
        "assignments stay"
    );
    assert!(shown.arrows.iter().all(|a| !is_keepalive(&a.label)));
}

fn lint_fields(s: &Scenario) -> Vec<(Level, String)> {
    check(s).into_iter().map(|l| (l.level, l.field)).collect()
}

#[test]
fn the_linter_warns_about_settings_kafka_accepts_but_that_cause_trouble() {
    let mut s = Scenario::demo();
    // 5 s is below group.min.session.timeout.ms = 6 s: the broker answers INVALID_SESSION_TIMEOUT.
    s.groups[0].config.session_timeout_ms = 5_000;
    s.groups[0].config.heartbeat_interval_ms = 2_000;
    // 500 records × 1 s each take longer than max.poll.interval.ms.
    s.groups[0].config.processing_ms_per_record = 1_000;
    s.groups[0].consumers = 8;
    let found = lint_fields(&s);
    for field in
        ["demo: session.timeout.ms", "demo: heartbeat.interval.ms", "demo: max.poll.interval.ms", "demo: consumers"]
    {
        assert!(found.contains(&(Level::Warning, field.to_string())), "no warning on {field}: {found:?}");
    }
    assert!(!found.iter().any(|(l, _)| *l == Level::Error), "Kafka accepts all of these: {found:?}");
    let demo = lint_fields(&Scenario::demo());
    assert!(demo.iter().all(|(l, _)| *l == Level::Info), "the demo is clean: {demo:?}");
    // Kafka's default list [range, cooperative-sticky] runs EAGER (ConsumerCoordinator's constructor).
    let eager =
        check(&Scenario::demo()).into_iter().find(|l| l.field.ends_with("partition.assignment.strategy")).unwrap();
    assert!(eager.en.contains("EAGER") && eager.zh.contains("EAGER"));
}

#[test]
fn the_linter_reports_what_cannot_run_as_an_error_in_both_languages() {
    let mut s = Scenario::demo();
    s.groups[0].config.heartbeat_interval_ms = 6_000;
    let errors: Vec<_> = check(&s).into_iter().filter(|l| l.level == Level::Error).collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].en.contains("heartbeat.interval.ms") && errors[0].zh.contains("heartbeat.interval.ms"));
}

#[test]
fn quick_config_fields_edit_the_scenario_and_explain_bad_input() {
    let mut s = Scenario::demo();
    for f in config_form::FIELDS {
        let before = config_form::get(&s, f.key).unwrap();
        config_form::set(&mut s, f.key, &(before + 1).to_string()).unwrap();
        assert_eq!(config_form::get(&s, f.key), Some(before + 1), "{}", f.key);
    }
    assert!(config_form::set(&mut s, "consumers", "many").unwrap_err().contains("not a whole number"));
    assert!(config_form::set(&mut s, "consumers", "99999999999").unwrap_err().contains("too large"));
    assert_eq!(config_form::protocol_of(&Scenario::demo()), Some("default"));
    config_form::set_protocol(&mut s, "cooperative").unwrap();
    assert_eq!(s.groups[0].config.assignors, vec!["cooperative-sticky".to_string()]);
}

/// Every protocol preset (classic eager, classic cooperative, and the
/// consumer protocol of KIP-848) is recognised after it is applied, and the
/// group it gives runs that protocol: a consumer-protocol group is a
/// `ConsumerGroup` on the coordinator, a classic one a `ClassicGroup`.
#[test]
fn protocol_presets_round_trip_and_run_the_protocol_they_name() {
    use groupscope::sim::scenario::config::{CommitMode, GroupProtocol};
    for preset in config_form::PROTOCOLS {
        let mut s = Scenario::demo();
        config_form::set_protocol(&mut s, preset.key).unwrap();
        assert_eq!(config_form::protocol_of(&s), Some(preset.key));
        let mut p = Player::new(s).unwrap();
        p.dispatch(Action::Seek(15_000));
        let consumer_group = p.world.consumer_group("demo").is_some();
        assert_eq!(consumer_group, preset.protocol == GroupProtocol::Consumer, "{}", preset.key);
        assert_eq!(p.world.group("demo").is_some(), preset.protocol == GroupProtocol::Classic, "{}", preset.key);
        if let Some((_, g)) = p.world.consumer_group("demo") {
            assert_eq!(g.members.len(), 3, "{}: every consumer joined", preset.key);
        }
    }
    assert!(config_form::set_protocol(&mut Scenario::demo(), "nope").is_err());

    let mut s = Scenario::demo();
    assert_eq!(config_form::commit_mode_of(&s), Some(CommitMode::None));
    config_form::set_commit_mode(&mut s, "sync").unwrap();
    assert_eq!(config_form::commit_mode_of(&s), Some(CommitMode::Sync));
    config_form::set_commit_mode(&mut s, "before").unwrap();
    assert_eq!(config_form::commit_mode_of(&s), Some(CommitMode::Before));
    assert!(config_form::set_commit_mode(&mut s, "sometimes").unwrap_err().contains("not none, sync, async or before"));
}

#[test]
fn an_exported_run_imports_to_the_same_moment_and_bad_files_are_explained() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Seek(10_000));
    p.dispatch(Action::Inject(Fault::PauseConsumer { consumer: 1, duration_ms: 9_000 }));
    p.dispatch(Action::Seek(30_000));
    let json = Permalink::of(&p).to_json();
    let back = Permalink::from_json(&json).unwrap().restore().unwrap();
    assert_eq!(back.events(), p.events());
    assert!(Permalink::from_json("{}").unwrap_err().contains("not a GroupScope run"));
    assert!(Permalink::from_json("[1, 2").unwrap_err().contains("not a GroupScope run"));
    // A link may carry the language next to the run.
    let frag = format!("#lang=zh&{}", Permalink::of(&p).encode());
    assert_eq!(Permalink::decode(&frag).unwrap().at, 30_000);
}

/// The example: rebalance ← member removed ← session timeout ← no
/// heartbeat since t ← c2 crashed.
#[test]
fn why_walks_from_a_rebalance_back_to_the_crash_that_caused_it() {
    let mut w = demo_at(15_000);
    w.inject(Fault::CrashConsumer { consumer: 2 });
    w.run_until(30_000);
    let rebalance = w
        .trace
        .iter()
        .find(|e| e.at > 15_000 && matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { .. }, to, .. } if to == "PreparingRebalance"))
        .expect("the crash causes a rebalance");
    let chain = narrate::why(&w, rebalance, Lang::En);
    let text: Vec<&str> = chain.iter().map(|l| l.sentence.as_str()).collect();
    assert!(text.iter().any(|s| s.contains("session timeout")), "{text:#?}");
    assert!(text.iter().any(|s| s.starts_with("no heartbeat from c2")), "{text:#?}");
    assert_eq!(text.last().copied(), Some("Fault: c2 crashed"), "{text:#?}");
    // Heartbeats sent less than a session timeout before the rebalance: the silence began after the crash... or just before it.
    let silent = chain.iter().find(|l| l.sentence.starts_with("no heartbeat")).unwrap();
    assert!(silent.at <= 15_000 && silent.at + 6_000 >= 15_000, "last heartbeat at {}", silent.at);
    let zh = narrate::why(&w, rebalance, Lang::Zh);
    assert_eq!(zh.len(), chain.len());
    assert!(zh.iter().any(|l| l.sentence.contains("心跳")));
}

#[test]
fn every_shipped_example_scenario_loads_and_runs_a_minute_without_violations() {
    for (id, en, zh, _) in groupscope::examples::EXAMPLES {
        assert!(!en.is_empty() && !zh.is_empty());
        let s = groupscope::examples::load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let deliberately_wrong = *id == "unsafe-assignor";
        let mut w = World::new(s).unwrap();
        let mut seen = false;
        while w.next_time().is_some_and(|t| t <= 60_000) {
            w.step();
            let violations = groupscope::sim::invariants::check(&w);
            seen |= !violations.is_empty();
            assert!(deliberately_wrong || violations.is_empty(), "{id} at {} ms: {violations:?}", w.now);
        }
        assert_eq!(seen, deliberately_wrong, "{id}: only the deliberately wrong example violates an invariant");
    }
}

/// Every client of a small world gets a space-time lane, whatever its kind:
/// the KIP-848 consumers and Connect workers talk to their coordinator too.
#[test]
fn the_space_time_diagram_has_a_lane_for_every_client_of_every_kind() {
    let mut s = Scenario::from_json(include_str!("../scenarios/consumer-protocol-crash.json")).unwrap();
    s.connect_clusters = Scenario::from_json(include_str!("../scenarios/connect.json")).unwrap().connect_clusters;
    let mut w = World::new(s).unwrap();
    w.run_until(10_000);
    let st = build(&w, 10_000, false);
    let lanes: Vec<u32> = st
        .lanes
        .iter()
        .filter_map(|l| match l {
            NodeId::Client(c) => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(lanes, w.client_indices());
    assert!(w.clients.async_consumers().next().is_some() && w.clients.workers().next().is_some());
    for c in w.client_indices() {
        assert!(st.arrows.iter().any(|a| a.from == NodeId::Client(c)), "c{c} sent something in the window");
    }
}

/// Beyond `LARGE_GROUP` clients of any kind (classic consumers, KIP-848
/// consumers, Connect workers) the drawing becomes a grid: every client has
/// its own place inside the picture, and the space-time diagram keeps a
/// bounded number of lanes.
#[test]
fn a_large_group_gets_a_grid_and_a_bounded_space_time_diagram() {
    use groupscope::sim::scenario::config::GroupProtocol;
    let consumers = |protocol: GroupProtocol| {
        let mut s = Scenario::demo();
        s.groups[0].consumers = 100;
        s.topics[0].partitions = 1000;
        s.groups[0].start_stagger_ms = 10;
        s.groups[0].config.group_protocol = protocol;
        s
    };
    let mut workers = common::connect::cluster(30, 40, |_| {});
    workers.connect_clusters[0].start_stagger_ms = 10;
    for (name, s, n) in [
        ("classic", consumers(GroupProtocol::Classic), 100),
        ("consumer", consumers(GroupProtocol::Consumer), 100),
        ("connect", workers, 30),
    ] {
        let mut w = World::new(s).unwrap();
        w.run_until(20_000);
        assert!(groupscope::view::is_large(&w), "{name}");
        let places = groupscope::view::consumers(&w)
            .iter()
            .map(|c| (c.x, c.y))
            .chain(groupscope::view::workers(&w).iter().map(|c| (c.x, c.y)))
            .collect::<Vec<_>>();
        let pos: BTreeSet<(i64, i64)> = places.iter().map(|(x, y)| (*x as i64, *y as i64)).collect();
        assert_eq!(pos.len(), n, "{name}: every client has its own place");
        assert!(
            pos.iter().all(|(x, y)| *x > 0 && *x < 960 && *y > 120 && *y < 440),
            "{name}: inside the picture, below the brokers"
        );
        let st = build(&w, 12_000, false);
        let clients = st.lanes.iter().filter(|l| matches!(l, NodeId::Client(_))).count();
        assert!(clients <= groupscope::spacetime::MAX_LANES && clients > 0, "{name}");
        assert!(st.arrows.iter().all(|a| st.lanes.contains(&a.from) && st.lanes.contains(&a.to)));
    }
}

/// The consumer-group diagram's edges cover every state change the KIP-848
/// coordinator makes in runs with joins, crashes, restarts and new partitions.
#[test]
fn the_consumer_group_diagram_covers_every_transition_seen() {
    use groupscope::diagram::consumer_group;
    let mut s =
        groupscope::sim::Scenario::from_json(include_str!("../scenarios/consumer-protocol-crash.json")).unwrap();
    s.faults
        .push(groupscope::sim::scenario::ScheduledFault { at: 20_000, fault: Fault::RestartConsumer { consumer: 2 } });
    s.faults.push(groupscope::sim::scenario::ScheduledFault {
        at: 30_000,
        fault: Fault::AddPartitions { topic: "orders".into(), count: 9 },
    });
    s.faults.push(groupscope::sim::scenario::ScheduledFault {
        at: 35_000,
        fault: Fault::AddConsumer { group: "demo".into() },
    });
    let mut w = World::new(s).unwrap();
    w.run_until(60_000);
    let seen: Vec<(String, String)> = w
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StateChanged { machine: Machine::ConsumerGroup { .. }, from, to, .. } => {
                Some((from.to_string(), to.to_string()))
            }
            _ => None,
        })
        .collect();
    assert!(seen.len() >= 4, "the run changes the group's state: {seen:?}");
    let d = consumer_group(&w, "demo");
    for (f, t) in &seen {
        assert!(d.edges.contains(&(f.as_str(), t.as_str())), "{f} → {t} is not drawn");
    }
    assert_eq!(d.machine, "ConsumerGroupState");
    assert_eq!(d.current.as_deref(), Some("Stable"));
    assert_eq!(d.last.map(|(_, to, _)| to).as_deref(), Some("Stable"));
}

/// The page's invariant monitor: with the deliberately wrong assignor, the
/// double ownership is recorded in the trace once, at the moment it begins.
#[test]
fn the_monitor_records_each_violation_once_when_it_begins() {
    let s = groupscope::examples::load("unsafe-assignor").unwrap();
    let mut p = Player::new(s).unwrap();
    p.dispatch(Action::Seek(30_000));
    let found: Vec<_> = p
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::InvariantViolated { invariant, detail } => Some((e.at, invariant.clone(), detail.clone())),
            _ => None,
        })
        .collect();
    assert!(!found.is_empty() && found.iter().all(|(_, i, _)| i == "single-owner"), "{found:?}");
    let details: BTreeSet<&String> = found.iter().map(|(_, _, d)| d).collect();
    assert_eq!(details.len(), found.len(), "each violation once");
    // It begins when the first generation completes (the group becomes Stable).
    let stable = p
        .world
        .trace
        .iter()
        .find(
            |e| matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { .. }, to, .. } if to == "Stable"),
        )
        .unwrap()
        .at;
    assert!(found[0].0 >= stable && found[0].0 <= stable + 200, "first at {} ms, Stable at {stable} ms", found[0].0);
    // The demo, monitored the same way, never reports one.
    let mut demo = Player::new(Scenario::demo()).unwrap();
    demo.dispatch(Action::Seek(60_000));
    assert!(!demo.world.trace.iter().any(|e| matches!(e.kind, EventKind::InvariantViolated { .. })));
}

/// Every state's box (as `src/web/statechart.rs` draws it) lies inside the drawing:
/// at 1280x720 the leftmost state, Empty, used to be cut at the panel's edge.
#[test]
fn state_diagram_boxes_fit_inside_the_drawing() {
    use groupscope::diagram::{for_group, DIAGRAM_W, STATE_HALF_W};
    let w = groupscope::sim::World::new(groupscope::sim::Scenario::demo()).unwrap();
    let d = for_group(&w, "demo");
    for s in &d.states {
        assert!(s.x - STATE_HALF_W >= 0.0 && s.x + STATE_HALF_W <= DIAGRAM_W, "{} at x={} is cut", s.name, s.x);
    }
}
