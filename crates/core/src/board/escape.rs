//! hnefatafl.org's "defenders cannot escape" adjudication ([`Rules::cannot_escape`]): after
//! every move the attackers win when the king is trapped against an edge, or when every corner
//! is closed off and the defenders have too little left to open one (docs/rules.md,
//! "hnefatafl.org's 'defenders cannot escape'"). The rule is what hnefatafl.org's referee
//! does, quirks included; the numbers are its own and the same on every board size.
//!
//! [`Rules::cannot_escape`]: crate::rules::Rules::cannot_escape

use super::BoardOf;
use crate::bitboard::BitboardOf;
use crate::geometry::Geometry;
use crate::geometry::SquareSet;

/// Why the defenders cannot escape ([`BoardOf::defenders_cannot_escape`]); when more than one
/// reason holds, the first in this order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum NoEscape {
    /// The king stands on an edge square, two squares from each corner or farther, between
    /// two pairs of attackers along the edge (a corner standing in for one of them), and the
    /// attackers hold the squares inside him as the count of pieces asks.
    KingTrapped,
    /// Every corner is closed off, fewer than 4 defenders and at least 13 attackers are left.
    ClosedOffOutnumbered,
    /// Every corner is closed off, fewer than 6 defenders are left, and each edge has at most
    /// three open squares, side by side.
    ClosedOffThreeSquares,
    /// Every corner is closed off and each edge has at most two open squares, side by side.
    ClosedOffTwoSquares,
}

/// One of the four edges: the square `p` squares along it and `i` squares in from it.
#[derive(Clone, Copy)]
enum Edge {
    /// Rank 1.
    First,
    /// The last rank.
    Last,
    /// File a.
    FileA,
    /// The last file.
    FileLast,
}

impl Edge {
    const ALL: [Edge; 4] = [Edge::First, Edge::Last, Edge::FileA, Edge::FileLast];

    /// The square `along` squares from the edge's start (file a or rank 1) and `inward`
    /// squares in from the edge.
    fn square<G: Geometry>(self, along: usize, inward: usize) -> usize {
        let s = G::SIDE;
        match self {
            Edge::First => inward * s + along,
            Edge::Last => (s - 1 - inward) * s + along,
            Edge::FileA => along * s + inward,
            Edge::FileLast => along * s + (s - 1 - inward),
        }
    }

    /// The edge `sq` lies on and how far along it, the ranks before the files (a corner lies
    /// on two edges; the king never stands there while the game goes on).
    fn of<G: Geometry>(sq: usize) -> Option<(Edge, usize)> {
        let (rank, file) = (sq / G::SIDE, sq % G::SIDE);
        if file == 0 {
            Some((Edge::FileA, rank))
        } else if file == G::SIDE - 1 {
            Some((Edge::FileLast, rank))
        } else if rank == 0 {
            Some((Edge::First, file))
        } else if rank == G::SIDE - 1 {
            Some((Edge::Last, file))
        } else {
            None
        }
    }
}

impl<G: Geometry> BoardOf<G> {
    /// Whether hnefatafl.org's referee gives the game to the attackers here because the
    /// defenders cannot escape, and why. The counts are of the pieces on the board (the king
    /// not among the defenders); the corners are the escape squares.
    pub fn defenders_cannot_escape(&self) -> Option<NoEscape> {
        let defenders = self.def.count_ones();
        let attackers = self.att.count_ones();
        if self.king_trapped(defenders, attackers) {
            return Some(NoEscape::KingTrapped);
        }
        let closed = self.closed_off_corners()?;
        if defenders < 4 && attackers >= 13 {
            Some(NoEscape::ClosedOffOutnumbered)
        } else if defenders < 6 && self.open_side_squares_at_most(closed, 3) {
            Some(NoEscape::ClosedOffThreeSquares)
        } else if self.open_side_squares_at_most(closed, 2) {
            Some(NoEscape::ClosedOffTwoSquares)
        } else {
            None
        }
    }

    fn is_attacker(&self, sq: usize) -> bool {
        self.att.has(sq)
    }

    /// The king on an edge square at least two squares from each corner, the two squares on
    /// each side of him along the edge attackers (a corner counts as one, and then as one
    /// more attacker left); with more than five attackers (so counted) also the two squares
    /// straight in from him. Then he is trapped when fewer than two defenders are left, or
    /// when more than seven attackers are and the two squares in from one of his edge
    /// neighbours are attackers too.
    fn king_trapped(&self, defenders: u32, attackers: u32) -> bool {
        if self.king == G::NO_KING {
            return true;
        }
        let Some((edge, p)) = Edge::of::<G>(self.king as usize) else {
            return false;
        };
        let last = G::SIDE - 1;
        if p < 2 || p > last - 2 {
            return false;
        }
        let mut attackers = attackers;
        for q in [p - 2, p - 1, p + 1, p + 2] {
            if q == 0 || q == last {
                attackers += 1;
            } else if !self.is_attacker(edge.square::<G>(q, 0)) {
                return false;
            }
        }
        let inside_held = |q: usize| {
            self.is_attacker(edge.square::<G>(q, 1)) && self.is_attacker(edge.square::<G>(q, 2))
        };
        if attackers > 5 && !inside_held(p) {
            return false;
        }
        defenders < 2 || (attackers > 7 && (inside_held(p + 1) || inside_held(p - 1)))
    }

