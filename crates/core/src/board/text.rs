//! Position strings: `<placement> <side> [<plies>]`.
//!
//! The placement lists ranks 9 down to 1, separated by `/`; within a rank, files a to i; a digit
//! 1–9 is that many empty squares, `b` an attacker, `w` a defender, `K` the king. The side is
//! `b` (attackers to move) or `w` (defenders to move); plies default to 0.

use super::Board;
use crate::geometry::{FILES, LAST, SIDE};
use crate::types::{Piece, Side, Square};
use std::fmt;

/// The start position with the attackers to move.
pub const START_FEN: &str = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";

/// Why [`Board::from_fen`] refused a position string. Quoted input is kept shortened to 40
/// characters, as the message shows it; ranks are numbered 1–9 as on the board, characters
/// from 1 within the rank's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
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
    /// The placement does not have 9 ranks; the number it has.
    RankCount(usize),
    /// A rank describes more than 9 squares.
    RankTooLong {
        /// The rank, 1–9.
        rank: u8,
    },
    /// A rank describes fewer than 9 squares.
    RankTooShort {
        /// The rank, 1–9.
        rank: u8,
        /// The squares it describes.
        squares: u8,
    },
    /// A character that is not `b`, `w`, `K` or a digit 1–9.
    BadCharacter {
        /// The rank, 1–9.
        rank: u8,
        /// Which character of the rank's text, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A second king.
    TwoKings(Square, Square),
    /// A soldier (the piece given) on the throne.
    SoldierOnThrone(Piece),
    /// No king.
    NoKing,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => {
                f.write_str("empty position string (expected '<placement> <side> [<plies>]')")
            }
            PositionError::MissingSide => {
                f.write_str("missing side to move after the placement (expected b or w)")
            }
            PositionError::UnknownSide(text) => write!(
                f,
                "unknown side to move '{text}' (expected b for attackers or w for defenders)"
            ),
            PositionError::BadPlies(text) => write!(
                f,
                "ply count '{text}' is not a whole number from 0 to {}",
                u32::MAX
            ),
            PositionError::Trailing(text) => write!(f, "unexpected '{text}' after the ply count"),
            PositionError::RankCount(n) => write!(
                f,
                "the placement has {n} rank(s) separated by '/', expected {SIDE}"
            ),
            PositionError::RankTooLong { rank } => {
                write!(f, "rank {rank} has more than {SIDE} squares")
            }
            PositionError::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected {SIDE}")
            }
            PositionError::BadCharacter {
                rank,
                column,
                found,
            } => write!(
                f,
                "rank {rank}, character {column}: '{}' is not b, w, K or a digit 1-9",
                found.escape_default()
            ),
            PositionError::TwoKings(first, second) => {
                write!(f, "two kings, on {first} and {second}")
            }
            PositionError::SoldierOnThrone(piece) => write!(
                f,
                "a soldier ('{}') stands on the throne {}",
                piece.letter(),
                Square::THRONE
            ),
            PositionError::NoKing => f.write_str("there is no king (K) on the board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Shortens arbitrary input for quoting in an error message.
fn quote(text: &str) -> String {
    crate::text::escaped_excerpt(text, 40)
}

impl Board {
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
    pub fn from_fen(text: &str) -> Result<Board, PositionError> {
        let mut fields = text.split_whitespace();
        let Some(placement) = fields.next() else {
            return Err(PositionError::Empty);
        };
        // The rank count first, before the fields after the placement: a string with the
        // wrong number of ranks (a chess FEN, say) is a wrong placement, whatever follows it.
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != SIDE {
            return Err(PositionError::RankCount(ranks.len()));
        }
        let side = match fields.next() {
            None => return Err(PositionError::MissingSide),
            Some("b") => Side::Attackers,
            Some("w") => Side::Defenders,
            Some(other) => return Err(PositionError::UnknownSide(quote(other))),
        };
        let plies = match fields.next() {
            None => 0,
            Some(p) => p
                .parse::<u32>()
                .map_err(|_| PositionError::BadPlies(quote(p)))?,
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::Trailing(quote(extra)));
        }
        let mut board = Board::empty(side);
        board.plies = plies;
        let mut king: Option<Square> = None;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = (LAST - i) as u8;
            let rank_name = rank + 1;
            let too_long = PositionError::RankTooLong { rank: rank_name };
            let mut file = 0u8;
            for (col, c) in rank_text.chars().enumerate() {
                let piece = match c {
                    '1'..='9' => {
                        file += c as u8 - b'0';
                        if file as usize > SIDE {
                            return Err(too_long);
                        }
                        continue;
                    }
                    'b' => Piece::Attacker,
                    'w' => Piece::Defender,
                    'K' => Piece::King,
                    _ => {
                        return Err(PositionError::BadCharacter {
                            rank: rank_name,
                            column: col + 1,
                            found: c,
                        });
                    }
                };
                let Some(sq) = Square::from_coords(file, rank) else {
                    return Err(too_long);
                };
                if piece == Piece::King {
                    if let Some(first) = king {
                        return Err(PositionError::TwoKings(first, sq));
                    }
                    king = Some(sq);
                } else if sq == Square::THRONE {
                    return Err(PositionError::SoldierOnThrone(piece));
                }
                board.put(piece, sq);
                file += 1;
            }
            if file as usize != SIDE {
                return Err(PositionError::RankTooShort {
                    rank: rank_name,
                    squares: file,
                });
            }
        }
        if king.is_none() {
            return Err(PositionError::NoKing);
        }
        Ok(board)
    }

    /// The position string, with the ply count; [`Board::from_fen`] reads it back.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..SIDE as u8).rev() {
            let mut empty = 0u8;
            for file in 0..SIDE as u8 {
                let sq = Square::from_coords(file, rank).expect("coordinates on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
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

    /// A 9×9 diagram, rank 9 on top, with file letters and rank numbers; `+` marks the empty
    /// throne.
    pub fn diagram(&self) -> String {
        let frame = format!("   +{}+\n", "-".repeat(2 * SIDE + 1));
        let mut s = String::new();
        s.push_str(&frame);
        for rank in (0..SIDE as u8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for file in 0..SIDE as u8 {
                let sq = Square::from_coords(file, rank).expect("coordinates on the board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if sq == Square::THRONE => '+',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push_str(" |\n");
        }
        s.push_str(&frame);
        s.push_str("    ");
        for letter in FILES {
            s.push(' ');
            s.push(letter);
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

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
