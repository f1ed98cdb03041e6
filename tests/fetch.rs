//! Consumers fetch records from partition leaders (`AbstractFetch`,
//! `FetchCollector`, the leader's `ReplicaManager.fetchMessages` and
//! `DelayedFetch`): one Fetch per leader node, records only from leaders, and
//! a move to the new leader after NOT_LEADER_OR_FOLLOWER or a broker's death.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{consumer_protocol_demo, TestWorld};
use groupscope::assign::TopicPartition;
use groupscope::sim::message::{Body, Envelope, FetchRequest, Request, Response};
use groupscope::sim::note::Note;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Errors, Fault, NodeId, Scenario};
use std::collections::{BTreeMap, BTreeSet};

/// Every message of a run, as sent (with the leaders of the moment), and
/// every Fetch range each client received.
#[derive(Default)]
struct Watch {
    seen: BTreeSet<u64>,
    /// (message, leader of each partition when it was sent).
    sent: Vec<(Envelope, BTreeMap<TopicPartition, Option<u32>>)>,
    /// Per (client, partition): the record ranges Fetch answers delivered to it.
    received: BTreeMap<(NodeId, TopicPartition), Vec<(i64, i64)>>,
    delivered_ids: usize,
}

impl Watch {
    /// Steps the world to `until`, recording each new message when it is sent
    /// and each Fetch answer when it is delivered.
    fn run(&mut self, t: &mut TestWorld, until: u64) {
        while t.world.next_time().is_some_and(|n| n <= until) {
            t.world.step();
            let fresh: Vec<Envelope> = t.world.in_flight().filter(|e| !self.seen.contains(&e.id)).cloned().collect();
            for env in fresh {
                self.seen.insert(env.id);
                let leaders = t.world.cluster.topics["orders"]
                    .partitions
                    .iter()
                    .enumerate()
                    .map(|(p, s)| (TopicPartition::new("orders", p as i32), s.leader))
                    .collect();
                self.sent.push((env, leaders));
            }
            for e in &t.world.trace[self.delivered_ids..] {
                if let EventKind::MessageDelivered { msg, to, .. } = &e.kind {
                    let Some((env, _)) = self.sent.iter().rev().find(|(s, _)| s.id == *msg) else { continue };
                    if let Body::Response { response: Response::Fetch { partitions, .. }, .. } = &env.body {
                        for p in partitions.iter().filter(|p| p.records() > 0) {
                            self.received.entry((*to, p.partition.clone())).or_default().push((p.from, p.to));
                        }
                    }
                }
            }
            self.delivered_ids = t.world.trace.len();
        }
        t.world.run_until(until);
    }

    fn fetch_requests(
        &self,
    ) -> impl Iterator<
        Item = (&Envelope, &Vec<groupscope::sim::message::FetchPartition>, &BTreeMap<TopicPartition, Option<u32>>),
    > {
        self.sent.iter().filter_map(|(e, l)| match &e.body {
            Body::Request { request: Request::Fetch(FetchRequest { partitions, .. }), .. } => Some((e, partitions, l)),
            _ => None,
        })
    }

    fn fetch_responses(
        &self,
    ) -> impl Iterator<
        Item = (&Envelope, &Vec<groupscope::sim::message::FetchedPartition>, &BTreeMap<TopicPartition, Option<u32>>),
    > {
        self.sent.iter().filter_map(|(e, l)| match &e.body {
            Body::Response { response: Response::Fetch { partitions, .. }, .. } => Some((e, partitions, l)),
            _ => None,
        })
    }
}

fn records_processed(t: &TestWorld) -> Vec<(u64, NodeId, TopicPartition, i64, i64)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RecordsProcessed { node, partition, from, to, .. } => {
                Some((e.at, *node, partition.clone(), *from, *to))
            }
            _ => None,
        })
        .collect()
}

