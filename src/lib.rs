//! GroupScope: a deterministic simulation of Apache Kafka's consumer-group
//! protocols, and the browser UI that animates it.
//!
//! `sim` (the core), `assign` (partition assignors), `player`, `view`,
//! `narrate` and `page` (the page's state and its update function) have no
//! web dependency and are tested natively; `web` is the yew front end, which
//! draws `page`'s state, compiled for wasm32 only.

pub mod assign;
pub mod compare;
pub mod config_form;
pub mod connect;
pub mod diagram;
pub mod examples;
pub mod explain;
pub mod fault_words;
pub mod fidelity;
pub mod i18n;
pub mod inspect;
pub mod java;
pub mod json;
pub mod lesson;
pub mod lint;
pub mod narrate;
pub mod narrate_share_zh;
pub mod narrate_streams_zh;
pub mod narrate_zh;
pub mod page;
pub mod permalink;
pub mod player;
pub mod sim;
pub mod small_sort;
pub mod spacetime;
pub mod view;
pub mod zh_fill;

#[cfg(target_arch = "wasm32")]
pub mod web;
