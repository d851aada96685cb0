//! The words a set of squares is stored in ([`SquareSet`]): a `u128` for the boards up to
//! 11×11 (121 squares), [`Wide`] (two `u128`, 256 bits) for 13×13 (169 squares). Each board
//! size names its word as `Geometry::Set`, so that the boards up to 11×11
//! are compiled with plain `u128` operations, exactly as before 13×13 existed, and only the
//! 13×13 board pays for the wider word.
//!
//! The tables are built at compile time in the wide word (`const fn`s cannot be generic over
//! a trait's operations) and narrowed to each size's word by [`Wide::narrow`].

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, ShlAssign, Shr,
    ShrAssign,
};

/// A fixed-width word of bits holding a set of squares: bit `i` for the square with index `i`.
/// The operators are the integer's (`&`, `|`, `^`, `!`, shifts by a `usize` that drop the bits
/// shifted out); the methods name what the board code asks of a set.
pub trait SquareSet:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + ShlAssign<usize>
    + ShrAssign<usize>
{
    /// No bits.
    const ZERO: Self;
    /// The word's width in bits.
    const BITS: usize;
    /// Bit `n` alone (`n` below [`SquareSet::BITS`]).
    fn bit(n: usize) -> Self;
    /// The bits below bit `n` (`n` below [`SquareSet::BITS`]).
    fn below(n: usize) -> Self;
    /// Whether no bit is set.
    fn is_zero(self) -> bool;
    /// Whether bit `n` is set.
    fn has(self, n: usize) -> bool;
    /// The number of bits set.
    fn count_ones(self) -> u32;
    /// The index of the lowest bit set; [`SquareSet::BITS`] when none is.
    fn trailing_zeros(self) -> u32;
    /// The index of the highest bit set (the set not empty).
    fn highest(self) -> u32;
    /// The same bits without the lowest one set.
    fn without_lowest(self) -> Self;
    /// The bits from bit `shift` up, as a `usize` (the caller masks the line it wants;
    /// `shift` below [`SquareSet::BITS`]).
    fn line(self, shift: usize) -> usize;
    /// The bits of `bits` (a line, fewer than 64 bits) moved up to bit `shift`.
    fn from_line(bits: usize, shift: usize) -> Self;
    /// A set built in the widest word (as the tables are), in this word: its low bits.
    fn from_wide(wide: Wide) -> Self;
}

impl SquareSet for u128 {
    const ZERO: Self = 0;
    const BITS: usize = 128;
    #[inline(always)]
    fn from_wide(wide: Wide) -> Self {
        wide.narrow()
    }
    #[inline(always)]
    fn bit(n: usize) -> Self {
        1u128 << n
    }
    #[inline(always)]
    fn below(n: usize) -> Self {
        (1u128 << n) - 1
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn has(self, n: usize) -> bool {
        self >> n & 1 != 0
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        127 - self.leading_zeros()
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn line(self, shift: usize) -> usize {
        (self >> shift) as usize
    }
    #[inline(always)]
    fn from_line(bits: usize, shift: usize) -> Self {
        (bits as u128) << shift
    }
}

/// A 256-bit word as two `u128` halves, `lo` holding bits 0 to 127 and `hi` bits 128 to 255:
/// the set of squares of the 13×13 board. Its `const fn`s build every size's tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Wide {
    lo: u128,
    hi: u128,
}

impl Wide {
    /// No bits.
    pub const ZERO: Wide = Wide { lo: 0, hi: 0 };

    /// Bit `n` alone (`n` below 256).
    #[inline]
    pub const fn bit(n: usize) -> Wide {
        if n < 128 {
            Wide { lo: 1 << n, hi: 0 }
        } else {
            Wide {
                lo: 0,
                hi: 1 << (n - 128),
            }
        }
    }

