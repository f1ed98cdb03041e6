//! The simulation core: deterministic, with no web dependency.

pub mod async_consumer;
mod async_consumer_heartbeat;
pub mod broker;
pub mod classic_group;
mod classic_join;
mod classic_sync;
pub mod cluster;
pub mod config;
pub mod connect_config;
mod connect_herder;
pub mod connect_worker;
mod connect_worker_responses;
pub mod consumer;
mod consumer_responses;
pub mod consumer_group;
mod consumer_group_invariants;
pub mod consumer_group_heartbeat;
pub mod consumer_group_records;
pub mod coordinator;
pub mod current_assignment_builder;
pub mod ctx;
pub mod fault;
pub mod invariants;
pub mod message;
pub mod network;
pub mod out;
mod poll_loop;
pub mod scenario;
pub mod target_assignment;
pub mod trace;
pub mod types;
pub mod world;

pub use fault::Fault;
pub use scenario::Scenario;
pub use types::{Errors, Millis, NodeId};
pub use world::World;
