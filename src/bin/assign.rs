//! `assign`: runs one assignor call per case read from stdin (the
//! vectors.json case format; one case or an array) and prints
//! `{"assignment": {member: ["topic-partition", ...]}}` (an array for array input).

use groupscope::assign::case::parse_cases;
use std::io::Read;
use std::process::ExitCode;

fn run() -> Result<String, String> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| format!("cannot read stdin: {e}"))?;
    let (cases, is_array) = parse_cases(&text)?;
    let mut outputs = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        let label = case.id.clone().unwrap_or_else(|| format!("case {i}"));
        let mut assignor = case.new_assignor().map_err(|e| format!("{label}: {e}"))?;
        let assignment = case.run(&mut assignor).map_err(|e| format!("{label}: {e}"))?;
        outputs.push(serde_json::json!({ "assignment": assignment }));
    }
    let value = if is_array { serde_json::Value::Array(outputs) } else { outputs.pop().unwrap_or_default() };
    serde_json::to_string(&value).map_err(|e| format!("cannot print the result: {e}"))
}

fn main() -> ExitCode {
    match run() {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("assign: {e}");
            ExitCode::FAILURE
        }
    }
}
