//! Guided lessons (issue 7): scripted scenarios on the real simulation, with
//! narration tied to simulation events, predict-then-reveal questions and
//! expectations checked when each step's event happens, in English and
//! Simplified Chinese.
//!
//! - `model`: the lesson format (JSON files in `lessons/`);
//! - `validate`: static checks with messages that say where the problem is;
//! - `check`: conditions (which event ends a step) and expectations;
//! - `session`: the API the page's lesson player drives, on top of `Player`;
//! - `clicker`: what a key or a presenter's clicker does in each phase;
//! - `runner`: plays a lesson headless (native tests);
//! - `conceal`: what the page hides while a question waits;
//! - `live_text`: placeholders that put the run's state in a text (wrap-ups);
//! - `fair`: the per-learner choice order and the course's answer balance;
//! - `registry`: the embedded course.

mod check;
pub mod clicker;
pub mod conceal;
pub mod fair;
pub mod live_text;
pub mod model;
pub mod registry;
pub mod runner;
pub mod session;
pub mod validate;

pub use conceal::{Concealed, Secret};
pub use model::{Choice, Condition, Expectation, Lang, Lesson, Question, Step, StepCompare, Task, TaskOption, Text};
pub use registry::{find, lessons, parse_link};
pub use session::{Feedback, LessonSession, Phase, Progress, Reached};
