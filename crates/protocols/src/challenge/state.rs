//! The JSON messages of the Tablut Challenge protocol and their conversion to and from
//! Konakis' types: states (board and turn), moves and names.
//!
//! A state is `{"board":[[…9 cells…],…9 rows…],"turn":"WHITE"}`. Row `i` is rank `i + 1`
//! (**the first row is rank 1**) and column `j` is file `a + j`. Cells are `EMPTY`, `WHITE`
//! (a defending soldier), `BLACK` (an attacking soldier), `KING` and `THRONE` (the empty `e5`,
//! which the server never shows as `EMPTY`). White is the defenders, Black the attackers.
//!
//! Reading is strict about shape (exactly 9 rows of 9 known cells, a known turn) and lenient
//! where the server is: `EMPTY` on `e5` is read as the empty throne, square names may be upper
//! case, a move's `turn` is ignored.

use konakis_core::board::{Board, Status};
use konakis_core::types::{Move, Piece, Side, Square};
use serde_json::{Value, json};
use std::fmt;

/// A message that does not have the expected shape; the text says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

fn wire_err<T>(message: impl Into<String>) -> Result<T, WireError> {
    Err(WireError(message.into()))
}

/// The start of a message, for error texts (messages may be long or binary junk).
pub fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if text.chars().count() > 60 {
        s.push_str("...");
    }
    s.escape_default().to_string()
}

/// The `turn` field of a state: whose move it is, or how the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Turn {
    /// White (the defenders) to move.
    White,
    /// Black (the attackers) to move.
    Black,
    /// The game is over: White won.
    WhiteWin,
    /// The game is over: Black won.
    BlackWin,
    /// The game is over: drawn.
    Draw,
}

impl Turn {
    /// Every turn value.
    pub const ALL: [Turn; 5] = [
        Turn::White,
        Turn::Black,
        Turn::WhiteWin,
        Turn::BlackWin,
        Turn::Draw,
    ];

    /// The text the protocol uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Turn::White => "WHITE",
            Turn::Black => "BLACK",
            Turn::WhiteWin => "WHITEWIN",
            Turn::BlackWin => "BLACKWIN",
            Turn::Draw => "DRAW",
        }
    }

    /// The turn named `text` (exact spelling, as the server writes it).
    pub fn parse(text: &str) -> Option<Turn> {
        Turn::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// `side` to move.
    pub const fn to_move(side: Side) -> Turn {
        match side {
            Side::Defenders => Turn::White,
            Side::Attackers => Turn::Black,
        }
    }

    /// `side` has won.
    pub const fn win(side: Side) -> Turn {
        match side {
            Side::Defenders => Turn::WhiteWin,
            Side::Attackers => Turn::BlackWin,
        }
    }

    /// The final turn for a game that is over by `status`; `None` while it goes on.
    pub fn of_status(status: Status) -> Option<Turn> {
        match status {
            Status::Ongoing => None,
            Status::Win(side, _) => Some(Turn::win(side)),
            Status::Draw(_) => Some(Turn::Draw),
        }
    }

    /// The side to move; `None` once the game is over.
    pub const fn side(self) -> Option<Side> {
        match self {
            Turn::White => Some(Side::Defenders),
            Turn::Black => Some(Side::Attackers),
            _ => None,
        }
    }

    /// Whether the game is over.
    pub const fn is_final(self) -> bool {
        self.side().is_none()
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `WHITE` or `BLACK`: the protocol's name for a side.
pub const fn colour_name(side: Side) -> &'static str {
    Turn::to_move(side).as_str()
}

/// One square of a state's board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Cell {
    /// No piece (and not the throne).
    Empty,
    /// A defending soldier.
    White,
    /// An attacking soldier.
    Black,
    /// The king.
    King,
    /// The empty throne, `e5`.
    Throne,
}

