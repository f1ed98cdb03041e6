//! Identifiers, simulated time and Kafka's error codes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Simulated time in integer milliseconds. Nothing in the core reads a wall clock.
pub type Millis = u64;

/// Index of an event in the trace; used for causal ("why") links.
pub type EventId = usize;

/// A node of the simulated world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NodeId {
    /// A Kafka broker, by `node.id` (0-based, as Kafka numbers them).
    Broker(u32),
    /// A consumer process, numbered from 1 (shown as c1, c2, ...).
    Client(u32),
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeId::Broker(b) => write!(f, "broker-{b}"),
            NodeId::Client(c) => write!(f, "c{c}"),
        }
    }
}

/// Kafka's `Errors` (name = numeric code), the subset the group protocols use.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Errors {
    NONE,
    UNKNOWN_TOPIC_OR_PARTITION,
    REQUEST_TIMED_OUT,
    OFFSET_METADATA_TOO_LARGE,
    COORDINATOR_LOAD_IN_PROGRESS,
    COORDINATOR_NOT_AVAILABLE,
    NOT_COORDINATOR,
    ILLEGAL_GENERATION,
    INCONSISTENT_GROUP_PROTOCOL,
    INVALID_GROUP_ID,
    UNKNOWN_MEMBER_ID,
    INVALID_SESSION_TIMEOUT,
    REBALANCE_IN_PROGRESS,
    GROUP_AUTHORIZATION_FAILED,
    UNSUPPORTED_VERSION,
    MEMBER_ID_REQUIRED,
    GROUP_MAX_SIZE_REACHED,
    FENCED_INSTANCE_ID,
    GROUP_ID_NOT_FOUND,
    UNKNOWN_SERVER_ERROR,
    INVALID_REQUEST,
    FENCED_MEMBER_EPOCH,
    UNRELEASED_INSTANCE_ID,
    UNSUPPORTED_ASSIGNOR,
    STALE_MEMBER_EPOCH,
    NOT_LEADER_OR_FOLLOWER,
    /// A share-group acknowledgement of a record the member does not hold
    /// (`SharePartition.acknowledge`, KIP-932).
    INVALID_RECORD_STATE,
    /// A share session the broker does not know (`ShareSessionCache`).
    SHARE_SESSION_NOT_FOUND,
    /// A share session epoch out of sequence.
    INVALID_SHARE_SESSION_EPOCH,
}

impl Errors {
    /// The numeric code of `org.apache.kafka.common.protocol.Errors`.
    pub fn code(self) -> i16 {
        use Errors::*;
        match self {
            NONE => 0,
            UNKNOWN_TOPIC_OR_PARTITION => 3,
            REQUEST_TIMED_OUT => 7,
            OFFSET_METADATA_TOO_LARGE => 12,
            COORDINATOR_LOAD_IN_PROGRESS => 14,
            COORDINATOR_NOT_AVAILABLE => 15,
            NOT_COORDINATOR => 16,
            ILLEGAL_GENERATION => 22,
            INCONSISTENT_GROUP_PROTOCOL => 23,
            INVALID_GROUP_ID => 24,
            UNKNOWN_MEMBER_ID => 25,
            INVALID_SESSION_TIMEOUT => 26,
            REBALANCE_IN_PROGRESS => 27,
            GROUP_AUTHORIZATION_FAILED => 30,
            UNSUPPORTED_VERSION => 35,
            GROUP_ID_NOT_FOUND => 69,
            MEMBER_ID_REQUIRED => 79,
            GROUP_MAX_SIZE_REACHED => 81,
            FENCED_INSTANCE_ID => 82,
            UNKNOWN_SERVER_ERROR => -1,
            INVALID_REQUEST => 42,
            FENCED_MEMBER_EPOCH => 110,
            UNRELEASED_INSTANCE_ID => 111,
            UNSUPPORTED_ASSIGNOR => 112,
            STALE_MEMBER_EPOCH => 113,
            NOT_LEADER_OR_FOLLOWER => 6,
            INVALID_RECORD_STATE => 121,
            SHARE_SESSION_NOT_FOUND => 122,
            INVALID_SHARE_SESSION_EPOCH => 123,
        }
    }

    /// Errors the classic client cannot recover from: AbstractCoordinator and
    /// ConsumerCoordinator raise them to the application.
    pub fn is_fatal_for_classic_client(self) -> bool {
        use Errors::*;
        matches!(
            self,
            INCONSISTENT_GROUP_PROTOCOL
                | INVALID_GROUP_ID
                | INVALID_SESSION_TIMEOUT
                | GROUP_AUTHORIZATION_FAILED
                | UNSUPPORTED_VERSION
                | GROUP_MAX_SIZE_REACHED
                | FENCED_INSTANCE_ID
        )
    }
}

impl Errors {
    /// Heartbeat errors the consumer-protocol client raises to the application
    /// (`AbstractHeartbeatRequestManager.onErrorResponse`): everything
    /// except the coordinator errors and the two that fence the member.
    pub fn is_fatal_for_consumer_protocol_client(self) -> bool {
        use Errors::*;
        !matches!(
            self,
            NONE | NOT_COORDINATOR
                | COORDINATOR_NOT_AVAILABLE
                | COORDINATOR_LOAD_IN_PROGRESS
                | FENCED_MEMBER_EPOCH
                | UNKNOWN_MEMBER_ID
        )
    }
}

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
