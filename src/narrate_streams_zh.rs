//! The Chinese sentences of the streams-group notes (`StreamsNote`), from
//! their fields, as `narrate_zh` does for the others.

use crate::sim::streams_note::StreamsNote;
use crate::zh_fill::f;

fn list(tasks: &[String]) -> String {
    if tasks.is_empty() {
        "无".to_string()
    } else {
        format!("[{}]", tasks.join(", "))
    }
}

pub fn note(n: &StreamsNote) -> String {
    use StreamsNote::*;
    match n {
        ClassicGroupMigrated { group_id } => {
            f("{0}：空的经典组变为流组（离线迁移；只保留已提交的位移）", &[group_id])
        }
        TopologyInitialized { group_id, epoch, subtopologies } => f(
            "流组 {0}：第一个成员的拓扑（纪元 {1}，{2} 个子拓扑）成为组的拓扑",
            &[group_id, epoch, subtopologies],
        ),
        TopologyUpdateRefused { group_id, client } => f(
            "流组 {0}：{1} 带着不同的拓扑加入：INVALID_REQUEST “Topology updates are not supported yet”",
            &[group_id, client],
        ),
        TopologyConfigured { group_id, problem: None } => {
            f("流组 {0}：所有主题都在；拓扑就绪，可以分配任务", &[group_id])
        }
        TopologyConfigured { group_id, problem: Some((code, detail)) } => f(
            "流组 {0} 处于 NotReady：{1}（{2}）；每个成员都没有任务",
            &[group_id, &code.name(), detail],
        ),
        InternalTopicsCreated { group_id, topics } => {
            let t = topics.iter().map(|(t, n)| format!("{t}（{n} 个分区）")).collect::<Vec<_>>().join("、");
            f("流组 {0}：broker 创建 {1}", &[group_id, &t])
        }
        InitialRebalanceDelay { group_id, until_ms } => f(
            "流组 {0}：第一个成员；任务在 {1} ms 分配（streams.initial.rebalance.delay.ms），让更多实例先加入（ASSIGNMENT_DELAYED）",
            &[group_id, until_ms],
        ),
        TargetAssignmentDeferred { group_id, until_ms } => f(
            "流组 {0}：新的目标分配等到 {1} ms（streams.assignment.interval.ms；ASSIGNMENT_DELAYED）",
            &[group_id, until_ms],
        ),
        MemberReconciled { group_id, client, state, epoch, active, standby, revoking } => {
            let mut s = f(
                "流组 {0}：{1} 为 {2}，纪元 {3}：活动任务 {4}，备用任务 {5}",
                &[group_id, client, &state.name(), epoch, &list(active), &list(standby)],
            );
            if !revoking.is_empty() {
                s.push_str(&f("；必须先交出 {0}", &[&list(revoking)]));
            }
            s
        }
        ShutdownRequested { group_id, client } => f(
            "流组 {0}：{1} 请求关闭整个应用；每个成员的下一次心跳都会收到 SHUTDOWN_APPLICATION",
            &[group_id, client],
        ),
        StaticMemberLeftTemporarily { group_id, client } => f(
            "流组 {0}：静态成员 {1} 以纪元 -2 暂时离开，保留它的任务，直到它回来或会话过期",
            &[group_id, client],
        ),
        StaticMemberReplaced { group_id, client } => {
            f("流组 {0}：{1} 以相同的实例 ID 回来，拿回原来的任务，不重新洗牌", &[group_id, client])
        }
        TasksRevoked { client, tasks } => f("{0}：onTasksRevoked {1}：已提交并关闭", &[client, &list(tasks)]),
        TasksAssigned { client, active, standby } => {
            f("{0}：onTasksAssigned：活动任务 {1}，备用任务 {2}", &[client, &list(active), &list(standby)])
        }
        AllTasksLost { client, tasks } => {
            f("{0}：onAllTasksLost {1}：被隔离，任务未提交就丢失了", &[client, &list(tasks)])
        }
        RestorationStarted { client, task, records, until_ms, from_standby: false } => f(
            "{0}：任务 {1} 先从 changelog 恢复状态存储：{2} 条记录，到 {3} ms",
            &[client, task, records, until_ms],
        ),
        RestorationStarted { client, task, records, until_ms, from_standby: true } => f(
            "{0}：任务 {1} 在这里有备用副本：只需追上 {2} 条记录，到 {3} ms",
            &[client, task, records, until_ms],
        ),
        TaskRunning { client, task } => f("{0}：任务 {1} 恢复完毕，进入 RUNNING", &[client, task]),
        ShuttingDown { client } => f("{0}：收到 SHUTDOWN_APPLICATION：线程关闭并离开", &[client]),
        StatusReceived { client, statuses } => {
            let s = if statuses.is_empty() {
                "已清除".to_string()
            } else {
                statuses.iter().map(|s| s.name()).collect::<Vec<_>>().join("、")
            };
            f("{0}：心跳状态 {1}", &[client, &s])
        }
        ClassicTasksAssigned { client, generation, threads, withheld, probing_at_ms } => {
            let mut s = f("{0} 是组的领导者，为第 {1} 代运行 StreamsPartitionAssignor：", &[client, generation]);
            for (t, active, standby, warmup) in threads {
                s += &f("{0} 活动任务 {1} 备用任务 {2}", &[t, &list(active), &list(standby)]);
                if !warmup.is_empty() {
                    s += &f("（预热 {0}）", &[&list(warmup)]);
                }
                s += "；";
            }
            for (t, tasks) in withheld {
                s += &f("{0} 要等原主人撤销 {1} 之后才能拿到：立即进行后续再平衡；", &[t, &list(tasks)]);
            }
            if let Some(at) = probing_at_ms {
                s += &f("预热副本正在追赶：{0} ms 进行探测再平衡", &[at]);
            }
            s
        }
        FollowupRebalance { client, probing: false } => {
            f("{0}：立即重新加入：后续再平衡把刚撤销的任务交出去", &[client])
        }
        FollowupRebalance { client, probing: true } => {
            f("{0}：探测再平衡（probing.rebalance.interval.ms）：预热副本追上了吗？", &[client])
        }
        LeaderCreatedInternalTopics { client, topics } => {
            let t: Vec<String> = topics.iter().map(|(t, n)| format!("{t}（{n} 个分区）")).collect();
            f("{0} 是组的领导者，分配之前先创建 {1}", &[client, &t.join("、")])
        }
        StandbyCaughtUp { client, task } => f("{0}：备用任务 {1} 追上了它的 changelog", &[client, task]),
    }
}
