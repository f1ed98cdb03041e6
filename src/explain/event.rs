//! What a recognised log line says, independent of the client that wrote it.

use std::collections::BTreeMap;

/// Who wrote the line, as far as the line (or its file) tells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Who {
    pub group: Option<String>,
    pub client_id: Option<String>,
    pub instance_id: Option<String>,
    /// A broker's line: its node id when the log context shows it.
    pub broker: Option<i32>,
    pub is_broker: bool,
    /// The `__consumer_offsets` partition a broker line is about (4.x log context, 3.x text).
    pub offsets_partition: Option<i64>,
}

/// One fact from one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    // ---- a client (any library), classic protocol ----
    /// It sends JoinGroup (`(Re-)joining group`).
    JoinStart,
    /// It decided to (re)join, with the reason it logged.
    RejoinRequested {
        reason: String,
    },
    /// It starts a new rebalance attempt (sarama-cluster, kafka-node): an open one it did not
    /// finish is given up.
    NewAttempt {
        reason: String,
    },
    /// JoinGroup answered: its generation, member id and the group's protocol (assignor).
    Joined {
        generation: Option<i64>,
        member: Option<String>,
        protocol: Option<String>,
        leader: Option<String>,
    },
    /// SyncGroup answered: the generation is complete for this member.
    Synced {
        generation: Option<i64>,
        member: Option<String>,
        protocol: Option<String>,
    },
    /// This member is the leader and computed the group's assignment.
    LeaderAssigned {
        generation: Option<i64>,
        assignment: BTreeMap<String, Vec<String>>,
    },
    LeaderElected,
    /// Its full assignment after a rebalance.
    Owned {
        partitions: Vec<String>,
    },
    /// onPartitionsAssigned with these partitions.
    Assigned {
        partitions: Vec<String>,
    },
    Revoked {
        partitions: Vec<String>,
    },
    Lost {
        partitions: Vec<String>,
    },
    /// max.poll.interval.ms exceeded (with the interval when the line gives it).
    PollTimeout {
        interval_ms: Option<i64>,
    },
    /// The client's own session timer expired (librdkafka, kafka-python, aiokafka).
    SessionExpired {
        after_ms: Option<i64>,
    },
    /// It leaves the group (LeaveGroup, or a leave heartbeat).
    Leaving {
        member: Option<String>,
        reason: String,
    },
    /// A request failed with a group error: `REBALANCE_IN_PROGRESS`, `UNKNOWN_MEMBER_ID`,
    /// `ILLEGAL_GENERATION`, `FENCED_INSTANCE_ID`, `FENCED_MEMBER_EPOCH`.
    GroupError {
        error: String,
    },
    ResetGeneration {
        reason: String,
    },
    /// The member is in this generation (a heartbeat or a commit names it).
    AtGeneration {
        generation: i64,
    },
    CoordinatorFound {
        broker: Option<i32>,
    },
    CoordinatorLost {
        broker: Option<i32>,
    },
    /// `ConsumerConfig values:` and the like: one setting.
    Config {
        key: String,
        value: String,
    },
    MemberId {
        member: String,
    },
    // ---- a client, consumer protocol (KIP-848) ----
    /// `Member {} with epoch {} transitioned from {} to {}.`
    Transition {
        member: String,
        epoch: i64,
        from: String,
        to: String,
    },
    /// `Reconciling assignment with local epoch {}` (+ continuation lines).
    Reconciling {
        epoch: i64,
        member: Option<String>,
        assigned: Vec<String>,
        revoked: Vec<String>,
    },
    // ---- the broker, classic groups ----
    Prepare {
        group: String,
        old_generation: i64,
        reason: String,
    },
    Stabilized {
        group: String,
        generation: i64,
        members: Option<i64>,
    },
    AssignmentFromLeader {
        group: String,
        leader: String,
        generation: i64,
        members: Option<i64>,
    },
    MemberFailed {
        group: String,
        member: String,
    },
    MemberLeft {
        group: String,
        member: String,
        instance: Option<String>,
        host: Option<String>,
        client: Option<String>,
        reason: String,
    },
    NewMember {
        group: String,
        member: String,
        instance: Option<String>,
    },
    GroupEmpty {
        group: String,
        generation: i64,
    },
    /// This broker starts loading (becomes coordinator of) an `__consumer_offsets` partition.
    Loading {
        partition: Option<i64>,
        epoch: Option<i64>,
    },
    Loaded {
        partition: Option<i64>,
        epoch: Option<i64>,
    },
    LoadedGroup {
        group: String,
        members: Option<i64>,
    },
    Resigned {
        partition: Option<i64>,
    },
    // ---- the broker, consumer groups (KIP-848) ----
    EpochBumped {
        group: String,
        epoch: i64,
        /// The member whose heartbeat bumped it, when the line names it (streams groups).
        member: Option<String>,
    },
    TargetComputed {
        group: String,
        epoch: i64,
        assignor: String,
    },
    CgJoined {
        group: String,
        member: String,
        instance: Option<String>,
    },
    CgLeft {
        group: String,
        member: String,
        instance: Option<String>,
        temporarily: bool,
    },
    CgFenced {
        group: String,
        member: String,
        reason: String,
    },
    CgMemberState {
        group: String,
        member: String,
        epoch: i64,
        state: String,
        partitions: Vec<String>,
    },
    CgMetadataChanged {
        group: String,
    },
    // ---- Kafka Streams (`java_streams`) ----
    /// `StreamThread.setState`: `stream-thread [T] State transition from A to B`.
    StreamThreadState {
        thread: String,
        from: String,
        to: String,
    },
    /// `KafkaStreams.setState`: `stream-client [C] State transition from A to B`.
    StreamsClientState {
        client: String,
        from: String,
        to: String,
    },
    /// `TaskManager.handleAssignment` (+ continuation lines): a thread's new tasks.
    StreamsTasks {
        thread: String,
        active: Vec<String>,
        standby: Vec<String>,
    },
    /// `StreamsPartitionAssignor.assign`: `{} client nodes and {} consumers participating in this
    /// rebalance:` then one `processId: [member ids]` line per instance.
    StreamsProcesses {
        processes: BTreeMap<String, Vec<String>>,
    },
    /// `StreamsPartitionAssignor.addClientAssignments`: `Client {} per-consumer assignment:` and
    /// its continuation lines (prev owned, assigned, revoking, per member).
    StreamsPerConsumer,
    /// `StreamsPartitionAssignor.assign`: the leader's thread computed the tasks' placement.
    StreamsAssigned {
        tasks: i64,
        stateful: i64,
        clients: i64,
    },
    /// `StreamsPartitionAssignor.computeNewAssignment`: the leader asks for a follow-up rebalance,
    /// at once (an active task changes owner) or later (`probing`, warm-ups to catch up).
    StreamsFollowUp {
        probing: bool,
    },
    /// `StoreChangelogReader.restoreChangelog`: a store finished restoring from its changelog.
    StreamsRestored {
        changelog: String,
        records: i64,
    },
    /// The streams group client (`StreamsMembershipManager.updateTaskAssignment`...): the tasks it
    /// reconciles to at a member epoch.
    /// The streams group client (`StreamsMembershipManager`, `Assigned tasks with local epoch`):
    /// the tasks it reconciles to.
    SgTasks {
        active: Vec<String>,
        standby: Vec<String>,
    },
    /// A recognised line that changes nothing here (kept so it is not "unparsed").
    Info,
}

