//! The space-time diagram of a logged run, as the simulator draws one (`crate::spacetime`): a
//! lane per member process and per coordinator, each logged request or answer an arrow
//! between a member's lane and the coordinator's, each one-ended event a mark on its lane.
//!
//! An arrow's end is *logged* when a line shows it: the member's `(Re-)joining group` is the
//! JoinGroup leaving, the broker's `Pending dynamic member ... joins group` is it arriving;
//! `Stabilized group ... generation 5` is the coordinator answering every waiting JoinGroup
//! (`GroupMetadataManager.completeClassicGroupJoin`), `Assignment received from leader` its
//! answering every SyncGroup. An end no line shows is drawn at the other end's time.

use super::model::Group;
use super::talk::{By, Said, Talk};
use super::view::Names;
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    Member(String),
    /// The group coordinator, on this broker when known.
    Coordinator(Option<i32>),
}

/// The requests the arrows stand for (Kafka's API names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    JoinGroup,
    SyncGroup,
    LeaveGroup,
    /// KIP-848's ConsumerGroupHeartbeat.
    Heartbeat,
}

/// What an arrow or a mark says (the page words it in its language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    Request(Api),
    /// A consumer-protocol heartbeat: joining (epoch 0), acknowledging, leaving.
    HeartbeatJoin,
    HeartbeatAck,
    HeartbeatLeave,
    /// A response with the generation (classic) or member epoch (consumer protocol) it gave.
    Answer(Api, Option<i64>),
    Error(String),
    // marks on a member's lane
    Revoked(usize),
    Assigned(usize),
    Lost(usize),
    PollTimeout,
    SessionExpired,
    Rejoin,
    CoordinatorFound(Option<i32>),
    CoordinatorLost,
    Transition(String, String),
    // marks on the coordinator's lane
    Prepare(i64),
    Stabilized(i64),
    Empty(i64),
    /// The coordinator removed this member (session timeout).
    Expired(String),
    Fenced(String),
    Loaded,
    Resigned,
    EpochBumped(i64),
    TargetComputed(i64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub sent_ms: i64,
    pub recv_ms: i64,
    /// Whether a line shows the sending (receiving) end.
    pub sent_logged: bool,
    pub recv_logged: bool,
    pub label: Label,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub lane: usize,
    pub at_ms: i64,
    pub label: Label,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagram {
    /// Members first (in the order they appeared), then the coordinators.
    pub lanes: Vec<Lane>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
    pub from_ms: i64,
    pub to_ms: i64,
    /// Arrows and marks left out beyond `MAX_ITEMS`, and member lanes beyond `MAX_MEMBERS`.
    pub items_left_out: usize,
    pub members_left_out: usize,
}

/// The most arrows and marks drawn (the earliest are kept).
pub const MAX_ITEMS: usize = 400;
/// The most member lanes drawn.
pub const MAX_MEMBERS: usize = 24;
/// How far apart (ms) the two ends of one request or answer may be logged, clocks included.
pub const MATCH_MS: i64 = 2_000;

struct Build<'a> {
    talk: &'a [Talk],
    lanes: Vec<Lane>,
    coordinators: &'a [(i64, i32)],
    /// Broker lines already used as an arrow's end (one-to-one ends only).
    used: BTreeSet<usize>,
    /// Broker lines used as the end of any arrow.
    touched: BTreeSet<usize>,
    d: Diagram,
}

