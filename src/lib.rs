//! # Konakis
//!
//! A Tablut engine: the 9×9 tafl game Linnaeus recorded in Lapland in 1732. A king and eight
//! defenders try to bring the king to any edge square; sixteen attackers try to capture him.
//!
//! The library holds the rules ([`Rules`], [`Board`], [`Game`]) under every rule option,
//! position strings, Zobrist keys and [`perft`].
//!
//! ```
//! use konakis::{Board, Rules, perft::perft};
//! let rules = Rules::default();
//! let board = Board::start(&rules);
//! assert_eq!(perft(&board, &rules, 2), 4_400);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod bitboard;
pub mod board;
pub mod challenge;
pub mod eval;
pub mod opentafl;
pub mod perft;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, DrawReason, Game, GameError, MoveList, Status, WinReason};
pub use rules::{KingCapture, Rules, Ruleset};
pub use types::{BySide, Direction, Move, Piece, Side, Square};
