//! The read-only member view every reader outside the simulation uses —
//! the page's drawing, the inspector, narration, lessons, Side by side and
//! the command-line tools — whatever the member's protocol. One `match` over
//! the client kinds builds it here, so a reader never forgets a kind (a
//! drawing that listed classic consumers and missed KIP-848 ones was this
//! bug). A group seen from outside is `GroupView`, built from whichever map
//! of its coordinator's shard holds it.

use super::{Client, Process, World};
use crate::assign::TopicPartition;
use crate::sim::client::classic::ClassicConsumer;
use crate::sim::client::consumer::AsyncConsumer;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::client::share::ShareConsumer;
use crate::sim::client::streams::StreamsThread;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::state_machine::StateMachine;
use crate::sim::types::Millis;

pub use crate::sim::coordinator::group::GroupType;

/// The client behind a member, for the few panels that show what only one
/// kind has (a worker's connectors and tasks, a KIP-848 member's target).
#[derive(Clone, Copy, Debug)]
pub enum MemberKind<'a> {
    /// `group.protocol=classic` (ClassicKafkaConsumer).
    Classic(&'a ClassicConsumer),
    /// `group.protocol=consumer` (AsyncKafkaConsumer, KIP-848).
    Consumer(&'a AsyncConsumer),
    /// A Kafka Connect worker (WorkerGroupMember).
    Worker(&'a ConnectWorker),
    /// A share consumer (KafkaShareConsumer, KIP-932).
    Share(&'a ShareConsumer),
    /// A Kafka Streams stream thread (KIP-1071 streams group).
    Streams(&'a StreamsThread),
}

/// One member as readers see it.
#[derive(Clone, Debug)]
pub struct Member<'a> {
    pub idx: u32,
    pub alive: bool,
    pub group_id: &'a str,
    pub group_type: GroupType,
    /// Empty until the coordinator gave it one.
    pub member_id: &'a str,
    /// The client's `MemberState`, as Kafka names it.
    pub state: String,
    /// The generation (classic, Connect) or the member epoch (KIP-848).
    pub generation: i32,
    /// The classic group's leader, which runs the assignor (never a KIP-848 member).
    pub leader: bool,
    /// `group.instance.id` of a static member.
    pub static_id: Option<&'a str>,
    /// The subscription (a Connect worker has none).
    pub topics: &'a [String],
    /// Partitions the client owns (a Connect worker owns connectors and tasks instead).
    pub owned: &'a [TopicPartition],
    /// The application thread: polling, or processing the last batch.
    pub main: Option<&'a MainThread>,
    /// When the application last called `poll()` (a consumer's).
    pub last_poll: Millis,
    /// `max.poll.interval.ms` (a consumer's).
    pub max_poll_interval_ms: Option<Millis>,
    /// The member has not left the group for `max.poll.interval.ms`: a
    /// classic consumer that did reset its member id
    /// (`AbstractCoordinator.maybeLeaveGroup`), a KIP-848 one marked its poll
    /// timer expired (`AsyncKafkaConsumer`'s `pollTimer`).
    pub in_poll_interval: bool,
    /// The member's own `session.timeout.ms` (classic and Connect; a KIP-848
    /// member's is the broker's `group.consumer.session.timeout.ms`).
    pub session_timeout_ms: Option<Millis>,
    /// The heartbeat interval the member uses now.
    pub heartbeat_interval_ms: Millis,
    /// The error raised to the application, which stopped the member.
    pub fatal: Option<&'a str>,
    pub kind: MemberKind<'a>,
}

impl Member<'_> {
    /// The application is processing the records the last `poll()` returned.
    pub fn processing(&self) -> bool {
        matches!(self.main, Some(MainThread::Processing { .. }))
    }

    /// A consumer of either protocol (not a Connect worker).
    pub fn is_consumer(&self) -> bool {
        !matches!(self.kind, MemberKind::Worker(_))
    }

    /// The member fetches `tp`: it has a position for it and (KIP-848) it is
    /// not pending revocation (`markPendingRevocationToPauseFetching`).
    pub fn fetches(&self, tp: &TopicPartition) -> bool {
        match self.kind {
            MemberKind::Classic(c) => c.positions.contains_key(tp),
            MemberKind::Consumer(c) => c.positions.contains_key(tp) && !c.pending_revocation.contains(tp),
            MemberKind::Share(c) => c.assignment.contains(tp),
            MemberKind::Streams(c) => c.owned_partitions.contains(tp),
            MemberKind::Worker(_) => false,
        }
    }
}

impl Process {
    /// This process as a member, whatever its kind.
    pub fn member(&self, idx: u32) -> Member<'_> {
        let alive = self.alive;
        match &self.client {
            Client::Classic(c) => Member {
                idx,
                alive,
                group_id: &c.group_id,
                group_type: GroupType::Classic,
                member_id: &c.membership.member_id,
                state: format!("{:?}", c.membership.state),
                generation: c.membership.generation,
                leader: c.is_leader(),
                static_id: c.config.group_instance_id.as_deref(),
                topics: &c.config.topics,
                owned: &c.owned,
                main: Some(&c.main),
                last_poll: c.last_poll,
                max_poll_interval_ms: Some(c.config.max_poll_interval_ms),
                in_poll_interval: !c.membership.member_id.is_empty(),
                session_timeout_ms: Some(c.config.session_timeout_ms),
                heartbeat_interval_ms: c.config.heartbeat_interval_ms,
                fatal: c.fatal.as_deref(),
                kind: MemberKind::Classic(c),
            },
            Client::Consumer(c) => Member {
                idx,
                alive,
                group_id: &c.group_id,
                group_type: GroupType::Consumer,
                member_id: &c.member_id,
                state: format!("{:?}", c.state),
                generation: c.member_epoch,
                leader: false,
                static_id: c.config.group_instance_id.as_deref(),
                topics: &c.config.topics,
                owned: &c.owned,
                main: Some(&c.main),
                last_poll: c.last_poll,
                max_poll_interval_ms: Some(c.config.max_poll_interval_ms),
                in_poll_interval: !c.poll_timer_expired,
                session_timeout_ms: None,
                heartbeat_interval_ms: c.heartbeat_interval_ms,
                fatal: c.fatal.as_deref(),
                kind: MemberKind::Consumer(c),
            },
            Client::Share(c) => Member {
                idx,
                alive,
                group_id: &c.group_id,
                group_type: GroupType::Share,
                member_id: &c.member_id,
                state: format!("{:?}", c.state),
                generation: c.member_epoch,
                leader: false,
                static_id: None,
                topics: &c.topics,
                owned: &c.assignment,
                main: Some(&c.main),
                last_poll: c.last_poll,
                max_poll_interval_ms: None,
                in_poll_interval: true,
                session_timeout_ms: None,
                heartbeat_interval_ms: c.heartbeat_interval_ms,
                fatal: c.fatal.as_deref(),
                kind: MemberKind::Share(c),
            },
            Client::Streams(c) => Member {
                idx,
                alive,
                group_id: &c.group_id,
                group_type: if c.is_classic() { GroupType::Classic } else { GroupType::Streams },
                member_id: if c.is_classic() { &c.membership.member_id } else { &c.member_id },
                state: if c.is_classic() { format!("{:?}", c.membership.state) } else { format!("{:?}", c.state) },
                generation: if c.is_classic() { c.membership.generation } else { c.member_epoch },
                leader: c.is_classic() && c.membership.is_leader(),
                static_id: c.config.group_instance_id.as_deref(),
                topics: &[],
                owned: &c.owned_partitions,
                main: None,
                last_poll: c.last_poll,
                max_poll_interval_ms: Some(c.config.max_poll_interval_ms),
                in_poll_interval: true,
                session_timeout_ms: c.is_classic().then_some(c.config.session_timeout_ms),
                heartbeat_interval_ms: if c.is_classic() {
                    c.config.heartbeat_interval_ms
                } else {
                    c.heartbeat_interval_ms
                },
                fatal: c.fatal.as_deref(),
                kind: MemberKind::Streams(c),
            },
            Client::Worker(w) => Member {
                idx,
                alive,
                group_id: &w.group_id,
                group_type: GroupType::Classic,
                member_id: &w.membership.member_id,
                state: format!("{:?}", w.membership.state),
                generation: w.membership.generation,
                leader: w.is_leader(),
                static_id: None,
                topics: &[],
                owned: &[],
                main: None,
                last_poll: 0,
                max_poll_interval_ms: None,
                in_poll_interval: false,
                session_timeout_ms: Some(w.config.session_timeout_ms),
                heartbeat_interval_ms: w.config.heartbeat_interval_ms,
                fatal: w.fatal.as_deref(),
                kind: MemberKind::Worker(w),
            },
        }
    }
}

/// A group as its active coordinator holds it, whatever its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupView {
    pub group_id: String,
    pub group_type: GroupType,
    /// The broker whose coordinator holds it.
    pub coordinator: u32,
    /// `ClassicGroupState` or `ConsumerGroupState`, as Kafka names it.
    pub state: &'static str,
    /// The generation (classic) or the group epoch (KIP-848).
    pub epoch: i32,
    pub members: usize,
    /// The classic group's leader (no KIP-848 group has one).
    pub leader: Option<String>,
}

