//! `Consumer.close(CloseOptions)` (KIP-1092, Kafka 4.1+): what a closing consumer
//! does about its group membership, for both protocols.

use crate::sim::message::{LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use serde::{Deserialize, Serialize};

/// `CloseOptions.GroupMembershipOperation`.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GroupMembershipOperation {
    /// Dynamic members leave, static members keep their place (the old `close()`).
    #[default]
    DEFAULT,
    /// Leave the group, static members too.
    LEAVE_GROUP,
    /// Stay: a dynamic member is removed only when its session expires.
    REMAIN_IN_GROUP,
}

impl GroupMembershipOperation {
    pub fn is_default(&self) -> bool {
        *self == GroupMembershipOperation::DEFAULT
    }

    /// `LEAVE_GROUP`, `REMAIN_IN_GROUP` or `DEFAULT` (case-insensitive; empty = DEFAULT).
    pub fn parse(s: &str) -> Result<GroupMembershipOperation, String> {
        match s.trim().to_ascii_uppercase().as_str() {
            "" | "DEFAULT" => Ok(GroupMembershipOperation::DEFAULT),
            "LEAVE_GROUP" => Ok(GroupMembershipOperation::LEAVE_GROUP),
            "REMAIN_IN_GROUP" => Ok(GroupMembershipOperation::REMAIN_IN_GROUP),
            other => Err(format!("operation: write DEFAULT, LEAVE_GROUP or REMAIN_IN_GROUP, not '{other}'")),
        }
    }

    /// Classic consumer (`AbstractCoordinator.shouldSendLeaveGroupRequest`):
    /// LeaveGroup for LEAVE_GROUP, or for a dynamic member under DEFAULT.
    pub fn classic_sends_leave_group(self, is_static: bool) -> bool {
        self == GroupMembershipOperation::LEAVE_GROUP || (!is_static && self == GroupMembershipOperation::DEFAULT)
    }

    /// Consumer protocol (`ConsumerMembershipManager.leaveGroupEpoch`): the
    /// epoch of the leave heartbeat, or `None` when none is sent. LEAVE_GROUP is
    /// −1 even for a static member; REMAIN_IN_GROUP is −2 for a static one.
    /// A dynamic member under REMAIN_IN_GROUP leaves too, at −1, in Kafka 4.4:
    /// `ConsumerHeartbeatRequestManager.shouldSendLeaveHeartbeatNow` says no,
    /// but `AbstractHeartbeatRequestManager.poll` still sends a heartbeat while
    /// the member is LEAVING (`AbstractMembershipManager.shouldHeartbeatNow`),
    /// and `transitionToSendingLeaveGroup` set its epoch to `leaveGroupEpoch()`,
    /// −1 (measured on a real 4.4.0 broker: the member left 1 ms after
    /// PREPARE_LEAVING; scenario `consumer-remain-in-group` of `conformance/`).
    pub fn consumer_leave_epoch(self, is_static: bool) -> Option<i32> {
        match (self, is_static) {
            (GroupMembershipOperation::LEAVE_GROUP, _) | (_, false) => Some(LEAVE_GROUP_MEMBER_EPOCH),
            (_, true) => Some(LEAVE_GROUP_STATIC_MEMBER_EPOCH),
        }
    }
}
