//! Parsing: each input line becomes a [`Command`] or a [`ParseError`], before anything is done.
//!
//! Parsing checks everything that does not depend on the engine's state: the words, the numbers
//! and their ranges, the position string and the notation of every move. Whether a move is
//! legal depends on the position and is checked when the command runs.

use konakis_core::board::{BoardOf, PositionErrorOf};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{MoveOf, MoveParseError};
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

/// Where a `position` command starts (the engine's start).
pub use konakis_engine::Start;

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<G: Geometry = Nine> {
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
        start: Start<G>,
        /// The moves after it (notation checked, legality not yet).
        moves: Vec<MoveOf<G>>,
    },
    /// `go …` (a search).
    Go(Limits<G>),
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
    /// `help`: a short guide to the commands.
    Help,
}

/// A line that is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError<G: Geometry = Nine> {
    /// The first word is not a command.
    Unknown(String),
    /// The command is known but its arguments are wrong.
    Invalid {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: Reason<G>,
    },
}

impl<G: Geometry> fmt::Display for ParseError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(word) => write!(
                f,
                "unknown command '{}' (help lists the commands)",
                quote(word)
            ),
            ParseError::Invalid { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl<G: Geometry> std::error::Error for ParseError<G> {}

/// What is wrong with a known command's arguments. Texts are kept as given; `Display` quotes
/// them (see [`quote`]) and gives the words after `<command>: ` in the protocol's
/// `info string error:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason<G: Geometry = Nine> {
    /// A word after a command that takes no arguments.
    NoArguments {
        /// The first extra word.
        found: String,
    },
    /// A word after `bench <depth>`.
    BenchUsage {
        /// The first extra word.
        found: String,
    },
    /// `setoption` not followed by `name`.
    ExpectedName {
        /// The word found instead.
        found: String,
    },
    /// `setoption name` with no name.
    MissingName,
    /// `setoption … value` with nothing after `value`.
    MissingValue,
    /// A word after `position startpos` other than `moves`.
    AfterStartpos {
        /// The word found.
        found: String,
    },
    /// `position fen` with no position string.
    MissingFen,
    /// `position fen` with a position string that does not parse.
    BadPosition {
        /// The position string, its words joined by single spaces.
        text: String,
        /// Why it does not parse.
        error: PositionErrorOf<G>,
    },
    /// `position` with neither `startpos` nor `fen`.
    MissingStart,
    /// `position` followed by a word other than `startpos` or `fen`.
    ExpectedStart {
        /// The word found.
        found: String,
    },
    /// A move after `position … moves` whose notation is wrong.
    Move {
        /// Its place in the list, from 1.
        index: usize,
        /// The move as given.
        text: String,
        /// What is wrong with it.
        why: BadMove,
    },
    /// `go perft` with no depth.
    PerftNeedsDepth,
    /// A word after `go perft <depth>`.
    AfterPerftDepth {
        /// The word found.
        found: String,
    },
    /// `perft` among other `go` parameters.
    PerftAlone,
    /// A `go` parameter that needs a value, at the end of the line.
    NeedsValue {
        /// The parameter.
        word: String,
    },
    /// An integer out of its range or not an integer: `bench`'s depth (`word` is `depth`),
    /// `go perft`'s depth (`perft depth`), or `go depth|mate|nodes|movestogo`.
    Number {
        /// What the number is for, as the message names it.
        word: String,
        /// What is wrong with it.
        error: NotInRange,
    },
    /// A clock value (`go movetime|wtime|btime|winc|binc`) that is not a number of milliseconds.
    Milliseconds {
        /// The parameter.
        word: String,
        /// What is wrong with it.
        error: BadMilliseconds,
    },
    /// A `go searchmoves` move whose notation is wrong.
    SearchMove {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        why: BadMove,
    },
    /// `go searchmoves` with no move after it.
    SearchMovesEmpty,
    /// A `go` word that is not a parameter.
    UnknownParameter {
        /// The word.
        found: String,
    },
}

