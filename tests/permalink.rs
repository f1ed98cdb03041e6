//! Permalinks restore the exact run; damaged links are explained.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::permalink::{Packed, Permalink};
use groupscope::player::{Action, Player};
use groupscope::sim::trace::trace_hash;
use groupscope::sim::{Fault, Scenario};

#[test]
fn a_permalink_restores_the_same_run_at_the_same_moment() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Seek(12_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(25_000));
    let fragment = Permalink::of(&p).encode();
    // Only what differs from the defaults travels: the demo with one fault fits in a short link.
    assert!(fragment.starts_with("run=") && fragment.len() < 700, "{} characters", fragment.len());
    let restored = Permalink::decode(&format!("#{fragment}")).unwrap().restore().unwrap();
    assert_eq!(restored.now(), 25_000);
    assert_eq!(trace_hash(restored.events()), trace_hash(p.events()));
    assert!(!restored.world.clients.classic(2).unwrap().alive);
}

#[test]
fn damaged_or_foreign_links_get_a_message() {
    assert!(Permalink::decode("#lesson=3").unwrap_err().contains("expected #run="));
    assert!(Permalink::decode("#run=!!!").unwrap_err().contains("damaged"));
    let not_json = format!("run={}", base64_of(r#"{"v": 1"#));
    assert!(Permalink::decode(&not_json).unwrap_err().contains("damaged"));
    let mut link = Permalink::of(&Player::new(Scenario::demo()).unwrap());
    link.v = 99;
    assert!(Permalink::decode(&link.encode()).unwrap_err().contains("version 99"));
    link.v = 1;
    link.scenario.groups[0].consumers = 10_000;
    assert!(Permalink::decode(&link.encode()).unwrap_err().contains("consumers"));
}

fn base64_of(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
}

/// Settings left out of a link because they equal the defaults come back as
/// the same values: a scenario that changes many of them round-trips exactly.
#[test]
fn a_compact_link_restores_every_non_default_setting() {
    let mut s = Scenario::demo();
    s.broker.initial_rebalance_delay_ms = 0;
    s.network.jitter_ms = 7;
    s.groups[0].static_members = true;
    s.groups[0].config.max_poll_records = 17;
    s.groups[0].config.client_rack = Some("r1".into());
    s.groups[0].config.assignors = vec!["cooperative-sticky".into()];
    let p = Player::new(s.clone()).unwrap();
    let link = Permalink::decode(&Permalink::of(&p).encode()).unwrap();
    assert_eq!(link.scenario, s);
}

/// A compressed link (`#z=`) is inflated by the browser; the core finds it next
/// to other parameters, undoes the base64url and reads the JSON it inflates to.
#[test]
fn a_compressed_link_is_unpacked_for_the_browser_to_inflate() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    let link = Permalink::of(&p);
    // Stand-in bytes: whatever the browser's deflate wrote comes back unchanged.
    let deflated = vec![0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0xff];
    let fragment = Permalink::encode_deflated(&deflated);
    assert!(fragment.starts_with("z="));
    assert!(Permalink::is_link(&format!("#lang=zh&{fragment}")));
    assert_eq!(Permalink::unpack(&format!("#lang=zh&{fragment}")).unwrap(), Packed::Deflated(deflated.clone()));
    // Both forms in one fragment: the compressed one is read.
    assert_eq!(Permalink::unpack(&format!("#{}&{fragment}", link.encode())).unwrap(), Packed::Deflated(deflated));
    // The sync decoder reads only `#run=`, and says why.
    assert!(Permalink::decode(&fragment).unwrap_err().contains("inflated"));
    // The JSON inside is the same compact JSON as an uncompressed link's.
    let Packed::Json(json) = Permalink::unpack(&link.encode()).unwrap() else { panic!("#run= is JSON") };
    assert_eq!(json, link.compact_json().as_bytes());
    assert_eq!(Permalink::from_link_json(&json).unwrap(), link);
}

#[test]
fn damaged_compressed_links_get_the_same_message() {
    assert!(!Permalink::is_link("#lang=zh"));
    assert!(Permalink::unpack("#lesson=3").unwrap_err().contains("expected #run=... or #z="));
    assert!(Permalink::unpack("#z=!!!").unwrap_err().contains("the link is damaged (base64"));
    assert!(Permalink::from_link_json(br#"{"v": 1"#).unwrap_err().contains("the link is damaged"));
}

/// Issue 13: a reopened link gave another trace (two events at one instant
/// swapped). A fault injected at an instant whose items were not all run yet
/// (time 0 before the first start; a second fault after one that scheduled
/// something at the same instant) was applied before them, but the replay
/// ran them first. The player now runs what is due at the playhead before
/// injecting, as the replay does, and the replay applies every fault of the
/// target instant.
#[test]
fn a_permalink_replays_faults_at_the_instant_they_were_injected() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    // At time 0, before anything ran: c1's start is due at 0.
    p.dispatch(Action::Inject(Fault::SetLinkLatency { a: "c1".into(), b: "broker-0".into(), latency_ms: 250 }));
    p.dispatch(Action::Seek(6_800));
    p.dispatch(Action::Inject(Fault::HoldLink { from: "broker-1".into(), to: "c2".into() }));
    p.dispatch(Action::Seek(7_300));
    // Released messages are delivered at this instant; a second fault follows at once.
    p.dispatch(Action::Inject(Fault::ReleaseLink { from: "broker-1".into(), to: "c2".into() }));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    let original = trace_hash(p.events());
    let restored = Permalink::decode(&Permalink::of(&p).encode()).unwrap().restore().unwrap();
    assert_eq!(restored.now(), 7_300);
    assert_eq!(restored.events().len(), p.events().len());
    assert_eq!(format!("{:016x}", trace_hash(restored.events())), format!("{original:016x}"));
    // And onward: both timelines stay the same.
    let mut a = p;
    let mut b = restored;
    for x in [&mut a, &mut b] {
        x.dispatch(Action::TogglePlay);
        for _ in 0..200 {
            x.dispatch(Action::Tick(16.7));
        }
    }
    assert_eq!(trace_hash(a.events()), trace_hash(b.events()));
}

/// A share-group run (KIP-932) travels too: the scenario's `shareGroups`
/// (group configs, consumer settings, poison records) and a fault injected
/// into a share consumer come back from the link, and the replay reaches the
/// same trace hash, share-partition state and share consumers.
#[test]
fn a_share_group_run_survives_the_permalink_round_trip() {
    let path = format!("{}/scenarios/share-7-reject.json", env!("CARGO_MANIFEST_DIR"));
    let mut scenario = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    scenario.share_groups[0].consumers = 2;
    scenario.share_groups[0].config.delivery_count_limit = 3;
    let mut p = Player::new(scenario.clone()).unwrap();
    p.dispatch(Action::Seek(9_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 1 }));
    p.dispatch(Action::Seek(20_000));
    let link = Permalink::decode(&format!("#{}", Permalink::of(&p).encode())).unwrap();
    let restored = link.restore().unwrap();
    assert_eq!(restored.world.scenario.share_groups, scenario.share_groups);
    assert_eq!(restored.now(), 20_000);
    assert_eq!(format!("{:016x}", trace_hash(restored.events())), format!("{:016x}", trace_hash(p.events())));
    assert_eq!(restored.world.cluster.share_state, p.world.cluster.share_state);
    assert!(!restored.world.clients.share_consumer(1).unwrap().alive);
    assert!(restored.world.clients.share_consumer(2).unwrap().alive);
}
