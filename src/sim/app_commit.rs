//! Offset commits and how a classic consumer reacts to their answers: the
//! simulated application's own `commitSync()` / `commitAsync()` after each
//! batch (`simulated.commit.mode`), and ConsumerCoordinator's
//! `OffsetCommitResponseHandler` for every commit path (facts B11, F).

use super::config::CommitMode;
use super::consumer::{ClassicConsumer, InFlight, MainThread, MemberState};
use super::ctx::Ctx;
use super::out::{Out, TimerKey};
use super::trace::EventKind;
use super::types::Errors;
use crate::assign::TopicPartition;

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

impl ClassicConsumer {
    /// `sendOffsetCommitRequest` for a subscribed consumer: only a member of a
    /// stable generation sends (`generationIfStable`); otherwise the commit fails
    /// at once, with RebalanceInProgressException while a rebalance is running
    /// (`rebalanceInProgress`) and CommitFailedException otherwise.
    pub(crate) fn commit_refused_locally(&self) -> Option<&'static str> {
        match self.state {
            MemberState::STABLE => None,
            MemberState::PREPARING_REBALANCE | MemberState::COMPLETING_REBALANCE => Some("RebalanceInProgressException"),
            MemberState::UNJOINED => Some("CommitFailedException"),
        }
    }

    /// The application finished a batch: commit as `simulated.commit.mode` says.
    /// True when it is now blocked in `commitSync()`.
    pub(crate) fn commit_after_batch(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        if self.positions.is_empty() {
            return false;
        }
        let offsets: Vec<(TopicPartition, i64)> = self.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        match self.config.commit_mode {
            CommitMode::None => false,
            CommitMode::Async => {
                self.commit_async(ctx, offsets, out);
                false
            }
            CommitMode::Sync => {
                let deadline = ctx.now + self.config.default_api_timeout_ms;
                self.main = MainThread::CommitSync { offsets, deadline, retry_at: ctx.now };
                self.continue_commit_sync(ctx, out);
                true
            }
        }
    }

    /// `commitAsync()`: sent once, never retried; a failure goes to the callback.
    fn commit_async(&mut self, ctx: &mut Ctx, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) {
        let Some(coordinator) = self.coordinator else {
            self.app_commit_note("commitAsync() failed: coordinator unknown (RetriableCommitFailedException to the callback)", out);
            self.ensure_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            self.app_commit_note(&format!("commitAsync() failed: {e}, the member is not in a stable generation"), out);
            return;
        }
        let correlation = self.send_offset_commit(ctx, coordinator, offsets, false, out);
        self.app_commits.insert(correlation, CommitMode::Async);
    }

    /// One pass of `commitOffsetsSync`'s loop: find the coordinator, send, or
    /// give up when `default.api.timeout.ms` has passed.
    pub(crate) fn continue_commit_sync(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let MainThread::CommitSync { offsets, deadline, retry_at } = &self.main else { return };
        if self.app_commits.values().any(|m| *m == CommitMode::Sync) {
            return;
        }
        if ctx.now < *retry_at {
            // Another wake-up (a FindCoordinator backoff) may have replaced this one.
            out.set_timer(TimerKey::Backoff, *retry_at);
            return;
        }
        if ctx.now >= *deadline {
            let text = format!("TimeoutException: not committed within default.api.timeout.ms = {} ms", self.config.default_api_timeout_ms);
            return self.finish_commit_sync(ctx, Some(text), out);
        }
        // A retry leaves out partitions the member lost meanwhile.
        let offsets: Vec<(TopicPartition, i64)> = offsets.iter().filter(|(tp, _)| self.owned.contains(tp)).cloned().collect();
        if offsets.is_empty() {
            return self.finish_commit_sync(ctx, Some("CommitFailedException, the member no longer owns these partitions".into()), out);
        }
        let Some(coordinator) = self.coordinator else {
            self.ensure_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            return self.finish_commit_sync(ctx, Some(format!("{e}, the member is not in a stable generation")), out);
        }
        let correlation = self.send_offset_commit(ctx, coordinator, offsets, false, out);
        self.app_commits.insert(correlation, CommitMode::Sync);
    }

    /// `commitSync()` returns (or throws; the simulated application logs the
    /// exception and polls again).
    fn finish_commit_sync(&mut self, ctx: &mut Ctx, failure: Option<String>, out: &mut Out) {
        if let Some(text) = failure {
            self.app_commit_note(&format!("commitSync() failed: {text}; the application logs it and polls again"), out);
        }
        self.enter_poll(ctx, out);
    }

    fn app_commit_note(&self, text: &str, out: &mut Out) {
        out.emit(EventKind::Note { node: self.node(), text: text.into() });
    }

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
            Some(CommitMode::Sync) => self.after_commit_sync_attempt(ctx, exception, retriable, out),
            Some(CommitMode::Async) => {
                if let Some(text) = exception {
                    let text = if retriable { format!("RetriableCommitFailedException ({text})") } else { text };
                    self.app_commit_note(&format!("commitAsync() failed: {text}; passed to the callback, not retried"), out);
                }
            }
            Some(CommitMode::None) => {}
            None if f.for_join_prepare => {
                let in_time = self.join_prepare_deadline.is_some_and(|d| ctx.now < d);
                if let (Some(text), true, true) = (&exception, retriable, in_time) {
                    // onJoinPrepare keeps retrying a retriable failure until the rebalance timeout.
                    let wait = self.backoff_ms();
                    self.join_prepare_committed = false;
                    self.join_prepare_retry_at = ctx.now + wait;
                    out.set_timer(TimerKey::Backoff, ctx.now + wait);
                    self.app_commit_note(&format!("onJoinPrepare commit failed: {text}; retrying in {wait} ms"), out);
                    return;
                }
                if let Some(text) = exception {
                    self.app_commit_note(&format!("onJoinPrepare commit failed: {text}; joining anyway"), out);
                }
                self.drive(ctx, out);
            }
            None => {
                if let Some(text) = exception {
                    self.app_commit_note(&format!("auto-commit failed: {text}"), out);
                    if retriable {
                        // autoCommitOffsetsAsync: a retriable failure retries after retry.backoff.ms.
                        let wait = self.backoff_ms();
                        self.next_auto_commit = ctx.now + wait;
                    }
                }
            }
        }
    }

    fn after_commit_sync_attempt(&mut self, ctx: &mut Ctx, exception: Option<String>, retriable: bool, out: &mut Out) {
        if !matches!(self.main, MainThread::CommitSync { .. }) || self.fatal.is_some() {
            return;
        }
        match exception {
            None => self.finish_commit_sync(ctx, None, out),
            Some(text) if retriable => {
                let wait = self.backoff_ms();
                if let MainThread::CommitSync { retry_at, .. } = &mut self.main {
                    *retry_at = ctx.now + wait;
                }
                out.set_timer(TimerKey::Backoff, ctx.now + wait);
                self.app_commit_note(&format!("commitSync(): {text}, retrying in {wait} ms"), out);
            }
            Some(text) => self.finish_commit_sync(ctx, Some(text), out),
        }
    }

    /// `requestRejoin`: the next `poll()` rejoins.
    fn request_rejoin(&mut self, why: &str, out: &mut Out) {
        if !self.rejoin_needed {
            self.rejoin_needed = true;
            self.app_commit_note(&format!("{why}: rejoin on next poll()"), out);
        }
    }
}

