//! The boards of every size checked against themselves and against plain references: the
//! standard set-ups of 7×7 and 11×11, square names and moves from `a1` to `k11`, position
//! strings with runs of ten and eleven, typed errors for bad strings, move generation against
//! a generator that walks every line square by square, Zobrist keys against a recomputation,
//! and perft against its divide and its slow twin. (Under today's rules, which are Tablut's
//! options on a larger board, no other program counts the same trees yet.)

use super::{
    BRANDUBH_FEN, BoardOf, COPENHAGEN_FEN, DrawReason, GameErrorOf, GameOf, MoveErrorOf,
    MoveListOf, PositionErrorOf, START_FEN, Status, WinReason,
};
use crate::bitboard::BitboardOf;
use crate::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use crate::perft::{divide, perft, perft_slow};
use crate::rules::{KingCapture, Rules, Variant};
use crate::types::{Direction, MoveOf, Piece, Side, SquareOf};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn sq<G: Geometry>(name: &str) -> SquareOf<G> {
    name.parse()
        .unwrap_or_else(|e| panic!("{name} on {}: {e}", G::SIDE))
}

fn squares<G: Geometry>(names: &str) -> BitboardOf<G> {
    names.split_whitespace().map(sq::<G>).collect()
}

/// The rule options today's code has, each switched away from the default, plus the default:
/// every one applies to any size.
fn rule_variants() -> Vec<Rules> {
    let base = Rules::default();
    let mut all = vec![base];
    let mut r = base;
    r.king_capture = KingCapture::English;
    all.push(r);
    let mut r = base;
    r.king_armed = false;
    r.throne_hostile = true;
    all.push(r);
    let mut r = base;
    r.throne_passable = false;
    r.king_reenters_throne = false;
    all.push(r);
    let mut r = base;
    r.throne_passable = false;
    r.throne_guard_capture = false;
    r.first_move = Side::Defenders;
    all.push(r);
    let mut r = base;
    r.encirclement = true;
    all.push(r);
    all
}

/// The legal moves as the rules state them, found the plain way: from each piece of the side
/// to move, along each of the four directions, square by square until a piece or the edge;
/// a soldier never stops on the throne and crosses it only when `ThronePassable`; the king
/// crosses it when he may pass it and stops on it when he may re-enter it. (Camps are Ashton's
/// on Tablut's board only, and Ashton is left out here.)
fn plain_moves<G: Geometry>(board: &BoardOf<G>, rules: &Rules) -> Vec<MoveOf<G>> {
    let mut moves = Vec::new();
    if board.is_won(rules) {
        return moves;
    }
    let occupied = board.occupied();
    let throne = SquareOf::<G>::THRONE;
    for from in board.side_pieces(board.side_to_move()) {
        let king = Some(from) == board.king();
        for d in Direction::ALL {
            let mut at = from;
            while let Some(next) = at.step(d) {
                if occupied.has(next) {
                    break;
                }
                if next == throne {
                    let (may_cross, may_stop) = if king {
                        (
                            rules.throne_passable || rules.king_reenters_throne,
                            rules.king_reenters_throne,
                        )
                    } else {
                        (rules.throne_passable, false)
                    };
                    if may_stop {
                        moves.push(MoveOf::new(from, next));
                    }
                    if !may_cross {
                        break;
                    }
                } else {
                    moves.push(MoveOf::new(from, next));
                }
                at = next;
            }
        }
    }
    moves
}

