//! Effects a node handler returns: messages to send, timers to set or cancel,
//! and trace events. Handlers never touch the network or the clock themselves.

use crate::sim::cluster::CoordinatorRecord;
use crate::sim::message::{Body, Response};
use crate::sim::trace::EventKind;
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};

/// Every timer a node can set, by the role that sets it: a broker, a group
/// coordinator's group, a client, a Connect worker. One key per purpose:
/// setting a key again replaces it. A node takes only its role's timers
/// (`sim::node::Node::on_timer`), so no handler needs a catch-all.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TimerKey {
    Broker(BrokerTimer),
    Group(GroupTimer),
    Client(ClientTimer),
    Connect(ConnectTimer),
}

/// A broker's own timers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BrokerTimer {
    /// Loading a `__consumer_offsets` partition after becoming its leader.
    Load { partition: u32 },
    /// A consumer's Fetch held by the partition leader (`DelayedFetch`): answered
    /// at the next append or after `fetch.max.wait.ms`.
    FetchWait { client: NodeId, correlation: u64 },
    /// The earliest acquisition lock of a share-partition expires
    /// (`SharePartition.scheduleAcquisitionLockTimeout`).
    ShareLock { group_id: String, partition: crate::assign::TopicPartition },
    /// A ShareFetch held until records can be acquired (`DelayedShareFetch`).
    ShareFetchWait { client: NodeId, correlation: u64 },
}

/// The group coordinator's timers of one group, Kafka's timer names in comments.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GroupTimer {
    /// `heartbeat-<group>-<member>`: session expiry of one member.
    MemberHeartbeat { group_id: String, member_id: String },
    /// `join-<group>`: initial-rebalance delay or rebalance timeout of the join phase.
    Join { group_id: String },
    /// `sync-<group>`: pending-sync expiry.
    Sync { group_id: String },
    /// A consumer-group member's session timeout (`group.consumer.session.timeout.ms`).
    ConsumerGroupSessionTimeout { group_id: String, member_id: String },
    /// A consumer-group member's rebalance timeout while it revokes partitions.
    ConsumerGroupRebalanceTimeout { group_id: String, member_id: String },
    /// A share-group member's session timeout (`group.share.session.timeout.ms`).
    ShareGroupSessionTimeout { group_id: String, member_id: String },
    /// The share coordinator answers InitializeShareGroupState (`persisterInitialize`).
    ShareGroupStateInitialize { group_id: String },
    /// A streams-group member's session timeout (`group.streams.session.timeout.ms`).
    StreamsGroupSessionTimeout { group_id: String, member_id: String },
    /// A streams-group member's rebalance timeout while it revokes tasks.
    StreamsGroupRebalanceTimeout { group_id: String, member_id: String },
    /// The initial rebalance delay of a streams group (`streamsInitialRebalanceKey`).
    StreamsGroupInitialRebalance { group_id: String },
}

impl GroupTimer {
    /// The group the timer belongs to.
    pub fn group_id(&self) -> &str {
        match self {
            GroupTimer::MemberHeartbeat { group_id, .. }
            | GroupTimer::Join { group_id }
            | GroupTimer::Sync { group_id }
            | GroupTimer::ConsumerGroupSessionTimeout { group_id, .. }
            | GroupTimer::ConsumerGroupRebalanceTimeout { group_id, .. }
            | GroupTimer::ShareGroupSessionTimeout { group_id, .. }
            | GroupTimer::ShareGroupStateInitialize { group_id }
            | GroupTimer::StreamsGroupSessionTimeout { group_id, .. }
            | GroupTimer::StreamsGroupRebalanceTimeout { group_id, .. }
            | GroupTimer::StreamsGroupInitialRebalance { group_id } => group_id,
        }
    }
}

/// A client's timers (a consumer of either protocol, or a Connect worker's
/// membership, which shares AbstractCoordinator's).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ClientTimer {
    /// The application thread calls `poll()`.
    Poll,
    /// `max.poll.interval.ms` since the last `poll()`.
    PollTimeout,
    /// The heartbeat thread wakes up (`heartbeat.interval.ms`).
    Heartbeat,
    /// A retry backoff (`retry.backoff.ms`), one key per purpose: arming one
    /// never moves or cancels another.
    Backoff(Retry),
    /// `request.timeout.ms` of one in-flight request.
    RequestTimeout { correlation: u64 },
}

