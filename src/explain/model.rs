//! The explanation as data: the JSON of issue 16 (`--json`, `window.groupscope.explain`),
//! plus what the page draws (skipped in the JSON).

use serde::Serialize;
use std::collections::BTreeMap;

/// Why a group rebalanced, in the words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    MemberJoined,
    MemberLeft,
    SessionTimeout,
    PollTimeout,
    MetadataChange,
    CoordinatorMoved,
    UnknownMember,
    Fenced,
    /// Kafka Streams, classic protocol: the group leader's `StreamsPartitionAssignor` asked for
    /// an immediate follow-up rebalance because an active task changes owner.
    FollowUp,
    /// Kafka Streams, classic protocol: a probing rebalance the leader scheduled
    /// (`probing.rebalance.interval.ms`) to move tasks once their warm-ups caught up.
    Probing,
    Other,
}

impl Cause {
    pub const ALL: [Cause; 11] = [
        Cause::MemberJoined,
        Cause::MemberLeft,
        Cause::SessionTimeout,
        Cause::PollTimeout,
        Cause::MetadataChange,
        Cause::CoordinatorMoved,
        Cause::UnknownMember,
        Cause::Fenced,
        Cause::FollowUp,
        Cause::Probing,
        Cause::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::MemberJoined => "member-joined",
            Cause::MemberLeft => "member-left",
            Cause::SessionTimeout => "session-timeout",
            Cause::PollTimeout => "poll-timeout",
            Cause::MetadataChange => "metadata-change",
            Cause::CoordinatorMoved => "coordinator-moved",
            Cause::UnknownMember => "unknown-member",
            Cause::Fenced => "fenced",
            Cause::FollowUp => "follow-up",
            Cause::Probing => "probing",
            Cause::Other => "other",
        }
    }
}

/// Which protocol the group's lines show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GroupKind {
    #[default]
    Classic,
    /// KIP-848 (`group.protocol=consumer`): generations are group epochs.
    Consumer,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    pub client_id: Option<String>,
    pub instance_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Generation {
    /// Kafka's generation id (classic) or group epoch (consumer protocol), as logged.
    pub generation: i64,
    pub start_ms: i64,
    /// When the next generation began (absent for the last one).
    pub end_ms: Option<i64>,
    pub leader: Option<String>,
    /// The assignor (classic: the protocol name the group chose; consumer protocol: the server assignor).
    pub protocol: Option<String>,
    pub members: Vec<String>,
    /// Member id → partitions, where logged.
    pub assignment: BTreeMap<String, Vec<String>>,
}

/// One line of evidence in a rebalance's why-chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub ts: i64,
    pub cause: Option<Cause>,
    pub member: Option<String>,
    pub file: u32,
    pub line: u64,
    /// The line as logged (its first 300 characters).
    pub quote: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rebalance {
    pub start_ms: i64,
    /// When the new generation was complete (null if the logs end first).
    pub end_ms: Option<i64>,
    pub from_generation: Option<i64>,
    pub to_generation: Option<i64>,
    pub causes: Vec<Cause>,
    /// The longest time a partition had no owner processing it during this rebalance.
    pub paused_ms: i64,
    #[serde(skip)]
    pub why: Vec<Why>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    pub kind: String,
    pub text: String,
    #[serde(skip)]
    pub text_zh: String,
}

/// What the logs show about one member process (a client id, or a member id).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Process {
    pub name: String,
    pub member_ids: Vec<String>,
    pub instance_id: Option<String>,
    pub first_ms: i64,
    pub last_ms: i64,
    /// Times it joined the group after having been out of it (restarts, rejoins).
    pub joins: Vec<i64>,
    pub leaves: Vec<(i64, Cause)>,
    /// Session timeouts: when the coordinator removed it, and its own last line before that.
    pub session_timeouts: Vec<(i64, Option<i64>)>,
    /// max.poll.interval.ms as its own lines give it.
    pub poll_interval_ms: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub group_id: String,
    pub members: Vec<Member>,
    pub generations: Vec<Generation>,
    pub rebalances: Vec<Rebalance>,
    pub diagnoses: Vec<Diagnosis>,
    #[serde(skip)]
    pub kind: GroupKind,
    /// (time, broker id) each time the group's coordinator is seen to change.
    #[serde(skip)]
    pub coordinators: Vec<(i64, i32)>,
    /// Topic → partition count as seen (highest partition + 1).
    #[serde(skip)]
    pub topics: BTreeMap<String, u32>,
    /// Consumer configs as logged (`ConsumerConfig values:`), the last value of each.
    #[serde(skip)]
    pub config: BTreeMap<String, String>,
    #[serde(skip)]
    pub processes: Vec<Process>,
    #[serde(skip)]
    pub first_ms: i64,
    #[serde(skip)]
    pub last_ms: i64,
    /// What the lines said to and from the coordinator, in time order (the space-time diagram).
    #[serde(skip)]
    pub talk: Vec<super::talk::Talk>,
    /// The Kafka Streams application behind the group, when its own lines were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streams: Option<StreamsApp>,
}

