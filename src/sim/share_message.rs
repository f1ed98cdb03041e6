//! The share-group APIs (KIP-932), with the fields that matter to the
//! simulation (names follow `clients/src/main/resources/common/message`:
//! `ShareGroupHeartbeatRequest.json`, `ShareFetchRequest.json`,
//! `ShareAcknowledgeRequest.json`). Topic ids are replaced by topic names.

use crate::assign::TopicPartition;
use crate::sim::types::{Errors, Millis};
use serde::{Deserialize, Serialize};

/// `ShareGroupHeartbeatRequest` (apiKey 76, v1). No instance id (no static
/// membership), no rebalance timeout, no owned partitions, no assignor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareGroupHeartbeatRequest {
    pub group_id: String,
    /// Client-generated (`ShareMembershipManager`), kept for the process lifetime.
    pub member_id: String,
    /// 0 = join or rejoin, −1 = leave.
    pub member_epoch: i32,
    /// Sent only in the first request (`ShareHeartbeatRequestManager.buildRequestData`).
    pub rack_id: Option<String>,
    /// `None` = unchanged; sent when joining or when the subscription changed.
    pub subscribed_topic_names: Option<Vec<String>>,
}

/// `ShareGroupHeartbeatResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareGroupHeartbeatResponse {
    pub error: Errors,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    /// `None` when unchanged (`GroupMetadataManager.shareGroupHeartbeat`: sent on
    /// a join, a full request or a changed assignment).
    pub assignment: Option<Vec<TopicPartition>>,
}

/// `AcknowledgeType` of a ShareFetch or ShareAcknowledge batch (0 Gap is
/// the broker's own and not sent by the simulated clients).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AcknowledgeType {
    /// 1: processed; the record becomes ACKNOWLEDGED.
    Accept,
    /// 2: give it back; AVAILABLE again (ARCHIVED at the delivery limit).
    Release,
    /// 3: unprocessable; ARCHIVED, never delivered again.
    Reject,
    /// 4 (KIP-1222, 4.2): keep it ACQUIRED and restart the acquisition lock.
    Renew,
}

impl AcknowledgeType {
    /// As `AcknowledgeType.toString()` prints it.
    pub fn name(self) -> &'static str {
        match self {
            AcknowledgeType::Accept => "ACCEPT",
            AcknowledgeType::Release => "RELEASE",
            AcknowledgeType::Reject => "REJECT",
            AcknowledgeType::Renew => "RENEW",
        }
    }
}

/// One `AcknowledgementBatches[]` entry: offsets `first..=last`, one type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcknowledgementBatch {
    pub first_offset: i64,
    pub last_offset: i64,
    pub ack_type: AcknowledgeType,
}

/// One partition of a ShareFetch or ShareAcknowledge, with the
/// acknowledgements it carries (a ShareFetch piggybacks them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePartitionAcks {
    pub partition: TopicPartition,
    pub acknowledgements: Vec<AcknowledgementBatch>,
}

/// `ShareFetchRequest` (apiKey 78) to the leader of its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareFetchRequest {
    pub group_id: String,
    pub member_id: String,
    /// 0 opens a share session, −1 closes it, otherwise one more than the last.
    pub share_session_epoch: i32,
    pub max_wait_ms: Millis,
    /// `MaxRecords` (the consumer's `max.poll.records`).
    pub max_records: i64,
    pub partitions: Vec<SharePartitionAcks>,
}

/// `AcquiredRecords[]`: offsets `first..=last`, all at one delivery count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcquiredRecords {
    pub first_offset: i64,
    pub last_offset: i64,
    pub delivery_count: i32,
}

impl AcquiredRecords {
    pub fn count(&self) -> i64 {
        self.last_offset - self.first_offset + 1
    }
}

/// One partition of a ShareFetch response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareFetchedPartition {
    pub partition: TopicPartition,
    pub error: Errors,
    /// The outcome of the acknowledgements this partition carried.
    pub acknowledge_error: Errors,
    pub acquired: Vec<AcquiredRecords>,
    /// With NOT_LEADER_OR_FOLLOWER: the leader the broker's metadata names.
    pub current_leader: Option<u32>,
}

impl ShareFetchedPartition {
    pub fn records(&self) -> i64 {
        self.acquired.iter().map(AcquiredRecords::count).sum()
    }
}

/// `ShareFetchResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareFetchResponse {
    pub error: Errors,
    /// `AcquisitionLockTimeoutMs`: how long the acquired records stay locked.
    pub acquisition_lock_timeout_ms: Millis,
    pub partitions: Vec<ShareFetchedPartition>,
}

/// `ShareAcknowledgeRequest` (apiKey 79): acknowledgements only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareAcknowledgeRequest {
    pub group_id: String,
    pub member_id: String,
    pub share_session_epoch: i32,
    pub partitions: Vec<SharePartitionAcks>,
}

/// `ShareAcknowledgeResponse`: each partition's acknowledgement error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareAcknowledgeResponse {
    pub error: Errors,
    pub partitions: Vec<(TopicPartition, Errors)>,
}

/// `ShareRequestMetadata.INITIAL_EPOCH`: opens a share session.
pub const SHARE_SESSION_INITIAL_EPOCH: i32 = 0;
/// `ShareRequestMetadata.FINAL_EPOCH`: closes it.
pub const SHARE_SESSION_FINAL_EPOCH: i32 = -1;
