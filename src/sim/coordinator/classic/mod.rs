//! A classic group as the coordinator holds it (`ClassicGroup`, `ClassicGroupMember`,
//! `ClassicGroupState`). Pure data plus the small rules Kafka keeps on the group;
//! the request handlers live in `join.rs`, `sync.rs`, `heartbeat.rs` and
//! `offset_commit.rs`, the rules they share in `members.rs` and `transition.rs`.

pub(crate) mod errors;
pub(crate) mod heartbeat;
pub(crate) mod join;
pub(crate) mod members;
pub(crate) mod offset_commit;
pub(crate) mod sync;
pub(crate) mod transition;

use crate::assign::TopicPartition;
use crate::java;
use crate::sim::message::{JoinProtocol, ProtocolMetadata};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `ClassicGroupState`.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ClassicGroupState {
    Empty,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
}

impl crate::sim::state_machine::StateMachine for ClassicGroupState {
    const MACHINE: &'static str = "ClassicGroupState";
    crate::sim::state_machine::states!(ClassicGroupState: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead);

    /// Kafka's valid-previous-state table (ClassicGroupState L100-106).
    fn valid_previous_states(self) -> &'static [ClassicGroupState] {
        use ClassicGroupState::*;
        match self {
            Empty => &[PreparingRebalance],
            PreparingRebalance => &[Stable, CompletingRebalance, Empty],
            CompletingRebalance => &[PreparingRebalance],
            Stable => &[CompletingRebalance],
            Dead => &[Empty, PreparingRebalance, CompletingRebalance, Stable, Dead],
        }
    }
}

/// Where a member's request is parked until the join or sync phase completes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parked {
    pub client: crate::sim::types::NodeId,
    pub correlation: u64,
}

/// `ClassicGroupMember`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicGroupMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub session_timeout_ms: Millis,
    pub rebalance_timeout_ms: Millis,
    pub protocols: Vec<JoinProtocol>,
    pub assignment: Vec<TopicPartition>,
    /// Protocol type "connect": the assignment the leader gave this worker.
    #[serde(default)]
    pub connect_assignment: Option<crate::connect::ConnectAssignment>,
    /// Classic Kafka Streams rebalancing: the `AssignmentInfo` the leader gave this thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams_assignment: Option<crate::sim::streams_message::StreamsAssignmentInfo>,
    pub awaiting_join: Option<Parked>,
    pub awaiting_sync: Option<Parked>,
    /// Added in the current join phase and not yet through a join completion.
    pub is_new: bool,
}

impl ClassicGroupMember {
    /// `vote`: the first of the candidates in this member's preference order.
    pub fn vote(&self, candidates: &BTreeSet<String>) -> Option<String> {
        self.protocols.iter().map(|p| p.name.clone()).find(|n| candidates.contains(n))
    }

    pub fn metadata(&self, protocol: &str) -> Option<&ProtocolMetadata> {
        self.protocols.iter().find(|p| p.name == protocol).map(|p| &p.metadata)
    }

    /// `hasSatisfiedHeartbeat`: parked members count as alive unless new.
    pub fn has_satisfied_heartbeat(&self) -> bool {
        !self.is_new && (self.awaiting_join.is_some() || self.awaiting_sync.is_some())
    }
}

/// The initial-rebalance delay chain (KIP-134, GroupMetadataManager `tryCompleteInitialRebalanceElseSchedule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitialDelay {
    pub delay_ms: Millis,
    pub remaining_ms: Millis,
}

/// `ClassicGroup`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicGroup {
    pub group_id: String,
    pub state: ClassicGroupState,
    pub previous_state: Option<ClassicGroupState>,
    pub generation_id: i32,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub leader_id: Option<String>,
    pub members: BTreeMap<String, ClassicGroupMember>,
    /// Member ids in insertion order, to reproduce `HashMap` iteration order.
    pub insertion_order: Vec<String>,
    /// The largest size the members map ever had (a HashMap never shrinks).
    pub max_members_seen: usize,
    /// Ids handed out with MEMBER_ID_REQUIRED and not yet joined (KIP-394).
    pub pending_members: BTreeSet<String>,
    pub pending_sync: BTreeSet<String>,
    /// group.instance.id -> current member id.
    pub static_members: BTreeMap<String, String>,
    pub new_member_added: bool,
    pub initial_delay: Option<InitialDelay>,
}