/// A state change as `StreamThread.setState` or `KafkaStreams.setState` logs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StateChange {
    pub ts: i64,
    pub from: String,
    pub to: String,
}

/// One stream thread: one member of the group (its consumer's member ids, one per join).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamsThread {
    pub name: String,
    pub member_ids: Vec<String>,
    pub states: Vec<StateChange>,
    /// Its last assignment (`TaskManager.handleAssignment`, or the streams group's reconciled
    /// tasks): active and standby (classic warm-ups are standbys to the thread) task ids.
    pub active: Vec<String>,
    pub standby: Vec<String>,
}

/// One Kafka Streams instance (`KafkaStreams`, a `client.id` and a process id).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamsInstance {
    pub client_id: String,
    pub process_id: Option<String>,
    pub threads: Vec<StreamsThread>,
    /// The client's state changes (CREATED, REBALANCING, RUNNING, PENDING_SHUTDOWN, ...).
    pub states: Vec<StateChange>,
    /// Stores restored from their changelogs: (time, changelog partition, records).
    pub restored: Vec<(i64, String, i64)>,
    pub first_ms: i64,
    pub last_ms: i64,
    /// How its lines end: `running`, `closed` (NOT_RUNNING), `error`, or `crashed` (its lines
    /// stop and the coordinator removed its threads on session timeout without a leave).
    pub end: String,
}

/// What Kafka Streams' own lines add to a group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamsApp {
    pub instances: Vec<StreamsInstance>,
    /// Classic protocol: when the leader asked for a follow-up rebalance (true: a probing one).
    pub follow_ups: Vec<(i64, bool)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileSummary {
    pub name: String,
    pub lines: u64,
    pub unparsed: u64,
    pub binary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub groups: Vec<Group>,
    pub lines_read: u64,
    pub lines_unparsed: u64,
    #[serde(skip)]
    pub files: Vec<FileSummary>,
    /// Events beyond the kept maximum (their lines were counted).
    #[serde(skip)]
    pub dropped_events: u64,
    /// Lines that look like group coordination but that no dialect read ("What I could not
    /// read"): how many, and the first few (absent from the JSON when there are none).
    #[serde(skip_serializing_if = "is_zero")]
    pub unread_count: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<UnreadLine>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A line the explainer could not read, as it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnreadLine {
    pub file: String,
    pub line: u64,
    pub text: String,
}

impl Report {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the report serializes")
    }

    /// What is wrong with input in which nothing was recognised (or everything was binary).
    pub fn problem_kind(&self) -> Option<Problem> {
        let binary: Vec<String> = self.files.iter().filter(|f| f.binary).map(|f| f.name.clone()).collect();
        if !binary.is_empty() && binary.len() == self.files.len() {
            return Some(Problem::Binary(binary));
        }
        self.groups.is_empty().then_some(Problem::Nothing { lines: self.lines_read })
    }

    /// A message for input in which nothing was recognised (or everything was binary).
    pub fn problem(&self) -> Option<String> {
        match self.problem_kind()? {
            Problem::Binary(names) => Some(format!("{} looks like a binary file, not a log; nothing was read", names.join(", "))),
            Problem::Nothing { lines } => Some(format!(
                "no consumer-group lines recognised in {lines} lines (expected Kafka Java client or broker, librdkafka, kafka-python, aiokafka or kafkajs logs)"
            )),
        }
    }
}

/// Why a report has nothing to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Every file was binary (their names).
    Binary(Vec<String>),
    /// No consumer-group line among this many.
    Nothing { lines: u64 },
}
