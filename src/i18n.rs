//! The one translation table for every string the page shows: English and
//! Simplified Chinese. Kafka's own names (states, errors, configs, APIs) stay
//! untranslated in both, so readers can look them up in Kafka's source.

use serde::{Deserialize, Serialize};

/// The page's newer strings (welcome, caption, legend, inspector facts...),
/// searched after [`TABLE`].
#[path = "i18n_page.rs"]
mod page;
pub use page::PAGE;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The BCP 47 tag (`en`, `zh-CN`), for `<html lang>` and the URL.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// Accepts `en`, `zh`, `zh-CN`, `zh-Hans`... (case-insensitive).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s == "en" || s.starts_with("en-") {
            Some(Lang::En)
        } else if s == "zh" || s.starts_with("zh-") {
            Some(Lang::Zh)
        } else {
            None
        }
    }

    /// The language's own name, for the switcher.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }
}

/// (key, English, Chinese). `{0}`, `{1}`... are filled by [`trf`].
pub const TABLE: &[(&str, &str, &str)] = &[
    // Toolbar and tabs
    ("play", "Play", "播放"),
    ("pause", "Pause", "暂停"),
    ("back", "Back", "后退"),
    ("back.title", "previous event (←)", "上一个事件（←）"),
    ("step", "Step", "单步"),
    ("step.title", "next event (→)", "下一个事件（→）"),
    ("speed", "speed", "速度"),
    ("reset", "Reset", "重置"),
    ("clock", "t = {0} s", "t = {0} 秒"),
    ("permalink", "Link to this moment", "链接到此刻"),
    ("permalink.title", "put this run in the address bar", "把这次运行放进地址栏"),
    ("permalink.notice", "Link to this moment: ", "此刻的链接："),
    ("presenter", "Presenter", "演示模式"),
    ("presenter.title", "presenter mode (p)", "演示模式（p）"),
    ("language", "Language", "语言"),
    ("toolbar", "playback", "播放控制"),
    ("tabs", "views", "视图"),
    ("tab.sim", "Simulation", "模拟"),
    ("tab.lab", "Assignor lab", "分配器实验室"),
    ("tab.config", "Configuration", "配置"),
    ("tab.lessons", "Lessons", "课程"),
    ("tab.compare", "Side by side", "并排对比"),
    ("compare.pick", "comparison", "对比"),
    ("compare.hint", "The same scenario and the same faults under each configuration, at the same simulated time. Play, Step and the timeline above drive all panes; a fault you inject here reaches every run at once. Metrics are computed by the simulation core (see the README for their exact definitions).", "同一个场景、同样的故障，在每种配置下于同一模拟时刻运行。上方的播放、单步和时间轴同时驱动所有窗格；在这里注入的故障会同时作用于每一次运行。各项指标由模拟内核计算（确切定义见 README）。"),
    ("compare.generation", "generation/epoch", "代/纪元"),
    ("compare.metrics", "Metrics so far", "目前的指标"),
    ("compare.variant", "configuration", "配置"),
    ("compare.rebalances", "rebalances", "再均衡次数"),
    ("compare.unavailable", "unavailable (partition-ms)", "不可用时间（分区·毫秒）"),
    ("compare.stw", "longest stop-the-world (ms)", "最长全体暂停（毫秒）"),
    ("compare.moved", "partitions moved", "移动的分区数"),
    ("compare.redelivered", "records redelivered", "重复投递的消息数"),
    ("compare.stable", "time to stable (ms)", "恢复稳定用时（毫秒）"),
    ("compare.resumed", "work resumed after a member stopped (ms)", "成员停止后工作恢复用时（毫秒）"),
    ("compare.disorder", "records out of offset order", "未按位移顺序处理的消息数"),
    // Lessons
    // Lessons (src/web/lesson_panel.rs): one block.
    ("lessons.title", "Guided lessons", "引导课程"),
    ("lessons.intro", "Each lesson runs the real simulation. Before each outcome it stops and asks what you predict; you commit to an answer, watch the run, and learn whether you were right when it happens. Some steps ask you to act. Progress is kept in this browser.", "每节课运行的都是真实的模拟。在每个结果出现之前，它会停下来问你的预测；你先给出答案，再观看运行，等事情真正发生时才知道自己对不对。有些步骤需要你亲自动手。进度保存在这个浏览器里。"),
    ("lessons.steps", "{0} steps", "共 {0} 步"),
    ("lessons.loading", "Loading the lessons…", "正在加载课程……"),
    ("lessons.at", "in progress: step {0} of {1}", "进行中：第 {0} 步，共 {1} 步"),
    ("lessons.done", "finished · {0} of {1} predictions right", "已完成 · 预测对了 {0} / {1} 个"),
    ("lessons.start", "Start", "开始"),
    ("lessons.resume", "Resume", "继续"),
    ("lessons.panel", "lesson", "课程"),
    ("lessons.step", "step {0} of {1}", "第 {0} 步，共 {1} 步"),
    ("lessons.exit", "leave the lesson", "退出课程"),
    ("lessons.question", "your prediction", "你的预测"),
    ("lessons.predict", "Predict:", "预测："),
    ("lessons.click", "Click the node you predict in the picture, or pick it here.", "在图中点击你预测的节点，或在这里选择。"),
    ("lessons.reveal", "Show the answer (→)", "显示答案（→）"),
    ("lessons.keys", "Keys: 1–9 or A–I pick, → or PageDown reveals and goes on.", "按键：1–9 或 A–I 选择，→ 或 PageDown 揭晓并继续。"),
    ("lessons.keys.presenter", "Clicker: PageDown reveals and goes on · PageUp goes back · b blanks the screen · 1–9 pick.", "翻页笔：PageDown 揭晓并继续 · PageUp 返回 · b 黑屏 · 1–9 选择。"),
    ("lessons.keys.task", "Clicker: PageDown shows it done · 1–9 pick an option.", "翻页笔：PageDown 演示做法 · 1–9 选择选项。"),
    ("lessons.predicted", "You predicted {0} — watch.", "你预测的是 {0}——请观看。"),
    ("lessons.watch", "Watch: the answer is shown when it happens.", "请观看：事情发生时会揭晓答案。"),
    ("lessons.slowmotion", "(slow motion)", "（慢动作）"),
    ("lessons.answer", "Answer:", "答案："),
    ("lessons.right", "Right:", "答对了："),
    ("lessons.wrong", "Not quite. The answer:", "不太对。正确答案："),
    ("lessons.whynot", "Why not {0}:", "为什么不是 {0}："),
    ("lessons.running", "Watch the simulation: the lesson goes on when the event happens (Space pauses, → steps).", "观察模拟：事件发生时课程会继续（空格暂停，→ 单步）。"),
    ("lessons.act", "Your turn:", "轮到你了："),
    ("lessons.missed", "Not yet.", "还没做到。"),
    ("lessons.retry", "Try again", "再试一次"),
    ("lessons.next", "Next step", "下一步"),
    ("lessons.finish", "Finish: try it yourself", "完成：自己动手试试"),
    ("lessons.tryit", "Try it yourself", "自己动手试试"),
    ("lessons.nextlesson", "Next lesson: {0}", "下一课：{0}"),
    ("lessons.slower", "slower", "慢一点"),
    ("lessons.faster", "faster", "快一点"),
    ("lessons.speed", "speed {0}×", "速度 {0}×"),
    ("lessons.sameorder", "Same order of choices for everyone (presenter)", "所有人看到相同的选项顺序（演示模式）"),
    ("lessons.openfile", "Open a lesson file from disk (a draft):", "从磁盘打开课程文件（草稿）："),
    ("lessons.draft", "draft", "草稿"),
    ("lessons.badfile", "{0} is not a valid lesson:", "{0} 不是有效的课程："),
    ("lessons.f.crash", "Crash c{0}", "让 c{0} 崩溃"),
    ("lessons.f.restart", "Restart c{0}", "重启 c{0}"),
    ("lessons.f.close", "Close c{0} (close())", "关闭 c{0}（close()）"),
    ("lessons.f.pause", "Pause c{0} for {1} ms", "让 c{0} 暂停 {1} ms"),
    ("lessons.f.slow", "Make c{0} take {1} ms per record", "让 c{0} 每条记录处理 {1} ms"),
    ("lessons.f.kill", "Kill broker-{0}", "杀掉 broker-{0}"),
    ("lessons.f.restartbroker", "Restart broker-{0}", "重启 broker-{0}"),
    ("lessons.f.add", "Add a consumer to {0}", "给 {0} 加一个消费者"),
    ("lessons.f.partitions", "Increase {0} to {1} partitions", "把 {0} 增加到 {1} 个分区"),
    ("lessons.link.nolesson", "The link asks for lesson '{0}', but the course has lessons {1} to {2}.", "链接要打开第“{0}”课，但课程只有第 {1} 到 {2} 课。"),
    ("lessons.link.nostep", "The link asks for step '{1}' of lesson {0}, which has steps 1 to {2}.", "链接要打开第 {0} 课的第“{1}”步，但这一课只有第 1 到 {2} 步。"),
    ("close", "close", "关闭"),
    ("notice.badlink", "Could not open this link: {0}. Showing the demo instead.", "无法打开这个链接：{0}。改为显示演示场景。"),
    ("help", "Help", "帮助"),
    ("help.title", "Help: keys and the drawing (?)", "帮助：按键与图示（?）"),
    ("help.keys", "Space or k: play/pause · → . PageDown: next event (in presenter mode: the next thing worth a caption; in a lesson: reveal, show a task done, the next step, the next lesson) · ← , PageUp: previous event (presenting a lesson: back to the step's start, or the step before) · 1-9 or a-i: pick a lesson's answer (presenting: digits only) · b or . while presenting: blank screen and pause · Enter on a node: select it (the inspector lists its faults) · l: legend · p: presenter mode · ?: this help · Esc: close", "空格或 k：播放/暂停 · → . PageDown：下一个事件（演示模式下：下一个值得说明的事件；课程中：显示答案、演示任务的做法、下一步、下一课）· ← , PageUp：上一个事件（演示课程时：回到本步开头或上一步）· 1-9 或 a-i：选择课程问题的答案（演示时只用数字）· 演示时按 b 或 .：黑屏并暂停 · 在节点上按 Enter：选中它（检查器会列出可注入的故障）· l：图例 · p：演示模式 · ?：本帮助 · Esc：关闭"),
    ("presenter.blank", "Screen blanked and paused: press b or . to come back", "已黑屏并暂停：按 b 或 . 返回"),
    ("export.json", "Export run", "导出运行"),
    ("export.json.title", "download this run (scenario, faults, playhead) as JSON", "把这次运行（场景、故障、播放位置）下载为 JSON"),
    ("import.json", "Import run", "导入运行"),
    ("import.error", "Could not import this file: {0}. Nothing was changed.", "无法导入这个文件：{0}。当前内容没有改变。"),
    ("export.svg", "SVG", "SVG"),
    ("export.png", "PNG", "PNG"),
    ("export.title", "download the cluster diagram", "下载集群示意图"),
    // Topology
    ("topology.label", "brokers, consumers and messages", "broker、消费者和消息"),
    ("broker.down", "DOWN", "宕机"),
    ("broker.loading", "loading __consumer_offsets…", "正在加载 __consumer_offsets…"),
    ("broker.coordinates", "coordinator of {0} (p{1})", "{0} 的协调者（p{1}）"),
    // A broker's role in the phone's narrow drawing (the full line is in its tooltip).
    ("broker.coordinates.short", "coordinator of {0}", "{0} 的协调者"),
    ("broker.loading.short", "loading…", "加载中…"),
    ("broker.leads", "{0} leads: {1}", "{0} 是这些分区的 leader：{1}"),
    ("consumer.select", "{0} — click to inspect it and inject faults", "{0} — 点击查看它的状态并注入故障"),
    ("consumer.generation", "gen {0}", "第 {0} 代"),
    ("consumer.epoch", "epoch {0}", "纪元 {0}"),
    // Group panel
    ("group.title", "group {0}", "消费者组 {0}"),
    ("group.generation", "generation {0}", "第 {0} 代"),
    ("group.epochs", "group epoch {0} · assignment epoch {1}", "组纪元 {0} · 分配纪元 {1}"),
    ("group.leader", "leader {0}", "leader {0}"),
    ("group.coordinator", "coordinator: abs(\"{0}\".hashCode() = {1}) % {2} = {3} → leader of __consumer_offsets-{3} is {4}", "协调者：abs(\"{0}\".hashCode() = {1}) % {2} = {3} → __consumer_offsets-{3} 的 leader 是 {4}"),
    ("nobody", "nobody", "无"),
    // Ownership table
    ("ownership", "Partition ownership", "分区归属"),
    ("share.title", "Share-partitions: records in flight", "共享分区：在途记录"),
    ("share.available", "AVAILABLE", "AVAILABLE（可获取）"),
    ("share.acquired", "ACQUIRED", "ACQUIRED（已获取）"),
    ("share.acknowledged", "ACKNOWLEDGED", "ACKNOWLEDGED（已确认）"),
    ("share.archived", "ARCHIVED", "ARCHIVED（已归档）"),
    ("share.delivery", "delivery {0} of {1}", "第 {0} 次投递（上限 {1}）"),
    ("share.lock", "lock {0} s left", "获取锁还剩 {0} 秒"),
    ("share.lock-short", "lock {0}s", "锁 {0}s"),
    ("share.window", "SPSO {0} … SPEO {1} · log end {2}", "SPSO {0} … SPEO {1} · 日志末端 {2}"),
    ("share.not-loaded", "not loaded on its leader yet", "尚未在 leader 上加载"),
    ("share.readers", "read by {0}", "读取者 {0}"),
    ("share.of-group", "share group {0}", "共享组 {0}"),
    ("share.empty", "nothing in flight", "没有在途记录"),
    ("streams.title", "Kafka Streams: instances, their threads and tasks", "Kafka Streams：实例、线程及其任务"),
    ("streams.group", "streams group {0}", "流组 {0}"),
    ("streams.standbys", "standby replicas: {0}", "备用副本：{0}"),
    ("streams.instance", "instance {0}", "实例 {0}"),
    ("streams.thread", "thread {0}", "线程 {0}"),
    ("streams.down", "crashed", "已崩溃"),
    ("streams.none", "no tasks", "没有任务"),
    ("streams.hidden", "Which thread runs which task shows once you have answered.", "哪个线程运行哪个任务，回答之后再显示。"),
    ("streams.topology", "topology, epoch {0}", "拓扑，纪元 {0}"),
    ("streams.sub", "subtopology {0}", "子拓扑 {0}"),
    ("streams.tasks", "{0} {0|task|tasks}", "{0} 个任务"),
    ("streams.store", "state store →", "状态存储 →"),
    ("streams.stateless", "stateless", "无状态"),
    ("streams.m.now", "Now: ", "现在："),
    ("streams.m.crashed", "{0} {0|thread|threads} crashed", "{0} 个线程已崩溃"),
    ("streams.m.waiting", "{0} {0|task waits|tasks wait} for {0|its|their} previous owner", "{0} 个任务在等前一个所有者交出"),
    ("streams.m.restoring", "{0} {0|task restores|tasks restore} {0|its|their} state store", "{0} 个任务正在恢复状态存储"),
    ("streams.m.giving-up", "{0} {0|task is|tasks are} being given up", "{0} 个任务正在被交出"),
    ("streams.k.active", "active", "活动"),
    ("streams.k.restoring", "restoring", "恢复中"),
    ("streams.k.standby", "standby", "备用"),
    ("streams.k.revoking", "giving up", "正在交出"),
    ("streams.k.pending", "waiting", "等待中"),
    ("streams.k.catching-up", "catching up", "追赶中"),
    ("streams.t.catching-up", "task {0}: standby replica still catching up with its changelog ({1}% done)", "任务 {0}：备用副本，仍在追赶变更日志（已完成 {1}%）"),
    ("streams.t.warmup", "task {0}: warm-up replica catching up with its changelog ({1}% done); a probing rebalance moves the task here once it has caught up", "任务 {0}：预热副本，正在追赶变更日志（已完成 {1}%）；追上之后，探测再平衡把任务移到这里"),
    ("streams.m.catching-up", "{0} {0|replica catches|replicas catch} up with {0|its|their} changelog", "{0} 个副本正在追赶变更日志"),
    ("streams.c.group", "Kafka Streams application {0}, classic rebalancing: classic group", "Kafka Streams 应用 {0}，经典再平衡：经典组"),
    ("streams.c.generation", "generation {0}", "第 {0} 代"),
    ("streams.c.leader", "leader {0} runs the assignor", "领导者 {0} 运行分配器"),
    ("streams.c.next", "next rebalance it asked for: {0} s", "它要求的下一次再平衡：{0} 秒"),
    ("streams.t.active", "task {0}: active, processing records", "任务 {0}：活动任务，正在处理记录"),
    ("streams.t.restoring", "task {0}: active, restoring its state store from the changelog ({1}% done) before it processes", "任务 {0}：活动任务，先从变更日志恢复状态存储（已完成 {1}%）再处理记录"),
    ("streams.t.standby", "task {0}: standby replica, a warm copy of the state store on another instance", "任务 {0}：备用副本，在另一个实例上保存状态存储的热拷贝"),
    ("streams.t.revoking", "task {0}: taken away by the coordinator; the thread commits and closes it (onTasksRevoked)", "任务 {0}：协调者已将它收回；线程正在提交并关闭它（onTasksRevoked）"),
    ("streams.t.pending", "task {0}: the coordinator assigns it here; it starts once its previous owner has given it up", "任务 {0}：协调者把它分配到这里；等前一个所有者交出后才开始"),
    ("streams.t.pending-standby", "task {0}: the coordinator assigns a standby here; it starts with the next heartbeat", "任务 {0}：协调者把备用副本分配到这里；下一次心跳后开始"),
    ("streams.status.stale", "this member's topology is older than the group's: it runs an old version of the application", "该成员的拓扑比组的旧：它运行的是旧版本的应用"),
    ("streams.status.missing-source", "a source topic does not exist: no task is assigned until it is created", "源主题不存在：创建之前不会分配任何任务"),
    ("streams.status.partitioned", "topics that must be co-partitioned have different partition counts: no task is assigned", "必须同分区的主题分区数不同：不会分配任何任务"),
    ("streams.status.missing-internal", "repartition or changelog topics are missing: the broker creates them", "重分区主题或变更日志主题缺失：broker 会创建它们"),
    ("streams.status.shutdown", "a member asked to shut the whole application down: every instance stops", "有成员请求关闭整个应用：每个实例都会停止"),
    ("streams.status.delayed", "the coordinator waits before assigning, so that more instances can join first", "协调者先等待再分配，让更多实例先加入"),
    ("col.group", "group", "组"),
    ("col.partition", "partition", "分区"),
    ("col.owner", "owner", "所有者"),
    ("col.leader", "leader", "leader"),
    ("col.end", "log end", "日志末端"),
    ("col.committed", "committed", "已提交"),
    ("col.processed", "processed", "已处理"),
    ("col.redelivered", "redelivered", "重复投递"),
    ("status.revoking", "revoking", "撤销中"),
    ("status.pending", "pending", "待分配"),
    ("unowned", "— unowned", "— 无人拥有"),
    // Log and notes
    ("log.title", "What is happening", "正在发生什么"),
    ("fidelity.title", "Fidelity notes: where this simulation simplifies Kafka", "保真说明：本模拟在哪些地方简化了 Kafka"),
    // Fault menu
    ("fault.title", "Inject a fault", "注入故障"),
    ("fault.label", "inject a fault", "注入故障"),
    ("fault.kind", "fault", "故障"),
    ("fault.a", "first field", "第一个字段"),
    ("fault.b", "second field", "第二个字段"),
    ("fault.value", "value", "数值"),
    ("fault.inject", "Inject", "注入"),
    ("timeline.label", "timeline: simulated time", "时间轴：模拟时间"),
    ("timeline.forgotten", "To stay within its memory budget the page let the oldest events go: the timeline now starts at {0} s. The run goes on as before.", "为了不超出内存预算，页面舍弃了最早的事件：时间轴现在从第 {0} 秒开始。模拟照常继续。"),
    // Assignor lab
    ("lab.label", "assignor lab", "分配器实验室"),
    ("lab.hint", "One call of a Kafka assignor, bit-identical to Kafka's own classes. Edit the group below (members, subscriptions, owned partitions with their generation, instanceId, rack; replicaRacks for rack-aware assignment) and run.", "调用一次 Kafka 的分配器，结果与 Kafka 自己的类逐位一致。在下面编辑这个组（成员、订阅、已拥有的分区（含字段 `generation`）、instanceId、rack；机架感知分配用 replicaRacks），然后运行。"),
    ("lab.assignor", "assignor", "分配器"),
    ("lab.case", "case JSON", "用例 JSON"),
    ("lab.run", "Run assignor", "运行分配器"),
    ("lab.summary", "{0}: {1} {1|partition|partitions} moved to another member · sizes differ by at most {2}", "{0}：{1} 个分区换了成员 · 各成员分区数最多相差 {2}"),
    ("lab.unassigned", " · not assigned this round: {0}", " · 本轮未分配：{0}"),
    ("lab.member", "member", "成员"),
    ("lab.assigned", "assigned", "分配到"),
    ("lab.kept", "kept", "保留"),
    ("lab.added", "added", "新增"),
    ("lab.revoked", "revoked", "撤销"),
    // Invariant monitor
    ("inv.ok", "✓ Invariants hold: one owner per partition in each generation, one active coordinator per group, generations and committed offsets never go back.", "✓ 不变式成立：每一代中每个分区只有一个所有者，每个组只有一个活跃协调者，代数和已提交位移从不回退。"),
    ("inv.violated", "✗ {0} invariant {0|violation|violations}", "✗ 违反不变式 {0} 次"),
    ("inv.jump", "go there", "跳到那里"),
    // Inspector
    ("inspector.title", "Inspector", "检查器"),
    ("inspector.empty", "Click a broker, a consumer, a link, a message or a partition to see its full state and the faults you can inject on it.", "点击 broker、消费者、连线、消息或分区，查看它的完整状态以及可以对它注入的故障。"),
    ("inspector.gone", "The selected item no longer exists at this moment (a message that arrived, or a node of another timeline).", "所选对象在此刻已经不存在（消息已经送达，或者属于另一条时间线）。"),
    ("inspector.actions", "faults you can inject here", "可以在这里注入的故障"),
    ("inspector.raw", "full state (JSON)", "完整状态（JSON）"),
    // State machine and space-time diagram
    ("statechart.label", "{0} of group {1}, now {2}", "组 {1} 的 {0}，当前为 {2}"),
    ("statechart.last", " · last transition: {0} → {1} ({2})", " · 最近一次转换：{0} → {1}（{2}）"),
    ("statechart.none", " · no transition yet", " · 还没有状态转换"),
    ("spacetime.label", "space-time diagram: one lane per node, messages as arrows", "时空图：每个节点一条泳道，消息画成箭头"),
    ("spacetime.caption", "Space-time diagram of the last 12 s (keep-alive heartbeats and fetches hidden). Click an arrow to jump to the moment it was sent.", "最近 12 秒的时空图（隐藏了只用于保活的心跳和拉取请求 Fetch）。点击箭头可跳到它被发送的时刻。"),
    ("spacetime.caption.fetches", "Space-time diagram of the last 12 s (keep-alive heartbeats hidden). Click an arrow to jump to the moment it was sent.", "最近 12 秒的时空图（隐藏了只用于保活的心跳）。点击箭头可跳到它被发送的时刻。"),
    ("pace.reached", "really ≈{0}×", "实际约 {0}×"),
    ("pace.title", "This computer cannot simulate this run at the chosen speed: it plays as fast as it can and the page stays responsive.", "这台电脑无法以所选速度模拟这次运行：它会尽可能快地播放，页面仍可正常操作。"),
    ("fetches.show", "Show fetches", "显示拉取请求（Fetch）"),
    ("fetches.hint", "Each consumer sends one Fetch to the leader of its partitions on each broker; records come only from partition leaders. On by default at 2× and slower.", "每个消费者向每个 broker 上它所拥有分区的 leader 发送一个 Fetch；记录只来自分区的 leader。在 2× 及更慢的速度下默认显示。"),
    ("log.filter", "filter the log", "筛选日志"),
    // Configuration panel
    ("config.title", "Configuration", "配置"),
    ("config.example", "load an example", "载入示例"),
    ("config.commit-mode", "not a Kafka config: the simulated application calls commitSync() or commitAsync() after each batch, or never (auto-commit only)", "不是 Kafka 的配置：模拟应用在每批消息之后调用 commitSync() 或 commitAsync()，或者从不调用（只靠自动提交）"),
    ("config.custom", "(custom list)", "（自定义列表）"),
    ("config.apply", "Apply and restart the run", "应用并重新开始运行"),
    ("config.revert", "Revert to the current run", "恢复为当前运行的配置"),
    ("config.applied", "Applied: the run restarted with this scenario.", "已应用：用这个场景重新开始了运行。"),
    ("config.applied.kept", "Injected faults kept: {0}; they happen again at their times.", "保留的注入故障：{0} 个，会在原来的时间再次发生。"),
    ("config.applied.dropped", "Faults dropped because this scenario has no place for them: {0}", "因这个场景中已无对应对象而丢弃的故障：{0} 个"),
    ("config.json", "The whole scenario (JSON, Kafka's config names)", "完整场景（JSON，使用 Kafka 的配置名）"),
    // Fault menu: what each field means
    ("fk.crashConsumer", "consumer c<n>", "消费者 c<n>"),
    ("fk.restartConsumer", "consumer c<n>", "消费者 c<n>"),
    ("fk.closeConsumer", "consumer c<n>", "消费者 c<n>"),
    ("fk.closeConsumerWithOptions", "consumer c<n>, LEAVE_GROUP, REMAIN_IN_GROUP or DEFAULT", "消费者 c<n>，LEAVE_GROUP、REMAIN_IN_GROUP 或 DEFAULT"),
    ("fk.restartConsumerAs", "consumer c<n>, static or dynamic", "消费者 c<n>，static（静态）或 dynamic（动态）"),
    ("fk.pauseConsumer", "consumer c<n>, duration ms", "消费者 c<n>，时长（毫秒）"),
    ("fk.slowProcessing", "consumer c<n>, ms per record", "消费者 c<n>，每条消息的毫秒数"),
    ("fk.killBroker", "broker-<n>", "broker-<n>"),
    ("fk.restartBroker", "broker-<n>", "broker-<n>"),
    ("fk.shutdownBroker", "broker-<n>", "broker-<n>"),
    ("fk.cutLink", "node, node", "节点，节点"),
    ("fk.healLink", "node, node", "节点，节点"),
    ("fk.dropNextMessage", "from node, to node", "源节点，目标节点"),
    ("fk.holdLink", "from node, to node", "源节点，目标节点"),
    ("fk.releaseLink", "from node, to node", "源节点，目标节点"),
    ("fk.setLinkLatency", "node, node, latency ms", "节点，节点，延迟（毫秒）"),
    ("fk.setLinkLoss", "node, node, percent", "节点，节点，丢包百分比"),
    ("fk.addConsumer", "group id", "组 id"),
    ("fk.addPartitions", "topic, partition count", "主题，分区总数"),
    ("fk.changeSubscription", "consumer c<n>, topics (comma separated)", "消费者 c<n>，主题（逗号分隔）"),
    ("fk.failTask", "connect group id, task (e.g. sink-0)", "Connect 组 id，任务（例如 sink-0）"),
    ("fk.restartTask", "connect group id, task (e.g. sink-0)", "Connect 组 id，任务（例如 sink-0）"),
    ("fk.restartConnector", "connect group id, connector, flags (includeTasks, onlyFailed)", "Connect 组 id，连接器，标志（includeTasks、onlyFailed）"),
    ("fk.addWorker", "connect group id", "Connect 组 id"),
    // Connect
    ("connect.tasks", "Connect tasks", "Connect 任务"),
    ("connect.task", "task", "任务"),
    ("connect.worker", "worker", "worker"),
    ("connect.state", "state", "状态"),
    ("connect.unassigned", "— unassigned", "— 未分配"),
    ("connect.delay", "scheduled rebalance in {0} s (scheduled.rebalance.max.delay.ms)", "{0} 秒后进行计划的再均衡（scheduled.rebalance.max.delay.ms）"),
    // Narration (the event log and the live region)
    ("n.sent", "{0} → {1}: {2}", "{0} → {1}：{2}"),
    ("n.lost", "{2} from {0} to {1} was lost: {3}", "{0} 发往 {1} 的 {2} 丢失了：{3}"),
    ("n.group", "Group {0} on {1}: {2} → {3} ({4})", "组 {0}（在 {1} 上）：{2} → {3}（{4}）"),
    ("n.cgroup", "Consumer group {0} on {1}: {2} → {3} ({4})", "消费者组 {0}（在 {1} 上）：{2} → {3}（{4}）"),
    ("n.sgroup", "Share group {0} on {1}: {2} → {3} ({4})", "共享组 {0}（在 {1} 上）：{2} → {3}（{4}）"),
    ("n.stgroup", "Streams group {0} on {1}: {2} → {3} ({4})", "流组 {0}（在 {1} 上）：{2} → {3}（{4}）"),
    ("n.member", "{0}: {1} → {2} ({3})", "{0}：{1} → {2}（{3}）"),
    ("n.context", "{0}: __consumer_offsets-{1} {2} → {3} ({4})", "{0}：__consumer_offsets-{1} {2} → {3}（{4}）"),
    ("n.connector", "{0}: connector {1} {2} → {3} ({4})", "{0}：连接器 {1} {2} → {3}（{4}）"),
    ("n.task", "{0}: task {1} {2} → {3} ({4})", "{0}：任务 {1} {2} → {3}（{4}）"),
    ("n.timer", "{0}: {1} elapsed", "{0}：{1} 到期"),
    ("n.fault", "Fault: {0}", "故障：{0}"),
    ("n.callback", "{0}: {1}({2})", "{0}：{1}({2})"),
    ("n.note", "{0}: {1}", "{0}：{1}"),
    ("n.redelivered", "{0} processed {1} records of {2} a second time (redelivery)", "{0} 第二次处理了 {2} 的 {1} 条消息（重复投递）"),
    ("n.committed", "{0} committed {1}", "{0} 提交了 {1}"),
    ("n.violated", "INVARIANT VIOLATED ({0}): {1}", "违反不变式（{0}）：{1}"),
    ("n.no_partitions", "no partitions", "没有分区"),
    ("why", "why?", "为什么？"),
    ("why.title", "Why did this happen?", "为什么会这样？"),
    ("why.silent", "no heartbeat from {0} had arrived since {1} s", "自 {1} 秒起就没有收到 {0} 的心跳"),
    ("why.none", "This event has no recorded cause: it started a chain (a fault, a start, or a timer).", "这个事件没有记录的原因：它是一条因果链的起点（故障、启动或定时器）。"),
];

