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
//! The board, its squares, moves and sets are generic over the board's size ([`geometry`]:
//! 7×7, 9×9, 11×11, 13×13), as [`BoardOf`], [`SquareOf`], [`MoveOf`] and [`BitboardOf`]; the plain
//! names are Tablut's 9×9. Generation, captures, king danger, position strings, games and
//! perft work on every size; the king-line views (escape paths, parries) and the start
//! position behind `Board::start` are Tablut's.
//!
//! ```
//! use konakis_core::board::{BoardOf, COPENHAGEN_FEN};
//! use konakis_core::geometry::Eleven;
//! use konakis_core::perft::perft;
//! use konakis_core::{MoveOf, Rules};
//!
//! let rules = Rules::default();
//! let mut board = BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap();
//! assert_eq!(perft(&board, &rules, 1), board.legal_moves(&rules).len() as u64);
//! board.play(&rules, MoveOf::parse("a4c4").unwrap());
//! let after = "3bbbbb3/5b5/11/b4w4b/b3www3b/bb1wwKww1bb/b3www3b/2b2w4b/11/5b5/3bbbbb3 w 1";
//! assert_eq!(board.to_fen(), after);
//! ```
//!
//! [`prelude`] imports the main types in one line. Errors are small enums whose `Display` is
//! the message a user reads: [`MoveParseError`] and [`SquareParseError`] for notation,
//! [`IllegalMove`] (with its [`IllegalReason`]) and [`MoveError`] for moves,
//! [`PositionError`] (with the rank and character at fault) for position strings,
//! [`GameError`] and [`RulesError`], so that a program can tell a blocked move from an
//! occupied square without reading text.
//!
//! Parse a position, list its moves, play one and ask for the status:
//!
//! ```
//! use konakis_core::prelude::*;
//! use konakis_core::perft::perft;
//!
//! let rules = Rules::default();
//! let board = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b").unwrap();
//! assert_eq!(board.legal_moves(&rules).len(), 80);
//! assert_eq!(perft(&board, &rules, 2), 4_400);
//! let mut game = Game::new(rules, board);
//! assert_eq!(game.play(Move::parse("d1d3").unwrap()), Ok(Status::Ongoing));
//! assert_eq!(game.board().side_to_move(), Side::Defenders);
//! let refused = game.board().parse_move(&rules, "e5e6").unwrap_err();
//! assert_eq!(refused.to_string(), "e5e6 is not legal: e6 is occupied");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod bitboard;
pub mod board;
pub mod geometry;
pub mod perft;
pub mod prelude;
pub mod rules;
mod squareset;
pub mod text;
pub mod types;
pub mod variants_file;
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardOf};
pub use board::{
    Board, BoardOf, DrawReason, Game, GameError, IllegalMove, IllegalReason, MoveError, MoveList,
    PositionError, Status, WinReason,
};
pub use rules::{
    BoardSize, Escape, ExitFort, KingCapture, Preset, Repetition, Rules, RulesError, Ruleset,
    Shieldwall, VARIANTS, Variant,
};
pub use types::{
    BySide, Direction, Move, MoveOf, MoveParseError, Piece, Side, Square, SquareOf,
    SquareParseError,
};
