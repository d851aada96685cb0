//! # konakis-core
//!
//! The rules of Tablut, the 9×9 tafl game Linnaeus recorded in Lapland in 1732: a king and
//! eight defenders try to bring the king to an edge square; sixteen attackers try to capture him.
//!
//! This crate owns the square and move types ([`types`]), the 81-square [`Bitboard`], every rule
//! option ([`rules`]), the board with its move generator, game record, position strings and
//! king-danger tests ([`board`]), the Zobrist keys ([`zobrist`]) and [`perft`]. It knows nothing
//! of search, protocols or threads.
//!
//! ```
//! use konakis_core::{Board, Rules, perft::perft};
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
pub mod perft;
pub mod rules;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, DrawReason, Game, GameError, MoveList, Status, WinReason};
pub use rules::{KingCapture, Rules, Ruleset};
pub use types::{BySide, Direction, Move, Piece, Side, Square};
