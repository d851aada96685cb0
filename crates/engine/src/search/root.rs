//! The root of one search as every thread sees it: the position and the game before it, the
//! moves searched, the limits and the network. The thread that starts the search makes it, and
//! each thread of the pool readies its own state from it ([`Root::worker`]).

use super::worker::{ThreadState, Worker};
use super::{Limits, Shared};
use crate::Size;
use crate::network::Net;
use konakis_core::board::BoardOf;
use konakis_core::rules::Rules;
use konakis_core::types::MoveOf;
use std::sync::Arc;

/// One search's root, shared by its threads.
pub(crate) struct Root<G: Size> {
    /// The search's number ([`Crew::next_search`](super::pool::Crew::next_search)).
    pub(crate) search: u64,
    pub(crate) shared: Arc<Shared<G>>,
    pub(crate) board: BoardOf<G>,
    pub(crate) rules: Rules,
    /// The keys of the game's positions, the root's included.
    pub(crate) game_keys: Vec<u64>,
    /// The moves searched: the legal moves, or those of `searchmoves`.
    pub(crate) moves: Vec<MoveOf<G>>,
    pub(crate) limits: Limits<G>,
    /// The deepest iteration.
    pub(crate) max_depth: i32,
    /// The network that evaluates; `None` for the classical evaluation.
    pub(crate) net: Option<Net>,
}

impl<G: Size> Root<G> {
    /// A worker for this search on the thread whose state is `state`, readied for the search
    /// the first time the thread works on it.
    pub(crate) fn worker(&self, mut state: ThreadState<G>) -> Worker<'_, G> {
        if state.search != self.search {
            state.prepare(self.search, &self.game_keys, &self.moves, self.net.as_ref());
        }
        let mut w = Worker::new(&self.shared, self.rules, state);
        w.node_limit = self.limits.nodes;
        w
    }
}
