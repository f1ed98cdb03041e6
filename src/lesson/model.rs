//! The lesson format (serde, one JSON file per lesson in `lessons/`).
//!
//! A lesson is a scenario (the same JSON as `scenarios/*.json`) and a list of
//! steps. Each step shows a narration, may inject faults when it starts, may ask
//! a question before its outcome, and ends when a simulation event happens
//! (`until`); its expectations are then checked against the world.

use crate::sim::{Fault, Millis, Scenario};
use serde::{Deserialize, Serialize};

/// A text in both languages of the course.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

pub use crate::i18n::Lang;

impl Text {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Stable id for deep links and saved progress, e.g. `consumer-crashes`.
    pub id: String,
    /// Position in the course (1-based); `#lesson=<number>` opens it.
    pub number: u32,
    pub title: Text,
    pub summary: Text,
    pub scenario: Scenario,
    pub steps: Vec<Step>,
    /// The lesson's default speed when it opens (simulated ms per wall ms, a
    /// whole number); chosen so no step waits more than about 10 s of wall time.
    #[serde(default = "default_speed")]
    pub speed: u32,
    /// The free-play end: what to try from the lesson's final state.
    #[serde(rename = "tryIt")]
    pub try_it: TryIt,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryIt {
    pub text: Text,
    /// The suggested experiment, in words.
    pub experiment: Text,
    /// The experiment's faults, for the page to offer in its fault menu.
    #[serde(default)]
    pub faults: Vec<Fault>,
}

fn default_speed() -> u32 {
    1
}

/// Longest wall time a step should wait for its event at the lesson's speed.
pub const MAX_WAIT_WALL_MS: u64 = 10_000;

/// Default bound on how long a step may wait for its event (simulated ms).
pub const DEFAULT_WITHIN_MS: Millis = 60_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Stable id, unique in the lesson (`#lesson=4&step=<id or number>`).
    pub id: String,
    pub narration: Text,
    /// Node names (`c2`, `broker-1`), partitions (`orders-1`,
    /// `__consumer_offsets-12`) or group ids to highlight during the step.
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Faults injected when the step starts (the same JSON as scenario faults).
    #[serde(default)]
    pub actions: Vec<Fault>,
    /// Inject `actions` only once the question is answered (predict, then act),
    /// rather than before asking it.
    #[serde(default, rename = "actionsAfterAnswer")]
    pub actions_after_answer: bool,
    /// Asked right after the actions, before the outcome: the simulation
    /// waits for the answer.
    #[serde(default)]
    pub question: Option<Question>,
    /// The learner acts (crashes, pauses, restarts, adds a consumer): the run
    /// waits for one of the task's options, then checks its goal when the
    /// step's event happens (or its `withinMs` passes without it).
    #[serde(default)]
    pub task: Option<Task>,
    /// The event that ends the step.
    pub until: Condition,
    /// The event must happen within this much simulated time.
    #[serde(default = "default_within", rename = "withinMs")]
    pub within_ms: Millis,
    /// Checked on the world when the event has happened.
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// A side-by-side comparison the step offers (a button in the lesson
    /// panel opens the Side by side tab on it): the same faults under
    /// several protocols, each in its own pane on the toolbar's one clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<StepCompare>,
}

/// The comparison of a step: a shipped one (`compare-protocols`,
/// `compare-crash`, `compare-share-crash`) or one written in the lesson, in the format of
/// `scenarios/compare-*.json`. Exactly one of the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepCompare {
    /// The button's words ("See the four deploys side by side").
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipped: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<crate::compare::Comparison>,
}

impl StepCompare {
    /// The comparison to open, checked; an error names the field (`shipped`,
    /// `comparison.variants`, ...).
    pub fn comparison(&self) -> Result<crate::compare::Comparison, String> {
        match (&self.shipped, &self.comparison) {
            (Some(id), None) => crate::examples::comparison(id).map_err(|e| {
                let ids: Vec<&str> = crate::examples::COMPARISONS.iter().map(|c| c.0).collect();
                format!("shipped: {e}; the shipped ones are {}", ids.join(", "))
            }),
            (None, Some(c)) => c.validate().map(|()| c.clone()).map_err(|e| crate::json::under("comparison", &e)),
            (Some(_), Some(_)) => Err("shipped, comparison: give one of them, not both".into()),
            (None, None) => Err("shipped, comparison: give a shipped comparison's id or a comparison".into()),
        }
    }
}

