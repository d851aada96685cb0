//! Reading a move from text and checking it on a board, with the error that says which of the
//! two went wrong.

use super::{BoardOf, IllegalMoveOf};
use crate::geometry::{Geometry, Nine};
use crate::rules::Rules;
use crate::types::{MoveOf, MoveParseError};
use std::fmt;

impl<G: Geometry> BoardOf<G> {
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
    pub fn parse_move(&self, rules: &Rules, text: &str) -> Result<MoveOf<G>, MoveErrorOf<G>> {
        let mv = MoveOf::parse(text)?;
        self.check_move(rules, mv)?;
        Ok(mv)
    }
}

/// Why [`BoardOf::parse_move`] refused a text: it is not a move, or not a legal one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveErrorOf<G: Geometry> {
    /// The text is not a move in `d1d3` or `d1-d3` notation.
    Parse(MoveParseError),
    /// The move is not legal on the board.
    Illegal(IllegalMoveOf<G>),
}

/// Why a text is not a legal move on Tablut's board.
pub type MoveError = MoveErrorOf<Nine>;

impl<G: Geometry> fmt::Display for MoveErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveErrorOf::Parse(e) => e.fmt(f),
            MoveErrorOf::Illegal(e) => e.fmt(f),
        }
    }
}

impl<G: Geometry> std::error::Error for MoveErrorOf<G> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveErrorOf::Parse(e) => Some(e),
            MoveErrorOf::Illegal(e) => Some(e),
        }
    }
}

impl<G: Geometry> From<MoveParseError> for MoveErrorOf<G> {
    fn from(e: MoveParseError) -> Self {
        MoveErrorOf::Parse(e)
    }
}

impl<G: Geometry> From<IllegalMoveOf<G>> for MoveErrorOf<G> {
    fn from(e: IllegalMoveOf<G>) -> Self {
        MoveErrorOf::Illegal(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, IllegalMove, IllegalReason};
    use crate::types::Move;

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    #[test]
    fn parse_move_tells_text_that_is_no_move_from_a_move_that_is_not_legal() {
        let rules = Rules::default();
        // a5 attacker, h4 king, c3 and e3 defenders; the defenders to move.
        let b = Board::from_fen("9/9/9/9/b8/7K1/2w1w4/9/9 w").unwrap();
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
        assert_eq!(b.parse_move(&rules, "c3-c4"), Ok(mv("c3c4")));
    }
}
