//! [`Bitboard`]: a set of squares stored in the low 81 bits of a `u128`.

use crate::geometry::{LAST, SIDE, SQUARES};
use crate::types::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares; bit `i` stands for the square with index `i`.
///
/// Bits 81..128 are always zero: [`Not`] masks them off, and [`Bitboard::from_bits`] drops
/// them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

/// The squares of file `file`, as bits.
const fn file_bits(file: usize) -> u128 {
    let mut bits = 0u128;
    let mut rank = 0;
    while rank < SIDE {
        bits |= 1u128 << (rank * SIDE + file);
        rank += 1;
    }
    bits
}

/// The board's valid bits, one a square.
const ALL_BITS: u128 = (1u128 << SQUARES) - 1;

/// The bit of each square: a look-up costs fewer instructions than shifting a 128-bit word by
/// a variable amount.
const SQUARE_BITS: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = 1u128 << sq;
        sq += 1;
    }
    t
};

/// The squares next to each square, looked up where a move is played: cheaper than shifting
/// a 128-bit word four ways.
static SQUARE_NEIGHBOURS: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = Bitboard(1u128 << sq).neighbours().0;
        sq += 1;
    }
    t
};

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(ALL_BITS);
    /// The outer ring: files a and i, ranks 1 and 9.
    pub const EDGE: Bitboard = crate::bitboard! {
        X X X X X X X X X
        X . . . . . . . X
        X . . . . . . . X
        X . . . . . . . X
        X . . . . . . . X
        X . . . . . . . X
        X . . . . . . . X
        X . . . . . . . X
        X X X X X X X X X
    };
    /// The throne, `e5`.
    pub const THRONE: Bitboard = Bitboard(1u128 << Square::THRONE.index());
    /// Ashton's 16 camp squares (the Tablut Challenge server's citadels): the four groups of
    /// four where the attackers start. Symmetric under transposition.
    pub const CAMPS: Bitboard = crate::bitboard! {
        . . . X X X . . .
        . . . . X . . . .
        . . . . . . . . .
        X . . . . . . . X
        X X . . . . . X X
        X . . . . . . . X
        . . . . . . . . .
        . . . . X . . . .
        . . . X X X . . .
    };
    /// The middle square of each camp, `a5 e1 i5 e9`: the camp squares the Ashton server does
    /// not list as anvils against attackers (see `Board` captures).
    pub const CAMP_MIDDLES: Bitboard = crate::bitboard! {
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X . . . . . . . X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
    };
    /// File a, for masking shifts that would wrap.
    pub const FILE_A: Bitboard = Bitboard(file_bits(0));
    /// File i.
    pub const FILE_I: Bitboard = Bitboard(file_bits(LAST));

    /// The set of the squares whose bits are set in `bits` (bit `i` for the square with index
    /// `i`); bits 81 and above are dropped.
    ///
    /// ```
    /// use konakis_core::{Bitboard, Square};
    /// let b = Bitboard::from_bits(0b101 | 1 << 100);
    /// assert_eq!(b.len(), 2);
    /// assert_eq!(b.bits(), 0b101);
    /// assert_eq!(b.first(), Square::new(0));
    /// ```
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// The set as bits: bit `i` for the square with index `i`, nothing above bit 80.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// The squares next to `sq` (orthogonally): `Bitboard::from_square(sq).neighbours()`.
    #[inline]
    pub fn around(sq: Square) -> Bitboard {
        Bitboard(SQUARE_NEIGHBOURS[sq.index()])
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index()] != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// The squares next to a square of the set (orthogonally), without the set itself removed.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let up = b << SIDE;
        let down = b >> SIDE;
        let right = (b & !Bitboard::FILE_I.0) << 1;
        let left = (b & !Bitboard::FILE_A.0) >> 1;
        Bitboard((up | down | right | left) & ALL_BITS)
    }

    /// The same set with files and ranks swapped (square `f + 9r` becomes `r + 9f`).
    pub fn transposed(self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self {
            out.set(Square::from_index(
                sq.file() as usize * SIDE + sq.rank() as usize,
            ));
        }
        out
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitboard_binop {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitboard_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitboard_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitboard_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9×9 picture, rank 9 on top, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIDE as u8).rev() {
            for file in 0..SIDE as u8 {
                let sq = Square::from_coords(file, rank).expect("coordinates on the board");
                f.write_str(if self.has(sq) { "X" } else { "." })?;
                f.write_str(if file < LAST as u8 { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

/// A [`Bitboard`] literal drawn as the board is seen: nine rows of nine cells, rank 9 first,
/// `X` for a member square and `.` for any other.
///
/// ```
/// use konakis_core::{bitboard, Bitboard};
/// let corners: Bitboard = bitboard! {
///     X . . . . . . . X
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     X . . . . . . . X
/// };
/// assert_eq!(corners.len(), 4);
/// assert!(corners.has("a1".parse().unwrap()));
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($cell:tt)*) => {{
        const CELLS: &[u8] = stringify!($($cell)*).as_bytes();
        const BITS: u128 = {
            let mut bits = 0u128;
            let mut i = 0;
            let mut n = 0;
            while i < CELLS.len() {
                let c = CELLS[i];
                if c == b'X' || c == b'.' {
                    assert!(
                        n < $crate::geometry::SQUARES,
                        "a bitboard literal has a cell for each square"
                    );
                    let rank = $crate::geometry::LAST - n / $crate::geometry::SIDE;
                    let file = n % $crate::geometry::SIDE;
                    if c == b'X' {
                        bits |= 1u128 << (rank * $crate::geometry::SIDE + file);
                    }
                    n += 1;
                }
                i += 1;
            }
            assert!(
                n == $crate::geometry::SQUARES,
                "a bitboard literal has a cell for each square"
            );
            bits
        };
        $crate::Bitboard::from_bits(BITS)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_has_32_squares_and_matches_is_edge() {
        assert_eq!(Bitboard::EDGE.len(), 32);
        for sq in Square::all() {
            assert_eq!(Bitboard::EDGE.has(sq), sq.is_edge(), "{sq}");
        }
    }

    #[test]
    fn camps_are_the_sixteen_ashton_squares_and_transpose_onto_themselves() {
        let names = "a4 a5 a6 b5 d1 e1 f1 e2 i4 i5 i6 h5 d9 e9 f9 e8";
        let camps: Bitboard = names.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(Bitboard::CAMPS, camps);
        assert_eq!(Bitboard::CAMPS.transposed(), Bitboard::CAMPS);
        let middles: Bitboard = ["a5", "e1", "i5", "e9"]
            .map(|n| n.parse().unwrap())
            .into_iter()
            .collect();
        assert_eq!(Bitboard::CAMP_MIDDLES, middles);
    }

    #[test]
    fn file_masks_are_files() {
        for sq in Square::all() {
            assert_eq!(Bitboard::FILE_A.has(sq), sq.file() == 0);
            assert_eq!(Bitboard::FILE_I.has(sq), sq.file() == 8);
        }
    }

    #[test]
    fn neighbours_never_wrap() {
        for sq in Square::all() {
            let slow: Bitboard = crate::types::Direction::ALL
                .iter()
                .filter_map(|&d| sq.step(d))
                .collect();
            assert_eq!(Bitboard::from_square(sq).neighbours(), slow, "{sq}");
            assert_eq!(Bitboard::around(sq), slow, "{sq}");
        }
    }

    #[test]
    fn iteration_and_not_stay_within_81_squares() {
        assert_eq!((!Bitboard::EMPTY).len(), 81);
        assert_eq!(Bitboard::FULL.count(), 81);
        let b = Bitboard::EDGE;
        assert_eq!(b.collect::<Bitboard>(), b);
        assert_eq!((b - Bitboard::EDGE), Bitboard::EMPTY);
        assert_eq!(b.transposed(), b);
        assert_eq!(Bitboard::FILE_A.transposed().0, 0x1ff);
    }
}
