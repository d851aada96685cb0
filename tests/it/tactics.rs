//! Tactics checked against an exhaustive solver: in random sparse positions where the side to
//! move can force a win within one, two or three of its moves, the engine finds a winning move
//! within a second; where the opponent threatens to win at once and a parry exists, the
//! engine parries. The positions come from a seeded generator, and the solver here (plain
//! minimax over the library's moves, no pruning) says what each one holds.

use konakis::search::{Limits, Score, Searcher, Settings};
use konakis::{Board, Game, Move, Rules, Side, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Did the side `me` win, is the game over otherwise, or does it go on?
fn outcome(board: &Board, rules: &Rules, me: Side) -> Option<bool> {
    match board.status(rules) {
        Status::Win(side, _) => Some(side == me),
        Status::Draw(_) => Some(false),
        Status::Ongoing => None,
    }
}

/// Can the side to move force a win within `n` of its own moves?
pub(crate) fn win_within(board: &Board, rules: &Rules, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let me = board.side_to_move();
    board.legal_moves(rules).iter().any(|&m| {
        let mut child = *board;
        child.play(rules, m);
        match outcome(&child, rules, me) {
            Some(won) => won,
            None => n > 1 && every_reply_loses(&child, rules, me, n - 1),
        }
    })
}

/// After the opponent's every reply, does `me` still force a win within `n` moves?
fn every_reply_loses(board: &Board, rules: &Rules, me: Side, n: u32) -> bool {
    board.legal_moves(rules).iter().all(|&r| {
        let mut next = *board;
        next.play(rules, r);
        match outcome(&next, rules, me) {
            Some(won) => won,
            None => win_within(&next, rules, n),
        }
    })
}

/// The fewest own moves within which the side to move forces a win, up to `max`.
fn win_distance(board: &Board, rules: &Rules, max: u32) -> Option<u32> {
    (1..=max).find(|&n| win_within(board, rules, n))
}

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

/// The board of 81 cells (`K`, `b`, `w` or `.`, rank 1 first) with `side` to move.
fn board_from_cells(cells: &[char; 81], side: Side) -> Board {
    // Position strings add up consecutive digits, so each empty square may be written as `1`.
    let rows: Vec<String> = (0..9)
        .rev()
        .map(|r| {
            cells[r * 9..r * 9 + 9]
                .iter()
                .map(|&c| if c == '.' { '1' } else { c })
                .collect()
        })
        .collect();
    let side = if side == Side::Attackers { 'b' } else { 'w' };
    Board::from_fen(&format!("{} {side}", rows.join("/"))).expect("a valid position")
}

/// The engine's move and score in `board` within a second, one thread.
fn engine_move(board: &Board, rules: &Rules) -> (Move, Score) {
    let game = Game::new(*rules, *board);
    let mut engine = Searcher::new(Settings::default());
    let limits = Limits {
        movetime: Some(1000),
        ..Limits::default()
    };
    let (best, info) = engine.search_sync(&game, limits);
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
// The king tactics suite (crates/engine/src/tactics.txt, read by `konakis bench --tactics`).

use konakis::tools::tactics::{Kind, SUITE, Tactic, parse_suite, search_depth};

/// The rule families whose king capture differs, as `Name=Value` options: the default
/// reading, English capture (four attackers everywhere), Ashton (camps as anvils) and the
/// throne rules (a hostile, uncrossable throne the king may not re-enter).
const FAMILIES: [&str; 4] = [
    "",
    "KingCapture=English",
    "Ruleset=Ashton",
    "ThroneHostile=true ThronePassable=false KingReentersThrone=false",
];

fn family_rules(options: &str) -> Rules {
    let mut rules = Rules::default();
    for pair in options.split_whitespace() {
        rules.set_pair(pair).expect("a valid rule option");
    }
    rules
}

/// A random position with attackers crowded around the king (or the sets would be all
/// escapes): the king off the edge, on or beside the throne one time in three, up to seven
/// attackers within two squares of him, up to six more anywhere, up to four defenders.
fn crowded_position(rng: &mut StdRng, side: Side) -> Board {
    let mut cells = ['.'; 81];
    let king: usize = if rng.random_bool(0.33) {
        [40, 31, 39, 41, 49][rng.random_range(0..5)]
    } else {
        rng.random_range(1..8) * 9 + rng.random_range(1..8)
    };
    cells[king] = 'K';
    let near: Vec<usize> = (0..81usize)
        .filter(|&sq| (sq % 9).abs_diff(king % 9) <= 2 && (sq / 9).abs_diff(king / 9) <= 2)
        .collect();
    let mut put = |rng: &mut StdRng, from: &[usize], piece: char, count: usize| {
        for _ in 0..count {
            let sq = from[rng.random_range(0..from.len())];
            if cells[sq] == '.' && sq != 40 {
                cells[sq] = piece;
            }
        }
    };
    let all: Vec<usize> = (0..81).collect();
    let crowd = rng.random_range(2..=7);
    put(rng, &near, 'b', crowd);
    let more = rng.random_range(1..=6);
    put(rng, &all, 'b', more);
    let defenders = rng.random_range(0..=4);
    put(rng, &all, 'w', defenders);
    board_from_cells(&cells, side)
}

/// The legal moves whose resulting position passes `keep`.
fn moves_where(board: &Board, rules: &Rules, keep: impl Fn(&Board) -> bool) -> Vec<Move> {
    board
        .legal_moves(rules)
        .into_iter()
        .filter(|&m| {
            let mut child = *board;
            child.play(rules, m);
            keep(&child)
        })
        .collect()
}

/// The moves that keep a forced win within `n` moves of the side to move.
fn winning_moves(board: &Board, rules: &Rules, n: u32) -> Vec<Move> {
    let me = board.side_to_move();
    moves_where(board, rules, |child| match outcome(child, rules, me) {
        Some(won) => won,
        None => n > 1 && every_reply_loses(child, rules, me, n - 1),
    })
}

/// The moves after which the opponent cannot win at once.
fn surviving_moves(board: &Board, rules: &Rules) -> Vec<Move> {
    let me = board.side_to_move();
    moves_where(board, rules, |child| {
        outcome(child, rules, me).is_none() && !win_within(child, rules, 1)
    })
}

/// What the solver makes of a position for the suite: an attackers' forced capture in exactly
/// 1–3 moves, or a defenders' position in danger where some moves, but not all, survive.
fn solve_for_suite(board: &Board, rules: &Rules) -> Option<(Kind, Vec<Move>)> {
    let king_in_camp = board.king().is_some_and(|k| rules.camps().has(k));
    if king_in_camp || board.status(rules) != Status::Ongoing || board.legal_moves(rules).len() > 44
    {
        return None;
    }
    match board.side_to_move() {
        Side::Attackers => {
            let n = win_distance(board, rules, 3)?;
            Some((Kind::Capture(n), winning_moves(board, rules, n)))
        }
        Side::Defenders => {
            // A defenders' win at once (an open line) is not a parry.
            if !board.king_in_danger(rules) || win_within(board, rules, 1) {
                return None;
            }
            let survive = surviving_moves(board, rules);
            let all = board.legal_moves(rules).len();
            (!survive.is_empty() && survive.len() < all).then_some((Kind::Parry, survive))
        }
    }
}

/// Positions for the suite under `options`: `per_kind` of each kind, from a seeded generator.
fn suite_positions(options: &str, seed: u64, per_kind: usize) -> Vec<Tactic> {
    let rules = family_rules(options);
    let mut rng = StdRng::seed_from_u64(seed);
    let kinds = [
        Kind::Capture(1),
        Kind::Capture(2),
        Kind::Capture(3),
        Kind::Parry,
    ];
    let mut found: Vec<Vec<Tactic>> = vec![Vec::new(); kinds.len()];
    for _ in 0..8000 {
        if found.iter().all(|f| f.len() >= per_kind) {
            break;
        }
        let batch: Vec<Board> = (0..256)
            .map(|i| {
                let side = if i % 2 == 0 {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                crowded_position(&mut rng, side)
            })
            .collect();
        let solved: Vec<_> = batch
            .par_iter()
            .map(|b| solve_for_suite(b, &rules))
            .collect();
        for (board, s) in batch.into_iter().zip(solved) {
            let Some((kind, moves)) = s else { continue };
            let k = kinds.iter().position(|&x| x == kind).expect("a known kind");
            if found[k].len() < per_kind {
                found[k].push(Tactic {
                    options: options.to_string(),
                    rules,
                    board,
                    kind,
                    moves,
                });
            }
        }
    }
    found.into_iter().flatten().collect()
}

/// Writes crates/engine/src/tactics.txt. Run by hand when the suite is to be rebuilt:
/// `cargo test --release --test it tactics::write_king_tactics_suite -- --ignored`.
#[test]
#[ignore]
fn write_king_tactics_suite() {
    let mut text = String::from(
        "# King tactics for `konakis bench --tactics`, written by tests/it/tactics.rs\n\
         # (write_king_tactics_suite) from its exhaustive solver: options ; position ; kind ;\n\
         # the right moves (all moves keeping a forced capture, or all parries).\n",
    );
    for (i, options) in FAMILIES.iter().enumerate() {
        for t in suite_positions(options, 100 + i as u64, 5) {
            text.push_str(&t.line());
            text.push('\n');
        }
    }
    std::fs::write(
        concat!(env!("CARGO_MANIFEST_DIR"), "/crates/engine/src/tactics.txt"),
        text,
    )
    .unwrap();
}

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
    let mut engine = Searcher::new(Settings {
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
        let (best, info) = engine.search_sync(&game, limits);
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
        let mut engine = Searcher::new(Settings::default());
        let limits = Limits {
            depth: Some(2 * n + 2),
            ..Limits::default()
        };
        let (best, info) = engine.search_sync(&game, limits);
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
