//! The split search (`SMP Mode=Split`): one tree, searched by every thread of the pool. At each
//! node of the main thread's principal variation at least [`SPLIT_DEPTH`] plies from the
//! leaves, the main thread searches the first move alone (young brothers wait), then every
//! thread takes the node's other moves one by one, each searched with a null window against
//! the best score so far (shared) and again with the node's window when it beats it, as the
//! main thread alone would. A move that reaches beta ends the node for every thread. A thread
//! that finds no move left searches a move another thread is still at, sharing the table (as
//! Lazy SMP would), and the first to finish it tells the others to leave it: the node's last
//! move does not leave the other threads idle. One node is split at a time; a helper takes up
//! the node's path and the network's accumulator there.

use super::Worker;
use crate::Size;
use crate::search::movepick::Picked;
use crate::search::pool::{Crew, Job, lock};
use crate::search::root::Root;
use crate::search::{MAX_PLY, Report};
use konakis_core::board::BoardOf;
use konakis_core::types::{MoveOf, Side};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The shallowest node split: a shallower one is over before the helpers have joined it, a
/// deeper limit leaves the helpers idle in short searches. From depth 4 rather than 6, two
/// threads reach depth 11 on the bench positions 1.66 to 1.70 times faster than one thread
/// (1.57 to 1.64 from depth 6, in the same runs), reach about 0.15 ply deeper in 20 ms, and
/// lost 25 Elo less against Lazy SMP at 30 ms a move (docs/strength.md).
pub(super) const SPLIT_DEPTH: i32 = 4;

/// What the main thread splits with: the pool, the job its helpers run at each split, and the
/// node being split.
pub(crate) struct Splitter<G: Size> {
    crew: Arc<Crew<G>>,
    job: Job<G>,
    point: Arc<SplitPoint<G>>,
}

impl<G: Size> Splitter<G> {
    /// The splitter of the search from `root` on `threads` threads of `crew`.
    pub(crate) fn new(crew: &Arc<Crew<G>>, root: &Arc<Root<G>>, threads: usize) -> Splitter<G> {
        let point = Arc::new(SplitPoint::new(root.board, threads));
        let job: Job<G> = {
            let (root, point) = (Arc::clone(root), Arc::clone(&point));
            Arc::new(move |index, state| {
                let mut w = root.worker(state);
                w.main = false;
                w.thread = index;
                w.join(&point);
                w.into_state()
            })
        };
        Splitter {
            crew: Arc::clone(crew),
            job,
            point,
        }
    }
}

/// The node being split, and how its threads stand.
pub(crate) struct SplitPoint<G: Size> {
    node: Mutex<Node<G>>,
    /// The index in `Node::moves` of the next move to take.
    next: AtomicUsize,
    /// The best score so far, or the node's alpha if higher: the null window's.
    alpha: AtomicI32,
    /// A move reached beta: every thread leaves the node.
    cutoff: AtomicBool,
    /// The move each thread is searching, as its index plus one (0 for none).
    working: Vec<AtomicUsize>,
    /// For each thread, a move another thread has finished (index plus one): the thread leaves
    /// it if it is still searching it.
    finished: Vec<AtomicUsize>,
    best: Mutex<Best<G>>,
}

/// The split node: its position, the keys of the line to it, and the moves left.
struct Node<G: Size> {
    board: BoardOf<G>,
    path: Vec<u64>,
    ply: usize,
    depth: i32,
    beta: i32,
    root_depth: i32,
    threatened: bool,
    /// The moves after the first, in the picker's order, each with whether it is quiet.
    moves: Vec<Picked<G>>,
}

/// The best move found at the node, its score and its line (from the node on).
struct Best<G: Size> {
    score: i32,
    mv: Option<MoveOf<G>>,
    line: Vec<MoveOf<G>>,
}

