//! The side-by-side panes on the page's one clock: the toolbar's play, pause,
//! step, step back, scrubber and speed act on every pane at once, exactly as
//! they act on the main simulation (`Player::dispatch`).

use super::SideBySide;
use crate::player::{Action, MAX_WALL_GAP_MS};
use crate::sim::scenario::ScheduledFault;
use crate::sim::Millis;

/// A comparison being played: which one, its panes and the play state.
#[derive(Clone, Debug)]
pub struct ComparePlayer {
    /// A shipped comparison's id, or `THIS_RUN`.
    pub id: String,
    pub sbs: SideBySide,
    pub playing: bool,
    /// Sub-millisecond remainder of simulated time not yet run.
    carry: f64,
    /// How much a frame may simulate (see `player::Pace`).
    pub pace: crate::player::Pace,
}

/// The id of a comparison built from the page's current run.
pub const THIS_RUN: &str = "this-run";

impl ComparePlayer {
    pub fn new(id: &str, sbs: SideBySide) -> ComparePlayer {
        ComparePlayer { id: id.to_string(), sbs, playing: false, carry: 0.0, pace: Default::default() }
    }

    /// A shipped comparison (`examples::COMPARISONS`).
    pub fn shipped(id: &str) -> Result<ComparePlayer, String> {
        let c = crate::examples::comparison(id)?;
        Ok(ComparePlayer::new(id, SideBySide::new(&c)?))
    }

    /// "Compare this run": the player's scenario and every fault of its run.
    pub fn this_run(p: &crate::player::Player) -> Result<ComparePlayer, String> {
        let c = super::this_run::comparison(&p.scenario, &p.script, p.horizon)?;
        Ok(ComparePlayer::new(THIS_RUN, SideBySide::new(&c)?))
    }

    pub fn now(&self) -> Millis {
        self.sbs.now()
    }

    /// The scrubber's end: the comparison's length, or further if run past it.
    pub fn end(&self) -> Millis {
        self.sbs.comparison.until.unwrap_or(60_000).max(self.now()).max(1)
    }

    /// The earliest next event of any pane.
    fn next_time(&self) -> Option<Millis> {
        self.sbs.lanes.iter().filter_map(|l| l.world.next_time()).min()
    }

    /// The latest event of any pane before now.
    fn previous_time(&self) -> Option<Millis> {
        let now = self.now();
        self.sbs.lanes.iter().filter_map(|l| l.world.trace.iter().rev().map(|e| e.at).find(|&t| t < now)).max()
    }

