//! The explainer's statement matcher (`explain::pat`) against the plain reading of its
//! contract: `find` is `str::find`, and `capture` splits the pattern at `{}` and looks for
//! each literal in turn, as it did before its fast path. Strings are drawn from a small
//! alphabet (with the placeholder's braces and a multi-byte character) so matches happen.

use groupscope::explain::pat::{capture, find};
use proptest::prelude::*;

/// The matcher as first written: `split("{}")`, `str::find` and `str::rfind`.
fn reference<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let pieces: Vec<&str> = pattern.split("{}").collect();
    let first = pieces[0];
    let start = if first.is_empty() { 0 } else { text.find(first)? + first.len() };
    let mut pos = start;
    let mut caps = Vec::new();
    for (i, lit) in pieces.iter().enumerate().skip(1) {
        let last = i == pieces.len() - 1;
        let rest = &text[pos..];
        let end = if lit.is_empty() {
            if last {
                rest.len()
            } else {
                return None;
            }
        } else if last {
            rest.rfind(lit)?
        } else {
            rest.find(lit)?
        };
        caps.push(&rest[..end]);
        pos += end + lit.len();
    }
    Some(caps)
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just("a"), Just("b"), Just(" "), Just("{}"), Just("{"), Just("é"), Just("ab")],
        0..24,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn find_is_str_find(hay in text(), needle in text()) {
        prop_assert_eq!(find(&hay, &needle), hay.find(needle.as_str()));
    }

    #[test]
    fn capture_reads_as_the_plain_matcher(pattern in text(), hay in text()) {
        prop_assert_eq!(capture(&pattern, &hay), reference(&pattern, &hay));
    }
}

#[test]
fn capture_reads_a_coordinator_statement() {
    let line = "[GroupCoordinator 1]: Stabilized group demo generation 5 (__consumer_offsets-12) with 3 members.";
    let caps = capture("Stabilized group {} generation {} ({}) with {} members.", line);
    assert_eq!(caps, Some(vec!["demo", "5", "__consumer_offsets-12", "3"]));
    assert_eq!(capture("Stabilized group {} generation {}", "Preparing to rebalance group demo"), None);
}
