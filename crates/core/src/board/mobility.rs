//! What the evaluation counts of the pieces' moves without generating them: each side's
//! mobility, line by line from the tables, whether the side to move has a move at all, and the
//! squares from which a piece could slide to the edge.

use super::movegen::slide_targets;
use super::{BoardOf, camps};
use crate::bitboard::BitboardOf;
use crate::geometry::Geometry;
use crate::geometry::SquareSet;
use crate::rules::Rules;
use crate::types::Side;

impl<G: Geometry> BoardOf<G> {
    /// The number of moves of the soldiers `movers`, all on camp squares, given the blockers of
    /// pieces outside the camps.
    #[inline]
    fn camp_soldier_moves(&self, movers: G::Set, block: G::Set, block_t: G::Set) -> u32 {
        BitboardOf::<G>::raw(movers)
            .map(|from| {
                let (b, bt) = self.camp_blockers(from.index(), block, block_t);
                (slide_targets(from, b, bt) & !(G::THRONE_BIT)).count_ones()
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
    #[inline(always)]
    pub fn has_move(&self, rules: &Rules) -> bool {
        if rules.family_rules() {
            return self.family_has_move(rules);
        }
        self.tablut_has_move(rules)
    }

    /// [`BoardOf::has_move`] under the family's rules, out of line.
    #[inline(never)]
    fn family_has_move(&self, rules: &Rules) -> bool {
        !self.family_is_won(rules) && self.family_count_moves_of(rules, self.side) > 0
    }

    /// [`BoardOf::has_move`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    fn tablut_has_move(&self, rules: &Rules) -> bool {
        if self.tablut_is_won(rules) {
            return false;
        }
        let camps = camps::<G>(rules);
        let movers = match self.side {
            Side::Attackers => self.att,
            Side::Defenders => self.def,
        } & !camps;
        let free = !(self.att | self.def | G::bit(self.king as usize) | camps | G::THRONE_BIT);
        if BitboardOf::<G>::raw(movers).neighbours().0 & free != G::Set::ZERO {
            return true;
        }
        self.tablut_count_moves_of_in::<true>(rules, self.side) > 0
    }

    /// [`BoardOf::count_moves`], compiled without the camps when `CAMPS` is false.
    #[inline]
    pub(super) fn count_moves_in<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
        if rules.family_rules() {
            if self.family_is_won(rules) {
                return 0;
            }
            return self.family_count_moves_of(rules, self.side);
        }
        self.tablut_count_moves_in::<CAMPS>(rules)
    }

    /// [`BoardOf::count_moves_in`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_count_moves_in<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
        if self.tablut_is_won(rules) {
            return 0;
        }
        self.tablut_count_moves_of_in::<CAMPS>(rules, self.side)
    }

    /// The number of moves `side` would have here if it were to move (its mobility), counted
    /// without generating them. Does not look at whether the game is won.
    #[inline]
    pub fn count_moves_of(&self, rules: &Rules, side: Side) -> u32 {
        self.count_moves_of_in::<true>(rules, side)
    }

    /// [`BoardOf::count_moves_of`], compiled without the camps when `CAMPS` is false.
    #[inline]
    pub(super) fn count_moves_of_in<const CAMPS: bool>(&self, rules: &Rules, side: Side) -> u32 {
        if rules.family_rules() {
            return self.family_count_moves_of(rules, side);
        }
        self.tablut_count_moves_of_in::<CAMPS>(rules, side)
    }

