//! The engine protocol: a UCI-like line protocol on stdin and stdout, described for users in
//! `protocol.md`.
//!
//! Three parts:
//! - [`command`] turns each line into a [`Command`] or a typed error, before anything is done;
//! - [`options`] is the one table of options (engine settings and rule options);
//! - the session (private) runs commands against the engine, the current game and the options.
//!
//! [`run`] serves a byte stream with threads, as the program does. [`Threadless`] is the same
//! session for a host without threads (a browser's Web Worker): it answers one line at a
//! time, and `go`, `go perft` and `bench` run to completion inside that call, stopped by a
//! function the host supplies. Both give the same lines for the same input.
//!
//! A reader thread owns the input and hands whole lines to the session over a channel, so a
//! running search, perft or bench never keeps `isready` or `stop` waiting. Replies are queued
//! whole, a line or a group of lines at a time, so lines from the search thread and the session
//! never mix; a writer thread owns the output. A peer that stops reading therefore blocks only
//! the writer: once `quit` or the end of the input has been read, what no longer fits in the
//! queue is dropped, and the process ends.

pub mod command;
pub use konakis_engine::options;
mod bench_summary;
mod input;
mod option_line;
mod output;
mod reply;
mod run;
mod session;
mod threadless;

pub use bench_summary::bench_summary;
pub use command::{BadMilliseconds, BadMove, Command, NotInRange, ParseError, Reason, Start};
pub use input::MAX_LINE_BYTES;
pub use option_line::option_line;
pub use reply::Reply;
pub use run::run;
pub use threadless::Threadless;

pub(crate) use input::{Input, spawn_reader};
pub(crate) use output::Output;
