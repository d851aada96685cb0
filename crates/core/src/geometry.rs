//! The board's size. [`Geometry`] names everything that depends on it (the side, the number
//! of squares, the masks of the edge and the throne, the capacity of a move list, and the
//! tables built for it); the board, its squares, moves and sets are generic over it, and each
//! size is a type of its own ([`Seven`], [`Nine`], [`Eleven`], [`Thirteen`]), so that each is compiled for
//! its own size with its constants folded in. [`Nine`], Tablut's 9×9, is the size the plain
//! names (`Board`, `Square`, …) stand for.
//!
//! Squares are numbered by rank from `a1` (index `rank * side + file`); a line (a rank, or a
//! file in the transposed layout the board keeps) is `side` consecutive bits. A set of squares
//! is stored in the size's word, [`Geometry::Set`]: a `u128` up to 11×11, a 256-bit [`Wide`]
//! on 13×13 (docs/architecture.md, "Boards of other sizes").

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::IndexMut;

pub use crate::squareset::{SquareSet, Wide};

/// Tablut's squares along a rank or a file: [`Nine`]'s side.
pub const SIDE: usize = 9;

/// Tablut's squares on the board.
pub const SQUARES: usize = SIDE * SIDE;

/// Tablut's files' letters, from the left (file 0 is `a`).
pub const FILES: [char; SIDE] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];

/// The index of Tablut's last rank or file (the far edge).
pub const LAST: usize = SIDE - 1;

/// The index of Tablut's middle rank and file, which cross on the throne.
pub const MIDDLE: usize = SIDE / 2;

/// The occupancy patterns of one of Tablut's lines: one bit per square.
pub const LINE_PATTERNS: usize = 1 << SIDE;

/// The bits of one of Tablut's lines, at the bottom of a word.
pub const LINE_MASK: usize = LINE_PATTERNS - 1;

/// The widest board Konakis knows of: 13×13, files `a` to `m`.
pub const MAX_SIDE: usize = 13;

/// The files' letters of the widest board; a board of side `n` uses the first `n`.
pub const FILE_LETTERS: [char; MAX_SIDE] = [
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm',
];

/// The bits of file `file` on a board of side `side`.
pub const fn file_bits(side: usize, file: usize) -> Wide {
    let mut bits = Wide::ZERO;
    let mut rank = 0;
    while rank < side {
        bits = bits.or(Wide::bit(rank * side + file));
        rank += 1;
    }
    bits
}

/// The outer ring of a board of side `side`.
pub const fn edge_bits(side: usize) -> Wide {
    let mut bits = Wide::ZERO;
    let mut sq = 0;
    while sq < side * side {
        let (file, rank) = (sq % side, sq / side);
        if file == 0 || rank == 0 || file == side - 1 || rank == side - 1 {
            bits = bits.or(Wide::bit(sq));
        }
        sq += 1;
    }
    bits
}

/// The four corners of a board of side `side`.
pub const fn corner_bits(side: usize) -> Wide {
    Wide::bit(0)
        .or(Wide::bit(side - 1))
        .or(Wide::bit(side * (side - 1)))
        .or(Wide::bit(side * side - 1))
}

/// The squares next to the squares `bits` on a board of side `side` (orthogonally).
pub const fn neighbour_bits(side: usize, bits: Wide) -> Wide {
    let all = Wide::below(side * side);
    let up = bits.shl(side);
    let down = bits.shr(side);
    let right = bits.and(file_bits(side, side - 1).not()).shl(1);
    let left = bits.and(file_bits(side, 0).not()).shr(1);
    up.or(down).or(right).or(left).and(all)
}

/// An upper bound on the number of legal moves on a board of side `n` with `S = n²` squares.
///
/// A move ends on an empty square, and each empty square is reached by at most four pieces (the
/// nearest one in each direction), so there are at most `4 × E` moves with `E` empty squares.
/// Each piece reaches at most `2 (n − 1)` squares, so there are at most `2 (n − 1) × P` moves
/// with `P` pieces of the side to move. With `P + E ≤ S` the smaller of the two is at most
/// `4 S (n − 1) / (n + 1)`: 147 on 7×7, 259.2 on 9×9, 403.3 on 11×11, 579.4 on 13×13.
pub const fn max_moves(n: usize) -> usize {
    (4 * n * n * (n - 1)).div_ceil(n + 1)
}

