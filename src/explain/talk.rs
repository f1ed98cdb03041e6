//! What each recognised line says about the conversation between the members and the group
//! coordinator, kept compactly per group for the space-time diagram (`spacetime.rs`).

use super::event::{Ev, Event};

/// Who logged the line: a member process (by its name in `Group::processes`) or a broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum By {
    Member(String),
    /// The coordinator's broker id when the line's context shows it.
    Broker(Option<i32>),
}

/// One line's part in the conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    // ---- a member, classic protocol (AbstractCoordinator, ConsumerCoordinator) ----
    /// `(Re-)joining group`: a JoinGroup request goes out.
    JoinSent,
    /// `Successfully joined group with generation`: the JoinGroup response.
    Joined(Option<i64>),
    /// `Finished assignment for group at generation`: the leader sends its SyncGroup.
    LeaderAssigned(Option<i64>),
    /// `Successfully synced group in generation`: the SyncGroup response.
    Synced(Option<i64>),
    /// A LeaveGroup request (or a leaving heartbeat) goes out.
    LeaveSent,
    /// A response carried this error (`Attempt to heartbeat failed since group is rebalancing`).
    Error(String),
    Revoked(usize),
    Assigned(usize),
    Lost(usize),
    PollTimeout,
    SessionExpired,
    Rejoin,
    CoordinatorFound(Option<i32>),
    CoordinatorLost,
    // ---- a member, consumer protocol (AbstractMembershipManager.transitionTo) ----
    Transition {
        epoch: i64,
        from: String,
        to: String,
    },
    // ---- the coordinator, classic (GroupMetadataManager / GroupCoordinator) ----
    Prepare(i64),
    Stabilized(i64),
    /// `Assignment received from leader ... for generation`: the leader's SyncGroup arrived.
    LeaderSync {
        generation: i64,
        leader: String,
    },
    /// A JoinGroup from this member arrived (`Dynamic member ... joins group`, `Pending ...`).
    NewMember(String),
    /// A LeaveGroup from this member arrived (`has left group ... through explicit LeaveGroup`).
    MemberLeft(String),
    /// The coordinator removed it on its session timeout.
    MemberFailed(String),
    Empty(i64),
    Loaded,
    Resigned,
    // ---- the coordinator, consumer groups (KIP-848) ----
    EpochBumped(i64),
    TargetComputed(i64),
    /// A joining ConsumerGroupHeartbeat arrived.
    CgJoined(String),
    /// A leaving ConsumerGroupHeartbeat arrived (or the member was removed).
    CgLeft(String),
    CgFenced(String),
    /// The member's new epoch and state, sent back in the heartbeat response.
    CgState {
        member: String,
        epoch: i64,
        state: String,
    },
}

/// A line's part, when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Talk {
    pub ts: i64,
    pub file: u32,
    pub line: u64,
    pub by: By,
    pub said: Said,
}

/// What a member's line says, if anything for the diagram.
pub fn of_member(ev: &Ev) -> Option<Said> {
    Some(match ev {
        Ev::JoinStart => Said::JoinSent,
        Ev::Joined { generation, .. } => Said::Joined(*generation),
        Ev::LeaderAssigned { generation, .. } => Said::LeaderAssigned(*generation),
        Ev::Synced { generation, .. } => Said::Synced(*generation),
        Ev::Leaving { .. } => Said::LeaveSent,
        Ev::GroupError { error } => Said::Error(error.clone()),
        Ev::Revoked { partitions } if !partitions.is_empty() => Said::Revoked(partitions.len()),
        Ev::Assigned { partitions } if !partitions.is_empty() => Said::Assigned(partitions.len()),
        Ev::Lost { partitions } if !partitions.is_empty() => Said::Lost(partitions.len()),
        Ev::PollTimeout { .. } => Said::PollTimeout,
        Ev::SessionExpired { .. } => Said::SessionExpired,
        Ev::RejoinRequested { .. } => Said::Rejoin,
        Ev::CoordinatorFound { broker } => Said::CoordinatorFound(*broker),
        Ev::CoordinatorLost { .. } => Said::CoordinatorLost,
        Ev::Transition { epoch, from, to, .. } => {
            Said::Transition { epoch: *epoch, from: from.clone(), to: to.clone() }
        }
        _ => return None,
    })
}

/// What a broker's line says (with the member ids it names; the diagram names their processes).
pub fn of_broker(ev: &Ev) -> Option<Said> {
    let process = |m: &str| m.to_string();
    Some(match ev {
        Ev::Prepare { old_generation, .. } => Said::Prepare(*old_generation),
        Ev::Stabilized { generation, .. } => Said::Stabilized(*generation),
        Ev::AssignmentFromLeader { leader, generation, .. } => {
            Said::LeaderSync { generation: *generation, leader: process(leader) }
        }
        Ev::NewMember { member, .. } => Said::NewMember(process(member)),
        Ev::MemberLeft { member, .. } => Said::MemberLeft(process(member)),
        Ev::MemberFailed { member, .. } => Said::MemberFailed(process(member)),
        Ev::GroupEmpty { generation, .. } => Said::Empty(*generation),
        Ev::Loaded { .. } => Said::Loaded,
        Ev::Resigned { .. } => Said::Resigned,
        Ev::EpochBumped { epoch, .. } => Said::EpochBumped(*epoch),
        Ev::TargetComputed { epoch, .. } => Said::TargetComputed(*epoch),
        Ev::CgJoined { member, .. } => Said::CgJoined(process(member)),
        Ev::CgLeft { member, .. } => Said::CgLeft(process(member)),
        Ev::CgFenced { member, .. } => Said::CgFenced(process(member)),
        Ev::CgMemberState { member, epoch, state, .. } => {
            Said::CgState { member: process(member), epoch: *epoch, state: state.clone() }
        }
        _ => return None,
    })
}

/// The event's part, by a member process or a broker.
pub fn talk(e: &Event, by: By, said: Said) -> Talk {
    Talk { ts: e.ts, file: e.file, line: e.line, by, said }
}
