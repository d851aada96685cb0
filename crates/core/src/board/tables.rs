//! Lookup tables for sliding moves along one line (a rank or a file) of nine squares,
//! all computed at compile time.
//!
//! A line is a 9-bit mask, bit `i` for the square at position `i` along it. Files are read from
//! the transposed bitboards the board keeps, so one set of tables serves ranks and files.

use crate::geometry::{LAST, LINE_MASK, LINE_PATTERNS, MIDDLE, SIDE, SQUARES};
/// `SLIDES[p][occ]`: the squares a piece at position `p` reaches along a line whose occupied
/// squares are `occ` (the piece's own bit is ignored): empty squares up to the first blocker.
pub(super) static SLIDES: [[u16; LINE_PATTERNS]; SIDE] = make_slides();

const fn make_slides() -> [[u16; LINE_PATTERNS]; SIDE] {
    let mut t = [[0u16; LINE_PATTERNS]; SIDE];
    let mut p = 0;
    while p < SIDE {
        let mut occ = 0;
        while occ < LINE_PATTERNS {
            let mut bits = 0u16;
            let mut i = p + 1;
            while i < SIDE && occ & (1 << i) == 0 {
                bits |= 1 << i;
                i += 1;
            }
            let mut i = p as i32 - 1;
            while i >= 0 && occ & (1 << i) == 0 {
                bits |= 1 << i;
                i -= 1;
            }
            t[p][occ] = bits;
            occ += 1;
        }
        p += 1;
    }
    t
}

/// `TERNARY[mask]`: the 9-bit mask read as base-3 digits (bit `i` → 3^i). A line's state as
/// one number is `TERNARY[occupied] + TERNARY[movers]`: digit 0 empty, 1 another piece,
/// 2 a piece of the side being counted.
pub(super) static TERNARY: [u16; LINE_PATTERNS] = make_ternary();

