//! The review of every move (`konakis analyse`'s, from `konakis_engine::review`) for the
//! browser: [`analyse_game`] takes a request as JSON and answers the review as JSON, the same
//! fields as `konakis analyse --json` (docs/review.md). It searches on the calling thread (the
//! package's worker), one position after another, reporting progress through a callback and
//! asking a poll function now and then whether to stop, as a `go` in the session does.
//!
//! [`analyse`] is the same in plain Rust, for native tests.

use crate::rules::state::{preset_rules, rules_from_pairs};
use js_sys::Function;
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::Move;
use konakis_engine::Engine;
use konakis_engine::options::Options;
use konakis_engine::review::{self, ReviewConfig, ReviewError, Thresholds};
use konakis_engine::search::{Cancel, Limits, Settings, Signal};
use konakis_protocols::opentafl::notation;
use konakis_protocols::opentafl::otg::{parse_otg, replay};
use konakis_protocols::review::{ReviewedGame, review_json};
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;
use wasm_bindgen::prelude::*;

/// The time per position when the request gives no limit, in milliseconds (as the command's).
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// Why a review could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyseError {
    /// The request is no JSON object, or a field has the wrong type or value.
    Request(String),
    /// The rules, the position, a move or the record is bad (the rules API's message).
    Game(String),
    /// The search failed or was stopped.
    Review(ReviewError),
}

impl fmt::Display for AnalyseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyseError::Request(m) => write!(f, "bad request: {m}"),
            AnalyseError::Game(m) => f.write_str(m),
            AnalyseError::Review(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnalyseError {}

fn bad(message: impl Into<String>) -> AnalyseError {
    AnalyseError::Request(message.into())
}

/// One game of a request.
struct Input {
    rules: Rules,
    start: Board,
    moves: Vec<Move>,
}

/// The games of a request: every game of `otg`, or the one of `position`, `moves`, `rules`
/// (or `preset`).
fn games(request: &Value) -> Result<Vec<Input>, AnalyseError> {
    if let Some(text) = request.get("otg") {
        let text = text.as_str().ok_or_else(|| bad("otg must be a string"))?;
        let records = parse_otg(text).map_err(|e| AnalyseError::Game(e.to_string()))?;
        if records.is_empty() {
            return Err(AnalyseError::Game("the record holds no game".into()));
        }
        let count = records.len();
        return records
            .iter()
            .enumerate()
            .map(|(i, record)| {
                let r = replay(record).map_err(|e| {
                    AnalyseError::Game(if count > 1 {
                        format!("game {} of {count}: {e}", i + 1)
                    } else {
                        e.to_string()
                    })
                })?;
                Ok(Input {
                    rules: r.rules,
                    start: r.start,
                    moves: r.game.moves().to_vec(),
                })
            })
            .collect();
    }
    let rules = match (request.get("preset"), request.get("rules")) {
        (Some(p), _) => preset_rules(p.as_str().ok_or_else(|| bad("preset must be a string"))?)
            .map_err(|e| AnalyseError::Game(e.message))?,
        (None, Some(Value::Object(pairs))) => {
            let mut texts = Vec::with_capacity(pairs.len());
            for (name, value) in pairs {
                let value = match value {
                    Value::String(s) => s.clone(),
                    Value::Bool(_) | Value::Number(_) => value.to_string(),
                    _ => return Err(bad(format!("rules.{name} must be a string"))),
                };
                texts.push((name.as_str(), value));
            }
            rules_from_pairs(texts.iter().map(|(n, v)| (*n, v.as_str())))
                .map_err(|e| AnalyseError::Game(e.message))?
        }
        (None, Some(_)) => return Err(bad("rules must be an object of names and values")),
        (None, None) => Rules::default(),
    };
    let start = match request.get("position").map(Value::as_str) {
        None | Some(Some("startpos")) => Board::start(&rules),
        Some(Some(fen)) => Board::from_fen(fen).map_err(|e| AnalyseError::Game(e.to_string()))?,
        Some(None) => return Err(bad("position must be a string")),
    };
    let texts: Vec<&str> = match request.get("moves") {
        None => Vec::new(),
        Some(Value::String(s)) => s.split_whitespace().collect(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|m| m.as_str().ok_or_else(|| bad("moves must be strings")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(bad("moves must be a list or a string")),
    };
    let moves = texts
        .iter()
        .enumerate()
        .map(|(i, text)| match Move::parse(text) {
            Ok(mv) => Ok(mv),
            Err(e) => notation::parse_move(text)
                .map(|m| m.mv)
                .map_err(|_| AnalyseError::Game(format!("move {} ({text}): {e}", i + 1))),
        })
        .collect::<Result<_, _>>()?;
    Ok(vec![Input {
        rules,
        start,
        moves,
    }])
}

/// A whole number field of the request, if present.
fn number(request: &Value, key: &str) -> Result<Option<u64>, AnalyseError> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|&n| n > 0)
            .map(Some)
            .ok_or_else(|| bad(format!("{key} must be a whole number above 0"))),
    }
}

