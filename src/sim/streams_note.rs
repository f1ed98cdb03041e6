//! The narration notes of streams groups (KIP-1071) and of Kafka Streams
//! threads, as data (`Note::Streams`). English here, Chinese in
//! `crate::narrate_streams_zh`; lessons match on `kind()`.

use crate::sim::streams_message::{StreamsMemberState, StreamsStatus};
use crate::sim::types::Millis;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamsNote {
    /// An empty classic group of that id gave way to the streams group
    /// (offline migration, `getOrCreateStreamsGroup`).
    ClassicGroupMigrated { group_id: String },
    /// The first member's topology became the group's (`StreamsGroupTopology`).
    TopologyInitialized { group_id: String, epoch: i32, subtopologies: usize },
    /// A member joined with a different topology (`maybeUpdateTopology`): refused.
    TopologyUpdateRefused { group_id: String, client: String },
    /// The topology checked against the topics (`InternalTopicManager.configureTopics`):
    /// ready, or what is wrong.
    TopologyConfigured { group_id: String, problem: Option<(StreamsStatus, String)> },
    /// The broker creates missing internal topics (`AutoTopicCreationManager.createStreamsInternalTopics`).
    InternalTopicsCreated { group_id: String, topics: Vec<(String, i32)> },
    /// The first member joined an empty group: the target waits
    /// `streams.initial.rebalance.delay.ms` (`streamsInitialRebalanceKey`).
    InitialRebalanceDelay { group_id: String, until_ms: Millis },
    /// The new target waits for `streams.assignment.interval.ms` (KIP-1263).
    TargetAssignmentDeferred { group_id: String, until_ms: Millis },
    /// A member's state on the coordinator changed (`CurrentAssignmentBuilder`).
    MemberReconciled {
        group_id: String,
        client: String,
        state: StreamsMemberState,
        epoch: i32,
        active: Vec<String>,
        standby: Vec<String>,
        revoking: Vec<String>,
    },
    /// A member asked every member to shut the application down.
    ShutdownRequested { group_id: String, client: String },
    /// A static member left for a while (epoch −2), keeping its tasks.
    StaticMemberLeftTemporarily { group_id: String, client: String },
    /// A static member came back under a new member id and took its old place.
    StaticMemberReplaced { group_id: String, client: String },
    /// The thread revoked tasks (`StreamsRebalanceListener.onTasksRevoked`): committed and closed.
    TasksRevoked { client: String, tasks: Vec<String> },
    /// The thread got tasks (`onTasksAssigned`).
    TasksAssigned { client: String, active: Vec<String>, standby: Vec<String> },
    /// The thread lost its tasks without revoking them (`onAllTasksLost`, fenced).
    AllTasksLost { client: String, tasks: Vec<String> },
    /// An active task restores its state from its changelog first.
    RestorationStarted { client: String, task: String, records: i64, until_ms: Millis, from_standby: bool },
    /// Restored: the task runs (RESTORING → RUNNING).
    TaskRunning { client: String, task: String },
    /// The thread got status SHUTDOWN_APPLICATION and shuts down.
    ShuttingDown { client: String },
    /// A heartbeat's statuses changed, as the client logs them.
    StatusReceived { client: String, statuses: Vec<StreamsStatus> },
    /// Classic Kafka Streams rebalancing: the group leader's
    /// `StreamsPartitionAssignor` (HighAvailabilityTaskAssignor) assigned
    /// tasks, holding back those still owned elsewhere (`followup`) and
    /// scheduling a probing rebalance while warm-ups catch up.
    ClassicTasksAssigned {
        client: String,
        generation: i32,
        /// Per thread: active, standby, of which warm-ups.
        threads: Vec<(String, Vec<String>, Vec<String>, Vec<String>)>,
        /// Tasks held back until their owner revokes them, per thread that gets them later.
        withheld: Vec<(String, Vec<String>)>,
        probing_at_ms: Option<Millis>,
    },
    /// Classic: the group leader creates the missing internal topics
    /// (`InternalTopicManager.makeReady`, from `StreamsPartitionAssignor.assign`).
    LeaderCreatedInternalTopics { client: String, topics: Vec<(String, i32)> },
    /// Classic: the thread rejoins for a rebalance the assignment asked for:
    /// at once after a revocation (`probing` false) or a probing rebalance.
    FollowupRebalance { client: String, probing: bool },
    /// Classic: a standby (or warm-up) finished catching up with its changelog.
    StandbyCaughtUp { client: String, task: String },
}

