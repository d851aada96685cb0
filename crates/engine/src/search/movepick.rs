//! The order in which the search tries the moves of a node: a staged move picker, each stage
//! generated only when the ones before it failed to cut off.
//!
//! 1. The transposition table's move, tried before anything is generated.
//! 2. Urgent moves: captures, the blocks of a line along which the king sees the edge
//!    (attackers) or of a threatened capture of the king (defenders), and every move of a king
//!    in danger; best first by [`MovePicker::score`].
//! 3. The killers of the ply.
//! 4. The quiet rest, generated and scored by history only now, sorted once.
//!
//! The quiescence search takes its moves from the same picker ([`MovePicker::start_quiescence`]
//! and [`MovePicker::next_quiescence`]): the moves of its node, each once, in the order that
//! [`Quiescence`] gives for its kind; no scores and no sort, which cost 2.5 % more instructions
//! a node when tried (docs/strength.md).

use super::history::Histories;
use konakis_core::BitboardOf;
use konakis_core::board::{BoardOf, MoveListOf};
use konakis_core::geometry::{Geometry, MAX_SIDE, max_moves};
use konakis_core::rules::Rules;
use konakis_core::types::{MoveOf, Side, SquareOf};
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
/// Room for the moves of any position on any board: the bound for the widest board.
const MAX_MOVES: usize = max_moves(MAX_SIDE);
/// The pieces of one side whose moves a picker keeps between its stages: more than any game
/// sets up (Tablut 16 attackers, Copenhagen 24, hnefatafl.org's 13x13 32). A position of
/// one's own with more pieces able to move has the others' moves left out of the search
/// (never an illegal move), which keeps the picker's storage inline: a thread's buffers are
/// a few large allocations, not one small one per ply.
const MAX_MOVERS: usize = 48;

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
struct Scored<G: Geometry> {
    score: i32,
    mv: MoveOf<G>,
}

/// The moves of a quiescence node, by what threatens there. Each is handed out in the order
/// of generation (by destination square, then direction: see [`Board::legal_moves_to`]), except
/// where said.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Quiescence {
    /// Nothing threatens: the captures (not the unarmed king's arrivals, which capture nothing).
    Captures,
    /// The defenders' king can be taken next move: his parries ([`Board::parries`]), the
    /// captures first.
    Parries,
    /// The king sees the edge: the attackers' blocks of his lines and captures beside him.
    /// The moves onto the edge come first, and the rest are generated only when those did not
    /// cut off (searching them first saved 3.6 % of the bench nodes: docs/strength.md).
    Answers,
}

/// A move handed out by the picker.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked<G: Geometry> {
    pub(crate) mv: MoveOf<G>,
    /// Ordered as a quiet move (by history): neither the table's move, a capture, a block, a
    /// killer nor the king's walk to the edge. Only these are reduced, pruned late and
    /// rewarded as quiet moves.
    pub(crate) quiet: bool,
}

/// The move picker of one node. A thread keeps one per ply and [`reset`](MovePicker::reset)s
/// it for each node, so that its lists are not set up anew each time.
pub(crate) struct MovePicker<G: Geometry> {
    stage: Stage,
    ply: usize,
    tt_move: Option<MoveOf<G>>,
    /// Attackers facing a king who sees the edge: their blocks of his lines are urgent.
    escape: bool,
    /// The king's square while he can be taken next move: all his moves are urgent.
    danger_king: Option<SquareOf<G>>,
    captures: BitboardOf<G>,
    blocks: BitboardOf<G>,
    /// `captures | blocks`: the squares of the urgent stage.
    early: BitboardOf<G>,
    /// The squares where the king escapes ([`BoardOf::escape_squares`]).
    escapes: BitboardOf<G>,
    /// Each moving piece's destinations, found once for the urgent and the quiet stages.
    dests: [(SquareOf<G>, BitboardOf<G>); MAX_MOVERS],
    movers: usize,
    /// The moves so far; those before `cur` were handed out, in order.
    list: [Scored<G>; MAX_MOVES],
    len: usize,
    cur: usize,
    /// A quiescence node's moves; those before `cur` were handed out.
    quiescence: MoveListOf<G>,
    /// The squares of a quiescence node's moves still to generate once `quiescence` is
    /// handed out.
    later: BitboardOf<G>,
}

