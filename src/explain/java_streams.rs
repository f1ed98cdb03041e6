//! Kafka Streams' own lines (`org.apache.kafka.streams`, 4.x): the stream threads' and the
//! client's state transitions, the tasks each thread is given, the classic group leader's
//! `StreamsPartitionAssignor` (who takes part, follow-up and probing rebalances) and state
//! restoration. Their log contexts: `stream-thread [T] ` (`StreamThread.create` and the
//! assignor, whose prefix is the thread's consumer client id), `stream-client [C] `
//! (`KafkaStreams`), `state-updater [U] ` (`DefaultStateUpdater`).
//!
//! The stream threads' consumers write the group protocol's own lines (the classic
//! `ConsumerCoordinator`'s, or `StreamsMembershipManager`'s for `group.protocol=streams`) under
//! the usual `[Consumer clientId=T-consumer, groupId=app]` context: the Java consumer's dialect
//! reads those; this one names each thread's consumer the same way, so both meet in one member.

use super::event::{Ev, Who};
use super::layout::Stripped;
use super::pat::{capture, num};
use std::collections::BTreeMap;

/// The text inside `key[` ... `] ` of a log context.
fn bracket<'a>(msg: &'a str, key: &str) -> Option<&'a str> {
    let i = msg.find(key)? + key.len();
    let end = msg[i..].find(']')?;
    Some(&msg[i..i + end])
}

/// A thread's name from its log context: `i1-StreamThread-1` (the assignor's lines use the
/// consumer's client id, `i1-StreamThread-1-consumer`).
pub fn thread_of(msg: &str) -> Option<&str> {
    let t = bracket(msg, "stream-thread [")?;
    Some(t.strip_suffix("-consumer").unwrap_or(t))
}

/// The instance (`client.id` of `KafkaStreams`) a thread belongs to: `i1-StreamThread-1` → `i1`
/// (`StreamThread.create` names threads `clientId + "-StreamThread-" + n`).
pub fn instance_of_thread(thread: &str) -> Option<&str> {
    thread.rfind("-StreamThread-").map(|i| &thread[..i]).filter(|c| !c.is_empty())
}

/// `[0_3, 1_1]` → `["0_3", "1_1"]`; also `{0_3, 1_1}`.
pub fn task_list(s: &str) -> Vec<String> {
    let Some(open) = s.find(['[', '{']) else { return Vec::new() };
    let Some(len) = s[open + 1..].find([']', '}']) else { return Vec::new() };
    s[open + 1..open + 1 + len].split(',').map(str::trim).filter(|t| is_task(t)).map(str::to_string).collect()
}

/// A task id as `TaskId.toString` prints it: `subtopology_partition` (`0_3`; named topologies
/// add a prefix, `name__0_3`).
pub fn is_task(t: &str) -> bool {
    match t.rsplit_once('_') {
        Some((sub, part)) => {
            !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && sub.rsplit('_').next().is_some_and(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))
        }
        None => false,
    }
}