/// A Connect worker's own timers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ConnectTimer {
    /// The herder's `scheduledRebalance`: the assignment's delay has elapsed.
    ScheduledRebalance,
    /// WorkerCoordinator's coordinator discovery timeout (heartbeat.interval.ms).
    CoordinatorDiscovery,
}

impl From<BrokerTimer> for TimerKey {
    fn from(t: BrokerTimer) -> TimerKey {
        TimerKey::Broker(t)
    }
}

impl From<GroupTimer> for TimerKey {
    fn from(t: GroupTimer) -> TimerKey {
        TimerKey::Group(t)
    }
}

impl From<ClientTimer> for TimerKey {
    fn from(t: ClientTimer) -> TimerKey {
        TimerKey::Client(t)
    }
}

impl From<ConnectTimer> for TimerKey {
    fn from(t: ConnectTimer) -> TimerKey {
        TimerKey::Connect(t)
    }
}

impl TimerKey {
    pub fn describe(&self) -> String {
        match self {
            TimerKey::Broker(BrokerTimer::Load { partition }) => format!("load of __consumer_offsets-{partition}"),
            TimerKey::Broker(BrokerTimer::FetchWait { .. }) => "fetch.max.wait.ms".into(),
            TimerKey::Broker(BrokerTimer::ShareLock { partition, .. }) => {
                format!("acquisition lock of {partition} (share.record.lock.duration.ms)")
            }
            TimerKey::Broker(BrokerTimer::ShareFetchWait { .. }) => "ShareFetch wait".into(),
            TimerKey::Group(GroupTimer::MemberHeartbeat { member_id, .. }) => format!("session timeout of {member_id}"),
            TimerKey::Group(GroupTimer::Join { group_id }) => format!("join phase deadline of {group_id}"),
            TimerKey::Group(GroupTimer::Sync { group_id }) => format!("pending-sync deadline of {group_id}"),
            TimerKey::Group(GroupTimer::ConsumerGroupSessionTimeout { member_id, .. }) => {
                format!("session timeout of {member_id}")
            }
            TimerKey::Group(GroupTimer::ConsumerGroupRebalanceTimeout { member_id, .. }) => {
                format!("rebalance timeout of {member_id}")
            }
            TimerKey::Group(GroupTimer::ShareGroupSessionTimeout { member_id, .. }) => {
                format!("share session timeout of {member_id}")
            }
            TimerKey::Group(GroupTimer::ShareGroupStateInitialize { group_id }) => {
                format!("InitializeShareGroupState of {group_id}")
            }
            TimerKey::Group(GroupTimer::StreamsGroupSessionTimeout { member_id, .. }) => {
                format!("streams session timeout of {member_id}")
            }
            TimerKey::Group(GroupTimer::StreamsGroupRebalanceTimeout { member_id, .. }) => {
                format!("streams rebalance timeout of {member_id}")
            }
            TimerKey::Group(GroupTimer::StreamsGroupInitialRebalance { group_id }) => {
                format!("streams.initial.rebalance.delay.ms of {group_id}")
            }
            TimerKey::Client(ClientTimer::Poll) => "poll()".into(),
            TimerKey::Client(ClientTimer::PollTimeout) => "max.poll.interval.ms".into(),
            TimerKey::Client(ClientTimer::Heartbeat) => "heartbeat.interval.ms".into(),
            TimerKey::Client(ClientTimer::Backoff(_)) => "retry.backoff.ms".into(),
            TimerKey::Client(ClientTimer::RequestTimeout { .. }) => "request.timeout.ms".into(),
            TimerKey::Connect(ConnectTimer::ScheduledRebalance) => "scheduled.rebalance.max.delay.ms".into(),
            TimerKey::Connect(ConnectTimer::CoordinatorDiscovery) => "coordinator discovery timeout".into(),
        }
    }
}