impl<G: Geometry> MovePicker<G> {
    pub(crate) fn new() -> MovePicker<G> {
        MovePicker {
            stage: Stage::Done,
            ply: 0,
            tt_move: None,
            escape: false,
            danger_king: None,
            captures: BitboardOf::EMPTY,
            blocks: BitboardOf::EMPTY,
            early: BitboardOf::EMPTY,
            escapes: BitboardOf::EMPTY,
            dests: [(SquareOf::THRONE, BitboardOf::EMPTY); MAX_MOVERS],
            movers: 0,
            list: [Scored::default(); MAX_MOVES],
            len: 0,
            cur: 0,
            quiescence: MoveListOf::<G>::new(),
            later: BitboardOf::EMPTY,
        }
    }

    /// Starts the picker on a quiescence node of `board` (the game not won) with the moves of
    /// `kind`.
    pub(crate) fn start_quiescence(&mut self, board: &BoardOf<G>, rules: &Rules, kind: Quiescence) {
        let moves = &mut self.quiescence;
        moves.clear();
        self.cur = 0;
        self.later = BitboardOf::EMPTY;
        match kind {
            Quiescence::Captures => {
                board.legal_moves_to(rules, board.capture_targets(rules), moves);
                if !rules.king_armed && board.side_to_move() == Side::Defenders {
                    // An unarmed king arriving on a capture square captures nothing.
                    let king = board.king();
                    moves.retain(|m| Some(m.from()) != king);
                }
            }
            Quiescence::Parries => {
                board.parries(rules, moves);
                // The captures first, each group in its order.
                let captures = board.capture_targets(rules);
                let mut first = 0;
                for j in 0..moves.len() {
                    if captures.has(moves[j].to()) {
                        moves[first..=j].rotate_right(1);
                        first += 1;
                    }
                }
            }
            Quiescence::Answers => {
                // Only a block or the capture of a piece beside the king stops him.
                let king_ring = board.king().map_or(BitboardOf::EMPTY, BitboardOf::around);
                let targets =
                    board.escape_paths(rules) | (board.capture_targets(rules) & king_ring);
                let escapes = BoardOf::escape_squares(rules);
                board.legal_moves_to(rules, targets & escapes, moves);
                self.later = targets - escapes;
            }
        }
    }

    /// The next move of the quiescence node started by [`MovePicker::start_quiescence`] on
    /// `board`, or `None` when it has no more.
    #[inline]
    pub(crate) fn next_quiescence(
        &mut self,
        board: &BoardOf<G>,
        rules: &Rules,
    ) -> Option<MoveOf<G>> {
        if self.cur == self.quiescence.len() {
            if self.later.is_empty() {
                return None;
            }
            let later = std::mem::replace(&mut self.later, BitboardOf::EMPTY);
            board.legal_moves_to(rules, later, &mut self.quiescence);
            if self.cur == self.quiescence.len() {
                return None;
            }
        }
        let mv = self.quiescence[self.cur];
        self.cur += 1;
        Some(mv)
    }

    /// Starts the picker on a node of `board` at `ply`. `escape`: the attackers are to move
    /// and the king sees the edge; `in_danger`: the defenders are to move and their king can
    /// be taken next move.
    pub(crate) fn reset(
        &mut self,
        board: &BoardOf<G>,
        ply: usize,
        tt_move: Option<MoveOf<G>>,
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
    pub(crate) fn tried(&self) -> impl Iterator<Item = MoveOf<G>> + '_ {
        self.list[..self.cur.saturating_sub(1)].iter().map(|s| s.mv)
    }

    /// The next move to try, or `None` when the node has no more. Every move handed out is
    /// legal and allowed by `allow` (at the root: `searchmoves` and the MultiPV lines found).
    #[inline]
    pub(crate) fn next(
        &mut self,
        board: &BoardOf<G>,
        rules: &Rules,
        histories: &Histories<G>,
        allow: impl Fn(MoveOf<G>) -> bool,
    ) -> Option<Picked<G>> {
        // Most moves are quiet ones, already in order.
        if self.stage == Stage::Quiets && self.cur < self.len {
            return Some(self.hand_out());
        }
        self.next_stage(board, rules, histories, allow)
    }