/// The consumer-protocol client (AsyncKafkaConsumer with CommitRequestManager):
/// the same application behaviour; the coordinator checks the member epoch.
impl super::async_consumer::AsyncConsumer {
    pub(crate) fn commit_after_batch(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        if self.positions.is_empty() {
            return false;
        }
        let offsets: Vec<(TopicPartition, i64)> = self.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        match self.config.commit_mode {
            CommitMode::None => false,
            CommitMode::Async => {
                match self.link.coordinator {
                    Some(c) => {
                        let correlation = self.send_offset_commit(ctx, c, offsets, out);
                        self.app_commits.insert(correlation, CommitMode::Async);
                    }
                    None => self.note("commitAsync() failed: coordinator unknown (RetriableCommitFailedException to the callback)", out),
                }
                false
            }
            CommitMode::Sync => {
                let deadline = ctx.now + self.config.default_api_timeout_ms;
                self.main = MainThread::CommitSync { offsets, deadline, retry_at: ctx.now };
                self.continue_commit_sync(ctx, out);
                true
            }
        }
    }

    /// `commitSyncWithRetries`: send, or give up after `default.api.timeout.ms`.
    pub(crate) fn continue_commit_sync(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let MainThread::CommitSync { offsets, deadline, retry_at } = &self.main else { return };
        if self.app_commits.values().any(|m| *m == CommitMode::Sync) {
            return;
        }
        if ctx.now < *retry_at {
            // Another wake-up (a FindCoordinator backoff) may have replaced this one.
            out.set_timer(TimerKey::Backoff, *retry_at);
            return;
        }
        if ctx.now >= *deadline {
            let text = format!("TimeoutException: not committed within default.api.timeout.ms = {} ms", self.config.default_api_timeout_ms);
            return self.finish_commit_sync(ctx, Some(text), out);
        }
        // A retry leaves out partitions the member lost meanwhile.
        let offsets: Vec<(TopicPartition, i64)> = offsets.iter().filter(|(tp, _)| self.owned.contains(tp)).cloned().collect();
        if offsets.is_empty() {
            return self.finish_commit_sync(ctx, Some("CommitFailedException, the member no longer owns these partitions".into()), out);
        }
        let Some(coordinator) = self.link.coordinator else {
            self.ensure_coordinator(ctx, out);
            return;
        };
        let correlation = self.send_offset_commit(ctx, coordinator, offsets, out);
        self.app_commits.insert(correlation, CommitMode::Sync);
    }

