//! The space-time diagram of a logged run (`src/explain/spacetime.rs`): which lanes, arrows
//! and marks the fixture logs give, and where the layout puts them.

use groupscope::explain::spacetime::{diagram, Api, Diagram, Label, Lane};
use groupscope::explain::spacetime_layout::{layout, text_px, BREAK_MS};

use crate::common;
use common::logs::fixture;

fn member(n: &str) -> Lane {
    Lane::Member(n.to_string())
}

fn arrows_with(d: &Diagram, l: &Label) -> Vec<(usize, usize)> {
    d.arrows.iter().filter(|a| a.label == *l).map(|a| (a.from, a.to)).collect()
}

/// Three classic consumers join, the third is killed: each member's `(Re-)joining group` is a
/// JoinGroup arrow to the coordinator (arriving at the broker's `Dynamic member ... joins`),
/// `Stabilized group demo generation 1` answers all three at once (GroupMetadataManager's
/// completeClassicGroupJoin), the leader's SyncGroup arrives at `Assignment received from
/// leader`, whose time every SyncGroup answer leaves at; the coordinator's removal of
/// consumer-demo-3 and the next PreparingRebalance are marks on its lane, and generation 2
/// answers only the two left.
#[test]
fn a_classic_rebalance_of_three_members() {
    let g = &fixture("session-timeout").groups[0];
    let d = diagram(g);
    assert_eq!(
        d.lanes,
        vec![
            member("consumer-demo-1"),
            member("consumer-demo-2"),
            member("consumer-demo-3"),
            Lane::Coordinator(Some(1))
        ]
    );
    let joins = d.arrows.iter().filter(|a| a.label == Label::Request(Api::JoinGroup)).collect::<Vec<_>>();
    assert!(joins.iter().all(|a| a.to == 3 && a.sent_logged && a.recv_ms >= a.sent_ms));
    // the first JoinGroup of each member is logged at both ends, 10 ms apart
    for m in 0..3 {
        let first = joins.iter().find(|a| a.from == m).expect("a JoinGroup");
        assert!(first.recv_logged && first.recv_ms - first.sent_ms == 10, "{first:?}");
    }
    assert_eq!(arrows_with(&d, &Label::Answer(Api::JoinGroup, Some(1))), vec![(3, 0), (3, 1), (3, 2)]);
    let gen1: Vec<_> = d.arrows.iter().filter(|a| a.label == Label::Answer(Api::JoinGroup, Some(1))).collect();
    assert!(gen1.iter().all(|a| a.sent_ms == gen1[0].sent_ms && a.sent_logged), "one Stabilized line answers all");
    let stabilized = d.marks.iter().find(|m| m.label == Label::Stabilized(1)).expect("a mark");
    assert_eq!((stabilized.lane, stabilized.at_ms), (3, gen1[0].sent_ms));
    assert_eq!(
        arrows_with(&d, &Label::Request(Api::SyncGroup)),
        vec![(0, 3), (0, 3)],
        "the leader's, in each generation"
    );
    assert_eq!(arrows_with(&d, &Label::Answer(Api::SyncGroup, Some(2))), vec![(3, 0), (3, 1)]);
    assert_eq!(arrows_with(&d, &Label::Answer(Api::JoinGroup, Some(2))), vec![(3, 0), (3, 1)]);
    let coord: Vec<&Label> = d.marks.iter().filter(|m| m.lane == 3).map(|m| &m.label).collect();
    assert_eq!(
        coord,
        vec![
            &Label::Prepare(0),
            &Label::Stabilized(1),
            &Label::Expired("consumer-demo-3".into()),
            &Label::Prepare(1),
            &Label::Stabilized(2)
        ]
    );
    assert!(d.marks.iter().any(|m| m.lane == 0 && m.label == Label::Revoked(2)));
    assert!(d.from_ms >= g.first_ms && d.to_ms == g.last_ms);
}

/// The consumer protocol: `transitioned from UNSUBSCRIBED to JOINING` is the joining
/// ConsumerGroupHeartbeat, arriving at the broker's `joins the consumer group`; `to
/// RECONCILING` is a heartbeat answer with the member's new epoch, leaving at the broker's
/// `new assignment state: epoch=...` for that member; `ACKNOWLEDGING to STABLE` is the
/// acknowledging heartbeat (AbstractMembershipManager.onHeartbeatRequestGenerated). The
/// fenced member's UNKNOWN_MEMBER_ID is an answer; its fencing is a mark on the coordinator.
#[test]
fn a_consumer_protocol_reconciliation() {
    let g = &fixture("consumer-protocol").groups[0];
    let d = diagram(g);
    assert_eq!(d.lanes, vec![member("consumer-demo-1"), member("consumer-demo-2"), Lane::Coordinator(Some(1))]);
    let joins: Vec<_> = d.arrows.iter().filter(|a| a.label == Label::HeartbeatJoin).collect();
    assert_eq!(joins.iter().map(|a| a.from).collect::<Vec<_>>(), vec![0, 1, 1], "demo-2 joins twice");
    assert!(joins.iter().all(|a| a.sent_logged && a.recv_logged && a.recv_ms - a.sent_ms == 20));
    let epochs = |m: usize| -> Vec<i64> {
        d.arrows
            .iter()
            .filter_map(|a| match a.label {
                Label::Answer(Api::Heartbeat, Some(e)) if a.to == m => Some(e),
                _ => None,
            })
            .collect()
    };
    assert_eq!(epochs(0), vec![1, 2, 3, 4]);
    assert_eq!(epochs(1), vec![2, 2, 4, 4]);
    let first = d.arrows.iter().find(|a| a.label == Label::Answer(Api::Heartbeat, Some(1))).unwrap();
    assert!(
        first.sent_logged && first.recv_ms - first.sent_ms == 27,
        "sent at the broker's new assignment state: {first:?}"
    );
    assert_eq!(arrows_with(&d, &Label::Error("UNKNOWN_MEMBER_ID".into())), vec![(2, 1)]);
    assert_eq!(arrows_with(&d, &Label::HeartbeatAck).len(), 8);
    assert!(d.marks.iter().any(|m| m.lane == 2 && m.label == Label::Fenced("consumer-demo-2".into())));
    assert!(d.marks.iter().any(|m| m.lane == 2 && m.label == Label::EpochBumped(4)));
    assert!(d.marks.iter().any(|m| m.lane == 1 && m.label == Label::Transition("STABLE".into(), "FENCED".into())));
}

