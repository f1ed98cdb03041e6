//! The broker's streams group lines (KIP-1071, 4.1 and later): `GroupMetadataManager`'s
//! `streamsGroupHeartbeat`, `streamsGroupFenceMember`, `maybeReconcile` and
//! `InternalTopicManager.configureTopics`, most of them under a `[GroupId g][MemberId m] ` prefix.
//! They read as the consumer group's facts (`Cg*`, `EpochBumped`): a streams group has member
//! epochs and a group epoch like a KIP-848 group; its "partitions" are task ids.

use super::event::Ev;
use super::pat::{after, capture, num};

fn s(x: &str) -> String {
    x.trim().to_string()
}

fn instance(x: &str) -> Option<String> {
    let x = x.trim();
    (!matches!(x, "null" | "Optional.empty" | "")).then(|| x.to_string())
}

/// `TasksTupleWithEpochs.toString`'s active tasks, `(active=[0-0@7, 1-3@7], standby=[], ...)`,
/// as `TaskId.toString` prints them (`0_0`, `1_3`).
fn active_tasks(tuple: &str) -> Vec<String> {
    let Some(list) = after(tuple, "active=[", &[']']) else { return Vec::new() };
    list.split(',')
        .map(str::trim)
        .filter_map(|t| {
            let t = t.split('@').next()?;
            let (sub, part) = t.rsplit_once('-')?;
            num(part)?;
            Some(format!("{sub}_{part}"))
        })
        .collect()
}

/// A member's new assignment state (`GroupMetadataManager.maybeReconcile`): captures group,
/// member, epoch, previous epoch, state, then what it owns.
pub fn member_state(c: &[&str], owned: Vec<String>) -> Option<Ev> {
    Some(Ev::CgMemberState { group: s(c[0]), member: s(c[1]), epoch: num(c[2])?, state: s(c[4]), partitions: owned })
}

/// One streams group line of the group coordinator.
pub fn parse(msg: &str) -> Option<Vec<Ev>> {
    let one = |e: Ev| Some(vec![e]);
    if let Some(c) = capture("[GroupId {}][MemberId {}] Member joins the streams group.", msg) {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[1]), instance: None });
    }
    if let Some(c) =
        capture("[GroupId {}][MemberId {}] Static member {} with instance id {} joins the streams group.", msg)
    {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[1]), instance: instance(c[3]) });
    }
    if let Some(c) =
        capture("[GroupId {}][MemberId {}] Static member with instance id {} re-joins the streams group", msg)
    {
        return one(Ev::CgJoined { group: s(c[0]), member: s(c[1]), instance: instance(c[2]) });
    }
    // GroupMetadataManager.streamsGroupHeartbeat
    if let Some(c) = capture("[GroupId {}][MemberId {}] Bumped streams group epoch to {} with metadata hash", msg) {
        return one(Ev::EpochBumped { group: s(c[0]), epoch: num(c[2])?, member: Some(s(c[1])) });
    }
    // GroupMetadataManager.maybeReconcile (streams)
    if let Some(c) = capture(
        "[GroupId {}][MemberId {}] Member's new assignment state: epoch={}, previousEpoch={}, state={}, assignedTasks={} and tasksPendingRevocation={}.",
        msg,
    ) {
        return one(member_state(&c, active_tasks(c[5]))?);
    }
    // GroupMetadataManager.streamsGroupFenceMember callers: session and rebalance timeouts
    if let Some(c) = capture("[GroupId {}] Streams member {} fenced from the group because {}.", msg) {
        return one(Ev::CgFenced { group: s(c[0]), member: s(c[1]), reason: s(c[2].trim_end_matches('.')) });
    }
    if let Some(c) = capture("[GroupId {}][MemberId {}] Member {} left the streams group.", msg) {
        return one(Ev::CgLeft { group: s(c[0]), member: s(c[1]), instance: None, temporarily: false });
    }
    for (words, temporarily) in [("temporarily left the streams group.", true), ("left the streams group.", false)] {
        if let Some(c) =
            capture(&format!("[GroupId {{}}][MemberId {{}}] Static member {{}} with instance id {{}} {words}"), msg)
        {
            return one(Ev::CgLeft { group: s(c[0]), member: s(c[1]), instance: instance(c[3]), temporarily });
        }
    }
    if let Some(c) = capture("[GroupId {}][MemberId {}] Computed new metadata hash: {}.", msg) {
        return one(Ev::CgMetadataChanged { group: s(c[0]) });
    }
    // GroupMetadataManager.hasStreamsMemberMetadataChanged: the member record names its thread's
    // consumer (clientId) and its instance (processId)
    if let Some(c) =
        capture("[GroupId {}][MemberId {}] Member updated its member metadata to StreamsGroupMember[{}", msg)
    {
        let (client, process) = (after(c[2], "clientId=", &[',']), after(c[2], "processId=", &[',']));
        if let (Some(client), Some(process)) = (client, process) {
            let processes = std::collections::BTreeMap::from([(s(process), vec![s(client)])]);
            return one(Ev::StreamsProcesses { processes });
        }
        return one(Ev::Info);
    }
    if let Some(c) = capture("Loaded streams group {} with {} members.", msg) {
        return one(Ev::LoadedGroup { group: s(c[0]), members: num(c[1]) });
    }
    // the topology's life (InternalTopicManager.configureTopics, maybeUpdateTopology) and the
    // member record: read, nothing to rebuild from them
    for words in [
        "] Member initialized the topology with epoch ",
        "] Member joined with stale topology epoch ",
        "] Configuring the topology ",
        "] Valid topic configuration found in ",
        "] Member updated its member metadata to ",
        "] Converted the empty classic group to a streams group.",
        "] Converted the empty streams group to a classic group.",
    ] {
        if msg.contains("[GroupId ") && msg.contains(words) {
            return one(Ev::Info);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_member_assignment_state_with_task_epochs() {
        assert_eq!(active_tasks("(active=[0-0@9, 0-1@7], standby=[], warmup=[])"), vec!["0_0", "0_1"]);
        assert!(active_tasks("(active=[], standby=[], warmup=[])").is_empty());
    }
}
