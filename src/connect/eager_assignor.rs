//! `EagerAssignor` (connect.protocol=eager, protocol "default"): every
//! rebalance hands out everything again. Round robin over the members sorted
//! by id: first every connector in name order, then every connector's tasks,
//! continuing the same circular iterator (EagerAssignor `performTaskAssignment`).

use super::protocol::{ConfigSnapshot, ConnectorsAndTasks};
use crate::java;
use std::collections::BTreeMap;

/// Connectors and tasks per member id. Members with nothing get an empty entry.
pub fn perform_task_assignment(config: &ConfigSnapshot, members: &[String]) -> BTreeMap<String, ConnectorsAndTasks> {
    let mut sorted: Vec<String> = members.to_vec();
    sorted.sort_by(|a, b| java::compare_strings(a, b));
    let mut out: BTreeMap<String, ConnectorsAndTasks> =
        sorted.iter().map(|m| (m.clone(), ConnectorsAndTasks::default())).collect();
    if sorted.is_empty() {
        return out;
    }
    let mut next = sorted.iter().cycle();
    let connectors = config.connectors_sorted();
    for c in &connectors {
        let m = next.next().expect("cycle over a non-empty list");
        out.get_mut(m).expect("member").connectors.push(c.clone());
    }
    for c in &connectors {
        for t in config.tasks(c) {
            let m = next.next().expect("cycle over a non-empty list");
            out.get_mut(m).expect("member").tasks.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(connectors: &[(&str, u32)]) -> ConfigSnapshot {
        ConfigSnapshot { offset: 1, connectors: connectors.iter().map(|(c, n)| (c.to_string(), *n)).collect() }
    }

    fn shown(a: &ConnectorsAndTasks) -> Vec<String> {
        a.connectors.iter().cloned().chain(a.tasks.iter().map(|t| t.to_string())).collect()
    }

    /// EagerAssignor `performTaskAssignment`: connectors first, then tasks, one circular iterator over sorted members.
    #[test]
    fn connectors_then_tasks_continue_one_round_robin_over_sorted_members() {
        let cfg = config(&[("sink", 3), ("source", 2)]);
        let a = perform_task_assignment(&cfg, &["w2".into(), "w1".into()]);
        assert_eq!(shown(&a["w1"]), ["sink", "sink-0", "sink-2", "source-1"]);
        assert_eq!(shown(&a["w2"]), ["source", "sink-1", "source-0"]);
    }

    /// The member order is by id, not by arrival.
    #[test]
    fn the_same_members_in_any_order_get_the_same_assignment() {
        let cfg = config(&[("sink", 4)]);
        let a = perform_task_assignment(&cfg, &["b".into(), "a".into(), "c".into()]);
        let b = perform_task_assignment(&cfg, &["c".into(), "a".into(), "b".into()]);
        assert_eq!(a, b);
        assert_eq!(shown(&a["a"]), ["sink", "sink-2"]);
    }
}
