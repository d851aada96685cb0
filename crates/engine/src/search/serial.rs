//! The search without the `threads` feature: no thread pool, so no parallel root search (and
//! no Lazy SMP helpers, see `run`); one thread searches whatever `Threads` says. The types
//! mirror `parallel.rs` so that the search code is the same in both builds.

use super::Shared;
use super::worker::Worker;
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::Move;

/// No pool can exist without the `threads` feature.
pub(crate) enum Pool {}

impl Pool {
    /// Never called: there is no pool.
    pub(crate) fn current_num_threads(&self) -> usize {
        match *self {}
    }
}

/// Always `None`: there are no threads to pool.
pub(crate) fn make_pool(_threads: usize) -> Option<Pool> {
    None
}

/// No root split can exist without a pool.
pub(crate) struct RootSplit<'a> {
    pool: &'a Pool,
}

impl<'a> RootSplit<'a> {
    /// Never called: there is no pool to split on.
    pub(crate) fn new(
        pool: &'a Pool,
        _shared: &Shared,
        _rules: Rules,
        _game_keys: &[u64],
        _node_limit: Option<u64>,
    ) -> RootSplit<'a> {
        RootSplit { pool }
    }

    /// Never called: there is no root split.
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
