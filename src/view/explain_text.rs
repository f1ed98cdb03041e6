//! The Explain logs tab's words that are not in the translation tables: how
//! long something took (`850 ms`, `2.1 s`, `4.5 min`), in the reader's language.

use crate::i18n::{trf, Lang};

/// `850 ms`, `2.1 s`, `4.5 min`.
pub fn duration(lang: Lang, ms: i64) -> String {
    if ms < 1000 {
        trf(lang, "explain.ms", &[&ms])
    } else if ms < 120_000 {
        trf(lang, "explain.s", &[&format!("{:.1}", ms as f64 / 1000.0)])
    } else {
        trf(lang, "explain.min", &[&format!("{:.1}", ms as f64 / 60_000.0)])
    }
}
