//! Evaluating a step's condition against trace events, and its expectations
//! against the world.

use super::model::{Condition, Expectation};
use crate::assign::TopicPartition;
use crate::sim::client::streams::TaskState;
use crate::sim::coordinator::consumer::ConsumerGroupMember;
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, ConnectTimer, GroupTimer, TimerKey};
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::{Callback, Event, EventKind, Machine};
use crate::sim::world::{parse_node, Process};
use crate::sim::{Millis, NodeId, World};

/// `c3` → 3.
pub(crate) fn consumer_idx(name: &str) -> Option<u32> {
    match parse_node(name) {
        Some(NodeId::Client(c)) => Some(c),
        _ => None,
    }
}

/// `broker-1` → 1.
pub(crate) fn broker_id(name: &str) -> Option<u32> {
    match parse_node(name) {
        Some(NodeId::Broker(b)) => Some(b),
        _ => None,
    }
}

pub(crate) fn callback_named(name: &str) -> Option<Callback> {
    match name {
        "onPartitionsRevoked" => Some(Callback::OnPartitionsRevoked),
        "onPartitionsAssigned" => Some(Callback::OnPartitionsAssigned),
        "onPartitionsLost" => Some(Callback::OnPartitionsLost),
        _ => None,
    }
}

fn node_is(name: &Option<String>, node: NodeId) -> bool {
    name.as_deref().is_none_or(|n| parse_node(n) == Some(node))
}

impl Condition {
    /// The simulated time at which an `elapsed` condition holds.
    pub fn deadline(&self, step_started_at: Millis) -> Option<Millis> {
        match self {
            Condition::Elapsed { ms } => Some(step_started_at + ms),
            _ => None,
        }
    }

