//! The board's size, named once: every table, mask and loop that depends on how many squares
//! a rank holds reads it from here, so that a board of another size changes this file only.
//!
//! Squares are numbered by rank from `a1` (index `rank * SIDE + file`); a line (a rank, or a
//! file in the transposed layout the board keeps) is [`SIDE`] consecutive bits.

/// Squares along a rank or a file.
pub const SIDE: usize = 9;

/// Squares on the board.
pub const SQUARES: usize = SIDE * SIDE;

/// The files' letters, from the left (file 0 is `a`).
pub const FILES: [char; SIDE] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];

/// The index of the last rank or file (the far edge).
pub const LAST: usize = SIDE - 1;

/// The index of the middle rank and file, which cross on the throne.
pub const MIDDLE: usize = SIDE / 2;

/// The occupancy patterns of one line: one bit per square.
pub const LINE_PATTERNS: usize = 1 << SIDE;

/// The bits of one line, at the bottom of a word.
pub const LINE_MASK: usize = LINE_PATTERNS - 1;

// What the tables built from these names rely on, checked when the crate compiles.
const _: () = assert!(FILES.len() == SIDE);
const _: () = assert!(SIDE % 2 == 1, "the throne needs a middle square");
const _: () = assert!(SQUARES < 128, "a set of squares is a u128");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_lettered_from_a_in_order() {
        for (file, &letter) in FILES.iter().enumerate() {
            assert_eq!(letter as usize, 'a' as usize + file);
        }
        assert_eq!(LINE_MASK.count_ones() as usize, SIDE);
    }
}
