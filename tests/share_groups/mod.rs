//! Share groups (KIP-932): the share-partition state machine
//! (`SharePartition`, `InFlightState`), the coordinator's ShareGroupHeartbeat
//! (`GroupMetadataManager.shareGroupHeartbeat`), and the learner scenarios of
//! facts-share-streams.md §5 run whole, each checked against the fact sheet's
//! numbers.

mod coordinator;
mod fetch;
mod scenarios;
mod share_partition;
mod summary;
