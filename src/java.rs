//! Emulation of the Java behaviour Kafka's results depend on: `String.hashCode`,
//! `String.compareTo`, `java.util.HashMap`/`HashSet` iteration order, and
//! Kafka's `Uuid` (base64url text form, `hashCode`, `compareTo`), `Double.compare`,
//! and `java.util.PriorityQueue` ([`priority_queue`]).
//!
//! HashMap model (OpenJDK 8+): bucket = spread(hash) & (capacity - 1) with
//! spread(h) = h ^ (h >>> 16); iteration visits buckets in ascending index and
//! a bucket's entries in insertion order; the table doubles when the size
//! exceeds 0.75 * capacity, keeping the relative order of entries that stay
//! together. Tree bins (8+ colliding keys) are not modelled.

use std::cmp::Ordering;
use std::fmt;

pub mod priority_queue;

/// Java's `String.hashCode`: s[0]*31^(n-1) + ... over UTF-16 code units, wrapping.
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// Kafka's `Utils.abs`: 0 for `Integer.MIN_VALUE`, `Math.abs` otherwise.
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// Java's `String.compareTo`: lexicographic over UTF-16 code units.
///
/// Rust's `str` order is by code point, which differs only when a character
/// at or above U+10000 meets one in U+E000..=U+FFFF; the byte comparison is
/// used as the fast path and the UTF-16 walk only when that case can arise.
pub fn compare_strings(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let common = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    match (x.get(common), y.get(common)) {
        (Some(p), Some(q)) if *p >= 0xEE && *q >= 0xEE => a.encode_utf16().cmp(b.encode_utf16()),
        _ => x.cmp(y),
    }
}

/// `Double.compare`: numeric order, with -0.0 below 0.0 and NaN above
/// everything (by `doubleToLongBits`, which makes every NaN the same).
pub fn double_compare(a: f64, b: f64) -> Ordering {
    if a < b {
        Ordering::Less
    } else if a > b {
        Ordering::Greater
    } else {
        let bits = |d: f64| if d.is_nan() { 0x7ff8_0000_0000_0000_i64 } else { d.to_bits() as i64 };
        bits(a).cmp(&bits(b))
    }
}

/// `HashMap.hash`: the spread of a key's `hashCode`.
fn spread(h: i32) -> u32 {
    let h = h as u32;
    h ^ (h >> 16)
}

/// `HashMap.MAXIMUM_CAPACITY`: 2^30.
pub const MAXIMUM_CAPACITY: usize = 1 << 30;

/// The smallest power of two >= n (at least 1, at most 2^30), as `HashMap.tableSizeFor`.
fn table_size_for(n: usize) -> usize {
    n.clamp(1, MAXIMUM_CAPACITY).next_power_of_two()
}

/// The iteration order of a `java.util.HashMap` (or `HashSet`) whose keys were
/// put in a given order. Keys are compared with `==` and hashed by `hash`.
#[derive(Clone, Debug)]
pub struct JavaHashOrder<K> {
    table: Vec<Vec<(K, u32)>>,
    size: usize,
    hash: fn(&K) -> i32,
}

impl<K: PartialEq + Clone> JavaHashOrder<K> {
    /// `new HashMap<>()`: capacity 16.
    pub fn new(hash: fn(&K) -> i32) -> Self {
        Self::with_capacity(16, hash)
    }

    /// `new HashMap<>(n)`: capacity = the next power of two >= n.
    pub fn with_capacity(initial_capacity: usize, hash: fn(&K) -> i32) -> Self {
        JavaHashOrder { table: vec![Vec::new(); table_size_for(initial_capacity)], size: 0, hash }
    }

    /// The capacity `new HashSet<>(collection)` starts with for `len` elements.
    pub fn copy_capacity(len: usize) -> usize {
        (len * 4 / 3 + 1).max(16)
    }

