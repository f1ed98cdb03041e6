//! The reasons clients and brokers log, as the cause words.

use super::model::Cause;

/// A client's rejoin reason (`AbstractCoordinator.requestRejoin`, librdkafka's
/// `rd_kafka_cgrp_rejoin`/`revoke_all_rejoin` reasons, the Python clients'), or the client
/// reason a broker repeats. `None`: the reason is a consequence ("group is already
/// rebalancing"), not a cause.
pub fn client_reason(reason: &str) -> Option<Cause> {
    let r = reason.to_ascii_lowercase();
    if r.contains("poll timeout") || r.contains("max.poll.interval.ms") || r.contains("max poll interval") {
        return Some(Cause::PollTimeout);
    }
    if r.contains("unknown_member_id")
        || r.contains("unknownmemberid")
        || r.contains("resetting member-id")
        || r.contains("unknown member")
    {
        return Some(Cause::UnknownMember);
    }
    if r.contains("fenced")
        || r.contains("illegal_generation")
        || r.contains("illegalgeneration")
        || r.contains("illegal generation")
    {
        return Some(Cause::Fenced);
    }
    // Kafka Streams' StreamThread.runOnceWithoutProcessingThreads enforces the rebalance the
    // leader scheduled: at 0 (at once, a task changes owner), else at a time (a probing one)
    if let Some(at) = r.split_once("triggered followup rebalance scheduled for ").map(|(_, a)| a.trim()) {
        return Some(if at == "0" { Cause::FollowUp } else { Cause::Probing });
    }
    if r.contains("metadata") || r.contains("subscription") {
        return Some(Cause::MetadataChange);
    }
    if r.contains("need to revoke partitions") {
        // ConsumerCoordinator.onJoinComplete: the second round of a cooperative rebalance
        return Some(Cause::Other);
    }
    if r.contains("coordinator")
        && (r.contains("not available")
            || r.contains("not_coordinator")
            || r.contains("unavailable")
            || r.contains("not the correct coordinator")
            || r.contains("notcoordinator"))
    {
        return Some(Cause::CoordinatorMoved);
    }
    None
}

/// The reason in the broker's `Preparing to rebalance group ... (reason: ...)`
/// (`GroupMetadataManager.prepareRebalance` callers; 3.x `GroupCoordinator` likewise).
pub fn broker_reason(reason: &str) -> Option<Cause> {
    if reason.starts_with("Adding new member") {
        return Some(Cause::MemberJoined);
    }
    if reason.contains("on heartbeat expiration") {
        return Some(Cause::SessionTimeout);
    }
    let client = reason.split_once("client reason: ").map(|(_, r)| r).unwrap_or("");
    // 4.x "explicit `LeaveGroup` request for (...) members."; 3.x "Removing member ... on LeaveGroup; client reason: ..."
    if reason.contains("explicit `LeaveGroup`") || reason.contains(" on LeaveGroup") {
        return Some(if client_reason(client) == Some(Cause::PollTimeout) {
            Cause::PollTimeout
        } else {
            Cause::MemberLeft
        });
    }
    if reason.contains("pending sync request expiration") || reason.contains("Freshly-loaded group") {
        return Some(Cause::Other);
    }
    // "Updating metadata for member ...", "Leader ... re-joining group ...", "Member ... is joining
    // group during ...": an existing member rejoined; its own reason says why.
    client_reason(client).or(Some(Cause::Other))
}

/// Why the KIP-848 coordinator fenced a member (`GroupMetadataManager.consumerGroupFenceMemberOperation`
/// and the rebalance-timeout fencing).
pub fn fence_reason(reason: &str) -> Cause {
    if reason.contains("session expired") {
        Cause::SessionTimeout
    } else {
        Cause::Fenced
    }
}

/// A group error a request failed with.
pub fn group_error(error: &str) -> Option<Cause> {
    match error {
        "UNKNOWN_MEMBER_ID" => Some(Cause::UnknownMember),
        "ILLEGAL_GENERATION" | "FENCED_INSTANCE_ID" | "FENCED_MEMBER_EPOCH" => Some(Cause::Fenced),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_reasons_kafka_logs() {
        assert_eq!(
            broker_reason(
                "Adding new member consumer-demo-3-x with group instance id null; client reason: not provided"
            ),
            Some(Cause::MemberJoined)
        );
        assert_eq!(
            broker_reason("removing member consumer-demo-2-x on heartbeat expiration."),
            Some(Cause::SessionTimeout)
        );
        assert_eq!(
            broker_reason("Updating metadata for member m during Stable; client reason: cached metadata has changed"),
            Some(Cause::MetadataChange)
        );
        assert_eq!(client_reason("group is already rebalancing"), None);
        assert_eq!(client_reason("triggered followup rebalance scheduled for 0"), Some(Cause::FollowUp));
        assert_eq!(client_reason("triggered followup rebalance scheduled for 1796684235181"), Some(Cause::Probing));
        assert_eq!(client_reason("encountered UNKNOWN_MEMBER_ID from HEARTBEAT response"), Some(Cause::UnknownMember));
        assert_eq!(client_reason("consumer poll timeout has expired."), Some(Cause::PollTimeout));
        assert_eq!(
            client_reason("rebalance failed due to 'This is not the correct coordinator.' (NotCoordinatorException)"),
            Some(Cause::CoordinatorMoved)
        );
        assert_eq!(
            client_reason("rebalance failed due to 'The group member needs to have a valid member id before actually entering a consumer group.' (MemberIdRequiredException)"),
            None
        );
    }
}