impl Ev {
    /// A fact that can say why a group rebalanced: its line is kept as evidence.
    pub fn may_be_cause(&self) -> bool {
        matches!(
            self,
            Ev::JoinStart
                | Ev::RejoinRequested { .. }
                | Ev::NewAttempt { .. }
                | Ev::ResetGeneration { .. }
                | Ev::PollTimeout { .. }
                | Ev::SessionExpired { .. }
                | Ev::Leaving { .. }
                | Ev::GroupError { .. }
                | Ev::Prepare { .. }
                | Ev::MemberFailed { .. }
                | Ev::MemberLeft { .. }
                | Ev::NewMember { .. }
                | Ev::CgJoined { .. }
                | Ev::CgLeft { .. }
                | Ev::CgFenced { .. }
                | Ev::CgMetadataChanged { .. }
                | Ev::Synced { .. }
                | Ev::Revoked { .. }
                | Ev::CoordinatorFound { .. }
                | Ev::StreamsFollowUp { .. }
        )
    }

    /// The group a broker line names.
    pub fn group(&self) -> Option<&str> {
        match self {
            Ev::Prepare { group, .. }
            | Ev::Stabilized { group, .. }
            | Ev::AssignmentFromLeader { group, .. }
            | Ev::MemberFailed { group, .. }
            | Ev::MemberLeft { group, .. }
            | Ev::NewMember { group, .. }
            | Ev::GroupEmpty { group, .. }
            | Ev::LoadedGroup { group, .. }
            | Ev::EpochBumped { group, .. }
            | Ev::TargetComputed { group, .. }
            | Ev::CgJoined { group, .. }
            | Ev::CgLeft { group, .. }
            | Ev::CgFenced { group, .. }
            | Ev::CgMemberState { group, .. }
            | Ev::CgMetadataChanged { group } => Some(group),
            _ => None,
        }
    }
}

