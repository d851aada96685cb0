//! TaflZero's FEN (sovelin/taflzero, the Copenhagen engine): positions of 11×11 boards.
//!
//! A FEN is the placement, a space, and the side to move. The placement lists the eleven
//! ranks from the top (rank 11) down to rank 1, separated by `/`; within a rank, the files
//! from `a`; `a` is an attacker, `d` a defender, `k` the king, and a number from 1 to 11 that
//! many empty squares (the digits in a row are one number: `11` is an empty rank). The side
//! is `a` (attackers to move) or `d` (defenders to move). TaflZero's start:
//!
//! `3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a`
//!
//! TaflZero's moves are written as Konakis writes its own (`d1d3`), so only positions need a
//! translation. [`fen`] writes the form TaflZero writes; [`parse_fen`] reads it, more
//! strictly than TaflZero does: a rank must describe eleven squares exactly, a number of empty
//! squares is 1 to 11 without a leading zero, nothing may follow the side, and the board must
//! be a position Konakis plays (one king, no soldier on the throne).

use crate::text::excerpt;
use konakis_core::board::{BoardOf, PositionErrorOf};
use konakis_core::geometry::{Eleven, Geometry};
use konakis_core::types::{Piece, Side, SquareOf};
use std::fmt;

/// The board TaflZero plays on.
pub type TaflZeroBoard = BoardOf<Eleven>;

/// Why [`parse_fen`] refused a text. Quoted input is kept shortened to 60 characters; ranks
/// are numbered 1–11 as on the board, characters from 1 within the rank's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// No side to move after the placement.
    MissingSide,
    /// The side to move is neither `a` nor `d`.
    UnknownSide(String),
    /// Something follows the side to move.
    Trailing(String),
    /// The placement does not have eleven ranks; the number it has.
    RankCount(usize),
    /// A character that is not `a`, `d`, `k` or a digit.
    BadCharacter {
        /// The rank, 1–11.
        rank: u8,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A number of empty squares of 0, with a leading zero, or over 11.
    EmptyRun {
        /// The rank, 1–11.
        rank: u8,
        /// Which character of the rank's text the number starts at, from 1.
        column: usize,
        /// The number as written.
        run: String,
    },
    /// A rank that describes more than eleven squares.
    RankTooLong {
        /// The rank, 1–11.
        rank: u8,
    },
    /// A rank that describes fewer than eleven squares.
    RankTooShort {
        /// The rank, 1–11.
        rank: u8,
        /// The squares it describes.
        squares: u8,
    },
    /// The pieces are no position Konakis plays: no king, two kings, a soldier on the throne.
    Position(PositionErrorOf<Eleven>),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => {
                f.write_str("empty FEN (expected '<11 ranks> <a|d>', e.g. TaflZero's start)")
            }
            FenError::MissingSide => f.write_str(
                "missing side to move after the placement (expected a for attackers or d for \
                 defenders)",
            ),
            FenError::UnknownSide(text) => write!(
                f,
                "unknown side to move '{text}' (expected a for attackers or d for defenders)"
            ),
            FenError::Trailing(text) => write!(f, "unexpected '{text}' after the side to move"),
            FenError::RankCount(n) => write!(
                f,
                "the placement has {n} rank(s) separated by '/', expected 11"
            ),
            FenError::BadCharacter {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{}' is not a, d, k or a number 1-11",
                found.escape_default()
            ),
            FenError::EmptyRun { rank, column, run } => write!(
                f,
                "rank {rank}, character {column}: '{run}' is not a number of empty squares \
                 (1-11, no leading zero)"
            ),
            FenError::RankTooLong { rank } => write!(f, "rank {rank} has more than 11 squares"),
            FenError::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected 11")
            }
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

/// TaflZero's letter of a piece.
fn letter(piece: Piece) -> char {
    match piece {
        Piece::Attacker => 'a',
        Piece::Defender => 'd',
        Piece::King => 'k',
    }
}