impl<G: Geometry> fmt::Display for Reason<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setoption_usage = "setoption name <name> [value <value>]";
        let position_usage = "position startpos|fen <placement> <side> [<plies>] [moves <move>...]";
        match self {
            Reason::NoArguments { found } => {
                write!(f, "unexpected '{}' (it takes no arguments)", quote(found))
            }
            Reason::BenchUsage { found } => {
                write!(f, "unexpected '{}' (usage: bench [depth])", quote(found))
            }
            Reason::ExpectedName { found } => write!(
                f,
                "expected 'name', found '{}' (usage: {setoption_usage})",
                quote(found)
            ),
            Reason::MissingName => write!(f, "missing option name (usage: {setoption_usage})"),
            Reason::MissingValue => write!(
                f,
                "'value' is not followed by a value (usage: {setoption_usage})"
            ),
            Reason::AfterStartpos { found } => write!(
                f,
                "unexpected '{}' after startpos (expected 'moves')",
                quote(found)
            ),
            Reason::MissingFen => {
                write!(f, "missing position string after fen ({position_usage})")
            }
            Reason::BadPosition { text, error } => {
                write!(f, "bad position string '{}': {error}", quote(text))
            }
            Reason::MissingStart => write!(f, "missing startpos or fen ({position_usage})"),
            Reason::ExpectedStart { found } => write!(
                f,
                "expected startpos or fen, found '{}' ({position_usage})",
                quote(found)
            ),
            Reason::Move { index, text, why } => {
                write!(f, "move {index} '{}' {why}", quote(text))
            }
            Reason::PerftNeedsDepth => write!(f, "perft needs a depth (go perft <depth>)"),
            Reason::AfterPerftDepth { found } => {
                write!(f, "unexpected '{}' after the perft depth", quote(found))
            }
            Reason::PerftAlone => write!(f, "perft goes alone: go perft <depth>"),
            Reason::NeedsValue { word } => write!(f, "{word} needs a value"),
            Reason::Number { word, error } => write!(f, "{word} {error}"),
            Reason::Milliseconds { word, error } => write!(f, "{word} {error}"),
            Reason::SearchMove { text, why } => {
                write!(f, "searchmoves: '{}' {why}", quote(text))
            }
            Reason::SearchMovesEmpty => write!(f, "searchmoves needs at least one move"),
            Reason::UnknownParameter { found } => write!(
                f,
                "unknown parameter '{}' (known: {})",
                quote(found),
                GO_WORDS.join(", ")
            ),
        }
    }
}

/// A text that is not an integer in a range. `Display` completes "`<word> …`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotInRange {
    /// The text as given.
    pub text: String,
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed.
    pub max: u64,
}

impl fmt::Display for NotInRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not an integer from {} to {}",
            quote(&self.text),
            self.min,
            self.max
        )
    }
}

/// A clock value that is not a number of milliseconds up to a year. `Display` completes
/// "`<word> …`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMilliseconds {
    /// The text as given.
    pub text: String,
}

/// The largest clock value accepted, in milliseconds (366 days).
pub const MAX_CLOCK_MS: i64 = 366 * 24 * 3600 * 1000;

impl fmt::Display for BadMilliseconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a number of milliseconds up to {MAX_CLOCK_MS}",
            quote(&self.text)
        )
    }
}

/// Why a move's notation is refused. `Display` completes "move N 'text' …".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Longer than any move (more than 5 characters).
    TooLong,
    /// [`MoveOf::parse`] refused it.
    Notation(MoveParseError),
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let general = "is not a move (expected e.g. d1d3 or d1-d3)";
        match self {
            BadMove::TooLong | BadMove::Notation(MoveParseError::Notation { .. }) => {
                f.write_str(general)
            }
            BadMove::Notation(MoveParseError::NotASquare { square, .. }) => {
                // The square is the text as sent: escaped, like every echo of the input.
                let why = format!("'{square}' is not a square");
                write!(f, "is not a move: {}", bounded_line(&why, 80))
            }
            BadMove::Notation(MoveParseError::SameSquare { .. }) => {
                f.write_str("is not a move: it starts and ends on the same square")
            }
            BadMove::Notation(MoveParseError::NotStraight { .. }) => {
                f.write_str("is not a move: pieces move along one rank or file")
            }
        }
    }
}

impl<G: Geometry> std::error::Error for Reason<G> {}
impl std::error::Error for NotInRange {}
impl std::error::Error for BadMilliseconds {}
impl std::error::Error for BadMove {}

pub use crate::text::{bounded_line, quote};

/// Parses one line on Tablut's board ([`parse_on`]).
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    parse_on::<Nine>(line)
}

