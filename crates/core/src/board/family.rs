//! The rules of the wider tafl family on a board of any size: corner escape and the corners'
//! hostility, a board without a throne, the king captures of the family's hosts, the
//! shieldwall, the exit fort, enclosure and the one-square king ([`Rules::family_rules`];
//! docs/rules.md, "Boards of the tafl family").
//!
//! Tablut's rules never come here: the board's other modules keep Tablut's code paths, and each
//! of their entry points that a family rule changes asks [`Rules::family_rules`] once and hands
//! over to this module. The code here favours plainness over speed: a move's destinations are
//! its slides less the squares it may not stop on, and counts are those destinations' sizes.

use super::BoardOf;
use crate::bitboard::BitboardOf;
use crate::geometry::SquareSet;
use crate::geometry::{Geometry, MovedSet};
use crate::rules::{Escape, ExitFort, KingCapture, Rules, Shieldwall};
use crate::types::{Piece, Side, SquareOf};
use crate::zobrist;
use smallvec::SmallVec;

use super::movegen::slide_targets;

/// The squares only the king may stop on: the throne (when there is one) and the corners
/// (with corner escape).
#[inline]
pub(super) fn restricted<G: Geometry>(rules: &Rules) -> G::Set {
    let throne = if rules.throne {
        G::THRONE_BIT
    } else {
        G::Set::ZERO
    };
    let corners = match rules.escape {
        Escape::Corner => G::CORNERS,
        Escape::Edge => G::Set::ZERO,
    };
    throne | corners
}

/// The squares where the king has escaped.
#[inline]
fn escape_squares<G: Geometry>(rules: &Rules) -> G::Set {
    match rules.escape {
        Escape::Corner => G::CORNERS,
        Escape::Edge => G::EDGE,
    }
}

/// The hostile corners (empty by the rules: only the king stops there, and there he has won).
#[inline]
fn hostile_corners<G: Geometry>(rules: &Rules) -> G::Set {
    if rules.escape == Escape::Corner && rules.corners_hostile {
        G::CORNERS
    } else {
        G::Set::ZERO
    }
}

/// The throne's square, when the board has a throne.
#[inline]
fn throne_square<G: Geometry>(rules: &Rules) -> G::Set {
    if rules.throne {
        G::THRONE_BIT
    } else {
        G::Set::ZERO
    }
}

/// The squares Foteviken's camps wall off for a piece moving from `from`: every camp, unless
/// it starts on one (the camps are symmetric under transposition, so one mask serves both
/// layouts).
#[inline]
fn camp_walls<G: Geometry>(rules: &Rules, from: usize) -> G::Set {
    if rules.foteviken_camps && !G::CAMPS.has(from) {
        G::CAMPS
    } else {
        G::Set::ZERO
    }
}

/// The squares next to the squares `bits`.
#[inline]
fn neighbours<G: Geometry>(bits: G::Set) -> G::Set {
    BitboardOf::<G>::raw(bits).neighbours().0
}

/// The squares next to `bits` along the files (above and below).
#[inline]
fn vertical_neighbours<G: Geometry>(bits: G::Set) -> G::Set {
    ((bits << G::SIDE) | (bits >> G::SIDE)) & G::ALL
}

/// The squares next to `bits` along the ranks (left and right).
#[inline]
fn horizontal_neighbours<G: Geometry>(bits: G::Set) -> G::Set {
    ((bits & !G::FILE_LAST) << 1) | ((bits & !G::FILE_A) >> 1)
}

