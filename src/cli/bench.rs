//! `konakis bench`: its arguments, and the printing of the bench of [`konakis::tools::bench`].

use super::EvalArgs;
use clap::Args;
use konakis::network::LoadedNet;
use konakis::protocol::bench_summary;
use konakis::search::{Cancel, SearchError, Settings, SmpMode};
use konakis::tools::bench::{
    BenchProgress, DEFAULT_DEPTH, DEFAULT_HASH_MIB, POSITIONS, bench, settings,
};
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
    /// How several threads share the work: Split or Lazy.
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
        return match tactics(settings, network, args.tactics_ms) {
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
        |progress| match progress {
            BenchProgress::Threads { wanted, running } => eprintln!(
                "bench: searching with {running} of {wanted} threads (no more could be started)"
            ),
            BenchProgress::Position {
                index,
                position,
                count,
            } => eprintln!(
                "position {:>2}/{}: {:>10} nodes {:>6} ms  {}{}{}",
                index + 1,
                POSITIONS.len(),
                count.nodes,
                count.elapsed.as_millis(),
                position.fen,
                if position.options.is_empty() {
                    ""
                } else {
                    "  "
                },
                position.options
            ),
        },
    );
    match outcome {
        Ok(Some(total)) => {
            eprintln!();
            for line in bench_summary(&total) {
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

/// Runs `konakis bench --tactics`: one line per position on stderr, the summary on stdout.
fn tactics(settings: Settings, network: Option<LoadedNet>, max_ms: u64) -> Result<(), SearchError> {
    let positions = tactics::parse_suite(tactics::SUITE)
        .map(|suite| suite.len())
        .unwrap_or(0);
    let solves = tactics::solve_suite(settings, network, max_ms, |i, t, solve| {
        let shown = match solve {
            Some(s) => format!("{:>5} ms  depth {:>2}", s.time_ms, s.depth),
            None => "  not solved      ".to_string(),
        };
        eprintln!(
            "tactic {:>3}/{}: {shown}  {:<9}  {}  {}",
            i + 1,
            positions,
            t.kind.to_string(),
            t.board.to_fen(),
            if t.options.is_empty() {
                "-"
            } else {
                &t.options
            }
        );
    })?;
    eprintln!();
    println!("Solved: {} of {}", solves.solved(), solves.positions);
    let [median, p90, max] = solves.time_quantiles();
    println!("Time to solve (ms): median {median}, 90th percentile {p90}, maximum {max}");
    let [median, p90, max] = solves.depth_quantiles();
    println!("Depth to solve: median {median}, 90th percentile {p90}, maximum {max}");
    if solves.unsolved() > 0 {
        println!("Not solved: {}", solves.unsolved());
    }
    Ok(())
}
