//! The broker's group coordinator: `GroupMetadataManager` and `ClassicGroup` (4.x,
//! group-coordinator module, log context `[GroupCoordinator id=N topic=__consumer_offsets partition=P] `),
//! `CoordinatorRuntime` (loading), and the Scala `GroupCoordinator` / `GroupMetadataManager`
//! of 3.x and before (`[GroupCoordinator N]: `, `[GroupMetadataManager brokerId=N] `).

use super::event::{Ev, Who};
use super::pat::{after, capture, num, partitions};

/// Reads a broker log context into `who`; true when the line has one.
pub fn context(msg: &str, who: &mut Who) -> bool {
    for key in [
        "[GroupCoordinator id=",
        "[GroupCoordinator ",
        "[GroupMetadataManager brokerId=",
        "[Broker id=",
        "[KafkaServer id=",
    ] {
        if let Some(id) = after(msg, key, &[' ', ']']) {
            if let Ok(n) = id.parse() {
                who.broker = Some(n);
                who.is_broker = true;
                return true;
            }
        }
    }
    false
}

fn s(x: &str) -> String {
    x.trim().to_string()
}

/// `__consumer_offsets-12` as 12.
fn offsets_partition(x: &str) -> Option<i64> {
    num(x.trim().rsplit('-').next()?)
}

fn opt_instance(x: &str) -> Option<String> {
    let x = x.trim();
    (!matches!(x, "null" | "None" | "Optional.empty" | ""))
        .then(|| x.trim_start_matches("Some(").trim_end_matches(')').to_string())
}

