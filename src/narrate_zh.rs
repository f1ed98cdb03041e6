//! Simplified Chinese for the core's narration: its notes (`EventKind::Note`),
//! the phrases inside them, and the triggers of state transitions.
//!
//! A note is data (`crate::sim::note::Note`): [`note`] writes its Chinese from
//! the variant and its fields, one arm per variant, so a new note does not
//! compile until it has its Chinese. Kafka's names (configs, states, error
//! codes, APIs, member ids, `c<n>`, `broker-<n>`, topic-partitions) stay
//! untranslated inside the Chinese.
//!
//! Some parts of a note are English phrases the core builds and also uses
//! elsewhere (a reason, a commit exception, a group's description); those,
//! and the transition triggers (`StateChanged::trigger`, free text), are still
//! matched against English templates ([`FRAGMENTS`], [`TRIGGERS`]): [`capture`]
//! finds the variable parts (`{}`) and [`fill`] puts them into the Chinese
//! (`{0}`, `{1}`...); a phrase that matches none stays as it is.

use crate::sim::note::Note;

/// English phrases the core puts inside notes (reasons, commit exceptions, a
/// group's description), translated where a captured part matches one whole.
pub const FRAGMENTS: &[(&str, &str)] = &[
    ("no heartbeat response within session.timeout.ms", "session.timeout.ms 内没有收到心跳响应"),
    ("{} to broker-{} failed", "发往 broker-{1} 的 {0} 失败"),
    ("{} answered {}", "{0} 返回 {1}"),
    ("it left the group", "它离开了组"),
    ("the member session expired", "成员会话已过期"),
    (
        "it did not revoke its partitions within its rebalance timeout at epoch {}",
        "它未在纪元 {0} 的再均衡超时内撤销分区",
    ),
    ("{} at group epoch {} (target epoch {}) with {} members", "{0}，组纪元 {1}（目标纪元 {2}），{3} 个成员"),
    (
        "TimeoutException: not committed within default.api.timeout.ms = {} ms",
        "TimeoutException：未能在 default.api.timeout.ms = {0} ms 内提交",
    ),
    ("{} (retriable)", "{0}（可重试）"),
    ("{}: raised to the application", "{0}：抛给应用程序"),
    ("{}, the member is not in a stable generation", "{0}，该成员不在稳定的代中"),
    ("RetriableCommitFailedException ({})", "RetriableCommitFailedException（{0}）"),
    (
        "REBALANCE_IN_PROGRESS: RebalanceInProgressException, rejoin requested",
        "REBALANCE_IN_PROGRESS：RebalanceInProgressException，已请求重新加入",
    ),
    (
        "{}: RebalanceInProgressException, the member already rejoins",
        "{0}：RebalanceInProgressException，该成员已在重新加入",
    ),
    ("{}: CommitFailedException", "{0}：CommitFailedException"),
    ("FENCED_INSTANCE_ID for an old generation: {}", "旧代的 FENCED_INSTANCE_ID：{0}"),
    ("the connection broke", "连接已断开"),
    ("{} failed: the connection broke", "{0} 失败：连接已断开"),
    ("JoinGroup answered after the coordinator was marked unknown", "JoinGroup 的响应在协调者被标记为未知之后才到达"),
    (
        "JoinGroup answered after this member had left: ignored (UnjoinedGroupException)",
        "JoinGroup 的响应在该成员离开之后才到达：忽略（UnjoinedGroupException）",
    ),
];

/// How deep captured parts are translated again (a fragment inside a fragment).
const MAX_DEPTH: usize = 3;

/// The Chinese for `text` from a table of English and Chinese templates (fault
/// sentences, transition triggers, [`FRAGMENTS`]), its parts translated as fragments.
pub fn translate_table(table: &[(&str, &str)], text: &str) -> Option<String> {
    translate_with(table, text, 0)
}

