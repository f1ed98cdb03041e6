//! A lesson played on the page's [`Player`]: the state the lesson panel shows
//! and the calls it makes. The session never owns the world; it drives the
//! same `Player` the timeline uses, so seeking, stepping and permalinks keep
//! working. While a lesson is open the page calls [`LessonSession::tick`] and
//! [`LessonSession::step_event`] instead of `Action::Tick` / `Action::Step`,
//! and [`LessonSession::resync`] after any seek or step back.

use super::model::{Choice, Lesson, Question, Step, Text};
use crate::player::{Action, Player, MAX_WALL_GAP_MS};
use crate::sim::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The step's question is shown; the simulation is paused until an answer.
    Question,
    /// The simulation runs (while the player plays) until the step's event.
    Running,
    /// The step's event happened; the simulation is paused on it until `next()`.
    Reached,
    /// After the last step: free play from the lesson's state ("try it yourself").
    Free,
}

/// What the learner sees after answering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feedback {
    pub correct: bool,
    /// `None` when the answer was revealed without a choice (presenter mode).
    pub chosen: Option<Choice>,
    pub answer: Choice,
    pub explanation: Text,
}

/// A step's event happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    pub step: usize,
    pub at: Millis,
    /// Expectations that did not hold (empty when the simulation agrees with the lesson).
    pub failures: Vec<String>,
}

/// Saved progress (the page keeps it in localStorage).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub lesson: String,
    /// Id of the step the learner is on.
    pub step: String,
    /// Step id → whether the learner's answer was right.
    pub answers: BTreeMap<String, bool>,
    pub finished: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct StepRecord {
    started_at: Millis,
    trace_len: usize,
    reached_at: Option<Millis>,
}

#[derive(Clone, Debug)]
pub struct LessonSession {
    pub lesson: Lesson,
    /// Index of the current step (0-based).
    pub step: usize,
    pub phase: Phase,
    /// Per step: the feedback of its question, once answered or revealed.
    pub feedback: Vec<Option<Feedback>>,
    /// Expectation failures of reached steps, as (step index, message).
    pub failures: Vec<(usize, String)>,
    history: Vec<StepRecord>,
    /// Trace events before this index have been looked at for the current step.
    scan: usize,
    carry: f64,
}

impl LessonSession {
    /// A fresh player on the lesson's scenario, at the first step.
    pub fn start(lesson: Lesson) -> Result<(LessonSession, Player), String> {
        let mut player = Player::new(lesson.scenario.clone())?;
        let n = lesson.steps.len();
        let mut s = LessonSession {
            lesson,
            step: 0,
            phase: Phase::Running,
            feedback: vec![None; n],
            failures: Vec::new(),
            history: Vec::new(),
            scan: 0,
            carry: 0.0,
        };
        s.begin(&mut player, 0);
        Ok((s, player))
    }

    /// Opens the lesson at step `index` (a deep link): earlier steps are played
    /// through, their questions revealed rather than answered.
    pub fn open_at(lesson: Lesson, index: usize) -> Result<(LessonSession, Player), String> {
        let (mut s, mut player) = LessonSession::start(lesson)?;
        while s.step < index.min(s.lesson.steps.len() - 1) {
            s.play_step_through(&mut player, None)?;
            s.next(&mut player);
        }
        Ok((s, player))
    }

    pub fn current(&self) -> &Step {
        &self.lesson.steps[self.step]
    }

    /// The question to show now (only while the phase is `Question`).
    pub fn question(&self) -> Option<&Question> {
        (self.phase == Phase::Question).then(|| self.current().question.as_ref()).flatten()
    }

    /// The current step's feedback, once its question was answered or revealed.
    pub fn current_feedback(&self) -> Option<&Feedback> {
        self.feedback[self.step].as_ref()
    }

    /// `#lesson=<number>&step=<n>` (1-based), for deep links.
    pub fn link(&self) -> String {
        format!("#lesson={}&step={}", self.lesson.number, self.step + 1)
    }

    pub fn progress(&self) -> Progress {
        let answers = self
            .lesson
            .steps
            .iter()
            .zip(&self.feedback)
            .filter_map(|(st, f)| f.as_ref().filter(|f| f.chosen.is_some()).map(|f| (st.id.clone(), f.correct)))
            .collect();
        Progress { lesson: self.lesson.id.clone(), step: self.current().id.clone(), answers, finished: self.phase == Phase::Free }
    }

    fn begin(&mut self, player: &mut Player, index: usize) {
        self.step = index;
        self.history.truncate(index);
        self.history.push(StepRecord { started_at: player.now(), trace_len: player.world.trace.len(), reached_at: None });
        self.scan = player.world.trace.len();
        self.carry = 0.0;
        let step = &self.lesson.steps[index];
        let ask = step.question.is_some() && self.feedback[index].is_none();
        if !(ask && step.actions_after_answer) {
            self.act(player);
        }
        if ask {
            self.phase = Phase::Question;
            player.dispatch(Action::Pause);
        } else {
            self.phase = Phase::Running;
            player.playing = true;
        }
    }

