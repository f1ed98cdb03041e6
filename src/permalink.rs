//! Permalinks: the scenario, the faults injected and the playhead, packed into
//! the URL fragment, so a link restores the exact view. Opening a link re-runs
//! the simulation; nothing is fetched.
//!
//! Two forms: `#z=` is the compact JSON compressed with raw deflate, then
//! base64url (the page compresses and inflates with the browser's own
//! `CompressionStream`, so no compressor ships in the wasm); `#run=` is the
//! compact JSON as base64url, written where the browser cannot compress and
//! always readable. This module does everything but the (de)compression.

use crate::player::Player;
use crate::sim::scenario::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use crate::sim::{Fault, Millis, Scenario};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Bumped when the format changes; older links then get a clear message.
pub const VERSION: u32 = 1;
const PREFIX: &str = "run=";
const COMPRESSED: &str = "z=";

/// What a link's fragment carries, once its base64url is undone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packed {
    /// `#run=`: the compact JSON itself.
    Json(Vec<u8>),
    /// `#z=`: the compact JSON compressed with raw deflate (RFC 1951).
    Deflated(Vec<u8>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Permalink {
    pub v: u32,
    pub scenario: Scenario,
    /// Faults injected at the playhead, with their simulated times.
    pub script: Vec<(Millis, Fault)>,
    pub at: Millis,
}

/// Removes from `v` every key whose value equals `default`'s, and nulls.
fn strip(v: &mut Value, default: &Value) {
    if let (Value::Object(m), Value::Object(d)) = (v, default) {
        m.retain(|k, x| !x.is_null() && d.get(k) != Some(x));
    }
}

/// Drops the broker, network and consumer settings a scenario leaves at Kafka's
/// (or the simulator's) defaults, and the group fields at theirs.
fn compact(link: &mut Value) {
    let Some(s) = link.get_mut("scenario") else { return };
    let broker = serde_json::to_value(BrokerConfig::default()).expect("configs serialize");
    let network = serde_json::to_value(NetworkConfig::default()).expect("configs serialize");
    let consumer = serde_json::to_value(ConsumerConfig::default()).expect("configs serialize");
    if let Some(b) = s.get_mut("broker") {
        strip(b, &broker);
    }
    if let Some(n) = s.get_mut("network") {
        strip(n, &network);
    }
    if let Some(Value::Array(groups)) = s.get_mut("groups") {
        for g in groups {
            if let Some(c) = g.get_mut("config") {
                strip(c, &consumer);
            }
            strip(g, &serde_json::json!({ "staticMembers": false, "startStaggerMs": 300 }));
        }
    }
}

impl Permalink {
    pub fn of(player: &Player) -> Permalink {
        Permalink { v: VERSION, scenario: player.scenario.clone(), script: player.script.clone(), at: player.now() }
    }

    /// The JSON a link carries: without the settings left at their defaults
    /// (reading fills them in again).
    pub fn compact_json(&self) -> String {
        let mut v = serde_json::to_value(self).expect("permalinks serialize");
        compact(&mut v);
        serde_json::to_string(&v).expect("values serialize")
    }

    /// The uncompressed URL fragment, without `#`: `run=` and the compact JSON
    /// as base64url.
    pub fn encode(&self) -> String {
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(self.compact_json()))
    }

    /// The compressed URL fragment, without `#`: `z=` and `deflated` (the
    /// compact JSON after raw deflate) as base64url.
    pub fn encode_deflated(deflated: &[u8]) -> String {
        format!("{COMPRESSED}{}", URL_SAFE_NO_PAD.encode(deflated))
    }

    /// Whether a fragment (with or without `#`) holds a link of either form.
    pub fn is_link(fragment: &str) -> bool {
        Self::field(fragment).is_some()
    }

    /// The link's field in a fragment: other parameters (`lang=zh`) may share
    /// it, separated by `&`; a compressed link wins over an uncompressed one.
    fn field(fragment: &str) -> Option<(bool, &str)> {
        let fields = || fragment.trim_start_matches('#').split('&');
        let z = fields().find_map(|kv| kv.strip_prefix(COMPRESSED)).map(|d| (true, d));
        z.or_else(|| fields().find_map(|kv| kv.strip_prefix(PREFIX)).map(|d| (false, d)))
    }

    /// The bytes a fragment carries, still to be inflated for `#z=`; says
    /// what is wrong with a bad one.
    pub fn unpack(fragment: &str) -> Result<Packed, String> {
        let (deflated, data) =
            Self::field(fragment).ok_or("this link does not describe a run (expected #run=... or #z=...)")?;
        let bytes = URL_SAFE_NO_PAD.decode(data).map_err(|e| format!("the link is damaged (base64: {e})"))?;
        Ok(if deflated { Packed::Deflated(bytes) } else { Packed::Json(bytes) })
    }

    /// Reads the JSON a link carries (after inflating a `#z=` link).
    pub fn from_link_json(bytes: &[u8]) -> Result<Permalink, String> {
        let link: Permalink = crate::json::from_bytes(bytes).map_err(|e| format!("the link is damaged ({e})"))?;
        link.checked()
    }

    /// Reads an uncompressed fragment (with or without `#`); says what is
    /// wrong with a bad one. A `#z=` fragment needs inflating first: see
    /// [`Permalink::unpack`].
    pub fn decode(fragment: &str) -> Result<Permalink, String> {
        match Self::unpack(fragment)? {
            Packed::Json(bytes) => Self::from_link_json(&bytes),
            Packed::Deflated(_) => Err("this compressed link (#z=) must be inflated first".into()),
        }
    }

    /// A run exported as JSON (the same fields as a link, readable).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("runs serialize")
    }

    /// Reads an exported run; says what is wrong with a bad file.
    pub fn from_json(text: &str) -> Result<Permalink, String> {
        let link: Permalink = crate::json::from_str_object(text).map_err(|e| format!("not a GroupScope run ({e})"))?;
        link.checked()
    }

    fn checked(self) -> Result<Permalink, String> {
        let link = self;
        if link.v != VERSION {
            return Err(format!("the link is from format version {}, this GroupScope reads version {VERSION}", link.v));
        }
        link.scenario.validate().map_err(|e| crate::json::under("scenario", &e))?;
        crate::sim::fault::check::check_faults(&link.scenario, &link.script, "script")?;
        crate::sim::scenario::limits::check_seek(link.at as f64).map_err(|e| e.replacen("seek", "at", 1))?;
        Ok(link)
    }

    /// A player at the link's playhead, with its faults replayed at their times.
    pub fn restore(&self) -> Result<Player, String> {
        let mut p = Player::new(self.scenario.clone())?;
        p.script = self.script.clone();
        p.seek(self.at);
        Ok(p)
    }
}
