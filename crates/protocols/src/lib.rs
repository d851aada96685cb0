//! # konakis-protocols
//!
//! The front-ends that translate between a peer's text and the engine of [`konakis_engine`]:
//! the UCI-like line protocol ([`protocol`]), OpenTafl's engine protocol, notation, rules
//! strings and `.otg` records ([`opentafl`]), and the Tablut Challenge client ([`challenge`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod challenge;
pub mod opentafl;
pub mod protocol;
