//! OpenTafl compatibility: its notation, its rules strings, its `.otg` game records, and its
//! engine protocol (OTEP), so that OpenTafl can host Konakis and Konakis can read OpenTafl's
//! games.
//!
//! - [`notation`]: position records (rank 1 first, `t`/`T`/`K`) and moves (`e3-e1`,
//!   `Ke5-e7`, `h7-f7xf8`).
//! - [`rules_string`]: rules strings read into [`konakis_core::Rules`] and a start position, and
//!   written from them; rules Konakis cannot play exactly are refused by name.
//! - [`otg`]: `.otg` records read, written and replayed by the referee.
//! - [`command`]: the host's OTEP lines, parsed.
//! - [`otep`]: `konakis otep`, the engine side of OTEP.

pub mod command;
pub mod notation;
pub mod otep;
pub mod otg;
pub mod rules_string;
