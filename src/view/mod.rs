//! The view model: what the page draws at the world's current instant.
//! Pure functions of the world, so native tests can check them.

pub mod compare_text;
pub mod explain_text;
mod groups;
pub mod history;
pub mod labels;
pub mod layout;
mod ownership;
pub mod roles;
pub mod share_strip;
pub mod streams;

pub use groups::{group_ids, group_ids_of, groups, timeline_marker, GroupView};
pub use ownership::{partitions, PartitionRow, PartitionStatus};

use crate::assign::TopicPartition;
use crate::sim::message::Body;
use crate::sim::out::{ClientTimer, GroupTimer, TimerKey};
use crate::sim::world::{GroupType, Member, MemberKind};
use crate::sim::{Millis, NodeId, World};

pub const WIDTH: f64 = 960.0;
/// The compact drawing's height (a large group's grid).
pub const HEIGHT: f64 = 440.0;
pub use layout::Frame;
use layout::Layout;

/// The drawing's height: the compact grid's, or what its rows of clients need.
pub fn height(world: &World) -> f64 {
    height_in(world, Frame::Wide)
}

pub fn height_in(world: &World, frame: Frame) -> f64 {
    if is_large(world) {
        match frame {
            Frame::Wide => HEIGHT,
            Frame::Presenter => layout::compact_presenter::height(world.client_count()),
            Frame::Narrow => layout::compact_narrow::height(world.client_count()),
        }
    } else {
        Layout::framed(world.client_count(), frame).height
    }
}

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
    /// Its `owned` list is only what it last held, not ownership: the process
    /// crashed, stopped on a fatal error, or is out of the group (UNJOINED,
    /// UNSUBSCRIBED, FENCED). Drawn as stale.
    pub stale: bool,
    /// When the application last called `poll()`, and when
    /// `max.poll.interval.ms` runs out after it.
    pub last_poll: Millis,
    pub poll_deadline: Millis,
    /// Alive, still processing the last batch (not waiting inside `poll()`), and
    /// past its poll deadline: the poll is overdue.
    pub poll_overdue: bool,
    /// The coordinator's session deadline for this member (broker side): it
    /// keeps counting down after a crash until the coordinator removes it.
    pub session_deadline: Option<Millis>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MessageView {
    pub id: u64,
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub progress: f64,
    pub label: crate::sim::label::Label,
    pub api: &'static str,
    pub request: bool,
}

/// Where broker `i` of `n` sits across the drawing; the narrow frame gives
/// each an equal cell (its boxes are as wide as the cell allows).
fn spread(i: usize, n: usize, frame: Frame) -> f64 {
    let margin = broker_margin(n);
    if frame == Frame::Narrow {
        WIDTH * (i as f64 + 0.5) / n.max(1) as f64
    } else if n <= 1 {
        WIDTH / 2.0
    } else {
        margin + (WIDTH - 2.0 * margin) * i as f64 / (n - 1) as f64
    }
}

/// The wide drawing's distance from its edges to the outer brokers' centres:
/// wide enough that a box of `max_broker_width` fits at the edge.
fn broker_margin(n: usize) -> f64 {
    match n {
        0..=1 => WIDTH / 2.0,
        2 => 170.0,
        3 => 160.0,
        4 => 125.0,
        _ => 95.0,
    }
}