const fn make_ternary() -> [u16; LINE_PATTERNS] {
    let mut t = [0u16; LINE_PATTERNS];
    let mut m = 0;
    while m < LINE_PATTERNS {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut i = 0;
        while i < SIDE {
            if m & (1 << i) != 0 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

/// Number of line states in base 3.
pub(super) const LINE_STATES: usize = 3usize.pow(SIDE as u32);

/// Length of the [`LINE_MOVES`] tables: the power of two above [`LINE_STATES`], so that a state
/// masked with `LINE_TABLE - 1` (which leaves it unchanged) is an index the compiler knows to
/// be in bounds, and no bounds check is made. The entries past the states are never read.
pub(super) const LINE_TABLE: usize = LINE_STATES.next_power_of_two();

/// `LINE_MOVES[state]`: how many moves the side's pieces have along a line in that ternary
/// state (see [`TERNARY`]).
pub(super) static LINE_MOVES: [u8; LINE_TABLE] = make_line_moves(false);

/// As [`LINE_MOVES`], for the middle rank or file, whose centre square (position 4) is the
/// throne: if empty it may be crossed but not stopped on. (When the throne may not be crossed,
/// the caller marks it occupied.)
pub(super) static LINE_MOVES_THRONE: [u8; LINE_TABLE] = make_line_moves(true);

const fn make_line_moves(throne: bool) -> [u8; LINE_TABLE] {
    let mut t = [0u8; LINE_TABLE];
    let mut state = 0;
    while state < LINE_STATES {
        let mut digits = [0u8; SIDE];
        let mut s = state;
        let mut i = 0;
        while i < SIDE {
            digits[i] = (s % 3) as u8;
            s /= 3;
            i += 1;
        }
        let mut count = 0u8;
        let mut p = 0;
        while p < SIDE {
            if digits[p] == 2 {
                let mut i = p + 1;
                while i < SIDE && digits[i] == 0 {
                    if !(throne && i == MIDDLE) {
                        count += 1;
                    }
                    i += 1;
                }
                let mut i = p as i32 - 1;
                while i >= 0 && digits[i as usize] == 0 {
                    if !(throne && i == MIDDLE as i32) {
                        count += 1;
                    }
                    i -= 1;
                }
            }
            p += 1;
        }
        t[state] = count;
        state += 1;
    }
    t
}

/// `TRANSPOSE[sq]`: the index of square `sq` in the transposed bitboards (`file * 9 + rank`).
pub(super) static TRANSPOSE: [u8; SQUARES] = {
    let mut t = [0u8; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = ((sq % SIDE) * SIDE + sq / SIDE) as u8;
        sq += 1;
    }
    t
};

/// `SPREAD_FILE[f][bits]`: a 9-bit mask along file `f` (bit `i` = rank `i`) as a board set.
pub(super) static SPREAD_FILE: [[u128; LINE_PATTERNS]; SIDE] = {
    let mut t = [[0u128; LINE_PATTERNS]; SIDE];
    let mut f = 0;
    while f < SIDE {
        let mut m = 0;
        while m < LINE_PATTERNS {
            let mut b = 0u128;
            let mut i = 0;
            while i < SIDE {
                if m & (1 << i) != 0 {
                    b |= 1u128 << (i * SIDE + f);
                }
                i += 1;
            }
            t[f][m] = b;
            m += 1;
        }
        f += 1;
    }
    t
};

/// `EDGE_VIEW[occ]`: the inner positions (1..=7) of a line from which a piece can slide to
/// one of the line's two end squares, given the occupied squares `occ` (the piece's own square
/// is ignored): everything between it and that end, the end included, is empty.
pub(super) static EDGE_VIEW: [u16; LINE_PATTERNS] = {
    let mut t = [0u16; LINE_PATTERNS];
    let mut occ = 0;
    while occ < LINE_PATTERNS {
        let mut bits = 0u16;
        let mut p = 1;
        while p < LAST {
            let low_clear = occ & ((1 << p) - 1) == 0;
            let high_clear = occ & (LINE_MASK & !((1 << (p + 1)) - 1)) == 0;
            if low_clear || high_clear {
                bits |= 1 << p;
            }
            p += 1;
        }
        t[occ] = bits;
        occ += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_view_needs_a_clear_path_to_an_end() {
        assert_eq!(EDGE_VIEW[0], 0b0_1111_1110);
        // blockers at 0 and 8: nothing sees an end
        assert_eq!(EDGE_VIEW[0b1_0000_0001], 0);
        // blocker at 3: positions 1, 2 see the low end; 4..7 see the high end; 3 itself too
        assert_eq!(EDGE_VIEW[0b0_0000_1000], 0b0_1111_1110);
        // blockers at 2 and 6: 1 and 2 see the low end, 6 and 7 the high end (a square's own
        // piece does not block it), 3..5 nothing
        assert_eq!(EDGE_VIEW[0b0_0100_0100], 0b0_1100_0110);
    }

    #[test]
    fn slides_stop_before_blockers() {
        // piece at position 2, blockers at 0 and 6: reaches 1, 3, 4, 5
        assert_eq!(SLIDES[2][0b1_000_101], 0b0_111_010);
        assert_eq!(SLIDES[0][0], 0b1_1111_1110);
        assert_eq!(SLIDES[8][0b0100_0000], 0b1000_0000);
    }

    #[test]
    fn line_moves_agree_with_slides() {
        for occ in 0..512usize {
            // every subset of the occupied squares as movers
            let mut movers = occ;
            loop {
                let state = TERNARY[occ] as usize + TERNARY[movers] as usize;
                let mut plain = 0;
                let mut throne = 0;
                for p in 0..9 {
                    if movers & (1 << p) != 0 {
                        plain += SLIDES[p][occ].count_ones();
                        throne += (SLIDES[p][occ] & !(1 << 4)).count_ones();
                    }
                }
                assert_eq!(LINE_MOVES[state] as u32, plain);
                assert_eq!(LINE_MOVES_THRONE[state] as u32, throne);
                if movers == 0 {
                    break;
                }
                movers = (movers - 1) & occ;
            }
        }
    }
}
