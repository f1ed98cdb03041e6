//! A message's short label (e.g. `JoinGroup member=21b6`, formatted by
//! `Body::label` in `message_label.rs`): the animation, the space-time
//! diagram, the narration and the trace show it. It is formatted once, when
//! the world sends the message, and shared (`Rc`) by the envelope and the
//! trace's sent, delivered or dropped event, which each formatted their own
//! `String` before: with 100 members that was a tenth of a frame's simulating.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// Reads, compares, prints, debugs and serializes as the text it holds.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Label(Rc<str>);

impl Deref for Label {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Label::from)
    }
}

impl From<String> for Label {
    fn from(s: String) -> Self {
        Label(Rc::from(s))
    }
}

impl From<&str> for Label {
    fn from(s: &str) -> Self {
        Label(Rc::from(s))
    }
}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Label {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}
