//! Every rule of the README's "The rules", each rule option on and off, checked on hand-built positions
//! through the library's public API.
//!
//! Positions are drawn as pictures: nine rows, rank 9 on top, files a to i from left to right,
//! `b` an attacker, `w` a defender, `K` the king, `.` an empty square and `+` the empty throne
//! (e5). The helpers turn a picture into a position string and read it with `Board::from_fen`.

use crate::common::board::{assert_placement, from_picture, from_picture_at, mv, set, sq};
use konakis::perft::perft;
use konakis::{
    Bitboard, Board, DrawReason, Game, GameError, KingCapture, Move, Piece, Rules, Side, Square,
    Status, WinReason,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The legal moves, cross-checked: `count_moves` agrees and `check_move` accepts each one.
fn moves(board: &Board, rules: &Rules) -> Vec<Move> {
    let list: Vec<Move> = board.legal_moves(rules).into_iter().collect();
    assert_eq!(
        board.count_moves(rules) as usize,
        list.len(),
        "count_moves and legal_moves disagree on {board:?} under {rules}"
    );
    let mut replies = 0u64;
    for &m in &list {
        assert!(
            board.check_move(rules, m).is_ok(),
            "{m} is generated but check_move rejects it on {board:?}"
        );
        let mut child = *board;
        child.play(rules, m);
        replies += child.legal_moves(rules).len() as u64;
    }
    assert_eq!(
        perft(board, rules, 2),
        replies,
        "perft 2 disagrees with playing every move on {board:?} under {rules}"
    );
    list
}

/// Whether `text` is legal; `legal_moves` and `check_move` must agree.
fn is_legal(board: &Board, rules: &Rules, text: &str) -> bool {
    let m = mv(text);
    let listed = moves(board, rules).contains(&m);
    assert_eq!(
        listed,
        board.check_move(rules, m).is_ok(),
        "legal_moves and check_move disagree on {text} in {board:?}"
    );
    listed
}

/// The reason `check_move` gives for rejecting `text` (which must be illegal).
fn rejection(board: &Board, rules: &Rules, text: &str) -> String {
    let m = mv(text);
    assert!(
        !moves(board, rules).contains(&m),
        "{text} is listed as legal in {board:?}"
    );
    let err = board
        .check_move(rules, m)
        .expect_err("check_move accepts a move legal_moves does not list");
    assert_eq!(board.parse_move(rules, text), Err(err.into()));
    err.to_string()
}

/// Plays `text`, which must be legal, checks the bookkeeping, and returns the captures.
fn play(board: &mut Board, rules: &Rules, text: &str) -> Bitboard {
    let m = mv(text);
    if let Err(e) = board.check_move(rules, m) {
        panic!("{text} should be legal in {board:?} under {rules}: {e}");
    }
    assert!(moves(board, rules).contains(&m), "{text} is not listed");
    let piece = board
        .piece_at(m.from())
        .expect("a piece on the from-square");
    let (side, plies) = (board.side_to_move(), board.plies());
    let captured = board.play(rules, m);
    assert_eq!(board.piece_at(m.to()), Some(piece), "the mover stays put");
    assert_eq!(board.piece_at(m.from()), None);
    assert_eq!(board.side_to_move(), side.opponent());
    assert_eq!(board.plies(), plies + 1);
    assert_eq!(board.hash(), board.compute_hash(), "incremental key");
    captured
}

/// Plays `text` in a game, which must accept it, and returns the new status.
fn game_play(game: &mut Game, text: &str) -> Status {
    game.play(mv(text))
        .unwrap_or_else(|e| panic!("{text} rejected: {e}"))
}

/// The four published rule sets; soldier captures and movement work alike in each.
fn presets() -> [Rules; 4] {
    [
        Rules::default(),
        Rules::tafl_hub(),
        Rules::encyclopedia(),
        Rules::opentafl(),
    ]
}

fn original() -> Rules {
    Rules {
        king_capture: KingCapture::Original,
        ..Rules::default()
    }
}

fn english() -> Rules {
    Rules {
        king_capture: KingCapture::English,
        ..Rules::default()
    }
}

const KING_ESCAPED: Status = Status::Win(Side::Defenders, WinReason::KingEscaped);
const KING_CAPTURED: Status = Status::Win(Side::Attackers, WinReason::KingCaptured);

// ---------------------------------------------------------------------------------------------
// Captures of soldiers (rules 4 and 5)
// ---------------------------------------------------------------------------------------------

#[test]
fn attackers_capture_a_soldier_along_a_rank() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . b w . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "e1e3"), set("d3"));
        assert_placement(
            &b,
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . b . b . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        assert_eq!(b.status(&rules), Status::Ongoing);
    }
}

#[test]
fn attackers_capture_a_soldier_along_a_file() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            b . . . + . . . .
            . . w . . . . . .
            . . b . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "a5c5"), set("c4"));
        assert_eq!(b.piece_at(sq("c4")), None);
        assert_eq!(b.piece_at(sq("c3")), Some(Piece::Attacker));
        assert_eq!(b.piece_at(sq("c5")), Some(Piece::Attacker));
        assert_eq!(b.defenders(), Bitboard::EMPTY);
    }
}

#[test]
fn defenders_capture_a_soldier_along_a_rank() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . w b . . . . .
            . . . . . . . . .
            . . . . w . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "e1e3"), set("d3"));
        assert_placement(
            &b,
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . w . w . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
    }
}

#[test]
fn defenders_capture_a_soldier_along_a_file() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            w . . . + . . . .
            . . b . . . . . .
            . . w . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "a5c5"), set("c4"));
        assert_eq!(b.attackers(), Bitboard::EMPTY);
        assert_eq!(b.defenders(), set("c3 c5"));
    }
}

#[test]
fn one_move_captures_two_soldiers() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . b w . w b
            . . . . . . . . .
            . . . . . . b . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "g1g3"), set("f3 h3"));
        assert_eq!(b.defenders(), Bitboard::EMPTY);
        assert_eq!(b.attackers(), set("e3 g3 i3"));
    }
}

