//! The simulation core: deterministic, with no web dependency.

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
pub mod coordinator;
pub mod ctx;
pub mod fault;
pub mod invariants;
pub mod message;
pub mod network;
pub mod out;
pub mod scenario;
pub mod trace;
pub mod types;
pub mod world;

pub use fault::Fault;
pub use scenario::Scenario;
pub use types::{Errors, Millis, NodeId};
pub use world::World;
