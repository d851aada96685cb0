//! Position strings: `<placement> <side> [<plies>]`, for a board of any size.
//!
//! The placement lists the ranks from the top (rank 9 on Tablut's board) down to 1, separated
//! by `/`; within a rank, the files from `a`; `b` is an attacker, `w` a defender, `K` the king,
//! and a number that many empty squares. On boards up to nine wide each digit is a number of
//! its own (`45` is four empty squares, then five); on wider boards the digits in a row are one
//! number, from 1 to the side, without a leading zero (`11` is eleven empty squares). The side
//! is `b` (attackers to move) or `w` (defenders to move); plies default to 0.

use super::BoardOf;
use crate::geometry::{FILE_LETTERS, Geometry, Nine};
use crate::types::{Piece, Side, SquareOf};
use std::fmt;

/// The start position with the attackers to move.
pub const START_FEN: &str = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";

/// Brandubh's 7×7 set-up, the attackers to move: the king on d4, defenders on d3 d5 c4 e4,
/// attackers on d1 d2 d6 d7 a4 b4 f4 g4 (for a board of size `Seven`).
pub const BRANDUBH_FEN: &str = "3b3/3b3/3w3/bbwKwbb/3w3/3b3/3b3 b 0";

/// The 11×11 set-up of Copenhagen and Fetlar Hnefatafl, the attackers to move: 24 attackers
/// (a4–a8, b6, k4–k8, j6, d1–h1, f2, d11–h11, f10), the king on f6 and 12 defenders (d6 e5 e6
/// e7 f4 f5 f7 f8 g5 g6 g7 h6) (for a board of size `Eleven`).
pub const COPENHAGEN_FEN: &str =
    "3bbbbb3/5b5/11/b4w4b/b3www3b/bb1wwKww1bb/b3www3b/b4w4b/11/5b5/3bbbbb3 b 0";

/// Why [`BoardOf::from_fen`] refused a position string. Quoted input is kept shortened to 40
/// characters, as the message shows it; ranks are numbered from 1 as on the board, characters
/// from 1 within the rank's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionErrorOf<G: Geometry> {
    /// The string is empty.
    Empty,
    /// No side to move after the placement.
    MissingSide,
    /// The side to move is neither `b` nor `w`.
    UnknownSide(String),
    /// The ply count is not a number from 0 to `u32::MAX`.
    BadPlies(String),
    /// Something follows the ply count.
    Trailing(String),
    /// The placement does not have as many ranks as the board; the number it has.
    RankCount(usize),
    /// A rank describes more squares than the board has files.
    RankTooLong {
        /// The rank, from 1.
        rank: u8,
    },
    /// A rank describes fewer squares than the board has files.
    RankTooShort {
        /// The rank, from 1.
        rank: u8,
        /// The squares it describes.
        squares: u8,
    },
    /// A character that is not `b`, `w`, `K` or a digit (or, on a board wider than nine, a
    /// number of empty squares with a leading zero).
    BadCharacter {
        /// The rank, from 1.
        rank: u8,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A second king.
    TwoKings(SquareOf<G>, SquareOf<G>),
    /// A soldier (the piece given) on the throne.
    SoldierOnThrone(Piece),
    /// No king.
    NoKing,
}

/// Why a Tablut position string was refused.
pub type PositionError = PositionErrorOf<Nine>;

