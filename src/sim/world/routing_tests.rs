//! The routing invariant (`sim::node::Node`): an input delivered to a node
//! kind that does not take it is reported, never dropped silently.

use super::World;
use crate::sim::invariants;
use crate::sim::message::{Body, Request, Response};
use crate::sim::trace::EventKind;
use crate::sim::types::{Errors, NodeId};
use crate::sim::Scenario;

fn routing_violations(world: &World) -> Vec<String> {
    invariants::check(world).into_iter().filter(|v| v.invariant == super::ROUTING).map(|v| v.detail).collect()
}

#[test]
fn a_request_delivered_to_a_client_breaks_the_routing_invariant() {
    let mut world = World::new(Scenario::demo()).expect("the demo scenario is valid");
    world.run_until(10);
    assert!(routing_violations(&world).is_empty(), "a normal run routes every input");
    let request = Request::FindCoordinator { key: "demo".into() };
    world.transmit(NodeId::Client(2), NodeId::Client(1), Body::Request { correlation: 99, request }, None);
    world.run_until(250);
    assert_eq!(routing_violations(&world), vec!["c1 does not take a request (FindCoordinator)".to_string()]);
    let recorded = world
        .trace
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::InvariantViolated { invariant, .. } if invariant == super::ROUTING));
    assert_eq!(recorded.count(), 1, "the trace shows it once");
}

#[test]
fn a_response_delivered_to_a_broker_breaks_the_routing_invariant() {
    let mut world = World::new(Scenario::demo()).expect("the demo scenario is valid");
    let response = Response::Heartbeat { error: Errors::NONE };
    world.transmit(NodeId::Client(1), NodeId::Broker(0), Body::Response { correlation: 5, response }, None);
    world.run_until(250);
    assert_eq!(routing_violations(&world), vec!["broker-0 does not take a response (Heartbeat)".to_string()]);
}