/// The squares of `from` whose set grows through `through` (orthogonally), `from` included.
#[inline]
fn flood<G: Geometry>(from: G::Set, through: G::Set) -> G::Set {
    let mut reach = from;
    loop {
        let next = reach | (neighbours::<G>(reach) & through);
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// One edge of the board for the shieldwall: its squares in order along it, and the step from
/// an edge square to the square inside it.
struct Edge {
    first: usize,
    step: usize,
    inward: isize,
}

impl<G: Geometry> BoardOf<G> {
    /// The squares the piece on `from` (of the side to move, or the king) may move to under
    /// family rules, the game not won.
    #[inline(never)]
    pub(super) fn family_dests(&self, rules: &Rules, from: usize) -> G::Set {
        let pieces = self.att | self.def;
        let pieces_t = self.att_t | self.def_t;
        if from == self.king as usize {
            self.king_moves_from(rules, from, pieces, pieces_t)
        } else {
            let sq = SquareOf::<G>::from_index(from);
            let king = G::bit(self.king as usize);
            let king_t = G::bit_t(self.king as usize);
            let walls = camp_walls::<G>(rules, from)
                | if rules.throne_passable {
                    G::Set::ZERO
                } else {
                    throne_square::<G>(rules)
                };
            slide_targets(sq, pieces | king | walls, pieces_t | king_t | walls)
                & !restricted::<G>(rules)
        }
    }

    /// The number of moves `side` would have here under family rules (the game not judged).
    #[inline(never)]
    pub(super) fn family_count_moves_of(&self, rules: &Rules, side: Side) -> u32 {
        let movers = match side {
            Side::Attackers => self.att,
            Side::Defenders => self.def | G::bit(self.king as usize),
        };
        let mut count = 0;
        for from in crate::bitboard::BitboardOf::<G>::raw(movers) {
            count += self.family_dests(rules, from.index()).count_ones();
        }
        count
    }

    /// Whether the game is won on this board under family rules: the king escaped or captured,
    /// an exit fort, enclosure or encirclement.
    #[inline(never)]
    pub(super) fn family_is_won(&self, rules: &Rules) -> bool {
        self.king == G::NO_KING
            || escape_squares::<G>(rules) & G::bit(self.king as usize) != G::Set::ZERO
            || self.family_end(rules).is_some()
    }

    /// The win decided by the fort and surround rules, if any: the defenders' exit fort, or the
    /// attackers' enclosure or encirclement (the king neither escaped nor captured).
    pub(super) fn family_end(&self, rules: &Rules) -> Option<(Side, super::WinReason)> {
        use super::WinReason;
        if rules.exit_fort != ExitFort::None && self.has_exit_fort(rules) {
            return Some((Side::Defenders, WinReason::ExitFort));
        }
        if (rules.enclosure && self.is_enclosed()) || (rules.encirclement && self.is_encircled()) {
            return Some((Side::Attackers, WinReason::Encircled));
        }
        None
    }

    /// Whether the king and every defender are enclosed: the squares the king reaches through
    /// empty squares and defenders touch no edge square, and hold every defender.
    pub fn is_enclosed(&self) -> bool {
        let king = G::bit(self.king as usize);
        if king == G::Set::ZERO {
            return false;
        }
        let region = flood::<G>(king, G::ALL & !self.att);
        region & G::EDGE == G::Set::ZERO && self.def & !region == G::Set::ZERO
    }

    /// Whether the king sits in an exit fort under `rules.exit_fort` (hnefatafl.org's test):
    /// he stands on the edge ([`ExitFort::OnEdge`]; with [`ExitFort::ReachesEdge`] his side of
    /// the fort may reach it instead) and can move; the empty squares he reaches border no
    /// attacker; and every defender of the fort's wall, the king included, is covered against a
    /// capture from inside the fort: a defender with an inside square above or below it has a
    /// defender or the board's end on its left or right, and one with an inside square beside
    /// it has one above or below (unless the attackers have fewer than two pieces).
    pub fn has_exit_fort(&self, rules: &Rules) -> bool {
        if rules.exit_fort == ExitFort::ReachesEdge {
            return self.opentafl_edge_fort(rules);
        }
        let king = G::bit(self.king as usize);
        if king == G::Set::ZERO
            || (rules.exit_fort == ExitFort::OnEdge && king & G::EDGE == G::Set::ZERO)
        {
            return false;
        }
        if self.family_dests(rules, self.king as usize) == G::Set::ZERO {
            return false;
        }
        let empty = G::ALL & !(self.att | self.def | king);
        let region = flood::<G>(G::around(self.king as usize) & empty, empty);
        let inside = region | king;
        if neighbours::<G>(inside) & self.att != G::Set::ZERO {
            return false;
        }
        if self.att.count_ones() < 2 {
            return true;
        }
        let wall = self.def | king;
        let by_files = (self.def & vertical_neighbours::<G>(inside))
            | (king & vertical_neighbours::<G>(region));
        let by_ranks = (self.def & horizontal_neighbours::<G>(inside))
            | (king & horizontal_neighbours::<G>(region));
        let covered_on_rank =
            ((wall & !G::FILE_LAST) << 1) | ((wall & !G::FILE_A) >> 1) | G::FILE_A | G::FILE_LAST;
        let covered_on_file =
            ((wall << G::SIDE) & G::ALL) | (wall >> G::SIDE) | G::RANK_FIRST | G::RANK_LAST;
        (by_files & !covered_on_rank) | (by_ranks & !covered_on_file) == G::Set::ZERO
    }

    /// OpenTafl 0.4.8's edge fort ([`ExitFort::ReachesEdge`]), as its code judges it
    /// (`GameState.checkVictory` and `checkEdgeFortEscape`), after every move and of a position
    /// set up:
    /// - the king, able to move, stands among the squares of a row that the defenders' scan of
    ///   the edges finds (the scan of the shieldwall, [`OpenTaflRows`], the king and the
    ///   defenders as its side, the corners as brackets under a strong shieldwall), when the
    ///   defenders (the king counted) and the attackers each have two pieces on the edges; or
    /// - the fort: the squares the king reaches by his moves, one after another from where he
    ///   stands (each move read on the board as it is, the king still on his square), his own
    ///   included. He stands on the edge and can move, or reaches an edge square; no attacker
    ///   is next to a square of the fort; and every piece next to one (the king too) has fewer
    ///   than three neighbouring squares that are neither the fort's nor a defender's.
    fn opentafl_edge_fort(&self, rules: &Rules) -> bool {
        let k = self.king as usize;
        let king = G::bit(k);
        if king == G::Set::ZERO {
            return false;
        }
        let moves = self.family_dests(rules, k);
        let defenders = self.def | king;
        if moves != G::Set::ZERO
            && (self.att & G::EDGE).count_ones() >= 2
            && (defenders & G::EDGE).count_ones() >= 2
        {
            let corners = opentafl_row_corners::<G>(rules);
            let rows = OpenTaflRows::<G>::scan(defenders, king, corners);
            if rows.found.iter().any(|&r| rows.lists[r].squares.has(k)) {
                return true;
            }
        }
        // The fort: every square the king reaches, move after move.
        let mut fort = king | moves;
        let mut frontier = moves;
        while frontier != G::Set::ZERO {
            let mut next = G::Set::ZERO;
            for sq in BitboardOf::<G>::raw(frontier) {
                next |= self.king_dests_from(rules, sq.index()) & !fort;
            }
            fort |= next;
            frontier = next;
        }
        if G::EDGE.has(k) {
            if moves == G::Set::ZERO {
                return false;
            }
        } else if fort & G::EDGE == G::Set::ZERO {
            return false;
        }
        let wall = neighbours::<G>(fort);
        if wall & self.att != G::Set::ZERO {
            return false;
        }
        for piece in BitboardOf::<G>::raw(wall & defenders) {
            let outside = G::around(piece.index()) & !fort;
            if (outside & !defenders).count_ones() >= 3 {
                return false;
            }
        }
        true
    }

    /// The squares the king would move to from `from` (not his square), the board as it is:
    /// his own square blocks as any piece does (OpenTafl's `getAllowableDestinationsFrom`).
    fn king_dests_from(&self, rules: &Rules, from: usize) -> G::Set {
        let king = G::bit(self.king as usize);
        let king_t = G::bit_t(self.king as usize);
        let occupied = self.att | self.def | king;
        let occupied_t = self.att_t | self.def_t | king_t;
        self.king_moves_from(rules, from, occupied, occupied_t)
    }

    /// The king's moves from `from` under family rules among the pieces `occupied` (and
    /// `occupied_t`, the same squares in the transposed layout): Foteviken's camps wall him in
    /// unless he starts on one, the throne when he may not pass it, and he may not stop on it
    /// when he may not re-enter it, nor go further than one square in Magpie.
    fn king_moves_from(
        &self,
        rules: &Rules,
        from: usize,
        occupied: G::Set,
        occupied_t: G::Set,
    ) -> G::Set {
        let throne = throne_square::<G>(rules);
        let walls = camp_walls::<G>(rules, from)
            | if rules.king_passes_throne() {
                G::Set::ZERO
            } else {
                throne
            };
        let sq = SquareOf::<G>::from_index(from);
        let mut dests = slide_targets(sq, occupied | walls, occupied_t | walls);
        if !rules.king_reenters_throne {
            dests &= !throne;
        }
        if rules.king_moves_one_square {
            dests &= G::around(from);
        }
        dests
    }

    /// The squares where enemy soldiers of `victims` are captured against (besides the
    /// capturing side's pieces) under family rules: the hostile corners, and the throne when
    /// hostile to them (empty and `ThroneHostile`; occupied by the king, the guard rule of
    /// `ThroneGuardCapture` against defenders, seen by the caller).
    #[inline]
    fn family_anvils(&self, rules: &Rules, victims: Side, to: usize) -> G::Set {
        let throne = if !rules.throne {
            false
        } else if self.king as usize == G::THRONE {
            // The besieged king is the anvil against his last guard (rule 10); against
            // attackers the armed king is a partner as a piece.
            victims == Side::Defenders && rules.throne_guard_capture && {
                let guard = G::bit((to + G::THRONE) / 2);
                let others = G::THRONE_RING & !guard;
                self.att & others == others
            }
        } else {
            rules.throne_hostile
        };
        hostile_corners::<G>(rules) | if throne { G::THRONE_BIT } else { G::Set::ZERO }
    }

    /// Where a soldier of the side to move (or the armed king) arriving would capture an enemy
    /// soldier by custodial capture, under family rules.
    #[inline(never)]
    pub(super) fn family_capture_targets(&self, rules: &Rules) -> G::Set {
        let mut targets = G::Set::ZERO;
        let empty = G::ALL & !(self.att | self.def | G::bit(self.king as usize));
        for to in crate::bitboard::BitboardOf::<G>::raw(empty) {
            let (victims, partners) = self.custodial_parts(rules, to.index());
            if super::flanked::<G>(to.index(), partners) & victims != G::Set::ZERO {
                targets |= G::Set::bit(to.index());
            }
        }
        targets
    }

    /// For a piece of the side to move arriving on `to`: the enemy soldiers and the squares
    /// they are captured against.
    #[inline]
    fn custodial_parts(&self, rules: &Rules, to: usize) -> (G::Set, G::Set) {
        match self.side {
            Side::Attackers => (
                self.def,
                self.att | self.family_anvils(rules, Side::Defenders, to),
            ),
            Side::Defenders => {
                let armed = if rules.king_armed {
                    G::bit(self.king as usize)
                } else {
                    G::Set::ZERO
                };
                (
                    self.att,
                    self.def | armed | self.family_anvils(rules, Side::Attackers, to),
                )
            }
        }
    }

    /// [`BoardOf::play`] under family rules.
    #[inline(never)]
    pub(super) fn family_play(&mut self, rules: &Rules, from: usize, to: usize) -> G::Set {
        let side = self.side;
        let mut hash = self.hash ^ G::SIDE_KEY;
        let (fb, tb) = (G::bit(from), G::bit(to));
        let (ft, tt) = (G::bit_t(from), G::bit_t(to));
        let is_king = from == self.king as usize;
        // Whether the mover had moved before: OpenTafl's flanking shieldwall asks, and only
        // under it does the board keep the pieces that have moved.
        let keep_moved = G::Moved::KEPT && rules.shieldwall.needs_moved_pieces();
        let moved = self.moved.squares();
        let moved_before = moved.has(from);
        if keep_moved {
            self.moved.set_squares((moved & !fb) | tb);
        }
        let piece = if is_king {
            self.king = to as u8;
            Piece::King
        } else if side == Side::Attackers {
            self.att ^= fb | tb;
            self.att_t ^= ft | tt;
            Piece::Attacker
        } else {
            self.def ^= fb | tb;
            self.def_t ^= ft | tt;
            Piece::Defender
        };
        hash ^= zobrist::piece_key(piece, SquareOf::<G>::from_index(from))
            ^ zobrist::piece_key(piece, SquareOf::<G>::from_index(to));
        let mut captured = G::Set::ZERO;
        if !is_king || rules.king_armed {
            let (victims, partners) = self.custodial_parts(rules, to);
            let taken = super::flanked::<G>(to, partners) & victims;
            if side == Side::Attackers
                && G::around(to) & G::bit(self.king as usize) != G::Set::ZERO
                && self.family_king_taken(rules, to)
            {
                let k = SquareOf::<G>::from_index(self.king as usize);
                hash ^= zobrist::piece_key(Piece::King, k);
                self.king = G::NO_KING;
            }
            let victim = match side {
                Side::Attackers => Piece::Defender,
                Side::Defenders => Piece::Attacker,
            };
            captured = self.remove_all(victim, taken, &mut hash);
            if rules.shieldwall == Shieldwall::Bracket {
                captured |= self.shieldwall_captures(rules, to, &mut hash);
            }
        }
        // OpenTafl looks for shieldwalls after every move, the unarmed king's too.
        if rules.shieldwall.is_opentafl() {
            captured |= self.opentafl_shieldwall_captures(rules, to, moved_before, &mut hash);
        }
        if keep_moved {
            self.moved.set_squares(self.moved.squares() & !captured);
        }
        self.hash = hash;
        self.side = side.opponent();
        self.plies = self.plies.saturating_add(1);
        captured
    }

    /// Whether the king, beside an attacker just arrived on `to`, is captured under
    /// `rules.king_capture`.
    fn family_king_taken(&self, rules: &Rules, to: usize) -> bool {
        let k = self.king as usize;
        let throne = if rules.throne {
            G::THRONE_BIT
        } else {
            G::Set::ZERO
        };
        // Squares that stand in for an attacker against the king.
        let empty_throne_hostile = if rules.throne_hostile && k != G::THRONE {
            throne
        } else {
            G::Set::ZERO
        };
        let around = G::around(k);
        let beyond = || {
            // The square on the far side of the king from `to`.
            let far = 2 * k as isize - to as isize;
            let d = (0..4).find(|&d| G::neighbour(to, d) as usize == k);
            d.map(|d| G::neighbour(k, d))
                .filter(|&f| f != G::NO_KING && f as isize == far)
                .map(|f| f as usize)
        };
        match rules.king_capture {
            KingCapture::Original => {
                if k == G::THRONE || G::THRONE_RING & G::bit(k) != G::Set::ZERO && rules.throne {
                    let need = around & !throne;
                    G::EDGE & G::bit(k) == G::Set::ZERO && self.att & need == need
                } else {
                    let hostile = self.att | hostile_corners::<G>(rules);
                    beyond().is_some_and(|f| hostile.has(f))
                }
            }
            KingCapture::English => {
                let need = around & !throne;
                G::EDGE & G::bit(k) == G::Set::ZERO && self.att & need == need
            }
            KingCapture::TwoAwayFromThrone => {
                if rules.throne && k == G::THRONE {
                    self.att & around == around
                } else {
                    beyond().is_some_and(|f| self.att.has(f))
                }
            }
            KingCapture::Two => {
                let hostile = self.att | hostile_corners::<G>(rules) | empty_throne_hostile;
                beyond().is_some_and(|f| hostile.has(f))
            }
            KingCapture::Surrounded => {
                let hostile = self.att | hostile_corners::<G>(rules) | empty_throne_hostile;
                hostile & around == around
            }
        }
    }

    /// The shieldwall captures of the piece just arrived on `to` (of the side to move, which
    /// has not yet been passed on) under [`Shieldwall::Bracket`]: every row it brackets.
    fn shieldwall_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> G::Set {
        let mover = self.side;
        let side = G::SIDE;
        let (own, enemy) = match mover {
            Side::Attackers => (self.att, self.def | G::bit(self.king as usize)),
            Side::Defenders => {
                let armed = if rules.king_armed {
                    G::bit(self.king as usize)
                } else {
                    G::Set::ZERO
                };
                (self.def | armed, self.att)
            }
        };
        let brackets = own | hostile_corners_or_corners::<G>(rules);
        let mut taken = G::Set::ZERO;
        for e in &edges::<G>() {
            if !(0..side).any(|i| e.first + i * e.step == to) {
                continue;
            }
            let mut i = 0;
            while i < side {
                let sq = e.first + i * e.step;
                if !enemy.has(sq) {
                    i += 1;
                    continue;
                }
                // A run of enemy pieces from position i to j - 1.
                let mut j = i;
                let mut run = G::Set::ZERO;
                let mut faced = true;
                while j < side && enemy.has(e.first + j * e.step) {
                    let s = e.first + j * e.step;
                    run |= G::Set::bit(s);
                    faced &= own.has((s as isize + e.inward) as usize);
                    j += 1;
                }
                let closed = i > 0 && j < side && {
                    let (a, b) = (e.first + (i - 1) * e.step, e.first + j * e.step);
                    brackets.has(a) && brackets.has(b) && (to == a || to == b)
                };
                if closed && faced && (j - i) >= 2 {
                    taken |= run;
                }
                i = j;
            }
        }
        let king = G::bit(self.king as usize);
        let taken = taken & !king;
        let victim = match mover {
            Side::Attackers => Piece::Defender,
            Side::Defenders => Piece::Attacker,
        };
        self.remove_all(victim, taken, hash)
    }

    /// The shieldwall captures of a move to `to` by the side to move (not yet passed on) under
    /// one of OpenTafl's shieldwalls ([`Shieldwall::is_opentafl`]), as OpenTafl 0.4.8 plays
    /// them (`GameState.moveTaflman`, `BoardImpl.detectShieldwallPositionsForSide`; docs/rules.md,
    /// "OpenTafl's shieldwall"), `moved_before` saying whether the mover had moved before.
    ///
    /// After the move's custodial captures, OpenTafl scans the edges for the rows of each side
    /// (the attackers' first), then takes each row found, in order, whose squares all hold
    /// pieces of the other side than the mover's (the king stays); under `swf:y` only when the
    /// move lands on an edge and the mover is among the row's pieces. The scan is followed step
    /// by step with its quirks, since they decide what OpenTafl takes:
    /// - it looks at all only when each side has two pieces or more on the edges (the king
    ///   counting for the defenders);
    /// - the edges are rank 1, the last rank, file a and the last file, each from its low end;
    /// - a row's lists are started afresh only where the scan drops or ends a row on a piece,
    ///   so a row ended by a corner keeps growing along the next edge (a row found earlier sees
    ///   what is added later: OpenTafl keeps the lists, not copies);
    /// - a piece of the side on the edge continues the row (as one of its squares) when the
    ///   piece beside it inwards is of the side and so is the edge square at the scan's count
    ///   plus one, a count that skips the squares where the scan started a row; the king does
    ///   so whenever the piece beside him inwards is a defender;
    /// - a row's pieces are its first bracket (not when it began where the row before it ended),
    ///   the pieces in front of its squares, and its end bracket;
    /// - under `swf:y` OpenTafl compares the mover as it stood before the move with the pieces
    ///   after it, and a piece's first move marks it as moved: so a piece moving for the first
    ///   time is never among the row's pieces.
    fn opentafl_shieldwall_captures(
        &mut self,
        rules: &Rules,
        to: usize,
        moved_before: bool,
        hash: &mut u64,
    ) -> G::Set {
        let king = G::bit(self.king as usize);
        let defenders = self.def | king;
        if (self.att & G::EDGE).count_ones() < 2 || (defenders & G::EDGE).count_ones() < 2 {
            return G::Set::ZERO;
        }
        let corners = opentafl_row_corners::<G>(rules);
        let attackers_rows = OpenTaflRows::<G>::scan(self.att, king, corners);
        let defenders_rows = OpenTaflRows::<G>::scan(defenders, king, corners);
        let flanking = rules.shieldwall.needs_moved_pieces();
        let (victim, mover_side) = match self.side {
            Side::Attackers => (Piece::Defender, Piece::Attacker),
            Side::Defenders => (Piece::Attacker, Piece::Defender),
        };
        let mut captured = G::Set::ZERO;
        for rows in [&attackers_rows, &defenders_rows] {
            for &r in &rows.found {
                let RowList {
                    squares, pieces, ..
                } = rows.lists[r];
                if flanking && !(G::EDGE.has(to) && moved_before && pieces.has(to)) {
                    continue;
                }
                let (defenders, attackers) = (self.def | G::bit(self.king as usize), self.att);
                let others = match mover_side {
                    Piece::Attacker => defenders,
                    _ => attackers,
                };
                if squares & !others == G::Set::ZERO {
                    let taken = squares & !G::bit(self.king as usize);
                    captured |= self.remove_all(victim, taken, hash);
                }
            }
        }
        captured
    }
}

/// The corners that bracket a row of OpenTafl's scan: those of a strong shieldwall (`sw:s`).
fn opentafl_row_corners<G: Geometry>(rules: &Rules) -> G::Set {
    match rules.shieldwall {
        Shieldwall::OpenTafl | Shieldwall::OpenTaflRelaxed => {
            hostile_corners_or_corners::<G>(rules)
        }
        _ => G::Set::ZERO,
    }
}

/// Lists the scan keeps, on the stack: a scan starts at most one list per edge square, and
/// finds at most as many rows.
const SCAN_LISTS: usize = 64;

/// The rows of one side that OpenTafl 0.4.8's scan of the edges finds
/// ([`BoardOf::opentafl_shieldwall_captures`]). The scan runs after every move under
/// OpenTafl's shieldwall, in the search too, so it allocates nothing.
struct OpenTaflRows<G: Geometry> {
    /// Each list the scan filled.
    lists: SmallVec<[RowList<G>; SCAN_LISTS]>,
    /// The rows found, as indices into `lists`, in the order found (one may come twice).
    found: SmallVec<[usize; SCAN_LISTS]>,
}

/// One list of OpenTafl's scan: a row's squares, how many times a square was added (OpenTafl
/// keeps them in a list, and a row is one only when the list holds two or more), and its
/// pieces.
#[derive(Clone, Copy)]
struct RowList<G: Geometry> {
    squares: G::Set,
    len: usize,
    pieces: G::Set,
}

impl<G: Geometry> RowList<G> {
    fn new() -> RowList<G> {
        RowList {
            squares: G::Set::ZERO,
            len: 0,
            pieces: G::Set::ZERO,
        }
    }

    /// Adds the edge square `sq` to the row, with the piece `inward` in front of it.
    fn push(&mut self, sq: usize, inward: usize) {
        self.squares |= G::Set::bit(sq);
        self.len += 1;
        self.pieces |= G::Set::bit(inward);
    }
}

impl<G: Geometry> OpenTaflRows<G> {
    /// The scan for the side whose pieces are `side` (the defenders' with the king, whose
    /// square is `king`, empty when he is not among them or gone), with `corners` the corner
    /// squares that bracket.
    fn scan(side: G::Set, king: G::Set, corners: G::Set) -> OpenTaflRows<G> {
        let mut rows = OpenTaflRows {
            lists: SmallVec::new(),
            found: SmallVec::new(),
        };
        rows.lists.push(RowList::new());
        for e in &edges::<G>() {
            let mut started = false;
            let mut count = 0;
            for p in 0..G::SIDE {
                let sq = e.first + p * e.step;
                let inward = (sq as isize + e.inward) as usize;
                let cur = rows.lists.len() - 1;
                if !started && corners.has(sq) {
                    started = true;
                    continue;
                }
                if !started && side.has(sq) {
                    started = true;
                    rows.lists[cur].pieces |= G::Set::bit(sq);
                    continue;
                }
                if started {
                    if corners.has(sq) {
                        if rows.lists[cur].len > 1 {
                            rows.found.push(cur);
                        }
                        break;
                    }
                    if side.has(sq) {
                        // The scan reads the edge square at its count plus one (never past
                        // the edge: the count trails the square by the row's start at least).
                        let counted =
                            count + 1 < G::SIDE && side.has(e.first + (count + 1) * e.step);
                        let king_here = (king & side).has(sq);
                        if (counted || king_here) && side.has(inward) {
                            rows.lists[cur].push(sq, inward);
                        } else {
                            if rows.lists[cur].len > 1 {
                                rows.lists[cur].pieces |= G::Set::bit(sq);
                                rows.found.push(cur);
                            }
                            rows.lists.push(RowList::new());
                        }
                        continue;
                    }
                    if side.has(inward) {
                        rows.lists[cur].push(sq, inward);
                    } else {
                        started = false;
                        rows.lists.push(RowList::new());
                    }
                }
                count += 1;
            }
        }
        rows
    }
}

/// The four edges in OpenTafl's order: rank 1, the last rank, file a, the last file, each from
/// its low end.
fn edges<G: Geometry>() -> [Edge; 4] {
    let (side, last) = (G::SIDE, G::LAST);
    [
        Edge {
            first: 0,
            step: 1,
            inward: side as isize,
        },
        Edge {
            first: side * last,
            step: 1,
            inward: -(side as isize),
        },
        Edge {
            first: 0,
            step: side,
            inward: 1,
        },
        Edge {
            first: last,
            step: side,
            inward: -1,
        },
    ]
}

/// The corners as brackets of a shieldwall: every corner of a board with corner escape (a
/// corner may stand in for a bracket), none otherwise.
#[inline]
fn hostile_corners_or_corners<G: Geometry>(rules: &Rules) -> G::Set {
    match rules.escape {
        Escape::Corner => G::CORNERS,
        Escape::Edge => G::Set::ZERO,
    }
}
