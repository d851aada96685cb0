//! # konakis-nnue
//!
//! The machinery of a learned evaluation for Konakis (docs/nnue.md):
//!
//! - [`data`]: the self-play training data, a versioned binary file of fixed-size records
//!   (position, side to move, plies, search score, game result, rule family), with its one
//!   writer and its reader;
//! - [`network`]: the floating-point network and its file (versioned header, CRC-32);
//! - [`train`] (feature `train`): a trainer on the CPU, parallel over a batch with rayon;
//! - [`quant`]: the integer network the search would run, with an [`quant::Accumulator`]
//!   updated incrementally as moves are played;
//! - [`stack`]: the accumulators along a search's path, brought up to date when evaluated;
//! - `simd` (private): the choice between the hot loops' portable copy and their AVX2 copy,
//!   made once per network.
//!
//! The network reads 3 × 81 piece-square inputs ([`feature`]): one per kind of piece (attacking
//! soldier, defending soldier, king) and square. Its hidden layer is shared by both sides; the
//! output layer has one head per side to move, so the score is the side to move's.
//!
//! It depends on the rules of `konakis-core` only, not on the search.

// One `unsafe` call, in `simd`, where a measurement showed it worth having.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod network;
pub mod quant;
mod quant_format;
mod simd;
pub mod stack;
#[cfg(feature = "train")]
pub mod train;

use konakis_core::geometry::{LAST, SIDE};
use konakis_core::rules::{KingCapture, Rules};
use konakis_core::types::{Piece, Square};
use std::fmt;

/// Squares of the board.
pub const SQUARES: usize = Square::COUNT;

/// Inputs of the network: one per kind of piece and square.
pub const INPUTS: usize = 3 * SQUARES;

/// Output heads: one per side to move (attackers, defenders).
pub const HEADS: usize = 2;

/// The most inputs a position sets: sixteen attackers, eight defenders and the king.
pub const MAX_ACTIVE: usize = 25;

/// The input of `piece` on `sq`: kind × 81 + square.
#[inline]
pub const fn feature(piece: Piece, sq: Square) -> usize {
    piece as usize * SQUARES + sq.index()
}

/// Calls `f` with every input a position sets: each attacking soldier (bits of `attackers`,
/// by rank), each defending soldier, and the king on `king` (a square index; 81 or more means
/// captured, no input).
#[inline]
pub fn for_each_feature(attackers: u128, defenders: u128, king: u8, mut f: impl FnMut(usize)) {
    let mut bits = attackers;
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
    let mut bits = defenders;
    while bits != 0 {
        f(SQUARES + bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
    if (king as usize) < SQUARES {
        f(2 * SQUARES + king as usize);
    }
}

/// The board's symmetries: the eight maps of the square onto itself (rotations by a quarter
/// turn and reflections). Every rule Konakis plays is drawn on a board they leave unchanged
/// (the throne at the centre, the four edges, Ashton's four camps), so a position and its image
/// under any of them are the same game: the trainer can show each position in any of its eight
/// orientations (`konakis train --symmetries`).
pub const SYMMETRIES: usize = 8;

/// The image of the square index `sq` (`rank × 9 + file`, below 81) under symmetry `k`
/// (0 to 7; 0 is the identity): `k & 4` transposes ranks and files, then `k & 1` mirrors the
/// files and `k & 2` the ranks.
#[inline]
pub const fn symmetric_square(sq: u8, k: usize) -> u8 {
    let (side, last) = (SIDE as u8, LAST as u8);
    let (mut rank, mut file) = (sq / side, sq % side);
    if k & 4 != 0 {
        (rank, file) = (file, rank);
    }
    if k & 1 != 0 {
        file = last - file;
    }
    if k & 2 != 0 {
        rank = last - rank;
    }
    rank * side + file
}

/// The image of a set of squares (bit `rank × 9 + file`) under symmetry `k`.
#[inline]
pub fn symmetric_set(mut bits: u128, k: usize) -> u128 {
    let mut image = 0u128;
    while bits != 0 {
        image |= 1u128 << symmetric_square(bits.trailing_zeros() as u8, k);
        bits &= bits - 1;
    }
    image
}

/// The family of rules a position was played under: a network is trained for one family.
///
/// The three families Konakis plays are exact rule sets up to the two options that only say
/// when a game ends in a draw (`RepetitionDraw`, `MoveLimit`): they change no capture, move or
/// win, so a network trained under one move limit serves under another. Any other
/// combination of the rule options is [`RuleFamily::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleFamily {
    /// `Rules::default()`: Linnaeus as docs/rules.md reads him.
    Default = 0,
    /// The default rules with `KingCapture=English`.
    English = 1,
    /// `Ruleset=Ashton` (the Tablut Challenge).
    Ashton = 2,
    /// Any other combination of rule options.
    Other = 3,
}

impl RuleFamily {
    /// The family of `rules`.
    pub fn of(rules: &Rules) -> RuleFamily {
        let default = Rules::default();
        let plain = |r: Rules| Rules {
            repetition_draw: default.repetition_draw,
            move_limit: default.move_limit,
            ..r
        };
        let rules = plain(*rules);
        if rules == default {
            RuleFamily::Default
        } else if rules
            == (Rules {
                king_capture: KingCapture::English,
                ..default
            })
        {
            RuleFamily::English
        } else if rules == plain(Rules::ashton()) {
            RuleFamily::Ashton
        } else {
            RuleFamily::Other
        }
    }

    /// The family stored as `code` in a file, if it is one.
    pub fn from_code(code: u8) -> Option<RuleFamily> {
        match code {
            0 => Some(RuleFamily::Default),
            1 => Some(RuleFamily::English),
            2 => Some(RuleFamily::Ashton),
            3 => Some(RuleFamily::Other),
            _ => None,
        }
    }

    /// The code stored in files.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The name users read.
    pub const fn name(self) -> &'static str {
        match self {
            RuleFamily::Default => "default",
            RuleFamily::English => "KingCapture=English",
            RuleFamily::Ashton => "Ashton",
            RuleFamily::Other => "other rules",
        }
    }
}

