//! "Compare this run": the page's current scenario and its faults (the scripted
//! ones and those the user injected) under the four ways a Kafka 4.4 group can
//! run: classic eager (`RangeAssignor`), classic cooperative
//! (`CooperativeStickyAssignor`), the consumer protocol of KIP-848
//! (`group.protocol=consumer`, the broker's `UniformAssignor`) and classic
//! static membership (`group.instance.id` on every consumer, eager range).

use super::{Comparison, Variant};
use crate::sim::scenario::ScheduledFault;
use crate::sim::{Fault, Millis, Scenario};
use serde_json::json;

/// The names of the four variants, in the order of the panes.
pub const EAGER: &str = "classic eager (range)";
pub const COOPERATIVE: &str = "classic cooperative-sticky";
pub const CONSUMER: &str = "consumer protocol (KIP-848, uniform)";
pub const STATIC: &str = "classic eager (range), static members";

/// How long a comparison of this run lasts: past the run's furthest moment and
/// its last fault by half a minute, at least a minute.
fn until(horizon: Millis, faults: &[ScheduledFault]) -> Millis {
    let last = faults.iter().map(|f| f.at).max().unwrap_or(0);
    horizon.max(last + 30_000).clamp(60_000, crate::sim::scenario::limits::MAX_RUN_MS)
}

/// The comparison of `scenario` with the user's `script` merged into its fault
/// script (by time; a scripted fault stays before a user's at the same moment).
///
/// The classic variants clear `group.protocol` and static membership; the
/// consumer-protocol variant gives the broker's `group.consumer.session.timeout.ms`
/// and `group.consumer.heartbeat.interval.ms` the classic client's values
/// (`GroupCoordinatorConfig`: in KIP-848 these are the broker's, not the client's),
/// lowering their minimums if needed, so all four detect a crash equally fast.
pub fn comparison(scenario: &Scenario, script: &[(Millis, Fault)], horizon: Millis) -> Result<Comparison, String> {
    let mut base = scenario.clone();
    base.faults.extend(script.iter().map(|(at, fault)| ScheduledFault { at: *at, fault: fault.clone() }));
    base.faults.sort_by_key(|f| f.at);
    let group =
        base.groups.first().ok_or_else(|| "scenario.groups: a comparison needs a consumer group".to_string())?;
    let (session, heartbeat) = (group.config.session_timeout_ms, group.config.heartbeat_interval_ms);
    let b = &base.broker;
    let broker = json!({
        "group.consumer.session.timeout.ms": session,
        "group.consumer.min.session.timeout.ms": b.consumer_group_min_session_timeout_ms.min(session),
        "group.consumer.max.session.timeout.ms": b.consumer_group_max_session_timeout_ms.max(session),
        "group.consumer.heartbeat.interval.ms": heartbeat,
        "group.consumer.min.heartbeat.interval.ms": b.consumer_group_min_heartbeat_interval_ms.min(heartbeat),
        "group.consumer.max.heartbeat.interval.ms": b.consumer_group_max_heartbeat_interval_ms.max(heartbeat),
    });
    let classic = |name: &str, assignor: &str, static_members: bool| Variant {
        name: name.into(),
        config: Some(
            json!({ "group.protocol": "classic", "group.remote.assignor": null, "partition.assignment.strategy": [assignor] }),
        ),
        group: Some(json!({ "staticMembers": static_members })),
        broker: None,
        ..Variant::default()
    };
    let consumer = Variant {
        name: CONSUMER.into(),
        config: Some(json!({ "group.protocol": "consumer", "group.remote.assignor": "uniform" })),
        group: Some(json!({ "staticMembers": false })),
        broker: Some(broker),
        ..Variant::default()
    };
    let until = until(horizon, &base.faults);
    let c = Comparison {
        name: if base.name.is_empty() { "this run".into() } else { format!("this run: {}", base.name) },
        group: Some(group.group_id.clone()),
        until: Some(until),
        scenario: base,
        variants: vec![
            classic(EAGER, "range", false),
            classic(COOPERATIVE, "cooperative-sticky", false),
            consumer,
            classic(STATIC, "range", true),
        ],
    };
    c.validate()?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::SideBySide;
    use crate::sim::scenario::config::GroupProtocol;

    fn crash_script() -> Vec<(Millis, Fault)> {
        vec![(12_000, Fault::CrashConsumer { consumer: 2 })]
    }

    #[test]
    fn four_variants_of_the_demo_with_the_users_faults() {
        let c = comparison(&Scenario::demo(), &crash_script(), 20_000).unwrap();
        let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, [EAGER, COOPERATIVE, CONSUMER, STATIC]);
        assert_eq!(c.scenario.faults, vec![ScheduledFault { at: 12_000, fault: Fault::CrashConsumer { consumer: 2 } }]);
        assert_eq!(c.until, Some(60_000));
        let scenarios = c.scenarios().unwrap();
        let g = |i: usize| &scenarios[i].1.groups[0];
        assert_eq!(g(0).config.assignors, ["range"]);
        assert_eq!(g(1).config.assignors, ["cooperative-sticky"]);
        assert_eq!(g(2).config.group_protocol, GroupProtocol::Consumer);
        assert!(g(3).static_members && !g(0).static_members && !g(2).static_members);
        // KIP-848's session timeout lives on the broker: the variant gets the client's 6 s.
        assert_eq!(scenarios[2].1.broker.consumer_group_session_timeout_ms, 6000);
        assert_eq!(scenarios[0].1.broker, Scenario::demo().broker);
    }

    #[test]
    fn a_consumer_protocol_run_compares_against_classic_variants() {
        let mut s = Scenario::demo();
        s.groups[0].config.group_protocol = GroupProtocol::Consumer;
        s.groups[0].config.group_remote_assignor = Some("range".into());
        s.groups[0].static_members = true;
        let c = comparison(&s, &[], 0).unwrap();
        let scenarios = c.scenarios().unwrap();
        assert_eq!(scenarios[0].1.groups[0].config.group_protocol, GroupProtocol::Classic);
        assert_eq!(scenarios[0].1.groups[0].config.group_remote_assignor, None);
        assert!(!scenarios[0].1.groups[0].static_members);
        assert_eq!(scenarios[2].1.groups[0].config.group_remote_assignor.as_deref(), Some("uniform"));
    }

    #[test]
    fn a_crash_stops_the_world_longest_for_eager_members() {
        // ConsumerCoordinator#onJoinPrepare revokes everything only under the EAGER protocol.
        let c = comparison(&Scenario::demo(), &crash_script(), 0).unwrap();
        let mut sbs = SideBySide::new(&c).unwrap();
        sbs.advance_to(40_000);
        let stw: Vec<(String, u64)> =
            sbs.lanes.iter().map(|l| (l.name.clone(), l.observer.metrics.longest_stop_the_world_ms)).collect();
        assert!(stw[0].1 > stw[1].1, "{stw:?}");
        assert_eq!(stw[2].1, 0, "{stw:?}");
        assert_eq!(sbs.lanes.iter().map(|l| l.violations).sum::<usize>(), 0);
    }

    #[test]
    fn no_group_is_a_clear_message() {
        let mut s = Scenario::demo();
        s.groups.clear();
        s.topics.clear();
        let e = comparison(&s, &[], 0).unwrap_err();
        assert!(e.contains("needs a consumer group"), "{e}");
    }
}
