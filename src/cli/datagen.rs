//! `konakis datagen`: its arguments.

use super::EvalArgs;
use clap::Args;
use konakis::tools::matches::Shard;
use konakis_runner::datagen::{self, DatagenOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `konakis datagen`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  konakis datagen --out default.bin --games 2000
  konakis datagen --out ashton-3.bin --games 20000 --shard 3/8 --rules Ruleset=Ashton
  konakis datagen --out brandubh.bin --games 500 --variant hnefatafl.org-brandubh-7

Running the same command again continues the file: the games already in it are skipped (a
game torn by a kill is played again). docs/nnue.md describes the file.")]
pub struct DatagenArgs {
    /// The data file, created or continued.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Games of the whole run (a shard plays its part of them).
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies at the start of each game, before the balance test.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Seed of the run (game g's random stream derives from it and g).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Play only part K of N (K from 0): game g belongs to part g mod N and keeps its seed.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Rule options Name=Value (as for `konakis match --rules`).
    #[arg(long, num_args = 1.., value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// A game of the tafl family instead: a preset of docs/rules.md ("Presets of the tafl
    /// family", e.g. copenhagen-11, hnefatafl.org-brandubh-7), played on its board from its
    /// start; the file's header names the board. No network knows the other boards yet:
    /// their games are played with the classical evaluation, and `konakis train` refuses
    /// their files.
    #[arg(long, value_name = "ID", conflicts_with = "rules")]
    pub variant: Option<String>,
    /// Depth of the search that judges an opening's balance.
    #[arg(long, default_value_t = 4)]
    pub balance_depth: u32,
    /// Largest distance of an opening's score from the start position's, centi-soldiers.
    #[arg(long, default_value_t = 150)]
    pub margin: u32,
    /// Plies after which a game still going is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Transposition table of each game's search, MiB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// Percentage of the games (0 to 100) in which one side, drawn per game, plays with the
    /// classical evaluation against the network; only the network's positions are recorded.
    #[arg(long, default_value_t = 0, value_name = "PERCENT")]
    pub classical_share: u8,
    #[command(flatten)]
    pub evaluation: EvalArgs,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `konakis datagen`. The first Ctrl-C lets the games being played finish and be
/// written; a second one exits at once (the file keeps its whole games).
pub fn run(args: DatagenArgs) -> ExitCode {
    let network = match args.evaluation.network() {
        Ok(network) => network,
        Err(e) => {
            eprintln!("error: datagen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = DatagenOptions {
        out: args.out,
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        concurrency: args.concurrency,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        rules: args.rules,
        variant: args.variant,
        balance_depth: args.balance_depth,
        margin: args.margin,
        max_plies: args.max_plies,
        hash_mib: args.hash,
        eval: args.evaluation.eval,
        network,
        classical_share: args.classical_share,
    };
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("datagen: interrupted; finishing the games being played");
    });
    match datagen::run(&options, &INTERRUPTED, |line| eprintln!("{line}")) {
        Ok(_) if INTERRUPTED.load(Ordering::SeqCst) => ExitCode::from(130),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
