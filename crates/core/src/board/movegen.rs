//! Legal move generation: every move of the side to move, the moves onto a few squares, the
//! squares each piece reaches and where an arriving piece would capture.
//!
//! Every move Konakis generates is legal: tafl has no checks or pins, so a rook-like slide to
//! an empty square that respects the throne rules is a legal move. Generation writes into a
//! fixed-capacity [`MoveListOf`] and never allocates.

use super::{BoardOf, camp_walls, camps, fixed_anvils};
use crate::bitboard::BitboardOf;
use crate::geometry::SquareSet;
use crate::geometry::{Geometry, Nine};
use crate::rules::Rules;
use crate::types::{MoveOf, Side, SquareOf};
use smallvec::SmallVec;

/// An upper bound on the number of legal moves in any Tablut position.
///
/// A move ends on an empty square, and each empty square is reached by at most four pieces (the
/// nearest one in each direction), so there are at most `4 × E` moves with `E` empty squares.
/// Each piece reaches at most 16 squares (8 along its rank, 8 along its file), so there are at
/// most `16 × P` moves with `P` pieces of the side to move. With `P + E ≤ 81`,
/// `min(16 P, 4 E) ≤ 259.2`. (The start position has 80.) Other sizes: `Geometry::MAX_MOVES`.
pub const MAX_MOVES: usize = <Nine as Geometry>::MAX_MOVES;

/// The legal moves of a position on a board of size `G`; it lives on the stack and never
/// spills, since no position has more than `G::MAX_MOVES` moves.
pub type MoveListOf<G> = SmallVec<<G as Geometry>::Moves<MoveOf<G>>>;

/// The legal moves of a Tablut position ([`MAX_MOVES`] at most).
pub type MoveList = MoveListOf<Nine>;

/// The squares that stop a sliding soldier outside the camps whatever stands on them: the
/// throne if it may not be crossed, and Ashton's camps. (The camps and the throne are symmetric
/// under transposition, so the same mask serves the transposed layout.)
#[inline]
pub(super) fn soldier_walls<G: Geometry>(rules: &Rules) -> G::Set {
    let throne = if rules.throne_passable {
        G::Set::ZERO
    } else {
        G::THRONE_BIT
    };
    throne | camps::<G>(rules)
}

/// At most this many empty target squares, [`BoardOf::legal_moves_to`] looks from the targets.
const FEW_TARGETS: u32 = 4;

impl<G: Geometry> BoardOf<G> {
    /// Blockers for soldiers standing outside the camps, by rank and transposed: the pieces,
    /// plus the walls of [`soldier_walls`].
    #[inline]
    pub(super) fn soldier_blockers(&self, rules: &Rules) -> (G::Set, G::Set) {
        let king = G::bit(self.king as usize);
        let king_t = G::bit_t(self.king as usize);
        let walls = soldier_walls::<G>(rules);
        (
            self.att | self.def | king | walls,
            self.att_t | self.def_t | king_t | walls,
        )
    }

    /// Blockers for a piece standing on the camp square `from`: those of pieces outside the
    /// camps (`block`, `block_t`), less the empty squares of its own camp, which it may cross
    /// and stop on.
    #[inline]
    pub(super) fn camp_blockers(
        &self,
        from: usize,
        block: G::Set,
        block_t: G::Set,
    ) -> (G::Set, G::Set) {
        let occ = self.att | self.def | G::bit(self.king as usize);
        let occ_t = self.att_t | self.def_t | G::bit_t(self.king as usize);
        (
            block & !(G::camp_of(from) & !occ),
            block_t & !(G::camp_of_t(from) & !occ_t),
        )
    }

    /// Calls `f(from, destinations)` for each piece of the side to move that has a move, with
    /// the set of squares it may move to. Nothing is called on a board where the game is won.
    #[inline]
    pub fn for_each_piece_moves(&self, rules: &Rules, f: impl FnMut(SquareOf<G>, BitboardOf<G>)) {
        self.for_each_piece_moves_in::<true>(rules, f);
    }

