//! Keeping the page responsive when the simulation cannot keep up with the
//! chosen speed (100 members at 100× need about two seconds of computing per
//! second of wall time). Each animation frame may spend about
//! [`FRAME_BUDGET_MS`] simulating; past that the run plays slower than asked,
//! and the page says how fast it really goes, instead of frames growing to
//! half a second each and the tab no longer answering clicks.
//!
//! Only how much simulated time one frame covers changes: the trace is the
//! same however the time is cut into frames, so determinism is untouched.
//! Wall-clock readings come from the caller (`performance.now()` on the page).

/// Computing time one frame may spend simulating (ms), leaving the rest of a
/// 16.7 ms frame for drawing.
pub const FRAME_BUDGET_MS: f64 = 10.0;
/// When frames are long anyway (a large drawing, a script polling the page),
/// simulating may take up to this share of the wall time that passed, so the
/// run does not crawl because something else is slow.
const WALL_SHARE: f64 = 0.5;
/// Frames up to this long (two display frames at 60 Hz, with some slack) are
/// not "long anyway": one that missed a display frame was most likely our own
/// simulating and drawing, and giving the next frame more to simulate would
/// make it miss one too, holding the page at 30 frames a second. Such a frame
/// keeps the plain budget, and the run catches up later or plays a little
/// slower (which the page shows).
const MISSED_FRAME_MS: f64 = 40.0;
/// The most one frame simulates, however long frames are: the page answers a
/// click within about this much more than its drawing takes.
const MAX_FRAME_BUDGET_MS: f64 = 40.0;
/// Weight of the newest frame in the running cost estimate.
const NEWEST: f64 = 0.3;
/// Simulated ms the first frame covers at most, before anything is measured.
const FIRST_FRAME_SIM_MS: f64 = 200.0;
/// The coarsest `performance.now()` step (ms): a frame measured as costing
/// nothing cost up to this.
const CLOCK_STEP_MS: f64 = 0.1;

/// The running estimate of what simulating costs, and the speed reached.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pace {
    /// Computing ms per simulated ms, smoothed (None: nothing measured yet).
    cost_per_sim_ms: Option<f64>,
    /// Simulated ms per wall ms over the last frames, smoothed (None: not playing yet).
    reached: Option<f64>,
}

impl Pace {
    /// The wall time a frame should simulate at `speed` when `wall_ms` passed:
    /// `wall_ms`, or less if simulating that much would exceed the budget.
    pub fn allow(&self, wall_ms: f64, speed: f64) -> f64 {
        if speed <= 0.0 {
            return wall_ms;
        }
        let budget = if wall_ms <= MISSED_FRAME_MS {
            FRAME_BUDGET_MS
        } else {
            (wall_ms * WALL_SHARE).clamp(FRAME_BUDGET_MS, MAX_FRAME_BUDGET_MS)
        };
        let sim_ms = self.cost_per_sim_ms.map_or(FIRST_FRAME_SIM_MS, |c| budget / c);
        // At least one simulated millisecond a frame, so a run always moves on.
        wall_ms.min((sim_ms / speed).max(1.0 / speed))
    }

    /// After a frame: `sim_ms` simulated in `cost_ms` of computing, in a frame
    /// that followed `wall_ms` of wall time.
    pub fn observe(&mut self, sim_ms: f64, cost_ms: f64, wall_ms: f64) {
        if sim_ms >= 1.0 {
            let c = cost_ms.max(CLOCK_STEP_MS) / sim_ms;
            self.cost_per_sim_ms = Some(self.cost_per_sim_ms.map_or(c, |old| NEWEST * c + (1.0 - NEWEST) * old));
        }
        if wall_ms > 0.0 {
            let r = sim_ms / wall_ms;
            self.reached = Some(self.reached.map_or(r, |old| NEWEST * r + (1.0 - NEWEST) * old));
        }
    }

    /// The speed really reached, if clearly below `speed` (by a fifth or
    /// more): what the page shows beside the speed control.
    pub fn behind(&self, speed: f64) -> Option<f64> {
        self.reached.filter(|r| *r < speed * 0.8)
    }

    /// Forget the speed reached (paused, another speed chosen); the cost
    /// estimate stays, so the next frame is paced at once.
    pub fn restart(&mut self) {
        self.reached = None;
    }

