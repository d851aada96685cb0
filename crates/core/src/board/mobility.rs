//! What the evaluation counts of the pieces' moves without generating them: each side's
//! mobility, line by line from the tables, whether the side to move has a move at all, and the
//! squares from which a piece could slide to the edge.

use super::movegen::slide_targets;
use super::tables::{
    EDGE_VIEW, LINE_MOVES, LINE_MOVES_THRONE, LINE_STATES, LINE_TABLE, SPREAD_FILE, TERNARY,
};
use super::{Board, NO_KING, THRONE, bit, bit_t};
use crate::bitboard::Bitboard;
use crate::geometry::{LAST, LINE_MASK, MIDDLE, SIDE};
use crate::rules::Rules;
use crate::types::Side;

impl Board {
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

    /// The number of legal moves of the side to move, counted without generating them; 0 when
    /// the game is already won.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> u32 {
        self.count_moves_in::<true>(rules)
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
    pub(super) fn count_moves_in<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
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
    pub(super) fn count_moves_of_in<const CAMPS: bool>(&self, rules: &Rules, side: Side) -> u32 {
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
}

/// Inner squares with a clear path to an edge square along their rank or file, given the
/// occupancy by ranks and by files (the square itself may be occupied).
#[inline]
fn edge_view_of(occ: u128, occ_t: u128) -> Bitboard {
    let mut view = 0u128;
    for line in 1..LAST {
        let shift = SIDE * line;
        view |= (EDGE_VIEW[(occ >> shift) as usize & LINE_MASK] as u128) << shift;
        view |= SPREAD_FILE[line][EDGE_VIEW[(occ_t >> shift) as usize & LINE_MASK] as usize];
    }
    Bitboard(view & !Bitboard::EDGE.0)
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
pub(super) fn count_line(block: u128, movers: u128, line: usize) -> u32 {
    let shift = SIDE * line;
    let state = line_state(
        TERNARY[(block >> shift) as usize & LINE_MASK],
        TERNARY[(movers >> shift) as usize & LINE_MASK],
    );
    if line == MIDDLE {
        LINE_MOVES_THRONE[state] as u32
    } else {
        LINE_MOVES[state] as u32
    }
}

/// [`count_lines`] for two disjoint sets of movers over the same blockers.
#[inline]
fn count_lines_both(mut block: u128, mut a: u128, mut b: u128) -> (u32, u32) {
    let (mut ca, mut cb) = (0u32, 0u32);
    for line in 0..SIDE {
        let base = TERNARY[block as usize & LINE_MASK];
        let table = if line == MIDDLE {
            &LINE_MOVES_THRONE
        } else {
            &LINE_MOVES
        };
        ca += table[line_state(base, TERNARY[a as usize & LINE_MASK])] as u32;
        cb += table[line_state(base, TERNARY[b as usize & LINE_MASK])] as u32;
        block >>= SIDE;
        a >>= SIDE;
        b >>= SIDE;
    }
    (ca, cb)
}

/// Moves of the pieces `movers` along the nine lines (ranks, or files when given transposed
/// sets) with blockers `block`; the middle line's centre is the throne.
#[inline]
fn count_lines(mut block: u128, mut movers: u128) -> u32 {
    let mut count = 0u32;
    for line in 0..SIDE {
        let m = movers as usize & LINE_MASK;
        if m != 0 {
            let state = line_state(TERNARY[block as usize & LINE_MASK], TERNARY[m]);
            count += if line == MIDDLE {
                LINE_MOVES_THRONE[state]
            } else {
                LINE_MOVES[state]
            } as u32;
        }
        block >>= SIDE;
        movers >>= SIDE;
    }
    count
}
