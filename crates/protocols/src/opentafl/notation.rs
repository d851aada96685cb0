//! OpenTafl's notation for every board Konakis has (7×7, 9×9, 11×11): position records and
//! moves. Each function is generic over the board's size ([`Geometry`]), so that one reader
//! and one writer serve every size; the plain names ([`NotationError`], [`OtMove`],
//! [`Capture`], [`Played`]) are Tablut's 9×9.
//!
//! - A **position record** lists the ranks from rank 1 up, each from file a, between slashes:
//!   `/3ttt3/4t4/…/3ttt3/`. `t` is an attacker, `T` a defender, `K` the king, a number that
//!   many empty squares (on 11×11, `11` is a whole empty rank). It does not say who is to
//!   move. (Konakis' own position strings list the top rank first; [`position_record`] and
//!   [`parse_position_record`] translate.)
//! - A **square** is a file letter from `a` and a rank number from 1: `a1` … `g7` on 7×7,
//!   `a1` … `k11` on 11×11.
//! - A **move** is `from-to` (`e3-e1`, `a10-c10`); OpenTafl's full form prefixes the king's
//!   moves with `K` (`Ke5-e7`), lists captures after an `x` separated by `/` (`e3-e1xe2/d1`)
//!   and may end with a mark: `+` the king can be captured next move, `-` the king has a way
//!   to the edge, `++` the king was captured, `--` the king escaped, `---` resignation.

use crate::text::excerpt;
use konakis_core::BitboardOf;
use konakis_core::board::{BoardOf, PositionErrorOf};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::Rules;
use konakis_core::types::{MoveOf, Piece, Side, SquareOf};
use std::fmt;

/// Text that is not valid OpenTafl notation for a board of size `G`: a position record or a
/// move. Quoted input is kept shortened to 60 characters, as the message shows it; ranks are
/// numbered from 1, characters from 1 within the rank's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationErrorOf<G: Geometry> {
    /// A position record that is not `/rank1/.../rankN/` in form.
    NotARecord(String),
    /// A position record without as many ranks as the board; the number it has.
    RankCount(usize),
    /// A run of empty squares of 0 or more than the board's side.
    EmptyRun {
        /// The rank, from 1.
        rank: usize,
        /// The number written.
        run: u32,
    },
    /// A taflman Konakis does not play (a commander, knight, mercenary, guard...).
    ForeignPiece {
        /// The rank, from 1.
        rank: usize,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The letter.
        found: char,
    },
    /// A character that is not `t`, `T`, `K` or a digit.
    BadCharacter {
        /// The rank, from 1.
        rank: usize,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A rank that does not describe as many squares as the board is wide.
    RankSquares {
        /// The rank, from 1.
        rank: usize,
        /// The squares it describes.
        squares: u32,
    },
    /// A record whose pieces are no position (no king, two kings, a soldier on the throne).
    Position(PositionErrorOf<G>),
    /// A move without a square where one belongs.
    NotASquare {
        /// The move as given.
        text: String,
        /// The text where a square was expected.
        at: String,
    },
    /// A move with a rank beyond the board's side (or of three digits).
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
        error: Box<NotationErrorOf<G>>,
    },
}

/// Text that is not valid OpenTafl notation for Tablut's 9×9 board.
pub type NotationError = NotationErrorOf<Nine>;

