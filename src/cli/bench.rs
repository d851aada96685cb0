//! `konakis bench`: its arguments, and the printing of the bench of [`konakis::tools::bench`].

use super::EvalArgs;
use clap::Args;
use konakis::search::{Cancel, Settings, SmpMode};
use konakis::tools::bench::{DEFAULT_DEPTH, DEFAULT_HASH_MIB, POSITIONS, bench, settings};
use konakis::tools::tactics;
use std::process::ExitCode;

/// Arguments of `konakis bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth to search each position to.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Search threads (the node count is reproducible with 1 only).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_THREADS as u64))]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "MB", default_value_t = DEFAULT_HASH_MIB as u64,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_HASH_MIB as u64))]
    pub hash_mib: u64,
    /// How several threads share the work: RootSplit or Lazy.
    #[arg(long, default_value = "Lazy", value_parser = parse_smp)]
    pub smp: SmpMode,
    /// Instead of the bench positions, solve the built-in suite of king tactics (forced
    /// captures in 1, 2 and 3 moves, and parries, under several rule sets) and print the time
    /// and depth each needs: median, 90th percentile and maximum.
    #[arg(long)]
    pub tactics: bool,
    #[command(flatten)]
    pub evaluation: EvalArgs,
    /// With --tactics: the longest search of one position, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 2000, requires = "tactics")]
    pub tactics_ms: u64,
}

fn parse_smp(text: &str) -> Result<SmpMode, String> {
    SmpMode::parse(text).ok_or_else(|| format!("expected one of {}", SmpMode::NAMES.join(", ")))
}

/// Runs `konakis bench`: one line per position on stderr, the summary on stdout.
pub fn run(args: BenchArgs) -> ExitCode {
    let network = match args.evaluation.network() {
        Ok(network) => network,
        Err(e) => {
            eprintln!("error: bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let settings = Settings {
        smp: args.smp,
        eval: args.evaluation.eval,
        ..settings(args.threads as usize, Some(args.hash_mib as usize))
    };
    if args.tactics {
        return match tactics::run(settings, network, args.tactics_ms) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: bench: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let outcome = bench(
        args.depth,
        settings,
        network,
        Cancel::Never,
        |i, p, this| {
            eprintln!(
                "position {:>2}/{}: {:>10} nodes {:>6} ms  {}{}{}",
                i + 1,
                POSITIONS.len(),
                this.nodes,
                this.elapsed.as_millis(),
                p.fen,
                if p.options.is_empty() { "" } else { "  " },
                p.options
            );
        },
    );
    match outcome {
        Ok(Some(o)) => {
            eprintln!();
            for line in o.summary() {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Ok(None) => unreachable!("nothing stops the command-line bench"),
        Err(e) => {
            eprintln!("error: bench: {e}");
            ExitCode::FAILURE
        }
    }
}
