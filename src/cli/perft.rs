//! `konakis perft`: perft with a per-move split, from any position under any rules.

use clap::Args;
use konakis_core::board::{Game, GameOf};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::perft::{divide, divide_game};
use konakis_core::rules::{BoardSize, Rules, VARIANTS, Variant};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `konakis perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies, 0 to 20.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=konakis_core::perft::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// A rule option, Name=Value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Count a game of the tafl family instead: a preset of docs/rules.md ("Presets of the
    /// tafl family", e.g. copenhagen-11, hnefatafl.org-brandubh-7), on its board, from its
    /// start (or --fen on that board), with its repetition rule (--option does not apply).
    #[arg(long, value_name = "ID", conflicts_with = "options")]
    pub variant: Option<String>,
}

/// Runs `konakis perft`: one `<move>: <count>` line per legal move, a blank line, then
/// `Nodes searched: <total>`, as Stockfish prints it; the time goes to stderr.
pub fn run(args: PerftArgs) -> ExitCode {
    if let Some(id) = &args.variant {
        let Some(variant) = Variant::find(id) else {
            let ids: Vec<&str> = VARIANTS.iter().map(|v| v.id).collect();
            eprintln!("error: no variant '{id}' (variants: {})", ids.join(", "));
            return ExitCode::FAILURE;
        };
        return match variant.size {
            BoardSize::Seven => run_variant::<Seven>(variant, &args),
            BoardSize::Nine => run_variant::<Nine>(variant, &args),
            BoardSize::Eleven => run_variant::<Eleven>(variant, &args),
            BoardSize::Thirteen => run_variant::<Thirteen>(variant, &args),
        };
    }
    let mut rules = Rules::default();
    for pair in &args.options {
        if let Err(e) = rules.set_pair(pair) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let moves = args.moves.as_deref().unwrap_or("");
    let game = match Game::from_moves(rules, args.fen.as_deref(), moves.split_whitespace()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let split = divide(game.board(), &rules, args.depth.max(1));
    print_split(&split, args.depth, start)
}

/// `konakis perft --variant`: the game's tree, with the variant's repetition rule.
fn run_variant<G: Geometry>(variant: &Variant, args: &PerftArgs) -> ExitCode {
    let fen = args.fen.clone().unwrap_or_else(|| variant.start_fen());
    let moves = args.moves.as_deref().unwrap_or("");
    let game =
        match GameOf::<G>::from_fen_and_moves(variant.rules(), &fen, moves.split_whitespace()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let start = Instant::now();
    let split = divide_game(&game, args.depth.max(1));
    print_split(&split, args.depth, start)
}

/// Prints the split and the total of a perft to `depth` begun at `start`.
fn print_split<M: std::fmt::Display>(split: &[(M, u64)], depth: u32, start: Instant) -> ExitCode {
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    if depth > 0 {
        for (mv, n) in split {
            println!("{mv}: {n}");
        }
    }
    println!();
    println!("Nodes searched: {total}");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
