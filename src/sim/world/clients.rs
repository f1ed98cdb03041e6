//! The world's client processes: one map, by client index (c1, c2, ...), of
//! every kind of client — a classic consumer (`ClassicKafkaConsumer`), a
//! consumer-protocol consumer (`AsyncKafkaConsumer`, KIP-848) or a Kafka
//! Connect worker (`WorkerGroupMember`). All kinds share one index space.
//!
//! The world owns liveness: a process is alive or not here, not in the client,
//! and the world hands a dead process no message, timer or fault (a crashed
//! JVM runs no code). A restart replaces the process with a fresh client.

use crate::assign::TopicPartition;
use crate::sim::client::classic::ClassicConsumer;
use crate::sim::client::close_options::GroupMembershipOperation;
use crate::sim::client::consumer::AsyncConsumer;
use crate::sim::client::share::ShareConsumer;
use crate::sim::client::streams::StreamsThread;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::ctx::Ctx;
use crate::sim::node::Node;
use crate::sim::out::Out;
use crate::sim::scenario::config::ConsumerConfig;
use std::collections::BTreeMap;
use std::ops::Deref;
use std::rc::Rc;

/// The client a process runs.
#[derive(Clone, Debug)]
pub enum Client {
    /// `group.protocol=classic`.
    Classic(ClassicConsumer),
    /// `group.protocol=consumer` (KIP-848).
    Consumer(AsyncConsumer),
    /// A Kafka Connect worker.
    Worker(ConnectWorker),
    /// A share consumer (`KafkaShareConsumer`, KIP-932).
    Share(ShareConsumer),
    /// A Kafka Streams stream thread in a streams group (KIP-1071).
    Streams(StreamsThread),
}

impl Client {
    /// The client a restarted process runs: the same kind, group and
    /// configuration, and nothing it had learnt (no member id, no assignment).
    pub fn fresh(&self) -> Client {
        match self {
            Client::Classic(c) => Client::Classic(ClassicConsumer::new(c.idx, &c.group_id, c.config.clone())),
            Client::Consumer(c) => Client::Consumer(AsyncConsumer::new(c.idx, &c.group_id, c.config.clone())),
            Client::Worker(w) => {
                Client::Worker(ConnectWorker::new(w.idx, &w.group_id, w.config.clone(), w.config_snapshot.clone()))
            }
            Client::Share(c) => {
                Client::Share(ShareConsumer::new(c.idx, &c.group_id, c.topics.clone(), c.config.clone()))
            }
            Client::Streams(c) => Client::Streams(StreamsThread::new(
                c.idx,
                &c.group_id,
                c.instance,
                c.thread,
                c.topology.clone(),
                c.config.clone(),
            )),
        }
    }

    /// The last correlation ids this process used: (requests to the group
    /// coordinator and for coordinator lookups, fetches).
    pub fn correlations_used(&self) -> Correlations {
        match self {
            Client::Classic(c) => {
                Correlations { group: c.membership.next_correlation, fetch: c.fetcher.next_correlation }
            }
            Client::Consumer(c) => Correlations { group: c.link.next_correlation, fetch: c.fetcher.next_correlation },
            Client::Worker(w) => Correlations { group: w.membership.next_correlation, fetch: 0 },
            Client::Share(c) => Correlations { group: c.next_correlation, fetch: 0 },
            Client::Streams(c) => {
                Correlations { group: c.next_correlation.max(c.membership.next_correlation), fetch: 0 }
            }
        }
    }

    /// A restarted process numbers its requests on from its predecessor's, so
    /// no answer meant for the old process can be taken for one of its own.
    fn number_on_from(&mut self, used: Correlations) {
        match self {
            Client::Classic(c) => {
                c.membership.next_correlation = used.group;
                c.fetcher.next_correlation = used.fetch;
            }
            Client::Consumer(c) => {
                c.link.next_correlation = used.group;
                c.fetcher.next_correlation = used.fetch;
            }
            Client::Worker(w) => w.membership.next_correlation = used.group,
            Client::Share(c) => c.next_correlation = used.group,
            Client::Streams(c) => {
                c.next_correlation = used.group;
                c.membership.next_correlation = used.group;
            }
        }
    }

    /// The node this client is, for the world's one dispatch.
    pub fn node_mut(&mut self) -> &mut dyn Node {
        match self {
            Client::Classic(c) => c,
            Client::Consumer(c) => c,
            Client::Worker(w) => w,
            Client::Share(c) => c,
            Client::Streams(c) => c,
        }
    }