/// One line of Kafka Streams.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    // StreamThread.setState and KafkaStreams.setState: the same words, told apart by the context
    if let Some(c) = capture("State transition from {} to {}", msg) {
        let (from, to) = (c[0].trim().to_string(), c[1].trim().trim_end_matches('.').to_string());
        if let Some(t) = bracket(msg, "stream-thread [") {
            return one(Ev::StreamThreadState { thread: t.to_string(), from, to });
        }
        if let Some(client) = bracket(msg, "stream-client [") {
            return one(Ev::StreamsClientState { client: client.to_string(), from, to });
        }
        return None;
    }
    // TaskManager.handleAssignment: the task sets follow on continuation lines
    if msg.contains("Handle new assignment with:") {
        let thread = thread_of(msg)?.to_string();
        return one(Ev::StreamsTasks { thread, active: Vec::new(), standby: Vec::new() });
    }
    // StreamsPartitionAssignor.assign: one `processId: [member ids]` line per instance follows
    if capture("{} client nodes and {} consumers participating in this rebalance:", msg).is_some() {
        return one(Ev::StreamsProcesses { processes: BTreeMap::new() });
    }
    if capture("Client {} per-consumer assignment:", msg).is_some() {
        return one(Ev::StreamsPerConsumer);
    }
    if let Some(c) = capture("Assigned {} total tasks including {} stateful tasks to {} client nodes.", msg) {
        let tail = |x: &str| num(x.rsplit(' ').next().unwrap_or(x));
        return one(Ev::StreamsAssigned { tasks: tail(c[0])?, stateful: num(c[1])?, clients: num(c[2])? });
    }
    // StreamsPartitionAssignor.addClientAssignments
    if msg.contains("Requesting followup rebalance be scheduled immediately by")
        && msg.contains("due to tasks changing ownership")
    {
        return one(Ev::StreamsFollowUp { probing: false });
    }
    if msg.contains("Requesting followup rebalance be scheduled by")
        && msg.contains("to probe for caught-up replica tasks")
    {
        return one(Ev::StreamsFollowUp { probing: true });
    }
    // StoreChangelogReader.restoreChangelog / finishRestoringChangelog
    if let Some(c) = capture("Finished restoring changelog {} to store {} with a total number of {} records", msg) {
        return one(Ev::StreamsRestored { changelog: c[0].trim().to_string(), records: num(c[2])? });
    }
    // StreamsMembershipManager.updateTaskAssignment... (group.protocol=streams): the tasks follow
    // on continuation lines
    if let Some(c) = capture("Assigned tasks with local epoch {} and group {}", msg) {
        let _ = c;
        return one(Ev::SgTasks { active: Vec::new(), standby: Vec::new() });
    }
    // Lines read so they are not listed as unread; they change nothing the rebuild keeps:
    // StreamsPartitionAssignor.onAssignment / maybeScheduleFollowupRebalance / assign,
    // StreamThread.runLoop ("Triggering the followup rebalance scheduled for {}."), TaskManager.
    const KNOWN: [&str; 20] = [
        "Requested to schedule immediate rebalance",
        "Requested to schedule next probing rebalance at",
        "No followup rebalance was requested, resetting the rebalance schedule.",
        "Triggering the followup rebalance scheduled for",
        "Finished unstable assignment of tasks, a followup rebalance will be scheduled.",
        "Finished stable assignment of tasks, no followup rebalances required.",
        "active assignment until it is safely revoked in followup rebalance",
        "Assignment of tasks to nodes:",
        "Assigning stateful tasks:",
        "until it is revoked and can be transitioned to active in a followup rebalance",
        // HighAvailabilityTaskAssignor.assign
        "Decided on assignment: {",
        // StreamsMembershipManager, StreamsRebalanceListenerInvoker, StreamThread (streams protocol)
        "Assigning active tasks {",
        "Revoking previously assigned active tasks ",
        "Invoking task revoked callback for revoked active tasks",
        "] Revoking active tasks [",
        "Invoking tasks assigned callback for new assignment:",
        "from Streams Rebalance Protocol",
        // StreamsGroupHeartbeatRequestManager: the group's status codes and configuration
        "Membership is in the following statuses:",
        "Received Streams group configuration from the group coordinator:",
        "Streams rebalance protocol enabled",
    ];
    if KNOWN.iter().any(|k| msg.contains(k)) {
        return one(Ev::Info);
    }
    None
}

/// Whether a statement's details follow on continuation lines.
pub fn opens_block(ev: &Ev) -> bool {
    matches!(ev, Ev::StreamsTasks { .. } | Ev::StreamsProcesses { .. } | Ev::StreamsPerConsumer | Ev::SgTasks { .. })
}