impl Build<'_> {
    fn member_lane(&self, name: &str) -> Option<usize> {
        self.lanes.iter().position(|l| matches!(l, Lane::Member(n) if n == name))
    }

    fn broker_lane(&self, b: Option<i32>) -> usize {
        let at = |b: Option<i32>| self.lanes.iter().position(|l| *l == Lane::Coordinator(b));
        at(b)
            .or_else(|| at(None))
            .or_else(|| self.lanes.iter().position(|l| matches!(l, Lane::Coordinator(_))))
            .unwrap_or(0)
    }

    /// The coordinator lane at a time: the last coordinator found by then (else the first).
    fn coordinator_at(&self, t: i64) -> usize {
        let b = self.coordinators.iter().rev().find(|(at, _)| *at <= t).or(self.coordinators.first()).map(|(_, b)| *b);
        self.broker_lane(b)
    }

    /// The broker line nearest `t` (within `MATCH_MS`) for which `is` holds; `once` lines are
    /// used by one arrow only.
    fn partner(&mut self, t: i64, once: bool, is: impl Fn(&Said) -> bool) -> Option<(i64, Option<i32>)> {
        let lo = self.talk.partition_point(|x| x.ts < t - MATCH_MS);
        let best = self.talk[lo..]
            .iter()
            .enumerate()
            .take_while(|(_, x)| x.ts <= t + MATCH_MS)
            .filter(|(i, x)| matches!(x.by, By::Broker(_)) && is(&x.said) && !(once && self.used.contains(&(lo + i))))
            .min_by_key(|(_, x)| (x.ts - t).abs())
            .map(|(i, x)| (lo + i, x.ts, x.by.clone()));
        let (i, ts, by) = best?;
        self.touched.insert(i);
        if once {
            self.used.insert(i);
        }
        Some((ts, if let By::Broker(b) = by { b } else { None }))
    }

    fn arrow(&mut self, from: usize, to: usize, sent: (i64, bool), recv: (i64, bool), label: Label) {
        self.d.arrows.push(Arrow {
            from,
            to,
            sent_ms: sent.0,
            recv_ms: recv.0,
            sent_logged: sent.1,
            recv_logged: recv.1,
            label,
        });
    }

    /// A request from member lane `m` logged at `t`, arriving where a broker line says so.
    fn request(&mut self, m: usize, t: i64, label: Label, arrived: impl Fn(&Said) -> bool) {
        match self.partner(t, true, arrived) {
            Some((at, b)) => self.arrow(m, self.broker_lane(b), (t, true), (at, true), label),
            None => self.arrow(m, self.coordinator_at(t), (t, true), (t, false), label),
        }
    }

    /// An answer to member lane `m` received at `t`, sent where a broker line says so.
    fn answer(&mut self, m: usize, t: i64, label: Label, once: bool, sent: impl Fn(&Said) -> bool) {
        match self.partner(t, once, sent) {
            Some((at, b)) => self.arrow(self.broker_lane(b), m, (at.min(t), true), (t, true), label),
            None => self.arrow(self.coordinator_at(t), m, (t, false), (t, true), label),
        }
    }

    fn mark(&mut self, lane: usize, at_ms: i64, label: Label) {
        self.d.marks.push(Mark { lane, at_ms, label });
    }

    fn member_line(&mut self, i: usize, m: usize, name: &str) {
        let t = &self.talk[i];
        let ts = t.ts;
        let is = |n: &String| n == name;
        match t.said.clone() {
            Said::JoinSent => {
                self.request(m, ts, Label::Request(Api::JoinGroup), |s| matches!(s, Said::NewMember(n) if is(n)))
            }
            Said::Joined(g) => self.answer(m, ts, Label::Answer(Api::JoinGroup, g), false, |s| {
                matches!(s, Said::Stabilized(x) if g.is_none_or(|g| *x == g))
            }),
            Said::LeaderAssigned(g) => self.request(m, ts, Label::Request(Api::SyncGroup), |s| {
                matches!(s, Said::LeaderSync { generation, leader } if is(leader) && g.is_none_or(|g| *generation == g))
            }),
            Said::Synced(g) => self.answer(m, ts, Label::Answer(Api::SyncGroup, g), false, |s| {
                matches!(s, Said::LeaderSync { generation, .. } if g.is_none_or(|g| *generation == g))
            }),
            Said::LeaveSent => self.request(m, ts, Label::Request(Api::LeaveGroup), |s| {
                matches!(s, Said::MemberLeft(n) | Said::CgLeft(n) if is(n))
            }),
            Said::Error(e) => self.answer(m, ts, Label::Error(e), true, |_| false),
            Said::Transition { epoch, from, to } => match to.as_str() {
                // AbstractMembershipManager: JOINING sends the first heartbeat (epoch 0); a
                // heartbeat response with a new assignment starts RECONCILING; the heartbeat
                // that acknowledges it moves ACKNOWLEDGING to STABLE; LEAVING's heartbeat
                // (epoch -1, or -2 for a static member) ends in UNSUBSCRIBED.
                "JOINING" => self.request(m, ts, Label::HeartbeatJoin, |s| matches!(s, Said::CgJoined(n) if is(n))),
                "RECONCILING" => self.answer(m, ts, Label::Answer(Api::Heartbeat, Some(epoch)), true, |s| {
                    matches!(s, Said::CgState { member, epoch: e, .. } if is(member) && *e == epoch)
                }),
                "STABLE" if from == "ACKNOWLEDGING" => self.request(m, ts, Label::HeartbeatAck, |_| false),
                "UNSUBSCRIBED" if from == "LEAVING" => {
                    self.request(m, ts, Label::HeartbeatLeave, |s| matches!(s, Said::CgLeft(n) if is(n)))
                }
                _ => self.mark(m, ts, Label::Transition(from, to)),
            },
            Said::Revoked(n) => self.mark(m, ts, Label::Revoked(n)),
            Said::Assigned(n) => self.mark(m, ts, Label::Assigned(n)),
            Said::Lost(n) => self.mark(m, ts, Label::Lost(n)),
            Said::PollTimeout => self.mark(m, ts, Label::PollTimeout),
            Said::SessionExpired => self.mark(m, ts, Label::SessionExpired),
            Said::Rejoin => self.mark(m, ts, Label::Rejoin),
            Said::CoordinatorFound(b) => self.mark(m, ts, Label::CoordinatorFound(b)),
            Said::CoordinatorLost => self.mark(m, ts, Label::CoordinatorLost),
            _ => {}
        }
    }

    /// A broker line no member's line claimed: a request arriving from a member whose own
    /// line is missing, or a mark on the coordinator's lane.
    fn broker_line(&mut self, i: usize, b: Option<i32>) {
        let t = &self.talk[i];
        let (ts, c) = (t.ts, self.broker_lane(b));
        let from = |me: &Self, n: &str| me.member_lane(n);
        match t.said.clone() {
            Said::NewMember(n) | Said::CgJoined(n) | Said::MemberLeft(n) | Said::CgLeft(n) => {
                let label = match t.said {
                    Said::NewMember(_) => Label::Request(Api::JoinGroup),
                    Said::CgJoined(_) => Label::HeartbeatJoin,
                    Said::MemberLeft(_) => Label::Request(Api::LeaveGroup),
                    _ => Label::HeartbeatLeave,
                };
                match from(self, &n) {
                    Some(m) => self.arrow(m, c, (ts, false), (ts, true), label),
                    None => self.mark(c, ts, label),
                }
            }
            Said::LeaderSync { leader, .. } => match from(self, &leader) {
                Some(m) => self.arrow(m, c, (ts, false), (ts, true), Label::Request(Api::SyncGroup)),
                None => self.mark(c, ts, Label::Request(Api::SyncGroup)),
            },
            Said::Prepare(g) => self.mark(c, ts, Label::Prepare(g)),
            Said::Stabilized(g) => self.mark(c, ts, Label::Stabilized(g)),
            Said::Empty(g) => self.mark(c, ts, Label::Empty(g)),
            Said::MemberFailed(n) => self.mark(c, ts, Label::Expired(n)),
            Said::CgFenced(n) => self.mark(c, ts, Label::Fenced(n)),
            Said::Loaded => self.mark(c, ts, Label::Loaded),
            Said::Resigned => self.mark(c, ts, Label::Resigned),
            Said::EpochBumped(e) => self.mark(c, ts, Label::EpochBumped(e)),
            Said::TargetComputed(e) => self.mark(c, ts, Label::TargetComputed(e)),
            _ => {}
        }
    }
}

