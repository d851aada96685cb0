//! Legal move generation and move counting.
//!
//! Every move Konakis generates is legal: Tablut has no checks or pins, so a rook-like slide to
//! an empty square that respects the throne rules is a legal move. Generation writes into a
//! fixed-capacity [`MoveList`] and never allocates.

use super::tables::{
    EDGE_VIEW, LINE_MOVES, LINE_MOVES_THRONE, LINE_STATES, LINE_TABLE, SLIDES, SPREAD_FILE,
    TERNARY, TRANSPOSE,
};
use super::{Board, CAMP_OF, CAMP_OF_T, NO_KING, bit, bit_t, camp_walls, fixed_anvils};
use crate::bitboard::Bitboard;
use crate::rules::Rules;
use crate::types::{Move, MoveParseError, Side, Square};
use smallvec::SmallVec;
use std::fmt;

/// An upper bound on the number of legal moves in any position.
///
/// A move ends on an empty square, and each empty square is reached by at most four pieces (the
/// nearest one in each direction), so there are at most `4 × E` moves with `E` empty squares.
/// Each piece reaches at most 16 squares (8 along its rank, 8 along its file), so there are at
/// most `16 × P` moves with `P` pieces of the side to move. With `P + E ≤ 81`,
/// `min(16 P, 4 E) ≤ 259.2`. (The start position has 80.)
pub const MAX_MOVES: usize = 260;

/// The legal moves of a position; it lives on the stack and never spills, since no position
/// has more than [`MAX_MOVES`] moves.
pub type MoveList = SmallVec<[Move; MAX_MOVES]>;

/// The throne's square index (the same in the transposed layout).
const THRONE: usize = Square::THRONE.index();

/// The squares that stop a sliding soldier outside the camps whatever stands on them: the
/// throne if it may not be crossed, and Ashton's camps. (The camps and the throne are symmetric
/// under transposition, so the same mask serves the transposed layout.)
#[inline]
fn soldier_walls(rules: &Rules) -> u128 {
    let throne = if rules.throne_passable {
        0
    } else {
        1u128 << THRONE
    };
    throne | rules.camps().0
}

/// At most this many empty target squares, [`Board::legal_moves_to`] looks from the targets.
const FEW_TARGETS: u32 = 4;