    /// [`MovePicker::next`] outside the quiet stage.
    fn next_stage(
        &mut self,
        board: &BoardOf<G>,
        rules: &Rules,
        histories: &Histories<G>,
        allow: impl Fn(MoveOf<G>) -> bool,
    ) -> Option<Picked<G>> {
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
    fn hand_out(&mut self) -> Picked<G> {
        let Scored { score, mv } = self.list[self.cur];
        self.cur += 1;
        Picked {
            mv,
            quiet: score < KILLER_SCORE - 10 && !self.captures.has(mv.to()),
        }
    }

    #[inline]
    fn push(&mut self, score: i32, mv: MoveOf<G>) {
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
    fn untried(&self, m: MoveOf<G>) -> bool {
        !self.early.has(m.to()) && self.danger_king != Some(m.from()) && Some(m) != self.tt_move
    }

    /// The ordering score of an urgent move.
    fn score(
        &self,
        board: &BoardOf<G>,
        histories: &Histories<G>,
        killers: [Option<MoveOf<G>>; 2],
        mv: MoveOf<G>,
    ) -> i32 {
        let to = mv.to();
        let is_king = board.king() == Some(mv.from());
        if is_king && self.escapes.has(to) {
            return ESCAPE_SCORE;
        }
        if self.captures.has(to) {
            let near_king = board.king().is_some_and(|k| BitboardOf::around(k).has(to));
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
        board: &BoardOf<G>,
        rules: &Rules,
        histories: &Histories<G>,
        allow: &impl Fn(MoveOf<G>) -> bool,
    ) {
        self.captures = board.capture_targets(rules);
        self.escapes = BoardOf::escape_squares(rules);
        self.blocks = if self.escape {
            board.escape_paths(rules)
        } else if self.danger_king.is_some() {
            board.king_threat_blocks(rules)
        } else {
            BitboardOf::EMPTY
        };
        self.early = self.captures | self.blocks;
        let dests = &mut self.dests;
        let mut movers = 0;
        board.for_each_piece_moves(rules, |from, to| {
            if movers < MAX_MOVERS {
                dests[movers] = (from, to);
                movers += 1;
            }
        });
        self.movers = movers;
        let killers = histories.killers(self.ply);
        for d in 0..self.movers {
            let (from, to) = self.dests[d];
            let targets = if self.danger_king == Some(from) {
                BitboardOf::FULL
            } else {
                self.early
            };
            for to in to & targets {
                let m = MoveOf::new(from, to);
                if Some(m) != self.tt_move && allow(m) {
                    let score = self.score(board, histories, killers, m);
                    self.push(score, m);
                }
            }
        }
    }

    fn generate_quiets(
        &mut self,
        board: &BoardOf<G>,
        rules: &Rules,
        histories: &Histories<G>,
        allow: &impl Fn(MoveOf<G>) -> bool,
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
            BitboardOf::EMPTY
        };
        let king = board.king();
        let first = self.len;
        for d in 0..self.movers {
            let (from, to) = self.dests[d];
            if self.danger_king == Some(from) {
                continue;
            }
            for to in to - self.early {
                let m = MoveOf::new(from, to);
                if tried.contains(&Some(m)) || !allow(m) {
                    continue;
                }
                let score = if king == Some(from) && self.escapes.has(to) {
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
    fn untried_square(&self, m: MoveOf<G>) -> bool {
        !self.early.has(m.to()) && self.danger_king != Some(m.from())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The size these tests play on.
    type MovePicker = super::MovePicker<konakis_core::geometry::Nine>;
    use konakis_core::Bitboard;
    use konakis_core::board::Board;
    use konakis_core::board::MoveList;
    use konakis_core::types::Move;

    /// The positions along 200 games of pseudo-random moves from the start (the same on each
    /// run) under `rules`.
    fn positions(rules: &Rules) -> Vec<Board> {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut out = Vec::new();
        for _ in 0..200 {
            let mut board = Board::start(rules);
            for _ in 0..120 {
                let moves = board.legal_moves(rules);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                board.play(rules, moves[(seed >> 33) as usize % moves.len()]);
                if board.is_won(rules) {
                    break;
                }
                out.push(board);
            }
        }
        out
    }

    /// The moves `picker` hands out on a quiescence node of `kind`. The picker is first started
    /// on the node and left after one move, as a cut-off leaves it, so that each start is
    /// checked to begin afresh.
    fn handed_out(
        picker: &mut MovePicker,
        board: &Board,
        rules: &Rules,
        kind: Quiescence,
    ) -> Vec<Move> {
        picker.start_quiescence(board, rules, kind);
        picker.next_quiescence(board, rules);
        picker.start_quiescence(board, rules, kind);
        std::iter::from_fn(|| picker.next_quiescence(board, rules)).collect()
    }

    /// `moves` sorted, to compare two lists as sets.
    fn sorted(moves: &[Move]) -> Vec<Move> {
        let mut moves = moves.to_vec();
        moves.sort_by_key(|m| (m.from().index(), m.to().index()));
        moves
    }

    /// Is no move of `moves` that satisfies `first` after one that does not?
    fn grouped(moves: &[Move], first: impl Fn(Move) -> bool) -> bool {
        moves.iter().skip_while(|&&m| first(m)).all(|&m| !first(m))
    }

    #[test]
    fn quiescence_captures_are_every_capture_once_in_generation_order_without_the_unarmed_king() {
        for armed in ["true", "false"] {
            let mut rules = Rules::default();
            rules.set("KingArmed", armed).unwrap();
            let mut picker = MovePicker::new();
            let mut unarmed_king_left_out = 0;
            for board in positions(&rules) {
                let mut expected = MoveList::new();
                board.legal_moves_to(&rules, board.capture_targets(&rules), &mut expected);
                let all = expected.len();
                if armed == "false" && board.side_to_move() == Side::Defenders {
                    expected.retain(|m| Some(m.from()) != board.king());
                    unarmed_king_left_out += all - expected.len();
                }
                let got = handed_out(&mut picker, &board, &rules, Quiescence::Captures);
                assert_eq!(got, expected.to_vec(), "{}", board.to_fen());
            }
            if armed == "false" {
                assert!(unarmed_king_left_out > 0);
            }
        }
    }

    #[test]
    fn quiescence_parries_are_every_parry_once_the_captures_first() {
        let rules = Rules::default();
        let mut picker = MovePicker::new();
        let mut reordered = 0;
        for board in positions(&rules) {
            if board.side_to_move() != Side::Defenders || !board.king_in_danger(&rules) {
                continue;
            }
            let mut parries = MoveList::new();
            board.parries(&rules, &mut parries);
            let got = handed_out(&mut picker, &board, &rules, Quiescence::Parries);
            assert_eq!(sorted(&got), sorted(&parries), "{}", board.to_fen());
            let captures = board.capture_targets(&rules);
            let capture = |m: Move| captures.has(m.to());
            assert!(grouped(&got, capture), "{}", board.to_fen());
            // Each group keeps the order of generation.
            let (first, rest): (Vec<Move>, Vec<Move>) = parries.iter().partition(|&&m| capture(m));
            assert_eq!(got, [first, rest].concat(), "{}", board.to_fen());
            reordered += usize::from(!grouped(&parries, capture));
        }
        // Some nodes generate a capture after another parry.
        assert!(reordered > 0);
    }

    #[test]
    fn quiescence_answers_are_every_block_and_capture_beside_the_king_once_the_edge_first() {
        for rules in [Rules::default(), Rules::ashton()] {
            let mut picker = MovePicker::new();
            let mut reordered = 0;
            for board in positions(&rules) {
                if board.side_to_move() != Side::Attackers
                    || (board.king_moves(&rules) & Bitboard::EDGE).is_empty()
                {
                    continue;
                }
                let king_ring = board.king().map_or(Bitboard::EMPTY, Bitboard::around);
                let targets =
                    board.escape_paths(&rules) | (board.capture_targets(&rules) & king_ring);
                let mut answers = MoveList::new();
                board.legal_moves_to(&rules, targets, &mut answers);
                let got = handed_out(&mut picker, &board, &rules, Quiescence::Answers);
                assert_eq!(sorted(&got), sorted(&answers), "{}", board.to_fen());
                let edge = |m: Move| m.to().is_edge();
                assert!(grouped(&got, edge), "{}", board.to_fen());
                reordered += usize::from(!grouped(&answers, edge));
            }
            // Some nodes generate a move onto the edge after another answer.
            assert!(reordered > 0);
        }
    }
}