    /// Forget everything (another scenario).
    pub fn reset(&mut self) {
        *self = Pace::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cheap_run_plays_at_the_speed_asked() {
        let mut p = Pace::default();
        assert_eq!(p.allow(16.0, 10.0), 16.0, "nothing measured yet, 160 ms is within the first frame's 200");
        // 160 simulated ms in 0.5 ms of computing.
        p.observe(160.0, 0.5, 16.0);
        assert_eq!(p.allow(16.0, 10.0), 16.0);
        assert_eq!(p.behind(10.0), None);
    }

    #[test]
    fn an_expensive_run_keeps_each_frame_within_the_budget() {
        let mut p = Pace::default();
        // 1,600 simulated ms cost 35 ms: 100 members at 100×.
        p.observe(1600.0, 35.0, 16.0);
        let wall = p.allow(16.0, 100.0);
        let sim = wall * 100.0;
        assert!(sim * 35.0 / 1600.0 <= FRAME_BUDGET_MS + 1e-9, "{sim} simulated ms would cost more than the budget");
        assert!(wall < 16.0);
        // A long frame (a slow draw, a script polling the page) may simulate
        // for half of it, not for all of it.
        let long = p.allow(60.0, 100.0);
        assert!(long * 100.0 * 35.0 / 1600.0 <= 30.0 + 1e-9, "{long}");
        assert!(long > wall, "a slow page is not slowed further");
        // However long the gap (a background tab), a frame simulates for MAX_FRAME_BUDGET_MS at most.
        let gap = p.allow(60_000.0, 100.0);
        assert!((gap * 100.0 * 35.0 / 1600.0 - MAX_FRAME_BUDGET_MS).abs() < 1e-9, "{gap}");
        // Frames then reach about budget / cost, and the page says so.
        for _ in 0..20 {
            let w = p.allow(16.0, 100.0);
            p.observe(w * 100.0, w * 100.0 * 35.0 / 1600.0, 16.0);
        }
        let reached = p.behind(100.0).expect("clearly behind 100×");
        assert!((reached - FRAME_BUDGET_MS * 1600.0 / 35.0 / 16.0).abs() < 1.0, "reached {reached}×");
    }

    #[test]
    fn a_frame_that_missed_one_display_frame_is_not_given_more_to_simulate() {
        let mut p = Pace::default();
        // 100 KIP-848 members at 10×: 167 simulated ms cost 9 ms.
        p.observe(167.0, 9.0, 16.7);
        let on_time = p.allow(16.7, 10.0);
        // A frame that took two display frames (33 ms) was our own simulating
        // and drawing: the next one simulates no more than the plain budget,
        // so it can be on time again, instead of settling at 30 frames a second.
        let after_miss = p.allow(33.3, 10.0);
        assert!(after_miss * 10.0 * 9.0 / 167.0 <= FRAME_BUDGET_MS + 1e-9, "{after_miss}");
        assert!(after_miss >= on_time, "it still simulates at least a frame's worth");
        // A much longer frame is something else being slow: half of it may go to simulating.
        let slow_page = p.allow(80.0, 10.0);
        assert!(slow_page * 10.0 * 9.0 / 167.0 > FRAME_BUDGET_MS, "{slow_page}");
    }

    #[test]
    fn a_frame_always_simulates_something() {
        let mut p = Pace::default();
        // One simulated ms cost a whole second (a huge fault's rebalance).
        p.observe(1.0, 1000.0, 16.0);
        assert!(p.allow(16.0, 1.0) * 1.0 >= 1.0);
        assert!(p.allow(16.0, 1000.0) * 1000.0 >= 1.0 - 1e-9);
    }

    #[test]
    fn the_first_frame_is_short_until_the_cost_is_known() {
        let p = Pace::default();
        // 16 ms at 1000× would be 16 simulated seconds before anything was measured.
        assert!(p.allow(16.0, 1000.0) * 1000.0 <= FIRST_FRAME_SIM_MS + 1e-9);
    }

    #[test]
    fn a_frame_measured_as_free_is_not_taken_as_free() {
        let mut p = Pace::default();
        p.observe(100.0, 0.0, 16.0);
        // Costs at most one clock step per 100 ms: 1,000 ms a frame at most.
        assert!(p.allow(16.0, 1000.0) * 1000.0 <= FRAME_BUDGET_MS / CLOCK_STEP_MS * 100.0 + 1e-6);
    }

    #[test]
    fn restart_keeps_the_cost_and_forgets_the_speed_reached() {
        let mut p = Pace::default();
        p.observe(1600.0, 35.0, 16.0);
        let paced = p.allow(16.0, 100.0);
        p.restart();
        assert_eq!(p.behind(100.0), None);
        assert_eq!(p.allow(16.0, 100.0), paced);
        p.reset();
        assert_eq!(p.allow(16.0, 1.0), 16.0);
    }
}
