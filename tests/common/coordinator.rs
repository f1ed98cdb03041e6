//! One broker's group coordinator driven by hand: requests in, answers, timers
//! and records out. For orderings of GroupMetadataManager and
//! GroupCoordinatorService that a whole world reaches only by racing clients.

use groupscope::sim::cluster::broker::Broker;
use groupscope::sim::cluster::{Cluster, CoordinatorRecord};
use groupscope::sim::coordinator::classic::ClassicGroup;
use groupscope::sim::ctx::Ctx;
use groupscope::sim::message::{
    Body, JoinGroupRequest, JoinGroupResponse, JoinProtocol, ProtocolMetadata, Request, Response, SyncGroupRequest,
};
use groupscope::sim::note::Note;
use groupscope::sim::out::{BrokerTimer, Out, TimerKey, TimerOp};
use groupscope::sim::scenario::config::BrokerConfig;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Errors, NodeId, Scenario};
use rand::SeedableRng;
use std::collections::BTreeMap;

pub const GROUP: &str = "demo";
pub const SESSION_MS: u64 = 10_000;
pub const REBALANCE_MS: u64 = 30_000;

pub struct Coordinator {
    pub broker: Broker,
    pub cluster: Cluster,
    pub config: BrokerConfig,
    rng: rand_chacha::ChaCha8Rng,
    pub now: u64,
    next_correlation: u64,
    /// Every answer so far, by the correlation of its request.
    pub answers: BTreeMap<u64, Response>,
    /// The armed timers and when they fire.
    pub timers: BTreeMap<TimerKey, u64>,
    pub records: Vec<(u32, CoordinatorRecord)>,
    pub notes: Vec<Note>,
}

impl Coordinator {
    /// Broker 0 of a one-broker cluster, leader of the demo group's
    /// `__consumer_offsets` partition, loaded (ACTIVE) when `loaded`.
    pub fn new(config: BrokerConfig, loaded: bool) -> Coordinator {
        let cluster = Cluster::new(1, config.offsets_topic_num_partitions, 1);
        let mut c = Coordinator {
            broker: Broker::new(0),
            cluster,
            config,
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(1),
            now: 0,
            next_correlation: 0,
            answers: BTreeMap::new(),
            timers: BTreeMap::new(),
            records: Vec::new(),
            notes: Vec::new(),
        };
        let partition = c.cluster.offsets_partition_for(GROUP);
        c.run(|b, ctx, out| b.coordinator.become_leader(ctx, partition, out));
        if loaded {
            c.fire(BrokerTimer::Load { partition });
        }
        c
    }

    /// A failover onto the same broker: the context closes, is loaded again
    /// and replays the partition's log.
    pub fn reload(&mut self) {
        let partition = self.cluster.offsets_partition_for(GROUP);
        self.run(|b, ctx, out| b.coordinator.resign_leader(ctx, partition, out));
        self.run(|b, ctx, out| b.coordinator.become_leader(ctx, partition, out));
        self.fire(BrokerTimer::Load { partition });
    }

    /// The demo's broker configuration.
    pub fn demo(loaded: bool) -> Coordinator {
        Coordinator::new(Scenario::demo().broker, loaded)
    }

    fn run(&mut self, f: impl FnOnce(&mut Broker, &mut Ctx, &mut Out)) {
        let mut out = Out::default();
        let mut ctx = Ctx {
            now: self.now,
            me: NodeId::Broker(0),
            rng: &mut self.rng,
            cluster: &self.cluster,
            broker_config: &self.config,
        };
        f(&mut self.broker, &mut ctx, &mut out);
        for (_, body) in out.sends {
            if let Body::Response { correlation, response } = body {
                self.answers.insert(correlation, response);
            }
        }
        for op in out.timers {
            match op {
                TimerOp::Set(key, at) => self.timers.insert(key, at),
                TimerOp::Cancel(key) => self.timers.remove(&key),
            };
        }
        for (partition, record) in out.records {
            self.cluster.offsets_logs[partition as usize].push(self.now, record.clone(), false);
            self.records.push((partition, record));
        }
        for w in out.share_state {
            self.cluster.share_state.entry(w.group_id).or_default().insert(w.partition, w.state);
        }
        self.notes.extend(out.events.into_iter().filter_map(|e| match e {
            EventKind::Note { note, .. } => Some(note),
            _ => None,
        }));
    }

