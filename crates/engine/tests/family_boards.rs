//! The engine on the tafl family's boards: every variant plays whole games of legal moves
//! on its own board, the search sees the family's wins one move away, and `UCI_Variant`
//! tells the caller when a game needs an engine of another size.

use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Eleven, Nine, Seven, Thirteen};
use konakis_core::rules::{BoardSize, VARIANTS, Variant};
use konakis_core::types::MoveOf;
use konakis_engine::options::Options;
use konakis_engine::search::{Cancel, Limits};
use konakis_engine::{Engine, EngineError, Playable, Size, Start};

fn options() -> Options {
    Options {
        settings: konakis_engine::bench::settings(1, Some(1)),
        ..Options::default()
    }
}

fn depth<G: Size>(d: u32) -> Limits<G> {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Plays `variant` against itself at a small depth for up to `plies` plies: every move the
/// engine answers is one of the game's legal moves, and the game the engine holds is the one
/// replayed here.
fn self_play<G: Playable>(variant: &'static Variant, plies: usize) -> usize {
    let mut engine = Engine::<G>::for_variant(options(), variant).unwrap();
    let start = BoardOf::<G>::from_fen(&variant.start_fen()).unwrap();
    assert!(
        engine.board().same_position(&start),
        "{}: {}",
        variant.id,
        engine.board().to_fen()
    );
    let mut replay = GameOf::new(variant.rules(), start);
    let mut played = 0;
    while played < plies && !engine.game().status().is_over() {
        let outcome = engine.search(depth(2), Cancel::Never, |_, _| {}).unwrap();
        let mv = outcome.best.expect("a game not over has a move");
        assert!(
            engine.game().legal_moves().contains(&mv),
            "{}: {mv} is not legal in {}",
            variant.id,
            engine.board().to_fen()
        );
        engine.play(mv).unwrap();
        replay.play(mv).unwrap();
        played += 1;
    }
    assert!(
        engine.board().same_position(replay.board()),
        "{}",
        variant.id
    );
    played
}

#[test]
fn every_variant_plays_legal_moves_on_its_own_board() {
    for variant in VARIANTS {
        let played = match variant.size {
            BoardSize::Seven => self_play::<Seven>(variant, 40),
            BoardSize::Nine => self_play::<Nine>(variant, 40),
            BoardSize::Eleven => self_play::<Eleven>(variant, 24),
            BoardSize::Thirteen => self_play::<Thirteen>(variant, 16),
        };
        assert!(played >= 4, "{}: {played} plies", variant.id);
    }
}

/// The best move of `fen` under `variant` at depth `d`.
fn best<G: Playable>(variant: &str, fen: &str, d: u32) -> MoveOf<G> {
    let variant = Variant::find(variant).unwrap();
    let mut engine = Engine::<G>::for_variant(options(), variant).unwrap();
    let board = BoardOf::<G>::from_fen(fen).unwrap();
    engine.set_position(Start::Board(board), &[]).unwrap();
    let outcome = engine.search(depth(d), Cancel::Never, |_, _| {}).unwrap();
    outcome.best.unwrap()
}

#[test]
fn the_king_walks_into_a_corner_when_he_can() {
    // Copenhagen: the king on c1 with b1 empty walks to the corner a1.
    let m = best::<Eleven>(
        "copenhagen-11",
        "11/11/11/11/11/b10/11/11/11/11/2K5b2 w 0",
        3,
    );
    assert_eq!(m.to().to_string(), "a1", "{m}");
}

#[test]
fn brandubh_attackers_take_a_king_by_two_away_from_the_throne() {
    // hnefatafl.org's Brandubh: the king on b5 between an attacker on a5 and the empty c5; an
    // attacker on c7 drops to c5 and takes him.
    let m = best::<Seven>("hnefatafl.org-brandubh-7", "2b4/7/bK5/7/7/7/6w b 0", 2);
    assert_eq!(m.to_string(), "c7c5");
}

#[test]
fn uci_variant_names_the_board_a_game_needs() {
    let mut tablut = Engine::new(options()).unwrap();
    let before = tablut.board().to_fen();
    let e = tablut
        .set_option("UCI_Variant", Some("copenhagen-11"))
        .unwrap_err();
    assert_eq!(
        e,
        EngineError::OtherBoard {
            size: BoardSize::Eleven
        }
    );
    assert_eq!(
        e.to_string(),
        "UCI_Variant: the game is played on 11x11, not 9x9"
    );
    assert_eq!(tablut.board().to_fen(), before, "nothing changed");

    // A 9x9 game of the family is played on Tablut's engine, from its own start, and a preset
    // of Tablut's takes it back to Tablut's start.
    tablut
        .set_option("UCI_Variant", Some("opentafl-sea-battle-9"))
        .unwrap();
    let sea = Variant::find("opentafl-sea-battle-9").unwrap();
    assert!(tablut.options().rules == sea.rules());
    assert_eq!(tablut.board().to_fen(), sea.start_fen());
    tablut.set_option("UCI_Variant", Some("original")).unwrap();
    assert_eq!(tablut.board().to_fen(), before);

    let variant = Variant::find("hnefatafl.org-copenhagen-11").unwrap();
    let mut eleven = Engine::<Eleven>::for_variant(options(), variant).unwrap();
    let e = eleven
        .set_option("UCI_Variant", Some("ashton"))
        .unwrap_err();
    assert_eq!(
        e,
        EngineError::OtherBoard {
            size: BoardSize::Nine
        }
    );
    let e = eleven
        .set_option("UCI_Variant", Some("hnefatafl.org-brandubh-7"))
        .unwrap_err();
    assert_eq!(
        e,
        EngineError::OtherBoard {
            size: BoardSize::Seven
        }
    );
    eleven
        .set_option("UCI_Variant", Some("opentafl-fetlar-11"))
        .unwrap();
    let fetlar = Variant::find("opentafl-fetlar-11").unwrap();
    assert!(eleven.options().rules == fetlar.rules());
    assert!(matches!(
        Engine::<Seven>::for_variant(options(), fetlar),
        Err(EngineError::OtherBoard {
            size: BoardSize::Eleven
        })
    ));
}