    pub fn len(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// `put(key, ...)`: a present key keeps its place.
    pub fn put(&mut self, key: K) {
        let h = spread((self.hash)(&key));
        let cap = self.table.len();
        let bucket = &mut self.table[h as usize & (cap - 1)];
        if bucket.iter().any(|(k, _)| *k == key) {
            return;
        }
        bucket.push((key, h));
        self.size += 1;
        if self.size * 4 > cap * 3 {
            self.resize(cap * 2);
        }
    }

    fn resize(&mut self, new_cap: usize) {
        let mut table = vec![Vec::new(); new_cap];
        for (k, h) in self.table.drain(..).flatten() {
            table[h as usize & (new_cap - 1)].push((k, h));
        }
        self.table = table;
    }

    /// `put(key, ...)` including `treeifyBin`'s small-table case: a bucket that
    /// reaches 9 keys (`TREEIFY_THRESHOLD` + 1) while the table has fewer than 64
    /// buckets (`MIN_TREEIFY_CAPACITY`) makes the table double instead of
    /// becoming a tree bin, before the size check of `putVal`. Tree bins
    /// themselves (64+ buckets) are still not modelled. [`JavaHashOrder::put`]
    /// leaves this out; callers that may reach it (many small integers in one
    /// `HashSet<Integer>`) use this one.
    pub fn put_java(&mut self, key: K) {
        let h = spread((self.hash)(&key));
        let cap = self.table.len();
        let bucket = &mut self.table[h as usize & (cap - 1)];
        if bucket.iter().any(|(k, _)| *k == key) {
            return;
        }
        bucket.push((key, h));
        let bin = bucket.len();
        if bin > 8 && cap < 64 {
            self.resize(cap * 2);
        }
        self.size += 1;
        let cap = self.table.len();
        if self.size * 4 > cap * 3 {
            self.resize(cap * 2);
        }
    }

    /// `computeIfAbsent(key, ...)` of a `HashMap`: unlike `put`, a table whose
    /// size already exceeds the threshold doubles *before* the key is looked up
    /// (so also when the key is already there, which then keeps its place), a
    /// new key goes to the *head* of its bucket, and a bucket that already held
    /// 7 keys (`binCount >= TREEIFY_THRESHOLD - 1`) doubles a table under 64
    /// buckets (`treeifyBin`); the size is not checked after inserting.
    pub fn compute_if_absent(&mut self, key: K) {
        let cap = self.table.len();
        if self.size * 4 > cap * 3 {
            self.resize(cap * 2);
        }
        let h = spread((self.hash)(&key));
        let cap = self.table.len();
        let bucket = &mut self.table[h as usize & (cap - 1)];
        if bucket.iter().any(|(k, _)| *k == key) {
            return;
        }
        let existing = bucket.len();
        bucket.insert(0, (key, h));
        if existing >= 7 && cap < 64 {
            self.resize(cap * 2);
        }
        self.size += 1;
    }

    /// `contains(key)`.
    pub fn contains(&self, key: &K) -> bool {
        let h = spread((self.hash)(key));
        self.table[h as usize & (self.table.len() - 1)].iter().any(|(k, _)| k == key)
    }

    /// `remove(key)`.
    pub fn remove(&mut self, key: &K) {
        let h = spread((self.hash)(key));
        let cap = self.table.len();
        let bucket = &mut self.table[h as usize & (cap - 1)];
        if let Some(i) = bucket.iter().position(|(k, _)| k == key) {
            bucket.remove(i);
            self.size -= 1;
        }
    }

    /// The keys in iteration order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.table.iter().flatten().map(|(k, _)| k)
    }
}

/// Takes `&String`: it is the hash of a `JavaHashOrder<String>`, called with `&K`.
#[allow(clippy::ptr_arg)]
pub fn hash_string(s: &String) -> i32 {
    string_hash(s)
}

fn hash_integer(i: &i32) -> i32 {
    *i
}

fn hash_uuid(u: &Uuid) -> i32 {
    u.java_hash()
}

