//! Simplified Chinese for the core's narration: its notes (`EventKind::Note`),
//! the phrases inside them, and the triggers of state transitions.
//!
//! Notes, triggers and the phrases inside notes are data
//! (`crate::sim::note::Note`, `crate::sim::trigger::Trigger`,
//! `crate::sim::reason`, `crate::sim::commit_exception`,
//! `crate::sim::fault::cap`): each function here writes the Chinese from the
//! variant and its fields, one arm per variant, so a new variant does not
//! compile until it has its Chinese. Kafka's names (configs, states, error
//! codes, APIs, member ids, `c<n>`, `broker-<n>`, topic-partitions) stay
//! untranslated inside the Chinese.
//!
//! What is still free text is the fault sentences, timer names, message
//! labels and drop reasons that `crate::narrate::fault` translates from its
//! tables of English and Chinese templates: [`capture`] finds the variable
//! parts (`{}`) of an English template and [`fill`] puts them into the
//! Chinese (`{0}`, `{1}`...); [`translate_table`] does both.

use crate::connect::protocol::{join_items, ConnectAssignment};
use crate::sim::commit_exception::{CommitException, LocalRefusal};
use crate::sim::fault::cap::CapExceeded;
use crate::sim::message::partition_list;
use crate::sim::note::Note;
use crate::sim::reason::{ClientReason, FenceReason};
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;

/// The Chinese for `text` from a table of English and Chinese templates (fault
/// sentences, timers, message labels): the matching template with the most
/// literal text (so "heartbeat → {}" would win over "{} → {}"), its variable
/// parts as they are.
pub fn translate_table(table: &[(&str, &str)], text: &str) -> Option<String> {
    let (zh, caps) = table
        .iter()
        .filter_map(|(en, zh)| capture(en, text).map(|c| (en.len() - 2 * c.len(), zh, c)))
        .max_by_key(|(literal, _, _)| *literal)
        .map(|(_, zh, c)| (zh, c))?;
    let args: Vec<String> = caps.into_iter().map(str::to_string).collect();
    Some(fill(zh, &args))
}

/// Matches `text` against one English template: the variable parts, in order,
/// or `None`. The literal pieces must appear in order, the first at the start
/// and the last at the end; each variable part is non-empty. Where a literal
/// piece occurs more than once, every split is tried (first match wins).
pub fn capture<'a>(template: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let pieces: Vec<&str> = template.split("{}").collect();
    let rest = text.strip_prefix(pieces[0])?;
    let mut caps = Vec::with_capacity(pieces.len() - 1);
    if match_rest(&pieces[1..], rest, &mut caps) {
        Some(caps)
    } else {
        None
    }
}

