//! The JSON messages of the Tablut Challenge protocol and their conversion to and from
//! Konakis' types: states (board and turn), moves and names (docs/tablut-challenge.md).
//!
//! A state is `{"board":[[…9 cells…],…9 rows…],"turn":"WHITE"}`. Row `i` is rank `i + 1`
//! (**the first row is rank 1**) and column `j` is file `a + j`. Cells are `EMPTY`, `WHITE`
//! (a defending soldier), `BLACK` (an attacking soldier), `KING` and `THRONE` (the empty `e5`,
//! which the server never shows as `EMPTY`). White is the defenders, Black the attackers.
//!
//! Reading is strict about shape (exactly 9 rows of 9 known cells, a known turn) and lenient
//! where the server is: `EMPTY` on `e5` is read as the empty throne, square names may be upper
//! case, a move's `turn` is ignored.

use konakis_core::board::{Board, PositionError, Status};
use konakis_core::geometry::SIDE;
use konakis_core::types::{Move, Piece, Side, Square};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

pub use crate::text::excerpt;

/// A message that does not have the expected shape. Quoted message text is kept shortened
/// to 60 characters ([`excerpt`]), as the message shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Text that is not JSON.
    NotJson {
        /// What the message should have been: `state`, `move` or `name`.
        what: &'static str,
        /// The JSON reader's complaint.
        reason: String,
        /// The start of the text.
        text: String,
    },
    /// JSON that is not an object.
    NotAnObject {
        /// What the message should have been: `state` or `move`.
        what: &'static str,
        /// The start of the text.
        text: String,
    },
    /// A state whose `turn` is not a string.
    TurnNotString,
    /// A state without `turn`.
    NoTurn,
    /// A state whose turn is none the server sends.
    UnknownTurn(String),
    /// A state without a `board` array.
    NoBoard,
    /// A board without 9 rows; the number it has.
    RowCount(usize),
    /// A board row (from 0, rank 1 first) that is not an array.
    RowNotArray(usize),
    /// A board row (from 0, rank 1 first) without 9 cells.
    RowLength {
        /// The row.
        row: usize,
        /// The cells it has.
        cells: usize,
    },
    /// A cell that is no known value.
    BadCell {
        /// The square.
        square: Square,
        /// The cell as JSON.
        cell: String,
    },
    /// `THRONE` on a square other than `e5`.
    ThroneElsewhere(Square),
    /// A board Konakis cannot hold (no king, two kings).
    Impossible(PositionError),
    /// The name message is `null`.
    NullName,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::NotJson { what, reason, text } => {
                write!(f, "a {what} that is not JSON ({reason}): '{text}'")
            }
            WireError::NotAnObject { what, text } => {
                write!(f, "a {what} that is not a JSON object: '{text}'")
            }
            WireError::TurnNotString => f.write_str("a state whose \"turn\" is not a string"),
            WireError::NoTurn => f.write_str("a state without \"turn\""),
            WireError::UnknownTurn(turn) => write!(
                f,
                "a state with turn '{turn}' (expected WHITE, BLACK, WHITEWIN, BLACKWIN or DRAW)"
            ),
            WireError::NoBoard => f.write_str("a state without a \"board\" array"),
            WireError::RowCount(n) => write!(f, "a board with {n} rows, expected 9"),
            WireError::RowNotArray(row) => {
                write!(f, "board row {row} (rank {}) is not an array", row + 1)
            }
            WireError::RowLength { row, cells } => write!(
                f,
                "board row {row} (rank {}) has {cells} cells, expected 9",
                row + 1
            ),
            WireError::BadCell { square, cell } => write!(
                f,
                "square {square} holds {cell}, expected EMPTY, WHITE, BLACK, KING or THRONE"
            ),
            WireError::ThroneElsewhere(sq) => write!(f, "THRONE on {sq}; the throne is e5"),
            WireError::Impossible(e) => write!(f, "an impossible board: {e}"),
            WireError::NullName => f.write_str("the name is null"),
        }
    }
}

impl std::error::Error for WireError {}

/// The `turn` field of a state: whose move it is, or how the game ended. Serialized as
/// [`Turn::as_str`] gives it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
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

/// One square of a state's board. Serialized as [`Cell::as_str`] gives it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
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