/// The squares along each line from each square, the square left out: north, east (up the
/// square indices), south, west (down them).
static RAYS: [[u128; 81]; 4] = {
    let mut rays = [[0u128; 81]; 4];
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 81 {
            let (mut file, mut rank) = ((sq % 9) as i32, (sq / 9) as i32);
            loop {
                file += steps[d].0;
                rank += steps[d].1;
                if file < 0 || file > 8 || rank < 0 || rank > 8 {
                    break;
                }
                rays[d][sq] |= 1u128 << (rank * 9 + file);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

impl Board {
    /// Blockers for soldiers standing outside the camps, by rank and transposed: the pieces,
    /// plus the walls of [`soldier_walls`].
    #[inline]
    fn soldier_blockers(&self, rules: &Rules) -> (u128, u128) {
        let king = bit(self.king);
        let king_t = bit_t(self.king);
        let walls = soldier_walls(rules);
        (
            self.att | self.def | king | walls,
            self.att_t | self.def_t | king_t | walls,
        )
    }

    /// Blockers for a piece standing on the camp square `from`: those of pieces outside the
    /// camps (`block`, `block_t`), less the empty squares of its own camp, which it may cross
    /// and stop on.
    #[inline]
    fn camp_blockers(&self, from: usize, block: u128, block_t: u128) -> (u128, u128) {
        let occ = self.att | self.def | bit(self.king);
        let occ_t = self.att_t | self.def_t | bit_t(self.king);
        (
            block & !(CAMP_OF[from] & !occ),
            block_t & !(CAMP_OF_T[from] & !occ_t),
        )
    }

    /// The number of moves of the soldiers `movers`, all on camp squares, given the blockers of
    /// pieces outside the camps.
    #[inline]
    fn camp_soldier_moves(&self, movers: u128, block: u128, block_t: u128) -> u32 {
        Bitboard(movers)
            .map(|from| {
                let (b, bt) = self.camp_blockers(from.index(), block, block_t);
                (slide_targets(from, b, bt) & !(1u128 << THRONE)).count_ones()
            })
            .sum()
    }

    /// Calls `f(from, destinations)` for each piece of the side to move that has a move, with
    /// the set of squares it may move to. Nothing is called on a board where the game is won.
    #[inline]
    pub fn for_each_piece_moves(&self, rules: &Rules, f: impl FnMut(Square, Bitboard)) {
        self.for_each_piece_moves_in::<true>(rules, f);
    }

    /// [`Board::for_each_piece_moves`]; with `CAMPS` false it is compiled without the camps,
    /// for rules that have none (see [`Board::count_replies`]).
    #[inline]
    fn for_each_piece_moves_in<const CAMPS: bool>(
        &self,
        rules: &Rules,
        mut f: impl FnMut(Square, Bitboard),
    ) {
        if self.is_won(rules) {
            return;
        }
        let (block, block_t) = self.soldier_blockers(rules);
        let movers = if self.side == Side::Attackers {
            self.att
        } else {
            self.def
        };
        let camps = if CAMPS { rules.camps().0 } else { 0 };
        for from in Bitboard(movers) {
            let dests = if camps >> from.index() & 1 == 0 {
                slide_targets(from, block, block_t)
            } else {
                // Under Ashton, a soldier still in its camp sees its own camp's squares open.
                let (b, bt) = self.camp_blockers(from.index(), block, block_t);
                slide_targets(from, b, bt)
            } & !(1u128 << THRONE);
            if dests != 0 {
                f(from, Bitboard(dests));
            }
        }
        if self.side == Side::Defenders {
            let dests = self.king_targets(rules);
            if dests != 0 {
                f(Square::from_index(self.king as usize), Bitboard(dests));
            }
        }
    }

    /// Whether `mv` is legal here: a fast test for moves from elsewhere (the transposition
    /// table, killers), without messages; [`Board::check_move`] says why a move is not legal.
    #[inline]
    pub fn is_legal(&self, rules: &Rules, mv: Move) -> bool {
        !self.is_won(rules) && self.can_move(rules, mv)
    }

    /// The moves onto the empty squares `targets` (the game not won): from each, the nearest
    /// piece along each line, if it is the side to move's and may make the move.
    fn moves_onto(&self, rules: &Rules, targets: u128, list: &mut MoveList) {
        let occupied = self.occupied().0;
        let movers = match self.side {
            Side::Attackers => self.att,
            Side::Defenders => self.def | bit(self.king),
        };
        // The squares with rules of their own (the throne, Ashton's camps): a soldier's slide
        // that neither crosses nor ends on one, over empty squares, is legal under any rules.
        let special = rules.camps().0 | 1u128 << THRONE;
        for to in Bitboard(targets) {
            for (d, rays) in RAYS.iter().enumerate() {
                let ray = rays[to.index()];
                let on_line = ray & occupied;
                if on_line == 0 {
                    continue;
                }
                // North and east run up the square indices, south and west down.
                let (nearest, between) = if d < 2 {
                    let n = on_line.trailing_zeros();
                    (n, ray & ((1u128 << n) - 1))
                } else {
                    let n = 127 - on_line.leading_zeros();
                    (n, ray & !((2u128 << n) - 1))
                };
                if movers >> nearest & 1 != 0 {
                    let m = Move::new(Square::from_index(nearest as usize), to);
                    let plain = nearest != u32::from(self.king)
                        && (between | 1u128 << to.index()) & special == 0;
                    if plain || self.can_move(rules, m) {
                        list.push(m);
                    }
                }
            }
        }
    }

    /// Whether the piece of the side to move on `mv`'s square may make it (the game not won).
    #[inline]
    fn can_move(&self, rules: &Rules, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let dests = if from.index() == self.king as usize {
            if self.side != Side::Defenders {
                return false;
            }
            self.king_targets(rules)
        } else {
            let own = if self.side == Side::Attackers {
                self.att
            } else {
                self.def
            };
            if own >> from.index() & 1 == 0 {
                return false;
            }
            let (mut block, mut block_t) = self.soldier_blockers(rules);
            if rules.camps().has(from) {
                (block, block_t) = self.camp_blockers(from.index(), block, block_t);
            }
            slide_targets(from, block, block_t) & !(1u128 << THRONE)
        };
        dests >> to.index() & 1 != 0
    }

    /// The squares the king may move to (he is on the board).
    #[inline]
    fn king_targets(&self, rules: &Rules) -> u128 {
        king_targets_among(
            rules,
            Square::from_index(self.king as usize),
            self.att | self.def,
            self.att_t | self.def_t,
        )
    }

    /// The squares the king may move to now (empty when he has been captured), whichever side is
    /// to move.
    #[inline]
    pub fn king_moves(&self, rules: &Rules) -> Bitboard {
        if self.king == NO_KING {
            Bitboard::EMPTY
        } else {
            Bitboard(self.king_targets(rules))
        }
    }

    /// Inner squares from which a piece standing there could slide to an edge square along its
    /// rank or file (the square itself may be occupied).
    pub fn edge_view(&self) -> Bitboard {
        let occ = self.att | self.def | bit(self.king);
        let occ_t = self.att_t | self.def_t | bit_t(self.king);
        edge_view_of(occ, occ_t)
    }

    /// Inner squares from which the king could slide to an edge square along his rank or file
    /// under `rules`: [`Board::edge_view`] with the squares he may neither cross nor enter as
    /// walls (Ashton's camps, and the throne when he may not cross it). The same as
    /// `edge_view` under the default rules.
    pub fn king_edge_view(&self, rules: &Rules) -> Bitboard {
        let mut walls = rules.camps().0;
        if !rules.king_passes_throne() {
            walls |= 1u128 << THRONE;
        }
        if walls == 0 {
            return self.edge_view();
        }
        // Both wall sets are symmetric under transposition, so they serve both layouts.
        debug_assert_eq!(Bitboard(walls).transposed(), Bitboard(walls));
        let occ = self.att | self.def | bit(self.king) | walls;
        let occ_t = self.att_t | self.def_t | bit_t(self.king) | walls;
        edge_view_of(occ, occ_t)
    }

    /// Appends every legal move of the side to move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, rules: &Rules, list: &mut MoveList) {
        self.legal_moves_to(rules, Bitboard::FULL, list);
    }

    /// Appends the legal moves of the side to move that end on a square of `targets`. For a
    /// few targets (captures, blocks) the moves are found from the targets: only the nearest
    /// piece along each of a square's four lines can reach it.
    #[inline]
    pub fn legal_moves_to(&self, rules: &Rules, targets: Bitboard, list: &mut MoveList) {
        let empty_targets = targets.0 & !self.occupied().0;
        if empty_targets.count_ones() <= FEW_TARGETS {
            if empty_targets != 0 && !self.is_won(rules) {
                self.moves_onto(rules, empty_targets, list);
            }
            return;
        }
        self.for_each_piece_moves(rules, |from, dests| {
            // The exact size hint lets `extend` reserve once and write without checks.
            list.extend((dests & targets).map(|to| Move::new(from, to)));
        });
    }

    /// Every legal move of the side to move; none when the game is already won.
    ///
    /// ```
    /// use konakis_core::{Board, Rules};
    /// let rules = Rules::default();
    /// let board = Board::from_fen("9/9/9/9/4K4/9/9/9/b8 w").unwrap();
    /// let moves = board.legal_moves(&rules);
    /// assert_eq!(moves.len(), 16);
    /// assert!(moves.iter().all(|m| m.from().to_string() == "e5"));
    /// assert_eq!(board.count_moves(&rules), 16);
    /// ```
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(rules, &mut list);
        list
    }

    /// The number of legal moves of the side to move, counted without generating them; 0 when
    /// the game is already won.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> u32 {
        self.count_moves_in::<true>(rules)
    }

    /// [`Board::count_moves_in`] as a call: inlined into `count_replies`' move loop it slows
    /// that loop down (Linnaeus perft(5) about 3 % slower in interleaved runs of both builds,
    /// although it runs fewer instructions).
    #[inline(never)]
    fn count_moves_out_of_line<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
        self.count_moves_in::<CAMPS>(rules)
    }

    /// Whether the side to move has a legal move: `count_moves(rules) > 0`, usually decided
    /// without counting. A soldier outside the camps next to an empty square that is neither
    /// the throne nor a camp can step there; only when no soldier can are the moves counted.
    #[inline]
    pub fn has_move(&self, rules: &Rules) -> bool {
        if self.is_won(rules) {
            return false;
        }
        let camps = rules.camps().0;
        let movers = match self.side {
            Side::Attackers => self.att,
            Side::Defenders => self.def,
        } & !camps;
        let free = !(self.att | self.def | bit(self.king) | camps | 1u128 << THRONE);
        if Bitboard(movers).neighbours().0 & free != 0 {
            return true;
        }
        self.count_moves_of_in::<true>(rules, self.side) > 0
    }

    /// [`Board::count_moves`], compiled without the camps when `CAMPS` is false.
    #[inline]
    fn count_moves_in<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
        if self.is_won(rules) {
            return 0;
        }
        self.count_moves_of_in::<CAMPS>(rules, self.side)
    }

    /// The number of moves `side` would have here if it were to move (its mobility), counted
    /// without generating them. Does not look at whether the game is won.
    #[inline]
    pub fn count_moves_of(&self, rules: &Rules, side: Side) -> u32 {
        self.count_moves_of_in::<true>(rules, side)
    }

    /// [`Board::count_moves_of`], compiled without the camps when `CAMPS` is false.
    #[inline]
    fn count_moves_of_in<const CAMPS: bool>(&self, rules: &Rules, side: Side) -> u32 {
        let (block, block_t) = self.soldier_blockers(rules);
        let (movers, movers_t) = match side {
            Side::Attackers => (self.att, self.att_t),
            Side::Defenders => (self.def, self.def_t),
        };
        // The camps are symmetric under transposition: one mask for both layouts.
        let camps = if CAMPS { rules.camps().0 } else { 0 };
        let mut count =
            count_lines(block, movers & !camps) + count_lines(block_t, movers_t & !camps);
        if movers & camps != 0 {
            count += self.camp_soldier_moves(movers & camps, block, block_t);
        }
        if side == Side::Defenders && self.king != NO_KING {
            count += self.king_targets(rules).count_ones();
        }
        count
    }

    /// The mobility of both sides at once, `(attackers, defenders)`: as two calls of
    /// [`Board::count_moves_of`], reading each line's blockers once.
    #[inline]
    pub fn count_moves_both(&self, rules: &Rules) -> (u32, u32) {
        let (att, def) = self.count_soldier_moves_both(rules);
        (att, def + self.king_moves(rules).len())
    }

    /// The soldiers' part of [`Board::count_moves_both`], the king's moves left out: for a
    /// caller that has [`Board::king_moves`] already.
    #[inline]
    pub fn count_soldier_moves_both(&self, rules: &Rules) -> (u32, u32) {
        let (block, block_t) = self.soldier_blockers(rules);
        let camps = rules.camps().0;
        let (mut a1, mut d1) = count_lines_both(block, self.att & !camps, self.def & !camps);
        let (a2, d2) = count_lines_both(block_t, self.att_t & !camps, self.def_t & !camps);
        if (self.att | self.def) & camps != 0 {
            a1 += self.camp_soldier_moves(self.att & camps, block, block_t);
            d1 += self.camp_soldier_moves(self.def & camps, block, block_t);
        }
        (a1 + a2, d1 + d2)
    }

    /// The sum over all legal moves of the number of legal moves after it: perft's last two
    /// plies.
    ///
    /// A move that cannot capture and does not end the game changes only the lines through its
    /// two squares, so the opponent's moves after it are the opponent's per-line counts here with
    /// those (at most three) lines counted again. Other moves are played and counted in full.
    pub(crate) fn count_replies(&self, rules: &Rules) -> u64 {
        // Compiled twice, so that rules without camps run none of the camps' code: with the
        // camp checks in its move loop Linnaeus perft(5) was 3-4 % slower.
        if rules.camps().is_empty() {
            self.count_replies_in::<false>(rules)
        } else {
            self.count_replies_in::<true>(rules)
        }
    }

    /// [`Board::count_replies`], compiled without the camps when `CAMPS` is false.
    fn count_replies_in<const CAMPS: bool>(&self, rules: &Rules) -> u64 {
        if self.is_won(rules) {
            return 0;
        }
        let me = self.side;
        let opp = me.opponent();
        let (block, block_t) = self.soldier_blockers(rules);
        let forced = soldier_walls(rules);
        let camps = if CAMPS { rules.camps().0 } else { 0 };
        // The opponent's soldiers outside the camps, line by line.
        let (om, om_t) = match opp {
            Side::Attackers => (self.att & !camps, self.att_t & !camps),
            Side::Defenders => (self.def & !camps, self.def_t & !camps),
        };
        let mut ranks = [0u32; 9];
        let mut files = [0u32; 9];
        let mut base = 0;
        for line in 0..9 {
            ranks[line] = count_line(block, om, line);
            files[line] = count_line(block_t, om_t, line);
            base += ranks[line] + files[line];
        }
        // Under Ashton, the opponent's soldiers still in a camp see their own camp open: one
        // set of lines per camp.
        let mut in_camps: SmallVec<[LineMobility; 4]> = SmallVec::new();
        if CAMPS {
            let (om, om_t) = match opp {
                Side::Attackers => (self.att & camps, self.att_t & camps),
                Side::Defenders => (self.def & camps, self.def_t & camps),
            };
            for middle in Bitboard::CAMP_MIDDLES {
                let (camp, camp_t) = (CAMP_OF[middle.index()], CAMP_OF_T[middle.index()]);
                if om & camp != 0 {
                    let (b, bt) = self.camp_blockers(middle.index(), block, block_t);
                    let (w, wt) = (forced & !camp, forced & !camp_t);
                    in_camps.push(LineMobility::new(b, bt, w, wt, om & camp, om_t & camp_t));
                }
            }
        }
        // Moves that may capture take the full path, and so do attackers' moves next to the
        // king, who might be taken.
        let near_king = match me {
            Side::Attackers => Bitboard(bit(self.king)).neighbours().0,
            Side::Defenders => 0,
        };
        let captures = self.capture_targets(rules).0 | near_king;
        let king = Square::new(self.king);
        // The king's walls (the throne if he may not cross it, and the camps) and the squares
        // he may stop on, read once from the rules instead of once per move.
        let (camp_w, camp_wt) = match king {
            Some(k) if CAMPS => camp_walls(rules, k.index()),
            _ => (0, 0),
        };
        let throne_w = if rules.king_passes_throne() {
            0
        } else {
            1u128 << THRONE
        };
        let (king_w, king_wt) = (camp_w | throne_w, camp_wt | throne_w);
        let king_stops = if rules.king_reenters_throne {
            !0u128
        } else {
            !(1u128 << THRONE)
        };
        let mut total = 0u64;
        self.for_each_piece_moves_in::<CAMPS>(rules, |from, dests| {
            let is_king = Some(from) == king;
            let full = if rules.encirclement {
                dests.0
            } else if is_king {
                Bitboard::EDGE.0 | if rules.king_armed { captures } else { 0 }
            } else {
                captures
            };
            for to in Bitboard(dests.0 & full) {
                let mut child = *self;
                child.play(rules, Move::new(from, to));
                total += child.count_moves_out_of_line::<CAMPS>(rules) as u64;
            }
            let (fr, ff) = (from.rank() as usize, from.file() as usize);
            let (fb, ft) = (1u128 << from.index(), 1u128 << TRANSPOSE[from.index()]);
            for to in Bitboard(dests.0 & !full) {
                let (tr, tf) = (to.rank() as usize, to.file() as usize);
                let moved = fb | 1u128 << to.index();
                let moved_t = ft | 1u128 << TRANSPOSE[to.index()];
                // Toggling both squares empties the origin and fills the destination; a wall
                // stays a wall whichever of them it is.
                let cb = (block ^ moved) | forced;
                let cbt = (block_t ^ moved_t) | forced;
                let mut n = base - ranks[fr] - files[ff]
                    + count_line(cb, om, fr)
                    + count_line(cbt, om_t, ff);
                if tr != fr {
                    n = n - ranks[tr] + count_line(cb, om, tr);
                }
                if tf != ff {
                    n = n - files[tf] + count_line(cbt, om_t, tf);
                }
                if CAMPS {
                    for camp in &in_camps {
                        n += camp.after(moved, moved_t, (fr, ff), (tr, tf));
                    }
                }
                if let (Side::Defenders, Some(k)) = (opp, king) {
                    let dests = slide_targets(
                        k,
                        (self.att ^ moved) | self.def | king_w,
                        (self.att_t ^ moved_t) | self.def_t | king_wt,
                    );
                    n += (dests & king_stops).count_ones();
                }
                total += n as u64;
            }
        });
        total
    }

    /// The squares where a soldier of the side to move (or the armed king) arriving would
    /// capture at least one enemy soldier. (A king capture is not included.)
    #[inline]
    pub fn capture_targets(&self, rules: &Rules) -> Bitboard {
        let on_throne = self.king as usize == THRONE;
        let me = self.side;
        let throne_anvil = if on_throne {
            me == Side::Attackers && rules.throne_guard_capture
        } else {
            rules.throne_hostile
        };
        let throne = if throne_anvil { 1u128 << THRONE } else { 0 };
        let (enemies, anvils) = match me {
            Side::Attackers => (
                self.def,
                self.att | throne | fixed_anvils(rules, Side::Defenders),
            ),
            Side::Defenders => {
                let armed = if rules.king_armed { bit(self.king) } else { 0 };
                (
                    self.att,
                    self.def | armed | throne | fixed_anvils(rules, Side::Attackers),
                )
            }
        };
        Bitboard(capture_squares(enemies, anvils))
    }

    /// Passes the move to the other side without moving (the search's null move).
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= crate::zobrist::SIDE_KEY;
        self.plies = self.plies.saturating_add(1);
    }

    /// Whether `mv` is legal here; the error says why not.
    ///
    /// ```
    /// use konakis_core::{Board, IllegalReason, Move, Rules};
    /// let rules = Rules::default();
    /// let board = Board::start(&rules);
    /// assert!(board.check_move(&rules, Move::parse("d1d3").unwrap()).is_ok());
    /// let err = board.check_move(&rules, Move::parse("d1d7").unwrap()).unwrap_err();
    /// assert_eq!(err.reason, IllegalReason::Blocked);
    /// assert_eq!(err.to_string(), "d1d7 is not legal: the path is blocked");
    /// ```
    pub fn check_move(&self, rules: &Rules, mv: Move) -> Result<(), IllegalMove> {
        let refuse = |reason| Err(IllegalMove { mv, reason });
        if self.is_won(rules) {
            return refuse(IllegalReason::GameOver);
        }
        let Some(piece) = self.piece_at(mv.from()) else {
            return refuse(IllegalReason::NoPiece);
        };
        if piece.side() != self.side {
            return refuse(IllegalReason::WrongSide(piece.side()));
        }
        let mut dests = Bitboard::EMPTY;
        self.for_each_piece_moves(rules, |from, d| {
            if from == mv.from() {
                dests = d;
            }
        });
        if dests.has(mv.to()) {
            return Ok(());
        }
        refuse(if mv.from() == mv.to() {
            IllegalReason::SameSquare
        } else if self.piece_at(mv.to()).is_some() {
            IllegalReason::Occupied
        } else if mv.to() == Square::THRONE {
            IllegalReason::Throne
        } else if rules.camps().has(mv.to())
            && CAMP_OF[mv.from().index()] >> mv.to().index() & 1 == 0
        {
            IllegalReason::Camp
        } else if mv.from().file() != mv.to().file() && mv.from().rank() != mv.to().rank() {
            IllegalReason::NotStraight
        } else {
            IllegalReason::Blocked
        })
    }

    /// Parses a move (`d1d3` or `d1-d3`) and checks that it is legal here.
    ///
    /// ```
    /// use konakis_core::{Board, MoveError, Rules};
    /// let rules = Rules::default();
    /// let board = Board::start(&rules);
    /// assert_eq!(board.parse_move(&rules, "d1-d3").unwrap().to_string(), "d1d3");
    /// assert!(matches!(board.parse_move(&rules, "d1"), Err(MoveError::Parse(_))));
    /// assert!(matches!(board.parse_move(&rules, "e5e7"), Err(MoveError::Illegal(_))));
    /// ```
    pub fn parse_move(&self, rules: &Rules, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse(text)?;
        self.check_move(rules, mv)?;
        Ok(mv)
    }
}