impl StreamsNote {
    pub fn kind(&self) -> &'static str {
        use StreamsNote::*;
        match self {
            ClassicGroupMigrated { .. } => "ClassicGroupMigrated",
            TopologyInitialized { .. } => "TopologyInitialized",
            TopologyUpdateRefused { .. } => "TopologyUpdateRefused",
            TopologyConfigured { .. } => "TopologyConfigured",
            InternalTopicsCreated { .. } => "InternalTopicsCreated",
            InitialRebalanceDelay { .. } => "StreamsInitialRebalanceDelay",
            TargetAssignmentDeferred { .. } => "StreamsTargetAssignmentDeferred",
            MemberReconciled { .. } => "StreamsMemberReconciled",
            ShutdownRequested { .. } => "ShutdownRequested",
            StaticMemberLeftTemporarily { .. } => "StreamsStaticMemberLeft",
            StaticMemberReplaced { .. } => "StreamsStaticMemberReplaced",
            TasksRevoked { .. } => "TasksRevoked",
            TasksAssigned { .. } => "TasksAssigned",
            AllTasksLost { .. } => "AllTasksLost",
            RestorationStarted { .. } => "RestorationStarted",
            TaskRunning { .. } => "TaskRunning",
            ShuttingDown { .. } => "ShuttingDown",
            StatusReceived { .. } => "StatusReceived",
            ClassicTasksAssigned { .. } => "ClassicTasksAssigned",
            FollowupRebalance { .. } => "FollowupRebalance",
            LeaderCreatedInternalTopics { .. } => "LeaderCreatedInternalTopics",
            StandbyCaughtUp { .. } => "StandbyCaughtUp",
        }
    }

    pub const KINDS: &'static [&'static str] = &[
        "ClassicGroupMigrated",
        "TopologyInitialized",
        "TopologyUpdateRefused",
        "TopologyConfigured",
        "InternalTopicsCreated",
        "StreamsInitialRebalanceDelay",
        "StreamsTargetAssignmentDeferred",
        "StreamsMemberReconciled",
        "ShutdownRequested",
        "StreamsStaticMemberLeft",
        "StreamsStaticMemberReplaced",
        "TasksRevoked",
        "TasksAssigned",
        "AllTasksLost",
        "RestorationStarted",
        "TaskRunning",
        "ShuttingDown",
        "StatusReceived",
        "ClassicTasksAssigned",
        "FollowupRebalance",
        "LeaderCreatedInternalTopics",
        "StandbyCaughtUp",
    ];
}

/// `[0_1, 1_0]`, or `none`.
pub fn list(tasks: &[String]) -> String {
    if tasks.is_empty() {
        "none".to_string()
    } else {
        format!("[{}]", tasks.join(", "))
    }
}