/// Random positions of a size: random games from its set-up, under each rule variant, each
/// move chosen at random with captures preferred (so that kings get taken and lines open).
fn random_positions<G: Geometry>(
    start: &str,
    seed: u64,
    games: usize,
    f: &mut impl FnMut(&BoardOf<G>, &Rules),
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = 0;
    for rules in rule_variants() {
        for _ in 0..games {
            let mut board = BoardOf::<G>::from_fen(start).unwrap();
            board.set_side_to_move(rules.first_move);
            for _ in 0..300 {
                f(&board, &rules);
                seen += 1;
                let moves = board.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                let captures = board.capture_targets(&rules);
                let taking: Vec<_> = moves.iter().filter(|m| captures.has(m.to())).collect();
                let mv = if !taking.is_empty() && rng.random_bool(0.7) {
                    *taking[rng.random_range(0..taking.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                board.play(&rules, mv);
            }
        }
    }
    seen
}

#[test]
fn brandubh_set_up_reads_with_the_listed_pieces_and_writes_back_the_same() {
    let board = BoardOf::<Seven>::from_fen(BRANDUBH_FEN).unwrap();
    assert_eq!(board.to_fen(), BRANDUBH_FEN);
    assert_eq!(board.king(), Some(sq("d4")));
    assert_eq!(board.king(), Some(SquareOf::THRONE));
    assert_eq!(board.defenders(), squares("d3 d5 c4 e4"));
    assert_eq!(board.attackers(), squares("d1 d2 d6 d7 a4 b4 f4 g4"));
    assert_eq!(board.side_to_move(), Side::Attackers);
    assert_eq!(board.hash(), board.compute_hash());
}

#[test]
fn copenhagen_set_up_reads_with_the_listed_pieces_and_writes_back_the_same() {
    let board = BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap();
    assert_eq!(board.to_fen(), COPENHAGEN_FEN);
    assert_eq!(board.king(), Some(sq("f6")));
    assert_eq!(board.king(), Some(SquareOf::THRONE));
    assert_eq!(
        board.defenders(),
        squares("d6 e5 e6 e7 f4 f5 f7 f8 g5 g6 g7 h6")
    );
    let attackers = "a4 a5 a6 a7 a8 b6 k4 k5 k6 k7 k8 j6 d1 e1 f1 g1 h1 f2 \
                     d11 e11 f11 g11 h11 f10";
    assert_eq!(board.attackers(), squares(attackers));
    assert_eq!(board.attackers().len(), 24);
    assert_eq!(board.hash(), board.compute_hash());
}

/// hnefatafl.org's 13×13 start position, as its preset writes it.
fn thirteen_start() -> String {
    Variant::find("hnefatafl.org-13")
        .expect("the 13x13 preset")
        .start_fen()
}

#[test]
fn thirteen_by_thirteen_set_up_reads_with_the_listed_pieces_and_writes_back_the_same() {
    let fen = thirteen_start();
    let board = BoardOf::<Thirteen>::from_fen(&fen).unwrap();
    assert_eq!(board.to_fen(), fen);
    assert_eq!(board.king(), Some(sq("g7")));
    assert_eq!(board.king(), Some(SquareOf::THRONE));
    assert_eq!(
        board.defenders(),
        squares("g4 g5 f6 g6 h6 d7 e7 f7 h7 i7 j7 f8 g8 h8 g9 g10")
    );
    let attackers = "d1 e1 f1 g1 h1 i1 j1 g2 d13 e13 f13 g13 h13 i13 j13 g12 \
                     a4 a5 a6 a7 a8 a9 a10 b7 m4 m5 m6 m7 m8 m9 m10 l7";
    assert_eq!(board.attackers(), squares(attackers));
    assert_eq!(board.attackers().len(), 32);
    assert_eq!(board.side_to_move(), Side::Attackers);
    assert_eq!(board.hash(), board.compute_hash());
}

#[test]
fn thirteen_by_thirteen_squares_run_from_a1_to_m13_and_moves_pack_every_pair() {
    let m13 = sq::<Thirteen>("m13");
    assert_eq!((m13.index(), m13.file(), m13.rank()), (168, 12, 12));
    assert_eq!(m13.to_string(), "m13");
    assert_eq!(SquareOf::<Thirteen>::THRONE.to_string(), "g7");
    for bad in ["n1", "a14", "a0", "m133"] {
        let err = bad.parse::<SquareOf<Thirteen>>().unwrap_err();
        assert_eq!((err.text.as_str(), err.side), (bad, 13));
        assert!(
            err.to_string().contains("a file a-m and a rank 1-13"),
            "{err}"
        );
    }
    for (text, written) in [
        ("a13m13", "a13m13"),
        ("m1-m13", "m1m13"),
        ("L12l1", "l12l1"),
    ] {
        let mv = MoveOf::<Thirteen>::parse(text).unwrap();
        assert_eq!(mv.to_string(), written, "{text}");
    }
    for from in SquareOf::<Thirteen>::all() {
        for to in SquareOf::<Thirteen>::all() {
            let mv = MoveOf::new(from, to);
            assert_eq!((mv.from(), mv.to()), (from, to));
            assert_eq!(MoveOf::from_raw(mv.raw()), Some(mv));
        }
    }
}

#[test]
fn thirteen_by_thirteen_position_strings_with_runs_of_twelve_and_thirteen_round_trip() {
    for text in [
        "13/13/13/13/13/13/6K6/13/13/13/13/13/b12 b 0",
        "12b/b12/13/13/13/13/6K6/13/13/13/13/13/1w10b w 3",
    ] {
        let board = BoardOf::<Thirteen>::from_fen(text).unwrap();
        assert_eq!(board.to_fen(), text);
        assert_eq!(board.hash(), board.compute_hash());
    }
    let board =
        BoardOf::<Thirteen>::from_fen("12b/b12/13/13/13/13/6K6/13/13/13/13/13/13 w").unwrap();
    assert_eq!(board.attackers(), squares("m13 a12"));
    assert!(BoardOf::<Thirteen>::from_fen("14/13/13/13/13/13/6K6/13/13/13/13/13/13 w").is_err());
    assert!(BoardOf::<Thirteen>::from_fen("13/13/13/13/13/13/6K6/13/13/13/13/13 w").is_err());
}

/// Plays `mv` on the 13×13 position `fen` under hnefatafl.org's 13×13 rules and returns the
/// squares it took.
fn thirteen_takes(fen: &str, mv: &str) -> BitboardOf<Thirteen> {
    let rules = Variant::find("hnefatafl.org-13").unwrap().rules();
    let mut board = BoardOf::<Thirteen>::from_fen(fen).unwrap();
    let mv = board.parse_move(&rules, mv).unwrap();
    let taken = board.play(&rules, mv);
    assert_eq!(board.hash(), board.compute_hash(), "{fen} {mv}");
    taken
}

#[test]
fn thirteen_by_thirteen_captures_reach_across_the_two_words_of_a_set() {
    // k10 is square 127, the last of the first word; l10 and m10 are 128 and 129.
    assert_eq!(sq::<Thirteen>("k10").index(), 127);
    let across = "13/13/13/11wb/13/13/6K6/13/13/10b2/13/13/13 b 0";
    assert_eq!(thirteen_takes(across, "k4k10"), squares("l10"));
    // Down file l, whose transposed squares all lie in the second word.
    let down = "11b1/11w1/3b9/13/13/13/6K6/13/13/13/13/13/13 b 0";
    assert_eq!(thirteen_takes(down, "d11l11"), squares("l12"));
    // A shieldwall on rank 13 (squares 159 to 168): d13 and the mover on h13 bracket the
    // row e13-g13, each faced from rank 12.
    let wall = "3bwww6/4bbb6/13/13/13/13/6K6/13/7b5/13/13/13/13 b 0";
    assert_eq!(thirteen_takes(wall, "h5h13"), squares("e13 f13 g13"));
    // The same along file m, with the corner m13 as the far bracket.
    let wall_m = "13/11bw/11bw/11bw/b12/13/6K6/13/13/13/13/13/13 b 0";
    assert_eq!(thirteen_takes(wall_m, "a9m9"), squares("m10 m11 m12"));
}

#[test]
fn square_names_run_from_a1_to_the_far_corner_and_a10_is_never_a1() {
    fn round_trip<G: Geometry>() {
        for s in SquareOf::<G>::all() {
            assert_eq!(s.to_string().parse::<SquareOf<G>>(), Ok(s));
            assert_eq!(s.to_string().to_uppercase().parse::<SquareOf<G>>(), Ok(s));
        }
    }
    round_trip::<Seven>();
    round_trip::<Nine>();
    round_trip::<Eleven>();
    round_trip::<Thirteen>();
    let a10 = sq::<Eleven>("a10");
    assert_eq!((a10.file(), a10.rank()), (0, 9));
    assert_eq!(sq::<Eleven>("k11").index(), 120);
    assert_eq!(sq::<Eleven>("k11").to_string(), "k11");
    assert_eq!(SquareOf::<Seven>::THRONE.to_string(), "d4");
    assert_eq!(SquareOf::<Eleven>::THRONE.to_string(), "f6");
    for bad in ["l1", "a12", "a0", "a01", "a", "a1x", "1a", "", "a111", "é1"] {
        let err = bad.parse::<SquareOf<Eleven>>().unwrap_err();
        assert_eq!((err.text.as_str(), err.side), (bad, 11));
        assert!(
            err.to_string().contains("a file a-k and a rank 1-11"),
            "{err}"
        );
    }
    for bad in ["h1", "a8", "a10"] {
        assert!(bad.parse::<SquareOf<Seven>>().is_err(), "{bad}");
    }
}

#[test]
fn moves_read_and_write_with_ranks_of_two_digits() {
    for (text, written) in [
        ("a10a11", "a10a11"),
        ("a1a10", "a1a10"),
        ("a10a1", "a10a1"),
        ("k11-b11", "k11b11"),
        ("c3c4", "c3c4"),
        ("B10b2", "b10b2"),
    ] {
        let mv = MoveOf::<Eleven>::parse(text).unwrap();
        assert_eq!(mv.to_string(), written, "{text}");
        assert_eq!(MoveOf::<Eleven>::parse(&mv.to_string()), Ok(mv));
    }
    for bad in [
        "a10b11", "a10a10", "a12a1", "a1a", "a10a1x", "a1-", "a1a100",
    ] {
        assert!(MoveOf::<Eleven>::parse(bad).is_err(), "{bad}");
    }
    // Every pair of squares survives packing.
    for from in SquareOf::<Eleven>::all() {
        for to in SquareOf::<Eleven>::all() {
            let mv = MoveOf::new(from, to);
            assert_eq!((mv.from(), mv.to()), (from, to));
            assert_eq!(MoveOf::from_raw(mv.raw()), Some(mv));
        }
    }
    assert_eq!(MoveOf::<Seven>::from_raw(49), None);
}

#[test]
fn position_strings_with_runs_of_ten_and_eleven_round_trip() {
    for text in [
        "11/11/11/11/11/5K5/11/11/11/11/b10 b 0",
        "10b/b10/11/11/11/5K5/11/11/11/11/11 w 7",
        "1b8w/11/11/11/11/5K5/11/11/11/11/11 b 0",
        COPENHAGEN_FEN,
    ] {
        let board = BoardOf::<Eleven>::from_fen(text).unwrap();
        assert_eq!(board.to_fen(), text);
        assert_eq!(board.hash(), board.compute_hash());
    }
    let board = BoardOf::<Eleven>::from_fen("10b/b10/11/11/11/5K5/11/11/11/11/11 w").unwrap();
    assert_eq!(board.attackers(), squares("k11 a10"));
    // On Tablut's board every digit is a run of its own, as it always was.
    let nine = BoardOf::<Nine>::from_fen("45/9/9/9/4K4/9/9/9/b8 b").unwrap();
    assert_eq!(nine.to_fen(), "9/9/9/9/4K4/9/9/9/b8 b 0");
    assert_eq!(
        BoardOf::<Nine>::from_fen(START_FEN).unwrap().to_fen(),
        START_FEN
    );
}

#[test]
fn bad_position_strings_give_a_typed_error_for_each_size() {
    type E11 = PositionErrorOf<Eleven>;
    let err = |text: &str| BoardOf::<Eleven>::from_fen(text).unwrap_err();
    let ranks = |middle: &str, last: &str| format!("11/11/11/11/11/{middle}/11/11/11/11/{last} b");
    assert_eq!(err("11/11/11/11/11/5K5/11/11/11/11 b"), E11::RankCount(10));
    assert_eq!(
        err(&ranks("5K5", "12")),
        E11::RankTooLong { rank: 1 },
        "twelve squares"
    );
    assert_eq!(err(&ranks("5K5", "10b1")), E11::RankTooLong { rank: 1 });
    assert_eq!(err(&ranks("5K5", "111")), E11::RankTooLong { rank: 1 });
    assert_eq!(
        err(&ranks("5K5", "10")),
        E11::RankTooShort {
            rank: 1,
            squares: 10
        }
    );
    assert_eq!(
        err(&ranks("5K5", "011")),
        E11::BadCharacter {
            rank: 1,
            column: 1,
            found: '0'
        }
    );
    assert_eq!(
        err(&ranks("5b5", "K10")),
        E11::SoldierOnThrone(Piece::Attacker)
    );
    assert_eq!(err(&ranks("5K5", "K10")), E11::TwoKings(sq("f6"), sq("a1")));
    assert_eq!(err(&ranks("11", "11")), E11::NoKing);
    assert!(err(&ranks("5b5", "K10")).to_string().contains("throne f6"));
    assert!(
        err(&ranks("5K5", "12"))
            .to_string()
            .contains("more than 11")
    );
    // A Tablut string is no 7×7 or 11×11 position, and the other way round.
    assert_eq!(
        BoardOf::<Seven>::from_fen(START_FEN),
        Err(PositionErrorOf::RankCount(9))
    );
    assert_eq!(
        BoardOf::<Nine>::from_fen(COPENHAGEN_FEN),
        Err(PositionErrorOf::RankCount(11))
    );
    assert_eq!(
        BoardOf::<Seven>::from_fen("3b3/3b3/3w3/bbwKwbb/3w3/3b3/3b4 b"),
        Err(PositionErrorOf::RankTooLong { rank: 1 })
    );
    assert_eq!(
        BoardOf::<Seven>::from_fen("3b3/3b3/3w3/bbwKwbb/3w3/3b3/10 b"),
        Err(PositionErrorOf::BadCharacter {
            rank: 1,
            column: 2,
            found: '0'
        })
    );
}

#[test]
fn random_text_never_panics_the_position_reader_of_any_size() {
    let mut rng = StdRng::seed_from_u64(45);
    let alphabet: Vec<char> = "bwK0123456789/ x-é".chars().collect();
    let mut parsed = 0;
    for _ in 0..20_000 {
        let len = rng.random_range(0..60);
        let text: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        parsed += usize::from(BoardOf::<Seven>::from_fen(&text).is_ok());
        parsed += usize::from(BoardOf::<Nine>::from_fen(&text).is_ok());
        parsed += usize::from(BoardOf::<Eleven>::from_fen(&text).is_ok());
        let _ = text.parse::<SquareOf<Eleven>>();
        let _ = MoveOf::<Eleven>::parse(&text);
    }
    // Mutated set-ups: a character changed, dropped or doubled.
    for start in [BRANDUBH_FEN, COPENHAGEN_FEN] {
        let chars: Vec<char> = start.chars().collect();
        for i in 0..chars.len() {
            for c in ['1', '0', 'b', 'K', '/', '9'] {
                let mut m = chars.clone();
                m[i] = c;
                let text: String = m.iter().collect();
                let _ = BoardOf::<Seven>::from_fen(&text);
                if let Ok(b) = BoardOf::<Eleven>::from_fen(&text) {
                    assert_eq!(BoardOf::<Eleven>::from_fen(&b.to_fen()), Ok(b));
                }
            }
        }
    }
    assert!(parsed < 20_000, "{parsed}");
}

/// Generation, captures and keys on random positions of one size: the generated moves are the
/// plain generator's, `legal_moves_to` agrees with them on every target set tried, every move
/// checks as legal, and after each move (copy-make) the key is the recomputed one and the
/// position string (while there is a king to write) reads back to the same board.
fn generation_agrees_with_the_plain_generator<G: Geometry>(start: &str, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut moves_seen, mut captures, mut kings) = (0usize, 0u32, 0usize);
    let positions = random_positions::<G>(start, seed, 12, &mut |board, rules| {
        let mut fast: Vec<_> = board.legal_moves(rules).to_vec();
        let mut plain = plain_moves(board, rules);
        fast.sort_by_key(|m| m.raw());
        plain.sort_by_key(|m| m.raw());
        assert_eq!(fast, plain, "{}", board.to_fen());
        assert_eq!(board.count_moves(rules) as usize, fast.len());
        assert_eq!(board.has_move(rules), !fast.is_empty());
        moves_seen += fast.len();
        let mut targets = BitboardOf::<G>::EMPTY;
        for _ in 0..rng.random_range(1..6) {
            targets.set(SquareOf::from_index(rng.random_range(0..G::SQUARES)));
        }
        let mut onto = MoveListOf::<G>::new();
        board.legal_moves_to(rules, targets, &mut onto);
        let mut onto = onto.to_vec();
        onto.sort_by_key(|m| m.raw());
        let expected: Vec<_> = fast
            .iter()
            .copied()
            .filter(|m| targets.has(m.to()))
            .collect();
        assert_eq!(onto, expected, "{} {targets:?}", board.to_fen());
        for &mv in &fast {
            assert!(board.is_legal(rules, mv), "{mv}");
            assert_eq!(board.check_move(rules, mv), Ok(()));
            let mut child = *board;
            let taken = child.play(rules, mv);
            assert_eq!(
                child.hash(),
                child.compute_hash(),
                "{} {mv}",
                board.to_fen()
            );
            if child.king().is_some() {
                assert_eq!(BoardOf::<G>::from_fen(&child.to_fen()), Ok(child));
            }
            assert!((taken - board.side_pieces(board.side_to_move().opponent())).is_empty());
            captures += taken.len();
            kings += usize::from(board.king().is_some() && child.king().is_none());
        }
    });
    assert!(
        positions > 1_000 && moves_seen > 50_000 && captures > 300 && kings > 20,
        "{positions} {moves_seen} {captures} {kings}"
    );
}

#[test]
fn seven_by_seven_generation_agrees_with_the_plain_generator_and_keys_with_recomputation() {
    generation_agrees_with_the_plain_generator::<Seven>(BRANDUBH_FEN, 7);
}

#[test]
fn nine_by_nine_generation_agrees_with_the_plain_generator_and_keys_with_recomputation() {
    generation_agrees_with_the_plain_generator::<Nine>(START_FEN, 9);
}

#[test]
fn eleven_by_eleven_generation_agrees_with_the_plain_generator_and_keys_with_recomputation() {
    generation_agrees_with_the_plain_generator::<Eleven>(COPENHAGEN_FEN, 11);
}

#[test]
fn thirteen_by_thirteen_generation_agrees_with_the_plain_generator_and_keys_with_recomputation() {
    generation_agrees_with_the_plain_generator::<Thirteen>(&thirteen_start(), 13);
}

#[test]
fn thirteen_by_thirteen_perft_agrees_with_divide_and_the_slow_count() {
    let board = BoardOf::<Thirteen>::from_fen(&thirteen_start()).unwrap();
    let rules = Variant::find("hnefatafl.org-13").unwrap().rules();
    let fast = perft(&board, &rules, 2);
    assert_eq!(perft_slow(&board, &rules, 2), fast);
    assert_eq!(
        divide(&board, &rules, 2)
            .iter()
            .map(|&(_, n)| n)
            .sum::<u64>(),
        fast
    );
    assert_eq!(perft(&board, &rules, 1), 180);
    let open = Rules::default();
    assert_eq!(perft_slow(&board, &open, 2), perft(&board, &open, 2));
}

/// Perft of one size, from its set-up and from positions along a random game: the bulk count
/// equals the count that plays every move, and equals divide's sum.
fn perft_agrees_with_divide_and_the_slow_count<G: Geometry>(start: &str, depth: u32) -> u64 {
    let rules = Rules::default();
    let board = BoardOf::<G>::from_fen(start).unwrap();
    let fast = perft(&board, &rules, depth);
    assert_eq!(perft_slow(&board, &rules, depth), fast);
    let split = divide(&board, &rules, depth);
    assert_eq!(split.len(), board.legal_moves(&rules).len());
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), fast);
    let mut rng = StdRng::seed_from_u64(depth.into());
    let mut b = board;
    for _ in 0..40 {
        let moves = b.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        b.play(&rules, moves[rng.random_range(0..moves.len())]);
        assert_eq!(
            perft(&b, &rules, 3),
            perft_slow(&b, &rules, 3),
            "{}",
            b.to_fen()
        );
    }
    fast
}

