//! The rules API in plain Rust: a game a front-end plays move by move, and the errors it
//! throws, with no JavaScript types, so that native tests cover everything but the bindings.
//!
//! Structured answers (the status, the pieces, the option table, the presets) are JSON text,
//! which the JavaScript layer parses once; every text that leaves here is ASCII.

use konakis_core::Bitboard;
use konakis_core::board::{Board, Game, GameError, MoveError, Status};
use konakis_core::rules::{PRESETS, Preset, Rules, RulesError};
use konakis_core::types::{Move, Piece, Side, Square};
use konakis_engine::options::{self, Kind, Options};
use konakis_protocols::opentafl::otg::{parse_otg, replay, write_game_record};
use konakis_protocols::text;
use serde_json::{Map, Value, json};
use std::fmt;

/// What went wrong, as the JavaScript `KonakisError.kind` names it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// Text that is not a move or not a square (`MoveParseError`, `SquareParseError`).
    MoveSyntax,
    /// A well-formed move the position does not allow (`IllegalMove`).
    IllegalMove,
    /// A bad position string (`PositionError`).
    Position,
    /// An unknown preset or rule option, or a value it does not allow (`RulesError`).
    Rules,
    /// A move after the end of the game.
    GameOver,
    /// An OpenTafl record that cannot be read or written.
    Record,
}

impl ErrorKind {
    /// The kind as JavaScript spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::MoveSyntax => "move-syntax",
            ErrorKind::IllegalMove => "illegal-move",
            ErrorKind::Position => "position",
            ErrorKind::Rules => "rules",
            ErrorKind::GameOver => "game-over",
            ErrorKind::Record => "record",
        }
    }
}

/// An error of the API: its kind and the native library's message (ASCII).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ApiError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The native library's `Display` text, with anything not printable ASCII escaped.
    pub message: String,
}

impl ApiError {
    fn new(kind: ErrorKind, error: impl fmt::Display) -> ApiError {
        ApiError {
            kind,
            message: text::bounded_line(&error.to_string(), usize::MAX),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.as_str(), self.message)
    }
}

impl std::error::Error for ApiError {}

/// The rules of a preset by its identifier (see [`PRESETS`]).
pub fn preset_rules(id: &str) -> Result<Rules, ApiError> {
    Preset::find(id).map(Preset::rules).ok_or_else(|| {
        let ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        ApiError::new(
            ErrorKind::Rules,
            format_args!(
                "unknown preset '{}' (presets: {})",
                text::quote(id),
                ids.join(", ")
            ),
        )
    })
}

/// The default rules with each `(name, value)` set in turn through the engine's option table
/// (so the messages are those of `setoption`); only rule options are accepted.
pub fn rules_from_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Rules, ApiError> {
    let mut config = Options::default();
    for (name, value) in pairs {
        if !options::find(name).is_some_and(|row| row.is_rule()) {
            let e = RulesError::UnknownOption(text::quote(name));
            return Err(ApiError::new(ErrorKind::Rules, e));
        }
        match options::apply(&config, name, Some(value)) {
            Ok(options::Change::Options(c)) => config = c,
            // Only rule options get here.
            Ok(
                options::Change::ClearHash
                | options::Change::EvalFile(_)
                | options::Change::Variant(_)
                | options::Change::VariantFile(_),
            ) => {}
            Err(e) => return Err(ApiError::new(ErrorKind::Rules, e)),
        }
    }
    Ok(config.rules)
}

/// Every rule option of the engine's option table, as JSON: `[{name, kind, values?, min?,
/// max?, default, description}]`.
pub fn rule_options_json() -> String {
    let rows: Vec<Value> = options::table()
        .iter()
        .filter(|row| row.is_rule())
        .map(|row| {
            let mut o = Map::new();
            o.insert("name".into(), json!(row.name));
            match row.kind {
                Kind::Check { default } => {
                    o.insert("kind".into(), json!("bool"));
                    o.insert("default".into(), json!(default.to_string()));
                }
                Kind::Spin { default, min, max } => {
                    o.insert("kind".into(), json!("number"));
                    o.insert("min".into(), json!(min));
                    o.insert("max".into(), json!(max));
                    o.insert("default".into(), json!(default.to_string()));
                }
                Kind::Combo { default, values } => {
                    o.insert("kind".into(), json!("choice"));
                    o.insert("values".into(), json!(values));
                    o.insert("default".into(), json!(default));
                }
                Kind::Button | Kind::Text { .. } => {
                    unreachable!("no rule option is a button or text")
                }
            }
            o.insert("description".into(), json!(row.help));
            Value::Object(o)
        })
        .collect();
    Value::Array(rows).to_string()
}

