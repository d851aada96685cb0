//! Two baseline players for `konakis match`, speaking the line protocol of protocol.md with
//! the rules of the `konakis` library (every rule option, `Ruleset=Ashton` included):
//!
//! - `random`: a uniformly random legal move;
//! - `greedy`: a move that wins on the spot (an escape, a king capture, an encirclement) if
//!   there is one, else a move that captures if there is one, else a random move (each choice
//!   uniform among its kind). It looks no further than its own move.
//!
//! They are the floor of the strength ladder (docs/levels.md): `Skill Level` 0 must beat
//! `random` in at least nine games of ten and lose most games to `greedy`.
//!
//! ```text
//! cargo build --release --example movers
//! konakis match --engine name=greedy cmd=target/release/examples/movers arg=greedy \
//!               --engine name=level0 cmd=target/release/konakis 'option.Skill Level=0' \
//!               --each depth=1 --games 100
//! ```
//!
//! Usage: `movers random|greedy [--seed N]` (without a seed, one from the clock).

use konakis::{Board, Game, Move, Rules};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, Write};

/// How a mover chooses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Random,
    Greedy,
}

/// The move `kind` plays in `game`, or `None` when there is no legal move.
fn choose(kind: Kind, game: &Game, rng: &mut impl Rng) -> Option<Move> {
    let rules = game.rules();
    let board = game.board();
    let moves: Vec<Move> = board.legal_moves(rules).to_vec();
    if kind == Kind::Greedy {
        let mut wins = Vec::new();
        let mut captures = Vec::new();
        for &m in &moves {
            let mut after = *board;
            let captured = after.play(rules, m);
            // Only the mover can end the game with its own move.
            if after.is_won(rules) {
                wins.push(m);
            } else if !captured.is_empty() {
                captures.push(m);
            }
        }
        if let Some(&m) = wins.choose(rng).or_else(|| captures.choose(rng)) {
            return Some(m);
        }
    }
    moves.choose(rng).copied()
}

/// The game a `position` command describes, or why not.
fn position(rules: Rules, words: &[&str]) -> Result<Game, String> {
    let split = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let (setup, moves) = words.split_at(split);
    let board = match setup.first() {
        Some(&"startpos") => Board::start(&rules),
        Some(&"fen") => Board::from_fen(&setup[1..].join(" ")).map_err(|e| e.to_string())?,
        _ => return Err("position needs startpos or fen".to_string()),
    };
    let mut game = Game::new(rules, board);
    for text in moves.iter().skip(1) {
        game.play_text(text).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = match args.first().map(String::as_str) {
        Some("random") => Kind::Random,
        Some("greedy") => Kind::Greedy,
        _ => {
            eprintln!("usage: movers random|greedy [--seed N]");
            std::process::exit(2);
        }
    };
    let seed = match args.get(1).map(String::as_str) {
        Some("--seed") => match args.get(2).and_then(|s| s.parse::<u64>().ok()) {
            Some(seed) => seed,
            None => {
                eprintln!("movers: --seed needs a number");
                std::process::exit(2);
            }
        },
        None => rand::rng().random(),
        Some(other) => {
            eprintln!("movers: unknown argument '{other}'");
            std::process::exit(2);
        }
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rules = Rules::default();
    let mut game = Game::start(rules);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => {
                let name = if kind == Kind::Greedy {
                    "greedy"
                } else {
                    "random"
                };
                let mut s = format!("id name movers {name}\n");
                for row in konakis_engine::options::table()
                    .iter()
                    .filter(|r| r.is_rule())
                {
                    s.push_str(&konakis::protocol::option_line(row));
                    s.push('\n');
                }
                s.push_str("uciok");
                s
            }
            Some("isready") => "readyok".to_string(),
            Some("setoption") => {
                let value_at = words.iter().position(|&w| w == "value");
                let name = words[2.min(words.len())..value_at.unwrap_or(words.len())].join(" ");
                let value = value_at
                    .map(|i| words[i + 1..].join(" "))
                    .unwrap_or_default();
                let mut next = rules;
                // Only rule options mean something here; others are ignored.
                match next.set(&name, &value) {
                    Ok(()) => {
                        rules = next;
                        game = Game::start(rules);
                        continue;
                    }
                    Err(e)
                        if Rules::OPTIONS
                            .iter()
                            .any(|o| o.name.eq_ignore_ascii_case(&name)) =>
                    {
                        format!("info string error: {e}")
                    }
                    Err(_) => continue,
                }
            }
            Some("ucinewgame") => {
                game = Game::start(rules);
                continue;
            }
            Some("position") => match position(rules, &words[1..]) {
                Ok(g) => {
                    game = g;
                    continue;
                }
                Err(e) => format!("info string error: {e}"),
            },
            Some("go") => match choose(kind, &game, &mut rng) {
                Some(m) => format!("bestmove {m}"),
                None => "bestmove (none)".to_string(),
            },
            Some("quit") => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
