//! Running `konakis` to completion, `konakis match` and what it writes, and scratch
//! directories.

use super::KONAKIS;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The fake engine `tests/engines/fake_engine.py` (the line protocol, or OTEP with
/// `--proto otep`).
pub fn fake_engine() -> String {
    format!(
        "{}/tests/engines/fake_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh, empty scratch directory for one test: `konakis-<test program>-<pid>-<name>` in the
/// system's temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "konakis-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `konakis` with `args` and no input, to completion.
pub fn run(args: &[&str]) -> Output {
    Command::new(KONAKIS)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("konakis runs")
}

/// Bytes of output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A path as an argument.
pub fn p(path: &Path) -> String {
    path.display().to_string()
}

/// Runs a `konakis` command (a match) that must succeed, and returns the JSON it wrote to
/// `json`.
pub fn run_match(args: &[&str], json: &Path) -> Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "match failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    read_json(json)
}

/// The JSON in the file at `path`.
pub fn read_json(path: &Path) -> Value {
    let t = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{t}"))
}

/// The faults a match's JSON counts per engine.
pub const FAULTS: [&str; 4] = [
    "time_forfeits",
    "crashes",
    "illegal_moves",
    "protocol_errors",
];

/// Asserts that no engine of the match's JSON `v` committed any fault.
pub fn assert_no_faults(v: &Value, context: &str) {
    for e in v["engines"].as_array().expect("an engines array") {
        for fault in FAULTS {
            assert_eq!(e[fault], 0, "{context}: {} {fault}: {v}", e["name"]);
        }
    }
}

/// Everything konakis writes on stdout for `lines` (then `quit`); after a `go` line, waits
/// for its `bestmove` before sending the next.
pub fn engine_session(lines: &[&str]) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = std::process::Command::new(KONAKIS)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    for line in lines.iter().chain(&["quit"]) {
        writeln!(stdin, "{line}").unwrap();
        if line.starts_with("go ") {
            // A search ends with its bestmove, a perft with its count.
            let last = if line.starts_with("go perft") {
                "Nodes searched"
            } else {
                "bestmove"
            };
            let mut reply = String::new();
            while !reply.starts_with(last) {
                reply.clear();
                assert!(stdout.read_line(&mut reply).unwrap() > 0, "{text}");
                text.push_str(&reply);
            }
        }
    }
    drop(stdin);
    stdout.read_to_string(&mut text).unwrap();
    child.wait().unwrap();
    text
}
