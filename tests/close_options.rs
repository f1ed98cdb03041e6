//! `Consumer.close(CloseOptions)` (KIP-1092, Kafka 4.1+) under both protocols:
//! DEFAULT, LEAVE_GROUP and REMAIN_IN_GROUP, as fault options.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{consumer_protocol_demo, TestWorld};
use groupscope::sim::client::close_options::GroupMembershipOperation::{self, DEFAULT, LEAVE_GROUP, REMAIN_IN_GROUP};
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, NodeId, Scenario};

fn sent_by(t: &TestWorld, idx: u32, from_ms: u64, prefix: &str) -> Vec<String> {
    t.world
        .trace
        .iter()
        .filter(|e| e.at >= from_ms)
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { from, label, .. } if *from == NodeId::Client(idx) && label.starts_with(prefix) => {
                Some(label.to_string())
            }
            _ => None,
        })
        .collect()
}

fn close(t: &mut TestWorld, consumer: u32, operation: GroupMembershipOperation) -> u64 {
    t.inject(Fault::CloseConsumerWithOptions { consumer, operation });
    t.world.now
}

#[test]
fn the_close_options_choose_the_leave_as_kafka_4_1_does() {
    // AbstractCoordinator.shouldSendLeaveGroupRequest (classic) and
    // ConsumerMembershipManager.leaveGroupEpoch (consumer protocol).
    assert!(DEFAULT.classic_sends_leave_group(false) && !DEFAULT.classic_sends_leave_group(true));
    assert!(LEAVE_GROUP.classic_sends_leave_group(true) && LEAVE_GROUP.classic_sends_leave_group(false));
    assert!(!REMAIN_IN_GROUP.classic_sends_leave_group(false) && !REMAIN_IN_GROUP.classic_sends_leave_group(true));
    assert_eq!((DEFAULT.consumer_leave_epoch(false), DEFAULT.consumer_leave_epoch(true)), (Some(-1), Some(-2)));
    assert_eq!((LEAVE_GROUP.consumer_leave_epoch(false), LEAVE_GROUP.consumer_leave_epoch(true)), (Some(-1), Some(-1)));
    // A dynamic member under REMAIN_IN_GROUP still leaves at -1 in Kafka 4.4
    // (AbstractHeartbeatRequestManager.poll heartbeats while LEAVING).
    assert_eq!(
        (REMAIN_IN_GROUP.consumer_leave_epoch(false), REMAIN_IN_GROUP.consumer_leave_epoch(true)),
        (Some(-1), Some(-2))
    );
    assert_eq!(GroupMembershipOperation::parse("leave_group"), Ok(LEAVE_GROUP));
    assert!(GroupMembershipOperation::parse("stay").unwrap_err().contains("operation"));
    let f = Fault::from_form("closeConsumerWithOptions", "c2", "", "REMAIN_IN_GROUP").unwrap();
    assert_eq!(f, Fault::CloseConsumerWithOptions { consumer: 2, operation: REMAIN_IN_GROUP });
    let json: Fault =
        serde_json::from_str(r#"{"type":"closeConsumerWithOptions","consumer":1,"operation":"LEAVE_GROUP"}"#).unwrap();
    assert_eq!(json, Fault::CloseConsumerWithOptions { consumer: 1, operation: LEAVE_GROUP });
}

#[test]
fn a_classic_static_member_closed_with_leave_group_leaves_and_a_dynamic_one_with_remain_in_group_does_not() {
    // AbstractCoordinator.shouldSendLeaveGroupRequest: LEAVE_GROUP, or DEFAULT for a dynamic member.
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    let at = close(&mut t, 2, LEAVE_GROUP);
    t.sleep(1000);
    assert_eq!(sent_by(&t, 2, at, "LeaveGroup").len(), 1, "the static member leaves");
    assert!(t.group_transitions().iter().any(|(_, to)| to == "PreparingRebalance"));
    let mut t = TestWorld::new(Scenario::demo());
    t.sleep(15_000);
    let n = t.group_transitions().len();
    let at = close(&mut t, 2, REMAIN_IN_GROUP);
    t.sleep(3000);
    assert!(sent_by(&t, 2, at, "LeaveGroup").is_empty(), "no LeaveGroup");
    assert_eq!(t.group_transitions().len(), n, "no rebalance until the session times out");
}

#[test]
fn a_consumer_protocol_static_member_closed_with_leave_group_is_fenced_and_a_dynamic_one_with_remain_in_group_leaves_too(
) {
    // ConsumerMembershipManager.leaveGroupEpoch: LEAVE_GROUP is epoch -1 even for a
    // static member. REMAIN_IN_GROUP means to send no leave heartbeat for a dynamic
    // member (ConsumerHeartbeatRequestManager.shouldSendLeaveHeartbeatNow), but in
    // Kafka 4.4 AbstractHeartbeatRequestManager.poll still heartbeats while the
    // member is LEAVING (AbstractMembershipManager.shouldHeartbeatNow), at the -1
    // that transitionToSendingLeaveGroup set: the member leaves at once, as a real
    // 4.4.0 broker showed (conformance scenario consumer-remain-in-group).
    let mut s = consumer_protocol_demo(3);
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(30_000);
    let epoch = t.consumer_group("demo").group_epoch;
    let at = close(&mut t, 2, LEAVE_GROUP);
    t.sleep(1000);
    assert_eq!(
        sent_by(&t, 2, at, "ConsumerGroupHeartbeat"),
        vec!["ConsumerGroupHeartbeat epoch=-1 (leave)".to_string()]
    );
    let g = t.consumer_group("demo");
    assert!(!g.static_members.contains_key("demo-2"), "removed for good");
    assert_eq!(g.group_epoch, epoch + 1);
    let mut t = TestWorld::new(consumer_protocol_demo(3));
    t.sleep(30_000);
    let id = t.async_consumer(2).member_id.clone();
    let at = close(&mut t, 2, REMAIN_IN_GROUP);
    t.sleep(1000);
    assert_eq!(
        sent_by(&t, 2, at, "ConsumerGroupHeartbeat"),
        vec!["ConsumerGroupHeartbeat epoch=-1 (leave)".to_string()]
    );
    assert!(!t.consumer_group("demo").members.contains_key(&id), "removed at once, not at session expiry");
}