/// Records reached a consumer only in Fetch answers of the partition's leader
/// (never from the coordinator unless it leads the partition, never from
/// another consumer), and everything it processed came in such an answer.
fn assert_records_only_from_leaders(t: &TestWorld, w: &Watch) {
    let mut answers = 0;
    for (env, partitions, leaders) in w.fetch_responses() {
        assert!(
            matches!(env.from, NodeId::Broker(_)) && matches!(env.to, NodeId::Client(_)),
            "a Fetch answer goes from a broker to a client: {env:?}"
        );
        for p in partitions.iter().filter(|p| p.records() > 0) {
            answers += 1;
            assert_eq!(
                Some(env.from),
                leaders[&p.partition].map(NodeId::Broker),
                "{} sent records of {} without leading it",
                env.from,
                p.partition
            );
        }
    }
    assert!(answers > 0, "records were fetched");
    for env in w.sent.iter().map(|(e, _)| e).filter(|e| matches!(e.from, NodeId::Client(_))) {
        assert!(matches!(env.to, NodeId::Broker(_)), "clients talk only to brokers: {env:?}");
    }
    let processed = records_processed(t);
    assert!(!processed.is_empty());
    for (at, node, tp, from, to) in processed {
        let got = w.received.get(&(node, tp.clone())).map(Vec::as_slice).unwrap_or(&[]);
        assert!(
            got.iter().any(|(a, b)| *a <= from && to <= *b),
            "{node} processed {tp} [{from}, {to}) at {at} ms without fetching it: {got:?}"
        );
    }
}

/// `AbstractFetch.prepareFetchRequests`: one FetchRequest per leader node, with
/// every partition the consumer owns there, and never a second one to a node
/// while one is pending (`nodesWithPendingFetchRequests`).
#[test]
fn prepare_fetch_requests_sends_one_fetch_per_leader_node_with_the_partitions_it_leads() {
    // One consumer owns all six partitions: two on each of the three leaders.
    let mut s = Scenario::demo();
    s.groups[0].consumers = 1;
    let mut t = TestWorld::new(s);
    let mut w = Watch::default();
    w.run(&mut t, 20_000);
    let mut pending: BTreeSet<(NodeId, NodeId)> = BTreeSet::new();
    let mut grouped = 0;
    for (env, _) in &w.sent {
        match &env.body {
            Body::Request { request: Request::Fetch(FetchRequest { partitions, .. }), .. } => {
                assert!(
                    pending.insert((env.from, env.to)),
                    "{} sent a second Fetch to {} while one was pending",
                    env.from,
                    env.to
                );
                grouped += usize::from(partitions.len() > 1);
            }
            Body::Response { response: Response::Fetch { .. }, .. } => {
                pending.remove(&(env.to, env.from));
            }
            Body::Disconnected { .. } => {}
            _ => {}
        }
    }
    for (env, partitions, leaders) in w.fetch_requests() {
        for p in partitions {
            assert_eq!(
                leaders[&p.partition].map(NodeId::Broker),
                Some(env.to),
                "{} fetched {} from a broker that does not lead it",
                env.from,
                p.partition
            );
        }
    }
    // After the first rebalance each consumer's last Fetch to a broker names
    // every partition it owns that the broker leads.
    for c in t.world.clients.classics() {
        let mut per_broker: BTreeMap<u32, BTreeSet<TopicPartition>> = BTreeMap::new();
        for tp in &c.owned {
            per_broker.entry(t.world.cluster.leader_of(tp).unwrap()).or_default().insert(tp.clone());
        }
        for (b, expected) in per_broker {
            let last = w
                .fetch_requests()
                .filter(|(e, _, _)| e.from == c.node() && e.to == NodeId::Broker(b))
                .last()
                .expect("a fetch to each leader");
            let names: BTreeSet<TopicPartition> = last.1.iter().map(|p| p.partition.clone()).collect();
            assert_eq!(names.len(), 2);
            assert_eq!(names, expected, "c{}'s Fetch to broker-{b}", c.idx);
        }
    }
    assert!(grouped > 0, "partitions of one leader share a Fetch");
    assert_records_only_from_leaders(&t, &w);
}

