//! The exhaustive solver of the tactics tests (plain minimax over the library's moves, no
//! pruning) and the generator of the king tactics suite (crates/engine/src/tactics.txt, read by
//! `konakis bench --tactics`). The tests (tests/it/tactics.rs, tests/it/analyse.rs) check
//! positions with it; examples/king_tactics_suite.rs includes this file to write the suite:
//! `cargo run --release --example king_tactics_suite`.

use konakis::tools::tactics::{Kind, Tactic};
use konakis::{Board, Move, Rules, Side, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Did the side `me` win, is the game over otherwise, or does it go on?
pub fn outcome(board: &Board, rules: &Rules, me: Side) -> Option<bool> {
    match board.status(rules) {
        Status::Win(side, _) => Some(side == me),
        Status::Draw(_) => Some(false),
        Status::Ongoing => None,
    }
}

/// Can the side to move force a win within `n` of its own moves?
pub fn win_within(board: &Board, rules: &Rules, n: u32) -> bool {
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
pub fn every_reply_loses(board: &Board, rules: &Rules, me: Side, n: u32) -> bool {
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
pub fn win_distance(board: &Board, rules: &Rules, max: u32) -> Option<u32> {
    (1..=max).find(|&n| win_within(board, rules, n))
}

/// The board of 81 cells (`K`, `b`, `w` or `.`, rank 1 first) with `side` to move.
pub fn board_from_cells(cells: &[char; 81], side: Side) -> Board {
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

/// The rule families whose king capture differs, as `Name=Value` options: the default
/// reading, English capture (four attackers everywhere), Ashton (camps as anvils) and the
/// throne rules (a hostile, uncrossable throne the king may not re-enter).
pub const FAMILIES: [&str; 4] = [
    "",
    "KingCapture=English",
    "Ruleset=Ashton",
    "ThroneHostile=true ThronePassable=false KingReentersThrone=false",
];

pub fn family_rules(options: &str) -> Rules {
    let mut rules = Rules::default();
    for pair in options.split_whitespace() {
        rules.set_pair(pair).expect("a valid rule option");
    }
    rules
}

/// A random position with attackers crowded around the king (or the sets would be all
/// escapes): the king off the edge, on or beside the throne one time in three, up to seven
/// attackers within two squares of him, up to six more anywhere, up to four defenders.
pub fn crowded_position(rng: &mut StdRng, side: Side) -> Board {
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
pub fn moves_where(board: &Board, rules: &Rules, keep: impl Fn(&Board) -> bool) -> Vec<Move> {
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
pub fn winning_moves(board: &Board, rules: &Rules, n: u32) -> Vec<Move> {
    let me = board.side_to_move();
    moves_where(board, rules, |child| match outcome(child, rules, me) {
        Some(won) => won,
        None => n > 1 && every_reply_loses(child, rules, me, n - 1),
    })
}

/// The moves after which the opponent cannot win at once.
pub fn surviving_moves(board: &Board, rules: &Rules) -> Vec<Move> {
    let me = board.side_to_move();
    moves_where(board, rules, |child| {
        outcome(child, rules, me).is_none() && !win_within(child, rules, 1)
    })
}

/// What the solver makes of a position for the suite: an attackers' forced capture in exactly
/// 1–3 moves, or a defenders' position in danger where some moves, but not all, survive.
pub fn solve_for_suite(board: &Board, rules: &Rules) -> Option<(Kind, Vec<Move>)> {
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
pub fn suite_positions(options: &str, seed: u64, per_kind: usize) -> Vec<Tactic> {
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

/// The first lines of the suite file: what it holds and where it comes from.
pub const SUITE_HEADER: &str = "# King tactics for `konakis bench --tactics`, written by the example\n\
     # king_tactics_suite from its exhaustive solver: options ; position ; kind ;\n\
     # the right moves (all moves keeping a forced capture, or all parries).\n";

/// The whole suite file: five positions of each kind under each of [`FAMILIES`], each family
/// from its own seed (100, 101, ...), so the text depends on nothing but this code.
pub fn suite_text() -> String {
    let mut text = String::from(SUITE_HEADER);
    for (i, options) in FAMILIES.iter().enumerate() {
        for t in suite_positions(options, 100 + i as u64, 5) {
            text.push_str(&t.line());
            text.push('\n');
        }
    }
    text
}