    /// The bits below bit `n` (`n` at most 256).
    #[inline]
    pub const fn below(n: usize) -> Wide {
        if n < 128 {
            Wide {
                lo: (1 << n) - 1,
                hi: 0,
            }
        } else if n < 256 {
            Wide {
                lo: !0,
                hi: (1 << (n - 128)) - 1,
            }
        } else {
            Wide { lo: !0, hi: !0 }
        }
    }

    /// The union.
    #[inline]
    pub const fn or(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo | other.lo,
            hi: self.hi | other.hi,
        }
    }

    /// The intersection.
    #[inline]
    pub const fn and(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo & other.lo,
            hi: self.hi & other.hi,
        }
    }

    /// The complement (all 256 bits).
    #[inline]
    pub const fn not(self) -> Wide {
        Wide {
            lo: !self.lo,
            hi: !self.hi,
        }
    }

    /// Whether bit `n` is set.
    #[inline]
    pub const fn has(self, n: usize) -> bool {
        if n < 128 {
            self.lo >> n & 1 != 0
        } else {
            self.hi >> (n - 128) & 1 != 0
        }
    }

    /// Whether no bit is set.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// The bits shifted up by `n`, those shifted past bit 255 dropped.
    #[inline]
    pub const fn shl(self, n: usize) -> Wide {
        if n == 0 {
            self
        } else if n < 128 {
            Wide {
                lo: self.lo << n,
                hi: self.hi << n | self.lo >> (128 - n),
            }
        } else if n < 256 {
            Wide {
                lo: 0,
                hi: self.lo << (n - 128),
            }
        } else {
            Wide::ZERO
        }
    }

    /// The bits shifted down by `n`, those shifted below bit 0 dropped.
    #[inline]
    pub const fn shr(self, n: usize) -> Wide {
        if n == 0 {
            self
        } else if n < 128 {
            Wide {
                lo: self.lo >> n | self.hi << (128 - n),
                hi: self.hi >> n,
            }
        } else if n < 256 {
            Wide {
                lo: self.hi >> (n - 128),
                hi: 0,
            }
        } else {
            Wide::ZERO
        }
    }

    /// The bits of `bits`, in the low half.
    pub const fn from_u128(bits: u128) -> Wide {
        Wide { lo: bits, hi: 0 }
    }

    /// The same bits in a `u128`; fails to compile (or panics) if a bit past 127 is set.
    pub const fn narrow(self) -> u128 {
        assert!(
            self.hi == 0,
            "a set of squares of a board up to 11x11 fits a u128"
        );
        self.lo
    }
}

macro_rules! wide_binop {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline(always)]
            fn $fn(self, rhs: Wide) -> Wide {
                Wide {
                    lo: self.lo $op rhs.lo,
                    hi: self.hi $op rhs.hi,
                }
            }
        }
        impl $assign_trait for Wide {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Wide) {
                self.lo = self.lo $op rhs.lo;
                self.hi = self.hi $op rhs.hi;
            }
        }
    };
}

wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide::not(self)
    }
}

impl Shl<usize> for Wide {
    type Output = Wide;
    #[inline(always)]
    fn shl(self, n: usize) -> Wide {
        Wide::shl(self, n)
    }
}

impl Shr<usize> for Wide {
    type Output = Wide;
    #[inline(always)]
    fn shr(self, n: usize) -> Wide {
        Wide::shr(self, n)
    }
}

impl ShlAssign<usize> for Wide {
    #[inline(always)]
    fn shl_assign(&mut self, n: usize) {
        *self = Wide::shl(*self, n);
    }
}

impl ShrAssign<usize> for Wide {
    #[inline(always)]
    fn shr_assign(&mut self, n: usize) {
        *self = Wide::shr(*self, n);
    }
}