fn default_within() -> Millis {
    DEFAULT_WITHIN_MS
}

/// A predict-then-reveal question: multiple choice (`choices`, `answer` is an
/// index) or "click what you predict" (`targets`, `answer` is a name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub prompt: Text,
    #[serde(default)]
    pub choices: Vec<Text>,
    /// Node or partition names the learner may click.
    #[serde(default)]
    pub targets: Vec<String>,
    pub answer: Choice,
    /// Shown when the step's event has happened: why, with the Kafka concept
    /// (config, state, error).
    pub explanation: Text,
    /// For each wrong choice (its index, `"2"`) or target (its name): a short
    /// "why not", shown to a learner who chose it.
    #[serde(default, rename = "whyNot")]
    pub why_not: std::collections::BTreeMap<String, Text>,
    /// What the page hides while the question waits, because it would give
    /// the answer away (the coordinator's label, the leader's star, owners...).
    #[serde(default)]
    pub conceals: Vec<super::conceal::Secret>,
}

/// Something the learner does inside a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// What to do ("Crash the consumer that owns orders-3").
    pub prompt: Text,
    /// The buttons: each injects its faults at the playhead.
    pub options: Vec<TaskOption>,
    /// An option that reaches the goal (the headless runner's pick).
    pub answer: usize,
    /// Checked when the step's event happens: all must hold for the try to
    /// succeed (with the tried option's `checks`; empty when every option has checks).
    #[serde(default)]
    pub goal: Vec<Expectation>,
    /// Shown after a try that missed the goal; the run then goes back to try again.
    pub hint: Text,
    /// Shown when the try reached the goal.
    pub done: Text,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskOption {
    pub label: Text,
    pub faults: Vec<Fault>,
    /// Checked with the task's goal when this option is tried: each holds
    /// for the try to succeed, and the hint of each that did not is shown
    /// (a constructing challenge says which of the learner's choices was wrong).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
}

/// An expectation of one task option, with what to tell the learner when the
/// run shows it did not hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub expect: Expectation,
    pub hint: Text,
}

/// An answer: the index of a choice, or the name of a clicked node/partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Choice {
    Index(usize),
    Target(String),
}

