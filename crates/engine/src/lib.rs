//! # konakis-engine
//!
//! The Konakis search on top of [`konakis_core`]: the evaluation ([`eval`]), the alpha-beta
//! search with its transposition table, time management and parallel search ([`search`]), the
//! one option table every front-end shares ([`options`]), and the bench positions and king
//! tactics suite that sign a build ([`bench`](mod@bench), [`tactics`]), and the driver every
//! front-end and tool works through ([`Engine`]: the engine, the game and the
//! option values, searches with ids, sync to a host's position, stop and wait with deadlines).
//!
//! It depends on the rules of `konakis-core` only, and knows no protocol or command line.
//!
//! # Features
//!
//! - `threads` (default): the search's helper threads, Lazy SMP and the parallel root search
//!   on a rayon pool. Without it one thread searches whatever `Threads` says, and the crate
//!   builds for `wasm32-unknown-unknown`. A search there runs on the calling thread with
//!   [`Engine::search`] (the same reports, stopped by the caller's
//!   [`search::Cancel`], which may be a function that asks the browser page); `Engine::go`
//!   would need a thread. The clock is [`clock::Instant`], `web-time`'s on WebAssembly.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod clock;
mod engine;
pub mod eval;
pub mod network;
pub mod options;
pub mod review;
pub mod search;
pub mod skill;
pub mod tactics;
pub mod wdl;

pub use engine::{Engine, EngineError, EvalFileError, Explain, GameReset, SearchId, Start, Synced};