    /// Does what `action` does to the main simulation, to every pane; `speed`
    /// is the toolbar's (simulated ms per wall ms).
    pub fn dispatch(&mut self, action: Action, speed: f64) {
        match action {
            Action::TogglePlay => self.playing = !self.playing,
            Action::Pause => self.playing = false,
            Action::Tick(wall_ms) => {
                if self.playing && wall_ms > 0.0 {
                    let dt = wall_ms.min(MAX_WALL_GAP_MS) * speed + self.carry;
                    let whole = dt.floor();
                    self.carry = dt - whole;
                    // Playing stops at the comparison's end (and plays on from past it).
                    let (now, until) = (self.now(), self.sbs.comparison.until.unwrap_or(60_000));
                    let t = now + whole as Millis;
                    if now < until && t >= until {
                        self.sbs.advance_to(until);
                        self.playing = false;
                    } else {
                        self.sbs.advance_to(t);
                    }
                }
            }
            // The next moment at which any pane has something to do (what is due now runs first).
            Action::Step => {
                self.playing = false;
                self.sbs.advance_to(self.now());
                if let Some(t) = self.next_time() {
                    self.sbs.advance_to(t);
                }
            }
            Action::StepBack => {
                self.playing = false;
                let t = self.previous_time().unwrap_or(0);
                self.sbs.seek(t);
            }
            Action::Seek(t) => self.sbs.seek(t),
            Action::Inject(f) => {
                if self.sbs.check_fault(&f).is_ok() {
                    self.sbs.inject(f);
                }
            }
            // Reset keeps the faults injected here: they join the script, at their times.
            Action::Reset => {
                self.playing = false;
                let mut c = self.sbs.comparison.clone();
                c.scenario.faults.extend(
                    self.sbs.injected.iter().map(|(at, fault)| ScheduledFault { at: *at, fault: fault.clone() }),
                );
                c.scenario.faults.sort_by_key(|f| f.at);
                if let Ok(fresh) = SideBySide::new(&c) {
                    self.sbs = fresh;
                }
            }
            Action::SetSpeed(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples::COMPARISONS;

    fn shipped() -> ComparePlayer {
        ComparePlayer::shipped(COMPARISONS[0].0).unwrap()
    }

    #[test]
    fn this_run_takes_the_faults_the_user_injected() {
        let mut main = crate::player::Player::new(crate::sim::Scenario::demo()).unwrap();
        main.dispatch(Action::Seek(9_000));
        main.dispatch(Action::Inject(crate::sim::Fault::CrashConsumer { consumer: 2 }));
        let p = ComparePlayer::this_run(&main).unwrap();
        assert_eq!(p.id, THIS_RUN);
        assert_eq!(p.sbs.lanes.len(), 4);
        let at: Vec<Millis> = p.sbs.comparison.scenario.faults.iter().map(|f| f.at).collect();
        assert_eq!(at, [9_000]);
        assert!(ComparePlayer::shipped("nope").is_err());
    }

    fn nows(p: &ComparePlayer) -> Vec<Millis> {
        p.sbs.lanes.iter().map(|l| l.world.now).collect()
    }

    #[test]
    fn play_and_ticks_move_every_pane_by_speed_times_wall_time() {
        let mut p = shipped();
        p.dispatch(Action::Tick(100.0), 10.0);
        assert_eq!(p.now(), 0, "paused: a tick does nothing");
        p.dispatch(Action::TogglePlay, 10.0);
        p.dispatch(Action::Tick(100.0), 10.0);
        p.dispatch(Action::Tick(100.0), 2.5);
        assert_eq!(nows(&p), vec![1250; p.sbs.lanes.len()]);
    }

    #[test]
    fn step_goes_to_the_next_event_of_any_pane_and_back() {
        let mut p = shipped();
        p.dispatch(Action::Seek(10_000), 1.0);
        p.dispatch(Action::Step, 1.0);
        let t = p.now();
        assert!(t > 10_000, "a step moves the clock: {t}");
        let mut fresh = shipped();
        fresh.dispatch(Action::Step, 1.0);
        assert!(fresh.now() > 0, "also from the start, where events are due at 0");
        assert!(nows(&p).iter().all(|n| *n == t), "one clock: {:?}", nows(&p));
        p.dispatch(Action::StepBack, 1.0);
        assert!(p.now() < t && p.now() >= 9_000, "{}", p.now());
        assert!(nows(&p).iter().all(|n| *n == p.now()));
    }

    #[test]
    fn playing_stops_at_the_end_of_the_comparison() {
        let mut p = shipped();
        p.dispatch(Action::TogglePlay, 1.0);
        for _ in 0..200 {
            p.dispatch(Action::Tick(500.0), 1000.0);
        }
        assert!(!p.playing);
        assert_eq!(p.now(), p.end());
    }

    #[test]
    fn reset_goes_back_to_zero_keeping_the_faults() {
        let mut p = shipped();
        p.dispatch(Action::Seek(5_000), 1.0);
        p.dispatch(Action::Inject(crate::sim::Fault::CrashConsumer { consumer: 1 }), 1.0);
        p.dispatch(Action::Seek(20_000), 1.0);
        p.dispatch(Action::Reset, 1.0);
        assert_eq!(p.now(), 0);
        let crash = crate::sim::Fault::CrashConsumer { consumer: 1 };
        assert!(
            p.sbs.comparison.scenario.faults.iter().any(|f| f.at == 5_000 && f.fault == crash),
            "the injected crash is kept"
        );
        p.dispatch(Action::Seek(6_000), 1.0);
        let c1_alive = |p: &ComparePlayer| {
            p.sbs
                .lanes
                .iter()
                .map(|l| crate::view::consumers(&l.world).iter().any(|c| c.name == "c1" && c.alive))
                .collect::<Vec<_>>()
        };
        assert_eq!(c1_alive(&p), vec![false; p.sbs.lanes.len()], "and happens again at 5 s");
        let faults = p.sbs.comparison.scenario.faults.len();
        p.dispatch(Action::Inject(crate::sim::Fault::CrashConsumer { consumer: 99 }), 1.0);
        assert!(
            p.sbs.injected.is_empty() && p.sbs.comparison.scenario.faults.len() == faults,
            "a fault naming no consumer is refused"
        );
    }
}
