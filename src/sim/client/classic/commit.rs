//! The classic consumer's commits (ConsumerCoordinator): its `AppCommitter`
//! (the simulated application's commitSync/commitAsync) and the
//! `OffsetCommitResponseHandler` for every commit path.

use crate::assign::TopicPartition;
use crate::sim::client::abstract_coordinator::{AbstractCoordinator, InFlight, MemberState};
use crate::sim::client::app_commit::{is_retriable_commit_error, AppCommitter, CommitFields};
use crate::sim::client::classic::ClassicConsumer;
use crate::sim::commit_exception::CommitException;
use crate::sim::commit_exception::LocalRefusal;
use crate::sim::ctx::Ctx;
use crate::sim::message::ApiKey;
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry};
use crate::sim::reason::ClientReason;
use crate::sim::scenario::config::CommitMode;
use crate::sim::types::{Errors, NodeId};

impl AppCommitter for ClassicConsumer {
    fn commit_fields(&mut self) -> CommitFields<'_> {
        CommitFields {
            node: NodeId::Client(self.idx),
            config: &self.config,
            main: &mut self.main,
            app_commits: &mut self.app_commits,
            owned: &self.owned,
            positions: &self.positions,
            coordinator: self.membership.coordinator,
            fatal: self.fatal.is_some(),
            backoff_attempts: &mut self.membership.backoff_attempts,
        }
    }

    /// `sendOffsetCommitRequest` for a subscribed consumer: only a member of a
    /// stable generation sends (`generationIfStable`); otherwise the commit fails
    /// at once, with RebalanceInProgressException while a rebalance is running
    /// (`rebalanceInProgress`) and CommitFailedException otherwise.
    fn commit_refused_locally(&self) -> Option<LocalRefusal> {
        match self.membership.state {
            MemberState::STABLE => None,
            MemberState::PREPARING_REBALANCE | MemberState::COMPLETING_REBALANCE => {
                Some(LocalRefusal::RebalanceInProgress)
            }
            MemberState::UNJOINED => Some(LocalRefusal::CommitFailed),
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
        let Some(coordinator) = self.membership.coordinator else {
            self.commit_note(Note::CommitAsyncCoordinatorUnknown, out);
            self.ensure_coordinator(ctx, out);
            return;
        };
        if let Some(e) = self.commit_refused_locally() {
            self.commit_note(Note::CommitAsyncNotStable { exception: e }, out);
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
    pub(crate) fn on_offset_commit(
        &mut self,
        ctx: &mut Ctx,
        correlation: u64,
        error: Option<Errors>,
        f: &InFlight,
        out: &mut Out,
    ) {
        let app = self.app_commits.remove(&correlation);
        if error == Some(Errors::REQUEST_TIMED_OUT) {
            let why = ClientReason::Answered { api: ApiKey::OffsetCommit, error: Errors::REQUEST_TIMED_OUT };
            self.mark_coordinator_unknown(ctx, why, out);
        }
        let retriable = is_retriable_commit_error(error);
        let exception: Option<CommitException> = match error {
            Some(Errors::NONE) => None,
            _ if retriable => Some(CommitException::Retriable(error)),
            Some(Errors::REBALANCE_IN_PROGRESS) => {
                let why = ClientReason::Answered { api: ApiKey::OffsetCommit, error: Errors::REBALANCE_IN_PROGRESS };
                self.request_rejoin(why, out);
                Some(CommitException::RejoinRequested)
            }
            Some(e @ (Errors::UNKNOWN_MEMBER_ID | Errors::ILLEGAL_GENERATION)) => {
                if f.generation != self.membership.generation
                    && self.membership.state == MemberState::PREPARING_REBALANCE
                {
                    Some(CommitException::AlreadyRejoining(e))
                } else {
                    let why = ClientReason::Response { api: ApiKey::OffsetCommit, error: e };
                    self.reset_generation(ctx, e == Errors::ILLEGAL_GENERATION, why, out);
                    Some(CommitException::Failed(e))
                }
            }
            Some(Errors::FENCED_INSTANCE_ID) if f.generation == self.membership.generation => {
                self.fail_fatally(ctx, Errors::FENCED_INSTANCE_ID, out);
                return;
            }
            Some(Errors::FENCED_INSTANCE_ID) if self.membership.state == MemberState::PREPARING_REBALANCE => {
                Some(CommitException::FencedOldGeneration { rejoining: true })
            }
            Some(Errors::FENCED_INSTANCE_ID) => Some(CommitException::FencedOldGeneration { rejoining: false }),
            e => Some(CommitException::Raised(e)),
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
                    out.set_timer(ClientTimer::Backoff(Retry::JoinPrepareCommit), ctx.now + wait);
                    self.commit_note(Note::JoinPrepareCommitRetry { exception: text.clone(), wait_ms: wait }, out);
                    return;
                }
                if let Some(text) = exception {
                    self.commit_note(Note::JoinPrepareCommitFailed { exception: text }, out);
                }
                self.drive(ctx, out);
            }
            None => {
                if let Some(text) = exception {
                    self.commit_note(Note::AutoCommitFailed { exception: text }, out);
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
    fn request_rejoin(&mut self, why: ClientReason, out: &mut Out) {
        if !self.membership.rejoin_needed {
            self.membership.rejoin_needed = true;
            self.commit_note(Note::RejoinOnNextPoll { why }, out);
        }
    }
}