impl ClassicGroup {
    pub fn new(group_id: &str) -> ClassicGroup {
        ClassicGroup {
            group_id: group_id.to_string(),
            state: ClassicGroupState::Empty,
            previous_state: None,
            generation_id: 0,
            protocol_type: None,
            protocol_name: None,
            leader_id: None,
            members: BTreeMap::new(),
            insertion_order: Vec::new(),
            max_members_seen: 0,
            pending_members: BTreeSet::new(),
            pending_sync: BTreeSet::new(),
            static_members: BTreeMap::new(),
            new_member_added: false,
            initial_delay: None,
        }
    }

    pub fn is(&self, s: ClassicGroupState) -> bool {
        self.state == s
    }

    /// Member ids in `java.util.HashMap` iteration order.
    pub fn members_in_hash_order(&self) -> Vec<String> {
        let cap = java::default_hash_map_capacity(self.max_members_seen);
        java::hashmap_order(self.insertion_order.iter().map(String::as_str), Some(cap))
    }

    /// `add`: the first member ever added to a leaderless group leads it.
    pub fn add(&mut self, member: ClassicGroupMember) {
        if self.leader_id.is_none() {
            self.leader_id = Some(member.member_id.clone());
        }
        if let Some(inst) = &member.group_instance_id {
            self.static_members.insert(inst.clone(), member.member_id.clone());
        }
        self.insertion_order.push(member.member_id.clone());
        self.members.insert(member.member_id.clone(), member);
        self.max_members_seen = self.max_members_seen.max(self.members.len());
    }

    /// `remove`: a removed leader is replaced by the first key in HashMap order.
    pub fn remove(&mut self, member_id: &str) -> Option<ClassicGroupMember> {
        let m = self.members.remove(member_id)?;
        self.insertion_order.retain(|id| id != member_id);
        self.pending_sync.remove(member_id);
        if let Some(inst) = &m.group_instance_id {
            if self.static_members.get(inst).map(String::as_str) == Some(member_id) {
                self.static_members.remove(inst);
            }
        }
        if self.leader_id.as_deref() == Some(member_id) {
            self.leader_id = self.members_in_hash_order().into_iter().next();
        }
        Some(m)
    }

    pub fn num_awaiting_join(&self) -> usize {
        self.members.values().filter(|m| m.awaiting_join.is_some()).count()
    }

    /// `hasAllMembersJoined`.
    pub fn has_all_members_joined(&self) -> bool {
        self.members.len() == self.num_awaiting_join() && self.pending_members.is_empty()
    }

    /// The group's rebalance timeout: the maximum over its members.
    pub fn rebalance_timeout_ms(&self) -> Millis {
        self.members.values().map(|m| m.rebalance_timeout_ms).max().unwrap_or(0)
    }

    /// Protocol names every member supports.
    pub fn candidate_protocols(&self) -> BTreeSet<String> {
        let mut it = self.members.values();
        let Some(first) = it.next() else { return BTreeSet::new() };
        let mut set: BTreeSet<String> = first.protocols.iter().map(|p| p.name.clone()).collect();
        for m in it {
            let names: BTreeSet<String> = m.protocols.iter().map(|p| p.name.clone()).collect();
            set = set.intersection(&names).cloned().collect();
        }
        set
    }

    /// `supportsProtocols`: a joining member must share a protocol with everyone.
    pub fn supports_protocols(&self, protocol_type: &str, protocols: &[JoinProtocol]) -> bool {
        if self.members.is_empty() {
            return !protocol_type.is_empty() && !protocols.is_empty();
        }
        let candidates = self.candidate_protocols();
        self.protocol_type.as_deref() == Some(protocol_type) && protocols.iter().any(|p| candidates.contains(&p.name))
    }

    /// `selectProtocol`: each member votes for its first candidate; most votes
    /// wins, ties going to the first in HashMap order of protocol names.
    pub fn select_protocol(&self) -> Option<String> {
        let candidates = self.candidate_protocols();
        let mut votes: BTreeMap<String, usize> = BTreeMap::new();
        let mut first_seen: Vec<String> = Vec::new();
        for id in self.members_in_hash_order() {
            if let Some(v) = self.members[&id].vote(&candidates) {
                if !votes.contains_key(&v) {
                    first_seen.push(v.clone());
                }
                *votes.entry(v).or_insert(0) += 1;
            }
        }
        let mut best: Option<(String, usize)> = None;
        for name in java::member_map_order(first_seen.iter().map(String::as_str)) {
            let n = votes[&name];
            if best.as_ref().is_none_or(|(_, b)| n > *b) {
                best = Some((name, n));
            }
        }
        best.map(|(n, _)| n)
    }
}
