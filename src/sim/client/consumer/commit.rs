//! The consumer-protocol client's commits (AsyncKafkaConsumer with
//! CommitRequestManager): its `AppCommitter` and the retry of a commit on a
//! stale epoch (`maybeRetryOnGroupError`).

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
            _ if retriable => Some(CommitException::Retriable(error)),
            Some(e @ (Errors::STALE_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID)) => {
                Some(CommitException::Failed(e))
            }
            e => Some(CommitException::Raised(e)),
        };
        self.on_app_commit_answer(ctx, mode, exception, retriable, out);
    }
}
