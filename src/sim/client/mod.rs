//! The consumer clients. `classic/` is the classic protocol's consumer
//! (ClassicKafkaConsumer with ConsumerCoordinator); `consumer/` is the consumer
//! protocol's (AsyncKafkaConsumer with its membership manager, KIP-848).
//! Shared: AbstractCoordinator's fields and join/sync/heartbeat loop
//! (`abstract_coordinator`, also implemented by Connect workers), the application's poll loop (`poll_loop`),
//! its commits (`app_commit`), `close()` options (`close_options`) and finding
//! the coordinator (`coordinator_lookup`, also used by Connect workers).

pub mod abstract_coordinator;
pub(crate) mod app_commit;
pub mod classic;
pub mod close_options;
pub mod consumer;
pub(crate) mod coordinator_lookup;
pub mod fetcher;
pub mod member_transition;
pub mod poll_loop;
pub mod share;
pub mod streams;
