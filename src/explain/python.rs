//! kafka-python (`kafka/coordinator/base.py`, `kafka/coordinator/consumer.py`) and aiokafka
//! (`aiokafka/consumer/group_coordinator.py`): their `log.info/warning/error` statements,
//! including kafka-python's older wordings (`Successfully joined group demo with generation 226`).

use super::event::{error_name, Ev, Who};
use super::pat::{after, capture, num, partitions};

/// `... for group demo` / `group demo` / `group 'demo'`: the group the line names.
pub fn context(msg: &str, who: &mut Who) -> bool {
    // aiokafka prints `(node 107)for group edgy-v3.` without a space
    let g = after(msg, "for group ", &[' ', ':', ',', ';'])
        .or_else(|| after(msg, "joined group ", &[' ', ',']))
        .or_else(|| after(msg, "Joined group ", &[' ', ',']))
        .or_else(|| after(msg, "synced group ", &[' ', ',']))
        .or_else(|| after(msg, "joining group ", &[' ', ',']))
        .or_else(|| after(msg, "Leaving consumer group ", &[' ', ',']))
        .or_else(|| after(msg, "Group ", &[' ']));
    match g.map(|g| g.trim_matches(['\'', '"', '.'])) {
        Some(g) if !g.is_empty() && g != "coordinator" => {
            who.group = Some(g.to_string());
            true
        }
        _ => false,
    }
}

/// kafka-python's `Generation.__str__`: `<Generation 5 (member_id: m, protocol: range)>`.
fn py_generation(s: &str) -> Option<(i64, Option<String>, Option<String>)> {
    let g = num(after(s, "<Generation ", &[' ', '>'])?)?;
    let m = after(s, "member_id: ", &[',', ')']).map(str::to_string);
    let p = after(s, "protocol: ", &[')', ',']).map(str::to_string);
    Some((g, m, p))
}