/// A state message: the board and the turn. Serialized as the server writes it, `board`
/// then `turn` (the server is Java and its reader is picky: keep the names and the order).
#[derive(Clone, PartialEq, Eq, Debug, Hash, Serialize)]
pub struct State {
    /// `cells[rank][file]`, both from 0: `cells[0][0]` is `a1`.
    #[serde(rename = "board")]
    pub cells: [[Cell; SIDE]; SIDE],
    /// Whose move, or the result.
    pub turn: Turn,
}

impl State {
    /// The state showing `board` with the given turn.
    ///
    /// A board whose king has been captured shows him on `king_square` if given (the server
    /// leaves the captured king on the board and only the turn says `BLACKWIN`).
    pub fn from_board(board: &Board, turn: Turn, king_square: Option<Square>) -> State {
        let mut cells = [[Cell::Empty; SIDE]; SIDE];
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
        serde_json::to_string(self).expect("a state is plain data")
    }

    /// Parses a state message. serde reads the shape (`StateMessage`); what does not fit is
    /// kept as JSON, so that each defect gets its own [`WireError`].
    pub fn parse(text: &str) -> Result<State, WireError> {
        let value: Value = serde_json::from_str(text).map_err(|e| WireError::NotJson {
            what: "state",
            reason: e.to_string(),
            text: excerpt(text),
        })?;
        // Only an object: a struct would also take an array, field by field.
        let message = match value.is_object() {
            true => StateMessage::deserialize(value).ok(),
            false => None,
        };
        let Some(StateMessage { board, turn }) = message else {
            return Err(WireError::NotAnObject {
                what: "state",
                text: excerpt(text),
            });
        };
        let turn = match turn {
            Loose::Known(turn) => turn,
            Loose::Other(Value::String(s)) => return Err(WireError::UnknownTurn(excerpt(&s))),
            Loose::Other(_) => return Err(WireError::TurnNotString),
            Loose::Missing => return Err(WireError::NoTurn),
        };
        let Loose::Known(rows) = board else {
            return Err(WireError::NoBoard);
        };
        if rows.len() != SIDE {
            return Err(WireError::RowCount(rows.len()));
        }
        let mut cells = [[Cell::Empty; SIDE]; SIDE];
        for (rank, row) in rows.into_iter().enumerate() {
            let Loose::Known(row) = row else {
                return Err(WireError::RowNotArray(rank));
            };
            if row.len() != SIDE {
                return Err(WireError::RowLength {
                    row: rank,
                    cells: row.len(),
                });
            }
            for (file, cell) in row.into_iter().enumerate() {
                let sq = Square::from_coords(file as u8, rank as u8).expect("both below 9");
                cells[rank][file] = match cell {
                    Loose::Known(Cell::Throne) if sq != Square::THRONE => {
                        return Err(WireError::ThroneElsewhere(sq));
                    }
                    Loose::Known(Cell::Empty) if sq == Square::THRONE => Cell::Throne,
                    Loose::Known(c) => c,
                    // (An array has no missing items: `Missing` only comes from a key.)
                    Loose::Other(cell) => {
                        return Err(WireError::BadCell {
                            square: sq,
                            cell: cell.to_string(),
                        });
                    }
                    Loose::Missing => {
                        return Err(WireError::BadCell {
                            square: sq,
                            cell: Value::Null.to_string(),
                        });
                    }
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
        for rank in (0..SIDE).rev() {
            let mut empty = 0u8;
            for file in 0..SIDE {
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
        Board::from_fen(&fen).map_err(WireError::Impossible)
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

/// A state message as serde reads it, before its shape is checked: [`State::parse`] gives
/// each part that does not fit its own error. Other keys are ignored.
#[derive(Deserialize)]
struct StateMessage {
    /// Rows of cells, rank 1 first.
    #[serde(default)]
    board: Loose<Vec<Loose<Vec<Loose<Cell>>>>>,
    /// Whose move, or the result.
    #[serde(default)]
    turn: Loose<Turn>,
}

/// A part of a message: the expected type, other JSON (kept for the error), or nothing.
#[derive(Deserialize, Default)]
#[serde(untagged)]
enum Loose<T> {
    /// The value has the expected type.
    Known(T),
    /// Any other JSON, `null` included.
    Other(Value),
    /// The key is not there.
    #[default]
    #[serde(skip)]
    Missing,
}

/// The move message for `mv` played by `side`: `{"from":"e3","to":"a3","turn":"WHITE"}`.
pub fn move_json(mv: Move, side: Side) -> String {
    /// The message, fields in the server's order.
    #[derive(Serialize)]
    struct MoveJson {
        from: String,
        to: String,
        turn: Turn,
    }
    serde_json::to_string(&MoveJson {
        from: mv.from().to_string(),
        to: mv.to().to_string(),
        turn: Turn::to_move(side),
    })
    .expect("a move is plain data")
}

/// What the server makes of a move message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveMessage {
    /// `from` and `to` are squares (not yet checked against the rules).
    Move(Square, Square),
    /// Valid JSON, but not a move the server can read (a missing or bad square): the server
    /// counts this as an error of the mover, like an illegal move.
    Refused(Refusal),
}

/// Why the server cannot read a move message that is valid JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The field (`from` or `to`) is missing or `null`.
    Missing(&'static str),
    /// The field's text is not a square name (kept shortened, as shown).
    NotASquare {
        /// `from` or `to`.
        key: &'static str,
        /// The text, shortened.
        text: String,
    },
    /// The field is JSON other than a string.
    NotAString {
        /// `from` or `to`.
        key: &'static str,
        /// The value as JSON.
        value: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Missing(key) => write!(f, "the move has no \"{key}\""),
            Refusal::NotASquare { key, text } => {
                write!(f, "\"{key}\": '{text}' is not a square")
            }
            Refusal::NotAString { key, value } => {
                write!(f, "\"{key}\" is {value}, not a square name")
            }
        }
    }
}

/// Parses a move message as the server does: the `turn` field is ignored, square names may be
/// upper case. `Err` is text that is not a JSON object at all (which crashes the real server).
pub fn parse_move(text: &str) -> Result<MoveMessage, WireError> {
    let value: Value = serde_json::from_str(text).map_err(|e| WireError::NotJson {
        what: "move",
        reason: e.to_string(),
        text: excerpt(text),
    })?;
    let Some(object) = value.as_object() else {
        return Err(WireError::NotAnObject {
            what: "move",
            text: excerpt(text),
        });
    };
    let square = |key: &'static str| -> Result<Square, Refusal> {
        match object.get(key) {
            None | Some(Value::Null) => Err(Refusal::Missing(key)),
            Some(Value::String(s)) => s.parse::<Square>().map_err(|_| Refusal::NotASquare {
                key,
                text: excerpt(s),
            }),
            Some(other) => Err(Refusal::NotAString {
                key,
                value: other.to_string(),
            }),
        }
    };
    Ok(match (square("from"), square("to")) {
        (Ok(from), Ok(to)) => MoveMessage::Move(from, to),
        (Err(e), _) | (_, Err(e)) => MoveMessage::Refused(e),
    })
}

/// The name message: a JSON string.
pub fn name_json(name: &str) -> String {
    serde_json::to_string(name).expect("a name is plain text")
}

/// Reads a name message as the server does: a JSON string (other JSON values are taken as
/// their text), of which the letters and digits among the first 10 characters are kept. Like
/// the server's lenient Gson, a bare word without quotes (`Player1`) is read as a string too.
pub fn parse_name(text: &str) -> Result<String, WireError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(_) if is_bare_word(text.trim()) => Value::String(text.trim().to_string()),
        Err(e) => {
            return Err(WireError::NotJson {
                what: "name",
                reason: e.to_string(),
                text: excerpt(text),
            });
        }
    };
    let raw = match value {
        Value::String(s) => s,
        Value::Null => return Err(WireError::NullName),
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

    /// The server's opening state (written out by hand from the server's rules: rank 1 first).
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

    /// The state as it was written before serde's derive: a `json!` value, keys in order.
    fn state_json_by_hand(state: &State) -> String {
        let rows: Vec<Vec<&str>> = state
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.as_str()).collect())
            .collect();
        serde_json::json!({ "board": rows, "turn": state.turn.as_str() }).to_string()
    }

    /// The move as it was written before serde's derive.
    fn move_json_by_hand(mv: Move, side: Side) -> String {
        serde_json::json!({
            "from": mv.from().to_string(),
            "to": mv.to().to_string(),
            "turn": colour_name(side),
        })
        .to_string()
    }

    #[test]
    fn states_and_moves_are_written_byte_for_byte_as_before() {
        let rules = Rules::ashton();
        let mut seed = 7u64;
        let mut checked = 0;
        for _ in 0..20 {
            let mut board = Board::start(&rules);
            for _ in 0..120 {
                for turn in Turn::ALL {
                    let state = State::from_board(&board, turn, Some(sq("c3")));
                    assert_eq!(state.to_json(), state_json_by_hand(&state));
                    checked += 1;
                }
                let moves = board.legal_moves(&rules);
                if moves.is_empty() || board.status(&rules).is_over() {
                    break;
                }
                let mv = moves
                    [(konakis_core::zobrist::splitmix64(&mut seed) % moves.len() as u64) as usize];
                for side in [Side::Attackers, Side::Defenders] {
                    assert_eq!(move_json(mv, side), move_json_by_hand(mv, side));
                }
                board.play(&rules, mv);
            }
        }
        assert!(checked > 1000, "{checked}");
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
        assert!(e.to_string().contains("THRONE on a1"), "{e}");
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
            assert!(e.to_string().contains(want), "{text}: {e}");
        }
        let short_row = START_JSON.replacen("[\"EMPTY\",", "[", 1);
        assert!(
            State::parse(&short_row)
                .unwrap_err()
                .to_string()
                .contains("8 cells")
        );
        let bad_cell = START_JSON.replacen("\"KING\"", "\"QUEEN\"", 1);
        assert!(
            State::parse(&bad_cell)
                .unwrap_err()
                .to_string()
                .contains("e5 holds \"QUEEN\"")
        );
        let no_king = START_JSON.replacen("\"KING\"", "\"THRONE\"", 1);
        let state = State::parse(&no_king).unwrap();
        assert!(
            state
                .to_board(Side::Defenders, 0)
                .unwrap_err()
                .to_string()
                .contains("no king")
        );
    }

