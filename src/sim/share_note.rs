//! The narration notes of share groups (KIP-932): what the share-partition
//! leaders, the coordinator's share-state initialization and the share
//! consumers' applications do, as data (`Note::Share`). English here, Chinese
//! in `crate::narrate_zh`; lessons match on `kind()`.

use crate::assign::TopicPartition;
use crate::sim::cluster::share_partition::RecordState;
use crate::sim::share_message::AcknowledgeType;
use crate::sim::types::Errors;
use std::fmt;

/// Why a share-partition leader released a member's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleaseCause {
    /// The member's connection closed (`ClientConnectionDisconnectListener.onDisconnect`).
    ConnectionClosed,
    /// The member closed its share session (epoch −1, `close()`).
    SessionClosed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareNote {
    /// The coordinator asks the share coordinator to initialize these
    /// share-partitions (`maybeCreateInitializeShareGroupStateRequest`).
    StateInitializing { group_id: String, partitions: Vec<TopicPartition> },
    /// The group's new target assignment waits for the assignment interval
    /// (`GroupMetadataManager.canComputeNextTargetAssignment` with the share
    /// group's `share.assignment.interval.ms`, KIP-1263): the first heartbeat
    /// after `until_ms` computes it.
    TargetAssignmentDeferred { group_id: String, until_ms: crate::sim::Millis },
    /// The share coordinator answered: they can be assigned (`initializeShareGroupState`).
    StateInitialized { group_id: String, partitions: Vec<TopicPartition> },
    /// A partition leader loaded a share-partition from the share coordinator.
    SharePartitionLoaded { partition: TopicPartition, start_offset: i64, end_offset: i64 },
    /// A ShareFetch acquired records for a member (`SharePartition.acquire`).
    RecordsAcquired { partition: TopicPartition, client: String, first: i64, last: i64, delivery_count: i32 },
    /// Acknowledgements applied (`SharePartition.acknowledge`).
    RecordsAcknowledged { partition: TopicPartition, client: String, ack_type: AcknowledgeType, records: i64 },
    /// A member's acknowledgement refused: it no longer holds the records.
    AcknowledgementRefused { partition: TopicPartition, client: String, error: Errors },
    /// The acquisition locks of these records expired (`releaseAcquisitionLockOnTimeout`).
    LocksExpired { partition: TopicPartition, client: String, records: i64, archived: i64 },
    /// A member's records released when its session went away (`releaseAcquiredRecords`).
    RecordsReleased { partition: TopicPartition, client: String, records: i64, archived: i64, cause: ReleaseCause },
    /// A record reached the delivery limit and was archived instead of released.
    RecordArchived { partition: TopicPartition, offset: i64, delivery_count: i32 },
    /// The application could not process a record and acknowledged it this way.
    PoisonRecord { partition: TopicPartition, offset: i64, ack_type: AcknowledgeType },
    /// A share session was opened on a leader (epoch 0).
    SessionOpened { client: String, broker: u32 },
    /// A ShareFetch or ShareAcknowledge named a share session the leader lacks.
    SessionRefused { client: String, broker: u32, error: Errors },
}

impl ShareNote {
    pub fn kind(&self) -> &'static str {
        use ShareNote::*;
        match self {
            StateInitializing { .. } => "StateInitializing",
            TargetAssignmentDeferred { .. } => "ShareTargetAssignmentDeferred",
            StateInitialized { .. } => "StateInitialized",
            SharePartitionLoaded { .. } => "SharePartitionLoaded",
            RecordsAcquired { .. } => "RecordsAcquired",
            RecordsAcknowledged { .. } => "RecordsAcknowledged",
            AcknowledgementRefused { .. } => "AcknowledgementRefused",
            LocksExpired { .. } => "LocksExpired",
            RecordsReleased { .. } => "RecordsReleased",
            RecordArchived { .. } => "RecordArchived",
            PoisonRecord { .. } => "PoisonRecord",
            SessionOpened { .. } => "SessionOpened",
            SessionRefused { .. } => "SessionRefused",
        }
    }

    pub const KINDS: &'static [&'static str] = &[
        "StateInitializing",
        "ShareTargetAssignmentDeferred",
        "StateInitialized",
        "SharePartitionLoaded",
        "RecordsAcquired",
        "RecordsAcknowledged",
        "AcknowledgementRefused",
        "LocksExpired",
        "RecordsReleased",
        "RecordArchived",
        "PoisonRecord",
        "SessionOpened",
        "SessionRefused",
    ];
}