/// One line of the group coordinator.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    // streams groups first: their `[GroupId g][MemberId m]` prefix would pass for a group named `g][MemberId m`
    if let Some(evs) = super::broker_streams::parse(msg) {
        return Some(evs);
    }
    // GroupMetadataManager.prepareRebalance (4.x: "... old generation 4 (reason: ...)."; 3.x adds
    // "(__consumer_offsets-12) " before the reason)
    if let Some(c) = capture("Preparing to rebalance group {} in state {} with old generation {} {}", msg) {
        let reason = c[3].split_once("(reason: ").map(|(_, r)| r).unwrap_or("");
        let reason = reason.trim_end_matches('.').trim_end_matches(')');
        let gen = num(c[2])?;
        return one(Ev::Prepare { group: s(c[0]), old_generation: gen, reason: s(reason) });
    }
    // GroupMetadataManager.completeClassicGroupJoin
    if let Some(c) = capture("Stabilized group {} generation {} with {} members", msg) {
        let gen = c[1].split(' ').next().and_then(num)?;
        return one(Ev::Stabilized { group: s(c[0]), generation: gen, members: num(c[2]) });
    }
    // GroupCoordinator.scala before 3.x: no member count
    if let Some(c) = capture("Stabilized group {} generation {}", msg) {
        let gen = c[1].split(' ').next().and_then(num)?;
        return one(Ev::Stabilized { group: s(c[0]), generation: gen, members: None });
    }
    // 0.9's GroupCoordinator.scala
    if let Some(c) = capture("Preparing to restabilize group {} with old generation {}", msg) {
        let gen = c[1].split(' ').next().and_then(num)?;
        return one(Ev::Prepare { group: s(c[0]), old_generation: gen, reason: String::new() });
    }
    if let Some(c) = capture("Group {} generation {} is dead and removed", msg) {
        return one(Ev::GroupEmpty { group: s(c[0]), generation: num(c[1])? });
    }
    if let Some(c) = capture("Group {} with generation {} is now empty", msg) {
        return one(Ev::GroupEmpty { group: s(c[0]), generation: num(c[1].split(' ').next().unwrap_or(""))? });
    }
    // GroupMetadataManager.classicGroupSyncToLeader
    if let Some(c) =
        capture("Assignment received from leader {} for group {} for generation {}. The group has {} members", msg)
    {
        return one(Ev::AssignmentFromLeader {
            group: s(c[1]),
            leader: s(c[0]),
            generation: num(c[2])?,
            members: num(c[3]),
        });
    }
    // GroupCoordinator.scala before 3.x: no leader, no member count
    if let Some(c) = capture("Assignment received from leader for group {} for generation {}", msg) {
        let gen = c[1].split([' ', '.']).next().and_then(num)?;
        return one(Ev::AssignmentFromLeader { group: s(c[0]), leader: String::new(), generation: gen, members: None });
    }
    // GroupMetadataManager.onClassicGroupHeartbeatExpiration
    if let Some(c) = capture("Member {} in group {} has failed, removing it from the group", msg) {
        return one(Ev::MemberFailed { group: s(c[1].trim_end_matches('.')), member: s(c[0]) });
    }
    if let Some(c) = capture("Pending member {} in group {} has been removed after session timeout expiration", msg) {
        return one(Ev::MemberFailed { group: s(c[1]), member: s(c[0]) });
    }
    // GroupMetadataManager.classicGroupLeave (4.x)
    if let Some(c) = capture("[GroupId {}] Static member {} with instance id {} has left group through explicit `LeaveGroup` request; client reason: {}", msg) {
        return one(Ev::MemberLeft { group: s(c[0]), member: s(c[1]), instance: opt_instance(c[2]), host: None, client: None, reason: s(c[3]) });
    }
    // Dynamic and pending members leaving (4.x and 3.x wordings): group, member, reason.
    for template in [
        "[GroupId {}] Dynamic member {} has left group through explicit `LeaveGroup` request; client reason: {}",
        "[Group {}] Member {} has left group through explicit `LeaveGroup` request; client reason: {}",
        "[Group {}] Pending member {} has left group through explicit `LeaveGroup` request; client reason: {}",
    ] {
        if let Some(c) = capture(template, msg) {
            let (group, member, reason) = (s(c[0]), s(c[1]), s(c[2]));
            return one(Ev::MemberLeft { group, member, instance: None, host: None, client: None, reason });
        }
    }
    // 3.x GroupCoordinator.handleLeaveGroup: "Member MemberMetadata(memberId=..., groupInstanceId=...,
    // clientId=..., clientHost=/10.0.0.1, ...) has left group demo through explicit `LeaveGroup`; client reason: ..."
    if let Some(c) = capture("Member {} has left group {} through explicit `LeaveGroup`; client reason: {}", msg) {
        let meta = c[0];
        let member = after(meta, "memberId=", &[',', ')']).unwrap_or(meta);
        let instance = after(meta, "groupInstanceId=", &[',', ')']).and_then(opt_instance);
        let host = after(meta, "clientHost=", &[',', ')']).map(|h| h.trim_start_matches('/').to_string());
        let client = after(meta, "clientId=", &[',', ')']).map(str::to_string);
        return one(Ev::MemberLeft { group: s(c[1]), member: s(member), instance, host, client, reason: s(c[2]) });
    }
    // GroupMetadataManager.classicGroupJoinNewMember / classicGroupJoinNewStaticMember
    for lead in
        ["Dynamic member with unknown member id joins group ", "Dynamic Member with unknown member id joins group "]
    {
        if let (Some(c), Some(m)) = (capture(&format!("{lead}{{}} in {{}}"), msg), after(msg, "new member id ", &[' ']))
        {
            return one(Ev::NewMember { group: s(c[0]), member: s(m), instance: None });
        }
    }
    if let Some(c) =
        capture("Static member with groupInstanceId={} and unknown member id joins group {} in {} state. {}", msg)
    {
        let member = after(c[3], "new member id ", &[' ']).or_else(|| after(c[3], "member ", &[' '])).unwrap_or("");
        return one(Ev::NewMember { group: s(c[1]), member: s(member), instance: opt_instance(c[0]) });
    }
    // CoordinatorRuntime.scheduleLoadOperation and the 3.x GroupMetadataManager / GroupCoordinator
    if let Some(c) = capture("Scheduling loading of metadata from {} with epoch {}", msg) {
        return one(Ev::Loading { partition: offsets_partition(c[0]), epoch: num(c[1]) });
    }
    if let Some(c) = capture("Scheduling loading of offsets and group metadata from {} for epoch {}", msg) {
        return one(Ev::Loading { partition: offsets_partition(c[0]), epoch: num(c[1]) });
    }
    if let Some(c) = capture("Elected as the group coordinator for partition {} in epoch {}", msg) {
        return one(Ev::Loading { partition: num(c[0]), epoch: num(c[1]) });
    }
    if let Some(c) = capture("Finished loading of metadata from {} with epoch {} in ", msg) {
        return one(Ev::Loaded { partition: offsets_partition(c[0]), epoch: num(c[1]) });
    }
    if let Some(c) =
        capture("Finished loading offsets and group metadata from {} in {} milliseconds for epoch {},", msg)
    {
        return one(Ev::Loaded { partition: offsets_partition(c[0]), epoch: num(c[2]) });
    }
    if let Some(c) = capture("Resigned as the group coordinator for partition {} in epoch {}", msg) {
        return one(Ev::Resigned { partition: num(c[0]) });
    }
    if let Some(c) = capture("Scheduling unloading of metadata for {} with epoch {}", msg) {
        return one(Ev::Resigned { partition: offsets_partition(c[0]) });
    }
    // GroupMetadataManager.onLoaded
    for kind in ["classic", "consumer"] {
        if let Some(c) = capture(&format!("Loaded {kind} group {{}} with {{}} members."), msg) {
            return one(Ev::LoadedGroup { group: s(c[0]), members: num(c[1]) });
        }
    }
    // ---- consumer groups (KIP-848), GroupMetadataManager ----
    if let Some(c) = capture("[GroupId {}] Bumped group epoch to {} with metadata hash {}.", msg) {
        return one(Ev::EpochBumped { group: s(c[0]), epoch: num(c[1])?, member: None });
    }
    if let Some(c) =
        capture("[GroupId {}] Computed a new target assignment for epoch {} with '{}' assignor in {}ms.", msg)
    {
        return one(Ev::TargetComputed { group: s(c[0]), epoch: num(c[1])?, assignor: s(c[2]) });
    }
    if let Some(c) = capture(
        "[GroupId {}] Static member {} with instance id {} joins the consumer group using the {} protocol.",
        msg,
    ) {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[1]), instance: opt_instance(c[2]) });
    }
    if let Some(c) = capture("[GroupId {}] Member {} joins the consumer group using the {} protocol.", msg) {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[1]), instance: None });
    }
    if let Some(c) = capture("[GroupId {}] Static member with instance id {} re-joins the consumer group using the {} protocol. Created a new member {} to replace the existing member {}.", msg) {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[3]), instance: opt_instance(c[1]) });
    }
    if let Some(c) = capture("[GroupId {}] Member {} left the consumer group.", msg) {
        return one(Ev::CgLeft { group: s(c[0]), member: s(c[1]), instance: None, temporarily: false });
    }
    if let Some(c) =
        capture("[GroupId {}] Static member {} with instance id {} temporarily left the consumer group.", msg)
    {
        return one(Ev::CgLeft { group: s(c[0]), member: s(c[1]), instance: opt_instance(c[2]), temporarily: true });
    }
    if let Some(c) = capture("[GroupId {}] Static member {} with instance id {} left the consumer group.", msg) {
        return one(Ev::CgLeft { group: s(c[0]), member: s(c[1]), instance: opt_instance(c[2]), temporarily: false });
    }
    if let Some(c) = capture("[GroupId {}] Member {} fenced from the group because {}.", msg) {
        return one(Ev::CgFenced { group: s(c[0]), member: s(c[1]), reason: s(c[2]) });
    }
    if let Some(c) = capture(
        "[GroupId {}] Member {} new assignment state: epoch={}, previousEpoch={}, state={}, assignedPartitions={}.",
        msg,
    ) {
        return one(super::broker_streams::member_state(&c, partitions(c[5]))?);
    }
    if let Some(c) = capture("[GroupId {}] Member {} updated its subscribed topics to: {}.", msg) {
        return one(Ev::CgMetadataChanged { group: s(c[0]) });
    }
    if let Some(c) = capture("[GroupId {}] Computed new metadata hash: {}.", msg) {
        return one(Ev::CgMetadataChanged { group: s(c[0]) });
    }
    if let Some(c) = capture("[GroupId {}] Dynamic member with unknown member id joins the consumer group.", msg) {
        let _ = c;
        return one(Ev::Info);
    }
    if msg.contains("Pending dynamic member with id") && msg.contains("Adding to the group now") {
        return one(Ev::Info);
    }
    if msg.contains("Unloading group metadata for generation")
        || msg.contains("Unloaded group metadata for group epoch")
    {
        return one(Ev::Info);
    }
    None
}