/// Only a 3.x broker's log: the members are the ones its lines name (by their member ids'
/// client part), every arrow ends at the coordinator with its sending end unlogged.
#[test]
fn a_broker_only_log() {
    let g = &fixture("broker-3x").groups[0];
    let d = diagram(g);
    assert_eq!(
        d.lanes,
        vec![
            member("consumer-legacy-2"),
            member("consumer-legacy-1"),
            member("consumer-legacy-3"),
            Lane::Coordinator(Some(1))
        ]
    );
    assert!(d.arrows.iter().all(|a| a.to == 3 && !a.sent_logged && a.recv_logged && a.sent_ms == a.recv_ms));
    assert_eq!(arrows_with(&d, &Label::Request(Api::LeaveGroup)), vec![(0, 3)]);
    assert_eq!(
        arrows_with(&d, &Label::Request(Api::SyncGroup)),
        vec![(1, 3); 3],
        "the leader's SyncGroup in generations 5 to 7"
    );
    let coord: Vec<&Label> = d.marks.iter().map(|m| &m.label).collect();
    assert_eq!(coord.iter().filter(|l| matches!(l, Label::Stabilized(_))).count(), 3);
    assert!(coord.contains(&&Label::Expired("consumer-legacy-3".into())));
    assert_eq!(coord.first(), Some(&&Label::Loaded));
    assert_eq!(coord.last(), Some(&&Label::Resigned));
}

/// The coordinator moves from broker 3 to broker 1: a lane for each, the requests before the
/// move go to broker 3, broker 1's loading is a mark on its own lane.
#[test]
fn a_coordinator_move_gives_a_lane_per_coordinator() {
    let g = &fixture("coordinator-move").groups[0];
    let d = diagram(g);
    let coords: Vec<&Lane> = d.lanes.iter().filter(|l| matches!(l, Lane::Coordinator(_))).collect();
    assert_eq!(coords, vec![&Lane::Coordinator(Some(3)), &Lane::Coordinator(Some(1))]);
    let b3 = d.lanes.len() - 2;
    assert!(d.arrows.iter().all(|a| a.from == b3 || a.to == b3), "all logged requests were before the move");
    assert!(d.marks.iter().any(|m| m.lane == b3 + 1 && m.label == Label::Loaded));
    let members: Vec<&Lane> = d.lanes.iter().filter(|l| matches!(l, Lane::Member(_))).collect();
    let names = groupscope::explain::view::Names::of(g).processes;
    assert_eq!(
        members,
        names.iter().map(|n| Lane::Member(n.clone())).collect::<Vec<_>>().iter().collect::<Vec<_>>(),
        "the members the page lists"
    );
}

/// Time runs left to right; a quiet minute is a break; no label runs into the next thing
/// on its lane.
#[test]
fn the_layout_keeps_time_order_and_room_for_labels() {
    let g = &fixture("session-timeout").groups[0];
    let d = diagram(g);
    let w = |_: usize| text_px("JoinGroup · gen 1", 11.0);
    let l = layout(&d, &w, &w);
    let mut pts: Vec<(i64, f64)> =
        d.arrows.iter().zip(&l.arrow_x).flat_map(|(a, x)| [(a.sent_ms, x.0), (a.recv_ms, x.1)]).collect();
    pts.extend(d.marks.iter().zip(&l.mark_x).map(|(m, x)| (m.at_ms, *x)));
    pts.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    for p in pts.windows(2) {
        assert!(p[0].0 == p[1].0 && p[0].1 == p[1].1 || p[0].0 < p[1].0 && p[0].1 < p[1].1, "{p:?}");
    }
    // the minute between the first rebalance and the session timeout is cut short
    assert!(l.breaks.iter().any(|(_, gap)| *gap > 60_000));
    assert!(l.breaks.iter().all(|(_, gap)| *gap > BREAK_MS));
    // marks on one lane are a label apart
    for lane in 0..d.lanes.len() {
        let mut xs: Vec<f64> = d.marks.iter().zip(&l.mark_x).filter(|(m, _)| m.lane == lane).map(|(_, x)| *x).collect();
        xs.sort_by(f64::total_cmp);
        assert!(xs.windows(2).all(|p| p[1] - p[0] >= w(0)), "lane {lane}: {xs:?}");
    }
    assert!(l.width > l.mark_x.iter().copied().fold(0.0, f64::max));
    assert_eq!(l.ticks.first().map(|t| t.1), Some(d.from_ms));
    assert_eq!(text_px("再均衡", 10.0), 30.0);
}
