//! The target assignment: the server assignor the group uses, what it is
//! given, subscriptions to missing topics, group epoch bumps, the assignment
//! interval and the broker configs' bounds (TargetAssignmentBuilder, GroupCoordinatorConfig).

use super::*;

#[test]
fn the_group_uses_the_most_requested_server_assignor_or_the_first_configured() {
    // ConsumerGroup `computePreferredServerAssignor`; default group.consumer.assignors[0] = uniform.
    let m = |a: Option<&str>| {
        let mut x = ConsumerGroupMember::new("x");
        x.server_assignor = a.map(String::from);
        x
    };
    let members = [m(Some("range")), m(Some("uniform")), m(Some("range")), m(None)];
    assert_eq!(ConsumerGroup::preferred_server_assignor(members.iter()).as_deref(), Some("range"));
    assert_eq!(ConsumerGroup::preferred_server_assignor([m(None)].iter()), None);
    let mut s = consumer_protocol_demo(3);
    s.groups[0].config.group_remote_assignor = Some("range".into());
    let t = settled_world(s);
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentComputed { assignor, .. } if assignor == "range")));
    let mut ranges: Vec<Vec<String>> = (1..=3).map(|c| t.async_owned(c)).collect();
    ranges.sort();
    assert_eq!(
        ranges,
        vec![vec!["orders-0", "orders-1"], vec!["orders-2", "orders-3"], vec!["orders-4", "orders-5"]],
        "server range: contiguous blocks"
    );
    let t = settled_world(consumer_protocol_demo(1));
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentComputed { assignor, .. } if assignor == "uniform")));
}

#[test]
fn the_assignor_is_given_the_previous_target_not_what_members_own() {
    // TargetAssignmentBuilder `build`: member specs carry the previous target assignment.
    let mut g = ConsumerGroup::new("demo");
    g.group_epoch = 3;
    g.subscription_metadata = BTreeMap::from([("orders".to_string(), 4)]);
    for (id, target, owns) in [("a", [0, 1], [2, 3]), ("b", [2, 3], [0, 1])] {
        let mut m = ConsumerGroupMember::new(id);
        m.subscribed_topic_names = vec!["orders".into()];
        m.assigned_partitions = set(&owns);
        g.members.insert(id.into(), m);
        g.target_assignment.insert(id.into(), set(&target));
    }
    let mut c = ConsumerGroupMember::new("c");
    c.subscribed_topic_names = vec!["orders".into()];
    g.members.insert("c".into(), c);
    let next = groupscope::sim::coordinator::modern::target_assignment::compute(&g, "uniform").unwrap();
    assert!(next["a"].is_subset(&set(&[0, 1])), "a stays on its old target: {:?}", next["a"]);
    assert!(next["b"].is_subset(&set(&[2, 3])), "b stays on its old target: {:?}", next["b"]);
    assert_eq!(next.values().map(BTreeSet::len).sum::<usize>(), 4);
}

#[test]
fn a_subscribed_topic_that_does_not_exist_makes_the_subscription_heterogeneous() {
    // ModernGroup.subscriptionType counts subscribed topic names (byNameCount),
    // whether or not the topics exist, so the assignor gets the heterogeneous builder.
    use groupscope::assign::server::SubscriptionType;
    use groupscope::sim::coordinator::modern::target_assignment::subscription_type;
    let mut g = ConsumerGroup::new("demo");
    g.subscription_metadata = BTreeMap::from([("orders".to_string(), 6)]);
    for (id, topics) in [("a", vec!["orders"]), ("b", vec!["orders", "not-created-yet"])] {
        let mut m = ConsumerGroupMember::new(id);
        m.subscribed_topic_names = topics.into_iter().map(String::from).collect();
        g.members.insert(id.into(), m);
    }
    assert_eq!(subscription_type(&g), SubscriptionType::Heterogeneous);
    g.members.get_mut("b").unwrap().subscribed_topic_names = vec!["orders".into()];
    assert_eq!(subscription_type(&g), SubscriptionType::Homogeneous);
    g.members.values_mut().for_each(|m| m.subscribed_topic_names.clear());
    assert_eq!(subscription_type(&g), SubscriptionType::Homogeneous, "nothing subscribed");
}

#[test]
fn new_partitions_and_a_changed_subscription_bump_the_group_epoch() {
    // GroupMetadataManager `consumerGroupHeartbeat`: subscription metadata and subscribed topics
    // are inputs of the group epoch.
    let mut s = consumer_protocol_demo(2);
    s.topics.push(groupscope::sim::scenario::TopicSpec { name: "payments".into(), partitions: 2, records_per_sec: 10 });
    let mut t = settled_world(s);
    let epoch = t.consumer_group("demo").group_epoch;
    t.inject(Fault::AddPartitions { topic: "orders".into(), count: 8 });
    t.sleep_until(30_000, |t| settled(t) && t.async_owned(1).len() + t.async_owned(2).len() == 8);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 1);
    assert_eq!(t.async_owned(1).len() + t.async_owned(2).len(), 8);
    t.inject(Fault::ChangeSubscription { consumer: 2, topics: vec!["orders".into(), "payments".into()] });
    t.sleep_until(30_000, |t| settled(t) && t.async_owned(2).iter().any(|p| p.starts_with("payments")));
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 2);
}

