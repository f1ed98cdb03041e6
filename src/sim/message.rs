//! The Kafka APIs the simulated nodes exchange, with the fields that matter to
//! group coordination (names follow `clients/src/main/resources/common/message`).

use crate::assign::TopicPartition;
use crate::connect::{ConnectAssignment, ConnectProtocolMetadata};
use crate::sim::share_message::{
    ShareAcknowledgeRequest, ShareAcknowledgeResponse, ShareFetchRequest, ShareFetchResponse,
    ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse,
};
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// `ConsumerProtocolSubscription` (the bytes inside a JoinGroup protocol entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolMetadata {
    pub topics: Vec<String>,
    pub owned_partitions: Vec<TopicPartition>,
    pub generation_id: i32,
    pub rack_id: Option<String>,
    /// Protocol type "connect": the worker's `ExtendedWorkerState` instead of a
    /// subscription (the coordinator stores and returns it unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect: Option<ConnectProtocolMetadata>,
    /// Classic Kafka Streams rebalancing: the stream thread's `SubscriptionInfo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams: Option<crate::sim::streams_message::StreamsSubscriptionInfo>,
}

/// One `Protocols[]` entry of a JoinGroup request: an assignor name and its metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinProtocol {
    pub name: String,
    pub metadata: ProtocolMetadata,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupRequest {
    pub group_id: String,
    pub session_timeout_ms: Millis,
    pub rebalance_timeout_ms: Millis,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub protocol_type: String,
    pub protocols: Vec<JoinProtocol>,
    pub client_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupResponseMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub metadata: ProtocolMetadata,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupResponse {
    pub error: Errors,
    pub generation_id: i32,
    pub protocol_name: Option<String>,
    pub leader: String,
    pub skip_assignment: bool,
    pub member_id: String,
    /// Filled only for the leader.
    pub members: Vec<JoinGroupResponseMember>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncGroupRequest {
    pub group_id: String,
    pub generation_id: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub protocol_name: Option<String>,
    /// Only the leader sends a non-empty list.
    pub assignments: Vec<(String, Vec<TopicPartition>)>,
    /// Protocol type "connect": the leader's Connect assignment per member.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connect_assignments: Vec<(String, ConnectAssignment)>,
    /// Classic Kafka Streams rebalancing: the leader's `AssignmentInfo` per thread.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams_assignments: Vec<(String, crate::sim::streams_message::StreamsAssignmentInfo)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberIdentity {
    pub member_id: String,
    pub group_instance_id: Option<String>,
}

/// `ConsumerGroupHeartbeatRequest` (apiKey 68). `None` means "unchanged"
/// (Kafka's null / −1 sentinels). Topic ids are replaced by topic names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatRequest {
    pub group_id: String,
    /// Empty on the first join: the coordinator generates one.
    pub member_id: String,
    /// 0 = join or rejoin, −1 = leave, −2 = static member leaving temporarily.
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    /// −1 = unchanged.
    pub rebalance_timeout_ms: i32,
    pub subscribed_topic_names: Option<Vec<String>>,
    pub server_assignor: Option<String>,
    /// The partitions the member owns; `None` = unchanged since the last heartbeat.
    pub topic_partitions: Option<Vec<TopicPartition>>,
}

/// `ConsumerGroupHeartbeatResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatResponse {
    pub error: Errors,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    /// `None` when unchanged (ConsumerHeartbeatRequestManager's `HeartbeatState`: sent after a full request or a change).
    pub assignment: Option<Vec<TopicPartition>>,
}

/// Member epoch of a leave heartbeat (`LEAVE_GROUP_MEMBER_EPOCH`).
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
/// Member epoch of a static member's temporary leave (`LEAVE_GROUP_STATIC_MEMBER_EPOCH`).
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

/// One partition of a `FetchRequest`: where to read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchPartition {
    pub partition: TopicPartition,
    pub fetch_offset: i64,
}

/// One partition of a `FetchResponse`: its error, the records `[from, to)` it
/// carries (none on an error), and, with NOT_LEADER_OR_FOLLOWER, the leader the
/// broker's metadata names (`CurrentLeader`, KIP-951).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchedPartition {
    pub partition: TopicPartition,
    pub error: Errors,
    pub from: i64,
    pub to: i64,
    pub current_leader: Option<u32>,
}

