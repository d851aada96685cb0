//! # konakis-engine
//!
//! The Konakis engine, on top of the rules of [`konakis_core`] and the network machinery of
//! `konakis-nnue`. It knows no protocol or command line: the front-ends translate text into
//! calls of [`Engine`] and its reports back into text. The layout follows the reference engines
//! (Stockfish's `engine.h`, `thread.h`, `search.h`):
//!
//! - [`Engine`] (`engine.rs`): the facade every front-end and tool works through, and the only
//!   way in: the searcher beneath it is private to this crate. It owns the searcher, the game
//!   and the option values; it gives each search an id, catches up with a host's position,
//!   stops and waits with deadlines, searches a tool's own positions ([`Engine::analyse`]),
//!   reviews games ([`Engine::review`]) and traces the evaluation ([`Engine::trace_eval`],
//!   an [`EvalTrace`], built in `trace.rs`). It refuses with an [`EngineError`].
//! - [`options`]: the one option table every front-end shares.
//! - [`search`]: the search. The searcher (`search/searcher.rs`) owns the transposition
//!   table ([`search::tt`]), the settings and the threads; `search/deepen.rs` deepens
//!   iteratively on the main thread, with Lazy SMP helpers or helpers that share the moves of
//!   the principal variation's nodes (`search/worker/split.rs`); `search/worker.rs` is one thread's principal variation search
//!   (its quiescence search in `search/worker/qsearch.rs`), its moves ordered by
//!   `search/movepick.rs` with the killers and history of `search/history.rs`;
//!   `search/types.rs` holds what a search is asked ([`search::Limits`]) and what it reports
//!   ([`search::Report`]); `search/time.rs` the time budget ([`search::budget`]) and the
//!   time manager that stops deepening early.
//! - [`eval`] (the classical evaluation), [`network`] (the networks and which one evaluates
//!   under which rules) and [`wdl`] (win chances from a score).
//! - [`skill`] (strength levels: the level table apart from the choice of a move) and
//!   [`review`] (the review of every move of a game: the one loop that judges the positions
//!   apart from the grading).
//! - [`bench`](mod@bench) and [`tactics`]: the positions and the king tactics suite that sign
//!   a build; [`clock`]: the clock every deadline reads.
//!
//! `docs/architecture.md` follows one `go` command through these files.
//!
//! # Features
//!
//! - `threads` (default): the search's helper threads, kept in a pool between searches, for
//!   Lazy SMP and the split search. Without it one thread searches whatever `Threads`
//!   says, and the crate
//!   builds for `wasm32-unknown-unknown`. A search there runs on the calling thread with
//!   [`Engine::search`] (the same reports, stopped by the caller's [`search::Cancel`], which
//!   may be a function that asks the browser page); [`Engine::think`] would need a thread. The
//!   clock is [`clock::Instant`], `web-time`'s on WebAssembly.
//! - `serde`: the review's types serialize.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod clock;
mod engine;
pub mod eval;
pub mod family_eval;
pub mod network;
pub mod options;
pub mod review;
pub mod search;
mod size;
pub mod skill;
pub mod tactics;
mod trace;
pub mod wdl;

pub use engine::{
    BoardTask, Engine, EngineError, EvalFileError, Explain, GameReset, Playable, ReportBox,
    SearchId, Start, Synced, on_board,
};
pub use size::Size;
pub use trace::{EvalTrace, NetworkEval};
