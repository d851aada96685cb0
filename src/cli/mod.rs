//! The command line of `konakis`: every subcommand's arguments (clap), the Ctrl-C handling of
//! `konakis match` and the exit statuses. The libraries take plain settings and return
//! results; the subcommands here turn flags into settings and results into output and exit
//! codes.

pub mod analyse;
pub mod bench;
pub mod challenge;
pub mod datagen;
pub mod matches;
pub mod openings;
pub mod otep;
pub mod perft;
pub mod quantize;
pub mod replay;
pub mod train;
pub mod tune;
pub mod variants;
pub mod wdl_fit;

use clap::Args;
use konakis::network::{EvalMode, LoadedNet};
use std::path::PathBuf;

/// The evaluation flags of the commands that search (`bench`, `datagen`): what the `Eval`
/// and `EvalFile` options set in the line protocol.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The evaluation: Network (the network for the rules where there is one) or Classical.
    #[arg(long, default_value = "Network", value_parser = parse_eval)]
    pub eval: EvalMode,
    /// A network file that evaluates the positions of its rules, in place of the built-in
    /// network (as the EvalFile option).
    #[arg(long, value_name = "FILE")]
    pub evalfile: Option<PathBuf>,
}

impl EvalArgs {
    /// The network of `--evalfile`, if given, or the words of why it cannot be used.
    pub fn network(&self) -> Result<Option<LoadedNet>, String> {
        self.evalfile
            .as_deref()
            .map(LoadedNet::load)
            .transpose()
            .map_err(|e| format!("--evalfile: {e}"))
    }
}

fn parse_eval(text: &str) -> Result<EvalMode, String> {
    EvalMode::NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(text))
        .and_then(|n| EvalMode::parse(n))
        .ok_or_else(|| format!("expected one of {}", EvalMode::NAMES.join(", ")))
}