#[test]
fn one_move_captures_three_soldiers_for_either_side() {
    for rules in presets() {
        // Defenders take three attackers.
        let mut b = from_picture(
            "
            . . w . . . . . .
            . . . . . . . . .
            w b . b w . . . .
            . . b . . . . . .
            . . w . + . . . .
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "c9c7"), set("b7 d7 c6"));
        assert_eq!(b.attackers(), Bitboard::EMPTY);

        // Attackers take three defenders.
        let mut b = from_picture(
            "
            . . b . . . . . .
            . . . . . . . . .
            b w . w b . . . .
            . . w . . . . . .
            . . b . + . . . .
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "c9c7"), set("b7 d7 c6"));
        assert_eq!(b.defenders(), Bitboard::EMPTY);
        assert_eq!(b.king(), Some(sq("h3")));
    }
}

#[test]
fn the_board_edge_never_captures() {
    for rules in presets() {
        let b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . b . . . . . . .
            . . . . . . . . .
            . . . . + . . . w
            . . . . . . . . .
            w . . . . . . . .
            . . . . . . b . .
            . . . w . . . . .",
            Side::Attackers,
        );
        // An attacker beside a defender on file a, and above a defender on rank 1.
        let mut x = b;
        assert_eq!(play(&mut x, &rules, "b7b3"), Bitboard::EMPTY);
        assert_eq!(x.piece_at(sq("a3")), Some(Piece::Defender));
        let mut x = b;
        assert_eq!(play(&mut x, &rules, "g2d2"), Bitboard::EMPTY);
        assert_eq!(x.piece_at(sq("d1")), Some(Piece::Defender));

        // A defender beside an attacker on file i.
        let mut x = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . b
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . w .",
            Side::Defenders,
        );
        assert_eq!(play(&mut x, &rules, "h1h5"), Bitboard::EMPTY);
        assert_eq!(x.piece_at(sq("i5")), Some(Piece::Attacker));

        // A soldier on an edge square is still taken between two enemies along that edge.
        let mut x = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            b . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            w . . . . . . . .
            b . . . . . . . .
            . . . . . . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut x, &rules, "a7a4"), set("a3"));
    }
}

#[test]
fn two_soldiers_in_a_row_are_not_captured() {
    for rules in presets() {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . b w w . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "e1e3"), Bitboard::EMPTY);
        assert_eq!(b.defenders(), set("c3 d3"));

        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . w b b . . . . .
            . . . . . . . . .
            . . . . w . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "e1e3"), Bitboard::EMPTY);
        assert_eq!(b.attackers(), set("c3 d3"));
    }
}

#[test]
fn moving_between_two_enemies_is_safe() {
    for rules in presets() {
        // A defender steps between two attackers.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . b . b . . . .
            . . . . . . . . .
            . . . w . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "d1d3"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("d3")), Some(Piece::Defender));
        assert_eq!(b.attackers(), set("c3 e3"));
        // The attackers' next move elsewhere does not take it either.
        play(&mut b, &rules, "c3c2");
        assert_eq!(b.piece_at(sq("d3")), Some(Piece::Defender));

        // An attacker steps between two defenders, on a file.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . w . . . . . .
            b . . . . . . . .
            . . w . . . . . .
            . . . . . . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "a3c3"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("c3")), Some(Piece::Attacker));
        assert_eq!(b.defenders(), set("c4 c2"));
        play(&mut b, &rules, "c4d4");
        assert_eq!(b.piece_at(sq("c3")), Some(Piece::Attacker));

        // Stepping between two enemies while capturing a third: only the mover captures.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . w + . . . .
            . . . b . . . . .
            . . b . b . . . .
            . . . . . . . . .
            . . . w . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "d1d3"), set("d4"));
        assert_eq!(b.piece_at(sq("d3")), Some(Piece::Defender));
        assert_eq!(b.attackers(), set("c3 e3"));
    }
}

#[test]
fn only_enemy_soldiers_are_captured_and_only_with_a_friendly_partner() {
    for rules in presets() {
        // West of d3: the mover's own soldier. East: an enemy soldier backed by an enemy.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . b b . w w . . .
            . . . . . . . . .
            . . . b . . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "d1d3"), Bitboard::EMPTY);
        assert_eq!(b.attackers(), set("b3 c3 d3"));
        assert_eq!(b.defenders(), set("e3 f3"));

        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . K .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . w w . b b . . .
            . . . . . . . . .
            . . . w . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "d1d3"), Bitboard::EMPTY);
        assert_eq!(b.defenders(), set("b3 c3 d3"));
        assert_eq!(b.attackers(), set("e3 f3"));
    }
}

// ---------------------------------------------------------------------------------------------
// The throne (rule 3)
// ---------------------------------------------------------------------------------------------

const THRONE_EMPTY: &str = "
    . . . . . . . . .
    . . . . . . . K .
    . . . . . . . . .
    . . . . . . . . .
    b . . . + . . . .
    . . . . . . . . .
    . . . . w . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn soldiers_never_stop_on_the_empty_throne() {
    for passable in [true, false] {
        for rules in presets() {
            let rules = Rules {
                throne_passable: passable,
                ..rules
            };
            let att = from_picture(THRONE_EMPTY, Side::Attackers);
            let e = rejection(&att, &rules, "a5e5");
            assert!(e.contains("throne"), "{e}");
            assert!(is_legal(&att, &rules, "a5d5"));
            let def = from_picture(THRONE_EMPTY, Side::Defenders);
            let e = rejection(&def, &rules, "e3e5");
            assert!(e.contains("throne"), "{e}");
            assert!(is_legal(&def, &rules, "e3e4"));
        }
    }
}

#[test]
fn soldiers_cross_the_empty_throne_when_throne_passable() {
    let rules = Rules {
        throne_passable: true,
        ..Rules::default()
    };
    let att = from_picture(THRONE_EMPTY, Side::Attackers);
    for to in ["f5", "g5", "h5", "i5"] {
        assert!(is_legal(&att, &rules, &format!("a5{to}")), "a5{to}");
    }
    let def = from_picture(THRONE_EMPTY, Side::Defenders);
    for to in ["e6", "e7", "e8", "e9"] {
        assert!(is_legal(&def, &rules, &format!("e3{to}")), "e3{to}");
    }
}

