//! Fidelity notes: every place the simulation simplifies Kafka, in English and
//! Simplified Chinese. The page lists them; add one whenever you simplify.

/// One simplification, with the part of the simulation it concerns.
pub struct Note {
    pub area: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

pub const NOTES: &[Note] = &[
    Note {
        area: "release",
        en: "Modelled on Apache Kafka 4.4 (KRaft, the new group coordinator). Older releases differed: before 2.2 (KIP-394) a classic member got its id on the first JoinGroup without MEMBER_ID_REQUIRED; static membership arrived in 2.3 (KIP-345), cooperative rebalancing in 2.4 (KIP-429); before 4.0 brokers could run with ZooKeeper and the old coordinator, and the KIP-848 consumer protocol became generally available only in 4.0, which also made consumer-protocol clients generate their own member ids (KIP-1082; before, the coordinator did); eligible leader replicas (KIP-966) are on by default for new clusters only since 4.1.",
        zh: "以 Apache Kafka 4.4 为模型（KRaft，新的组协调者）。更早的版本有这些不同：2.2（KIP-394）之前，经典成员在第一次 JoinGroup 时就直接拿到 member id，没有 MEMBER_ID_REQUIRED；静态成员在 2.3（KIP-345）引入，协作式再均衡在 2.4（KIP-429）引入；4.0 之前 broker 还可以运行在 ZooKeeper 之上、使用旧的协调者，KIP-848 consumer 协议直到 4.0 才正式可用（GA），4.0 也让 consumer 协议客户端自己生成 member id（KIP-1082；此前由协调者生成）；合格 leader 副本（ELR，KIP-966）从 4.1 起才对新集群默认开启。",
    },
    Note {
        area: "consumer protocol",
        en: "The consumer protocol (KIP-848) and Kafka Connect are modelled on Apache Kafka 4.4. Older releases differ: before 4.4 a member that changed the group's preferred server assignor (group.remote.assignor) did not bump the group epoch, so the new assignor waited for another change (KAFKA-20434); before 4.3 a new group started at epoch 0 (first member epoch 1), every heartbeat after a change computed the target at once (no group.consumer.assignment.interval.ms), and an OffsetCommit with any member epoch but the member's current one was refused with STALE_MEMBER_EPOCH (since 4.3, KIP-1251, an older epoch may commit the partitions assigned to the member at or before it); before 4.2 a fenced member rejoining with epoch 0 was fenced again until its session expired, leaving UNREVOKED_PARTITIONS bumped the member epoch, and targets were not filtered by the member's subscription; before 4.1 close() had no CloseOptions; before 4.0 the coordinator, not the client, chose the member id.",
        zh: "consumer 协议（KIP-848）和 Kafka Connect 以 Apache Kafka 4.4 为模型。更早的版本有所不同：4.4 之前，成员改变组的首选服务端分配器（group.remote.assignor）时不会提升组纪元，新的分配器要等到下一次其他变化才生效（KAFKA-20434）；4.3 之前，新组从纪元 0 开始（第一个成员的纪元是 1），每次变化之后的心跳都会立即计算目标分配（没有 group.consumer.assignment.interval.ms），而且 OffsetCommit 只要携带的不是成员当前的纪元，就会被以 STALE_MEMBER_EPOCH 拒绝（自 4.3 起，按照 KIP-1251，较旧的纪元也可以提交那些在该纪元或更早时分配给该成员的分区）；4.2 之前，被隔离（fenced）的成员用纪元 0 重新加入时会再次被隔离，直到会话超时，离开 UNREVOKED_PARTITIONS 时成员纪元会加一，目标分配也不按成员的订阅过滤；4.1 之前 close() 没有 CloseOptions；4.0 之前 member id 由协调者而不是客户端选定。",
    },
    Note {
        area: "measured against Kafka 4.4",
        en: "Run side by side with a real Kafka 4.4.0 broker and real Java clients (docs/fidelity.md), two behaviours still differ. A classic group's leader notices partitions added to a topic at once; real clients see them only after their next metadata refresh (metadata.max.age.ms, 5 minutes by default; ConsumerCoordinator.rejoinNeededOrPending). A KIP-848 consumer that misses max.poll.interval.ms runs onPartitionsLost at once; the real client only queues it for the application's next poll() (ConsumerMembershipManager.invokeOnPartitionsLostCallback).",
        zh: "与真实的 Kafka 4.4.0 broker 和真实的 Java 客户端并排运行（见 docs/fidelity.md）后，仍有两处行为不同。经典组的 leader 会立刻注意到某个 topic 新增了分区；真实客户端要等到下一次元数据刷新（metadata.max.age.ms，默认 5 分钟；ConsumerCoordinator.rejoinNeededOrPending）才会看到。KIP-848 消费者超过 max.poll.interval.ms 时，这里立刻执行 onPartitionsLost；真实客户端只是把它排入队列，等应用下一次调用 poll() 时才执行（ConsumerMembershipManager.invokeOnPartitionsLostCallback）。",
    },
    Note {
        area: "timers",
        en: "session.timeout.ms is 6 s and heartbeat.interval.ms 2 s in the demo (Kafka defaults: 45 s and 3 s) so a crash is detected quickly; 6 s is the broker minimum (group.min.session.timeout.ms).",
        zh: "演示中 session.timeout.ms 为 6 秒、heartbeat.interval.ms 为 2 秒（Kafka 默认值是 45 秒和 3 秒），这样消费者崩溃能很快被发现；6 秒是 broker 允许的最小值（group.min.session.timeout.ms）。",
    },
    Note {
        area: "network",
        en: "Every message takes 100 ms of simulated time so it can be followed by eye; real LAN latency is well under 1 ms.",
        zh: "每条消息在模拟时间里要走 100 毫秒，方便用眼睛跟踪；真实局域网延迟远低于 1 毫秒。",
    },
    Note {
        area: "fetch",
        en: "Consumers fetch records from partition leaders as Kafka's fetcher does: one Fetch per leader broker with every partition it leads that the consumer owns, the next one sent while a batch is processed, a leader with nothing new holding the request for fetch.max.wait.ms (500 ms), poll() returning at most max.poll.records; a broker that no longer leads a partition answers NOT_LEADER_OR_FOLLOWER naming the new leader (KIP-951), a dead one refuses the connection until the controller fences it. Simplified: no fetch sessions (KIP-227), no fetching from followers (KIP-392), no isolation.level or transactions, records have no size (a partition returns at most 1,000 per Fetch instead of max.partition.fetch.bytes), and the client's metadata refresh reads the cluster's metadata at once instead of sending a Metadata request. \"Show fetches\" draws them; they are hidden by default above 2× and in the space-time diagram.",
        zh: "消费者像 Kafka 的 fetcher 一样从分区 leader 拉取记录：每个 leader broker 一个 Fetch，包含该 broker 上它所拥有的所有分区；处理一批记录时就发出下一个 Fetch；leader 没有新记录时把请求保留 fetch.max.wait.ms（500 毫秒）；poll() 最多返回 max.poll.records 条。不再是某分区 leader 的 broker 回复 NOT_LEADER_OR_FOLLOWER 并指明新的 leader（KIP-951）；死掉的 broker 会拒绝连接，直到控制器将其隔离。简化之处：没有拉取会话（KIP-227），不从 follower 拉取（KIP-392），没有 isolation.level 和事务，记录没有大小（每个分区每次 Fetch 最多返回 1000 条，而不是按 max.partition.fetch.bytes），客户端刷新元数据时直接读取集群元数据，而不发送 Metadata 请求。勾选“显示拉取请求（Fetch）”即可画出它们；速度高于 2× 时以及在时空图中默认隐藏。",
    },
    Note {
        area: "coordinator",
        en: "__consumer_offsets replication is instantaneous and appends never fail; a new coordinator needs 500 ms to load its partition.",
        zh: "__consumer_offsets 的复制是瞬时的，追加写入从不失败；新的协调者加载它的分区需要 500 毫秒。",
    },
    Note {
        area: "coordinator",
        en: "__consumer_offsets is compacted as Kafka's log cleaner does it (cleanup.policy=compact): the latest record of each key is kept, tombstones are dropped after delete.retention.ms (1 day) and offsets are never renumbered, so a new coordinator replays only what survived. Simplified: a segment holds 1,024 records instead of offsets.topic.segment.bytes (100 MB), and a partition is cleaned when its active segment rolls and at least half of it is dirty (min.cleanable.dirty.ratio 0.5) instead of by a cleaner thread polling every log.cleaner.backoff.ms (15 s). log.cleaner.enable=false in the scenario's broker config keeps every record.",
        zh: "__consumer_offsets 像 Kafka 的日志清理器（log cleaner）那样被压缩（cleanup.policy=compact）：每个键只保留最新的记录，墓碑记录在 delete.retention.ms（1 天）之后删除，位移从不重新编号，所以新的协调者只需重放留下来的记录。简化之处：一个段保存 1024 条记录，而不是 offsets.topic.segment.bytes（100 MB）；分区在活动段滚动、且至少一半是脏数据时（min.cleanable.dirty.ratio 0.5）被清理，而不是由清理线程每隔 log.cleaner.backoff.ms（15 秒）轮询。在场景的 broker 配置里设置 log.cleaner.enable=false 会保留所有记录。",
    },
    Note {
        area: "coordinator",
        en: "A classic consumer or Connect worker that marks its coordinator unknown only forgets it: the requests it already sent there stay in flight and their answers are handled when they arrive (a classic consumer whose JoinGroup is answered then rejoins, having no coordinator to send SyncGroup to). Kafka's markCoordinatorUnknown also disconnects from the coordinator, so those requests fail with a DisconnectException at the next poll(), and a commit the broker stored may be reported failed or retried. This concerns a NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE answer, no heartbeat answer within session.timeout.ms, and a request past request.timeout.ms (Kafka then closes the connection; the simulation fails only that request). A broker that dies fails every request in flight to it, as in Kafka. The consumer-protocol client only forgets the coordinator, as Kafka's does.",
        zh: "经典消费者或 Connect worker 把协调者标记为未知时，只是忘掉它：已经发给它的请求仍在途中，响应到达时照常处理（此时收到 JoinGroup 响应的经典消费者会重新加入，因为它没有协调者可以发送 SyncGroup）。Kafka 的 markCoordinatorUnknown 还会断开与协调者的连接，所以这些请求会在下一次 poll() 时以 DisconnectException 失败，broker 已经保存的提交也可能被报告为失败或被重试。涉及的情况有：收到 NOT_COORDINATOR 或 COORDINATOR_NOT_AVAILABLE 响应、在 session.timeout.ms 内没有收到心跳响应，以及某个请求超过 request.timeout.ms（Kafka 此时会关闭连接；模拟中只有这一个请求失败）。broker 死掉时，发往它的所有在途请求都会失败，这与 Kafka 一致。consumer 协议客户端与 Kafka 一样，只是忘掉协调者。",
    },
    Note {
        area: "cluster",
        en: "The KRaft controller is not drawn and never fails. min.insync.replicas is 1, so only the last in-sync replica of a partition moves to the ELR; a restarted broker rejoins the ISR of every partition that has a leader at once (catching up takes no time). Preferred-leader election (auto.leader.rebalance.enable, on by default) runs every leader.imbalance.check.interval.seconds (300) counted from time 0, as the controller's periodic electPreferred task does: a restarted broker leads its preferred partitions again at the next run, and a coordinator moves back with its partition (clients get NOT_COORDINATOR and find it). As in KRaft, leader.imbalance.per.broker.percentage plays no part. A controlled shutdown ends after broker.heartbeat.interval.ms (2 s).",
        zh: "没有画出 KRaft 控制器，它也从不出故障。min.insync.replicas 为 1，所以只有分区最后一个同步副本会进入 ELR；重启的 broker 会立刻重新加入每个有 leader 的分区的 ISR（追赶数据不花时间）。首选 leader 选举（auto.leader.rebalance.enable，默认开启）像控制器的周期任务 electPreferred 那样，从时间 0 起每隔 leader.imbalance.check.interval.seconds（300 秒）运行一次：重启的 broker 在下一次运行时重新成为它的首选分区的 leader，协调者也随分区迁回（客户端收到 NOT_COORDINATOR 后重新找到它）。与 KRaft 一样，leader.imbalance.per.broker.percentage 不起作用。受控关闭在 broker.heartbeat.interval.ms（2 秒）之后结束。",
    },
    Note {
        area: "cluster",
        en: "Replica placement starts at a fixed broker instead of Kafka's random start.",
        zh: "副本分配从固定的 broker 开始，而 Kafka 是随机选择起点。",
    },
    Note {
        area: "network",
        en: "A killed broker closes its connections at once (the process died, the machine did not), so clients see a disconnect rather than a request timeout.",
        zh: "被杀掉的 broker 会立刻关闭连接（死的是进程，不是机器），所以客户端看到的是连接断开，而不是请求超时。",
    },
    Note {
        area: "offsets",
        en: "The demo uses auto.offset.reset=earliest (Kafka's default is latest) so redelivered records are visible.",
        zh: "演示使用 auto.offset.reset=earliest（Kafka 默认是 latest），这样能看到被重复投递的消息。",
    },
    Note {
        area: "metadata",
        en: "The group leader notices new partitions at its next poll(); Kafka notices them at its next metadata refresh (metadata.max.age.ms, 5 minutes by default).",
        zh: "组 leader 在下一次 poll() 时就会发现新增的分区；Kafka 要等到下一次元数据刷新（metadata.max.age.ms，默认 5 分钟）。",
    },
    Note {
        area: "network",
        en: "Links deliver in order like a TCP connection. 'Drop next message' and link loss remove single messages, which TCP never does; they exist to show what a member that misses a response believes.",
        zh: "链路像 TCP 连接一样按顺序投递。“丢弃下一条消息”和链路丢包会丢掉单条消息，TCP 从不会这样；它们的用途是展示一个错过响应的成员会怎么认为。",
    },
    Note {
        area: "connect",
        en: "Kafka Connect's config topic is not simulated: every worker always holds the same connector and task configuration, so a leader is never behind (no CONFIG_MISMATCH assignment) and connectors never change their task count.",
        zh: "没有模拟 Kafka Connect 的配置 topic：所有 worker 始终持有相同的 connector 和 task 配置，因此 leader 不会落后（不会出现 CONFIG_MISMATCH 分配），connector 也不会改变 task 数量。",
    },
    Note {
        area: "connect",
        en: "REST restarts reach the owning workers directly: the forwarding of a task restart to its owner and the restart request the leader writes to the config topic take no time.",
        zh: "REST 重启请求直接到达拥有该实例的 worker：把 task 重启转发给其所有者、以及 leader 把重启请求写入配置 topic，都不耗费时间。",
    },
    Note {
        area: "connect",
        en: "Connectors and tasks start and stop instantly and process no records; the herder thread never blocks, so a worker never exceeds rebalance.timeout.ms between polls (its poll timeout is not simulated). Status records (UNASSIGNED, RUNNING, FAILED, RESTARTING) are shown on the worker instead of in the status topic; a FAILED task that a rebalance stops keeps its FAILED status in Kafka's status topic, but here it is then shown on no worker until it starts again.",
        zh: "connector 和 task 的启动与停止是瞬时的，也不处理任何消息；herder 线程从不阻塞，因此 worker 两次 poll 之间不会超过 rebalance.timeout.ms（没有模拟它的 poll 超时）。状态（UNASSIGNED、RUNNING、FAILED、RESTARTING）直接显示在 worker 上，而不是写入状态 topic；被再均衡停止的 FAILED task 在 Kafka 的状态 topic 中仍是 FAILED，而在这里它会从所有 worker 上消失，直到再次启动。",
    },
    Note {
        area: "connect",
        en: "The consecutive-revocation backoff uses floating-point pow as Java's ExponentialBackoff does, without jitter (Connect sets none); internal REST request signing of the sessioned protocol (KIP-507) is not simulated.",
        zh: "连续撤销的退避与 Java 的 ExponentialBackoff 一样用浮点 pow 计算，没有抖动（Connect 本身也不设抖动）；没有模拟 sessioned 协议中内部 REST 请求的签名（KIP-507）。",
    },
    Note {
        area: "consumer protocol",
        en: "ConsumerGroupHeartbeat carries topic names where Kafka sends topic ids (TopicPartitions[].TopicId); the coordinator derives a fixed id from each name for the server assignors.",
        zh: "ConsumerGroupHeartbeat 中携带的是主题名，而 Kafka 发送的是主题 ID（TopicPartitions[].TopicId）；协调者为服务端分配器从每个主题名推导出一个固定的 ID。",
    },
    Note {
        area: "consumer protocol",
        en: "The simulated application registers a rebalance listener, so a new assignment is applied inside poll() (onPartitionsRevoked, onPartitionsAssigned, then the acknowledgement) once the auto-commit before it has completed. As in Kafka, the partitions about to be revoked are marked pending revocation before that commit starts: no Fetch is sent for them and records already buffered are dropped, so the commit holds the last position processed and the next owner processes nothing twice; poll() keeps returning records of the partitions the member keeps while the background thread commits.",
        zh: "模拟的应用注册了再均衡监听器，所以在协调前的自动提交完成之后，新的分配在 poll() 内生效（onPartitionsRevoked、onPartitionsAssigned，然后发送确认）。与 Kafka 一样，即将被撤销的分区在这次提交开始之前就被标记为待撤销（pending revocation）：不再为它们发送 Fetch，已经缓冲的消息也被丢弃，所以提交的正是最后处理到的位置，下一个所有者不会重复处理任何消息；后台线程提交期间，poll() 仍会返回成员保留的分区的消息。",
    },
    Note {
        area: "consumer protocol",
        en: "The consumer-protocol client handles commit errors as Kafka 4.4's CommitRequestManager does: commitSync() retries only retriable errors, so STALE_MEMBER_EPOCH and UNKNOWN_MEMBER_ID end it with a CommitFailedException (commitAsync() hands its callback the StaleMemberEpochException itself); the auto-commit before a revocation retries a stale epoch with the member's latest one, but not UNKNOWN_MEMBER_ID or UNKNOWN_TOPIC_OR_PARTITION; the interval auto-commit is skipped while another auto-commit is in flight, and after a failure it waits for the next interval (Kafka 4.4 does not retry it after retry.backoff.ms).",
        zh: "consumer 协议客户端处理提交错误的方式与 Kafka 4.4 的 CommitRequestManager 一致：commitSync() 只重试可重试的错误，所以 STALE_MEMBER_EPOCH 和 UNKNOWN_MEMBER_ID 会让它以 CommitFailedException 结束（commitAsync() 则把 StaleMemberEpochException 本身交给回调）；撤销分区之前的自动提交遇到过期纪元时会用成员最新的纪元重试，但不重试 UNKNOWN_MEMBER_ID 和 UNKNOWN_TOPIC_OR_PARTITION；按间隔进行的自动提交在另一次自动提交尚未完成时会跳过，失败之后则等到下一个间隔（Kafka 4.4 不会在 retry.backoff.ms 之后重试它）。",
    },
    Note {
        area: "consumer protocol",
        en: "onPartitionsLost runs at the moment the member is fenced, goes stale or fails; in Kafka it runs in the application thread's next poll().",
        zh: "成员被隔离（fenced）、变为 STALE 或出现致命错误时，onPartitionsLost 立即执行；在 Kafka 中它要等到应用线程下一次调用 poll() 时才执行。",
    },
    Note {
        area: "consumer protocol",
        en: "The coordinator compares the subscribed topics' partition counts on every heartbeat; Kafka does so when its metadata image changes or the group's metadata refresh deadline passes. Either way the next heartbeat after new partitions bumps the group epoch.",
        zh: "协调者在每次心跳时比较所订阅主题的分区数；Kafka 在元数据镜像变化或组的元数据刷新期限到达时才比较。两种方式下，新增分区之后的下一次心跳都会提升组纪元（group epoch）。",
    },
    Note {
        area: "consumer protocol",
        en: "No online migration between classic and consumer groups (group.consumer.migration.policy): classic JoinGroup, SyncGroup, Heartbeat and LeaveGroup for a non-empty consumer group get INCONSISTENT_GROUP_PROTOCOL, and a ConsumerGroupHeartbeat for a classic group in use gets GROUP_ID_NOT_FOUND. An empty group of one type gives its id to the first member of the other type, as in Kafka (maybeDeleteEmptyConsumerGroup, maybeDeleteEmptyClassicGroup), but the deleted group's tombstones are not written; otherwise an empty group is never deleted (no group expiry).",
        zh: "不模拟经典组与 consumer 组之间的在线迁移（group.consumer.migration.policy）：发给非空 consumer 组的经典 JoinGroup、SyncGroup、Heartbeat 和 LeaveGroup 会得到 INCONSISTENT_GROUP_PROTOCOL，发给正在使用的经典组的 ConsumerGroupHeartbeat 会得到 GROUP_ID_NOT_FOUND。与 Kafka 一样，一种类型的空组会把自己的组 id 让给另一种类型的第一个成员（maybeDeleteEmptyConsumerGroup、maybeDeleteEmptyClassicGroup），但这里不写被删除组的墓碑记录（tombstone）；除此之外，空组从不被删除（没有组过期）。",
    },
    Note {
        area: "consumer protocol",
        en: "OffsetFetch from consumer-protocol members does not carry their member id and epoch (OffsetFetch v9), so it is not checked for STALE_MEMBER_EPOCH; OffsetCommit is.",
        zh: "consumer 协议成员发出的 OffsetFetch 不携带成员 ID 和成员纪元（OffsetFetch v9），因此不会检查 STALE_MEMBER_EPOCH；OffsetCommit 会检查。",
    },
    Note {
        area: "consumer protocol",
        en: "close() sends its commit and leave heartbeat without waiting for their answers (Kafka waits up to the close timeout); the commit before a revocation is retried when the application next polls after the backoff, not from the background thread; per-group config overrides (GroupConfig) are not simulated; the client's session.timeout.ms, heartbeat.interval.ms and partition.assignment.strategy are ignored under group.protocol=consumer instead of being rejected.",
        zh: "close() 发出提交和离组心跳后不等待它们的响应（Kafka 最多等待关闭超时）；撤销分区之前的提交在退避之后、应用下一次 poll 时重试，而不是由后台线程重试；不模拟按组覆盖的配置（GroupConfig）；在 group.protocol=consumer 下，客户端的 session.timeout.ms、heartbeat.interval.ms 和 partition.assignment.strategy 会被忽略，而不是被拒绝。",
    },
    Note {
        area: "errors",
        en: "Error codes of the classic protocol that the simulation never produces, because it does not model their cause: GROUP_AUTHORIZATION_FAILED (no ACLs), UNSUPPORTED_VERSION (every broker speaks every API version), UNKNOWN_TOPIC_OR_PARTITION and REQUEST_TIMED_OUT as OffsetCommit answers (appends to __consumer_offsets never fail; client-side request timeouts and broken connections are simulated and retried the same way), OFFSET_METADATA_TOO_LARGE and INVALID_COMMIT_OFFSET_SIZE (commits carry no metadata string and have no size limit), UNSTABLE_OFFSET_COMMIT (no transactions), GROUP_ID_NOT_FOUND for OffsetCommit (groups and offsets never expire) and NON_EMPTY_GROUP (no admin client: no DeleteGroups or OffsetDelete). The client still reacts to each as Kafka does.",
        zh: "有些经典协议的错误码在模拟中从不出现，因为没有模拟引发它们的原因：GROUP_AUTHORIZATION_FAILED（没有 ACL）、UNSUPPORTED_VERSION（每个 broker 都支持所有 API 版本）、作为 OffsetCommit 响应的 UNKNOWN_TOPIC_OR_PARTITION 和 REQUEST_TIMED_OUT（向 __consumer_offsets 追加写入从不失败；客户端一侧的请求超时和连接断开是模拟了的，并以同样的方式重试）、OFFSET_METADATA_TOO_LARGE 和 INVALID_COMMIT_OFFSET_SIZE（提交不带元数据字符串，也没有大小限制）、UNSTABLE_OFFSET_COMMIT（没有事务）、OffsetCommit 的 GROUP_ID_NOT_FOUND（组和位移从不过期）以及 NON_EMPTY_GROUP（没有管理客户端，也就没有 DeleteGroups 和 OffsetDelete）。客户端对其中每一个错误的反应仍与 Kafka 一致。",
    },
    Note {
        area: "errors",
        en: "An empty group.id is refused one step early: the simulated broker answers FindCoordinator with INVALID_GROUP_ID, where Kafka finds a coordinator and refuses the JoinGroup (classic) or the ConsumerGroupHeartbeat (INVALID_REQUEST, consumer protocol). A classic consumer stops with the fatal error either way; a consumer-protocol consumer keeps retrying FindCoordinator instead of failing.",
        zh: "空的 group.id 会早一步被拒绝：模拟的 broker 对 FindCoordinator 就返回 INVALID_GROUP_ID，而 Kafka 会先找到协调者，再拒绝 JoinGroup（经典协议）或 ConsumerGroupHeartbeat（consumer 协议，返回 INVALID_REQUEST）。经典消费者无论哪种情况都会因致命错误而停止；consumer 协议的消费者则会不断重试 FindCoordinator，而不是失败。",
    },
    Note {
        area: "offsets",
        en: "simulated.commit.mode is not a Kafka config but the simulated application's own code: commitSync() or commitAsync() after each batch, commitAsync() before processing each batch (before), or no commit. The application catches every commit exception, logs it and polls again; a commitAsync() while the coordinator is unknown fails to its callback instead of waiting for the coordinator lookup.",
        zh: "simulated.commit.mode 不是 Kafka 的配置，而是模拟应用自己的代码：每处理完一批消息后调用 commitSync() 或 commitAsync()，在处理每批之前调用 commitAsync()（before），或者根本不提交。应用会捕获所有提交异常，记录日志后继续 poll；在协调者未知时调用的 commitAsync() 会直接以失败通知回调，而不是等待查找协调者。",
    },
    Note {
        area: "network",
        en: "FindCoordinator goes to a broker the client has no broken connection to; a broker whose connection broke is tried again only after reconnect.backoff.ms (doubling, without Kafka's 20% jitter), and Kafka's random starting point is a round-robin cursor.",
        zh: "FindCoordinator 会发往客户端没有断开连接记录的 broker；连接断开过的 broker 要等 reconnect.backoff.ms 之后才会再次尝试（逐次翻倍，没有 Kafka 的 20% 随机抖动），Kafka 随机选择的起点在这里是一个轮转游标。",
    },
    Note {
        area: "compare",
        en: "The comparison counts a partition as processed while its owner could process it (alive, not paused, holding a fetch position, not pending revocation, its poll() not waiting for the group), even when there is nothing new to read, and whether or not its records have arrived from the partition leader yet.",
        zh: "在协议对比中，只要分区的所有者能够处理它（进程存活、没有暂停、已有拉取位置、没有处于待撤销状态、poll() 没有在等待消费者组），就算作正在处理，即使此时没有新消息可读，也不论它的记录是否已经从分区 leader 拉取到。",
    },
    Note {
        area: "share groups",
        en: "Share groups (KIP-932) are simplified here. Records are tracked per offset (Kafka keeps batches and splits them). The share coordinator's RPCs (Initialize/Read/WriteShareGroupState) are not drawn as messages: initialization is a 20 ms timer, writes are applied at once to a replicated store, and the share coordinator's own failover and its snapshot and update records are not modelled. A record is delivered alone from max(2, ceil(limit/2)) deliveries on, rather than in Kafka's halving batch sizes. There is no dead-letter queue (ARCHIVING, share.version=2), no max.poll.interval.ms leave for share consumers and no share.acquire.mode. A ShareFetch waits at the leader until the next append or its max wait (a release wakes it). One poll() fetches from every leader at once and hands the application all they acquired, up to max.poll.records per leader; Kafka's ShareFetchCollector returns at most max.poll.records per poll and keeps the rest for the next polls. ShareAcknowledge is sent only on close() and for partitions no longer assigned (commitSync and commitAsync are not modelled). request.timeout.ms is fixed at 30 s, and a broker does not notice a connection its client gave up on. Reconnect backoff is not modelled. Group configs are fixed per scenario (no dynamic alter), and the group's metadata hash covers partition counts only.",
        zh: "共享组（KIP-932）在这里有所简化。记录按 offset 逐条跟踪（Kafka 保存批次并在需要时拆分）。共享协调者的 RPC（Initialize/Read/WriteShareGroupState）不画成消息：初始化是一个 20 毫秒的定时器，写入立即应用到一个有副本的存储上，共享协调者自身的故障转移及其快照和更新记录都不模拟。一条记录从第 max(2, ceil(limit/2)) 次投递起单独投递，而不是像 Kafka 那样逐次减半批次大小。没有死信队列（ARCHIVING，share.version=2），共享消费者没有因 max.poll.interval.ms 超时而离组，也没有 share.acquire.mode。ShareFetch 在 leader 处一直等到下一次追加或最长等待时间（释放记录会唤醒它）。一次 poll() 同时向每个 leader 拉取，并把获取到的记录全部交给应用（每个 leader 最多 max.poll.records 条）；Kafka 的 ShareFetchCollector 每次 poll 最多返回 max.poll.records 条，其余留给之后的 poll。ShareAcknowledge 只在 close() 时以及为不再分配的分区发送（不模拟 commitSync 和 commitAsync）。request.timeout.ms 固定为 30 秒，客户端放弃的连接 broker 不会察觉。不模拟重连退避。组配置在每个场景中固定（不能动态修改），组的元数据哈希只包含分区数。",
    },
    Note {
        area: "streams groups",
        en: "Streams groups (KIP-1071) are simplified here. A stream thread fetches and processes no records: an active task restores for a time proportional to the changelog records it lacks (all of them, or none after a standby on the same thread), then runs; standbys are always caught up. A changelog holds the scenario's changelogRecordsPerTask records even when the broker has just created it (in Kafka a new changelog is empty). Local state is kept per thread and lost when the process restarts (Kafka keeps it per instance in the state directory). Per-task assignment epochs, offset commits and task offsets are not modelled, and of the in-place role changes only active to standby and standby to active. The broker creates missing internal topics 500 ms after asking (no ACLs). Process ids read <applicationId>-p<n>. No rack tags, topology description plugin or custom assignors; classic Streams rebalancing (StreamsPartitionAssignor) is not modelled yet.",
        zh: "流组（KIP-1071）在这里有所简化。流线程不拉取也不处理记录：活动任务先恢复一段时间（与它缺少的 changelog 记录数成正比：全部，或者在同一线程上有备用副本时为零），然后运行；备用副本始终是最新的。即使 changelog 刚由 broker 创建，它也按场景的 changelogRecordsPerTask 含有记录（在 Kafka 中新建的 changelog 是空的）。本地状态按线程保存，进程重启后丢失（Kafka 按实例保存在状态目录中）。不模拟按任务的分配纪元、位移提交和任务位移；原地角色变化只模拟活动变备用和备用变活动。broker 在请求后 500 毫秒创建缺失的内部主题（没有 ACL）。进程 id 写作 <applicationId>-p<n>。没有机架标签、拓扑描述插件或自定义分配器；经典的 Streams 再均衡（StreamsPartitionAssignor）尚未模拟。",
    },
];
