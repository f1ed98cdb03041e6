//! The session's clock: the animation frame and single steps that pause on
//! the step's event, running to a time, going on to the next step, resyncing
//! after a seek, and playing a step through headless.

use super::watch::paced;
use super::{LessonSession, Phase, Reached};
use crate::lesson::model::Choice;
use crate::player::{Action, Player, MAX_WALL_GAP_MS};
use crate::sim::Millis;

impl LessonSession {
    /// The animation frame: like `Action::Tick`, but pauses on the step's event.
    pub fn tick(&mut self, player: &mut Player, wall_ms: f64) -> Option<Reached> {
        match self.phase {
            Phase::Free => {
                player.dispatch(Action::Tick(wall_ms));
                None
            }
            Phase::Running if player.playing && wall_ms > 0.0 => {
                let wall = wall_ms.min(MAX_WALL_GAP_MS);
                let speed = player.speed;
                let pos = player.now() as f64 + self.carry;
                // Around the event the learner watches for, the flights of its
                // messages last `HOLD_WALL_MS` of wall time at least (`watch`).
                let slow = self.watch(player).filter(|w| !w.windows.is_empty() && w.rate < speed);
                let to = slow.map_or(pos + wall * speed, |w| paced(pos, wall, speed, w.rate, &w.windows));
                self.slowed = to - pos < wall * speed - 1e-9;
                let whole = to.floor();
                self.carry = to - whole;
                self.run_to(player, whole as Millis)
            }
            _ => {
                self.slowed = false;
                None
            }
        }
    }

    /// Like `Action::Step`: runs the next instant (or up to an `elapsed` deadline).
    pub fn step_event(&mut self, player: &mut Player) -> Option<Reached> {
        match self.phase {
            Phase::Free => {
                player.dispatch(Action::Step);
                None
            }
            Phase::Running => {
                player.dispatch(Action::Pause);
                let deadline = self.limit();
                let next = player.world.next_time().into_iter().chain(deadline).min()?;
                let r = self.run_to(player, next.max(player.now()));
                player.dispatch(Action::Pause);
                r
            }
            _ => None,
        }
    }

    /// Runs toward `t`, stopping on the step's event.
    pub fn run_to(&mut self, player: &mut Player, t: Millis) -> Option<Reached> {
        if self.phase != Phase::Running {
            return None;
        }
        // The event may already be in the trace (caused by the step's actions).
        if self.outcome_seen(player) {
            return Some(self.reach(player, true));
        }
        let until = self.current().until.clone();
        let event_deadline = until.deadline(self.history[self.step].started_at);
        let deadline = self.limit();
        let t = deadline.map_or(t, |d| t.min(d));
        let mut scan = self.scan;
        let mut found = false;
        let hit = player.advance_until(t, |w| {
            found = w.trace[scan.min(w.trace.len())..].iter().any(|e| until.matches(w, e))
                || event_deadline.is_some_and(|d| w.now >= d);
            scan = w.trace.len();
            found || deadline.is_some_and(|d| w.now >= d)
        });
        self.scan = scan;
        let event = found || event_deadline.is_some_and(|d| player.now() >= d);
        (hit || deadline.is_some_and(|d| player.now() >= d)).then(|| self.reach(player, event))
    }

    /// After a step's event: begins the next step (applying its actions, asking
    /// its question or resuming play), or enters free play after the last one.
    pub fn next(&mut self, player: &mut Player) {
        if self.phase != Phase::Reached {
            return;
        }
        if self.step + 1 < self.lesson.steps.len() {
            self.begin(player, self.step + 1);
        } else {
            self.phase = Phase::Free;
        }
    }

    /// Call after the timeline moved (seek, step back): the lesson goes back to
    /// the step that was current at the new time, dropping later lesson
    /// actions from the script (they are applied again when their steps
    /// begin), or notices an event a forward seek ran past.
    pub fn resync(&mut self, player: &mut Player) {
        let now = player.now();
        let j = self.history.iter().rposition(|h| h.started_at <= now).unwrap_or(0);
        let past_reach = self.history[j].reached_at.is_some_and(|r| now < r);
        if j < self.step || (past_reach && matches!(self.phase, Phase::Reached | Phase::Free)) {
            self.step = j;
            self.history.truncate(j + 1);
            self.history[j].reached_at = None;
            self.failures.retain(|(i, _)| *i < j);
            self.phase = Phase::Running;
            player.script.retain(|(t, _)| *t <= now);
            player.horizon = now;
            self.scan = self.history[j].trace_len;
        }
        if self.phase == Phase::Running && self.outcome_seen(player) {
            self.reach(player, true);
        }
    }

    /// When the current step began (simulated ms).
    pub fn started_at(&self) -> Millis {
        self.history[self.step].started_at
    }

    /// Headless: answers (or reveals) the current question if any, then runs
    /// until the step's event, failing if it does not happen within the step's
    /// `withinMs`.
    pub fn play_step_through(&mut self, player: &mut Player, answer: Option<Choice>) -> Result<Reached, String> {
        let where_ = format!(
            "lesson {} ({}), step {} ({})",
            self.lesson.number,
            self.lesson.id,
            self.step + 1,
            self.current().id
        );
        if self.phase == Phase::Question {
            if self.outcome_already_happened(player) {
                return Err(format!(
                    "{where_}: the question comes after its outcome ({} already happened)",
                    self.current().until.describe()
                ));
            }
            match answer {
                Some(c) => self.answer(player, c)?,
                None => self.reveal(player)?,
            };
        } else if self.phase == Phase::Act {
            let task = self.current().task.as_ref().expect("Act has a task");
            let option = match answer {
                Some(Choice::Index(i)) => i,
                _ => task.answer,
            };
            self.choose(player, option)?;
            if self.phase != Phase::Running {
                let missed = self.missed.clone();
                let failures = self.failures.iter().filter(|(i, _)| *i == self.step).map(|(_, f)| f.clone()).collect();
                return Ok(Reached { step: self.step, at: player.now(), failures, missed });
            }
        }
        if self.phase != Phase::Running {
            return Err(format!("{where_}: not running (phase {:?})", self.phase));
        }
        let started = self.history[self.step].task_at.map_or(self.history[self.step].started_at, |(at, _)| at);
        let bound = started + self.current().within_ms;
        match self.run_to(player, bound) {
            Some(r) => Ok(r),
            None => Err(format!(
                "{where_}: waited for \"{}\" from {started} ms to {} ms of simulated time (withinMs = {}), and it did not happen",
                self.current().until.describe(),
                player.now(),
                self.current().within_ms
            )),
        }
    }
}
