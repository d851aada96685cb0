//! What one search thread remembers about moves to order them: the two killer moves of each
//! ply (quiet moves that cut off a sibling) and the history of quiet moves by side, from and
//! to square, rewarded when a move cuts off and lowered for the moves tried before it.

use super::MAX_PLY;
use konakis_core::geometry::Geometry;
use konakis_core::types::{MoveOf, Side};

/// The killers and the quiet history of one thread.
pub(crate) struct Histories<G: Geometry> {
    killers: [[Option<MoveOf<G>>; 2]; MAX_PLY + 1],
    quiet: Vec<i32>,
}

#[inline]
fn index<G: Geometry>(side: Side, mv: MoveOf<G>) -> usize {
    (side.index() * G::SQUARES + mv.from().index()) * G::SQUARES + mv.to().index()
}

impl<G: Geometry> Histories<G> {
    pub(crate) fn new() -> Histories<G> {
        Histories {
            killers: [[None; 2]; MAX_PLY + 1],
            quiet: vec![0; 2 * G::SQUARES * G::SQUARES],
        }
    }

    /// The killer moves of `ply`, the most recent first.
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<MoveOf<G>>; 2] {
        self.killers[ply]
    }

    /// The history score of the quiet move `mv` of `side`.
    #[inline]
    pub(crate) fn quiet(&self, side: Side, mv: MoveOf<G>) -> i32 {
        self.quiet[index(side, mv)]
    }

    /// `mv`, a quiet move of `side`, cut off at `ply` with `depth` to go after the moves
    /// `tried`: it becomes the first killer, its history rises and theirs falls (each bounded
    /// by a gravity term, so that scores stay within ±16,384).
    pub(crate) fn reward_quiet(
        &mut self,
        side: Side,
        mv: MoveOf<G>,
        depth: i32,
        ply: usize,
        tried: impl IntoIterator<Item = MoveOf<G>>,
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let h = &mut self.quiet[index(side, mv)];
        *h += bonus - *h * bonus / 16384;
        for m in tried {
            let h = &mut self.quiet[index(side, m)];
            *h -= bonus + *h * bonus / 16384;
        }
    }

    /// Halves the quiet history between iterations or searches.
    pub(crate) fn age(&mut self) {
        for h in &mut self.quiet {
            *h /= 2;
        }
    }

    /// Forgets the killers, which belong to the positions of one search (the quiet history
    /// carries to the next search of the game).
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Empties the quiet history too (a new game).
    pub(crate) fn clear(&mut self) {
        self.new_search();
        self.quiet.fill(0);
    }

    /// The quiet history table.
    #[cfg(test)]
    pub(crate) fn quiet_table(&self) -> &[i32] {
        &self.quiet
    }
}