impl Cell {
    /// The text the protocol uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Cell::Empty => "EMPTY",
            Cell::White => "WHITE",
            Cell::Black => "BLACK",
            Cell::King => "KING",
            Cell::Throne => "THRONE",
        }
    }

    fn parse(text: &str) -> Option<Cell> {
        [
            Cell::Empty,
            Cell::White,
            Cell::Black,
            Cell::King,
            Cell::Throne,
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }

    /// The cell the server shows for `piece` (or no piece) on `sq`.
    pub fn of(piece: Option<Piece>, sq: Square) -> Cell {
        match piece {
            Some(Piece::Attacker) => Cell::Black,
            Some(Piece::Defender) => Cell::White,
            Some(Piece::King) => Cell::King,
            None if sq == Square::THRONE => Cell::Throne,
            None => Cell::Empty,
        }
    }
}

/// A state message: the board and the turn.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct State {
    /// `cells[rank][file]`, both from 0: `cells[0][0]` is `a1`.
    pub cells: [[Cell; 9]; 9],
    /// Whose move, or the result.
    pub turn: Turn,
}

impl State {
    /// The state showing `board` with the given turn.
    ///
    /// A board whose king has been captured shows him on `king_square` if given (the server
    /// leaves the captured king on the board and only the turn says `BLACKWIN`).
    pub fn from_board(board: &Board, turn: Turn, king_square: Option<Square>) -> State {
        let mut cells = [[Cell::Empty; 9]; 9];
        for sq in Square::all() {
            cells[sq.rank() as usize][sq.file() as usize] = Cell::of(board.piece_at(sq), sq);
        }
        if board.king().is_none()
            && let Some(k) = king_square
        {
            cells[k.rank() as usize][k.file() as usize] = Cell::King;
        }
        State { cells, turn }
    }

