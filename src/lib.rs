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
//!   table; `examples/embed.rs` embeds it in twenty lines), the only way to the search
//!   beneath it: it searches its game within [`search::Limits`] on a thread of its own or the
//!   caller's and reports through a callback, ending every search with one
//!   [`search::Report::BestMove`], searches a tool's own positions ([`Engine::analyse`]),
//!   reviews games ([`Engine::review`]) and traces the [`eval`]uation
//!   ([`Engine::trace_eval`]).
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
//! Let the engine choose a move in its game, on a thread of its own:
//!
//! ```
//! use konakis::prelude::*;
//! use std::sync::{Arc, Mutex};
//!
//! let mut engine = Engine::new(Options::default()).unwrap();
//! let best = Arc::new(Mutex::new(None));
//! let seen = Arc::clone(&best);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! engine
//!     .think(limits, move |_, report| {
//!         if let Report::BestMove { best, .. } = report {
//!             *seen.lock().unwrap() = best;
//!         }
//!     })
//!     .unwrap();
//! engine.wait(None);
//! let mv = best.lock().unwrap().expect("the start position has moves");
//! assert!(engine.board().check_move(engine.game().rules(), mv).is_ok());
//! ```
//!
//! Or analyse a position of one's own on the calling thread:
//!
//! ```
//! use konakis::prelude::*;
//!
//! let mut engine = Engine::new(Options::default()).unwrap();
//! let game = Game::start(Rules::ashton());
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let outcome = engine.analyse(&game, limits, Cancel::Never).unwrap();
//! assert!(outcome.best.is_some() && outcome.info.is_some());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use konakis_core::{board, geometry, perft, rules, types, zobrist};
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