/// The widest a broker box of the wide drawing may be with `n` brokers: it
/// stays inside the drawing and 12 units from its neighbours.
pub fn max_broker_width(n: usize) -> f64 {
    let m = broker_margin(n);
    if n <= 1 {
        400.0
    } else {
        (2.0 * m - 10.0).min((WIDTH - 2.0 * m) / (n - 1) as f64 - 12.0)
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
    node_pos_in(world, node, Frame::Wide)
}

pub fn node_pos_in(world: &World, node: NodeId, frame: Frame) -> (f64, f64) {
    let n = world.client_count();
    match node {
        NodeId::Broker(b) => (spread(b as usize, world.brokers.len(), frame), Layout::framed(n, frame).broker_y),
        NodeId::Client(c) => {
            // c's place among all clients, counted without building the list:
            // this runs for every node and message on every frame.
            let i = world.clients.position(c);
            if n > LARGE_GROUP && frame == Frame::Narrow {
                layout::compact_narrow::pos(i)
            } else if n > LARGE_GROUP && frame == Frame::Presenter {
                layout::compact_presenter::pos(i, n)
            } else if n > LARGE_GROUP {
                grid(i, n)
            } else {
                Layout::framed(n, frame).pos(i)
            }
        }
    }
}

pub fn brokers(world: &World) -> Vec<BrokerView> {
    brokers_in(world, Frame::Wide)
}

pub fn brokers_in(world: &World, frame: Frame) -> Vec<BrokerView> {
    world
        .brokers
        .values()
        .map(|b| {
            let (x, y) = node_pos_in(world, NodeId::Broker(b.id), frame);
            let coordinates = world
                .scenario
                .group_ids()
                .filter(|g| world.cluster.coordinator_for(g) == Some(b.id))
                .map(|g| (g.clone(), world.cluster.offsets_partition_for(g)))
                .collect();
            let loading = b
                .coordinator
                .shards
                .values()
                .any(|s| s.state == crate::sim::coordinator::shard::CoordinatorState::LOADING);
            let leads = world
                .cluster
                .topics
                .iter()
                .map(|(name, t)| {
                    (
                        name.clone(),
                        (0..t.partitions.len() as u32)
                            .filter(|p| t.partitions[*p as usize].leader == Some(b.id))
                            .collect::<Vec<_>>(),
                    )
                })
                .filter(|(_, ps)| !ps.is_empty())
                .collect();
            let offsets_led = world.cluster.offsets_partitions.iter().filter(|m| m.leader == Some(b.id)).count();
            BrokerView { id: b.id, x, y, alive: b.alive, coordinates, loading, leads, offsets_led }
        })
        .collect()
}

fn ring(world: &World, node: NodeId, key: impl Into<TimerKey>, span: Millis) -> f64 {
    match world.timer_deadline(node, key) {
        Some(t) if span > 0 => (t.saturating_sub(world.now) as f64 / span as f64).clamp(0.0, 1.0),
        _ => 0.0,
    }
}

fn paused(world: &World, node: NodeId) -> bool {
    world.paused_until.get(&node).is_some_and(|t| *t > world.now)
}

/// The state the picture shows: the member state, or that the process crashed.
fn shown_state(c: &Member) -> String {
    if c.alive {
        c.state.clone()
    } else {
        "crashed".into()
    }
}

/// Every client, both protocols, by index.
pub fn consumers(world: &World) -> Vec<ConsumerView> {
    consumers_in(world, Frame::Wide)
}

pub fn consumers_in(world: &World, frame: Frame) -> Vec<ConsumerView> {
    world.members().filter(Member::is_consumer).map(|c| consumer_view(world, frame, c)).collect()
}

/// Out of the group, whatever it last held.
fn out_of_group(state: &str) -> bool {
    matches!(state, "UNJOINED" | "UNSUBSCRIBED" | "FENCED" | "FATAL")
}

/// The coordinator's session deadline of `member_id` in `group_id`: the
/// classic `heartbeat-<group>-<member>` timer of `GroupCoordinatorShard`, or
/// the consumer group's session timer (`group.consumer.session.timeout.ms`).
pub fn coordinator_session_deadline(world: &World, group_id: &str, member_id: &str) -> Option<Millis> {
    if member_id.is_empty() {
        return None;
    }
    let b = world.cluster.coordinator_for(group_id)?;
    let (g, m) = (group_id.to_string(), member_id.to_string());
    world
        .timer_deadline(NodeId::Broker(b), GroupTimer::MemberHeartbeat { group_id: g.clone(), member_id: m.clone() })
        .or_else(|| {
            world.timer_deadline(
                NodeId::Broker(b),
                GroupTimer::ConsumerGroupSessionTimeout { group_id: g.clone(), member_id: m.clone() },
            )
        })
        .or_else(|| {
            world.timer_deadline(NodeId::Broker(b), GroupTimer::ShareGroupSessionTimeout { group_id: g, member_id: m })
        })
}

/// The fraction of `span` left before `deadline`.
fn left(world: &World, deadline: Option<Millis>, span: Millis) -> f64 {
    match deadline {
        Some(t) if span > 0 => (t.saturating_sub(world.now) as f64 / span as f64).clamp(0.0, 1.0),
        _ => 0.0,
    }
}

/// A consumer of either protocol: its `MemberState`, generation or member
/// epoch and owned partitions; the rings show the coordinator's session
/// deadline of its member, and its own heartbeat and poll timers.
fn consumer_view(world: &World, frame: Frame, c: Member) -> ConsumerView {
    let node = NodeId::Client(c.idx);
    let (x, y) = node_pos_in(world, node, frame);
    let paused = paused(world, node);
    let session_deadline = coordinator_session_deadline(world, c.group_id, c.member_id);
    let session_span = match c.group_type {
        GroupType::Share => world.cluster.share_group_config(c.group_id).session_timeout_ms,
        _ => c.session_timeout_ms.unwrap_or(world.scenario.broker.consumer_group_session_timeout_ms),
    };
    let interval = c.max_poll_interval_ms.unwrap_or_default();
    let rings = vec![
        ("session", left(world, session_deadline, session_span)),
        ("heartbeat", ring(world, node, ClientTimer::Heartbeat, c.heartbeat_interval_ms)),
        ("poll", ring(world, node, ClientTimer::PollTimeout, interval)),
    ];
    let poll_deadline = c.last_poll + interval;
    let stale = !c.alive || c.fatal.is_some() || out_of_group(&c.state);
    ConsumerView {
        stale,
        last_poll: c.last_poll,
        poll_deadline,
        poll_overdue: c.alive && c.processing() && c.fatal.is_none() && interval > 0 && world.now > poll_deadline,
        session_deadline,
        idx: c.idx,
        name: format!("c{}", c.idx),
        group: c.group_id.to_string(),
        x,
        y,
        alive: c.alive,
        paused,
        state: shown_state(&c),
        member_id: c.member_id.to_string(),
        generation: c.generation,
        // A crashed process leads nothing: its ★ goes with it (the group elects
        // another leader at its next join; the drawing must not show two).
        leader: c.leader && c.alive,
        owned: c.owned.to_vec(),
        processing: c.processing(),
        fatal: c.fatal.map(String::from),
        static_id: c.static_id.map(String::from),
        rings,
        epoch: matches!(c.group_type, GroupType::Consumer | GroupType::Share),
    }
}

pub fn messages(world: &World) -> Vec<MessageView> {
    messages_in(world, Frame::Wide)
}

pub fn messages_in(world: &World, frame: Frame) -> Vec<MessageView> {
    world
        .in_flight()
        .map(|env| {
            let span = env.deliver_at.saturating_sub(env.sent_at).max(1) as f64;
            let progress = ((world.now.saturating_sub(env.sent_at)) as f64 / span).clamp(0.0, 1.0);
            MessageView {
                id: env.id,
                from: node_pos_in(world, env.from, frame),
                to: node_pos_in(world, env.to, frame),
                progress,
                label: env.label.clone(),
                api: env.body.api(),
                request: matches!(env.body, Body::Request { .. }),
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
    workers_in(world, Frame::Wide)
}

pub fn workers_in(world: &World, frame: Frame) -> Vec<WorkerView> {
    world
        .members()
        .filter_map(|c| match c.kind {
            MemberKind::Worker(w) => Some((c.clone(), w)),
            MemberKind::Classic(_) | MemberKind::Consumer(_) | MemberKind::Share(_) | MemberKind::Streams(_) => None,
        })
        .map(|(c, w)| {
            let node = NodeId::Client(c.idx);
            let (x, y) = node_pos_in(world, node, frame);
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
                protocol: w.membership.protocol_name.clone(),
                connectors: w.connectors.iter().map(|(c, s)| (c.clone(), format!("{s:?}"))).collect(),
                tasks: w.tasks.iter().map(|(t, s)| (t.to_string(), format!("{s:?}"))).collect(),
                scheduled_rebalance_in: w.scheduled_rebalance.map(|t| t.saturating_sub(world.now)),
            }
        })
        .collect()
}
