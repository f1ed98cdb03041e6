//! A broker: answers FindCoordinator from its metadata cache and hosts the
//! group coordinator for the `__consumer_offsets` partitions it leads.

use crate::sim::coordinator::GroupCoordinator;
use crate::sim::ctx::Ctx;
use crate::sim::message::{Request, Response};
use crate::sim::node::{Handled, Misrouted};
use crate::sim::out::{BrokerTimer, Out, TimerKey};
use crate::sim::types::{Errors, NodeId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broker {
    pub id: u32,
    pub alive: bool,
    pub coordinator: GroupCoordinator,
    /// When the process died: the controller fences it `broker.session.timeout.ms` later.
    #[serde(default)]
    pub down_since: Option<crate::sim::types::Millis>,
    /// Consumers' Fetches waiting for records (`DelayedFetch`).
    #[serde(default)]
    pub purgatory: super::broker_fetch::Purgatory,
    /// Share-partitions this broker leads and its share sessions (KIP-932).
    #[serde(default)]
    pub share: super::share_fetch::SharePartitionManager,
}

impl Broker {
    pub fn new(id: u32) -> Broker {
        Broker {
            id,
            alive: true,
            coordinator: GroupCoordinator::default(),
            down_since: None,
            purgatory: Default::default(),
            share: Default::default(),
        }
    }

    pub fn handle_request(&mut self, ctx: &mut Ctx, from: NodeId, correlation: u64, request: Request, out: &mut Out) {
        match request {
            Request::FindCoordinator { key } => {
                // KafkaApis getCoordinator: the leader of the group's offsets partition,
                // if it is alive; COORDINATOR_NOT_AVAILABLE otherwise.
                // The metadata cache knows no partition of the answer: the response
                // carries only the key, node id, host and port (and an error).
                // A crashed broker is still named until the controller fences it.
                let leader = ctx.cluster.coordinator_for(&key).filter(|l| ctx.cluster.alive.contains(l));
                let error = if key.is_empty() {
                    Errors::INVALID_GROUP_ID
                } else if leader.is_some() {
                    Errors::NONE
                } else {
                    Errors::COORDINATOR_NOT_AVAILABLE
                };
                out.respond(from, correlation, Response::FindCoordinator { error, node_id: leader });
            }
            Request::Fetch(fetch) => {
                super::broker_fetch::handle_fetch(&mut self.purgatory, ctx, self.id, from, correlation, fetch, out)
            }
            Request::ShareFetch(r) => self.share.handle_fetch(ctx, self.id, from, correlation, r, out),
            Request::ShareAcknowledge(r) => self.share.handle_acknowledge(ctx, self.id, from, correlation, r, out),
            other => self.coordinator.handle_request(ctx, from, correlation, other, out),
        }
    }

    /// A broker's own timers and its coordinator's group timers; a client's
    /// or a worker's timer here is misrouted.
    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        match key {
            TimerKey::Broker(BrokerTimer::FetchWait { client, correlation }) => {
                super::broker_fetch::complete_fetch(&mut self.purgatory, ctx, self.id, *client, *correlation, out)
            }
            TimerKey::Broker(BrokerTimer::ShareLock { group_id, partition }) => {
                self.share.lock_timeout(ctx, self.id, group_id, partition, out)
            }
            TimerKey::Broker(BrokerTimer::ShareFetchWait { client, correlation }) => {
                self.share.complete_fetch(ctx, self.id, *client, *correlation, out)
            }
            TimerKey::Broker(BrokerTimer::Load { partition }) => self.coordinator.finish_load(ctx, *partition, out),
            TimerKey::Group(g) => self.coordinator.handle_group_timer(ctx, g, out),
            TimerKey::Client(_) | TimerKey::Connect(_) => return Err(Misrouted::timer(key)),
        }
        Ok(())
    }

    /// The process dies: everything in memory is gone (the logs are replicated).
    pub fn crash(&mut self, now: crate::sim::types::Millis) {
        self.alive = false;
        self.down_since = Some(now);
        self.coordinator = GroupCoordinator::default();
        self.purgatory.clear();
        self.share.clear();
    }
}

/// A broker takes requests and its own and its coordinator's timers.
impl crate::sim::node::Node for Broker {
    fn on_request(
        &mut self,
        ctx: &mut Ctx,
        from: NodeId,
        correlation: u64,
        request: Request,
        out: &mut Out,
    ) -> Handled {
        self.handle_request(ctx, from, correlation, request, out);
        Ok(())
    }

    fn on_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        self.handle_timer(ctx, key, out)
    }
}