#[test]
fn soldiers_cannot_cross_the_empty_throne_when_not_throne_passable() {
    for king_reenters in [true, false] {
        let rules = Rules {
            throne_passable: false,
            king_reenters_throne: king_reenters,
            ..Rules::default()
        };
        let att = from_picture(THRONE_EMPTY, Side::Attackers);
        for to in ["f5", "g5", "h5", "i5"] {
            let e = rejection(&att, &rules, &format!("a5{to}"));
            assert!(e.contains("path is blocked"), "{e}");
        }
        assert!(is_legal(&att, &rules, "a5d5"));
        let def = from_picture(THRONE_EMPTY, Side::Defenders);
        for to in ["e6", "e7", "e8", "e9"] {
            let e = rejection(&def, &rules, &format!("e3{to}"));
            assert!(e.contains("path is blocked"), "{e}");
        }
        assert!(is_legal(&def, &rules, "e3e4"));
    }
}

#[test]
fn king_crossing_and_stopping_on_the_empty_throne_follow_passable_and_reentry() {
    let picture = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        b . . . . . . . .";
    // (ThronePassable, KingReentersThrone) → (may stop on e5, may cross to e7)
    let cases = [
        (true, true, true, true),
        (true, false, false, true),
        (false, true, true, true),
        (false, false, false, false),
    ];
    for (passable, reenters, stop, cross) in cases {
        let rules = Rules {
            throne_passable: passable,
            king_reenters_throne: reenters,
            ..Rules::default()
        };
        let b = from_picture(picture, Side::Defenders);
        let what = format!("ThronePassable={passable} KingReentersThrone={reenters}");
        assert_eq!(is_legal(&b, &rules, "e3e5"), stop, "stop, {what}");
        assert_eq!(is_legal(&b, &rules, "e3e7"), cross, "cross, {what}");
        assert!(is_legal(&b, &rules, "e3e4"), "{what}");
        if !stop {
            let e = rejection(&b, &rules, "e3e5");
            assert!(e.contains("throne"), "{e}");
        }
        if !cross {
            let e = rejection(&b, &rules, "e3e7");
            assert!(e.contains("path is blocked"), "{e}");
        }
    }
}

#[test]
fn king_returns_to_the_throne_only_when_king_reenters_throne() {
    let picture = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        b . . . . . . . .";
    for reenters in [true, false] {
        let rules = Rules {
            king_reenters_throne: reenters,
            ..Rules::default()
        };
        let mut game = Game::new(rules, from_picture(picture, Side::Defenders));
        // The king may always leave the throne.
        assert_eq!(game_play(&mut game, "e5e3"), Status::Ongoing);
        assert_eq!(game_play(&mut game, "a1a2"), Status::Ongoing);
        let back = game.play(mv("e3e5"));
        if reenters {
            assert_eq!(back, Ok(Status::Ongoing));
            assert_eq!(game.board().king(), Some(Square::THRONE));
        } else {
            match back {
                Err(GameError::Move { index, error }) => {
                    let message = error.to_string();
                    assert_eq!(index, 2);
                    assert!(message.contains("throne"), "{message}");
                }
                other => panic!("re-entry should be refused, got {other:?}"),
            }
            assert_eq!(game.board().king(), Some(sq("e3")));
            assert_eq!(game.moves().len(), 2);
        }
    }
}

