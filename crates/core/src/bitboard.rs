//! [`BitboardOf`]: a set of squares of a board of any size, stored in the low bits of the
//! size's word ([`Geometry::Set`]: a `u128` up to 11×11, a 256-bit word on 13×13);
//! [`Bitboard`] is Tablut's.

use crate::geometry::{Geometry, Nine, SquareSet};
use crate::types::SquareOf;
use std::fmt;
use std::marker::PhantomData;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares of a board of size `G`; bit `i` stands for the square with index `i`.
///
/// The bits past the last square are always zero: [`Not`] masks them off, and
/// [`BitboardOf::from_bits`] drops them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitboardOf<G: Geometry>(pub(crate) G::Set, PhantomData<G>);

/// A set of Tablut's 81 squares.
pub type Bitboard = BitboardOf<Nine>;

/// Ashton's 16 camp squares (the Tablut Challenge server's citadels): the four groups of four
/// where the attackers start. Symmetric under transposition.
pub(crate) const TABLUT_CAMPS: u128 = crate::bitboard_bits! {
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

/// The middle square of each camp, `a5 e1 i5 e9`: the camp squares the Ashton server does not
/// list as anvils against attackers (see `Board` captures).
pub(crate) const TABLUT_CAMP_MIDDLES: u128 = crate::bitboard_bits! {
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

impl<G: Geometry> BitboardOf<G> {
    /// No squares.
    pub const EMPTY: Self = BitboardOf(G::Set::ZERO, PhantomData);
    /// All the squares.
    pub const FULL: Self = BitboardOf(G::ALL, PhantomData);
    /// The outer ring: the first and last files and ranks.
    pub const EDGE: Self = BitboardOf(G::EDGE, PhantomData);
    /// The throne, the middle square.
    pub const THRONE: Self = BitboardOf(G::THRONE_BIT, PhantomData);
    /// Ashton's camps on Tablut's board; empty on the others.
    pub const CAMPS: Self = BitboardOf(G::CAMPS, PhantomData);
    /// The middle square of each of Ashton's camps, `a5 e1 i5 e9`: the camp squares the Ashton
    /// server does not list as anvils against attackers (see `Board` captures). Empty on
    /// boards other than Tablut's.
    pub const CAMP_MIDDLES: Self = BitboardOf(G::CAMP_MIDDLES, PhantomData);
    /// File a, for masking shifts that would wrap.
    pub const FILE_A: Self = BitboardOf(G::FILE_A, PhantomData);
    /// The last file (i on Tablut's board).
    pub const FILE_LAST: Self = BitboardOf(G::FILE_LAST, PhantomData);

    /// The set of bits `bits` as they are: the caller keeps the bits past the board clear.
    #[inline(always)]
    pub(crate) const fn raw(bits: G::Set) -> Self {
        BitboardOf(bits, PhantomData)
    }

    /// The set of the squares whose bits are set in `bits` (bit `i` for the square with index
    /// `i`, in the size's word: a `u128` up to 11×11); bits past the last square are dropped.
    ///
    /// ```
    /// use konakis_core::{Bitboard, Square};
    /// let b = Bitboard::from_bits(0b101 | 1 << 100);
    /// assert_eq!(b.len(), 2);
    /// assert_eq!(b.bits(), 0b101);
    /// assert_eq!(b.first(), Square::new(0));
    /// ```
    #[inline]
    pub fn from_bits(bits: G::Set) -> Self {
        BitboardOf(bits & G::ALL, PhantomData)
    }

    /// The set as bits: bit `i` for the square with index `i`, nothing past the last square.
    #[inline]
    pub const fn bits(self) -> G::Set {
        self.0
    }

    /// The set holding only `sq`.
    #[inline]
    pub fn from_square(sq: SquareOf<G>) -> Self {
        BitboardOf(G::bit(sq.index()), PhantomData)
    }

    /// The squares next to `sq` (orthogonally): `BitboardOf::from_square(sq).neighbours()`.
    #[inline]
    pub fn around(sq: SquareOf<G>) -> Self {
        BitboardOf(G::around(sq.index()), PhantomData)
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub fn has(self, sq: SquareOf<G>) -> bool {
        !(self.0 & G::bit(sq.index())).is_zero()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    /// Number of squares in the set.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<SquareOf<G>> {
        if self.0.is_zero() {
            None
        } else {
            Some(SquareOf::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn set(&mut self, sq: SquareOf<G>) {
        self.0 |= G::Set::bit(sq.index());
    }

    /// Removes `sq`.
    #[inline]
    pub fn clear(&mut self, sq: SquareOf<G>) {
        self.0 &= !G::Set::bit(sq.index());
    }

    /// The squares next to a square of the set (orthogonally), without the set itself removed.
    #[inline]
    pub fn neighbours(self) -> Self {
        let b = self.0;
        let up = b << G::SIDE;
        let down = b >> G::SIDE;
        let right = (b & !G::FILE_LAST) << 1;
        let left = (b & !G::FILE_A) >> 1;
        BitboardOf((up | down | right | left) & G::ALL, PhantomData)
    }

    /// The same set with files and ranks swapped (square `f + side × r` becomes
    /// `r + side × f`).
    pub fn transposed(self) -> Self {
        let mut out = Self::EMPTY;
        for sq in self {
            out.set(SquareOf::from_index(
                sq.file() as usize * G::SIDE + sq.rank() as usize,
            ));
        }
        out
    }
}

impl Bitboard {
    /// File i, Tablut's last file.
    pub const FILE_I: Bitboard = Bitboard::FILE_LAST;
}

impl<G: Geometry> Iterator for BitboardOf<G> {
    type Item = SquareOf<G>;

    #[inline]
    fn next(&mut self) -> Option<SquareOf<G>> {
        let sq = self.first()?;
        self.0 = self.0.without_lowest();
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len() as usize;
        (n, Some(n))
    }
}

impl<G: Geometry> FromIterator<SquareOf<G>> for BitboardOf<G> {
    fn from_iter<I: IntoIterator<Item = SquareOf<G>>>(iter: I) -> Self {
        let mut b = Self::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

impl<G: Geometry> From<SquareOf<G>> for BitboardOf<G> {
    fn from(sq: SquareOf<G>) -> Self {
        BitboardOf::from_square(sq)
    }
}

macro_rules! bitboard_binop {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl<G: Geometry> $trait for BitboardOf<G> {
            type Output = Self;
            #[inline]
            fn $fn(self, rhs: Self) -> Self {
                BitboardOf(self.0 $op rhs.0, PhantomData)
            }
        }
        impl<G: Geometry> $assign_trait for BitboardOf<G> {
            #[inline]
            fn $assign_fn(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitboard_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitboard_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitboard_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<G: Geometry> Sub for BitboardOf<G> {
    type Output = Self;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        BitboardOf(self.0 & !rhs.0, PhantomData)
    }
}

impl<G: Geometry> Not for BitboardOf<G> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        BitboardOf(!self.0 & G::ALL, PhantomData)
    }
}

impl<G: Geometry> fmt::Debug for BitboardOf<G> {
    /// A picture of the board, the last rank on top, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..G::SIDE as u8).rev() {
            for file in 0..G::SIDE as u8 {
                let sq = SquareOf::<G>::from_coords(file, rank).expect("coordinates on the board");
                f.write_str(if self.has(sq) { "X" } else { "." })?;
                f.write_str(if file < G::LAST as u8 { " " } else { "\n" })?;
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
    ($($cell:tt)*) => {
        $crate::Bitboard::from_bits($crate::bitboard_bits!($($cell)*))
    };
}

/// The bits of a [`bitboard!`] literal, as a `u128` constant (the macro's own work).
#[doc(hidden)]
#[macro_export]
macro_rules! bitboard_bits {
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
        BITS
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

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

    #[test]
    fn thirteen_by_thirteen_sets_hold_169_squares_past_the_first_word() {
        use crate::geometry::Thirteen;
        type B13 = BitboardOf<Thirteen>;
        assert_eq!((!B13::EMPTY).len(), 169);
        assert_eq!(B13::EDGE.len(), 48);
        let last = SquareOf::<Thirteen>::from_index(168);
        let mut b = B13::EMPTY;
        b.set(last);
        b.set(SquareOf::from_index(127));
        b.set(SquareOf::from_index(128));
        assert_eq!(b.len(), 3);
        assert_eq!(b.map(|s| s.index()).collect::<Vec<_>>(), [127, 128, 168]);
        assert_eq!(B13::from_square(last).neighbours().len(), 2);
        for sq in SquareOf::<Thirteen>::all() {
            let slow: B13 = crate::types::Direction::ALL
                .iter()
                .filter_map(|&d| sq.step(d))
                .collect();
            assert_eq!(B13::from_square(sq).neighbours(), slow, "{sq}");
            assert_eq!(B13::around(sq), slow, "{sq}");
            assert_eq!(B13::EDGE.has(sq), sq.is_edge(), "{sq}");
        }
        assert_eq!(B13::EDGE.transposed(), B13::EDGE);
    }
}
