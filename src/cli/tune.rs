//! `konakis tune`: its arguments, and the printing of what the library's self-play and fit
//! return.

use clap::{Args, Subcommand};
use konakis::tools::tune::{self, FitProgress};
use std::process::ExitCode;

/// Arguments of `konakis tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    step: TuneStep,
}

#[derive(Subcommand, Debug)]
enum TuneStep {
    /// Play games against itself and write `<position string>;<result>` lines, the result
    /// being 1 for an attackers' win, 0 for a defenders' win and 0.5 for a draw.
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 6)]
        random_plies: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file.
        #[arg(long)]
        out: String,
        /// Play only part K of N (K from 0): game g belongs to part g mod N and keeps its
        /// seed, so the parts' files together hold the lines of the whole run.
        #[arg(long, value_name = "K/N", value_parser = konakis::tools::matches::Shard::parse)]
        shard: Option<konakis::tools::matches::Shard>,
        /// A rule option, Name=Value (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Fit the weights to a file written by `selfplay` and print them.
    Fit {
        /// The data file.
        #[arg(long)]
        data: String,
        /// Gradient steps.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// A rule option the data was played under, Name=Value (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

/// Runs `konakis tune`.
pub fn run(args: TuneArgs) -> ExitCode {
    let result = match args.step {
        TuneStep::Selfplay {
            games,
            nodes,
            random_plies,
            seed,
            out,
            shard,
            options,
        } => tune::rules_from(&options).and_then(|rules| {
            let shard = shard.unwrap_or(konakis::tools::matches::Shard::WHOLE);
            let s = tune::selfplay(rules, games, nodes, random_plies, seed, shard, &out)?;
            eprintln!("{:.1} recorded positions per game", s.per_game);
            eprintln!(
                "{} games: attackers {}, defenders {}, draws {}; {} positions in {out}",
                s.games, s.attackers, s.defenders, s.draws, s.positions
            );
            Ok(())
        }),
        TuneStep::Fit {
            data,
            iterations,
            options,
        } => tune::rules_from(&options).and_then(|rules| {
            let fitted = tune::fit(rules, &data, iterations, |p| match p {
                FitProgress::Start {
                    positions,
                    k,
                    error,
                } => eprintln!(
                    "{positions} positions; K = {k:.2}; error with the current weights {error:.6}"
                ),
                FitProgress::Iteration { iteration, error } => {
                    eprintln!("iteration {iteration}: error {error:.6}")
                }
            })?;
            eprintln!(
                "scale {:.3} (K for the printed weights: {:.2})",
                fitted.scale, fitted.k
            );
            for (name, x) in fitted.named() {
                println!("{name:>24}: {x:>6}");
            }
            let list: Vec<String> = fitted.weights.iter().map(i32::to_string).collect();
            println!(
                "pub const WEIGHTS: [i32; FEATURE_COUNT] = [{}];",
                list.join(", ")
            );
            Ok(())
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
