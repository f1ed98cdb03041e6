//! The Chinese sentences of the share-group notes (`ShareNote`), from their
//! fields, as `narrate_zh` does for the others.

use crate::sim::message::partition_list;
use crate::sim::share_note::{ReleaseCause, ShareNote};
use crate::zh_fill::f;

fn offsets(first: i64, last: i64) -> String {
    if first == last {
        format!("位移 {first}")
    } else {
        format!("位移 {first}-{last}")
    }
}

pub fn note(n: &ShareNote) -> String {
    use ShareNote::*;
    match n {
        StateInitializing { group_id, partitions } => f(
            "共享组 {0}：请求共享协调者初始化 {1}（在它答复之前，这些分区都不能分配）",
            &[group_id, &partition_list(partitions)],
        ),
        TargetAssignmentDeferred { group_id, until_ms } => f(
            "共享组 {0}：新的目标分配推迟到 {1} ms（share.assignment.interval.ms）之后的第一次心跳时计算",
            &[group_id, until_ms],
        ),
        StateInitialized { group_id, partitions } => {
            f("共享组 {0}：{1} 已初始化；下一次心跳会分配它们", &[group_id, &partition_list(partitions)])
        }
        SharePartitionLoaded { partition, start_offset, end_offset } => f(
            "{0}：从共享协调者加载共享分区，起始位移 {1}，窗口到 {2}；之前获取的记录从未写入，所以重新变为 AVAILABLE",
            &[partition, start_offset, end_offset],
        ),
        RecordsAcquired { partition, client, first, last, delivery_count } => f(
            "{0}：{1} 获取了{2}（第 {3} 次投递），这些记录为它加锁",
            &[partition, client, &offsets(*first, *last), delivery_count],
        ),
        RecordsAcknowledged { partition, client, ack_type, records } => {
            f("{0}：{1} 对 {3} 条记录发送 {2}", &[partition, client, &ack_type.name(), records])
        }
        AcknowledgementRefused { partition, client, error } => {
            f("{0}：{1} 的确认被拒绝（{2}）：它已不再持有这些记录", &[partition, client, error])
        }
        LocksExpired { partition, client, records, archived } => {
            if *archived > 0 {
                f(
                    "{0}：{1} 持有的 {2} 条记录的获取锁已过期；其中 {3} 条达到投递上限被归档，其余重新变为 AVAILABLE",
                    &[partition, client, records, archived],
                )
            } else {
                f(
                    "{0}：{1} 持有的 {2} 条记录的获取锁已过期；它们重新变为 AVAILABLE，任何成员都可获取",
                    &[partition, client, records],
                )
            }
        }
        RecordsReleased { partition, client, records, archived, cause } => {
            let why = match cause {
                ReleaseCause::ConnectionClosed => "连接已关闭",
                ReleaseCause::SessionClosed => "它关闭了共享会话",
            };
            let tail =
                if *archived > 0 { format!("（{archived} 条达到投递上限被归档）") } else { String::new() };
            f("{0}：{1}，{2} 获取的 {3} 条记录立即释放{4}；投递次数保留", &[partition, &why, client, records, &tail])
        }
        RecordArchived { partition, offset, delivery_count } => {
            f("{0}：位移 {1} 已投递 {2} 次，达到投递上限：ARCHIVED，不再投递", &[partition, offset, delivery_count])
        }
        PoisonRecord { partition, offset, ack_type } => {
            f("应用处理 {0} 位移 {1} 失败，以 {2} 确认它", &[partition, offset, &ack_type.name()])
        }
        SessionOpened { client, broker } => f("{0} 在 broker-{1} 上打开共享会话", &[client, broker]),
        SessionRefused { client, broker, error } => {
            f("broker-{1} 拒绝了 {0} 的共享会话（{2}）：它重新打开一个", &[client, broker, error])
        }
    }
}