/// A board size: its constants, and the tables built for it (by `board/tables.rs`, one set of
/// `static`s a size, each read through a method that the compiler inlines). Implemented by
/// [`Seven`], [`Nine`], [`Eleven`] and [`Thirteen`] only.
///
/// The masks are values of the size's word [`Geometry::Set`] (`u128` up to 11×11, [`Wide`] on
/// 13×13), each size's impl giving them (built by the same `const fn`s in the wide word and
/// narrowed).
pub trait Geometry: Copy + Eq + Ord + Hash + Default + Debug + Send + Sync + 'static {
    /// Squares along a rank or a file.
    const SIDE: usize;
    /// Squares on the board.
    const SQUARES: usize = Self::SIDE * Self::SIDE;
    /// The index of the last rank or file (the far edge).
    const LAST: usize = Self::SIDE - 1;
    /// The index of the middle rank and file, which cross on the throne.
    const MIDDLE: usize = Self::SIDE / 2;
    /// The bits of one line, at the bottom of a word.
    const LINE_MASK: usize = (1 << Self::SIDE) - 1;
    /// The throne's square index (the middle square; the same in the transposed layout).
    const THRONE: usize = Self::SQUARES / 2;
    /// The king's square index once he has been captured: one past the last square.
    const NO_KING: u8 = Self::SQUARES as u8;
    /// Every square's bit.
    const ALL: Self::Set;
    /// The outer ring.
    const EDGE: Self::Set;
    /// File a.
    const FILE_A: Self::Set;
    /// The last file.
    const FILE_LAST: Self::Set;
    /// The four corners.
    const CORNERS: Self::Set;
    /// The first rank.
    const RANK_FIRST: Self::Set;
    /// The last rank.
    const RANK_LAST: Self::Set;
    /// The throne's bit.
    const THRONE_BIT: Self::Set;
    /// The four squares beside the throne.
    const THRONE_RING: Self::Set;
    /// Ashton's camps (only Tablut has them; empty on other boards).
    const CAMPS: Self::Set;
    /// The middle square of each of Ashton's camps (empty on other boards).
    const CAMP_MIDDLES: Self::Set;
    /// Where a `MoveOf` keeps its second square: 7 bits a square while the
    /// board has at most 128 squares.
    const MOVE_SHIFT: u32 = if Self::SQUARES <= 128 { 7 } else { 8 };
    /// An upper bound on the number of legal moves in any position ([`max_moves`]).
    const MAX_MOVES: usize = max_moves(Self::SIDE);
    /// The Zobrist key XORed in when the defenders are to move.
    const SIDE_KEY: u64;

    /// The word a set of squares of this size is kept in: `u128` up to 11×11, [`Wide`] on
    /// 13×13.
    type Set: SquareSet;
    /// The storage of a move list that never spills: `[T; n]` with `n ≥ MAX_MOVES`.
    type Moves<T>: smallvec::Array<Item = T>;
    /// One count per line (rank or file).
    type LineCounts: Copy + Default + IndexMut<usize, Output = u32>;
    /// Where a board keeps the squares of the pieces that have moved since it was set up
    /// ([`MovedSet`]), which OpenTafl's flanking shieldwall asks about: a set of squares on
    /// every size but Tablut's 9×9, whose board keeps nothing and pays nothing for it.
    type Moved: MovedSet<Self::Set>;

    /// The square's index in the transposed layout (`file * side + rank`).
    fn transpose(sq: usize) -> usize;
    /// The bit of square index `sq` by rank; zero for [`Geometry::NO_KING`].
    fn bit(sq: usize) -> Self::Set;
    /// The bit of square index `sq` in the transposed layout; zero for [`Geometry::NO_KING`].
    fn bit_t(sq: usize) -> Self::Set;
    /// The squares next to `sq`.
    fn around(sq: usize) -> Self::Set;
    /// The neighbour of `sq` in direction `d` (`Direction::ALL` order), or
    /// [`Geometry::NO_KING`] off the board.
    fn neighbour(sq: usize, d: usize) -> u8;
    /// For each direction, the bit of the neighbour of `sq` when the square beyond it is on the
    /// board too; zero otherwise.
    fn flanks(sq: usize) -> &'static [Self::Set; 4];
    /// The squares attackers must all hold to capture a king on `sq` by surrounding him (the
    /// throne left out); empty on the edge.
    fn king_ring(sq: usize) -> Self::Set;
    /// Whether the game is won with the king's square index `king` (on the edge, or captured).
    fn king_wins(king: u8) -> bool;
    /// The four neighbours of the king's square index `king` when it is inside the edge; empty
    /// on the edge (he has escaped) and for [`Geometry::NO_KING`] (he has been captured).
    fn king_neighbours(king: usize) -> Self::Set;
    /// The rank and the file of `sq`, `sq` left out.
    fn lines(sq: usize) -> Self::Set;
    /// The squares along the ray from `sq` in direction `d`, `sq` left out.
    fn ray(d: usize, sq: usize) -> Self::Set;
    /// The squares a piece at position `p` of a line reaches, the line's occupied squares being
    /// `occ` (its own bit ignored).
    fn slides(p: usize, occ: usize) -> u16;
    /// A line's bits along file `file` (bit `i` = rank `i`) as a set of squares.
    fn spread_file(file: usize, bits: usize) -> Self::Set;
    /// The inner positions of a line with occupied squares `occ` that see one of its ends.
    fn edge_view(occ: usize) -> u16;
    /// The camp (Ashton's) of `sq`, by rank; empty outside the camps.
    fn camp_of(sq: usize) -> Self::Set;
    /// The camp of `sq` as a transposed set.
    fn camp_of_t(sq: usize) -> Self::Set;
    /// The moves of the pieces `movers` along a line whose blockers are `block` (the movers
    /// among them); `middle` for the middle line, whose centre, the throne, no soldier stops on.
    fn line_moves(block: usize, movers: usize, middle: bool) -> u32;
    /// The Zobrist key of piece kind `piece` (the `Piece` discriminant) on square `sq`.
    fn piece_key(piece: usize, sq: usize) -> u64;
}

