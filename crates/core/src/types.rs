//! The small value types every other module speaks in: squares, sides, pieces and moves.

use crate::geometry::{FILES, LAST, SIDE, SQUARES};
use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// One of the 81 squares, `a1` (index 0) to `i9` (index 80).
///
/// The index is `rank * 9 + file`, with files `a`–`i` left to right and ranks `1`–`9` bottom to
/// top, both counted from zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = SQUARES;
    /// The throne (*konakis*), `e5`.
    pub const THRONE: Square = Square((SQUARES / 2) as u8);

    /// The square with the given index, if it is below 81.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with the given index; the caller guarantees `index < 81`.
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u8)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are below 9.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if (file as usize) < SIDE && (rank as usize) < SIDE {
            Some(Square(rank * SIDE as u8 + file))
        } else {
            None
        }
    }

    /// Index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 (a) to 8 (i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % SIDE as u8
    }

    /// Rank, 0 (rank 1) to 8 (rank 9).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / SIDE as u8
    }

    /// Whether the square lies on the outer ring of the board.
    #[inline]
    pub const fn is_edge(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        f == 0 || f == LAST as u8 || r == 0 || r == LAST as u8
    }

    /// The neighbouring square one step in `dir`, if it is on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if nf < 0 || nf > LAST as i8 || nr < 0 || nr > LAST as i8 {
            None
        } else {
            Some(Square((nr * SIDE as i8 + nf) as u8))
        }
    }

    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", FILES[self.file() as usize], self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a square name: [`Square`]'s [`FromStr`] expects a file `a`–`i` and a
/// rank `1`–`9`, such as `e5`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SquareParseError {
    /// The text that was given.
    pub text: String,
}

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (expected a file {}-{} and a rank 1-{SIDE})",
            self.text, FILES[0], FILES[LAST]
        )
    }
}

impl std::error::Error for SquareParseError {}

impl FromStr for Square {
    type Err = SquareParseError;

    /// Parses `a1` … `i9` (the file letter may be upper case).
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        let bad = || SquareParseError {
            text: s.to_string(),
        };
        if b.len() != 2 {
            return Err(bad());
        }
        let letter = char::from(b[0].to_ascii_lowercase());
        let file = FILES
            .iter()
            .position(|&c| c == letter)
            .map_or(u8::MAX, |f| f as u8);
        let rank = b[1].wrapping_sub(b'1');
        Square::from_coords(file, rank).ok_or_else(bad)
    }
}

/// The four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards rank 9.
    North,
    /// Towards file i.
    East,
    /// Towards rank 1.
    South,
    /// Towards file a.
    West,
}

impl Direction {
    /// All four, in a fixed order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// (file, rank) change of one step.
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }
}

/// The two sides. Attackers (Muscovites, `b`) and defenders (Swedes with their king, `w`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The 16 dark pieces that try to capture the king; `b` in position strings.
    Attackers = 0,
    /// The king and his 8 light soldiers; `w` in position strings.
    Defenders = 1,
}

impl Side {
    /// Both sides, attackers first.
    pub const BOTH: [Side; 2] = [Side::Attackers, Side::Defenders];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// `b` for attackers, `w` for defenders, as in position strings.
    pub const fn letter(self) -> char {
        match self {
            Side::Attackers => 'b',
            Side::Defenders => 'w',
        }
    }

    /// "attackers" or "defenders".
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// Index 0 (attackers) or 1 (defenders), for per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct BySide<T>(pub [T; 2]);

impl<T> BySide<T> {
    /// `attackers` and `defenders` values.
    pub const fn new(attackers: T, defenders: T) -> Self {
        BySide([attackers, defenders])
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        &self.0[side.index()]
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self.0[side.index()]
    }
}

/// The three kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// An attacking soldier, `b`.
    Attacker = 0,
    /// A defending soldier, `w`.
    Defender = 1,
    /// The king, `K`, who belongs to the defenders.
    King = 2,
}

impl Piece {
    /// The side the piece plays for.
    #[inline]
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// The character used in position strings.
    pub const fn letter(self) -> char {
        match self {
            Piece::Attacker => 'b',
            Piece::Defender => 'w',
            Piece::King => 'K',
        }
    }
}

