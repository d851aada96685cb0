//! The review of games as JSON: the one writer behind `konakis analyse --json` and the browser
//! package's `analyseGame` (the fields are described in docs/review.md).

use crate::opentafl::notation::{self, full_move};
use crate::opentafl::rules_string::{StartKey, format_rules_of, game_name};
use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::{Rules, VARIANTS};
use konakis_engine::review::{Review, ReviewConfig};
use serde_json::{Map, Value, json};

/// One reviewed game.
#[derive(Clone, Copy, Debug)]
pub struct ReviewedGame<'a, G: Geometry = Nine> {
    /// A name for the game (its file, say), written as `label` when there is one.
    pub label: Option<&'a str>,
    /// The rules it was played under.
    pub rules: &'a Rules,
    /// Its start position.
    pub start: &'a BoardOf<G>,
    /// The position before each move and after the last (as `review::positions` makes them).
    pub positions: &'a [GameOf<G>],
    /// Its review.
    pub review: &'a Review<G>,
}

/// The review of `games` under `config` as JSON text: `{limits, thresholds, games: [{game,
/// label?, rules, start, status, ending, notation, review}]}`, indented when `pretty`.
pub fn review_json<G: Geometry>(
    games: &[ReviewedGame<G>],
    config: &ReviewConfig<G>,
    pretty: bool,
) -> String {
    let games: Vec<Value> = games
        .iter()
        .enumerate()
        .map(|(k, g)| game_json(k + 1, g))
        .collect();
    let limits = &config.limits;
    let out = json!({
        "limits": {"depth": limits.depth, "nodes": limits.nodes, "movetime": limits.movetime},
        "thresholds": config.thresholds,
        "games": games,
    });
    if pretty {
        serde_json::to_string_pretty(&out).expect("a JSON value serializes")
    } else {
        out.to_string()
    }
}

/// The rules of a reviewed game in words: every rule option as `Name=Value` under Tablut's
/// rules; under the tafl family's, whose settings the options do not all name,
/// `UCI_Variant=<id>` when they are a variant's of this board (as `konakis match` writes
/// them), else OpenTafl's rules string from `start`.
pub fn rules_text<G: Geometry>(rules: &Rules, start: &BoardOf<G>) -> String {
    if !rules.family_rules() {
        return rules.to_string();
    }
    let variant = VARIANTS
        .iter()
        .find(|v| v.size.side() == G::SIDE && v.rules() == *rules);
    match variant {
        Some(v) => format!("UCI_Variant={}", v.id),
        None => format_rules_of(rules, start, &game_name::<G>(None), StartKey::Start),
    }
}

fn game_json<G: Geometry>(number: usize, g: &ReviewedGame<G>) -> Value {
    let status = g
        .positions
        .last()
        .map_or(konakis_core::board::Status::Ongoing, GameOf::status);
    let notation: Vec<String> = g
        .review
        .moves
        .iter()
        .map(|m| {
            let before = &g.positions[m.number - 1];
            let mut board = *before.board();
            full_move(
                m.played,
                &notation::play(&mut board, before.rules(), m.played),
            )
        })
        .collect();
    let mut out = Map::new();
    out.insert("game".into(), json!(number));
    if let Some(label) = g.label {
        out.insert("label".into(), json!(label));
    }
    out.insert("rules".into(), json!(rules_text(g.rules, g.start)));
    out.insert("start".into(), json!(g.start.to_fen()));
    out.insert("status".into(), json!(status.to_string()));
    out.insert("ending".into(), json!(status.ending()));
    out.insert("notation".into(), json!(notation));
    out.insert("review".into(), json!(g.review));
    Value::Object(out)
}
