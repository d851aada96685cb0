//! How the workspace builds: `cargo run --release` and `cargo test --release` must resolve
//! every crate they share with the same features, or the test command compiles the engine
//! and its dependencies a second time (the top-level Cargo.toml asks for the features that
//! criterion, a dev-dependency, would otherwise add only to the test build).

use std::collections::BTreeMap;
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
