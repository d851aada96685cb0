//! The accumulators of the positions on a search's current path, one per ply, kept up to date
//! lazily: the search records each move's change as it enters a position and the
//! accumulators are brought up to date only when a position is evaluated.

use crate::quant::{Accumulator, Delta, QuantNetwork};
use konakis_core::Bitboard;
use konakis_core::board::Board;
use konakis_core::types::{Move, Side};
use std::sync::Arc;

/// The network's first-layer accumulators of the positions on the current path, one per ply,
/// brought up to date only when a position is evaluated: entering a position records what
/// its move changed ([`AccumulatorStack::enter`]), and `bring_up_to_date` (private, called
/// on evaluation) applies the changes not yet applied, each child written as its parent plus
/// the change, in one pass.
pub struct AccumulatorStack<const H: usize> {
    net: Arc<QuantNetwork<H>>,
    accumulators: Vec<Accumulator<H>>,
    /// What the move into each ply changed, and whether its accumulator is up to date.
    plies: Vec<Ply>,
}

/// What the move into a ply changed, and whether the ply's accumulator is up to date.
#[derive(Clone, Copy)]
struct Ply {
    /// The move's change; `None` for a null move (the same pieces).
    delta: Option<Delta>,
    /// Is the ply's accumulator that of the position now at that ply?
    valid: bool,
}

impl<const H: usize> AccumulatorStack<H> {
    /// A stack of `plies` accumulators for `net` (the root at 0).
    pub fn new(net: Arc<QuantNetwork<H>>, plies: usize) -> AccumulatorStack<H> {
        AccumulatorStack {
            accumulators: vec![Accumulator::new(&net); plies],
            plies: vec![
                Ply {
                    delta: None,
                    valid: false
                };
                plies
            ],
            net,
        }
    }

    /// The network the stack's accumulators are of.
    pub fn net(&self) -> &Arc<QuantNetwork<H>> {
        &self.net
    }

    /// Computes the root's accumulator from scratch.
    pub fn set_root(&mut self, board: &Board) {
        self.accumulators[0].refresh(&self.net, board);
        self.plies[0].valid = true;
    }

    /// Makes `board` the position at `ply`, its accumulator computed from scratch (a thread
    /// that joins a search in the middle of another thread's line).
    pub fn set_at(&mut self, ply: usize, board: &Board) {
        self.refresh(ply, board);
    }

    /// Records that the position at `ply` is `child`, reached from `board` by `mv` (`None`:
    /// a null move), which captured `taken`.
    #[inline]
    pub fn enter(
        &mut self,
        ply: usize,
        board: &Board,
        child: &Board,
        mv: Option<Move>,
        taken: Bitboard,
    ) {
        let delta = match mv {
            None => None,
            Some(mv) => match Delta::of(board, child, mv, taken) {
                Some(delta) => Some(delta),
                // Never for a legal move; the truth, should it happen.
                None => return self.refresh(ply, child),
            },
        };
        self.plies[ply] = Ply {
            delta,
            valid: false,
        };
    }

    /// Computes the accumulator at `ply` from scratch, that of `board` (kept out of
    /// [`AccumulatorStack::enter`], which it would otherwise slow).
    #[cold]
    #[inline(never)]
    fn refresh(&mut self, ply: usize, board: &Board) {
        self.accumulators[ply].refresh(&self.net, board);
        self.plies[ply].valid = true;
    }

    /// The network's evaluation of the position at `ply`, `side` to move, from that side's
    /// point of view.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, side: Side) -> i32 {
        self.bring_up_to_date(ply);
        self.net.evaluate(&self.accumulators[ply], side)
    }

    /// Is the accumulator at `ply` that of `board`, computed from scratch? (For tests that
    /// check every evaluation: call it after [`AccumulatorStack::evaluate`].)
    pub fn is_fresh(&self, ply: usize, board: &Board) -> bool {
        let mut fresh = Accumulator::new(&self.net);
        fresh.refresh(&self.net, board);
        self.accumulators[ply] == fresh
    }

    /// The accumulator at `ply` (for the tests that compare the copies of the hot loops).
    #[cfg(test)]
    pub(crate) fn accumulator(&self, ply: usize) -> &Accumulator<H> {
        &self.accumulators[ply]
    }

    /// Applies the changes since the nearest ply whose accumulator is up to date, to `ply`.
    #[inline]
    fn bring_up_to_date(&mut self, ply: usize) {
        let mut from = ply;
        while !self.plies[from].valid {
            from -= 1;
        }
        for p in from + 1..=ply {
            let (before, after) = self.accumulators.split_at_mut(p);
            let parent = &before[p - 1];
            match &self.plies[p].delta {
                Some(delta) => after[0].set_child(&self.net, parent, delta),
                None => after[0] = *parent,
            }
            self.plies[p].valid = true;
        }
    }
}
