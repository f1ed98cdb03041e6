//! What every dialect of the explainer is: one per client library and one for the broker,
//! each behind this trait and listed once, in `dialects::DIALECTS`. A dialect says which client or broker it reads,
//! the source files whose log statements it reads, the statements' fixed text (its keywords),
//! which lines it claims (by their log context or layout) and how it parses one.
//!
//! The reader offers a line first to the dialects that claim it, then to every other one in
//! the list's order: nothing is skipped because it lacks a word a dialect expected.

use super::event::{Ev, Who};
use super::layout::Stripped;

/// One client library's (or the broker's) log statements.
pub trait Dialect: Sync {
    /// The client or broker, as the docs name it.
    fn name(&self) -> &'static str;
    /// The source files (repository and path) whose log statements it reads.
    fn sources(&self) -> &'static [&'static str];
    /// The fixed text of the statements it reads (placeholders as `{}`).
    fn keywords(&self) -> &'static [&'static str];
    /// One line as the library prints it (the docs show it; a test reads it).
    fn example(&self) -> &'static str;
    /// The line is this dialect's by its log context, logger or layout.
    fn claims(&self, line: &Stripped) -> bool;
    /// Reads the line. `who` holds what the file told so far; the dialect updates it with what
    /// the line says (group, client, member, broker).
    fn parse(&self, line: &Stripped, who: &mut Who) -> Option<Vec<Ev>>;
}
