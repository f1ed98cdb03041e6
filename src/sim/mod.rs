//! The simulation core: deterministic, with no web dependency.
//!
//! - `world/`: the discrete-event loop that owns every node, the clock, the
//!   network and liveness; faults are applied here.
//! - `cluster/`: brokers, topics, partition leadership under KRaft, and the
//!   `__consumer_offsets` logs, and the share-partitions (KIP-932) on their leaders.
//! - `coordinator/`: the group coordinator on a broker (one `Shard` per
//!   `__consumer_offsets` partition): `classic/` groups, `consumer/` groups (KIP-848) and `share/` groups (KIP-932).
//! - `client/`: the consumers: `classic/` (ClassicKafkaConsumer) and `consumer/`
//!   (AsyncKafkaConsumer, KIP-848) and `share/` (KafkaShareConsumer), with what they share (AbstractCoordinator's
//!   membership, the poll loop, the application's commits).
//! - `connect/`: Kafka Connect workers (WorkerCoordinator, DistributedHerder).
//! - `scenario/`: what a run is made of (brokers, topics, groups, configs) and its validation.
//! - `fault/`: the faults a user injects, and checking them against a run.
//! - `invariants/`: the safety properties checked after every step.
//! - `node`: the one interface every node kind implements for its inputs.
//! - The primitives every node uses: `types`, `message` (the wire protocol),
//!   `out` (a handler's effects), `ctx`, `network`, `connections`, `trace`.

pub mod client;
pub mod cluster;
pub mod commit_exception;
pub mod connect;
pub mod connections;
pub mod coordinator;
pub mod ctx;
pub mod fault;
pub mod invariants;
pub mod label;
pub mod machines;
pub mod message;
pub mod message_label;
pub mod network;
pub mod node;
pub mod note;
pub mod out;
pub mod reason;
pub mod scenario;
pub mod share_label;
pub mod share_message;
pub mod share_note;
pub mod state_machine;
pub mod streams_label;
pub mod streams_message;
pub mod streams_note;
pub mod trace;
pub mod trigger;
pub mod types;
pub mod world;

pub use fault::Fault;
pub use scenario::Scenario;
pub use types::{Errors, Millis, NodeId};
pub use world::World;
