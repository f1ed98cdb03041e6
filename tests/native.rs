//! The native integration tests, one module a file, in one test binary (one
//! link of the library instead of one per file). `cargo test --test native
//! soak::` runs one file's tests; `tests/fuzz.rs` and the wasm `tests/web.rs`
//! are binaries of their own.
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod assign_streams_ha;
mod assign_streams_sticky;
mod assignor_props;
mod classic_kafka44;
mod classic_protocol;
mod close_options;
mod compare;
mod compare_share;
mod connect;
mod consumer_protocol;
mod determinism;
mod docs_commands;
mod docs_drift;
mod explain;
mod explain_corpus;
mod explain_page;
mod explain_pat;
mod explain_spacetime;
mod explain_streams;
mod fetch;
mod glossary;
mod lessons;
mod member_states;
mod narration;
mod narration_page;
mod network_faults;
mod offset_commits;
mod offsets_compaction;
mod one_group_per_id;
mod ownership_invariant;
mod page_state;
mod permalink;
mod player;
mod retry_backoffs;
mod robustness;
mod seek;
mod share_assignor;
mod share_groups;
mod small_sort;
mod soak;
mod state_machines;
mod streams_groups;
mod ui_model;
mod vectors;
mod view;
