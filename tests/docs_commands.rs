//! Every command the README and docs/ give still works (issue 33): each
//! `cargo run --bin NAME -- ARGS` runs this build's binary with those
//! arguments (the optional `[...]` parts left out) and must exit 0 with
//! output; each `cargo test --test native FILTER` names tests that exist; each
//! `bash scripts/X.sh` names a script that exists. A file a command names only
//! as an example (`consumer-1.log`, `case.json`) is one of the repository's
//! own: the log fixtures of a session timeout, the Assignor lab's example case.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every line of README.md and docs/*.md inside a code block, with where it is.
fn command_lines() -> Vec<(String, String)> {
    let mut files = vec![PathBuf::from(ROOT).join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a doc");
        let name = f.strip_prefix(ROOT).unwrap_or(&f).display().to_string();
        let mut inside = false;
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                inside = !inside;
            } else if inside {
                out.push((format!("{name}:{}", i + 1), line.trim().to_string()));
            }
        }
    }
    out
}

/// The words of a command line without its comment and its optional parts.
fn words(line: &str) -> Vec<String> {
    let line = line.split(" #").next().unwrap_or(line);
    let mut kept = String::new();
    let mut depth = 0;
    for c in line.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => kept.push(c),
            _ => {}
        }
    }
    kept.split_whitespace().map(str::to_string).collect()
}

/// A file the docs name only as an example, replaced by one of the repository's.
fn example_file(arg: &str) -> Option<PathBuf> {
    let logs = Path::new(ROOT).join("tests/fixtures/logs/session-timeout");
    match arg {
        "case.json" => None,
        a if a.ends_with(".log") => Some(logs.join(a)).filter(|p| p.exists()),
        _ => None,
    }
}

/// Runs `cargo run [--release] --bin NAME -- ARGS [< FILE]` as this build's binary.
fn run_binary(at: &str, words: &[String]) -> Result<(), String> {
    let bin = words.iter().position(|w| w == "--bin").map(|i| words[i + 1].as_str()).ok_or("no --bin")?;
    let exe = match bin {
        "simulate" => env!("CARGO_BIN_EXE_simulate"),
        "explain" => env!("CARGO_BIN_EXE_explain"),
        "assign" => env!("CARGO_BIN_EXE_assign"),
        other => return Err(format!("{at}: no binary named {other}")),
    };
    let after = words.iter().position(|w| w == "--").map_or(&words[words.len()..], |i| &words[i + 1..]);
    let (args, stdin) = match after.iter().position(|w| w == "<") {
        Some(i) => (&after[..i], after.get(i + 1).cloned()),
        None => (after, words.iter().position(|w| w == "<").and_then(|i| words.get(i + 1).cloned())),
    };
    let mut cmd = Command::new(exe);
    cmd.current_dir(ROOT);
    for a in args {
        let path = Path::new(ROOT).join(a);
        if a.contains('.') && !a.starts_with('-') && !path.exists() {
            cmd.arg(example_file(a).ok_or_else(|| format!("{at}: {a} exists nowhere"))?);
        } else {
            cmd.arg(a);
        }
    }
    let input = match stdin.as_deref() {
        Some("case.json") => groupscope::assign::lab::example("range"),
        Some(f) => std::fs::read_to_string(Path::new(ROOT).join(f)).map_err(|e| format!("{at}: {f}: {e}"))?,
        None => String::new(),
    };
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("{at}: {bin}: {e}"))?;
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes()).expect("the input");
    let out = child.wait_with_output().expect("the binary ends");
    if !out.status.success() || out.stdout.is_empty() {
        return Err(format!(
            "{at}: `{}` exited {} with {} bytes of output: {}",
            words.join(" "),
            out.status,
            out.stdout.len(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// `cargo test --test native FILTER`: some test's path contains FILTER.
fn test_exists(at: &str, words: &[String]) -> Result<(), String> {
    let Some(filter) = words.iter().skip_while(|w| *w != "native").nth(1).filter(|w| !w.starts_with('-')) else {
        return Ok(());
    };
    let parts: Vec<&str> = filter.trim_end_matches("::").split("::").collect();
    let module = Path::new(ROOT).join("tests");
    let file = [module.join(format!("{}.rs", parts[0])), module.join(parts[0]).join("mod.rs")];
    let Some(source) = file.iter().find_map(|f| std::fs::read_to_string(f).ok()) else {
        return Err(format!("{at}: no test module {}", parts[0]));
    };
    let last = parts[parts.len() - 1];
    let found = parts.len() == 1 || source.contains(&format!("fn {last}(")) || {
        let dir = module.join(parts[0]);
        std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|s| s.contains(&format!("fn {last}("))))
    };
    if found {
        Ok(())
    } else {
        Err(format!("{at}: no test {filter}"))
    }
}

#[test]
fn every_command_in_the_readme_and_docs_runs() {
    let mut failures = Vec::new();
    let (mut ran, mut checked) = (0, 0);
    for (at, line) in command_lines() {
        let w = words(&line);
        // A command may come after environment settings (LESSON=4 cargo test ...).
        let start = w.iter().position(|x| !x.contains('=')).unwrap_or(w.len());
        let w = &w[start..];
        let result = match w {
            [cargo, run, ..] if cargo == "cargo" && run == "run" => {
                ran += 1;
                run_binary(&at, w)
            }
            [cargo, test, ..] if cargo == "cargo" && test == "test" => {
                checked += 1;
                test_exists(&at, w)
            }
            [bash, script, ..] if bash == "bash" && script.starts_with("scripts/") => {
                checked += 1;
                if Path::new(ROOT).join(script).exists() {
                    Ok(())
                } else {
                    Err(format!("{at}: no {script}"))
                }
            }
            _ => continue,
        };
        failures.extend(result.err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 5, "the README's binaries are run: {ran}");
    assert!(checked >= 5, "the docs' test and script commands are checked: {checked}");
}
