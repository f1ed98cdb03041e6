//! One frame of the page's clock: the panes on the Side by side tab (the main
//! run waits), else the main run (inside its lesson, if one is open) while it
//! plays. Each frame simulates within a budget (`player::pace::Pace`): when
//! the run cannot keep up it plays slower than asked and the toolbar says so.
//! The wall clock is an input (`clock`: ms, `performance.now()` on the page).

use super::effect::{Changed, Effect};
use super::msg::Tab;
use super::run::Run;
use crate::player::Action;

/// Whether the clock moves anything: the panes on the Side by side tab, else the main run.
pub(super) fn moving(tab: Tab, run: &Run) -> bool {
    if tab == Tab::Compare {
        run.compare.as_ref().is_some_and(|c| c.playing)
    } else {
        run.player.playing
    }
}

/// `dt` ms of wall time passed; `clock` reads the wall clock (to measure
/// what simulating cost).
pub(super) fn tick(
    tab: Tab,
    run: &mut Run,
    dt: f64,
    clock: &mut dyn FnMut() -> f64,
    effects: &mut Vec<Effect>,
) -> Changed {
    let t = clock();
    let Run { player: p, lesson, compare } = run;
    if tab == Tab::Compare {
        let Some(c) = compare.as_mut().filter(|c| c.playing) else { return Changed::Nothing };
        let speed = p.speed;
        let (before, wall) = (c.now(), c.pace.allow(dt, speed));
        c.dispatch(Action::Tick(wall), speed);
        let sim = c.now().saturating_sub(before) as f64;
        c.pace.observe(sim, clock() - t, dt);
        return Changed::Page;
    }
    if !p.playing {
        return Changed::Nothing;
    }
    // In a lesson's slow motion the run plays at the slow rate: the frame's
    // budget is for that rate, not for the speed asked (at 1000× the budget
    // gave a frame a few microseconds of wall time, a slow stretch minutes).
    let slow = lesson.as_ref().and_then(|s| s.slow_motion(p)).filter(|w| w.slow_at(p.now()));
    let speed = slow.map_or(p.speed, |w| w.rate.min(p.speed));
    let (before, wall) = (p.now(), p.pace.allow(dt, speed));
    // A lesson's slow motion around the watched event plays slower than the
    // speed on purpose: not a run falling behind (the toolbar says so only then).
    let mut slowed = false;
    match lesson.as_mut() {
        Some(s) => {
            if s.tick(p, wall).is_some() {
                effects.push(Effect::SaveProgress(s.progress()));
            }
            slowed = s.slowed;
        }
        None => p.dispatch(Action::Tick(wall)),
    }
    // A seek back (a lesson's replay) simulated nothing new worth counting.
    let sim = p.now().saturating_sub(before) as f64;
    p.pace.observe(sim, clock() - t, if slowed { 0.0 } else { dt });
    Changed::Run
}
