//! The search: iterative deepening over a principal variation search, a shared lock-free
//! transposition table, and several threads. Front-ends do not use it directly but through the
//! [`Engine`](crate::Engine), which adds the game, the options and the search ids that keep
//! stale reports out.
//!
//! - the vocabulary (`types.rs`): the constants, [`Limits`], [`Report`], [`Cancel`],
//!   [`SearchError`], [`SearchOutcome`];
//! - the searcher (`searcher.rs`): the crate's own `Searcher`, which owns the table, the
//!   [`Settings`] (`settings.rs`) and the pool of threads (`pool.rs`: the main search thread
//!   of `go` and the helpers, kept between searches, each with its own state,
//!   `worker/state.rs`), with what the threads share (`shared.rs`); only the
//!   [`Engine`](crate::Engine) holds one; each search it starts runs as a task (`task.rs`),
//!   on the main search thread or the caller's, from a root every thread sees (`root.rs`);
//! - iterative deepening, one loop for every thread (`deepen.rs`; a strength level runs it
//!   from `skill/play.rs`), over the search of one thread (`worker.rs`, with
//!   `worker/qsearch.rs` and its pruning parameters in `parameters.rs`; its moves from the
//!   picker of `movepick.rs`, ordered by the killers and history of `history.rs`), the
//!   split search on the same threads (`worker/split.rs`), the transposition table
//!   ([`tt`]) and the time budget and its use while deepening ([`budget`], `time.rs`).
//!
//! The searcher is the engine's own: the compiler refuses it to every other crate, which asks
//! the [`Engine`](crate::Engine) instead (its analysis of a position, its review of games).
//!
//! ```compile_fail
//! use konakis_engine::search::Searcher;
//! ```
//!
//! What a search is asked and answers stays public:
//!
//! ```
//! use konakis_engine::search::{Limits, Settings};
//! ```

mod deepen;
mod history;
mod movepick;
mod parameters;
mod pool;
mod root;
mod searcher;
mod settings;
mod shared;
mod task;
mod time;
pub mod tt;
mod types;
mod worker;

pub(crate) use deepen::{RunContext, run};
pub(crate) use searcher::Searcher;
pub use settings::{Settings, SmpMode};
pub(crate) use shared::Shared;
pub use time::{Budget, budget};
pub use types::{
    Cancel, INFINITE, Info, Limits, MATE, MATE_BOUND, MAX_HASH_MIB, MAX_PLY, MAX_THREADS, Report,
    Score, ScoreBound, SearchError, SearchOutcome, Signal,
};
