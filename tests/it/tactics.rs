//! Tactics checked against an exhaustive solver: in random sparse positions where the side to
//! move can force a win within one, two or three of its moves, the engine finds a winning move
//! within a second; where the opponent threatens to win at once and a parry exists, the
//! engine parries. The positions come from a seeded generator, and the exhaustive solver
//! (tests/it/common/solver.rs: plain minimax over the library's moves, no pruning) says what
//! each one holds.

use crate::common::engine::{analyse, engine_with};
use crate::common::solver::{
    FAMILIES, board_from_cells, every_reply_loses, outcome, solve_for_suite, win_distance,
    win_within,
};
use konakis::search::{Limits, Score, Settings};
use konakis::{Board, Game, Move, Rules, Side, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Can the opponent win with one move if the side to move stood still?
fn threatens_to_win(board: &Board, rules: &Rules) -> bool {
    let mut passed = *board;
    passed.pass();
    win_within(&passed, rules, 1)
}

/// A random sparse position: the king off the edge, two to ten attackers, up to three
/// defenders, either side to move.
fn random_position(rng: &mut StdRng) -> Board {
    let mut cells = ['.'; 81];
    let inner = |rng: &mut StdRng| {
        let (f, r) = (rng.random_range(1..8), rng.random_range(1..8));
        r * 9 + f
    };
    cells[inner(rng)] = 'K';
    let mut place = |rng: &mut StdRng, piece: char, count: usize| {
        let mut placed = 0;
        while placed < count {
            let sq = rng.random_range(0..81);
            if cells[sq] == '.' && sq != 40 {
                cells[sq] = piece;
                placed += 1;
            }
        }
    };
    let attackers = rng.random_range(2..=10);
    let defenders = rng.random_range(0..=3);
    place(rng, 'b', attackers);
    place(rng, 'w', defenders);
    let side = if rng.random_bool(0.5) {
        Side::Defenders
    } else {
        Side::Attackers
    };
    board_from_cells(&cells, side)
}

/// The engine's move and score in `board` within a second, one thread.
fn engine_move(board: &Board, rules: &Rules) -> (Move, Score) {
    let game = Game::new(*rules, *board);
    let mut engine = engine_with(Settings::default());
    let limits = Limits {
        movetime: Some(1000),
        ..Limits::default()
    };
    let (best, info) = analyse(&mut engine, &game, limits);
    let best = best.expect("a live position has a best move");
    assert!(
        board.is_legal(rules, best),
        "{board:?}: {best} is not legal"
    );
    (best, info.expect("at least one iteration").score)
}

/// Positions from the seeded generator, sorted by what the solver finds in them: `wins[n-1]`
/// holds positions won in exactly `n` moves (n = 1..=3), `parries` positions where the side
/// to move must stop a win in one and can.
struct Collection {
    wins: [Vec<Board>; 3],
    parries: Vec<Board>,
}

/// What the solver finds in a position: `Some(n)` for a win in exactly `n` moves (up to 3),
/// `Some(0)` for a threat to parry that can be parried, `None` for neither.
fn classify(board: &Board, rules: &Rules) -> Option<u32> {
    let king_in_camp = board.king().is_some_and(|k| rules.camps().has(k));
    if king_in_camp || board.status(rules) != Status::Ongoing || board.legal_moves(rules).len() > 32
    {
        return None;
    }
    if let Some(n) = win_distance(board, rules, 3) {
        return Some(n);
    }
    let me = board.side_to_move();
    let parry = threatens_to_win(board, rules)
        && board.legal_moves(rules).iter().any(|&m| {
            let mut child = *board;
            child.play(rules, m);
            outcome(&child, rules, me).is_none() && !win_within(&child, rules, 1)
        });
    parry.then_some(0)
}

fn collect(rules: &Rules, seed: u64, per_kind: usize) -> Collection {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Collection {
        wins: [Vec::new(), Vec::new(), Vec::new()],
        parries: Vec::new(),
    };
    let full =
        |c: &Collection| c.wins.iter().all(|w| w.len() >= per_kind) && c.parries.len() >= per_kind;
    // Batches are generated in order and classified in parallel, so the positions chosen
    // depend only on the seed.
    for _ in 0..400 {
        if full(&found) {
            break;
        }
        let batch: Vec<Board> = (0..512).map(|_| random_position(&mut rng)).collect();
        let kinds: Vec<Option<u32>> = batch.par_iter().map(|b| classify(b, rules)).collect();
        for (board, kind) in batch.into_iter().zip(kinds) {
            let list = match kind {
                Some(0) => &mut found.parries,
                Some(n) => &mut found.wins[n as usize - 1],
                None => continue,
            };
            if list.len() < per_kind {
                list.push(board);
            }
        }
    }
    for (n, list) in found.wins.iter().enumerate() {
        assert_eq!(list.len(), per_kind, "too few positions won in {}", n + 1);
    }
    assert_eq!(found.parries.len(), per_kind, "too few positions to parry");
    found
}

/// Every forced win within three moves is found within a second, and the move played keeps it.
fn wins_are_found(rules: Rules, seed: u64) {
    let found = collect(&rules, seed, 6);
    for (i, list) in found.wins.iter().enumerate() {
        let n = i as u32 + 1;
        for board in list {
            let me = board.side_to_move();
            let (best, score) = engine_move(board, &rules);
            let mut child = *board;
            child.play(&rules, best);
            let keeps_the_win = match outcome(&child, &rules, me) {
                Some(won) => won,
                None => n > 1 && every_reply_loses(&child, &rules, me, n - 1),
            };
            assert!(
                keeps_the_win,
                "{board:?}: a win in {n} exists, {best} does not keep it"
            );
            assert!(
                matches!(score, Score::Mate(m) if m >= 1 && m as u32 <= n),
                "{board:?}: win in {n}, the engine reports {score:?}"
            );
        }
    }
}

/// Wherever the opponent threatens to win at once and a parry exists, the engine parries.
fn threats_are_parried(rules: Rules, seed: u64) {
    let found = collect(&rules, seed, 6);
    for board in &found.parries {
        let (best, _) = engine_move(board, &rules);
        let mut child = *board;
        child.play(&rules, best);
        assert!(
            !win_within(&child, &rules, 1),
            "{board:?}: {best} leaves the opponent a win in one although a parry exists"
        );
    }
}

#[test]
fn forced_wins_within_three_moves_are_found_under_the_default_rules() {
    wins_are_found(Rules::default(), 1);
}

#[test]
fn forced_wins_within_three_moves_are_found_under_ashton() {
    wins_are_found(Rules::ashton(), 2);
}

#[test]
fn threats_to_win_at_once_are_parried_under_the_default_rules() {
    threats_are_parried(Rules::default(), 3);
}

#[test]
fn threats_to_win_at_once_are_parried_under_ashton() {
    threats_are_parried(Rules::ashton(), 4);
}

/// The attackers' side alone, under Ashton (where two attackers take the king away from the
/// throne, so such positions are common): captures of the king in exactly one and in exactly
/// two moves, three of each, are found within a second.
#[test]
fn king_captures_in_one_and_two_moves_are_found_under_ashton() {
    let rules = Rules::ashton();
    let mut rng = StdRng::seed_from_u64(5);
    let mut found: [Vec<Board>; 2] = Default::default();
    for _ in 0..400 {
        if found.iter().all(|list| list.len() >= 3) {
            break;
        }
        let batch: Vec<Board> = (0..512)
            .map(|_| random_position(&mut rng))
            .filter(|b| b.side_to_move() == Side::Attackers)
            .collect();
        let kinds: Vec<Option<u32>> = batch
            .par_iter()
            .map(|b| match classify(b, &rules) {
                Some(n) if n <= 2 && n > 0 => Some(n),
                _ => None,
            })
            .collect();
        for (board, kind) in batch.into_iter().zip(kinds) {
            if let Some(n) = kind
                && found[n as usize - 1].len() < 3
            {
                found[n as usize - 1].push(board);
            }
        }
    }
    for (i, list) in found.iter().enumerate() {
        let n = i as u32 + 1;
        assert_eq!(list.len(), 3, "too few captures in {n}");
        for board in list {
            let (best, score) = engine_move(board, &rules);
            let mut child = *board;
            child.play(&rules, best);
            let keeps_the_win = match outcome(&child, &rules, Side::Attackers) {
                Some(won) => won,
                None => n > 1 && every_reply_loses(&child, &rules, Side::Attackers, n - 1),
            };
            assert!(
                keeps_the_win,
                "{board:?}: a capture in {n} exists, {best} misses it"
            );
            assert!(
                matches!(score, Score::Mate(m) if m >= 1 && m as u32 <= n),
                "{board:?}: capture in {n}, the engine reports {score:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The king tactics suite (crates/engine/src/tactics.txt, read by `konakis bench --tactics`),
// written by `cargo run --release --example king_tactics_suite`.

use konakis::tools::tactics::{Kind, SUITE, parse_suite, search_depth};

#[test]
fn the_king_tactics_suite_holds_what_the_solver_finds() {
    let suite = parse_suite(SUITE).unwrap();
    for options in FAMILIES {
        for kind in [
            Kind::Capture(1),
            Kind::Capture(2),
            Kind::Capture(3),
            Kind::Parry,
        ] {
            let n = suite
                .iter()
                .filter(|t| t.options == options && t.kind == kind)
                .count();
            assert!(
                n >= 4,
                "only {n} positions of kind {kind} under '{options}'"
            );
        }
    }
    let checked: Vec<Result<(), String>> = suite
        .par_iter()
        .map(|t| {
            let (kind, mut moves) =
                solve_for_suite(&t.board, &t.rules).ok_or(format!("{}: not a tactic", t.line()))?;
            let mut listed = t.moves.clone();
            moves.sort_by_key(|m| m.raw());
            listed.sort_by_key(|m| m.raw());
            if kind != t.kind || moves != listed {
                return Err(format!("{}: the solver finds {kind}, {moves:?}", t.line()));
            }
            Ok(())
        })
        .collect();
    for c in checked {
        c.unwrap();
    }
}

/// The engine, one thread, to the nominal depth the target allows (two plies per move of the
/// capture, plus two; four for a parry), finds a right move, with the mate score for a capture.
#[test]
fn king_tactics_are_solved_within_two_plies_per_move_plus_two() {
    let suite = parse_suite(SUITE).unwrap();
    let mut engine = engine_with(Settings {
        threads: 1,
        ..Settings::default()
    });
    for t in &suite {
        let depth = search_depth(t.kind) - 4;
        engine.clear();
        let game = Game::new(t.rules, t.board);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (best, info) = analyse(&mut engine, &game, limits);
        let info = info.expect("an iteration");
        assert!(
            best.is_some_and(|b| t.moves.contains(&b)) && t.solved_by(&info),
            "{}: at depth {depth} the engine plays {best:?}, score {:?}",
            t.line(),
            info.score
        );
    }
}

/// The two positions of the games lost as the defenders (issue 14): each capture is found at
/// nominal depth 2 per move + 2, with its mate score.
#[test]
fn the_captures_missed_in_games_are_found_at_two_plies_per_move_plus_two() {
    let ashton = Rules::ashton();
    let moves: Vec<Move> = "e7d7 b5b7 e3d3 h5h7 e4f4 b7c7 d7e7 e2c2 e5e4 a6c6 f4h4 e1e2 e4c4 \
                            e2g2 e6g6 g2g4 d3g3"
        .split_whitespace()
        .map(|m| Move::parse(m).unwrap())
        .collect();
    let ashton_game = Game::with_moves(ashton, Board::start(&ashton), &moves).unwrap();
    let default_board =
        Board::from_fen("2wbbbw2/3b1b3/9/1b1Kw1ww1/1b5b1/3b5/7b1/1w2bb1b1/2b1b1w1b b 52").unwrap();
    let default_game = Game::new(Rules::default(), default_board);
    for (game, n) in [(ashton_game, 3), (default_game, 2)] {
        let rules = *game.rules();
        let board = *game.board();
        let mut engine = engine_with(Settings::default());
        let limits = Limits {
            depth: Some(2 * n + 2),
            ..Limits::default()
        };
        let (best, info) = analyse(&mut engine, &game, limits);
        let best = best.unwrap();
        let score = info.unwrap().score;
        assert!(
            matches!(score, Score::Mate(m) if m >= 1 && m as u32 <= n),
            "{board:?}: the engine reports {score:?} at depth {}",
            2 * n + 2
        );
        // The solver confirms the move played forces the capture within n moves.
        let mut child = board;
        child.play(&rules, best);
        assert!(
            every_reply_loses(&child, &rules, Side::Attackers, n - 1),
            "{board:?}: {best} does not force the capture"
        );
    }
}
