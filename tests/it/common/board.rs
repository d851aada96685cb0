//! Positions drawn as pictures, for the tests that set one up in Rust (the rules tests draw
//! theirs in tests/data/rules/).
//!
//! A picture has nine rows, rank 9 on top, files a to i from left to right (white space within
//! a row is ignored): `b` an attacker, `w` a defender, `K` the king, `.` an empty square, `+`
//! the empty throne (e5 only) and `*` an empty camp square (a camp square only).

use konakis::{Bitboard, Side, Square};

/// The placement field of a position string, read from `picture`.
pub fn placement(picture: &str) -> String {
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
            match c {
                '.' | '*' | '+' => {
                    assert!(
                        c != '+' || here == Square::THRONE,
                        "'+' marks only the throne e5:{picture}"
                    );
                    assert!(
                        c != '*' || Bitboard::CAMPS.has(here),
                        "'*' on {here}, not a camp:{picture}"
                    );
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

/// The position string of `picture`, `side` to move, `plies` already played.
pub fn picture_fen(picture: &str, side: Side, plies: u32) -> String {
    format!("{} {} {plies}", placement(picture), side.letter())
}