impl FetchedPartition {
    pub fn records(&self) -> i64 {
        (self.to - self.from).max(0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    FindCoordinator { key: String },
    JoinGroup(JoinGroupRequest),
    SyncGroup(SyncGroupRequest),
    Heartbeat { group_id: String, generation_id: i32, member_id: String, group_instance_id: Option<String> },
    LeaveGroup { group_id: String, members: Vec<MemberIdentity> },
    OffsetCommit(OffsetCommitRequest),
    OffsetFetch { group_id: String, partitions: Vec<TopicPartition> },
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest),
    Fetch(FetchRequest),
    ShareGroupHeartbeat(ShareGroupHeartbeatRequest),
    ShareFetch(ShareFetchRequest),
    ShareAcknowledge(ShareAcknowledgeRequest),
    StreamsGroupHeartbeat(Box<crate::sim::streams_message::StreamsGroupHeartbeatRequest>),
}

/// `OffsetCommitRequest` (apiKey 8): a classic member's generation or a
/// KIP-848 member's epoch in `generation_id` (Kafka's `GenerationIdOrMemberEpoch`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitRequest {
    pub group_id: String,
    pub generation_id: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub offsets: Vec<(TopicPartition, i64)>,
}

/// `FetchRequest` (apiKey 1) from a consumer (replica id −1) to the leader of its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchRequest {
    pub max_wait_ms: Millis,
    pub partitions: Vec<FetchPartition>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    /// FindCoordinatorResponse: Key, NodeId, Host, Port, ErrorCode, ErrorMessage (no partition).
    FindCoordinator {
        error: Errors,
        node_id: Option<u32>,
    },
    JoinGroup(JoinGroupResponse),
    SyncGroup {
        error: Errors,
        assignment: Vec<TopicPartition>,
        /// Protocol type "connect": this member's Connect assignment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connect_assignment: Option<ConnectAssignment>,
        /// Classic Kafka Streams rebalancing: this thread's `AssignmentInfo`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        streams_assignment: Option<Box<crate::sim::streams_message::StreamsAssignmentInfo>>,
    },
    Heartbeat {
        error: Errors,
    },
    LeaveGroup {
        error: Errors,
    },
    OffsetCommit {
        error: Errors,
        offsets: Vec<(TopicPartition, i64)>,
    },
    /// Offset −1 means "no committed offset".
    OffsetFetch {
        error: Errors,
        offsets: Vec<(TopicPartition, i64)>,
    },
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse),
    Fetch {
        error: Errors,
        partitions: Vec<FetchedPartition>,
    },
    ShareGroupHeartbeat(ShareGroupHeartbeatResponse),
    ShareFetch(ShareFetchResponse),
    ShareAcknowledge(ShareAcknowledgeResponse),
    StreamsGroupHeartbeat(crate::sim::streams_message::StreamsGroupHeartbeatResponse),
}

/// What travels on a link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    Request {
        correlation: u64,
        request: Request,
    },
    Response {
        correlation: u64,
        response: Response,
    },
    /// The connection failed (the peer is down): the network tells the sender.
    Disconnected {
        correlation: u64,
    },
}

/// The APIs the simulated nodes exchange, named as Kafka's
/// `org.apache.kafka.common.protocol.ApiKeys` names them (FIND_COORDINATOR,
/// JOIN_GROUP, ...). What a client keeps of a request in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ApiKey {
    FindCoordinator,
    JoinGroup,
    SyncGroup,
    Heartbeat,
    LeaveGroup,
    OffsetCommit,
    OffsetFetch,
    ConsumerGroupHeartbeat,
    Fetch,
    ShareGroupHeartbeat,
    StreamsGroupHeartbeat,
    ShareFetch,
    ShareAcknowledge,
}

impl ApiKey {
    /// The message name (`ApiKeys.name`, as in `FindCoordinatorRequest.json`).
    pub fn name(self) -> &'static str {
        match self {
            ApiKey::FindCoordinator => "FindCoordinator",
            ApiKey::JoinGroup => "JoinGroup",
            ApiKey::SyncGroup => "SyncGroup",
            ApiKey::Heartbeat => "Heartbeat",
            ApiKey::LeaveGroup => "LeaveGroup",
            ApiKey::OffsetCommit => "OffsetCommit",
            ApiKey::OffsetFetch => "OffsetFetch",
            ApiKey::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
            ApiKey::Fetch => "Fetch",
            ApiKey::ShareGroupHeartbeat => "ShareGroupHeartbeat",
            ApiKey::StreamsGroupHeartbeat => "StreamsGroupHeartbeat",
            ApiKey::ShareFetch => "ShareFetch",
            ApiKey::ShareAcknowledge => "ShareAcknowledge",
        }
    }

    /// JoinGroup or SyncGroup: the two requests of AbstractCoordinator's join future.
    pub fn is_join_or_sync(self) -> bool {
        matches!(self, ApiKey::JoinGroup | ApiKey::SyncGroup)
    }
}

