//! Slow motion around the event a question or task is about (issue 32).
//!
//! Some events a learner is asked to predict take a fifth of a simulated
//! second (lesson 1's FindCoordinator round trip): at the lesson's speed
//! they are over before the learner looks up from the question. So once the
//! learner has committed and the run plays toward the step's event, the
//! session looks ahead ([`Player::look_ahead`], on a copy of the world) to
//! find that event and the messages that lead to it: the delivery it is
//! handled in, and the request or response whose delivery sent that one (a
//! FindCoordinator response and its request; a SyncGroup request and the
//! JoinGroup response it follows). While those messages fly, the page's
//! pacing drops to a rate at which their flights together last
//! [`HOLD_WALL_MS`] of wall time, whatever the speed; the session then
//! pauses on the event as before.
//!
//! Only wall-clock pacing changes: how simulated time is cut into frames
//! never changes the trace (the player's determinism), and the look ahead
//! runs on a copy.

use super::{LessonSession, Phase};
use crate::player::Player;
use crate::sim::trace::{Event, EventKind};
use crate::sim::types::EventId;
use crate::sim::Millis;

/// The wall time the event's messages fly for, at least (ms).
pub const HOLD_WALL_MS: f64 = 2000.0;

/// The step's watched event, as the look ahead found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Watch {
    step: usize,
    /// The script's and the world's fault counts it was computed for (a
    /// learner's fault, a task's try or a retry changes what happens).
    script_len: usize,
    trying: Option<usize>,
    /// The simulated time it was computed at.
    from: Millis,
    /// When the event happens (`None`: not within the step's bound).
    pub event_at: Option<Millis>,
    /// The simulated stretches played slowly: the flights of the event's
    /// messages, after `from`, in time order and apart.
    pub windows: Vec<(Millis, Millis)>,
    /// The event's messages (their ids, as the drawing's `data-msg`), the
    /// last one first.
    pub messages: Vec<u64>,
    /// Simulated ms per wall ms inside the windows.
    pub rate: f64,
}

impl Watch {
    /// Whether `now` falls in the slow stretches (the page says "slow motion").
    pub fn slow_at(&self, now: Millis) -> bool {
        self.windows.iter().any(|(a, b)| *a <= now && now < *b)
    }
}

/// The event `e`'s messages: following the trace's causes back, the message
/// whose delivery `e` was handled in (at the same instant), then the one
/// whose delivery sent that one, and so on for `most` messages; (id, sent
/// at, delivered at). None for an event a timer made.
fn messages_leading_to(e: &Event, get: &dyn Fn(EventId) -> Option<Event>, most: usize) -> Vec<(u64, Millis, Millis)> {
    let mut out = Vec::new();
    let (mut cause, mut at) = (e.cause, e.at);
    while let Some(id) = cause.filter(|_| out.len() < most) {
        // Handled in a delivery of that very instant: a timer's cause is what
        // set it, long before (a session timeout is no message's doing).
        let Some(ev) = get(id).filter(|ev| ev.at == at) else { break };
        cause = match ev.kind {
            EventKind::MessageDelivered { msg, .. } => {
                // Its send: the delivery's own cause, else found by the message's id.
                let sent = ev
                    .cause
                    .and_then(get)
                    .filter(|s| matches!(s.kind, EventKind::MessageSent { msg: m, .. } if m == msg));
                let sent = sent.or_else(|| find_sent(msg, id, get));
                let Some(s) = sent else { break };
                if let EventKind::MessageSent { deliver_at, .. } = s.kind {
                    out.push((msg, s.at, deliver_at.max(ev.at)));
                }
                at = s.at;
                // Further back only through a delivery: a send a timer or a
                // poll made starts the chain.
                s.cause.filter(|c| get(*c).is_some_and(|c| matches!(c.kind, EventKind::MessageDelivered { .. })))
            }
            _ => None,
        };
    }
    out
}

/// The send of message `msg`, looking back from event `before`.
fn find_sent(msg: u64, before: EventId, get: &dyn Fn(EventId) -> Option<Event>) -> Option<Event> {
    (before.saturating_sub(5000)..before)
        .rev()
        .filter_map(get)
        .find(|e| matches!(e.kind, EventKind::MessageSent { msg: m, .. } if m == msg))
}

