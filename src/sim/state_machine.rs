//! One interface for every state machine of the group protocols: the
//! classic group (`ClassicGroupState`), the KIP-848 consumer group
//! (`ConsumerGroupState`) and its members on the coordinator
//! (`modern/MemberState`), both consumers' client states (AbstractCoordinator's
//! `MemberState`, the consumer protocol's `MemberState`), a coordinator
//! context (`CoordinatorRuntime.CoordinatorState`) and Connect's connectors
//! and tasks (`AbstractStatus.State`). Transitions, the trace, the page's
//! diagrams and the lesson validator all read states through it, so a new
//! state (or a new machine, for share and streams groups) shows up everywhere
//! once it is in its enum (and, for a new machine, in `sim/machines.rs`).

use serde::Serialize;

pub trait StateMachine: Copy + Eq + Sized + 'static {
    /// Kafka's name of the enum (`ClassicGroupState`).
    const MACHINE: &'static str;
    /// Every state, in Kafka's declaration order.
    const ALL: &'static [Self];

    /// The state as Kafka prints it.
    fn name(self) -> &'static str;

    /// The states this one may be entered from: Kafka's table where it has
    /// one; otherwise what the code can do, as each impl says.
    fn valid_previous_states(self) -> &'static [Self];

    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|s| s.name() == name)
    }

    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|s| s.name()).collect()
    }

    /// Every allowed change between two different states, as (from, to).
    fn edges() -> Vec<(Self, Self)> {
        let mut edges = Vec::new();
        for to in Self::ALL {
            for from in to.valid_previous_states() {
                if from != to {
                    edges.push((*from, *to));
                }
            }
        }
        edges
    }
}

/// A machine's `ALL` and `name()` from its variant list, in declaration
/// order: every state is named as Kafka's enum names it, which is also the
/// variant's name here.
macro_rules! states {
    ($ty:ident: $($state:ident),+ $(,)?) => {
        const ALL: &'static [$ty] = &[$($ty::$state),+];

        fn name(self) -> &'static str {
            match self {
                $($ty::$state => stringify!($state)),+
            }
        }
    };
}
pub(crate) use states;

/// A state's name in a trace event, made only from a machine's state, so the
/// trace cannot carry a name its machine does not have. Serialized as the
/// bare name (the trace hash is unchanged from the plain strings it replaces).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct StateName(&'static str);

impl StateName {
    pub fn of<S: StateMachine>(state: S) -> StateName {
        StateName(state.name())
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Debug for StateName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl std::fmt::Display for StateName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::ops::Deref for StateName {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl PartialEq<str> for StateName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<String> for StateName {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_str()
    }
}

impl PartialEq<&str> for StateName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// A machine's states and allowed changes by name, for readers that hold
/// names (a lesson's conditions, the trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Kafka's name of the enum.
    pub machine: &'static str,
    pub names: Vec<&'static str>,
    /// Every (previous, next) pair the machine allows, staying put included
    /// where its table allows that.
    pub allowed: Vec<(&'static str, &'static str)>,
}

impl Table {
    pub fn of<S: StateMachine>() -> Table {
        let allowed = S::ALL
            .iter()
            .flat_map(|to| to.valid_previous_states().iter().map(move |from| (from.name(), to.name())))
            .collect();
        Table { machine: S::MACHINE, names: S::names(), allowed }
    }

    pub fn allows(&self, from: &str, to: &str) -> bool {
        self.allowed.iter().any(|(f, t)| *f == from && *t == to)
    }
}
