//! Lesson texts that say what the run shows now, not what the author expected
//! (issue 32): after the learner's own fault the wrap-up names the generation
//! and leader the page draws. A text may hold placeholders, filled from the
//! world when shown:
//!
//! - `{state:G}`: group G's state (`Stable`, `PreparingRebalance`, …);
//! - `{generation:G}`: its generation (a KIP-848 group: its group epoch);
//! - `{leader:G}`: its leader (`c3`), or `—` without one;
//! - `{members:G}`: how many members its coordinator holds now;
//! - `{crashed}`: the clients that are down (`c2, c4`), or `—`.
//!
//! The validator rejects any other placeholder and groups the scenario lacks.

use crate::sim::World;

/// Every placeholder name and whether it takes a group.
const NAMES: &[(&str, bool)] =
    &[("state", true), ("generation", true), ("leader", true), ("members", true), ("crashed", false)];

/// `text` cut at its placeholders: each literal run, then the placeholder
/// after it as (name, group, as written) with the group empty when none.
fn pieces(text: &str) -> Vec<(&str, Option<(&str, &str, &str)>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else { break };
        let inner = &rest[open + 1..open + len];
        let (name, group) = inner.split_once(':').unwrap_or((inner, ""));
        out.push((&rest[..open], Some((name, group, &rest[open..open + len + 1]))));
        rest = &rest[open + len + 1..];
    }
    out.push((rest, None));
    out
}

/// The placeholders in `text`, as (name, group) with the group empty when none.
pub fn placeholders(text: &str) -> Vec<(String, String)> {
    pieces(text).into_iter().filter_map(|(_, p)| p).map(|(n, g, _)| (n.to_string(), g.to_string())).collect()
}

/// What is wrong with `text`'s placeholders, given the scenario's group ids.
pub fn check(text: &str, groups: &[String]) -> Vec<String> {
    let mut errors = Vec::new();
    for (name, group) in placeholders(text) {
        match NAMES.iter().find(|(n, _)| *n == name) {
            None => errors.push(format!(
                "unknown placeholder {{{name}}}: use {}",
                NAMES
                    .iter()
                    .map(|(n, g)| if *g { format!("{{{n}:GROUP}}") } else { format!("{{{n}}}") })
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some((_, true)) if !groups.contains(&group) => {
                errors.push(format!("{{{name}:{group}}} names no group of the scenario ({})", groups.join(", ")))
            }
            Some((_, false)) if !group.is_empty() => errors.push(format!("{{{name}}} takes no group")),
            Some(_) => {}
        }
    }
    errors
}

/// `text` with its placeholders filled from `world` (unknown ones are left as written).
pub fn fill(text: &str, world: &World) -> String {
    if !text.contains('{') {
        return text.to_string();
    }
    let groups = crate::view::groups(world);
    let consumers = crate::view::consumers(world);
    let mut out = String::with_capacity(text.len());
    for (literal, placeholder) in pieces(text) {
        out.push_str(literal);
        let Some((name, group, written)) = placeholder else { continue };
        let g = groups.iter().find(|g| g.group_id == group);
        let value = match (name, g) {
            ("state", Some(g)) => Some(g.state.clone()),
            ("generation", Some(g)) => Some(g.generation.to_string()),
            ("leader", Some(g)) => Some(g.leader.clone().unwrap_or_else(|| "—".into())),
            ("members", Some(_)) => world.group_view(group).map(|g| g.members.to_string()),
            ("crashed", _) => {
                let down: Vec<&str> = consumers.iter().filter(|c| !c.alive).map(|c| c.name.as_str()).collect();
                Some(if down.is_empty() { "—".into() } else { down.join(", ") })
            }
            _ => None,
        };
        out.push_str(value.as_deref().unwrap_or(written));
    }
    out
}