    /// Whether `e` is the event this condition waits for.
    pub fn matches(&self, world: &World, e: &Event) -> bool {
        match (self, &e.kind) {
            (
                Condition::GroupState { group, state },
                EventKind::StateChanged {
                    machine:
                        Machine::Group { group_id }
                        | Machine::ConsumerGroup { group_id }
                        | Machine::ShareGroup { group_id }
                        | Machine::StreamsGroup { group_id },
                    to,
                    ..
                },
            ) => group_id == group && to == state,
            (
                Condition::MemberState { consumer, state },
                EventKind::StateChanged {
                    node,
                    machine: Machine::Member | Machine::ConsumerMember | Machine::ShareMember | Machine::StreamsMember,
                    to,
                    ..
                },
            ) => parse_node(consumer) == Some(*node) && to == state,
            (Condition::SessionTimeout { consumer }, EventKind::TimerFired { node: NodeId::Broker(_), timer }) => {
                let idx = consumer_idx(consumer).unwrap_or(0);
                // A consumer group's session timer describes itself the same way.
                let Some(m) = world.member(idx) else { return false };
                let member = (m.group_id.to_string(), m.member_id.to_string());
                let key = if world.clients.share_consumer(idx).is_some() {
                    // `group.share.session.timeout.ms` (GroupMetadataManager.scheduleShareGroupSessionTimeout).
                    TimerKey::from(crate::sim::coordinator::share::session_key(&member.0, &member.1))
                } else if world.clients.streams_thread(idx).is_some() {
                    // `group.streams.session.timeout.ms` (GroupMetadataManager.scheduleStreamsGroupSessionTimeout).
                    TimerKey::from(crate::sim::coordinator::streams::session_key(&member.0, &member.1))
                } else {
                    TimerKey::from(GroupTimer::MemberHeartbeat { group_id: member.0, member_id: member.1.clone() })
                };
                !member.1.is_empty() && *timer == key.describe()
            }
            (Condition::PollTimeout { consumer }, EventKind::TimerFired { node, timer }) => {
                parse_node(consumer) == Some(*node) && *timer == TimerKey::from(ClientTimer::PollTimeout).describe()
            }
            (
                Condition::Callback { consumer, callback, partition },
                EventKind::CallbackInvoked { node, callback: cb, partitions },
            ) => {
                parse_node(consumer) == Some(*node)
                    && callback_named(callback) == Some(*cb)
                    && partition.as_ref().is_none_or(|p| partitions.iter().any(|tp| tp.to_string() == *p))
            }
            (Condition::Message { label, from, to }, EventKind::MessageSent { from: f, to: t, label: l, .. }) => {
                l.contains(label.as_str()) && node_is(from, *f) && node_is(to, *t)
            }
            (Condition::Processed { consumer, partition }, EventKind::RecordsProcessed { node, partition: tp, .. }) => {
                parse_node(consumer) == Some(*node) && partition.as_ref().is_none_or(|p| tp.to_string() == *p)
            }
            (Condition::Redelivered { consumer }, EventKind::RecordsProcessed { node, redelivered, .. }) => {
                *redelivered > 0 && node_is(consumer, *node)
            }
            (
                Condition::OffsetsCommitted { group, partition, above },
                EventKind::OffsetsCommitted { group_id, offsets },
            ) => {
                group_id == group
                    && partition.as_ref().is_none_or(|p| {
                        offsets.iter().any(|(tp, o)| tp.to_string() == *p && above.is_none_or(|a| *o > a))
                    })
            }
            (
                Condition::CoordinatorState { group, state },
                EventKind::StateChanged { machine: Machine::CoordinatorContext { partition }, to, .. },
            ) => *partition == world.cluster.offsets_partition_for(group) && to == state,
            (
                Condition::Fenced { consumer },
                EventKind::Note { node: NodeId::Broker(_), note: Note::MemberFenced { member_id, group_id, .. } },
            ) => {
                let idx = consumer_idx(consumer);
                let modern = idx
                    .and_then(|i| world.clients.async_consumer(i))
                    .map(|c| (&c.client().member_id, &c.client().group_id));
                let share = || {
                    idx.and_then(|i| world.clients.share_consumer(i))
                        .map(|c| (&c.client().member_id, &c.client().group_id))
                };
                let Some((id, group)) = modern.or_else(share) else {
                    return false;
                };
                !id.is_empty() && member_id == id && group_id == group
            }
            (Condition::Fault { contains }, EventKind::FaultInjected { description }) => {
                description.contains(contains.as_str())
            }
            (Condition::Note { kind, contains, node }, EventKind::Note { node: n, note }) => {
                kind.as_deref().is_none_or(|k| note.kind() == k)
                    && (contains.is_empty() || note.en().contains(contains.as_str()))
                    && node_is(node, *n)
            }
            (
                Condition::TaskState { group, task, state, worker },
                EventKind::StateChanged { node, machine: Machine::Task { id }, to, .. },
            ) => id == task && to == state && worker_of(world, *node, group) && node_is(worker, *node),
            (
                Condition::ConnectorState { group, connector, state, worker },
                EventKind::StateChanged { node, machine: Machine::Connector { name }, to, .. },
            ) => name == connector && to == state && worker_of(world, *node, group) && node_is(worker, *node),
            (Condition::ScheduledRebalance { group, worker }, EventKind::TimerFired { node, timer }) => {
                *timer == TimerKey::from(ConnectTimer::ScheduledRebalance).describe()
                    && worker_of(world, *node, group)
                    && node_is(worker, *node)
            }
            _ => false,
        }
    }

