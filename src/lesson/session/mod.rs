//! A lesson played on the page's [`Player`]: the state the lesson panel shows
//! and the calls it makes. The session never owns the world; it drives the
//! same `Player` the timeline uses, so seeking, stepping and permalinks keep
//! working. While a lesson is open the page calls [`LessonSession::tick`] and
//! [`LessonSession::step_event`] instead of `Action::Tick` / `Action::Step`,
//! and [`LessonSession::resync`] after any seek or step back.
//!
//! This file: the session's types, opening a lesson, what the panel reads,
//! beginning a step and reaching its event; `answers`: questions and tasks;
//! `clock`: ticks, steps and runs that pause on the step's event; `watch`:
//! slow motion around the event a question or task is about.

use super::conceal::Concealed;
use super::fair;
use super::model::{Choice, Lesson, Question, Step, Task, Text};
use crate::player::{Action, Player};
use crate::sim::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod answers;
mod clock;
pub mod watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The step's question is shown; the simulation is paused until an answer.
    Question,
    /// The step's task is shown; the simulation is paused until the learner acts.
    Act,
    /// The learner's try missed the task's goal: the hint is shown, and
    /// `retry()` takes the run back to before the try.
    Missed,
    /// The simulation runs (while the player plays) until the step's event.
    Running,
    /// The step's event happened; the simulation is paused on it until `next()`.
    Reached,
    /// After the last step: free play from the lesson's state ("try it yourself").
    Free,
}

/// The learner's answer and its verdict. The page shows "You predicted B —
/// watch" while the run plays, and the verdict (right or wrong, the
/// explanation, the "why not" of a wrong choice) only once the step's event
/// has happened ([`LessonSession::verdict`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feedback {
    pub correct: bool,
    /// `None` when the answer was revealed without a choice (presenter mode).
    pub chosen: Option<Choice>,
    pub answer: Choice,
    pub explanation: Text,
    /// Why the chosen wrong option is wrong.
    pub why_not: Option<Text>,
}