/// A fact at a time, from a file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Milliseconds since the epoch as the line gives it.
    pub ts: i64,
    pub file: u32,
    pub line: u64,
    pub who: Who,
    pub ev: Ev,
    /// The line as logged, for facts that can be a rebalance's cause (the evidence quoted).
    pub quote: Option<Box<str>>,
}

/// The error names Kafka's clients print for the messages of `Errors`.
pub fn error_name(text: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 21] = [
        ("REBALANCE_IN_PROGRESS", "REBALANCE_IN_PROGRESS"),
        ("group is already rebalancing", "REBALANCE_IN_PROGRESS"),
        ("The group is rebalancing", "REBALANCE_IN_PROGRESS"),
        ("Group rebalance in progress", "REBALANCE_IN_PROGRESS"),
        ("The group began another rebalance", "REBALANCE_IN_PROGRESS"),
        ("UNKNOWN_MEMBER_ID", "UNKNOWN_MEMBER_ID"),
        ("The coordinator is not aware of this member", "UNKNOWN_MEMBER_ID"),
        ("Unknown member", "UNKNOWN_MEMBER_ID"),
        ("ILLEGAL_GENERATION", "ILLEGAL_GENERATION"),
        ("generation id is not", "ILLEGAL_GENERATION"),
        ("FENCED_INSTANCE_ID", "FENCED_INSTANCE_ID"),
        ("has been fenced by another instance", "FENCED_INSTANCE_ID"),
        ("fenced by other consumer with same group.instance.id", "FENCED_INSTANCE_ID"),
        ("FENCED_MEMBER_EPOCH", "FENCED_MEMBER_EPOCH"),
        ("is fenced.", "FENCED_MEMBER_EPOCH"),
        ("UnknownMemberIdException", "UNKNOWN_MEMBER_ID"),
        // kafka-python's and aiokafka's error classes (kafka/errors.py)
        ("IllegalGenerationError", "ILLEGAL_GENERATION"),
        ("UnknownMemberIdError", "UNKNOWN_MEMBER_ID"),
        ("RebalanceInProgressError", "REBALANCE_IN_PROGRESS"),
        ("FencedInstanceIdError", "FENCED_INSTANCE_ID"),
        // Go clients print the code's name then its message (`REBALANCE_IN_PROGRESS: The group...`)
        ("FencedMemberEpoch", "FENCED_MEMBER_EPOCH"),
    ];
    NAMES.iter().find(|(k, _)| text.contains(k)).map(|(_, v)| *v)
}