/// GroupMetadataManager `consumerGroupHeartbeat` (Kafka 4.4) bumps the group
/// epoch when the effective preferred server assignor changes
/// (`hasPreferredServerAssignorChanged`: `preferredServerAssignor()` against
/// `computePreferredServerAssignor(member, updatedMember)`, each falling back to
/// group.consumer.assignors' first), so the target is recomputed with it at once.
/// A member sending the assignor the group already uses changes nothing.
#[test]
fn a_change_of_the_preferred_server_assignor_bumps_the_group_epoch() {
    let mut t = settled_world(consumer_protocol_demo(2));
    let epoch = t.consumer_group("demo").group_epoch;
    // c1 sends group.remote.assignor=uniform, the default: same assignor, no bump.
    t.world.clients.async_consumer_mut(1).unwrap().config.group_remote_assignor = Some("uniform".into());
    t.sleep(6000);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch, "uniform was already in use");
    t.world.clients.async_consumer_mut(2).unwrap().config.group_remote_assignor = Some("range".into());
    t.sleep(6000);
    // One uniform, one range: a tie keeps the first (HashMap order), uniform.
    assert_eq!(t.consumer_group("demo").group_epoch, epoch, "uniform is still preferred");
    t.world.clients.async_consumer_mut(1).unwrap().config.group_remote_assignor = Some("range".into());
    t.sleep(6000);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 1);
    let computed_with_range = |n: &Note| matches!(n, Note::TargetAssignmentComputed { assignor, epoch: e, .. } if assignor == "range" && *e == epoch + 1);
    assert!(t.any_note(computed_with_range));
}

#[test]
fn a_member_joining_within_the_assignment_interval_waits_in_assigning_until_a_heartbeat_after_it() {
    // KIP-1263 (Kafka 4.3+): GroupMetadataManager.maybeUpdateTargetAssignment
    // computes a new target only if canComputeNextTargetAssignment, i.e.
    // group.consumer.assignment.interval.ms (1000) passed since the last one; until
    // then heartbeats reconcile against the previous target and the group stays
    // Assigning. No timer: the first heartbeat after the interval computes it.
    use groupscope::sim::coordinator::consumer::heartbeat::can_compute_next_target_assignment;
    assert!(can_compute_next_target_assignment(0, 1000, 5), "no assignment yet");
    assert!(!can_compute_next_target_assignment(500, 1000, 1499));
    assert!(can_compute_next_target_assignment(500, 1000, 1500));
    assert!(can_compute_next_target_assignment(500, 0, 501), "interval 0 disables batching");
    let mut t = settled_world(consumer_protocol_demo(1));
    t.sleep(2000);
    let epoch = t.consumer_group("demo").group_epoch;
    let n = t.consumer_group_transitions().len();
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(50);
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(30_000, |t| {
        settled(t) && t.world.clients.async_consumers().count() == 3 && (1..=3).all(|c| t.async_owned(c).len() == 2)
    });
    let computed_at = |e: i32| {
        t.world
            .trace
            .iter()
            .find(|ev| {
                matches!(&ev.kind, EventKind::Note { note: Note::TargetAssignmentComputed { group_id, assignor, epoch, .. }, .. }
                    if group_id == "demo" && assignor == "uniform" && *epoch == e)
            })
            .map(|ev| ev.at)
    };
    let (first, second) =
        (computed_at(epoch + 1).expect("c2's join computed at once"), computed_at(epoch + 2).expect("then c3's"));
    assert!(second >= first + 1000, "the next target waits the interval: {first} then {second}");
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentDeferred { group_id, .. } if group_id == "demo")));
    let c3_first = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to: NodeId::Client(3), label, .. }
            if label.starts_with("ConsumerGroupHeartbeat ←") =>
        {
            Some(label.to_string())
        }
        _ => None,
    });
    assert_eq!(
        c3_first,
        Some(format!("ConsumerGroupHeartbeat ← epoch={} []", epoch + 1)),
        "c3 joins at the old target epoch with nothing"
    );
    let states: Vec<String> = t.consumer_group_transitions()[n..].iter().map(|(_, to)| to.clone()).collect();
    assert_eq!(states.first().map(String::as_str), Some("Reconciling"));
    assert!(states.contains(&"Assigning".to_string()), "the group sits in Assigning: {states:?}");
}

// --- configs ------------------------------------------------------------------------

#[test]
fn consumer_group_broker_configs_keep_kafkas_bounds() {
    // GroupCoordinatorConfig requires min <= value <= max and heartbeat < session.
    let with = |f: &dyn Fn(&mut Scenario)| {
        let mut s = consumer_protocol_demo(1);
        f(&mut s);
        s.validate()
    };
    assert!(with(&|_| {}).is_ok());
    assert!(with(&|s| s.broker.consumer_group_session_timeout_ms = 30_000)
        .unwrap_err()
        .contains("group.consumer.session.timeout.ms"));
    assert!(with(&|s| s.broker.consumer_group_heartbeat_interval_ms = 20_000)
        .unwrap_err()
        .contains("group.consumer.heartbeat.interval.ms"));
    assert!(with(&|s| {
        s.broker.consumer_group_min_session_timeout_ms = 6000;
        s.broker.consumer_group_session_timeout_ms = 6000;
        s.broker.consumer_group_min_heartbeat_interval_ms = 1000;
        s.broker.consumer_group_heartbeat_interval_ms = 6000;
    })
    .unwrap_err()
    .contains("less than group.consumer.session.timeout.ms"));
    let json = r#"{"topics":[{"name":"orders","partitions":3}],"groups":[{"groupId":"g","consumers":1,"config":{"group.protocol":"consumer","group.remote.assignor":"range","topics":["orders"]}}],"broker":{"group.consumer.session.timeout.ms":50000}}"#;
    let s = Scenario::from_json(json).unwrap();
    assert_eq!(s.broker.consumer_group_session_timeout_ms, 50_000);
    assert_eq!(s.groups[0].config.group_remote_assignor.as_deref(), Some("range"));
}

// --- failover and offsets -------------------------------------------------------------
