//! The rules API for a front-end's own board, synchronous: positions, legal moves, playing
//! with typed errors, the status with its reason, the king's open lines, the rule options and
//! presets, and OpenTafl records.
//!
//! These are the raw bindings; `web/package/rules.js` wraps them in the documented `Game`
//! class. [`state`] holds the logic in plain Rust. A failure reaches JavaScript as an `Error`
//! whose `kind` field names it (see [`state::ErrorKind`]) and whose message is the native
//! library's text; structured answers are JSON text that `rules.js` parses.

pub mod state;

use state::{ApiError, GameState};
use wasm_bindgen::prelude::*;

/// The JavaScript `Error` for `e`, with its `kind` field set.
fn js_error(e: ApiError) -> JsValue {
    let error = js_sys::Error::new(&e.message);
    // Setting a field on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"kind".into(), &e.kind.as_str().into());
    error.into()
}

/// The rule options of the engine's option table, as JSON (see `ruleOptions()` in rules.js).
#[wasm_bindgen(js_name = rulesOptionsJson)]
pub fn rules_options_json() -> String {
    state::rule_options_json()
}

/// The presets, as JSON (see `presets()` in rules.js).
#[wasm_bindgen(js_name = rulesPresetsJson)]
pub fn rules_presets_json() -> String {
    state::presets_json()
}

/// A game for the rules API (the `Game` class of rules.js wraps it).
#[wasm_bindgen]
pub struct RulesGame(GameState);

#[wasm_bindgen]
impl RulesGame {
    /// A game under the preset `preset`, or else under the default rules with the options
    /// `names[i] = values[i]` set in turn, from `position` or the start position.
    #[wasm_bindgen(constructor)]
    pub fn new(
        preset: Option<String>,
        names: Vec<String>,
        values: Vec<String>,
        position: Option<String>,
    ) -> Result<RulesGame, JsValue> {
        let rules = match preset {
            Some(id) => state::preset_rules(&id),
            None => state::rules_from_pairs(
                names
                    .iter()
                    .map(String::as_str)
                    .zip(values.iter().map(String::as_str)),
            ),
        }
        .map_err(js_error)?;
        GameState::new(rules, position.as_deref())
            .map(RulesGame)
            .map_err(js_error)
    }

    /// The first game of an OpenTafl `.otg` record.
    #[wasm_bindgen(js_name = fromOtg)]
    pub fn from_otg(text: &str) -> Result<RulesGame, JsValue> {
        GameState::from_otg(text).map(RulesGame).map_err(js_error)
    }

    /// Every rule option's value, as a JSON object.
    #[wasm_bindgen(js_name = rulesJson)]
    pub fn rules_json(&self) -> String {
        self.0.rules_json()
    }

    /// The current position string.
    pub fn position(&self) -> String {
        self.0.position()
    }

    /// The position string the game started from.
    pub fn start(&self) -> String {
        self.0.start()
    }

    /// `attackers` or `defenders`.
    #[wasm_bindgen(js_name = sideToMove)]
    pub fn side_to_move(&self) -> String {
        self.0.side_to_move().to_string()
    }

    /// The position's ply count.
    pub fn plies(&self) -> u32 {
        self.0.plies()
    }

    /// The placement as 81 letters, a1 b1 ... i9: `a` attacker, `d` defender, `k` king, `.`
    /// empty (one string crosses to JavaScript faster than an object).
    pub fn placement(&self) -> String {
        self.0.placement()
    }

    /// The king's square, if he is on the board.
    #[wasm_bindgen(js_name = kingSquare)]
    pub fn king_square(&self) -> Option<String> {
        self.0.king_square()
    }

    /// The throne, camps and corners, as JSON.
    #[wasm_bindgen(js_name = specialJson)]
    pub fn special_json(&self) -> String {
        self.0.special_json()
    }

    /// The legal moves, all or from one square, separated by spaces (one string crosses to
    /// JavaScript faster than an array of them).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self, from: Option<String>) -> Result<String, JsValue> {
        let moves = self.0.legal_moves(from.as_deref()).map_err(js_error)?;
        Ok(moves.join(" "))
    }

    /// Plays a move; returns the captured squares.
    pub fn play(&mut self, mv: &str) -> Result<Vec<String>, JsValue> {
        self.0.play(mv).map_err(js_error)
    }

    /// Takes the last move back and returns it.
    pub fn undo(&mut self) -> Option<String> {
        self.0.undo()
    }

    /// The moves played since the start, separated by spaces.
    pub fn moves(&self) -> String {
        self.0.moves().join(" ")
    }

    /// The status, as JSON.
    #[wasm_bindgen(js_name = statusJson)]
    pub fn status_json(&self) -> String {
        self.0.status_json()
    }

    /// The number of clear lines from the king to the edge.
    #[wasm_bindgen(js_name = kingOpenLines)]
    pub fn king_open_lines(&self) -> u32 {
        self.0.king_open_lines()
    }

    /// The game as an OpenTafl record, with the tags `names[i] = values[i]`.
    pub fn otg(&self, names: Vec<String>, values: Vec<String>) -> Result<String, JsValue> {
        let tags: Vec<(&str, &str)> = names
            .iter()
            .map(String::as_str)
            .zip(values.iter().map(String::as_str))
            .collect();
        self.0.otg(&tags).map_err(js_error)
    }
}
