//! # Konakis
//!
//! A Tablut engine: the 9×9 tafl game Linnaeus recorded in Lapland in 1732. A king and eight
//! defenders try to bring the king to any edge square; sixteen attackers try to capture him.
//!
//! This crate gathers the workspace's libraries under one name:
//! - the rules ([`Rules`], [`Board`], [`Game`]) under every rule option, position strings,
//!   Zobrist keys and [`perft`] come from `konakis-core`;
//! - the evaluation and the [`search`] come from `konakis-engine`;
//! - the line [`protocol`], [`opentafl`] and the Tablut [`challenge`] client come from
//!   `konakis-protocols`;
//! - the [`tools`] (bench, tactics, matches, openings, tune) come from `konakis-engine` and
//!   `konakis-runner`.
//!
//! ```
//! use konakis::{Board, Rules, perft::perft};
//! let rules = Rules::default();
//! let board = Board::start(&rules);
//! assert_eq!(perft(&board, &rules, 2), 4_400);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use konakis_core::{board, perft, rules, types, zobrist};
pub use konakis_engine::{eval, search};
pub use konakis_protocols::{opentafl, protocol};

pub mod exit;

/// The Tablut Challenge client of `konakis-protocols`, with the exit codes of
/// `konakis tablut-challenge`.
pub mod challenge {
    pub use crate::exit::challenge as exit;
    pub use konakis_protocols::challenge::*;
}

pub use konakis_core::bitboard;
pub use konakis_core::{Bitboard, Board, DrawReason, Game, GameError, MoveList, Status, WinReason};
pub use konakis_core::{BySide, Direction, Move, Piece, Side, Square};
pub use konakis_core::{KingCapture, Rules, Ruleset};

/// The tools behind the subcommands: bench and its tactics suite (from `konakis-engine`), the
/// match runner, the openings generator and the tuner (from `konakis-runner`).
pub mod tools {
    pub use konakis_engine::{bench, tactics};
    pub use konakis_runner::{matches, openings, tune};
}
