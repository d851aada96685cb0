//! The small value types every other module speaks in: squares, sides, pieces and moves.
//! Squares and moves belong to a board size ([`SquareOf`], [`MoveOf`]); [`Square`] and [`Move`]
//! are Tablut's.

use crate::geometry::{FILE_LETTERS, Geometry, Nine};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// One of the squares of a board of size `G`, `a1` (index 0) to the far corner (index
/// `side² − 1`).
///
/// The index is `rank * side + file`, with files `a`, `b`, … left to right and ranks `1`, `2`,
/// … bottom to top, both counted from zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareOf<G: Geometry>(u8, PhantomData<G>);

/// One of Tablut's 81 squares, `a1` (index 0) to `i9` (index 80).
pub type Square = SquareOf<Nine>;

impl<G: Geometry> SquareOf<G> {
    /// Number of squares on the board.
    pub const COUNT: usize = G::SQUARES;
    /// The throne, the middle square (*konakis*; `e5` on Tablut's board).
    pub const THRONE: Self = SquareOf(G::THRONE as u8, PhantomData);

    /// The square with the given index, if it is on the board.
    #[inline]
    pub const fn new(index: u8) -> Option<Self> {
        if (index as usize) < G::SQUARES {
            Some(SquareOf(index, PhantomData))
        } else {
            None
        }
    }

    /// The square with the given index; the caller guarantees that it is on the board.
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Self {
        debug_assert!(index < G::SQUARES);
        SquareOf(index as u8, PhantomData)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Self> {
        if (file as usize) < G::SIDE && (rank as usize) < G::SIDE {
            Some(SquareOf(rank * G::SIDE as u8 + file, PhantomData))
        } else {
            None
        }
    }

    /// The index, from 0 to `side² − 1`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, from 0 (a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % G::SIDE as u8
    }

    /// Rank, from 0 (rank 1).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / G::SIDE as u8
    }

    /// Whether the square lies on the outer ring of the board.
    #[inline]
    pub const fn is_edge(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        f == 0 || f == G::LAST as u8 || r == 0 || r == G::LAST as u8
    }

    /// The neighbouring square one step in `dir`, if it is on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Self> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if nf < 0 || nf > G::LAST as i8 || nr < 0 || nr > G::LAST as i8 {
            None
        } else {
            Some(SquareOf((nr * G::SIDE as i8 + nf) as u8, PhantomData))
        }
    }

    /// All the squares in index order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..G::SQUARES as u8).map(|i| SquareOf(i, PhantomData))
    }

    /// Reads a square's name at the start of `text`: a file letter (either case) and a rank
    /// number without a leading zero. Returns the square and the bytes read, or `None` when
    /// `text` does not start with a square of this board. The longest rank number is taken, so
    /// `a10` is never read as `a1`.
    fn parse_prefix(text: &[u8]) -> Option<(Self, usize)> {
        let (&letter, rest) = text.split_first()?;
        let file = FILE_LETTERS[..G::SIDE]
            .iter()
            .position(|&c| c as u8 == letter.to_ascii_lowercase())?;
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || rest[0] == b'0' {
            return None;
        }
        let rank = rest[..digits]
            .iter()
            .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
        if rank > G::SIDE {
            return None;
        }
        let sq = Self::from_coords(file as u8, (rank - 1) as u8)?;
        Some((sq, 1 + digits))
    }
}

impl<G: Geometry> fmt::Display for SquareOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            FILE_LETTERS[self.file() as usize],
            self.rank() + 1
        )
    }
}

impl<G: Geometry> fmt::Debug for SquareOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a square name: [`SquareOf`]'s [`FromStr`] expects a file letter and a rank
/// number of the board, such as `e5`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SquareParseError {
    /// The text that was given.
    pub text: String,
    /// The side of the board it was read for (9 for Tablut).
    pub side: u8,
}

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = usize::from(self.side).clamp(1, FILE_LETTERS.len());
        write!(
            f,
            "'{}' is not a square (expected a file {}-{} and a rank 1-{side})",
            self.text,
            FILE_LETTERS[0],
            FILE_LETTERS[side - 1]
        )
    }
}

