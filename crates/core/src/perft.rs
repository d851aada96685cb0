//! Perft: the number of leaves of the legal-move tree to a given depth, the standard test of a
//! move generator. A board where the game is already won has no moves; repetition and the move
//! limit are ignored.

use crate::board::{BoardOf, GameOf, MoveListOf};
use crate::geometry::Geometry;
use crate::rules::{Repetition, Rules};
use crate::types::{MoveOf, Side};

/// The deepest perft the tools and the protocol accept. The count at this depth from the start
/// position is far beyond what can be computed; the cap keeps a mistyped depth from recursing
/// until the stack overflows.
pub const MAX_DEPTH: u32 = 20;

/// Leaves of the legal-move tree `depth` plies below `board`. The last ply is counted without
/// being generated or played.
pub fn perft<G: Geometry>(board: &BoardOf<G>, rules: &Rules, depth: u32) -> u64 {
    perft_until(board, rules, depth, &|| false).expect("a perft that is never stopped ends")
}

/// [`perft`] that gives up (`None`) soon after `stopped` returns true: it is asked before each
/// move more than three plies above the leaves, so the plies below are counted in one go, short
/// enough to wait for.
pub fn perft_until<G: Geometry>(
    board: &BoardOf<G>,
    rules: &Rules,
    depth: u32,
    stopped: &impl Fn() -> bool,
) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(board.count_moves(rules) as u64),
        2 => Some(board.count_replies(rules)),
        _ => {
            let mut total = Some(0);
            board.for_each_piece_moves(rules, |from, dests| {
                for to in dests {
                    let Some(sum) = total else { return };
                    if depth > 3 && stopped() {
                        total = None;
                        return;
                    }
                    let mut child = *board;
                    child.play(rules, MoveOf::new(from, to));
                    total = perft_until(&child, rules, depth - 1, stopped).map(|n| sum + n);
                }
            });
            total
        }
    }
}

/// Perft split by the first move: each legal move with the leaves below it, in generation
/// order. The counts add up to `perft(board, rules, depth)`.
pub fn divide<G: Geometry>(board: &BoardOf<G>, rules: &Rules, depth: u32) -> Vec<(MoveOf<G>, u64)> {
    let mut split = Vec::new();
    divide_until(board, rules, depth, &|| false, |mv, n| split.push((mv, n)));
    split
}

/// [`divide`] handing each move and its count to `each` as soon as it is known, and giving up
/// ([`perft_until`]) soon after `stopped` returns true; the total, or `None` if stopped (after
/// the moves counted so far).
pub fn divide_until<G: Geometry>(
    board: &BoardOf<G>,
    rules: &Rules,
    depth: u32,
    stopped: &impl Fn() -> bool,
    mut each: impl FnMut(MoveOf<G>, u64),
) -> Option<u64> {
    let mut list = MoveListOf::<G>::new();
    board.legal_moves_into(rules, &mut list);
    let mut total = 0;
    for &mv in &list {
        let mut child = *board;
        child.play(rules, mv);
        let n = perft_until(&child, rules, depth.saturating_sub(1), stopped)?;
        each(mv, n);
        total += n;
    }
    Some(total)
}

/// Perft from a game's position under the game's rules, honouring a repetition rule that makes
/// moves illegal ([`Repetition::DefenderMayNotRepeat`]: a defender's move that repeats a board
/// of the game, or of the line below it, is not counted). Under the other rules it is
/// [`perft`] of the game's board.
pub fn perft_game<G: Geometry>(game: &GameOf<G>, depth: u32) -> u64 {
    let rules = game.rules();
    if rules.repetition != Repetition::DefenderMayNotRepeat {
        return perft(game.board(), rules, depth);
    }
    let mut line = Vec::new();
    perft_no_repeat(
        game.board(),
        rules,
        depth,
        &|key| game.placements().contains(&key),
        &mut line,
    )
}

/// [`perft_game`] split by the game's first move: each legal move of the game (those its
/// repetition rule allows) with the leaves below it, in generation order.
pub fn divide_game<G: Geometry>(game: &GameOf<G>, depth: u32) -> Vec<(MoveOf<G>, u64)> {
    let mut split = Vec::new();
    if depth == 0 || game.status().is_over() {
        return split;
    }
    for mv in game.legal_moves() {
        let mut child = game.clone();
        if child.play(mv).is_ok() {
            split.push((mv, perft_game(&child, depth - 1)));
        }
    }
    split
}

/// [`perft_game`] under [`Repetition::DefenderMayNotRepeat`]: `seen` holds the placements of the
/// game, `line` those of the boards played since.
fn perft_no_repeat<G: Geometry>(
    board: &BoardOf<G>,
    rules: &Rules,
    depth: u32,
    seen: &impl Fn(u64) -> bool,
    line: &mut Vec<u64>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for &mv in &board.legal_moves(rules) {
        if board.side_to_move() == Side::Defenders {
            let key = board.placement_key_after(mv);
            if seen(key) || line.contains(&key) {
                continue;
            }
        }
        if depth == 1 {
            total += 1;
            continue;
        }
        let mut child = *board;
        child.play(rules, mv);
        line.push(child.placement_key());
        total += perft_no_repeat(&child, rules, depth - 1, seen, line);
        line.pop();
    }
    total
}

/// Perft counting every move by generating and playing it, with no bulk counting: the slow
/// reference the fast [`perft`] is tested against.
pub fn perft_slow<G: Geometry>(board: &BoardOf<G>, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .legal_moves(rules)
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(rules, mv);
            perft_slow(&child, rules, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::types::Move;

    #[test]
    fn start_position_perft_1_to_3() {
        let rules = Rules::default();
        let b = Board::start(&rules);
        assert_eq!(perft(&b, &rules, 1), 80);
        assert_eq!(perft(&b, &rules, 2), 4_400);
        assert_eq!(perft(&b, &rules, 3), 353_200);
        assert_eq!(perft_slow(&b, &rules, 3), 353_200);
    }

    #[test]
    fn divide_adds_up_to_perft() {
        let rules = Rules::default();
        let b = Board::start(&rules);
        let d = divide(&b, &rules, 3);
        assert_eq!(d.len(), 80);
        assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 353_200);
    }

    #[test]
    fn perft_until_gives_up_only_above_the_last_three_plies() {
        let rules = Rules::default();
        let b = Board::start(&rules);
        assert_eq!(perft_until(&b, &rules, 3, &|| true), Some(353_200));
        assert_eq!(perft_until(&b, &rules, 4, &|| true), None);
        assert_eq!(
            perft_until(&b, &rules, 3, &|| false),
            Some(perft(&b, &rules, 3))
        );
    }

    #[test]
    fn divide_until_hands_over_each_move_until_stopped() {
        let rules = Rules::default();
        let b = Board::start(&rules);
        let mut handed = Vec::new();
        let total = divide_until(&b, &rules, 2, &|| false, |mv, n| handed.push((mv, n)));
        assert_eq!(handed, divide(&b, &rules, 2));
        assert_eq!(total, Some(4_400));
        // Stopped once three moves' counts have been handed over: four plies below the root,
        // the fourth move's count is given up.
        let handed = std::cell::RefCell::new(Vec::new());
        let stopped = || handed.borrow().len() >= 3;
        let total = divide_until(&b, &rules, 5, &stopped, |mv, _| {
            handed.borrow_mut().push(mv)
        });
        let handed = handed.into_inner();
        assert_eq!(total, None);
        assert_eq!(handed.len(), 3);
        let first: Vec<Move> = divide(&b, &rules, 1).iter().map(|&(m, _)| m).collect();
        assert_eq!(handed, first[..3]);
    }
}