#[test]
fn occupied_throne_blocks_every_piece() {
    let picture = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        b . . . K . . . .
        . . . . . . . . .
        . . . . w . . . .
        . . . . . . . . .
        . . . . . . . . .";
    for passable in [true, false] {
        for reenters in [true, false] {
            let rules = Rules {
                throne_passable: passable,
                king_reenters_throne: reenters,
                ..Rules::default()
            };
            let att = from_picture(picture, Side::Attackers);
            assert!(is_legal(&att, &rules, "a5d5"));
            let e = rejection(&att, &rules, "a5e5");
            assert!(e.contains("e5 is occupied"), "{e}");
            let e = rejection(&att, &rules, "a5g5");
            assert!(e.contains("path is blocked"), "{e}");
            let def = from_picture(picture, Side::Defenders);
            assert!(is_legal(&def, &rules, "e3e4"));
            let e = rejection(&def, &rules, "e3e7");
            assert!(e.contains("path is blocked"), "{e}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ThroneHostile
// ---------------------------------------------------------------------------------------------

/// Soldiers of both sides beside the empty throne, and four movers that can sandwich them
/// against it: c1c5 (defender, against d5), g1g5 (attacker, against f5), a3e3 (attacker,
/// against e4), i7e7 (defender, against e6).
const AROUND_EMPTY_THRONE: &str = "
    . . . . . . . . .
    . . . . . . . K .
    . . . . . . . . w
    . . . . b . . . .
    . . . b + w . . .
    . . . . w . . . .
    b . . . . . . . .
    . . . . . . . . .
    . . w . . . b . .";

const THRONE_SANDWICHES: [(Side, &str, &str); 4] = [
    (Side::Defenders, "c1c5", "d5"),
    (Side::Attackers, "g1g5", "f5"),
    (Side::Attackers, "a3e3", "e4"),
    (Side::Defenders, "i7e7", "e6"),
];

#[test]
fn hostile_empty_throne_captures_soldiers_of_both_sides() {
    for base in presets() {
        let rules = Rules {
            throne_hostile: true,
            ..base
        };
        for (side, m, victim) in THRONE_SANDWICHES {
            let mut b = from_picture(AROUND_EMPTY_THRONE, side);
            assert_eq!(play(&mut b, &rules, m), set(victim), "{m}");
            assert_eq!(b.piece_at(sq(victim)), None);
        }
    }
}

#[test]
fn empty_throne_captures_nobody_when_not_hostile() {
    for base in presets() {
        let rules = Rules {
            throne_hostile: false,
            ..base
        };
        for (side, m, victim) in THRONE_SANDWICHES {
            let mut b = from_picture(AROUND_EMPTY_THRONE, side);
            assert_eq!(play(&mut b, &rules, m), Bitboard::EMPTY, "{m}");
            assert!(b.piece_at(sq(victim)).is_some());
        }
    }
}

#[test]
fn stepping_beside_the_hostile_throne_is_safe() {
    let rules = Rules {
        throne_hostile: true,
        ..Rules::default()
    };
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . w . . .
        . . . . + . b . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Defenders,
    );
    assert_eq!(play(&mut b, &rules, "f6f5"), Bitboard::EMPTY);
    assert_eq!(b.piece_at(sq("f5")), Some(Piece::Defender));
}

#[test]
fn king_on_the_throne_is_not_a_hostile_empty_throne() {
    let picture = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b K w . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . w . . . b . .";
    for guard in [true, false] {
        let rules = Rules {
            throne_hostile: true,
            throne_guard_capture: guard,
            king_armed: false,
            ..Rules::default()
        };
        // An attacker does not take the defender beside the occupied throne.
        let mut b = from_picture(picture, Side::Attackers);
        assert_eq!(play(&mut b, &rules, "g1g5"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("f5")), Some(Piece::Defender));
        // Nor does an (unarmed king's) defender take the attacker beside it.
        let mut b = from_picture(picture, Side::Defenders);
        assert_eq!(play(&mut b, &rules, "c1c5"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("d5")), Some(Piece::Attacker));
    }
}

// ---------------------------------------------------------------------------------------------
// Rule 10: ThroneGuardCapture
// ---------------------------------------------------------------------------------------------

/// King on the throne, attackers on three sides, his guard on e4; h3e3 lands behind the guard.
const GUARD_SOUTH: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . b . . . .
    . . . b K b . . .
    . . . . w . . . .
    . . . . . . . b .
    . . . . . . . . .
    . . . . . . . . .";

/// The same with the guard on d5; c1c5 lands behind it.
const GUARD_WEST: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . b . . . .
    . . . w K b . . .
    . . . . b . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . b . . . . . .";

#[test]
fn throne_guard_capture_takes_the_last_guard_of_the_besieged_king() {
    for hostile in [true, false] {
        let rules = Rules {
            throne_guard_capture: true,
            throne_hostile: hostile,
            ..Rules::default()
        };
        for (picture, m, guard) in [(GUARD_SOUTH, "h3e3", "e4"), (GUARD_WEST, "c1c5", "d5")] {
            let mut b = from_picture(picture, Side::Attackers);
            assert_eq!(play(&mut b, &rules, m), set(guard), "{m}");
            assert_eq!(b.king(), Some(Square::THRONE), "the king himself survives");
            assert_eq!(b.status(&rules), Status::Ongoing);
        }
    }
}

#[test]
fn without_throne_guard_capture_the_guard_survives() {
    for hostile in [true, false] {
        let rules = Rules {
            throne_guard_capture: false,
            throne_hostile: hostile,
            ..Rules::default()
        };
        for (picture, m, guard) in [(GUARD_SOUTH, "h3e3", "e4"), (GUARD_WEST, "c1c5", "d5")] {
            let mut b = from_picture(picture, Side::Attackers);
            assert_eq!(play(&mut b, &rules, m), Bitboard::EMPTY, "{m}");
            assert_eq!(b.piece_at(sq(guard)), Some(Piece::Defender));
        }
    }
}

#[test]
fn throne_guard_capture_needs_three_besiegers() {
    let rules = Rules {
        throne_guard_capture: true,
        ..Rules::default()
    };
    // Only e6 and d5 besiege: the guard on e4 is safe.
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . b . . . .
        . . . b K . . . .
        . . . . w . . . .
        . . . . . . . b .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Attackers,
    );
    assert_eq!(play(&mut b, &rules, "h3e3"), Bitboard::EMPTY);
    assert_eq!(b.piece_at(sq("e4")), Some(Piece::Defender));
    // Two guards (e4 and f5), two besiegers: neither guard falls.
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . b . . . .
        . . . b K w . . .
        . . . . w . . . .
        . . . . . . . b .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Attackers,
    );
    assert_eq!(play(&mut b, &rules, "h3e3"), Bitboard::EMPTY);
    assert_eq!(b.defenders(), set("e4 f5"));
}

// ---------------------------------------------------------------------------------------------
// King capture (rule 7)
// ---------------------------------------------------------------------------------------------

#[test]
fn king_on_the_throne_is_captured_by_four_attackers() {
    for rules in [original(), english(), Rules::tafl_hub()] {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .
            . . . b K b . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        assert_eq!(play(&mut b, &rules, "e1e4"), Bitboard::EMPTY);
        assert_eq!(b.king(), None);
        assert_eq!(b.status(&rules), KING_CAPTURED);
        assert!(moves(&b, &rules).is_empty(), "a won board has no moves");
    }
}

#[test]
fn king_on_the_throne_survives_three_attackers_or_a_sandwich() {
    for rules in [original(), english()] {
        // Three sides.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .
            . . . b K . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        play(&mut b, &rules, "e1e4");
        assert_eq!(b.king(), Some(Square::THRONE));
        assert_eq!(b.status(&rules), Status::Ongoing);
        // Two attackers sandwich him on a file.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .
            . . . . K . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        play(&mut b, &rules, "e1e4");
        assert_eq!(b.king(), Some(Square::THRONE));
    }
}

#[test]
fn king_beside_the_throne_is_captured_by_three_attackers() {
    for rules in [original(), english()] {
        // The mover closes the side opposite the throne.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . b K b . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . b . . . .",
            Side::Attackers,
        );
        play(&mut b, &rules, "e1e3");
        assert_eq!(b.king(), None);
        assert_eq!(b.status(&rules), KING_CAPTURED);
        // The mover closes a side next to the throne.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . b K . . . .
            . . . . b . . . .
            . . . . . . . . .
            . . . . . b . . .",
            Side::Attackers,
        );
        play(&mut b, &rules, "f1f4");
        assert_eq!(b.king(), None);
    }
}

#[test]
fn king_beside_the_throne_survives_two_attackers_even_under_original() {
    for rules in [original(), english()] {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . b K . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . b . . .",
            Side::Attackers,
        );
        play(&mut b, &rules, "f1f4");
        assert_eq!(b.king(), Some(sq("e4")));
        assert_eq!(b.status(&rules), Status::Ongoing);
    }
}

#[test]
fn king_away_from_the_throne_is_sandwiched_along_a_rank_under_original() {
    let picture = "
        . . . b . . . . .
        . . . . . . . . .
        . b K . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . w .";
    let rules = original();
    let mut b = from_picture(picture, Side::Attackers);
    play(&mut b, &rules, "d9d7");
    assert_eq!(b.king(), None);
    assert_eq!(b.status(&rules), KING_CAPTURED);
    assert!(moves(&b, &rules).is_empty());
}

