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
use crate::geometry::Geometry;
use crate::geometry::SquareSet;
use crate::rules::{Escape, ExitFort, KingCapture, Rules, Shieldwall};
use crate::types::{Piece, Side, SquareOf};
use crate::zobrist;

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
        let sq = SquareOf::<G>::from_index(from);
        let pieces = self.att | self.def;
        let pieces_t = self.att_t | self.def_t;
        let throne = if rules.throne {
            G::THRONE_BIT
        } else {
            G::Set::ZERO
        };
        // Foteviken's camps wall in every piece that does not start on one (the camps are
        // symmetric under transposition, so one mask serves both layouts).
        let camps = if rules.foteviken_camps && !G::CAMPS.has(from) {
            G::CAMPS
        } else {
            G::Set::ZERO
        };
        if from == self.king as usize {
            let walls = camps
                | if rules.king_passes_throne() {
                    G::Set::ZERO
                } else {
                    throne
                };
            let mut dests = slide_targets(sq, pieces | walls, pieces_t | walls);
            if !rules.king_reenters_throne {
                dests &= !throne;
            }
            if rules.king_moves_one_square {
                dests &= G::around(from);
            }
            dests
        } else {
            let king = G::bit(self.king as usize);
            let king_t = G::bit_t(self.king as usize);
            let walls = camps
                | if rules.throne_passable {
                    G::Set::ZERO
                } else {
                    throne
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
        if rules.exit_fort == ExitFort::ReachesEdge && inside & G::EDGE == G::Set::ZERO {
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
            if rules.shieldwall != Shieldwall::None {
                captured |= self.shieldwall_captures(rules, to, &mut hash);
            }
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
    /// has not yet been passed on): every row it completes under `rules.shieldwall`.
    fn shieldwall_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> G::Set {
        let mover = self.side;
        let last = G::LAST;
        let side = G::SIDE;
        let edges = [
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
        ];
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
        for e in &edges {
            let on_edge = (0..side).any(|i| e.first + i * e.step == to);
            let in_front =
                (0..side).any(|i| (e.first + i * e.step) as isize + e.inward == to as isize);
            let may = match rules.shieldwall {
                Shieldwall::None => false,
                Shieldwall::Bracket => on_edge,
                Shieldwall::Completed => on_edge || in_front,
            };
            if !may {
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
                let mut fronts = G::Set::ZERO;
                let mut faced = true;
                while j < side && enemy.has(e.first + j * e.step) {
                    let s = e.first + j * e.step;
                    run |= G::Set::bit(s);
                    let front = (s as isize + e.inward) as usize;
                    fronts |= G::Set::bit(front);
                    faced &= own.has(front);
                    j += 1;
                }
                let closed = i > 0 && j < side && {
                    let (a, b) = (e.first + (i - 1) * e.step, e.first + j * e.step);
                    let bracketed = brackets.has(a) && brackets.has(b);
                    let by_mover = to == a
                        || to == b
                        || (rules.shieldwall == Shieldwall::Completed && fronts.has(to));
                    bracketed && by_mover
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
