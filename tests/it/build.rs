//! How the workspace builds: `cargo run --release` and `cargo test --release` must resolve
//! every crate they share with the same features, or the test command compiles the engine
//! and its dependencies a second time (the top-level Cargo.toml asks for the features that
//! criterion, a dev-dependency, would otherwise add only to the test build); and what a clone
//! holds is all it needs (no text points at notes that only the developers' machines have).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Each package of the workspace's build graph (host target), as `name version` → its
/// features, with or without the dev-dependencies' edges.
fn resolved_features(with_dev: bool) -> BTreeMap<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let edges = if with_dev {
        "normal,build,dev"
    } else {
        "normal,build"
    };
    let output = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tree",
            "--workspace",
            // The Python module is built by maturin, not by these commands; and on a clone
            // where only they have run, its dependencies (PyO3) are not downloaded yet.
            "--exclude",
            "konakis-python",
            "--offline",
            "--prefix",
            "none",
            "-e",
            edges,
        ])
        .args(["-f", "{p}|{f}"])
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("cargo tree writes UTF-8");
    let mut features = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim_end_matches(" (*)");
        let Some((package, list)) = line.split_once('|') else {
            continue;
        };
        // A workspace member's line ends with its path; the name and version identify it.
        let id = package.split(" (").next().unwrap_or(package).to_string();
        features.insert(id, list.trim().to_string());
    }
    features
}

#[test]
fn the_test_build_reuses_the_binary_build_features() {
    let build = resolved_features(false);
    let test = resolved_features(true);
    assert!(
        build.contains_key("konakis-core v0.1.0"),
        "the graph lists the workspace: {build:?}"
    );
    let differ: Vec<String> = build
        .iter()
        .filter_map(|(id, features)| {
            let in_test = test.get(id)?;
            (in_test != features).then(|| format!("{id}: [{features}] / with tests [{in_test}]"))
        })
        .collect();
    assert!(
        differ.is_empty(),
        "these crates would be compiled twice; ask for the test build's features in the \
         top-level Cargo.toml:\n{}",
        differ.join("\n")
    );
}

/// The text files of the repository under `dir`, without what builds and installs write.
fn text_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | "dist" | ".git") {
                text_files(&path, out);
            }
        } else if [
            ".rs", ".md", ".sh", ".py", ".toml", ".mjs", ".js", ".html", ".yaml", ".txt",
        ]
        .iter()
        .any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

#[test]
fn no_file_points_at_notes_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    text_files(root, &mut files);
    assert!(
        files.len() > 50,
        "{} files found under {root:?}",
        files.len()
    );
    // Spelled in pieces so that this file does not name them itself.
    let outside: Vec<String> = ["RULES", "ASHTON", "OPENTAFL"]
        .iter()
        .map(|name| format!("{name}.md"))
        .chain([
            format!("{}/shared", "/work"),
            format!("{}/{}/", "..", "shared"),
        ])
        .collect();
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if outside.iter().any(|name| line.contains(name.as_str())) {
                found.push(format!("{}:{}: {line}", file.display(), number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a clone has no such file:\n{}",
        found.join("\n")
    );
}

/// The Rust files under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Libraries return values, binaries print: no library crate writes to the terminal itself
/// (the binary, `src/`, and the Python module's entry points decide what goes to stdout and
/// stderr). A protocol loop writes to the writer it is given, which is not this.
#[test]
fn library_crates_do_not_print() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for krate in ["core", "engine", "nnue", "protocols", "runner", "wasm"] {
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 50, "{} files found", files.len());
    // Spelled in pieces so that this file does not match itself.
    let writes: Vec<String> = ["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!("]
        .iter()
        .map(|m| (*m).to_string())
        .chain(["stdout()", "stderr()"].map(|s| format!("io::{s}")))
        .collect();
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let mut lines = text.lines().enumerate().peekable();
        while let Some((number, line)) = lines.next() {
            // A file's unit tests (at its end) may say what they skip.
            if line == "#[cfg(test)]" && lines.peek().is_some_and(|(_, l)| l.starts_with("mod ")) {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            if writes.iter().any(|w| code.contains(w.as_str())) {
                found.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "library code writes to the terminal:\n{}",
        found.join("\n")
    );
}

/// The file paths `text` names: words with a `/` that end in `.rs`, `.md` or `.txt`.
fn named_paths(text: &str) -> Vec<&str> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    text.split(|c: char| !is_path_char(c))
        .map(|word| word.trim_end_matches('.'))
        .filter(|word| word.contains('/'))
        .filter(|word| [".rs", ".md", ".txt"].iter().any(|e| word.ends_with(e)))
        .collect()
}

/// The paths of `named` found under none of `bases`.
fn missing_paths<'a>(named: &[&'a str], bases: &[std::path::PathBuf]) -> Vec<&'a str> {
    named
        .iter()
        .copied()
        .filter(|path| !bases.iter().any(|base| base.join(path).is_file()))
        .collect()
}

/// The tour of the code names files that exist: each path it gives is found from the
/// repository's root or from a crate's `src/`.
#[test]
fn the_architecture_tour_names_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).expect("it reads");
    let mut bases = vec![root.to_path_buf()];
    for entry in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        bases.push(entry.path().join("src"));
    }
    let named = named_paths(&text);
    assert!(
        named.len() > 20,
        "only {} paths in docs/architecture.md",
        named.len()
    );
    let missing = missing_paths(&named, &bases);
    assert!(
        missing.is_empty(),
        "docs/architecture.md names files that do not exist: {missing:?}"
    );
}

/// The fuzz crate's manifest (built only by `cargo +nightly fuzz`, so no stable build reads
/// it) names files that exist, from fuzz/ or from the repository's root.
#[test]
fn the_fuzz_manifest_names_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).expect("it reads");
    let named = named_paths(&text);
    assert!(
        named.len() >= 8,
        "only {} paths in fuzz/Cargo.toml",
        named.len()
    );
    let missing = missing_paths(&named, &[root.join("fuzz"), root.to_path_buf()]);
    assert!(
        missing.is_empty(),
        "fuzz/Cargo.toml names files that do not exist: {missing:?}"
    );
}