    /// Each defect of a state that is JSON has its own typed error, in the order the parts are
    /// read: the object, the turn, the board, its rows, its cells.
    #[test]
    fn each_malformed_state_has_its_typed_error() {
        let row = r#"["EMPTY","EMPTY","EMPTY","EMPTY","EMPTY","EMPTY","EMPTY","EMPTY","EMPTY"]"#;
        let rows = |n: usize| vec![row; n].join(",");
        let cases = [
            (
                "\"WHITE\"".to_string(),
                WireError::NotAnObject {
                    what: "state",
                    text: "\\\"WHITE\\\"".into(),
                },
            ),
            (
                format!(r#"{{"board":[{}],"turn":null}}"#, rows(9)),
                WireError::TurnNotString,
            ),
            (
                format!(r#"{{"board":[{}],"turn":7}}"#, rows(9)),
                WireError::TurnNotString,
            ),
            (
                r#"{"board":"none","turn":"BLACKWIN"}"#.to_string(),
                WireError::NoBoard,
            ),
            (
                r#"{"board":null,"turn":"DRAW"}"#.to_string(),
                WireError::NoBoard,
            ),
            (
                format!(r#"{{"board":[{}],"turn":"BLACK"}}"#, rows(10)),
                WireError::RowCount(10),
            ),
            (
                format!(r#"{{"board":[{},{{}}],"turn":"BLACK"}}"#, rows(8)),
                WireError::RowNotArray(8),
            ),
            (
                format!(r#"{{"turn":"WHITE","board":[[1],{}]}}"#, rows(8)),
                WireError::RowLength { row: 0, cells: 1 },
            ),
            (
                format!(
                    r#"{{"turn":"WHITE","board":[{},["EMPTY",null{}]]}}"#,
                    rows(8),
                    r#","EMPTY""#.repeat(7)
                ),
                WireError::BadCell {
                    square: sq("b9"),
                    cell: "null".into(),
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(State::parse(&text), Err(want), "{text}");
        }
        // Keys other than board and turn are ignored; the last of a key given twice counts.
        let extra = START_JSON.replacen('{', r#"{"turn":"BLACK","note":[1],"#, 1);
        assert_eq!(State::parse(&extra).unwrap().turn, Turn::White);
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