/// A simulation event that ends a step. Every kind except `elapsed` matches an
/// event of the trace recorded after the step started.
///
/// Externally tagged, as the expectations and secrets are:
/// `{"groupState": {"group": "demo", "state": "Stable"}}`, `"acted"`.
/// (Internally tagged, `{"type": "groupState", ...}`, serde buffers each one
/// and compiles every variant's deserializer again for the buffer: the three
/// cost 48 KB more wasm, 13 KB gzipped. Files in that older form are
/// rewritten by [`super::validate::upgrade`].)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Condition {
    /// The group changes to `state`: `ClassicGroupState` (`PreparingRebalance`,
    /// `Stable`...) for a classic group, `ConsumerGroupState` (`Assigning`,
    /// `Reconciling`, `Stable`...) for a `group.protocol=consumer` group (KIP-848).
    GroupState { group: String, state: String },
    /// The consumer's member state changes to `state`: the classic
    /// `PREPARING_REBALANCE`, `STABLE`..., or for a consumer-protocol consumer the
    /// client `MemberState` (`JOINING`, `RECONCILING`, `ACKNOWLEDGING`, `STABLE`, `FENCED`...).
    MemberState { consumer: String, state: String },
    /// The coordinator's session timer for the consumer's member id fires.
    SessionTimeout { consumer: String },
    /// The consumer's `max.poll.interval.ms` expires without a `poll()`.
    PollTimeout { consumer: String },
    /// A `ConsumerRebalanceListener` callback runs (optionally including `partition`).
    Callback {
        consumer: String,
        callback: String,
        #[serde(default)]
        partition: Option<String>,
    },
    /// A message is sent whose label contains `label` (`JoinGroup → MEMBER_ID_REQUIRED`,
    /// `FindCoordinator ← broker-1`, `LeaveGroup`), optionally between given nodes.
    Message {
        label: String,
        #[serde(default)]
        from: Option<String>,
        #[serde(default)]
        to: Option<String>,
    },
    /// A consumer finishes processing a batch of records (optionally of `partition`).
    Processed {
        consumer: String,
        #[serde(default)]
        partition: Option<String>,
    },
    /// A consumer processes records a second time (redelivery).
    Redelivered {
        #[serde(default)]
        consumer: Option<String>,
    },
    /// The group commits offsets (optionally including `partition`, and
    /// with `above`: an offset of that partition greater than `above`).
    OffsetsCommitted {
        group: String,
        #[serde(default)]
        partition: Option<String>,
        #[serde(default)]
        above: Option<i64>,
    },
    /// The coordinator context of the group's `__consumer_offsets` partition
    /// changes to `state` (`LOADING`, `ACTIVE`).
    CoordinatorState { group: String, state: String },
    /// A fault is injected, from the lesson or scheduled in its scenario (its
    /// description contains `contains`, e.g. `c11 closed`): a scripted deploy's next stage.
    Fault { contains: String },
    /// A protocol note of the core: of `kind` (a `sim::note::Note` variant,
    /// `CoordinatorFound`), its English containing `contains`; at least one.
    Note {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        contains: String,
        #[serde(default)]
        node: Option<String>,
    },
    /// `ms` of simulated time after the step started; only where time itself is the point.
    Elapsed { ms: Millis },
    /// A task step: the learner's action itself (its goal is checked at once,
    /// before any simulated time passes).
    Acted,
    /// KIP-848: the coordinator fences the consumer's member (removes it and
    /// bumps the group epoch) after its session or rebalance timeout expired.
    Fenced { consumer: String },
    /// Kafka Connect: a task of the cluster `group` changes to `state`
    /// (`AbstractStatus.State`: `RUNNING`, `FAILED`, `UNASSIGNED`...), optionally on `worker`.
    TaskState {
        group: String,
        task: String,
        state: String,
        #[serde(default)]
        worker: Option<String>,
    },
    /// Kafka Connect: a connector instance changes to `state`, optionally on `worker`.
    ConnectorState {
        group: String,
        connector: String,
        state: String,
        #[serde(default)]
        worker: Option<String>,
    },
    /// Kafka Connect: a worker's `scheduled.rebalance.max.delay.ms` timer fires
    /// (the delay of a departed worker's lost assignment expires), optionally on `worker`.
    ScheduledRebalance {
        group: String,
        #[serde(default)]
        worker: Option<String>,
    },
}

