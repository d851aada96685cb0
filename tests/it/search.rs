//! Tactics every build must solve, and search behaviour the protocol relies on.

use crate::common::board::picture_fen;
use crate::common::engine::{analyse, engine_with};
use konakis::search::{Limits, Score, Settings};
use konakis::{Board, Game, Move, Rules, Side};
use std::time::{Duration, Instant};

fn search(fen: &str, rules: Rules, limits: Limits, threads: usize) -> (Move, Score) {
    let game = Game::new(rules, Board::from_fen(fen).unwrap());
    let mut engine = engine_with(Settings {
        threads,
        ..Settings::default()
    });
    let (best, info) = analyse(&mut engine, &game, limits);
    let best = best.expect("a live position has a best move");
    assert!(
        game.board().is_legal(&rules, best),
        "{fen}: {best} is not legal"
    );
    (best, info.expect("at least one iteration").score)
}

fn within_a_second() -> Limits {
    Limits {
        movetime: Some(1000),
        ..Limits::default()
    }
}

/// Plays `mv` and tells whether the side that moved has won.
fn wins(fen: &str, rules: &Rules, mv: Move) -> bool {
    let mut b = Board::from_fen(fen).unwrap();
    let side = b.side_to_move();
    b.play(rules, mv);
    matches!(b.status(rules), konakis::Status::Win(s, _) if s == side)
}

/// The king on c7 sees c9: the defenders escape at once.
const ESCAPE_IN_ONE: &str = "...b.b...
                             .........
                             ..K.....b
                             b........
                             bb.w....b
                             b.......b
                             .........
                             ....b....
                             ...bbb...";

/// The king on c3 stands between an attacker on b3 and the empty d3; the attacker on d7 can
/// drop to d3.
const SANDWICH_IN_ONE: &str = "..b......
                               .........
                               ...b.....
                               .........
                               .....w...
                               .........
                               .bK......
                               ..w......
                               .........";

/// As above with attackers also on c4 and c2: d3 completes the ring of four.
const RING_IN_ONE: &str = "..b......
                           .........
                           ...b.....
                           .........
                           .....w...
                           ..b......
                           .bK......
                           ..b......
                           .........";

#[test]
fn escape_in_one_is_found_and_played() {
    let fen = &picture_fen(ESCAPE_IN_ONE, Side::Defenders, 0);
    let rules = Rules::default();
    let start = Instant::now();
    let (mv, score) = search(fen, rules, within_a_second(), 1);
    assert!(start.elapsed() < Duration::from_millis(1100));
    assert_eq!(score, Score::Mate(1), "{mv}");
    assert!(wins(fen, &rules, mv), "{mv} does not escape");
}

#[test]
fn king_capture_in_one_is_found_under_both_rules() {
    let original = &picture_fen(SANDWICH_IN_ONE, Side::Attackers, 0);
    let (mv, score) = search(original, Rules::default(), within_a_second(), 1);
    assert_eq!(score, Score::Mate(1), "{mv}");
    assert_eq!(mv.to_string(), "d7d3");
    let english = &picture_fen(RING_IN_ONE, Side::Attackers, 0);
    let rules = Rules {
        king_capture: konakis::KingCapture::English,
        ..Rules::default()
    };
    let (mv, score) = search(english, rules, within_a_second(), 1);
    assert_eq!(score, Score::Mate(1), "{mv}");
    assert!(wins(english, &rules, mv));
    // Under English the sandwich is no capture: the attackers must block the escape instead.
    let (mv, score) = search(original, rules, within_a_second(), 1);
    assert_ne!(score, Score::Mate(1), "{mv}");
}

#[test]
fn an_escape_threat_is_blocked() {
    // The king on c3 sees c1 (file c down); the attackers must put a piece on c2 or c1.
    let fen = &picture_fen(
        "...bbb...
         ....b....
         ....w....
         b...w...b
         bb.w.wwbb
         b.b.w...b
         ..K.w....
         b...b....
         ...b.b...",
        Side::Attackers,
        0,
    );
    let rules = Rules::default();
    let (mv, score) = search(fen, rules, within_a_second(), 1);
    let to = mv.to().to_string();
    assert!(to == "c2" || to == "c1", "{mv} does not block");
    assert!(!matches!(score, Score::Mate(n) if n < 0), "{mv}: {score:?}");
}

/// The king on e5 can step to e3, from where rank 3 is open both ways.
const DOUBLE_THREAT_IN_TWO: &str = "...bbb...
                                    ....b....
                                    .........
                                    b.......b
                                    b..bKb..b
                                    b.......b
                                    .........
                                    .........
                                    ...bbb...";

#[test]
fn a_win_beyond_the_move_limit_scores_as_a_draw() {
    let fen = &picture_fen(DOUBLE_THREAT_IN_TWO, Side::Defenders, 0);
    let depth = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let open = Rules {
        move_limit: 0,
        ..Rules::default()
    };
    let (_, score) = search(fen, open, depth.clone(), 1);
    assert_eq!(score, Score::Mate(2), "without a move limit");
    // Drawn after two more plies, the game ends before the escape on the third.
    let limited = Rules {
        move_limit: 2,
        ..Rules::default()
    };
    let (_, score) = search(fen, limited, depth, 1);
    assert_eq!(score, Score::Cp(0), "the move limit comes first");
}