/// Parses one line, its positions and moves on the board `G`. `Ok(None)` for a line with
/// nothing but white space.
pub fn parse_on<G: Geometry>(line: &str) -> Result<Option<Command<G>>, ParseError<G>> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let invalid =
        |command: &'static str, reason: Reason<G>| ParseError::Invalid { command, reason };
    let no_args = |command: &'static str, c: Command<G>| {
        if let Some(extra) = rest.first() {
            Err(invalid(
                command,
                Reason::NoArguments {
                    found: extra.to_string(),
                },
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
        "help" => no_args("help", Command::Help),
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(Some),
        "bench" => match rest.as_slice() {
            [] => Ok(Some(Command::Bench(None))),
            [d] => number(d, 1, MAX_BENCH_DEPTH)
                .map(|d| Some(Command::Bench(Some(d))))
                .map_err(|error| {
                    invalid(
                        "bench",
                        Reason::Number {
                            word: "depth".into(),
                            error,
                        },
                    )
                }),
            [_, extra, ..] => Err(invalid(
                "bench",
                Reason::BenchUsage {
                    found: extra.to_string(),
                },
            )),
        },
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

/// Parses `text` as an integer in `min..=max`.
fn number<T>(text: &str, min: T, max: T) -> Result<T, NotInRange>
where
    T: std::str::FromStr + PartialOrd + Into<u64> + Copy,
{
    match text.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(NotInRange {
            text: text.to_string(),
            min: min.into(),
            max: max.into(),
        }),
    }
}

fn parse_setoption<G: Geometry>(args: &[&str]) -> Result<Command<G>, ParseError<G>> {
    let err = |reason: Reason<G>| ParseError::Invalid {
        command: "setoption",
        reason,
    };
    match args.first() {
        Some(w) if w.eq_ignore_ascii_case("name") => {}
        Some(w) => {
            return Err(err(Reason::ExpectedName {
                found: w.to_string(),
            }));
        }
        None => return Err(err(Reason::MissingName)),
    }
    let args = &args[1..];
    let split = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(i) => (&args[..i], Some(&args[i + 1..])),
        None => (args, None),
    };
    if name.is_empty() {
        return Err(err(Reason::MissingName));
    }
    if let Some(v) = value
        && v.is_empty()
    {
        return Err(err(Reason::MissingValue));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.map(|v| v.join(" ")),
    })
}

fn parse_position<G: Geometry>(args: &[&str]) -> Result<Command<G>, ParseError<G>> {
    let err = |reason: Reason<G>| ParseError::Invalid {
        command: "position",
        reason,
    };
    let moves_at = args.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["startpos", extra, ..] => {
            return Err(err(Reason::AfterStartpos {
                found: extra.to_string(),
            }));
        }
        ["fen"] => return Err(err(Reason::MissingFen)),
        ["fen", fields @ ..] => {
            let text = fields.join(" ");
            Start::Board(BoardOf::from_fen(&text).map_err(|error| {
                err(Reason::BadPosition {
                    text: text.clone(),
                    error,
                })
            })?)
        }
        [] => return Err(err(Reason::MissingStart)),
        [other, ..] => {
            return Err(err(Reason::ExpectedStart {
                found: other.to_string(),
            }));
        }
    };
    let moves = moves
        .iter()
        .enumerate()
        .map(|(i, text)| {
            parse_move_token(text).map_err(|why| {
                err(Reason::Move {
                    index: i + 1,
                    text: text.to_string(),
                    why,
                })
            })
        })
        .collect::<Result<Vec<MoveOf<G>>, ParseError<G>>>()?;
    Ok(Command::Position { start, moves })
}