/// The triggers of state transitions (`EventKind::StateChanged::trigger`)
/// that the page shows in the event log and under the state diagrams.
pub const TRIGGERS: &[(&str, &str)] = &[
    ("became leader of the partition", "成为该分区的 leader"),
    ("replayed {} records", "重放了 {0} 条记录"),
    // The classic group coordinator
    ("join phase complete: generation {}, protocol {}", "加入阶段完成：第 {0} 代，协议 {1}"),
    ("join phase completed with no members", "加入阶段结束，没有成员"),
    ("leader's assignment for generation {} stored", "已保存 leader 为第 {0} 代计算的分配"),
    ("member {} expired (session timeout)", "成员 {0} 过期（会话超时）"),
    ("member {} joined", "成员 {0} 加入"),
    ("member {} rejoined", "成员 {0} 重新加入"),
    ("{} member(s) left the group (LeaveGroup)", "{0} 个成员离开了组（LeaveGroup）"),
    ("member {} did not rejoin in time and was removed", "成员 {0} 未及时重新加入，已被移除"),
    ("{} did not send SyncGroup within the rebalance timeout; removed", "{0} 未在再均衡超时内发送 SyncGroup，已被移除"),
    ("static member {} rejoined during CompletingRebalance", "静态成员 {0} 在 CompletingRebalance 期间重新加入"),
    ("static member {} rejoined with new protocols", "静态成员 {0} 带着新的协议重新加入"),
    ("static member present", "有静态成员在组中"),
    ("pending member {} never rejoined; dropped", "待定成员 {0} 始终没有重新加入，已丢弃"),
    // The clients (classic consumer, consumer-protocol consumer, Connect worker)
    ("sent JoinGroup", "发送了 JoinGroup"),
    ("assigned in generation {}", "在第 {0} 代获得分配"),
    ("the member session expired", "成员会话已过期"),
    ("joined generation {}", "加入了第 {0} 代"),
    ("SyncGroup done, generation {}", "SyncGroup 完成，第 {0} 代"),
    ("MEMBER_ID_REQUIRED: rejoin with the given id", "MEMBER_ID_REQUIRED：用分到的 id 重新加入"),
    ("JoinGroup answered after the coordinator was marked unknown", "JoinGroup 的响应在协调者被标记为未知之后才到达"),
    ("a newer target is waiting", "有更新的目标分配在等待"),
    ("acknowledged the assignment", "已确认分配"),
    ("close()", "调用了 close()"),
    ("fatal {}", "致命错误 {0}"),
    ("heartbeat → {}", "心跳 → {0}"),
    ("left the group", "离开了组"),
    ("left the group after the poll timer expired", "poll 计时器到期后离开了组"),
    ("new target assignment {}", "新的目标分配 {0}"),
    ("poll timer expired", "poll 计时器到期"),
    ("poll() after the poll timer expired: rejoining", "poll 计时器到期后再次调用 poll()：重新加入"),
    ("reconciled the new assignment", "已调和新的分配"),
    ("rejoining after being fenced", "被隔离（fenced）后重新加入"),
    ("sending the leave heartbeat", "正在发送离组心跳"),
    ("subscribe() then poll()", "调用 subscribe() 然后 poll()"),
    ("target equals the current assignment", "目标分配与当前分配相同"),
    ("the target is already reconciled", "目标分配已经调和完毕"),
    ("{} failed", "{0} 失败"),
    ("{} → {}", "{0} → {1}"),
];

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

/// Fills `{0}`, `{1}`... of `zh` with `args`.
pub fn fill(zh: &str, args: &[String]) -> String {
    // One pass, so a filled value is never read as a placeholder.
    let mut s = String::with_capacity(zh.len() + 16);
    let mut rest = zh;
    while let Some(open) = rest.find('{') {
        s.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        match close.and_then(|c| after[..c].parse::<usize>().ok().map(|i| (c, i))) {
            Some((c, i)) if i < args.len() => {
                s.push_str(&args[i]);
                rest = &after[c + 1..];
            }
            _ => {
                s.push('{');
                rest = after;
            }
        }
    }
    s.push_str(rest);
    s
}

