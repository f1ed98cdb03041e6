//! Kafka Connect's distributed herder group, the pure part: the Connect
//! protocol (metadata, assignments, `connect.protocol` modes) and the two
//! assignors the group leader runs (EagerAssignor, IncrementalCooperativeAssignor). The worker node that rides the
//! classic group protocol is `sim::connect_worker`.

pub mod eager_assignor;
pub mod incremental_assignor;
pub mod protocol;

pub use protocol::{
    ConfigSnapshot, ConnectAssignment, ConnectProtocolCompatibility, ConnectProtocolMetadata, ConnectorTaskId,
    ConnectorsAndTasks,
};
