//! A group as one `__consumer_offsets` partition's coordinator holds it,
//! whatever its type: Kafka's `Group` interface (`coordinator/group/Group.java`)
//! with its `GroupType`, and `GroupMetadataManager`'s one `groups` map, keyed by
//! group id, in which an id names one group of one type. Each type's data and
//! rules stay in its own folder (`classic/`, `consumer/`, `share/`); this file holds what
//! every type answers (`GroupKind`) and the one enum that lists the types.
//!
//! Adding a group type: a folder beside `classic/`, `consumer/` and `share/` whose group
//! implements `GroupKind`, one arm in `Group` and `GroupType`, and the
//! requests it answers in `coordinator/mod.rs` (docs/architecture.md).

use crate::sim::coordinator::classic::ClassicGroup;
use crate::sim::coordinator::consumer::ConsumerGroup;
use crate::sim::coordinator::share::ShareGroup;
use crate::sim::coordinator::streams::StreamsGroup;
use crate::sim::state_machine::StateName;
use serde::{Deserialize, Serialize};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// Kafka's `Group.GroupType` of a group (a Connect cluster's group is a
/// classic group whose protocol type is `connect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GroupType {
    Classic,
    Consumer,
    Share,
    Streams,
}

impl GroupType {
    /// `GroupType.toString()`, as `kafka-consumer-groups.sh --describe` prints it.
    pub fn name(self) -> &'static str {
        match self {
            GroupType::Classic => "classic",
            GroupType::Consumer => "consumer",
            GroupType::Share => "share",
            GroupType::Streams => "streams",
        }
    }
}

/// What every group type answers (Kafka's `Group` interface: `type()`,
/// `groupId()`, `stateAsString()`, `isEmpty()`).
pub trait GroupKind {
    const TYPE: GroupType;
    fn group_id(&self) -> &str;
    /// The group's state, as Kafka names it.
    fn state_name(&self) -> StateName;
    /// No members (a group that only holds committed offsets is empty).
    fn is_empty(&self) -> bool;
}

/// `GroupKind` for a group type whose struct keeps its id (`group_id`), its
/// state (`state`, a `StateMachine`) and its members by id (`members`).
macro_rules! group_kind {
    ($group:ty, $type:expr) => {
        impl GroupKind for $group {
            const TYPE: GroupType = $type;
            fn group_id(&self) -> &str {
                &self.group_id
            }
            fn state_name(&self) -> StateName {
                StateName::of(self.state)
            }
            fn is_empty(&self) -> bool {
                self.members.is_empty()
            }
        }
    };
}

group_kind!(ClassicGroup, GroupType::Classic);
group_kind!(ConsumerGroup, GroupType::Consumer);
group_kind!(ShareGroup, GroupType::Share);
group_kind!(StreamsGroup, GroupType::Streams);

/// One group of the shard's map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Group {
    Classic(ClassicGroup),
    Consumer(ConsumerGroup),
    Share(ShareGroup),
    Streams(StreamsGroup),
}

impl Group {
    pub fn group_type(&self) -> GroupType {
        match self {
            Group::Classic(_) => ClassicGroup::TYPE,
            Group::Consumer(_) => ConsumerGroup::TYPE,
            Group::Share(_) => ShareGroup::TYPE,
            Group::Streams(_) => StreamsGroup::TYPE,
        }
    }

    pub fn group_id(&self) -> &str {
        match self {
            Group::Classic(g) => g.group_id(),
            Group::Consumer(g) => g.group_id(),
            Group::Share(g) => g.group_id(),
            Group::Streams(g) => g.group_id(),
        }
    }

    pub fn state_name(&self) -> StateName {
        match self {
            Group::Classic(g) => g.state_name(),
            Group::Consumer(g) => g.state_name(),
            Group::Share(g) => g.state_name(),
            Group::Streams(g) => g.state_name(),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Group::Classic(g) => GroupKind::is_empty(g),
            Group::Consumer(g) => GroupKind::is_empty(g),
            Group::Share(g) => GroupKind::is_empty(g),
            Group::Streams(g) => GroupKind::is_empty(g),
        }
    }

    pub fn as_classic(&self) -> Option<&ClassicGroup> {
        match self {
            Group::Classic(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_classic_mut(&mut self) -> Option<&mut ClassicGroup> {
        match self {
            Group::Classic(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_consumer(&self) -> Option<&ConsumerGroup> {
        match self {
            Group::Consumer(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_consumer_mut(&mut self) -> Option<&mut ConsumerGroup> {
        match self {
            Group::Consumer(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_share(&self) -> Option<&ShareGroup> {
        match self {
            Group::Share(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_share_mut(&mut self) -> Option<&mut ShareGroup> {
        match self {
            Group::Share(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_streams(&self) -> Option<&StreamsGroup> {
        match self {
            Group::Streams(g) => Some(g),
            _ => None,
        }
    }

    pub fn as_streams_mut(&mut self) -> Option<&mut StreamsGroup> {
        match self {
            Group::Streams(g) => Some(g),
            _ => None,
        }
    }
}

/// The shard's groups: `GroupMetadataManager.groups`, one group per id.
pub type Groups = BTreeMap<String, Group>;

/// The consumer group `group_id`, created if the id is free. An empty classic
/// group of that id gives way to it (`getOrMaybeCreateConsumerGroup`,
/// `maybeDeleteEmptyClassicGroup`; its tombstones are not modelled, so a
/// replay reaches the same end: the consumer group's records come after the
/// classic group's). Callers refuse a classic group with members first.
pub fn consumer_entry<'a>(groups: &'a mut Groups, group_id: &str) -> &'a mut ConsumerGroup {
    let fresh = || Group::Consumer(ConsumerGroup::new(group_id));
    let g = match groups.entry(group_id.to_string()) {
        Entry::Vacant(e) => e.insert(fresh()),
        Entry::Occupied(e) => {
            let g = e.into_mut();
            if g.as_consumer().is_none() {
                *g = fresh();
            }
            g
        }
    };
    g.as_consumer_mut().expect("a consumer group was just put there")
}