impl<G: Geometry> fmt::Display for PositionErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = G::SIDE;
        match self {
            PositionErrorOf::Empty => {
                f.write_str("empty position string (expected '<placement> <side> [<plies>]')")
            }
            PositionErrorOf::MissingSide => {
                f.write_str("missing side to move after the placement (expected b or w)")
            }
            PositionErrorOf::UnknownSide(text) => write!(
                f,
                "unknown side to move '{text}' (expected b for attackers or w for defenders)"
            ),
            PositionErrorOf::BadPlies(text) => write!(
                f,
                "ply count '{text}' is not a whole number from 0 to {}",
                u32::MAX
            ),
            PositionErrorOf::Trailing(text) => write!(f, "unexpected '{text}' after the ply count"),
            PositionErrorOf::RankCount(n) => write!(
                f,
                "the placement has {n} rank(s) separated by '/', expected {side}"
            ),
            PositionErrorOf::RankTooLong { rank } => {
                write!(f, "rank {rank} has more than {side} squares")
            }
            PositionErrorOf::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected {side}")
            }
            PositionErrorOf::BadCharacter {
                rank,
                column,
                found,
            } => {
                let digits = if side <= 9 {
                    "a digit 1-9".to_string()
                } else {
                    format!("a number 1-{side}")
                };
                write!(
                    f,
                    "rank {rank}, character {column}: '{}' is not b, w, K or {digits}",
                    found.escape_default()
                )
            }
            PositionErrorOf::TwoKings(first, second) => {
                write!(f, "two kings, on {first} and {second}")
            }
            PositionErrorOf::SoldierOnThrone(piece) => write!(
                f,
                "a soldier ('{}') stands on the throne {}",
                piece.letter(),
                SquareOf::<G>::THRONE
            ),
            PositionErrorOf::NoKing => f.write_str("there is no king (K) on the board"),
        }
    }
}

impl<G: Geometry> std::error::Error for PositionErrorOf<G> {}

/// Shortens arbitrary input for quoting in an error message.
fn quote(text: &str) -> String {
    crate::text::escaped_excerpt(text, 40)
}

