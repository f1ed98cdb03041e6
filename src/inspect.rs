//! The inspector: what the page shows about the thing the user selected (a
//! node, a link, a partition or a message in flight), and every fault that can
//! be injected on it. Pure functions of the world, tested natively.

use crate::assign::TopicPartition;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::message::Envelope;
use crate::sim::world::{Member, MemberKind};
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

/// A client of any kind: what every member shows, then what only its kind has.
fn inspect_member(world: &World, m: Member) -> Option<Inspection> {
    let c = m.idx;
    Some(match m.kind {
        MemberKind::Worker(w) => {
            let details = vec![
                ("connectors", list(w.connectors.iter().map(|(n, s)| format!("{n} {s:?}")))),
                ("tasks", list(w.tasks.iter().map(|(t, s)| format!("{t} {s:?}")))),
            ];
            let protocol = ("connect.protocol", w.config.connect_protocol.protocol().to_string());
            Inspection {
                title: format!("c{c} (Connect worker)"),
                facts: client_facts(m, protocol, "generation", details),
                json: pretty(w),
            }
        }
        MemberKind::Share(s) => {
            let details = vec![
                ("heartbeat interval ms (from the broker)", s.heartbeat_interval_ms.to_string()),
                owned_fact(&m),
                ("share sessions", list(s.sessions.iter().map(|(b, e)| format!("broker-{b} next epoch {e}")))),
                ("records held by the application", s.held.len().to_string()),
            ];
            let mode = ("share.acknowledgement.mode", format!("{:?}", s.config.acknowledgement_mode).to_lowercase());
            Inspection {
                title: format!("c{c} (share consumer)"),
                facts: client_facts(m, mode, "member epoch", details),
                json: pretty(s),
            }
        }
        MemberKind::Streams(s) => {
            let tasks =
                |t: &crate::sim::streams_message::Tasks| list(crate::sim::streams_message::task_names(t).into_iter());
            let details = vec![
                ("process (KafkaStreams instance)", s.process_id.clone()),
                ("active tasks", tasks(&s.owned.active)),
                ("standby tasks", tasks(&s.owned.standby)),
                ("restoring", list(s.restoring().map(|((st, p), until)| format!("{st}_{p} until {until} ms")))),
                ("heartbeat status", list(s.statuses.iter().map(|x| x.name().to_string()))),
                ("heartbeat interval ms (from the broker)", s.heartbeat_interval_ms.to_string()),
            ];
            let identity = instance_fact(&m);
            Inspection {
                title: format!("c{c} (Kafka Streams thread {}-{}, group.protocol=streams)", s.instance, s.thread),
                facts: client_facts(m, identity, "member epoch", details),
                json: pretty(s),
            }
        }
        MemberKind::Consumer(a) => {
            let identity = instance_fact(&m);
            let mut details =
                vec![("heartbeat interval ms (from the broker)", a.heartbeat_interval_ms.to_string()), owned_fact(&m)];
            details.extend(liveness_facts(world, &m));
            Inspection {
                title: format!("c{c} (group.protocol=consumer)"),
                facts: client_facts(m, identity, "member epoch", details),
                json: pretty(a),
            }
        }
        MemberKind::Classic(cons) => {
            let mut details = vec![owned_fact(&m)];
            details.extend(liveness_facts(world, &m));
            let identity = instance_fact(&m);
            Inspection {
                title: format!("c{c}"),
                facts: client_facts(m, identity, "generation", details),
                json: pretty(cons),
            }
        }
    })
}

fn find_message(world: &World, id: u64) -> Option<&Envelope> {
    world.in_flight().find(|e| e.id == id)
}