/// `orders-0 offsets 100-149` or `orders-0 offset 7`.
pub fn offsets(first: i64, last: i64) -> String {
    if first == last {
        format!("offset {first}")
    } else {
        format!("offsets {first}-{last}")
    }
}

fn list(ps: &[TopicPartition]) -> String {
    crate::sim::message::partition_list(ps)
}

impl fmt::Display for ShareNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ShareNote::*;
        match self {
            StateInitializing { group_id, partitions } => write!(
                f,
                "share group {group_id}: asking the share coordinator to initialize {} (nothing is assignable until it answers)",
                list(partitions)
            ),
            TargetAssignmentDeferred { group_id, until_ms } => write!(
                f,
                "share group {group_id}: new target assignment deferred until {until_ms} ms (share.assignment.interval.ms), on the first heartbeat after it"
            ),
            StateInitialized { group_id, partitions } => {
                write!(f, "share group {group_id}: {} initialized; the next heartbeat assigns them", list(partitions))
            }
            SharePartitionLoaded { partition, start_offset, end_offset } => write!(
                f,
                "{partition}: share-partition loaded from the share coordinator, start offset {start_offset}, window up to {end_offset}; records acquired before were never written, so they are AVAILABLE again"
            ),
            RecordsAcquired { partition, client, first, last, delivery_count } => write!(
                f,
                "{partition}: {client} acquired {} (delivery {delivery_count}), locked for it",
                offsets(*first, *last)
            ),
            RecordsAcknowledged { partition, client, ack_type, records } => {
                let to = match ack_type {
                    AcknowledgeType::Accept => RecordState::ACKNOWLEDGED.name_str(),
                    AcknowledgeType::Reject => RecordState::ARCHIVED.name_str(),
                    AcknowledgeType::Release => "AVAILABLE (or ARCHIVED at the delivery limit)",
                    AcknowledgeType::Renew => "still ACQUIRED, lock restarted",
                };
                write!(f, "{partition}: {client} sent {} for {records} record(s): {to}", ack_type.name())
            }
            AcknowledgementRefused { partition, client, error } => write!(
                f,
                "{partition}: {client}'s acknowledgement refused with {error}: it no longer holds those records"
            ),
            LocksExpired { partition, client, records, archived } => {
                write!(f, "{partition}: the acquisition lock of {records} record(s) held by {client} expired; ")?;
                if *archived > 0 {
                    write!(f, "{archived} reached the delivery limit and were archived, the rest are AVAILABLE again")
                } else {
                    write!(f, "they are AVAILABLE again for any member")
                }
            }
            RecordsReleased { partition, client, records, archived, cause } => {
                let why = match cause {
                    ReleaseCause::ConnectionClosed => "its connection closed",
                    ReleaseCause::SessionClosed => "it closed its share session",
                };
                write!(f, "{partition}: {why}, so {client}'s {records} acquired record(s) are released at once")?;
                if *archived > 0 {
                    write!(f, " ({archived} archived at the delivery limit)")?;
                }
                write!(f, "; delivery counts are kept")
            }
            RecordArchived { partition, offset, delivery_count } => write!(
                f,
                "{partition}: offset {offset} was delivered {delivery_count} times, the delivery limit: ARCHIVED, never delivered again"
            ),
            PoisonRecord { partition, offset, ack_type } => {
                write!(f, "the application failed on {partition} offset {offset} and acknowledged it {}", ack_type.name())
            }
            SessionOpened { client, broker } => write!(f, "{client} opened a share session on broker-{broker}"),
            SessionRefused { client, broker, error } => {
                write!(f, "broker-{broker} refused {client}'s share session ({error}): it opens a new one")
            }
        }
    }
}

impl RecordState {
    /// The state as Kafka prints it.
    pub fn name_str(self) -> &'static str {
        match self {
            RecordState::AVAILABLE => "AVAILABLE",
            RecordState::ACQUIRED => "ACQUIRED",
            RecordState::ACKNOWLEDGED => "ACKNOWLEDGED",
            RecordState::ARCHIVED => "ARCHIVED",
        }
    }
}
