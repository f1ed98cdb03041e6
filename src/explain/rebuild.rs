//! Rebuilds one group's history from its events in time order: generations (epochs),
//! rebalances with their causes and paused time, members, the coordinator.
//!
//! A rebalance opens at the first sign of it (the broker's `prepareRebalance`, a member
//! revoking, rejoining, timing out or leaving, a KIP-848 epoch bump) and is complete when
//! its new generation is (the leader's SyncGroup reached the coordinator, a member's
//! SyncGroup or `transitioned ... to STABLE` at that generation); later members completing
//! the same generation extend its end.

use super::causes;
use super::event::{Ev, Event};
use super::members::Roster;
use super::model::{Cause, Generation, Group, GroupKind, Rebalance, Why};
use super::pat::is_partition;
use super::talk::{self, By, Talk};
use std::collections::{BTreeMap, BTreeSet};

mod streams;
mod transitions;

#[derive(Debug, Default)]
struct PState {
    gen: Option<i64>,
    member: Option<String>,
    in_group: bool,
    ever: bool,
    pending: Option<Cause>,
    target: Vec<String>,
    last_client_ts: Option<i64>,
}

#[derive(Debug)]
struct Rb {
    r: Rebalance,
    causes: BTreeSet<Cause>,
    complete: bool,
    pause_seen: bool,
}

/// Builds the group.
pub struct Rebuild {
    group: String,
    kind: GroupKind,
    roster: Roster,
    gens: BTreeMap<i64, Generation>,
    rbs: Vec<Rb>,
    procs: BTreeMap<String, PState>,
    paused: BTreeMap<String, i64>,
    /// Partition → the process that last got it.
    owners: BTreeMap<String, String>,
    coordinators: Vec<(i64, i32)>,
    coordinator_lost: Option<i64>,
    last_move: Option<(i64, Why)>,
    topics: BTreeMap<String, u32>,
    config: BTreeMap<String, String>,
    cooperative_tag: bool,
    first_ms: Option<i64>,
    last_ms: i64,
    /// The lines' parts in the conversation (the space-time diagram), at most `MAX_TALK`.
    talk: Vec<Talk>,
    /// Kafka Streams' own lines.
    streams: streams::StreamsState,
    /// The classic Streams leader asked for an immediate follow-up rebalance: the next one.
    streams_pending: Option<Why>,
    /// Members the coordinator saw join whose epoch bump has not been seen yet.
    joined: BTreeMap<String, Why>,
}

/// The most conversation kept per group (the diagram draws far fewer).
pub const MAX_TALK: usize = 20_000;

fn why(e: &Event, cause: Option<Cause>, member: Option<&str>) -> Why {
    Why {
        ts: e.ts,
        cause,
        member: member.map(str::to_string),
        file: e.file,
        line: e.line,
        quote: e.quote.as_deref().map(str::to_string),
    }
}

impl Rebuild {
    pub fn new(group: &str) -> Rebuild {
        Rebuild {
            group: group.to_string(),
            kind: GroupKind::Classic,
            roster: Roster::default(),
            gens: BTreeMap::new(),
            rbs: Vec::new(),
            procs: BTreeMap::new(),
            paused: BTreeMap::new(),
            owners: BTreeMap::new(),
            coordinators: Vec::new(),
            coordinator_lost: None,
            last_move: None,
            topics: BTreeMap::new(),
            config: BTreeMap::new(),
            cooperative_tag: false,
            first_ms: None,
            last_ms: 0,
            talk: Vec::new(),
            streams: streams::StreamsState::default(),
            streams_pending: None,
            joined: BTreeMap::new(),
        }
    }

    fn last_to(&self) -> Option<i64> {
        self.rbs.iter().rev().find_map(|r| r.r.to_generation)
    }

    fn open(&mut self, t: i64, from: Option<i64>) -> usize {
        // the generation the group was in: the last one reached, else the last one a member named
        let from = from.or_else(|| self.last_to()).or_else(|| self.gens.keys().next_back().copied());
        let mut rb = Rb {
            r: Rebalance {
                start_ms: t,
                end_ms: None,
                from_generation: from,
                to_generation: None,
                causes: Vec::new(),
                paused_ms: 0,
                why: Vec::new(),
            },
            causes: BTreeSet::new(),
            complete: false,
            pause_seen: false,
        };
        // a coordinator move just before (members lost it, then found another) is a cause
        if let Some((mt, w)) = &self.last_move {
            if t >= *mt - 60_000 && t <= *mt + 60_000 {
                rb.causes.insert(Cause::CoordinatorMoved);
                rb.r.why.push(w.clone());
            }
        }
        if let Some(w) = self.streams_pending.take() {
            rb.causes.insert(Cause::FollowUp);
            rb.r.why.push(w);
        }
        self.rbs.push(rb);
        self.rbs.len() - 1
    }

