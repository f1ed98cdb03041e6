//! The one interface every node kind implements — a broker, a classic
//! consumer (`ClassicKafkaConsumer`), a KIP-848 consumer (`AsyncKafkaConsumer`),
//! a Connect worker (`WorkerGroupMember`), and the kinds to come — for each of
//! its inputs: its start, a request, a response, a broken connection under a
//! request, a timer, and the loss of every connection to a broker. The world
//! (`world/mod.rs`) routes every input through it, in one place.
//!
//! An input a node kind does not take (a request delivered to a client, a
//! response to a broker, another role's timer) is not dropped silently: the
//! default methods return it as `Misrouted`, and the world records it as a
//! violation of the routing invariant.

use crate::sim::ctx::Ctx;
use crate::sim::message::{Request, Response};
use crate::sim::out::{Out, TimerKey};
use crate::sim::types::NodeId;

/// An input that reached a node kind that does not take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misrouted {
    /// What it was, in words: "a request (JoinGroup)", "a start", ...
    pub input: String,
}

impl Misrouted {
    fn of(input: impl Into<String>) -> Misrouted {
        Misrouted { input: input.into() }
    }

    /// A timer of another role than the node's.
    pub fn timer(key: &TimerKey) -> Misrouted {
        Misrouted::of(format!("the timer '{}'", key.describe()))
    }
}

/// Whether the node took the input.
pub type Handled = Result<(), Misrouted>;

/// A node's handlers. Each has a default that refuses the input, so a node
/// kind implements only the inputs of its role: a broker takes requests and
/// its timers; a client takes its start, responses, disconnects, its timers
/// and lost connections.
pub trait Node {
    /// The process starts (a client's first `poll()` or its herder's first tick).
    fn on_start(&mut self, _ctx: &mut Ctx, _out: &mut Out) -> Handled {
        Err(Misrouted::of("a start"))
    }

    /// Request `correlation` from `from`.
    fn on_request(
        &mut self,
        _ctx: &mut Ctx,
        _from: NodeId,
        _correlation: u64,
        request: Request,
        _out: &mut Out,
    ) -> Handled {
        Err(Misrouted::of(format!("a request ({})", request.api())))
    }

    /// The answer to this node's request `correlation`.
    fn on_response(&mut self, _ctx: &mut Ctx, _correlation: u64, response: Response, _out: &mut Out) -> Handled {
        Err(Misrouted::of(format!("a response ({})", response.api())))
    }

    /// The connection broke under this node's request `correlation` (the peer is down).
    fn on_disconnect(&mut self, _ctx: &mut Ctx, _correlation: u64, _out: &mut Out) -> Handled {
        Err(Misrouted::of("a disconnect"))
    }

    /// One of this node's timers fired.
    fn on_timer(&mut self, _ctx: &mut Ctx, key: &TimerKey, _out: &mut Out) -> Handled {
        Err(Misrouted::timer(key))
    }

    /// Every connection to `broker` broke (it crashed): its requests in flight fail.
    fn on_connection_lost(&mut self, _ctx: &mut Ctx, broker: u32, _out: &mut Out) -> Handled {
        Err(Misrouted::of(format!("the loss of broker-{broker}")))
    }
}

/// A client kind's `Node`: it takes its start, the answers to its requests,
/// broken connections under them, its timers and lost connections, through
/// its own `start`, `handle_response`, `handle_disconnect`, `handle_timer` and
/// `connection_lost`.
macro_rules! client_node {
    ($kind:ty) => {
        impl $crate::sim::node::Node for $kind {
            fn on_start(
                &mut self,
                ctx: &mut $crate::sim::ctx::Ctx,
                out: &mut $crate::sim::out::Out,
            ) -> $crate::sim::node::Handled {
                self.start(ctx, out);
                Ok(())
            }

            fn on_response(
                &mut self,
                ctx: &mut $crate::sim::ctx::Ctx,
                correlation: u64,
                response: $crate::sim::message::Response,
                out: &mut $crate::sim::out::Out,
            ) -> $crate::sim::node::Handled {
                self.handle_response(ctx, correlation, response, out);
                Ok(())
            }

            fn on_disconnect(
                &mut self,
                ctx: &mut $crate::sim::ctx::Ctx,
                correlation: u64,
                out: &mut $crate::sim::out::Out,
            ) -> $crate::sim::node::Handled {
                self.handle_disconnect(ctx, correlation, out);
                Ok(())
            }

            fn on_timer(
                &mut self,
                ctx: &mut $crate::sim::ctx::Ctx,
                key: &$crate::sim::out::TimerKey,
                out: &mut $crate::sim::out::Out,
            ) -> $crate::sim::node::Handled {
                self.handle_timer(ctx, key, out)
            }

            fn on_connection_lost(
                &mut self,
                ctx: &mut $crate::sim::ctx::Ctx,
                broker: u32,
                out: &mut $crate::sim::out::Out,
            ) -> $crate::sim::node::Handled {
                self.connection_lost(ctx, broker, out);
                Ok(())
            }
        }
    };
}
pub(crate) use client_node;