#[test]
fn brandubh_perft_agrees_with_divide_and_the_slow_count() {
    let n = perft_agrees_with_divide_and_the_slow_count::<Seven>(BRANDUBH_FEN, 4);
    assert!(n > 100_000, "{n}");
}

#[test]
fn copenhagen_perft_agrees_with_divide_and_the_slow_count() {
    let n = perft_agrees_with_divide_and_the_slow_count::<Eleven>(COPENHAGEN_FEN, 3);
    assert!(n > 500_000, "{n}");
}

#[test]
fn each_size_has_keys_of_its_own_drawn_from_the_same_generator() {
    // Tablut's keys are those it always had.
    assert_eq!(
        crate::zobrist::piece_key(Piece::Attacker, SquareOf::<Nine>::from_index(0)),
        0x0aef_ec53_514b_d53f
    );
    // Every size draws its first key first: the same number for a1's attacker.
    let a1 = |p| Seven::piece_key(p, 0);
    assert_eq!(a1(0), Nine::piece_key(0, 0));
    assert_eq!(a1(0), Eleven::piece_key(0, 0));
    let mut keys: Vec<u64> = (0..3)
        .flat_map(|p| (0..Eleven::SQUARES).map(move |s| Eleven::piece_key(p, s)))
        .collect();
    keys.push(Eleven::SIDE_KEY);

    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n);
    assert_ne!(Seven::SIDE_KEY, Nine::SIDE_KEY);
    // 13×13's keys: the same first draw, all different, a side key of their own.
    assert_eq!(a1(0), Thirteen::piece_key(0, 0));
    let mut keys: Vec<u64> = (0..3)
        .flat_map(|p| (0..Thirteen::SQUARES).map(move |s| Thirteen::piece_key(p, s)))
        .collect();
    keys.push(Thirteen::SIDE_KEY);
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 3 * 169 + 1);
    assert_ne!(Eleven::SIDE_KEY, Thirteen::SIDE_KEY);
}

