//! [`TopicName`]: a topic's name shared by every [`super::TopicPartition`] of
//! that topic, as Java's `TopicPartition` objects share one `String`: copying
//! a partition copies a pointer, not the name. An assignor building 10,000
//! partitions allocates one name per topic instead of one per partition. (`Rc`,
//! not `Arc`: the simulation is single-threaded, and an atomic count on every
//! copy cost 10% of a small sticky assignment.)

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// Compares, orders, hashes, prints and debugs as the `str` it holds.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TopicName(Rc<str>);

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
        TopicName(Rc::from(s))
    }
}

impl From<String> for TopicName {
    fn from(s: String) -> Self {
        TopicName(Rc::from(s))
    }
}

impl From<&String> for TopicName {
    fn from(s: &String) -> Self {
        TopicName(Rc::from(s.as_str()))
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
    }
}
