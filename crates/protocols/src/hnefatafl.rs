//! hnefatafl.org's move and game forms: the `play` lines of its Hnefatafl Text Protocol (the
//! protocol of hnefatafl-copenhagen's `hnefatafl-text-protocol` engine), for its 7×7 and
//! 11×11 boards.
//!
//! - A **square** (its "vertex") is a file letter and a rank number from 1 at the bottom, and
//!   its form says the board's size: `0d1` on 7×7 (a `0`, then a small letter), `d1` on 11×11
//!   (a small letter), `D1` on 13×13 (a capital).
//! - A **move** is `play ROLE FROM TO`, the role `attacker` or `defender` (`a` and `d` are read
//!   too, in either case): `play attacker d1 d4`. A **resignation** is `play ROLE resigns`,
//!   which the engine writes `play attacker resigns _`. The engine's answer to
//!   `generate_move` is the same line after `= ` and before `, score: …`, which
//!   [`parse_play`] reads too.
//! - A **game** is its plays in order, each followed by `, ` (as hnefatafl-copenhagen lists
//!   a game's plays): `play attacker a4 e4, play defender d6 d9, `.
//!
//! Konakis has no 13×13 board yet: a 13×13 square is recognised and refused by its size
//! ([`HtpError::WrongSize`]), as is any square of another board's form. hnefatafl.org has no
//! 9×9 board, so these functions take the sizes it has ([`HtpBoard`]).

use crate::text::excerpt;
use konakis_core::geometry::{Eleven, FILE_LETTERS, Geometry, Seven};
use konakis_core::types::{MoveOf, Side, SquareOf};
use std::fmt;

/// A board size hnefatafl.org plays, whose square names it knows.
pub trait HtpBoard: Geometry {
    /// Written before a square's file letter: `0` on 7×7.
    const PREFIX: &'static str;
}

impl HtpBoard for Seven {
    const PREFIX: &'static str = "0";
}

impl HtpBoard for Eleven {
    const PREFIX: &'static str = "";
}

/// One play of hnefatafl.org: a move by a side, or a side's resignation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HtpPlay<G: Geometry> {
    /// `play ROLE FROM TO`.
    Move {
        /// The side moving.
        side: Side,
        /// The move.
        mv: MoveOf<G>,
    },
    /// `play ROLE resigns`.
    Resigns(Side),
}

/// Text that is not a play (or a game of plays) of hnefatafl.org for the board. Quoted input
/// is kept shortened to 60 characters.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum HtpError {
    /// Nothing to read.
    Empty,
    /// The first word is not `play`.
    NotAPlay(String),
    /// The role is missing.
    MissingRole,
    /// The role is not `attacker`, `defender`, `a` or `d`.
    UnknownRole(String),
    /// A square is missing: the play ends before `FROM TO`.
    MissingSquare,
    /// A word that is no square of any of hnefatafl.org's boards.
    NotASquare(String),
    /// A square written in the form of another board size.
    WrongSize {
        /// The square as written.
        square: String,
        /// The size its form names (7, 11 or 13).
        size: u8,
        /// The size of the board it was read for.
        board: u8,
    },
    /// The two squares are the same.
    SameSquare(String),
    /// The two squares share neither a rank nor a file.
    NotStraight(String),
    /// Words after the play.
    Trailing(String),
    /// A play of a game that is wrong, numbered from 1.
    Play {
        /// The play's number in the game.
        number: usize,
        /// What is wrong with it.
        error: Box<HtpError>,
    },
}

