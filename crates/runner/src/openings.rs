//! `konakis openings`: random opening lines for matches, kept only when a short search judges
//! them roughly balanced.
//!
//! Each candidate is `--plies` uniformly random legal moves from the start position (moves
//! that end the game are never chosen), drawn from SplitMix64 seeded by `--seed`, so the same
//! command writes the same file. A candidate is kept when its score, from the attackers' point
//! of view after a `--depth` search, lies within `--margin` of the balance point. The balance
//! point is the same search's score of the start position: the evaluation's absolute level is
//! not calibrated to results, and the start position is by definition the game as played
//! (`--absolute` centres on 0 instead). Positions are not repeated.

use crate::error::OpeningsToolError;
use konakis_core::board::Game;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use konakis_core::zobrist::splitmix64;
use konakis_engine::search::{Engine, Limits, Score, Settings};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

/// How each opening is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// `startpos moves d1d3 …` (records then start from the real start position).
    Moves,
    /// The position string reached, `<placement> <side> <plies>`.
    Fen,
}

/// What `konakis openings` is asked for (the command line's flags of the same names).
#[derive(Clone, Debug)]
pub struct OpeningsOptions {
    /// How many openings to write.
    pub count: usize,
    /// Random plies from the start position.
    pub plies: u32,
    /// Seed of the random moves (the same seed gives the same file).
    pub seed: u64,
    /// Depth of the search that judges balance.
    pub depth: u32,
    /// Largest distance of a kept opening's score from the balance point, in centi-soldiers.
    pub margin: i32,
    /// Centre the margin on 0 instead of on the start position's score.
    pub absolute: bool,
    /// Rule options Name=Value.
    pub rules: Vec<String>,
    /// Output format.
    pub format: OpeningFormat,
    /// Write to this file instead of stdout.
    pub output: Option<PathBuf>,
}

/// The score of `game` from the attackers' point of view after a `depth` search; `None` for a
/// forced win or loss.
pub fn attackers_score(engine: &mut Engine, game: &Game, depth: u32) -> Option<i32> {
    engine.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (_, info) = engine.search_sync(game, limits);
    match info?.score {
        Score::Cp(cp) if game.board().side_to_move() == Side::Attackers => Some(cp),
        Score::Cp(cp) => Some(-cp),
        Score::Mate(_) => None,
    }
}

/// A random line of `plies` moves none of which ends the game, drawn from the SplitMix64
/// stream `rng`; `None` if it runs into a position where every move ends the game.
pub fn random_line(rules: Rules, plies: u32, rng: &mut u64) -> Option<Game> {
    let mut game = Game::start(rules);
    for _ in 0..plies {
        let mut candidates: Vec<Move> = game.board().legal_moves(&rules).to_vec();
        let mut moved = false;
        while !candidates.is_empty() {
            let i = (splitmix64(rng) % candidates.len() as u64) as usize;
            let mv = candidates.swap_remove(i);
            let mut next = game.clone();
            if next.play(mv).is_ok_and(|s| !s.is_over()) {
                game = next;
                moved = true;
                break;
            }
        }
        if !moved {
            return None;
        }
    }
    Some(game)
}

/// Runs `konakis openings`: writes the openings, with progress on stderr. An error is the line
/// to print (`error: …`, or `warning: …` when fewer openings than asked for were found).
pub fn run(args: &OpeningsOptions) -> Result<(), OpeningsToolError> {
    let mut rules = Rules::default();
    for pair in &args.rules {
        if let Err(e) = rules.set_pair(pair) {
            return Err(OpeningsToolError::Rules(e.to_string()));
        }
    }
    if args.count == 0 || args.depth == 0 || args.margin < 0 {
        return Err(OpeningsToolError::Range);
    }
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
    let mut engine = Engine::new(Settings {
        hash_mib: 4,
        ..Settings::default()
    });
    let centre = if args.absolute {
        0
    } else {
        attackers_score(&mut engine, &Game::start(rules), args.depth).unwrap_or(0)
    };
    let header = format!(
        "# konakis openings --count {} --plies {} --seed {} --depth {} --margin {}{}\n# rules {}\n\
         # kept: attackers' score within {} of {} (the {})\n",
        args.count,
        args.plies,
        args.seed,
        args.depth,
        args.margin,
        if args.absolute { " --absolute" } else { "" },
        rules,
        args.margin,
        centre,
        if args.absolute {
            "absolute balance"
        } else {
            "start position's score"
        }
    );
    if out.write_all(header.as_bytes()).is_err() {
        return Err(OpeningsToolError::Write);
    }
    let mut rng = args.seed;
    let mut seen = HashSet::new();
    let (mut kept, mut tried) = (0usize, 0usize);
    let max_tries = args.count.saturating_mul(200).max(1000);
    while kept < args.count && tried < max_tries {
        tried += 1;
        let Some(game) = random_line(rules, args.plies, &mut rng) else {
            continue;
        };
        if !seen.insert(game.board().hash()) {
            continue;
        }
        let Some(score) = attackers_score(&mut engine, &game, args.depth) else {
            continue;
        };
        if (score - centre).abs() > args.margin {
            continue;
        }
        let line = match args.format {
            OpeningFormat::Moves => {
                let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
                if moves.is_empty() {
                    "startpos".to_string()
                } else {
                    format!("startpos moves {}", moves.join(" "))
                }
            }
            OpeningFormat::Fen => game.board().to_fen(),
        };
        if writeln!(out, "{line}").is_err() {
            return Err(OpeningsToolError::Write);
        }
        kept += 1;
        if kept % 50 == 0 {
            eprintln!("{kept} openings kept of {tried} tried");
        }
    }
    let _ = out.flush();
    eprintln!("{kept} openings kept of {tried} tried (balance point {centre})");
    if kept < args.count {
        return Err(OpeningsToolError::TooFew {
            kept,
            asked: args.count,
        });
    }
    Ok(())
}
