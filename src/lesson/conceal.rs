//! What the page hides while a question waits: a question declares the
//! items that would give its answer away ([`Secret`]), the validator checks
//! they name groups of the lesson, and the drawing asks [`Concealed::hides`]
//! before it draws a coordinator label, a leader's star, a partition's owner
//! or a revoking/pending mark. The page passes the set down to the drawing
//! (`page::Run::concealed`, from `LessonSession::concealed`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One thing the drawing can hide, for one group: `{"owners": {"group": "demo"}}`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Secret {
    /// Which broker coordinates the group: the broker's "coordinator of"
    /// label and the group panel's `abs(hashCode) % partitions` line.
    Coordinator { group: String },
    /// Which member leads the classic group: the star and the panel's "leader".
    Leader { group: String },
    /// Who owns the group's partitions: owner cells, each consumer's partitions.
    Owners { group: String },
    /// Where the group's partitions are heading: the revoking and pending marks
    /// (in a KIP-848 group they show the target assignment).
    Status { group: String },
}

/// The kinds of [`Secret`], for the drawing's questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Coordinator,
    Leader,
    Owners,
    Status,
}

impl Secret {
    pub fn group(&self) -> &str {
        match self {
            Secret::Coordinator { group }
            | Secret::Leader { group }
            | Secret::Owners { group }
            | Secret::Status { group } => group,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Secret::Coordinator { .. } => Kind::Coordinator,
            Secret::Leader { .. } => Kind::Leader,
            Secret::Owners { .. } => Kind::Owners,
            Secret::Status { .. } => Kind::Status,
        }
    }
}

/// The secrets hidden now (empty: nothing is hidden).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Concealed(pub BTreeSet<Secret>);

impl Concealed {
    pub fn hides(&self, kind: Kind, group: &str) -> bool {
        self.0.iter().any(|s| s.kind() == kind && s.group() == group)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