/// A step's event happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    pub step: usize,
    pub at: Millis,
    /// Expectations that did not hold (empty when the simulation agrees with the lesson).
    pub failures: Vec<String>,
    /// A task step: why the learner's try missed its goal (`None`: it reached
    /// it, or the step has no task). The phase is then `Missed`.
    pub missed: Option<String>,
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
    /// A task step: when the learner was asked to act and how long the
    /// player's script was then (a missed try is undone back to this).
    task_at: Option<(Millis, usize)>,
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
    /// Per step: the option the learner is trying (task steps).
    pub trying: Vec<Option<usize>>,
    /// Per step: the task's tries that missed, and whether one reached the goal.
    pub tries: Vec<(usize, bool)>,
    /// Why the last try missed (shown with the hint while `Missed`).
    pub missed: Option<String>,
    /// The hints of the tried option's checks that did not hold (shown
    /// instead of the task's hint while `Missed`; see [`Self::hints`]).
    pub missed_checks: Vec<Text>,
    /// The learner's seed for the order of choices (`None`: the authored
    /// order, the same for everyone).
    pub learner: Option<u64>,
    history: Vec<StepRecord>,
    /// Trace events before this index have been looked at for the current step.
    scan: usize,
    carry: f64,
    /// The current step's watched event and its slow stretches (`watch`).
    watch: Option<watch::Watch>,
    /// The last animation frame spent wall time in slow motion (the page
    /// then does not count the frame as the run falling behind).
    pub slowed: bool,
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
            trying: vec![None; n],
            tries: vec![(0, false); n],
            missed: None,
            missed_checks: Vec::new(),
            learner: None,
            history: Vec::new(),
            scan: 0,
            carry: 0.0,
            watch: None,
            slowed: false,
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

    /// After a missed try: what to tell the learner, the hints of the tried
    /// option's checks that did not hold (which of their choices was wrong),
    /// or the task's own hint.
    pub fn hints(&self) -> Vec<&Text> {
        let Some(t) = self.task().filter(|_| self.phase == Phase::Missed) else { return Vec::new() };
        if self.missed_checks.is_empty() {
            vec![&t.hint]
        } else {
            self.missed_checks.iter().collect()
        }
    }

    /// The task to show now (while the learner is to act, or after a missed try).
    pub fn task(&self) -> Option<&Task> {
        matches!(self.phase, Phase::Act | Phase::Missed).then(|| self.current().task.as_ref()).flatten()
    }

    /// The current step's feedback, once its question was answered or revealed
    /// (the verdict is in it; the page shows it only through [`Self::verdict`]).
    pub fn current_feedback(&self) -> Option<&Feedback> {
        self.feedback[self.step].as_ref()
    }

    /// The learner's committed prediction while the run plays toward the
    /// step's event: "You predicted B — watch".
    pub fn prediction(&self) -> Option<&Feedback> {
        (self.phase == Phase::Running).then(|| self.current_feedback()).flatten()
    }

    /// Right or wrong and the explanation: only once the step's event has happened.
    pub fn verdict(&self) -> Option<&Feedback> {
        matches!(self.phase, Phase::Reached).then(|| self.current_feedback()).flatten()
    }

    /// What the page must hide now: the current question's declared secrets
    /// while it waits for an answer; nothing otherwise.
    pub fn concealed(&self) -> Concealed {
        Concealed(self.question().map(|q| q.conceals.iter().cloned().collect()).unwrap_or_default())
    }

    /// The display order of the current step's options (display position →
    /// option index): the question's choices or targets, or the task's options.
    pub fn order(&self) -> Vec<usize> {
        self.order_of(self.step)
    }

    fn order_of(&self, step: usize) -> Vec<usize> {
        let st = &self.lesson.steps[step];
        let n = match (&st.question, &st.task) {
            (Some(q), _) if !q.choices.is_empty() => q.choices.len(),
            (Some(q), _) => q.targets.len(),
            (None, Some(t)) => t.options.len(),
            (None, None) => 0,
        };
        fair::order(n, self.learner, &self.lesson.id, &st.id)
    }

    /// The letter the learner sees for an answer of `step` (its display position).
    pub fn letter_of(&self, step: usize, c: &Choice) -> Option<char> {
        let q = self.lesson.steps.get(step)?.question.as_ref()?;
        let index = match c {
            Choice::Index(i) => *i,
            Choice::Target(t) => q.targets.iter().position(|x| x == t)?,
        };
        self.order_of(step).iter().position(|i| *i == index).map(fair::letter)
    }

    /// The answer at display position `pos` of the current question (clicker keys 1-9, a-i).
    pub fn choice_at(&self, pos: usize) -> Option<Choice> {
        let q = self.question()?;
        let index = *self.order().get(pos)?;
        Some(if q.choices.is_empty() { Choice::Target(q.targets[index].clone()) } else { Choice::Index(index) })
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
        Progress {
            lesson: self.lesson.id.clone(),
            step: self.current().id.clone(),
            answers,
            finished: self.phase == Phase::Free,
        }
    }

    fn begin(&mut self, player: &mut Player, index: usize) {
        self.step = index;
        self.history.truncate(index);
        self.history.push(StepRecord {
            started_at: player.now(),
            trace_len: player.world.trace.len(),
            reached_at: None,
            task_at: None,
        });
        self.scan = player.world.trace.len();
        self.carry = 0.0;
        self.watch = None;
        self.missed = None;
        self.missed_checks.clear();
        self.trying[index] = None;
        let step = &self.lesson.steps[index];
        let ask = step.question.is_some() && self.feedback[index].is_none();
        if !(ask && step.actions_after_answer) {
            self.act(player);
        }
        if ask {
            self.phase = Phase::Question;
            player.dispatch(Action::Pause);
        } else if step.task.is_some() {
            self.await_task(player);
        } else {
            self.phase = Phase::Running;
            player.playing = true;
        }
    }

    fn await_task(&mut self, player: &mut Player) {
        self.history[self.step].task_at = Some((player.now(), player.script.len()));
        self.trying[self.step] = None;
        self.phase = Phase::Act;
        player.dispatch(Action::Pause);
    }

    fn act(&self, player: &mut Player) {
        for f in self.current().actions.clone() {
            player.dispatch(Action::Inject(f));
        }
    }

    /// When the current step stops waiting: an `elapsed` deadline, or for a
    /// task being tried, `withinMs` after the learner acted.
    fn limit(&self) -> Option<Millis> {
        let h = &self.history[self.step];
        let event = self.current().until.deadline(h.started_at);
        let task = h.task_at.filter(|_| self.trying[self.step].is_some()).map(|(at, _)| at + self.current().within_ms);
        event.into_iter().chain(task).min()
    }

    /// The step stops: on its event (`event`), or at a task's deadline without it.
    fn reach(&mut self, player: &mut Player, event: bool) -> Reached {
        player.dispatch(Action::Pause);
        let at = player.now();
        let step = self.step;
        self.missed_checks.clear();
        let mut missed = None;
        if let (Some(t), Some(option)) = (self.current().task.clone(), self.trying[step]) {
            let mut misses: Vec<String> = Vec::new();
            if !event {
                misses.push(format!(
                    "{} did not happen within {} ms",
                    self.current().until.describe(),
                    self.current().within_ms
                ));
            } else {
                misses.extend(t.goal.iter().filter_map(|e| e.check(&player.world).err()));
            }
            // The option's checks say which choice was wrong, with or without the event.
            for c in t.options.get(option).map_or(&[][..], |o| &o.checks) {
                if let Err(e) = c.expect.check(&player.world) {
                    misses.push(e);
                    if !self.missed_checks.contains(&c.hint) {
                        self.missed_checks.push(c.hint.clone());
                    }
                }
            }
            missed = (!misses.is_empty()).then(|| misses.join("; "));
        }
        if let Some(m) = &missed {
            self.tries[step].0 += 1;
            self.missed = Some(m.clone());
            self.phase = Phase::Missed;
            return Reached { step, at, failures: Vec::new(), missed };
        }
        if self.trying[step].is_some() {
            self.tries[step].1 = true;
        }
        self.history[step].reached_at = Some(at);
        self.phase = Phase::Reached;
        let failures: Vec<String> = self.current().expect.iter().filter_map(|e| e.check(&player.world).err()).collect();
        self.failures.retain(|(i, _)| *i != step);
        self.failures.extend(failures.iter().map(|f| (step, f.clone())));
        Reached { step, at, failures, missed: None }
    }

    fn outcome_seen(&mut self, player: &Player) -> bool {
        let until = &self.lesson.steps[self.step].until;
        let w = &player.world;
        let found = w.trace[self.scan.min(w.trace.len())..].iter().any(|e| until.matches(w, e));
        self.scan = w.trace.len();
        found || until.deadline(self.history[self.step].started_at).is_some_and(|d| w.now >= d)
    }
}