#[test]
fn an_eleven_by_eleven_game_plays_moves_as_text_and_draws_by_repetition() {
    let rules = Rules::default();
    // Two soldiers shuffle back and forth until the position has occurred three times.
    let moves = ["a8a9", "d6d9", "a9a8", "d9d6"].repeat(2);
    let game = GameOf::<Eleven>::from_fen_and_moves(rules, COPENHAGEN_FEN, moves).unwrap();
    assert_eq!(game.status(), Status::Draw(DrawReason::Repetition));
    assert_eq!(game.moves().len(), 8);
    assert!(game.board().same_position(game.start_board()));
    // A move with a two-digit rank, and errors that name the move at fault.
    let mut game =
        GameOf::<Eleven>::from_fen_and_moves(rules, COPENHAGEN_FEN, ["f10-c10"]).unwrap();
    assert_eq!(game.board().piece_at(sq("c10")), Some(Piece::Attacker));
    assert!(matches!(
        game.play_text("f6f7"),
        Err(GameErrorOf::Move {
            index: 1,
            error: MoveErrorOf::Illegal(_)
        })
    ));
    assert!(matches!(
        GameOf::<Eleven>::from_fen_and_moves(rules, COPENHAGEN_FEN, ["a8a9", "l1l2"]),
        Err(GameErrorOf::Move {
            index: 1,
            error: MoveErrorOf::Parse(_)
        })
    ));
    assert!(matches!(
        GameOf::<Eleven>::from_fen_and_moves(rules, BRANDUBH_FEN, []),
        Err(GameErrorOf::Position(PositionErrorOf::RankCount(7)))
    ));
}

