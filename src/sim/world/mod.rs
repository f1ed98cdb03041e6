//! The simulated world: the only place that routes messages, applies latency,
//! cuts and pauses, fires timers and applies faults. Everything is ordered by
//! (time, sequence) and driven by one seeded RNG, so a run is a pure function
//! of its scenario, seed and injected faults.

use crate::sim::client::classic::ClassicConsumer;
use crate::sim::client::consumer::AsyncConsumer;
use crate::sim::cluster::broker::Broker;
use crate::sim::cluster::Cluster;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::ctx::Ctx;
use crate::sim::fault::Fault;
use crate::sim::message::{Body, Envelope};
use crate::sim::network::{Fate, Network};
use crate::sim::node::{Handled, Misrouted, Node};
use crate::sim::note::Note;
use crate::sim::out::{BrokerTimer, ClientTimer, Out, TimerKey, TimerOp};
use crate::sim::scenario::Scenario;
use crate::sim::trace::{Event, EventKind, Trace};
use crate::sim::types::{EventId, Millis, NodeId};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Deliver {
        env: Envelope,
        sent_event: EventId,
    },
    Timer {
        node: NodeId,
        key: TimerKey,
        cause: Option<EventId>,
    },
    Start {
        node: NodeId,
    },
    Fault {
        fault: Fault,
    },
    /// Topics a broker asked the controller to create are in the metadata
    /// (`AutoTopicCreationManager` → CreateTopics → metadata propagation).
    TopicsCreated {
        topics: Vec<(String, i32)>,
    },
    /// The controller's check of a dead broker's session (`broker.session.timeout.ms`).
    FenceBroker {
        broker: u32,
    },
    /// A broker in controlled shutdown has handed off its leadership and stops.
    ShutdownComplete {
        broker: u32,
    },
    /// The controller's periodic `electPreferred` task, queued only for the
    /// runs that can move a leader (the others change nothing).
    ElectPreferred,
    /// A crashed or closed client's TCP connection to a broker is seen closed
    /// there (after anything it sent before): the broker releases its share
    /// sessions (`ClientConnectionDisconnectListener.onDisconnect`).
    ConnectionClosed {
        client: u32,
        broker: u32,
    },
}

#[derive(Clone, Debug)]
pub struct World {
    pub now: Millis,
    pub scenario: Scenario,
    pub cluster: Cluster,
    pub brokers: BTreeMap<u32, Broker>,
    /// Every client process (either protocol's consumers and Connect workers), by index.
    pub clients: Clients,
    pub trace: Trace,
    /// Cuts, held links, drops, extra latency and loss.
    pub network: Network,
    /// Nodes frozen until the given time (GC pause).
    pub paused_until: BTreeMap<NodeId, Millis>,
    /// Faults injected interactively (time, fault), for replay and permalinks.
    pub injected: Vec<(Millis, Fault)>,
    /// Check the invariants after every step and record each new violation in
    /// the trace (the page's invariant monitor; tests check them themselves).
    pub monitor: bool,
    /// Violations already recorded, so each is reported once.
    pub(crate) monitored: std::collections::BTreeSet<(String, String)>,
    /// The incremental checker behind `monitor`, and when it runs next.
    pub(crate) monitor_state: crate::sim::invariants::monitor::Monitor,
    pub(crate) monitor_next: Millis,
    /// Inputs routed to a node that does not take them (`Node`'s defaults):
    /// each breaks the routing invariant, which `invariants::check` reports.
    pub(crate) misroutes: Vec<String>,
    /// What happens next, in time order. Items are shared (`Rc`) between the
    /// world and the player's checkpoints, which copy the world: a copy bumps
    /// counts instead of copying every message in flight, and an item still
    /// shared when it fires is copied then (`Rc::unwrap_or_clone`).
    queue: BTreeMap<(Millis, u64), Rc<Item>>,
    /// Each node's armed timers and their place in the queue, by node first:
    /// setting or cancelling a timer compares node ids, then the few keys of
    /// one node (a tree keyed by (node, key) compared whole keys, group and
    /// member ids included, at every step down), and needs no copy of the key
    /// to look it up.
    timers: BTreeMap<NodeId, BTreeMap<TimerKey, (Millis, u64)>>,
    seq: u64,
    next_msg: u64,
    rng: ChaCha8Rng,
}

