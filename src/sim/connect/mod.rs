//! Kafka Connect workers in the simulation: a worker's group membership
//! (WorkerCoordinator over AbstractCoordinator) and its herder
//! (DistributedHerder: connectors and tasks, scheduled rebalances, REST
//! restarts). The Connect assignors and protocol are in `crate::connect`.

pub(crate) mod herder;
pub mod worker;
pub(crate) mod worker_responses;
