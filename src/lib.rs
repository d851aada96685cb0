//! # Konakis
//!
//! A Tablut engine: the 9×9 tafl game Linnaeus recorded in Lapland in 1732. A king and eight
//! defenders try to bring the king to any edge square; sixteen attackers try to capture him.
//!
//! This crate gathers the workspace's libraries under one name, in two layers a program can
//! embed:
//!
//! - the **rules**, from `konakis-core`: [`Rules`] (every rule option, Linnaeus' game and the
//!   Tablut Challenge's Ashton rules), [`Board`] (a position: legal moves, captures, position
//!   strings), [`Game`] (a board with its history, for repetition and the move limit, and its
//!   [`Status`]), Zobrist keys and [`perft`];
//! - the **engine**, from `konakis-engine`: [`Engine`], the one engine session every
//!   front-end works through (it owns the searcher, the game with its history and the option
//!   table; `examples/embed.rs` embeds it in twenty lines), and beneath it
//!   [`search::Searcher`], which owns the transposition table and the search threads,
//!   searches a [`Game`] within [`search::Limits`] on its own thread and reports through a
//!   callback, ending every search with one [`search::Report::BestMove`]; and the
//!   [`eval`]uation.
//!
//! [`prelude`] imports the names these need in one line. Errors are types whose `Display`
//! gives the message a user reads ([`PositionError`], [`MoveError`], [`GameError`],
//! [`RulesError`], ...), so that a program can tell, say, a blocked move from an occupied
//! square without reading text.
//!
//! The front-ends, from `konakis-protocols`, are the line [`protocol`], [`opentafl`]'s OTEP
//! and the Tablut [`challenge`] client; the [`tools`] (bench, tactics, matches, openings,
//! tune) come from `konakis-engine` and `konakis-runner`.
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
//! Let the searcher beneath the engine choose a move:
//!
//! ```
//! use konakis::prelude::*;
//! use std::sync::{Arc, Mutex};
//!
//! let game = Game::start(Rules::default());
//! let mut searcher = Searcher::new(Settings::default());
//! let best = Arc::new(Mutex::new(None));
//! let seen = Arc::clone(&best);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! searcher
//!     .go(&game, limits, move |report| {
//!         if let Report::BestMove { best, .. } = report {
//!             *seen.lock().unwrap() = best;
//!         }
//!     })
//!     .unwrap();
//! searcher.wait();
//! let mv = best.lock().unwrap().expect("the start position has moves");
//! assert!(game.board().check_move(game.rules(), mv).is_ok());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use konakis_core::{board, perft, rules, types, zobrist};
/// The engine session every front-end works through, and its companion types.
pub use konakis_engine::{
    Engine, EngineError, EvalFileError, Explain, GameReset, SearchId, Start, Synced,
};
pub use konakis_engine::{eval, network, review, search, skill, wdl};
/// The review of games as JSON (`konakis analyse --json`, the browser package).
pub use konakis_protocols::review::{ReviewedGame, review_json};
pub use konakis_protocols::{opentafl, protocol};

pub mod exit;
pub mod prelude;

/// The Tablut Challenge client of `konakis-protocols`, with the exit codes of
/// `konakis tablut-challenge`.
pub mod challenge {
    pub use crate::exit::challenge as exit;
    pub use konakis_protocols::challenge::*;
}

pub use konakis_core::bitboard;
pub use konakis_core::{
    Bitboard, Board, DrawReason, Game, GameError, IllegalMove, IllegalReason, MoveError, MoveList,
    PositionError, Status, WinReason,
};
pub use konakis_core::{
    BySide, Direction, Move, MoveParseError, Piece, Side, Square, SquareParseError,
};
pub use konakis_core::{KingCapture, Rules, RulesError, Ruleset};

/// The tools behind the subcommands: bench and its tactics suite (from `konakis-engine`), the
/// match runner, the openings generator and the tuner (from `konakis-runner`).
pub mod tools {
    pub use konakis_engine::{bench, tactics};
    pub use konakis_runner::{matches, openings, tune, wdl_fit};
}
