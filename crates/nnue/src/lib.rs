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
//!   updated incrementally as moves are played.
//!
//! The network reads 3 × 81 piece-square inputs ([`feature`]): one per kind of piece (attacking
//! soldier, defending soldier, king) and square. Its hidden layer is shared by both sides; the
//! output layer has one head per side to move, so the score is the side to move's.
//!
//! It depends on the rules of `konakis-core` only, not on the search.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod network;
pub mod quant;
#[cfg(feature = "train")]
pub mod train;

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

/// The family of rules a position was played under: a network is trained for one family.
///
/// The three families Konakis plays are exact rule sets up to the two options that only say
/// when a game ends in a draw (`RepetitionDraw`, `MoveLimit`): they change no capture, move or
/// win, so a network trained under one move limit serves under another. Any other
/// combination of the rule options is [`RuleFamily::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleFamily {
    /// `Rules::default()`: Linnaeus as the README reads him.
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
}