/// Records come only from partition leaders, for both protocols and through
/// a coordinator failover and a consumer crash.
#[test]
fn records_come_only_from_partition_leaders_never_from_the_coordinator_or_another_consumer() {
    for s in [Scenario::demo(), consumer_protocol_demo(3)] {
        let mut t = TestWorld::new(s);
        let mut w = Watch::default();
        w.run(&mut t, 10_000);
        let coordinator = t.world.cluster.coordinator_for("demo").unwrap();
        t.inject(Fault::KillBroker { broker: coordinator });
        w.run(&mut t, 25_000);
        t.inject(Fault::CrashConsumer { consumer: 2 });
        w.run(&mut t, 60_000);
        assert_records_only_from_leaders(&t, &w);
    }
}

/// The partitions `broker` leads that consumer `c` owns.
fn led_by(t: &TestWorld, c: u32, broker: u32) -> Vec<TopicPartition> {
    let owned = match t.world.clients.classic(c) {
        Some(c) => c.owned.clone(),
        None => t.world.clients.async_consumer(c).unwrap().owned.clone(),
    };
    owned.into_iter().filter(|tp| t.world.cluster.leader_of(tp) == Some(broker)).collect()
}

/// A broker that is not the coordinator but leads a partition of c1.
fn a_leader_of_c1_other_than_the_coordinator(t: &TestWorld) -> (u32, TopicPartition) {
    let coordinator = t.world.cluster.coordinator_for("demo").unwrap();
    (0..3)
        .filter(|b| *b != coordinator)
        .find_map(|b| led_by(t, 1, b).first().map(|tp| (b, tp.clone())))
        .expect("c1 fetches from a broker other than the coordinator")
}

/// Controlled shutdown moves leadership first: the old leader answers
/// NOT_LEADER_OR_FOLLOWER with the new leader (`CurrentLeader`, KIP-951), the
/// consumer takes it (`AbstractFetch.handleFetchSuccess` →
/// `Metadata.updatePartitionLeadership`, `FetchCollector.handleInitializeErrors`
/// → `requestMetadataUpdate`) and fetches from the new leader.
#[test]
fn not_leader_or_follower_sends_the_consumer_to_the_new_leader_after_a_controlled_shutdown() {
    for s in [Scenario::demo(), consumer_protocol_demo(3)] {
        let mut t = TestWorld::new(s);
        let mut w = Watch::default();
        w.run(&mut t, 10_000);
        let (old, tp) = a_leader_of_c1_other_than_the_coordinator(&t);
        t.inject(Fault::ShutdownBroker { broker: old });
        let shutdown_at = t.world.now;
        let new = t.world.cluster.leader_of(&tp).expect("a new leader");
        assert_ne!(new, old);
        w.run(&mut t, 20_000);
        let redirect = w
            .fetch_responses()
            .find(|(e, ps, _)| {
                e.from == NodeId::Broker(old)
                    && e.to == NodeId::Client(1)
                    && ps.iter().any(|p| p.partition == tp && p.error == Errors::NOT_LEADER_OR_FOLLOWER)
            })
            .expect("the old leader answers NOT_LEADER_OR_FOLLOWER");
        let p = redirect.1.iter().find(|p| p.partition == tp).unwrap();
        assert_eq!(p.current_leader, Some(new), "the answer names the new leader");
        assert!(p.records() == 0);
        let redirected_at = redirect.0.deliver_at;
        assert!(
            w.fetch_requests().any(|(e, ps, _)| e.from == NodeId::Client(1)
                && e.to == NodeId::Broker(new)
                && e.sent_at >= redirected_at
                && ps.iter().any(|f| f.partition == tp)),
            "c1 fetches {tp} from broker-{new} next"
        );
        assert!(t.any_note(
            |n| matches!(n, Note::NotLeader { broker, new_leader: Some(l), .. } if *broker == old && *l == new)
        ));
        let after: i64 = records_processed(&t)
            .iter()
            .filter(|(at, n, p, ..)| *at > shutdown_at && *n == NodeId::Client(1) && *p == tp)
            .map(|(.., a, b)| b - a)
            .sum();
        assert!(after > 0, "c1 keeps processing {tp} from its new leader");
        assert_records_only_from_leaders(&t, &w);
    }
}

