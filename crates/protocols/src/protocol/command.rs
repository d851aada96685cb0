//! Parsing: each input line becomes a [`Command`] or a [`ParseError`], before anything is done.
//!
//! Parsing checks everything that does not depend on the engine's state: the words, the numbers
//! and their ranges, the position string and the notation of every move. Whether a move is
//! legal depends on the position and is checked when the command runs.

use konakis_core::board::Board;
use konakis_core::types::Move;
use konakis_engine::search::{Limits, MAX_PLY};
use std::fmt;

/// Deepest `go depth`.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;
/// Deepest `go perft`: the same cap as `konakis perft`.
pub const MAX_PERFT_DEPTH: u32 = konakis_core::perft::MAX_DEPTH;
/// Deepest `bench` depth.
pub const MAX_BENCH_DEPTH: u32 = 30;
/// Largest `go mate`.
pub const MAX_MATE: u32 = MAX_DEPTH / 2;

/// Where a `position` command starts (the driver's start).
pub use konakis_engine::search::driver::Start;

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// The name, words joined by single spaces.
        name: String,
        /// The value, if given, words joined by single spaces.
        value: Option<String>,
    },
    /// `ucinewgame`
    UciNewGame,
    /// `position startpos|fen … [moves …]`
    Position {
        /// The start.
        start: Start,
        /// The moves after it (notation checked, legality not yet).
        moves: Vec<Move>,
    },
    /// `go …` (a search).
    Go(Limits),
    /// `go perft <depth>`
    Perft(u32),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `d`
    Display,
    /// `eval`
    Eval,
    /// `bench [depth]`
    Bench(Option<u32>),
}

/// A line that is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command.
    Unknown(String),
    /// The command is known but its arguments are wrong.
    Invalid {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(word) => write!(f, "unknown command '{}'", quote(word)),
            ParseError::Invalid { command, message } => write!(f, "{command}: {message}"),
        }
    }
}

impl std::error::Error for ParseError {}

pub use konakis_engine::options::{bounded_line, quote};

/// Parses one line. `Ok(None)` for a line with nothing but white space.
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let invalid = |command: &'static str, message: String| ParseError::Invalid { command, message };
    let no_args = |command: &'static str, c: Command| {
        if let Some(extra) = rest.first() {
            Err(invalid(
                command,
                format!("unexpected '{}' (it takes no arguments)", quote(extra)),
            ))
        } else {
            Ok(Some(c))
        }
    };
    match first {
        "uci" => no_args("uci", Command::Uci),
        "isready" => no_args("isready", Command::IsReady),
        "ucinewgame" => no_args("ucinewgame", Command::UciNewGame),
        "stop" => no_args("stop", Command::Stop),
        "ponderhit" => no_args("ponderhit", Command::PonderHit),
        "quit" => no_args("quit", Command::Quit),
        "d" => no_args("d", Command::Display),
        "eval" => no_args("eval", Command::Eval),
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(Some),
        "bench" => match rest.as_slice() {
            [] => Ok(Some(Command::Bench(None))),
            [d] => number(d, 1, MAX_BENCH_DEPTH)
                .map(|d| Some(Command::Bench(Some(d))))
                .map_err(|m| invalid("bench", format!("depth {m}"))),
            [_, extra, ..] => Err(invalid(
                "bench",
                format!("unexpected '{}' (usage: bench [depth])", quote(extra)),
            )),
        },
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

/// Parses `text` as an integer in `min..=max`; the error is a message fragment.
fn number<T>(text: &str, min: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    match text.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(format!(
            "'{}' is not an integer from {min} to {max}",
            quote(text)
        )),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let err = |message: String| ParseError::Invalid {
        command: "setoption",
        message,
    };
    let usage = "setoption name <name> [value <value>]";
    match args.first() {
        Some(w) if w.eq_ignore_ascii_case("name") => {}
        Some(w) => {
            return Err(err(format!(
                "expected 'name', found '{}' (usage: {usage})",
                quote(w)
            )));
        }
        None => return Err(err(format!("missing option name (usage: {usage})"))),
    }
    let args = &args[1..];
    let split = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(i) => (&args[..i], Some(&args[i + 1..])),
        None => (args, None),
    };
    if name.is_empty() {
        return Err(err(format!("missing option name (usage: {usage})")));
    }
    if let Some(v) = value
        && v.is_empty()
    {
        return Err(err(format!(
            "'value' is not followed by a value (usage: {usage})"
        )));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.map(|v| v.join(" ")),
    })
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let err = |message: String| ParseError::Invalid {
        command: "position",
        message,
    };
    let usage = "position startpos|fen <placement> <side> [<plies>] [moves <move>...]";
    let moves_at = args.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["startpos", extra, ..] => {
            return Err(err(format!(
                "unexpected '{}' after startpos (expected 'moves')",
                quote(extra)
            )));
        }
        ["fen"] => return Err(err(format!("missing position string after fen ({usage})"))),
        ["fen", fields @ ..] => {
            let text = fields.join(" ");
            Start::Board(
                Board::from_fen(&text)
                    .map_err(|e| err(format!("bad position string '{}': {e}", quote(&text))))?,
            )
        }
        [] => return Err(err(format!("missing startpos or fen ({usage})"))),
        [other, ..] => {
            return Err(err(format!(
                "expected startpos or fen, found '{}' ({usage})",
                quote(other)
            )));
        }
    };
    let moves = moves
        .iter()
        .enumerate()
        .map(|(i, text)| {
            parse_move_token(text)
                .map_err(|why| err(format!("move {} '{}' {why}", i + 1, quote(text))))
        })
        .collect::<Result<Vec<Move>, ParseError>>()?;
    Ok(Command::Position { start, moves })
}

