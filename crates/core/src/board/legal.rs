//! Whether a move is legal here, and if not, why: the quick test for moves from elsewhere
//! (the transposition table, killers) and the check that names the reason.

use super::{BoardOf, camps};
use crate::bitboard::BitboardOf;
use crate::geometry::SquareSet;
use crate::geometry::{Geometry, Nine};
use crate::rules::{Escape, Rules};
use crate::types::{MoveOf, Side, SquareOf};
use std::fmt;

impl<G: Geometry> BoardOf<G> {
    /// Whether `mv` is legal here: a fast test for moves from elsewhere (the transposition
    /// table, killers), without messages; [`BoardOf::check_move`] says why a move is not legal.
    #[inline]
    pub fn is_legal(&self, rules: &Rules, mv: MoveOf<G>) -> bool {
        !self.is_won(rules) && self.can_move(rules, mv)
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
    pub fn check_move(&self, rules: &Rules, mv: MoveOf<G>) -> Result<(), IllegalMoveOf<G>> {
        let refuse = |reason| Err(IllegalMoveOf { mv, reason });
        if self.is_won(rules) {
            return refuse(IllegalReason::GameOver);
        }
        let Some(piece) = self.piece_at(mv.from()) else {
            return refuse(IllegalReason::NoPiece);
        };
        if piece.side() != self.side {
            return refuse(IllegalReason::WrongSide(piece.side()));
        }
        let mut dests = BitboardOf::EMPTY;
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
        } else if mv.to() == SquareOf::THRONE && rules.throne {
            IllegalReason::Throne
        } else if rules.escape == Escape::Corner && G::CORNERS.has(mv.to().index()) {
            IllegalReason::Corner
        } else if (camps::<G>(rules).has(mv.to().index())
            && !G::camp_of(mv.from().index()).has(mv.to().index()))
            || (rules.foteviken_camps
                && G::CAMPS.has(mv.to().index())
                && !G::CAMPS.has(mv.from().index()))
        {
            IllegalReason::Camp
        } else if mv.from().file() != mv.to().file() && mv.from().rank() != mv.to().rank() {
            IllegalReason::NotStraight
        } else {
            IllegalReason::Blocked
        })
    }
}

/// Why a move is not legal on a board, as [`BoardOf::check_move`] judges it.
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
    /// The move would enter a camp square from outside that camp (`Ruleset=Ashton`), or from
    /// outside every camp (Foteviken's camps).
    Camp,
    /// The move would stop a soldier on a corner (corner escape: only the king may).
    Corner,
    /// A defender's move that would repeat an earlier board (hnefatafl.org's repetition rule,
    /// judged by the game, not the board).
    Repetition,
    /// The two squares share neither a rank nor a file.
    NotStraight,
    /// A piece, the throne or a camp stands in the way.
    Blocked,
}

/// A move that [`BoardOf::check_move`] refused, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct IllegalMoveOf<G: Geometry> {
    /// The move.
    pub mv: MoveOf<G>,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

/// A move refused on Tablut's board.
pub type IllegalMove = IllegalMoveOf<Nine>;

impl<G: Geometry> fmt::Display for IllegalMoveOf<G> {
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
                "only a soldier that starts its move in a camp (under Ashton, that camp) may enter a camp square",
            ),
            IllegalReason::Corner => f.write_str("only the king may stop on a corner"),
            IllegalReason::Repetition => {
                f.write_str("a defender's move may not repeat an earlier board")
            }
            IllegalReason::NotStraight => f.write_str("pieces move along one rank or file"),
            IllegalReason::Blocked => f.write_str("the path is blocked"),
        }
    }
}

impl<G: Geometry> std::error::Error for IllegalMoveOf<G> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::types::{Move, Square};

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
    }
}
