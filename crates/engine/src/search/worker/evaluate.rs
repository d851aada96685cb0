//! The static evaluation as a search thread asks for it: the network's accumulators along the
//! current path (entered move by move, brought up to date when a position is evaluated), the
//! classical evaluation where no network evaluates, and a small per-thread cache of both.

use super::Worker;
use crate::Size;
use crate::network::Net;
use crate::search::{MATE_BOUND, MAX_PLY};
use konakis_core::BitboardOf;
use konakis_core::board::BoardOf;
use konakis_core::types::MoveOf;
use konakis_nnue::quant::{HIDDEN, HIDDEN_WIDE};
use konakis_nnue::stack::AccumulatorStack;
use std::sync::Arc;
#[cfg(test)]
use std::sync::atomic::Ordering;

/// The accumulators of the network that evaluates, of its size ([`Net`]).
pub(super) enum NetPath {
    Narrow(AccumulatorStack<HIDDEN>),
    Wide(AccumulatorStack<HIDDEN_WIDE>),
}

/// Runs `$call` on the [`AccumulatorStack`] of whichever size `$path` holds, named `$stack`.
macro_rules! on_stack {
    ($path:expr, $stack:ident => $call:expr) => {
        match $path {
            NetPath::Narrow($stack) => $call,
            NetPath::Wide($stack) => $call,
        }
    };
}

impl NetPath {
    pub(super) fn new(net: Net) -> NetPath {
        match net {
            Net::Narrow(n) => NetPath::Narrow(AccumulatorStack::new(n, MAX_PLY + 2)),
            Net::Wide(n) => NetPath::Wide(AccumulatorStack::new(n, MAX_PLY + 2)),
        }
    }

    /// Are these the accumulators of `net`?
    pub(super) fn is_of(&self, net: &Net) -> bool {
        match (self, net) {
            (NetPath::Narrow(s), Net::Narrow(n)) => Arc::ptr_eq(s.net(), n),
            (NetPath::Wide(s), Net::Wide(n)) => Arc::ptr_eq(s.net(), n),
            _ => false,
        }
    }
}

/// Network evaluations whose accumulator the tests compared with a recomputation.
#[cfg(test)]
pub(crate) static NET_CHECKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Entries of the per-thread evaluation cache (a power of two).
pub(super) const EVAL_CACHE_SIZE: usize = 1 << 16;

impl<G: Size> Worker<'_, G> {
    /// Starts the network's path at the root `board`.
    pub(super) fn net_root(&mut self, board: &BoardOf<G>) {
        if let (Some(n), Some(board)) = (&mut self.net, G::tablut(board)) {
            on_stack!(n, s => s.set_root(board));
        }
    }

    /// Makes `board` the position at `ply` for the network (a helper joining a split).
    pub(in crate::search) fn net_at(&mut self, ply: usize, board: &BoardOf<G>) {
        if let (Some(n), Some(board)) = (&mut self.net, G::tablut(board)) {
            on_stack!(n, s => s.set_at(ply, board));
        }
    }

    /// Records, for the network, that the position at `ply` is `child`, reached from `board`
    /// by `mv` (`None`: a null move), which captured `taken`.
    #[inline(always)]
    pub(super) fn net_enter(
        &mut self,
        ply: usize,
        board: &BoardOf<G>,
        child: &BoardOf<G>,
        mv: Option<MoveOf<G>>,
        taken: BitboardOf<G>,
    ) {
        if let Some(n) = &mut self.net
            && let (Some(board), Some(child), Some(taken)) =
                (G::tablut(board), G::tablut(child), G::tablut_set(taken))
        {
            let mv = mv.and_then(G::tablut_move);
            on_stack!(n, s => s.enter(ply, board, child, mv, taken));
        }
    }

    /// The static evaluation of `board`, the position at `ply` (side to move's view): the
    /// network's where one evaluates, else the classical one; through a small per-thread cache
    /// keyed by the position's hash: the same leaves come back in every iteration.
    #[inline]
    pub(super) fn evaluate(&mut self, board: &BoardOf<G>, ply: usize) -> i32 {
        let key = board.hash();
        let slot = self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let e = match (&mut self.net, G::tablut(board)) {
            (Some(n), Some(board)) => on_stack!(n, s => {
                let e = s.evaluate(ply, board.side_to_move());
                #[cfg(test)]
                {
                    assert!(
                        s.is_fresh(ply, board),
                        "the accumulator at ply {ply} is not that of {}",
                        board.to_fen()
                    );
                    NET_CHECKS.fetch_add(1, Ordering::Relaxed);
                }
                e.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
            }),
            _ => G::evaluate(board, &self.rules, self.family),
        };
        self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)] = (key, e);
        e
    }
}