/// Brandubh's 7×7 board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Seven;

/// Tablut's 9×9 board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Nine;

/// The 11×11 board of Copenhagen and Fetlar Hnefatafl.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Eleven;

/// The 13×13 board of hnefatafl.org's 13×13 game; its sets of squares are [`Wide`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Thirteen;

// What the tables built from these names rely on, checked when the crate compiles.
const _: () = assert!(FILES.len() == SIDE);
const _: () = assert!(SIDE % 2 == 1, "the throne needs a middle square");
const _: () = assert!(SQUARES < 128, "a set of Tablut's squares is a u128");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_lettered_from_a_in_order() {
        for (file, &letter) in FILE_LETTERS.iter().enumerate() {
            assert_eq!(letter as usize, 'a' as usize + file);
        }
        assert_eq!(FILES[..], FILE_LETTERS[..SIDE]);
        assert_eq!(LINE_MASK.count_ones() as usize, SIDE);
    }

    #[test]
    fn the_move_bound_is_the_one_worked_out_for_each_size() {
        assert_eq!(max_moves(7), 147);
        assert_eq!(max_moves(9), 260);
        assert_eq!(max_moves(11), 404);
        assert_eq!(max_moves(13), 580);
        assert_eq!(<Nine as Geometry>::MAX_MOVES, 260);
    }
}

/// The squares of the pieces that have moved since a board was set up, as a board of one size
/// keeps them ([`Geometry::Moved`]): a set of squares ([`SquareSet`]), or nothing
/// ([`NotKept`]), on which every piece counts as never moved.
pub trait MovedSet<S: SquareSet>:
    Copy + Eq + Hash + Default + Debug + Send + Sync + 'static
{
    /// Whether the board keeps the set.
    const KEPT: bool;
    /// The squares of the pieces that have moved.
    fn squares(self) -> S;
    /// Replaces the squares (nothing, where the set is not kept).
    fn set_squares(&mut self, squares: S);
}

impl<S: SquareSet> MovedSet<S> for S {
    const KEPT: bool = true;
    #[inline]
    fn squares(self) -> S {
        self
    }
    #[inline]
    fn set_squares(&mut self, squares: S) {
        *self = squares;
    }
}

/// The [`MovedSet`] of a board that keeps none: empty, the same size as nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct NotKept;

impl<S: SquareSet> MovedSet<S> for NotKept {
    const KEPT: bool = false;
    #[inline]
    fn squares(self) -> S {
        S::ZERO
    }
    #[inline]
    fn set_squares(&mut self, _: S) {}
}
