//! Why a quiet run is not a settled one: a consumer whose application has not
//! called `poll()` for a long while (a slow batch) is waiting out
//! `max.poll.interval.ms`, 300 s by default, before its heartbeat thread
//! leaves the group (`AbstractCoordinator.HeartbeatThread` for the classic
//! consumer, `ConsumerHeartbeatRequestManager` for the KIP-848 one). Nothing
//! shows on the drawing meanwhile, so the caption says what the group waits for
//! (issue 32: a slow consumer showed nothing for minutes).

use crate::i18n::{trf, Lang};
use crate::sim::client::poll_loop::MainThread;
use crate::sim::out::ClientTimer;
use crate::sim::types::NodeId;
use crate::sim::{Millis, World};

/// Shorter stretches without `poll()` are ordinary processing, not worth a word.
pub const LONG_WITHOUT_POLL_MS: Millis = 5_000;

/// What the caption offers to shorten `max.poll.interval.ms` to.
pub const SHORT_POLL_INTERVAL_MS: Millis = 30_000;

/// A live consumer in the middle of a long batch: the stretch since it last
/// called `poll()` and when its `max.poll.interval.ms` runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PollWait {
    pub consumer: u32,
    /// Since when the application has not called `poll()`.
    pub since: Millis,
    /// When the batch it processes ends (it calls `poll()` again then).
    pub batch_ends: Millis,
    pub max_poll_interval_ms: Millis,
}

impl PollWait {
    /// When the poll timer expires and the member leaves the group.
    pub fn deadline(&self) -> Millis {
        self.since.saturating_add(self.max_poll_interval_ms)
    }

    /// Whether the batch outlasts `max.poll.interval.ms` (the member will leave).
    pub fn will_leave(&self) -> bool {
        self.batch_ends > self.deadline()
    }

    /// Whether a shorter `max.poll.interval.ms` would show the leaving sooner.
    pub fn worth_shortening(&self) -> bool {
        self.will_leave() && self.max_poll_interval_ms > SHORT_POLL_INTERVAL_MS
    }
}

/// The live consumer that has gone longest without calling `poll()`, if any
/// has for [`LONG_WITHOUT_POLL_MS`] while in the middle of a batch. The stretch
/// runs from the poll timer's last reset (`poll()` returning the batch), read
/// off the timer itself.
pub fn longest(world: &World) -> Option<PollWait> {
    world
        .members()
        .filter(|c| c.alive && c.in_poll_interval)
        .filter_map(|c| Some((c.idx, c.main?, c.max_poll_interval_ms?)))
        .filter_map(|(consumer, main, max_poll_interval_ms)| {
            let MainThread::Processing { until, .. } = main else { return None };
            let deadline = world.timer_deadline(NodeId::Client(consumer), ClientTimer::PollTimeout)?;
            let since = deadline.saturating_sub(max_poll_interval_ms);
            (world.now.saturating_sub(since) >= LONG_WITHOUT_POLL_MS).then_some(PollWait {
                consumer,
                since,
                batch_ends: *until,
                max_poll_interval_ms,
            })
        })
        .min_by_key(|w| (w.since, w.consumer))
}

/// The caption's sentence for a quiet run that waits on a slow consumer.
pub fn sentence(world: &World, lang: Lang) -> Option<String> {
    let w = longest(world)?;
    let s = |ms: Millis| format!("{:.1}", ms as f64 / 1000.0);
    let waited = s(world.now.saturating_sub(w.since));
    let max = w.max_poll_interval_ms.to_string();
    Some(if w.will_leave() {
        let left = s(w.deadline().saturating_sub(world.now));
        trf(lang, "caption.slow.leaves", &[&w.consumer, &waited, &max, &left])
    } else {
        let left = s(w.batch_ends.saturating_sub(world.now));
        trf(lang, "caption.slow.polls", &[&w.consumer, &waited, &left, &max])
    })
}
