//! Squares, moves and square sets by name, and positions drawn as pictures.
//!
//! A picture has nine rows, rank 9 on top, files a to i from left to right (white space within
//! a row is ignored): `b` an attacker, `w` a defender, `K` the king, `.` an empty square, `+`
//! the empty throne (e5 only) and `*` an empty camp square (a camp square only). Under
//! [`Marks::Camps`] the marks are required: every empty camp square is `*` and an empty e5 is
//! `+`, so that a picture shows where the camps are.

use konakis::{Bitboard, Board, Move, Side, Square};

/// The square named `name`.
pub fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|e| panic!("bad square in test: {e}"))
}

/// The move written `text`.
pub fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|e| panic!("bad move in test: {e}"))
}

/// The set of the squares named in `names`, separated by spaces.
pub fn set(names: &str) -> Bitboard {
    names.split_whitespace().map(sq).collect()
}

/// How strictly a picture marks the special empty squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Marks {
    /// `+` and `*` only where they belong, `.` anywhere.
    Free,
    /// Every empty camp square `*` and the empty throne `+` (Ashton pictures).
    Camps,
}

/// The placement field of a position string, read from `picture`.
pub fn placement_with(picture: &str, marks: Marks) -> String {
    let rows: Vec<Vec<char>> = picture
        .lines()
        .map(|line| {
            line.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    assert_eq!(rows.len(), 9, "a picture has 9 rows:{picture}");
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 9, "row {} has 9 cells:{picture}", i + 1);
        let mut empty = 0u32;
        for (file, &c) in row.iter().enumerate() {
            let here = Square::from_coords(file as u8, 8 - i as u8).expect("below 9");
            let camp = Bitboard::CAMPS.has(here);
            let throne = here == Square::THRONE;
            match c {
                '.' | '*' | '+' => {
                    assert!(c != '+' || throne, "'+' marks only the throne e5:{picture}");
                    assert!(c != '*' || camp, "'*' on {here}, not a camp:{picture}");
                    if marks == Marks::Camps {
                        assert_eq!(c == '*', camp, "'{c}' on {here}:{picture}");
                        assert_eq!(c == '+', throne, "'{c}' on {here}:{picture}");
                    }
                    empty += 1;
                }
                'b' | 'w' | 'K' => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).expect("at most 9"));
                        empty = 0;
                    }
                    out.push(c);
                }
                other => panic!("'{other}' is not a picture cell:{picture}"),
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).expect("at most 9"));
        }
        if i < 8 {
            out.push('/');
        }
    }
    out
}

/// The placement field read from a picture that need not mark the camps.
pub fn placement(picture: &str) -> String {
    placement_with(picture, Marks::Free)
}

/// The position string of `picture`, `side` to move, `plies` already played.
pub fn picture_fen(picture: &str, side: Side, plies: u32) -> String {
    format!("{} {} {plies}", placement(picture), side.letter())
}

/// The board drawn in `picture`, `side` to move, `plies` already played.
pub fn from_picture_at(picture: &str, side: Side, plies: u32) -> Board {
    let text = picture_fen(picture, side, plies);
    Board::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The board drawn in `picture`, `side` to move, no plies played.
pub fn from_picture(picture: &str, side: Side) -> Board {
    from_picture_at(picture, side, 0)
}

/// The board drawn in a picture that marks every camp ([`Marks::Camps`]), `side` to move.
pub fn from_camp_picture(picture: &str, side: Side) -> Board {
    let text = format!(
        "{} {}",
        placement_with(picture, Marks::Camps),
        side.letter()
    );
    Board::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Asserts that the pieces stand as drawn in `picture`.
pub fn assert_placement(board: &Board, picture: &str) {
    let fen = board.to_fen();
    let have = fen.split(' ').next().expect("a placement field");
    assert_eq!(
        have,
        placement(picture),
        "placement differs; the board is\n{}",
        board.diagram()
    );
}
