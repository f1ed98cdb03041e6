//! The inspector: what the page shows about the thing the user selected (a
//! node, a link, a partition or a message in flight), and every fault that can
//! be injected on it. Pure functions of the world, tested natively.

use crate::assign::TopicPartition;
use crate::sim::message::Envelope;
use crate::sim::{Fault, NodeId, World};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    Node(NodeId),
    /// The link between two nodes (a broker and a client).
    Link(NodeId, NodeId),
    Partition(TopicPartition),
    /// A message on the wire or held on a link, by id.
    Message(u64),
}

/// Key facts first, then the complete state as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    pub title: String,
    pub facts: Vec<(&'static str, String)>,
    pub json: String,
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("(cannot show: {e})"))
}

fn find_message(world: &World, id: u64) -> Option<&Envelope> {
    world.in_flight().find(|e| e.id == id)
}

/// What the inspector shows for `sel`, or `None` when it no longer exists
/// (a message that arrived, a node of another timeline).
pub fn inspect(world: &World, sel: &Selection) -> Option<Inspection> {
    match sel {
        Selection::Node(NodeId::Client(c)) if world.workers.contains_key(c) => {
            let w = &world.workers[c];
            let list = |v: Vec<String>| if v.is_empty() { "—".to_string() } else { v.join(", ") };
            Some(Inspection {
                title: format!("c{c} (Connect worker)"),
                facts: vec![
                    ("group.id", w.group_id.clone()),
                    ("member.id", if w.member_id.is_empty() { "—".into() } else { w.member_id.clone() }),
                    ("connect.protocol", w.config.connect_protocol.protocol().to_string()),
                    ("state", format!("{:?}", w.state)),
                    ("generation", w.generation.to_string()),
                    ("connectors", list(w.connectors.iter().map(|(n, s)| format!("{n} {s:?}")).collect())),
                    ("tasks", list(w.tasks.iter().map(|(t, s)| format!("{t} {s:?}")).collect())),
                    ("alive", w.alive.to_string()),
                ],
                json: pretty(w),
            })
        }
        Selection::Node(NodeId::Client(c)) if world.async_consumers.contains_key(c) => {
            let a = &world.async_consumers[c];
            let owned = a.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
            Some(Inspection {
                title: format!("c{c} (group.protocol=consumer)"),
                facts: vec![
                    ("group.id", a.group_id.clone()),
                    ("member.id", if a.member_id.is_empty() { "—".into() } else { a.member_id.clone() }),
                    ("group.instance.id", a.config.group_instance_id.clone().unwrap_or_else(|| "— (dynamic)".into())),
                    ("state", format!("{:?}", a.state)),
                    ("member epoch", a.member_epoch.to_string()),
                    ("heartbeat interval ms (from the broker)", a.heartbeat_interval_ms.to_string()),
                    ("owned", if owned.is_empty() { "—".into() } else { owned }),
                    ("alive", a.alive.to_string()),
                ],
                json: pretty(a),
            })
        }
        Selection::Node(NodeId::Client(c)) => {
            let cons = world.consumers.get(c)?;
            let owned = cons.owned.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
            Some(Inspection {
                title: format!("c{c}"),
                facts: vec![
                    ("group.id", cons.group_id.clone()),
                    ("member.id", if cons.member_id.is_empty() { "—".into() } else { cons.member_id.clone() }),
                    ("group.instance.id", cons.config.group_instance_id.clone().unwrap_or_else(|| "— (dynamic)".into())),
                    ("state", format!("{:?}", cons.state)),
                    ("generation", cons.generation.to_string()),
                    ("owned", if owned.is_empty() { "—".into() } else { owned }),
                    ("alive", cons.alive.to_string()),
                ],
                json: pretty(cons),
            })
        }
        Selection::Node(NodeId::Broker(b)) => {
            let broker = world.brokers.get(b)?;
            let led: Vec<String> = world
                .cluster
                .offsets_partitions
                .iter()
                .enumerate()
                .filter(|(_, m)| m.leader == Some(*b))
                .map(|(p, _)| p.to_string())
                .collect();
            Some(Inspection {
                title: format!("broker-{b}"),
                facts: vec![
                    ("alive", broker.alive.to_string()),
                    ("__consumer_offsets partitions led", led.join(", ")),
                    ("groups hosted", broker.coordinator.shards.values().flat_map(|s| s.groups.keys().cloned()).collect::<Vec<_>>().join(", ")),
                ],
                json: pretty(broker),
            })
        }
        Selection::Link(a, b) => {
            let key = crate::sim::network::link(*a, *b);
            let n = &world.network;
            Some(Inspection {
                title: format!("{a} ↔ {b}"),
                facts: vec![
                    ("cut", n.cut.contains(&key).to_string()),
                    ("held", format!("{a}→{b}: {} · {b}→{a}: {}", n.held.contains(&(*a, *b)), n.held.contains(&(*b, *a)))),
                    ("extra latency ms", n.extra_latency.get(&key).copied().unwrap_or(0).to_string()),
                    ("loss %", n.loss_percent.get(&key).copied().unwrap_or(0).to_string()),
                    ("messages held", n.held_messages.iter().filter(|(e, _)| key == crate::sim::network::link(e.from, e.to)).count().to_string()),
                ],
                json: String::new(),
            })
        }
        Selection::Partition(tp) => {
            let row = crate::view::partitions(world).into_iter().find(|r| &r.partition == tp)?;
            Some(Inspection {
                title: tp.to_string(),
                facts: vec![
                    ("owner", row.owner.map_or("— unowned".into(), |o| format!("c{o}"))),
                    ("leader", row.leader.map_or("—".into(), |l| format!("broker-{l}"))),
                    ("log end offset", row.end_offset.to_string()),
                    ("committed offset", row.committed.map_or("—".into(), |c| c.to_string())),
                    ("processed up to", row.processed.to_string()),
                    ("records redelivered", row.redelivered.to_string()),
                ],
                json: pretty(&world.cluster.topics.get(&tp.topic).and_then(|t| t.partitions.get(tp.partition as usize))),
            })
        }
        Selection::Message(id) => {
            let env = find_message(world, *id)?;
            Some(Inspection {
                title: env.body.label(),
                facts: vec![
                    ("from", env.from.to_string()),
                    ("to", env.to.to_string()),
                    ("sent at ms", env.sent_at.to_string()),
                    ("arrives at ms", env.deliver_at.to_string()),
                ],
                json: pretty(&env.body),
            })
        }
    }
}

