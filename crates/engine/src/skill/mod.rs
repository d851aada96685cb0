//! Strength levels: `Skill Level` 0-19 plays weaker than full strength (20), and
//! `UCI_LimitStrength` with `UCI_Elo` picks a level from the calibrated curve in `levels.txt`
//! (written by `scripts/levels.py`; docs/levels.md).
//!
//! The search proper knows nothing of this. A level changes what a search is asked for and
//! which of its answers is played:
//!
//! 1. A move that wins on the spot (an escape, a king capture) is played at once, at every
//!    level, without a search. Level 0 searches nothing at all: it plays as a beginner on
//!    their first day ([`Plan::glance`]): now and then it sees a win that the opponent
//!    threatens for the next move and parries it (always when the opponent has already let
//!    that win pass once), it looks at one of its pieces, drawn at
//!    random, and now and then sees a capture that piece can make; otherwise that piece makes
//!    a random move.
//! 2. Otherwise the search is capped at the level's depth and nodes (never above the `go`
//!    limits), and asked for the level's number of lines (MultiPV; only the lines the
//!    `MultiPV` option asks for are reported).
//! 3. From the lines of the last complete iteration, the move with the largest
//!    `score + noise` is played, the noise uniform in `0..=noise` centi-soldiers: a bounded
//!    push, so a move more than `noise` worse than the best is never played, whether the level
//!    is ahead or behind. The lowest levels ([`LevelLimits::attention`]) choose among the
//!    moves of only a few of their pieces, drawn at random, with a push that dwarfs the scores:
//!    beginners who take a win and otherwise hardly look.
//! 4. A forced result is never blurred: when the best line the level looks at wins, it is
//!    played (a beginner sees a forced win only with a piece it looks at); a line that loses
//!    by force is played only when every line does. From level [`PARRY_LEVEL`] up the
//!    search looks two plies deep, so a move that lets the king be taken (or, for the
//!    attackers, lets him escape) next move scores as a loss and is not played while a parry
//!    exists; below it such a line counts as [`BLIND_LOSS`].
//! 5. Should the caps end the search inside its first line, a random move after which the
//!    opponent cannot win on the spot is played.
//!
//! The noise comes from a seeded generator (SplitMix64): with `Skill Seed` 0 a new seed each
//! search, else one made from the seed and the position, so that the same game replays move
//! for move. A fractional level (from `UCI_Elo`, between two calibrated levels) plays each move
//! at the lower or the upper level, the upper with a probability of the fraction.
//!
//! The level table and the calibrated curve are in `levels.rs` ([`LEVELS`], [`curve`]); the
//! plan of a weakened search and its choice in `pick.rs` ([`Plan`], [`Lines`]); the search at
//! a level, which runs the search proper under the plan and asks it to choose, in `play.rs`
//! (`play_at_level`).

mod levels;
mod pick;
mod play;

pub use levels::{Curve, CurveError, LEVELS, LevelLimits, curve};
pub use pick::{Lines, Plan, SplitMix64, winning_move};
pub(crate) use play::play_at_level;

/// The level that is full strength, the default of `Skill Level`.
pub const FULL_STRENGTH: u8 = 20;
/// From this level up a level looks at least two plies deep: it sees a king capture or an
/// escape that its move would allow next move, and parries it when it can.
pub const PARRY_LEVEL: u8 = 8;
/// How often level 0 sees a win on the spot that the opponent threatens for its next move, and
/// parries it ([`Plan::glance`]): a share of its moves. A threat that has stood through the
/// opponent's last move is always seen. Calibrated with the two baseline
/// movers and level 1 (docs/levels.md): higher and level 0 catches up with level 1.
pub const GLANCE_PARRY: f64 = 0.3;
/// How often level 0 sees a capture that the piece it looks at can make, and makes it
/// ([`Plan::glance`]): a share of its moves.
pub const GLANCE_CAPTURE: f64 = 0.25;
/// What a line that loses by force counts as below [`PARRY_LEVEL`], in centi-soldiers: a bad
/// move, not an impossible one, so that the lowest levels, whose push is larger, still walk
/// into a loss now and then.
pub const BLIND_LOSS: i32 = 1_500;

/// What the strength options say (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`,
/// `Skill Seed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// `Skill Level`, 0 to [`FULL_STRENGTH`].
    pub level: u8,
    /// `UCI_LimitStrength`: the level comes from `elo` instead.
    pub limit_strength: bool,
    /// `UCI_Elo`, on the scale of docs/levels.md.
    pub elo: i32,
    /// `Skill Seed`: 0 for a new seed every search, else the seed of a reproducible game.
    pub seed: u64,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill {
            level: FULL_STRENGTH,
            limit_strength: false,
            elo: curve().elo_range().0,
            seed: 0,
        }
    }
}

impl Skill {
    /// The level in force, fractional when `UCI_Elo` falls between two calibrated levels;
    /// `None` for full strength.
    pub fn strength(&self) -> Option<f64> {
        let level = if self.limit_strength {
            curve().level_for(self.elo)
        } else {
            f64::from(self.level)
        };
        (level < f64::from(FULL_STRENGTH)).then_some(level)
    }
}
