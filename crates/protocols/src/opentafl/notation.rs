//! OpenTafl's notation for 9×9 Tablut: position records and moves.
//!
//! - A **position record** lists the ranks from rank 1 up, each from file a, between slashes:
//!   `/3ttt3/4t4/…/3ttt3/`. `t` is an attacker, `T` a defender, `K` the king, a number that
//!   many empty squares. It does not say who is to move. (Konakis' own position strings list
//!   rank 9 first; [`position_record`] and [`parse_position_record`] translate.)
//! - A **move** is `from-to` (`e3-e1`); OpenTafl's full form prefixes the king's moves with `K`
//!   (`Ke5-e7`), lists captures after an `x` separated by `/` (`e3-e1xe2/d1`) and may end with
//!   a mark: `+` the king can be captured next move, `-` the king has a way to the edge, `++`
//!   the king was captured, `--` the king escaped, `---` resignation.

use crate::text::excerpt;
use konakis_core::Bitboard;
use konakis_core::board::{Board, PositionError};
use konakis_core::geometry::SIDE;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Piece, Side, Square};
use std::fmt;

/// Text that is not valid OpenTafl notation: a position record or a move. Quoted input is
/// kept shortened to 60 characters, as the message shows it; ranks are numbered 1–9,
/// characters from 1 within the rank's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// A position record that is not `/rank1/.../rank9/` in form.
    NotARecord(String),
    /// A position record without 9 ranks; the number it has.
    RankCount(usize),
    /// A run of empty squares of 0 or more than 9.
    EmptyRun {
        /// The rank, 1–9.
        rank: usize,
        /// The number written.
        run: u32,
    },
    /// A taflman Tablut does not have (a commander, knight, mercenary, guard...).
    ForeignPiece {
        /// The rank, 1–9.
        rank: usize,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The letter.
        found: char,
    },
    /// A character that is not `t`, `T`, `K` or a digit.
    BadCharacter {
        /// The rank, 1–9.
        rank: usize,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A rank that does not describe 9 squares.
    RankSquares {
        /// The rank, 1–9.
        rank: usize,
        /// The squares it describes.
        squares: u32,
    },
    /// A record whose pieces are no Tablut position (no king, two kings, a soldier on the
    /// throne).
    Position(PositionError),
    /// A move without a square where one belongs.
    NotASquare {
        /// The move as given.
        text: String,
        /// The text where a square was expected.
        at: String,
    },
    /// A move with a rank beyond 9.
    RankOutOfRange {
        /// The move as given.
        text: String,
        /// The rank as written.
        rank: String,
    },
    /// A move that is not `from-to`.
    NotFromTo(String),
    /// A move whose squares share neither a rank nor a file (or are the same).
    NotStraight(String),
    /// Text after a move that is no mark.
    Trailing {
        /// The move as given.
        text: String,
        /// What follows it.
        rest: String,
    },
    /// An error on a line of an `.otg` file, from 1.
    Line {
        /// The line.
        line: usize,
        /// What is wrong there.
        error: Box<NotationError>,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::NotARecord(text) => write!(
                f,
                "'{text}' is not a position record (expected /rank1/.../rank9/, e.g. \
                 /3ttt3/4t4/.../)"
            ),
            NotationError::RankCount(n) => write!(
                f,
                "the position record has {n} rank(s), expected 9 (Konakis plays 9x9 Tablut only)"
            ),
            NotationError::EmptyRun { rank, run } => {
                write!(f, "rank {rank}: {run} empty squares do not fit on a rank")
            }
            NotationError::ForeignPiece {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{found}' is a piece Tablut does not have \
                 (Konakis knows t, T and K)"
            ),
            NotationError::BadCharacter {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{}' is not t, T, K or a digit",
                found.escape_default()
            ),
            NotationError::RankSquares { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected 9")
            }
            NotationError::Position(e) => e.fmt(f),
            NotationError::NotASquare { text, at } => write!(
                f,
                "'{text}' is not a move: expected a square (a1 ... i9) at '{at}'"
            ),
            NotationError::RankOutOfRange { text, rank } => write!(
                f,
                "'{text}' is not a move on a 9x9 board: rank '{rank}' is out of range"
            ),
            NotationError::NotFromTo(text) => {
                write!(f, "'{text}' is not a move (expected from-to, e.g. e3-e1)")
            }
            NotationError::NotStraight(text) => write!(
                f,
                "'{text}' is not a move: pieces move along one rank or file"
            ),
            NotationError::Trailing { text, rest } => {
                write!(f, "'{text}' is not a move: unexpected '{rest}' after it")
            }
            NotationError::Line { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// The OpenTafl letter of a piece.
fn letter(piece: Piece) -> char {
    match piece {
        Piece::Attacker => 't',
        Piece::Defender => 'T',
        Piece::King => 'K',
    }
}

/// The board's placement as a position record, rank 1 first.
///
/// ```
/// use konakis_core::{Board, Rules};
/// use konakis_protocols::opentafl::notation::position_record;
/// let start = Board::start(&Rules::default());
/// assert_eq!(position_record(&start), "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
/// ```
pub fn position_record(board: &Board) -> String {
    let mut s = String::with_capacity(64);
    s.push('/');
    for rank in 0..SIDE as u8 {
        let mut empty = 0u8;
        for file in 0..SIDE as u8 {
            let sq = Square::from_coords(file, rank).expect("coordinates on the board");
            match board.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(letter(p));
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        s.push('/');
    }
    s
}

/// The same record with its ranks in the other order (OpenTafl's `starti:` form).
pub fn invert_record(record: &str) -> String {
    let mut s = String::with_capacity(record.len() + 2);
    s.push('/');
    for rank in record.split('/').filter(|r| !r.is_empty()).rev() {
        s.push_str(rank);
        s.push('/');
    }
    s
}

/// Parses a position record (rank 1 first) into a board with `side` to move and no plies
/// played. Errors name the rank and character at fault; a valid board has exactly one king,
/// only `t`, `T`, `K` and digits, and no soldier on the throne.
pub fn parse_position_record(record: &str, side: Side) -> Result<Board, NotationError> {
    let text = record.trim();
    if !text.starts_with('/') || !text.ends_with('/') || text.len() < 2 {
        return Err(NotationError::NotARecord(excerpt(text)));
    }
    let ranks: Vec<&str> = text[1..text.len() - 1].split('/').collect();
    if ranks.len() != SIDE {
        return Err(NotationError::RankCount(ranks.len()));
    }
    // Rebuilt as Konakis' own position string (rank 9 first), which checks the pieces.
    let mut fen = String::with_capacity(80);
    for (i, rank_text) in ranks.iter().enumerate().rev() {
        let rank = i + 1;
        let mut squares = 0u32;
        let mut digits = String::new();
        let flush = |digits: &mut String, squares: &mut u32, fen: &mut String| {
            if digits.is_empty() {
                return Ok(());
            }
            let n: u32 = digits.parse().unwrap_or(u32::MAX);
            digits.clear();
            if n == 0 || n as usize > SIDE {
                return Err(NotationError::EmptyRun { rank, run: n });
            }
            *squares += n;
            fen.push_str(&n.to_string());
            Ok(())
        };
        for (col, c) in rank_text.chars().enumerate() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush(&mut digits, &mut squares, &mut fen)?;
            let piece = match c {
                't' => 'b',
                'T' => 'w',
                'K' => 'K',
                'c' | 'n' | 'k' | 'm' | 'g' | 'C' | 'N' | 'M' | 'G' => {
                    return Err(NotationError::ForeignPiece {
                        rank,
                        column: col + 1,
                        found: c,
                    });
                }
                _ => {
                    return Err(NotationError::BadCharacter {
                        rank,
                        column: col + 1,
                        found: c,
                    });
                }
            };
            squares += 1;
            fen.push(piece);
        }
        flush(&mut digits, &mut squares, &mut fen)?;
        if squares as usize != SIDE {
            return Err(NotationError::RankSquares { rank, squares });
        }
        if i > 0 {
            fen.push('/');
        }
    }
    fen.push(' ');
    fen.push(side.letter());
    Board::from_fen(&fen).map_err(NotationError::Position)
}

/// The optional mark at the end of a move in OpenTafl's full notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    /// `+`: the king can be captured on the next move.
    KingThreatened,
    /// `-`: the king has a way to the edge.
    KingCanEscape,
    /// `++`: the king was captured (game over).
    KingCaptured,
    /// `--`: the king escaped (game over).
    KingEscaped,
    /// `---`: the mover resigned.
    Resigned,
}

impl Mark {
    /// The mark as written.
    pub fn text(self) -> &'static str {
        match self {
            Mark::KingThreatened => "+",
            Mark::KingCanEscape => "-",
            Mark::KingCaptured => "++",
            Mark::KingEscaped => "--",
            Mark::Resigned => "---",
        }
    }
}

/// OpenTafl's twelve taflman letters, attackers' then defenders': `t` taflman, `c` commander,
/// `n` knight, `k` king, `m` mercenary, `g` guard. Tablut has `t`, `T` and `K` only.
pub const TAFLMAN_LETTERS: &str = "tcnkmgTCNKMG";

/// One captured piece as a move lists it: `xf8`, or typed, `xKf4`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capture {
    /// The letter written before the square (one of [`TAFLMAN_LETTERS`]), if any.
    pub piece: Option<char>,
    /// The square.
    pub square: Square,
}

