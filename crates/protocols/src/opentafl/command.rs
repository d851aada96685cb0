//! The host's OTEP lines, each parsed into a [`HostCommandOf`] (or an error message) before the
//! engine acts on it.

use super::notation::{NotationErrorOf, parse_move, parse_position_record};
use crate::text::excerpt;
use konakis_core::board::BoardOf;
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{BySide, MoveOf, Side};
use std::fmt;

/// One line from the host, its moves and records read on a board of size `G` (the size of the
/// rules in force).
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommandOf<G: Geometry> {
    /// `rules <rules string>`: kept as text, since refusing rules is a fatal error (`error -1`)
    /// rather than a bad line.
    Rules(String),
    /// `clock …`.
    Clock(Clock),
    /// `play attackers|defenders`.
    Play(Side),
    /// `opponent-move <move> <record>`: the move (`None` when it cannot be read: the record
    /// decides then), as written, and the board of the record, attackers to move (who is to
    /// move follows from the move).
    OpponentMove {
        /// The move, if it could be read.
        mv: Option<MoveOf<G>>,
        /// The move as written.
        text: String,
        /// The board after it.
        board: BoardOf<G>,
    },
    /// `move <record>`: the board after the engine's move, attackers to move.
    Confirm(BoardOf<G>),
    /// `position <record>`: a board, attackers to move.
    Position(BoardOf<G>),
    /// `side attackers|defenders`.
    Side(Side),
    /// `analyze <lines> <seconds>`.
    Analyze {
        /// How many moves to give.
        lines: usize,
        /// How long to think.
        seconds: f64,
    },
    /// `error <code> [text]` from the host.
    Error(String),
    /// `finish <code>`.
    Finish,
    /// `goodbye`.
    Goodbye,
    /// An empty line, or a line that needs nothing done (`hello`, `start`, `simple-moves`).
    Nothing,
    /// A first word the engine does not know.
    Unknown(String),
}

/// A line from the host of a Tablut (9×9) game.
pub type HostCommand = HostCommandOf<Nine>;

/// A host line that cannot be read: the text of an `error 0` line names the command. Quoted
/// input is kept shortened, as the message shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandErrorOf<G: Geometry> {
    /// `play` or `side` without `attackers` or `defenders`.
    Side {
        /// The command.
        command: &'static str,
        /// What came instead.
        text: String,
    },
    /// A position record that cannot be read.
    Record {
        /// The command.
        command: &'static str,
        /// What is wrong with the record.
        error: NotationErrorOf<G>,
    },
    /// `opponent-move` without a move and a record.
    OpponentMove(String),
    /// `move` without a position record.
    Confirm(String),
    /// `analyze` without a number of moves and a number of seconds.
    Analyze(String),
    /// `clock` without 5 fields; the number it has.
    ClockFields(usize),
    /// A clock time that is not a number of milliseconds.
    ClockTime(String),
    /// A clock field that is not a count.
    ClockCount(String),
}

/// A host line of a Tablut (9×9) game that cannot be read.
pub type CommandError = CommandErrorOf<Nine>;

impl<G: Geometry> fmt::Display for CommandErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Side { command, text } => {
                write!(
                    f,
                    "{command}: expected attackers or defenders, got '{text}'"
                )
            }
            Self::Record { command, error } => write!(f, "{command}: {error}"),
            Self::OpponentMove(text) => write!(
                f,
                "opponent-move: expected <move> <position record>, got '{text}'"
            ),
            Self::Confirm(text) => {
                write!(f, "move: expected a position record, got '{text}'")
            }
            Self::Analyze(text) => write!(
                f,
                "analyze: expected <number of moves> <seconds>, got '{text}'"
            ),
            Self::ClockFields(n) => write!(
                f,
                "clock: expected 5 fields (<att ms>[*] <def ms>[*] <overtime s> <att overtimes> \
                 <def overtimes>), got {n}"
            ),
            Self::ClockTime(text) => write!(f, "clock: '{text}' is not a time in ms"),
            Self::ClockCount(text) => write!(f, "clock: '{text}' is not a count"),
        }
    }
}