/// Every preset as JSON: `[{id, name, description, options: {name: value}}]`, the options in
/// the order they are applied.
pub fn presets_json() -> String {
    let rows: Vec<Value> = PRESETS
        .iter()
        .map(|p| {
            let options: Map<String, Value> = p
                .options()
                .into_iter()
                .map(|(n, v)| (n.to_string(), json!(v)))
                .collect();
            json!({
                "id": p.id,
                "name": p.name,
                "description": p.description,
                "options": options,
            })
        })
        .collect();
    Value::Array(rows).to_string()
}

fn side_name(side: Side) -> &'static str {
    side.name()
}

fn squares(b: Bitboard) -> Vec<String> {
    b.map(|sq| sq.to_string()).collect()
}

/// A game a front-end plays: the rules, the start and the moves, with the core's referee.
#[derive(Clone, Debug)]
pub struct GameState {
    game: Game,
}

impl GameState {
    /// A game under `rules` from the position string `position`, or from the start position.
    pub fn new(rules: Rules, position: Option<&str>) -> Result<GameState, ApiError> {
        let board = match position {
            None => Board::start(&rules),
            Some(text) => {
                Board::from_fen(text).map_err(|e| ApiError::new(ErrorKind::Position, e))?
            }
        };
        Ok(GameState {
            game: Game::new(rules, board),
        })
    }

    /// The first game of an OpenTafl record, replayed by the referee.
    pub fn from_otg(text: &str) -> Result<GameState, ApiError> {
        let records = parse_otg(text).map_err(|e| ApiError::new(ErrorKind::Record, e))?;
        let record = records.first().ok_or_else(|| {
            ApiError::new(ErrorKind::Record, "the text holds no OpenTafl game record")
        })?;
        let replayed = replay(record).map_err(|e| ApiError::new(ErrorKind::Record, e))?;
        Ok(GameState {
            game: replayed.game,
        })
    }

    /// The core game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Every rule option's value, as a JSON object in table order.
    pub fn rules_json(&self) -> String {
        let rules = self.game.rules();
        let values: Map<String, Value> = Rules::OPTIONS
            .iter()
            .map(|o| {
                (
                    o.name.to_string(),
                    json!(rules.get(o.name).unwrap_or_default()),
                )
            })
            .collect();
        Value::Object(values).to_string()
    }

    /// The current position string.
    pub fn position(&self) -> String {
        self.game.board().to_fen()
    }

    /// The position string the game started from.
    pub fn start(&self) -> String {
        self.game.start_board().to_fen()
    }