/// The diagram of one group's lines.
pub fn diagram(g: &Group) -> Diagram {
    let names = Names::of(g);
    // a broker line names a member id: its process, as all the lines together show it
    let talk: Vec<Talk> = g.talk.iter().map(|t| named(t, &names)).collect();
    let mut members: Vec<String> = names.processes.clone();
    for t in &talk {
        if let By::Member(n) = &t.by {
            if !members.contains(n) {
                members.push(n.clone());
            }
        }
    }
    let members_left_out = members.len().saturating_sub(MAX_MEMBERS);
    members.truncate(MAX_MEMBERS);
    let mut brokers: Vec<Option<i32>> = g.coordinators.iter().map(|(_, b)| Some(*b)).collect();
    for t in &talk {
        if let By::Broker(b) = t.by {
            brokers.push(b);
        }
    }
    let mut seen = BTreeSet::new();
    brokers.retain(|b| seen.insert(*b));
    // broker lines without an id go to the known coordinator when there is one
    if brokers.len() > 1 {
        brokers.retain(|b| b.is_some());
    }
    if brokers.is_empty() {
        brokers.push(None);
    }
    let mut lanes: Vec<Lane> = members.into_iter().map(Lane::Member).collect();
    lanes.extend(brokers.into_iter().map(Lane::Coordinator));
    let mut b = Build {
        talk: &talk,
        lanes,
        coordinators: &g.coordinators,
        used: BTreeSet::new(),
        touched: BTreeSet::new(),
        d: Diagram::default(),
    };
    // members' lines first, so their requests and answers claim the broker lines they match
    for (i, t) in talk.iter().enumerate() {
        if let By::Member(n) = &t.by {
            if let Some(m) = b.member_lane(n) {
                b.member_line(i, m, &n.clone());
            }
        }
    }
    for (i, t) in talk.iter().enumerate() {
        if let By::Broker(id) = t.by {
            // ends already drawn: a one-to-one arrival, a member's new epoch, a leader's SyncGroup
            // whose answers were drawn
            let drawn = b.used.contains(&i)
                || matches!(t.said, Said::CgState { .. })
                || matches!(t.said, Said::LeaderSync { .. }) && b.touched.contains(&i);
            if !drawn {
                b.broker_line(i, id);
            }
        }
    }
    let mut d = b.d;
    d.lanes = b.lanes;
    d.arrows.sort_by_key(|a| (a.sent_ms.min(a.recv_ms), a.from));
    d.marks.sort_by_key(|m| (m.at_ms, m.lane));
    // the earliest MAX_ITEMS of both together (and any at the same instant as the last)
    let total = d.arrows.len() + d.marks.len();
    if total > MAX_ITEMS {
        let mut times: Vec<i64> =
            d.arrows.iter().map(|a| a.sent_ms.min(a.recv_ms)).chain(d.marks.iter().map(|m| m.at_ms)).collect();
        times.sort_unstable();
        let cut = times[MAX_ITEMS - 1];
        d.arrows.retain(|a| a.sent_ms.min(a.recv_ms) <= cut);
        d.marks.retain(|m| m.at_ms <= cut);
        d.items_left_out = total - d.arrows.len() - d.marks.len();
    }
    d.members_left_out = members_left_out;
    let times = d.arrows.iter().flat_map(|a| [a.sent_ms, a.recv_ms]).chain(d.marks.iter().map(|m| m.at_ms));
    d.from_ms = times.clone().min().unwrap_or(g.first_ms);
    d.to_ms = times.max().unwrap_or(g.last_ms);
    d
}

/// A broker line with the member it names by its process.
fn named(t: &Talk, names: &Names) -> Talk {
    let n = |m: &String| {
        let p = names.name(m);
        if p == m {
            super::members::client_of_member_id(m).unwrap_or(m).to_string()
        } else {
            p.to_string()
        }
    };
    let said = match &t.said {
        Said::LeaderSync { generation, leader } => Said::LeaderSync { generation: *generation, leader: n(leader) },
        Said::NewMember(m) => Said::NewMember(n(m)),
        Said::MemberLeft(m) => Said::MemberLeft(n(m)),
        Said::MemberFailed(m) => Said::MemberFailed(n(m)),
        Said::CgJoined(m) => Said::CgJoined(n(m)),
        Said::CgLeft(m) => Said::CgLeft(n(m)),
        Said::CgFenced(m) => Said::CgFenced(n(m)),
        Said::CgState { member, epoch, state } => {
            Said::CgState { member: n(member), epoch: *epoch, state: state.clone() }
        }
        s => s.clone(),
    };
    Talk { said, ..t.clone() }
}
