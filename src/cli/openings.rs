//! `konakis openings`: its arguments.

use clap::{Args, ValueEnum};
use konakis::tools::openings::{self, OpeningsOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// How each opening is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `startpos moves d1d3 …` (records then start from the real start position).
    Moves,
    /// The position string reached, `<placement> <side> <plies>`.
    Fen,
}

/// Arguments of `konakis openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// How many openings to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random plies from the start position.
    #[arg(long, default_value_t = 6)]
    pub plies: u32,
    /// Seed of the random moves (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the search that judges balance.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// Largest distance of a kept opening's score from the balance point, in centi-soldiers.
    #[arg(long, default_value_t = 100)]
    pub margin: i32,
    /// Centre the margin on 0 instead of on the start position's score.
    #[arg(long)]
    pub absolute: bool,
    /// Rule options Name=Value (as for `konakis match --rules`).
    #[arg(long, num_args = 1.., value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Moves)]
    pub format: Format,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

impl From<Format> for openings::OpeningFormat {
    fn from(f: Format) -> openings::OpeningFormat {
        match f {
            Format::Moves => openings::OpeningFormat::Moves,
            Format::Fen => openings::OpeningFormat::Fen,
        }
    }
}

/// Runs `konakis openings`.
pub fn run(args: OpeningsArgs) -> ExitCode {
    let options = OpeningsOptions {
        count: args.count,
        plies: args.plies,
        seed: args.seed,
        depth: args.depth,
        margin: args.margin,
        absolute: args.absolute,
        rules: args.rules,
        format: args.format.into(),
        output: args.output,
    };
    match openings::run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(line) => {
            eprintln!("{line}");
            ExitCode::FAILURE
        }
    }
}
