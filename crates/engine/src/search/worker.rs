//! One search thread and its principal variation search: the pruning, reductions and
//! extensions of each node (their parameters in parameters.rs); the moves come from the picker
//! (movepick.rs), the quiescence search is in worker/qsearch.rs, the static evaluation (the
//! network's accumulators, the cache) in worker/evaluate.rs. What a thread keeps between
//! searches (histories, PV, path keys, the cache) is its [`ThreadState`] (worker/state.rs),
//! which a worker takes over for a search; what threads share is in [`Shared`].

use super::history::Histories;
use super::movepick::{MovePicker, Picked};
use super::parameters::{FUTILITY_DEPTH, FUTILITY_MARGIN, LMP_DEPTH, lmp_count, lmr};
use super::tt::{Bound, Entry, score_from_tt, score_to_tt};
use super::{Cancel, INFINITE, MATE, MATE_BOUND, MAX_PLY, Shared};
use crate::Size;
use crate::clock::Instant;
use ahash::AHashMap;
use konakis_core::BitboardOf;
use konakis_core::board::{BoardOf, MoveListOf};
use konakis_core::rules::{Repetition, Rules};
use konakis_core::types::{MoveOf, Side};
use std::sync::atomic::Ordering;

mod evaluate;
mod qsearch;
mod split;
mod state;

#[cfg(test)]
pub(crate) use evaluate::NET_CHECKS;
use evaluate::NetPath;
#[cfg(test)]
pub(crate) use split::SPLITS;
pub(crate) use split::Splitter;
pub(crate) use state::{Completed, Lines, ThreadState};
/// Nodes between checks of the clock and the stop flag.
const POLL_NODES: u64 = 1024;
/// Quiescence plies after which the position is judged as it stands (a bound on threat and
/// block sequences, which need not lose material).
const MAX_QUIESCENCE_PLIES: usize = 16;

/// One thread's search: the thread's [`ThreadState`], taken over for a search, with what the
/// search lends it (the shared state, the report sink, the caller's [`Cancel`]).
pub(crate) struct Worker<'a, G: Size> {
    pub(crate) shared: &'a Shared<G>,
    pub(crate) rules: Rules,
    /// [`Rules::family_rules`] of `rules`, asked once.
    family: bool,
    /// How often each position occurred in the game before the root (root included).
    game_counts: AHashMap<u64, u32>,
    /// Keys of the positions on the current path, root at index 0.
    path: Vec<u64>,
    /// Killers and the history of quiet moves.
    histories: Histories<G>,
    /// The move picker of each ply.
    pickers: Vec<MovePicker<G>>,
    pv: Vec<[MoveOf<G>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Nodes searched by this thread.
    pub(crate) nodes: u64,
    /// Nodes not yet added to the shared counter.
    unreported: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    /// Root moves to leave out (MultiPV lines already found).
    pub(crate) excluded: Vec<MoveOf<G>>,
    /// Root moves allowed (`searchmoves`); empty for all.
    pub(crate) root_moves: Vec<MoveOf<G>>,
    /// When the search started (the shared time limits count from here).
    start: Instant,
    /// Depth of the current iteration.
    root_depth: i32,
    /// Where the main thread sends its reports.
    pub(crate) sink: Option<&'a mut (dyn FnMut(super::Report<G>) + Send)>,
    /// Node limit, if any (for this thread).
    pub(crate) node_limit: Option<u64>,
    /// What the caller says to stop the search (for a search on the caller's thread).
    pub(crate) cancel: Cancel<'a>,
    /// Is this the thread that reports?
    pub(crate) main: bool,
    /// The thread's number in the pool (0 for the main thread).
    pub(crate) thread: usize,
    /// Does the main thread take over iterations its helpers finish first (Lazy SMP)?
    pub(crate) adopt: bool,
    /// Was the current iteration given up because a helper finished it?
    pub(crate) aborted: bool,
    /// What the main thread splits principal-variation nodes with (SMP Mode `Split`).
    pub(crate) splitter: Option<&'a Splitter<G>>,
    /// While this thread searches the moves of a split node: that node, which says when the
    /// thread must leave the move it is at ([`split::SplitPoint::leave`]).
    split_cutoff: Option<&'a split::SplitPoint<G>>,
    /// Static evaluations by position key (see [`Worker::evaluate`]).
    eval_cache: Vec<(u64, i32)>,
    /// The last position's key and whether its king was in danger (see
    /// [`Worker::king_in_danger`]).
    danger_memo: (u64, bool),
    /// The last position's key and the edge squares its king reaches (see
    /// [`Worker::king_exits`]).
    exits_memo: (u64, BitboardOf<G>),
    /// A filter over the keys of `game_counts`: bit `key % 256` is set for each. A position
    /// whose bit is clear occurred nowhere in the game, and the map is not asked.
    game_filter: [u64; 4],
    /// The network's accumulators along the current path, when a network evaluates.
    net: Option<NetPath>,
    /// The state's number of the search it was readied for.
    search: u64,
    /// The lines of the current iteration.
    pub(crate) lines: Lines<G>,
    /// The deepest iteration this thread completed in the search.
    pub(crate) completed: Completed<G>,
}