/// `pieces` are the literals after each remaining `{}`; `rest` starts where a `{}` begins.
fn match_rest<'a>(pieces: &[&str], rest: &'a str, caps: &mut Vec<&'a str>) -> bool {
    let Some((lit, more)) = pieces.split_first() else { return rest.is_empty() };
    if more.is_empty() {
        // The last literal ends the text.
        return match rest.strip_suffix(lit) {
            Some(cap) if !cap.is_empty() => {
                caps.push(cap);
                true
            }
            _ => false,
        };
    }
    if lit.is_empty() {
        return false; // two adjacent `{}`: ambiguous, not used in the table
    }
    let mut from = 1; // each capture is non-empty
    while from <= rest.len() {
        let Some(i) = rest.get(from..).and_then(|s| s.find(lit)) else { return false };
        let at = from + i;
        caps.push(&rest[..at]);
        if match_rest(more, &rest[at + lit.len()..], caps) {
            return true;
        }
        caps.pop();
        from = at + 1;
        while from < rest.len() && !rest.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

pub(crate) use crate::zh_fill::f;
pub use crate::zh_fill::fill;

/// The trigger of a state transition, from its fields.
pub fn trigger(t: &Trigger) -> String {
    use Trigger::*;
    match t {
        BecameLeader => "成为该分区的 leader".into(),
        LeadershipMovedAway => "该分区的 leader 已转移到别处".into(),
        Replayed { records } => f("重放了 {0} 条记录", &[records]),
        JoinPhaseComplete { generation, protocol } => f("加入阶段完成：第 {0} 代，协议 {1}", &[generation, protocol]),
        JoinPhaseNoMembers => "加入阶段结束，没有成员".into(),
        LeaderAssignmentStored { generation } => f("已保存 leader 为第 {0} 代计算的分配", &[generation]),
        MemberExpired { member_id } => f("成员 {0} 过期（会话超时）", &[member_id]),
        MemberJoined { member_id } => f("成员 {0} 加入", &[member_id]),
        MemberRejoined { member_id } => f("成员 {0} 重新加入", &[member_id]),
        MembersLeft { count } => f("{0} 个成员离开了组（LeaveGroup）", &[count]),
        StaticMemberNewProtocols { instance_id } => f("静态成员 {0} 带着新的协议重新加入", &[instance_id]),
        StaticMemberRejoinedCompleting { instance_id } => {
            f("静态成员 {0} 在 CompletingRebalance 期间重新加入", &[instance_id])
        }
        PendingSyncExpired => "待定的 SyncGroup 已过期".into(),
        ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat".into(),
        ShareGroupHeartbeat => "ShareGroupHeartbeat".into(),
        StreamsGroupHeartbeat => "StreamsGroupHeartbeat".into(),
        Fenced(reason) => fence_reason(reason),
        SentJoinGroup => "发送了 JoinGroup".into(),
        JoinedGeneration { generation } => f("加入了第 {0} 代", &[generation]),
        SyncGroupDone { generation } => f("SyncGroup 完成，第 {0} 代", &[generation]),
        Client(reason) => client_reason(reason),
        Fatal { error } => f("致命错误 {0}", &[error]),
        LeaveNotSent => "无法发送离组心跳：协调者未知".into(),
        AcknowledgedAssignment => "已确认分配".into(),
        NewerTargetWaiting => "有更新的目标分配在等待".into(),
        LeftGroup => "离开了组".into(),
        NewTargetAssignment { partitions } => f("新的目标分配 {0}", &[&partition_list(partitions)]),
        TargetAlreadyReconciled => "目标分配已经调和完毕".into(),
        HeartbeatErrorWhileLeaving { error } => f("离组时心跳 → {0}", &[error]),
        HeartbeatError { error } => f("心跳 → {0}", &[error]),
        RejoiningAfterFenced => "被隔离（fenced）后重新加入".into(),
        PollAfterPollTimerExpired => "poll 计时器到期后再次调用 poll()：重新加入".into(),
        SubscribeThenPoll => "调用 subscribe() 然后 poll()".into(),
        TargetEqualsCurrent => "目标分配与当前分配相同".into(),
        ReconciledNewAssignment => "已调和新的分配".into(),
        PollTimerExpired => "poll 计时器到期".into(),
        SendingLeaveHeartbeat => "正在发送离组心跳".into(),
        Close => "调用了 close()".into(),
        LeftAfterPollTimerExpired => "poll 计时器到期后离开了组".into(),
        AssignedInGeneration { generation } => f("在第 {0} 代获得分配", &[generation]),
        TaskThrew => "任务抛出了异常".into(),
        RestartTask { connector, task } => f("重启请求 POST /connectors/{0}/tasks/{1}/restart", &[connector, task]),
        RestartConnector { name, include_tasks, only_failed } => f(
            "重启请求 POST /connectors/{0}/restart?includeTasks={1}&onlyFailed={2}",
            &[name, include_tasks, only_failed],
        ),
        RevokedByLeader => "被 leader 撤销".into(),
        EagerRebalanceStopsAll => "eager 协议的再均衡：全部停止".into(),
        CoordinatorUnreachable { interval_ms } => {
            f("{0} ms 内联系不上协调者：撤销分配，以免在组外运行任务", &[interval_ms])
        }
    }
}

/// Why a classic consumer or a Connect worker resets, rejoins, forgets its
/// coordinator or retries.
pub fn client_reason(r: &ClientReason) -> String {
    use ClientReason::*;
    match r {
        RequestFailed { api, broker } => f("发往 broker-{1} 的 {0} 失败", &[api, broker]),
        Answered { api, error } => f("{0} 返回 {1}", &[api, error]),
        Response { api, error } => f("{0} → {1}", &[api, error]),
        ConnectionBroke { api } => f("{0} 失败：连接已断开", &[api]),
        NoHeartbeatResponse => "session.timeout.ms 内没有收到心跳响应".into(),
        JoinAfterCoordinatorUnknown => "JoinGroup 的响应在协调者被标记为未知之后才到达".into(),
        JoinAfterLeft => "JoinGroup 的响应在该成员离开之后才到达：忽略（UnjoinedGroupException）".into(),
        MemberIdRequired => "MEMBER_ID_REQUIRED".into(),
        SyncAfterGenerationReset => "代重置之后才收到 SyncGroup 的响应".into(),
        PollTimeoutExpired => "poll 超时已到".into(),
    }
}

/// Why the consumer group coordinator fenced a member.
pub fn fence_reason(r: &FenceReason) -> String {
    match r {
        FenceReason::LeftGroup => "它离开了组".into(),
        FenceReason::SessionExpired => "成员会话已过期".into(),
        FenceReason::RevocationTimeout { epoch } => f("它未在纪元 {0} 的再均衡超时内撤销分区", &[epoch]),
    }
}

/// An error code, or "the connection broke" for no answer.
fn error_or_broken(e: Option<Errors>) -> String {
    e.map_or_else(|| "连接已断开".into(), |e| e.to_string())
}

/// What an offset commit failed with. Kafka's exception names stay as they are.
pub fn commit_exception(e: &CommitException) -> String {
    use CommitException::*;
    match e {
        Retriable(e) => f("{0}（可重试）", &[&error_or_broken(*e)]),
        RejoinRequested => "REBALANCE_IN_PROGRESS：RebalanceInProgressException，已请求重新加入".into(),
        AlreadyRejoining(e) => f("{0}：RebalanceInProgressException，该成员已在重新加入", &[e]),
        Failed(e) => f("{0}：CommitFailedException", &[e]),
        FencedOldGeneration { rejoining: true } => "旧代的 FENCED_INSTANCE_ID：RebalanceInProgressException".into(),
        FencedOldGeneration { rejoining: false } => "旧代的 FENCED_INSTANCE_ID：CommitFailedException".into(),
        Raised(e) => f("{0}：抛给应用程序", &[&error_or_broken(*e)]),
        TimedOut { default_api_timeout_ms } => {
            f("TimeoutException：未能在 default.api.timeout.ms = {0} ms 内提交", &[default_api_timeout_ms])
        }
        NoLongerOwned => "CommitFailedException，该成员已不再拥有这些分区".into(),
        NotStable(r) => f("{0}，该成员不在稳定的代中", &[&local_refusal(*r)]),
        RetriableCommitFailed(inner) => f("RetriableCommitFailedException（{0}）", &[&commit_exception(inner)]),
    }
}

/// A commit refused before it is sent: Kafka's exception name.
fn local_refusal(r: LocalRefusal) -> String {
    r.to_string()
}

/// A Connect worker's assignment, as `ConnectAssignment::summary` writes it.
fn connect_assignment(a: &ConnectAssignment) -> String {
    let mut s = format!("[{}]", join_items(&a.connectors, &a.tasks));
    if !a.revoked_connectors.is_empty() || !a.revoked_tasks.is_empty() {
        s.push_str(&f("，撤销 [{0}]", &[&join_items(&a.revoked_connectors, &a.revoked_tasks)]));
    }
    if a.delay > 0 {
        s.push_str(&f("，延迟 {0} ms", &[&a.delay]));
    }
    s
}

/// Why a fault was ignored.
pub fn cap_exceeded(c: &CapExceeded) -> String {
    match c {
        CapExceeded::Partitions { count, max } => f("增加 {0} 个分区后总数将超过 {1}", &[count, max]),
        CapExceeded::Consumers { max } => f("本次运行已有 {0} 个消费者", &[max]),
        CapExceeded::Workers { max } => f("本次运行已有 {0} 个 worker", &[max]),
    }
}

/// The Chinese for a note, from its fields. Kafka's names stay as Kafka spells them.
pub fn note(n: &Note) -> String {
    use Note::*;
    match n {
        GroupCreated { group_id } => f("已创建组 {0}（Empty）", &[group_id]),
        MemberAdded { member_id, group_id } => f("已将成员 {0} 加入组 {1}", &[member_id, group_id]),
        InitialRebalanceDelay { delay_ms } => {
            f("首次再均衡：等待 group.initial.rebalance.delay.ms = {0} ms，以便更多成员加入", &[delay_ms])
        }
        InitialDelayExtended { wait_ms } => f("初始延迟期间有新成员加入：再等待 {0} ms", &[wait_ms]),
        MemberDidNotRejoin { member_id } => f("成员 {0} 未及时重新加入，已被移除", &[member_id]),
        LeaderOfGeneration { leader_id, generation } => {
            f("{0} 是第 {1} 代的 leader；只有它收到成员列表", &[leader_id, generation])
        }
        StaticMemberReplaced { instance_id, old_member_id, new_member_id } => {
            f("静态成员 {0} 重新加入：{1} 被替换为 {2}，分配保持不变", &[instance_id, old_member_id, new_member_id])
        }
        PendingMemberDropped { member_id } => f("待定成员 {0} 始终没有重新加入，已丢弃", &[member_id]),
        SessionTimeout { member_id, session_timeout_ms } => {
            f("session.timeout.ms = {1} ms 内没有收到 {0} 的心跳：将其移除", &[member_id, session_timeout_ms])
        }
        SyncGroupTimeout { member_id } => f("{0} 未在再均衡超时内发送 SyncGroup，已被移除", &[member_id]),
        MemberRemovedGroupFull { member_id, max_size } => {
            f("再均衡期间已达到 group.max.size = {1}：尚未重新加入的 {0} 被移出组", &[member_id, max_size])
        }
        GroupLoaded { group_id, state, generation, members } => {
            f("已加载组 {0}：状态 {1}，第 {2} 代，{3} 个成员", &[group_id, state, generation, members])
        }
        GroupEpochBumped { group_id, epoch } => f("组 {0}：组纪元增至 {1}", &[group_id, epoch]),
        TargetAssignmentDeferred { group_id, until_ms } => f(
            "组 {0}：新的目标分配推迟到 {1} ms（group.consumer.assignment.interval.ms）之后的第一次心跳时计算",
            &[group_id, until_ms],
        ),
        ServerAssignorFailed { group_id, assignor, error } => {
            f("组 {0}：{1} 分配器失败：{2}", &[group_id, assignor, error])
        }
        TargetAssignmentComputed { group_id, assignor, epoch, summary } => {
            let summary = summary.clone().unwrap_or_else(|| "没有成员的目标分配发生变化".into());
            f("组 {0}：{1} 分配器算出了纪元 {2} 的目标分配：{3}", &[group_id, assignor, epoch, &summary])
        }
        StaticMemberLeftTemporarily { member_id } => {
            f("静态成员 {0} 暂时离开（纪元 -2），其分区仍保持分配", &[member_id])
        }
        MemberFenced { member_id, group_id, reason, epoch } => f(
            "成员 {0} 被组 {1} 隔离（fenced），原因：{2}；组纪元增至 {3}",
            &[member_id, group_id, &fence_reason(reason), epoch],
        ),
        ConsumerGroupLoaded { group_id, state, group_epoch, assignment_epoch, members } => f(
            "已加载消费者组 {0}（group.protocol=consumer）：{1}，组纪元 {2}（目标纪元 {3}），{4} 个成员",
            &[group_id, state, group_epoch, assignment_epoch, members],
        ),
        Started { node } => f("{0} 已启动", &[node]),
        HeldOnLink { label, from } => f("来自 {1} 的 {0} 被扣留在链路上", &[label, from]),
        NoSuchTopic { topic } => f("没有名为 {0} 的主题", &[topic]),
        FaultIgnoredUnknownNode { a, b } => {
            f("故障已忽略：'{0}' / '{1}' 中有未知节点（请用 c<n> 或 broker-<n>）", &[a, b])
        }
        FaultIgnored { reason } => f("故障已忽略：{0}", &[&cap_exceeded(reason)]),
        LeadershipMoved { partition, leader } => {
            f("__consumer_offsets-{0}：leader 转移到 broker-{1}", &[partition, leader])
        }
        PartitionOffline { partition } => {
            f("__consumer_offsets-{0}：没有合格的副本（ISR 或 ELR 中），该分区离线", &[partition])
        }
        BrokerStillAlive { broker, session_timeout_ms } => f(
            "控制器仍认为 broker-{0} 存活：要在 broker.session.timeout.ms = {1} ms 内收不到心跳后才会将其隔离",
            &[broker, session_timeout_ms],
        ),
        BrokerFenced { broker, session_timeout_ms } => f(
            "控制器：broker.session.timeout.ms = {1} ms 内没有收到 broker-{0} 的心跳，已将其隔离",
            &[broker, session_timeout_ms],
        ),
        ControlledShutdownDone { broker } => f("broker-{0} 完成受控关闭（controlled shutdown），已停止", &[broker]),
        PreferredLeadersElected { broker, partitions, interval_s } => f(
            "控制器：首选 leader 选举（leader.imbalance.check.interval.seconds = {0}）：broker-{1} 重新成为它的 {2} 个首选分区的 leader",
            &[interval_s, broker, partitions],
        ),
        NoWorkerRunsTask { group, task } => f("{0} 中没有 worker 运行任务 {1}：没有任务失败", &[group, task]),
        TaskNotAssigned { task, group } => {
            f("任务 {0} 未分配给 {1} 的任何 worker（NotAssignedException）", &[task, group])
        }
        RestartMatchedNothing { target, group } => f("重启 {1} 中的 {0}：没有匹配的对象", &[target, group]),
        NoConnectCluster { group } => f("没有名为 {0} 的 Connect 集群", &[group]),
        RequestTimedOut => "请求超时（request.timeout.ms）".into(),
        CoordinatorUnknown { broker, reason } => f("协调者 broker-{0} 被标记为未知：{1}", &[broker, &client_reason(reason)]),
        CoordinatorFound { group_id, broker } => f("{0} 的协调者是 broker-{1}", &[group_id, broker]),
        NotLeader { broker, partitions, new_leader: Some(l) } => f(
            "broker-{0} 不再是 {1} 的 leader：改从它指明的 leader broker-{2} 拉取",
            &[broker, &crate::sim::note::join(partitions), l],
        ),
        NotLeader { broker, partitions, new_leader: None } => {
            f("broker-{0} 不再是 {1} 的 leader：刷新元数据", &[broker, &crate::sim::note::join(partitions)])
        }
        FatalToApplication { error } => f("致命错误 {0}：消费者将其抛给应用程序", &[error]),
        FatalHerderStops { why } => f("致命错误 {0}：该 worker 的 herder 停止", &[&client_reason(why)]),
        FollowUpRebalanceLost { group_id, instance_id, generation, partitions } => f(
            "静态成员 {1} 在后续再均衡之前回来了：{0} 停留在第 {2} 代，{3} 无人拥有，直到下一次再均衡",
            &[group_id, instance_id, generation, &crate::sim::note::join(partitions)],
        ),
        UnexpectedGroupError { api, error } => f(
            "{0} 的响应是 {1}，其响应处理器并不预期这个错误：一个不可重试的 KafkaException 从 poll() 中抛出",
            &[api, error],
        ),
        SyncAfterGenerationReset => "SyncGroup 的响应在代重置之后才到达：忽略，重新加入".into(),
        SkipAssignment => "静态 leader 回归：SkipAssignment，组保留现有分配（KIP-814）".into(),
        RetryAfterBackoff { api, wait_ms, why } => {
            f("{1} ms（retry.backoff.ms）后再次发送 {0}（{2}）", &[api, wait_ms, &client_reason(why)])
        }
        JoinAnsweredNextPoll => "JoinGroup 已有响应：在应用程序下一次调用 poll() 时处理".into(),
        SyncAnsweredNextPoll => "SyncGroup 已有响应：分配在应用程序下一次调用 poll() 时生效".into(),
        MemberIdRequired => "MEMBER_ID_REQUIRED：用协调者给出的成员 ID 重新加入".into(),
        StaleHeartbeat { generation, error } => {
            f("第 {0} 代的心跳返回 {1}：忽略，代在此期间已经变化", &[generation, error])
        }
        UnknownAssignor { name } => f("未知的分配器 {0}", &[name]),
        LeaderRanAssignor { name, summary } => f("leader 运行了 {0} 分配器：{1}", &[name, summary]),
        ConnectLeaderRan { assignor, assignments } => {
            let each: Vec<String> = assignments.iter().map(|(w, a)| format!("{w}={}", connect_assignment(a))).collect();
            f("leader 运行了 {0}：{1}", &[assignor, &each.join(" ")])
        }
        AssignorFailed { name, error } => f("分配器 {0} 失败：{1}", &[name, error]),
        RevokedRejoining => "已撤销分区：为后续的再均衡重新加入".into(),
        HeartbeatRebalanceInProgress { next_poll: true } => {
            "心跳返回 REBALANCE_IN_PROGRESS：下次 poll() 时重新加入".into()
        }
        HeartbeatRebalanceInProgress { next_poll: false } => "心跳返回 REBALANCE_IN_PROGRESS：重新加入".into(),
        NewPartitionsRejoin { topics } => f("leader 发现 {0} 有新分区：重新加入以重新分配", &[&topics.join(", ")]),
        SubscriptionChangedNextPoll => "订阅已变更：下次 poll() 时重新加入".into(),
        SubscriptionChangedNextHeartbeat => "订阅已变更：下一次心跳会发送新订阅".into(),
        PollTimeoutLeaving { max_poll_interval_ms } => {
            f("超过 max.poll.interval.ms = {0} ms 没有调用 poll()：离开组", &[max_poll_interval_ms])
        }
        PollTimeoutCoordinatorUnknown { max_poll_interval_ms } => {
            f("超过 max.poll.interval.ms = {0} ms 没有调用 poll()，但协调者未知：暂不离开组", &[max_poll_interval_ms])
        }
        RejoinOnNextPoll { why } => f("{0}：下次 poll() 时重新加入", &[&client_reason(why)]),
        ScheduledRebalanceElapsed => "计划的再均衡延迟已到：重新加入".into(),
        AssignmentConfigMismatch => "分配失败（配置不一致）：重新加入".into(),
        StoppedRevoked => "已停止被撤销的 连接器和任务：为后续的再均衡重新加入".into(),
        KeptRunningAfterDowngrade { instances } => f(
            "组切换到了 eager 协议，而此 worker 切换前没有撤销任何东西：{0} 继续在这里运行，尽管没有任何分配包含它们",
            &[&instances.join(", ")],
        ),
        RevokeCommitTimedOut => "撤销前的提交未能在再均衡超时内成功：仍然撤销".into(),
        CommitAsyncCoordinatorUnknown => {
            "commitAsync() 失败：协调者未知（回调收到 RetriableCommitFailedException）".into()
        }
        CommitAsyncNotStable { exception } => {
            f("commitAsync() 失败：{0}，该成员不在稳定的代中", &[exception])
        }
        CommitAsyncFailed { exception } => f("commitAsync() 失败：{0}；交给回调，不重试", &[&commit_exception(exception)]),
        CommitSyncFailed { exception } => {
            f("commitSync() 失败：{0}；应用程序记录日志后再次 poll", &[&commit_exception(exception)])
        }
        CommitSyncRetry { exception, wait_ms } => {
            f("commitSync()：{0}，{1} ms 后重试", &[&commit_exception(exception), wait_ms])
        }
        JoinPrepareCommitRetry { exception, wait_ms } => {
            f("onJoinPrepare 提交失败：{0}；{1} ms 后重试", &[&commit_exception(exception), wait_ms])
        }
        JoinPrepareCommitFailed { exception } => f("onJoinPrepare 提交失败：{0}；仍然加入", &[&commit_exception(exception)]),
        AutoCommitFailed { exception } => f("自动提交失败：{0}", &[&commit_exception(exception)]),
        CommitFailed { error } => f("提交失败：{0}", &[error]),
        Share(n) => crate::narrate_share_zh::note(n),
        Streams(n) => crate::narrate_streams_zh::note(n),
    }
}