    fn act(&self, player: &mut Player) {
        for f in self.current().actions.clone() {
            player.dispatch(Action::Inject(f));
        }
    }

    /// The question is settled: deferred actions run and the simulation goes on.
    fn settle(&mut self, player: &mut Player, f: Feedback) -> Feedback {
        self.feedback[self.step] = Some(f.clone());
        if self.current().actions_after_answer {
            self.act(player);
        }
        self.phase = Phase::Running;
        player.playing = true;
        f
    }

    /// True if the current step's event already happened since the step began
    /// (a question asked now would come after its outcome: a lesson bug).
    pub fn outcome_already_happened(&self, player: &Player) -> bool {
        let Some(h) = self.history.get(self.step) else { return false };
        let until = &self.current().until;
        let w = &player.world;
        w.trace[h.trace_len.min(w.trace.len())..].iter().any(|e| until.matches(w, e))
            || until.deadline(h.started_at).is_some_and(|d| w.now >= d)
    }

    /// The learner answers the current question; the run then continues.
    pub fn answer(&mut self, player: &mut Player, choice: Choice) -> Result<Feedback, String> {
        let q = self.question().ok_or("no question is waiting for an answer")?.clone();
        match (&choice, q.choices.is_empty()) {
            (Choice::Index(i), false) if *i < q.choices.len() => {}
            (Choice::Target(t), true) if q.targets.contains(t) => {}
            _ => return Err(format!("{choice:?} is not one of this question's options")),
        }
        let f = Feedback { correct: choice == q.answer, chosen: Some(choice), answer: q.answer.clone(), explanation: q.explanation.clone() };
        Ok(self.settle(player, f))
    }

    /// Shows the answer without a choice (presenter mode with a clicker).
    pub fn reveal(&mut self, player: &mut Player) -> Result<Feedback, String> {
        let q = self.question().ok_or("no question is waiting for an answer")?.clone();
        let f = Feedback { correct: false, chosen: None, answer: q.answer.clone(), explanation: q.explanation.clone() };
        Ok(self.settle(player, f))
    }

    /// The animation frame: like `Action::Tick`, but pauses on the step's event.
    pub fn tick(&mut self, player: &mut Player, wall_ms: f64) -> Option<Reached> {
        match self.phase {
            Phase::Free => {
                player.dispatch(Action::Tick(wall_ms));
                None
            }
            Phase::Running if player.playing && wall_ms > 0.0 => {
                let dt = wall_ms.min(MAX_WALL_GAP_MS) * player.speed + self.carry;
                let whole = dt.floor();
                self.carry = dt - whole;
                let target = player.now() + whole as Millis;
                self.run_to(player, target)
            }
            _ => None,
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
                let deadline = self.current().until.deadline(self.history[self.step].started_at);
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
            return Some(self.reach(player));
        }
        let until = self.current().until.clone();
        let deadline = until.deadline(self.history[self.step].started_at);
        let t = deadline.map_or(t, |d| t.min(d));
        let mut scan = self.scan;
        let hit = player.advance_until(t, |w| {
            let found = w.trace[scan.min(w.trace.len())..].iter().any(|e| until.matches(w, e));
            scan = w.trace.len();
            found || deadline.is_some_and(|d| w.now >= d)
        });
        self.scan = scan;
        (hit || deadline.is_some_and(|d| player.now() >= d)).then(|| self.reach(player))
    }

    fn reach(&mut self, player: &mut Player) -> Reached {
        player.dispatch(Action::Pause);
        let at = player.now();
        self.history[self.step].reached_at = Some(at);
        self.phase = Phase::Reached;
        let failures: Vec<String> = self.current().expect.iter().filter_map(|e| e.check(&player.world).err()).collect();
        self.failures.retain(|(i, _)| *i != self.step);
        self.failures.extend(failures.iter().map(|f| (self.step, f.clone())));
        Reached { step: self.step, at, failures }
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
            self.reach(player);
        }
    }

    fn outcome_seen(&mut self, player: &Player) -> bool {
        let until = &self.lesson.steps[self.step].until;
        let w = &player.world;
        let found = w.trace[self.scan.min(w.trace.len())..].iter().any(|e| until.matches(w, e));
        self.scan = w.trace.len();
        found || until.deadline(self.history[self.step].started_at).is_some_and(|d| w.now >= d)
    }

    /// Headless: answers (or reveals) the current question if any, then runs
    /// until the step's event, failing if it does not happen within the step's
    /// `withinMs`.
    pub fn play_step_through(&mut self, player: &mut Player, answer: Option<Choice>) -> Result<Reached, String> {
        let where_ = format!("lesson {} ({}), step {} ({})", self.lesson.number, self.lesson.id, self.step + 1, self.current().id);
        if self.phase == Phase::Question {
            if self.outcome_already_happened(player) {
                return Err(format!("{where_}: the question comes after its outcome ({} already happened)", self.current().until.describe()));
            }
            match answer {
                Some(c) => self.answer(player, c)?,
                None => self.reveal(player)?,
            };
        }
        if self.phase != Phase::Running {
            return Err(format!("{where_}: not running (phase {:?})", self.phase));
        }
        let started = self.history[self.step].started_at;
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