impl fmt::Display for HtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HtpError::Empty => f.write_str("empty play (expected e.g. 'play attacker d1 d4')"),
            HtpError::NotAPlay(text) => write!(
                f,
                "'{text}' is not a play (expected 'play ROLE FROM TO' or 'play ROLE resigns')"
            ),
            HtpError::MissingRole => f.write_str("the play has no role (attacker or defender)"),
            HtpError::UnknownRole(text) => {
                write!(f, "unknown role '{text}' (expected attacker or defender)")
            }
            HtpError::MissingSquare => f.write_str("the play needs two squares, FROM and TO"),
            HtpError::NotASquare(text) => write!(f, "'{text}' is not a square"),
            HtpError::WrongSize {
                square,
                size,
                board,
            } => write!(
                f,
                "'{square}' is a square of a {size}x{size} board, not of this {board}x{board} one"
            ),
            HtpError::SameSquare(text) => {
                write!(f, "'{text}': the move starts and ends on the same square")
            }
            HtpError::NotStraight(text) => {
                write!(f, "'{text}': pieces move along one rank or file")
            }
            HtpError::Trailing(text) => write!(f, "unexpected '{text}' after the play"),
            HtpError::Play { number, error } => write!(f, "play {number}: {error}"),
        }
    }
}

impl std::error::Error for HtpError {}

/// The square's name as hnefatafl.org writes it: `0d1` on 7×7, `d1` on 11×11.
///
/// ```
/// use konakis_core::geometry::{Eleven, Seven};
/// use konakis_core::types::SquareOf;
/// use konakis_protocols::hnefatafl::vertex;
/// assert_eq!(vertex(SquareOf::<Seven>::THRONE), "0d4");
/// assert_eq!(vertex(SquareOf::<Eleven>::THRONE), "f6");
/// ```
pub fn vertex<G: HtpBoard>(sq: SquareOf<G>) -> String {
    format!("{}{sq}", G::PREFIX)
}

/// Reads a square of the board `G`, telling a square of another size by its form.
fn parse_vertex<G: HtpBoard>(word: &str) -> Result<SquareOf<G>, HtpError> {
    let not_a_square = || HtpError::NotASquare(excerpt(word));
    let (size, name) = match word.strip_prefix('0') {
        Some(rest) => (7, rest),
        None if word.starts_with(|c: char| c.is_ascii_uppercase()) => (13, word),
        None => (11, word),
    };
    // The form must be a square of its own size, whatever the board: a letter of that size's
    // files and a rank from 1 to the size, without a leading zero.
    let mut chars = name.chars();
    let letter = chars.next().ok_or_else(not_a_square)?;
    let rank = chars.as_str();
    let file_ok = FILE_LETTERS[..size as usize].contains(&letter.to_ascii_lowercase())
        && (letter.is_ascii_uppercase() == (size == 13));
    let rank_ok = !rank.starts_with('0')
        && rank
            .parse::<usize>()
            .is_ok_and(|r| (1..=size as usize).contains(&r));
    if !file_ok || !rank_ok {
        return Err(not_a_square());
    }
    if usize::from(size) != G::SIDE {
        return Err(HtpError::WrongSize {
            square: excerpt(word),
            size,
            board: G::SIDE as u8,
        });
    }
    name.parse::<SquareOf<G>>().map_err(|_| not_a_square())
}

/// The role's word.
fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// A play as hnefatafl.org writes it: `play attacker d1 d4`, `play defender 0c4 0c2`,
/// `play attacker resigns _`.
pub fn play_line<G: HtpBoard>(play: &HtpPlay<G>) -> String {
    match play {
        HtpPlay::Move { side, mv } => format!(
            "play {} {} {}",
            role(*side),
            vertex(mv.from()),
            vertex(mv.to())
        ),
        HtpPlay::Resigns(side) => format!("play {} resigns _", role(*side)),
    }
}

