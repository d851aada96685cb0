//! Helpers shared by the test programs; each program uses a part of them (`mod common;`).
//!
//! - [`process`]: a running `konakis` (or any command) with its input, its output as lines read
//!   with timeouts and checked to be ASCII, and its error output;
//! - [`engine`]: an engine from settings, and the search of a test's own game;
//! - [`board`]: positions drawn as pictures;
//! - [`matches`]: running `konakis` to completion, `konakis match` and its JSON, scratch
//!   directories;
//! - [`reference`]: the slow, obviously correct reference rules the random tests compare the
//!   library against;
//! - [`solver`]: the exhaustive solver of the tactics tests and the generator of the king
//!   tactics suite (which examples/king_tactics_suite.rs also includes).

#![allow(dead_code)]

pub mod board;
pub mod engine;
pub mod matches;
pub mod process;
pub mod reference;
pub mod solver;

/// The `konakis` binary under test.
pub const KONAKIS: &str = env!("CARGO_BIN_EXE_konakis");
