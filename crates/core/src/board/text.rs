//! Position strings: `<placement> <side> [<plies>]`.
//!
//! The placement lists ranks 9 down to 1, separated by `/`; within a rank, files a to i; a digit
//! 1–9 is that many empty squares, `b` an attacker, `w` a defender, `K` the king. The side is
//! `b` (attackers to move) or `w` (defenders to move); plies default to 0.

use super::Board;
use crate::types::{Piece, Side, Square};
use std::fmt;

/// The start position with the attackers to move.
pub const START_FEN: &str = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";

/// A position string that is not valid; the message says what is wrong and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// Shortens arbitrary input for quoting in an error message.
fn quote(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push_str("...");
    }
    s.escape_default().to_string()
}

impl Board {
    /// Parses a position string. Errors name the rank and character at fault, a missing or
    /// unknown side, a bad ply count, a missing or second king, or a soldier on the throne.
    pub fn from_fen(text: &str) -> Result<Board, ParseError> {
        let mut fields = text.split_whitespace();
        let Some(placement) = fields.next() else {
            return err("empty position string (expected '<placement> <side> [<plies>]')");
        };
        let side = match fields.next() {
            None => return err("missing side to move after the placement (expected b or w)"),
            Some("b") => Side::Attackers,
            Some("w") => Side::Defenders,
            Some(other) => {
                return err(format!(
                    "unknown side to move '{}' (expected b for attackers or w for defenders)",
                    quote(other)
                ));
            }
        };
        let plies = match fields.next() {
            None => 0,
            Some(p) => p.parse::<u32>().or_else(|_| {
                err(format!(
                    "ply count '{}' is not a whole number from 0 to {}",
                    quote(p),
                    u32::MAX
                ))
            })?,
        };
        if let Some(extra) = fields.next() {
            return err(format!("unexpected '{}' after the ply count", quote(extra)));
        }
        let mut board = Board::empty(side);
        board.plies = plies;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 9 {
            return err(format!(
                "the placement has {} rank(s) separated by '/', expected 9",
                ranks.len()
            ));
        }
        let mut king: Option<Square> = None;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 8 - i as u8;
            let rank_name = rank + 1;
            let mut file = 0u8;
            for (col, c) in rank_text.chars().enumerate() {
                let piece = match c {
                    '1'..='9' => {
                        file += c as u8 - b'0';
                        if file > 9 {
                            return err(format!("rank {rank_name} has more than 9 squares"));
                        }
                        continue;
                    }
                    'b' => Piece::Attacker,
                    'w' => Piece::Defender,
                    'K' => Piece::King,
                    _ => {
                        return err(format!(
                            "rank {rank_name}, character {}: '{}' is not b, w, K or a digit 1-9",
                            col + 1,
                            c.escape_default()
                        ));
                    }
                };
                let Some(sq) = Square::from_coords(file, rank) else {
                    return err(format!("rank {rank_name} has more than 9 squares"));
                };
                if piece == Piece::King {
                    if let Some(first) = king {
                        return err(format!("two kings, on {first} and {sq}"));
                    }
                    king = Some(sq);
                } else if sq == Square::THRONE {
                    return err(format!("a soldier ('{c}') stands on the throne {sq}"));
                }
                board.put(piece, sq);
                file += 1;
            }
            if file != 9 {
                return err(format!("rank {rank_name} has {file} squares, expected 9"));
            }
        }
        if king.is_none() {
            return err("there is no king (K) on the board");
        }
        Ok(board)
    }

    /// The position string, with the ply count; [`Board::from_fen`] reads it back.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..9u8).rev() {
            let mut empty = 0u8;
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).expect("coordinates below 9");
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
        let mut s = String::new();
        s.push_str("   +-------------------+\n");
        for rank in (0..9u8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).expect("coordinates below 9");
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
        s.push_str("   +-------------------+\n");
        s.push_str("     a b c d e f g h i\n");
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
            assert!(e.0.contains(want), "{text:?}: got '{e}', wanted '{want}'");
        }
    }
}