impl<'a, G: Size> Worker<'a, G> {
    /// A worker for `rules` on the thread whose state is `state`, readied for the search
    /// ([`ThreadState::prepare`]).
    pub(crate) fn new(shared: &'a Shared<G>, rules: Rules, state: ThreadState<G>) -> Worker<'a, G> {
        let ThreadState {
            search,
            histories,
            pickers,
            pv,
            path,
            game_counts,
            game_filter,
            eval_cache,
            excluded,
            root_moves,
            net,
            lines,
            completed,
        } = state;
        Worker {
            shared,
            rules,
            family: rules.family_rules(),
            game_counts,
            game_filter,
            path,
            histories,
            pickers,
            pv,
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            stopped: false,
            excluded,
            root_moves,
            start: shared
                .start
                .lock()
                .map(|s| *s)
                .unwrap_or_else(|_| Instant::now()),
            root_depth: 0,
            sink: None,
            node_limit: None,
            cancel: Cancel::Never,
            main: true,
            thread: 0,
            adopt: false,
            aborted: false,
            splitter: None,
            split_cutoff: None,
            eval_cache,
            danger_memo: (0, false),
            exits_memo: (0, BitboardOf::EMPTY),
            net,
            search,
            lines,
            completed,
        }
    }

    /// Gives the thread's state back (its nodes flushed to the shared counter first).
    pub(crate) fn into_state(mut self) -> ThreadState<G> {
        self.flush_nodes();
        ThreadState {
            search: self.search,
            histories: self.histories,
            pickers: self.pickers,
            pv: self.pv,
            path: self.path,
            game_counts: self.game_counts,
            game_filter: self.game_filter,
            eval_cache: self.eval_cache,
            excluded: self.excluded,
            root_moves: self.root_moves,
            net: self.net,
            lines: self.lines,
            completed: self.completed,
        }
    }

    /// [`Board::king_in_danger`], remembered for the last position asked: an attackers' move
    /// is tested for the threat, and then the defenders' node after it asks again.
    #[inline(always)]
    fn king_in_danger(&mut self, board: &BoardOf<G>) -> bool {
        let key = board.hash();
        if self.danger_memo.0 != key {
            self.danger_memo = (key, board.king_in_danger(&self.rules));
        }
        self.danger_memo.1
    }

    /// The edge squares the king reaches in one move ([`Board::king_moves`]), remembered for
    /// the last position asked: a defenders' move is tested for the threat, and then the
    /// attackers' node after it asks again.
    #[inline(always)]
    fn king_exits(&mut self, board: &BoardOf<G>) -> BitboardOf<G> {
        let key = board.hash();
        if self.exits_memo.0 != key {
            self.exits_memo = (key, board.king_escapes(&self.rules));
        }
        self.exits_memo.1
    }

    /// Does the move from `board` (at `ply`) to `child` threaten to win at once, and by how
    /// many plies is it extended? Threats extend as checks do in chess: an escape threat
    /// always, a capture threat when it leaves the defenders one parry at most. (Capture
    /// threats are common, under Ashton above all, and extending every one cost more than it
    /// found: docs/strength.md.) `calm` says an attackers' move is known to leave the king out
    /// of danger (see [`Board::calm_squares`]); the defenders' node after it is told so.
    #[inline]
    fn threat_and_extension(
        &mut self,
        board: &BoardOf<G>,
        child: &BoardOf<G>,
        ply: usize,
        calm: bool,
    ) -> (bool, i32) {
        let (threat, forcing) = match board.side_to_move() {
            Side::Defenders => {
                let open = !self.king_exits(child).is_empty();
                (open, open)
            }
            Side::Attackers => {
                let danger = if calm {
                    self.danger_memo = (child.hash(), false);
                    false
                } else {
                    self.king_in_danger(child)
                };
                (danger, danger && child.at_most_one_parry(&self.rules))
            }
        };
        (threat, i32::from(forcing && ply < MAX_PLY / 2))
    }

    /// Ages the quiet history between iterations or searches.
    pub(crate) fn age_history(&mut self) {
        self.histories.age();
    }

    /// The principal variation of the last root search.
    pub(crate) fn pv(&self) -> &[MoveOf<G>] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// Adds the principal variation of the last root search, scored `score`, to the lines of
    /// the iteration.
    pub(crate) fn keep_pv(&mut self, score: i32) {
        self.lines.push(score, &self.pv[0][..self.pv_len[0]]);
    }

    /// Adds the nodes not yet counted to the shared counter and checks the limits (the stop
    /// flag, the caller's [`Cancel`], the clock, the node limit, a helper ahead).
    pub(crate) fn poll(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        // Asked before the clock, so that a `ponderhit` it says starts the clock first.
        if self.shared.cancelled(self.cancel) {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if self.main && !self.shared.pondering.load(Ordering::Relaxed) {
            let hard = self.shared.hard_ms.load(Ordering::Relaxed);
            if hard != u64::MAX && self.elapsed_ms() >= hard {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.adopt && self.shared.helper_depth.load(Ordering::Relaxed) >= self.root_depth {
            self.stopped = true;
            self.aborted = true;
        }
        if let Some(point) = self.split_cutoff
            && point.leave(self.thread)
        {
            self.stopped = true;
        }
        if let Some(n) = self.node_limit
            && self.shared.nodes.load(Ordering::Relaxed) >= n
        {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Adds one node and checks the limits now and then.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= POLL_NODES {
            self.poll();
        }
    }

    /// Milliseconds since the search started.
    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Sends a report, if this worker reports.
    pub(crate) fn emit(&mut self, report: super::Report<G>) {
        if let Some(sink) = self.sink.as_mut() {
            sink(report);
        }
    }

    /// Nodes counted but not yet added to the shared counter.
    pub(crate) fn unflushed(&self) -> u64 {
        self.unreported
    }

    /// Flushes the node count to the shared counter.
    pub(crate) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// Does the position at `ply` (key already pushed on the path) end the game by repetition
    /// or the move limit? Its score for the side to move if so: a draw, or under the family's
    /// repetition rules ([`Repetition`]) a win or a loss.
    #[inline(always)]
    fn repetition_end(&self, board: &BoardOf<G>, ply: usize) -> Option<i32> {
        if self.rules.move_limit > 0 && board.plies() >= self.rules.move_limit {
            return Some(0);
        }
        let key = board.hash();
        // The positions of the path with the same side to move: plies `ply - 2`, `ply - 4`, ...
        // A repetition inside the tree ends the game as the rules say a repetition does:
        // either side can repeat again.
        let mut p = ply;
        while p >= 2 {
            p -= 2;
            if self.path[p] == key {
                return Some(self.repetition_score(board, ply));
            }
        }
        let earlier = if self.game_filter[(key as usize >> 6) & 3] >> (key & 63) & 1 == 0 {
            0
        } else {
            self.game_counts.get(&key).copied().unwrap_or(0)
        };
        (earlier + 1 >= self.rules.repetition_draw).then(|| self.repetition_score(board, ply))
    }

    /// The score of a repeated position at `ply` for the side to move, as the rules' repetition
    /// rule ends the game: a draw (Tablut), or a win or loss (the family's rules: the
    /// attackers win, or the side whose move repeated loses or wins). hnefatafl.org's rule,
    /// under which a defender may not repeat at all, is scored as a draw here.
    #[inline(never)]
    fn repetition_score(&self, board: &BoardOf<G>, ply: usize) -> i32 {
        let win = MATE - ply as i32;
        let to_move = board.side_to_move();
        match self.rules.repetition {
            Repetition::Draw | Repetition::DefenderMayNotRepeat => 0,
            Repetition::AttackersWin if to_move == Side::Attackers => win,
            Repetition::AttackersWin => -win,
            // The side that moved into the repetition is the one not to move.
            Repetition::MakerLoses => win,
            Repetition::MakerWins => -win,
        }
    }

    /// Root search with a window; returns the score, the PV is in `pv()`.
    pub(crate) fn search_root(
        &mut self,
        board: &BoardOf<G>,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.path.clear();
        self.path.push(board.hash());
        self.seldepth = 0;
        self.root_depth = depth;
        self.net_root(board);
        self.search(board, alpha, beta, depth, 0, true)
    }

    fn search(
        &mut self,
        board: &BoardOf<G>,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        let rules = self.rules;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if ply > 0 {
            if board.is_won(&rules) {
                return -(MATE - ply as i32);
            }
            if let Some(score) = self.repetition_end(board, ply) {
                return score;
            }
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            return self.qsearch(board, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(board, ply);
        }

        let side = board.side_to_move();
        let exits = self.king_exits(board);
        // The king walks out, or is taken: a win with this move, which ends the line.
        if side == Side::Defenders
            && ply > 0
            && let (Some(k), Some(to)) = (board.king(), exits.first())
        {
            self.end_pv(ply, MoveOf::new(k, to));
            return MATE - ply as i32 - 1;
        }
        let in_danger = side == Side::Defenders && self.king_in_danger(board);
        if side == Side::Attackers && ply > 0 {
            let threats = board.king_capture_threats(&rules);
            if !threats.is_empty() {
                let mut moves = MoveListOf::<G>::new();
                board.legal_moves_to(&rules, threats, &mut moves);
                let rules = self.rules;
                if let Some(&m) = moves.iter().find(|&&m| {
                    let mut child = *board;
                    child.play(&rules, m);
                    child.king().is_none()
                }) {
                    self.end_pv(ply, m);
                }
                return MATE - ply as i32 - 1;
            }
        }

        let key = board.hash();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
        {
            let s = score_from_tt(e.score as i32, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if fits {
                return s;
            }
        }
        // The side to move must answer a threat to win at once (the attackers an open line of
        // the king, the defenders a capture of the king): nothing here is pruned as quiet.
        let escape = side == Side::Attackers && !exits.is_empty();
        let threatened = escape || in_danger;
        // The static evaluation is needed only for pruning decisions; computed on demand.
        let mut static_eval = tt.filter(|e| e.eval != NO_EVAL).map(|e| e.eval as i32);

        // Reverse futility: near the leaves, a static evaluation far above beta stands.
        if !pv_node && !threatened && depth <= FUTILITY_DEPTH && ply > 0 && beta.abs() < MATE_BOUND
        {
            let eval = *static_eval.get_or_insert_with(|| self.evaluate(board, ply));
            if eval - FUTILITY_MARGIN * depth >= beta {
                return eval;
            }
        }

        // Null move: give the opponent a free move; if we still beat beta, cut.
        if !pv_node && allow_null && !threatened && depth >= 3 && ply > 0 && beta.abs() < MATE_BOUND
        {
            let eval = *static_eval.get_or_insert_with(|| self.evaluate(board, ply));
            if eval >= beta {
                let mut null = *board;
                null.pass();
                let r = 3 + depth / 4;
                self.net_enter(ply + 1, board, &null, None, BitboardOf::EMPTY);
                self.path.push(null.hash());
                let s = -self.search(&null, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta && s < MATE_BOUND {
                    return s;
                }
            }
        }

        // The moves, from the staged picker (movepick.rs): the table's move, the urgent
        // moves, the killers, then the quiet rest.
        self.pickers[ply].reset(board, ply, tt_move, escape, in_danger);
        let mut calm = None;
        let mut best = -INFINITE;
        let mut best_move = None;
        let original_alpha = alpha;
        // The index of the move in the node's order.
        let mut i = 0;
        loop {
            let (root_moves, excluded) = (&self.root_moves, &self.excluded);
            let allow = |m: MoveOf<G>| {
                ply > 0
                    || ((root_moves.is_empty() || root_moves.contains(&m))
                        && !excluded.contains(&m))
            };
            let Some(Picked { mv, quiet }) =
                self.pickers[ply].next(board, &rules, &self.histories, allow)
            else {
                break;
            };
            if ply == 0 && self.sink.is_some() && self.elapsed_ms() >= 1000 {
                let depth = self.root_depth as u32;
                self.emit(super::Report::CurrMove {
                    depth,
                    mv,
                    number: i as u32 + 1,
                });
            }
            let late = if pv_node {
                // With `SMP Mode=Split`, the main thread's principal-variation nodes share the
                // moves after the first among the threads (worker/split.rs).
                if i == 1
                    && let Some(splitter) = self.splitter
                    && depth >= split::SPLIT_DEPTH
                    && self.split_cutoff.is_none()
                {
                    let (s, m) = self.split(
                        splitter,
                        board,
                        (alpha, beta),
                        (depth, ply),
                        (threatened, Picked { mv, quiet }),
                        (best, best_move),
                    );
                    if self.stopped {
                        return 0;
                    }
                    if s > best {
                        best = s;
                        if s > alpha {
                            best_move = m;
                            alpha = s;
                        }
                    }
                    break;
                }
                false
            } else {
                !threatened
                    && quiet
                    && depth <= LMP_DEPTH
                    && i >= lmp_count(depth)
                    && best > -MATE_BOUND
            };
            // A late quiet move that cannot open a line for the king is pruned before it is
            // played: any attackers' move, and a soldier's move from off the king's lines.
            // (A quiet move captures nothing: a calm one cannot threaten the king either.)
            // (No defenders' move is calm: see [`Board::calm_squares`].)
            let calm_move = side == Side::Attackers && {
                let calm = *calm.get_or_insert_with(|| board.calm_squares(&rules));
                calm.has(mv.from()) && calm.has(mv.to())
            };
            if late
                && if side == Side::Attackers {
                    calm_move || !board.may_threaten_king(&rules, mv)
                } else {
                    !board.on_king_lines(mv.from())
                }
            {
                i += 1;
                continue;
            }

            let mut child = *board;
            let taken = child.play(&rules, mv);
            let calm_move = calm_move && taken.is_empty();
            let (threat, ext) = self.threat_and_extension(board, &child, ply, calm_move);
            // A capture threat is not reduced either. (An escape threat may be: exempting it
            // too cost games, see docs/strength.md.)
            let no_reduce = threat && side == Side::Attackers;
            // Late move pruning: near the leaves of a non-PV node, once enough moves have been
            // searched, the remaining quiet moves (no capture, no threat) are skipped.
            if late && !threat && taken.is_empty() {
                i += 1;
                continue;
            }
            let score = self.search_child(
                board,
                &child,
                (mv, taken),
                (i, ext, quiet, no_reduce),
                (alpha, beta, pv_node),
                (depth, ply, threatened),
            );
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.pv[ply][ply] = mv;
                    let child_len = self.pv_len[ply + 1].max(ply + 1);
                    for p in ply + 1..child_len {
                        self.pv[ply][p] = self.pv[ply + 1][p];
                    }
                    self.pv_len[ply] = child_len;
                    if score >= beta {
                        if quiet {
                            let tried = self.pickers[ply].tried();
                            self.histories.reward_quiet(side, mv, depth, ply, tried);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        if i == 0 && best == -INFINITE {
            // No move: the side to move loses. (At the root every move being excluded or
            // outside `searchmoves` never reaches here: the caller checks first.)
            return -(MATE - ply as i32);
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply > 0 || self.excluded.is_empty() {
            self.shared.tt.store(
                key,
                Entry {
                    mv: best_move.or(tt_move),
                    score: score_to_tt(best, ply) as i16,
                    eval: static_eval.map_or(NO_EVAL, |e| e.clamp(-30000, 30000) as i16),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                    age: 0,
                },
            );
        }
        best
    }

    /// Searches `child`, reached from `board` (the node at `ply`, searched to `depth` within
    /// `(alpha, beta)`, a `pv_node` or not, `threatened` or not) by `mv`, which captured
    /// `taken`: the node's move number `i`, extended by `ext`, searched as principal variation
    /// search does (the first move with the node's window, the others with a null window,
    /// reduced if late, `quiet`, capturing nothing, in a node not threatened and not
    /// `no_reduce` (a capture threat), and again as needed). The split search
    /// (worker/split.rs) searches its moves here too. Returns the score from the node's side.
    #[inline(always)]
    fn search_child(
        &mut self,
        board: &BoardOf<G>,
        child: &BoardOf<G>,
        (mv, taken): (MoveOf<G>, BitboardOf<G>),
        (i, ext, quiet, no_reduce): (usize, i32, bool, bool),
        (alpha, beta, pv_node): (i32, i32, bool),
        (depth, ply, threatened): (i32, usize, bool),
    ) -> i32 {
        self.net_enter(ply + 1, board, child, Some(mv), taken);
        self.path.push(child.hash());
        let new_depth = depth - 1 + ext;
        let mut score;
        if i == 0 {
            score = -self.search(child, -beta, -alpha, new_depth, ply + 1, true);
        } else {
            // Late move reductions for quiet moves.
            let mut r = 0;
            if depth >= 3 && i >= 3 && quiet && taken.is_empty() && !threatened && !no_reduce {
                r = lmr(depth, i);
                if pv_node {
                    r -= 1;
                }
                r = r.clamp(0, new_depth - 1);
            }
            score = -self.search(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if score > alpha && r > 0 {
                score = -self.search(child, -alpha - 1, -alpha, new_depth, ply + 1, true);
            }
            if score > alpha && score < beta {
                score = -self.search(child, -beta, -alpha, new_depth, ply + 1, true);
            }
        }
        self.path.pop();
        score
    }

    /// Ends the principal variation at `ply` with the winning move `mv`.
    fn end_pv(&mut self, ply: usize, mv: MoveOf<G>) {
        self.pv[ply][ply] = mv;
        self.pv_len[ply] = ply + 1;
    }
}

/// Stored in the table's evaluation field when the position was not evaluated.
const NO_EVAL: i16 = i16::MIN;
