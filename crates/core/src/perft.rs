//! Perft: the number of leaves of the legal-move tree to a given depth, the standard test of a
//! move generator. A board where the game is already won has no moves; repetition and the move
//! limit are ignored.

use crate::board::{Board, MoveList};
use crate::rules::Rules;
use crate::types::Move;

/// The deepest perft the tools and the protocol accept. The count at this depth from the start
/// position is far beyond what can be computed; the cap keeps a mistyped depth from recursing
/// until the stack overflows.
pub const MAX_DEPTH: u32 = 20;

/// Leaves of the legal-move tree `depth` plies below `board`. The last ply is counted without
/// being generated or played.
pub fn perft(board: &Board, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves(rules) as u64,
        2 => board.count_replies(rules),
        _ => {
            let mut total = 0;
            board.for_each_piece_moves(rules, |from, dests| {
                for to in dests {
                    let mut child = *board;
                    child.play(rules, Move::new(from, to));
                    total += perft(&child, rules, depth - 1);
                }
            });
            total
        }
    }
}

/// Perft split by the first move: each legal move with the leaves below it, in generation
/// order. The counts add up to `perft(board, rules, depth)`.
pub fn divide(board: &Board, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    board.legal_moves_into(rules, &mut list);
    list.iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(rules, mv);
            (mv, perft(&child, rules, depth.saturating_sub(1)))
        })
        .collect()
}

/// Perft counting every move by generating and playing it, with no bulk counting: the slow
/// reference the fast [`perft`] is tested against.
pub fn perft_slow(board: &Board, rules: &Rules, depth: u32) -> u64 {
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
}