/// Parses a move's notation; the error completes "move N 'text' …".
fn parse_move_token(text: &str) -> Result<Move, String> {
    if text.chars().count() > 5 {
        return Err("is not a move (expected e.g. d1d3 or d1-d3)".to_string());
    }
    Move::parse(text).map_err(|e| match e.to_string().split_once(": ") {
        // The reason may repeat part of the text: escaped, like every echo of the input.
        Some((_, why)) => format!("is not a move: {}", bounded_line(why, 80)),
        None => "is not a move (expected e.g. d1d3 or d1-d3)".to_string(),
    })
}

/// The words `go` knows; `searchmoves` takes every word up to the next of them.
const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
];

fn parse_go(args: &[&str]) -> Result<Command, ParseError> {
    let err = |message: String| ParseError::Invalid {
        command: "go",
        message,
    };
    if args.first() == Some(&"perft") {
        return match args {
            [_] => Err(err("perft needs a depth (go perft <depth>)".to_string())),
            [_, d] => number(d, 1, MAX_PERFT_DEPTH)
                .map(Command::Perft)
                .map_err(|m| err(format!("perft depth {m}"))),
            [_, _, extra, ..] => Err(err(format!(
                "unexpected '{}' after the perft depth",
                quote(extra)
            ))),
            [] => unreachable!("args starts with perft"),
        };
    }
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        // The value after `word`, if it needs one.
        let mut value = || {
            let v = args
                .get(i)
                .copied()
                .ok_or_else(|| err(format!("{word} needs a value")))?;
            i += 1;
            Ok::<&str, ParseError>(v)
        };
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "depth" => {
                let v = value()?;
                limits.depth =
                    Some(number(v, 1, MAX_DEPTH).map_err(|m| err(format!("depth {m}")))?);
            }
            "mate" => {
                let v = value()?;
                limits.mate = Some(number(v, 1, MAX_MATE).map_err(|m| err(format!("mate {m}")))?);
            }
            "nodes" => {
                let v = value()?;
                limits.nodes =
                    Some(number(v, 1, u64::MAX / 2).map_err(|m| err(format!("nodes {m}")))?);
            }
            "movestogo" => {
                let v = value()?;
                let n: u32 = number(v, 0, 1_000_000).map_err(|m| err(format!("movestogo {m}")))?;
                limits.movestogo = (n > 0).then_some(n);
            }
            "movetime" | "wtime" | "btime" | "winc" | "binc" => {
                let v = value()?;
                let ms = milliseconds(v).map_err(|m| err(format!("{word} {m}")))?;
                let slot = match word {
                    "movetime" => &mut limits.movetime,
                    "wtime" => &mut limits.wtime,
                    "btime" => &mut limits.btime,
                    "winc" => &mut limits.winc,
                    _ => &mut limits.binc,
                };
                *slot = Some(ms);
            }
            "searchmoves" => {
                let start = i;
                while i < args.len() && !GO_WORDS.contains(&args[i]) {
                    let text = args[i];
                    let mv = parse_move_token(text)
                        .map_err(|why| err(format!("searchmoves: '{}' {why}", quote(text))))?;
                    if !limits.searchmoves.contains(&mv) {
                        limits.searchmoves.push(mv);
                    }
                    i += 1;
                }
                if i == start {
                    return Err(err("searchmoves needs at least one move".to_string()));
                }
            }
            "perft" => {
                return Err(err("perft goes alone: go perft <depth>".to_string()));
            }
            other => {
                return Err(err(format!(
                    "unknown parameter '{}' (known: {})",
                    quote(other),
                    GO_WORDS.join(", ")
                )));
            }
        }
    }
    Ok(Command::Go(limits))
}