impl SquareSet for Wide {
    const ZERO: Self = Wide::ZERO;
    const BITS: usize = 256;
    #[inline(always)]
    fn from_wide(wide: Wide) -> Self {
        wide
    }
    #[inline(always)]
    fn bit(n: usize) -> Self {
        Wide::bit(n)
    }
    #[inline(always)]
    fn below(n: usize) -> Self {
        Wide::below(n)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        Wide::is_zero(self)
    }
    #[inline(always)]
    fn has(self, n: usize) -> bool {
        Wide::has(self, n)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        if self.lo != 0 {
            self.lo.trailing_zeros()
        } else {
            128 + self.hi.trailing_zeros()
        }
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        if self.hi != 0 {
            255 - self.hi.leading_zeros()
        } else {
            127 - self.lo.leading_zeros()
        }
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        if self.lo != 0 {
            Wide {
                lo: self.lo & (self.lo - 1),
                hi: self.hi,
            }
        } else {
            Wide {
                lo: 0,
                hi: self.hi & self.hi.wrapping_sub(1),
            }
        }
    }
    #[inline(always)]
    fn line(self, shift: usize) -> usize {
        Wide::shr(self, shift).lo as usize
    }
    #[inline(always)]
    fn from_line(bits: usize, shift: usize) -> Self {
        Wide::shl(
            Wide {
                lo: bits as u128,
                hi: 0,
            },
            shift,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide word against a reference: a bit vector of 256 booleans.
    fn bools(w: Wide) -> Vec<bool> {
        (0..256).map(|i| w.has(i)).collect()
    }

    fn from_bools(b: &[bool]) -> Wide {
        (0..256)
            .filter(|&i| b[i])
            .fold(Wide::ZERO, |w, i| w | Wide::bit(i))
    }

    #[test]
    fn wide_shifts_carry_bits_across_the_halves_and_drop_those_shifted_out() {
        let mut state = 7u64;
        for _ in 0..200 {
            let lo = u128::from(crate::zobrist::splitmix64(&mut state)) << 64
                | u128::from(crate::zobrist::splitmix64(&mut state));
            let hi = u128::from(crate::zobrist::splitmix64(&mut state));
            let w = Wide { lo, hi };
            let b = bools(w);
            for n in [0, 1, 12, 13, 63, 64, 117, 127, 128, 129, 168, 200, 255, 256] {
                let up: Vec<bool> = (0..256).map(|i| i >= n && b[i - n]).collect();
                let down: Vec<bool> = (0..256).map(|i| i + n < 256 && b[i + n]).collect();
                assert_eq!(w << n, from_bools(&up), "{n}");
                assert_eq!(w >> n, from_bools(&down), "{n}");
            }
        }
    }

    #[test]
    fn wide_counts_and_lowest_bits_match_a_bit_by_bit_count() {
        let mut state = 11u64;
        for _ in 0..200 {
            let a = crate::zobrist::splitmix64(&mut state);
            let b = crate::zobrist::splitmix64(&mut state);
            let mut w = Wide {
                lo: if a.is_multiple_of(3) {
                    0
                } else {
                    u128::from(a) << 40
                },
                hi: u128::from(b) >> (a % 64),
            };
            let set: Vec<usize> = (0..256).filter(|&i| w.has(i)).collect();
            assert_eq!(SquareSet::count_ones(w) as usize, set.len());
            if let Some(&top) = set.last() {
                assert_eq!(w.highest() as usize, top);
            }
            for &i in &set {
                assert_eq!(SquareSet::trailing_zeros(w) as usize, i);
                w = w.without_lowest();
            }
            assert!(SquareSet::is_zero(w));
            assert_eq!(SquareSet::trailing_zeros(w), 256);
        }
    }

    #[test]
    fn wide_lines_read_and_write_thirteen_bits_across_the_halves() {
        for shift in (0..169).step_by(13) {
            let line = 0b1_0110_0101_1011usize;
            let w = Wide::from_line(line, shift);
            assert_eq!(w.line(shift) & 0x1fff, line, "{shift}");
            assert_eq!(SquareSet::count_ones(w), line.count_ones());
            assert_eq!(w, Wide::below(shift + 13) & !Wide::below(shift) & w);
        }
        assert_eq!(Wide::below(256), !Wide::ZERO);
        assert_eq!(Wide::below(128).narrow(), !0u128);
    }
}
