//! One plain sentence per trace event, for the event log and the ARIA live region.

#[path = "narrate_fault.rs"]
pub mod fault;
#[path = "narrate_poll_wait.rs"]
pub mod poll_wait;

use crate::i18n::{tr, trf, Lang};
use crate::sim::message::short_member;
use crate::sim::trace::{Callback, Event, EventKind, Machine};
use crate::sim::World;

/// Replaces long member ids (`consumer-demo-2-65060736-…`) with the process name (`c2`)
/// in a sentence: a note, or the trigger under a state diagram.
/// Member ids start with the client id: `consumer-<group>-<n>-` or `connect-<n>-`.
pub fn readable(world: &World, text: &str) -> String {
    if !text.contains("consumer-") && !text.contains("connect-") {
        return text.to_string();
    }
    let mut s = text.to_string();
    for m in world.members().filter(|m| !m.member_id.is_empty()) {
        if s.contains(m.member_id) {
            s = s.replace(m.member_id, &format!("c{} ({})", m.idx, short_member(m.member_id)));
        }
    }
    s
}

fn partitions(lang: Lang, ps: &[crate::assign::TopicPartition]) -> String {
    if ps.is_empty() {
        tr(lang, "n.no_partitions").into()
    } else {
        ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// The sentence for `e` in `lang`, or `None` for events too fine-grained for the log.
/// Kafka's names (APIs, states, errors, callbacks) stay as Kafka spells them.
pub fn sentence(world: &World, e: &Event, lang: Lang) -> Option<String> {
    let f = |key: &str, args: &[&dyn std::fmt::Display]| trf(lang, key, args);
    let s = match &e.kind {
        EventKind::MessageSent { from, to, label, .. } => f("n.sent", &[from, to, &fault::message_label(label, lang)]),
        EventKind::MessageDelivered { .. } => return None,
        EventKind::MessageDropped { from, to, label, reason, .. } => {
            f("n.lost", &[from, to, &fault::message_label(label, lang), &fault::drop_reason(reason, lang)])
        }
        EventKind::StateChanged { node, machine, from, to, trigger } => {
            let trigger = &fault::trigger(trigger, lang);
            match machine {
                Machine::Group { group_id } => f("n.group", &[group_id, node, from, to, trigger]),
                Machine::Member => f("n.member", &[node, from, to, trigger]),
                Machine::Connector { name } => f("n.connector", &[node, name, from, to, trigger]),
                Machine::Task { id } => f("n.task", &[node, id, from, to, trigger]),
                Machine::CoordinatorContext { partition } => f("n.context", &[node, partition, from, to, trigger]),
                Machine::ConsumerMember => f("n.member", &[node, from, to, trigger]),
                Machine::ConsumerGroup { group_id } => f("n.cgroup", &[group_id, node, from, to, trigger]),
                Machine::ShareMember => f("n.member", &[node, from, to, trigger]),
                Machine::ShareGroup { group_id } => f("n.sgroup", &[group_id, node, from, to, trigger]),
                Machine::StreamsMember => f("n.member", &[node, from, to, trigger]),
                Machine::StreamsGroup { group_id } => f("n.stgroup", &[group_id, node, from, to, trigger]),
            }
        }
        EventKind::TimerFired { node, timer } => f("n.timer", &[node, &fault::timer(timer, lang)]),
        EventKind::FaultInjected { description } => f("n.fault", &[&fault::description(description, lang)]),
        EventKind::CallbackInvoked { node, callback, partitions: ps } => {
            let name = match callback {
                Callback::OnPartitionsRevoked => "onPartitionsRevoked",
                Callback::OnPartitionsAssigned => "onPartitionsAssigned",
                Callback::OnPartitionsLost => "onPartitionsLost",
            };
            f("n.callback", &[node, &name, &partitions(lang, ps)])
        }
        EventKind::Note { node, note } => match lang {
            Lang::Zh => f("n.note", &[node, &crate::narrate_zh::note(note)]),
            Lang::En => f("n.note", &[node, note]),
        },
        EventKind::RecordsProcessed { redelivered: 0, .. } => return None,
        EventKind::RecordsProcessed { node, partition, redelivered, .. } => {
            f("n.redelivered", &[node, redelivered, partition])
        }
        EventKind::OffsetsCommitted { group_id, offsets } => {
            let list = offsets.iter().map(|(tp, o)| format!("{tp}@{o}")).collect::<Vec<_>>().join(", ");
            f("n.committed", &[group_id, &list])
        }
        EventKind::InvariantViolated { invariant, detail } => f("n.violated", &[invariant, detail]),
    };
    Some(readable(world, &s))
}

/// One link of a causal chain: the event and its sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub id: crate::sim::types::EventId,
    pub at: crate::sim::Millis,
    pub sentence: String,
}

/// The process a timer or fault concerns, for the inference below.
fn timer_client(world: &World, ev: &Event) -> Option<(crate::sim::NodeId, bool)> {
    let EventKind::TimerFired { node, timer } = &ev.kind else { return None };
    // KIP-1071: a streams group's session timer (`streamsGroupSessionTimeoutKey`) names its member alike.
    if let Some(member) =
        timer.strip_prefix("session timeout of ").or_else(|| timer.strip_prefix("streams session timeout of "))
    {
        let c = world.members().find(|c| c.member_id == member)?;
        return Some((crate::sim::NodeId::Client(c.idx), true));
    }
    (timer == "max.poll.interval.ms").then_some((*node, false))
}

/// The causal chain of `e`, newest first ("why" links): each event's cause,
/// then its cause, back to the fault, start or timer that began it. Events too
/// fine-grained to narrate (deliveries) are walked through, not shown.
///
/// A timeout is caused by something that did *not* happen, which the trace
/// cannot link; so at a session timeout the chain says since when no
/// heartbeat arrived and names the fault on that member (crash, pause, cut
/// link) injected since then, if any, instead of walking back through the
/// heartbeats that did arrive. A `max.poll.interval.ms` expiry likewise names
/// the slow-processing or pause fault.
pub fn why(world: &World, e: &Event, lang: Lang) -> Vec<Why> {
    let mut out = Vec::new();
    let mut cur = e.cause;
    while let Some(id) = cur {
        let Some(ev) = world.trace.get(id) else { break };
        if let Some(s) = sentence(world, ev, lang) {
            out.push(Why { id, at: ev.at, sentence: s });
        }
        cur = ev.cause;
        if let Some((client, session)) = timer_client(world, ev) {
            let since = ev.cause.and_then(|c| world.trace.get(c)).map_or(0, |c| c.at);
            if session {
                let text = trf(lang, "why.silent", &[&client, &format!("{:.1}", since as f64 / 1000.0)]);
                out.push(Why { id: ev.cause.unwrap_or(id), at: since, sentence: text });
            }
            let name = format!("{client}");
            let fault = world.trace[..id].iter().rev().take_while(|f| f.at >= since).find(|f| match &f.kind {
                EventKind::FaultInjected { description } => {
                    description.split(|c: char| !c.is_alphanumeric() && c != '-').any(|w| w == name)
                }
                _ => false,
            });
            if let Some(f) = fault {
                if let Some(s) = sentence(world, f, lang) {
                    out.push(Why { id: f.id, at: f.at, sentence: s });
                }
                break;
            }
        }
        if out.len() >= 40 {
            break;
        }
    }
    out
}

/// A message the caption passes over: keep-alive heartbeats (classic
/// `Heartbeat`, KIP-848 `ConsumerGroupHeartbeat` and KIP-1071
/// `StreamsGroupHeartbeat` carrying only the epoch)
/// and their plain answers, offset commits and fetches and their `OK`s. An
/// error in an answer (`REBALANCE_IN_PROGRESS`...) is not routine.
pub fn routine_message(label: &str) -> bool {
    let api = label.split([' ', '(']).next().unwrap_or("");
    let error = || label.contains('_') || label.contains("→");
    match api {
        "Heartbeat" | "OffsetCommit" | "OffsetFetch" => !error(),
        // `Fetch orders-0,orders-3`, `Fetch ← 12 records`: routine, but not a
        // NOT_LEADER_OR_FOLLOWER (a topic name may hold '_', so only errors count).
        "Fetch" => crate::spacetime::is_routine_fetch(label),
        "ConsumerGroupHeartbeat" | "StreamsGroupHeartbeat" => {
            !error() && !label.contains("owned=") && !label.contains("leave") && !label.contains('-')
        }
        _ => false,
    }
}

/// After this long with nothing worth a sentence, the caption says the group
/// is quiet instead of repeating an old event as if it had just happened.
pub const QUIET_MS: crate::sim::Millis = 10_000;

/// How far back the caption looks for an event worth a sentence (routine
/// fetches to partition leaders are most of a settled group's events: a
/// minute of the demo is about 7,000).
const CAPTION_LOOKBACK: usize = 20_000;

/// The caption under the drawing: the newest event worth a sentence (routine
/// keep-alives and commits passed over), with its time. When nothing but
/// keep-alives happened for [`QUIET_MS`], it says so, with the time now.
pub fn caption(world: &World, lang: Lang) -> Option<(crate::sim::Millis, String)> {
    let newest = world
        .trace
        .iter()
        .rev()
        .take(CAPTION_LOOKBACK)
        .filter(|e| worth_a_caption(e))
        .find_map(|e| sentence(world, e, lang).map(|s| (e.at, s)));
    if newest.as_ref().is_some_and(|(at, _)| world.now.saturating_sub(*at) < QUIET_MS) {
        return newest;
    }
    // Quiet, but a consumer stuck in a long batch is not settled: say what the group waits for.
    if let Some(waiting) = poll_wait::sentence(world, lang).filter(|_| world.now > 0) {
        return Some((world.now, waiting));
    }
    match newest {
        Some((at, _)) => Some((world.now, trf(lang, "caption.quiet", &[&format!("{:.1}", at as f64 / 1000.0)]))),
        None if world.now > 0 => Some((world.now, tr(lang, "caption.quiet.long").to_string())),
        None => None,
    }
}

/// Whether the caption would show `e` (see [`caption`]).
pub fn worth_a_caption(e: &Event) -> bool {
    match &e.kind {
        EventKind::MessageSent { label, .. } => !routine_message(label),
        EventKind::MessageDelivered { .. } | EventKind::OffsetsCommitted { .. } => false,
        EventKind::RecordsProcessed { redelivered, .. } => *redelivered > 0,
        // The heartbeat thread waking up, the auto-commit timer: routine.
        EventKind::TimerFired { timer, .. } => {
            !matches!(timer.as_str(), "heartbeat.interval.ms" | "auto.commit.interval.ms" | "retry.backoff.ms")
        }
        _ => true,
    }
}