impl<G: Size> SplitPoint<G> {
    /// A split point for `threads` threads, nothing split yet (`board` stands for the node
    /// until one is).
    fn new(board: BoardOf<G>, threads: usize) -> SplitPoint<G> {
        SplitPoint {
            node: Mutex::new(Node {
                board,
                path: Vec::with_capacity(MAX_PLY + 2),
                ply: 0,
                depth: 0,
                beta: 0,
                root_depth: 0,
                threatened: false,
                moves: Vec::new(),
            }),
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(0),
            cutoff: AtomicBool::new(false),
            working: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
            finished: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
            best: Mutex::new(Best {
                score: 0,
                mv: None,
                line: Vec::with_capacity(MAX_PLY + 1),
            }),
        }
    }

    /// Must thread `thread` leave the move it searches here: a move reached beta, or another
    /// thread finished this one?
    pub(super) fn leave(&self, thread: usize) -> bool {
        self.cutoff.load(Ordering::Relaxed) || {
            let working = self.working[thread].load(Ordering::Relaxed);
            working != 0 && self.finished[thread].load(Ordering::Relaxed) == working
        }
    }

    /// A move another thread than `thread` is searching, other than `joined` (index plus one).
    fn move_in_hand(&self, thread: usize, joined: usize) -> Option<usize> {
        self.working
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != thread)
            .map(|(_, w)| w.load(Ordering::Relaxed))
            .find(|&w| w != 0 && w != joined)
    }

    /// Tells every other thread at move `k` (index plus one) to leave it.
    fn finish(&self, thread: usize, k: usize) {
        for (t, working) in self.working.iter().enumerate() {
            if t != thread && working.load(Ordering::Relaxed) == k {
                self.finished[t].store(k, Ordering::Relaxed);
            }
        }
    }
}

impl<'a, G: Size> Worker<'a, G> {
    /// Searches the moves of the node at `ply` (to `depth`, `threatened` or not) after the
    /// first (searched already: `best` and `best_move`, with alpha raised to `alpha`) on every
    /// thread of the pool: `second`, which the node's picker gave, and the picker's others.
    /// Returns the best score and move; the principal variation at `ply` is then the best
    /// move's.
    #[cold]
    #[inline(never)]
    pub(super) fn split(
        &mut self,
        splitter: &'a Splitter<G>,
        board: &BoardOf<G>,
        (alpha, beta): (i32, i32),
        (depth, ply): (i32, usize),
        (threatened, second): (bool, Picked<G>),
        (best, best_move): (i32, Option<MoveOf<G>>),
    ) -> (i32, Option<MoveOf<G>>) {
        let point = &*splitter.point;
        {
            let mut node = lock(&point.node);
            node.moves.clear();
            node.moves.push(second);
            let rules = self.rules;
            let (root_moves, excluded) = (&self.root_moves, &self.excluded);
            let allow = |m: MoveOf<G>| {
                ply > 0
                    || ((root_moves.is_empty() || root_moves.contains(&m))
                        && !excluded.contains(&m))
            };
            while let Some(picked) = self.pickers[ply].next(board, &rules, &self.histories, allow) {
                node.moves.push(picked);
            }
            node.board = *board;
            node.path.clear();
            node.path.extend_from_slice(&self.path);
            node.ply = ply;
            node.depth = depth;
            node.beta = beta;
            node.root_depth = self.root_depth;
            node.threatened = threatened;
            let mut b = lock(&point.best);
            b.score = best;
            b.mv = best_move;
            b.line.clear();
            b.line
                .extend_from_slice(&self.pv[ply][ply..self.pv_len[ply].max(ply)]);
        }
        point.next.store(0, Ordering::SeqCst);
        point.alpha.store(alpha, Ordering::SeqCst);
        point.cutoff.store(false, Ordering::SeqCst);
        for (working, finished) in point.working.iter().zip(&point.finished) {
            working.store(0, Ordering::SeqCst);
            finished.store(0, Ordering::SeqCst);
        }
        #[cfg(test)]
        SPLITS.fetch_add(1, Ordering::Relaxed);
        self.split_cutoff = Some(point);
        splitter.crew.run(Arc::clone(&splitter.job), || {
            self.take_moves(point, board, ply)
        });
        self.split_cutoff = None;
        self.stopped = self.shared.stop.load(Ordering::Relaxed);
        let b = lock(&point.best);
        if b.mv != best_move && !b.line.is_empty() {
            self.pv[ply][ply..ply + b.line.len()].copy_from_slice(&b.line);
            self.pv_len[ply] = ply + b.line.len();
        }
        (b.score, b.mv)
    }

