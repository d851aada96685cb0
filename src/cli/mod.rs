//! The binary's own command-line pieces.

pub mod perft;