/// Iteration order of a `HashMap<String, _>` built with `new HashMap<>(capacity)`
/// (`None` = default constructor) and filled in `keys` order.
///
/// This is the order of the classic group leader's member map
/// (`ConsumerCoordinator.onLeaderElected` builds a default `HashMap`).
pub fn hashmap_order<'a>(keys: impl IntoIterator<Item = &'a str>, capacity: Option<usize>) -> Vec<String> {
    let capacity = capacity.unwrap_or(16);
    if table_size_for(capacity) > SPARSE_FROM {
        return sparse_hashmap_order(keys, capacity);
    }
    let mut order = JavaHashOrder::with_capacity(capacity, hash_string as fn(&String) -> i32);
    for k in keys {
        order.put(k.to_string());
    }
    order.keys().cloned().collect()
}

/// Tables larger than this are not allocated (`new HashMap<>(1 << 30)` would
/// take gigabytes): their order is computed by sorting instead.
const SPARSE_FROM: usize = 1 << 16;

/// The same order as `JavaHashOrder` after only puts: ascending bucket of the
/// final capacity, a bucket's keys in insertion order (a resize splits a bucket
/// keeping that order), without the table.
fn sparse_hashmap_order<'a>(keys: impl IntoIterator<Item = &'a str>, capacity: usize) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let keys: Vec<&str> = keys.into_iter().filter(|k| seen.insert(*k)).collect();
    let mut cap = table_size_for(capacity);
    while keys.len() * 4 > cap * 3 && cap < MAXIMUM_CAPACITY {
        cap *= 2;
    }
    let mut order: Vec<(usize, &str)> =
        keys.into_iter().map(|k| (spread(string_hash(k)) as usize & (cap - 1), k)).collect();
    order.sort_by_key(|(bucket, _)| *bucket);
    order.into_iter().map(|(_, k)| k.to_string()).collect()
}

/// Iteration order of the member ids of a default-capacity Java `HashMap<String, _>`.
pub fn member_map_order<'a>(member_ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    hashmap_order(member_ids, None)
}

/// Iteration order of `new HashSet<>(collection)` of strings.
pub fn string_set_copy_order<'a>(keys: impl ExactSizeIterator<Item = &'a str>) -> Vec<String> {
    let cap = JavaHashOrder::<String>::copy_capacity(keys.len());
    hashmap_order(keys, Some(cap))
}

/// Iteration order of a `HashSet<Integer>` holding `values`, built with `new
/// HashSet<>(collection)` semantics.
pub fn int_set_order(values: &[i32]) -> Vec<i32> {
    let mut order = JavaHashOrder::with_capacity(
        JavaHashOrder::<i32>::copy_capacity(values.len()),
        hash_integer as fn(&i32) -> i32,
    );
    values.iter().for_each(|v| order.put(*v));
    order.keys().copied().collect()
}

/// Iteration order of a `HashSet<Uuid>` / `HashMap<Uuid, _>` with the given
/// starting capacity (`None` = 16), filled in `ids` order.
pub fn uuid_hash_order(ids: &[Uuid], capacity: Option<usize>) -> Vec<Uuid> {
    let mut order = JavaHashOrder::with_capacity(capacity.unwrap_or(16), hash_uuid as fn(&Uuid) -> i32);
    ids.iter().for_each(|u| order.put(*u));
    order.keys().copied().collect()
}

/// Iteration order of `new HashSet<>(collectionOfUuids)`.
pub fn uuid_set_copy_order(ids: &[Uuid]) -> Vec<Uuid> {
    uuid_hash_order(ids, Some(JavaHashOrder::<Uuid>::copy_capacity(ids.len())))
}

/// The iteration order of a `HashMap`/`HashSet` built with `new HashMap<>(capacity)`
/// into which distinct keys with the given `hashCode`s were put in order, with no
/// removals: positions into `hashes`. Same as [`JavaHashOrder`] without building
/// it: each bucket of the final table holds its keys in insertion order.
pub fn java_hash_order(hashes: &[i32], capacity: usize) -> Vec<usize> {
    let mut cap = table_size_for(capacity);
    while hashes.len() * 4 > cap * 3 && cap < 1 << 30 {
        cap *= 2;
    }
    let mask = cap as u64 - 1;
    let mut keyed: Vec<u64> =
        hashes.iter().enumerate().map(|(i, h)| ((u64::from(spread(*h)) & mask) << 32) | i as u64).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|k| (k & 0xffff_ffff) as usize).collect()
}

