//! The quiescence search of a search thread: captures, and the answers to a line along which
//! the king sees the edge, so that no leaf hides a win one move away. The moves, and their
//! order, come from the move picker of the ply (movepick.rs).

use super::{MAX_QUIESCENCE_PLIES, Worker};
use crate::search::movepick::Quiescence;
use crate::search::{MATE, MAX_PLY};
use konakis_core::board::BoardOf;
use konakis_core::types::Side;

impl<G: crate::Size> Worker<'_, G> {
    /// Quiescence: captures, and the answers to an open line of the king, so that no leaf hides
    /// a king one move from the edge. (Quiet king moves that open a line were tried here too
    /// and lost games: see docs/strength.md.)
    pub(super) fn qsearch(
        &mut self,
        board: &BoardOf<G>,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        let rules = self.rules;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if board.is_won(&rules) {
            return -(MATE - ply as i32);
        }
        if rules.move_limit > 0 && board.plies() >= rules.move_limit {
            return 0;
        }
        if ply >= MAX_PLY || qply >= MAX_QUIESCENCE_PLIES {
            return self.evaluate(board, ply);
        }
        let side = board.side_to_move();
        let open = self.king_exits(board);
        if side == Side::Defenders && !open.is_empty() {
            return MATE - ply as i32 - 1;
        }
        if side == Side::Attackers && self.king_in_danger(board) {
            return MATE - ply as i32 - 1;
        }
        if !board.has_move(&rules) {
            return -(MATE - ply as i32);
        }
        if side == Side::Defenders && self.king_in_danger(board) {
            // The king can be taken next move: only a parry saves the defenders.
            let lost = -(MATE - ply as i32 - 2);
            return self.qsearch_moves(board, Quiescence::Parries, lost, alpha, beta, ply, qply);
        }
        if side == Side::Attackers && !open.is_empty() {
            // The king sees the edge: only a block or his capture can save the attackers.
            let lost = -(MATE - ply as i32 - 2);
            return self.qsearch_moves(board, Quiescence::Answers, lost, alpha, beta, ply, qply);
        }

        let stand = self.evaluate(board, ply);
        if stand >= beta {
            return stand;
        }
        let alpha = alpha.max(stand);
        self.qsearch_moves(board, Quiescence::Captures, stand, alpha, beta, ply, qply)
    }

    /// Searches the moves of `kind`, from the move picker of `ply`, in quiescence, starting
    /// from the score `best` already in hand; returns the best score (0 once stopped).
    #[allow(clippy::too_many_arguments)]
    fn qsearch_moves(
        &mut self,
        board: &BoardOf<G>,
        kind: Quiescence,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.pickers[ply].start_quiescence(board, &self.rules, kind);
        while let Some(mv) = self.pickers[ply].next_quiescence(board, &self.rules) {
            let mut child = *board;
            let taken = child.play(&self.rules, mv);
            self.net_enter(ply + 1, board, &child, Some(mv), taken);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