    /// A sign that a rebalance is happening, with its cause if it is one.
    fn trigger(&mut self, e: &Event, cause: Option<Cause>, member: Option<&str>, epoch: Option<i64>) {
        let need_new = match self.rbs.last() {
            None => true,
            Some(rb) => rb.complete && !matches!((epoch, rb.r.to_generation), (Some(ep), Some(to)) if ep <= to),
        };
        if need_new {
            self.open(e.ts, None);
        }
        let rb = self.rbs.last_mut().expect("a rebalance is open");
        if let Some(c) = cause {
            if rb.causes.insert(c) || member.is_some() {
                rb.r.why.push(why(e, Some(c), member));
            }
        }
    }

    /// A generation was reached (joined, stabilized, bumped).
    fn reach(&mut self, t: i64, gen: i64) {
        self.generation(gen, t);
        match self.rbs.last_mut() {
            Some(rb) if !rb.complete => {
                if rb.r.to_generation.is_none_or(|to| gen > to) && rb.r.from_generation.is_none_or(|f| gen > f) {
                    rb.r.to_generation = Some(gen);
                }
            }
            _ => {
                if self.last_to().is_none_or(|l| gen > l) {
                    let i = self.open(t, None);
                    self.rbs[i].r.to_generation = Some(gen);
                }
            }
        }
    }

    /// A generation is complete for a member (or for the group).
    fn complete(&mut self, t: i64, gen: Option<i64>) {
        if let Some(g) = gen {
            self.reach(t, g);
        }
        let Some(rb) = self.rbs.last_mut() else {
            return;
        };
        if gen.is_none() || rb.r.to_generation == gen {
            rb.r.end_ms = Some(rb.r.end_ms.map_or(t, |e| e.max(t)));
            rb.complete = true;
        }
    }

    /// The open rebalance is replaced by a newer one before completing.
    fn supersede(&mut self, t: i64) {
        if let Some(rb) = self.rbs.last_mut() {
            if !rb.complete {
                rb.r.end_ms = Some(t);
                rb.complete = true;
            }
        }
    }

    fn generation(&mut self, gen: i64, t: i64) -> &mut Generation {
        let g = self.gens.entry(gen).or_insert_with(|| Generation {
            generation: gen,
            start_ms: t,
            end_ms: None,
            leader: None,
            protocol: None,
            members: Vec::new(),
            assignment: BTreeMap::new(),
        });
        g.start_ms = g.start_ms.min(t);
        g
    }

    fn gen_member(&mut self, gen: i64, t: i64, member: &str) {
        let g = self.generation(gen, t);
        if !g.members.iter().any(|m| m == member) {
            g.members.push(member.to_string());
        }
    }

    fn see_partitions(&mut self, ps: &[String]) {
        for p in ps {
            if let Some((t, n)) = p.rsplit_once('-') {
                if is_partition(p) {
                    let n: u32 = n.parse().unwrap_or(0);
                    let e = self.topics.entry(t.to_string()).or_insert(0);
                    *e = (*e).max(n + 1);
                }
            }
        }
    }

    fn pause_keys(proc_: &str, ps: &[String]) -> Vec<String> {
        ps.iter().map(|p| if is_partition(p) { p.clone() } else { format!("{proc_}:*") }).collect()
    }

    /// `proc_` stops processing these partitions; one another member got since is not paused.
    fn pause(&mut self, t: i64, proc_: &str, keys: Vec<String>) {
        for k in keys {
            if self.owners.get(&k).is_none_or(|o| o == proc_) {
                self.paused.entry(k).or_insert(t);
            }
        }
    }

    fn release(&mut self, t: i64, proc_: &str, keys: Vec<String>) {
        for k in keys {
            self.owners.insert(k.clone(), proc_.to_string());
            if let Some(since) = self.paused.remove(&k) {
                if let Some(rb) = self.rbs.last_mut() {
                    // paused before this rebalance began: another member (whose lines are not
                    // here) may have owned it; count from the start of this one
                    rb.r.paused_ms = rb.r.paused_ms.max(t - since.max(rb.r.start_ms));
                    rb.pause_seen = true;
                }
            }
        }
    }

    fn leave(&mut self, p: &str, t: i64, cause: Cause) {
        if let Some(s) = self.procs.get_mut(p) {
            s.in_group = false;
        }
        if let Some(pr) = self.roster.process_mut(p) {
            pr.leaves.push((t, cause));
        }
    }