impl<G: Geometry> BoardOf<G> {
    /// Parses a position string. Errors name the rank and character at fault, a missing or
    /// unknown side, a bad ply count, a missing or second king, or a soldier on the throne.
    ///
    /// ```
    /// use konakis_core::{Board, PositionError, Side, Square};
    /// let board = Board::from_fen("9/9/9/9/4K4/9/2b6/9/9 w 12").unwrap();
    /// assert_eq!(board.side_to_move(), Side::Defenders);
    /// assert_eq!(board.king(), Some(Square::THRONE));
    /// assert_eq!(board.plies(), 12);
    /// let err = Board::from_fen("9/9/9/9/4K4/9/2x6/9/9 w").unwrap_err();
    /// assert_eq!(err, PositionError::BadCharacter { rank: 3, column: 2, found: 'x' });
    /// ```
    ///
    /// On an 11×11 board a run of ten or eleven empty squares is written `10` or `11`:
    ///
    /// ```
    /// use konakis_core::board::BoardOf;
    /// use konakis_core::geometry::Eleven;
    /// let board = BoardOf::<Eleven>::from_fen("11/11/11/11/11/5K5/11/11/11/11/b10 b").unwrap();
    /// assert_eq!(board.king().unwrap().to_string(), "f6");
    /// assert_eq!(board.to_fen(), "11/11/11/11/11/5K5/11/11/11/11/b10 b 0");
    /// ```
    pub fn from_fen(text: &str) -> Result<Self, PositionErrorOf<G>> {
        let mut fields = text.split_whitespace();
        let Some(placement) = fields.next() else {
            return Err(PositionErrorOf::Empty);
        };
        // The rank count first, before the fields after the placement: a string with the
        // wrong number of ranks (a chess FEN, say) is a wrong placement, whatever follows it.
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != G::SIDE {
            return Err(PositionErrorOf::RankCount(ranks.len()));
        }
        let side = match fields.next() {
            None => return Err(PositionErrorOf::MissingSide),
            Some("b") => Side::Attackers,
            Some("w") => Side::Defenders,
            Some(other) => return Err(PositionErrorOf::UnknownSide(quote(other))),
        };
        let plies = match fields.next() {
            None => 0,
            Some(p) => p
                .parse::<u32>()
                .map_err(|_| PositionErrorOf::BadPlies(quote(p)))?,
        };
        if let Some(extra) = fields.next() {
            return Err(PositionErrorOf::Trailing(quote(extra)));
        }
        let mut board = Self::empty(side);
        board.plies = plies;
        let mut king: Option<SquareOf<G>> = None;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = (G::LAST - i) as u8;
            let rank_name = rank + 1;
            let too_long = PositionErrorOf::RankTooLong { rank: rank_name };
            // Squares described so far; more than the side only at an error.
            let mut file = 0usize;
            // On a wide board, the number of empty squares being read (already counted in
            // `file`); 0 after anything but a digit.
            let mut run = 0usize;
            for (col, c) in rank_text.chars().enumerate() {
                let bad = PositionErrorOf::BadCharacter {
                    rank: rank_name,
                    column: col + 1,
                    found: c,
                };
                let piece = match c {
                    '0'..='9' => {
                        let digit = c as usize - '0' as usize;
                        if run > 0 {
                            // The next digit of a number: count the whole number instead.
                            file -= run;
                            run = run * 10 + digit;
                        } else if digit == 0 {
                            return Err(bad);
                        } else {
                            run = digit;
                        }
                        file += run;
                        if G::SIDE < 10 {
                            run = 0;
                        }
                        if file > G::SIDE {
                            return Err(too_long);
                        }
                        continue;
                    }
                    'b' => Piece::Attacker,
                    'w' => Piece::Defender,
                    'K' => Piece::King,
                    _ => return Err(bad),
                };
                run = 0;
                let Some(sq) = u8::try_from(file)
                    .ok()
                    .and_then(|f| SquareOf::from_coords(f, rank))
                else {
                    return Err(too_long);
                };
                if piece == Piece::King {
                    if let Some(first) = king {
                        return Err(PositionErrorOf::TwoKings(first, sq));
                    }
                    king = Some(sq);
                } else if sq == SquareOf::THRONE {
                    return Err(PositionErrorOf::SoldierOnThrone(piece));
                }
                board.put(piece, sq);
                file += 1;
            }
            if file != G::SIDE {
                return Err(PositionErrorOf::RankTooShort {
                    rank: rank_name,
                    squares: file as u8,
                });
            }
        }
        if king.is_none() {
            return Err(PositionErrorOf::NoKing);
        }
        Ok(board)
    }

    /// The position string, with the ply count; [`BoardOf::from_fen`] reads it back.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..G::SIDE as u8).rev() {
            self.write_rank(rank, Piece::letter, &mut s);
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        s.push_str(&self.plies.to_string());
        s
    }

    /// Writes the rank `rank` (0 for rank 1), file a first, to `out`: each piece as `letter`
    /// names it, each run of empty squares as its length in decimal. This is a rank of Konakis'
    /// position strings, and of the other programs' position texts that share the form
    /// (OpenTafl's records, TaflZero's FEN) with their own letters.
    pub fn write_rank(&self, rank: u8, letter: impl Fn(Piece) -> char, out: &mut String) {
        let mut empty = 0u8;
        for file in 0..G::SIDE as u8 {
            let sq = SquareOf::<G>::from_coords(file, rank).expect("coordinates on the board");
            match self.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(letter(p));
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }

    /// A diagram of the board, the last rank on top, with file letters and rank numbers; `+`
    /// marks the empty throne.
    pub fn diagram(&self) -> String {
        // Rank numbers of two digits on boards of ten ranks or more.
        let width = if G::SIDE >= 10 { 2 } else { 1 };
        let pad = " ".repeat(width);
        let frame = format!("  {pad}+{}+\n", "-".repeat(2 * G::SIDE + 1));
        let mut s = String::new();
        s.push_str(&frame);
        for rank in (0..G::SIDE as u8).rev() {
            s.push_str(&format!(" {:>width$} |", rank + 1));
            for file in 0..G::SIDE as u8 {
                let sq = SquareOf::<G>::from_coords(file, rank).expect("coordinates on the board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if sq == SquareOf::THRONE => '+',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push_str(" |\n");
        }
        s.push_str(&frame);
        s.push_str("   ");
        s.push_str(&pad);
        for letter in &FILE_LETTERS[..G::SIDE] {
            s.push(' ');
            s.push(*letter);
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Rules;
    use crate::types::Square;

    #[test]
    fn start_position_round_trips_and_has_the_listed_pieces() {
        let b = Board::from_fen(START_FEN).unwrap();
        assert_eq!(b.to_fen(), START_FEN);
        assert_eq!(b, Board::start(&Rules::default()));
        assert_eq!(b.attackers().len(), 16);
        assert_eq!(b.defenders().len(), 8);
        assert_eq!(b.king(), Some(Square::THRONE));
        for name in ["c5", "d5", "f5", "g5", "e3", "e4", "e6", "e7"] {
            assert_eq!(
                b.piece_at(name.parse().unwrap()),
                Some(Piece::Defender),
                "{name}"
            );
        }
        for name in [
            "d1", "e1", "f1", "e2", "d9", "e9", "f9", "e8", "a4", "a5", "a6", "b5", "i4", "i5",
            "i6", "h5",
        ] {
            assert_eq!(
                b.piece_at(name.parse().unwrap()),
                Some(Piece::Attacker),
                "{name}"
            );
        }
    }

    #[test]
    fn plies_are_optional() {
        let b = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w").unwrap();
        assert_eq!(b.plies(), 0);
        assert_eq!(b.side_to_move(), Side::Defenders);
    }

    #[test]
    fn errors_are_typed_with_rank_and_character() {
        let start = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3";
        let err = |text: &str| Board::from_fen(text).unwrap_err();
        assert_eq!(
            err(&format!("{} b", start.replacen("4w4", "4w3", 1))),
            PositionError::RankTooShort {
                rank: 7,
                squares: 8
            }
        );
        assert_eq!(
            err(&format!("{} b", start.replacen("b3w3b", "b3w3q", 1))),
            PositionError::BadCharacter {
                rank: 6,
                column: 5,
                found: 'q'
            }
        );
        assert_eq!(
            err(&format!("{start} x")),
            PositionError::UnknownSide("x".into())
        );
        assert_eq!(err(start), PositionError::MissingSide);
        assert_eq!(err(""), PositionError::Empty);
        let no_king = start.replacen('K', "1", 1);
        assert_eq!(err(&format!("{no_king} b")), PositionError::NoKing);
    }

    #[test]
    fn a_chess_fen_is_reported_as_the_wrong_number_of_ranks() {
        // The fields after a chess placement ("w KQkq - 0 1") must not be blamed first: the
        // placement is what is wrong.
        let chess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(Board::from_fen(chess), Err(PositionError::RankCount(8)));
        assert_eq!(
            Board::from_fen("8/8/8/8/8/8/8/8 x - -"),
            Err(PositionError::RankCount(8))
        );
        assert_eq!(Board::from_fen("9/9"), Err(PositionError::RankCount(2)));
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("", "empty"),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3",
                "missing side",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 x",
                "unknown side",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b -1",
                "ply count",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0 z",
                "unexpected",
            ),
            ("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4 b", "8 rank"),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bxb3 b",
                "rank 1, character 3",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb4 b",
                "more than 9",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb2 b",
                "rank 1 has 8",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbbbbbbb b",
                "more than 9",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbww1wwbb/b3w3b/4w4/4b4/3bbb3 b",
                "no king",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3Kbb3 b",
                "two kings",
            ),
            (
                "3bbb3/4b4/4w4/b3w3b/bbwwbwwbb/b3w3b/4w4/4b4/3Kbb3 b",
                "throne",
            ),
        ];
        for (text, want) in cases {
            let e = Board::from_fen(text).unwrap_err();
            assert!(
                e.to_string().contains(want),
                "{text:?}: got '{e}', wanted '{want}'"
            );
        }
    }
}