#[test]
fn king_away_from_the_throne_is_sandwiched_along_a_file_under_original() {
    let picture = "
        . . . . . . . . .
        . . b . . . . . .
        . . K . . . . . .
        b . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . w .";
    let rules = original();
    let mut b = from_picture(picture, Side::Attackers);
    play(&mut b, &rules, "a6c6");
    assert_eq!(b.king(), None);
    assert_eq!(b.status(&rules), KING_CAPTURED);
}

#[test]
fn king_away_from_the_throne_needs_four_attackers_under_english() {
    let rules = english();
    // Two attackers, along a rank and along a file: not enough.
    for (picture, m) in [
        (
            "
            . . . b . . . . .
            . . . . . . . . .
            . b K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . w .",
            "d9d7",
        ),
        (
            "
            . . . . . . . . .
            . . b . . . . . .
            . . K . . . . . .
            b . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . w .",
            "a6c6",
        ),
    ] {
        let mut b = from_picture(picture, Side::Attackers);
        play(&mut b, &rules, m);
        assert_eq!(b.king(), Some(sq("c7")), "{m}");
        assert_eq!(b.status(&rules), Status::Ongoing);
    }
    // Three attackers: not enough.
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . b . . . . . .
        . b K . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . b . . . . w .",
        Side::Attackers,
    );
    play(&mut b, &rules, "c1c6");
    assert_eq!(b.king(), Some(sq("c7")));
    // Four attackers: captured.
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . b . . . . . .
        . b K b . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . b . . . . w .",
        Side::Attackers,
    );
    play(&mut b, &rules, "c1c6");
    assert_eq!(b.king(), None);
    assert_eq!(b.status(&rules), KING_CAPTURED);
}

#[test]
fn king_moving_into_an_enclosure_survives_under_original() {
    let rules = original();
    let mut b = from_picture(
        "
        . . . . . . . . .
        b . . . . . . . .
        . b . b . . . . .
        b . . . . . . . .
        . . . . + . . . .
        . . K . . . . . .
        . . . . . . . . .
        . . . . . . . w .
        . . . . . . . . .",
        Side::Defenders,
    );
    // The king steps between b7 and d7 himself.
    play(&mut b, &rules, "c4c7");
    assert_eq!(b.king(), Some(sq("c7")));
    assert_eq!(b.status(&rules), Status::Ongoing);
    // An attacker lands beside him without sandwiching him: he still stands.
    play(&mut b, &rules, "a8c8");
    assert_eq!(b.king(), Some(sq("c7")));
    play(&mut b, &rules, "h2h3");
    // Now a mover closes the file sandwich c8–c6: captured.
    play(&mut b, &rules, "a6c6");
    assert_eq!(b.king(), None);
    assert_eq!(b.status(&rules), KING_CAPTURED);
}

#[test]
fn king_moving_into_an_enclosure_survives_under_english() {
    let rules = english();
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . b . . . . . .
        . b . b . . . . .
        b . . . . . . . .
        . . . . + . . . .
        . . K . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Defenders,
    );
    play(&mut b, &rules, "c4c7");
    assert_eq!(b.king(), Some(sq("c7")));
    assert_eq!(b.status(&rules), Status::Ongoing);
    play(&mut b, &rules, "a6c6");
    assert_eq!(b.king(), None);
}

#[test]
fn king_stepping_off_the_throne_into_three_attackers_survives() {
    for rules in [original(), english()] {
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . K . . . .
            . . . b . b . . .
            . . . . b . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Side::Defenders,
        );
        play(&mut b, &rules, "e5e4");
        assert_eq!(b.king(), Some(sq("e4")));
        assert_eq!(b.status(&rules), Status::Ongoing);
    }
}

#[test]
fn only_attackers_capture_the_king() {
    for rules in [original(), english()] {
        // A defender completing a "sandwich" of its own king does nothing.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . b K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . w . . . . .",
            Side::Defenders,
        );
        assert_eq!(play(&mut b, &rules, "d1d7"), Bitboard::EMPTY);
        assert_eq!(b.king(), Some(sq("c7")));
        // A defender's move elsewhere leaves a king standing between two attackers alone.
        let mut b = from_picture(
            "
            . . . . . . . . .
            . . . . . . . . .
            . b K b . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . w . . . . .",
            Side::Defenders,
        );
        play(&mut b, &rules, "d1d2");
        assert_eq!(b.king(), Some(sq("c7")));
        assert_eq!(b.status(&rules), Status::Ongoing);
    }
}

#[test]
fn the_moving_attacker_must_be_one_of_the_kings_captors() {
    // Original: the king already stands between b7 and d7 (he walked in).
    let rules = original();
    let picture = "
        . . . . . . . . .
        b . . . . . . . .
        . b K b . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . b .";
    let mut b = from_picture(picture, Side::Attackers);
    play(&mut b, &rules, "h1h2");
    assert_eq!(b.king(), Some(sq("c7")), "a move far away");
    let mut b = from_picture(picture, Side::Attackers);
    play(&mut b, &rules, "a8c8");
    assert_eq!(
        b.king(),
        Some(sq("c7")),
        "a move beside him, off the sandwich"
    );

    // English: four attackers already stand around him.
    let rules = english();
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . b . . . . w .
        . b K b . . . . .
        . . b . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . b .",
        Side::Attackers,
    );
    play(&mut b, &rules, "h1h2");
    assert_eq!(b.king(), Some(sq("c7")));
    assert_eq!(b.status(&rules), Status::Ongoing);
}

// ---------------------------------------------------------------------------------------------
// KingArmed
// ---------------------------------------------------------------------------------------------

const KING_HAMMER: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . + . . . .
    . . . . . . . . .
    . . K . . . b w .
    . . . . . . . . .
    . . . . . . . . .";

const KING_ANVIL: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . + . . . .
    . . . . . . . . .
    . . . . . b K . .
    . . . . . . . . .
    . . . . w . . . .";

#[test]
fn armed_king_captures_as_the_moving_piece() {
    let rules = Rules {
        king_armed: true,
        ..Rules::default()
    };
    let mut b = from_picture(KING_HAMMER, Side::Defenders);
    assert_eq!(play(&mut b, &rules, "c3f3"), set("g3"));
    assert_eq!(b.attackers(), Bitboard::EMPTY);
}

#[test]
fn armed_king_captures_as_the_partner() {
    let rules = Rules {
        king_armed: true,
        ..Rules::default()
    };
    let mut b = from_picture(KING_ANVIL, Side::Defenders);
    assert_eq!(play(&mut b, &rules, "e1e3"), set("f3"));
    assert_eq!(b.attackers(), Bitboard::EMPTY);
}