/// Why a move is not legal on a board, as [`Board::check_move`] judges it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum IllegalReason {
    /// The game has already been won on this board.
    GameOver,
    /// No piece stands on the move's first square.
    NoPiece,
    /// The piece there belongs to the given side, which is not to move.
    WrongSide(Side),
    /// The move starts and ends on the same square.
    SameSquare,
    /// A piece stands on the move's last square.
    Occupied,
    /// The move would stop on the throne, which that piece may not do.
    Throne,
    /// The move would enter a camp square from outside that camp (`Ruleset=Ashton`).
    Camp,
    /// The two squares share neither a rank nor a file.
    NotStraight,
    /// A piece, the throne or a camp stands in the way.
    Blocked,
}

/// A move that [`Board::check_move`] refused, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mv, from, to) = (self.mv, self.mv.from(), self.mv.to());
        write!(f, "{mv} is not legal: ")?;
        match self.reason {
            IllegalReason::GameOver => f.write_str("the game is already over"),
            IllegalReason::NoPiece => write!(f, "no piece on {from}"),
            IllegalReason::WrongSide(owner) => write!(
                f,
                "the piece on {from} belongs to the {owner}, and the {} are to move",
                owner.opponent()
            ),
            IllegalReason::SameSquare => f.write_str("it starts and ends on the same square"),
            IllegalReason::Occupied => write!(f, "{to} is occupied"),
            IllegalReason::Throne => f.write_str("that piece may not stop on the throne"),
            IllegalReason::Camp => f.write_str(
                "only a soldier that starts its move in that camp may enter a camp square",
            ),
            IllegalReason::NotStraight => f.write_str("pieces move along one rank or file"),
            IllegalReason::Blocked => f.write_str("the path is blocked"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why [`Board::parse_move`] refused a text: it is not a move, or not a legal one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text is not a move in `d1d3` or `d1-d3` notation.
    Parse(MoveParseError),
    /// The move is not legal on the board.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveError::Parse(e) => Some(e),
            MoveError::Illegal(e) => Some(e),
        }
    }
}

