//! Filling a Chinese template's `{0}`, `{1}`... with values: what every
//! Chinese narration module (`narrate_zh`, `narrate_share_zh`) writes with.

use std::fmt::Display;

/// Fills `{0}`, `{1}`... of `zh` with `args`.
pub fn fill(zh: &str, args: &[String]) -> String {
    // One pass, so a filled value is never read as a placeholder.
    let mut s = String::with_capacity(zh.len() + 16);
    let mut rest = zh;
    while let Some(open) = rest.find('{') {
        s.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        match close.and_then(|c| after[..c].parse::<usize>().ok().map(|i| (c, i))) {
            Some((c, i)) if i < args.len() => {
                s.push_str(&args[i]);
                rest = &after[c + 1..];
            }
            _ => {
                s.push('{');
                rest = after;
            }
        }
    }
    s.push_str(rest);
    s
}

/// `zh` with `{0}`, `{1}`... filled from `args`.
pub fn f(zh: &str, args: &[&dyn Display]) -> String {
    fill(zh, &args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
}
