//! Every rule and quirk of the Tablut Challenge's Ashton rules (docs/rules.md, "Ashton rules"),
//! checked on hand-built positions through the public API with `Rules::ashton()`.
//!
//! Positions are drawn as pictures: nine rows, rank 9 on top, files a to i from left to right,
//! `b` an attacker (black), `w` a defender (white), `K` the king, `+` the empty throne, `*` an
//! empty camp square and `.` any other empty square. The helper checks that `*` and `.` are
//! used on the right squares, so every picture shows where the camps are.

use crate::common::board::{from_camp_picture, mv, set, sq};
use konakis::{Bitboard, Board, DrawReason, Game, Rules, Side, Square, Status, WinReason};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The squares the piece on `from` may move to.
fn dests(b: &Board, from: &str) -> Bitboard {
    b.legal_moves(&Rules::ashton())
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to())
        .collect()
}

/// Plays `text` (which must be legal) and returns the board after it and what it captured.
fn play(b: &Board, text: &str) -> (Board, Bitboard) {
    let rules = Rules::ashton();
    let m = mv(text);
    b.check_move(&rules, m)
        .unwrap_or_else(|e| panic!("{e} in {b:?}"));
    let mut after = *b;
    let captured = after.play(&rules, m);
    (after, captured)
}

/// Whether the king is captured after `text`.
fn king_taken_by(b: &Board, text: &str) -> bool {
    let (after, _) = play(b, text);
    let taken = after.king().is_none();
    assert_eq!(
        after.status(&Rules::ashton()) == Status::Win(Side::Attackers, WinReason::KingCaptured),
        taken
    );
    taken
}

// ---------------------------------------------------------------------------------------------
// The rule set and the start
// ---------------------------------------------------------------------------------------------

#[test]
fn ashton_starts_with_white_to_move_and_white_has_56_moves() {
    let rules = Rules::ashton();
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Defenders);
    assert_eq!(b.legal_moves(&rules).len(), 56);
    assert_eq!(b.attackers(), Bitboard::CAMPS);
}

// ---------------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------------

const OUTSIDE: &str = "
    . . . * * * . . .
    . . . . * . b . .
    . . . . . . . . .
    * . . . . . . . *
    * * . . + . . * *
    * . . . . . . . *
    . . . . . . . . .
    . . w . * . . K .
    . . . * * * . . .";

#[test]
fn white_soldiers_and_the_king_never_enter_or_cross_a_camp() {
    let b = from_camp_picture(OUTSIDE, Side::Defenders);
    // c2 stops at d2, before the camp square e2; f2 and beyond stay out of reach.
    assert_eq!(dests(&b, "c2"), set("a2 b2 d2 c1 c3 c4 c5 c6 c7 c8 c9"));
    // The king on h2: e2 stops him going west, h5 going north.
    assert_eq!(dests(&b, "h2"), set("g2 f2 i2 h1 h3 h4"));
    let why = b.check_move(&Rules::ashton(), mv("c2e2")).unwrap_err();
    assert!(why.to_string().contains("camp"), "{why}");
}

#[test]
fn a_black_soldier_outside_the_camps_never_enters_or_crosses_one() {
    let b = from_camp_picture(OUTSIDE, Side::Attackers);
    // g8: e8 stops it going west; file g has no camp.
    assert_eq!(dests(&b, "g8"), set("f8 h8 i8 g9 g7 g6 g5 g4 g3 g2 g1"));
}

#[test]
fn a_black_soldier_that_left_its_camp_can_never_go_back() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * b . + . . * *
        * . . . . . . . *
        b . . . . . . . .
        . . . . * . . K .
        . . . * * * . . .",
        Side::Attackers,
    );
    // a3 was in the west camp: a4 is closed to it now.
    assert_eq!(dests(&b, "a3"), set("a2 a1 b3 c3 d3 e3 f3 g3 h3 i3"));
    // c5: b5 is a camp square, e5 the throne.
    assert_eq!(dests(&b, "c5"), set("d5 c9 c8 c7 c6 c4 c3 c2 c1"));
}

