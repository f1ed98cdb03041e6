//! Offset commits and how a consumer reacts to their answers: the simulated
//! application's own `commitSync()` / `commitAsync()` after each batch
//! (`simulated.commit.mode`), shared by both consumers (`AppCommitter`), and
//! ConsumerCoordinator's `OffsetCommitResponseHandler` for every commit path of
//! the classic consumer.

use crate::assign::TopicPartition;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::commit_exception::CommitException;
use crate::sim::commit_exception::LocalRefusal;
use crate::sim::ctx::Ctx;
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry};
use crate::sim::scenario::config::{CommitMode, ConsumerConfig};
use crate::sim::trace::EventKind;
use crate::sim::types::{Errors, NodeId};
use std::collections::BTreeMap;

/// OffsetCommit errors the client retries (`future.isRetriable()`), plus a
/// broken connection or request timeout (`None`).
pub(crate) fn is_retriable_commit_error(error: Option<Errors>) -> bool {
    use Errors::*;
    match error {
        None => true,
        Some(e) => matches!(
            e,
            COORDINATOR_LOAD_IN_PROGRESS
                | UNKNOWN_TOPIC_OR_PARTITION
                | COORDINATOR_NOT_AVAILABLE
                | NOT_COORDINATOR
                | REQUEST_TIMED_OUT
        ),
    }
}

/// The fields of a consumer the application's commits read and write, borrowed together.
pub(crate) struct CommitFields<'a> {
    pub node: NodeId,
    pub config: &'a ConsumerConfig,
    pub main: &'a mut MainThread,
    /// In-flight OffsetCommits the application sent itself, by correlation.
    pub app_commits: &'a mut BTreeMap<u64, CommitMode>,
    pub owned: &'a [TopicPartition],
    pub positions: &'a BTreeMap<TopicPartition, i64>,
    pub coordinator: Option<u32>,
    pub fatal: bool,
    /// Attempts so far of the exponential retry backoff.
    pub backoff_attempts: &'a mut u32,
}

/// A consumer whose simulated application commits after each batch: the classic
/// `KafkaConsumer` (ConsumerCoordinator `commitOffsetsSync`) and the
/// `AsyncKafkaConsumer` (CommitRequestManager `commitSyncWithRetries`) behave
/// the same towards the application. The provided methods are that shared
/// behaviour; the required ones are where the two clients differ.
pub(crate) trait AppCommitter {
    fn commit_fields(&mut self) -> CommitFields<'_>;

    /// A commit that fails before it is sent (`Some(exception)`); none by default.
    fn commit_refused_locally(&self) -> Option<LocalRefusal> {
        None
    }

