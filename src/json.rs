//! One way into serde_json for every type: from text (`serde_json::from_str`).
//! Each `from_slice` or `from_value` call would compile a second and third
//! deserializer for the type into the wasm; reading a `Value` back through its
//! text keeps one.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads a `T` from a JSON value (via its text). The error has no line and
/// column: they would point into that text, not into anything the user wrote.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    serde_json::from_str(&value.to_string()).map_err(|e| without_position(&e))
}

/// Reads a `T` from UTF-8 bytes.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
    serde_json::from_str(text).map_err(|e| e.to_string())
}

fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => text[..i].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Point {
        x: i32,
    }

    #[test]
    fn reads_values_and_reports_errors_without_positions() {
        assert_eq!(from_value::<Point>(&serde_json::json!({ "x": 3 })), Ok(Point { x: 3 }));
        assert_eq!(from_value::<Point>(&serde_json::json!({})), Err("missing field `x`".to_string()));
        assert_eq!(from_bytes::<Point>(br#"{"x":-1}"#), Ok(Point { x: -1 }));
        assert!(from_bytes::<Point>(&[0xff]).unwrap_err().starts_with("not UTF-8"));
    }
}