#[test]
fn unarmed_king_captures_neither_as_mover_nor_as_partner() {
    for base in [Rules::default(), Rules::encyclopedia()] {
        let rules = Rules {
            king_armed: false,
            ..base
        };
        let mut b = from_picture(KING_HAMMER, Side::Defenders);
        assert_eq!(play(&mut b, &rules, "c3f3"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("g3")), Some(Piece::Attacker));
        let mut b = from_picture(KING_ANVIL, Side::Defenders);
        assert_eq!(play(&mut b, &rules, "e1e3"), Bitboard::EMPTY);
        assert_eq!(b.piece_at(sq("f3")), Some(Piece::Attacker));
    }
}

#[test]
fn armed_king_on_the_throne_is_a_partner_for_his_soldiers() {
    let picture = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . w . . . . . .";
    for hostile in [true, false] {
        let rules = Rules {
            king_armed: true,
            throne_hostile: hostile,
            ..Rules::default()
        };
        let mut b = from_picture(picture, Side::Defenders);
        assert_eq!(play(&mut b, &rules, "c1c5"), set("d5"));
    }
}

// ---------------------------------------------------------------------------------------------
// Escape and won boards
// ---------------------------------------------------------------------------------------------

const KING_IN_THE_OPEN: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . b .
    . . . . . . . . .
    . . . . + . . . .
    . . . . . . . . .
    . . K . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn king_escapes_on_every_edge() {
    for rules in presets() {
        for (m, edge) in [
            ("c3c1", "rank 1"),
            ("c3c9", "rank 9"),
            ("c3a3", "file a"),
            ("c3i3", "file i"),
        ] {
            let start = from_picture(KING_IN_THE_OPEN, Side::Defenders);
            let mut b = start;
            play(&mut b, &rules, m);
            assert_eq!(b.status(&rules), KING_ESCAPED, "{edge}");
            assert!(
                moves(&b, &rules).is_empty(),
                "{edge}: a won board has no moves"
            );
            assert_eq!(b.count_moves(&rules), 0);
            assert!(!b.has_move(&rules), "{edge}: has_move on a won board");

            let mut game = Game::new(rules, start);
            assert_eq!(game_play(&mut game, m), KING_ESCAPED, "{edge}");
            assert_eq!(game.status(), KING_ESCAPED);
            assert_eq!(
                game.play(mv("g7g6")),
                Err(GameError::Over(KING_ESCAPED)),
                "{edge}: no move after the end"
            );
        }
    }
}

#[test]
fn a_board_already_won_has_no_legal_moves() {
    let rules = Rules::default();
    // The king already on an edge square, attackers to move.
    let b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . b .
        . . . . . . . . .
        K . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Attackers,
    );
    assert_eq!(b.status(&rules), KING_ESCAPED);
    assert!(moves(&b, &rules).is_empty());
    let e = b.check_move(&rules, mv("h7h6")).unwrap_err();
    assert!(e.to_string().contains("already over"), "{e}");
    assert_eq!(Game::new(rules, b).status(), KING_ESCAPED);
}

// ---------------------------------------------------------------------------------------------
// No legal move
// ---------------------------------------------------------------------------------------------

#[test]
fn attackers_without_a_legal_move_lose() {
    let rules = Rules::default();
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        w . . . . . . . .
        b . w . . . . . .",
        Side::Defenders,
    );
    let start = b;
    assert_eq!(play(&mut b, &rules, "c1b1"), Bitboard::EMPTY);
    assert!(moves(&b, &rules).is_empty());
    let lost = Status::Win(Side::Defenders, WinReason::NoMoves);
    assert_eq!(b.status(&rules), lost);
    let mut game = Game::new(rules, start);
    assert_eq!(game_play(&mut game, "c1b1"), lost);
}

#[test]
fn defenders_without_a_legal_move_lose() {
    let rules = Rules::default();
    let mut b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . b . . . . . . .
        b w b . . . . . .
        b K w . . . b . .
        . b b . . . . . .",
        Side::Attackers,
    );
    let start = b;
    assert_eq!(b.status(&rules), Status::Ongoing);
    assert_eq!(play(&mut b, &rules, "g2d2"), Bitboard::EMPTY);
    assert_eq!(b.king(), Some(sq("b2")));
    assert!(moves(&b, &rules).is_empty());
    let lost = Status::Win(Side::Attackers, WinReason::NoMoves);
    assert_eq!(b.status(&rules), lost);
    let mut game = Game::new(rules, start);
    assert_eq!(game_play(&mut game, "g2d2"), lost);
}

// ---------------------------------------------------------------------------------------------
// Encirclement
// ---------------------------------------------------------------------------------------------

/// A ring of attackers round d4–f6 with one gap at e7, which e9e7 closes.
const RING: &str = "
    . . . . b . . . .
    . . . . . . . . .
    . . . b . b . . .
    . . b . . . b . .
    . . b . K . b . .
    . . b w . . b . .
    . . . b b b . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn encirclement_on_attackers_win_when_no_defender_reaches_the_edge() {
    let rules = Rules {
        encirclement: true,
        ..Rules::default()
    };
    let mut b = from_picture(RING, Side::Attackers);
    assert_eq!(b.status(&rules), Status::Ongoing, "the gap still leads out");
    assert_eq!(play(&mut b, &rules, "e9e7"), Bitboard::EMPTY);
    assert!(b.is_encircled());
    let won = Status::Win(Side::Attackers, WinReason::Encircled);
    assert_eq!(b.status(&rules), won);
    assert!(moves(&b, &rules).is_empty(), "a won board has no moves");
    let mut game = Game::new(rules, from_picture(RING, Side::Attackers));
    assert_eq!(game_play(&mut game, "e9e7"), won);
    assert!(Rules::opentafl().encirclement);
}

#[test]
fn encirclement_off_the_encircled_defenders_play_on() {
    let rules = Rules {
        encirclement: false,
        ..Rules::default()
    };
    let mut b = from_picture(RING, Side::Attackers);
    play(&mut b, &rules, "e9e7");
    assert!(b.is_encircled());
    assert_eq!(b.status(&rules), Status::Ongoing);
    assert!(!moves(&b, &rules).is_empty());
}