/// The review's config from the request's `depth`, `nodes` or `movetime` (one of them; 100 ms
/// without any) and `thresholds` (`[inaccuracy, mistake, blunder]`).
fn config(request: &Value) -> Result<ReviewConfig, AnalyseError> {
    let depth = number(request, "depth")?;
    let nodes = number(request, "nodes")?;
    let movetime = number(request, "movetime")?;
    let given = [depth, nodes, movetime].iter().flatten().count();
    if given > 1 {
        return Err(bad("give one of depth, nodes and movetime"));
    }
    let limits = Limits {
        depth: depth.map(|d| d.min(64) as u32),
        nodes,
        movetime: if given == 0 {
            Some(DEFAULT_MOVETIME_MS)
        } else {
            movetime
        },
        ..Limits::default()
    };
    let thresholds = match request.get("thresholds") {
        None | Some(Value::Null) => Thresholds::default(),
        Some(v) => {
            let t: Vec<f64> = v
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            match t[..] {
                [inaccuracy, mistake, blunder]
                    if 0.0 < inaccuracy && inaccuracy <= mistake && mistake <= blunder =>
                {
                    Thresholds {
                        inaccuracy,
                        mistake,
                        blunder,
                    }
                }
                _ => return Err(bad("thresholds must be three rising numbers above 0")),
            }
        }
    };
    Ok(ReviewConfig {
        limits,
        thresholds,
        ..ReviewConfig::default()
    })
}

/// Reviews the games of `request` (JSON, see the package README) and answers the review as
/// JSON text: `{limits, thresholds, games: [{game, rules, start, status, ending, notation,
/// review}]}`. `progress(done, total)` is called after each position; the searches stop when
/// `cancel` says so, and the review is then [`ReviewError::Cancelled`].
pub fn analyse(
    request: &str,
    progress: impl FnMut(usize, usize),
    cancel: Cancel,
) -> Result<String, AnalyseError> {
    let request: Value =
        serde_json::from_str(request).map_err(|e| bad(format!("not JSON: {e}")))?;
    if !request.is_object() {
        return Err(bad("the request must be an object"));
    }
    let config = config(&request)?;
    let inputs = games(&request)?;
    let mut positions = Vec::with_capacity(inputs.len());
    for input in &inputs {
        positions.push(
            review::positions(input.rules, input.start, &input.moves)
                .map_err(|e| AnalyseError::Game(e.to_string()))?,
        );
    }
    let mut engine = Engine::new(Options {
        settings: Settings {
            move_overhead_ms: 0,
            ..Settings::default()
        },
        ..Options::default()
    })
    .map_err(|e| AnalyseError::Review(ReviewError::Search(e)))?;
    let reviews = engine
        .review(&positions, &config, cancel, progress)
        .map_err(AnalyseError::Review)?;
    let reviewed: Vec<ReviewedGame> = inputs
        .iter()
        .zip(&positions)
        .zip(&reviews)
        .map(|((input, games), r)| ReviewedGame {
            label: None,
            rules: &input.rules,
            start: &input.start,
            positions: games,
            review: r,
        })
        .collect();
    Ok(review_json(&reviewed, &config, false))
}

