//! Offset commits and how a consumer reacts to their answers: the simulated
//! application's own `commitSync()` / `commitAsync()` after each batch
//! (`simulated.commit.mode`), shared by both consumers (`AppCommitter`), and
//! ConsumerCoordinator's `OffsetCommitResponseHandler` for every commit path of
//! the classic consumer (facts B11, F).

use super::config::{CommitMode, ConsumerConfig};
use super::consumer::{ClassicConsumer, InFlight, MainThread, MemberState};
use super::ctx::Ctx;
use super::out::{Out, TimerKey};
use super::trace::EventKind;
use super::types::{Errors, NodeId};
use crate::assign::TopicPartition;
use std::collections::BTreeMap;

/// OffsetCommit errors the client retries (`future.isRetriable()`), plus a
/// broken connection or request timeout (`None`).
pub(crate) fn is_retriable_commit_error(error: Option<Errors>) -> bool {
    use Errors::*;
    match error {
        None => true,
        Some(e) => matches!(e, COORDINATOR_LOAD_IN_PROGRESS | UNKNOWN_TOPIC_OR_PARTITION | COORDINATOR_NOT_AVAILABLE | NOT_COORDINATOR | REQUEST_TIMED_OUT),
    }
}

fn describe(error: Option<Errors>) -> String {
    error.map_or_else(|| "the connection broke".to_string(), |e| e.to_string())
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
    fn commit_refused_locally(&self) -> Option<&'static str> {
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

    fn commit_note(&mut self, text: &str, out: &mut Out) {
        let node = self.commit_fields().node;
        out.emit(EventKind::Note { node, text: text.into() });
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
            // Another wake-up (a FindCoordinator backoff) may have replaced this one.
            out.set_timer(TimerKey::Backoff, *retry_at);
            return;
        }
        if ctx.now >= *deadline {
            let text = format!("TimeoutException: not committed within default.api.timeout.ms = {} ms", f.config.default_api_timeout_ms);
            return self.finish_commit_sync(ctx, Some(text), out);
        }
        // A retry leaves out partitions the member lost meanwhile.
        let offsets: Vec<(TopicPartition, i64)> = offsets.iter().filter(|(tp, _)| f.owned.contains(tp)).cloned().collect();
        if offsets.is_empty() {
            return self.finish_commit_sync(ctx, Some("CommitFailedException, the member no longer owns these partitions".into()), out);
        }
        let Some(coordinator) = f.coordinator else {
            self.lookup_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            return self.finish_commit_sync(ctx, Some(format!("{e}, the member is not in a stable generation")), out);
        }
        let correlation = self.send_commit(ctx, coordinator, offsets, out);
        self.commit_fields().app_commits.insert(correlation, CommitMode::Sync);
    }

    /// `commitSync()` returns (or throws; the simulated application logs the
    /// exception and polls again).
    fn finish_commit_sync(&mut self, ctx: &mut Ctx, failure: Option<String>, out: &mut Out) {
        if let Some(text) = failure {
            self.commit_note(&format!("commitSync() failed: {text}; the application logs it and polls again"), out);
        }
        self.return_to_poll(ctx, out);
    }

    /// What the application sees of its own commit's answer: `exception` is
    /// None on success. commitSync retries a retriable failure after a backoff
    /// until its deadline; commitAsync passes any failure to its callback.
    fn on_app_commit_answer(&mut self, ctx: &mut Ctx, mode: CommitMode, exception: Option<String>, retriable: bool, out: &mut Out) {
        match mode {
            CommitMode::Async => {
                if let Some(text) = exception {
                    let text = if retriable { format!("RetriableCommitFailedException ({text})") } else { text };
                    self.commit_note(&format!("commitAsync() failed: {text}; passed to the callback, not retried"), out);
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
                        let wait = super::poll_loop::backoff_ms(f.config, f.backoff_attempts);
                        if let MainThread::CommitSync { retry_at, .. } = f.main {
                            *retry_at = ctx.now + wait;
                        }
                        out.set_timer(TimerKey::Backoff, ctx.now + wait);
                        self.commit_note(&format!("commitSync(): {text}, retrying in {wait} ms"), out);
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

impl AppCommitter for ClassicConsumer {
    fn commit_fields(&mut self) -> CommitFields<'_> {
        CommitFields {
            node: NodeId::Client(self.idx),
            config: &self.config,
            main: &mut self.main,
            app_commits: &mut self.app_commits,
            owned: &self.owned,
            positions: &self.positions,
            coordinator: self.coordinator,
            fatal: self.fatal.is_some(),
            backoff_attempts: &mut self.backoff_attempts,
        }
    }

    /// `sendOffsetCommitRequest` for a subscribed consumer: only a member of a
    /// stable generation sends (`generationIfStable`); otherwise the commit fails
    /// at once, with RebalanceInProgressException while a rebalance is running
    /// (`rebalanceInProgress`) and CommitFailedException otherwise.
    fn commit_refused_locally(&self) -> Option<&'static str> {
        match self.state {
            MemberState::STABLE => None,
            MemberState::PREPARING_REBALANCE | MemberState::COMPLETING_REBALANCE => Some("RebalanceInProgressException"),
            MemberState::UNJOINED => Some("CommitFailedException"),
        }
    }

    fn lookup_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.ensure_coordinator(ctx, out);
    }

    fn send_commit(&mut self, ctx: &Ctx, coordinator: u32, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) -> u64 {
        self.send_offset_commit(ctx, coordinator, offsets, false, out)
    }

    /// Without a known coordinator the commit fails and the client looks it up.
    fn commit_async(&mut self, ctx: &mut Ctx, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) {
        let Some(coordinator) = self.coordinator else {
            self.commit_note("commitAsync() failed: coordinator unknown (RetriableCommitFailedException to the callback)", out);
            self.ensure_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            self.commit_note(&format!("commitAsync() failed: {e}, the member is not in a stable generation"), out);
            return;
        }
        let correlation = self.send_offset_commit(ctx, coordinator, offsets, false, out);
        self.app_commits.insert(correlation, CommitMode::Async);
    }

    fn return_to_poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.enter_poll(ctx, out);
    }
}