/// A move of one piece from one square to another along a rank or file.
///
/// Packed in 16 bits: `from | to << 7`. Printed as `d1d3`; [`Move::parse`] also takes `d1-d3`.
/// A `Move` says nothing about legality; `Board::parse_move` (module `board`,
/// which uses this one) checks that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 127) as u8)
    }

    /// Where the piece stops.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// The packed 16-bit value (never zero for a real move, since from ≠ to).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`]; `None` if the value is not a square pair.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let (from, to) = ((raw & 127) as u8, (raw >> 7) as u8);
        if (from as usize) < SQUARES && (to as usize) < SQUARES && raw >> 14 == 0 {
            Some(Move(raw))
        } else {
            None
        }
    }

    /// Parses `d1d3` or `d1-d3` (upper-case file letters are accepted). Checks only the
    /// notation and that the two squares share a rank or file, not legality
    /// (`Board::parse_move` does both).
    ///
    /// ```
    /// use konakis_core::{Move, MoveParseError};
    /// assert_eq!(Move::parse("d1-d3").unwrap().to_string(), "d1d3");
    /// assert!(matches!(Move::parse("d1e2"), Err(MoveParseError::NotStraight { .. })));
    /// ```
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let (a, b) = if let Some((a, b)) = t.split_once('-') {
            (a, b)
        } else if t.len() == 4 && t.is_ascii() {
            t.split_at(2)
        } else {
            return Err(MoveParseError::Notation {
                text: text.to_string(),
            });
        };
        let square = |name: &str| {
            name.parse::<Square>()
                .map_err(|_| MoveParseError::NotASquare {
                    text: text.to_string(),
                    square: name.to_string(),
                })
        };
        let (from, to) = (square(a)?, square(b)?);
        if from == to {
            return Err(MoveParseError::SameSquare {
                text: text.to_string(),
            });
        }
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(MoveParseError::NotStraight {
                text: text.to_string(),
            });
        }
        Ok(Move::new(from, to))
    }
}

/// Why [`Move::parse`] refused a text. Each variant keeps the text as given.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveParseError {
    /// Neither `d1d3` nor `d1-d3` in form.
    Notation {
        /// The text that was given.
        text: String,
    },
    /// One of the two halves is not a square name.
    NotASquare {
        /// The text that was given.
        text: String,
        /// The half that is not a square.
        square: String,
    },
    /// The two squares are the same.
    SameSquare {
        /// The text that was given.
        text: String,
    },
    /// The two squares share neither a rank nor a file.
    NotStraight {
        /// The text that was given.
        text: String,
    },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Notation { text } => {
                write!(f, "'{text}' is not a move (expected e.g. d1d3 or d1-d3)")
            }
            MoveParseError::NotASquare { text, square } => {
                write!(f, "'{text}' is not a move: '{square}' is not a square")
            }
            MoveParseError::SameSquare { text } => write!(
                f,
                "'{text}' is not a move: it starts and ends on the same square"
            ),
            MoveParseError::NotStraight { text } => write!(
                f,
                "'{text}' is not a move: pieces move along one rank or file"
            ),
        }
    }
}

impl std::error::Error for MoveParseError {}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 80);
        assert_eq!(Square::THRONE.to_string(), "e5");
        assert!("j1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn move_parse_accepts_both_forms_and_rejects_diagonals() {
        assert_eq!(Move::parse("d1d3").unwrap().to_string(), "d1d3");
        assert_eq!(Move::parse("d1-d3").unwrap().to_string(), "d1d3");
        assert!(Move::parse("d1e2").is_err());
        assert!(Move::parse("d1d1").is_err());
        assert!(Move::parse("d1").is_err());
        assert!(Move::parse("é1d3").is_err());
        for sq in Square::all() {
            for to in Square::all() {
                let m = Move::new(sq, to);
                assert_eq!(Move::from_raw(m.raw()), Some(m));
            }
        }
    }

    #[test]
    fn step_stays_on_board() {
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(a1.step(Direction::South), None);
        assert_eq!(a1.step(Direction::West), None);
        assert_eq!(a1.step(Direction::North).unwrap().to_string(), "a2");
        assert_eq!(a1.step(Direction::East).unwrap().to_string(), "b1");
    }
}