impl<G: Geometry> fmt::Display for NotationErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = G::SIDE;
        match self {
            NotationErrorOf::NotARecord(text) => write!(
                f,
                "'{text}' is not a position record (expected /rank1/.../rank{side}/, e.g. \
                 /3ttt3/4t4/.../)"
            ),
            NotationErrorOf::RankCount(n) => write!(
                f,
                "the position record has {n} rank(s), expected {side} (a {side}x{side} board)"
            ),
            NotationErrorOf::EmptyRun { rank, run } => {
                write!(f, "rank {rank}: {run} empty squares do not fit on a rank")
            }
            NotationErrorOf::ForeignPiece {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{found}' is a piece Konakis does not have \
                 (it knows t, T and K)"
            ),
            NotationErrorOf::BadCharacter {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{}' is not t, T, K or a digit",
                found.escape_default()
            ),
            NotationErrorOf::RankSquares { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected {side}")
            }
            NotationErrorOf::Position(e) => e.fmt(f),
            NotationErrorOf::NotASquare { text, at } => {
                let last = SquareOf::<G>::from_coords(G::LAST as u8, G::LAST as u8)
                    .expect("the far corner is on the board");
                write!(
                    f,
                    "'{text}' is not a move: expected a square (a1 ... {last}) at '{at}'"
                )
            }
            NotationErrorOf::RankOutOfRange { text, rank } => write!(
                f,
                "'{text}' is not a move on a {side}x{side} board: rank '{rank}' is out of range"
            ),
            NotationErrorOf::NotFromTo(text) => {
                write!(f, "'{text}' is not a move (expected from-to, e.g. e3-e1)")
            }
            NotationErrorOf::NotStraight(text) => write!(
                f,
                "'{text}' is not a move: pieces move along one rank or file"
            ),
            NotationErrorOf::Trailing { text, rest } => {
                write!(f, "'{text}' is not a move: unexpected '{rest}' after it")
            }
            NotationErrorOf::Line { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl<G: Geometry> std::error::Error for NotationErrorOf<G> {}

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
/// use konakis_core::board::{BoardOf, BRANDUBH_FEN};
/// use konakis_core::geometry::Seven;
/// use konakis_core::{Board, Rules};
/// use konakis_protocols::opentafl::notation::position_record;
/// let start = Board::start(&Rules::default());
/// assert_eq!(position_record(&start), "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
/// let brandub = BoardOf::<Seven>::from_fen(BRANDUBH_FEN).unwrap();
/// assert_eq!(position_record(&brandub), "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
/// ```
pub fn position_record<G: Geometry>(board: &BoardOf<G>) -> String {
    let mut s = String::with_capacity(G::SQUARES);
    s.push('/');
    for rank in 0..G::SIDE as u8 {
        let mut empty = 0usize;
        for file in 0..G::SIDE as u8 {
            let sq = SquareOf::<G>::from_coords(file, rank).expect("coordinates on the board");
            match board.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(letter(p));
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
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

/// Parses a position record (rank 1 first) into a board of size `G` with `side` to move and no
/// plies played. Errors name the rank and character at fault; a valid board has exactly one
/// king, only `t`, `T`, `K` and numbers of empty squares (from 1 to the side, several digits
/// read as one number as OpenTafl reads them), and no soldier on the throne.
///
/// ```
/// use konakis_core::board::{BoardOf, COPENHAGEN_FEN};
/// use konakis_core::geometry::Eleven;
/// use konakis_core::Side;
/// use konakis_protocols::opentafl::notation::parse_position_record;
/// let record = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
/// let board = parse_position_record::<Eleven>(record, Side::Attackers).unwrap();
/// assert_eq!(board, BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap());
/// ```
pub fn parse_position_record<G: Geometry>(
    record: &str,
    side: Side,
) -> Result<BoardOf<G>, NotationErrorOf<G>> {
    let text = record.trim();
    if !text.starts_with('/') || !text.ends_with('/') || text.len() < 2 {
        return Err(NotationErrorOf::NotARecord(excerpt(text)));
    }
    let ranks: Vec<&str> = text[1..text.len() - 1].split('/').collect();
    if ranks.len() != G::SIDE {
        return Err(NotationErrorOf::RankCount(ranks.len()));
    }
    // Rebuilt as Konakis' own position string (the top rank first), which checks the pieces.
    // A run of empty squares is written back as one number: on boards up to nine wide that
    // is one digit, on wider ones Konakis' strings read the digits in a row as one number.
    let mut fen = String::with_capacity(G::SQUARES + G::SIDE);
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
            if n == 0 || n as usize > G::SIDE {
                return Err(NotationErrorOf::EmptyRun { rank, run: n });
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
                    return Err(NotationErrorOf::ForeignPiece {
                        rank,
                        column: col + 1,
                        found: c,
                    });
                }
                _ => {
                    return Err(NotationErrorOf::BadCharacter {
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
        if squares as usize != G::SIDE {
            return Err(NotationErrorOf::RankSquares { rank, squares });
        }
        if i > 0 {
            fen.push('/');
        }
    }
    fen.push(' ');
    fen.push(side.letter());
    BoardOf::from_fen(&fen).map_err(NotationErrorOf::Position)
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
/// `n` knight, `k` king, `m` mercenary, `g` guard. Konakis plays `t`, `T` and `K` only.
pub const TAFLMAN_LETTERS: &str = "tcnkmgTCNKMG";

/// One captured piece as a move lists it: `xf8`, or typed, `xKf4`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CaptureOf<G: Geometry> {
    /// The letter written before the square (one of [`TAFLMAN_LETTERS`]), if any.
    pub piece: Option<char>,
    /// The square.
    pub square: SquareOf<G>,
}

/// One captured piece of a move on Tablut's board.
pub type Capture = CaptureOf<Nine>;

impl<G: Geometry> fmt::Display for CaptureOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.piece {
            write!(f, "{c}")?;
        }
        write!(f, "{}", self.square)
    }
}

/// A move as written in OpenTafl's notation, simple or full, on a board of size `G`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OtMoveOf<G: Geometry> {
    /// The move.
    pub mv: MoveOf<G>,
    /// Written with a `K` prefix (a king's move).
    pub king: bool,
    /// The captures it lists, in the order written.
    pub captures: Vec<CaptureOf<G>>,
    /// The trailing mark, if any.
    pub mark: Option<Mark>,
}

/// A move in OpenTafl's notation on Tablut's board.
pub type OtMove = OtMoveOf<Nine>;

/// Reads a square at the start of `text`: a lower-case file letter and a rank number of one
/// or two digits (as OpenTafl's move pattern has them), which must name a square of the board.
/// Returns the square and the bytes read.
fn square_prefix<G: Geometry>(
    text: &str,
    whole: &str,
) -> Result<(SquareOf<G>, usize), NotationErrorOf<G>> {
    let bad = || NotationErrorOf::NotASquare {
        text: excerpt(whole),
        at: excerpt(text),
    };
    let b = text.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_digit() {
        return Err(bad());
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    let rank = &text[1..1 + digits];
    let out_of_range = || NotationErrorOf::RankOutOfRange {
        text: excerpt(whole),
        rank: excerpt(rank),
    };
    if digits > 2 {
        return Err(out_of_range());
    }
    match rank.parse::<usize>() {
        Ok(n) if n > G::SIDE => return Err(out_of_range()),
        Ok(n) if n >= 1 => {}
        _ => return Err(bad()),
    }
    match text[..1 + digits].parse::<SquareOf<G>>() {
        Ok(sq) => Ok((sq, 1 + digits)),
        Err(_) => Err(bad()),
    }
}

/// Parses a move in OpenTafl's simple (`e3-e1`) or full notation (`Ke5-e7`, `e3-e1xe2/d1`,
/// captured pieces optionally typed as OpenTafl saves a captured king, `d5-f5xKf4`, with a
/// trailing `+`, `-`, `++`, `--` or `---`) on a board of size `G`. Checks the notation and
/// that the move goes along a rank or file, not that it is legal.
///
/// ```
/// use konakis_core::geometry::{Eleven, Nine};
/// use konakis_protocols::opentafl::notation::{parse_move, Mark};
/// let m = parse_move::<Nine>("h7-f7xf8+").unwrap();
/// assert_eq!(m.mv.to_string(), "h7f7");
/// assert_eq!(m.captures.len(), 1);
/// assert_eq!(m.mark, Some(Mark::KingThreatened));
/// let m = parse_move::<Eleven>("a10-c10xc11").unwrap();
/// assert_eq!(m.mv.to_string(), "a10c10");
/// ```
pub fn parse_move<G: Geometry>(text: &str) -> Result<OtMoveOf<G>, NotationErrorOf<G>> {
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
    let (from, n) = square_prefix::<G>(rest, whole)?;
    rest = &rest[n..];
    let Some(r) = rest.strip_prefix('-') else {
        return Err(NotationErrorOf::NotFromTo(excerpt(whole)));
    };
    let (to, n) = square_prefix::<G>(r, whole)?;
    rest = &r[n..];
    if from == to || (from.file() != to.file() && from.rank() != to.rank()) {
        return Err(NotationErrorOf::NotStraight(excerpt(whole)));
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
            let (square, n) = square_prefix::<G>(r, whole)?;
            captures.push(CaptureOf { piece, square });
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
            return Err(NotationErrorOf::Trailing {
                text: excerpt(whole),
                rest: excerpt(other),
            });
        }
    };
    Ok(OtMoveOf {
        mv: MoveOf::new(from, to),
        king,
        captures,
        mark,
    })
}

/// A move in OpenTafl's simple notation: `e3-e1`, `a10-c10`.
pub fn simple_move<G: Geometry>(mv: MoveOf<G>) -> String {
    format!("{}-{}", mv.from(), mv.to())
}

/// What playing a move on a board of size `G` did, for its full notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlayedOf<G: Geometry> {
    /// The moving piece was the king.
    pub king: bool,
    /// Soldiers captured.
    pub captured: BitboardOf<G>,
    /// The king's square when this move captured him.
    pub king_captured: Option<SquareOf<G>>,
}

/// What playing a move on Tablut's board did.
pub type Played = PlayedOf<Nine>;

/// Plays the legal move `mv` on `board` and says what it did.
pub fn play<G: Geometry>(board: &mut BoardOf<G>, rules: &Rules, mv: MoveOf<G>) -> PlayedOf<G> {
    let king_before = board.king();
    let king = king_before == Some(mv.from());
    let captured = board.play(rules, mv);
    let king_captured = if board.king().is_none() {
        king_before
    } else {
        None
    };
    PlayedOf {
        king,
        captured,
        king_captured,
    }
}

impl<G: Geometry> PlayedOf<G> {
    /// What the move captured, as OpenTafl lists it: the soldiers by square, then a captured
    /// king with his letter (`xKf4`).
    pub fn captures(&self) -> Vec<CaptureOf<G>> {
        let soldiers = self.captured.into_iter().map(|square| CaptureOf {
            piece: None,
            square,
        });
        let king = self.king_captured.map(|square| CaptureOf {
            piece: Some('K'),
            square,
        });
        soldiers.chain(king).collect()
    }
}

/// A move in OpenTafl's full notation, given what it did: `Ke5-f5`, `h7-f7xf8`, `e3-e1xe2/d1`,
/// and a captured king typed as OpenTafl writes him: `d5-f5xKf4`.
pub fn full_move<G: Geometry>(mv: MoveOf<G>, played: &PlayedOf<G>) -> String {
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
    use konakis_core::board::{BRANDUBH_FEN, COPENHAGEN_FEN, START_FEN};
    use konakis_core::geometry::{Eleven, Seven};
    use konakis_engine::skill::SplitMix64;

    const START_RECORD: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    #[test]
    fn start_record_round_trips_rank_one_first() {
        let b = parse_position_record::<Nine>(START_RECORD, Side::Attackers).unwrap();
        assert_eq!(b, BoardOf::<Nine>::from_fen(START_FEN).unwrap());
        assert_eq!(position_record(&b), START_RECORD);
        // Rank 1 first: after d1-d2 the first rank loses its d-file attacker.
        let record = "/4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let b = parse_position_record::<Nine>(record, Side::Defenders).unwrap();
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
            let e = parse_position_record::<Nine>(text, Side::Attackers).unwrap_err();
            assert!(
                e.to_string().contains(want),
                "{text:?}: got '{e}', wanted '{want}'"
            );
        }
    }

    #[test]
    fn moves_parse_in_simple_and_full_form() {
        let m = parse_move::<Nine>("e3-e1").unwrap();
        assert_eq!(
            (m.mv.to_string(), m.king, m.mark),
            ("e3e1".into(), false, None)
        );
        let m = parse_move::<Nine>("Ke5-e7").unwrap();
        assert!(m.king);
        assert_eq!(m.mv.to_string(), "e5e7");
        let m = parse_move::<Nine>("e3-e1xe2/d1").unwrap();
        let caps: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        assert_eq!(caps, ["e2", "d1"]);
        // Typed captures, as OpenTafl saves a captured king; `c` and `g` are files as well
        // as letters.
        let m = parse_move::<Nine>("d5-f5xKf4").unwrap();
        assert_eq!(
            m.captures,
            [Capture {
                piece: Some('K'),
                square: "f4".parse().unwrap()
            }]
        );
        let m = parse_move::<Nine>("i6-g6xKf6/g7/cc5/Tg5/Mh6").unwrap();
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
            let m = parse_move::<Nine>(text).unwrap();
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
            assert!(parse_move::<Nine>(text).is_err(), "{text:?} was accepted");
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
            let mut b = BoardOf::<Nine>::from_fen(fen).unwrap();
            let mv = b.parse_move(&rules, text).unwrap();
            let p = play(&mut b, &rules, mv);
            assert_eq!(full_move(mv, &p), want, "{fen} {text}");
            let back = parse_move::<Nine>(want).unwrap();
            assert_eq!(back.mv, mv);
            assert_eq!(back.king, p.king);
        }
    }

    /// OpenTafl's start records of Brandub and Copenhagen (docs/variants-sources.md, as
    /// OpenTafl writes them in its rules strings).
    const BRANDUB_RECORD: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    const COPENHAGEN_RECORD: &str =
        "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

    #[test]
    fn brandub_and_copenhagen_start_records_round_trip() {
        let brandub = parse_position_record::<Seven>(BRANDUB_RECORD, Side::Attackers).unwrap();
        assert_eq!(brandub, BoardOf::<Seven>::from_fen(BRANDUBH_FEN).unwrap());
        assert_eq!(position_record(&brandub), BRANDUB_RECORD);
        let copenhagen =
            parse_position_record::<Eleven>(COPENHAGEN_RECORD, Side::Attackers).unwrap();
        assert_eq!(
            copenhagen,
            BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap()
        );
        assert_eq!(position_record(&copenhagen), COPENHAGEN_RECORD);
        assert_eq!(copenhagen.attackers().len(), 24);
        assert_eq!(copenhagen.defenders().len(), 12);
    }

    #[test]
    fn records_of_other_sizes_are_read_rank_one_first_with_runs_of_two_digits() {
        // Rank 1 holds an attacker on a1 and ten empty squares; rank 11 a defender on k11.
        let record = "/t10/11/11/11/11/5K5/11/11/11/11/10T/";
        let b = parse_position_record::<Eleven>(record, Side::Defenders).unwrap();
        assert_eq!(b.piece_at("a1".parse().unwrap()), Some(Piece::Attacker));
        assert_eq!(b.piece_at("k11".parse().unwrap()), Some(Piece::Defender));
        assert_eq!(b.side_to_move(), Side::Defenders);
        assert_eq!(position_record(&b), record);
        // A 7x7 record on an 11x11 board, a run longer than the side, a 9x9 run of two digits.
        let e = parse_position_record::<Eleven>(BRANDUB_RECORD, Side::Attackers).unwrap_err();
        assert_eq!(e, NotationErrorOf::RankCount(7));
        assert!(e.to_string().contains("expected 11"), "{e}");
        assert_eq!(
            parse_position_record::<Eleven>("/12/11/11/11/11/5K5/11/11/11/11/11/", Side::Attackers),
            Err(NotationErrorOf::EmptyRun { rank: 1, run: 12 })
        );
        assert_eq!(
            parse_position_record::<Seven>("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/10/", Side::Attackers),
            Err(NotationErrorOf::EmptyRun { rank: 7, run: 10 })
        );
        assert_eq!(
            parse_position_record::<Seven>("/3t3/3t3/3T3/ttTtTtt/3T3/3K3/3t3/", Side::Attackers),
            Err(NotationErrorOf::Position(PositionErrorOf::SoldierOnThrone(
                Piece::Attacker
            )))
        );
    }

    #[test]
    fn moves_of_eleven_by_eleven_have_ranks_of_two_digits_and_seven_by_seven_stops_at_g7() {
        let m = parse_move::<Eleven>("Kf6-f10xf11/Tg10").unwrap();
        assert_eq!(m.mv.to_string(), "f6f10");
        assert!(m.king);
        let caps: Vec<String> = m.captures.iter().map(|c| c.to_string()).collect();
        assert_eq!(caps, ["f11", "Tg10"]);
        assert_eq!(simple_move(m.mv), "f6-f10");
        assert_eq!(
            parse_move::<Eleven>("k11-k1").unwrap().mv.to_string(),
            "k11k1"
        );
        assert!(matches!(
            parse_move::<Eleven>("a12-a1"),
            Err(NotationErrorOf::RankOutOfRange { .. })
        ));
        assert!(matches!(
            parse_move::<Eleven>("l1-l2"),
            Err(NotationErrorOf::NotASquare { .. })
        ));
        assert!(matches!(
            parse_move::<Seven>("d1-d8"),
            Err(NotationErrorOf::RankOutOfRange { .. })
        ));
        let e = parse_move::<Seven>("h1-h2").unwrap_err();
        assert!(e.to_string().contains("a1 ... g7"), "{e}");
        assert!(parse_move::<Seven>("a1-a100").is_err());
    }

    /// Random positions of size `G` read back from their records, and every legal move of
    /// each read back from its simple and its full notation.
    fn random_positions_and_moves_round_trip<G: Geometry>(seed: u64) {
        let rules = Rules::opentafl();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..200 {
            let board = crate::testing::random_board::<G>(&mut rng);
            let record = position_record(&board);
            assert_eq!(record.matches('/').count(), G::SIDE + 1, "{record}");
            let back = parse_position_record::<G>(&record, board.side_to_move()).unwrap();
            assert_eq!(back, board, "{record}");
            // The first rank of the record is rank 1: its first square is a1's.
            let first = record[1..].chars().next().unwrap();
            let a1 = board.piece_at(SquareOf::from_coords(0, 0).unwrap());
            assert_eq!(a1.map(letter), first.is_ascii_alphabetic().then_some(first));
            for &mv in board.legal_moves(&rules).iter() {
                assert_eq!(parse_move::<G>(&simple_move(mv)).unwrap().mv, mv);
                let mut after = board;
                let played = play(&mut after, &rules, mv);
                let text = full_move(mv, &played);
                let read = parse_move::<G>(&text).unwrap();
                assert_eq!(
                    (read.mv, read.king, read.captures),
                    (mv, played.king, played.captures()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn random_positions_and_moves_of_seven_by_seven_round_trip() {
        random_positions_and_moves_round_trip::<Seven>(7);
    }

    #[test]
    fn random_positions_and_moves_of_nine_by_nine_round_trip() {
        random_positions_and_moves_round_trip::<Nine>(9);
    }

    #[test]
    fn random_positions_and_moves_of_eleven_by_eleven_round_trip() {
        random_positions_and_moves_round_trip::<Eleven>(11);
    }

    /// Nearly right records and moves for the board `G`: refused with one ASCII line, or read
    /// to what their writers write back.
    fn garbage_never_panics<G: Geometry>(seed: u64) {
        let mut rng = SplitMix64::new(seed);
        let alphabet: Vec<char> = "tTKc/0123456789-xabdgk+\u{e9}".chars().collect();
        for _ in 0..10_000 {
            let text = crate::testing::random_text(&mut rng, &alphabet, 40);
            let record = format!("/{text}/");
            match parse_position_record::<G>(&record, Side::Attackers) {
                Ok(board) => assert_eq!(position_record(&board), record, "{record:?}"),
                Err(e) => assert!(e.to_string().is_ascii(), "{e}"),
            }
            match parse_move::<G>(&text) {
                Ok(m) => assert_eq!(parse_move::<G>(&simple_move(m.mv)).unwrap().mv, m.mv),
                Err(e) => assert!(e.to_string().is_ascii(), "{e}"),
            }
        }
    }

    #[test]
    fn garbage_records_and_moves_of_every_size_never_panic() {
        garbage_never_panics::<Seven>(71);
        garbage_never_panics::<Nine>(91);
        garbage_never_panics::<Eleven>(111);
    }
}