    fn set_assignment(&mut self, p: &str, t: i64, ps: &[String]) {
        self.see_partitions(ps);
        let (gen, member) = match self.procs.get(p) {
            Some(s) => (s.gen, s.member.clone()),
            None => (None, None),
        };
        if let (Some(g), Some(m)) = (gen, member) {
            let gr = self.generation(g, t);
            gr.assignment.insert(m, ps.to_vec());
        }
    }

    fn coordinator(&mut self, e: &Event, broker: i32) {
        match self.coordinators.last() {
            Some((_, b)) if *b == broker => {}
            Some(_) => {
                self.coordinators.push((e.ts, broker));
                let w = why(e, Some(Cause::CoordinatorMoved), None);
                self.last_move = Some((self.coordinator_lost.unwrap_or(e.ts).min(e.ts), w.clone()));
                if let Some(rb) = self.rbs.last_mut() {
                    if !rb.complete && rb.causes.insert(Cause::CoordinatorMoved) {
                        rb.r.why.push(w);
                    }
                }
            }
            None => self.coordinators.push((e.ts, broker)),
        }
    }

    fn note(&mut self, t: Talk) {
        if self.talk.len() < MAX_TALK {
            self.talk.push(t);
        }
    }

    /// Takes one event of this group.
    pub fn feed(&mut self, e: &Event) {
        self.first_ms = Some(self.first_ms.map_or(e.ts, |f| f.min(e.ts)));
        self.last_ms = self.last_ms.max(e.ts);
        if e.who.is_broker {
            self.feed_broker(e);
            if let Some(said) = talk::of_broker(&e.ev) {
                self.note(talk::talk(e, By::Broker(e.who.broker), said));
            }
            return;
        }
        if self.feed_streams(e) {
            return;
        }
        let p = self.roster.client_process(&e.who, e.file, e.ts);
        if let Some(said) = talk::of_member(&e.ev) {
            self.note(talk::talk(e, By::Member(p.clone()), said));
        }
        let st = self.procs.entry(p.clone()).or_default();
        st.last_client_ts = Some(e.ts);
        let member = st.member.clone();
        let m = member.as_deref();
        match &e.ev {
            Ev::JoinStart => {
                let st = self.procs.get_mut(&p).expect("state");
                let cause = st.pending.take().or((!st.in_group).then_some(Cause::MemberJoined));
                let rejoin = st.ever && !st.in_group;
                st.in_group = true;
                st.ever = true;
                if rejoin {
                    if let Some(pr) = self.roster.process_mut(&p) {
                        pr.joins.push(e.ts);
                    }
                }
                self.trigger(e, cause, m, None);
            }
            Ev::NewAttempt { reason } => {
                self.supersede(e.ts);
                let cause = causes::client_reason(reason);
                self.trigger(e, cause, m, None);
            }
            Ev::RejoinRequested { reason } | Ev::ResetGeneration { reason } => {
                if reason.contains("(COOPERATIVE)") {
                    self.cooperative_tag = true;
                }
                let cause = causes::client_reason(reason);
                if let Some(c) = cause {
                    self.procs.get_mut(&p).expect("state").pending = Some(c);
                    if matches!(c, Cause::PollTimeout | Cause::UnknownMember | Cause::Fenced) {
                        self.leave(&p, e.ts, c);
                    }
                }
                self.trigger(e, cause, m, None);
            }
            Ev::Joined { generation, member: mid, protocol, leader } => {
                let st = self.procs.get_mut(&p).expect("state");
                st.in_group = true;
                st.ever = true;
                if let Some(mid) = mid {
                    st.member = Some(mid.clone());
                }
                st.gen = *generation;
                let mid = st.member.clone();
                if let Some(mid) = &mid {
                    self.roster.link(&p, mid, e.who.instance_id.as_deref());
                }
                match generation {
                    Some(g) => {
                        self.reach(e.ts, *g);
                        if let Some(mid) = &mid {
                            self.gen_member(*g, e.ts, mid);
                        }
                        let gr = self.generation(*g, e.ts);
                        if protocol.is_some() {
                            gr.protocol = protocol.clone();
                        }
                        if let Some(l) = leader.as_ref().filter(|l| !l.is_empty()) {
                            gr.leader = Some(l.clone());
                        }
                    }
                    None => self.trigger(e, None, mid.as_deref(), None),
                }
            }
            Ev::Synced { generation, member: mid, .. } => {
                let st = self.procs.get_mut(&p).expect("state");
                if !st.ever {
                    // its first line says it is in the group (kafkajs logs only the completed join):
                    // a join whose start the log does not show
                    st.ever = true;
                    st.in_group = true;
                    if self.rbs.is_empty() {
                        self.open(e.ts, None);
                    }
                    if let Some(rb) = self.rbs.last_mut() {
                        if rb.causes.insert(Cause::MemberJoined) {
                            rb.r.why.push(why(e, Some(Cause::MemberJoined), mid.as_deref()));
                        }
                    }
                }
                let st = self.procs.get_mut(&p).expect("state");
                if let Some(mid) = mid {
                    st.member = Some(mid.clone());
                }
                let gen = generation.or(st.gen);
                let mid = st.member.clone();
                if let Some(mid) = &mid {
                    self.roster.link(&p, mid, e.who.instance_id.as_deref());
                }
                if let (Some(g), Some(mid)) = (gen, &mid) {
                    self.gen_member(g, e.ts, mid);
                }
                self.complete(e.ts, gen);
            }
            Ev::AtGeneration { generation } => {
                let st = self.procs.get_mut(&p).expect("state");
                st.gen = Some(*generation);
                st.ever = true;
                st.in_group = true;
                match st.member.clone() {
                    Some(mid) => self.gen_member(*generation, e.ts, &mid),
                    None => {
                        self.generation(*generation, e.ts);
                    }
                }
            }
            Ev::LeaderAssigned { generation, assignment } => {
                let gen = generation.or(self.procs[&p].gen);
                if let Some(g) = gen {
                    for ps in assignment.values() {
                        self.see_partitions(ps);
                    }
                    let gr = self.generation(g, e.ts);
                    gr.leader = member.clone().or(gr.leader.take());
                    for (mid, ps) in assignment {
                        gr.assignment.insert(mid.clone(), ps.clone());
                    }
                }
            }
            Ev::LeaderElected => {
                if let (Some(g), Some(mid)) = (self.procs[&p].gen, member.clone()) {
                    self.generation(g, e.ts).leader = Some(mid);
                }
            }
            Ev::Owned { partitions } | Ev::Assigned { partitions } => {
                let keys = Self::pause_keys(&p, partitions);
                self.release(e.ts, &p, keys);
                if self.kind == GroupKind::Classic {
                    if let Some(g) = self.procs[&p].gen {
                        if self.rbs.last().is_some_and(|rb| !rb.complete && rb.r.to_generation == Some(g)) {
                            self.complete(e.ts, Some(g));
                        }
                    }
                }
                if matches!(e.ev, Ev::Owned { .. })
                    || !partitions.is_empty() && partitions.iter().all(|x| is_partition(x))
                {
                    if matches!(e.ev, Ev::Owned { .. }) {
                        self.set_assignment(&p, e.ts, partitions);
                    } else {
                        self.see_partitions(partitions);
                        let (gen, mid) = (self.procs[&p].gen, member.clone());
                        if let (Some(g), Some(mid)) = (gen, mid) {
                            let gr = self.generation(g, e.ts);
                            let a = gr.assignment.entry(mid).or_default();
                            for x in partitions {
                                if !a.contains(x) {
                                    a.push(x.clone());
                                }
                            }
                        }
                    }
                }
            }
            Ev::Revoked { partitions } | Ev::Lost { partitions } => {
                if partitions.is_empty() {
                    return;
                }
                self.see_partitions(partitions);
                let lost = matches!(e.ev, Ev::Lost { .. });
                if lost {
                    self.procs.get_mut(&p).expect("state").in_group = false;
                }
                let epoch = if self.kind == GroupKind::Consumer { self.procs[&p].gen } else { None };
                self.trigger(e, None, m, epoch);
                let keys = Self::pause_keys(&p, partitions);
                self.pause(e.ts, &p, keys);
            }
            Ev::PollTimeout { interval_ms } => {
                if let Some(pr) = self.roster.process_mut(&p) {
                    pr.poll_interval_ms = interval_ms.or(pr.poll_interval_ms);
                }
                self.procs.get_mut(&p).expect("state").pending = Some(Cause::PollTimeout);
                self.leave(&p, e.ts, Cause::PollTimeout);
                self.trigger(e, Some(Cause::PollTimeout), m, None);
            }
            Ev::SessionExpired { .. } => {
                self.leave(&p, e.ts, Cause::SessionTimeout);
                self.procs.get_mut(&p).expect("state").pending = Some(Cause::SessionTimeout);
                self.trigger(e, Some(Cause::SessionTimeout), m, None);
            }
            Ev::Leaving { reason, .. } => {
                let st = self.procs.get_mut(&p).expect("state");
                let cause = match causes::client_reason(reason) {
                    Some(Cause::PollTimeout) => Cause::PollTimeout,
                    _ if st.pending == Some(Cause::PollTimeout) => Cause::PollTimeout,
                    _ => Cause::MemberLeft,
                };
                let was_in = st.in_group;
                st.pending = None;
                if was_in || cause == Cause::MemberLeft {
                    self.leave(&p, e.ts, cause);
                }
                self.trigger(e, Some(cause), m, None);
            }
            Ev::GroupError { error } => {
                let cause = causes::group_error(error);
                if let Some(c) = cause {
                    let st = self.procs.get_mut(&p).expect("state");
                    st.pending = Some(c);
                    self.leave(&p, e.ts, c);
                }
                self.trigger(e, cause, m, None);
            }
            Ev::CoordinatorFound { broker: Some(b) } => self.coordinator(e, *b),
            Ev::CoordinatorLost { .. } => self.coordinator_lost = Some(e.ts),
            Ev::Config { key, value } => {
                self.config.insert(key.clone(), value.clone());
            }
            Ev::MemberId { member: mid } => {
                self.procs.get_mut(&p).expect("state").member = Some(mid.clone());
                self.roster.link(&p, mid, e.who.instance_id.as_deref());
            }
            Ev::Transition { member: mid, epoch, from, to } => self.transition(e, &p, mid, *epoch, from, to),
            Ev::Reconciling { assigned, revoked, .. } => {
                self.kind = GroupKind::Consumer;
                self.see_partitions(assigned);
                self.procs.get_mut(&p).expect("state").target = assigned.clone();
                if !revoked.is_empty() {
                    let keys = Self::pause_keys(&p, revoked);
                    self.pause(e.ts, &p, keys);
                }
                let keys = Self::pause_keys(&p, assigned);
                self.release(e.ts, &p, keys);
            }
            _ => {}
        }
    }