    /// FindCoordinator, as `lookupCoordinator`.
    fn lookup_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out);

    /// Sends an OffsetCommit of `offsets`; returns its correlation.
    fn send_commit(&mut self, ctx: &Ctx, coordinator: u32, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) -> u64;

    /// `commitAsync()`: sent once, never retried; a failure goes to the callback.
    fn commit_async(&mut self, ctx: &mut Ctx, offsets: Vec<(TopicPartition, i64)>, out: &mut Out);

    /// The application calls `poll()` again.
    fn return_to_poll(&mut self, ctx: &mut Ctx, out: &mut Out);

    fn commit_note(&mut self, note: Note, out: &mut Out) {
        let node = self.commit_fields().node;
        out.emit(EventKind::Note { node, note });
    }

    /// The application finished a batch: commit as `simulated.commit.mode` says.
    /// True when it is now blocked in `commitSync()`.
    fn commit_after_batch(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        let f = self.commit_fields();
        if f.positions.is_empty() {
            return false;
        }
        let offsets: Vec<(TopicPartition, i64)> = f.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        match f.config.commit_mode {
            CommitMode::None | CommitMode::Before => false,
            CommitMode::Async => {
                self.commit_async(ctx, offsets, out);
                false
            }
            CommitMode::Sync => {
                let deadline = ctx.now + f.config.default_api_timeout_ms;
                *f.main = MainThread::CommitSync { offsets, deadline, retry_at: ctx.now };
                self.continue_commit_sync(ctx, out);
                true
            }
        }
    }

    /// One pass of `commitSync()`'s retry loop: find the coordinator, send, or
    /// give up when `default.api.timeout.ms` has passed.
    fn continue_commit_sync(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let f = self.commit_fields();
        let MainThread::CommitSync { offsets, deadline, retry_at } = &*f.main else { return };
        if f.app_commits.values().any(|m| *m == CommitMode::Sync) {
            return;
        }
        if ctx.now < *retry_at {
            // Woken early (e.g. by a coordinator lookup): the Backoff(CommitSync)
            // timer is re-armed at the same instant. Dropping this re-arm would
            // reorder same-millisecond events in some seeded runs (soak hashes).
            out.set_timer(ClientTimer::Backoff(Retry::CommitSync), *retry_at);
            return;
        }
        if ctx.now >= *deadline {
            let text = CommitException::TimedOut { default_api_timeout_ms: f.config.default_api_timeout_ms };
            return self.finish_commit_sync(ctx, Some(text), out);
        }
        // A retry leaves out partitions the member lost meanwhile.
        let offsets: Vec<(TopicPartition, i64)> =
            offsets.iter().filter(|(tp, _)| f.owned.contains(tp)).cloned().collect();
        if offsets.is_empty() {
            return self.finish_commit_sync(ctx, Some(CommitException::NoLongerOwned), out);
        }
        let Some(coordinator) = f.coordinator else {
            self.lookup_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            return self.finish_commit_sync(ctx, Some(CommitException::NotStable(e)), out);
        }
        let correlation = self.send_commit(ctx, coordinator, offsets, out);
        self.commit_fields().app_commits.insert(correlation, CommitMode::Sync);
    }

    /// `commitSync()` returns (or throws; the simulated application logs the
    /// exception and polls again).
    fn finish_commit_sync(&mut self, ctx: &mut Ctx, failure: Option<CommitException>, out: &mut Out) {
        if let Some(text) = failure {
            self.commit_note(Note::CommitSyncFailed { exception: text }, out);
        }
        self.return_to_poll(ctx, out);
    }

    /// What the application sees of its own commit's answer: `exception` is
    /// None on success. commitSync retries a retriable failure after a backoff
    /// until its deadline; commitAsync passes any failure to its callback.
    fn on_app_commit_answer(
        &mut self,
        ctx: &mut Ctx,
        mode: CommitMode,
        exception: Option<CommitException>,
        retriable: bool,
        out: &mut Out,
    ) {
        match mode {
            CommitMode::Async => {
                if let Some(text) = exception {
                    let text = if retriable { CommitException::RetriableCommitFailed(Box::new(text)) } else { text };
                    self.commit_note(Note::CommitAsyncFailed { exception: text }, out);
                }
            }
            CommitMode::Sync => {
                let f = self.commit_fields();
                if !matches!(f.main, MainThread::CommitSync { .. }) || f.fatal {
                    return;
                }
                match exception {
                    None => self.finish_commit_sync(ctx, None, out),
                    Some(text) if retriable => {
                        let wait = crate::sim::client::poll_loop::backoff_ms(f.config, f.backoff_attempts);
                        if let MainThread::CommitSync { retry_at, .. } = f.main {
                            *retry_at = ctx.now + wait;
                        }
                        out.set_timer(ClientTimer::Backoff(Retry::CommitSync), ctx.now + wait);
                        self.commit_note(Note::CommitSyncRetry { exception: text, wait_ms: wait }, out);
                    }
                    Some(text) => self.finish_commit_sync(ctx, Some(text), out),
                }
            }
            CommitMode::None | CommitMode::Before => {}
        }
    }

    /// `poll()` has just returned a batch: with `simulated.commit.mode=before`
    /// the application commits the positions past it (`commitAsync()`) before
    /// processing a single record of it.
    fn commit_before_processing(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let f = self.commit_fields();
        if f.config.commit_mode != CommitMode::Before || !matches!(f.main, MainThread::Processing { .. }) {
            return;
        }
        let offsets: Vec<(TopicPartition, i64)> = f.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        self.commit_async(ctx, offsets, out);
    }
}