/// What a client's retry backoff waits to retry, each named for the Kafka
/// method whose sleep or backoff it models. All wait `retry.backoff.ms`
/// (growing to `retry.backoff.max.ms` where Kafka uses `ExponentialBackoff`);
/// when one fires the client runs its poll loop again (`drive`). A heartbeat
/// retry (`Heartbeat.failHeartbeat`, `HeartbeatRequestState.onFailedAttempt`)
/// is not one of these: it moves the `Heartbeat` timer itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Retry {
    /// Coordinator discovery after a failed FindCoordinator, or while every
    /// broker is in reconnect backoff (`leastLoadedNode` finds none):
    /// AbstractCoordinator `ensureCoordinatorReady`'s
    /// `timer.sleep(retryBackoff.backoff(attempts++))` (classic consumer,
    /// Connect worker); CoordinatorRequestManager's
    /// `coordinatorRequestState.onFailedAttempt` (KIP-848 consumer).
    CoordinatorLookup,
    /// AbstractCoordinator `joinGroupIfNeeded`: after a retriable JoinGroup or
    /// SyncGroup failure, `timer.sleep(rebalanceConfig.retryBackoffMs)` before
    /// the next JoinGroup.
    JoinGroup,
    /// ConsumerCoordinator `onJoinPrepare`: the auto-commit before a rebalance
    /// failed retriably and is sent again (`pollTimer.sleep(...)`) until the
    /// `joinPrepareTimer` expires.
    JoinPrepareCommit,
    /// `commitSync()` retrying a retriable failure: ConsumerCoordinator
    /// `commitOffsetsSync`'s `timer.sleep(retryBackoff.backoff(attempts++))`;
    /// CommitRequestManager `commitSyncWithRetries` (KIP-848 consumer).
    CommitSync,
    /// An OffsetFetch answered COORDINATOR_LOAD_IN_PROGRESS: ConsumerCoordinator
    /// `fetchCommittedOffsets`'s `timer.sleep(retryBackoff.backoff(attempts++))`;
    /// CommitRequestManager's `OffsetFetchRequestState.onFailedAttempt`.
    OffsetFetch,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerOp {
    Set(TimerKey, Millis),
    Cancel(TimerKey),
}

/// The output buffer of one handler call.
#[derive(Debug, Default)]
pub struct Out {
    pub sends: Vec<(NodeId, Body)>,
    pub timers: Vec<TimerOp>,
    pub events: Vec<EventKind>,
    /// Records the handler writes to a `__consumer_offsets` partition
    /// (CoordinatorRuntime's `CoordinatorResult.records`, appended by the runtime
    /// after the handler returns), applied by the world in order.
    pub records: Vec<(u32, CoordinatorRecord)>,
    /// Share-partition states a leader writes to the share coordinator
    /// (WriteShareGroupState), and those the coordinator initializes
    /// (InitializeShareGroupState, start offset −1): applied by the world.
    pub share_state: Vec<crate::sim::cluster::share_state::ShareStateWrite>,
    /// Topics the broker creates (a streams group's missing internal topics,
    /// `AutoTopicCreationManager.createStreamsInternalTopics`), with their
    /// partition counts: applied by the world at once.
    pub create_topics: Vec<(String, i32)>,
}

impl Out {
    /// Answers request `correlation` from `to`.
    pub fn respond(&mut self, to: NodeId, correlation: u64, response: Response) {
        self.send(to, Body::Response { correlation, response });
    }

    pub fn send(&mut self, to: NodeId, body: Body) {
        self.sends.push((to, body));
    }
    pub fn set_timer(&mut self, key: impl Into<TimerKey>, at: Millis) {
        self.timers.push(TimerOp::Set(key.into(), at));
    }
    pub fn cancel_timer(&mut self, key: impl Into<TimerKey>) {
        self.timers.push(TimerOp::Cancel(key.into()));
    }
    pub fn emit(&mut self, e: EventKind) {
        self.events.push(e);
    }
    /// Writes a record to `__consumer_offsets` partition `partition`.
    pub fn append(&mut self, partition: u32, record: CoordinatorRecord) {
        self.records.push((partition, record));
    }
}
