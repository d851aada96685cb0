//! The order in which the main search tries the moves of a node: a staged move picker, each
//! stage generated only when the ones before it failed to cut off.
//!
//! 1. The transposition table's move, tried before anything is generated.
//! 2. Urgent moves: captures, the blocks of a line along which the king sees the edge
//!    (attackers) or of a threatened capture of the king (defenders), and every move of a king
//!    in danger; best first by [`MovePicker::score`].
//! 3. The killers of the ply.
//! 4. The quiet rest, generated and scored by history only now, sorted once.

use super::history::Histories;
use konakis_core::Bitboard;
use konakis_core::board::{Board, MAX_MOVES};
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side, Square};
use std::cmp::Reverse;

/// Ordering scores. The table's move and the urgent moves come before the killers; attackers'
/// quiet moves that may threaten the king come after the killers and before the other quiet
/// moves (history scores stay far below).
const TABLE_SCORE: i32 = 1 << 30;
const ESCAPE_SCORE: i32 = 1 << 29;
const CAPTURE_SCORE: i32 = 1 << 28;
const NEAR_KING_BONUS: i32 = 100;
const BLOCK_SCORE: i32 = 1 << 27;
const KILLER_SCORE: i32 = 1 << 26;
const APPROACH_SCORE: i32 = 1 << 24;
/// At most this many pieces of one side have a move (16 attackers; 8 defenders and the king).
const MAX_MOVERS: usize = 16;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Table,
    GenerateUrgent,
    Urgent,
    GenerateKillers,
    Killers,
    GenerateQuiets,
    Quiets,
    Done,
}

#[derive(Clone, Copy, Default)]
struct Scored {
    score: i32,
    mv: Move,
}

/// A move handed out by the picker.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked {
    pub(crate) mv: Move,
    /// Ordered as a quiet move (by history): neither the table's move, a capture, a block, a
    /// killer nor the king's walk to the edge. Only these are reduced, pruned late and
    /// rewarded as quiet moves.
    pub(crate) quiet: bool,
}

/// The move picker of one node. A thread keeps one per ply and [`reset`](MovePicker::reset)s
/// it for each node, so that its lists are not set up anew each time.
pub(crate) struct MovePicker {
    stage: Stage,
    ply: usize,
    tt_move: Option<Move>,
    /// Attackers facing a king who sees the edge: their blocks of his lines are urgent.
    escape: bool,
    /// The king's square while he can be taken next move: all his moves are urgent.
    danger_king: Option<Square>,
    captures: Bitboard,
    blocks: Bitboard,
    /// `captures | blocks`: the squares of the urgent stage.
    early: Bitboard,
    /// Each moving piece's destinations, found once for the urgent and the quiet stages.
    dests: [(Square, Bitboard); MAX_MOVERS],
    movers: usize,
    /// The moves so far; those before `cur` were handed out, in order.
    list: [Scored; MAX_MOVES],
    len: usize,
    cur: usize,
}