    /// The cell on `sq`.
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.rank() as usize][sq.file() as usize]
    }

    /// The JSON text, as the server writes it: `{"board":[[…],…],"turn":"…"}`, rank 1 first.
    pub fn to_json(&self) -> String {
        let rows: Vec<Vec<&str>> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.as_str()).collect())
            .collect();
        json!({ "board": rows, "turn": self.turn.as_str() }).to_string()
    }

    /// Parses a state message.
    pub fn parse(text: &str) -> Result<State, WireError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            WireError(format!(
                "a state that is not JSON ({e}): '{}'",
                excerpt(text)
            ))
        })?;
        let Some(object) = value.as_object() else {
            return wire_err(format!(
                "a state that is not a JSON object: '{}'",
                excerpt(text)
            ));
        };
        let turn_text = match object.get("turn") {
            Some(Value::String(s)) => s,
            Some(_) => return wire_err("a state whose \"turn\" is not a string"),
            None => return wire_err("a state without \"turn\""),
        };
        let turn = Turn::parse(turn_text).ok_or_else(|| {
            WireError(format!(
                "a state with turn '{}' (expected WHITE, BLACK, WHITEWIN, BLACKWIN or DRAW)",
                excerpt(turn_text)
            ))
        })?;
        let Some(rows) = object.get("board").and_then(Value::as_array) else {
            return wire_err("a state without a \"board\" array");
        };
        if rows.len() != 9 {
            return wire_err(format!("a board with {} rows, expected 9", rows.len()));
        }
        let mut cells = [[Cell::Empty; 9]; 9];
        for (rank, row) in rows.iter().enumerate() {
            let Some(row) = row.as_array() else {
                return wire_err(format!(
                    "board row {} (rank {}) is not an array",
                    rank,
                    rank + 1
                ));
            };
            if row.len() != 9 {
                return wire_err(format!(
                    "board row {} (rank {}) has {} cells, expected 9",
                    rank,
                    rank + 1,
                    row.len()
                ));
            }
            for (file, cell) in row.iter().enumerate() {
                let sq = Square::from_coords(file as u8, rank as u8).expect("both below 9");
                let parsed = cell.as_str().and_then(Cell::parse).ok_or_else(|| {
                    WireError(format!(
                        "square {sq} holds {cell}, expected EMPTY, WHITE, BLACK, KING or THRONE"
                    ))
                })?;
                cells[rank][file] = match parsed {
                    Cell::Throne if sq != Square::THRONE => {
                        return wire_err(format!("THRONE on {sq}; the throne is e5"));
                    }
                    Cell::Empty if sq == Square::THRONE => Cell::Throne,
                    c => c,
                };
            }
        }
        Ok(State { cells, turn })
    }

    /// The board this state shows, with `side` to move (the state's own side when it has one)
    /// and `plies` plies played. Fails on a board Konakis cannot hold: no king, two kings.
    pub fn to_board(&self, side: Side, plies: u32) -> Result<Board, WireError> {
        let side = self.turn.side().unwrap_or(side);
        let mut fen = String::with_capacity(90);
        for rank in (0..9).rev() {
            let mut empty = 0u8;
            for file in 0..9 {
                let letter = match self.cells[rank][file] {
                    Cell::Empty | Cell::Throne => None,
                    Cell::White => Some('w'),
                    Cell::Black => Some('b'),
                    Cell::King => Some('K'),
                };
                match letter {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(&format!(" {} {plies}", side.letter()));
        Board::from_fen(&fen).map_err(|e| WireError(format!("an impossible board: {e}")))
    }

    /// Whether this state shows the same pieces as `board`. A board whose king has been
    /// captured matches a state showing the king anywhere (the server leaves him on the board).
    pub fn same_pieces(&self, board: &Board) -> bool {
        let king_gone = board.king().is_none();
        Square::all().all(|sq| {
            let ours = Cell::of(board.piece_at(sq), sq);
            let theirs = self.cell(sq);
            ours == theirs || (king_gone && theirs == Cell::King)
        })
    }
}

/// The move message for `mv` played by `side`: `{"from":"e3","to":"a3","turn":"WHITE"}`.
pub fn move_json(mv: Move, side: Side) -> String {
    json!({
        "from": mv.from().to_string(),
        "to": mv.to().to_string(),
        "turn": colour_name(side),
    })
    .to_string()
}

/// What the server makes of a move message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveMessage {
    /// `from` and `to` are squares (not yet checked against the rules).
    Move(Square, Square),
    /// Valid JSON, but not a move the server can read (a missing or bad square): the server
    /// counts this as an error of the mover, like an illegal move.
    Refused(String),
}

/// Parses a move message as the server does: the `turn` field is ignored, square names may be
/// upper case. `Err` is text that is not a JSON object at all (which crashes the real server).
pub fn parse_move(text: &str) -> Result<MoveMessage, WireError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        WireError(format!(
            "a move that is not JSON ({e}): '{}'",
            excerpt(text)
        ))
    })?;
    let Some(object) = value.as_object() else {
        return wire_err(format!(
            "a move that is not a JSON object: '{}'",
            excerpt(text)
        ));
    };
    let square = |key: &str| -> Result<Square, String> {
        match object.get(key) {
            None | Some(Value::Null) => Err(format!("the move has no \"{key}\"")),
            Some(Value::String(s)) => s
                .parse::<Square>()
                .map_err(|_| format!("\"{key}\": '{}' is not a square", excerpt(s))),
            Some(other) => Err(format!("\"{key}\" is {other}, not a square name")),
        }
    };
    Ok(match (square("from"), square("to")) {
        (Ok(from), Ok(to)) => MoveMessage::Move(from, to),
        (Err(e), _) | (_, Err(e)) => MoveMessage::Refused(e),
    })
}

/// The name message: a JSON string.
pub fn name_json(name: &str) -> String {
    Value::String(name.to_string()).to_string()
}

/// Reads a name message as the server does: a JSON string (other JSON values are taken as
/// their text), of which the letters and digits among the first 10 characters are kept. Like
/// the server's lenient Gson, a bare word without quotes (`Player1`) is read as a string too.
pub fn parse_name(text: &str) -> Result<String, WireError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(_) if is_bare_word(text.trim()) => Value::String(text.trim().to_string()),
        Err(e) => {
            return Err(WireError(format!(
                "a name that is not JSON ({e}): '{}'",
                excerpt(text)
            )));
        }
    };
    let raw = match value {
        Value::String(s) => s,
        Value::Null => return wire_err("the name is null"),
        other => other.to_string(),
    };
    Ok(clean_name(&raw))
}

/// An unquoted literal as a lenient JSON reader takes it: one word, without whitespace or the
/// characters that end a literal.
fn is_bare_word(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || "{}[]:,;=#/\\\"'".contains(c))
}