#[test]
fn encirclement_a_defender_on_an_edge_square_is_connected() {
    let rules = Rules {
        encirclement: true,
        ..Rules::default()
    };
    // The defender on a1 is hemmed in by a2 and b1 but stands on the edge.
    let mut b = from_picture(
        "
        . . . . b . . . .
        . . . . . . . . .
        . . . b . b . . .
        . . b . . . b . .
        . . b . K . b . .
        . . b w . . b . .
        . . . b b b . . .
        b . . . . . . . .
        w b . . . . . . .",
        Side::Attackers,
    );
    play(&mut b, &rules, "e9e7");
    assert!(!b.is_encircled());
    assert_eq!(b.status(&rules), Status::Ongoing);
}

#[test]
fn encirclement_a_defender_outside_the_ring_reaching_the_edge_is_connected() {
    let rules = Rules {
        encirclement: true,
        ..Rules::default()
    };
    let mut b = from_picture(
        "
        . . . . b . . . .
        . . . . . . . . .
        . . . b . b . . .
        . . b . . . b . .
        . . b . K . b . .
        . . b w . . b . .
        . . . b b b . . .
        . w . . . . . . .
        . . . . . . . . .",
        Side::Attackers,
    );
    play(&mut b, &rules, "e9e7");
    assert!(!b.is_encircled());
    assert_eq!(b.status(&rules), Status::Ongoing);
}

// ---------------------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------------------

/// Two pieces that shuffle back and forth: a1 (attacker) and i9 (defender).
const SHUFFLE: &str = "
    . . . . . . . . w
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . K . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    b . . . . . . . .";

const CYCLE: [&str; 4] = ["a1b1", "i9h9", "b1a1", "h9i9"];

/// Plays the four-ply cycle until the game ends; returns the ply at which it ended.
fn plies_until_repetition(repetition: u32) -> usize {
    let rules = Rules {
        repetition_draw: repetition,
        ..Rules::default()
    };
    let mut game = Game::new(rules, from_picture(SHUFFLE, Side::Attackers));
    assert_eq!(
        game.occurrences(),
        1,
        "the start counts as the first occurrence"
    );
    for ply in 1..=100 {
        let status = game_play(&mut game, CYCLE[(ply - 1) % 4]);
        // The board alone never sees repetition.
        assert_eq!(game.board().status(&rules), Status::Ongoing);
        if status.is_over() {
            assert_eq!(status, Status::Draw(DrawReason::Repetition));
            assert_eq!(game.occurrences(), repetition as usize);
            assert_eq!(
                game.play(mv(CYCLE[ply % 4])),
                Err(GameError::Over(Status::Draw(DrawReason::Repetition)))
            );
            return ply;
        }
    }
    panic!("no repetition draw in 100 plies");
}

#[test]
fn threefold_repetition_draws_counting_the_start_position() {
    assert_eq!(Rules::default().repetition_draw, 3);
    // Start (1st), after ply 4 (2nd), after ply 8 (3rd).
    assert_eq!(plies_until_repetition(3), 8);
}

#[test]
fn repetition_draw_two_draws_at_the_first_return() {
    assert_eq!(plies_until_repetition(2), 4);
}