/// Reads one play for the board `G`: `play ROLE FROM TO` or `play ROLE resigns` (and the `_`
/// the engine writes after it), as a command or as the engine's answer to `generate_move`
/// (`= play defender f8 f9, score: …`: the `= ` and all from the first comma are left out).
/// Checks the form, the board size of the squares and that the move goes along a line, not
/// that it is legal.
///
/// ```
/// use konakis_core::geometry::Eleven;
/// use konakis_core::Side;
/// use konakis_protocols::hnefatafl::{HtpPlay, parse_play, play_line};
/// let play = parse_play::<Eleven>("= play defender f8 f9, score: 19996").unwrap();
/// let HtpPlay::Move { side, mv } = play else { panic!() };
/// assert_eq!((side, mv.to_string()), (Side::Defenders, "f8f9".to_string()));
/// assert_eq!(play_line(&play), "play defender f8 f9");
/// ```
pub fn parse_play<G: HtpBoard>(text: &str) -> Result<HtpPlay<G>, HtpError> {
    let text = text.trim();
    let text = text.strip_prefix("= ").unwrap_or(text);
    let text = text.split_once(',').map_or(text, |(play, _)| play);
    let mut words = text.split_whitespace();
    match words.next() {
        None => return Err(HtpError::Empty),
        Some("play") => {}
        Some(_) => return Err(HtpError::NotAPlay(excerpt(text))),
    }
    let side = match words.next().map(|w| (w, w.to_ascii_lowercase())) {
        None => return Err(HtpError::MissingRole),
        Some((_, r)) if r == "attacker" || r == "a" => Side::Attackers,
        Some((_, r)) if r == "defender" || r == "d" => Side::Defenders,
        Some((w, _)) => return Err(HtpError::UnknownRole(excerpt(w))),
    };
    let from = words.next().ok_or(HtpError::MissingSquare)?;
    let play = if from == "resigns" {
        // The engine writes `resigns _` and reads `resigns` with anything after it.
        if words.next().is_some_and(|w| w != "_") {
            return Err(HtpError::Trailing(excerpt(text)));
        }
        HtpPlay::Resigns(side)
    } else {
        let to = words.next().ok_or(HtpError::MissingSquare)?;
        let (from, to) = (parse_vertex::<G>(from)?, parse_vertex::<G>(to)?);
        if from == to {
            return Err(HtpError::SameSquare(excerpt(text)));
        }
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(HtpError::NotStraight(excerpt(text)));
        }
        HtpPlay::Move {
            side,
            mv: MoveOf::new(from, to),
        }
    };
    match words.next() {
        None => Ok(play),
        Some(extra) => Err(HtpError::Trailing(excerpt(extra))),
    }
}

/// A game's plays as hnefatafl.org lists them: each play followed by `, `.
pub fn game_line<G: HtpBoard>(plays: &[HtpPlay<G>]) -> String {
    plays
        .iter()
        .map(|p| format!("{}, ", play_line(p)))
        .collect()
}

