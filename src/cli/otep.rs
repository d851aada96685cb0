//! `konakis otep`: its arguments.

use clap::Args;
use konakis::opentafl::otep::{OtepConfig, serve};
use std::process::ExitCode;

/// Arguments of `konakis otep`.
#[derive(Args, Debug)]
pub struct OtepArgs {
    /// Milliseconds per move when the host sends no clock (an untimed game).
    #[arg(long, value_name = "MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_THREADS as u64))]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_HASH_MIB as u64))]
    pub hash_mib: u64,
    /// Never think longer than this many milliseconds per move, whatever the clock allows.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub max_time: Option<u64>,
}

impl From<OtepArgs> for OtepConfig {
    fn from(a: OtepArgs) -> OtepConfig {
        OtepConfig {
            movetime: a.movetime,
            threads: a.threads,
            hash_mib: a.hash_mib,
            max_time: a.max_time,
        }
    }
}

/// Runs `konakis otep` on stdin and stdout.
pub fn run(args: OtepArgs) -> ExitCode {
    match serve(std::io::stdin(), std::io::stdout(), args.into()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