#[test]
fn repetition_draw_four_needs_a_fourth_occurrence() {
    assert_eq!(plies_until_repetition(4), 12);
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    let rules = Rules {
        repetition_draw: 2,
        ..Rules::default()
    };
    // The attacker goes round a triangle a1-b1-c1 (3 moves) while the defender shuffles
    // i9-h9 (2 moves): the start placement comes back after 5 plies with the defenders to
    // move, and with the attackers to move only after 12.
    let moves = [
        "a1b1", "i9h9", "b1c1", "h9i9", "c1a1", "i9h9", "a1b1", "h9i9", "b1c1", "i9h9", "c1a1",
        "h9i9",
    ];
    let start = from_picture(SHUFFLE, Side::Attackers);
    let mut game = Game::new(rules, start);
    for (i, m) in moves.iter().enumerate() {
        let status = game_play(&mut game, m);
        let ply = i + 1;
        if ply == 5 {
            assert_eq!(
                game.board().to_fen().split(' ').next(),
                start.to_fen().split(' ').next(),
                "same placement as the start"
            );
            assert_eq!(game.board().side_to_move(), Side::Defenders);
            assert_eq!(game.occurrences(), 1);
        }
        if ply < 12 {
            assert_eq!(status, Status::Ongoing, "ply {ply}");
        } else {
            assert_eq!(status, Status::Draw(DrawReason::Repetition));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Move limit and the order of the end checks
// ---------------------------------------------------------------------------------------------

#[test]
fn move_limit_draws_after_200_plies() {
    let rules = Rules::default();
    assert_eq!(rules.move_limit, 200);
    let start = from_picture_at(SHUFFLE, Side::Attackers, 199);
    assert_eq!(start.status(&rules), Status::Ongoing);
    let mut game = Game::new(rules, start);
    assert_eq!(game.status(), Status::Ongoing);
    let status = game_play(&mut game, "a1b1");
    assert_eq!(status, Status::Draw(DrawReason::MoveLimit));
    assert_eq!(game.board().plies(), 200);
    assert_eq!(
        game.board().status(&rules),
        Status::Draw(DrawReason::MoveLimit)
    );
    assert!(game.play(mv("i9h9")).is_err());
}

#[test]
fn move_limit_other_value() {
    let rules = Rules {
        move_limit: 10,
        ..Rules::default()
    };
    let mut game = Game::new(rules, from_picture_at(SHUFFLE, Side::Attackers, 8));
    assert_eq!(game_play(&mut game, "a1b1"), Status::Ongoing);
    assert_eq!(
        game_play(&mut game, "i9h9"),
        Status::Draw(DrawReason::MoveLimit)
    );
}

#[test]
fn move_limit_zero_means_no_limit() {
    let rules = Rules {
        move_limit: 0,
        ..Rules::default()
    };
    let mut game = Game::new(rules, from_picture_at(SHUFFLE, Side::Attackers, 199));
    assert_eq!(game_play(&mut game, "a1b1"), Status::Ongoing);
    assert_eq!(game_play(&mut game, "i9h9"), Status::Ongoing);
    let far = from_picture_at(SHUFFLE, Side::Attackers, 9_999);
    assert_eq!(far.status(&rules), Status::Ongoing);
    let mut game = Game::new(rules, far);
    assert_eq!(game_play(&mut game, "a1b1"), Status::Ongoing);
}

#[test]
fn wins_on_the_200th_ply_take_precedence_over_the_move_limit() {
    let rules = Rules::default();
    // Escape.
    let mut game = Game::new(rules, from_picture_at(SHUFFLE, Side::Defenders, 199));
    assert_eq!(game_play(&mut game, "e5e9"), KING_ESCAPED);
    // King captured.
    let mut game = Game::new(
        rules,
        from_picture_at(
            "
            . . . b . . . . .
            . . . . . . . . .
            . b K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . w .",
            Side::Attackers,
            199,
        ),
    );
    assert_eq!(game_play(&mut game, "d9d7"), KING_CAPTURED);
    // No legal move.
    let mut game = Game::new(
        rules,
        from_picture_at(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . K . . . .
            . . . . . . . . .
            . . . . . . . . .
            w . . . . . . . .
            b . w . . . . . .",
            Side::Defenders,
            199,
        ),
    );
    assert_eq!(
        game_play(&mut game, "c1b1"),
        Status::Win(Side::Defenders, WinReason::NoMoves)
    );
    // Encirclement.
    let rules_enc = Rules {
        encirclement: true,
        ..Rules::default()
    };
    let mut game = Game::new(rules_enc, from_picture_at(RING, Side::Attackers, 199));
    assert_eq!(
        game_play(&mut game, "e9e7"),
        Status::Win(Side::Attackers, WinReason::Encircled)
    );
}

#[test]
fn repetition_is_reported_before_the_move_limit() {
    let rules = Rules {
        repetition_draw: 2,
        ..Rules::default()
    };
    let mut game = Game::new(rules, from_picture_at(SHUFFLE, Side::Attackers, 196));
    for m in &CYCLE[..3] {
        assert_eq!(game_play(&mut game, m), Status::Ongoing);
    }
    // Ply 200 both repeats the start and reaches the limit: rule 4 comes before rule 5.
    assert_eq!(
        game_play(&mut game, CYCLE[3]),
        Status::Draw(DrawReason::Repetition)
    );
}

// ---------------------------------------------------------------------------------------------
// FirstMove
// ---------------------------------------------------------------------------------------------

#[test]
fn first_move_attackers_by_default() {
    let rules = Rules::default();
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Attackers);
    assert_eq!(b.plies(), 0);
    let list = moves(&b, &rules);
    assert_eq!(list.len(), 80);
    assert!(
        list.iter()
            .all(|m| b.piece_at(m.from()) == Some(Piece::Attacker))
    );
    assert_eq!(Game::start(rules).board().side_to_move(), Side::Attackers);
}

#[test]
fn first_move_defenders_starts_with_the_defenders() {
    let rules = Rules {
        first_move: Side::Defenders,
        ..Rules::default()
    };
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Defenders);
    let attackers_first = Board::start(&Rules::default());
    assert_eq!(
        b.to_fen().split(' ').next(),
        attackers_first.to_fen().split(' ').next(),
        "the same placement"
    );
    let list = moves(&b, &rules);
    assert!(!list.is_empty());
    assert!(
        list.iter()
            .all(|m| b.piece_at(m.from()).map(Piece::side) == Some(Side::Defenders))
    );
    assert_eq!(b.hash(), b.compute_hash());
    assert_eq!(Game::start(rules).board().side_to_move(), Side::Defenders);
    assert_eq!(
        Board::start(&Rules::encyclopedia()).side_to_move(),
        Side::Defenders
    );
}

// ---------------------------------------------------------------------------------------------
// Announcements: raichi and tuichu
// ---------------------------------------------------------------------------------------------

#[test]
fn king_open_lines_counts_clear_lines_to_the_edge() {
    assert_eq!(Board::start(&Rules::default()).king_open_lines(), 0);
    let cases = [
        (
            "
            . . . . . . . . .
            . . b . . . . . .
            . b K b . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            1,
            "raichi: only south",
        ),
        (
            "
            . . . . . . . . .
            . . b . . . . . .
            . b K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            2,
            "tuichu: south and east",
        ),
        (
            "
            . . . . . . . . .
            . . b . . . . . .
            . . K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            3,
            "three lines",
        ),
        (
            "
            . . b . . . . . .
            . . . . . . . . .
            w . K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . b . . . . . .",
            1,
            "pieces on the edge squares block their lines",
        ),
        (
            "
            . . b . . . . . .
            . . . . . . . . .
            w . K . . . . . b
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . b . . . . . .",
            0,
            "no line open",
        ),
        (
            "
            . . . . . . . . .
            . . . . . . . . .
            . . K . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            4,
            "all four",
        ),
        (
            "
            . . . . . . . . .
            . . . . . . . . .
            K . . . . . . . .
            . . . . . . . . .
            . . . . + . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            0,
            "a king on the edge has escaped",
        ),
        (
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . b + b . . .
            . . . . . . . . .
            . . . b K b . . .
            . . . . b . . . .
            . . . . . . . . .",
            1,
            "the empty throne does not block the line north",
        ),
    ];
    for (picture, want, what) in cases {
        assert_eq!(
            from_picture(picture, Side::Attackers).king_open_lines(),
            want,
            "{what}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// check_move messages
// ---------------------------------------------------------------------------------------------

#[test]
fn check_move_says_why_a_move_is_illegal() {
    let rules = Rules::default();
    let b = from_picture(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        b . . . + . . . .
        . . . . . . . K .
        . . w . w . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Side::Defenders,
    );
    let cases = [
        ("d4d6", "no piece on d4"),
        (
            "a5a6",
            "the piece on a5 belongs to the attackers, and the defenders are to move",
        ),
        ("c3e3", "e3 is occupied"),
        ("c3f3", "the path is blocked"),
        ("e3e5", "may not stop on the throne"),
    ];
    for (m, want) in cases {
        let e = rejection(&b, &rules, m);
        assert!(e.contains(want), "{m}: got '{e}', wanted '{want}'");
        assert!(e.starts_with(&format!("{m} is not legal")), "{e}");
    }
    assert_eq!(b.check_move(&rules, mv("c3c4")), Ok(()));
    assert_eq!(b.parse_move(&rules, "c3-c4"), Ok(mv("c3c4")));
}
