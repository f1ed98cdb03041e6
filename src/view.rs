//! The view model: what the page draws at the world's current instant.
//! Pure functions of the world, so native tests can check them.

use crate::assign::TopicPartition;
use crate::java;
use crate::sim::async_consumer::AsyncConsumer;
use crate::sim::connect_worker::ConnectWorker;
use crate::sim::consumer::{ClassicConsumer, MainThread};
use crate::sim::message::{short_member, Body};
use crate::sim::out::TimerKey;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::{Millis, NodeId, World};

pub const WIDTH: f64 = 960.0;
pub const HEIGHT: f64 = 440.0;
const BROKER_Y: f64 = 90.0;
const CONSUMER_Y: f64 = 340.0;

#[derive(Clone, Debug, PartialEq)]
pub struct BrokerView {
    pub id: u32,
    pub x: f64,
    pub y: f64,
    pub alive: bool,
    /// Groups this broker coordinates, with the partition that makes it so.
    pub coordinates: Vec<(String, u32)>,
    pub loading: bool,
    /// Topic partitions this broker leads, by topic.
    pub leads: Vec<(String, Vec<u32>)>,
    /// How many `__consumer_offsets` partitions it leads (and so coordinates
    /// the groups that hash to them).
    pub offsets_led: usize,
}