/// A killed broker stays leader until the controller fences it
/// (broker.session.timeout.ms): the consumer's fetches to it fail (the
/// connection is refused; `NetworkClient` asks for a metadata update and the
/// node waits out its reconnect backoff), nothing of its partitions is
/// processed, and after the fencing the records come from the new leader.
#[test]
fn after_a_broker_is_killed_records_come_from_the_new_leader_once_the_controller_fences_it() {
    for s in [Scenario::demo(), consumer_protocol_demo(3)] {
        let mut t = TestWorld::new(s);
        let mut w = Watch::default();
        w.run(&mut t, 10_000);
        let (old, tp) = a_leader_of_c1_other_than_the_coordinator(&t);
        t.inject(Fault::KillBroker { broker: old });
        let killed_at = t.world.now;
        w.run(&mut t, killed_at + 8_500);
        assert_eq!(t.world.cluster.leader_of(&tp), Some(old), "still the leader before it is fenced");
        let during: Vec<_> = records_processed(&t)
            .into_iter()
            .filter(|(at, n, p, ..)| *at > killed_at + 1_000 && *n == NodeId::Client(1) && *p == tp)
            .collect();
        assert!(during.is_empty(), "nothing of {tp} is processed while its leader is dead: {during:?}");
        let refused = t.world.trace.iter().filter(|e| e.at > killed_at && matches!(&e.kind, EventKind::MessageDropped { from, to, label, .. } if *from == NodeId::Client(1) && *to == NodeId::Broker(old) && label.starts_with("Fetch"))).count();
        assert!(refused >= 2, "c1 retries its Fetch to the dead leader after each reconnect backoff ({refused})");
        w.run(&mut t, killed_at + 20_000);
        let new = t.world.cluster.leader_of(&tp).expect("a new leader after fencing");
        assert_ne!(new, old);
        let fenced_at = killed_at + 9_000;
        assert!(w.fetch_requests().any(|(e, ps, _)| e.from == NodeId::Client(1)
            && e.to == NodeId::Broker(new)
            && e.sent_at >= fenced_at
            && ps.iter().any(|f| f.partition == tp)));
        let after: i64 = records_processed(&t)
            .iter()
            .filter(|(at, n, p, ..)| *at > fenced_at && *n == NodeId::Client(1) && *p == tp)
            .map(|(.., a, b)| b - a)
            .sum();
        assert!(after > 0, "c1 processes {tp} again, from broker-{new}");
        assert_records_only_from_leaders(&t, &w);
    }
}

/// `DelayedFetch`: with no new records (`fetch.min.bytes` = 1) the leader holds
/// the Fetch for `fetch.max.wait.ms`, then answers with nothing.
#[test]
fn delayed_fetch_holds_a_fetch_without_new_records_for_fetch_max_wait_ms() {
    let mut s = Scenario::demo();
    s.topics[0].records_per_sec = 0;
    s.groups[0].config.fetch_max_wait_ms = 700;
    let mut t = TestWorld::new(s);
    let mut w = Watch::default();
    w.run(&mut t, 20_000);
    let answers: Vec<_> = w.fetch_responses().collect();
    assert!(answers.len() > 10);
    for (resp, partitions, _) in answers {
        assert!(partitions.iter().all(|p| p.records() == 0 && p.error == Errors::NONE));
        let req = w
            .fetch_requests()
            .filter(|(e, _, _)| e.from == resp.to && e.to == resp.from && e.deliver_at <= resp.sent_at)
            .last()
            .unwrap();
        assert_eq!(resp.sent_at - req.0.deliver_at, 700, "held for fetch.max.wait.ms");
    }
}

/// `FetchCollector.collectFetch` hands the application at most
/// `max.poll.records` per poll(), the rest stays buffered.
#[test]
fn collect_fetch_returns_at_most_max_poll_records_per_poll() {
    let mut s = Scenario::demo();
    s.topics[0].records_per_sec = 200;
    s.groups[0].config.max_poll_records = 7;
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    let mut per_poll: BTreeMap<(u64, NodeId), i64> = BTreeMap::new();
    for (at, node, _, from, to) in records_processed(&t) {
        *per_poll.entry((at, node)).or_default() += to - from;
    }
    assert!(per_poll.values().all(|n| *n <= 7), "{per_poll:?}");
    assert!(per_poll.values().filter(|n| **n == 7).count() > 10, "with a backlog, batches are full");
}
