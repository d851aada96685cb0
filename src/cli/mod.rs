//! The command line of `konakis`: every subcommand's arguments (clap), the Ctrl-C handling of
//! `konakis match` and the exit statuses. The libraries take plain settings and return
//! results; the subcommands here turn flags into settings and results into output and exit
//! codes.

pub mod bench;
pub mod challenge;
pub mod datagen;
pub mod matches;
pub mod openings;
pub mod otep;
pub mod perft;
pub mod replay;
pub mod train;
pub mod tune;
