//! Finding the group coordinator, one way for every client: the classic
//! consumer and the Connect worker (AbstractCoordinator `lookupCoordinator`,
//! `FindCoordinatorResponseHandler`) and the consumer protocol's background
//! thread (CoordinatorRequestManager `makeFindCoordinatorRequest`,
//! `onResponse`). A FindCoordinator goes to the least loaded node; the answer
//! names the coordinator by node id only (Key, NodeId, Host, Port, ErrorCode).

use crate::sim::connections::Connections;
use crate::sim::ctx::Ctx;
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::trace::EventKind;
use crate::sim::types::{Millis, NodeId};

/// Where the next FindCoordinator goes, from the broker after the last one
/// asked (`cursor`, moved past the one chosen): with `connections`, the next
/// broker not in reconnect backoff (`NetworkClient.leastLoadedNode`; `Err`: all
/// are, until then); without (the Connect worker here), the next in turn.
pub(crate) fn next_broker(connections: Option<&Connections>, cursor: &mut u32, ctx: &Ctx) -> Result<u32, Millis> {
    let brokers = ctx.cluster.broker_count;
    let broker = match connections {
        Some(c) => c.least_loaded(brokers, *cursor, ctx.now)?,
        None => *cursor % brokers.max(1),
    };
    *cursor = broker + 1;
    Ok(broker)
}

/// A FindCoordinator answered with a node: it is the coordinator from now on.
pub(crate) fn found(coordinator: &mut Option<u32>, me: NodeId, group_id: &str, broker: u32, out: &mut Out) {
    *coordinator = Some(broker);
    let note = Note::CoordinatorFound { group_id: group_id.to_string(), broker };
    out.emit(EventKind::Note { node: me, note });
}