    /// English description for error messages and tests.
    pub fn describe(&self) -> String {
        match self {
            Condition::GroupState { group, state } => format!("group {group} changes to {state}"),
            Condition::MemberState { consumer, state } => format!("{consumer} changes to {state}"),
            Condition::SessionTimeout { consumer } => format!("{consumer}'s session times out on the coordinator"),
            Condition::PollTimeout { consumer } => format!("{consumer}'s max.poll.interval.ms expires"),
            Condition::Callback { consumer, callback, partition } => match partition {
                Some(p) => format!("{callback} invoked on {consumer} with {p}"),
                None => format!("{callback} invoked on {consumer}"),
            },
            Condition::Message { label, from, to } => {
                let f = from.as_deref().map(|f| format!(" from {f}")).unwrap_or_default();
                let t = to.as_deref().map(|t| format!(" to {t}")).unwrap_or_default();
                format!("a message '{label}…'{f}{t} is sent")
            }
            Condition::Processed { consumer, partition } => match partition {
                Some(p) => format!("{consumer} finishes processing records of {p}"),
                None => format!("{consumer} finishes processing records"),
            },
            Condition::Redelivered { consumer } => match consumer {
                Some(c) => format!("{c} processes records a second time"),
                None => "records are processed a second time".into(),
            },
            Condition::OffsetsCommitted { group, partition, above } => match (partition, above) {
                (Some(p), Some(a)) => format!("group {group} commits an offset above {a} for {p}"),
                (Some(p), None) => format!("group {group} commits an offset of {p}"),
                (None, _) => format!("group {group} commits offsets"),
            },
            Condition::CoordinatorState { group, state } => {
                format!("the coordinator context of group {group} becomes {state}")
            }
            Condition::Note { kind: Some(k), contains, .. } if !contains.is_empty() => {
                format!("a {k} note containing '{contains}'")
            }
            Condition::Note { kind: Some(k), .. } => format!("a {k} note"),
            Condition::Note { contains, .. } => format!("a note containing '{contains}'"),
            Condition::Fault { contains } => format!("a fault '{contains}…' is injected"),
            Condition::Elapsed { ms } => format!("{ms} ms of simulated time pass"),
            Condition::Acted => "the learner acts".to_string(),
            Condition::Fenced { consumer } => format!("the coordinator fences {consumer}'s member"),
            Condition::TaskState { group, task, state, worker } => {
                format!(
                    "task {task} of {group} changes to {state}{}",
                    worker.as_deref().map(|w| format!(" on {w}")).unwrap_or_default()
                )
            }
            Condition::ConnectorState { group, connector, state, worker } => {
                format!(
                    "connector {connector} of {group} changes to {state}{}",
                    worker.as_deref().map(|w| format!(" on {w}")).unwrap_or_default()
                )
            }
            Condition::ScheduledRebalance { group, worker } => format!(
                "the scheduled.rebalance.max.delay.ms timer of {} fires",
                worker.as_deref().map_or(format!("a worker of {group}"), str::to_string)
            ),
        }
    }
}

/// Whether `node` is a Connect worker of the cluster `group`.
fn worker_of(world: &World, node: NodeId, group: &str) -> bool {
    matches!(node, NodeId::Client(i) if world.clients.worker(i).is_some_and(|w| w.group_id == group))
}

/// The live workers of `group` running a task (or, with `connector`, a
/// connector instance), with its state there.
fn runs(world: &World, group: &str, name: &str, connector: bool) -> Vec<(String, String)> {
    world
        .group_workers(group)
        .filter(|w| w.alive)
        .filter_map(|w| {
            let state = if connector {
                w.connectors.get(name).copied()
            } else {
                w.tasks.iter().find(|(t, _)| t.to_string() == name).map(|(_, s)| *s)
            };
            state.map(|s| (format!("c{}", w.idx), format!("{s:?}")))
        })
        .collect()
}

/// Checks where a task or connector instance runs and in what state.
fn check_instance(
    world: &World,
    group: &str,
    name: &str,
    connector: bool,
    worker: &Option<String>,
    state: &Option<String>,
) -> Result<(), String> {
    let kind = if connector { "connector" } else { "task" };
    let actual = runs(world, group, name, connector);
    let described = || {
        if actual.is_empty() {
            "unassigned".to_string()
        } else {
            actual.iter().map(|(w, s)| format!("{s} on {w}")).collect::<Vec<_>>().join(", ")
        }
    };
    let where_ok = match worker {
        Some(w) => actual.len() == 1 && actual[0].0 == *w,
        None => actual.is_empty(),
    };
    let state_ok = state.as_ref().is_none_or(|s| actual.iter().all(|(_, a)| a == s));
    if where_ok && state_ok {
        return Ok(());
    }
    let expected = match (worker, state) {
        (Some(w), Some(s)) => format!("{s} on {w}"),
        (Some(w), None) => format!("on {w}"),
        (None, _) => "unassigned (on no live worker)".into(),
    };
    Err(format!("expected {kind} {name} of {group} {expected}, but it is {}", described()))
}

/// The live consumers owning `tp` (client view: what each consumer believes it owns).
fn owners(world: &World, tp: &TopicPartition) -> Vec<String> {
    let owns = |p: &Process| p.alive && p.client.owned().contains(tp);
    world.clients.iter().filter(|(_, p)| owns(p)).map(|(i, _)| format!("c{i}")).collect()
}

