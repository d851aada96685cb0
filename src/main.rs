//! The `konakis` command: the engine protocol on stdin/stdout, or one of the tools.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cli;

/// Konakis, a Tablut engine. Without a subcommand it reads protocol commands on stdin (see
/// protocol.md) and answers on stdout.
#[derive(Parser)]
#[command(
    name = "konakis",
    version,
    about = "Konakis, a Tablut engine",
    long_about = None,
    after_help = "With no command, konakis is the engine: it reads protocol commands on stdin and \
                  answers on stdout. Type `help` for a list, or try `uci`, `position startpos`, \
                  `go depth 8`, `d`, `quit`; protocol.md describes every command. \
                  `konakis <COMMAND> --help` explains each tool."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search the built-in bench positions to a fixed depth and print the node count (the
    /// build's signature) and the speed.
    Bench(cli::bench::BenchArgs),
    /// Count the leaves of the legal-move tree (perft), split by first move.
    Perft(cli::perft::PerftArgs),
    /// Play a match or tournament between engines that speak the protocol.
    Match(cli::matches::MatchArgs),
    /// Write random, roughly balanced opening positions for matches.
    Openings(cli::openings::OpeningsArgs),
    /// Fit the evaluation's weights to the results of self-play games.
    Tune(cli::tune::TuneArgs),
    /// Play self-play games that write training positions for the network (docs/nnue.md).
    Datagen(cli::datagen::DatagenArgs),
    /// Train a network on positions written by `datagen` (docs/nnue.md).
    Train(cli::train::TrainArgs),
    /// Turn a float network file into the quantized file the engine builds in (docs/nnue.md).
    Quantize(cli::quantize::QuantizeArgs),
    /// Fit the win/draw/loss model to self-play data and check it on held-out games
    /// (docs/winchances.md).
    WdlFit(cli::wdl_fit::WdlFitArgs),
    /// Play as an OpenTafl engine: the OpenTafl Engine Protocol on stdin/stdout.
    Otep(cli::otep::OtepArgs),
    /// Replay the games of an OpenTafl `.otg` record under Konakis' referee.
    Replay(cli::replay::ReplayArgs),
    /// Review every move of a game: the engine's move, the win chances before and after, a
    /// verdict (best ... blunder, missed win) and each side's accuracy (docs/review.md).
    Analyse(cli::analyse::AnalyseArgs),
    /// List the built-in presets and a variants file's variants, or check a variants file
    /// (`konakis variants check FILE`).
    Variants(cli::variants::VariantsArgs),
    /// Play one game on a Tablut Challenge server (the University of Bologna's Ashton
    /// Tablut server) as its white or black player.
    TablutChallenge(cli::challenge::ChallengeArgs),
}

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // OpenTafl splits an engine's `arguments=` line on single spaces, so a double space (or a
    // trailing one) hands `konakis otep` empty arguments; they mean nothing there.
    if args.get(1).is_some_and(|a| a == "otep") {
        let mut i = 0;
        args.retain(|a| {
            i += 1;
            i <= 2 || !a.is_empty()
        });
    }
    let cli = Cli::parse_from(args);
    match cli.command {
        None => match konakis::protocol::run(std::io::stdin(), std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        },
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Openings(args)) => cli::openings::run(args),
        Some(Command::Tune(args)) => cli::tune::run(args),
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        Some(Command::Train(args)) => cli::train::run(args),
        Some(Command::Quantize(args)) => cli::quantize::run(args),
        Some(Command::WdlFit(args)) => cli::wdl_fit::run(args),
        Some(Command::Otep(args)) => cli::otep::run(args),
        Some(Command::Replay(args)) => cli::replay::run(args),
        Some(Command::Analyse(args)) => cli::analyse::run(args),
        Some(Command::TablutChallenge(args)) => cli::challenge::run(args),
        Some(Command::Variants(args)) => cli::variants::run(args),
    }
}