    /// When every corner is closed off, the squares that count as the attackers' along the
    /// edges: the corners and what closes each off.
    fn closed_off_corners(&self) -> Option<G::Set> {
        let last = G::SIDE - 1;
        let mut closed = G::Set::ZERO;
        // Each corner: the two edges through it, and how far along each it lies.
        for edges in [
            [(Edge::First, 0), (Edge::FileA, 0)],
            [(Edge::First, last), (Edge::FileLast, 0)],
            [(Edge::Last, 0), (Edge::FileA, last)],
            [(Edge::Last, last), (Edge::FileLast, last)],
        ] {
            closed |= self.closed_off_corner(edges)?;
        }
        Some(closed)
    }

    /// Whether the corner where the two `edges` meet (0 or the last square along each) is
    /// closed off, and the edge squares that close it.
    ///
    /// Closed at once when the two squares next to it along each edge are attackers. Else the
    /// squares next to the corner that are empty or attackers open a search through the empty
    /// squares beyond them (an attacker stops it, and a defender next to the corner is passed
    /// over, as the referee does): the corner is closed when the search meets neither the king
    /// nor a defender, and its empty edge squares then count as closed.
    fn closed_off_corner(&self, edges: [(Edge, usize); 2]) -> Option<G::Set> {
        let (edge, p0) = edges[0];
        let corner = G::bit(edge.square::<G>(p0, 0));
        // The square `q` squares from the corner along each edge.
        let from_corner = |q: usize| {
            edges.map(|(edge, p0)| edge.square::<G>(if p0 == 0 { q } else { p0 - q }, 0))
        };
        let (near, far) = (from_corner(1), from_corner(2));
        if near.iter().chain(&far).all(|&sq| self.is_attacker(sq)) {
            return Some(
                corner | G::bit(near[0]) | G::bit(near[1]) | G::bit(far[0]) | G::bit(far[1]),
            );
        }
        let defenders = self.def | G::bit(self.king as usize);
        let empty = G::ALL & !(self.att | defenders);
        let open = (G::bit(near[0]) | G::bit(near[1])) & !defenders;
        let seen_before = corner | G::bit(near[0]) | G::bit(near[1]);
        let mut reached = BitboardOf::<G>::raw(open).neighbours().0 & !seen_before;
        loop {
            let next =
                reached | (BitboardOf::<G>::raw(reached & empty).neighbours().0 & !seen_before);
            if next == reached {
                break;
            }
            reached = next;
        }
        if reached & defenders != G::Set::ZERO {
            return None;
        }
        Some(corner | open | (reached & empty & G::EDGE))
    }

    /// Whether every edge has at most `n` squares that are neither attackers nor `closed`,
    /// and those side by side.
    fn open_side_squares_at_most(&self, closed: G::Set, n: usize) -> bool {
        let covered = self.att | closed;
        Edge::ALL.iter().all(|&edge| {
            let open: Vec<usize> = (0..G::SIDE)
                .filter(|&p| !covered.has(edge.square::<G>(p, 0)))
                .collect();
            match (open.first(), open.last()) {
                (Some(&a), Some(&b)) => b - a + 1 == open.len() && open.len() <= n,
                _ => true,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Eleven, Seven};

    fn board11(fen: &str) -> BoardOf<Eleven> {
        BoardOf::from_fen(fen).unwrap()
    }

    #[test]
    fn the_start_positions_are_not_adjudicated() {
        let b: BoardOf<Eleven> = BoardOf::from_fen(super::super::COPENHAGEN_FEN).unwrap();
        assert_eq!(b.defenders_cannot_escape(), None);
        let b: BoardOf<Seven> = BoardOf::from_fen(super::super::BRANDUBH_FEN).unwrap();
        assert_eq!(b.defenders_cannot_escape(), None);
    }

    /// The king on the edge between two pairs of attackers, with the two squares in from him
    /// held, and one defender left: trapped on each of the four edges alike.
    #[test]
    fn a_king_trapped_is_seen_on_every_edge() {
        // King on f1, attackers d1 e1 g1 h1 and f2 f3; one defender far away.
        let rank1 = "11/11/11/11/11/2w8/11/11/5b5/5b5/3bbKbb3 b";
        assert_eq!(
            board11(rank1).defenders_cannot_escape(),
            Some(NoEscape::KingTrapped)
        );
        // The same turned: king on f11, a6, k6.
        let rank11 = "3bbKbb3/5b5/5b5/11/11/2w8/11/11/11/11/11 b";
        let file_a = "11/11/11/11/b10/b10/Kbb8/b10/b10/11/5w5 b";
        let file_k = "11/11/11/11/10b/10b/8bbK/10b/10b/11/5w5 b";
        for fen in [rank11, file_a, file_k] {
            assert_eq!(
                board11(fen).defenders_cannot_escape(),
                Some(NoEscape::KingTrapped),
                "{fen}"
            );
        }
        // Two defenders left and only seven attackers: not trapped.
        let two = "11/11/11/11/11/2w8/2w8/11/5b5/5b5/3bbKbb3 b";
        assert_eq!(board11(two).defenders_cannot_escape(), None);
        // One square of the pairs along the edge free: not trapped.
        let gap = "11/11/11/11/11/2w8/11/11/5b5/5b5/3b1Kbb3 b";
        assert_eq!(board11(gap).defenders_cannot_escape(), None);
    }
}
