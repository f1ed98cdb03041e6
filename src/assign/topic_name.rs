//! [`TopicName`]: a topic's name shared by every [`super::TopicPartition`] of
//! that topic, as Java's `TopicPartition` objects share one `String`: copying
//! a partition copies a pointer, not the name. An assignor building 10,000
//! partitions allocates one name per topic instead of one per partition. (`Rc`,
//! not `Arc`: the simulation is single-threaded, and an atomic count on every
//! copy cost 10% of a small sticky assignment.)
//!
//! Names are interned per thread: every `TopicName` of one topic shares one
//! allocation, wherever it was made (an assignment, an OffsetFetch answer, a
//! parsed scenario), so comparing two partitions of one topic compares a
//! pointer, not the text (below).

use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// Compares, orders, hashes, prints and debugs as the `str` it holds.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct TopicName(Rc<str>);

thread_local! {
    /// The names made on this thread (only looked up, never iterated).
    static NAMES: RefCell<HashSet<Rc<str>>> = RefCell::new(HashSet::new());
}

impl TopicName {
    /// The shared allocation of `s`, made at its first use on this thread.
    fn interned(s: &str) -> TopicName {
        NAMES.with(|names| {
            let mut names = names.borrow_mut();
            if let Some(name) = names.get(s) {
                return TopicName(name.clone());
            }
            let name: Rc<str> = Rc::from(s);
            names.insert(name.clone());
            TopicName(name)
        })
    }
}

/// Ordered as the text, but equal names (one interned allocation) compare
/// without reading it: the maps keyed by `TopicPartition` (a consumer's
/// positions, fetch buffer and metadata, the run's statistics) did a `memcmp`
/// per step down the tree, a tenth of a 100-member group's frame.
impl Ord for TopicName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

impl PartialOrd for TopicName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl TopicName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for TopicName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for TopicName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for TopicName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TopicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for TopicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for TopicName {
    fn from(s: &str) -> Self {
        TopicName::interned(s)
    }
}

impl From<String> for TopicName {
    fn from(s: String) -> Self {
        TopicName::interned(&s)
    }
}

impl From<&String> for TopicName {
    fn from(s: &String) -> Self {
        TopicName::interned(s)
    }
}

impl From<&TopicName> for TopicName {
    fn from(s: &TopicName) -> Self {
        s.clone()
    }
}

impl From<TopicName> for String {
    fn from(s: TopicName) -> Self {
        s.0.to_string()
    }
}

impl PartialEq<str> for TopicName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for TopicName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for TopicName {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<TopicName> for String {
    fn eq(&self, other: &TopicName) -> bool {
        **self == *other.0
    }
}

impl PartialEq<TopicName> for str {
    fn eq(&self, other: &TopicName) -> bool {
        *self == *other.0
    }
}

impl PartialEq<TopicName> for &str {
    fn eq(&self, other: &TopicName) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_name_orders_prints_and_compares_as_its_text() {
        let (a, b) = (TopicName::from("orders"), TopicName::from(String::from("payments")));
        assert!(a < b, "ordered as strings");
        assert_eq!(a.clone(), a);
        let owned = String::from("orders");
        assert_eq!(a, "orders");
        assert_eq!("orders", a);
        assert_eq!(a, owned);
        assert_eq!(owned, a);
        assert_eq!(format!("{a}/{a:?}"), format!("{}/{:?}", "orders", "orders"));
        let shared = a.clone();
        assert!(std::ptr::eq(shared.as_str(), a.as_str()), "a copy shares the name");
        let again = TopicName::from(String::from("orders"));
        assert!(std::ptr::eq(again.as_str(), a.as_str()), "so does the same name made again");
        assert_eq!(again.cmp(&a), std::cmp::Ordering::Equal);
        assert_eq!(TopicName::from("payments").cmp(&a), std::cmp::Ordering::Greater);
    }
}
