//! `assign`: runs one assignor call per case read from stdin (the
//! vectors.json case format; one case or an array) and prints
//! `{"assignment": {member: ["topic-partition", ...]}}` (an array for array input).

use groupscope::assign::case::assign_text;
use std::io::Read;
use std::process::ExitCode;

fn run() -> Result<String, String> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| format!("cannot read stdin: {e}"))?;
    assign_text(&text)
}

fn main() -> ExitCode {
    // The benchmark times with std::time::Instant, which wasm32 lacks (the
    // wasm tests build every target of the crate).
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(code) = groupscope::assign::bench::from_args(std::env::args().skip(1)) {
        return code;
    }
    match run() {
        Ok(out) => {
            // A closed pipe (`assign | head -c1`) is not an error.
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        // Bad input exits 2, as `simulate` does.
        Err(e) => {
            eprintln!("assign: {e}");
            ExitCode::from(2)
        }
    }
}