#[test]
fn escape_in_two_through_a_double_threat_is_found() {
    // The king on e5 steps to e3, from where rank 3 is open both ways: one block cannot stop
    // both escapes.
    let fen = &picture_fen(DOUBLE_THREAT_IN_TWO, Side::Defenders, 0);
    let (mv, score) = search(fen, Rules::default(), within_a_second(), 1);
    assert!(matches!(score, Score::Mate(n) if n <= 2), "{mv}: {score:?}");
}

#[test]
fn two_threads_agree_on_won_and_lost_positions() {
    let rules = Rules::default();
    let depth = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    for fen in [
        picture_fen(ESCAPE_IN_ONE, Side::Defenders, 0),
        picture_fen(SANDWICH_IN_ONE, Side::Attackers, 0),
        picture_fen(ESCAPE_IN_ONE, Side::Attackers, 0),
    ] {
        let (m1, s1) = search(&fen, rules, depth.clone(), 1);
        let (m2, s2) = search(&fen, rules, depth.clone(), 2);
        assert_eq!(s1, s2, "{fen}: {m1} vs {m2}");
    }
}

#[test]
fn node_limited_search_is_deterministic_with_one_thread() {
    let rules = Rules::default();
    let fen = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b";
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let game = Game::new(rules, Board::from_fen(fen).unwrap());
    let mut a = engine_with(Settings::default());
    let mut b = engine_with(Settings::default());
    let (ma, ia) = analyse(&mut a, &game, limits.clone());
    let (mb, ib) = analyse(&mut b, &game, limits);
    assert_eq!(ma, mb);
    assert_eq!(ia.map(|i| (i.nodes, i.pv)), ib.map(|i| (i.nodes, i.pv)));
}

#[test]
fn a_line_that_repeats_the_game_history_scores_as_a_draw() {
    // Under RepetitionDraw=2, the defenders' d4d5 returns to the game's start position: the
    // search, restricted to that move, must score it as a draw (0), because the position is in
    // the game's history, not in the search path.
    let rules = Rules {
        repetition_draw: 2,
        ..Rules::default()
    };
    let start = picture_fen(
        "b........
         .........
         .........
         .........
         ..bwKwb..
         .........
         .........
         .........
         ........b",
        Side::Attackers,
        0,
    );
    let game = Game::from_moves(rules, Some(&start), ["a9a8", "d5d4", "a8a9"]).unwrap();
    assert_eq!(game.board().side_to_move(), Side::Defenders);
    // d4d5 repeats the start position: a draw at once under RepetitionDraw=2.
    let mut g = game.clone();
    assert_eq!(
        g.play(Move::parse("d4d5").unwrap()).unwrap(),
        konakis::Status::Draw(konakis::DrawReason::Repetition)
    );
    let mut e = engine_with(Settings::default());
    let only = Limits {
        depth: Some(3),
        searchmoves: vec![Move::parse("d4d5").unwrap()],
        ..Limits::default()
    };
    let (best, info) = analyse(&mut e, &game, only);
    assert_eq!(best, Some(Move::parse("d4d5").unwrap()));
    assert_eq!(info.unwrap().score, Score::Cp(0));
}

#[test]
fn under_ashton_returning_to_a_set_up_position_is_not_a_draw() {
    // Ashton's server remembers only positions reached by a move, so coming back to the
    // position a game was set up from is no repetition. The search must agree with `Game`:
    // black's a8a9 returns to the set-up position, and its score is not the draw score.
    let rules = Rules::ashton();
    let start = picture_fen(
        "b........
         .b.....b.
         ......w..
         ....w....
         ...wKw...
         ....w....
         ..b...b..
         .b.....b.
         .........",
        Side::Defenders,
        0,
    );
    let game = Game::from_moves(rules, Some(&start), ["g7g8", "a9a8", "g8g7"]).unwrap();
    let back = Move::parse("a8a9").unwrap();
    let mut g = game.clone();
    assert_eq!(g.play(back).unwrap(), konakis::Status::Ongoing);
    let mut e = engine_with(Settings::default());
    let only = Limits {
        depth: Some(3),
        searchmoves: vec![back],
        ..Limits::default()
    };
    let (best, info) = analyse(&mut e, &game, only);
    assert_eq!(best, Some(back));
    assert_ne!(info.unwrap().score, Score::Cp(0));
}

#[test]
fn quiescence_ends_when_an_unarmed_king_shuttles_between_threats() {
    // Under the encyclopedia's rules the unarmed king could step along a rank making threats
    // that the attackers block, forever: the search must still finish its depth quickly.
    let rules = Rules::encyclopedia();
    let fen = "3bbb3/7b1/2w1w4/b2ww3b/bb2Kwwbb/b3w3b/4w4/4b4/3bbb3 b 3";
    let game = Game::new(rules, Board::from_fen(fen).unwrap());
    let mut engine = engine_with(Settings::default());
    let start = Instant::now();
    let (_, info) = analyse(
        &mut engine,
        &game,
        Limits {
            depth: Some(9),
            ..Limits::default()
        },
    );
    let info = info.unwrap();
    assert_eq!(info.depth, 9);
    assert!(info.seldepth < 64, "seldepth {}", info.seldepth);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}