    /// [`BoardOf::for_each_piece_moves`]; with `CAMPS` false it is compiled without the camps,
    /// for rules that have none (see [`BoardOf::count_replies`]).
    #[inline]
    pub(super) fn for_each_piece_moves_in<const CAMPS: bool>(
        &self,
        rules: &Rules,
        mut f: impl FnMut(SquareOf<G>, BitboardOf<G>),
    ) {
        if rules.family_rules() {
            if self.family_is_won(rules) {
                return;
            }
            let movers = match self.side {
                Side::Attackers => self.att,
                Side::Defenders => self.def | G::bit(self.king as usize),
            };
            for from in BitboardOf::<G>::raw(movers) {
                let dests = self.family_dests(rules, from.index());
                if dests != G::Set::ZERO {
                    f(from, BitboardOf::raw(dests));
                }
            }
            return;
        }
        self.tablut_for_each_piece_moves_in::<CAMPS>(rules, f);
    }

    /// [`BoardOf::for_each_piece_moves_in`] under Tablut's rules (not
    /// [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_for_each_piece_moves_in<const CAMPS: bool>(
        &self,
        rules: &Rules,
        mut f: impl FnMut(SquareOf<G>, BitboardOf<G>),
    ) {
        if self.tablut_is_won(rules) {
            return;
        }
        let (block, block_t) = self.soldier_blockers(rules);
        let movers = if self.side == Side::Attackers {
            self.att
        } else {
            self.def
        };
        let camps = if CAMPS {
            camps::<G>(rules)
        } else {
            G::Set::ZERO
        };
        for from in BitboardOf::<G>::raw(movers) {
            let dests = if !camps.has(from.index()) {
                slide_targets(from, block, block_t)
            } else {
                // Under Ashton, a soldier still in its camp sees its own camp's squares open.
                let (b, bt) = self.camp_blockers(from.index(), block, block_t);
                slide_targets(from, b, bt)
            } & !(G::THRONE_BIT);
            if dests != G::Set::ZERO {
                f(from, BitboardOf::raw(dests));
            }
        }
        if self.side == Side::Defenders {
            let dests = self.king_targets(rules);
            if dests != G::Set::ZERO {
                f(
                    SquareOf::from_index(self.king as usize),
                    BitboardOf::raw(dests),
                );
            }
        }
    }

    /// The moves onto the empty squares `targets` (the game not won): from each, the nearest
    /// piece along each line, if it is the side to move's and may make the move.
    #[inline(always)]
    fn moves_onto(&self, rules: &Rules, targets: G::Set, list: &mut MoveListOf<G>) {
        let occupied = self.occupied().0;
        let movers = match self.side {
            Side::Attackers => self.att,
            Side::Defenders => self.def | G::bit(self.king as usize),
        };
        // The squares with rules of their own (the throne, Ashton's camps): a soldier's slide
        // that neither crosses nor ends on one, over empty squares, is legal under any rules.
        let special = camps::<G>(rules) | G::THRONE_BIT;
        for to in BitboardOf::<G>::raw(targets) {
            for d in 0..4 {
                let ray = G::ray(d, to.index());
                let on_line = ray & occupied;
                if on_line == G::Set::ZERO {
                    continue;
                }
                // North and east run up the square indices, south and west down.
                let (nearest, between) = if d < 2 {
                    let n = on_line.trailing_zeros();
                    (n, ray & G::Set::below(n as usize))
                } else {
                    let n = on_line.highest();
                    (n, ray & !G::Set::below(n as usize + 1))
                };
                if movers.has(nearest as usize) {
                    let m = MoveOf::new(SquareOf::from_index(nearest as usize), to);
                    let plain = nearest != u32::from(self.king)
                        && (between | G::Set::bit(to.index())) & special == G::Set::ZERO;
                    if plain || self.can_move(rules, m) {
                        list.push(m);
                    }
                }
            }
        }
    }

    /// Whether the piece of the side to move on `mv`'s square may make it (the game not won).
    #[inline]
    pub(super) fn can_move(&self, rules: &Rules, mv: MoveOf<G>) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if rules.family_rules() {
            let own = match self.side {
                Side::Attackers => self.att,
                Side::Defenders => self.def | G::bit(self.king as usize),
            };
            return own.has(from.index()) && self.family_dests(rules, from.index()).has(to.index());
        }
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
            if !own.has(from.index()) {
                return false;
            }
            let (mut block, mut block_t) = self.soldier_blockers(rules);
            if camps::<G>(rules).has(from.index()) {
                (block, block_t) = self.camp_blockers(from.index(), block, block_t);
            }
            slide_targets(from, block, block_t) & !(G::THRONE_BIT)
        };
        dests.has(to.index())
    }

    /// The squares the king may move to (he is on the board).
    /// Under Tablut's rules only: the family's callers ask [`BoardOf::family_dests`].
    #[inline]
    pub(super) fn king_targets(&self, rules: &Rules) -> G::Set {
        king_targets_among(
            rules,
            SquareOf::<G>::from_index(self.king as usize),
            self.att | self.def,
            self.att_t | self.def_t,
        )
    }

    /// The squares the king may move to now (empty when he has been captured), whichever side is
    /// to move. Always inlined: the search asks it at every node, and with the family's call
    /// beside Tablut's body the compiler stopped inlining it (3.4 % more instructions a node).
    #[inline(always)]
    pub fn king_moves(&self, rules: &Rules) -> BitboardOf<G> {
        if self.king == G::NO_KING {
            BitboardOf::EMPTY
        } else if rules.family_rules() {
            BitboardOf::raw(self.family_dests(rules, self.king as usize))
        } else {
            BitboardOf::raw(self.king_targets(rules))
        }
    }

    /// Appends every legal move of the side to move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, rules: &Rules, list: &mut MoveListOf<G>) {
        self.legal_moves_to(rules, BitboardOf::FULL, list);
    }

    /// Appends the legal moves of the side to move that end on a square of `targets`. For a
    /// few targets (captures, blocks) the moves are found from the targets: only the nearest
    /// piece along each of a square's four lines can reach it.
    #[inline(always)]
    pub fn legal_moves_to(&self, rules: &Rules, targets: BitboardOf<G>, list: &mut MoveListOf<G>) {
        if rules.family_rules() {
            return self.family_legal_moves_to(rules, targets, list);
        }
        self.tablut_legal_moves_to(rules, targets, list)
    }

    /// [`BoardOf::legal_moves_to`] under the family's rules, out of line.
    #[inline(never)]
    fn family_legal_moves_to(
        &self,
        rules: &Rules,
        targets: BitboardOf<G>,
        list: &mut MoveListOf<G>,
    ) {
        self.for_each_piece_moves(rules, |from, dests| {
            list.extend((dests & targets).map(|to| MoveOf::new(from, to)));
        });
    }

    /// [`BoardOf::legal_moves_to`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    fn tablut_legal_moves_to(
        &self,
        rules: &Rules,
        targets: BitboardOf<G>,
        list: &mut MoveListOf<G>,
    ) {
        let empty_targets = targets.0 & !self.occupied().0;
        if empty_targets.count_ones() <= FEW_TARGETS {
            if empty_targets != G::Set::ZERO && !self.tablut_is_won(rules) {
                self.moves_onto(rules, empty_targets, list);
            }
            return;
        }
        self.tablut_for_each_piece_moves_in::<true>(rules, |from, dests| {
            // The exact size hint lets `extend` reserve once and write without checks.
            list.extend((dests & targets).map(|to| MoveOf::new(from, to)));
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
    pub fn legal_moves(&self, rules: &Rules) -> MoveListOf<G> {
        let mut list = MoveListOf::<G>::new();
        self.legal_moves_into(rules, &mut list);
        list
    }

    /// The squares where a soldier of the side to move (or the armed king) arriving would
    /// capture at least one enemy soldier. (A king capture is not included.)
    #[inline]
    pub fn capture_targets(&self, rules: &Rules) -> BitboardOf<G> {
        if rules.family_rules() {
            return BitboardOf::raw(self.family_capture_targets(rules));
        }
        self.tablut_capture_targets(rules)
    }

    /// [`BoardOf::capture_targets`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_capture_targets(&self, rules: &Rules) -> BitboardOf<G> {
        let on_throne = self.king as usize == G::THRONE;
        let me = self.side;
        let throne_anvil = if on_throne {
            me == Side::Attackers && rules.throne_guard_capture
        } else {
            rules.throne_hostile
        };
        let throne = if throne_anvil {
            G::THRONE_BIT
        } else {
            G::Set::ZERO
        };
        let (enemies, anvils) = match me {
            Side::Attackers => (
                self.def,
                self.att | throne | fixed_anvils::<G>(rules, Side::Defenders),
            ),
            Side::Defenders => {
                let armed = if rules.king_armed {
                    G::bit(self.king as usize)
                } else {
                    G::Set::ZERO
                };
                (
                    self.att,
                    self.def | armed | throne | fixed_anvils::<G>(rules, Side::Attackers),
                )
            }
        };
        BitboardOf::raw(capture_squares::<G>(enemies, anvils))
    }
}

/// The squares from which an enemy soldier lies one step away with an anvil one step beyond
/// it, in the same direction: where an arriving piece would capture.
#[inline]
fn capture_squares<G: Geometry>(enemies: G::Set, anvils: G::Set) -> G::Set {
    let not_a: G::Set = !G::FILE_A;
    let not_last: G::Set = !G::FILE_LAST;
    let all: G::Set = G::ALL;
    // north: anvil two ranks up
    let north = (enemies & (anvils >> G::SIDE)) >> G::SIDE;
    let south = ((enemies & (anvils << G::SIDE)) << G::SIDE) & all;
    let east = (enemies & ((anvils & not_a) >> 1) & not_a) >> 1;
    let west = ((enemies & ((anvils & not_last) << 1) & not_last) << 1) & all;
    north | south | east | west
}

/// The squares a king on `k` may move to, given the soldiers by rank (`soldiers`) and
/// transposed (`soldiers_t`). Under Ashton the camps stop him as they stop soldiers.
#[inline(always)]
fn king_targets_among<G: Geometry>(
    rules: &Rules,
    k: SquareOf<G>,
    soldiers: G::Set,
    soldiers_t: G::Set,
) -> G::Set {
    let (walls, walls_t) = camp_walls::<G>(rules, k.index());
    king_targets_past_throne(rules, k, soldiers | walls, soldiers_t | walls_t)
}

/// [`king_targets_among`] without the camps: `soldiers` (`soldiers_t` transposed) must include
/// any camp walls.
#[inline(always)]
fn king_targets_past_throne<G: Geometry>(
    rules: &Rules,
    k: SquareOf<G>,
    mut soldiers: G::Set,
    mut soldiers_t: G::Set,
) -> G::Set {
    if !rules.king_passes_throne() {
        soldiers |= G::Set::bit(G::THRONE);
        soldiers_t |= G::Set::bit(G::THRONE);
    }
    let dests = slide_targets(k, soldiers, soldiers_t);
    if rules.king_reenters_throne {
        dests
    } else {
        dests & !(G::THRONE_BIT)
    }
}

/// The empty squares a piece on `from` reaches along its rank and file, given the blockers by
/// rank (`block`) and transposed (`block_t`).
#[inline]
pub(super) fn slide_targets<G: Geometry>(
    from: SquareOf<G>,
    block: G::Set,
    block_t: G::Set,
) -> G::Set {
    let (f, r) = (from.file() as usize, from.rank() as usize);
    let rank_line = block.line(G::SIDE * r) & G::LINE_MASK;
    let file_line = block_t.line(G::SIDE * f) & G::LINE_MASK;
    let along_rank = G::Set::from_line(G::slides(f, rank_line) as usize, G::SIDE * r);
    let along_file = G::spread_file(f, G::slides(r, file_line) as usize);
    along_rank | along_file
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::board::Board;
    use crate::geometry::SQUARES;
    use crate::rules::PRESETS;
    use crate::types::{Move, Square};
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
                            targets.set(Square::from_index(rng.random_range(0..SQUARES)));
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
}