impl fmt::Display for RuleFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::Board;

    #[test]
    fn the_start_position_sets_one_input_per_piece() {
        let board = Board::start(&Rules::default());
        let mut seen = Vec::new();
        for_each_feature(
            board.attackers().bits(),
            board.defenders().bits(),
            board.king().unwrap().index() as u8,
            |i| seen.push(i),
        );
        assert_eq!(seen.len(), MAX_ACTIVE);
        assert!(seen.contains(&feature(Piece::King, Square::THRONE)));
        assert!(seen.iter().all(|&i| i < INPUTS));
    }

    #[test]
    fn the_three_families_are_told_apart() {
        let mut english = Rules::default();
        english.set("KingCapture", "English").unwrap();
        let mut hostile = Rules::default();
        hostile.set("ThroneHostile", "true").unwrap();
        assert_eq!(RuleFamily::of(&Rules::default()), RuleFamily::Default);
        assert_eq!(RuleFamily::of(&english), RuleFamily::English);
        assert_eq!(RuleFamily::of(&Rules::ashton()), RuleFamily::Ashton);
        assert_eq!(RuleFamily::of(&hostile), RuleFamily::Other);
        // How a game is drawn does not change the family.
        let mut long = english;
        long.set("MoveLimit", "0").unwrap();
        long.set("RepetitionDraw", "5").unwrap();
        assert_eq!(RuleFamily::of(&long), RuleFamily::English);
        for f in [0, 1, 2, 3] {
            assert_eq!(RuleFamily::from_code(f).unwrap().code(), f);
        }
        assert_eq!(RuleFamily::from_code(4), None);
    }

    #[test]
    fn the_symmetries_are_the_eight_distinct_maps_of_the_square() {
        let corner = 0u8; // a1
        let knight = 9 + 2; // c2: no symmetry but the identity fixes it
        let mut images = Vec::new();
        for k in 0..SYMMETRIES {
            // Each is a permutation of the squares that keeps the throne and the corners.
            let all: Vec<u8> = (0..81).map(|sq| symmetric_square(sq, k)).collect();
            let mut sorted = all.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..81).collect::<Vec<u8>>(), "symmetry {k}");
            assert_eq!(symmetric_square(Square::THRONE.index() as u8, k), 40);
            assert!([0, 8, 72, 80].contains(&symmetric_square(corner, k)));
            // A reflection (and the half turn) undoes itself; a quarter turn (5, 6) takes four.
            let twice = symmetric_square(symmetric_square(knight, k), k);
            let four = (0..4).fold(knight, |sq, _| symmetric_square(sq, k));
            assert_eq!(four, knight, "symmetry {k}");
            assert_eq!(twice == knight, k != 5 && k != 6, "symmetry {k}");
            images.push(symmetric_square(knight, k));
        }
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), SYMMETRIES, "the eight images of c2 differ");
        let start = Board::start(&Rules::default());
        for k in 0..SYMMETRIES {
            assert_eq!(
                symmetric_set(start.attackers().bits(), k),
                start.attackers().bits()
            );
            assert_eq!(
                symmetric_set(start.defenders().bits(), k),
                start.defenders().bits()
            );
        }
    }
}