/// Up to this many clients the page's monitor checks the invariants after every step.
pub const MONITOR_EVERY_STEP_UP_TO: usize = 16;
/// Beyond it, at most this often (simulated ms).
pub const MONITOR_LARGE_EVERY_MS: Millis = 50;

/// How long a topic the broker asks for takes to appear in the metadata
/// (CreateTopics to the KRaft controller, then metadata propagation; a
/// simulated figure).
pub const TOPIC_CREATION_MS: Millis = 500;

/// Parses `c3` or `broker-1` (the names the UI and scenarios use).
pub fn parse_node(s: &str) -> Option<NodeId> {
    if let Some(n) = s.strip_prefix("broker-") {
        return n.parse().ok().map(NodeId::Broker);
    }
    s.strip_prefix('c').and_then(|n| n.parse().ok()).map(NodeId::Client)
}

impl World {
    pub fn new(scenario: Scenario) -> Result<World, String> {
        scenario.validate()?;
        let b = &scenario.broker;
        let mut cluster =
            Cluster::new(scenario.brokers, b.offsets_topic_num_partitions, b.offsets_topic_replication_factor);
        for t in &scenario.topics {
            cluster.add_topic(&t.name, t.partitions, t.records_per_sec);
        }
        for g in &scenario.share_groups {
            if g.config != Default::default() {
                cluster.share_group_configs.insert(g.group_id.clone(), g.config.clone());
            }
        }
        for a in &scenario.streams_apps {
            if a.config != Default::default() {
                cluster.streams_group_configs.entry(a.application_id.clone()).or_insert_with(|| a.config.clone());
            }
        }
        let mut brokers: BTreeMap<u32, Broker> = (0..scenario.brokers).map(|id| (id, Broker::new(id))).collect();
        // At time 0 every offsets partition is already loaded on its leader.
        for (p, meta) in cluster.offsets_partitions.iter().enumerate() {
            if let Some(l) = meta.leader {
                brokers.get_mut(&l).expect("leader exists").coordinator.shards.insert(
                    p as u32,
                    crate::sim::coordinator::shard::Shard {
                        state: crate::sim::coordinator::shard::CoordinatorState::ACTIVE,
                        ..crate::sim::coordinator::shard::Shard::loading()
                    },
                );
            }
        }
        let mut world = World {
            now: 0,
            rng: ChaCha8Rng::seed_from_u64(scenario.seed),
            cluster,
            brokers,
            clients: Clients::default(),
            trace: Trace::default(),
            network: Network::default(),
            paused_until: BTreeMap::new(),
            injected: Vec::new(),
            monitor: false,
            monitored: std::collections::BTreeSet::new(),
            monitor_state: crate::sim::invariants::monitor::Monitor::default(),
            monitor_next: 0,
            misroutes: Vec::new(),
            queue: BTreeMap::new(),
            timers: BTreeMap::new(),
            seq: 0,
            next_msg: 0,
            scenario,
        };
        let groups = world.scenario.groups.clone();
        for g in &groups {
            for k in 0..g.consumers {
                let idx = world.add_consumer_process(g);
                world.push(u64::from(k) * g.start_stagger_ms, Item::Start { node: NodeId::Client(idx) });
            }
        }
        for g in world.scenario.share_groups.clone() {
            for k in 0..g.consumers {
                let idx = world.add_share_process(&g);
                world.push(u64::from(k) * g.start_stagger_ms, Item::Start { node: NodeId::Client(idx) });
            }
        }
        let mut instances: BTreeMap<String, u32> = BTreeMap::new();
        for a in world.scenario.streams_apps.clone() {
            for k in 0..a.instances {
                let n = instances.entry(a.application_id.clone()).or_default();
                *n += 1;
                let instance = *n;
                for t in 1..=a.threads_per_instance {
                    let idx = world.add_streams_thread(&a, instance, t);
                    let at = a.start_at_ms + u64::from(k) * a.start_stagger_ms;
                    world.push(at, Item::Start { node: NodeId::Client(idx) });
                }
            }
        }
        for c in world.scenario.connect_clusters.clone() {
            for k in 0..c.workers {
                let idx = world.add_worker_process(&c, k as usize);
                world.push(u64::from(k) * c.start_stagger_ms, Item::Start { node: NodeId::Client(idx) });
            }
        }
        for f in world.scenario.faults.clone() {
            world.push(f.at, Item::Fault { fault: f.fault });
        }
        Ok(world)
    }

