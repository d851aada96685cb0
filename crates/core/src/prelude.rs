//! The names a program that plays Tablut through this crate needs most, to import in one line:
//!
//! ```
//! use konakis_core::prelude::*;
//!
//! let rules = Rules::default();
//! let mut game = Game::start(rules);
//! let mv = game.board().parse_move(&rules, "d1d3").unwrap();
//! assert_eq!(game.play(mv), Ok(Status::Ongoing));
//! assert_eq!(game.board().side_to_move(), Side::Defenders);
//! ```
//!
//! Positions, moves, games, the rule options, and their errors. (The `konakis` crate's prelude
//! adds the search engine.)

pub use crate::bitboard::Bitboard;
pub use crate::board::{
    Board, DrawReason, Game, GameError, IllegalMove, IllegalReason, MoveError, MoveList,
    PositionError, START_FEN, Status, WinReason,
};
pub use crate::rules::{KingCapture, Rules, RulesError, Ruleset};
pub use crate::types::{
    BySide, Direction, Move, MoveParseError, Piece, Side, Square, SquareParseError,
};