/// A continuation line of a multi-line Streams statement, into its event; false if it is not one.
pub fn continuation(ev: &mut Ev, msg: &str) -> bool {
    let t = msg.trim_start();
    match ev {
        Ev::StreamsTasks { active, standby, .. } => {
            if let Some(v) = t.strip_prefix("New active tasks:") {
                *active = task_list(v);
            } else if let Some(v) = t.strip_prefix("New standby tasks:") {
                *standby = task_list(v);
            } else {
                return t.starts_with("Existing active tasks:") || t.starts_with("Existing standby tasks:");
            }
            true
        }
        Ev::StreamsProcesses { processes } => {
            // `processId: [member, member]` (the last one ends with `.`)
            let Some((pid, members)) = t.split_once(": [") else { return false };
            if pid.contains(' ') || pid.is_empty() {
                return false;
            }
            let end = members.find(']').unwrap_or(members.len());
            let ms = members[..end].split(',').map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
            processes.insert(pid.to_string(), ms);
            true
        }
        Ev::StreamsPerConsumer => {
            ["prev owned active", "prev owned standby", "assigned active", "revoking active", "assigned standby"]
                .iter()
                .any(|k| t.starts_with(k))
        }
        Ev::SgTasks { active, standby, .. } => {
            if let Some(v) = t.strip_prefix("Assigned active tasks:") {
                *active = task_list(v);
            } else if let Some(v) = t.strip_prefix("Assigned standby tasks:") {
                *standby = task_list(v);
            } else {
                return t.starts_with("Member:") || (t.contains("tasks") && t.contains(':'));
            }
            true
        }
        _ => false,
    }
}

/// Kafka Streams: the threads, the client, the classic leader's assignor, restoration.
pub struct JavaStreams;

impl super::dialect::Dialect for JavaStreams {
    fn name(&self) -> &'static str {
        "Apache Kafka Streams (stream threads, client, StreamsPartitionAssignor, TaskManager)"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "apache/kafka streams/src/main/java/org/apache/kafka/streams/processor/internals/StreamThread.java",
            "apache/kafka streams/src/main/java/org/apache/kafka/streams/KafkaStreams.java",
            "apache/kafka streams/src/main/java/org/apache/kafka/streams/processor/internals/StreamsPartitionAssignor.java",
            "apache/kafka streams/src/main/java/org/apache/kafka/streams/processor/internals/TaskManager.java",
            "apache/kafka streams/src/main/java/org/apache/kafka/streams/processor/internals/StoreChangelogReader.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/StreamsMembershipManager.java",
            "apache/kafka clients/src/main/java/org/apache/kafka/clients/consumer/internals/StreamsGroupHeartbeatRequestManager.java",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "State transition from {} to {}",
            "Handle new assignment with:",
            "{} client nodes and {} consumers participating in this rebalance:",
            "Assigned {} total tasks including {} stateful tasks to {} client nodes.",
            "Requesting followup rebalance be scheduled immediately by {} due to tasks changing ownership.",
            "Requesting followup rebalance be scheduled by {} for {} to probe for caught-up replica tasks.",
            "Triggering the followup rebalance scheduled for {}.",
            "Finished restoring changelog {} to store {} with a total number of {} records",
            "Assigned tasks with local epoch {} and group {}",
            "Membership is in the following statuses: {}",
        ]
    }
    fn example(&self) -> &'static str {
        "[2026-12-07 22:59:11,408] INFO [Consumer clientId=i1-StreamThread-1-consumer, groupId=wordcount] Assigned tasks with local epoch 2 and group is ready"
    }
    fn claims(&self, line: &Stripped) -> bool {
        ["stream-thread [", "stream-client [", "state-updater ["].iter().any(|k| line.msg.contains(k))
            || line.msg.contains("Assigned tasks with local epoch")
    }
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let msg = line.msg.as_str();
        let evs = parse(msg)?;
        who.is_broker = false;
        who.offsets_partition = None;
        who.instance_id = None;
        // a thread's lines are its consumer's (the member); the client's and the state
        // updater's belong to no member
        // the streams group client's lines carry the consumer's own context
        if !super::java_classic::context(msg, who) {
            who.client_id = thread_of(msg).map(|t| format!("{t}-consumer"));
        }
        Some(evs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_task_ids_and_thread_names() {
        assert_eq!(task_list("[0_3, 1_1]"), vec!["0_3", "1_1"]);
        assert!(task_list("[]").is_empty());
        assert!(is_task("12_0") && !is_task("words-0") && !is_task("a_b"));
        assert_eq!(instance_of_thread("i1-StreamThread-2"), Some("i1"));
        assert_eq!(thread_of("stream-thread [i1-StreamThread-1-consumer] x"), Some("i1-StreamThread-1"));
    }
}