/// Milliseconds for a clock value. Negative values (a front-end reporting a clock that has run
/// out) count as 0; values past a year are refused.
fn milliseconds(text: &str) -> Result<u64, String> {
    const YEAR_MS: i64 = 366 * 24 * 3600 * 1000;
    match text.parse::<i64>() {
        Ok(v) if v <= YEAR_MS => Ok(v.max(0) as u64),
        _ => Err(format!(
            "'{}' is not a number of milliseconds up to {YEAR_MS}",
            quote(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn bad(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    #[test]
    fn simple_commands_and_blank_lines() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse(" \t  ").unwrap(), None);
        assert_eq!(ok("  uci  "), Command::Uci);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(
            bad("isready now"),
            "isready: unexpected 'now' (it takes no arguments)"
        );
        assert_eq!(bad("hello world"), "unknown command 'hello'");
        assert_eq!(bad("\u{7}x"), "unknown command '\\u{7}x'");
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Move  Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(bad("setoption Hash 3").contains("expected 'name'"));
        assert!(bad("setoption name Hash value").contains("not followed by a value"));
        assert!(bad("setoption name").contains("missing option name"));
    }

    #[test]
    fn position_checks_the_string_and_the_notation() {
        assert_eq!(
            ok("position startpos moves e2e3 d1-d2"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![Move::parse("e2e3").unwrap(), Move::parse("d1d2").unwrap()]
            }
        );
        assert!(matches!(
            ok("position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 7"),
            Command::Position { start: Start::Board(b), .. } if b.plies() == 7
        ));
        assert!(bad("position startpos moves e2e3 e2x4").contains("move 2 'e2x4'"));
        assert!(bad("position startpos moves a1b2").contains("one rank or file"));
        assert!(bad("position fen 9/9 b").contains("bad position string"));
        assert!(bad("position startpos e2e3").contains("expected 'moves'"));
        assert!(bad("position").contains("missing startpos or fen"));
        let long = "x".repeat(100_000);
        assert!(bad(&format!("position startpos moves {long}")).len() < 200);
    }

    #[test]
    fn go_parameters() {
        let Command::Go(l) = ok("go wtime 1000 btime -5 winc 10 binc 0 movestogo 0") else {
            panic!()
        };
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc, l.movestogo),
            (Some(1000), Some(0), Some(10), Some(0), None)
        );
        let Command::Go(l) = ok("go searchmoves e2e3 e8e7 depth 3 infinite") else {
            panic!()
        };
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.depth, Some(3));
        assert!(l.infinite);
        assert_eq!(ok("go perft 3"), Command::Perft(3));
        assert!(bad("go depth").contains("depth needs a value"));
        assert!(bad("go depth 0").contains("from 1 to 127"));
        assert!(bad("go depth 99999999999999999999999").contains("from 1 to"));
        assert!(bad("go nodes -3").contains("nodes"));
        assert!(bad("go fast").contains("unknown parameter 'fast'"));
        assert!(bad("go searchmoves depth 3").contains("at least one move"));
        assert!(bad("go perft 0").contains("perft depth"));
        assert!(bad("go perft 3 4").contains("unexpected '4'"));
    }

    #[test]
    fn bench_depth() {
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 5"), Command::Bench(Some(5)));
        assert!(bad("bench 0").contains("bench: depth"));
        assert!(bad("bench 5 6").contains("usage"));
    }

    #[test]
    fn move_errors_escape_what_was_sent() {
        for line in [
            "go searchmoves e\u{0}-e2",
            "position startpos moves \u{e9}-e2",
            "position startpos moves e2-\u{7}",
        ] {
            let e = bad(line);
            assert!(
                e.is_ascii() && !e.chars().any(|c| c.is_ascii_control()),
                "{line:?}: {e:?}"
            );
            assert!(e.contains("is not a square"), "{line:?}: {e:?}");
        }
    }
}