impl World {
    /// Every member, in client order (the order they are drawn in).
    pub fn members(&self) -> impl Iterator<Item = Member<'_>> + '_ {
        self.clients.iter().map(|(idx, p)| p.member(idx))
    }

    /// Client `idx` as a member, if it exists.
    pub fn member(&self, idx: u32) -> Option<Member<'_>> {
        self.clients.get(idx).map(|p| p.member(idx))
    }

    /// The members of `group_id`, in client order.
    pub fn members_of<'a>(&'a self, group_id: &'a str) -> impl Iterator<Item = Member<'a>> + 'a {
        self.members().filter(move |m| m.group_id == group_id)
    }

    /// The group as its active coordinator holds it, if one does.
    pub fn group_view(&self, group_id: &str) -> Option<GroupView> {
        if let Some((b, g)) = self.streams_group(group_id) {
            return Some(GroupView {
                group_id: group_id.to_string(),
                group_type: GroupType::Streams,
                coordinator: b,
                state: crate::sim::state_machine::StateMachine::name(g.state),
                epoch: g.group_epoch,
                members: g.members.len(),
                leader: None,
            });
        }
        if let Some((b, g)) = self.share_group(group_id) {
            return Some(GroupView {
                group_id: group_id.to_string(),
                group_type: GroupType::Share,
                coordinator: b,
                state: crate::sim::state_machine::StateMachine::name(g.state),
                epoch: g.group_epoch,
                members: g.members.len(),
                leader: None,
            });
        }
        if let Some((b, g)) = self.consumer_group(group_id) {
            return Some(GroupView {
                group_id: group_id.to_string(),
                group_type: GroupType::Consumer,
                coordinator: b,
                state: g.state.name(),
                epoch: g.group_epoch,
                members: g.members.len(),
                leader: None,
            });
        }
        let (b, g) = self.group(group_id)?;
        Some(GroupView {
            group_id: group_id.to_string(),
            group_type: GroupType::Classic,
            coordinator: b,
            state: g.state.name(),
            epoch: g.generation_id,
            members: g.members.len(),
            leader: g.leader_id.clone(),
        })
    }
}