impl BrokerView {
    /// One short line for the drawing: `orders 0,3 · __consumer_offsets ×17`;
    /// a topic with more than three partitions led is counted, not listed.
    pub fn leads_summary(&self) -> String {
        let mut parts: Vec<String> = self
            .leads
            .iter()
            .map(|(topic, ps)| match ps.len() {
                0..=3 => format!("{topic} {}", ps.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
                n => format!("{topic} ×{n}"),
            })
            .collect();
        parts.push(format!("__consumer_offsets ×{}", self.offsets_led));
        parts.join(" · ")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerView {
    pub idx: u32,
    pub name: String,
    pub group: String,
    pub x: f64,
    pub y: f64,
    pub alive: bool,
    pub paused: bool,
    pub state: String,
    pub member_id: String,
    pub generation: i32,
    pub leader: bool,
    pub owned: Vec<TopicPartition>,
    pub processing: bool,
    pub fatal: Option<String>,
    pub static_id: Option<String>,
    /// Fractions (0..1) of time left on the session, heartbeat and poll timers.
    pub rings: Vec<(&'static str, f64)>,
    /// `generation` is a KIP-848 member epoch (consumer protocol), not a
    /// classic generation.
    pub epoch: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MessageView {
    pub id: u64,
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub progress: f64,
    pub label: String,
    pub api: &'static str,
    pub request: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PartitionRow {
    /// The consumer group the row is about ("" for a topic no group reads).
    pub group: String,
    pub partition: TopicPartition,
    pub owner: Option<u32>,
    pub leader: Option<u32>,
    pub end_offset: i64,
    pub committed: Option<i64>,
    pub processed: i64,
    pub redelivered: i64,
    pub status: PartitionStatus,
}

/// Where a partition stands in its group's rebalance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionStatus {
    /// A live consumer owns it, and (KIP-848) the target assignment agrees.
    Owned,
    /// KIP-848: its owner still holds it but the target assignment gives it
    /// to another member (or nobody); the owner must revoke it first.
    Revoking,
    /// Nobody owns it yet but it is on its way: a classic group is
    /// rebalancing, or (KIP-848) the target assignment names a member that
    /// has not taken it yet (waiting for the old owner to release it).
    Pending,
    /// Nobody owns it and nobody is about to.
    Unowned,
}

impl PartitionStatus {
    pub fn name(self) -> &'static str {
        match self {
            PartitionStatus::Owned => "owned",
            PartitionStatus::Revoking => "revoking",
            PartitionStatus::Pending => "pending",
            PartitionStatus::Unowned => "unowned",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupView {
    pub group_id: String,
    pub coordinator: Option<u32>,
    pub partition: u32,
    pub hash: i32,
    pub partitions_count: u32,
    pub state: String,
    pub generation: i32,
    pub protocol: Option<String>,
    pub leader: Option<String>,
    /// KIP-848: the epoch of the target assignment (`generation` is then the group epoch).
    pub assignment_epoch: Option<i32>,
}

fn spread(i: usize, n: usize) -> f64 {
    let margin = 90.0;
    if n <= 1 {
        WIDTH / 2.0
    } else {
        margin + (WIDTH - 2.0 * margin) * i as f64 / (n - 1) as f64
    }
}

/// More clients than this and the picture switches to its compact drawing
/// (a grid of small nodes, no per-pair links, rings or labels).
pub const LARGE_GROUP: usize = 16;

pub fn is_large(world: &World) -> bool {
    world.client_count() > LARGE_GROUP
}

/// Top and bottom of the clients' area in the compact drawing.
const GRID_TOP: f64 = 175.0;
const GRID_BOTTOM: f64 = 425.0;

/// Position `i` of `n` in a grid filling the clients' area.
fn grid(i: usize, n: usize) -> (f64, f64) {
    let (w, h) = (WIDTH - 80.0, GRID_BOTTOM - GRID_TOP);
    let cols = ((n as f64 * w / h).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols).max(1);
    let (cw, ch) = (w / cols as f64, h / rows as f64);
    (40.0 + cw * ((i % cols) as f64 + 0.5), GRID_TOP + ch * ((i / cols) as f64 + 0.5))
}

pub fn node_pos(world: &World, node: NodeId) -> (f64, f64) {
    match node {
        NodeId::Broker(b) => (spread(b as usize, world.brokers.len()), BROKER_Y),
        NodeId::Client(c) => {
            // c's place among all clients (the three maps share one index space),
            // counted without building and sorting the list: this runs for every
            // node and message on every frame.
            let i = world.consumers.range(..c).count() + world.async_consumers.range(..c).count() + world.workers.range(..c).count();
            let n = world.client_count();
            if n > LARGE_GROUP {
                grid(i, n)
            } else {
                (spread(i, n), CONSUMER_Y)
            }
        }
    }
}

pub fn brokers(world: &World) -> Vec<BrokerView> {
    world
        .brokers
        .values()
        .map(|b| {
            let (x, y) = node_pos(world, NodeId::Broker(b.id));
            let group_ids = world.scenario.groups.iter().map(|g| &g.group_id).chain(world.scenario.connect_clusters.iter().map(|c| &c.group_id));
            let coordinates = group_ids
                .filter(|g| world.cluster.coordinator_for(g) == Some(b.id))
                .map(|g| (g.clone(), world.cluster.offsets_partition_for(g)))
                .collect();
            let loading = b.coordinator.shards.values().any(|s| s.state == crate::sim::coordinator::CoordinatorState::LOADING);
            let leads = world
                .cluster
                .topics
                .iter()
                .map(|(name, t)| (name.clone(), (0..t.partitions.len() as u32).filter(|p| t.partitions[*p as usize].leader == Some(b.id)).collect::<Vec<_>>()))
                .filter(|(_, ps)| !ps.is_empty())
                .collect();
            let offsets_led = world.cluster.offsets_partitions.iter().filter(|m| m.leader == Some(b.id)).count();
            BrokerView { id: b.id, x, y, alive: b.alive, coordinates, loading, leads, offsets_led }
        })
        .collect()
}

fn ring(world: &World, node: NodeId, key: TimerKey, span: Millis) -> f64 {
    match world.timer_deadline(node, &key) {
        Some(t) if span > 0 => (t.saturating_sub(world.now) as f64 / span as f64).clamp(0.0, 1.0),
        _ => 0.0,
    }
}

/// What every client shows, whichever protocol it speaks: the part of a
/// `ClassicConsumer`, an `AsyncConsumer` and a `ConnectWorker` that the picture
/// and the inspector have in common.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientSummary<'a> {
    pub idx: u32,
    pub group_id: &'a str,
    pub member_id: &'a str,
    pub alive: bool,
    /// The client's `MemberState`, as Kafka names it.
    pub state: String,
    /// The generation (classic, Connect) or the member epoch (KIP-848).
    pub generation: i32,
    pub leader: bool,
    /// `group.instance.id` of a static consumer.
    pub static_id: Option<&'a str>,
    /// Partitions the client owns (a Connect worker owns connectors and tasks instead).
    pub owned: &'a [TopicPartition],
    /// The application is processing the records the last `poll()` returned.
    pub processing: bool,
    pub fatal: Option<&'a str>,
}

impl<'a> From<&'a ClassicConsumer> for ClientSummary<'a> {
    fn from(c: &'a ClassicConsumer) -> Self {
        ClientSummary {
            idx: c.idx,
            group_id: &c.group_id,
            member_id: &c.member_id,
            alive: c.alive,
            state: format!("{:?}", c.state),
            generation: c.generation,
            leader: c.is_leader(),
            static_id: c.config.group_instance_id.as_deref(),
            owned: &c.owned,
            processing: matches!(c.main, MainThread::Processing { .. }),
            fatal: c.fatal.as_deref(),
        }
    }
}

/// A consumer-protocol member has no leader: the coordinator assigns.
impl<'a> From<&'a AsyncConsumer> for ClientSummary<'a> {
    fn from(c: &'a AsyncConsumer) -> Self {
        ClientSummary {
            idx: c.idx,
            group_id: &c.group_id,
            member_id: &c.member_id,
            alive: c.alive,
            state: format!("{:?}", c.state),
            generation: c.member_epoch,
            leader: false,
            static_id: c.config.group_instance_id.as_deref(),
            owned: &c.owned,
            processing: matches!(c.main, MainThread::Processing { .. }),
            fatal: c.fatal.as_deref(),
        }
    }
}

impl<'a> From<&'a ConnectWorker> for ClientSummary<'a> {
    fn from(w: &'a ConnectWorker) -> Self {
        ClientSummary {
            idx: w.idx,
            group_id: &w.group_id,
            member_id: &w.member_id,
            alive: w.alive,
            state: format!("{:?}", w.state),
            generation: w.generation,
            leader: w.is_leader(),
            static_id: None,
            owned: &[],
            processing: false,
            fatal: w.fatal.as_deref(),
        }
    }
}

/// Client `idx`, of whichever kind it is.
pub fn client(world: &World, idx: u32) -> Option<ClientSummary<'_>> {
    let classic = world.consumers.get(&idx).map(ClientSummary::from);
    classic.or_else(|| world.async_consumers.get(&idx).map(ClientSummary::from)).or_else(|| world.workers.get(&idx).map(ClientSummary::from))
}

/// The consumers of both protocols (not Connect workers), classic first.
fn consumer_summaries(world: &World) -> impl Iterator<Item = ClientSummary<'_>> {
    world.consumers.values().map(ClientSummary::from).chain(world.async_consumers.values().map(ClientSummary::from))
}

fn paused(world: &World, node: NodeId) -> bool {
    world.paused_until.get(&node).is_some_and(|t| *t > world.now)
}

/// The state the picture shows: the member state, or that the process crashed.
fn shown_state(c: &ClientSummary) -> String {
    if c.alive {
        c.state.clone()
    } else {
        "crashed".into()
    }
}

/// Every client, both protocols, by index.
pub fn consumers(world: &World) -> Vec<ConsumerView> {
    let mut all: Vec<ConsumerView> = world.consumers.values().map(|c| classic_consumer_view(world, c)).collect();
    all.extend(world.async_consumers.values().map(|c| async_consumer_view(world, c)));
    all.sort_by_key(|v| v.idx);
    all
}

fn consumer_view(world: &World, c: ClientSummary, rings: Vec<(&'static str, f64)>) -> ConsumerView {
    let node = NodeId::Client(c.idx);
    let (x, y) = node_pos(world, node);
    ConsumerView {
        idx: c.idx,
        name: format!("c{}", c.idx),
        group: c.group_id.to_string(),
        x,
        y,
        alive: c.alive,
        paused: paused(world, node),
        state: shown_state(&c),
        member_id: c.member_id.to_string(),
        generation: c.generation,
        leader: c.leader,
        owned: c.owned.to_vec(),
        processing: c.processing,
        fatal: c.fatal.map(String::from),
        static_id: c.static_id.map(String::from),
        rings,
        epoch: false,
    }
}

/// A consumer-protocol client: its `MemberState`, member epoch (in `generation`)
/// and owned partitions; the rings show its heartbeat and poll timers.
fn async_consumer_view(world: &World, c: &AsyncConsumer) -> ConsumerView {
    let node = c.node();
    let rings = vec![
        ("heartbeat", ring(world, node, TimerKey::Heartbeat, c.heartbeat_interval_ms)),
        ("poll", ring(world, node, TimerKey::PollTimeout, c.config.max_poll_interval_ms)),
    ];
    ConsumerView { epoch: true, ..consumer_view(world, c.into(), rings) }
}

/// A classic consumer; the rings show its session, heartbeat and poll timers.
fn classic_consumer_view(world: &World, c: &ClassicConsumer) -> ConsumerView {
    let node = c.node();
    let session_left = if c.alive {
        let deadline = c.last_heartbeat_ok + c.config.session_timeout_ms;
        (deadline.saturating_sub(world.now) as f64 / c.config.session_timeout_ms as f64).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let rings = vec![
        ("session", session_left),
        ("heartbeat", ring(world, node, TimerKey::Heartbeat, c.config.heartbeat_interval_ms)),
        ("poll", ring(world, node, TimerKey::PollTimeout, c.config.max_poll_interval_ms)),
    ];
    consumer_view(world, c.into(), rings)
}

pub fn messages(world: &World) -> Vec<MessageView> {
    world
        .in_flight()
        .map(|env| {
            let span = env.deliver_at.saturating_sub(env.sent_at).max(1) as f64;
            let progress = ((world.now.saturating_sub(env.sent_at)) as f64 / span).clamp(0.0, 1.0);
            MessageView {
                id: env.id,
                from: node_pos(world, env.from),
                to: node_pos(world, env.to),
                progress,
                label: env.body.label(),
                api: env.body.api(),
                request: matches!(env.body, Body::Request { .. }),
            }
        })
        .collect()
}

/// The owner of each partition of each topic, as the consumers themselves see it
/// (the member whose assignment holds it and that is alive).
pub fn partitions(world: &World) -> Vec<PartitionRow> {
    use std::collections::{BTreeMap, BTreeSet};
    // Who owns what in which group, once (a large group has 100 members and
    // 1,000 partitions). A consumer stopped by a fatal error (a fenced zombie)
    // processes nothing.
    let mut owners: BTreeMap<(&str, &TopicPartition), u32> = BTreeMap::new();
    for c in consumer_summaries(world).filter(|c| c.alive && c.fatal.is_none()) {
        for tp in c.owned {
            owners.entry((c.group_id, tp)).or_insert(c.idx);
        }
    }
    // Each consumer group gets the partitions of the topics it subscribes to;
    // topics no group reads are listed once, without a group.
    let mut topics_of: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for g in &world.scenario.groups {
        topics_of.entry(g.group_id.as_str()).or_default().extend(g.config.topics.iter().map(String::as_str));
    }
    let subscribed = world.consumers.values().map(|c| (c.group_id.as_str(), &c.config.topics));
    for (g, topics) in subscribed.chain(world.async_consumers.values().map(|c| (c.group_id.as_str(), &c.config.topics))) {
        topics_of.entry(g).or_default().extend(topics.iter().map(String::as_str));
    }
    // KIP-848: the coordinator's target assignment, by client index.
    let mut targets: BTreeMap<(&str, &TopicPartition), Option<u32>> = BTreeMap::new();
    for c in world.async_consumers.values() {
        let Some((_, g)) = world.consumer_group(&c.group_id) else { continue };
        for tp in g.target_assignment.get(&c.member_id).into_iter().flatten() {
            targets.insert((c.group_id.as_str(), tp), Some(c.idx).filter(|_| c.alive && c.fatal.is_none()));
        }
    }
    let status = |group: &str, tp: &TopicPartition, owner: Option<u32>| {
        if world.consumer_group(group).is_some() {
            let target = targets.get(&(group, tp)).copied().flatten();
            return match (owner, target) {
                (Some(o), t) if t != Some(o) => PartitionStatus::Revoking,
                (Some(_), _) => PartitionStatus::Owned,
                (None, Some(_)) => PartitionStatus::Pending,
                (None, None) => PartitionStatus::Unowned,
            };
        }
        let rebalancing = world.group(group).is_some_and(|(_, g)| {
            matches!(g.state, crate::sim::classic_group::ClassicGroupState::PreparingRebalance | crate::sim::classic_group::ClassicGroupState::CompletingRebalance)
        });
        match owner {
            Some(_) => PartitionStatus::Owned,
            None if rebalancing => PartitionStatus::Pending,
            None => PartitionStatus::Unowned,
        }
    };
    let read: BTreeSet<&str> = topics_of.values().flatten().copied().collect();
    let unread: BTreeSet<&str> = world.cluster.topics.keys().map(String::as_str).filter(|t| !read.contains(t)).collect();
    let mut rows = Vec::new();
    let sections = topics_of.iter().map(|(g, ts)| (*g, ts.clone())).chain(std::iter::once(("", unread)));
    for (group, topics) in sections {
        let committed = world.committed_offsets(group);
        for topic in topics {
            let Some(t) = world.cluster.topics.get(topic) else { continue };
            for (p, state) in t.partitions.iter().enumerate() {
                let tp = TopicPartition::new(topic, p as i32);
                let key = (group.to_string(), tp.clone());
                let owner = owners.get(&(group, &tp)).copied();
                rows.push(PartitionRow {
                    group: group.to_string(),
                    status: status(group, &tp, owner),
                    owner,
                    leader: state.leader,
                    end_offset: state.end_offset,
                    committed: committed.and_then(|o| o.get(&tp).copied()),
                    processed: world.cluster.stats.processed_until.get(&key).copied().unwrap_or(0),
                    redelivered: world.cluster.stats.redelivered.get(&key).copied().unwrap_or(0),
                    partition: tp,
                });
            }
        }
    }
    rows
}

/// Every group of the scenario: consumer groups, then Connect clusters.
pub fn group_ids(world: &World) -> Vec<String> {
    let s = &world.scenario;
    s.groups.iter().map(|g| g.group_id.clone()).chain(s.connect_clusters.iter().map(|c| c.group_id.clone())).collect()
}

pub fn groups(world: &World) -> Vec<GroupView> {
    group_ids(world)
        .into_iter()
        .map(|group_id| {
            if let Some((_, cg)) = world.consumer_group(&group_id) {
                return consumer_group_view(world, &group_id, cg);
            }
            let found = world.group(&group_id);
            let g = &group_id;
            GroupView {
                group_id: g.clone(),
                coordinator: world.cluster.coordinator_for(g),
                partition: world.cluster.offsets_partition_for(g),
                hash: java::string_hash(g),
                partitions_count: world.cluster.offsets_partitions.len() as u32,
                state: found.map_or("(no group yet)".into(), |(_, gr)| gr.state.name().to_string()),
                generation: found.map_or(0, |(_, gr)| gr.generation_id),
                protocol: found.and_then(|(_, gr)| gr.protocol_name.clone()),
                leader: found.and_then(|(_, gr)| gr.leader_id.clone()).map(|l| {
                    let consumer = world.consumers.values().find(|c| c.member_id == l).map(|c| c.idx);
                    let worker = world.workers.values().find(|w| w.member_id == l).map(|w| w.idx);
                    consumer.or(worker).map_or(short_member(&l), |i| format!("c{i}"))
                }),
                assignment_epoch: None,
            }
        })
        .collect()
}

/// A Kafka Connect worker, with its connector and task instances.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerView {
    pub idx: u32,
    pub name: String,
    pub group: String,
    pub x: f64,
    pub y: f64,
    pub alive: bool,
    pub paused: bool,
    pub state: String,
    pub member_id: String,
    pub generation: i32,
    pub leader: bool,
    /// `connect.protocol` this worker is configured with, and the one its group chose.
    pub configured_protocol: String,
    pub protocol: Option<String>,
    /// (connector, `AbstractStatus.State`), e.g. ("sink", "RUNNING").
    pub connectors: Vec<(String, String)>,
    /// (task id, state), e.g. ("sink-0", "FAILED").
    pub tasks: Vec<(String, String)>,
    /// Time left before the scheduled rebalance of the assignment's delay, if any.
    pub scheduled_rebalance_in: Option<Millis>,
}

pub fn workers(world: &World) -> Vec<WorkerView> {
    world
        .workers
        .values()
        .map(|w| {
            let node = w.node();
            let (x, y) = node_pos(world, node);
            let c = ClientSummary::from(w);
            WorkerView {
                idx: c.idx,
                name: format!("c{}", c.idx),
                group: c.group_id.to_string(),
                x,
                y,
                alive: c.alive,
                paused: paused(world, node),
                state: shown_state(&c),
                member_id: c.member_id.to_string(),
                generation: c.generation,
                leader: c.leader,
                configured_protocol: w.config.connect_protocol.protocol().to_string(),
                protocol: w.protocol_name.clone(),
                connectors: w.connectors.iter().map(|(c, s)| (c.clone(), format!("{s:?}"))).collect(),
                tasks: w.tasks.iter().map(|(t, s)| (t.to_string(), format!("{s:?}"))).collect(),
                scheduled_rebalance_in: w.scheduled_rebalance.map(|t| t.saturating_sub(world.now)),
            }
        })
        .collect()
}

/// A consumer group (KIP-848): its state and group epoch (in `generation`); the
/// protocol column names the server assignor in use.
fn consumer_group_view(world: &World, group_id: &str, g: &crate::sim::consumer_group::ConsumerGroup) -> GroupView {
    let assignor = crate::sim::consumer_group::ConsumerGroup::preferred_server_assignor(g.members.values())
        .or_else(|| world.scenario.broker.consumer_group_assignors.first().cloned())
        .unwrap_or_default();
    GroupView {
        group_id: group_id.to_string(),
        coordinator: world.cluster.coordinator_for(group_id),
        partition: world.cluster.offsets_partition_for(group_id),
        hash: java::string_hash(group_id),
        partitions_count: world.cluster.offsets_partitions.len() as u32,
        state: g.state.name().to_string(),
        generation: g.group_epoch,
        protocol: Some(format!("consumer ({assignor})")),
        leader: None,
        assignment_epoch: Some(g.assignment_epoch),
    }
}

/// What a trace event marks on the timeline, if anything: a fault, the start
/// of a rebalance (a classic group preparing one, a consumer group or Connect
/// cluster getting a new epoch), a group settling (Stable), or a coordinator
/// loading its `__consumer_offsets` partition (failover).
pub fn timeline_marker(kind: &EventKind) -> Option<(&'static str, String)> {
    Some(match kind {
        EventKind::FaultInjected { description } => ("fault", description.clone()),
        EventKind::StateChanged { machine: Machine::Group { group_id } | Machine::ConsumerGroup { group_id }, from, to, .. } => match (from.as_str(), to.as_str()) {
            (_, "PreparingRebalance") | ("Stable" | "Empty", "Assigning" | "Reconciling") => ("rebalance", format!("{group_id}: {from} → {to}")),
            (_, "Stable") => ("stable", format!("{group_id}: {from} → {to}")),
            _ => return None,
        },
        EventKind::StateChanged { machine: Machine::CoordinatorContext { partition }, to, .. } if to == "LOADING" => {
            ("coordinator", format!("__consumer_offsets-{partition}: {to}"))
        }
        _ => return None,
    })
}
