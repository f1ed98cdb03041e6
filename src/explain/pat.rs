//! A tiny matcher for log statements written as their format strings: `{}` is a
//! placeholder, everything else is literal text. `"Stabilized group {} generation {} with {} members."`
//! matches the line SLF4J prints for that statement and yields the three values.
//! No regular expressions: the statements' own text is the pattern.

/// Matches `pattern` anywhere in `text` (the first literal is searched for, so
/// prefixes such as a log context are skipped). Captures are the shortest text
/// up to the next literal, except the last placeholder, which reaches the last
/// occurrence of the trailing literal (reasons may contain the trailing text).
pub fn capture<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    // Most lines match no statement: look for the first literal before anything else.
    let first = &pattern[..find(pattern, "{}").unwrap_or(pattern.len())];
    let start = if first.is_empty() { 0 } else { find(text, first)? + first.len() };
    let mut pieces = Pieces(&pattern[first.len()..]);
    let mut pos = start;
    let mut caps = Vec::new();
    while let Some((lit, last)) = pieces.next() {
        let rest = &text[pos..];
        let end = if lit.is_empty() {
            if last {
                rest.len()
            } else {
                return None; // two adjacent placeholders are ambiguous
            }
        } else if last {
            rest.rfind(lit)?
        } else {
            find(rest, lit)?
        };
        caps.push(&rest[..end]);
        pos += end + lit.len();
    }
    Some(caps)
}

/// The literals after each placeholder of a pattern's tail (`{} generation {} with {} members.`
/// gives ` generation `, ` with `, ` members.`), each with whether it is the last.
struct Pieces<'p>(&'p str);

impl<'p> Pieces<'p> {
    fn next(&mut self) -> Option<(&'p str, bool)> {
        let tail = self.0.strip_prefix("{}")?;
        match find(tail, "{}") {
            Some(i) => {
                self.0 = &tail[i..];
                Some((&tail[..i], false))
            }
            None => {
                self.0 = "";
                Some((tail, true))
            }
        }
    }
}

/// `text.find(needle)`, for the short needles of log statements: the needle's first byte is
/// searched for and the rest compared there. (`str::find` with a `&str` builds a two-way
/// searcher on every call, which was most of the time spent on lines that match nothing.)
pub fn find(text: &str, needle: &str) -> Option<usize> {
    let n = needle.as_bytes();
    let Some(&b0) = n.first() else { return Some(0) };
    if !b0.is_ascii() {
        return text.find(needle);
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while from + n.len() <= bytes.len() {
        // an ASCII byte is a whole character, found by std's memchr
        let i = from + text[from..].find(b0 as char)?;
        if bytes[i..].starts_with(n) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The text after `key` up to the first of `ends` (or the end).
pub fn after<'a>(text: &'a str, key: &str, ends: &[char]) -> Option<&'a str> {
    let i = find(text, key)? + key.len();
    let rest = &text[i..];
    let end = rest.find(|c| ends.contains(&c)).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// A number, tolerating surrounding quotes, spaces and a trailing full stop.
pub fn num(s: &str) -> Option<i64> {
    s.trim().trim_matches(|c| c == '\'' || c == '"' || c == '.' || c == ',').parse().ok()
}

/// `[orders-0, orders-1]`, `orders-0,orders-1`, `{orders-0, orders-1}` or
/// `[TopicPartition(topic='orders', partition=0)]` as `orders-0`, ...
pub fn partitions(s: &str) -> Vec<String> {
    let s = s.trim();
    if s.contains("partition=") {
        // kafka-python / aiokafka: TopicPartition(topic='orders', partition=0)
        let mut out = Vec::new();
        let mut rest = s;
        // Python 2 printed unicode topics as `topic=u'orders'`
        let key = |r: &str| ["topic='", "topic=u'"].iter().filter_map(|k| r.find(k).map(|i| (i, k.len()))).min();
        while let Some((i, klen)) = key(rest) {
            let t = after(&rest[i..], &rest[i..i + klen], &['\'']).unwrap_or("");
            rest = &rest[i + klen..];
            if let Some(p) = after(rest, "partition=", &[')', ',', ' ']) {
                if let Some(p) = num(p) {
                    out.push(format!("{t}-{p}"));
                }
            }
        }
        return out;
    }
    let inner = s.trim_start_matches(['[', '{', '(']).trim_end_matches([']', '}', ')', '.']);
    inner.split(',').map(|p| p.trim().trim_matches('"')).filter(|p| is_partition(p)).map(str::to_string).collect()
}

/// `orders-3`: a topic name, a dash, a partition number.
pub fn is_partition(p: &str) -> bool {
    match p.rsplit_once('-') {
        Some((t, n)) => !t.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !t.contains(' '),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_placeholders_and_skips_prefixes() {
        let c = capture(
            "Stabilized group {} generation {} with {} members.",
            "[GroupCoordinator id=1] Stabilized group demo generation 5 with 3 members.",
        );
        assert_eq!(c, Some(vec!["demo", "5", "3"]));
        let c = capture("(reason: {}).", "x (reason: removing member a (b) on heartbeat expiration.).");
        assert_eq!(c, Some(vec!["removing member a (b) on heartbeat expiration."]));
        assert_eq!(capture("Stabilized group {}", "nothing here"), None);
    }

    #[test]
    fn reads_partition_lists() {
        assert_eq!(partitions("[orders-0, orders-1]"), vec!["orders-0", "orders-1"]);
        assert_eq!(partitions("{TopicPartition(topic='orders', partition=2)}"), vec!["orders-2"]);
        assert_eq!(
            partitions("set([TopicPartition(topic=u'a', partition=24), TopicPartition(topic=u'a', partition=25)])"),
            vec!["a-24", "a-25"]
        );
        assert!(partitions("[]").is_empty());
    }
}
