//! Kafka Streams' own lines (`java_streams`), for `Rebuild`: instances, their stream threads
//! (each one member of the group), the threads' tasks, state changes and restorations, and the
//! follow-up rebalances the classic group leader's `StreamsPartitionAssignor` asks for.

use super::{why, Rebuild};
use crate::explain::event::{Ev, Event};
use crate::explain::java_streams::instance_of_thread;
use crate::explain::members::client_of_member_id;
use crate::explain::model::{Cause, StateChange, StreamsApp, StreamsInstance, StreamsThread};
use std::collections::BTreeMap;

/// What the Streams lines told so far.
#[derive(Debug, Default)]
pub(super) struct StreamsState {
    seen: bool,
    instances: BTreeMap<String, StreamsInstance>,
    /// Thread name → its record (moved under its instance at the end).
    threads: BTreeMap<String, StreamsThread>,
    follow_ups: Vec<(i64, bool)>,
}

/// `i1-StreamThread-1-consumer-<uuid>` (a classic member id) → `i1-StreamThread-1`.
fn thread_of_member(member: &str) -> Option<&str> {
    client_of_member_id(member).map(|c| c.strip_suffix("-consumer").unwrap_or(c))
}

impl StreamsState {
    /// The instance, seen at `own` when the line is its own (another's line only names it).
    fn instance(&mut self, client: &str, own: Option<i64>) -> &mut StreamsInstance {
        let i = self.instances.entry(client.to_string()).or_insert_with(|| StreamsInstance {
            client_id: client.to_string(),
            first_ms: i64::MAX,
            last_ms: i64::MIN,
            ..StreamsInstance::default()
        });
        if let Some(ts) = own {
            i.first_ms = i.first_ms.min(ts);
            i.last_ms = i.last_ms.max(ts);
        }
        i
    }

    fn thread(&mut self, name: &str, own: Option<i64>) -> &mut StreamsThread {
        if let Some(c) = instance_of_thread(name) {
            self.instance(c, own);
        }
        self.threads
            .entry(name.to_string())
            .or_insert_with(|| StreamsThread { name: name.to_string(), ..StreamsThread::default() })
    }
}

impl Rebuild {
    /// Takes a Kafka Streams event; false if `e` is not one.
    pub(super) fn feed_streams(&mut self, e: &Event) -> bool {
        let s = &mut self.streams;
        let thread_of_line = e.who.client_id.as_deref().map(|c| c.strip_suffix("-consumer").unwrap_or(c).to_string());
        match &e.ev {
            Ev::StreamThreadState { thread, from, to } => {
                let change = StateChange { ts: e.ts, from: from.clone(), to: to.clone() };
                s.thread(thread, Some(e.ts)).states.push(change);
            }
            Ev::StreamsClientState { client, from, to } => {
                let change = StateChange { ts: e.ts, from: from.clone(), to: to.clone() };
                s.instance(client, Some(e.ts)).states.push(change);
            }
            Ev::StreamsTasks { thread, active, standby } => {
                let t = s.thread(thread, Some(e.ts));
                t.active = active.clone();
                t.standby = standby.clone();
            }
            Ev::SgTasks { active, standby, .. } => {
                if let Some(name) = &thread_of_line {
                    let t = s.thread(name, Some(e.ts));
                    t.active = active.clone();
                    t.standby = standby.clone();
                }
            }
            Ev::StreamsProcesses { processes } => {
                for (pid, members) in processes {
                    for m in members {
                        let Some(thread) = thread_of_member(m) else { continue };
                        let Some(client) = instance_of_thread(thread).map(str::to_string) else { continue };
                        s.thread(thread, None);
                        s.instance(&client, None).process_id = Some(pid.clone());
                    }
                }
            }
            Ev::StreamsRestored { changelog, records } => {
                // the state updater's lines carry no thread; the file's last thread names the instance
                if let Some(c) = thread_of_line.as_deref().and_then(instance_of_thread).map(str::to_string) {
                    s.instance(&c, Some(e.ts)).restored.push((e.ts, changelog.clone(), *records));
                }
            }
            Ev::StreamsFollowUp { probing } => {
                s.follow_ups.push((e.ts, *probing));
                // an immediate follow-up is the next rebalance; a probing one is known by the
                // reason the thread that triggers it gives (`causes::client_reason`)
                if !*probing {
                    self.streams_pending = Some(why(e, Some(Cause::FollowUp), None));
                }
            }
            Ev::StreamsAssigned { .. } | Ev::StreamsPerConsumer => {}
            _ => return false,
        }
        self.streams.seen = true;
        if let Some(t) = thread_of_line.as_deref().and_then(instance_of_thread).map(str::to_string) {
            self.streams.instance(&t, (!e.who.is_broker).then_some(e.ts));
        }
        true
    }

    /// The application, once every line is in: threads under their instances, with their
    /// member ids, and how each instance's lines end.
    pub(super) fn finish_streams(&mut self) -> Option<StreamsApp> {
        if !self.streams.seen {
            return None;
        }
        let mut s = std::mem::take(&mut self.streams);
        // threads the group knows by their consumers' member ids only
        for p in self.roster.processes.values() {
            if let Some(t) = p.name.strip_suffix("-consumer").filter(|t| instance_of_thread(t).is_some()) {
                s.thread(t, None);
            }
        }
        for (name, mut t) in std::mem::take(&mut s.threads) {
            let consumer = format!("{name}-consumer");
            if let Some(p) = self.roster.processes.get(&consumer) {
                t.member_ids = p.member_ids.clone();
            }
            let Some(client) = instance_of_thread(&name).map(str::to_string) else { continue };
            // its consumer's own lines (the coordinator's lines about it do not count)
            let own = self.procs.get(&consumer).and_then(|p| p.last_client_ts);
            let inst = s.instance(&client, own);
            inst.threads.push(t);
        }
        for inst in s.instances.values_mut() {
            if inst.first_ms > inst.last_ms {
                (inst.first_ms, inst.last_ms) = (0, 0);
            }
            let last_state = inst.states.last().map(|c| c.to.as_str());
            // the coordinator removed a thread on session timeout (classic) or fenced it on an
            // expired session (streams group) after the instance's last line
            let timed_out = inst.threads.iter().any(|t| {
                self.roster
                    .processes
                    .get(&format!("{}-consumer", t.name))
                    .is_some_and(|p| p.session_timeouts.iter().any(|(at, _)| *at > inst.last_ms))
            });
            inst.end = match last_state {
                Some("NOT_RUNNING") => "closed",
                Some("ERROR") => "error",
                Some("PENDING_SHUTDOWN" | "PENDING_ERROR") if !timed_out => "closing",
                _ if timed_out => "crashed",
                _ => "running",
            }
            .to_string();
        }
        Some(StreamsApp { instances: s.instances.into_values().collect(), follow_ups: s.follow_ups })
    }
}