fn looks_like_broker(msg: &str) -> bool {
    msg.contains("[GroupId ")
        || msg.contains("Preparing to rebalance group")
        || msg.contains("Stabilized group")
        || msg.contains("has failed, removing it from the group")
        || msg.contains("of metadata from __consumer_offsets")
        || msg.contains("group coordinator for partition")
        || msg.contains("through explicit `LeaveGroup`")
        || msg.contains("Assignment received from leader")
}

/// The broker's group coordinator, every version's wording.
pub struct Broker;

impl super::dialect::Dialect for Broker {
    fn name(&self) -> &'static str {
        "Apache Kafka broker: the group coordinator"
    }
    fn sources(&self) -> &'static [&'static str] {
        &[
            "apache/kafka group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java (4.x)",
            "apache/kafka group-coordinator/src/main/java/org/apache/kafka/coordinator/group/streams/topics/InternalTopicManager.java (4.1+, streams groups)",
            "apache/kafka coordinator-common/src/main/java/org/apache/kafka/coordinator/common/runtime/CoordinatorRuntime.java (4.x)",
            "apache/kafka core/src/main/scala/kafka/coordinator/group/GroupCoordinator.scala (0.9 to 3.x)",
            "apache/kafka core/src/main/scala/kafka/coordinator/group/GroupMetadataManager.scala (0.11 to 3.x)",
        ]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
            "Preparing to rebalance group {} in state {} with old generation {} (reason: {})",
            "Preparing to restabilize group {} with old generation {}",
            "Stabilized group {} generation {} with {} members",
            "Assignment received from leader {} for group {} for generation {}. The group has {} members",
            "Member {} in group {} has failed, removing it from the group",
            "Group {} with generation {} is now empty",
            "Dynamic member with unknown member id joins group {} in {} state.",
            "has left group through explicit `LeaveGroup` request; client reason: {}",
            "[GroupId {}] Bumped group epoch to {} with metadata hash {}.",
            "[GroupId {}] Member {} fenced from the group because {}.",
            "[GroupId {}] Member {} new assignment state: epoch={}, previousEpoch={}, state={}, assignedPartitions={}.",
            "Scheduling loading of metadata from {} with epoch {}",
            "[GroupId {}][MemberId {}] Member joins the streams group.",
            "[GroupId {}][MemberId {}] Bumped streams group epoch to {} with metadata hash {} and validated topic epoch {}.",
            "[GroupId {}][MemberId {}] Member's new assignment state: epoch={}, previousEpoch={}, state={}, assignedTasks={} and tasksPendingRevocation={}.",
            "[GroupId {}] Streams member {} fenced from the group because {}.",
            "[GroupId {}][MemberId {}] Member {} left the streams group.",
        ]
    }
    fn example(&self) -> &'static str {
        "[2019-06-03 11:49:05,759] INFO [GroupCoordinator 0]: Preparing to rebalance group rbgh664 in state PreparingRebalance with old generation 13 (__consumer_offsets-25) (reason: removing member source-2cb8 on heartbeat expiration) (kafka.coordinator.group.GroupCoordinator)"
    }
    fn claims(&self, line: &super::layout::Stripped) -> bool {
        context(&line.msg, &mut Who::default()) || looks_like_broker(&line.msg)
    }
    fn parse(&self, line: &super::layout::Stripped, who: &mut Who) -> Option<Vec<Ev>> {
        let msg = line.msg.as_str();
        let mut line_who = Who { broker: who.broker, is_broker: who.is_broker, ..Who::default() };
        context(msg, &mut line_who);
        let evs = parse(msg)?;
        if let Some(p) = after(msg, " partition=", &[']', ' ']).and_then(num) {
            line_who.offsets_partition = Some(p);
        } else if let Some(p) = after(msg, "(__consumer_offsets-", &[')']).and_then(num) {
            line_who.offsets_partition = Some(p);
        }
        line_who.is_broker = true;
        *who = line_who;
        Some(evs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GroupMetadataManager.classicGroupLeave's wordings (4.x `[GroupId ..] Dynamic member`,
    /// `[Group ..] Member`, `[Group ..] Pending member`, and the static one) each give the group,
    /// the member and the client's reason.
    #[test]
    fn each_leave_group_wording_gives_group_member_and_reason() {
        let left = |group: &str, member: &str, instance: Option<&str>, reason: &str| {
            Some(vec![Ev::MemberLeft {
                group: group.into(),
                member: member.into(),
                instance: instance.map(String::from),
                host: None,
                client: None,
                reason: reason.into(),
            }])
        };
        let cases = [
            ("[GroupId demo] Dynamic member m-1 has left group through explicit `LeaveGroup` request; client reason: the consumer is being closed", "demo", "m-1", None, "the consumer is being closed"),
            ("[Group demo] Member m-2 has left group through explicit `LeaveGroup` request; client reason: not provided", "demo", "m-2", None, "not provided"),
            ("[Group other] Pending member m-3 has left group through explicit `LeaveGroup` request; client reason: x", "other", "m-3", None, "x"),
            ("[GroupId demo] Static member m-4 with instance id i-4 has left group through explicit `LeaveGroup` request; client reason: y", "demo", "m-4", Some("i-4"), "y"),
        ];
        for (line, group, member, instance, reason) in cases {
            assert_eq!(parse(line), left(group, member, instance, reason), "{line}");
        }
    }
}