impl fmt::Display for StreamsNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StreamsNote::*;
        match self {
            ClassicGroupMigrated { group_id } => {
                write!(f, "{group_id}: the empty classic group becomes a streams group (offline migration; only committed offsets survive)")
            }
            TopologyInitialized { group_id, epoch, subtopologies } => write!(
                f,
                "streams group {group_id}: the first member's topology (epoch {epoch}, {subtopologies} {}) is now the group's",
                if *subtopologies == 1 { "subtopology" } else { "subtopologies" }
            ),
            TopologyUpdateRefused { group_id, client } => write!(
                f,
                "streams group {group_id}: {client} joined with a different topology: INVALID_REQUEST \"Topology updates are not supported yet\""
            ),
            TopologyConfigured { group_id, problem: None } => {
                write!(f, "streams group {group_id}: every topic is there; the topology is ready and tasks can be assigned")
            }
            TopologyConfigured { group_id, problem: Some((code, detail)) } => {
                write!(f, "streams group {group_id} is NotReady: {code} ({detail}); every member gets no tasks")
            }
            InternalTopicsCreated { group_id, topics } => write!(
                f,
                "streams group {group_id}: the broker creates {}",
                topics.iter().map(|(t, n)| format!("{t} ({n} partitions)")).collect::<Vec<_>>().join(", ")
            ),
            InitialRebalanceDelay { group_id, until_ms } => write!(
                f,
                "streams group {group_id}: first member; tasks are assigned at {until_ms} ms, after streams.initial.rebalance.delay.ms, so more instances can join first (ASSIGNMENT_DELAYED)"
            ),
            TargetAssignmentDeferred { group_id, until_ms } => write!(
                f,
                "streams group {group_id}: the new target waits until {until_ms} ms (streams.assignment.interval.ms; ASSIGNMENT_DELAYED)"
            ),
            MemberReconciled { group_id, client, state, epoch, active, standby, revoking } => {
                write!(f, "streams group {group_id}: {client} is {} at epoch {epoch}: active {}, standby {}", state.name(), list(active), list(standby))?;
                if !revoking.is_empty() {
                    write!(f, "; must first give up {}", list(revoking))?;
                }
                Ok(())
            }
            ShutdownRequested { group_id, client } => write!(
                f,
                "streams group {group_id}: {client} asks to shut the application down; every member's next heartbeat gets SHUTDOWN_APPLICATION"
            ),
            StaticMemberLeftTemporarily { group_id, client } => write!(
                f,
                "streams group {group_id}: static member {client} left with epoch -2 and keeps its tasks until it returns or its session expires"
            ),
            StaticMemberReplaced { group_id, client } => write!(
                f,
                "streams group {group_id}: {client} came back with the same instance id and takes its old tasks, no reshuffle"
            ),
            TasksRevoked { client, tasks } => write!(f, "{client}: onTasksRevoked {}: committed and closed", list(tasks)),
            TasksAssigned { client, active, standby } => {
                write!(f, "{client}: onTasksAssigned: active {}, standby {}", list(active), list(standby))
            }
            AllTasksLost { client, tasks } => write!(f, "{client}: onAllTasksLost {}: fenced, the tasks are gone without a commit", list(tasks)),
            RestorationStarted { client, task, records, until_ms, from_standby: false } => write!(
                f,
                "{client}: task {task} restores its state store from the changelog: {records} records, until {until_ms} ms"
            ),
            RestorationStarted { client, task, records, until_ms, from_standby: true } => write!(
                f,
                "{client}: task {task} had a standby here: only {records} records to catch up, until {until_ms} ms"
            ),
            TaskRunning { client, task } => write!(f, "{client}: task {task} is restored and RUNNING"),
            ShuttingDown { client } => write!(f, "{client}: SHUTDOWN_APPLICATION received: the thread shuts down and leaves"),
            StatusReceived { client, statuses } => write!(
                f,
                "{client}: heartbeat status {}",
                if statuses.is_empty() { "cleared".to_string() } else { statuses.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ") }
            ),
            ClassicTasksAssigned { client, generation, threads, withheld, probing_at_ms } => {
                write!(f, "{client}, the group leader, runs StreamsPartitionAssignor for generation {generation}:")?;
                for (t, active, standby, warmup) in threads {
                    write!(f, " {t} active {} standby {}", list(active), list(standby))?;
                    if !warmup.is_empty() {
                        write!(f, " (warm-up {})", list(warmup))?;
                    }
                    write!(f, ";")?;
                }
                for (t, tasks) in withheld {
                    write!(f, " {t} gets {} only after their owner revokes them: a follow-up rebalance at once;", list(tasks))?;
                }
                match probing_at_ms {
                    Some(at) => write!(f, " warm-ups are catching up: a probing rebalance at {at} ms"),
                    None => Ok(()),
                }
            }
            FollowupRebalance { client, probing: false } => {
                write!(f, "{client}: rejoins at once: a follow-up rebalance hands over the tasks just revoked")
            }
            FollowupRebalance { client, probing: true } => {
                write!(f, "{client}: probing rebalance (probing.rebalance.interval.ms): are the warm-ups caught up?")
            }
            LeaderCreatedInternalTopics { client, topics } => write!(
                f,
                "{client}, the group leader, creates {} before it assigns",
                topics.iter().map(|(t, n)| format!("{t} ({n} partitions)")).collect::<Vec<_>>().join(", ")
            ),
            StandbyCaughtUp { client, task } => {
                write!(f, "{client}: standby {task} caught up with its changelog")
            }
        }
    }
}
