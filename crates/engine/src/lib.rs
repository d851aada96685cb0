//! # konakis-engine
//!
//! The Konakis search on top of [`konakis_core`]: the evaluation ([`eval`]), the alpha-beta
//! search with its transposition table, time management and parallel search ([`search`]), the
//! one option table every front-end shares ([`options`]), and the bench positions and king
//! tactics suite that sign a build ([`bench`], [`tactics`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Board code indexes several parallel tables by square and direction; a range loop reads best.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod eval;
pub mod options;
pub mod search;
pub mod tactics;
