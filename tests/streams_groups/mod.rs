//! Streams groups (KIP-1071): the learner scenarios of facts-share-streams.md
//! §5 (streams groups 1–9) run whole from their shipped examples, each
//! checked against the fact sheet's numbers with every invariant checked
//! after every step, and the coordinator's request validation.

mod classic;
mod page;
mod scenarios;
mod soak_fixes;
mod validation;
