//! The fixture logs of "Explain my rebalance" (`tests/fixtures/logs/<story>/`).

use groupscope::explain::explain_files;
use groupscope::explain::model::Report;

/// The files of a story, in name order.
pub fn files(dir: &str) -> Vec<std::path::PathBuf> {
    let base = format!("{}/tests/fixtures/logs/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&base).expect("fixture dir").map(|e| e.expect("entry").path()).collect();
    names.sort();
    names
}

/// A story's files explained together (merged on their timestamps).
pub fn fixture(dir: &str) -> Report {
    let texts: Vec<(String, String)> =
        files(dir).iter().map(|p| (p.display().to_string(), std::fs::read_to_string(p).expect("fixture"))).collect();
    let refs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    explain_files(&refs)
}
