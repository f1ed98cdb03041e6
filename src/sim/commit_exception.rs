//! What an offset commit fails with, as the application (its callback, the
//! `commitSync()` caller, the auto-commit log) sees it: data inside the commit
//! notes. English from `Display` (what the trace records), Chinese from
//! `crate::narrate_zh::commit_exception`.

use crate::sim::types::{Errors, Millis};
use std::fmt;

/// The exception a commit refused before it is sent raises
/// (ConsumerCoordinator `sendOffsetCommitRequest`, `generationIfStable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalRefusal {
    /// A rebalance is running (`rebalanceInProgress`).
    RebalanceInProgress,
    /// The member is in no generation.
    CommitFailed,
}

impl fmt::Display for LocalRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalRefusal::RebalanceInProgress => "RebalanceInProgressException",
            LocalRefusal::CommitFailed => "CommitFailedException",
        })
    }
}

/// Why a commit failed (`OffsetCommitResponseHandler`, CommitRequestManager
/// `OffsetCommitRequestState.onResponse`, `commitSync`'s timer). `None` for
/// an error: the request got no answer (the connection broke).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitException {
    /// A retriable error (`RetriableCommitFailedException`'s cause).
    Retriable(Option<Errors>),
    /// REBALANCE_IN_PROGRESS: `requestRejoin`, then RebalanceInProgressException.
    RejoinRequested,
    /// A stale generation while the member already rejoins.
    AlreadyRejoining(Errors),
    /// `error`, then CommitFailedException.
    Failed(Errors),
    /// FENCED_INSTANCE_ID for an old generation: RebalanceInProgressException
    /// while rejoining (`rejoining`), CommitFailedException otherwise.
    FencedOldGeneration { rejoining: bool },
    /// A non-retriable error the application gets as it is.
    Raised(Option<Errors>),
    /// `commitSync`'s timer ran out (TimeoutException).
    TimedOut { default_api_timeout_ms: Millis },
    /// A retry of `commitSync` found none of its partitions still owned.
    NoLongerOwned,
    /// Refused before it was sent.
    NotStable(LocalRefusal),
    /// What a `commitAsync()` callback receives for a retriable failure.
    RetriableCommitFailed(Box<CommitException>),
}

/// `error`, or "the connection broke" for no answer.
struct ErrorOrBroken(Option<Errors>);

impl fmt::Display for ErrorOrBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(e) => write!(f, "{e}"),
            None => f.write_str("the connection broke"),
        }
    }
}

impl fmt::Display for CommitException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CommitException::*;
        match self {
            Retriable(e) => write!(f, "{} (retriable)", ErrorOrBroken(*e)),
            RejoinRequested => f.write_str("REBALANCE_IN_PROGRESS: RebalanceInProgressException, rejoin requested"),
            AlreadyRejoining(e) => write!(f, "{e}: RebalanceInProgressException, the member already rejoins"),
            Failed(e) => write!(f, "{e}: CommitFailedException"),
            FencedOldGeneration { rejoining: true } => {
                f.write_str("FENCED_INSTANCE_ID for an old generation: RebalanceInProgressException")
            }
            FencedOldGeneration { rejoining: false } => {
                f.write_str("FENCED_INSTANCE_ID for an old generation: CommitFailedException")
            }
            Raised(e) => write!(f, "{}: raised to the application", ErrorOrBroken(*e)),
            TimedOut { default_api_timeout_ms } => {
                write!(f, "TimeoutException: not committed within default.api.timeout.ms = {default_api_timeout_ms} ms")
            }
            NoLongerOwned => f.write_str("CommitFailedException, the member no longer owns these partitions"),
            NotStable(r) => write!(f, "{r}, the member is not in a stable generation"),
            RetriableCommitFailed(inner) => write!(f, "RetriableCommitFailedException ({inner})"),
        }
    }
}