impl From<MoveParseError> for MoveError {
    fn from(e: MoveParseError) -> MoveError {
        MoveError::Parse(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> MoveError {
        MoveError::Illegal(e)
    }
}

/// Ashton: the opponent's soldiers in one camp, which see the walls of the other camps only,
/// with their moves counted line by line for [`Board::count_replies`] (as it counts the
/// soldiers outside the camps), so that after a quiet move only the (at most four) lines
/// through its two squares are counted again.
struct LineMobility {
    /// Blockers by rank: the pieces and the walls.
    block: u128,
    /// Blockers, transposed.
    block_t: u128,
    /// Squares that block whether or not a piece stands there, by rank.
    walls: u128,
    /// The walls, transposed.
    walls_t: u128,
    movers: u128,
    movers_t: u128,
    ranks: [u32; 9],
    files: [u32; 9],
    total: u32,
}

impl LineMobility {
    #[inline]
    fn new(
        block: u128,
        block_t: u128,
        walls: u128,
        walls_t: u128,
        movers: u128,
        movers_t: u128,
    ) -> LineMobility {
        let mut m = LineMobility {
            block,
            block_t,
            walls,
            walls_t,
            movers,
            movers_t,
            ranks: [0; 9],
            files: [0; 9],
            total: 0,
        };
        for line in 0..9 {
            m.ranks[line] = count_line(block, movers, line);
            m.files[line] = count_line(block_t, movers_t, line);
            m.total += m.ranks[line] + m.files[line];
        }
        m
    }

    /// The movers' number of moves after a move that captures nothing and moves none of them:
    /// `moved` (`moved_t` transposed) holds its two squares, `from` and `to` their (rank,
    /// file). Only the lines through them are counted again.
    #[inline]
    fn after(&self, moved: u128, moved_t: u128, from: (usize, usize), to: (usize, usize)) -> u32 {
        let ((fr, ff), (tr, tf)) = (from, to);
        let cb = (self.block ^ moved) | self.walls;
        let cbt = (self.block_t ^ moved_t) | self.walls_t;
        let mut n = self.total - self.ranks[fr] - self.files[ff]
            + count_line(cb, self.movers, fr)
            + count_line(cbt, self.movers_t, ff);
        if tr != fr {
            n = n - self.ranks[tr] + count_line(cb, self.movers, tr);
        }
        if tf != ff {
            n = n - self.files[tf] + count_line(cbt, self.movers_t, tf);
        }
        n
    }
}

/// The squares from which an enemy soldier lies one step away with an anvil one step beyond
/// Inner squares with a clear path to an edge square along their rank or file, given the
/// occupancy by ranks and by files (the square itself may be occupied).
#[inline]
fn edge_view_of(occ: u128, occ_t: u128) -> Bitboard {
    let mut view = 0u128;
    for line in 1..8 {
        let shift = 9 * line;
        view |= (EDGE_VIEW[(occ >> shift) as usize & 511] as u128) << shift;
        view |= SPREAD_FILE[line][EDGE_VIEW[(occ_t >> shift) as usize & 511] as usize];
    }
    Bitboard(view & !Bitboard::EDGE.0)
}

/// it, in the same direction: where an arriving piece would capture.
#[inline]
fn capture_squares(enemies: u128, anvils: u128) -> u128 {
    const NOT_A: u128 = !Bitboard::FILE_A.0;
    const NOT_I: u128 = !Bitboard::FILE_I.0;
    const ALL: u128 = Bitboard::FULL.0;
    // north: anvil two ranks up
    let north = (enemies & (anvils >> 9)) >> 9;
    let south = ((enemies & (anvils << 9)) << 9) & ALL;
    let east = (enemies & ((anvils & NOT_A) >> 1) & NOT_A) >> 1;
    let west = ((enemies & ((anvils & NOT_I) << 1) & NOT_I) << 1) & ALL;
    north | south | east | west
}

/// The squares a king on `k` may move to, given the soldiers by rank (`soldiers`) and
/// transposed (`soldiers_t`). Under Ashton the camps stop him as they stop soldiers.
#[inline(always)]
fn king_targets_among(rules: &Rules, k: Square, soldiers: u128, soldiers_t: u128) -> u128 {
    let (walls, walls_t) = camp_walls(rules, k.index());
    king_targets_past_throne(rules, k, soldiers | walls, soldiers_t | walls_t)
}

/// [`king_targets_among`] without the camps: `soldiers` (`soldiers_t` transposed) must include
/// any camp walls.
#[inline(always)]
fn king_targets_past_throne(
    rules: &Rules,
    k: Square,
    mut soldiers: u128,
    mut soldiers_t: u128,
) -> u128 {
    if !rules.king_passes_throne() {
        soldiers |= 1 << THRONE;
        soldiers_t |= 1 << THRONE;
    }
    let dests = slide_targets(k, soldiers, soldiers_t);
    if rules.king_reenters_throne {
        dests
    } else {
        dests & !(1u128 << THRONE)
    }
}

/// The empty squares a piece on `from` reaches along its rank and file, given the blockers by
/// rank (`block`) and transposed (`block_t`).
#[inline]
fn slide_targets(from: Square, block: u128, block_t: u128) -> u128 {
    let (f, r) = (from.file() as usize, from.rank() as usize);
    let rank_line = (block >> (9 * r)) as usize & 511;
    let file_line = (block_t >> (9 * f)) as usize & 511;
    let along_rank = (SLIDES[f][rank_line] as u128) << (9 * r);
    let along_file = SPREAD_FILE[f][SLIDES[r][file_line] as usize];
    along_rank | along_file
}

/// The index into [`LINE_MOVES`] of the line state whose blockers read `block_ternary` and
/// whose movers (a subset of the blockers) read `movers_ternary` in base 3 ([`TERNARY`]). The
/// sum is below [`LINE_STATES`]; the mask, which leaves it unchanged, spares the bounds check.
#[inline(always)]
fn line_state(block_ternary: u16, movers_ternary: u16) -> usize {
    let state = block_ternary as usize + movers_ternary as usize;
    debug_assert!(state < LINE_STATES);
    state & (LINE_TABLE - 1)
}

/// Moves of the pieces `movers` along line `line` (a rank, or a file when given transposed
/// sets) with blockers `block`.
#[inline]
fn count_line(block: u128, movers: u128, line: usize) -> u32 {
    let shift = 9 * line;
    let state = line_state(
        TERNARY[(block >> shift) as usize & 511],
        TERNARY[(movers >> shift) as usize & 511],
    );
    if line == 4 {
        LINE_MOVES_THRONE[state] as u32
    } else {
        LINE_MOVES[state] as u32
    }
}

/// [`count_lines`] for two disjoint sets of movers over the same blockers.
#[inline]
fn count_lines_both(mut block: u128, mut a: u128, mut b: u128) -> (u32, u32) {
    let (mut ca, mut cb) = (0u32, 0u32);
    for line in 0..9 {
        let base = TERNARY[block as usize & 511];
        let table = if line == 4 {
            &LINE_MOVES_THRONE
        } else {
            &LINE_MOVES
        };
        ca += table[line_state(base, TERNARY[a as usize & 511])] as u32;
        cb += table[line_state(base, TERNARY[b as usize & 511])] as u32;
        block >>= 9;
        a >>= 9;
        b >>= 9;
    }
    (ca, cb)
}

/// Moves of the pieces `movers` along the nine lines (ranks, or files when given transposed
/// sets) with blockers `block`; the middle line's centre is the throne.
#[inline]
fn count_lines(mut block: u128, mut movers: u128) -> u32 {
    let mut count = 0u32;
    for line in 0..9 {
        let m = movers as usize & 511;
        if m != 0 {
            let state = line_state(TERNARY[block as usize & 511], TERNARY[m]);
            count += if line == 4 {
                LINE_MOVES_THRONE[state]
            } else {
                LINE_MOVES[state]
            } as u32;
        }
        block >>= 9;
        movers >>= 9;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Moves found from a few targets are exactly the legal moves onto them: random games
    /// under every preset, target sets of one to seven squares (empty or not) and the king's
    /// ring, compared with the legal moves filtered.
    #[test]
    fn moves_onto_few_targets_are_the_legal_moves_onto_them() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut compared = 0;
        let mut found = 0;
        for preset in PRESETS {
            let rules = preset.rules();
            for _ in 0..40 {
                let mut board = Board::start(&rules);
                for _ in 0..120 {
                    let all = board.legal_moves(&rules);
                    if all.is_empty() {
                        break;
                    }
                    for size in 1..=8 {
                        let mut targets = Bitboard::EMPTY;
                        for _ in 0..size {
                            targets.set(Square::from_index(rng.random_range(0..81)));
                        }
                        if let Some(k) = board.king().filter(|_| size == 8) {
                            targets = Bitboard::from_square(k).neighbours();
                        }
                        let mut onto = MoveList::new();
                        board.legal_moves_to(&rules, targets, &mut onto);
                        let mut expected: Vec<Move> = all
                            .iter()
                            .copied()
                            .filter(|m| targets.has(m.to()))
                            .collect();
                        let mut onto = onto.to_vec();
                        expected.sort_by_key(|m| m.raw());
                        onto.sort_by_key(|m| m.raw());
                        assert_eq!(onto, expected, "{} {targets:?}", board.to_fen());
                        compared += 1;
                        found += onto.len();
                    }
                    board.play(&rules, all[rng.random_range(0..all.len())]);
                }
            }
        }
        assert!(compared > 10_000 && found > 10_000, "{compared} {found}");
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    #[test]
    fn check_move_names_each_reason_as_a_variant() {
        let rules = Rules::default();
        // a5 attacker, h4 king, c3 and e3 defenders; the defenders to move.
        let b = Board::from_fen("9/9/9/9/b8/7K1/2w1w4/9/9 w").unwrap();
        let c3: Square = "c3".parse().unwrap();
        let cases = [
            (mv("d4d6"), IllegalReason::NoPiece),
            (mv("a5a6"), IllegalReason::WrongSide(Side::Attackers)),
            (mv("c3e3"), IllegalReason::Occupied),
            (mv("c3f3"), IllegalReason::Blocked),
            (mv("e3e5"), IllegalReason::Throne),
            (Move::new(c3, c3), IllegalReason::SameSquare),
            (
                Move::new(c3, "d4".parse().unwrap()),
                IllegalReason::NotStraight,
            ),
        ];
        for (m, reason) in cases {
            assert_eq!(
                b.check_move(&rules, m),
                Err(IllegalMove { mv: m, reason }),
                "{m}"
            );
            let mut after = b;
            assert_eq!(
                after.try_play(&rules, m),
                Err(IllegalMove { mv: m, reason })
            );
            assert_eq!(after, b, "{m}: a refused move changes nothing");
        }
        // A legal move is played by try_play as by play.
        let (mut checked, mut unchecked) = (b, b);
        assert_eq!(
            checked.try_play(&rules, mv("c3c4")),
            Ok(unchecked.play(&rules, mv("c3c4")))
        );
        assert_eq!(checked, unchecked);

        let won = Board::from_fen("9/9/9/9/9/9/9/9/K7b b").unwrap();
        assert_eq!(
            won.check_move(&rules, mv("i1i2")).map_err(|e| e.reason),
            Err(IllegalReason::GameOver)
        );
        let ashton = Rules::ashton();
        let camp = Board::from_fen("9/9/9/9/4K4/9/9/9/2w6 w").unwrap();
        assert_eq!(
            camp.check_move(&ashton, mv("c1d1")).map_err(|e| e.reason),
            Err(IllegalReason::Camp)
        );
        assert_eq!(
            b.parse_move(&rules, "c3-e3"),
            Err(MoveError::Illegal(IllegalMove {
                mv: mv("c3e3"),
                reason: IllegalReason::Occupied
            }))
        );
        assert!(matches!(
            b.parse_move(&rules, "c3-x3"),
            Err(MoveError::Parse(MoveParseError::NotASquare { .. }))
        ));
    }
}
