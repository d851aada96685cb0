//! # konakis-runner
//!
//! The tools that play many games: the match and tournament runner ([`matches`](mod@matches)), the openings
//! generator ([`openings`]), the evaluation tuner that learns from self-play ([`tune`]) and the
//! network's training data generator ([`datagen`]); both
//! the match and self-play split into [`shard`]s for a cluster.
//!
//! It depends on `konakis-core`, `konakis-engine` and `konakis-protocols` (whose bridges the
//! match runner's players speak); command lines, Ctrl-C and exit codes belong to the
//! `konakis` binary.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod datagen;
pub mod error;
pub mod matches;
pub mod openings;
pub mod shard;
mod tool_engine;
pub mod tune;
pub mod wdl_fit;
