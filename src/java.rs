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

/// `java.util.HashMap` spreads a key's hash before masking: `h ^ (h >>> 16)`.
fn spread(h: i32) -> u32 {
    let h = h as u32;
    h ^ (h >> 16)
}

/// The capacity a default `new HashMap<>()` reaches after holding `max_size` keys
/// at once (16, doubled whenever size exceeds 0.75 × capacity; it never shrinks).
pub fn default_hash_map_capacity(max_size: usize) -> usize {
    let mut cap = 16;
    while max_size * 4 > cap * 3 {
        cap *= 2;
    }
    cap
}

/// Iteration order of a `java.util.HashMap<String, _>` of the given capacity whose
/// keys were inserted in `insertion_order`: buckets ascending, insertion order
/// within a bucket. Returns indices into `insertion_order`.
pub fn hash_map_order<S: AsRef<str>>(insertion_order: &[S], capacity: usize) -> Vec<usize> {
    let mask = capacity as u32 - 1;
    let mut idx: Vec<usize> = (0..insertion_order.len()).collect();
    idx.sort_by_key(|&i| spread(string_hash(insertion_order[i].as_ref())) & mask);
    idx
}

#[cfg(test)]
mod order_tests {
    use super::*;

    #[test]
    fn consumer_ids_iterate_in_java_hash_map_order() {
        let keys = ["consumer1", "consumer2", "consumer3", "consumer4"];
        let order: Vec<&str> = hash_map_order(&keys, 16).into_iter().map(|i| keys[i]).collect();
        assert_eq!(order, ["consumer4", "consumer3", "consumer2", "consumer1"]);
    }

    #[test]
    fn protocol_names_iterate_in_java_hash_map_order() {
        let keys = ["range", "roundrobin", "cooperative-sticky", "sticky"];
        let order: Vec<&str> = hash_map_order(&keys, 16).into_iter().map(|i| keys[i]).collect();
        assert_eq!(order, ["sticky", "range", "roundrobin", "cooperative-sticky"]);
    }

    #[test]
    fn capacity_doubles_past_three_quarters() {
        assert_eq!(default_hash_map_capacity(12), 16);
        assert_eq!(default_hash_map_capacity(13), 32);
        assert_eq!(default_hash_map_capacity(25), 64);
    }
}