    fn finish_commit_sync(&mut self, ctx: &mut Ctx, failure: Option<String>, out: &mut Out) {
        if let Some(text) = failure {
            self.note(&format!("commitSync() failed: {text}; the application logs it and polls again"), out);
        }
        self.enter_poll(ctx, out);
    }

    fn note(&self, text: &str, out: &mut Out) {
        out.emit(EventKind::Note { node: self.node(), text: text.into() });
    }

    /// The answer to an application commit (`OffsetCommitRequestState.onResponse`):
    /// retriable errors are retried by commitSync until its deadline; a stale
    /// epoch, an unknown member or a fenced instance is a CommitFailedException.
    pub(crate) fn on_app_commit(&mut self, ctx: &mut Ctx, mode: CommitMode, error: Option<Errors>, out: &mut Out) {
        let retriable = is_retriable_commit_error(error);
        let exception = match error {
            Some(Errors::NONE) => None,
            _ if retriable => Some(format!("{} (retriable)", describe(error))),
            Some(e @ (Errors::STALE_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID)) => Some(format!("{e}: CommitFailedException")),
            e => Some(format!("{}: raised to the application", describe(e))),
        };
        if mode == CommitMode::Async {
            if let Some(text) = exception {
                let text = if retriable { format!("RetriableCommitFailedException ({text})") } else { text };
                self.note(&format!("commitAsync() failed: {text}; passed to the callback, not retried"), out);
            }
            return;
        }
        if !matches!(self.main, MainThread::CommitSync { .. }) || self.fatal.is_some() {
            return;
        }
        match exception {
            None => self.finish_commit_sync(ctx, None, out),
            Some(text) if retriable => {
                let wait = super::poll_loop::backoff_ms(&self.config, &mut self.link.backoff_attempts);
                if let MainThread::CommitSync { retry_at, .. } = &mut self.main {
                    *retry_at = ctx.now + wait;
                }
                out.set_timer(TimerKey::Backoff, ctx.now + wait);
                self.note(&format!("commitSync(): {text}, retrying in {wait} ms"), out);
            }
            Some(text) => self.finish_commit_sync(ctx, Some(text), out),
        }
    }
}
