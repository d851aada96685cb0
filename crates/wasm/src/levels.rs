//! The strength levels' calibrated curve (`konakis_engine::skill::curve`, docs/levels.md) for
//! a front-end's level picker: each `Skill Level`'s Elo, so that a board shows the engine's
//! own figures and follows a new calibration without edits of its own.

use konakis_engine::skill::{self, FULL_STRENGTH};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The levels as JSON text: `{"full": 20, "elo": [min, max], "levels": [{"level": 0,
/// "elo": 0}, ...]}`, every level from 0 to full strength, the Elo rounded to a whole number
/// (the scale of docs/levels.md; `elo` is the `UCI_Elo` range).
pub fn levels_json() -> String {
    let curve = skill::curve();
    let (lo, hi) = curve.elo_range();
    let levels: Vec<_> = curve
        .points
        .iter()
        .map(|&(level, elo)| json!({"level": level, "elo": elo.round() as i64}))
        .collect();
    json!({"full": FULL_STRENGTH, "elo": [lo, hi], "levels": levels}).to_string()
}

/// The strength levels and their Elo as JSON text (see [`levels_json`]).
#[wasm_bindgen(js_name = levelsJson)]
pub fn levels_json_js() -> String {
    levels_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_listed_with_a_rising_elo() {
        let v: serde_json::Value = serde_json::from_str(&levels_json()).unwrap();
        let levels = v["levels"].as_array().unwrap();
        assert_eq!(levels.len(), usize::from(FULL_STRENGTH) + 1);
        assert_eq!(v["full"], u64::from(FULL_STRENGTH));
        for (i, l) in levels.iter().enumerate() {
            assert_eq!(l["level"], i as u64);
        }
        let elos: Vec<i64> = levels.iter().map(|l| l["elo"].as_i64().unwrap()).collect();
        assert!(elos.windows(2).all(|w| w[0] <= w[1]), "{elos:?}");
    }
}