    fn add_consumer_process(&mut self, g: &crate::sim::scenario::GroupSpec) -> u32 {
        let idx = self.clients.next_index();
        let mut config = g.config.clone();
        if g.static_members && config.group_instance_id.is_none() {
            config.group_instance_id = Some(format!("{}-{}", g.group_id, idx));
        }
        match config.group_protocol {
            crate::sim::scenario::config::GroupProtocol::Classic => {
                self.clients.insert(idx, Client::Classic(ClassicConsumer::new(idx, &g.group_id, config)));
            }
            crate::sim::scenario::config::GroupProtocol::Consumer => {
                self.clients.insert(idx, Client::Consumer(AsyncConsumer::new(idx, &g.group_id, config)));
            }
        }
        idx
    }

    /// Adds a share consumer of `g`.
    pub(super) fn add_share_process(&mut self, g: &crate::sim::scenario::share_config::ShareGroupSpec) -> u32 {
        let idx = self.clients.next_index();
        let c = crate::sim::client::share::ShareConsumer::new(idx, &g.group_id, g.topics.clone(), g.consumer.clone());
        self.clients.insert(idx, Client::Share(c));
        idx
    }

    /// Adds stream thread `thread` of instance `instance` of a Streams application.
    pub(super) fn add_streams_thread(
        &mut self,
        a: &crate::sim::scenario::streams_config::StreamsAppSpec,
        instance: u32,
        thread: u32,
    ) -> u32 {
        let idx = self.clients.next_index();
        let t = crate::sim::client::streams::StreamsThread::new(
            idx,
            &a.application_id,
            instance,
            thread,
            a.topology.clone(),
            a.instance.clone(),
        );
        self.clients.insert(idx, Client::Streams(t));
        idx
    }

    /// Adds the k-th worker (0-based) of a Connect cluster.
    fn add_worker_process(&mut self, c: &crate::sim::scenario::connect_config::ConnectClusterSpec, k: usize) -> u32 {
        let idx = self.clients.next_index();
        let worker = ConnectWorker::new(idx, &c.group_id, c.worker_config(k), c.config_snapshot());
        self.clients.insert(idx, Client::Worker(worker));
        idx
    }

    fn push(&mut self, at: Millis, item: Item) -> (Millis, u64) {
        self.seq += 1;
        let key = (at, self.seq);
        self.queue.insert(key, Rc::new(item));
        key
    }

    pub(crate) fn record(&mut self, cause: Option<EventId>, kind: EventKind) -> EventId {
        let id = self.trace.len();
        self.trace.push(Event { id, at: self.now, cause, kind });
        id
    }

    /// Time of the next queued item, if any.
    pub fn next_time(&self) -> Option<Millis> {
        self.queue.keys().next().map(|(t, _)| *t)
    }

    /// Messages currently on the wire, for drawing; then those held on a link.
    pub fn in_flight(&self) -> impl Iterator<Item = &Envelope> {
        let queued = self.queue.values().filter_map(|i| match &**i {
            Item::Deliver { env, .. } => Some(env),
            _ => None,
        });
        queued.chain(self.network.held_messages.iter().map(|(e, _)| e))
    }

    /// When `node`'s timer `key` fires, if it is set (countdown rings, and
    /// the page's explanations of waits).
    pub fn timer_deadline(&self, node: NodeId, key: impl Into<TimerKey>) -> Option<Millis> {
        self.timers.get(&node)?.get(&key.into()).map(|(t, _)| *t)
    }

