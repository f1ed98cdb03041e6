//! The application side both consumers share: handing the records the
//! partition leaders sent (`fetcher.rs`) to the application and timing their
//! processing, recording what was processed, where a partition without a
//! committed offset starts, and retry backoff.

use super::fetcher::Fetcher;
use crate::assign::TopicPartition;
use crate::sim::connections::Connections;
use crate::sim::ctx::Ctx;
use crate::sim::message::Response;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::scenario::config::{AutoOffsetReset, ConsumerConfig};
use crate::sim::trace::EventKind;
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the application thread is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MainThread {
    /// Inside `poll()`, waiting for the group (coordinator, join, sync, offsets).
    InPoll,
    /// Between polls with nothing to process; polls again shortly.
    Idle,
    /// Processing the records the last `poll()` returned, until the given time.
    Processing { until: Millis, batch: Vec<(TopicPartition, i64, i64)> },
    /// Blocked in `commitSync()` after a batch (`simulated.commit.mode=sync`):
    /// until the commit succeeds or fails for good, retrying retriable errors
    /// from `retry_at` on, for at most `default.api.timeout.ms` (`deadline`).
    CommitSync { offsets: Vec<(TopicPartition, i64)>, deadline: Millis, retry_at: Millis },
}

/// How long an idle poll loop waits before polling again (fetch.max.wait.ms is 500).
pub const IDLE_POLL_MS: Millis = 200;

/// The application called `poll()` again: the batch it was processing is done.
pub(crate) fn finish_batch(node: NodeId, main: &mut MainThread, out: &mut Out) {
    if let MainThread::Processing { batch, .. } = std::mem::replace(main, MainThread::InPoll) {
        for (tp, from, to) in batch {
            // How many were processed before (by any member) is the world's count.
            out.emit(EventKind::RecordsProcessed { node, partition: tp, from, to, redelivered: 0 });
        }
    }
}

/// What the poll loop reads and moves: the consumer's assignment, positions,
/// fetcher and connections.
pub(crate) struct Fetching<'a> {
    pub config: &'a ConsumerConfig,
    pub owned: &'a [TopicPartition],
    pub positions: &'a mut BTreeMap<TopicPartition, i64>,
    pub fetcher: &'a mut Fetcher,
    pub connections: &'a Connections,
}

/// `poll()` returns up to `max.poll.records` records the partition leaders
/// sent (`FetchCollector.collectFetch`), and sends the next Fetches before
/// returning (`sendFetches`, so the next batch is on its way while this one is
/// processed); the application processes them for `processing.ms.per.record`
/// each, then polls again. With nothing to return it waits: until a Fetch is
/// answered, or a short while. True when a batch was returned.
pub(crate) fn fetch_and_process(ctx: &mut Ctx, f: Fetching<'_>, main: &mut MainThread, out: &mut Out) -> bool {
    let batch = f.fetcher.collect(f.owned, f.positions, f.config.max_poll_records);
    f.fetcher.send_fetches(ctx, f.config, f.owned, f.positions, f.connections, out);
    let records: i64 = batch.iter().map(|(_, a, b)| b - a).sum();
    if records == 0 {
        *main = MainThread::Idle;
        out.set_timer(ClientTimer::Poll, ctx.now + IDLE_POLL_MS);
        return false;
    }
    // poll() returns now: the poll timer runs from here (ConsumerCoordinator.poll
    // re-arms it on every pass of the poll loop).
    out.set_timer(ClientTimer::PollTimeout, ctx.now + f.config.max_poll_interval_ms);
    let until = ctx.now + (records as u64 * f.config.processing_ms_per_record).max(1);
    *main = MainThread::Processing { until, batch };
    out.set_timer(ClientTimer::Poll, until);
    true
}

/// What of a client a Fetch answer touches: its fetcher, its positions, its
/// connections and whether its application waits in `poll()`.
pub(crate) struct FetchParts<'a> {
    pub fetcher: &'a mut Fetcher,
    pub positions: &'a BTreeMap<TopicPartition, i64>,
    pub connections: &'a mut Connections,
    pub main: &'a MainThread,
}

/// A Fetch answer: into the buffer; an application waiting in `poll()` for
/// records gets them at once (`poll(Duration)` returns when the fetch completes).
pub(crate) fn on_fetch_response(ctx: &Ctx, parts: FetchParts, correlation: u64, response: Response, out: &mut Out) {
    let Response::Fetch { partitions, .. } = response else { return };
    let FetchParts { fetcher, positions, connections, main } = parts;
    let outcome = fetcher.on_response(ctx, correlation, partitions, positions, connections, out);
    if outcome.answered && *main == MainThread::Idle {
        out.set_timer(ClientTimer::Poll, ctx.now);
    }
}

/// `poll()` does not wait for the group: while a JoinGroup or SyncGroup, the
/// commit before a revocation or an OffsetFetch is in flight, it still returns
/// records of the owned partitions that have a position (the classic
/// `KafkaConsumer.poll()` calls `ensureActiveGroup` with a zero timer, then
/// fetches; the new consumer does the group work in its background thread).
/// Partitions pending revocation are not fetched from (`SubscriptionState.fetchablePartitions`: `isFetchable`): an EAGER
/// classic member marks everything it owns so in `onJoinPrepare`
/// (`all_pending_revocation`), so its poll loop waits; the consumer-protocol
/// client leaves those it is about to revoke out of `f.owned`. True when a batch was returned.
pub(crate) fn fetch_while_waiting_for_group(
    ctx: &mut Ctx,
    f: Fetching<'_>,
    all_pending_revocation: bool,
    main: &mut MainThread,
    out: &mut Out,
) -> bool {
    !all_pending_revocation
        && f.owned.iter().any(|tp| f.positions.contains_key(tp))
        && fetch_and_process(ctx, f, main, out)
}

/// Where a partition starts: its committed offset, or `auto.offset.reset`.
pub(crate) fn start_offset(ctx: &Ctx, config: &ConsumerConfig, tp: &TopicPartition, committed: i64) -> i64 {
    if committed >= 0 {
        return committed;
    }
    match config.auto_offset_reset {
        AutoOffsetReset::Earliest => 0,
        AutoOffsetReset::Latest => ctx.cluster.end_offset(tp),
    }
}

/// Exponential backoff from `retry.backoff.ms` up to `retry.backoff.max.ms`.
pub(crate) fn backoff_ms(config: &ConsumerConfig, attempts: &mut u32) -> Millis {
    exponential_backoff_ms(config.retry_backoff_ms, config.retry_backoff_max_ms, attempts)
}

/// `base` doubling per failed attempt (counted in `attempts`) up to `max`; a
/// success resets the attempts. Every client's coordinator lookup backs off so.
pub(crate) fn exponential_backoff_ms(base: Millis, max: Millis, attempts: &mut u32) -> Millis {
    let ms = base.saturating_mul(1 << (*attempts).min(10));
    *attempts += 1;
    ms.min(max)
}
