//! Names that mean one thing (issue 44): each of the names below is given to one public type
//! of the workspace, so that a reader who meets it knows which one is meant.

use std::path::{Path, PathBuf};

/// The names that used to name two or three different things each.
const ONE_MEANING: [&str; 7] = [
    "Reply",
    "Settings",
    "Limits",
    "Ending",
    "ConfigError",
    "Verdict",
    "Client",
];

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The public types of the workspace's sources named `name`, as `file: line`.
fn definitions(files: &[(PathBuf, String)], name: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (path, source) in files {
        for line in source.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let defines = match words.as_slice() {
                ["pub", "struct" | "enum" | "trait" | "type", item, ..] => {
                    let item = item.split(['<', '{', '(', ';', ':']).next().unwrap_or("");
                    item == name
                }
                _ => false,
            };
            if defines {
                found.push(format!("{}: {}", path.display(), line.trim()));
            }
        }
    }
    found
}

#[test]
fn each_of_the_once_ambiguous_names_names_one_public_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(&root.join("src"), &mut paths);
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/");
    for krate in crates {
        let src = krate.expect("a crate").path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut paths);
        }
    }
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a readable source file");
            (p, text)
        })
        .collect();
    assert!(files.len() > 50, "the workspace's sources were not found");
    for name in ONE_MEANING {
        let found = definitions(&files, name);
        assert!(
            found.len() <= 1,
            "{name} names {} types:\n{}",
            found.len(),
            found.join("\n")
        );
    }
    // The reader finds definitions: the search's own settings are one.
    assert_eq!(definitions(&files, "Settings").len(), 1);
}