    /// The application calls `KafkaConsumer.close(CloseOptions)`; false for a
    /// Connect worker, which is stopped with its process, not closed.
    pub fn close(&mut self, ctx: &mut Ctx, operation: GroupMembershipOperation, out: &mut Out) -> bool {
        match self {
            Client::Classic(c) => c.close(ctx, operation, out),
            Client::Consumer(c) => c.close(ctx, operation, out),
            Client::Share(c) => c.close(ctx, out),
            Client::Streams(c) => c.close(ctx, out),
            Client::Worker(_) => return false,
        }
        true
    }

    /// The application calls `subscribe(topics)`; false for a Connect worker,
    /// which has no subscription.
    pub fn subscribe(&mut self, topics: Vec<String>, out: &mut Out) -> bool {
        match self {
            Client::Classic(c) => c.subscribe(topics, out),
            Client::Consumer(c) => c.subscribe(topics, out),
            Client::Worker(_) | Client::Share(_) | Client::Streams(_) => return false,
        }
        true
    }

    /// A consumer's configuration, of either protocol (a Connect worker has none).
    pub fn consumer_config_mut(&mut self) -> Option<&mut ConsumerConfig> {
        match self {
            Client::Classic(c) => Some(&mut c.config),
            Client::Consumer(c) => Some(&mut c.config),
            Client::Worker(_) | Client::Share(_) | Client::Streams(_) => None,
        }
    }

    /// `processing_ms_per_record` of a consumer's simulated application (the
    /// slow-processing fault); false for a Connect worker.
    pub fn set_processing_ms(&mut self, ms: u64) -> bool {
        match self {
            Client::Classic(c) => c.config.processing_ms_per_record = ms,
            Client::Consumer(c) => c.config.processing_ms_per_record = ms,
            Client::Share(c) => c.config.processing_ms_per_record = ms,
            Client::Worker(_) | Client::Streams(_) => return false,
        }
        true
    }

    /// The partitions the client believes it owns (a Connect worker owns
    /// connectors and tasks instead).
    pub fn owned(&self) -> &[TopicPartition] {
        match self {
            Client::Classic(c) => &c.owned,
            Client::Consumer(c) => &c.owned,
            Client::Share(c) => &c.assignment,
            Client::Streams(c) => &c.owned_partitions,
            Client::Worker(_) => &[],
        }
    }

    pub fn group_id(&self) -> &str {
        match self {
            Client::Classic(c) => &c.group_id,
            Client::Consumer(c) => &c.group_id,
            Client::Worker(w) => &w.group_id,
            Client::Share(c) => &c.group_id,
            Client::Streams(c) => &c.group_id,
        }
    }
}

/// The highest correlation ids of a process, per counter: its requests to
/// the group coordinator (and coordinator lookups), and its fetches
/// (`FETCH_CORRELATION_BASE` + n).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Correlations {
    pub group: u64,
    pub fetch: u64,
}

/// One client process and whether it runs.
#[derive(Clone, Debug)]
pub struct Process {
    pub alive: bool,
    pub client: Client,
    /// The correlation ids earlier processes at this index used. A request
    /// travels on a connection of the process that sent it (Kafka's
    /// `NetworkClient` reads a response from the connection its request went
    /// out on, and a process's connections close with it), so an answer to
    /// one of these never reaches this process.
    pub predecessors_used: Correlations,
}

impl Process {
    /// `correlation` (of a response or a disconnect) answers a request an
    /// earlier process at this index sent, on a connection that closed with it.
    pub fn answers_an_earlier_process(&self, correlation: u64) -> bool {
        if crate::sim::client::fetcher::is_fetch(correlation) {
            correlation - crate::sim::client::fetcher::FETCH_CORRELATION_BASE <= self.predecessors_used.fetch
        } else {
            correlation <= self.predecessors_used.group
        }
    }
}

/// A client seen from outside the world, with its process's liveness; it
/// dereferences to the client, so `c.alive` and `c.state` both read.
#[derive(Debug)]
pub struct Seen<'a, T> {
    pub alive: bool,
    client: &'a T,
}

impl<T> Clone for Seen<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Seen<'_, T> {}

impl<'a, T> Seen<'a, T> {
    /// The client itself, for the lifetime of the world's borrow.
    pub fn client(self) -> &'a T {
        self.client
    }
}

impl<T> Deref for Seen<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.client
    }
}