impl std::fmt::Display for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Request {
    pub fn api_key(&self) -> ApiKey {
        match self {
            Request::FindCoordinator { .. } => ApiKey::FindCoordinator,
            Request::JoinGroup(_) => ApiKey::JoinGroup,
            Request::SyncGroup(_) => ApiKey::SyncGroup,
            Request::Heartbeat { .. } => ApiKey::Heartbeat,
            Request::LeaveGroup { .. } => ApiKey::LeaveGroup,
            Request::OffsetCommit(_) => ApiKey::OffsetCommit,
            Request::OffsetFetch { .. } => ApiKey::OffsetFetch,
            Request::ConsumerGroupHeartbeat(_) => ApiKey::ConsumerGroupHeartbeat,
            Request::Fetch(_) => ApiKey::Fetch,
            Request::ShareGroupHeartbeat(_) => ApiKey::ShareGroupHeartbeat,
            Request::StreamsGroupHeartbeat(_) => ApiKey::StreamsGroupHeartbeat,
            Request::ShareFetch(_) => ApiKey::ShareFetch,
            Request::ShareAcknowledge(_) => ApiKey::ShareAcknowledge,
        }
    }

    pub fn api(&self) -> &'static str {
        self.api_key().name()
    }
}

impl Response {
    pub fn api_key(&self) -> ApiKey {
        match self {
            Response::FindCoordinator { .. } => ApiKey::FindCoordinator,
            Response::JoinGroup(_) => ApiKey::JoinGroup,
            Response::SyncGroup { .. } => ApiKey::SyncGroup,
            Response::Heartbeat { .. } => ApiKey::Heartbeat,
            Response::LeaveGroup { .. } => ApiKey::LeaveGroup,
            Response::OffsetCommit { .. } => ApiKey::OffsetCommit,
            Response::OffsetFetch { .. } => ApiKey::OffsetFetch,
            Response::ConsumerGroupHeartbeat(_) => ApiKey::ConsumerGroupHeartbeat,
            Response::Fetch { .. } => ApiKey::Fetch,
            Response::ShareGroupHeartbeat(_) => ApiKey::ShareGroupHeartbeat,
            Response::StreamsGroupHeartbeat(_) => ApiKey::StreamsGroupHeartbeat,
            Response::ShareFetch(_) => ApiKey::ShareFetch,
            Response::ShareAcknowledge(_) => ApiKey::ShareAcknowledge,
        }
    }

    pub fn api(&self) -> &'static str {
        self.api_key().name()
    }

    pub fn error(&self) -> Errors {
        match self {
            Response::FindCoordinator { error, .. }
            | Response::SyncGroup { error, .. }
            | Response::Heartbeat { error }
            | Response::LeaveGroup { error }
            | Response::OffsetCommit { error, .. }
            | Response::OffsetFetch { error, .. }
            | Response::Fetch { error, .. } => *error,
            Response::JoinGroup(r) => r.error,
            Response::ConsumerGroupHeartbeat(r) => r.error,
            Response::ShareGroupHeartbeat(r) => r.error,
            Response::StreamsGroupHeartbeat(r) => r.error,
            Response::ShareFetch(r) => r.error,
            Response::ShareAcknowledge(r) => r.error,
        }
    }
}

/// `[orders-1, orders-4]`, written into one string.
pub(crate) fn partition_list(ps: &[TopicPartition]) -> String {
    let mut s = String::with_capacity(2 + 12 * ps.len());
    s.push('[');
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{p}");
    }
    s.push(']');
    s
}

impl Body {
    pub fn api(&self) -> &'static str {
        match self {
            Body::Request { request, .. } => request.api(),
            Body::Response { response, .. } => response.api(),
            Body::Disconnected { .. } => "Disconnect",
        }
    }

    pub fn is_request(&self) -> bool {
        matches!(self, Body::Request { .. })
    }
}

/// The readable tail of a member id: `consumer-demo-1-3f2a…` → `3f2a`.
pub fn short_member(member_id: &str) -> String {
    match member_id.rsplit_once('-') {
        Some((_, tail)) if tail.len() > 4 => tail[..4].to_string(),
        _ => member_id.to_string(),
    }
}

/// A message in flight, as the world routes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub sent_at: Millis,
    pub deliver_at: Millis,
    pub body: Body,
    /// `body.label()`, formatted when sent.
    pub label: crate::sim::label::Label,
}
