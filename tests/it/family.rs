//! The line protocol on the tafl family's boards, as a GUI drives it: choose a game with
//! `UCI_Variant`, start, search, play the answer, search again, count, go back to Tablut; a
//! move or position that does not fit the board is refused and the position stays.

use crate::common::matches::engine_session;
use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Eleven, Geometry, Seven};
use konakis_core::perft::perft;
use konakis_core::rules::Variant;
use konakis_core::types::MoveOf;

/// The moves of the session's `bestmove` lines, in order.
fn best_moves(session: &str) -> Vec<&str> {
    session
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split_whitespace().next().unwrap())
        .collect()
}

/// Replays `moves` from `variant`'s start; each must be legal in the game.
fn replay<G: Geometry>(variant: &str, moves: &[&str]) -> GameOf<G> {
    let variant = Variant::find(variant).unwrap();
    let start = BoardOf::<G>::from_fen(&variant.start_fen()).unwrap();
    let mut game = GameOf::new(variant.rules(), start);
    for text in moves {
        let mv = MoveOf::<G>::parse(text).unwrap();
        assert!(
            game.legal_moves().contains(&mv),
            "{text} in {}",
            game.board().to_fen()
        );
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn copenhagen_is_chosen_searched_played_counted_and_left_for_tablut() {
    let first = engine_session(&[
        "setoption name UCI_Variant value copenhagen-11",
        "position startpos",
        "d",
        "go depth 3",
    ]);
    let answer = best_moves(&first)[0].to_string();
    let copenhagen = Variant::find("copenhagen-11").unwrap();
    let start = BoardOf::<Eleven>::from_fen(&copenhagen.start_fen()).unwrap();
    let count = perft(&start, &copenhagen.rules(), 2);
    let session = engine_session(&[
        "setoption name UCI_Variant value copenhagen-11",
        "setoption name UCI_ShowWDL value true",
        "position startpos",
        "d",
        "go depth 3",
        &format!("position startpos moves {answer}"),
        "go depth 3",
        "position startpos",
        "go perft 2",
        "setoption name UCI_Variant value original",
        "d",
    ]);
    assert!(!session.contains("error"), "{session}");
    assert!(
        session.contains(&format!("Position: {}", copenhagen.start_fen())),
        "{session}"
    );
    assert!(session.contains("      a b c d e f g h i j k"), "{session}");
    assert!(session.contains("Game: copenhagen-11 ("), "{session}");
    assert!(
        session.contains("King: no open line to a corner"),
        "{session}"
    );
    // The win-chance model knows Tablut's games only: no wdl in the search's lines.
    assert!(
        session
            .lines()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| !l.contains(" wdl ")),
        "{session}"
    );
    let moves = best_moves(&session);
    assert_eq!(moves.len(), 2, "{session}");
    assert_eq!(moves[0], answer, "the same search gives the same answer");
    replay::<Eleven>("copenhagen-11", &moves);
    assert!(
        session.contains(&format!("Nodes searched: {count}")),
        "{count}: {session}"
    );
    // Back to Tablut: its start position on 9x9.
    assert!(
        session.contains("Position: 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0"),
        "{session}"
    );
}

#[test]
fn brandubh_defenders_move_first_under_a_clock_and_to_a_depth() {
    let session = engine_session(&[
        "setoption name UCI_Variant value hnefatafl.org-brandubh-7",
        "position startpos",
        "go wtime 300 btime 300",
        "go depth 4",
    ]);
    assert!(!session.contains("error"), "{session}");
    let moves = best_moves(&session);
    assert_eq!(moves.len(), 2, "{session}");
    for mv in moves {
        // The defenders' first move, legal in the game.
        replay::<Seven>("hnefatafl.org-brandubh-7", &[mv]);
    }
}

#[test]
fn moves_and_positions_of_another_board_are_refused_and_the_position_stays() {
    let session = engine_session(&[
        "setoption name UCI_Variant value copenhagen-11",
        "position startpos moves f2f3",
        "position startpos moves a1a2",
        "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0",
        "position startpos moves e1e3 f4f3 z9z9",
        "d",
        "setoption name UCI_Variant value clubb",
        "d",
    ]);
    let errors: Vec<&str> = session
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 4, "{session}");
    assert!(errors[0].contains("move 1: a1a2"), "{session}");
    assert!(errors[1].contains("bad position string"), "{session}");
    assert!(errors[2].contains("move 3"), "{session}");
    assert!(errors[3].contains("no variant 'clubb'"), "{session}");
    // The last good position (after f2f3) stays through each refusal.
    let after = replay::<Eleven>("copenhagen-11", &["f2f3"]);
    let shown: Vec<&str> = session
        .lines()
        .filter_map(|l| l.strip_prefix("Position: "))
        .collect();
    assert_eq!(shown, vec![after.board().to_fen(); 2], "{session}");
}