/// Reads a game's plays: separated by commas (as [`game_line`] writes them) or by line breaks.
/// An error names the play at fault, from 1.
pub fn parse_game<G: HtpBoard>(text: &str) -> Result<Vec<HtpPlay<G>>, HtpError> {
    text.split([',', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .enumerate()
        .map(|(i, p)| {
            parse_play(p).map_err(|e| HtpError::Play {
                number: i + 1,
                error: Box::new(e),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::{BRANDUBH_FEN, BoardOf, COPENHAGEN_FEN};
    use konakis_core::rules::Rules;
    use konakis_engine::skill::SplitMix64;

    const SESSION: &str = include_str!("../../../tests/data/hnefatafl/htp-session.txt");

    /// A command sent and the lines the engine wrote for it.
    type Exchange = (String, Vec<String>);

    /// The recorded sessions: for each, its title and its exchanges.
    fn sessions() -> Vec<(String, Vec<Exchange>)> {
        let mut out: Vec<(String, Vec<Exchange>)> = Vec::new();
        for line in SESSION.lines() {
            if let Some(title) = line.strip_prefix("## ") {
                out.push((title.to_string(), Vec::new()));
            } else if let Some(command) = line.strip_prefix("> ") {
                let session = out.last_mut().expect("a session title first");
                session.1.push((command.to_string(), Vec::new()));
            } else if let Some(answer) = line.strip_prefix("< ") {
                let session = out.last_mut().expect("a session title first");
                let exchange = session.1.last_mut().expect("a command first");
                exchange.1.push(answer.to_string());
            }
        }
        out
    }

    /// The plays of a recorded session read for the board `G`: every play the engine took
    /// (`=`) or sent (its move, in its `turn:` line and its answer) reads and writes back as
    /// it was written; every play it refused for its form is refused here too.
    fn check_session<G: HtpBoard>(exchanges: &[Exchange]) -> usize {
        let mut plays = 0;
        for (command, answers) in exchanges {
            let answer = answers.last().expect("an answer");
            if command.starts_with("play ") {
                let read = parse_play::<G>(command);
                if answer.starts_with('=') {
                    let play = read.unwrap_or_else(|e| panic!("{command}: {e}"));
                    let written = play_line(&play);
                    // The engine reads `resigns` and writes `resigns _`.
                    assert_eq!(written.trim_end_matches(" _"), command.as_str());
                    plays += 1;
                } else if answer.contains("not a legal char")
                    || answer.contains("invalid coordinate")
                    || answer.contains("change location")
                    || answer.contains("straight line")
                {
                    assert!(read.is_err(), "{command} was read: {read:?} ({answer})");
                }
            }
            if command == "generate_move" {
                for line in answers {
                    let sent = match line.split_once(" play: ") {
                        Some((_, play)) => play,
                        None => line.as_str(),
                    };
                    let play = parse_play::<G>(sent).unwrap_or_else(|e| panic!("{line}: {e}"));
                    let bare = sent.trim_start_matches("= ").split(',').next().unwrap();
                    assert_eq!(play_line(&play), bare);
                    plays += 1;
                }
            }
        }
        plays
    }

    #[test]
    fn plays_read_and_write_as_the_engine_sends_and_accepts_them() {
        let sessions = sessions();
        assert_eq!(sessions.len(), 3);
        let eleven = check_session::<Eleven>(&sessions[0].1);
        let seven = check_session::<Seven>(&sessions[1].1);
        assert!(eleven >= 6 && seven >= 3, "{eleven} and {seven} plays");
        // The 13x13 session's squares are refused by their size on the boards Konakis has.
        for (command, _) in &sessions[2].1 {
            if command.starts_with("play ") {
                let e = parse_play::<Eleven>(command).unwrap_err();
                assert!(matches!(e, HtpError::WrongSize { size: 13, .. }), "{e}");
            }
        }
        // A capture's answer lists the captured square in the same form.
        let (_, capture) = &sessions[0].1[2];
        assert_eq!(capture.last().unwrap(), "= f4");
        assert_eq!(vertex("f4".parse::<SquareOf<Eleven>>().unwrap()), "f4");
    }

    #[test]
    fn squares_of_another_size_are_refused_by_their_size() {
        let wrong = |text: &str| parse_play::<Seven>(text).unwrap_err();
        assert_eq!(
            wrong("play defender d3 d2"),
            HtpError::WrongSize {
                square: "d3".into(),
                size: 11,
                board: 7
            }
        );
        assert!(matches!(
            parse_play::<Eleven>("play attacker 0d1 0d2"),
            Err(HtpError::WrongSize { size: 7, .. })
        ));
        assert!(matches!(
            parse_play::<Eleven>("play attacker D13 D9"),
            Err(HtpError::WrongSize { size: 13, .. })
        ));
        // Forms that are no square on any board.
        for text in [
            "play attacker 0h1 0h2",
            "play attacker l1 l2",
            "play attacker N1 N2",
            "play attacker d0 d2",
            "play attacker d01 d2",
            "play attacker d12 d2",
            "play attacker Dx Dy",
            "play attacker 0 d2",
        ] {
            assert!(
                matches!(parse_play::<Eleven>(text), Err(HtpError::NotASquare(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn bad_plays_name_what_is_wrong() {
        let e = |text: &str| parse_play::<Eleven>(text).unwrap_err();
        assert_eq!(e(""), HtpError::Empty);
        assert_eq!(e("move d1 d4"), HtpError::NotAPlay("move d1 d4".into()));
        assert_eq!(e("play"), HtpError::MissingRole);
        assert_eq!(e("play king f6 f7"), HtpError::UnknownRole("king".into()));
        assert_eq!(e("play attacker d1"), HtpError::MissingSquare);
        assert_eq!(
            e("play attacker d1 d1"),
            HtpError::SameSquare("play attacker d1 d1".into())
        );
        assert_eq!(
            e("play attacker d1 e2"),
            HtpError::NotStraight("play attacker d1 e2".into())
        );
        assert_eq!(e("play attacker d1 d4 d5"), HtpError::Trailing("d5".into()));
        assert!(matches!(
            e("play attacker resigns now"),
            HtpError::Trailing(_)
        ));
        assert_eq!(
            parse_play::<Eleven>("play A resigns"),
            Ok(HtpPlay::Resigns(Side::Attackers))
        );
        assert_eq!(
            parse_game::<Eleven>("play attacker a4 e4, play defender d6 x9, "),
            Err(HtpError::Play {
                number: 2,
                error: Box::new(HtpError::NotASquare("x9".into()))
            })
        );
    }

    /// Random games of size `G` (Konakis' rules, which generate every size) written as a game
    /// line and read back to the same plays.
    fn random_games_round_trip<G: HtpBoard>(start: &str, seed: u64) {
        let rules = Rules::default();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..20 {
            let mut board = BoardOf::<G>::from_fen(start).unwrap();
            let mut plays = Vec::new();
            for _ in 0..40 {
                let moves = board.legal_moves(&rules);
                if moves.is_empty() || board.is_won(&rules) {
                    break;
                }
                let mv = moves[rng.up_to(moves.len() as u32 - 1) as usize];
                plays.push(HtpPlay::Move {
                    side: board.side_to_move(),
                    mv,
                });
                board.play(&rules, mv);
            }
            plays.push(HtpPlay::Resigns(board.side_to_move()));
            let text = game_line(&plays);
            assert_eq!(parse_game::<G>(&text), Ok(plays.clone()), "{text}");
            let lines: Vec<String> = plays.iter().map(play_line).collect();
            assert_eq!(parse_game::<G>(&lines.join("\n")), Ok(plays));
        }
    }

    #[test]
    fn random_games_of_seven_and_eleven_round_trip() {
        random_games_round_trip::<Seven>(BRANDUBH_FEN, 7);
        random_games_round_trip::<Eleven>(COPENHAGEN_FEN, 11);
    }

    #[test]
    fn garbage_is_refused_with_one_ascii_line_and_never_panics() {
        let mut rng = SplitMix64::new(452);
        let words = [
            "play", "attacker", "defender", "a", "D", "resigns", "_", "0", "d1", "0d1", "D1",
            "k11", "0g7", "a10", "=", ",", " ", "\u{e9}", "1", "x",
        ];
        for _ in 0..20_000 {
            let n = rng.up_to(6);
            let text: String = (0..n)
                .map(|_| words[rng.up_to(words.len() as u32 - 1) as usize])
                .collect::<Vec<_>>()
                .join(if rng.up_to(1) == 0 { " " } else { "" });
            for result in [
                parse_play::<Seven>(&text).map(|p| play_line(&p)),
                parse_play::<Eleven>(&text).map(|p| play_line(&p)),
            ] {
                if let Err(e) = result {
                    let message = e.to_string();
                    assert!(message.is_ascii() && !message.contains('\n'), "{message}");
                }
            }
            if let Ok(plays) = parse_game::<Eleven>(&text) {
                assert_eq!(
                    parse_game::<Eleven>(&game_line(&plays)),
                    Ok(plays),
                    "{text:?}"
                );
            }
        }
    }
}
