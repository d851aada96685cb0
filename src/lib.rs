//! # Konakis
//!
//! A Tablut engine: the 9×9 tafl game Linnaeus recorded in Lapland in 1732. A king and eight
//! defenders try to bring the king to any edge square; sixteen attackers try to capture him.
//!
//! The library has two layers a program can embed:
//!
//! - the **rules**: [`Rules`] (every rule option, Linnaeus' game and the Tablut Challenge's
//!   Ashton rules), [`Board`] (a position: legal moves, captures, position strings),
//!   [`Game`] (a board with its history, for repetition and the move limit, and its
//!   [`Status`]), Zobrist keys and [`perft`];
//! - the **engine**: [`search::Engine`], which owns the transposition table and the search
//!   threads, searches a [`Game`] within [`search::Limits`] on its own thread and reports
//!   through a callback, ending every search with one [`search::Report::BestMove`].
//!
//! [`prelude`] imports the names these need in one line. Errors are types whose `Display`
//! gives the message a user reads ([`PositionError`], [`MoveError`], [`GameError`],
//! [`RulesError`], ...), so that a program can tell, say, a blocked move from an occupied
//! square without reading text. The front-ends (the line protocol, OpenTafl's OTEP and the
//! Tablut Challenge client) are in [`protocol`], [`opentafl`] and [`challenge`].
//!
//! Parse a position, list its moves, play one and ask for the status:
//!
//! ```
//! use konakis::prelude::*;
//!
//! let rules = Rules::default();
//! let board = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b").unwrap();
//! assert_eq!(board.legal_moves(&rules).len(), 80);
//! assert_eq!(konakis::perft::perft(&board, &rules, 2), 4_400);
//! let mut game = Game::new(rules, board);
//! assert_eq!(game.play(Move::parse("d1d3").unwrap()), Ok(Status::Ongoing));
//! assert_eq!(game.board().side_to_move(), Side::Defenders);
//! ```
//!
//! Let the engine choose a move:
//!
//! ```
//! use konakis::prelude::*;
//! use std::sync::{Arc, Mutex};
//!
//! let game = Game::start(Rules::default());
//! let mut engine = Engine::new(Settings::default());
//! let best = Arc::new(Mutex::new(None));
//! let seen = Arc::clone(&best);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! engine
//!     .go(&game, limits, move |report| {
//!         if let Report::BestMove { best, .. } = report {
//!             *seen.lock().unwrap() = best;
//!         }
//!     })
//!     .unwrap();
//! engine.wait();
//! let mv = best.lock().unwrap().expect("the start position has moves");
//! assert!(game.board().check_move(game.rules(), mv).is_ok());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

#[macro_use]
#[deny(missing_docs)]
mod bitboard;
#[deny(missing_docs)]
pub mod board;
pub mod challenge;
pub mod eval;
pub mod opentafl;
#[deny(missing_docs)]
pub mod perft;
pub mod prelude;
pub mod protocol;
#[deny(missing_docs)]
pub mod rules;
pub mod search;
pub mod tools;
#[deny(missing_docs)]
pub mod types;
#[deny(missing_docs)]
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{
    Board, DrawReason, Game, GameError, IllegalMove, IllegalReason, MoveError, MoveList,
    PositionError, Status, WinReason,
};
pub use rules::{KingCapture, Rules, RulesError, Ruleset};
pub use types::{BySide, Direction, Move, MoveParseError, Piece, Side, Square, SquareParseError};