/// The string for `key` in `lang`; an unknown key shows itself (tests make
/// sure every key the page uses is in the table).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    tr_opt(lang, key).unwrap_or("⟨missing text⟩")
}

/// The string for `key` in `lang`, or `None` when the tables do not have it.
pub fn tr_opt(lang: Lang, key: &str) -> Option<&'static str> {
    TABLE.iter().chain(PAGE.iter()).find(|(k, _, _)| *k == key).map(|(_, en, zh)| match lang {
        Lang::En => *en,
        Lang::Zh => *zh,
    })
}

/// `tr` with `{0}`, `{1}`... replaced by `args`, and English plurals chosen
/// by count: `{1|fault|faults}` is "fault" when argument 1 reads `1`, else
/// "faults" ("1 fault", "0 faults", "3 faults"). Chinese has no plural forms.
pub fn trf(lang: Lang, key: &str, args: &[&dyn std::fmt::Display]) -> String {
    let shown: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut s = plurals(tr(lang, key), &shown);
    for (i, a) in shown.iter().enumerate() {
        s = s.replace(&format!("{{{i}}}"), a);
    }
    s
}

/// Replaces each `{i|one|other}` in `text` by `one` when `args[i]` is `1`,
/// else by `other`; anything else is left as it is.
fn plurals(text: &str, args: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let form = after.find('}').map(|close| (&after[..close], close)).and_then(|(inner, close)| {
            let mut parts = inner.split('|');
            let i: usize = parts.next()?.parse().ok()?;
            let (one, other) = (parts.next()?, parts.next()?);
            let chosen = if args.get(i).map(String::as_str) == Some("1") { one } else { other };
            parts.next().is_none().then_some((chosen, close))
        });
        match form {
            Some((chosen, close)) => {
                out.push_str(chosen);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
