//! One way into serde_json for every type: from text, through
//! `serde_path_to_error`, so that an error names the field as a path
//! (`groups[0].config.session.timeout.ms: ...`) instead of a line and column
//! (useless for a one-line permalink). Each `from_slice` or `from_value` call
//! would compile a second and third deserializer for the type into the wasm;
//! reading a `Value` back through its text keeps one.
//!
//! Serde's derived structs also accept a JSON array, read positionally
//! (`["oops", 5, 3]` would be a scenario); [`from_str_object`] refuses an array
//! wherever the type has an object.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Reads a `T` from JSON text; a data error names the field's path.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    read(text, None)
}

/// `input` (the text as a `Value`, when the caller has it) lets an error
/// inside an internally tagged enum (a fault: serde buffers those, so the
/// path stops at the enum) name the field it blames.
fn read<T: DeserializeOwned>(text: &str, input: Option<&Value>) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let mut path = e.path().to_string();
        if let Some(key) = input.and_then(|v| blame(v, e.path(), &e.inner().to_string())) {
            path = if path == "." || path.is_empty() { key } else { format!("{path}.{key}") };
        }
        with_path(path, e.inner(), input.is_some())
    })?;
    de.end().map_err(|e| syntax(&e))?;
    Ok(value)
}

/// The one key of the object at `path` whose value the message complains
/// about ("invalid type: sequence ..." and a single array among the keys).
fn blame(input: &Value, path: &serde_path_to_error::Path, message: &str) -> Option<String> {
    use serde_path_to_error::Segment;
    let mut node = input;
    for seg in path {
        node = match seg {
            Segment::Seq { index } => node.get(*index)?,
            Segment::Map { key } => node.get(key)?,
            Segment::Enum { .. } | Segment::Unknown => node,
        };
    }
    let object = node.as_object()?;
    let complaint = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "))?;
    let fits = |v: &Value| match v {
        Value::Array(_) => complaint.starts_with("sequence"),
        Value::Object(_) => complaint.starts_with("map"),
        Value::String(s) => complaint.starts_with(&format!("string {}", Value::String(s.clone()))),
        Value::Bool(b) => complaint.starts_with(&format!("boolean `{b}`")),
        Value::Null => complaint.starts_with("null"),
        Value::Number(n) => complaint.starts_with(&format!("integer `{n}`")) || complaint.starts_with("floating point"),
    };
    // A key whose value fits, or an element of an array value (`partitions[0]`).
    let mut keys = object.iter().filter(|(k, _)| k.as_str() != "type").flat_map(|(k, v)| match v {
        Value::Array(xs) if !fits(v) => {
            xs.iter().enumerate().filter(|(_, x)| fits(x)).map(|(i, _)| format!("{k}[{i}]")).collect::<Vec<_>>()
        }
        _ if fits(v) => vec![k.clone()],
        _ => Vec::new(),
    });
    match (keys.next(), keys.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}

/// Reads a `T` whose JSON form is an object (a struct, a tagged enum) from
/// text, and refuses arrays where `T` has objects, at any depth.
pub fn from_str_object<T: DeserializeOwned + Serialize>(text: &str) -> Result<T, String> {
    let input: Value = from_str(text)?;
    if input.is_array() {
        return Err("the top level: expected an object {...}, not an array".into());
    }
    let value: T = read(text, Some(&input))?;
    let read = serde_json::to_value(&value).map_err(|e| e.to_string())?;
    same_shape(&input, &read, &mut String::new())?;
    Ok(value)
}

/// Reads a `T` from a JSON value (via its text).
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    from_str(&value.to_string())
}

/// Reads a `T` from UTF-8 bytes.
pub fn from_bytes<T: DeserializeOwned + Serialize>(bytes: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
    from_str_object(text)
}

