//! Actions that could lose the user's work, made safe: Reset goes back to the
//! start and keeps the faults the user injected (they happen again at their
//! times) unless asked to clear them; acting in the past forks the timeline
//! and offers to undo, which brings back the discarded future and faults.

use crate::player::Player;
use crate::sim::{Fault, Millis};

/// What a fork discarded, enough to put it back.
#[derive(Clone, Debug, PartialEq)]
pub struct Undo {
    pub script: Vec<(Millis, Fault)>,
    /// Where the playhead was and how far the old timeline reached.
    pub at: Millis,
    pub horizon: Millis,
    /// Faults and time discarded (for the notice).
    pub dropped_faults: usize,
}

/// Before injecting at the playhead: what a fork would discard, if anything
/// (the timeline reaches past the playhead).
pub fn before_inject(p: &Player) -> Option<Undo> {
    let now = p.now();
    (p.horizon > now).then(|| Undo {
        script: p.script.clone(),
        at: now,
        horizon: p.horizon,
        dropped_faults: p.script.iter().filter(|(t, _)| *t > now).count(),
    })
}

/// The timeline as it was before the fork: the old faults, run out to the
/// old horizon (so the scrubber reaches as far) and back at the old playhead.
pub fn undo(p: &Player, u: &Undo) -> Result<Player, String> {
    let mut np = Player::new(p.scenario.clone())?;
    np.speed = p.speed;
    np.script = u.script.clone();
    np.seek(u.horizon);
    np.seek(u.at);
    Ok(np)
}

/// Back to the start of the same scenario; the user's faults stay and happen
/// again at their times unless `clear`.
pub fn reset(p: &Player, clear: bool) -> Result<Player, String> {
    let mut np = Player::new(p.scenario.clone())?;
    np.speed = p.speed;
    if !clear {
        np.script = p.script.clone();
    }
    Ok(np)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Action;
    use crate::sim::Scenario;

    #[test]
    fn reset_keeps_the_users_faults_and_undo_brings_back_a_discarded_future() {
        let mut p = Player::new(Scenario::demo()).unwrap();
        p.seek(10_000);
        p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
        p.seek(30_000);
        let hash = crate::sim::trace::trace_hash(&p.world.trace);
        // Reset: back at 0, the crash still scripted at 10 s.
        let r = reset(&p, false).unwrap();
        assert_eq!((r.now(), r.script.len()), (0, 1));
        let mut again = reset(&p, false).unwrap();
        again.seek(30_000);
        assert_eq!(crate::sim::trace::trace_hash(&again.world.trace), hash, "the same run again");
        assert!(reset(&p, true).unwrap().script.is_empty(), "unless asked to clear them");
        // Acting in the past at 5 s discards the crash at 10 s; undo restores it.
        p.seek(5_000);
        let u = before_inject(&p).expect("the timeline reaches past 5 s");
        assert_eq!((u.at, u.horizon, u.dropped_faults), (5_000, 30_000, 1));
        p.dispatch(Action::Inject(Fault::KillBroker { broker: 0 }));
        assert_eq!(p.script.len(), 1);
        let back = undo(&p, &u).unwrap();
        assert_eq!((back.now(), back.horizon, back.script.len()), (5_000, 30_000, 1));
        let mut back = back;
        back.seek(30_000);
        assert_eq!(crate::sim::trace::trace_hash(&back.world.trace), hash, "the original future");
        // At the end of the timeline nothing is discarded.
        assert!(before_inject(&back).is_none());
    }
}