/// A fact about the world checked when a step's event has happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Expectation {
    GroupState {
        group: String,
        state: String,
    },
    Generation {
        group: String,
        generation: i32,
    },
    /// Members of the group on its coordinator (consumers of either protocol, or Connect workers).
    Members {
        group: String,
        count: usize,
    },
    Leader {
        group: String,
        consumer: String,
    },
    /// The assignor the group's vote chose.
    Protocol {
        group: String,
        protocol: String,
    },
    /// The broker whose active coordinator holds the group.
    Coordinator {
        group: String,
        broker: String,
    },
    /// The coordinator a consumer currently knows (`null`: unknown).
    KnownCoordinator {
        consumer: String,
        broker: Option<String>,
    },
    /// The live consumer owning a partition (`null`: nobody); consumers of either protocol.
    Owner {
        partition: String,
        consumer: Option<String>,
    },
    /// Exactly these partitions are owned by the consumer.
    Owns {
        consumer: String,
        partitions: Vec<String>,
    },
    /// The consumer's member state (`UNJOINED`... `STABLE`; for a consumer-protocol
    /// consumer the client `MemberState`, `JOINING`... `STABLE`), or `crashed`.
    MemberState {
        consumer: String,
        state: String,
    },
    /// Records of the group processed a second time, in all.
    Redelivered {
        group: String,
        #[serde(default, rename = "atLeast")]
        at_least: Option<i64>,
        #[serde(default, rename = "atMost")]
        at_most: Option<i64>,
    },
    /// Records of the group never processed, in all: its processing started
    /// past them (a commit before processing, then a crash; or a new group with
    /// `auto.offset.reset=latest`).
    Skipped {
        group: String,
        #[serde(default, rename = "atLeast")]
        at_least: Option<i64>,
        #[serde(default, rename = "atMost")]
        at_most: Option<i64>,
    },
    /// Times the coordinator expired a session of the classic consumer's
    /// members (`session timeout of c3-…`) since the lesson began: a crash
    /// noticed, or a healthy member falsely evicted during a pause.
    SessionTimeouts {
        consumer: String,
        count: usize,
    },
    /// Times the consumer's own `max.poll.interval.ms` expired since the lesson began.
    PollTimeouts {
        consumer: String,
        count: usize,
    },
    /// Times the group entered `PreparingRebalance` since the lesson began.
    Rebalances {
        group: String,
        count: usize,
    },
    /// The consumer raised a fatal error to the application.
    Fatal {
        consumer: String,
        error: String,
    },
    /// The group's committed offset of a partition (`null`: none).
    Committed {
        group: String,
        partition: String,
        offset: Option<i64>,
    },
    /// The group's committed offset of a partition is a position (the next
    /// record to read): past at least one record, and every record before it
    /// was processed.
    CommittedNext {
        group: String,
        partition: String,
    },
    /// The step's event happened at this simulated time (ms).
    Time {
        ms: u64,
    },
    /// KIP-848: the consumer group's epoch (bumped when a member joins, leaves
    /// or is fenced, or a subscription changes).
    GroupEpoch {
        group: String,
        epoch: i32,
    },
    /// KIP-848: the group epoch at which the target assignment was last computed.
    TargetAssignmentEpoch {
        group: String,
        epoch: i32,
    },
    /// KIP-848: the member epoch of the consumer's member on the coordinator
    /// (`null`: the coordinator has no such member, e.g. it was fenced).
    MemberEpoch {
        consumer: String,
        epoch: Option<i32>,
    },
    /// KIP-848: the member epoch the consumer itself holds (0 while joining).
    ConsumerEpoch {
        consumer: String,
        epoch: i32,
    },
    /// KIP-848: exactly these partitions are the consumer's target assignment on the coordinator.
    TargetAssignment {
        consumer: String,
        partitions: Vec<String>,
    },
    /// KIP-848: the coordinator's reconciliation state of the consumer's member
    /// (`STABLE`, `UNREVOKED_PARTITIONS`, `UNRELEASED_PARTITIONS`).
    CoordinatorMemberState {
        consumer: String,
        state: String,
    },
    /// Share groups (KIP-932): the number of the group's members whose
    /// current assignment on the coordinator holds the partition (the simple
    /// assignor's `desiredSharing`, ceil(members / partitions)).
    SharedBy {
        group: String,
        partition: String,
        count: usize,
    },
    /// Share groups (KIP-932): the share-partition start offset (SPSO, the
    /// `StartOffset` the share coordinator holds in `__share_group_state`):
    /// every record below it is ACKNOWLEDGED or ARCHIVED.
    ShareStartOffset {
        group: String,
        partition: String,
        #[serde(rename = "atLeast")]
        at_least: i64,
    },
    /// Kafka Connect: the live worker running a task (`null`: none, the task
    /// is unassigned), and optionally the task's state there (`FAILED`).
    Task {
        group: String,
        task: String,
        worker: Option<String>,
        #[serde(default)]
        state: Option<String>,
    },
    /// Kafka Connect: the live worker running a connector instance (`null`: none).
    Connector {
        group: String,
        connector: String,
        worker: Option<String>,
        #[serde(default)]
        state: Option<String>,
    },
    /// Kafka Connect: exactly these tasks are on the worker (any state).
    WorkerTasks {
        worker: String,
        tasks: Vec<String>,
    },
    /// Kafka Connect: the generation a worker last joined.
    WorkerGeneration {
        worker: String,
        generation: i32,
    },
    /// Kafka Connect: when the worker's scheduled rebalance (an assignment's
    /// `delay`) will rejoin, in simulated ms (`null`: none scheduled).
    ScheduledRebalance {
        worker: String,
        at: Option<u64>,
    },
    /// Kafka Streams (KIP-1071): exactly these active tasks (`0_3`:
    /// subtopology 0, partition 3) run on the live stream thread, restoring or
    /// processing, and, if given, exactly these standby tasks.
    StreamsTasks {
        consumer: String,
        active: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        standby: Option<Vec<String>>,
        /// If given, exactly these of the active tasks are still restoring
        /// their state stores from their changelogs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restoring: Option<Vec<String>>,
    },
    /// Kafka Streams (KIP-1071): the live stream thread of the streams group
    /// running the task as an active task (`null`: none).
    TaskOwner {
        group: String,
        task: String,
        consumer: Option<String>,
    },
}