fn name(n: NodeId) -> String {
    n.to_string()
}

/// Every fault the user can inject on the selection, ready to dispatch.
pub fn actions(world: &World, sel: &Selection) -> Vec<Fault> {
    match sel {
        Selection::Node(NodeId::Client(c)) if world.workers.contains_key(c) => worker_actions(world, *c),
        Selection::Node(NodeId::Client(c)) => {
            let (alive, group_id) = match (world.consumers.get(c), world.async_consumers.get(c)) {
                (Some(k), _) => (k.alive, k.group_id.clone()),
                (None, Some(a)) => (a.alive, a.group_id.clone()),
                _ => return Vec::new(),
            };
            let consumer = *c;
            let is_static = world.consumers.get(c).map(|k| k.config.group_instance_id.is_some())
                .or_else(|| world.async_consumers.get(c).map(|a| a.config.group_instance_id.is_some()))
                .unwrap_or(false);
            let mut v = if alive {
                vec![
                    Fault::CrashConsumer { consumer },
                    Fault::CloseConsumer { consumer },
                    Fault::RestartConsumerAs { consumer, static_member: !is_static },
                    Fault::PauseConsumer { consumer, duration_ms: 10_000 },
                    Fault::SlowProcessing { consumer, ms_per_record: 1_000 },
                    Fault::SlowProcessing { consumer, ms_per_record: 10 },
                ]
            } else {
                vec![Fault::RestartConsumer { consumer }]
            };
            let topics: Vec<String> = world.cluster.topics.keys().cloned().collect();
            if topics.len() > 1 && alive {
                for t in &topics {
                    v.push(Fault::ChangeSubscription { consumer, topics: vec![t.clone()] });
                }
                v.push(Fault::ChangeSubscription { consumer, topics });
            }
            v.push(Fault::AddConsumer { group: group_id });
            v
        }
        Selection::Node(NodeId::Broker(b)) => {
            let Some(broker) = world.brokers.get(b) else { return Vec::new() };
            let mut v = vec![if broker.alive { Fault::KillBroker { broker: *b } } else { Fault::RestartBroker { broker: *b } }];
            for (topic, t) in &world.cluster.topics {
                v.push(Fault::AddPartitions { topic: topic.clone(), count: t.partitions.len() as u32 + 1 });
            }
            v
        }
        Selection::Link(a, b) => {
            let key = crate::sim::network::link(*a, *b);
            let n = &world.network;
            let (sa, sb) = (name(*a), name(*b));
            let mut v = vec![if n.cut.contains(&key) {
                Fault::HealLink { a: sa.clone(), b: sb.clone() }
            } else {
                Fault::CutLink { a: sa.clone(), b: sb.clone() }
            }];
            for (from, to, f, t) in [(*a, *b, &sa, &sb), (*b, *a, &sb, &sa)] {
                v.push(Fault::DropNextMessage { from: f.clone(), to: t.clone() });
                v.push(if n.held.contains(&(from, to)) {
                    Fault::ReleaseLink { from: f.clone(), to: t.clone() }
                } else {
                    Fault::HoldLink { from: f.clone(), to: t.clone() }
                });
            }
            let latency = n.extra_latency.get(&key).copied().unwrap_or(0);
            v.push(Fault::SetLinkLatency { a: sa.clone(), b: sb.clone(), latency_ms: if latency > 0 { 0 } else { 2_000 } });
            let loss = n.loss_percent.get(&key).copied().unwrap_or(0);
            v.push(Fault::SetLinkLoss { a: sa, b: sb, percent: if loss > 0 { 0 } else { 30 } });
            v
        }
        Selection::Partition(tp) => world
            .cluster
            .topics
            .get(&tp.topic)
            .map(|t| vec![Fault::AddPartitions { topic: tp.topic.clone(), count: t.partitions.len() as u32 + 1 }])
            .unwrap_or_default(),
        Selection::Message(id) => find_message(world, *id)
            .map(|e| {
                let (f, t) = (name(e.from), name(e.to));
                vec![Fault::HoldLink { from: f.clone(), to: t.clone() }, Fault::CutLink { a: f, b: t }]
            })
            .unwrap_or_default(),
    }
}

/// A Connect worker: crash or restart it, fail a running task, restart
/// failed tasks or a connector (the REST API), add a worker.
fn worker_actions(world: &World, idx: u32) -> Vec<Fault> {
    use crate::sim::connect_worker::State;
    let w = &world.workers[&idx];
    let group = w.group_id.clone();
    if !w.alive {
        return vec![Fault::RestartConsumer { consumer: idx }, Fault::AddWorker { group }];
    }
    let mut v = vec![Fault::CrashConsumer { consumer: idx }, Fault::PauseConsumer { consumer: idx, duration_ms: 10_000 }];
    for (t, state) in &w.tasks {
        let (connector, task) = (t.connector.clone(), t.task);
        v.push(match state {
            State::FAILED => Fault::RestartTask { group: group.clone(), connector, task },
            _ => Fault::FailTask { group: group.clone(), connector, task },
        });
    }
    for name in w.connectors.keys() {
        v.push(Fault::RestartConnector { group: group.clone(), connector: name.clone(), include_tasks: true, only_failed: true });
    }
    v.push(Fault::AddWorker { group });
    v
}