    pub fn fire(&mut self, key: impl Into<TimerKey>) {
        let key = key.into();
        self.timers.remove(&key);
        self.run(|b, ctx, out| b.handle_timer(ctx, &key, out).expect("a broker takes its own and its groups' timers"));
    }

    /// Sends `request` from client `client`; returns its correlation.
    pub fn send(&mut self, client: u32, request: Request) -> u64 {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        self.run(|b, ctx, out| b.handle_request(ctx, NodeId::Client(client), correlation, request, out));
        correlation
    }

    /// Moves the clock to `until`, firing every timer due by then in time order.
    pub fn advance_to(&mut self, until: u64) {
        while let Some((key, at)) =
            self.timers.iter().filter(|(_, at)| **at <= until).min_by_key(|(_, at)| **at).map(|(k, a)| (k.clone(), *a))
        {
            self.now = at;
            self.fire(key);
        }
        self.now = until;
    }

    pub fn answer(&self, correlation: u64) -> Option<&Response> {
        self.answers.get(&correlation)
    }

    /// The JoinGroup answer to `correlation` (panics if there is none yet).
    pub fn join_answer(&self, correlation: u64) -> JoinGroupResponse {
        match self.answer(correlation) {
            Some(Response::JoinGroup(r)) => r.clone(),
            other => panic!("no JoinGroup answer to {correlation}: {other:?}"),
        }
    }

    pub fn error_of(&self, correlation: u64) -> Option<Errors> {
        self.answer(correlation).map(Response::error)
    }

    pub fn group(&self) -> Option<&ClassicGroup> {
        let partition = self.cluster.offsets_partition_for(GROUP);
        self.broker.coordinator.shards.get(&partition)?.classic(GROUP)
    }

    /// A dynamic member: JoinGroup without an id (MEMBER_ID_REQUIRED), then with
    /// the id it was given; returns that id and the second JoinGroup's correlation.
    pub fn join_dynamic(&mut self, client: u32) -> (String, u64) {
        let first = self.send(client, Request::JoinGroup(join_request(client, "", None)));
        let id = self.join_answer(first).member_id;
        assert_eq!(self.error_of(first), Some(Errors::MEMBER_ID_REQUIRED));
        let second = self.send(client, Request::JoinGroup(join_request(client, &id, None)));
        (id, second)
    }

    /// Moves the clock to `until` while the given members (client, member id,
    /// instance id) send a Heartbeat at `generation` every 3 s, as live members do.
    pub fn advance_heartbeating(&mut self, until: u64, members: &[(u32, String, Option<String>)], generation: i32) {
        while self.now + 3_000 < until {
            self.advance_to(self.now + 3_000);
            for (client, member_id, instance) in members {
                let request = Request::Heartbeat {
                    group_id: GROUP.into(),
                    generation_id: generation,
                    member_id: member_id.clone(),
                    group_instance_id: instance.clone(),
                };
                self.send(*client, request);
            }
        }
        self.advance_to(until);
    }

    /// SyncGroup of `member_id` at `generation`; the leader passes the assignment.
    pub fn sync(&mut self, client: u32, member_id: &str, instance: Option<&str>, generation: i32) -> u64 {
        let request = SyncGroupRequest {
            group_id: GROUP.into(),
            generation_id: generation,
            member_id: member_id.into(),
            group_instance_id: instance.map(str::to_string),
            protocol_name: Some("range".into()),
            assignments: Vec::new(),
            connect_assignments: Vec::new(),
            streams_assignments: Vec::new(),
        };
        self.send(client, Request::SyncGroup(request))
    }
}

/// A consumer's JoinGroup for the demo group with the range assignor.
pub fn join_request(client: u32, member_id: &str, instance: Option<&str>) -> JoinGroupRequest {
    let metadata = ProtocolMetadata {
        topics: vec!["orders".into()],
        owned_partitions: Vec::new(),
        generation_id: -1,
        rack_id: None,
        connect: None,
        streams: None,
    };
    JoinGroupRequest {
        group_id: GROUP.into(),
        session_timeout_ms: SESSION_MS,
        rebalance_timeout_ms: REBALANCE_MS,
        member_id: member_id.into(),
        group_instance_id: instance.map(str::to_string),
        protocol_type: "consumer".into(),
        protocols: vec![JoinProtocol { name: "range".into(), metadata }],
        client_id: format!("consumer-{GROUP}-{client}"),
    }
}