impl std::error::Error for SquareParseError {}

impl<G: Geometry> FromStr for SquareOf<G> {
    type Err = SquareParseError;

    /// Parses `a1` … `i9` on Tablut's board, `a1` … `k11` on 11×11 (the file letter may be
    /// upper case).
    fn from_str(s: &str) -> Result<Self, SquareParseError> {
        match Self::parse_prefix(s.as_bytes()) {
            Some((sq, read)) if read == s.len() => Ok(sq),
            _ => Err(SquareParseError {
                text: s.to_string(),
                side: G::SIDE as u8,
            }),
        }
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

/// A move of one piece from one square to another along a rank or file, on a board of size
/// `G`.
///
/// Packed in 16 bits: `from | to << 7` (`<< 8` on a board of more than 128 squares). Printed as
/// `d1d3`; [`MoveOf::parse`] also takes `d1-d3`. A `MoveOf` says nothing about legality;
/// `BoardOf::parse_move` (module `board`, which uses this one) checks that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveOf<G: Geometry>(u16, PhantomData<G>);

/// A move on Tablut's board.
pub type Move = MoveOf<Nine>;

impl<G: Geometry> MoveOf<G> {
    /// The bits of one square in the packed value.
    const SQUARE_MASK: u16 = (1 << G::MOVE_SHIFT) - 1;

    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: SquareOf<G>, to: SquareOf<G>) -> Self {
        MoveOf(from.0 as u16 | (to.0 as u16) << G::MOVE_SHIFT, PhantomData)
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(self) -> SquareOf<G> {
        SquareOf((self.0 & Self::SQUARE_MASK) as u8, PhantomData)
    }

    /// Where the piece stops.
    #[inline]
    pub const fn to(self) -> SquareOf<G> {
        SquareOf((self.0 >> G::MOVE_SHIFT) as u8, PhantomData)
    }

    /// The packed 16-bit value (never zero for a real move, since from ≠ to).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`MoveOf::raw`]; `None` if the value is not a square pair.
    pub const fn from_raw(raw: u16) -> Option<Self> {
        let (from, to) = (raw & Self::SQUARE_MASK, raw >> G::MOVE_SHIFT);
        if (from as usize) < G::SQUARES && (to as usize) < G::SQUARES {
            Some(MoveOf(raw, PhantomData))
        } else {
            None
        }
    }

    /// Parses `d1d3` or `d1-d3` (upper-case file letters are accepted; on boards of ten
    /// ranks or more, `a10a12`). Checks only the notation and that the two squares share a
    /// rank or file, not legality (`BoardOf::parse_move` does both).
    ///
    /// ```
    /// use konakis_core::{Move, MoveParseError};
    /// assert_eq!(Move::parse("d1-d3").unwrap().to_string(), "d1d3");
    /// assert!(matches!(Move::parse("d1e2"), Err(MoveParseError::NotStraight { .. })));
    /// ```
    pub fn parse(text: &str) -> Result<Self, MoveParseError> {
        let t = text.trim();
        let notation = || MoveParseError::Notation {
            text: text.to_string(),
        };
        // Without a dash, on boards of up to nine ranks both names are two characters; on
        // wider boards the second name starts at the first letter after the first one.
        let (a, b) = if let Some((a, b)) = t.split_once('-') {
            (a, b)
        } else if t.len() == 4 && t.is_ascii() {
            t.split_at(2)
        } else if G::SIDE >= 10 && (5..=6).contains(&t.len()) && t.is_ascii() {
            match (1..t.len()).find(|&i| t.as_bytes()[i].is_ascii_alphabetic()) {
                Some(i) => t.split_at(i),
                None => return Err(notation()),
            }
        } else {
            return Err(notation());
        };
        let square = |name: &str| {
            name.parse::<SquareOf<G>>()
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
        Ok(MoveOf::new(from, to))
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

impl<G: Geometry> fmt::Display for MoveOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl<G: Geometry> fmt::Debug for MoveOf<G> {
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