/// Where the run is after `wall` ms of wall time from `pos` (simulated ms,
/// fractional): `speed` outside `windows`, `slow` inside them.
pub fn paced(mut pos: f64, mut wall: f64, speed: f64, slow: f64, windows: &[(Millis, Millis)]) -> f64 {
    for &(a, b) in windows {
        let (a, b) = (a as f64, b as f64);
        if b <= pos {
            continue;
        }
        if pos < a {
            let need = (a - pos) / speed;
            if wall <= need {
                return pos + wall * speed;
            }
            wall -= need;
            pos = a;
        }
        let need = (b - pos) / slow;
        if wall <= need {
            return pos + wall * slow;
        }
        wall -= need;
        pos = b;
    }
    pos + wall * speed
}

impl LessonSession {
    /// Whether the current step's event is one the learner watches for: a
    /// question was answered (or revealed) or a task's option taken.
    fn watched(&self) -> bool {
        let st = self.current();
        self.phase == Phase::Running && (st.question.is_some() || self.trying[self.step].is_some())
    }

    /// The slow motion in force now, if the step is watched and its look
    /// ahead is still valid (for the page: it says "slow motion" and names
    /// the event's messages in the drawing).
    pub fn slow_motion(&self, player: &Player) -> Option<&Watch> {
        self.watch.as_ref().filter(|w| self.watched() && self.valid(w, player))
    }

    fn valid(&self, w: &Watch, player: &Player) -> bool {
        let now = player.now();
        w.step == self.step
            && w.script_len == player.script.len()
            && w.trying == self.trying[self.step]
            && w.from <= now
            && w.event_at.is_none_or(|t| now <= t)
    }

    /// The current step's watch, looked ahead for now if the one held is stale.
    pub(super) fn watch(&mut self, player: &mut Player) -> Option<&Watch> {
        if !self.watched() {
            return None;
        }
        if !self.watch.as_ref().is_some_and(|w| self.valid(w, player)) {
            self.watch = Some(self.look_ahead(player));
        }
        self.watch.as_ref()
    }

    fn look_ahead(&self, player: &mut Player) -> Watch {
        let from = player.now();
        let started = self.history[self.step].task_at.map_or(self.history[self.step].started_at, |(at, _)| at);
        let bound = (started + self.current().within_ms).max(from);
        let bound = self.limit().map_or(bound, |d| bound.min(d));
        let until = self.current().until.clone();
        let mut found: Option<Event> = None;
        let mut ahead: Vec<Event> = Vec::new();
        let mut seen = player.world.trace.len();
        player.look_ahead(bound, |w| {
            for e in &w.trace[seen..] {
                ahead.push(e.clone());
                if found.is_none() && until.matches(w, e) {
                    found = Some(e.clone());
                }
            }
            seen = w.trace.len();
            found.is_some()
        });
        let mut watch = Watch {
            step: self.step,
            script_len: player.script.len(),
            trying: self.trying[self.step],
            from,
            event_at: found.as_ref().map(|e| e.at),
            windows: Vec::new(),
            messages: Vec::new(),
            rate: 1.0,
        };
        let Some(e) = found else { return watch };
        let first_ahead = ahead.first().map_or(usize::MAX, |e| e.id);
        let trace = &player.world.trace;
        let get = |id: EventId| -> Option<Event> {
            if id >= first_ahead {
                ahead.get(id - first_ahead).cloned()
            } else {
                trace.get(id).cloned()
            }
        };
        let msgs = messages_leading_to(&e, &get, 2);
        let mut windows: Vec<(Millis, Millis)> = msgs
            .iter()
            .map(|&(_, sent, delivered)| (sent.max(from), delivered.min(e.at)))
            .filter(|(a, b)| a < b)
            .collect();
        windows.sort_unstable();
        let mut merged: Vec<(Millis, Millis)> = Vec::new();
        for (a, b) in windows {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let total: Millis = merged.iter().map(|(a, b)| b - a).sum();
        watch.messages = msgs.iter().map(|m| m.0).collect();
        watch.windows = merged;
        watch.rate = total as f64 / HOLD_WALL_MS;
        watch
    }
}