impl<G: Geometry> std::error::Error for CommandErrorOf<G> {}

fn side<G: Geometry>(command: &'static str, text: &str) -> Result<Side, CommandErrorOf<G>> {
    match text {
        "attackers" => Ok(Side::Attackers),
        "defenders" => Ok(Side::Defenders),
        _ => Err(CommandErrorOf::Side {
            command,
            text: excerpt(text),
        }),
    }
}

fn record<G: Geometry>(command: &'static str, text: &str) -> Result<BoardOf<G>, CommandErrorOf<G>> {
    parse_position_record(text, Side::Attackers)
        .map_err(|error| CommandErrorOf::Record { command, error })
}

/// Parses one line from the host, its moves and records on a board of size `G`; the error is
/// the text of an `error 0` line.
pub fn parse<G: Geometry>(line: &str) -> Result<HostCommandOf<G>, CommandErrorOf<G>> {
    let line = line.trim();
    let (word, rest) = line.split_once([' ', '\t']).unwrap_or((line, ""));
    let rest = rest.trim();
    Ok(match word {
        "" | "hello" | "start" | "simple-moves" => HostCommandOf::Nothing,
        "rules" => HostCommandOf::Rules(rest.to_string()),
        "clock" => HostCommandOf::Clock(parse_clock(rest)?),
        "play" => HostCommandOf::Play(side("play", rest)?),
        "side" => HostCommandOf::Side(side("side", rest)?),
        "opponent-move" => {
            let Some((text, rec)) = rest.split_once(' ') else {
                return Err(CommandErrorOf::OpponentMove(excerpt(rest)));
            };
            HostCommandOf::OpponentMove {
                mv: parse_move(text).ok().map(|m| m.mv),
                text: text.to_string(),
                board: record("opponent-move", rec.trim())?,
            }
        }
        "move" => {
            if !rest.starts_with('/') {
                return Err(CommandErrorOf::Confirm(excerpt(rest)));
            }
            HostCommandOf::Confirm(record("move", rest)?)
        }
        "position" => HostCommandOf::Position(record("position", rest)?),
        "analyze" => {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                [n, secs] => n.parse::<usize>().ok().filter(|n| *n >= 1).zip(
                    secs.parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0),
                ),
                _ => None,
            };
            let Some((lines, seconds)) = parsed else {
                return Err(CommandErrorOf::Analyze(excerpt(rest)));
            };
            HostCommandOf::Analyze { lines, seconds }
        }
        "error" => HostCommandOf::Error(rest.to_string()),
        "finish" => HostCommandOf::Finish,
        "goodbye" => HostCommandOf::Goodbye,
        other => HostCommandOf::Unknown(other.to_string()),
    })
}

/// The clocks of a `clock` line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    /// Milliseconds left: main time, or the current overtime period when `overtime` is set;
    /// negative when the game has no main time.
    pub ms: BySide<i64>,
    /// The side is in overtime (the `*` mark).
    pub overtime: BySide<bool>,
    /// The length of an overtime period in milliseconds (0: none).
    pub period_ms: u64,
    /// Overtime periods left.
    pub periods: BySide<u32>,
}