/// The letters and digits among the first 10 characters of `name` (what the server keeps).
pub fn clean_name(name: &str) -> String {
    name.chars()
        .take(10)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::rules::Rules;

    /// The server's opening state (written out by hand from ASHTON.md: rank 1 first).
    const START_JSON: &str = concat!(
        r#"{"board":["#,
        r#"["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","BLACK","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["BLACK","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","BLACK"],"#,
        r#"["BLACK","BLACK","WHITE","WHITE","KING","WHITE","WHITE","BLACK","BLACK"],"#,
        r#"["BLACK","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","BLACK"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","BLACK","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"]"#,
        r#"],"turn":"WHITE"}"#
    );

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn the_start_position_is_written_exactly_as_the_server_writes_it() {
        let board = Board::start(&Rules::ashton());
        let state = State::from_board(&board, Turn::White, None);
        assert_eq!(state.to_json(), START_JSON);
    }

    #[test]
    fn the_first_row_is_rank_one_and_the_empty_throne_is_throne() {
        // An asymmetric position: the first row must be rank 1, the first column file a.
        let board = Board::from_fen("8b/9/9/9/3K5/9/9/9/w8 w 0").unwrap();
        let state = State::from_board(&board, Turn::White, None);
        assert_eq!(state.cells[0][0], Cell::White, "a1 is row 0, column 0");
        assert_eq!(state.cells[8][8], Cell::Black, "i9 is row 8, column 8");
        assert_eq!(state.cells[4][3], Cell::King, "d5 is row 4, column 3");
        assert_eq!(state.cells[4][4], Cell::Throne, "the empty e5 is THRONE");
        let v: Value = serde_json::from_str(&state.to_json()).unwrap();
        assert_eq!(v["board"][0][0], "WHITE");
        assert_eq!(v["board"][8][8], "BLACK");
        assert_eq!(v["board"][4][4], "THRONE");
        assert_eq!(v["turn"], "WHITE");
    }

    #[test]
    fn states_parse_back_to_the_same_board() {
        let fens = [
            "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 0",
            "8b/9/9/9/3K5/9/9/9/w8 b 0",
            "3b1b3/9/2w6/b7b/bb1wKw1bb/b3w3b/4w4/4b4/3bbb3 b 0",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let turn = Turn::to_move(board.side_to_move());
            let text = State::from_board(&board, turn, None).to_json();
            let state = State::parse(&text).unwrap();
            assert_eq!(state.turn, turn);
            assert!(state.same_pieces(&board), "{fen}");
            let back = state.to_board(Side::Attackers, 0).unwrap();
            assert_eq!(back.to_fen(), fen, "round trip of {fen}");
        }
    }

    #[test]
    fn a_final_state_takes_the_side_given_and_shows_a_captured_king() {
        let board = Board::from_fen("9/9/9/9/4K4/9/9/9/b8 w 0").unwrap();
        let state = State::from_board(&board, Turn::BlackWin, None);
        assert_eq!(
            state.to_board(Side::Attackers, 7).unwrap().to_fen(),
            "9/9/9/9/4K4/9/9/9/b8 b 7"
        );
        // A board without its king (captured) shows him where the caller says he was.
        let rules = Rules::default();
        let mut captured = Board::from_fen("9/9/9/9/9/9/1bK6/9/3b5 b 0").unwrap();
        let mv = captured.parse_move(&rules, "d1d3").unwrap();
        captured.play(&rules, mv);
        assert_eq!(captured.king(), None, "c3 is taken between b3 and d3");
        let state = State::from_board(&captured, Turn::BlackWin, Some(sq("c3")));
        assert_eq!(state.cell(sq("c3")), Cell::King);
        assert!(state.same_pieces(&captured));
    }

    #[test]
    fn empty_on_the_throne_is_the_throne_but_throne_elsewhere_is_refused() {
        let text = START_JSON.replace("\"KING\"", "\"EMPTY\"").replacen(
            "\"EMPTY\",\"EMPTY\",\"EMPTY\",\"BLACK\"",
            "\"KING\",\"EMPTY\",\"EMPTY\",\"BLACK\"",
            1,
        );
        let state = State::parse(&text).unwrap();
        assert_eq!(state.cell(Square::THRONE), Cell::Throne);
        assert_eq!(state.cell(sq("a1")), Cell::King);
        let bad = START_JSON.replacen("\"EMPTY\"", "\"THRONE\"", 1);
        let e = State::parse(&bad).unwrap_err();
        assert!(e.0.contains("THRONE on a1"), "{e}");
    }

    #[test]
    fn malformed_states_are_refused_with_a_reason() {
        let cases = [
            ("not json", "not JSON"),
            ("[1,2]", "not a JSON object"),
            (r#"{"board":[]}"#, "without \"turn\""),
            (r#"{"board":[],"turn":"white"}"#, "turn 'white'"),
            (r#"{"turn":"WHITE"}"#, "without a \"board\""),
            (r#"{"board":[],"turn":"WHITE"}"#, "0 rows"),
        ];
        for (text, want) in cases {
            let e = State::parse(text).unwrap_err();
            assert!(e.0.contains(want), "{text}: {e}");
        }
        let short_row = START_JSON.replacen("[\"EMPTY\",", "[", 1);
        assert!(State::parse(&short_row).unwrap_err().0.contains("8 cells"));
        let bad_cell = START_JSON.replacen("\"KING\"", "\"QUEEN\"", 1);
        assert!(
            State::parse(&bad_cell)
                .unwrap_err()
                .0
                .contains("e5 holds \"QUEEN\"")
        );
        let no_king = START_JSON.replacen("\"KING\"", "\"THRONE\"", 1);
        let state = State::parse(&no_king).unwrap();
        assert!(
            state
                .to_board(Side::Defenders, 0)
                .unwrap_err()
                .0
                .contains("no king")
        );
    }

    #[test]
    fn moves_are_written_with_lower_case_squares_and_the_colour() {
        let mv = Move::parse("e3a3").unwrap();
        assert_eq!(
            move_json(mv, Side::Defenders),
            r#"{"from":"e3","to":"a3","turn":"WHITE"}"#
        );
        assert_eq!(
            move_json(mv, Side::Attackers),
            r#"{"from":"e3","to":"a3","turn":"BLACK"}"#
        );
    }

    #[test]
    fn moves_are_read_as_the_server_reads_them() {
        let m = |t: &str| parse_move(t).unwrap();
        assert_eq!(
            m(r#"{"from":"e3","to":"a3","turn":"WHITE"}"#),
            MoveMessage::Move(sq("e3"), sq("a3"))
        );
        // Upper-case squares and any turn (or none) are accepted.
        assert_eq!(
            m(r#"{"to":"A3","from":"E3","turn":"whatever"}"#),
            MoveMessage::Move(sq("e3"), sq("a3"))
        );
        assert_eq!(
            m(r#"{"from":"e3","to":"a3"}"#),
            MoveMessage::Move(sq("e3"), sq("a3"))
        );
        for bad in [
            r#"{"from":"e3"}"#,
            r#"{"from":"e3","to":null}"#,
            r#"{"from":"e3","to":"j3"}"#,
            r#"{"from":"e3","to":"a10"}"#,
            r#"{"from":5,"to":"a3"}"#,
        ] {
            assert!(matches!(m(bad), MoveMessage::Refused(_)), "{bad}");
        }
        assert!(parse_move("e3a3").is_err());
        assert!(parse_move("\"e3a3\"").is_err());
    }

    #[test]
    fn names_are_json_strings_and_read_back_as_the_server_keeps_them() {
        assert_eq!(name_json("Konakis"), "\"Konakis\"");
        assert_eq!(name_json("a\"b"), r#""a\"b""#);
        assert_eq!(parse_name("\"Konakis\"").unwrap(), "Konakis");
        assert_eq!(parse_name("\"Team-7 the best\"").unwrap(), "Team7the");
        assert_eq!(parse_name("42").unwrap(), "42");
        // A bare word is read leniently, as Gson does; anything else that is not JSON is not.
        assert_eq!(parse_name("Player1").unwrap(), "Player1");
        assert_eq!(parse_name("Player1\n").unwrap(), "Player1");
        assert!(parse_name("My Bot").is_err());
        assert!(parse_name("{name").is_err());
        assert!(parse_name("").is_err());
        assert!(parse_name("null").is_err());
    }
}
