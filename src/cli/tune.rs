//! `konakis tune`: its arguments.

use clap::{Args, Subcommand};
use konakis::tools::tune;
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
            options,
        } => tune::rules_from(&options)
            .and_then(|rules| tune::selfplay(rules, games, nodes, random_plies, seed, &out)),
        TuneStep::Fit {
            data,
            iterations,
            options,
        } => tune::rules_from(&options).and_then(|rules| tune::fit(rules, &data, iterations)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