/// The member of consumer `c` (KIP-848) on its group's coordinator: by the
/// member id the client holds, or, before the client has read the response
/// that gave it one, by its client id.
fn coordinator_member<'a>(world: &'a World, c: &str) -> Option<&'a ConsumerGroupMember> {
    let k = consumer_idx(c).and_then(|i| world.clients.async_consumer(i))?;
    let group = world.consumer_group(&k.group_id)?.1;
    if k.member_id.is_empty() {
        let node = k.node().to_string();
        let mut same = group.members.values().filter(|m| m.client_id == node);
        match (same.next(), same.next()) {
            (Some(m), None) => Some(m),
            _ => None,
        }
    } else {
        group.members.get(&k.member_id)
    }
}

fn same_set(actual: &[String], expected: &[String]) -> bool {
    let (mut a, mut e) = (actual.to_vec(), expected.to_vec());
    a.sort();
    e.sort();
    a == e
}

/// The group's total of a per-partition record count, within `[at_least, at_most]`.
fn in_bounds(
    counts: &crate::sim::cluster::PerPartition,
    group: &str,
    at_least: Option<i64>,
    at_most: Option<i64>,
    what: &str,
) -> Result<(), String> {
    let total = counts.group_total(group);
    if at_least.is_none_or(|m| total >= m) && at_most.is_none_or(|m| total <= m) {
        Ok(())
    } else {
        Err(format!("expected group {group} {what} in [{}, {}], but it is {total}", show(at_least), show(at_most)))
    }
}

fn show<T: std::fmt::Debug>(v: Option<T>) -> String {
    v.map_or("none".into(), |v| format!("{v:?}").trim_matches('"').to_string())
}