    /// [`BoardOf::count_moves_of_in`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_count_moves_of_in<const CAMPS: bool>(
        &self,
        rules: &Rules,
        side: Side,
    ) -> u32 {
        let (block, block_t) = self.soldier_blockers(rules);
        let (movers, movers_t) = match side {
            Side::Attackers => (self.att, self.att_t),
            Side::Defenders => (self.def, self.def_t),
        };
        // The camps are symmetric under transposition: one mask for both layouts.
        let camps = if CAMPS {
            camps::<G>(rules)
        } else {
            G::Set::ZERO
        };
        let mut count =
            count_lines::<G>(block, movers & !camps) + count_lines::<G>(block_t, movers_t & !camps);
        if movers & camps != G::Set::ZERO {
            count += self.camp_soldier_moves(movers & camps, block, block_t);
        }
        if side == Side::Defenders && self.king != G::NO_KING {
            count += self.king_targets(rules).count_ones();
        }
        count
    }

    /// The mobility of both sides at once, `(attackers, defenders)`: as two calls of
    /// [`BoardOf::count_moves_of`], reading each line's blockers once.
    #[inline]
    pub fn count_moves_both(&self, rules: &Rules) -> (u32, u32) {
        let (att, def) = self.count_soldier_moves_both(rules);
        (att, def + self.king_moves(rules).len())
    }

    /// The soldiers' part of [`BoardOf::count_moves_both`], the king's moves left out: for a
    /// caller that has [`BoardOf::king_moves`] already.
    #[inline]
    pub fn count_soldier_moves_both(&self, rules: &Rules) -> (u32, u32) {
        if rules.family_rules() {
            let king = self.king_moves(rules).len();
            let defenders = self.family_count_moves_of(rules, Side::Defenders) - king;
            return (
                self.family_count_moves_of(rules, Side::Attackers),
                defenders,
            );
        }
        let (block, block_t) = self.soldier_blockers(rules);
        let camps = camps::<G>(rules);
        let (mut a1, mut d1) = count_lines_both::<G>(block, self.att & !camps, self.def & !camps);
        let (a2, d2) = count_lines_both::<G>(block_t, self.att_t & !camps, self.def_t & !camps);
        if (self.att | self.def) & camps != G::Set::ZERO {
            a1 += self.camp_soldier_moves(self.att & camps, block, block_t);
            d1 += self.camp_soldier_moves(self.def & camps, block, block_t);
        }
        (a1 + a2, d1 + d2)
    }

    /// Inner squares from which a piece standing there could slide to an edge square along its
    /// rank or file (the square itself may be occupied).
    pub fn edge_view(&self) -> BitboardOf<G> {
        let occ = self.att | self.def | G::bit(self.king as usize);
        let occ_t = self.att_t | self.def_t | G::bit_t(self.king as usize);
        edge_view_of(occ, occ_t)
    }

    /// Inner squares from which the king could slide to an edge square along his rank or file
    /// under `rules`: [`BoardOf::edge_view`] with the squares he may neither cross nor enter
    /// as walls (Ashton's camps, and the throne when he may not cross it). The same as
    /// `edge_view` under the default rules.
    pub fn king_edge_view(&self, rules: &Rules) -> BitboardOf<G> {
        let mut walls = camps::<G>(rules);
        if !rules.king_passes_throne() {
            walls |= G::THRONE_BIT;
        }
        if walls == G::Set::ZERO {
            return self.edge_view();
        }
        // Both wall sets are symmetric under transposition, so they serve both layouts.
        debug_assert_eq!(
            BitboardOf::<G>::raw(walls).transposed(),
            BitboardOf::raw(walls)
        );
        let occ = self.att | self.def | G::bit(self.king as usize) | walls;
        let occ_t = self.att_t | self.def_t | G::bit_t(self.king as usize) | walls;
        edge_view_of(occ, occ_t)
    }
}

/// Inner squares with a clear path to an edge square along their rank or file, given the
/// occupancy by ranks and by files (the square itself may be occupied).
#[inline]
fn edge_view_of<G: Geometry>(occ: G::Set, occ_t: G::Set) -> BitboardOf<G> {
    let mut view = G::Set::ZERO;
    for line in 1..G::LAST {
        let shift = G::SIDE * line;
        view |= G::Set::from_line(G::edge_view(occ.line(shift) & G::LINE_MASK) as usize, shift);
        view |= G::spread_file(
            line,
            G::edge_view(occ_t.line(shift) & G::LINE_MASK) as usize,
        );
    }
    BitboardOf::raw(view & !G::EDGE)
}

/// Moves of the pieces `movers` along line `line` (a rank, or a file when given transposed
/// sets) with blockers `block`.
#[inline]
pub(super) fn count_line<G: Geometry>(block: G::Set, movers: G::Set, line: usize) -> u32 {
    let shift = G::SIDE * line;
    G::line_moves(
        block.line(shift) & G::LINE_MASK,
        movers.line(shift) & G::LINE_MASK,
        line == G::MIDDLE,
    )
}

/// [`count_lines`] for two disjoint sets of movers over the same blockers.
#[inline]
fn count_lines_both<G: Geometry>(mut block: G::Set, mut a: G::Set, mut b: G::Set) -> (u32, u32) {
    let (mut ca, mut cb) = (0u32, 0u32);
    for line in 0..G::SIDE {
        let middle = line == G::MIDDLE;
        let base = block.line(0) & G::LINE_MASK;
        ca += G::line_moves(base, a.line(0) & G::LINE_MASK, middle);
        cb += G::line_moves(base, b.line(0) & G::LINE_MASK, middle);
        block >>= G::SIDE;
        a >>= G::SIDE;
        b >>= G::SIDE;
    }
    (ca, cb)
}

/// Moves of the pieces `movers` along every line (ranks, or files when given transposed sets)
/// with blockers `block`; the middle line's centre is the throne.
#[inline]
fn count_lines<G: Geometry>(mut block: G::Set, mut movers: G::Set) -> u32 {
    let mut count = 0u32;
    for line in 0..G::SIDE {
        let m = movers.line(0) & G::LINE_MASK;
        if m != 0 {
            count += G::line_moves(block.line(0) & G::LINE_MASK, m, line == G::MIDDLE);
        }
        block >>= G::SIDE;
        movers >>= G::SIDE;
    }
    count
}
