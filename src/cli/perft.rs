//! `konakis perft`: perft with a per-move split, from any position under any rules.

use clap::Args;
use konakis_core::board::Game;
use konakis_core::perft::divide;
use konakis_core::rules::Rules;
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
}

/// Runs `konakis perft`: one `<move>: <count>` line per legal move, a blank line, then
/// `Nodes searched: <total>`, as Stockfish prints it; the time goes to stderr.
pub fn run(args: PerftArgs) -> ExitCode {
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
    let total: u64 = if args.depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    if args.depth > 0 {
        for (mv, n) in &split {
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
