//! Side-by-side protocol comparison (issue 5): one base scenario and its fault
//! script, run under two to four variants (a JSON merge-patch of every group's
//! config, group fields and broker configs), synchronised in simulated time,
//! with metrics computed after every step.
//!
//! `ownership.rs` is the only place that reads who owns and processes which
//! partition, whether the group is Stable and when a rebalance begins;
//! `metrics.rs` defines the metrics; `run.rs` runs the variants (all at once or
//! step by step for the page); `table.rs` prints them.

pub mod clock;
pub mod metrics;
pub mod order;
pub mod ownership;
pub mod patch;
pub mod resume;
pub mod run;
pub mod share_variant;
pub mod table;
pub mod this_run;

pub use metrics::{Metrics, Observer};
pub use run::{run, RunResult, SideBySide};

use crate::sim::{Millis, Scenario};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Fewest and most variants a comparison holds (the page shows them side by side).
pub const MIN_VARIANTS: usize = 2;
pub const MAX_VARIANTS: usize = 4;
/// Longest variant name (a column of the metrics table).
pub const MAX_VARIANT_NAME_LEN: usize = 100;

/// One protocol configuration. Each patch is a JSON merge-patch (RFC 7386).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    /// Applied to every group's `config`, e.g. `{"partition.assignment.strategy": ["cooperative-sticky"]}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Value>,
    /// Applied to every group object, e.g. `{"staticMembers": true}` (not `groupId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Value>,
    /// Applied to the scenario's `broker` configs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<Value>,
    /// `"share"`: the compared group runs as a share group (KIP-932) with the
    /// same id, consumers, topics and fault script (`share_variant.rs`);
    /// `"consumer"` (the default) leaves it a consumer group.
    #[serde(default, rename = "groupType", skip_serializing_if = "Option::is_none")]
    pub group_type: Option<VariantGroupType>,
    /// With `groupType: share`: applied to the share group object after the
    /// conversion, e.g. `{"config": {"share.record.lock.duration.ms": 15000}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<Value>,
}

/// What kind of group a variant runs the compared group as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VariantGroupType {
    /// A consumer group (classic or KIP-848, as its `group.protocol` says).
    Consumer,
    /// A share group (KIP-932): `shareGroups` in the scenario.
    Share,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    #[serde(default)]
    pub name: String,
    /// The group whose metrics are compared (default: the scenario's first group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// How long to run when the caller does not say (ms of simulated time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Millis>,
    /// The base scenario, with the fault script every variant runs.
    pub scenario: Scenario,
    pub variants: Vec<Variant>,
}

impl Comparison {
    pub fn from_json(text: &str) -> Result<Comparison, String> {
        let c: Comparison = crate::json::from_str_object(text).map_err(|e| format!("comparison JSON: {e}"))?;
        c.validate()?;
        Ok(c)
    }

    /// The compared group's id.
    pub fn group_id(&self) -> Result<String, String> {
        match &self.group {
            Some(g) if self.scenario.groups.iter().any(|s| &s.group_id == g) => Ok(g.clone()),
            Some(g) => Err(format!("group: the scenario has no group '{g}'")),
            None => self
                .scenario
                .groups
                .first()
                .map(|g| g.group_id.clone())
                .ok_or_else(|| "scenario.groups: a comparison needs a consumer group".into()),
        }
    }

    /// Checks the base scenario, the variants' names and every patched scenario.
    pub fn validate(&self) -> Result<(), String> {
        self.scenario.validate().map_err(|e| crate::json::under("scenario", &e))?;
        if self.name.chars().count() > 200 {
            return Err(format!("name: {} characters; at most 200", self.name.chars().count()));
        }
        if let Some(until) = self.until {
            crate::sim::scenario::limits::in_range(
                "until",
                until,
                0,
                crate::sim::scenario::limits::MAX_RUN_MS,
                "a simulated day",
            )?;
        }
        self.group_id()?;
        let n = self.variants.len();
        if !(MIN_VARIANTS..=MAX_VARIANTS).contains(&n) {
            return Err(format!("variants: {n} given; a comparison runs {MIN_VARIANTS} to {MAX_VARIANTS}"));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, v) in self.variants.iter().enumerate() {
            if v.name.trim().is_empty() {
                return Err(format!("variants[{i}].name: every variant needs a name"));
            }
            crate::sim::scenario::limits::name(&format!("variants[{i}].name"), &v.name, MAX_VARIANT_NAME_LEN)?;
            if !names.insert(v.name.as_str()) {
                return Err(format!("variants[{i}].name: the name '{}' is used twice", v.name));
            }
            if v.share.is_some() && v.group_type != Some(VariantGroupType::Share) {
                return Err(format!(
                    "variants[{i}].share: variant '{}': share patches the share group, so it needs \"groupType\": \"share\"",
                    v.name
                ));
            }
            for (field, patch) in
                [("config", &v.config), ("group", &v.group), ("broker", &v.broker), ("share", &v.share)]
            {
                if patch.as_ref().is_some_and(|p| !p.is_object()) {
                    return Err(format!(
                        "variants[{i}].{field}: variant '{}': {field} must be a JSON object (a merge-patch)",
                        v.name
                    ));
                }
            }
        }
        self.scenarios().map(|_| ())
    }

    /// Each variant's name and patched scenario, in order (`patch::patched`,
    /// then `share_variant::into_share_group` for `groupType: share`).
    pub fn scenarios(&self) -> Result<Vec<(String, Scenario)>, String> {
        let group = self.group_id()?;
        self.variants
            .iter()
            .map(|v| {
                let mut s = patch::patched(&self.scenario, v)?;
                // The compared group as a share group: after the variant's other patches.
                if v.group_type == Some(VariantGroupType::Share) {
                    share_variant::into_share_group(&mut s, &group, v.share.as_ref())
                        .map_err(|e| format!("variant '{}': groupType share: {e}", v.name))?;
                }
                Ok((v.name.clone(), s))
            })
            .collect()
    }
}