/// `org.apache.kafka.common.Uuid`: 128 bits as two signed longs. The derived
/// order is Kafka's `compareTo` (signed most-significant, then least).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uuid {
    pub msb: i64,
    pub lsb: i64,
}

const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl Uuid {
    /// `Uuid.fromString`: 22 base64url characters (no padding).
    pub fn parse(s: &str) -> Result<Uuid, String> {
        let bad = || format!("'{s}' is not a Kafka Uuid (22 base64url characters)");
        if s.len() != 22 {
            return Err(bad());
        }
        let mut bits: u128 = 0;
        for (i, c) in s.bytes().enumerate() {
            let v = B64URL.iter().position(|b| *b == c).ok_or_else(bad)? as u128;
            if i < 21 {
                bits = (bits << 6) | v;
            } else {
                // 21 * 6 = 126 bits so far; the last character supplies 2.
                bits = (bits << 2) | (v >> 4);
            }
        }
        Ok(Uuid { msb: (bits >> 64) as u64 as i64, lsb: bits as u64 as i64 })
    }

    /// `Uuid.hashCode`.
    pub fn java_hash(&self) -> i32 {
        let x = (self.msb ^ self.lsb) as u64;
        ((x >> 32) as u32 ^ x as u32) as i32
    }

    /// A deterministic id derived from a topic name (for callers without ids).
    pub fn from_name(name: &str) -> Uuid {
        // FNV-1a, twice with different offsets: stable, not cryptographic.
        let fnv = |seed: u64| name.bytes().fold(seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        Uuid { msb: fnv(0xcbf2_9ce4_8422_2325) as i64, lsb: fnv(0x8422_2325_cbf2_9ce4) as i64 }
    }
}

impl fmt::Display for Uuid {
    /// `Uuid.toString`: base64url of the 16 bytes without padding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = ((self.msb as u64 as u128) << 64) | self.lsb as u64 as u128;
        let mut out = String::with_capacity(22);
        for i in 0..21 {
            out.push(B64URL[((bits >> (122 - 6 * i)) & 63) as usize] as char);
        }
        out.push(B64URL[((bits & 3) << 4) as usize] as char);
        f.write_str(&out)
    }
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

    #[test]
    fn consumer_ids_iterate_in_jvm_order() {
        let ids = ["consumer1", "consumer2", "consumer3", "consumer4"];
        assert_eq!(member_map_order(ids), vec!["consumer4", "consumer3", "consumer2", "consumer1"]);
    }

    #[test]
    fn protocol_names_iterate_in_jvm_order() {
        let names = ["cooperative-sticky", "roundrobin", "range", "sticky"];
        assert_eq!(member_map_order(names), vec!["sticky", "range", "roundrobin", "cooperative-sticky"]);
    }

    #[test]
    fn resizing_keeps_every_key_once_and_removal_works() {
        let ids: Vec<String> = (0..100).map(|i| format!("member-{i}")).collect();
        let mut order = JavaHashOrder::new(hash_string as fn(&String) -> i32);
        ids.iter().for_each(|k| order.put(k.clone()));
        ids.iter().for_each(|k| order.put(k.clone()));
        assert_eq!(order.len(), 100);
        order.remove(&ids[7]);
        let keys: Vec<&String> = order.keys().collect();
        assert_eq!(keys.len(), 99);
        assert!(!keys.contains(&&ids[7]));
        // capacity grew to 256: every key sits in bucket spread(hash) & 255, ascending
        let buckets: Vec<u32> = keys.iter().map(|k| spread(string_hash(k)) & 255).collect();
        assert!(buckets.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn small_integer_sets_iterate_ascending() {
        assert_eq!(int_set_order(&[5, 2, 9, 0]), vec![0, 2, 5, 9]);
        // 16 wraps to bucket 0 of a 16-slot table, after 0
        assert_eq!(int_set_order(&[16, 3, 0]), vec![16, 0, 3]);
    }

    #[test]
    fn uuid_text_round_trips_canonically() {
        let t1 = Uuid::parse("T1-A4s3VTwiI5CTbEp6POw").unwrap();
        assert_eq!(t1.to_string(), "T1-A4s3VTwiI5CTbEp6POw");
        let t3 = Uuid::parse("T3-CU8fVTLCz5YMkLoDQsa").unwrap();
        assert_eq!(t3.to_string(), "T3-CU8fVTLCz5YMkLoDQsQ");
        assert!(Uuid::parse("short").is_err());
        assert!(Uuid::parse("T3-CU8fVTLCz5YMkLoDQs!").is_err());
    }

    #[test]
    fn uuid_hash_set_order_matches_the_jvm_example() {
        let t1 = Uuid::parse("T1-A4s3VTwiI5CTbEp6POw").unwrap();
        let t3 = Uuid::parse("T3-CU8fVTLCz5YMkLoDQsa").unwrap();
        assert_eq!(uuid_set_copy_order(&[t1, t3]), vec![t3, t1]);
    }

    #[test]
    fn string_order_is_utf16_order() {
        assert_eq!(compare_strings("a", "b"), Ordering::Less);
        assert_eq!(compare_strings("ab", "a"), Ordering::Greater);
        // U+FF21 (one UTF-16 unit 0xFF21) sorts after U+10000 (surrogates 0xD800..) in Java
        assert_eq!(compare_strings("\u{FF21}", "\u{10000}"), Ordering::Greater);
        assert_eq!("\u{FF21}".cmp("\u{10000}"), Ordering::Less);
    }
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

#[cfg(test)]
mod capacity_tests {
    use super::*;

    #[test]
    fn table_size_for_caps_at_maximum_capacity_like_java() {
        // HashMap.tableSizeFor: n >= MAXIMUM_CAPACITY gives MAXIMUM_CAPACITY (it overflowed here).
        assert_eq!(table_size_for(usize::MAX), MAXIMUM_CAPACITY);
        assert_eq!(table_size_for((1 << 30) + 1), MAXIMUM_CAPACITY);
        assert_eq!(table_size_for(17), 32);
        let keys: Vec<String> = (0..200).map(|i| format!("consumer-{i}")).collect();
        let ids = || keys.iter().map(String::as_str);
        assert_eq!(hashmap_order(ids(), Some(usize::MAX)).len(), 200);
        // The sorted order equals the table's at a size both can do.
        for cap in [1, 16, 100, 4096] {
            let mut table = JavaHashOrder::with_capacity(cap, hash_string as fn(&String) -> i32);
            ids().for_each(|k| table.put(k.to_string()));
            assert_eq!(sparse_hashmap_order(ids(), cap), table.keys().cloned().collect::<Vec<_>>(), "capacity {cap}");
        }
    }

    #[test]
    fn capacity_doubles_past_three_quarters() {
        assert_eq!(default_hash_map_capacity(12), 16);
        assert_eq!(default_hash_map_capacity(13), 32);
        assert_eq!(default_hash_map_capacity(25), 64);
    }

    #[test]
    fn a_map_that_grew_then_shrank_keeps_its_larger_capacity_order() {
        // 13 keys force capacity 32; removing keys keeps 32, so the survivors
        // iterate as in a 32-bucket table, not a fresh 16-bucket one.
        let keys: Vec<String> = (0..13).map(|i| format!("member-{i}")).collect();
        let mut grown = JavaHashOrder::new(hash_string as fn(&String) -> i32);
        for k in &keys {
            grown.put(k.clone());
        }
        for k in &keys[3..] {
            grown.remove(k);
        }
        let survivors: Vec<&str> = keys[..3].iter().map(String::as_str).collect();
        let replayed = hashmap_order(survivors, Some(default_hash_map_capacity(13)));
        assert_eq!(grown.keys().cloned().collect::<Vec<_>>(), replayed);
    }
}