/// The best match in `table`: the matching template with the most literal
/// text (so the trigger "heartbeat → {}" wins over "{} → {}"), its
/// captures translated as fragments.
fn translate_with(table: &[(&str, &str)], text: &str, depth: usize) -> Option<String> {
    let (zh, caps) = table
        .iter()
        .filter_map(|(en, zh)| capture(en, text).map(|c| (en.len() - 2 * c.len(), zh, c)))
        .max_by_key(|(literal, _, _)| *literal)
        .map(|(_, zh, c)| (zh, c))?;
    let args: Vec<String> = caps
        .into_iter()
        .map(|c| {
            if depth < MAX_DEPTH { translate_with(FRAGMENTS, c, depth + 1) } else { None }
                .unwrap_or_else(|| c.to_string())
        })
        .collect();
    Some(fill(zh, &args))
}

/// A phrase the core built in English inside a note (a reason, an exception,
/// a group's description): its Chinese from [`FRAGMENTS`], or as it is.
fn fragment(text: &str) -> String {
    translate_with(FRAGMENTS, text, 1).unwrap_or_else(|| text.to_string())
}

/// The Chinese for a note, from its fields. Kafka's names stay as Kafka spells them.
pub fn note(n: &Note) -> String {
    use Note::*;
    let f =
        |zh: &str, args: &[&dyn std::fmt::Display]| fill(zh, &args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
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
        GroupLoaded { group_id, state, generation, members } => {
            f("已加载组 {0}：状态 {1}，第 {2} 代，{3} 个成员", &[group_id, state, generation, members])
        }
        GroupEpochBumped { group_id, epoch } => f("组 {0}：组纪元增至 {1}", &[group_id, epoch]),
        TargetAssignmentDeferred { group_id, until_ms } => f(
            "组 {0}：新的目标分配推迟到 {1} ms（group.consumer.assignment.interval.ms）之后的第一次心跳时计算",
            &[group_id, until_ms],
        ),
        ServerAssignorFailed { group_id, assignor, error } => {
            f("组 {0}：{1} 分配器失败：{2}", &[group_id, assignor, &fragment(error)])
        }
        TargetAssignmentComputed { group_id, assignor, epoch, summary } => {
            f("组 {0}：{1} 分配器算出了纪元 {2} 的目标分配：{3}", &[group_id, assignor, epoch, &fragment(summary)])
        }
        StaticMemberLeftTemporarily { member_id } => {
            f("静态成员 {0} 暂时离开（纪元 -2），其分区仍保持分配", &[member_id])
        }
        MemberFenced { member_id, group_id, reason, epoch } => f(
            "成员 {0} 被组 {1} 隔离（fenced），原因：{2}；组纪元增至 {3}",
            &[member_id, group_id, &fragment(reason), epoch],
        ),
        ConsumerGroupLoaded { group_id, description } => {
            f("已加载消费者组 {0}（group.protocol=consumer）：{1}", &[group_id, &fragment(description)])
        }
        Started { node } => f("{0} 已启动", &[node]),
        HeldOnLink { label, from } => f("来自 {1} 的 {0} 被扣留在链路上", &[label, from]),
        NoSuchTopic { topic } => f("没有名为 {0} 的主题", &[topic]),
        FaultIgnoredUnknownNode { a, b } => {
            f("故障已忽略：'{0}' / '{1}' 中有未知节点（请用 c<n> 或 broker-<n>）", &[a, b])
        }
        FaultIgnored { reason } => f("故障已忽略：{0}", &[&fragment(reason)]),
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
        CoordinatorUnknown { broker, reason } => f("协调者 broker-{0} 被标记为未知：{1}", &[broker, &fragment(reason)]),
        CoordinatorFound { group_id, broker } => f("{0} 的协调者是 broker-{1}", &[group_id, broker]),
        NotLeader { broker, partitions, new_leader: Some(l) } => f(
            "broker-{0} 不再是 {1} 的 leader：改从它指明的 leader broker-{2} 拉取",
            &[broker, &crate::sim::note::join(partitions), l],
        ),
        NotLeader { broker, partitions, new_leader: None } => {
            f("broker-{0} 不再是 {1} 的 leader：刷新元数据", &[broker, &crate::sim::note::join(partitions)])
        }
        FatalToApplication { error } => f("致命错误 {0}：消费者将其抛给应用程序", &[error]),
        FatalHerderStops { why } => f("致命错误 {0}：该 worker 的 herder 停止", &[&fragment(why)]),
        SyncAfterGenerationReset => "SyncGroup 的响应在代重置之后才到达：忽略，重新加入".into(),
        SkipAssignment => "静态 leader 回归：SkipAssignment，组保留现有分配（KIP-814）".into(),
        RetryAfterBackoff { api, wait_ms, why } => {
            f("{1} ms（retry.backoff.ms）后再次发送 {0}（{2}）", &[api, wait_ms, &fragment(why)])
        }
        JoinAnsweredNextPoll => "JoinGroup 已有响应：在应用程序下一次调用 poll() 时处理".into(),
        SyncAnsweredNextPoll => "SyncGroup 已有响应：分配在应用程序下一次调用 poll() 时生效".into(),
        MemberIdRequired => "MEMBER_ID_REQUIRED：用协调者给出的成员 ID 重新加入".into(),
        StaleHeartbeat { generation, error } => {
            f("第 {0} 代的心跳返回 {1}：忽略，代在此期间已经变化", &[generation, error])
        }
        UnknownAssignor { name } => f("未知的分配器 {0}", &[name]),
        LeaderRanAssignor { name, summary } => f("leader 运行了 {0} 分配器：{1}", &[name, &fragment(summary)]),
        ConnectLeaderRan { assignor, summary } => f("leader 运行了 {0}：{1}", &[assignor, &fragment(summary)]),
        AssignorFailed { name, error } => f("分配器 {0} 失败：{1}", &[name, &fragment(error)]),
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
        RejoinOnNextPoll { why } => f("{0}：下次 poll() 时重新加入", &[&fragment(why)]),
        ScheduledRebalanceElapsed => "计划的再均衡延迟已到：重新加入".into(),
        AssignmentConfigMismatch => "分配失败（配置不一致）：重新加入".into(),
        StoppedRevoked => "已停止被撤销的 连接器和任务：为后续的再均衡重新加入".into(),
        RevokeCommitTimedOut => "撤销前的提交未能在再均衡超时内成功：仍然撤销".into(),
        CommitAsyncCoordinatorUnknown => {
            "commitAsync() 失败：协调者未知（回调收到 RetriableCommitFailedException）".into()
        }
        CommitAsyncNotStable { exception } => {
            f("commitAsync() 失败：{0}，该成员不在稳定的代中", &[&fragment(exception)])
        }
        CommitAsyncFailed { exception } => f("commitAsync() 失败：{0}；交给回调，不重试", &[&fragment(exception)]),
        CommitSyncFailed { exception } => {
            f("commitSync() 失败：{0}；应用程序记录日志后再次 poll", &[&fragment(exception)])
        }
        CommitSyncRetry { exception, wait_ms } => {
            f("commitSync()：{0}，{1} ms 后重试", &[&fragment(exception), wait_ms])
        }
        JoinPrepareCommitRetry { exception, wait_ms } => {
            f("onJoinPrepare 提交失败：{0}；{1} ms 后重试", &[&fragment(exception), wait_ms])
        }
        JoinPrepareCommitFailed { exception } => f("onJoinPrepare 提交失败：{0}；仍然加入", &[&fragment(exception)]),
        AutoCommitFailed { exception } => f("自动提交失败：{0}", &[&fragment(exception)]),
        CommitFailed { error } => f("提交失败：{0}", &[error]),
    }
}
