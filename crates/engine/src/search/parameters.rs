//! The search's pruning and reduction parameters, in one place (as viridithas'
//! `search/parameters.rs`): how deep reverse futility pruning and late move pruning reach and
//! how hard they cut, and how many plies a late move is reduced by. `worker.rs` reads them.

/// Reverse futility pruning: deepest remaining depth, and margin per ply.
pub(super) const FUTILITY_DEPTH: i32 = 3;
pub(super) const FUTILITY_MARGIN: i32 = 120;
/// Late move pruning applies up to this depth.
pub(super) const LMP_DEPTH: i32 = 3;
/// How many moves are searched at `depth` before late quiet moves are pruned.
pub(super) fn lmp_count(depth: i32) -> usize {
    (4 + 3 * depth * depth) as usize
}

/// Late move reduction in plies.
#[inline]
pub(super) fn lmr(depth: i32, index: usize) -> i32 {
    let d = (depth as f32).ln();
    let i = (index as f32).ln();
    (0.5 + d * i / 2.2) as i32
}
