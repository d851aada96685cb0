//! The parallel root search, on the pool's threads (`pool.rs`): the first root move is
//! searched alone with the full window, then the other root moves by every thread (the main
//! thread and the helpers, each taking the next move not yet taken) with a null window
//! against the best score so far (shared atomically), and a move that beats it is searched
//! again with the full window. All threads share the transposition table, and each keeps its
//! own state, so that its killers and quiet history carry from iteration to iteration.
//!
//! Without the `threads` feature the pool has no helpers and the search never splits.

use super::MAX_PLY;
use super::pool::{Crew, Job};
use super::root::Root;
use super::worker::Worker;
use crate::Size;
use konakis_core::types::MoveOf;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The parallel root search of one search.
pub(crate) struct RootSplit<'a, G: Size> {
    crew: &'a Crew<G>,
    root: &'a Arc<Root<G>>,
}

/// The root moves after the first of one split search, as the threads take them.
struct Rest<G: Size> {
    root: Arc<Root<G>>,
    moves: Vec<MoveOf<G>>,
    depth: i32,
    beta: i32,
    /// The index of the next move to take.
    next: AtomicUsize,
    /// The best score so far, the null window's.
    bound: AtomicI32,
    /// The best score so far and its line.
    best: Mutex<(i32, Vec<MoveOf<G>>)>,
}

impl<'a, G: Size> RootSplit<'a, G> {
    pub(crate) fn new(crew: &'a Crew<G>, root: &'a Arc<Root<G>>) -> RootSplit<'a, G> {
        RootSplit { crew, root }
    }

    /// Searches the root moves in `order` (best first) at `depth` within `(alpha, beta)`;
    /// returns the best score, and leaves its principal variation as `main`'s. `main` searches
    /// the first move, then takes its share of the others.
    pub(crate) fn search(
        &self,
        main: &mut Worker<'_, G>,
        order: &[MoveOf<G>],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (first, rest) = order.split_first().expect("a live root has a move");
        let score = main.search_root_move(&self.root.board, *first, depth, alpha, beta);
        main.poll();
        if main.stopped || score >= beta || rest.is_empty() {
            return score;
        }
        let rest = Arc::new(Rest {
            root: Arc::clone(self.root),
            moves: rest.to_vec(),
            depth,
            beta,
            next: AtomicUsize::new(0),
            bound: AtomicI32::new(score.max(alpha)),
            best: Mutex::new((score, line_buffer(main.pv()))),
        });
        let job: Job<G> = {
            let rest = Arc::clone(&rest);
            Arc::new(move |_, state| {
                let mut w = rest.root.worker(state);
                w.main = false;
                rest.search(&mut w);
                w.into_state()
            })
        };
        self.crew.run(job, || rest.search(main));
        main.stopped = main.shared.stop.load(Ordering::Relaxed);
        let best = rest.best.lock().unwrap_or_else(|e| e.into_inner());
        main.set_pv(&best.1);
        best.0
    }
}

/// `line` in a buffer with room for any line, so that a helper copying a line into it
/// allocates nothing.
fn line_buffer<G: Size>(line: &[MoveOf<G>]) -> Vec<MoveOf<G>> {
    let mut buffer = Vec::with_capacity(MAX_PLY + 1);
    buffer.extend_from_slice(line);
    buffer
}

impl<G: Size> Rest<G> {
    /// Takes the next move not yet taken and searches it, until none is left.
    fn search(&self, w: &mut Worker<'_, G>) {
        let board = &self.root.board;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&mv) = self.moves.get(i) else {
                return;
            };
            if w.shared.stop.load(Ordering::Relaxed) {
                return;
            }
            let a = self.bound.load(Ordering::Relaxed);
            if a >= self.beta {
                return;
            }
            let mut s = w.search_root_move(board, mv, self.depth, a, a + 1);
            if !w.stopped && s > a && s < self.beta {
                s = w.search_root_move(board, mv, self.depth, a, self.beta);
            }
            // Counted and checked against the limits after each move: a thread whose moves
            // each take fewer nodes than the polling interval would not look otherwise.
            w.poll();
            if w.stopped {
                return;
            }
            if let Ok(mut best) = self.best.lock()
                && s > best.0
            {
                best.0 = s;
                best.1.clear();
                best.1.extend_from_slice(w.pv());
                self.bound.fetch_max(s, Ordering::Relaxed);
            }
        }
    }
}