impl ClassicConsumer {
    /// An OffsetCommit answered `error`, or failed without an answer (`None`):
    /// `OffsetCommitResponseHandler`, then what the commit path does with it.
    pub(crate) fn on_offset_commit(&mut self, ctx: &mut Ctx, correlation: u64, error: Option<Errors>, f: &InFlight, out: &mut Out) {
        let app = self.app_commits.remove(&correlation);
        if error == Some(Errors::REQUEST_TIMED_OUT) {
            self.mark_coordinator_unknown("OffsetCommit answered REQUEST_TIMED_OUT", out);
        }
        let retriable = is_retriable_commit_error(error);
        let exception: Option<String> = match error {
            Some(Errors::NONE) => None,
            _ if retriable => Some(format!("{} (retriable)", describe(error))),
            Some(Errors::REBALANCE_IN_PROGRESS) => {
                self.request_rejoin("OffsetCommit answered REBALANCE_IN_PROGRESS", out);
                Some("REBALANCE_IN_PROGRESS: RebalanceInProgressException, rejoin requested".into())
            }
            Some(e @ (Errors::UNKNOWN_MEMBER_ID | Errors::ILLEGAL_GENERATION)) => {
                if f.generation != self.generation && self.state == MemberState::PREPARING_REBALANCE {
                    Some(format!("{e}: RebalanceInProgressException, the member already rejoins"))
                } else {
                    self.reset_generation(ctx, e == Errors::ILLEGAL_GENERATION, &format!("OffsetCommit → {e}"), out);
                    Some(format!("{e}: CommitFailedException"))
                }
            }
            Some(Errors::FENCED_INSTANCE_ID) if f.generation == self.generation => {
                self.fail_fatally(ctx, Errors::FENCED_INSTANCE_ID, out);
                return;
            }
            Some(Errors::FENCED_INSTANCE_ID) if self.state == MemberState::PREPARING_REBALANCE => {
                Some("FENCED_INSTANCE_ID for an old generation: RebalanceInProgressException".into())
            }
            Some(Errors::FENCED_INSTANCE_ID) => Some("FENCED_INSTANCE_ID for an old generation: CommitFailedException".into()),
            e => Some(format!("{}: raised to the application", describe(e))),
        };
        match app {
            Some(mode) => self.on_app_commit_answer(ctx, mode, exception, retriable, out),
            None if f.for_join_prepare => {
                let in_time = self.join_prepare_deadline.is_some_and(|d| ctx.now < d);
                if let (Some(text), true, true) = (&exception, retriable, in_time) {
                    // onJoinPrepare keeps retrying a retriable failure until the rebalance timeout.
                    let wait = self.backoff_ms();
                    self.join_prepare_committed = false;
                    self.join_prepare_retry_at = ctx.now + wait;
                    out.set_timer(TimerKey::Backoff, ctx.now + wait);
                    self.commit_note(&format!("onJoinPrepare commit failed: {text}; retrying in {wait} ms"), out);
                    return;
                }
                if let Some(text) = exception {
                    self.commit_note(&format!("onJoinPrepare commit failed: {text}; joining anyway"), out);
                }
                self.drive(ctx, out);
            }
            None => {
                if let Some(text) = exception {
                    self.commit_note(&format!("auto-commit failed: {text}"), out);
                    if retriable {
                        // autoCommitOffsetsAsync: a retriable failure retries after a fixed
                        // retry.backoff.ms (`nextAutoCommitTimer.updateAndReset(retryBackoffMs)`).
                        self.next_auto_commit = ctx.now + self.config.retry_backoff_ms;
                    }
                }
            }
        }
    }

