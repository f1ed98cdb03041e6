//! Why an injected fault is ignored: it would take the run past one of the
//! caps scenarios have (`World::within_caps`). Data inside the `FaultIgnored`
//! note; English from `Display`, Chinese from `crate::narrate_zh`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CapExceeded {
    /// Adding `count` partitions would make more than `max` in all.
    Partitions { count: u32, max: u32 },
    /// The run already has `max` consumers.
    Consumers { max: u32 },
    /// The run already has `max` Connect workers.
    Workers { max: u32 },
}

impl fmt::Display for CapExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapExceeded::Partitions { count, max } => write!(f, "{count} partitions would make more than {max} in all"),
            CapExceeded::Consumers { max } => write!(f, "the run already has {max} consumers"),
            CapExceeded::Workers { max } => write!(f, "the run already has {max} workers"),
        }
    }
}
