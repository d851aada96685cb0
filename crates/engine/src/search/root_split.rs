//! Parallel root search on a rayon pool: the first root move is searched alone with the full
//! window, then the other root moves in parallel with a null window against the best score so
//! far (shared atomically), and a move that beats it is searched again with the full window.
//! All threads share the transposition table.

use super::worker::Worker;
use super::{INFINITE, Shared};
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::Move;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};

/// The thread pool of the parallel root search.
pub(crate) type Pool = rayon::ThreadPool;

/// A pool of `threads` search threads, or `None` if the threads cannot be created.
pub(crate) fn make_pool(threads: usize) -> Option<Pool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("konakis-search-{i}"))
        .build()
        .ok()
}

/// Per-thread workers of the pool, kept across iterations so that their killers and histories
/// carry over.
pub(crate) struct RootSplit<'a> {
    pool: &'a Pool,
    workers: Vec<Mutex<Worker<'a>>>,
}

impl<'a> RootSplit<'a> {
    pub(crate) fn new(
        pool: &'a Pool,
        shared: &'a Shared,
        rules: Rules,
        game_keys: &[u64],
        node_limit: Option<u64>,
    ) -> RootSplit<'a> {
        let workers = (0..pool.current_num_threads())
            .map(|_| {
                let mut w = Worker::new(shared, rules, game_keys);
                w.node_limit = node_limit;
                Mutex::new(w)
            })
            .collect();
        RootSplit { pool, workers }
    }

    /// Searches the root moves in `order` (best first) at `depth` within `(alpha, beta)`;
    /// returns the best score and its principal variation. `main` searches the first move.
    pub(crate) fn search(
        &self,
        main: &mut Worker,
        board: &Board,
        order: &[Move],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> (i32, Vec<Move>) {
        let (first, rest) = order.split_first().expect("a live root has a move");
        let (score, pv) = main.search_root_move(board, *first, depth, alpha, beta);
        main.flush_nodes();
        if main.stopped || score >= beta || rest.is_empty() {
            return (score, pv);
        }
        let bound = AtomicI32::new(score.max(alpha));
        let best = Mutex::new((score, pv));
        self.pool.install(|| {
            rest.par_iter().for_each(|&mv| {
                let index = rayon::current_thread_index().unwrap_or(0) % self.workers.len();
                let Ok(mut w) = self.workers[index].lock() else {
                    return;
                };
                if w.shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                let a = bound.load(Ordering::Relaxed);
                if a >= beta {
                    return;
                }
                let (mut s, mut line) = w.search_root_move(board, mv, depth, a, a + 1);
                if !w.stopped && s > a && s < beta {
                    (s, line) = w.search_root_move(board, mv, depth, a, beta);
                }
                w.flush_nodes();
                if w.stopped {
                    return;
                }
                if let Ok(mut b) = best.lock()
                    && s > b.0
                {
                    *b = (s, line);
                    bound.fetch_max(s, Ordering::Relaxed);
                }
            });
        });
        for w in &self.workers {
            if let Ok(mut w) = w.lock() {
                w.stopped = false;
            }
        }
        if main.shared.stop.load(Ordering::Relaxed) {
            main.stopped = true;
        }
        best.into_inner().unwrap_or((-INFINITE, Vec::new()))
    }
}