/// Parses a move's notation.
fn parse_move_token<G: Geometry>(text: &str) -> Result<MoveOf<G>, BadMove> {
    // Two squares and a dash: `a1-i9`, `a10-k11` on the boards of ten ranks or more.
    let longest = if G::SIDE >= 10 { 7 } else { 5 };
    if text.chars().count() > longest {
        return Err(BadMove::TooLong);
    }
    MoveOf::parse(text).map_err(BadMove::Notation)
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

fn parse_go<G: Geometry>(args: &[&str]) -> Result<Command<G>, ParseError<G>> {
    let err = |reason: Reason<G>| ParseError::Invalid {
        command: "go",
        reason,
    };
    let number_err = |word: &str| {
        let word = word.to_string();
        move |error| err(Reason::Number { word, error })
    };
    if args.first() == Some(&"perft") {
        return match args {
            [_] => Err(err(Reason::PerftNeedsDepth)),
            [_, d] => number(d, 1, MAX_PERFT_DEPTH)
                .map(Command::Perft)
                .map_err(number_err("perft depth")),
            [_, _, extra, ..] => Err(err(Reason::AfterPerftDepth {
                found: extra.to_string(),
            })),
            [] => unreachable!("args starts with perft"),
        };
    }
    let mut limits = Limits::<G>::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        // The value after `word`, if it needs one.
        let mut value = || {
            let v = args.get(i).copied().ok_or_else(|| {
                err(Reason::NeedsValue {
                    word: word.to_string(),
                })
            })?;
            i += 1;
            Ok::<&str, ParseError<G>>(v)
        };
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "depth" => {
                let v = value()?;
                limits.depth = Some(number(v, 1, MAX_DEPTH).map_err(number_err(word))?);
            }
            "mate" => {
                let v = value()?;
                limits.mate = Some(number(v, 1, MAX_MATE).map_err(number_err(word))?);
            }
            "nodes" => {
                let v = value()?;
                limits.nodes = Some(number(v, 1, u64::MAX / 2).map_err(number_err(word))?);
            }
            "movestogo" => {
                let v = value()?;
                let n: u32 = number(v, 0, 1_000_000).map_err(number_err(word))?;
                limits.movestogo = (n > 0).then_some(n);
            }
            "movetime" | "wtime" | "btime" | "winc" | "binc" => {
                let v = value()?;
                let ms = milliseconds(v).map_err(|error| {
                    err(Reason::Milliseconds {
                        word: word.to_string(),
                        error,
                    })
                })?;
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
                    let mv = parse_move_token(text).map_err(|why| {
                        err(Reason::SearchMove {
                            text: text.to_string(),
                            why,
                        })
                    })?;
                    if !limits.searchmoves.contains(&mv) {
                        limits.searchmoves.push(mv);
                    }
                    i += 1;
                }
                if i == start {
                    return Err(err(Reason::SearchMovesEmpty));
                }
            }
            "perft" => {
                return Err(err(Reason::PerftAlone));
            }
            other => {
                return Err(err(Reason::UnknownParameter {
                    found: other.to_string(),
                }));
            }
        }
    }
    Ok(Command::Go(limits))
}

/// Milliseconds for a clock value. Negative values (a front-end reporting a clock that has run
/// out) count as 0; values past a year are refused.
fn milliseconds(text: &str) -> Result<u64, BadMilliseconds> {
    match text.parse::<i64>() {
        Ok(v) if v <= MAX_CLOCK_MS => Ok(v.max(0) as u64),
        _ => Err(BadMilliseconds {
            text: text.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::types::Move;

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
        assert_eq!(
            bad("hello world"),
            "unknown command 'hello' (help lists the commands)"
        );
        assert_eq!(
            bad("\u{7}x"),
            "unknown command '\\u{7}x' (help lists the commands)"
        );
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
    fn invalid_arguments_have_typed_reasons_with_the_protocol_words() {
        let error = parse("go depth 0").unwrap_err();
        assert_eq!(
            error,
            ParseError::Invalid {
                command: "go",
                reason: Reason::Number {
                    word: "depth".into(),
                    error: NotInRange {
                        text: "0".into(),
                        min: 1,
                        max: MAX_DEPTH as u64
                    }
                }
            }
        );
        assert_eq!(
            error.to_string(),
            "go: depth '0' is not an integer from 1 to 127"
        );
        let error = parse("position startpos moves e2e3 a1a1").unwrap_err();
        assert!(matches!(
            &error,
            ParseError::Invalid {
                command: "position",
                reason: Reason::Move {
                    index: 2,
                    why: BadMove::Notation(MoveParseError::SameSquare { .. }),
                    ..
                }
            }
        ));
        assert_eq!(
            error.to_string(),
            "position: move 2 'a1a1' is not a move: it starts and ends on the same square"
        );
        assert_eq!(
            bad("go wtime 1e3"),
            "go: wtime '1e3' is not a number of milliseconds up to 31622400000"
        );
        assert_eq!(
            bad("go searchmoves abcdef"),
            "go: searchmoves: 'abcdef' is not a move (expected e.g. d1d3 or d1-d3)"
        );
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