    /// A helper joins the split node: it takes its moves until none is left.
    fn join(&mut self, point: &'a SplitPoint<G>) {
        let (board, ply) = {
            let node = lock(&point.node);
            self.path.clear();
            self.path.extend_from_slice(&node.path);
            self.root_depth = node.root_depth;
            (node.board, node.ply)
        };
        self.net_at(ply, &board);
        self.split_cutoff = Some(point);
        self.take_moves(point, &board, ply);
        self.split_cutoff = None;
        self.flush_nodes();
    }

    /// Takes the node's next move and searches it, until none is left or one reaches beta;
    /// with none left, searches a move another thread is still at.
    fn take_moves(&mut self, point: &SplitPoint<G>, board: &BoardOf<G>, ply: usize) {
        let (depth, beta, threatened, count) = {
            let node = lock(&point.node);
            (node.depth, node.beta, node.threatened, node.moves.len())
        };
        let me = self.thread;
        // The move of another thread this one searched last (index plus one).
        let mut joined = 0;
        loop {
            let mut k = point.next.fetch_add(1, Ordering::Relaxed);
            if k >= count {
                let Some(other) = point.move_in_hand(me, joined) else {
                    return;
                };
                joined = other;
                k = other - 1;
            }
            let Picked { mv, quiet } = lock(&point.node).moves[k];
            if point.cutoff.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
                return;
            }
            let alpha = point.alpha.load(Ordering::Relaxed);
            if alpha >= beta {
                return;
            }
            point.working[me].store(k + 1, Ordering::Relaxed);
            // The node's second move (k = 0) was reported by the node's own loop, which
            // picked it before splitting.
            if ply == 0 && k > 0 && self.sink.is_some() && self.elapsed_ms() >= 1000 {
                let depth = self.root_depth as u32;
                // The node's first move was number 1.
                let number = k as u32 + 2;
                self.emit(Report::CurrMove { depth, mv, number });
            }
            let mut child = *board;
            let taken = child.play(&self.rules, mv);
            let (threat, ext) = self.threat_and_extension(board, &child, ply, false);
            let no_reduce = threat && board.side_to_move() == Side::Attackers;
            let score = self.search_child(
                board,
                &child,
                (mv, taken),
                (k + 1, ext, quiet, no_reduce),
                (alpha, beta, true),
                (depth, ply, threatened),
            );
            self.poll();
            let left = point.finished[me].load(Ordering::Relaxed) == k + 1;
            point.working[me].store(0, Ordering::Relaxed);
            if self.stopped {
                if left
                    && !point.cutoff.load(Ordering::Relaxed)
                    && !self.shared.stop.load(Ordering::Relaxed)
                {
                    // Another thread finished this move first.
                    self.stopped = false;
                    continue;
                }
                return;
            }
            point.finish(me, k + 1);
            let mut best = lock(&point.best);
            if score > best.score {
                best.score = score;
                if score > alpha {
                    best.mv = Some(mv);
                    best.line.clear();
                    best.line.push(mv);
                    let len = self.pv_len[ply + 1].max(ply + 1);
                    best.line.extend_from_slice(&self.pv[ply + 1][ply + 1..len]);
                    point.alpha.fetch_max(score, Ordering::Relaxed);
                    if score >= beta {
                        point.cutoff.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            }
        }
    }
}

/// Splits made, for the tests that check that their searches split.
#[cfg(test)]
pub(crate) static SPLITS: AtomicUsize = AtomicUsize::new(0);