#[test]
fn a_black_soldier_in_its_camp_moves_within_it_and_out_across_it() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        b . . . . . . . *
        . . . . . . . . .
        . . . . * . K . .
        . . . b * * . . .",
        Side::Attackers,
    );
    // d1 crosses e1 and f1 (its camp) to g1 and beyond; d9 is another camp.
    assert_eq!(
        dests(&b, "d1"),
        set("e1 f1 g1 h1 i1 c1 b1 a1 d2 d3 d4 d5 d6 d7 d8")
    );
    // a4 moves up its camp (a5, a6) and out beyond it; i4 is another camp.
    assert_eq!(
        dests(&b, "a4"),
        set("a3 a2 a1 a5 a6 a7 a8 a9 b4 c4 d4 e4 f4 g4 h4")
    );
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . . . . . . . .
        . . . . * . K . .
        . . . * b * . . .",
        Side::Attackers,
    );
    // e1 goes up across e2 to e3 and e4; the throne stops it there.
    assert_eq!(dests(&b, "e1"), set("d1 c1 b1 a1 f1 g1 h1 i1 e2 e3 e4"));
}

#[test]
fn the_four_cross_board_lines_stop_short_of_the_far_camp() {
    // The server refuses camp-to-camp moves more than 5 squares apart: a4-i4, a6-i6, d1-d9
    // and f1-f9 are the only such lines. The far camp squares are empty here.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        b . . . . . . . *
        * * . . + . . * *
        b . . . . . . . *
        . . . . . . . . .
        . K . . * . . . .
        . . . b * b . . .",
        Side::Attackers,
    );
    let reach = |from: &str| dests(&b, from);
    assert!(reach("a4").has(sq("h4")) && !reach("a4").has(sq("i4")));
    assert!(reach("a6").has(sq("h6")) && !reach("a6").has(sq("i6")));
    assert!(reach("d1").has(sq("d8")) && !reach("d1").has(sq("d9")));
    assert!(reach("f1").has(sq("f8")) && !reach("f1").has(sq("f9")));
    let why = b.check_move(&Rules::ashton(), mv("d1d9")).unwrap_err();
    assert!(why.to_string().contains("camp"), "{why}");
}

#[test]
fn the_throne_blocks_everyone_and_the_king_never_returns_to_it() {
    let picture = "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . K . . . *
        * * b . + . . * *
        * . . . w . . . *
        . . . . . . . . .
        . . . . * . . . .
        . . . * * * . . .";
    let b = from_camp_picture(picture, Side::Defenders);
    // The king on e6: e5 below is the throne, a6, i6 and e8 are camps.
    assert_eq!(dests(&b, "e6"), set("b6 c6 d6 f6 g6 h6 e7"));
    // e4 neither stops on the throne nor crosses it; a4, i4 and e2 are camps.
    assert_eq!(dests(&b, "e4"), set("b4 c4 d4 f4 g4 h4 e3"));
    // Black on c5 stops before the throne.
    let b = from_camp_picture(picture, Side::Attackers);
    assert_eq!(dests(&b, "c5"), set("d5 c9 c8 c7 c6 c4 c3 c2 c1"));
}

// ---------------------------------------------------------------------------------------------
// Captures by White (soldier or king)
// ---------------------------------------------------------------------------------------------

/// c3 black, the mover on b2 (white soldier or king), `d3` beyond, the king (if not moving and
/// not on d3) on h7.
fn white_sandwich(mover: char, d3: char) -> Board {
    let h7 = if mover == 'K' || d3 == 'K' { '.' } else { 'K' };
    from_camp_picture(
        &format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . {h7} .
            * . . . . . . . *
            * * . . + . . * *
            * . . . . . . . *
            . . b {d3} . . . . .
            . {mover} . . * . . . .
            . . . * * * . . ."
        ),
        Side::Defenders,
    )
}

#[test]
fn white_captures_black_against_a_white_soldier_or_the_king_and_the_king_captures_too() {
    assert_eq!(play(&white_sandwich('w', 'w'), "b2b3").1, set("c3"));
    // The king is armed: as the far partner and as the mover.
    assert_eq!(play(&white_sandwich('w', 'K'), "b2b3").1, set("c3"));
    assert_eq!(play(&white_sandwich('K', 'w'), "b2b3").1, set("c3"));
    // Nothing beyond, or black beyond: nothing taken.
    assert_eq!(play(&white_sandwich('w', '.'), "b2b3").1, Bitboard::EMPTY);
    assert_eq!(play(&white_sandwich('w', 'b'), "b2b3").1, Bitboard::EMPTY);
}

