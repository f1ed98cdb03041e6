//! The consumer-protocol client's commits (AsyncKafkaConsumer with
//! CommitRequestManager): its `AppCommitter`, which errors end a commitSync,
//! and which the auto-commit before a rebalance retries.

use crate::assign::TopicPartition;
use crate::sim::client::app_commit::{is_retriable_commit_error, AppCommitter, CommitFields};
use crate::sim::client::consumer::AsyncConsumer;
use crate::sim::commit_exception::CommitException;
use crate::sim::ctx::Ctx;
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::scenario::config::CommitMode;
use crate::sim::types::{Errors, NodeId};

/// The consumer-protocol client (AsyncKafkaConsumer with CommitRequestManager):
/// the same application behaviour; the coordinator checks the member epoch.
impl AppCommitter for AsyncConsumer {
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
            None => self.commit_note(Note::CommitAsyncCoordinatorUnknown, out),
        }
    }

    fn return_to_poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.enter_poll(ctx, out);
    }
}

impl AsyncConsumer {
    /// Whether the auto-commit before a rebalance is tried again after `error`
    /// (CommitRequestManager `autoCommitSyncBeforeRebalanceWithRetries`): a
    /// retriable error but UNKNOWN_TOPIC_OR_PARTITION (a deleted partition would
    /// hold the rebalance), or a stale epoch while the member has a valid one
    /// (`isStaleEpochErrorAndValidEpochAvailable`: the retry carries the latest).
    /// UNKNOWN_MEMBER_ID is not retried.
    pub(crate) fn retries_commit_before_rebalance(&self, error: Option<Errors>) -> bool {
        match error {
            Some(Errors::UNKNOWN_TOPIC_OR_PARTITION) => false,
            Some(Errors::STALE_MEMBER_EPOCH) => self.member_epoch > 0,
            e => is_retriable_commit_error(e),
        }
    }

    /// The answer to an application commit (`OffsetCommitRequestState.onResponse`):
    /// commitSync retries only retriable errors until its deadline
    /// (`commitSyncWithRetries`); UNKNOWN_MEMBER_ID is a CommitFailedException,
    /// and so is a stale epoch for commitSync (`commitSyncExceptionForError`),
    /// while commitAsync's callback gets the StaleMemberEpochException itself.
    pub(crate) fn on_app_commit(&mut self, ctx: &mut Ctx, mode: CommitMode, error: Option<Errors>, out: &mut Out) {
        let retriable = is_retriable_commit_error(error);
        let exception = match error {
            Some(Errors::NONE) => None,
            _ if retriable => Some(CommitException::Retriable(error)),
            Some(e @ Errors::STALE_MEMBER_EPOCH) if mode == CommitMode::Sync => Some(CommitException::Failed(e)),
            Some(e @ (Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID)) => Some(CommitException::Failed(e)),
            e => Some(CommitException::Raised(e)),
        };
        self.on_app_commit_answer(ctx, mode, exception, retriable, out);
    }
}
