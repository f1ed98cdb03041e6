//! The learner's side of a step: answering or revealing a question, and
//! taking (or retrying) a task's option. The verdict waits for the step's
//! event; a deferred step's actions run once the question is settled.

use super::{Feedback, LessonSession, Phase};
use crate::lesson::model::Choice;
use crate::player::{Action, Player};

impl LessonSession {
    /// The learner takes the task's option `option` (a button): its faults are
    /// injected at the playhead and the run goes on to the step's event.
    pub fn choose(&mut self, player: &mut Player, option: usize) -> Result<(), String> {
        let task = self
            .current()
            .task
            .clone()
            .filter(|_| self.phase == Phase::Act)
            .ok_or("no task is waiting for the learner")?;
        let o = task
            .options
            .get(option)
            .ok_or_else(|| format!("option {option} is not one of this task's {} options", task.options.len()))?;
        for f in o.faults.clone() {
            player.dispatch(Action::Inject(f));
        }
        self.trying[self.step] = Some(option);
        self.missed = None;
        self.missed_checks.clear();
        self.phase = Phase::Running;
        player.playing = true;
        if matches!(self.current().until, crate::lesson::model::Condition::Acted) {
            self.reach(player, true);
        }
        Ok(())
    }

    /// After a missed try: the run goes back to just before it (the try's
    /// faults leave the script) and the task waits again.
    pub fn retry(&mut self, player: &mut Player) -> Result<(), String> {
        if self.phase != Phase::Missed {
            return Err("no missed try to undo".into());
        }
        let (at, script_len) = self.history[self.step].task_at.ok_or("this step has no task")?;
        player.unscript_from(script_len);
        player.seek(at);
        // The step's own actions at `at` are replayed even if a checkpoint sits exactly there.
        while player.world.injected.len() < player.script.len()
            && player.script[player.world.injected.len()].0 <= player.now()
        {
            let f = player.script[player.world.injected.len()].1.clone();
            player.world.inject(f);
        }
        player.horizon = at;
        self.scan = player.world.trace.len();
        self.history[self.step].reached_at = None;
        self.failures.retain(|(i, _)| *i != self.step);
        self.await_task(player);
        Ok(())
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
        let why_not = match &choice {
            Choice::Index(i) => q.why_not.get(&i.to_string()),
            Choice::Target(t) => q.why_not.get(t),
        }
        .filter(|_| choice != q.answer)
        .cloned();
        let f = Feedback {
            correct: choice == q.answer,
            chosen: Some(choice),
            answer: q.answer.clone(),
            explanation: q.explanation.clone(),
            why_not,
        };
        Ok(self.settle(player, f))
    }

    /// Shows the answer without a choice (presenter mode with a clicker).
    pub fn reveal(&mut self, player: &mut Player) -> Result<Feedback, String> {
        let q = self.question().ok_or("no question is waiting for an answer")?.clone();
        let f = Feedback {
            correct: false,
            chosen: None,
            answer: q.answer.clone(),
            explanation: q.explanation.clone(),
            why_not: None,
        };
        Ok(self.settle(player, f))
    }
}
