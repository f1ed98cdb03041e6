//! The plain English words left in a Chinese text (tests/glossary.rs,
//! tests/narration_page.rs).

/// The plain English words of a Chinese text: identifiers (with `.`, `_`,
/// `=`, `-`, digits, `()`, or capitals: `group.protocol=consumer`,
/// `REBALANCE_IN_PROGRESS`, `onPartitionsRevoked`, `c2`, `orders-0`) left out.
pub fn plain_words(zh: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, words: &mut Vec<String>| {
        let w = std::mem::take(cur);
        let identifier =
            w.chars().any(|c| ".=_-()<>/{}%\"`".contains(c) || c.is_ascii_digit() || c.is_ascii_uppercase());
        if !w.is_empty() && !identifier {
            words.push(w);
        }
    };
    for c in zh.chars() {
        if c.is_ascii_alphanumeric() || ".=_-()<>/{}%\"`".contains(c) {
            cur.push(c);
        } else {
            flush(&mut cur, &mut words);
        }
    }
    flush(&mut cur, &mut words);
    words
}