/// What the inspector shows for `sel`, or `None` when it no longer exists
/// (a message that arrived, a node of another timeline).
pub fn inspect(world: &World, sel: &Selection) -> Option<Inspection> {
    match sel {
        Selection::Node(NodeId::Client(c)) => inspect_member(world, world.member(*c)?),
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
                    (
                        "groups hosted",
                        broker
                            .coordinator
                            .shards
                            .values()
                            .flat_map(|s| {
                                s.groups.values().map(|g| format!("{} ({})", g.group_id(), g.group_type().name()))
                            })
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
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
                    (
                        "held",
                        format!("{a}→{b}: {} · {b}→{a}: {}", n.held.contains(&(*a, *b)), n.held.contains(&(*b, *a))),
                    ),
                    ("extra latency ms", n.extra_latency.get(&key).copied().unwrap_or(0).to_string()),
                    ("loss %", n.loss_percent.get(&key).copied().unwrap_or(0).to_string()),
                    (
                        "messages held",
                        n.held_messages
                            .iter()
                            .filter(|(e, _)| key == crate::sim::network::link(e.from, e.to))
                            .count()
                            .to_string(),
                    ),
                ],
                json: String::new(),
            })
        }
        Selection::Partition(tp) => {
            let row = crate::view::partitions(world).into_iter().find(|r| &r.partition == tp)?;
            Some(Inspection {
                title: tp.to_string(),
                facts: vec![
                    (
                        "owner",
                        match row.owner {
                            None => "— unowned".into(),
                            Some(o) if row.also_read_by.is_empty() => format!("c{o}"),
                            // a share group's readers, each acquiring its own records
                            Some(o) => std::iter::once(o)
                                .chain(row.also_read_by.iter().copied())
                                .map(|c| format!("c{c}"))
                                .collect::<Vec<_>>()
                                .join(" "),
                        },
                    ),
                    ("leader", row.leader.map_or("—".into(), |l| format!("broker-{l}"))),
                    ("log end offset", row.end_offset.to_string()),
                    ("committed offset", row.committed.map_or("—".into(), |c| c.to_string())),
                    ("processed up to", row.processed.to_string()),
                    ("records redelivered", row.redelivered.to_string()),
                ],
                json: pretty(
                    &world.cluster.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize)),
                ),
            })
        }
        Selection::Message(id) => {
            let env = find_message(world, *id)?;
            Some(Inspection {
                title: env.label.to_string(),
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

/// A list fact: its items joined, or a dash when there are none.
fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "—".to_string()
    } else {
        v.join(", ")
    }
}

fn owned_fact(c: &Member) -> (&'static str, String) {
    // What a crashed or expelled member last held is not ownership.
    let key = if !c.alive
        || c.fatal.is_some()
        || matches!(c.state.as_str(), "UNJOINED" | "UNSUBSCRIBED" | "FENCED" | "FATAL")
    {
        "last held (stale)"
    } else {
        "owned"
    };
    (key, list(c.owned.iter().map(|p| p.to_string())))
}

fn at(ms: crate::sim::Millis) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// When the application last called `poll()` and when `max.poll.interval.ms`
/// runs out after it (overdue while it still processes past that), and the
/// coordinator's session deadline of its member (or that it has none).
fn liveness_facts(world: &World, c: &Member) -> Vec<(&'static str, String)> {
    let (last_poll, interval) = (c.last_poll, c.max_poll_interval_ms.unwrap_or_default());
    let deadline = last_poll + interval;
    let overdue = c.alive && c.processing() && world.now > deadline;
    let session = crate::view::coordinator_session_deadline(world, c.group_id, c.member_id);
    vec![
        ("last poll()", at(last_poll)),
        (
            "poll deadline (max.poll.interval.ms)",
            if overdue { format!("{} · overdue", at(deadline)) } else { at(deadline) },
        ),
        (
            "session deadline on the coordinator",
            session.map_or_else(|| "—".to_string(), |t| format!("{} (in {})", at(t), at(t.saturating_sub(world.now)))),
        ),
    ]
}

fn instance_fact(c: &Member) -> (&'static str, String) {
    ("group.instance.id", c.static_id.map_or_else(|| "— (dynamic)".into(), String::from))
}

/// What the inspector shows of any client: group and member id, how it
/// identifies itself (`identity`), its state and generation (or member epoch,
/// under `generation`), what only its kind has (`details`), and whether it is alive.
fn client_facts(
    c: Member,
    identity: (&'static str, String),
    generation: &'static str,
    details: Vec<(&'static str, String)>,
) -> Vec<(&'static str, String)> {
    let member_id = if c.member_id.is_empty() { "—".into() } else { c.member_id.to_string() };
    // A crashed process has no state of its own; the state it had is shown beside it.
    let state = if c.alive { c.state } else { format!("crashed (was {})", c.state) };
    let mut facts = vec![("group.id", c.group_id.to_string()), ("member.id", member_id), identity, ("state", state)];
    facts.push((generation, c.generation.to_string()));
    facts.extend(details);
    facts.push(("alive", c.alive.to_string()));
    facts
}

fn name(n: NodeId) -> String {
    n.to_string()
}

/// Every fault the user can inject on the selection, ready to dispatch.
pub fn actions(world: &World, sel: &Selection) -> Vec<Fault> {
    match sel {
        Selection::Node(NodeId::Client(c)) => {
            let Some(client) = world.member(*c) else { return Vec::new() };
            if let MemberKind::Worker(w) = client.kind {
                return worker_actions(*c, w, client.alive);
            }
            if let MemberKind::Streams(t) = client.kind {
                return stream_thread_actions(world, t, client.alive);
            }
            let (alive, group_id, is_static) = (client.alive, client.group_id.to_string(), client.static_id.is_some());
            let consumer = *c;
            let mut v = if alive {
                vec![
                    Fault::CrashConsumer { consumer },
                    Fault::CloseConsumer { consumer },
                    Fault::CloseConsumerWithOptions {
                        consumer,
                        operation: crate::sim::client::close_options::GroupMembershipOperation::LEAVE_GROUP,
                    },
                    Fault::CloseConsumerWithOptions {
                        consumer,
                        operation: crate::sim::client::close_options::GroupMembershipOperation::REMAIN_IN_GROUP,
                    },
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
            let mut v = if broker.alive {
                vec![Fault::KillBroker { broker: *b }, Fault::ShutdownBroker { broker: *b }]
            } else {
                vec![Fault::RestartBroker { broker: *b }]
            };
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
            v.push(Fault::SetLinkLatency {
                a: sa.clone(),
                b: sb.clone(),
                latency_ms: if latency > 0 { 0 } else { 2_000 },
            });
            let loss = n.loss_percent.get(&key).copied().unwrap_or(0);
            v.push(Fault::SetLinkLoss { a: sa, b: sb, percent: if loss > 0 { 0 } else { 30 } });
            v
        }
        Selection::Partition(tp) => world
            .cluster
            .topics
            .get(tp.topic.as_str())
            .map(|t| vec![Fault::AddPartitions { topic: tp.topic.to_string(), count: t.partitions.len() as u32 + 1 }])
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
fn worker_actions(idx: u32, w: &ConnectWorker, alive: bool) -> Vec<Fault> {
    use crate::sim::connect::worker::State;
    let group = w.group_id.clone();
    if !alive {
        return vec![Fault::RestartConsumer { consumer: idx }, Fault::AddWorker { group }];
    }
    let mut v =
        vec![Fault::CrashConsumer { consumer: idx }, Fault::PauseConsumer { consumer: idx, duration_ms: 10_000 }];
    for (t, state) in &w.tasks {
        let (connector, task) = (t.connector.clone(), t.task);
        v.push(match state {
            State::FAILED => Fault::RestartTask { group: group.clone(), connector, task },
            _ => Fault::FailTask { group: group.clone(), connector, task },
        });
    }
    for name in w.connectors.keys() {
        v.push(Fault::RestartConnector {
            group: group.clone(),
            connector: name.clone(),
            include_tasks: true,
            only_failed: true,
        });
    }
    v.push(Fault::AddWorker { group });
    v
}

/// A Kafka Streams stream thread: crash or restart it, close its
/// `KafkaStreams`, pause it, make its uncaught-exception handler answer
/// SHUTDOWN_APPLICATION; for its application: another standby count
/// (`streams.num.standby.replicas`, at most `group.streams.max.standby.replicas`
/// = 2), one more instance, and each missing source topic created. Under
/// classic rebalancing the shutdown request and the standby count are the
/// streams group's own and are not offered.
fn stream_thread_actions(world: &World, t: &crate::sim::client::streams::StreamsThread, alive: bool) -> Vec<Fault> {
    let (consumer, group) = (t.idx, t.group_id.clone());
    let mut v = if alive {
        vec![
            Fault::CrashConsumer { consumer },
            Fault::CloseConsumer { consumer },
            Fault::PauseConsumer { consumer, duration_ms: 10_000 },
        ]
    } else {
        vec![Fault::RestartConsumer { consumer }]
    };
    if alive && !t.is_classic() {
        v.push(Fault::RequestShutdown { consumer });
    }
    let standbys = world.streams_group(&group).map_or(0, |(_, g)| g.num_standby_replicas);
    for replicas in [standbys + 1, standbys - 1] {
        if (0..=2).contains(&replicas) && !t.is_classic() {
            v.push(Fault::SetStandbyReplicas { group: group.clone(), replicas });
        }
    }
    v.push(Fault::AddInstance { group });
    // A missing source topic (MISSING_SOURCE_TOPICS), with as many partitions as the others have.
    let sources: Vec<&String> = t.topology.subtopologies.iter().flat_map(|s| s.source_topics.iter()).collect();
    let partitions = sources
        .iter()
        .filter_map(|s| world.cluster.topics.get(s.as_str()))
        .map(|x| x.partitions.len() as u32)
        .max()
        .unwrap_or(4);
    for topic in sources.into_iter().filter(|s| !world.cluster.topics.contains_key(s.as_str())) {
        let f = Fault::CreateTopic { topic: topic.clone(), partitions };
        if !v.contains(&f) {
            v.push(f);
        }
    }
    v
}