    /// `attackers` or `defenders`.
    pub fn side_to_move(&self) -> &'static str {
        side_name(self.game.board().side_to_move())
    }

    /// The position's ply count (that of the start plus the moves played).
    pub fn plies(&self) -> u32 {
        self.game.board().plies()
    }

    /// The placement as 81 letters in square order (a1, b1, ... i9): `a` attacker,
    /// `d` defender, `k` king, `.` empty.
    pub fn placement(&self) -> String {
        let board = self.game.board();
        Square::all()
            .map(|sq| match board.piece_at(sq) {
                None => '.',
                Some(Piece::Attacker) => 'a',
                Some(Piece::Defender) => 'd',
                Some(Piece::King) => 'k',
            })
            .collect()
    }

    /// The king's square, if he is on the board.
    pub fn king_square(&self) -> Option<String> {
        self.game.board().king().map(|sq| sq.to_string())
    }

    /// The special squares as JSON: the throne, the camps (under Ashton) and the corners
    /// (none: Tablut's king escapes to any edge square).
    pub fn special_json(&self) -> String {
        json!({
            "throne": Square::THRONE.to_string(),
            "camps": squares(self.game.rules().camps()),
            "corners": [],
        })
        .to_string()
    }

    /// The legal moves, all or those from the square `from`; none once the game is over.
    pub fn legal_moves(&self, from: Option<&str>) -> Result<Vec<String>, ApiError> {
        let from: Option<Square> = from
            .map(|text| text.trim().parse())
            .transpose()
            .map_err(|e| ApiError::new(ErrorKind::MoveSyntax, e))?;
        if self.game.status().is_over() {
            return Ok(Vec::new());
        }
        let board = self.game.board();
        Ok(board
            .legal_moves(self.game.rules())
            .iter()
            .filter(|mv| from.is_none_or(|sq| mv.from() == sq))
            .map(|mv| mv.to_string())
            .collect())
    }

    /// Plays a move given as text and returns the squares of the pieces it captured (the
    /// king's included), in square order. On error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<Vec<String>, ApiError> {
        let before = *self.game.board();
        let victims = before.side_pieces(before.side_to_move().opponent());
        self.game.play_text(text.trim()).map_err(|e| match e {
            GameError::Move {
                error: MoveError::Parse(e),
                ..
            } => ApiError::new(ErrorKind::MoveSyntax, e),
            GameError::Move {
                error: MoveError::Illegal(e),
                ..
            } => ApiError::new(ErrorKind::IllegalMove, e),
            e @ GameError::Over(_) => ApiError::new(ErrorKind::GameOver, e),
            e => ApiError::new(ErrorKind::IllegalMove, e),
        })?;
        let after = self.game.board();
        Ok(squares(
            victims - after.side_pieces(before.side_to_move().opponent()),
        ))
    }

    /// Takes the last move back and returns it; `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        let (&last, earlier) = self.game.moves().split_last()?;
        let game = Game::with_moves(*self.game.rules(), *self.game.start_board(), earlier)
            .expect("the moves of a game replay in it");
        self.game = game;
        Some(last.to_string())
    }

    /// The moves played since the start, as text.
    pub fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The status as JSON: `{over, winner, reason, text}`.
    pub fn status_json(&self) -> String {
        let status = self.game.status();
        let winner = match status {
            Status::Win(side, _) => Some(side_name(side)),
            _ => None,
        };
        let reason = status.ending();
        json!({
            "over": status.is_over(),
            "winner": winner,
            "reason": reason,
            "text": status.to_string(),
        })
        .to_string()
    }

    /// The number of clear lines from the king to the edge: 1 raichi, 2 or more tuichu.
    pub fn king_open_lines(&self) -> u32 {
        self.game.board().king_open_lines()
    }

    /// The game as an OpenTafl record through the one record writer. `tags` come in order
    /// after `date`, `result` (when the game is over) and `compiler` (default `Konakis`);
    /// the tags the game writes itself (`otg::DERIVED_TAGS`) are refused, as are keys that are
    /// not words of letters, digits, `-` and `_`.
    pub fn otg(&self, tags: &[(&str, &str)]) -> Result<String, ApiError> {
        let text =
            write_game_record(&self.game, tags).map_err(|e| ApiError::new(ErrorKind::Record, e))?;
        Ok(ascii_record(&text))
    }
}

