//! What one search thread keeps from search to search: its quiet history and every buffer its
//! search needs, allocated once with the thread's first search so that the thread allocates
//! nothing after it. A [`Worker`](super::Worker) takes the state over for a search (or, in the
//! split search, for the moves of one split node) and gives it back.

use super::evaluate::{EVAL_CACHE_SIZE, NetPath};
use crate::Size;
use crate::network::Net;
use crate::search::MAX_PLY;
use crate::search::history::Histories;
use crate::search::movepick::MovePicker;
use ahash::AHashMap;
use konakis_core::geometry::Geometry;
use konakis_core::types::MoveOf;

/// Positions of the game before the root that the map of a new thread has room for: a longer
/// game makes the map grow (the only allocation of a later search).
const GAME_POSITIONS: usize = 1024;

/// A line the thread searched to the end of an iteration: its depth, score and moves.
pub(crate) struct Completed<G: Geometry> {
    pub(crate) depth: i32,
    pub(crate) score: i32,
    pub(crate) pv: Vec<MoveOf<G>>,
}

impl<G: Geometry> Completed<G> {
    fn new() -> Completed<G> {
        Completed {
            depth: 0,
            score: 0,
            pv: Vec::with_capacity(MAX_PLY + 1),
        }
    }

    /// Records the line `pv` of `depth`, scored `score`, in the buffer already there.
    pub(crate) fn set(&mut self, depth: i32, score: i32, pv: &[MoveOf<G>]) {
        self.depth = depth;
        self.score = score;
        self.pv.clear();
        self.pv.extend_from_slice(pv);
    }
}

/// The lines of one iteration (several with `MultiPV`), their buffers kept from iteration to
/// iteration so that a thread searching one line allocates nothing.
pub(crate) struct Lines<G: Geometry> {
    lines: Vec<(i32, Vec<MoveOf<G>>)>,
    len: usize,
}

impl<G: Geometry> Default for Lines<G> {
    fn default() -> Lines<G> {
        Lines {
            lines: Vec::new(),
            len: 0,
        }
    }
}

impl<G: Geometry> Lines<G> {
    /// No lines.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds the line `pv`, scored `score`.
    pub(crate) fn push(&mut self, score: i32, pv: &[MoveOf<G>]) {
        if self.len == self.lines.len() {
            self.lines.push((0, Vec::with_capacity(MAX_PLY + 1)));
        }
        let line = &mut self.lines[self.len];
        line.0 = score;
        line.1.clear();
        line.1.extend_from_slice(pv);
        self.len += 1;
    }

    /// The best first (the order of equal scores kept).
    pub(crate) fn sort(&mut self) {
        self.lines[..self.len].sort_by_key(|line| std::cmp::Reverse(line.0));
    }

    /// The lines: score and moves.
    pub(crate) fn as_slice(&self) -> &[(i32, Vec<MoveOf<G>>)] {
        &self.lines[..self.len]
    }
}

/// The state one search thread keeps between searches.
pub(crate) struct ThreadState<G: Size> {
    /// The search this state was last readied for (see [`ThreadState::prepare`]).
    pub(crate) search: u64,
    pub(super) histories: Histories<G>,
    pub(super) pickers: Vec<MovePicker<G>>,
    pub(super) pv: Vec<[MoveOf<G>; MAX_PLY + 1]>,
    pub(super) path: Vec<u64>,
    pub(super) game_counts: AHashMap<u64, u32>,
    pub(super) game_filter: [u64; 4],
    pub(super) eval_cache: Vec<(u64, i32)>,
    pub(super) excluded: Vec<MoveOf<G>>,
    pub(super) root_moves: Vec<MoveOf<G>>,
    pub(super) net: Option<NetPath>,
    /// The lines of the current iteration.
    pub(super) lines: Lines<G>,
    /// The deepest iteration the thread completed in its search.
    pub(crate) completed: Completed<G>,
}

impl<G: Size> Default for ThreadState<G> {
    fn default() -> ThreadState<G> {
        ThreadState {
            search: 0,
            histories: Histories::new(),
            pickers: (0..=MAX_PLY).map(|_| MovePicker::new()).collect(),
            pv: vec![[MoveOf::default(); MAX_PLY + 1]; MAX_PLY + 1],
            path: Vec::with_capacity(MAX_PLY + 2),
            game_counts: AHashMap::with_capacity(GAME_POSITIONS),
            game_filter: [0; 4],
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            excluded: Vec::with_capacity(G::MAX_MOVES),
            root_moves: Vec::with_capacity(G::MAX_MOVES),
            net: None,
            lines: Lines::default(),
            completed: Completed::new(),
        }
    }
}

impl<G: Size> ThreadState<G> {
    /// Readies the state for the search numbered `search`, of a root reached through the
    /// positions `game_keys` (root included), its moves limited to `root_moves` (empty for
    /// all) and evaluated by `net` (`None`: the classical evaluation). The killers, the
    /// evaluation cache and the last completed line go; the quiet history stays.
    pub(crate) fn prepare(
        &mut self,
        search: u64,
        game_keys: &[u64],
        root_moves: &[MoveOf<G>],
        net: Option<&Net>,
    ) {
        self.search = search;
        self.histories.new_search();
        self.game_counts.clear();
        self.game_filter = [0; 4];
        for &k in game_keys {
            *self.game_counts.entry(k).or_insert(0) += 1;
            self.game_filter[(k as usize >> 6) & 3] |= 1 << (k & 63);
        }
        self.root_moves.clear();
        self.root_moves.extend_from_slice(root_moves);
        self.excluded.clear();
        self.lines.clear();
        // The cache's evaluations may be another rule set's or network's.
        self.eval_cache.fill((0, 0));
        self.completed.set(0, 0, &[]);
        // The network's accumulators are kept while the same network evaluates.
        // Only Tablut's board has networks.
        let net = net.filter(|_| G::TABLUT);
        let same = match (&self.net, net) {
            (Some(path), Some(net)) => path.is_of(net),
            _ => false,
        };
        if !same {
            self.net = net.cloned().map(NetPath::new);
        }
    }

    /// Empties the quiet history (a new game).
    pub(crate) fn clear(&mut self) {
        self.histories.clear();
    }

    /// The quiet history.
    #[cfg(test)]
    pub(crate) fn quiet_history(&self) -> &[i32] {
        self.histories.quiet_table()
    }
}
