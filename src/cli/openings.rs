//! `konakis openings`: its arguments.

use clap::{Args, ValueEnum};
use konakis::tools::openings::{Openings, OpeningsOptions, OpeningsToolError};
use konakis_engine::{BoardTask, Playable, on_board};
use std::io::Write;
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
    /// A game of the tafl family (an id of `konakis variants`, as for `konakis match
    /// --variant`): the openings start from its start, on its board, under its rules.
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    pub variant: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Moves)]
    pub format: Format,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `konakis openings`: writes the openings, with progress on stderr.
pub fn run(args: OpeningsArgs) -> ExitCode {
    match write_openings(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(line) => {
            eprintln!("{line}");
            ExitCode::FAILURE
        }
    }
}

/// The openings of `args`, written as they are found. An error is the line to print
/// (`error: …`, or `warning: …` when fewer openings than asked for were found).
fn write_openings(args: OpeningsArgs) -> Result<(), OpeningsToolError> {
    let options = OpeningsOptions {
        count: args.count,
        plies: args.plies,
        seed: args.seed,
        depth: args.depth,
        margin: args.margin,
        absolute: args.absolute,
        rules: args.rules.clone(),
        variant: args.variant.clone(),
    };
    on_board(options.size()?, Writing { args, options })
}

/// [`write_openings`] on the board of the openings.
struct Writing {
    args: OpeningsArgs,
    options: OpeningsOptions,
}

impl BoardTask for Writing {
    type Output = Result<(), OpeningsToolError>;

    fn run<G: Playable>(self) -> Self::Output {
        write_on::<G>(self.args, self.options)
    }
}

/// Writes the openings of `options` on the board `G`.
fn write_on<G: Playable>(
    args: OpeningsArgs,
    options: OpeningsOptions,
) -> Result<(), OpeningsToolError> {
    let mut openings = Openings::<G>::new(&options)?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(source) => {
                return Err(OpeningsToolError::Create {
                    path: p.clone(),
                    source,
                });
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let header = format!(
        "# konakis openings --count {} --plies {} --seed {} --depth {} --margin {}{}{}\n# rules {}\n\
         # kept: attackers' score within {} of {} (the {})\n",
        options.count,
        options.plies,
        options.seed,
        options.depth,
        options.margin,
        if options.absolute { " --absolute" } else { "" },
        options
            .variant
            .as_ref()
            .map_or(String::new(), |v| format!(" --variant {v}")),
        match &options.variant {
            Some(v) => format!("UCI_Variant={v}"),
            None => openings.rules().to_string(),
        },
        options.margin,
        openings.centre(),
        if options.absolute {
            "absolute balance"
        } else {
            "start position's score"
        }
    );
    if out.write_all(header.as_bytes()).is_err() {
        return Err(OpeningsToolError::Write);
    }
    while let Some(game) = openings.next() {
        let line = match args.format {
            Format::Moves => {
                let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
                if moves.is_empty() {
                    "startpos".to_string()
                } else {
                    format!("startpos moves {}", moves.join(" "))
                }
            }
            Format::Fen => game.board().to_fen(),
        };
        if writeln!(out, "{line}").is_err() {
            return Err(OpeningsToolError::Write);
        }
        if openings.kept() % 50 == 0 {
            eprintln!(
                "{} openings kept of {} tried",
                openings.kept(),
                openings.tried()
            );
        }
    }
    let _ = out.flush();
    let (kept, tried) = (openings.kept(), openings.tried());
    eprintln!(
        "{kept} openings kept of {tried} tried (balance point {})",
        openings.centre()
    );
    if kept < options.count {
        return Err(OpeningsToolError::TooFew {
            kept,
            asked: options.count,
        });
    }
    Ok(())
}