#[test]
fn white_captures_black_against_the_throne_empty_or_with_the_king_on_it() {
    let picture = |e5: char, h7: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . {h7} .
            * . . . . . . . *
            * * . . {e5} . . * *
            * . . . b . . . *
            . . . w . . . . .
            . . . . * . . . .
            . . . * * * . . ."
        )
    };
    let empty = from_camp_picture(&picture('+', 'K'), Side::Defenders);
    assert_eq!(play(&empty, "d3e3").1, set("e4"));
    let king_on_it = from_camp_picture(&picture('K', '.'), Side::Defenders);
    assert_eq!(play(&king_on_it, "d3e3").1, set("e4"));
}

#[test]
fn white_captures_black_against_a_camp_square_empty_or_held_by_black() {
    // Quirk 4: c1 dies against the empty camp square d1, c5 against b5 with black on it.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . K .
        . . . w . . . . .
        * . . . . . . . *
        * b b . + . . * *
        * . . . . . . . *
        . . . . . . . . .
        . w . . * . . . .
        . . b * * * . . .",
        Side::Defenders,
    );
    assert_eq!(play(&b, "b2b1").1, set("c1"));
    assert_eq!(play(&b, "d7d5").1, set("c5"));
}

#[test]
fn a_black_soldier_on_a_camp_square_is_taken_only_between_white_pieces() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . w . . . . K .
        * . . . . . . . *
        * b . . + . . * *
        * . . . . . . . *
        . . . . . w . . .
        . . w . b . . . .
        . . . b * * . . .",
        Side::Defenders,
    );
    // b5 against a5, e2 against e1, d1 against e1: camp squares are no anvils against them.
    assert_eq!(play(&b, "c7c5").1, Bitboard::EMPTY);
    assert_eq!(play(&b, "f3e3").1, Bitboard::EMPTY);
    assert_eq!(play(&b, "c2c1").1, Bitboard::EMPTY);
    // Between two white pieces it is taken like any soldier.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . K .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . . w . . . . .
        . . . . b w . . .
        . . . * * * . . .",
        Side::Defenders,
    );
    assert_eq!(play(&b, "d3d2").1, set("e2"));
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . K .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . w . w . . . .
        . . . b * . . . .
        . . . * * * . . .",
        Side::Attackers,
    );
    let (after, taken) = play(&b, "d2d3");
    assert_eq!(taken, Bitboard::EMPTY);
    assert!(
        after.attackers().has(sq("d3")),
        "d3 between c3 and e3 survives"
    );
}

// ---------------------------------------------------------------------------------------------
// Captures by Black
// ---------------------------------------------------------------------------------------------

#[test]
fn black_captures_white_against_a_black_soldier() {
    let picture = |d3: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . K .
            * . . . . . . . *
            * * . . + . . * *
            * . . . . . . . *
            . . w {d3} . . . . .
            . b . . * . . . .
            . . . * * * . . ."
        )
    };
    assert_eq!(
        play(&from_camp_picture(&picture('b'), Side::Attackers), "b2b3").1,
        set("c3")
    );
    assert_eq!(
        play(&from_camp_picture(&picture('.'), Side::Attackers), "b2b3").1,
        Bitboard::EMPTY
    );
    assert_eq!(
        play(&from_camp_picture(&picture('w'), Side::Attackers), "b2b3").1,
        Bitboard::EMPTY
    );
}

#[test]
fn black_captures_white_against_a_camp_square_empty_or_occupied() {
    let picture = |e2: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . K .
            * . . . . . . . *
            * * . . + . . * *
            * . . . . . . . *
            . . b . . . . . .
            . . . w {e2} . . . .
            . . . * * * . . ."
        )
    };
    // c3 to c2: d2 lies between c2 and the camp square e2.
    assert_eq!(
        play(&from_camp_picture(&picture('*'), Side::Attackers), "c3c2").1,
        set("d2")
    );
    assert_eq!(
        play(&from_camp_picture(&picture('b'), Side::Attackers), "c3c2").1,
        set("d2")
    );
}