/// The board as TaflZero's FEN. The ply count of the board is not part of it.
///
/// ```
/// use konakis_core::board::{BoardOf, COPENHAGEN_FEN};
/// use konakis_core::geometry::Eleven;
/// use konakis_protocols::taflzero::fen;
/// let start = BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap();
/// assert_eq!(
///     fen(&start),
///     "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a"
/// );
/// ```
pub fn fen(board: &TaflZeroBoard) -> String {
    let side = Eleven::SIDE as u8;
    let mut s = String::with_capacity(Eleven::SQUARES);
    for rank in (0..side).rev() {
        let mut empty = 0u8;
        for file in 0..side {
            let sq = SquareOf::from_coords(file, rank).expect("coordinates on the board");
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
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(match board.side_to_move() {
        Side::Attackers => 'a',
        Side::Defenders => 'd',
    });
    s
}

/// Reads TaflZero's FEN into an 11×11 board with no plies played. Errors name what is wrong
/// and where: the rank and character of a bad letter or number, a rank of the wrong length,
/// a missing or unknown side, or a position without one king.
///
/// ```
/// use konakis_core::Side;
/// use konakis_protocols::taflzero::{FenError, parse_fen};
/// let board = parse_fen("11/4a6/11/11/7d3/5k5/11/1d9/8a2/11/10a d").unwrap();
/// assert_eq!(board.side_to_move(), Side::Defenders);
/// assert_eq!(board.king().unwrap().to_string(), "f6");
/// assert_eq!(
///     parse_fen("11/4a6/11/11/7d3/5k5/11/1d9/8b2/11/10a d"),
///     Err(FenError::BadCharacter { rank: 3, column: 2, found: 'b' })
/// );
/// ```
pub fn parse_fen(text: &str) -> Result<TaflZeroBoard, FenError> {
    let mut fields = text.split_whitespace();
    let Some(placement) = fields.next() else {
        return Err(FenError::Empty);
    };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != Eleven::SIDE {
        return Err(FenError::RankCount(ranks.len()));
    }
    let side = match fields.next() {
        None => return Err(FenError::MissingSide),
        Some("a") => 'b',
        Some("d") => 'w',
        Some(other) => return Err(FenError::UnknownSide(excerpt(other))),
    };
    if let Some(extra) = fields.next() {
        return Err(FenError::Trailing(excerpt(extra)));
    }
    // Rebuilt as Konakis' own position string (the same layout with `b`, `w`, `K`), whose
    // reader checks the pieces; the form is checked here, so that errors speak of TaflZero's
    // letters.
    let mut konakis = String::with_capacity(text.len() + 2);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = (Eleven::SIDE - i) as u8;
        let mut squares = 0usize;
        let mut chars = rank_text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let column = rank_text[..at].chars().count() + 1;
            if c.is_ascii_digit() {
                let mut run = String::from(c);
                while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                    run.push(d);
                    chars.next();
                }
                let n = match run.parse::<usize>() {
                    Ok(n) if (1..=Eleven::SIDE).contains(&n) && !run.starts_with('0') => n,
                    _ => {
                        return Err(FenError::EmptyRun {
                            rank,
                            column,
                            run: excerpt(&run),
                        });
                    }
                };
                squares += n;
                konakis.push_str(&run);
            } else {
                konakis.push(match c {
                    'a' => 'b',
                    'd' => 'w',
                    'k' => 'K',
                    _ => {
                        return Err(FenError::BadCharacter {
                            rank,
                            column,
                            found: c,
                        });
                    }
                });
                squares += 1;
            }
            if squares > Eleven::SIDE {
                return Err(FenError::RankTooLong { rank });
            }
        }
        if squares < Eleven::SIDE {
            return Err(FenError::RankTooShort {
                rank,
                squares: squares as u8,
            });
        }
        konakis.push(if i + 1 < Eleven::SIDE { '/' } else { ' ' });
    }
    konakis.push(side);
    BoardOf::from_fen(&konakis).map_err(FenError::Position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::COPENHAGEN_FEN;
    use konakis_engine::skill::SplitMix64;

    const INITIAL_FEN: &str =
        "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a";

    #[test]
    fn taflzeros_start_is_copenhagens_start_and_round_trips() {
        let board = parse_fen(INITIAL_FEN).unwrap();
        assert_eq!(board, BoardOf::from_fen(COPENHAGEN_FEN).unwrap());
        assert_eq!(fen(&board), INITIAL_FEN);
    }

    /// Every FEN of the fixture read as TaflZero reads it (the board it printed) and written
    /// back to the same text.
    #[test]
    fn fens_are_read_as_taflzero_reads_them_and_written_as_it_writes_them() {
        let recorded = include_str!("../../../tests/data/taflzero/fen-readback.txt");
        let mut lines = recorded.lines().filter(|l| !l.starts_with('#'));
        let mut count = 0;
        while let Some(line) = lines.next() {
            let text = line.strip_prefix("fen ").expect("a fen line");
            let board = parse_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            for rank in (1..=11u8).rev() {
                let row = lines.next().expect("a row of TaflZero's board");
                let cells: Vec<&str> = row.split_whitespace().collect();
                assert_eq!(cells[0], rank.to_string(), "{text}");
                for (file, cell) in cells[1..].iter().enumerate() {
                    let sq = SquareOf::from_coords(file as u8, rank - 1).unwrap();
                    let konakis = match board.piece_at(sq) {
                        None => ".",
                        Some(Piece::Attacker) => "A",
                        Some(Piece::Defender) => "D",
                        Some(Piece::King) => "K",
                    };
                    assert_eq!(konakis, *cell, "{text}: {sq}");
                }
            }
            assert_eq!(fen(&board), text);
            count += 1;
        }
        assert!(count >= 40, "only {count} FENs in the fixture");
    }

    #[test]
    fn random_positions_round_trip() {
        let mut rng = SplitMix64::new(45);
        for _ in 0..500 {
            let board = crate::testing::random_board::<Eleven>(&mut rng);
            let text = fen(&board);
            assert_eq!(parse_fen(&text), Ok(board), "{text}");
            // The same layout as Konakis' own string, in TaflZero's letters.
            let konakis = board.to_fen();
            let (placement, _) = konakis.split_once(' ').unwrap();
            let translated: String = placement
                .chars()
                .map(|c| match c {
                    'b' => 'a',
                    'w' => 'd',
                    'K' => 'k',
                    c => c,
                })
                .collect();
            assert!(text.starts_with(&translated), "{text} / {konakis}");
        }
    }

    #[test]
    fn bad_fens_name_what_is_wrong() {
        let start = INITIAL_FEN.strip_suffix(" a").unwrap();
        let err = |text: &str| parse_fen(text).unwrap_err();
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err(start), FenError::MissingSide);
        assert_eq!(
            err(&format!("{start} b")),
            FenError::UnknownSide("b".into())
        );
        assert_eq!(err(&format!("{start} a 0")), FenError::Trailing("0".into()));
        assert_eq!(
            err("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 a"),
            FenError::RankCount(9)
        );
        assert_eq!(
            err(&format!("{} a", start.replacen("5a5", "5A5", 1))),
            FenError::BadCharacter {
                rank: 10,
                column: 2,
                found: 'A'
            }
        );
        assert_eq!(
            err(&format!("{} a", start.replacen("11", "011", 1))),
            FenError::EmptyRun {
                rank: 9,
                column: 1,
                run: "011".into()
            }
        );
        assert_eq!(
            err(&format!("{} a", start.replacen("11", "12", 1))),
            FenError::EmptyRun {
                rank: 9,
                column: 1,
                run: "12".into()
            }
        );
        assert_eq!(
            err(&format!("{} a", start.replacen("5a5", "5a6", 1))),
            FenError::RankTooLong { rank: 10 }
        );
        assert_eq!(
            err(&format!("{} a", start.replacen("5a5", "5a4", 1))),
            FenError::RankTooShort {
                rank: 10,
                squares: 10
            }
        );
        assert_eq!(
            err(&format!("{} a", start.replacen('k', "1", 1))),
            FenError::Position(PositionErrorOf::NoKing)
        );
        assert_eq!(
            err(&format!("{} a", start.replacen('k', "a", 1))),
            FenError::Position(PositionErrorOf::SoldierOnThrone(Piece::Attacker))
        );
        // Every message is one line that names the fault.
        for (text, want) in [
            (format!("{start} x"), "unknown side"),
            (start.replacen("5a5", "5a4", 1) + " a", "rank 10 has 10"),
            (format!("{} a", start.replacen('k', "1", 1)), "no king"),
        ] {
            let e = parse_fen(&text).unwrap_err().to_string();
            assert!(e.contains(want) && !e.contains('\n'), "{text}: {e}");
        }
    }

    #[test]
    fn garbage_is_refused_with_one_ascii_line_and_never_panics() {
        let mut rng = SplitMix64::new(451);
        let alphabet: Vec<char> = "adk0123456789/ ab\u{e9}\n".chars().collect();
        for _ in 0..20_000 {
            let text = crate::testing::random_text(&mut rng, &alphabet, 60);
            match parse_fen(&text) {
                Ok(board) => assert_eq!(parse_fen(&fen(&board)), Ok(board), "{text:?}"),
                Err(e) => {
                    let message = e.to_string();
                    assert!(message.is_ascii() && !message.contains('\n'), "{message}");
                }
            }
        }
    }
}
