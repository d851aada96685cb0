//! Konakis' perft of every variant's start position against the counts other programs made,
//! tests/data/perft/reference.txt (docs/variants-sources.md, "Reference perft counts").
//!
//! Each line names the host's game, which is the id of the [`Variant`] that follows that host.
//! The counts to depth 3 are checked by `reference_counts_to_depth_3_agree`; the deeper ones,
//! minutes of work, by the ignored `reference_counts_deeper_than_3_agree`
//! (`cargo test --release -p konakis-core --test perft_reference -- --ignored`).

use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::perft::perft_game;
use konakis_core::rules::{BoardSize, Variant};

/// One line of the reference file.
struct Reference {
    line: usize,
    variant: String,
    depth: u32,
    count: u64,
}

fn references() -> Vec<Reference> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/perft/reference.txt"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/perft/reference.txt is readable");
    let mut refs = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "line {}: {raw}", i + 1);
        refs.push(Reference {
            line: i + 1,
            variant: fields[0].to_string(),
            depth: fields[1].parse().expect("a depth"),
            count: fields[2].parse().expect("a count"),
        });
    }
    refs
}

fn perft_of<G: Geometry>(variant: &Variant, depth: u32) -> u64 {
    let board = BoardOf::<G>::from_fen(&variant.start_fen()).expect("the start is valid");
    perft_game(&GameOf::new(variant.rules(), board), depth)
}

/// Konakis' count for the variant's start position.
fn konakis_perft(variant: &Variant, depth: u32) -> u64 {
    match variant.size {
        BoardSize::Seven => perft_of::<Seven>(variant, depth),
        BoardSize::Nine => perft_of::<Nine>(variant, depth),
        BoardSize::Eleven => perft_of::<Eleven>(variant, depth),
        BoardSize::Thirteen => perft_of::<Thirteen>(variant, depth),
    }
}

/// Checks every line with a depth in `depths` whose variant Konakis has; returns the lines
/// checked and the variants of the file it has no preset for.
fn check(depths: std::ops::RangeInclusive<u32>) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut missing = Vec::new();
    for r in references() {
        if !depths.contains(&r.depth) {
            continue;
        }
        let Some(variant) = Variant::find(&r.variant) else {
            if !missing.contains(&r.variant) {
                missing.push(r.variant.clone());
            }
            continue;
        };
        let got = konakis_perft(variant, r.depth);
        println!("{} {} {} (reference {})", r.variant, r.depth, got, r.count);
        if got != r.count {
            failures.push(format!(
                "line {}: {} depth {}: Konakis counts {got}, the reference {}",
                r.line, r.variant, r.depth, r.count
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (checked, missing)
}

#[test]
fn reference_counts_to_depth_3_agree() {
    let (checked, missing) = check(1..=3);
    // The variant Konakis has no preset for: Berserk (docs/rules.md says why).
    assert_eq!(missing, ["opentafl-berserk-11"]);
    assert!(checked >= 33, "{checked} lines checked");
}

#[test]
#[ignore = "minutes in release mode; run by hand (see the module's comment)"]
fn reference_counts_deeper_than_3_agree() {
    let (checked, _) = check(4..=9);
    assert!(checked >= 8, "{checked} lines checked");
}