/// A record with any non-ASCII character of a tag value escaped, line breaks kept.
fn ascii_record(text: &str) -> String {
    text.split('\n')
        .map(|l| text::bounded_line(l, usize::MAX))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(r: Result<impl fmt::Debug, ApiError>) -> ErrorKind {
        r.unwrap_err().kind
    }

    #[test]
    fn errors_have_their_kind_and_the_native_message_and_change_nothing() {
        let mut g = GameState::new(Rules::default(), None).unwrap();
        g.play("d1d3").unwrap();
        let before = (g.position(), g.moves());
        let e = g.play("e5e6").unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalMove);
        assert_eq!(e.message, "e5e6 is not legal: e6 is occupied");
        assert_eq!(kind(g.play("e4")), ErrorKind::MoveSyntax);
        assert_eq!(kind(g.play("e4e4")), ErrorKind::MoveSyntax);
        assert_eq!(kind(g.legal_moves(Some("z9"))), ErrorKind::MoveSyntax);
        assert_eq!((g.position(), g.moves()), before);
        let e = GameState::new(Rules::default(), Some("9/9 b")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Position);
        assert!(!e.message.is_empty());
        assert_eq!(kind(preset_rules("salmi")), ErrorKind::Rules);
        assert_eq!(
            kind(rules_from_pairs([("KingCapture", "Salmi")])),
            ErrorKind::Rules
        );
        assert_eq!(kind(rules_from_pairs([("Hash", "16")])), ErrorKind::Rules);
        let e = rules_from_pairs([("KingCapture", "Salmi")]).unwrap_err();
        assert_eq!(
            e.message,
            "invalid value 'Salmi' for KingCapture (allowed: one of Original, English)"
        );
        let e = GameState::new(Rules::default(), Some("9/9/9/9/9/9/9/9/K7\u{e9} b")).unwrap_err();
        assert!(e.message.is_ascii(), "{}", e.message);
    }

    #[test]
    fn a_move_after_the_end_is_refused_as_game_over() {
        let mut g = GameState::new(Rules::default(), Some("9/9/9/9/9/9/9/1K7/b8 w")).unwrap();
        assert_eq!(g.play("b2a2").unwrap(), Vec::<String>::new());
        let status: Value = serde_json::from_str(&g.status_json()).unwrap();
        assert_eq!(status["reason"], "escape");
        assert_eq!(status["winner"], "defenders");
        assert!(g.legal_moves(None).unwrap().is_empty());
        assert_eq!(kind(g.play("a1b1")), ErrorKind::GameOver);
        assert_eq!(g.undo().as_deref(), Some("b2a2"));
        assert_eq!(g.position(), "9/9/9/9/9/9/9/1K7/b8 w 0");
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn captures_are_reported_by_square() {
        // The attacker from a1 to c1 takes the defender on d1 against e1.
        let mut g2 = GameState::new(Rules::default(), Some("9/9/9/9/4K4/9/9/9/b2wb4 b")).unwrap();
        assert_eq!(g2.play("a1c1").unwrap(), ["d1"]);
        assert_eq!(&g2.placement()[..5], "..a.a", "a1 b1 c1 d1 e1");
    }

    #[test]
    fn records_round_trip_and_refuse_derived_or_bad_tags() {
        for preset in PRESETS {
            let mut g = GameState::new(preset.rules(), None).unwrap();
            for _ in 0..12 {
                let Some(mv) = g.legal_moves(None).unwrap().last().cloned() else {
                    break;
                };
                g.play(&mv).unwrap();
            }
            let text = g
                .otg(&[("date", "2026.12.01"), ("event", "test [1] | two")])
                .unwrap();
            assert!(text.starts_with("[date:2026.12.01]\n"), "{text}");
            assert!(text.contains("[event:test (1) / two]\n"), "{text}");
            let back = GameState::from_otg(&text).unwrap();
            assert_eq!(back.moves(), g.moves(), "{}", preset.id);
            assert_eq!(back.game().rules(), g.game().rules(), "{}", preset.id);
            assert_eq!(back.position(), g.position());
        }
        let g = GameState::new(Rules::default(), None).unwrap();
        assert_eq!(kind(g.otg(&[("rules", "x")])), ErrorKind::Record);
        assert_eq!(kind(g.otg(&[("a b", "x")])), ErrorKind::Record);
        assert_eq!(kind(GameState::from_otg("")), ErrorKind::Record);
        assert_eq!(
            kind(GameState::from_otg("[date:x]\n\n1. zz")),
            ErrorKind::Record
        );
    }

    #[test]
    fn the_tables_are_ascii_json_from_the_engine_table_and_the_presets() {
        let options: Value = serde_json::from_str(&rule_options_json()).unwrap();
        let names: Vec<&str> = options
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = Rules::OPTIONS.iter().map(|o| o.name).collect();
        assert_eq!(names, want);
        assert_eq!(options[0]["kind"], "choice");
        assert_eq!(options[0]["default"], "Linnaeus");
        assert!(rule_options_json().is_ascii() && presets_json().is_ascii());
        assert!(
            presets_json().contains("\"options\":{\"KingCapture\":\"English\",\"FirstMove\""),
            "the options keep table order: {}",
            presets_json()
        );
        let presets: Value = serde_json::from_str(&presets_json()).unwrap();
        assert_eq!(presets[4]["options"]["Ruleset"], "Ashton");
        let g = GameState::new(preset_rules("ashton").unwrap(), None).unwrap();
        let special: Value = serde_json::from_str(&g.special_json()).unwrap();
        assert_eq!(special["camps"].as_array().unwrap().len(), 16);
        assert_eq!(special["throne"], "e5");
        assert_eq!(g.side_to_move(), "defenders");
    }
}