/// One kafka-python or aiokafka line.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    if capture("(Re-)joining group {}", msg).is_some() {
        return one(Ev::JoinStart);
    }
    // kafka-python BaseCoordinator._handle_join_group_response (new and old wordings)
    if let Some(c) = capture("Successfully joined group {} {}", msg) {
        if let Some((g, m, p)) = py_generation(c[1]) {
            return one(Ev::Joined { generation: Some(g), member: m, protocol: p, leader: None });
        }
        if let Some(g) = after(c[1], "with generation ", &[' ']).and_then(num) {
            return one(Ev::Joined { generation: Some(g), member: None, protocol: None, leader: None });
        }
    }
    // aiokafka CoordinatorGroupRebalance._on_join_leader/_follower
    if let Some(c) = capture("Joined group '{}' (generation {}) with member_id {}", msg) {
        return one(Ev::Joined {
            generation: num(c[1]),
            member: Some(c[2].trim().to_string()),
            protocol: None,
            leader: None,
        });
    }
    if let Some(c) = capture("Successfully synced group {} with generation {}", msg) {
        return one(Ev::Synced { generation: num(c[1]), member: None, protocol: None });
    }
    if msg.contains("Elected group leader -- performing partition assignments") {
        return one(Ev::LeaderElected);
    }
    if let Some(c) = capture("Received member id {} for group {}; will retry join-group", msg) {
        return one(Ev::MemberId { member: c[0].to_string() });
    }
    // ConsumerCoordinator._on_join_complete / _on_join_prepare
    if let Some(c) = capture("Setting newly assigned partitions {} for group {}", msg) {
        return one(Ev::Assigned { partitions: partitions(c[0]) });
    }
    if let Some(c) = capture("Revoking previously assigned partitions {} for group {}", msg) {
        return one(Ev::Revoked { partitions: partitions(c[0]) });
    }
    if let Some(c) = capture("Group {} lost membership; forcibly revoking {}", msg) {
        return one(Ev::Lost { partitions: partitions(c[1]) });
    }
    if let Some(c) =
        capture("Cooperative rebalance complete for group {}: owned={}, assigned={}, revoked={}, added={}", msg)
    {
        return one(Ev::Owned { partitions: partitions(c[2]) });
    }
    // heartbeat handling (kafka-python base.py, aiokafka group_coordinator.py)
    if msg.contains("is rebalancing; rejoining") || msg.contains("because it is rebalancing") {
        return one(Ev::GroupError { error: "REBALANCE_IN_PROGRESS".into() });
    }
    if msg.contains("local member_id was not recognized") || msg.contains("failed due to unknown member id") {
        return one(Ev::GroupError { error: "UNKNOWN_MEMBER_ID".into() });
    }
    if msg.contains("generation id is not") && msg.contains("current") {
        return one(Ev::GroupError { error: "ILLEGAL_GENERATION".into() });
    }
    if msg.contains("due to fenced id error") || msg.contains("caught fenced group_instance_id") {
        return one(Ev::GroupError { error: "FENCED_INSTANCE_ID".into() });
    }
    if msg.contains("SyncGroup for group") && msg.contains("failed due to coordinator rebalance") {
        return one(Ev::GroupError { error: "REBALANCE_IN_PROGRESS".into() });
    }
    // kafka-python coordinator/consumer.py _handle_offset_commit_response (and aiokafka's)
    if let Some(c) = capture("OffsetCommit failed for group {} due to group error ({}), will rejoin", msg) {
        return one(Ev::GroupError { error: error_name(c[1]).unwrap_or("UNKNOWN").to_string() });
    }
    if msg.contains("Heartbeat session expired") {
        return one(Ev::SessionExpired { after_ms: None });
    }
    if msg.contains("Consumer poll timeout has expired. This means the time between subsequent calls to poll()") {
        return one(Ev::PollTimeout { interval_ms: None });
    }
    if let Some(c) = capture("Leaving consumer group {} (member {}).", msg) {
        return one(Ev::Leaving { member: Some(c[1].to_string()), reason: "the consumer is leaving the group".into() });
    }
    if msg.contains("LeaveGroup request") && (msg.contains("succeeded") || msg.contains("returned successfully")) {
        return one(Ev::Info);
    }
    if let Some(c) = capture("Discovered coordinator {} for group {}", msg) {
        return one(Ev::CoordinatorFound { broker: num(c[0]).map(|n| n as i32) });
    }
    if let Some(c) = capture("Marking the coordinator dead (node {})", msg) {
        return one(Ev::CoordinatorLost { broker: num(c[0]).map(|n| n as i32) });
    }
    if let Some(c) =
        capture("Heartbeat failed for group {}: coordinator (node {}) is either not started or not valid", msg)
    {
        return one(Ev::CoordinatorLost { broker: num(c[1]).map(|n| n as i32) });
    }
    if msg.starts_with("Metadata for topic has changed from") {
        return one(Ev::RejoinRequested { reason: "metadata for topic has changed".into() });
    }
    None
}

/// kafka-python and aiokafka (and Faust, which logs through aiokafka).
pub struct PythonClients;

impl super::dialect::Dialect for PythonClients {
    fn name(&self) -> &'static str {
        "kafka-python and aiokafka"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "dpkp/kafka-python kafka/coordinator/base.py",
            "dpkp/kafka-python kafka/coordinator/consumer.py",
            "aio-libs/aiokafka aiokafka/consumer/group_coordinator.py",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "(Re-)joining group {}",
            "Successfully joined group {} with generation {}",
            "Joined group '{}' (generation {}) with member_id {}",
            "Elected group leader -- performing partition assignments using {}",
            "Setting newly assigned partitions {} for group {}",
            "Revoking previously assigned partitions {} for group {}",
            "Heartbeat failed for group {} because it is rebalancing",
            "Heartbeat: local member_id was not recognized; this consumer needs to re-join",
            "OffsetCommit failed for group {} due to group error ({}), will rejoin",
            "Heartbeat session expired",
            "Marking the coordinator dead (node {}) for group {}",
        ]
    }
    fn example(&self) -> &'static str {
        "2019-04-10 06:22:05,582 - kafka.coordinator - INFO - Successfully joined group NSFW_CONSUMER with generation 220"
    }
    fn claims(&self, line: &super::layout::Stripped) -> bool {
        line.logger.as_deref().is_some_and(|l| l.starts_with("kafka.") || l.starts_with("aiokafka"))
    }
    fn parse(&self, line: &super::layout::Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let evs = parse(&line.msg)?;
        who.is_broker = false;
        context(&line.msg, who);
        Some(evs)
    }
}