thread_local! {
    /// The poll function of the review running now.
    static POLL: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// What the poll function's return value means: 1 stop, anything else go on.
fn poll() -> Signal {
    let poll = POLL.with(|p| p.borrow().clone());
    match poll.and_then(|p| p.call0(&JsValue::NULL).ok()?.as_f64()) {
        Some(1.0) => Signal::Stop,
        _ => Signal::Continue,
    }
}

/// Reviews every move of a game: `request` is JSON (`{otg}` or `{position, moves, rules |
/// preset}`, with `depth`, `nodes` or `movetime` and `thresholds`; see the package README),
/// the answer JSON text (docs/review.md). `progress(done, total)` is called after each
/// position; `poll()` is asked every thousand nodes or so and stops the review when it
/// returns 1. Throws an `Error` with the message on a bad request, game or search.
#[wasm_bindgen(js_name = analyseGame)]
pub fn analyse_game(
    request: &str,
    progress: Option<Function>,
    poll_fn: Option<Function>,
) -> Result<String, JsError> {
    let outer = POLL.with(|p| p.replace(poll_fn));
    let answer = analyse(
        request,
        |done, total| {
            if let Some(f) = &progress {
                // A callback that throws loses its report, not the review.
                let _ = f.call2(
                    &JsValue::NULL,
                    &JsValue::from(done as u32),
                    &JsValue::from(total as u32),
                );
            }
        },
        Cancel::Poll(poll),
    );
    POLL.with(|p| *p.borrow_mut() = outer);
    answer.map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_with_moves_is_reviewed_with_progress() {
        let mut seen = Vec::new();
        let text = analyse(
            r#"{"position": "9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0", "moves": ["b8b9"], "depth": 4}"#,
            |d, t| seen.push((d, t)),
            Cancel::Never,
        )
        .unwrap();
        assert_eq!(seen, [(1, 2), (2, 2)]);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["limits"]["depth"], 4);
        let m = &v["games"][0]["review"]["moves"][0];
        assert_eq!(m["verdict"], "missed-win");
        assert_eq!(m["before"]["mate"], 1);
        assert_eq!(v["games"][0]["notation"][0], "b8-b9");
    }

    #[test]
    fn a_record_is_reviewed_game_by_game() {
        let rules = Rules::default();
        let start = Board::start(&rules);
        let moves = [Move::parse("d1d3").unwrap(), Move::parse("e4d4").unwrap()];
        let tags = [konakis_protocols::opentafl::otg::Tag::Rules];
        let otg = konakis_protocols::opentafl::otg::write_record(&start, &rules, &moves, &tags);
        let request = json!({"otg": otg, "nodes": 2000}).to_string();
        let v: Value =
            serde_json::from_str(&analyse(&request, |_, _| {}, Cancel::Never).unwrap()).unwrap();
        assert_eq!(
            v["games"][0]["review"]["moves"].as_array().unwrap().len(),
            2
        );
        assert_eq!(v["games"][0]["review"]["defenders"]["moves"], 1);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let err = |r: &str| {
            analyse(r, |_, _| {}, Cancel::Never)
                .unwrap_err()
                .to_string()
        };
        assert!(err("[1]").contains("must be an object"));
        assert!(err(r#"{"depth": 3, "movetime": 10}"#).contains("one of depth"));
        assert!(err(r#"{"moves": "d1d3 e5e9", "depth": 1}"#).contains("move 2"));
        assert!(err(r#"{"rules": {"KingCapture": "Nope"}}"#).contains("KingCapture"));
        assert!(err(r#"{"thresholds": [10, 5, 15]}"#).contains("thresholds"));
    }

    #[test]
    fn a_stopped_review_is_cancelled() {
        let stop = std::sync::atomic::AtomicBool::new(true);
        let e = analyse(
            r#"{"moves": "d1d3", "depth": 30}"#,
            |_, _| {},
            Cancel::Flag(&stop),
        )
        .unwrap_err();
        assert_eq!(e, AnalyseError::Review(ReviewError::Cancelled));
    }
}