    /// `requestRejoin`: the next `poll()` rejoins.
    fn request_rejoin(&mut self, why: &str, out: &mut Out) {
        if !self.rejoin_needed {
            self.rejoin_needed = true;
            self.commit_note(&format!("{why}: rejoin on next poll()"), out);
        }
    }
}

/// The consumer-protocol client (AsyncKafkaConsumer with CommitRequestManager):
/// the same application behaviour; the coordinator checks the member epoch.
impl AppCommitter for super::async_consumer::AsyncConsumer {
    fn commit_fields(&mut self) -> CommitFields<'_> {
        CommitFields {
            node: NodeId::Client(self.idx),
            config: &self.config,
            main: &mut self.main,
            app_commits: &mut self.app_commits,
            owned: &self.owned,
            positions: &self.positions,
            coordinator: self.link.coordinator,
            fatal: self.fatal.is_some(),
            backoff_attempts: &mut self.link.backoff_attempts,
        }
    }

    fn lookup_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.ensure_coordinator(ctx, out);
    }

    fn send_commit(&mut self, ctx: &Ctx, coordinator: u32, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) -> u64 {
        self.send_offset_commit(ctx, coordinator, offsets, out)
    }

    /// Without a known coordinator the commit fails; the background thread's
    /// next pass looks the coordinator up.
    fn commit_async(&mut self, ctx: &mut Ctx, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) {
        match self.link.coordinator {
            Some(c) => {
                let correlation = self.send_offset_commit(ctx, c, offsets, out);
                self.app_commits.insert(correlation, CommitMode::Async);
            }
            None => self.commit_note("commitAsync() failed: coordinator unknown (RetriableCommitFailedException to the callback)", out),
        }
    }

    fn return_to_poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.enter_poll(ctx, out);
    }
}

impl super::async_consumer::AsyncConsumer {
    /// Whether a failed OffsetCommit is tried again: retriable errors, and a
    /// stale epoch or an unknown member id while the member has an epoch
    /// (`maybeRetryOnGroupError`: the retry carries the latest id and epoch).
    pub(crate) fn commit_retriable(&self, error: Option<Errors>) -> bool {
        let group_error = matches!(error, Some(Errors::STALE_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID));
        is_retriable_commit_error(error) || (group_error && self.member_epoch > 0)
    }

    /// The answer to an application commit (`OffsetCommitRequestState.onResponse`):
    /// what `commit_retriable` allows is retried by commitSync until its
    /// deadline; otherwise a stale epoch, an unknown member id or a fenced
    /// instance is a CommitFailedException.
    pub(crate) fn on_app_commit(&mut self, ctx: &mut Ctx, mode: CommitMode, error: Option<Errors>, out: &mut Out) {
        let retriable = self.commit_retriable(error);
        let exception = match error {
            Some(Errors::NONE) => None,
            _ if retriable => Some(format!("{} (retriable)", describe(error))),
            Some(e @ (Errors::STALE_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID)) => Some(format!("{e}: CommitFailedException")),
            e => Some(format!("{}: raised to the application", describe(e))),
        };
        self.on_app_commit_answer(ctx, mode, exception, retriable, out);
    }
}
