//! The page's newer strings: the welcome's follow-ups, the caption, the
//! legend and Help's explanation of the drawing, the inspector's facts, undo
//! and reset, presenter mode. Same form as `TABLE`; the glossary in
//! docs/glossary.md holds for both.

/// (key, English, Chinese).
pub const PAGE: &[(&str, &str, &str)] = &[
    ("ok", "OK", "好的"),
    ("import.scenario", "Imported a scenario file: a new run of it starts here (its faults are part of the scenario).", "已导入场景文件：从这里开始运行它（其中的故障属于场景的一部分）。"),
    ("more", "More…", "更多…"),
    ("welcome.sandbox", "The sandbox: click any broker, consumer or link to see its state and break it; the fault menu on the right lists every fault. Play or step to see what happens.", "沙盒：点击任意 broker、消费者或连线，查看它的状态并制造故障；右侧的故障菜单列出了全部故障。播放或单步执行，看看会发生什么。"),
    // Reset and undo
    ("reset.title", "back to the start of this scenario", "回到这个场景的开头"),
    ("reset.keeps", "back to the start; your faults stay and happen again at their times", "回到开头；你注入的故障会保留，并在原来的时间再次发生"),
    ("reset.clear", "Reset and clear my {0} fault(s)", "重置并清除我注入的 {0} 个故障"),
    ("undo", "Undo", "撤销"),
    ("undo.notice", "You acted at {0} s, in the past: the run after that moment (up to {1} s) and {2} later fault(s) were discarded.", "你在过去的时刻 {0} 秒执行了操作：该时刻之后的运行（直到 {1} 秒）以及之后的 {2} 个故障已被丢弃。"),
    // Caption and legend
    ("caption.start", "Press Play (Space) or Step (→) to start the simulation.", "按“播放”（空格）或“单步”（→）开始模拟。"),
    ("config.protocol", "group.protocol · assignors", "group.protocol · 分配器"),
    ("caption.at", "{0} s", "{0} 秒"),
    ("caption.quiet", "Quiet since {0} s: the members only heartbeat, fetch and commit, so the group stays as it is. Inject a fault to see it respond.", "自 {0} 秒起一切平静：成员只在发送心跳、拉取消息和提交位移，组保持不变。注入一个故障，看看它如何应对。"),
    ("caption.quiet.long", "Quiet: the members only heartbeat, fetch and commit, so the group stays as it is. Inject a fault to see it respond.", "一切平静：成员只在发送心跳、拉取消息和提交位移，组保持不变。注入一个故障，看看它如何应对。"),
    ("group.none", "(no group yet)", "（还没有这个组）"),
    ("caption.log", "Full log", "完整日志"),
    ("legend.button", "Legend", "图例"),
    ("legend.title", "How to read the drawing", "如何看这张图"),
    ("legend.session", "Outer ring: the member's session on the group coordinator (broker side); it keeps running down after a crash until the coordinator removes the member", "外圈：组协调者（broker 端）上该成员的会话；成员崩溃后它仍继续倒计时，直到协调者移除该成员"),
    ("legend.heartbeat", "Middle ring: time until the client's next heartbeat", "中圈：距离客户端下一次心跳的时间"),
    ("legend.poll", "Inner ring: time left of max.poll.interval.ms since the last poll()", "内圈：自上次 poll() 以来 max.poll.interval.ms 还剩的时间"),
    ("legend.leader", "★ and a thick outline: the group's leader (classic protocol: it runs the assignor)", "★ 和粗边框：组的 leader（经典协议中由它运行分配器）"),
    ("legend.crashed", "Grey and dashed: a crashed consumer", "灰色虚线：已崩溃的消费者"),
    ("legend.overdue", "Red !: no poll() for longer than max.poll.interval.ms", "红色 !：超过 max.poll.interval.ms 没有调用 poll()"),
    ("legend.chip", "Chip under a consumer: a partition it owns", "消费者下方的标签：它拥有的分区"),
    ("legend.stale", "Dashed grey chip: what a crashed or expelled member last held (it owns nothing)", "灰色虚线标签：已崩溃或被移出组的成员最后持有的分区（它已不再拥有）"),
    ("legend.coordinator", "Thick blue box: the broker that is the group coordinator", "蓝色粗框：作为组协调者的 broker"),
    ("legend.loading", "Dashed box: the coordinator is loading __consumer_offsets", "虚线框：协调者正在加载 __consumer_offsets"),
    ("legend.dead", "Grey dashed box: a broker that is down", "灰色虚线框：宕机的 broker"),
    ("legend.shapes", "Circle: a consumer; square: a Kafka Connect worker; each has its own colour and name", "圆形：消费者；方形：Kafka Connect worker；每个都有自己的颜色和名字"),
    ("legend.messages", "White dot: a request on its way; black dot: a response", "白点：正在发送的请求；黑点：响应"),
    ("legend.cut", "Red dashed link: the network is cut", "红色虚线：网络被切断"),
    ("legend.held", "Orange link: messages are held", "橙色连线：消息被扣住"),
    ("legend.degraded", "Pink dotted link: extra latency or message loss", "粉色点线：额外延迟或丢包"),
    ("legend.highlight", "Orange outline: what the lesson points at", "橙色边框：课程当前指向的对象"),
    // Help: the drawing
    ("help.drawing.title", "The drawing", "这张图"),
    ("help.drawing", "Brokers are at the top, consumers below. The broker in a thick blue box is the group coordinator: every consumer talks to it to join the group, and it decides when the group rebalances. Dots travelling on the lines are requests and responses. Under each consumer are the partitions it owns. The caption under the drawing says what just happened; click any node to inspect it.", "上方是 broker，下方是消费者。蓝色粗框的 broker 是组协调者：每个消费者都要通过它加入组，也由它决定组何时再均衡。线上移动的点是请求和响应。每个消费者下方是它拥有的分区。图下方的字幕说明刚刚发生了什么；点击任意节点可以查看它。"),
    ("help.welcome", "Show the welcome again", "再次显示欢迎页"),
    // Side by side: plain words for the numbers
    ("compare.thisrun", "Compare this run", "对比当前运行"),
    ("compare.thisrun.title", "Run the Simulation tab's scenario and its faults under eager, cooperative, KIP-848 and static membership, side by side", "把模拟页的场景和它的故障分别放在 eager、cooperative、KIP-848 和静态成员下并排运行"),
    ("compare.thisrun.option", "this run, four ways", "当前运行的四种方式"),
    ("compare.thisrun.hint", "Your scenario and its faults (scripted and injected), run four ways at the same simulated time. For KIP-848 the session timeout and heartbeat interval are broker settings (group.consumer.*); this comparison gives them the values your consumers use, so every variant notices a crash equally fast. Play, Step and the timeline above drive all panes.", "你的场景和它的故障（预设的和注入的），以四种方式在同一模拟时刻运行。KIP-848 中会话超时和心跳间隔是 broker 的设置（group.consumer.*）；这里让它们取你的消费者所用的值，所以每种方式发现崩溃的速度一样。上方的播放、单步和时间轴同时驱动所有窗格。"),
    ("compare.thisrun.error", "This run cannot be compared: {0}", "当前运行无法对比：{0}"),
    ("compare.stayed", "stayed stable", "始终稳定"),
    ("compare.never", "never", "未恢复"),
    ("compare.differences", "What the numbers say", "这些数字说明了什么"),
    ("compare.why.rebalances", "{0} rebalanced {1} time(s), {2} {3}: every rebalance makes members stop and rejoin, and static membership or the consumer protocol avoid some of them.", "{0} 再均衡了 {1} 次，{2} 为 {3} 次：每次再均衡都会让成员停下来重新加入，静态成员或 KIP-848 协议可以避免其中一些。"),
    ("compare.why.unavailable", "{0} left partitions unprocessed for {1} partition-ms in all, {2} for {3}: under eager rebalancing every member gives up all its partitions until the new assignment arrives; cooperative and consumer-protocol groups move only the partitions that change owner.", "{0} 的分区总共有 {1} 分区·毫秒无人处理，{2} 为 {3}：在 eager 再均衡中，每个成员都要交出全部分区，直到新的分配到来；cooperative 和 KIP-848 协议只移动换了所有者的分区。"),
    ("compare.why.stw", "{0} stopped the whole group for up to {1} ms, {2} for {3} ms: a stop-the-world is a moment when no member processes anything, which eager rebalancing causes and incremental rebalancing avoids.", "{0} 让整个组最长停顿了 {1} 毫秒，{2} 为 {3} 毫秒：全体暂停指没有任何成员在处理消息的时刻，eager 再均衡会造成它，增量再均衡可以避免。"),
    ("compare.why.moved", "{0} moved {1} partition(s) to another member, {2} {3}: sticky assignors and static members keep partitions where they were.", "{0} 把 {1} 个分区移给了其他成员，{2} 为 {3} 个：sticky 分配器和静态成员会让分区留在原处。"),
    ("compare.why.redelivered", "{0} processed {1} record(s) twice, {2} {3}: records are delivered again when a partition changes owner before its last offsets were committed, so the new owner starts from the last committed offset.", "{0} 重复处理了 {1} 条消息，{2} 为 {3} 条：分区在最新位移提交之前换了所有者时，新的所有者会从最后提交的位移开始，于是消息被再次投递。"),
    // Presenter mode
    ("panels.show", "Show the panels", "显示面板"),
    ("panels.hide", "Hide the panels", "隐藏面板"),
    // The drawing
    ("state.crashed", "crashed", "已崩溃"),
    ("consumer.overdue", "poll() overdue: longer than max.poll.interval.ms since the last one", "poll() 超时：距上一次已超过 max.poll.interval.ms"),
    ("consumer.owns", "owns {0}", "拥有 {0}"),
    ("consumer.stale", "last held {0} (stale, not owned)", "最后持有 {0}（已过时，并不拥有）"),
    ("consumer.click", "click to inspect it and inject faults", "点击查看它的状态并注入故障"),
    // Inspector facts (Kafka's names such as group.id stay as they are)
    ("fact.alive", "alive", "存活"),
    ("fact.state", "state", "状态"),
    ("fact.generation", "generation", "代"),
    ("fact.member epoch", "member epoch", "成员纪元"),
    ("fact.owned", "owned", "拥有的分区"),
    ("fact.last held (stale)", "last held (stale)", "最后持有（已过时）"),
    ("fact.last poll()", "last poll()", "上次 poll()"),
    ("fact.poll deadline (max.poll.interval.ms)", "poll deadline (max.poll.interval.ms)", "poll 截止时间（max.poll.interval.ms）"),
    ("fact.session deadline on the coordinator", "session deadline on the coordinator", "协调者上的会话截止时间"),
    ("fact.heartbeat interval ms (from the broker)", "heartbeat interval ms (from the broker)", "心跳间隔毫秒数（由 broker 给出）"),
    ("fact.connectors", "connectors", "连接器"),
    ("fact.tasks", "tasks", "任务"),
    ("fact.__consumer_offsets partitions led", "__consumer_offsets partitions led", "担任 leader 的 __consumer_offsets 分区"),
    ("fact.groups hosted", "groups hosted", "托管的组"),
    ("fact.cut", "cut", "已切断"),
    ("fact.held", "held", "扣住"),
    ("fact.extra latency ms", "extra latency ms", "额外延迟（毫秒）"),
    ("fact.loss %", "loss %", "丢包率 %"),
    ("fact.messages held", "messages held", "被扣住的消息"),
    ("fact.owner", "owner", "所有者"),
    ("fact.leader", "leader", "leader"),
    ("fact.log end offset", "log end offset", "日志末端位移"),
    ("fact.committed offset", "committed offset", "已提交位移"),
    ("fact.processed up to", "processed up to", "已处理到"),
    ("fact.records redelivered", "records redelivered", "重复投递的消息数"),
    ("fact.from", "from", "发送方"),
    ("fact.to", "to", "接收方"),
    ("fact.sent at ms", "sent at ms", "发送时刻（毫秒）"),
    ("fact.arrives at ms", "arrives at ms", "到达时刻（毫秒）"),
];

#[cfg(test)]
mod tests {
    use super::super::TABLE;
    use super::PAGE;
    use std::collections::BTreeSet;

    #[test]
    fn page_texts_are_unique_translated_and_keep_their_placeholders() {
        let mut keys: BTreeSet<&str> = TABLE.iter().map(|(k, _, _)| *k).collect();
        for (k, en, zh) in PAGE {
            assert!(keys.insert(k), "key {k} appears twice");
            assert!(!en.trim().is_empty() && !zh.trim().is_empty(), "{k}");
            for i in 0..10 {
                let p = format!("{{{i}}}");
                assert_eq!(en.contains(&p), zh.contains(&p), "{k}: placeholder {p}");
            }
        }
    }
}
