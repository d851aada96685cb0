//! PLACEHOLDER until the helper's evaluation lands (material only).
use konakis_core::board::BoardOf;
use konakis_core::geometry::Geometry;
use konakis_core::rules::Rules;
use konakis_core::types::Side;

/// Placeholder.
pub fn evaluate_family<G: Geometry>(board: &BoardOf<G>, _rules: &Rules) -> i32 {
    let s = 100 * board.attackers().len() as i32 - 170 * board.defenders().len() as i32;
    if board.side_to_move() == Side::Attackers {
        s
    } else {
        -s
    }
}
/// Placeholder.
pub fn family_breakdown<G: Geometry>(
    board: &BoardOf<G>,
    rules: &Rules,
) -> (Vec<(&'static str, i32)>, i32) {
    (vec![], evaluate_family(board, rules))
}