#[test]
fn black_captures_white_against_the_throne_even_with_the_king_on_it() {
    // Quirk 5: the throne is hostile to white soldiers by its square name.
    let picture = |e5: char, h7: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . {h7} .
            * . . . . . . . *
            * * . . {e5} . . * *
            * . . . w . . . *
            . . . b . . . . .
            . . . . * . . . .
            . . . * * * . . ."
        )
    };
    assert_eq!(
        play(
            &from_camp_picture(&picture('+', 'K'), Side::Attackers),
            "d3e3"
        )
        .1,
        set("e4")
    );
    let (after, taken) = play(
        &from_camp_picture(&picture('K', '.'), Side::Attackers),
        "d3e3",
    );
    assert_eq!(taken, set("e4"));
    assert_eq!(after.king(), Some(Square::THRONE));
}

// ---------------------------------------------------------------------------------------------
// King capture
// ---------------------------------------------------------------------------------------------

#[test]
fn the_king_on_the_throne_is_taken_by_four() {
    let picture = |f5: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . . .
            * . . . b . . . *
            * * . b K {f5} . * *
            * . . . . . . . *
            . . . . b . . . .
            . . . . * . . . .
            . . . * * * . . ."
        )
    };
    // e3 to e4 completes the four.
    assert!(king_taken_by(
        &from_camp_picture(&picture('b'), Side::Attackers),
        "e3e4"
    ));
    // Three and a white soldier, or three and an empty square: not taken.
    assert!(!king_taken_by(
        &from_camp_picture(&picture('w'), Side::Attackers),
        "e3e4"
    ));
    assert!(!king_taken_by(
        &from_camp_picture(&picture('.'), Side::Attackers),
        "e3e4"
    ));
}

#[test]
fn the_king_beside_the_throne_is_taken_by_three() {
    let picture = |f4: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . . .
            * . . . . . . . *
            * * . . + . . * *
            * . . b K {f4} . . *
            . . . b . . . . .
            . . . . * . . . .
            . . . * * * . . ."
        )
    };
    assert!(king_taken_by(
        &from_camp_picture(&picture('b'), Side::Attackers),
        "d3e3"
    ));
    assert!(!king_taken_by(
        &from_camp_picture(&picture('.'), Side::Attackers),
        "d3e3"
    ));
    // The king on d5 between c5 (arriving) and the empty throne: not taken, he needs three.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . b . . . . . *
        * * . K + . . * *
        * . . . . . . . *
        . . . . . . . . .
        . . . . * . . . .
        . . . * * * . . .",
        Side::Attackers,
    );
    assert!(!king_taken_by(&b, "c6c5"));
}

#[test]
fn away_from_the_throne_the_king_is_taken_by_two_in_line() {
    let picture = |d3: char| {
        format!(
            "
            . . . * * * . . .
            . . . . * . . . .
            . . . . . . . . .
            * . . . . . . . *
            * * . . + . . * *
            * . . . . . . . *
            . . K {d3} . . . . .
            . b . . * . . . .
            . . . * * * . . ."
        )
    };
    assert!(king_taken_by(
        &from_camp_picture(&picture('b'), Side::Attackers),
        "b2b3"
    ));
    assert!(!king_taken_by(
        &from_camp_picture(&picture('.'), Side::Attackers),
        "b2b3"
    ));
    assert!(!king_taken_by(
        &from_camp_picture(&picture('w'), Side::Attackers),
        "b2b3"
    ));
}

#[test]
fn away_from_the_throne_a_camp_square_beyond_the_king_is_the_second_attacker() {
    // e2 below a king on e3: empty or held by black, it counts.
    for e2 in ['*', 'b'] {
        let b = from_camp_picture(
            &format!(
                "
                . . . * * * . . .
                . . . . * . . . .
                . . . . . . . . .
                * . . . . . . . *
                * * . . + . . * *
                * . . b . . . . *
                . . . . K . . . .
                . . . . {e2} . . . .
                . . . * * * . . ."
            ),
            Side::Attackers,
        );
        assert!(king_taken_by(&b, "d4e4"), "king e3, camp e2 ({e2}) beyond");
        // From the side the camp is not on the line: f3 beyond is empty.
        assert!(!king_taken_by(&b, "d4d3"), "king e3 from d3");
    }
    // A king on d2: d1 below and e2 beside are camp squares.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . b . b . . . .
        . . . K * . . . .
        . . . * * * . . .",
        Side::Attackers,
    );
    assert!(
        king_taken_by(&b, "c3c2"),
        "c2 with the camp square e2 beyond"
    );
    assert!(
        king_taken_by(&b, "e3d3"),
        "d3 with the camp square d1 beyond"
    );
}