impl Expectation {
    /// `Err` says what the world holds instead.
    pub fn check(&self, world: &World) -> Result<(), String> {
        let group_of = |g: &str| world.group(g).map(|(_, gr)| gr);
        let consumer = |c: &str| consumer_idx(c).and_then(|i| world.clients.classic(i));
        let modern = |c: &str| consumer_idx(c).and_then(|i| world.clients.async_consumer(i));
        let consumer_group = |g: &str| world.consumer_group(g).map(|(_, gr)| gr);
        let worker = |c: &str| consumer_idx(c).and_then(|i| world.clients.worker(i));
        let share = |c: &str| consumer_idx(c).and_then(|i| world.clients.share_consumer(i));
        let share_group = |g: &str| world.share_group(g).map(|(_, gr)| gr);
        let streams_group = |g: &str| world.streams_group(g).map(|(_, gr)| gr);
        let fail = |what: String, actual: String| Err(format!("expected {what}, but it is {actual}"));
        match self {
            Expectation::GroupState { group, state } => {
                let actual = group_of(group)
                    .map(|g| g.state.name())
                    .or_else(|| consumer_group(group).map(|g| g.state.name()))
                    .or_else(|| share_group(group).map(|g| g.state.name()))
                    .or_else(|| streams_group(group).map(|g| g.state.name()));
                if actual == Some(state.as_str()) {
                    Ok(())
                } else {
                    fail(format!("group {group} to be {state}"), show(actual))
                }
            }
            Expectation::Generation { group, generation } => {
                let actual = group_of(group).map(|g| g.generation_id);
                if actual == Some(*generation) {
                    Ok(())
                } else {
                    fail(format!("group {group} at generation {generation}"), show(actual))
                }
            }
            Expectation::Members { group, count } => {
                let actual = group_of(group)
                    .map(|g| g.members.len())
                    .or_else(|| consumer_group(group).map(|g| g.members.len()))
                    .or_else(|| share_group(group).map(|g| g.members.len()))
                    .or_else(|| streams_group(group).map(|g| g.members.len()));
                if actual == Some(*count) {
                    Ok(())
                } else {
                    fail(format!("group {group} to have {count} members"), show(actual))
                }
            }
            Expectation::Leader { group, consumer: c } => {
                let leader = group_of(group).and_then(|g| g.leader_id.clone());
                let actual = leader.as_ref().and_then(|l| {
                    let consumer = world.clients.classics().find(|k| &k.membership.member_id == l).map(|k| k.idx);
                    consumer
                        .or_else(|| world.clients.workers().find(|w| &w.membership.member_id == l).map(|w| w.idx))
                        .map(|i| format!("c{i}"))
                });
                if actual.as_deref() == Some(c.as_str()) {
                    Ok(())
                } else {
                    fail(format!("{c} to lead group {group}"), show(actual))
                }
            }
            Expectation::Protocol { group, protocol } => {
                let actual = group_of(group).and_then(|g| g.protocol_name.clone());
                if actual.as_deref() == Some(protocol.as_str()) {
                    Ok(())
                } else {
                    fail(format!("group {group} to use {protocol}"), show(actual))
                }
            }
            Expectation::Coordinator { group, broker } => {
                let actual = world.group(group).map(|(b, _)| format!("broker-{b}"));
                if actual.as_deref() == Some(broker.as_str()) {
                    Ok(())
                } else {
                    fail(format!("{broker} to coordinate group {group}"), show(actual))
                }
            }
            Expectation::KnownCoordinator { consumer: c, broker } => {
                let actual = consumer(c)
                    .and_then(|k| k.membership.coordinator)
                    .or_else(|| modern(c).and_then(|k| k.link.coordinator))
                    .map(|b| format!("broker-{b}"));
                if actual == *broker {
                    Ok(())
                } else {
                    fail(format!("{c} to know coordinator {}", show(broker.as_ref())), show(actual))
                }
            }
            Expectation::Owner { partition, consumer: c } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = owners(world, &tp);
                let expected: Vec<String> = c.iter().cloned().collect();
                if actual == expected {
                    Ok(())
                } else {
                    fail(format!("{partition} owned by {}", show(c.as_ref())), format!("{actual:?}"))
                }
            }
            Expectation::Owns { consumer: c, partitions } => {
                let owned = consumer(c)
                    .map(|k| &k.client().owned)
                    .or_else(|| modern(c).map(|k| &k.client().owned))
                    .or_else(|| share(c).map(|k| &k.client().assignment));
                let actual: Vec<String> = owned.map(|o| o.iter().map(|p| p.to_string()).collect()).unwrap_or_default();
                if same_set(&actual, partitions) {
                    Ok(())
                } else {
                    fail(format!("{c} to own {partitions:?}"), format!("{actual:?}"))
                }
            }
            Expectation::MemberState { consumer: c, state } => {
                let actual = consumer(c)
                    .map(|k| (k.alive, k.membership.state))
                    .map(|(alive, state)| (alive, format!("{state:?}")))
                    .or_else(|| worker(c).map(|w| (w.alive, format!("{:?}", w.membership.state))))
                    .or_else(|| modern(c).map(|k| (k.alive, format!("{:?}", k.state))))
                    .or_else(|| share(c).map(|k| (k.alive, format!("{:?}", k.state))))
                    .map(|(alive, state)| if alive { state } else { "crashed".into() });
                if actual.as_deref() == Some(state.as_str()) {
                    Ok(())
                } else {
                    fail(format!("{c} to be {state}"), show(actual))
                }
            }
            Expectation::Redelivered { group, at_least, at_most } => {
                in_bounds(&world.cluster.stats.redelivered, group, *at_least, *at_most, "redelivered")
            }
            Expectation::Skipped { group, at_least, at_most } => {
                in_bounds(&world.cluster.stats.skipped, group, *at_least, *at_most, "skipped (never processed)")
            }
            Expectation::SessionTimeouts { consumer: c, count } => {
                // Member ids are `<client.id>-<uuid>` (ClassicGroup's JoinGroup handling).
                let prefix = consumer(c).map(|k| format!("session timeout of {}-", k.client_id)).unwrap_or_default();
                let actual = world.trace.iter().filter(|e| matches!(&e.kind, EventKind::TimerFired { node: NodeId::Broker(_), timer } if !prefix.is_empty() && timer.starts_with(&prefix))).count();
                if actual == *count {
                    Ok(())
                } else {
                    fail(format!("{count} session timeouts of {c}'s members"), actual.to_string())
                }
            }
            Expectation::PollTimeouts { consumer: c, count } => {
                let (node, poll) = (parse_node(c), TimerKey::from(ClientTimer::PollTimeout).describe());
                let actual = world.trace.iter().filter(|e| matches!(&e.kind, EventKind::TimerFired { node: n, timer } if Some(*n) == node && *timer == poll)).count();
                if actual == *count {
                    Ok(())
                } else {
                    fail(format!("{count} max.poll.interval.ms expiries of {c}"), actual.to_string())
                }
            }
            Expectation::Rebalances { group, count } => {
                let actual = world
                    .trace
                    .iter()
                    .filter(|e| matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { group_id }, to, .. } if group_id == group && to == "PreparingRebalance"))
                    .count();
                if actual == *count {
                    Ok(())
                } else {
                    fail(format!("{count} rebalances of group {group}"), actual.to_string())
                }
            }
            Expectation::Fatal { consumer: c, error } => {
                let actual =
                    consumer(c).and_then(|k| k.fatal.clone()).or_else(|| modern(c).and_then(|k| k.fatal.clone()));
                if actual.as_deref() == Some(error.as_str()) {
                    Ok(())
                } else {
                    fail(format!("{c} to fail with {error}"), show(actual))
                }
            }
            Expectation::Committed { group, partition, offset } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = world.committed_offsets(group).and_then(|o| o.get(&tp).copied());
                if actual == *offset {
                    Ok(())
                } else {
                    fail(
                        format!("group {group}'s committed offset of {partition} to be {}", show(*offset)),
                        show(actual),
                    )
                }
            }
            Expectation::CommittedNext { group, partition } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = world.committed_offsets(group).and_then(|o| o.get(&tp).copied());
                let processed = world.cluster.stats.processed_until.get(group, &tp);
                if actual.is_some_and(|o| o >= 1 && o <= processed) {
                    Ok(())
                } else {
                    fail(format!("group {group}'s committed offset of {partition} to be a position in 1..={processed} (the next record to read)"), show(actual))
                }
            }
            Expectation::Time { ms } => {
                if world.now == *ms {
                    Ok(())
                } else {
                    fail(format!("the event at {ms} ms"), format!("{} ms", world.now))
                }
            }
            Expectation::GroupEpoch { group, epoch } => {
                let actual = consumer_group(group).map(|g| g.group_epoch);
                if actual == Some(*epoch) {
                    Ok(())
                } else {
                    fail(format!("group {group} at group epoch {epoch}"), show(actual))
                }
            }
            Expectation::TargetAssignmentEpoch { group, epoch } => {
                let actual = consumer_group(group).map(|g| g.assignment_epoch);
                if actual == Some(*epoch) {
                    Ok(())
                } else {
                    fail(format!("group {group}'s target assignment at epoch {epoch}"), show(actual))
                }
            }
            Expectation::MemberEpoch { consumer: c, epoch } => {
                let actual = coordinator_member(world, c).map(|m| m.member_epoch);
                let what = || format!("{c}'s member at epoch {} on the coordinator", show(*epoch));
                if actual == *epoch {
                    Ok(())
                } else {
                    fail(what(), actual.map_or("no member".into(), |e| e.to_string()))
                }
            }
            Expectation::ConsumerEpoch { consumer: c, epoch } => {
                let actual = modern(c).map(|k| k.member_epoch);
                if actual == Some(*epoch) {
                    Ok(())
                } else {
                    fail(format!("{c} to hold member epoch {epoch}"), show(actual))
                }
            }
            Expectation::TargetAssignment { consumer: c, partitions } => {
                let group = modern(c).and_then(|k| consumer_group(&k.group_id));
                let actual: Option<Vec<String>> = group
                    .zip(coordinator_member(world, c))
                    .map(|(g, m)| g.target_of(&m.member_id).iter().map(|p| p.to_string()).collect());
                match actual {
                    Some(a) if same_set(&a, partitions) => Ok(()),
                    Some(a) => fail(format!("{c}'s target assignment to be {partitions:?}"), format!("{a:?}")),
                    None => fail(
                        format!("{c}'s target assignment to be {partitions:?}"),
                        "no member on the coordinator".into(),
                    ),
                }
            }
            Expectation::CoordinatorMemberState { consumer: c, state } => {
                let actual = coordinator_member(world, c).map(|m| format!("{:?}", m.state));
                if actual.as_deref() == Some(state.as_str()) {
                    Ok(())
                } else {
                    fail(
                        format!("{c}'s member to be {state} on the coordinator"),
                        actual.unwrap_or_else(|| "no member".into()),
                    )
                }
            }
            Expectation::SharedBy { group, partition, count } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = share_group(group).map(|g| g.holders(&tp).len());
                if actual == Some(*count) {
                    Ok(())
                } else {
                    fail(format!("{partition} assigned to {count} members of share group {group}"), show(actual))
                }
            }
            Expectation::ShareStartOffset { group, partition, at_least } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = world.cluster.share_state.get(group).and_then(|s| s.get(&tp)).map(|s| s.start_offset);
                if actual.is_some_and(|o| o >= *at_least) {
                    Ok(())
                } else {
                    fail(
                        format!("share group {group}'s start offset (SPSO) of {partition} at least {at_least}"),
                        show(actual),
                    )
                }
            }
            Expectation::Task { group, task, worker, state } => {
                check_instance(world, group, task, false, worker, state)
            }
            Expectation::Connector { group, connector, worker, state } => {
                check_instance(world, group, connector, true, worker, state)
            }
            Expectation::WorkerTasks { worker: w, tasks } => {
                let actual: Vec<String> = worker(w)
                    .filter(|k| k.alive)
                    .map(|k| k.tasks.keys().map(|t| t.to_string()).collect())
                    .unwrap_or_default();
                let (mut a, mut e) = (actual.clone(), tasks.clone());
                a.sort();
                e.sort();
                if a == e {
                    Ok(())
                } else {
                    fail(format!("{w} to run tasks {tasks:?}"), format!("{actual:?}"))
                }
            }
            Expectation::WorkerGeneration { worker: w, generation } => {
                let actual = worker(w).map(|k| k.membership.generation);
                if actual == Some(*generation) {
                    Ok(())
                } else {
                    fail(format!("{w} at generation {generation}"), show(actual))
                }
            }
            Expectation::StreamsTasks { consumer: c, active, standby, restoring } => {
                let thread = consumer_idx(c).and_then(|i| world.clients.streams_thread(i)).filter(|t| t.alive);
                // The thread's tasks in one state, as `0_3`, sorted as text.
                let named = |keep: fn(&TaskState) -> bool| -> Vec<String> {
                    let tasks = thread.iter().flat_map(|t| t.tasks.iter()).filter(|(_, s)| keep(s));
                    let mut v: Vec<String> = tasks.map(|((sub, p), _)| format!("{sub}_{p}")).collect();
                    v.sort();
                    v
                };
                let same = |want: &[String], have: &[String]| {
                    let mut w = want.to_vec();
                    w.sort();
                    w == have
                };
                let a = named(|s| !matches!(s, TaskState::Standby));
                let s = named(|s| matches!(s, TaskState::Standby));
                let r = named(|s| matches!(s, TaskState::Restoring { .. }));
                if !same(active, &a) {
                    fail(format!("{c} to run active tasks {active:?}"), format!("{a:?}"))
                } else if standby.as_ref().is_some_and(|want| !same(want, &s)) {
                    fail(
                        format!("{c} to hold standby tasks {:?}", standby.clone().unwrap_or_default()),
                        format!("{s:?}"),
                    )
                } else if restoring.as_ref().is_some_and(|want| !same(want, &r)) {
                    fail(format!("{c} to be restoring {:?}", restoring.clone().unwrap_or_default()), format!("{r:?}"))
                } else {
                    Ok(())
                }
            }
            Expectation::TaskOwner { group, task, consumer: c } => {
                let owners: Vec<String> = world
                    .clients
                    .streams_threads()
                    .filter(|t| t.alive && &t.group_id == group)
                    .filter(|t| {
                        t.tasks
                            .iter()
                            .any(|((sub, p), s)| !matches!(s, TaskState::Standby) && format!("{sub}_{p}") == *task)
                    })
                    .map(|t| format!("c{}", t.idx))
                    .collect();
                let want: Vec<String> = c.iter().cloned().collect();
                if owners == want {
                    Ok(())
                } else {
                    fail(
                        format!("task {task} of {group} active on {}", c.as_deref().unwrap_or("no thread")),
                        if owners.is_empty() { "on none".into() } else { format!("on {}", owners.join(", ")) },
                    )
                }
            }
            Expectation::ScheduledRebalance { worker: w, at } => {
                let actual = worker(w).and_then(|k| k.scheduled_rebalance);
                if actual == *at {
                    Ok(())
                } else {
                    fail(format!("{w}'s scheduled rebalance at {} ms", show(*at)), show(actual))
                }
            }
        }
    }
}