/// Every client process, by index. Processes are shared (`Rc`) between the
/// world and the player's checkpoints, which copy the world: a copy bumps
/// counts, and a process is copied only when it next changes (`Rc::make_mut`),
/// so a checkpoint of a large group costs little at once and nothing for the
/// clients that stay idle.
#[derive(Clone, Debug, Default)]
pub struct Clients {
    map: BTreeMap<u32, Rc<Process>>,
}

/// Accessors for one kind of client: a lookup, a mutable lookup and the
/// clients of that kind in index order.
macro_rules! kind {
    ($variant:ident, $ty:ty, $one:ident, $one_mut:ident, $all:ident, $all_mut:ident) => {
        pub fn $one(&self, idx: u32) -> Option<Seen<'_, $ty>> {
            match &**self.map.get(&idx)? {
                Process { alive, client: Client::$variant(c), .. } => Some(Seen { alive: *alive, client: c }),
                _ => None,
            }
        }

        pub fn $one_mut(&mut self, idx: u32) -> Option<&mut $ty> {
            // Only a client of this kind is made unique (copied if shared).
            let p = self.map.get_mut(&idx).filter(|p| matches!(p.client, Client::$variant(_)))?;
            match &mut Rc::make_mut(p).client {
                Client::$variant(c) => Some(c),
                _ => None,
            }
        }

        pub fn $all(&self) -> impl DoubleEndedIterator<Item = Seen<'_, $ty>> + '_ {
            self.map.values().filter_map(|p| match &p.client {
                Client::$variant(c) => Some(Seen { alive: p.alive, client: c }),
                _ => None,
            })
        }

        pub fn $all_mut(&mut self) -> impl Iterator<Item = &mut $ty> + '_ {
            self.map.values_mut().filter(|p| matches!(p.client, Client::$variant(_))).filter_map(|p| {
                match &mut Rc::make_mut(p).client {
                    Client::$variant(c) => Some(c),
                    _ => None,
                }
            })
        }
    };
}

impl Clients {
    kind!(Classic, ClassicConsumer, classic, classic_mut, classics, classics_mut);
    kind!(Consumer, AsyncConsumer, async_consumer, async_consumer_mut, async_consumers, async_consumers_mut);
    kind!(Worker, ConnectWorker, worker, worker_mut, workers, workers_mut);
    kind!(Share, ShareConsumer, share_consumer, share_consumer_mut, share_consumers, share_consumers_mut);
    kind!(Streams, StreamsThread, streams_thread, streams_thread_mut, streams_threads, streams_threads_mut);

    /// A new running process at `idx` (a first start).
    pub fn insert(&mut self, idx: u32, client: Client) {
        self.map.insert(idx, Rc::new(Process { alive: true, client, predecessors_used: Correlations::default() }));
    }

    /// A restart: a fresh process replaces the stopped one at `idx`, numbering
    /// its requests on from it. Nothing happens if the process still runs.
    pub(crate) fn restart(&mut self, idx: u32) -> bool {
        let Some(old) = self.map.get(&idx).filter(|p| !p.alive) else { return false };
        let used = old.client.correlations_used();
        let mut client = old.client.fresh();
        client.number_on_from(used);
        self.map.insert(idx, Rc::new(Process { alive: true, client, predecessors_used: used }));
        true
    }

    pub fn get(&self, idx: u32) -> Option<&Process> {
        self.map.get(&idx).map(|p| &**p)
    }

    pub(crate) fn get_mut(&mut self, idx: u32) -> Option<&mut Process> {
        self.map.get_mut(&idx).map(Rc::make_mut)
    }

    pub fn contains(&self, idx: u32) -> bool {
        self.map.contains_key(&idx)
    }

    pub fn is_alive(&self, idx: u32) -> bool {
        self.map.get(&idx).is_some_and(|p| p.alive)
    }

    /// The process ends (a crash or the end of `close()`); it stays in the map,
    /// drawn as crashed, until a restart replaces it.
    pub(crate) fn stop(&mut self, idx: u32) {
        if let Some(p) = self.map.get_mut(&idx) {
            Rc::make_mut(p).alive = false;
        }
    }

    /// Every client index, ascending: the order clients are drawn in.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = u32> + '_ {
        self.map.keys().copied()
    }

    /// Every process with its index, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Process)> + '_ {
        self.map.iter().map(|(i, p)| (*i, &**p))
    }

    /// How many clients have a lower index than `idx`: its place in the drawing.
    pub fn position(&self, idx: u32) -> usize {
        self.map.range(..idx).count()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The next free client index (every kind shares c<n>).
    pub fn next_index(&self) -> u32 {
        self.map.keys().next_back().map_or(1, |i| i + 1)
    }
}
