//! The kept fuzz corpora (`fuzz/corpus/<target>/`), replayed on stable Rust: every input the
//! fuzzers kept, and every input that once crashed a parser, goes through the same check as
//! in its fuzz target (`fuzz/src/checks.rs`, shared with the targets).

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus")
}

/// Runs the check of `target` on every file of its corpus; fails naming each input that fails.
fn replay(target: &str) {
    let (_, check) = checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    let dir = corpus_dir().join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "{}: {} inputs, a corpus is expected",
        dir.display(),
        files.len()
    );
    let failed: Vec<String> = files
        .iter()
        .filter(|file| {
            let data = std::fs::read(file).expect("a corpus file");
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target}: failing inputs {failed:#?}");
}

#[test]
fn every_target_has_a_corpus_and_a_fuzz_target_file() {
    let mut dirs: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("fuzz/corpus")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut targets: Vec<String> = checks::TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    targets.sort();
    assert_eq!(dirs, targets, "fuzz/corpus");
    let targets_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    let mut files: Vec<String> = std::fs::read_dir(targets_dir)
        .expect("fuzz/fuzz_targets")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let expected: Vec<String> = targets.iter().map(|t| format!("{t}.rs")).collect();
    assert_eq!(files, expected, "fuzz/fuzz_targets");
}

#[test]
fn position_corpus() {
    replay("position");
}

#[test]
fn moves_corpus() {
    replay("moves");
}

#[test]
fn protocol_line_corpus() {
    replay("protocol_line");
}

#[test]
fn otep_line_corpus() {
    replay("otep_line");
}

#[test]
fn rules_string_corpus() {
    replay("rules_string");
}

#[test]
fn position_record_corpus() {
    replay("position_record");
}

#[test]
fn otg_corpus() {
    replay("otg");
}

#[test]
fn challenge_corpus() {
    replay("challenge");
}
