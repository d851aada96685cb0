//! # konakis-protocols
//!
//! The front-ends that translate between a peer's text and the engine of [`konakis_engine`]:
//! the UCI-like line protocol ([`protocol`]), OpenTafl's engine protocol, notation, rules
//! strings and `.otg` records ([`opentafl`]), and the Tablut Challenge client ([`challenge`]);
//! and the notation of other tafl programs: TaflZero's FEN ([`taflzero`]) and hnefatafl.org's
//! play lines ([`hnefatafl`]) (docs/notation.md).
//!
//! It depends on `konakis-core` and `konakis-engine` (and serde_json for the challenge's
//! JSON and the review's); command lines and exit codes belong to the `konakis` binary.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod challenge;
pub mod hnefatafl;
pub mod opentafl;
pub mod protocol;
pub mod review;
pub mod taflzero;
#[cfg(test)]
mod testing;
pub mod text;
