//! Permalinks: the scenario, the faults injected and the playhead, packed into
//! the URL fragment as base64url JSON (`#run=...`), so a link restores the
//! exact view. Opening a link re-runs the simulation; nothing is fetched.

use crate::player::Player;
use crate::sim::{Fault, Millis, Scenario};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use crate::sim::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Bumped when the format changes; older links then get a clear message.
pub const VERSION: u32 = 1;
const PREFIX: &str = "run=";

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

    /// The URL fragment, without `#`: the JSON without the settings left at
    /// their defaults (reading fills them in again), as base64url.
    pub fn encode(&self) -> String {
        let mut v = serde_json::to_value(self).expect("permalinks serialize");
        compact(&mut v);
        let json = serde_json::to_string(&v).expect("values serialize");
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(json))
    }

    /// Reads a fragment (with or without `#`); says what is wrong with a bad one.
    pub fn decode(fragment: &str) -> Result<Permalink, String> {
        let body = fragment.trim_start_matches('#');
        // Other parameters (`lang=zh`) may share the fragment, separated by `&`.
        let data = body
            .split('&')
            .find_map(|kv| kv.strip_prefix(PREFIX))
            .ok_or("this link does not describe a run (expected #run=...)")?;
        let bytes = URL_SAFE_NO_PAD.decode(data).map_err(|e| format!("the link is damaged (base64: {e})"))?;
        let link: Permalink = crate::json::from_bytes(&bytes).map_err(|e| format!("the link is damaged ({e})"))?;
        link.checked()
    }

    /// A run exported as JSON (the same fields as a link, readable).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("runs serialize")
    }

    /// Reads an exported run; says what is wrong with a bad file.
    pub fn from_json(text: &str) -> Result<Permalink, String> {
        let link: Permalink = serde_json::from_str(text).map_err(|e| format!("not a GroupScope run ({e})"))?;
        link.checked()
    }

    fn checked(self) -> Result<Permalink, String> {
        let link = self;
        if link.v != VERSION {
            return Err(format!("the link is from format version {}, this GroupScope reads version {VERSION}", link.v));
        }
        link.scenario.validate()?;
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
