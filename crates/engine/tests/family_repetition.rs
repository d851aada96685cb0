//! The search under the family's repetition rules: a repetition that loses is not played as if
//! it were a draw.

use konakis_core::geometry::Eleven;
use konakis_core::rules::Variant;
use konakis_core::types::MoveOf;
use konakis_engine::options::Options;
use konakis_engine::search::{Cancel, Limits};
use konakis_engine::{Engine, Start};

/// A game OpenTafl 0.4.8 hosted (tests/data/opentafl/hosted/copenhagen-konakis-defenders.otg):
/// Konakis, with the defenders, shuffled g6-i6 and back until its 66th ply, i6-g6, repeated
/// the position a third time, which under OpenTafl's Copenhagen (`tfr:w`) loses for the side
/// that makes it.
const MOVES: &str = "f2-j2 h6-h3 f1-f3 g5-g3 e1-e3 g3-g5 b6-b2 g5-i5 j6-j10 g7-j7 f10-b10 f4-h4 \
    a6-c6 e7-e9 h1-i1 e9-i9 a8-a9 j7-j6 k4-k3 f8-b8 a7-b7 b8-h8 d11-d8 f7-d7 d8-f8 i9-i8 \
    g1-g3 h3-i3 a5-c5 e6-e8 g11-g8 j6-j7 k8-k9 e8-e6 a4-c4 j7-h7 k6-j6 i5-i7 d1-d3 i3-i6 \
    h11-h9 e6-e8 f11-i11 e8-e9 k5-j5 h7-f7 h9-f9 e9-e8 f9-h9 i6-i3 e11-e9 e8-e7 k7-j7 d7-d11 \
    g8-g9 d11-d7 a9-d9 f7-h7 j5-i5 g6-i6 i5-j5 i6-g6 j5-i5 g6-i6 i5-j5";

#[test]
fn the_defenders_do_not_repeat_into_a_loss_under_opentafls_copenhagen() {
    let variant = Variant::find("opentafl-copenhagen-11").unwrap();
    let options = Options {
        settings: konakis_engine::bench::settings(1, Some(1)),
        ..Options::default()
    };
    let mut engine = Engine::<Eleven>::for_variant(options, variant).unwrap();
    let moves: Vec<MoveOf<Eleven>> = MOVES
        .split_whitespace()
        .map(|m| MoveOf::parse(&m.replace('-', "")).unwrap())
        .collect();
    assert_eq!(moves.len(), 65);
    engine.set_position(Start::StartPos, &moves).unwrap();
    assert!(!engine.game().status().is_over());
    let losing = MoveOf::<Eleven>::parse("i6g6").unwrap();
    // The repetition is a legal move, and the game's referee says it loses.
    let mut after = engine.game().clone();
    assert!(after.play(losing).unwrap().is_over());
    for depth in 1..=4 {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let outcome = engine.search(limits, Cancel::Never, |_, _| {}).unwrap();
        assert_ne!(outcome.best, Some(losing), "depth {depth}");
    }
}