#[test]
fn a_brandubh_king_who_reaches_the_edge_wins_the_game() {
    let rules = Rules::default();
    // The king on d4 with the d-file open above him: d4-d7 reaches the edge.
    let fen = "7/7/3w3/bbwKwbb/3w3/3b3/3b3 w";
    let game = GameOf::<Seven>::from_fen_and_moves(rules, fen, ["d4d7"]);
    assert!(game.is_err(), "d5 stands in the way");
    let fen = "7/7/7/bbwKwbb/3w3/3b3/3b3 w";
    let game = GameOf::<Seven>::from_fen_and_moves(rules, fen, ["d4d7"]).unwrap();
    assert_eq!(
        game.status(),
        Status::Win(Side::Defenders, WinReason::KingEscaped)
    );
}

/// The king's danger on one size: the squares where an attacker's move would capture the
/// king next move ([`BoardOf::king_capture_threats`]) are those of the attackers' legal moves
/// that capture him, found by playing every one.
fn king_threats_agree_with_playing_every_move<G: Geometry>(start: &str, seed: u64) -> usize {
    let mut threatened = 0;
    random_positions::<G>(start, seed, 8, &mut |board, rules| {
        if board.is_won(rules) {
            return;
        }
        let mut as_attackers = *board;
        as_attackers.set_side_to_move(Side::Attackers);
        let mut slow = BitboardOf::<G>::EMPTY;
        for mv in as_attackers.legal_moves(rules) {
            let mut child = as_attackers;
            child.play(rules, mv);
            if child.king().is_none() {
                slow.set(mv.to());
            }
        }
        assert_eq!(
            board.king_capture_threats(rules),
            slow,
            "{}",
            board.to_fen()
        );
        assert_eq!(board.king_in_danger(rules), !slow.is_empty());
        if !slow.is_empty() && board.side_to_move() == Side::Defenders {
            threatened += 1;
        }
    });
    threatened
}

#[test]
fn king_threats_on_7x7_and_11x11_are_the_attackers_moves_that_capture_him() {
    let n = king_threats_agree_with_playing_every_move::<Seven>(BRANDUBH_FEN, 17);
    assert!(n > 50, "{n}");
    let n = king_threats_agree_with_playing_every_move::<Eleven>(COPENHAGEN_FEN, 19);
    assert!(n > 50, "{n}");
}