impl MovePicker {
    pub(crate) fn new() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            ply: 0,
            tt_move: None,
            escape: false,
            danger_king: None,
            captures: Bitboard::EMPTY,
            blocks: Bitboard::EMPTY,
            early: Bitboard::EMPTY,
            dests: [(Square::THRONE, Bitboard::EMPTY); MAX_MOVERS],
            movers: 0,
            list: [Scored::default(); MAX_MOVES],
            len: 0,
            cur: 0,
        }
    }

    /// Starts the picker on a node of `board` at `ply`. `escape`: the attackers are to move
    /// and the king sees the edge; `in_danger`: the defenders are to move and their king can
    /// be taken next move.
    pub(crate) fn reset(
        &mut self,
        board: &Board,
        ply: usize,
        tt_move: Option<Move>,
        escape: bool,
        in_danger: bool,
    ) {
        self.stage = Stage::Table;
        self.ply = ply;
        self.tt_move = tt_move;
        self.escape = escape;
        self.danger_king = board.king().filter(|_| in_danger);
        self.movers = 0;
        self.len = 0;
        self.cur = 0;
    }

    /// The moves handed out before the last one.
    pub(crate) fn tried(&self) -> impl Iterator<Item = Move> + '_ {
        self.list[..self.cur.saturating_sub(1)].iter().map(|s| s.mv)
    }

    /// The next move to try, or `None` when the node has no more. Every move handed out is
    /// legal and allowed by `allow` (at the root: `searchmoves` and the MultiPV lines found).
    #[inline]
    pub(crate) fn next(
        &mut self,
        board: &Board,
        rules: &Rules,
        histories: &Histories,
        allow: impl Fn(Move) -> bool,
    ) -> Option<Picked> {
        // Most moves are quiet ones, already in order.
        if self.stage == Stage::Quiets && self.cur < self.len {
            return Some(self.hand_out());
        }
        self.next_stage(board, rules, histories, allow)
    }

    /// [`MovePicker::next`] outside the quiet stage.
    fn next_stage(
        &mut self,
        board: &Board,
        rules: &Rules,
        histories: &Histories,
        allow: impl Fn(Move) -> bool,
    ) -> Option<Picked> {
        loop {
            match self.stage {
                Stage::Quiets => {
                    if self.cur < self.len {
                        return Some(self.hand_out());
                    }
                    self.stage = Stage::Done;
                }
                Stage::Table => {
                    self.stage = Stage::GenerateUrgent;
                    match self.tt_move {
                        Some(m) if board.is_legal(rules, m) && allow(m) => {
                            self.push(TABLE_SCORE, m);
                            return Some(self.hand_out());
                        }
                        _ => self.tt_move = None,
                    }
                }
                Stage::GenerateUrgent => {
                    self.generate_urgent(board, rules, histories, &allow);
                    self.stage = Stage::Urgent;
                }
                Stage::Urgent | Stage::Killers => {
                    if self.cur < self.len {
                        self.select_best();
                        return Some(self.hand_out());
                    }
                    self.stage = if self.stage == Stage::Urgent {
                        Stage::GenerateKillers
                    } else {
                        Stage::GenerateQuiets
                    };
                }
                Stage::GenerateKillers => {
                    // A killer to a square of the urgent stage was tried there.
                    for (k, m) in histories.killers(self.ply).into_iter().enumerate() {
                        if let Some(m) = m
                            && self.untried(m)
                            && board.is_legal(rules, m)
                            && allow(m)
                        {
                            self.push(KILLER_SCORE - k as i32, m);
                        }
                    }
                    self.stage = Stage::Killers;
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(board, rules, histories, &allow);
                    self.stage = Stage::Quiets;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Hands out the move at `cur`.
    #[inline]
    fn hand_out(&mut self) -> Picked {
        let Scored { score, mv } = self.list[self.cur];
        self.cur += 1;
        Picked {
            mv,
            quiet: score < KILLER_SCORE - 10 && !self.captures.has(mv.to()),
        }
    }

    #[inline]
    fn push(&mut self, score: i32, mv: Move) {
        self.list[self.len] = Scored { score, mv };
        self.len += 1;
    }

    /// Moves the best of the moves not yet handed out to `cur` (the first of equals).
    #[inline]
    fn select_best(&mut self) {
        let mut best = self.cur;
        for k in self.cur + 1..self.len {
            if self.list[k].score > self.list[best].score {
                best = k;
            }
        }
        self.list.swap(self.cur, best);
    }

    /// Could `m` be a move not tried yet outside the urgent stage: not to one of its squares,
    /// not a move of a king in danger, not the table's move?
    #[inline]
    fn untried(&self, m: Move) -> bool {
        !self.early.has(m.to()) && self.danger_king != Some(m.from()) && Some(m) != self.tt_move
    }

    /// The ordering score of an urgent move.
    fn score(
        &self,
        board: &Board,
        histories: &Histories,
        killers: [Option<Move>; 2],
        mv: Move,
    ) -> i32 {
        let to = mv.to();
        let is_king = board.king() == Some(mv.from());
        if is_king && to.is_edge() {
            return ESCAPE_SCORE;
        }
        if self.captures.has(to) {
            let near_king = board.king().is_some_and(|k| Bitboard::around(k).has(to));
            return CAPTURE_SCORE + if near_king { NEAR_KING_BONUS } else { 0 };
        }
        if self.blocks.has(to)
            || (is_king && !self.blocks.is_empty() && board.side_to_move() == Side::Defenders)
        {
            return BLOCK_SCORE;
        }
        if killers[0] == Some(mv) {
            return KILLER_SCORE;
        }
        if killers[1] == Some(mv) {
            return KILLER_SCORE - 1;
        }
        histories.quiet(board.side_to_move(), mv)
    }

    fn generate_urgent(
        &mut self,
        board: &Board,
        rules: &Rules,
        histories: &Histories,
        allow: &impl Fn(Move) -> bool,
    ) {
        self.captures = board.capture_targets(rules);
        self.blocks = if self.escape {
            board.escape_paths(rules)
        } else if self.danger_king.is_some() {
            board.king_threat_blocks(rules)
        } else {
            Bitboard::EMPTY
        };
        self.early = self.captures | self.blocks;
        let dests = &mut self.dests;
        let mut movers = 0;
        board.for_each_piece_moves(rules, |from, to| {
            dests[movers] = (from, to);
            movers += 1;
        });
        self.movers = movers;
        let killers = histories.killers(self.ply);
        for d in 0..movers {
            let (from, to) = self.dests[d];
            let targets = if self.danger_king == Some(from) {
                Bitboard::FULL
            } else {
                self.early
            };
            for to in to & targets {
                let m = Move::new(from, to);
                if Some(m) != self.tt_move && allow(m) {
                    let score = self.score(board, histories, killers, m);
                    self.push(score, m);
                }
            }
        }
    }

    fn generate_quiets(
        &mut self,
        board: &Board,
        rules: &Rules,
        histories: &Histories,
        allow: &impl Fn(Move) -> bool,
    ) {
        // The moves already handed out that a quiet move can repeat: the table's move and the
        // killers, all ending off the urgent stage's squares.
        let mut tried = [None; 3];
        for (slot, s) in tried.iter_mut().zip(
            self.list[..self.len]
                .iter()
                .filter(|s| self.untried_square(s.mv)),
        ) {
            *slot = Some(s.mv);
        }
        let side = board.side_to_move();
        let approaches = if side == Side::Attackers {
            board.king_threat_approaches(rules)
        } else {
            Bitboard::EMPTY
        };
        let king = board.king();
        let first = self.len;
        for d in 0..self.movers {
            let (from, to) = self.dests[d];
            if self.danger_king == Some(from) {
                continue;
            }
            for to in to - self.early {
                let m = Move::new(from, to);
                if tried.contains(&Some(m)) || !allow(m) {
                    continue;
                }
                let score = if king == Some(from) && to.is_edge() {
                    ESCAPE_SCORE
                } else {
                    let h = histories.quiet(side, m);
                    if approaches.has(to) {
                        APPROACH_SCORE + h
                    } else {
                        h
                    }
                };
                self.push(score, m);
            }
        }
        // The quiet rest in one sort (at all-nodes every one is searched).
        self.list[first..self.len].sort_unstable_by_key(|s| Reverse(s.score));
    }

    /// Is `m` to a square outside the urgent stage and not a move of a king in danger?
    #[inline]
    fn untried_square(&self, m: Move) -> bool {
        !self.early.has(m.to()) && self.danger_king != Some(m.from())
    }
}
