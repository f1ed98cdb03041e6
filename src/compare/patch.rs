//! JSON merge-patch (RFC 7386) and how a variant's patches apply to a scenario.

use super::Variant;
use crate::sim::scenario::GroupSpec;
use crate::sim::Scenario;
use serde_json::{Map, Value};

/// RFC 7386 `MergePatch(Target, Patch)`: an object patch merges key by key
/// (`null` removes the key), anything else replaces the target.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let t = target.as_object_mut().expect("made an object above");
    for (key, value) in p {
        if value.is_null() {
            t.remove(key);
        } else {
            merge_patch(t.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

/// The base scenario with the variant's patches applied: `broker` to the broker
/// configs, then for every group `group` to the group object and `config` to its
/// `config`. The fault script is left alone, so every variant runs the same one.
/// (`groupType: share` is applied after: `Comparison::scenarios`.)
pub fn patched(base: &Scenario, v: &Variant) -> Result<Scenario, String> {
    let at = |what: &str, e: String| format!("variant '{}': {}", v.name, crate::json::under(what, &e));
    let mut s = base.clone();
    if let Some(p) = &v.broker {
        let mut b = serde_json::to_value(&s.broker).map_err(|e| at("broker", e.to_string()))?;
        merge_patch(&mut b, p);
        s.broker = crate::json::from_value(&b).map_err(|e| at("broker", e))?;
    }
    if let Some(Value::Object(p)) = &v.group {
        if p.contains_key("groupId") {
            return Err(format!(
                "variant '{}': group: groupId cannot be patched (metrics compare the same group)",
                v.name
            ));
        }
    }
    for (i, g) in s.groups.iter_mut().enumerate() {
        let mut value = serde_json::to_value(&*g).map_err(|e| at("group", e.to_string()))?;
        if let Some(p) = &v.group {
            merge_patch(&mut value, p);
        }
        if let Some(p) = &v.config {
            merge_patch(&mut value["config"], p);
        }
        *g = crate::json::from_value::<GroupSpec>(&value).map_err(|e| at(&format!("groups[{i}]"), e))?;
    }
    s.validate().map_err(|e| format!("variant '{}': {e}", v.name))?;
    Ok(s)
}