    pub fn exists(&self, node: NodeId) -> bool {
        match node {
            NodeId::Broker(b) => self.brokers.contains_key(&b),
            NodeId::Client(c) => self.clients.contains(c),
        }
    }

    pub fn is_alive(&self, node: NodeId) -> bool {
        match node {
            NodeId::Broker(b) => self.brokers.get(&b).is_some_and(|b| b.alive),
            NodeId::Client(c) => self.clients.is_alive(c),
        }
    }

    /// Processes every item due at or before `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: Millis) {
        while self.next_time().is_some_and(|n| n <= t) {
            self.step();
        }
        self.advance_clock(t.max(self.now));
    }

    fn advance_clock(&mut self, t: Millis) {
        if t > self.now {
            self.cluster.produce(self.now, t);
            self.now = t;
        }
    }

    /// Processes the next item. Returns false when nothing is left to do.
    pub fn step(&mut self) -> bool {
        let stepped = self.step_once();
        if stepped && self.monitor {
            self.monitor_invariants();
        }
        stepped
    }

    fn step_once(&mut self) -> bool {
        let Some(((at, _), item)) = self.queue.pop_first() else { return false };
        let item = Rc::unwrap_or_clone(item);
        self.advance_clock(at);
        let node = match &item {
            Item::Deliver { env, .. } => Some(env.to),
            Item::Timer { node, .. } | Item::Start { node } => Some(*node),
            Item::Fault { .. }
            | Item::TopicsCreated { .. }
            | Item::FenceBroker { .. }
            | Item::ShutdownComplete { .. }
            | Item::ElectPreferred
            | Item::ConnectionClosed { .. } => None,
        };
        if let Some(n) = node {
            if let Some(&until) = self.paused_until.get(&n) {
                if until > self.now && self.is_alive(n) {
                    let key = self.push(until, item.clone());
                    if let Item::Timer { node, key: tk, .. } = &item {
                        self.timers.entry(*node).or_default().insert(tk.clone(), key);
                    }
                    return true;
                }
            }
        }
        match item {
            Item::Deliver { env, sent_event } => self.deliver(env, sent_event),
            Item::Timer { node, key, cause } => self.fire(node, key, cause),
            Item::Start { node } => {
                let cause = self.record(None, EventKind::Note { node, note: Note::Started { node } });
                self.with_node(node, Some(cause), |n, ctx, out| n.on_start(ctx, out));
            }
            Item::Fault { fault } => self.apply_fault(fault),
            Item::TopicsCreated { topics } => {
                for (topic, partitions) in topics {
                    if !self.cluster.topics.contains_key(&topic) {
                        self.cluster.add_topic(&topic, partitions.max(1) as u32, 0);
                    }
                }
            }
            Item::FenceBroker { broker } => self.session_expired(broker),
            Item::ShutdownComplete { broker } => self.finish_controlled_shutdown(broker),
            Item::ElectPreferred => self.elect_preferred_leaders(),
            Item::ConnectionClosed { client, broker } => self.with_broker(broker, None, |b, ctx, out| {
                let id = b.id;
                b.share.client_disconnected(ctx, id, NodeId::Client(client), out)
            }),
        }
        true
    }

    fn deliver(&mut self, env: Envelope, sent_event: EventId) {
        let label = env.label.clone();
        let (from, to, msg) = (env.from, env.to, env.id);
        // Draw only when the link is lossy, so other runs keep their random sequence.
        let roll = if self.network.loss_percent(from, to) > 0 { self.rng.gen_range(0..100) } else { 100 };
        match self.network.fate(from, to, roll) {
            Fate::Lost(reason) => {
                self.record(Some(sent_event), EventKind::MessageDropped { msg, from, to, label, reason });
                return;
            }
            Fate::Held => {
                self.record(
                    Some(sent_event),
                    EventKind::Note { node: to, note: Note::HeldOnLink { label: label.to_string(), from } },
                );
                self.network.held_messages.push((env, sent_event));
                return;
            }
            Fate::Deliver => {}
        }
        if !self.is_alive(to) {
            let dropped = self.record(
                Some(sent_event),
                EventKind::MessageDropped { msg, from, to, label, reason: format!("{to} is down") },
            );
            // A request to a dead process is refused at once: the sender sees a disconnect.
            if let (Body::Request { correlation, .. }, true) = (&env.body, self.is_alive(from)) {
                let body = Body::Disconnected { correlation: *correlation };
                self.transmit(to, from, body, Some(dropped));
            }
            return;
        }
        if let Some(reason) = self.closed_with_its_process(to, &env.body) {
            self.record(Some(sent_event), EventKind::MessageDropped { msg, from, to, label, reason });
            return;
        }
        let delivered = self.record(Some(sent_event), EventKind::MessageDelivered { msg, from, to, label });
        self.with_node(to, Some(delivered), |n, ctx, out| match env.body {
            Body::Request { correlation, request } => n.on_request(ctx, from, correlation, request, out),
            Body::Response { correlation, response } => n.on_response(ctx, correlation, response, out),
            Body::Disconnected { correlation } => n.on_disconnect(ctx, correlation, out),
        });
    }

    /// An answer to a request that a client's earlier process sent (before a
    /// crash and restart) went out on that process's connection, which closed
    /// with it: the broker's socket server drops it, and the new process never
    /// sees it (a static member's old JoinGroup answered FENCED_INSTANCE_ID
    /// when `ClassicGroup.replaceStaticMember` hands its id to the new process).
    fn closed_with_its_process(&self, to: NodeId, body: &Body) -> Option<String> {
        let (NodeId::Client(c), Body::Response { correlation, .. } | Body::Disconnected { correlation }) = (to, body)
        else {
            return None;
        };
        let p = self.clients.get(c)?;
        p.answers_an_earlier_process(*correlation)
            .then(|| format!("the connection of {to} before its restart is closed"))
    }

    fn fire(&mut self, node: NodeId, key: TimerKey, cause: Option<EventId>) {
        if let Some(timers) = self.timers.get_mut(&node) {
            timers.remove(&key);
        }
        if !self.is_alive(node) {
            return;
        }
        // The poll loop and a leader's held Fetch tick too often to be events of their own.
        let cause =
            if matches!(key, TimerKey::Client(ClientTimer::Poll) | TimerKey::Broker(BrokerTimer::FetchWait { .. })) {
                None
            } else {
                Some(self.record(cause, EventKind::TimerFired { node, timer: key.describe() }))
            };
        self.with_node(node, cause, |n, ctx, out| n.on_timer(ctx, &key, out));
    }

    /// Runs one of a node's handlers and applies its effects. An input the
    /// node's kind does not take is recorded as a violation of the routing
    /// invariant (`Node`'s defaults), never dropped silently.
    fn with_node(
        &mut self,
        node: NodeId,
        cause: Option<EventId>,
        f: impl FnOnce(&mut dyn Node, &mut Ctx, &mut Out) -> Handled,
    ) {
        let mut handled = Ok(());
        self.with_target(node, cause, |t, ctx, out| {
            handled = match t {
                Target::Broker(b) => f(b, ctx, out),
                Target::Client(c) => f(c.node_mut(), ctx, out),
            }
        });
        if let Err(m) = handled {
            self.misrouted(node, cause, m);
        }
    }

    /// Runs `f` on a running broker and applies its effects.
    fn with_broker(&mut self, broker: u32, cause: Option<EventId>, f: impl FnOnce(&mut Broker, &mut Ctx, &mut Out)) {
        self.with_target(NodeId::Broker(broker), cause, |t, ctx, out| {
            if let Target::Broker(b) = t {
                f(b, ctx, out)
            }
        });
    }

    /// Runs `f` on a running client process, of any kind, and applies its effects.
    fn with_client(&mut self, idx: u32, cause: Option<EventId>, f: impl FnOnce(&mut Client, &mut Ctx, &mut Out)) {
        self.with_target(NodeId::Client(idx), cause, |t, ctx, out| {
            if let Target::Client(c) = t {
                f(c, ctx, out)
            }
        });
    }

    /// Runs `f` on a running Connect worker and applies its effects.
    fn with_worker(
        &mut self,
        idx: u32,
        cause: Option<EventId>,
        f: impl FnOnce(&mut ConnectWorker, &mut Ctx, &mut Out),
    ) {
        self.with_target(NodeId::Client(idx), cause, |t, ctx, out| {
            if let Target::Client(Client::Worker(w)) = t {
                f(w, ctx, out)
            }
        });
    }

    /// An input reached a node that does not take it: the routing invariant
    /// is broken (a bug in the world or a node), and the trace says so.
    fn misrouted(&mut self, node: NodeId, cause: Option<EventId>, m: Misrouted) {
        let detail = format!("{node} does not take {}", m.input);
        self.record(cause, EventKind::InvariantViolated { invariant: ROUTING.into(), detail: detail.clone() });
        // Recorded once: the page's monitor, which reports it too, skips it.
        self.monitored.insert((ROUTING.into(), detail.clone()));
        self.misroutes.push(detail);
    }

    /// Runs a handler on one running node (a dead process runs no code) and applies its effects.
    fn with_target(&mut self, node: NodeId, cause: Option<EventId>, f: impl FnOnce(Target, &mut Ctx, &mut Out)) {
        let mut out = Out::default();
        {
            let mut ctx = Ctx {
                now: self.now,
                me: node,
                rng: &mut self.rng,
                cluster: &self.cluster,
                broker_config: &self.scenario.broker,
            };
            let target = match node {
                NodeId::Broker(b) => self.brokers.get_mut(&b).map(Target::Broker),
                NodeId::Client(c) => self.clients.get_mut(c).filter(|p| p.alive).map(|p| Target::Client(&mut p.client)),
            };
            if let Some(t) = target {
                f(t, &mut ctx, &mut out);
            }
        }
        self.apply(node, cause, out);
    }

    fn apply(&mut self, node: NodeId, cause: Option<EventId>, out: Out) {
        let cleaner = self.scenario.broker.log_cleaner_enable;
        for (partition, record) in out.records {
            self.cluster.offsets_logs[partition as usize].push(self.now, record, cleaner);
        }
        for w in out.share_state {
            self.cluster.share_state.entry(w.group_id).or_default().insert(w.partition, w.state);
        }
        if !out.create_topics.is_empty() {
            self.push(self.now + TOPIC_CREATION_MS, Item::TopicsCreated { topics: out.create_topics });
        }
        for mut e in out.events {
            // Redelivery is what the group as a whole processed before: the world
            // keeps that count, across members and generations.
            if let (EventKind::RecordsProcessed { partition, from, to, redelivered, .. }, NodeId::Client(c)) =
                (&mut e, node)
            {
                if let Some(p) = self.clients.get(c) {
                    let stats = &mut self.cluster.stats;
                    *redelivered = match &p.client {
                        Client::Share(s) => stats.record_processed_exactly(&s.group_id, partition, *from, *to),
                        other => stats.record_processed(other.group_id(), partition, *from, *to),
                    };
                }
            }
            self.record(cause, e);
        }
        for op in out.timers {
            match op {
                TimerOp::Set(key, at) => {
                    let k = self.push(at.max(self.now), Item::Timer { node, key: key.clone(), cause });
                    if let Some(old) = self.timers.entry(node).or_default().insert(key, k) {
                        self.queue.remove(&old);
                    }
                }
                TimerOp::Cancel(key) => {
                    if let Some(old) = self.timers.get_mut(&node).and_then(|t| t.remove(&key)) {
                        self.queue.remove(&old);
                    }
                }
            }
        }
        for (to, body) in out.sends {
            self.transmit(node, to, body, cause);
        }
    }

    fn transmit(&mut self, from: NodeId, to: NodeId, body: Body, cause: Option<EventId>) {
        self.next_msg += 1;
        let net = &self.scenario.network;
        let jitter = if net.jitter_ms > 0 { self.rng.gen_range(0..=net.jitter_ms) } else { 0 };
        let deliver_at = self.network.arrival(from, to, self.now, net.latency_ms + jitter);
        let label = body.label();
        let env = Envelope { id: self.next_msg, from, to, sent_at: self.now, deliver_at, body, label: label.clone() };
        let sent = self.record(cause, EventKind::MessageSent { msg: env.id, from, to, label, deliver_at });
        self.push(deliver_at, Item::Deliver { env, sent_event: sent });
    }

    fn cancel_timers_of(&mut self, node: NodeId) {
        for (_, q) in self.timers.remove(&node).unwrap_or_default() {
            self.queue.remove(&q);
        }
    }

    /// Classic consumers of a group, by index.
    pub fn group_consumers<'a>(&'a self, group: &'a str) -> impl Iterator<Item = Seen<'a, ClassicConsumer>> + 'a {
        self.clients.classics().filter(move |c| c.group_id == group)
    }

    /// The active coordinator context of the group's `__consumer_offsets` partition.
    fn active_shard(&self, group_id: &str) -> Option<(u32, &crate::sim::coordinator::shard::Shard)> {
        let p = self.cluster.offsets_partition_for(group_id);
        self.brokers.values().filter(|b| b.alive).find_map(|b| {
            let shard = b.coordinator.shards.get(&p)?;
            (shard.state == crate::sim::coordinator::shard::CoordinatorState::ACTIVE).then_some((b.id, shard))
        })
    }

    /// The group as its active coordinator holds it.
    pub fn group(&self, group_id: &str) -> Option<(u32, &crate::sim::coordinator::classic::ClassicGroup)> {
        let (b, shard) = self.active_shard(group_id)?;
        shard.classic(group_id).map(|g| (b, g))
    }

    /// The consumer group (KIP-848) as its active coordinator holds it.
    pub fn consumer_group(&self, group_id: &str) -> Option<(u32, &crate::sim::coordinator::consumer::ConsumerGroup)> {
        let (b, shard) = self.active_shard(group_id)?;
        shard.consumer_group(group_id).map(|g| (b, g))
    }

    /// The streams group (KIP-1071) as its active coordinator holds it.
    pub fn streams_group(&self, group_id: &str) -> Option<(u32, &crate::sim::coordinator::streams::StreamsGroup)> {
        let b = self.cluster.coordinator_for(group_id)?;
        let shard = self.brokers.get(&b)?.coordinator.shards.get(&self.cluster.offsets_partition_for(group_id))?;
        shard.streams_group(group_id).map(|g| (b, g))
    }

    /// The share group (KIP-932) as its active coordinator holds it.
    pub fn share_group(&self, group_id: &str) -> Option<(u32, &crate::sim::coordinator::share::ShareGroup)> {
        let (b, shard) = self.active_shard(group_id)?;
        shard.share_group(group_id).map(|g| (b, g))
    }

    /// Consumer-protocol clients of a group, by index.
    pub fn group_async_consumers<'a>(&'a self, group: &'a str) -> impl Iterator<Item = Seen<'a, AsyncConsumer>> + 'a {
        self.clients.async_consumers().filter(move |c| c.group_id == group)
    }

    /// How many clients there are: classic and consumer-protocol consumers and Connect workers.
    pub fn client_count(&self) -> usize {
        self.clients.len()
    }

    /// Every client index (every kind), ascending: the order clients are drawn in.
    pub fn client_indices(&self) -> Vec<u32> {
        self.clients.indices().collect()
    }

    /// The group's committed offsets as its active coordinator holds them.
    pub fn committed_offsets(&self, group_id: &str) -> Option<&BTreeMap<crate::assign::TopicPartition, i64>> {
        self.active_shard(group_id)?.1.offsets.get(group_id)
    }
}

mod brokers;
mod clients;
mod connect;
mod faults;
mod members;
#[cfg(test)]
mod routing_tests;

pub use clients::{Client, Clients, Process, Seen};
pub use members::{GroupType, GroupView, Member, MemberKind};

/// The node a handler runs on.
enum Target<'a> {
    Broker(&'a mut Broker),
    Client(&'a mut Client),
}

/// The invariant an input routed to a node that does not take it breaks.
pub const ROUTING: &str = "routing";