/// Parses the arguments of `clock <att ms>[*] <def ms>[*] <overtime s> <att n> <def n>`.
pub fn parse_clock<G: Geometry>(args: &str) -> Result<Clock, CommandErrorOf<G>> {
    let fields: Vec<&str> = args.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(CommandErrorOf::ClockFields(fields.len()));
    }
    let time = |text: &str| -> Result<(i64, bool), CommandErrorOf<G>> {
        let (num, star) = match text.strip_suffix('*') {
            Some(n) => (n, true),
            None => (text, false),
        };
        num.parse::<i64>()
            .map(|ms| (ms, star))
            .map_err(|_| CommandErrorOf::ClockTime(excerpt(text)))
    };
    let number = |text: &str| -> Result<f64, CommandErrorOf<G>> {
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
            .ok_or_else(|| CommandErrorOf::ClockCount(excerpt(text)))
    };
    let (att, att_ot) = time(fields[0])?;
    let (def, def_ot) = time(fields[1])?;
    Ok(Clock {
        ms: BySide::new(att, def),
        overtime: BySide::new(att_ot, def_ot),
        period_ms: (number(fields[2])? * 1000.0) as u64,
        periods: BySide::new(number(fields[3])? as u32, number(fields[4])? as u32),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_lines_parse_with_overtime_marks_and_trailing_spaces() {
        let c = parse_clock::<Nine>("29469 30000 3 3 3 ").unwrap();
        assert_eq!(c.ms, BySide::new(29_469, 30_000));
        assert_eq!(c.overtime, BySide::new(false, false));
        assert_eq!(c.period_ms, 3_000);
        assert_eq!(c.periods, BySide::new(3, 3));
        assert_eq!(parse_clock::<Nine>("1 2 2.5 1 1").unwrap().period_ms, 2_500);
        let c = parse_clock::<Nine>("3000* 1129* 3 3 2").unwrap();
        assert_eq!(c.overtime, BySide::new(true, true));
        assert_eq!(c.periods[Side::Defenders], 2);
        for bad in [
            "",
            "1 2 3 4",
            "1 2 3 4 5 6",
            "x 2 3 4 5",
            "1 2* 3 -4 5",
            "1** 2 3 4 5",
        ] {
            assert!(parse_clock::<Nine>(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn lines_become_commands() {
        assert_eq!(
            parse("play attackers"),
            Ok(HostCommand::Play(Side::Attackers))
        );
        assert_eq!(
            parse("  side defenders "),
            Ok(HostCommand::Side(Side::Defenders))
        );
        assert_eq!(parse(""), Ok(HostCommand::Nothing));
        assert_eq!(parse("simple-moves off"), Ok(HostCommand::Nothing));
        assert_eq!(parse("goodbye"), Ok(HostCommand::Goodbye));
        assert_eq!(parse("finish 3"), Ok(HostCommand::Finish));
        assert_eq!(parse("wibble 1"), Ok(HostCommand::Unknown("wibble".into())));
        assert_eq!(
            parse("analyze 3 1.5"),
            Ok(HostCommand::Analyze {
                lines: 3,
                seconds: 1.5
            })
        );
        let record = "/4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let board = parse_position_record::<Nine>(record, Side::Attackers).unwrap();
        assert_eq!(
            parse(&format!("opponent-move d1-d2 {record}")),
            Ok(HostCommand::OpponentMove {
                mv: Some(MoveOf::<Nine>::parse("d1d2").unwrap()),
                text: "d1-d2".into(),
                board
            })
        );
        // OpenTafl types a captured king: the move is still read.
        assert!(matches!(
            parse(&format!("opponent-move d1-d2xKf4 {record}")),
            Ok(HostCommand::OpponentMove { mv: Some(_), .. })
        ));
        // An unreadable move leaves the record to decide.
        assert!(matches!(
            parse(&format!("opponent-move ?? {record}")),
            Ok(HostCommand::OpponentMove { mv: None, .. })
        ));
        assert_eq!(
            parse(&format!("move {record}")),
            Ok(HostCommand::Confirm(board))
        );
        assert_eq!(
            parse(&format!("position {record}")),
            Ok(HostCommand::Position(board))
        );
    }

    #[test]
    fn bad_lines_name_the_command() {
        for (line, want) in [
            ("play", "play:"),
            ("play sideways", "play:"),
            ("side up", "side:"),
            ("clock 1 2", "clock:"),
            ("opponent-move d1-d2", "opponent-move:"),
            ("opponent-move d1-d2 /9/", "opponent-move:"),
            ("move d1-d2", "move:"),
            ("position /3ttt3/", "position:"),
            ("analyze 0 3", "analyze:"),
            ("analyze 2 -1", "analyze:"),
            ("analyze 2", "analyze:"),
        ] {
            let e = parse::<Nine>(line).unwrap_err().to_string();
            assert!(e.starts_with(want), "{line}: {e}");
        }
    }
}