#[test]
fn a_king_who_moves_between_two_attackers_is_not_taken() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . b . b . . . .
        . . . K * . . . .
        . . . * * * . . .",
        Side::Defenders,
    );
    let (after, _) = play(&b, "d2d3");
    assert_eq!(after.king(), Some(sq("d3")));
    assert_eq!(after.status(&Rules::ashton()), Status::Ongoing);
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

#[test]
fn the_king_escapes_on_any_edge_square_and_his_move_still_captures() {
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . K . . . . . .
        . . . . * . . . .
        w b . * * * . . .",
        Side::Defenders,
    );
    let rules = Rules::ashton();
    let (after, taken) = play(&b, "c3c1");
    assert_eq!(taken, set("b1"), "the escaping king captures b1 against a1");
    assert_eq!(
        after.status(&rules),
        Status::Win(Side::Defenders, WinReason::KingEscaped)
    );
    let (after, _) = play(&b, "c3i3");
    assert_eq!(
        after.status(&rules),
        Status::Win(Side::Defenders, WinReason::KingEscaped)
    );
    let (after, _) = play(&b, "c3h3");
    assert_eq!(after.status(&rules), Status::Ongoing);
}

#[test]
fn a_side_without_a_legal_move_loses() {
    // The server has no such rule: the player cannot send a legal move and loses on time.
    let b = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . . . . . . . .
        w . . . * . . K .
        b w . * * * . . .",
        Side::Attackers,
    );
    assert_eq!(
        b.status(&Rules::ashton()),
        Status::Win(Side::Defenders, WinReason::NoMoves)
    );
}

#[test]
fn the_first_repetition_of_a_position_reached_by_a_move_draws() {
    let mut game = Game::start(Rules::ashton());
    // The sixth move brings back the position after the second (black cannot go back into
    // its camp, so it shuttles d8-d7-d8).
    for (i, text) in ["g5g4", "d9d8", "g4g5", "d8d7", "g5g4"].iter().enumerate() {
        assert_eq!(game.play_text(text), Ok(Status::Ongoing), "move {}", i + 1);
    }
    assert_eq!(
        game.play_text("d7d8"),
        Ok(Status::Draw(DrawReason::Repetition))
    );
}

#[test]
fn the_position_a_game_was_set_up_from_is_not_remembered() {
    // The server remembers positions after moves only: from a set-up position, coming back
    // to it once is not yet a draw; coming back a second time is.
    let start = from_camp_picture(
        "
        . . . * * * . . .
        . . . . * . . . .
        . . . . . . . . .
        * . . . . . . . *
        * * . . + . . * *
        * . . . . . . . *
        . . b . . . . . .
        . . . . * . K . .
        . . . * * * . . .",
        Side::Defenders,
    );
    let mut game = Game::new(Rules::ashton(), start);
    for text in ["g2g3", "c3c4", "g3g2", "c4c3"] {
        assert_eq!(game.play_text(text), Ok(Status::Ongoing), "{text}");
    }
    assert_eq!(
        game.board().hash(),
        start.hash(),
        "back to the set-up position"
    );
    assert_eq!(game.occurrences(), 1);
    // Back again by another way, so that nothing in between repeats.
    for text in ["g2h2", "c3d3", "h2g2"] {
        assert_eq!(game.play_text(text), Ok(Status::Ongoing), "{text}");
    }
    assert_eq!(
        game.play_text("d3c3"),
        Ok(Status::Draw(DrawReason::Repetition))
    );
}

#[test]
fn there_is_no_move_limit() {
    let rules = Rules::ashton();
    let b = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 10000").unwrap();
    assert_eq!(b.status(&rules), Status::Ongoing);
    // The same board under the default rules is drawn by their 200-ply limit.
    assert_eq!(
        b.status(&Rules::default()),
        Status::Draw(DrawReason::MoveLimit)
    );
}