impl fmt::Display for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.piece {
            write!(f, "{c}")?;
        }
        write!(f, "{}", self.square)
    }
}

/// A move as written in OpenTafl's notation, simple or full.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OtMove {
    /// The move.
    pub mv: Move,
    /// Written with a `K` prefix (a king's move).
    pub king: bool,
    /// The captures it lists, in the order written.
    pub captures: Vec<Capture>,
    /// The trailing mark, if any.
    pub mark: Option<Mark>,
}

/// Reads a square at the start of `text`: a file letter a–i and a rank digit 1–9.
fn square_prefix(text: &str, whole: &str) -> Result<(Square, usize), NotationError> {
    let bad = || {
        Err(NotationError::NotASquare {
            text: excerpt(whole),
            at: excerpt(text),
        })
    };
    let b = text.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_digit() {
        return bad();
    }
    if b.len() > 2 && b[2].is_ascii_digit() {
        return Err(NotationError::RankOutOfRange {
            text: excerpt(whole),
            rank: excerpt(&text[1..3]),
        });
    }
    match text[..2].parse::<Square>() {
        Ok(sq) => Ok((sq, 2)),
        Err(_) => bad(),
    }
}

/// Parses a move in OpenTafl's simple (`e3-e1`) or full notation (`Ke5-e7`, `e3-e1xe2/d1`,
/// captured pieces optionally typed as OpenTafl saves a captured king, `d5-f5xKf4`, with a
/// trailing `+`, `-`, `++`, `--` or `---`). Checks the notation and that the move goes
/// along a rank or file, not that it is legal.
///
/// ```
/// use konakis_protocols::opentafl::notation::{parse_move, Mark};
/// let m = parse_move("h7-f7xf8+").unwrap();
/// assert_eq!(m.mv.to_string(), "h7f7");
/// assert_eq!(m.captures.len(), 1);
/// assert_eq!(m.mark, Some(Mark::KingThreatened));
/// ```
pub fn parse_move(text: &str) -> Result<OtMove, NotationError> {
    let whole = text.trim();
    let mut rest = whole;
    let mut king = false;
    if let Some(r) = rest.strip_prefix('K') {
        king = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('T').or_else(|| rest.strip_prefix('t')) {
        // OpenTafl writes no letter for soldiers, but a letter naming one does no harm.
        rest = r;
    }
    let (from, n) = square_prefix(rest, whole)?;
    rest = &rest[n..];
    let Some(r) = rest.strip_prefix('-') else {
        return Err(NotationError::NotFromTo(excerpt(whole)));
    };
    let (to, n) = square_prefix(r, whole)?;
    rest = &r[n..];
    if from == to || (from.file() != to.file() && from.rank() != to.rank()) {
        return Err(NotationError::NotStraight(excerpt(whole)));
    }
    let mut captures = Vec::new();
    if let Some(mut r) = rest.strip_prefix('x') {
        loop {
            // A taflman letter before the square; a lower-case one only when a file letter
            // follows, since `c` and `g` are files too (`xcc5` is a commander on c5).
            let b = r.as_bytes();
            let piece = match b.first() {
                Some(&c)
                    if TAFLMAN_LETTERS.contains(c as char)
                        && (c.is_ascii_uppercase()
                            || b.get(1).is_some_and(|d| d.is_ascii_lowercase())) =>
                {
                    r = &r[1..];
                    Some(c as char)
                }
                _ => None,
            };
            let (square, n) = square_prefix(r, whole)?;
            captures.push(Capture { piece, square });
            r = &r[n..];
            match r.strip_prefix('/') {
                Some(more) => r = more,
                None => break,
            }
        }
        rest = r;
    }
    let mark = match rest {
        "" => None,
        "+" => Some(Mark::KingThreatened),
        "-" => Some(Mark::KingCanEscape),
        "++" => Some(Mark::KingCaptured),
        "--" => Some(Mark::KingEscaped),
        "---" => Some(Mark::Resigned),
        other => {
            return Err(NotationError::Trailing {
                text: excerpt(whole),
                rest: excerpt(other),
            });
        }
    };
    Ok(OtMove {
        mv: Move::new(from, to),
        king,
        captures,
        mark,
    })
}

/// A move in OpenTafl's simple notation: `e3-e1`.
pub fn simple_move(mv: Move) -> String {
    format!("{}-{}", mv.from(), mv.to())
}

/// What playing a move did, for its full notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Played {
    /// The moving piece was the king.
    pub king: bool,
    /// Soldiers captured.
    pub captured: Bitboard,
    /// The king's square when this move captured him.
    pub king_captured: Option<Square>,
}

