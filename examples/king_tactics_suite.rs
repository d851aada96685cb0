//! Writes the king tactics suite, crates/engine/src/tactics.txt (read by
//! `konakis bench --tactics`), from the exhaustive solver of the tests: five positions of each
//! kind (captures in one, two and three moves, parries) under each of four rule families, from
//! fixed seeds, so the same code always writes the same file.
//!
//! Run it with `cargo run --release --example king_tactics_suite` when the suite is to be
//! rebuilt; give a path as the argument to write the suite there instead.

#[path = "../tests/it/common/solver.rs"]
mod solver;

use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/crates/engine/src/tactics.txt").to_string()
    });
    let text = solver::suite_text();
    std::fs::write(&path, &text)?;
    println!(
        "wrote {} positions to {path}",
        text.lines().filter(|l| !l.starts_with('#')).count()
    );
    Ok(())
}