    /// The group as found.
    pub fn finish(mut self) -> Group {
        let streams = self.finish_streams();
        let cooperative = self.kind == GroupKind::Consumer
            || self.cooperative_tag
            || self.gens.values().any(|g| g.protocol.as_deref().is_some_and(|p| p.contains("cooperative")));
        let mut rebalances = Vec::new();
        for mut rb in std::mem::take(&mut self.rbs) {
            // a Kafka Streams follow-up is the cooperative second round ("need to revoke
            // partitions"): that is its cause, not another one
            if rb.causes.contains(&Cause::FollowUp) || rb.causes.contains(&Cause::Probing) {
                rb.causes.remove(&Cause::Other);
                rb.r.why.retain(|w| w.cause != Some(Cause::Other));
            }
            if rb.causes.is_empty() {
                rb.causes.insert(Cause::Other);
            }
            rb.r.causes = rb.causes.iter().copied().collect();
            if !rb.pause_seen {
                rb.r.paused_ms = if cooperative { 0 } else { rb.r.end_ms.map_or(0, |e| e - rb.r.start_ms) };
            }
            rb.r.why.sort_by_key(|w| (w.ts, w.file, w.line));
            rebalances.push(rb.r);
        }
        let mut generations: Vec<Generation> = std::mem::take(&mut self.gens).into_values().collect();
        for i in 1..generations.len() {
            let next = generations[i].start_ms;
            generations[i - 1].end_ms = Some(next);
        }
        for g in &mut generations {
            g.members.sort();
        }
        // a file without client ids: its process is named by its member id's client part
        let renames: BTreeMap<String, String> = self
            .roster
            .processes
            .values()
            .filter(|p| p.name.starts_with("file-"))
            .filter_map(|p| {
                p.member_ids
                    .first()
                    .map(|m| (p.name.clone(), super::members::client_of_member_id(m).unwrap_or(m).to_string()))
            })
            .collect();
        let mut talk = std::mem::take(&mut self.talk);
        for t in &mut talk {
            if let By::Member(n) = &mut t.by {
                if let Some(to) = renames.get(n) {
                    *n = to.clone();
                }
            }
        }
        Group {
            group_id: self.group,
            members: self.roster.members.into_values().collect(),
            generations,
            rebalances,
            diagnoses: Vec::new(),
            kind: self.kind,
            coordinators: self.coordinators,
            topics: self.topics,
            config: self.config,
            processes: self
                .roster
                .processes
                .into_values()
                .map(|mut p| {
                    if let Some(to) = renames.get(&p.name) {
                        p.name = to.clone();
                    }
                    p
                })
                .collect(),
            first_ms: self.first_ms.unwrap_or(0),
            last_ms: self.last_ms,
            talk,
            streams,
        }
    }
}
