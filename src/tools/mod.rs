//! The command-line tools: bench (and its tactics suite), perft, the match runner and the openings generator.

pub mod bench;
pub mod matches;
pub mod openings;
pub mod perft;
pub mod tactics;
pub mod tune;
