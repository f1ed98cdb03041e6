//! Emulation of the Java behaviour Kafka's results depend on.

/// Java's `String.hashCode`: s[0]*31^(n-1) + ... over UTF-16 code units, wrapping.
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// Kafka's `Utils.abs`: 0 for `Integer.MIN_VALUE`, `Math.abs` otherwise.
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN { 0 } else { n.abs() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_the_jvm_examples_of_the_fact_sheet() {
        assert_eq!(string_hash("my-group"), -1906497762);
        assert_eq!(string_hash("test-group"), 627841412);
        assert_eq!(string_hash("connect-cluster"), 1440343063);
        assert_eq!(kafka_abs(string_hash("my-group")) % 50, 12);
        assert_eq!(kafka_abs(string_hash("connect-cluster")) % 50, 13);
    }

    #[test]
    fn kafka_abs_maps_min_value_to_zero() {
        assert_eq!(kafka_abs(i32::MIN), 0);
        assert_eq!(kafka_abs(-5), 5);
    }
}
