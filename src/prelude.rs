//! The names a program that embeds Konakis needs most, to import in one line:
//!
//! ```
//! use konakis::prelude::*;
//!
//! let rules = Rules::default();
//! let mut game = Game::start(rules);
//! let mv = game.board().parse_move(&rules, "d1d3").unwrap();
//! assert_eq!(game.play(mv), Ok(Status::Ongoing));
//! assert_eq!(game.board().side_to_move(), Side::Defenders);
//! ```
//!
//! It holds the rules core (positions, moves, games and their errors) and the search engine's
//! facade ([`Engine`] with its [`Limits`], [`Settings`] and [`Report`]s).

pub use crate::bitboard::Bitboard;
pub use crate::board::{
    Board, DrawReason, Game, GameError, IllegalMove, IllegalReason, MoveError, MoveList,
    PositionError, START_FEN, Status, WinReason,
};
pub use crate::rules::{KingCapture, Rules, RulesError, Ruleset};
pub use crate::search::{Engine, EngineError, Info, Limits, Report, Score, Settings};
pub use crate::types::{
    BySide, Direction, Move, MoveParseError, Piece, Side, Square, SquareParseError,
};