/// Wherever `read` (what `T` made of the input, written back) has an object,
/// the input must have had one.
fn same_shape(input: &Value, read: &Value, path: &mut String) -> Result<(), String> {
    let at = |p: &str| if p.is_empty() { "the top level".to_string() } else { p.to_string() };
    match (input, read) {
        (Value::Array(_), Value::Object(_)) => Err(format!("{}: expected an object {{...}}, not an array", at(path))),
        (Value::Array(xs), Value::Array(ys)) => {
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                same_shape(x, y, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Value::Object(xs), Value::Object(ys)) => {
            for (k, x) in xs {
                if let Some(y) = ys.get(k) {
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                    same_shape(x, y, path)?;
                    path.truncate(len);
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `e` (a message that may start with a field path) as seen from `prefix`:
/// `under("scenario", "brokers: ...")` is `scenario.brokers: ...`.
pub fn under(prefix: &str, e: &str) -> String {
    let is_path = |p: &str| !p.is_empty() && !p.contains(' ') && !p.contains('\'');
    match e.split_once(": ") {
        Some((p, _)) if is_path(p) && !p.starts_with('[') => format!("{prefix}.{e}"),
        Some((p, _)) if is_path(p) => format!("{prefix}{e}"),
        _ => format!("{prefix}: {e}"),
    }
}

/// `valid`: the text is known to be JSON, so a "syntax" error is the shape
/// of a field (serde_json reports a wrong-typed enum as "expected value" and
/// a tuple with extra elements as "trailing characters").
fn with_path(path: String, e: &serde_json::Error, valid: bool) -> String {
    let at_field = !(path.is_empty() || path == ".");
    if at_field && e.is_syntax() && e.to_string().starts_with("expected value") {
        return format!("{path}: expected one of its names, in quotes");
    }
    if at_field && valid && e.is_syntax() {
        return format!("{path}: not the expected shape ({})", without_position(e));
    }
    if e.is_syntax() || e.is_eof() || e.is_io() {
        return syntax(e);
    }
    let text = plain(&without_position(e));
    if path.is_empty() || path == "." {
        format!("the top level: {text}")
    } else {
        format!("{path}: {text}")
    }
}

/// A syntax error keeps its position: it points into the text the user wrote.
fn syntax(e: &serde_json::Error) -> String {
    format!("not valid JSON: {e}")
}

fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => text[..i].to_string(),
        _ => text,
    }
}

/// Serde's Rust type names in plain words.
fn plain(text: &str) -> String {
    const WORDS: [(&str, &str); 9] = [
        ("expected u64", "expected a whole number from 0 to 18446744073709551615"),
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected i64", "expected a whole number"),
        ("expected i32", "expected a whole number from -2147483648 to 2147483647 (Java's int)"),
        ("expected usize", "expected a whole number, 0 or more"),
        ("expected a string", "expected text in quotes"),
        ("expected a boolean", "expected true or false"),
    ];
    let mut out = text.to_string();
    for (from, to) in WORDS {
        if out.ends_with(from) {
            out.truncate(out.len() - from.len());
            out.push_str(to);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Point {
        x: i32,
        #[serde(default)]
        inner: Option<Inner>,
    }

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    struct Inner {
        #[serde(rename = "max.poll.interval.ms")]
        max_poll: u64,
    }

    #[test]
    fn reads_values_and_reports_errors_with_paths_not_positions() {
        assert_eq!(from_value::<Point>(&serde_json::json!({ "x": 3 })), Ok(Point { x: 3, inner: None }));
        assert_eq!(from_value::<Point>(&serde_json::json!({})), Err("the top level: missing field `x`".to_string()));
        assert_eq!(from_bytes::<Point>(br#"{"x":-1}"#), Ok(Point { x: -1, inner: None }));
        assert!(from_bytes::<Point>(&[0xff]).unwrap_err().starts_with("not UTF-8"));
        let e = from_str::<Point>(r#"{"x": 1, "inner": {"max.poll.interval.ms": "soon"}}"#).unwrap_err();
        assert_eq!(e, "inner.max.poll.interval.ms: invalid type: string \"soon\", expected a whole number from 0 to 18446744073709551615");
        assert!(!e.contains("line 1"));
        // A syntax error keeps its line and column: they point into the text.
        assert!(from_str::<Point>("{\"x\": 1,,}").unwrap_err().contains("line 1 column"));
    }

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    #[serde(tag = "type")]
    enum Tagged {
        Crash { consumer: u32 },
    }

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    struct Script {
        faults: Vec<Tagged>,
    }

    #[test]
    fn an_error_inside_a_tagged_enum_blames_the_field() {
        // serde_path_to_error alone stops at the enum: "faults[0]: invalid type: sequence ...".
        let e = from_str_object::<Script>(r#"{"faults": [{"type": "Crash", "consumer": [2]}]}"#).unwrap_err();
        assert!(e.starts_with("faults[0].consumer: invalid type: sequence"), "{e}");
    }

    #[test]
    fn messages_are_placed_under_a_prefix() {
        assert_eq!(under("scenario", "brokers: must be at most 9"), "scenario.brokers: must be at most 9");
        assert_eq!(under("groups", "[0].consumers: x"), "groups[0].consumers: x");
        assert_eq!(under("groups[0]", "missing field `consumers`"), "groups[0]: missing field `consumers`");
    }

    #[test]
    fn arrays_are_not_read_positionally_as_objects() {
        // Serde itself would read both as Point { x: 5 }.
        assert_eq!(serde_json::from_str::<Point>("[5]").ok(), Some(Point { x: 5, inner: None }));
        assert!(from_str_object::<Point>("[5]").unwrap_err().contains("the top level: expected an object"));
        let e = from_str_object::<Point>(r#"{"x": 5, "inner": [7]}"#).unwrap_err();
        assert!(e.starts_with("inner: expected an object"), "{e}");
    }
}
