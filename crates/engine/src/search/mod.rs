//! The search: iterative deepening over a principal variation search, a shared lock-free
//! transposition table, and several threads. Front-ends do not use it directly but through the
//! [`Engine`](crate::Engine), which adds the game, the options and the search ids that keep
//! stale reports out.
//!
//! - the vocabulary (`types.rs`): the constants, [`Limits`], [`Report`], [`Cancel`],
//!   [`SearchError`], [`SearchOutcome`];
//! - the searcher (`threads.rs`): [`Searcher`], the table, the [`Settings`] and the threads,
//!   with what the threads share;
//! - iterative deepening, Lazy SMP helpers and strength levels (`deepen.rs`), over the search
//!   of one thread (`worker.rs`, with `worker/qsearch.rs`; its moves from the picker of
//!   `movepick.rs`, ordered by the killers and history of `history.rs`), the parallel root
//!   search (`root_split.rs`, with its variant for builds without threads), the transposition table ([`tt`])
//!   and the time budget ([`budget`], `time.rs`).

mod deepen;
mod history;
mod movepick;
mod root_split;
mod threads;
mod time;
pub mod tt;
mod types;
mod worker;

pub(crate) use threads::Shared;
pub use threads::{Searcher, Settings, SmpMode};
pub use time::{Budget, budget};
pub use types::{
    Cancel, INFINITE, Info, Limits, MATE, MATE_BOUND, MAX_HASH_MIB, MAX_PLY, MAX_THREADS, Report,
    Score, ScoreBound, SearchError, SearchOutcome, Signal,
};
