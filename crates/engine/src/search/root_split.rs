//! The parallel root search, in two variants chosen by the `threads` feature.
//!
//! With threads: on a rayon pool, the first root move is searched alone with the full window,
//! then the other root moves in parallel with a null window against the best score so far
//! (shared atomically), and a move that beats it is searched again with the full window. All
//! threads share the transposition table.
//!
//! Without threads (the browser's build): there is no pool, so no root split. [`Pool`] is a
//! type without values and [`make_pool`] gives none, so the search, whose code is the same in
//! both builds, always takes its one-thread path; the compiler checks that the methods of this
//! variant cannot run (each matches on a `Pool`, which cannot exist).

#[cfg(feature = "threads")]
pub(crate) use with_threads::{Pool, RootSplit, make_pool};
#[cfg(not(feature = "threads"))]
pub(crate) use without_threads::{Pool, RootSplit, make_pool};

#[cfg(feature = "threads")]
mod with_threads {
    use super::super::worker::Worker;
    use super::super::{INFINITE, Shared};
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

    /// Per-thread workers of the pool, kept across iterations so that their killers and quiet
    /// histories carry over.
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

        /// The threads that search the root moves.
        pub(crate) fn threads(&self) -> usize {
            self.workers.len()
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
}

#[cfg(not(feature = "threads"))]
mod without_threads {
    use super::super::Shared;
    use super::super::worker::Worker;
    use konakis_core::board::Board;
    use konakis_core::rules::Rules;
    use konakis_core::types::Move;

    /// No pool exists without threads.
    pub(crate) enum Pool {}

    /// Always `None`: there are no threads to pool.
    pub(crate) fn make_pool(_threads: usize) -> Option<Pool> {
        None
    }

    /// No root split exists without a pool. (It holds a reference to the pool rather than
    /// having no values itself, so that the search's one construction site still reads as
    /// reachable code.)
    pub(crate) struct RootSplit<'a> {
        pool: &'a Pool,
    }

    impl<'a> RootSplit<'a> {
        /// Cannot run: there is no pool to split on.
        pub(crate) fn new(
            pool: &'a Pool,
            _shared: &Shared,
            _rules: Rules,
            _game_keys: &[u64],
            _node_limit: Option<u64>,
        ) -> RootSplit<'a> {
            match *pool {}
        }

        /// Cannot run: there is no root split.
        pub(crate) fn threads(&self) -> usize {
            match *self.pool {}
        }

        /// Cannot run: there is no root split.
        pub(crate) fn search(
            &self,
            _main: &mut Worker,
            _board: &Board,
            _order: &[Move],
            _depth: i32,
            _alpha: i32,
            _beta: i32,
        ) -> (i32, Vec<Move>) {
            match *self.pool {}
        }
    }
}