/// Plays the legal move `mv` on `board` and says what it did.
pub fn play(board: &mut Board, rules: &Rules, mv: Move) -> Played {
    let king_before = board.king();
    let king = king_before == Some(mv.from());
    let captured = board.play(rules, mv);
    let king_captured = if board.king().is_none() {
        king_before
    } else {
        None
    };
    Played {
        king,
        captured,
        king_captured,
    }
}

impl Played {
    /// What the move captured, as OpenTafl lists it: the soldiers by square, then a captured
    /// king with his letter (`xKf4`).
    pub fn captures(&self) -> Vec<Capture> {
        let soldiers = self.captured.into_iter().map(|square| Capture {
            piece: None,
            square,
        });
        let king = self.king_captured.map(|square| Capture {
            piece: Some('K'),
            square,
        });
        soldiers.chain(king).collect()
    }
}

/// A move in OpenTafl's full notation, given what it did: `Ke5-f5`, `h7-f7xf8`, `e3-e1xe2/d1`,
/// and a captured king typed as OpenTafl writes him: `d5-f5xKf4`.
pub fn full_move(mv: Move, played: &Played) -> String {
    let mut s = String::with_capacity(16);
    if played.king {
        s.push('K');
    }
    s.push_str(&simple_move(mv));
    for (i, c) in played.captures().iter().enumerate() {
        s.push(if i == 0 { 'x' } else { '/' });
        s.push_str(&c.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::START_FEN;

    const START_RECORD: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    #[test]
    fn start_record_round_trips_rank_one_first() {
        let b = parse_position_record(START_RECORD, Side::Attackers).unwrap();
        assert_eq!(b, Board::from_fen(START_FEN).unwrap());
        assert_eq!(position_record(&b), START_RECORD);
        // Rank 1 first: after d1-d2 the first rank loses its d-file attacker.
        let record = "/4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let b = parse_position_record(record, Side::Defenders).unwrap();
        assert_eq!(b.piece_at("d2".parse().unwrap()), Some(Piece::Attacker));
        assert_eq!(b.piece_at("d1".parse().unwrap()), None);
        assert_eq!(b.side_to_move(), Side::Defenders);
        assert_eq!(position_record(&b), record);
    }

    #[test]
    fn inverted_records_reverse_the_ranks() {
        let r = "/9/1T2t2t1/3t5/1T3t3/2t2K1tt/t1t5t/2T2T3/1T3t3/3tt4/";
        let i = invert_record(r);
        assert_eq!(i, "/3tt4/1T3t3/2T2T3/t1t5t/2t2K1tt/1T3t3/3t5/1T2t2t1/9/");
        assert_eq!(invert_record(&i), r);
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let cases = [
            ("", "not a position record"),
            (
                "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3",
                "not a position",
            ),
            ("/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/", "8 rank"),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3tnt3/",
                "does not have",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3txt3/",
                "'x' is not",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt4/",
                "rank 9 has 10",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt/",
                "rank 9 has 6",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/12/",
                "do not fit",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTT1TTtt/t3T3t/4T4/4t4/3ttt3/",
                "no king",
            ),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTtTTtt/t3T3t/4T4/4t4/3tKt3/",
                "throne",
            ),
        ];
        for (text, want) in cases {
            let e = parse_position_record(text, Side::Attackers).unwrap_err();
            assert!(
                e.to_string().contains(want),
                "{text:?}: got '{e}', wanted '{want}'"
            );
        }
    }

    #[test]
    fn moves_parse_in_simple_and_full_form() {
        let m = parse_move("e3-e1").unwrap();
        assert_eq!(
            (m.mv.to_string(), m.king, m.mark),
            ("e3e1".into(), false, None)
        );
        let m = parse_move("Ke5-e7").unwrap();
        assert!(m.king);
        assert_eq!(m.mv.to_string(), "e5e7");
        let m = parse_move("e3-e1xe2/d1").unwrap();
        let caps: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        assert_eq!(caps, ["e2", "d1"]);
        // Typed captures, as OpenTafl saves a captured king; `c` and `g` are files as well
        // as letters.
        let m = parse_move("d5-f5xKf4").unwrap();
        assert_eq!(
            m.captures,
            [Capture {
                piece: Some('K'),
                square: "f4".parse().unwrap()
            }]
        );
        let m = parse_move("i6-g6xKf6/g7/cc5/Tg5/Mh6").unwrap();
        let caps: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        assert_eq!(caps, ["Kf6", "g7", "cc5", "Tg5", "Mh6"]);
        assert_eq!(m.captures[2].piece, Some('c'));
        assert_eq!(m.captures[1].piece, None);
        for (text, mark) in [
            ("a4-a3+", Mark::KingThreatened),
            ("a4-a3-", Mark::KingCanEscape),
            ("a4-a3xa2++", Mark::KingCaptured),
            ("Kf5-i5--", Mark::KingEscaped),
            ("a4-a3---", Mark::Resigned),
        ] {
            let m = parse_move(text).unwrap();
            assert_eq!(m.mark, Some(mark), "{text}");
            assert!(text.ends_with(mark.text()));
        }
    }

    #[test]
    fn bad_moves_are_refused() {
        for text in [
            "",
            "e3",
            "e3e1",
            "e3-f4",
            "e3-e3",
            "j1-j2",
            "e3-e10",
            "e3-e1x",
            "e3-e1xe2/",
            "e3-e1++++",
            "e3-e1 junk",
            "Xe3-e1",
            "e3-e1xXe2",
            "e3-e1xK",
            "e3-e1xKK2",
        ] {
            assert!(parse_move(text).is_err(), "{text:?} was accepted");
        }
    }

    #[test]
    fn full_moves_name_the_king_and_the_captures() {
        let rules = Rules::opentafl();
        let cases = [
            (START_FEN, "d1d2", "d1-d2"),
            ("9/9/9/9/4K4/9/2b6/9/9 w", "e5c5", "Ke5-c5"),
            ("9/9/9/9/4K4/2w6/9/wb1bw4/9 w", "c4c2", "c4-c2xb2/d2"),
            ("9/4b4/4K4/b8/9/9/9/9/9 b", "a6e6", "a6-e6xKe7"),
            ("3b5/9/1bK6/9/9/9/9/9/9 b", "d9d7", "d9-d7xKc7"),
        ];
        for (fen, text, want) in cases {
            let mut b = Board::from_fen(fen).unwrap();
            let mv = b.parse_move(&rules, text).unwrap();
            let p = play(&mut b, &rules, mv);
            assert_eq!(full_move(mv, &p), want, "{fen} {text}");
            let back = parse_move(want).unwrap();
            assert_eq!(back.mv, mv);
            assert_eq!(back.king, p.king);
        }
    }
}
