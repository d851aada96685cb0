//! A review of every move of a game, as chess sites give one: for each move the engine's
//! preferred move and line, the evaluation and the win chances before and after it, and a
//! verdict from the drop in win chance; for each side an accuracy.
//!
//! The work is done in three steps:
//!
//! 1. [`positions`] lists the game's positions, the start first and the position after the
//!    last move last, each as a [`Game`](konakis_core::board::Game) with its history (the
//!    repetition rule needs it);
//! 2. one search judges each of them (or the result is read off a finished game): a
//!    [`Judgement`]. Each position is searched once: the evaluation after a move is the next
//!    position's, seen from the other side;
//! 3. [`review`] turns the judgements into [`MoveReview`]s and a [`SideSummary`] per side.
//!
//! `Engine::review` does the last two for whole games with the one
//! loop of `walk.rs`, which judges the positions one after another on the caller's thread (as
//! the browser and the Python module do) or several at once on threads of their own (as
//! `konakis analyse` does).
//!
//! # Verdicts
//!
//! The win chances come from [`crate::wdl`]; the expected score of the side to move is
//! `(win + draw / 2) / 1000`, and a move's *drop* is the mover's expected score before the move
//! minus after it, in percentage points (0 to 100; a gain counts as 0). Where the model knows
//! neither the board nor the rules ([`crate::wdl::modelled`]: the tafl family's games) there
//! are no win chances, and the expected score is the score's ([`score_expected`]). In order:
//!
//! - **best**: the engine's preferred move (its drop counts as 0: the evaluation after it is
//!   the same line seen one ply deeper);
//! - **good**: a move that keeps a forced win, however much longer the win becomes;
//! - **missed win**: the mover had a forced win (a mate score, or an escape or capture on the
//!   board) and after the move has none;
//! - **allows loss**: the mover was not lost by force, and after the move is;
//! - **blunder**, **mistake**, **inaccuracy**: a drop of at least [`Thresholds::blunder`],
//!   [`Thresholds::mistake`], [`Thresholds::inaccuracy`] points;
//! - **good** otherwise.
//!
//! The accuracy of a move is lichess' `103.1668 * exp(-0.04354 * drop) - 3.1669`, clamped to
//! 0..=100; a side's accuracy is the mean over its moves.
//!
//! The types are here; [`positions`] and the loop that judges them walk the games
//! (`walk.rs`), [`review`], [`verdict`] and [`move_accuracy`] grade them (`grade.rs`).

mod grade;
mod walk;

pub use grade::{move_accuracy, review, verdict};
pub(crate) use walk::judge;
pub use walk::positions;

use crate::search::{Limits, Score, SearchError};
use crate::wdl::{Wdl, wdl};
use konakis_core::board::{GameErrorOf, Status};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::Rules;
use konakis_core::types::{MoveOf, Side};
use std::fmt;

/// An evaluation from one side's point of view: a search's score, or the game's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Eval {
    /// Centi-soldiers.
    Cp(i32),
    /// A forced win with this side's n-th move (n > 0), or a forced loss after the opponent's
    /// n-th move (n < 0); never 0.
    Mate(i32),
    /// The game is over and this side won.
    Won,
    /// The game is over and this side lost.
    Lost,
    /// The game is over, drawn.
    Drawn,
}

impl Eval {
    /// The evaluation of a search's score.
    pub fn from_score(score: Score) -> Eval {
        match score {
            Score::Cp(cp) => Eval::Cp(cp),
            // A search never reports the mate at its root as `Mate(0)` (the game is over there
            // and nothing is searched); should one come, it is the side to move's loss.
            Score::Mate(0) => Eval::Lost,
            Score::Mate(n) => Eval::Mate(n),
        }
    }

    /// The same evaluation from the other side.
    pub fn flipped(self) -> Eval {
        match self {
            Eval::Cp(cp) => Eval::Cp(-cp),
            Eval::Mate(n) => Eval::Mate(-n),
            Eval::Won => Eval::Lost,
            Eval::Lost => Eval::Won,
            Eval::Drawn => Eval::Drawn,
        }
    }

    /// Whether this side wins by force (or has won).
    pub fn is_forced_win(self) -> bool {
        matches!(self, Eval::Won) || matches!(self, Eval::Mate(n) if n > 0)
    }

    /// Whether this side loses by force (or has lost).
    pub fn is_forced_loss(self) -> bool {
        matches!(self, Eval::Lost) || matches!(self, Eval::Mate(n) if n < 0)
    }

    /// The win chances of this side, `side`, in a position after `plies` plies under `rules`:
    /// the model of [`crate::wdl`] for a score, certainty for a finished game.
    pub fn chances(self, plies: u32, side: Side, rules: &Rules) -> Chances {
        match self {
            Eval::Cp(cp) => Chances::from(&wdl(Score::Cp(cp), plies, side, rules)),
            Eval::Mate(n) => Chances::from(&wdl(Score::Mate(n), plies, side, rules)),
            Eval::Won => Chances::new(1000, 0, 0),
            Eval::Lost => Chances::new(0, 0, 1000),
            Eval::Drawn => Chances::new(0, 1000, 0),
        }
    }
}

/// How steeply [`score_expected`] turns a score into an expected score, per centi-soldier:
/// lichess' constant for a chess engine's centipawns.
pub const SCORE_STEEPNESS: f64 = 0.003_682_08;

/// The expected score, 0 to 1, that a review without a model of win chances (where
/// [`crate::wdl::modelled`] is false) gives an evaluation: for a score `cp` of the side,
/// `1 / (1 + exp(-0.00368208 * cp))`, lichess' conversion of centipawns to winning chances
/// applied to centi-soldiers (no draws: +1 soldier is 59 %, +3 is 75 %, +6 is 90 %); a forced
/// win or a won game 1, a forced loss or a lost game 0, a drawn game ½.
///
/// ```
/// use konakis_engine::review::{Eval, score_expected};
/// assert_eq!(score_expected(Eval::Cp(0)), 0.5);
/// assert!((score_expected(Eval::Cp(100)) - 0.591).abs() < 0.001);
/// assert_eq!(score_expected(Eval::Mate(-3)), 0.0);
/// ```
pub fn score_expected(eval: Eval) -> f64 {
    match eval {
        Eval::Cp(cp) => 1.0 / (1.0 + (-SCORE_STEEPNESS * f64::from(cp)).exp()),
        Eval::Mate(n) if n > 0 => 1.0,
        Eval::Mate(_) | Eval::Lost => 0.0,
        Eval::Won => 1.0,
        Eval::Drawn => 0.5,
    }
}

/// `+1.25` (soldiers), `#3` (a win with the third move), `#-2`, `won`, `lost`, `draw`.
impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Eval::Mate(n) => write!(f, "#{n}"),
            Eval::Won => f.write_str("won"),
            Eval::Lost => f.write_str("lost"),
            Eval::Drawn => f.write_str("draw"),
        }
    }
}

/// Win, draw and loss chances in per mille (they sum to 1000), for one side: a copy of a
/// [`Wdl`] that a review can keep and hand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Chances {
    /// Wins, per mille.
    pub win: u32,
    /// Draws, per mille.
    pub draw: u32,
    /// Losses, per mille.
    pub loss: u32,
}

impl Chances {
    /// Chances from their three parts.
    pub const fn new(win: u32, draw: u32, loss: u32) -> Chances {
        Chances { win, draw, loss }
    }

    /// The expected score, 0 to 1: `(win + draw / 2) / 1000`, as [`Wdl::expected`].
    pub fn expected(&self) -> f64 {
        self.wdl().expected()
    }

    /// The same chances from the other side.
    pub fn flipped(&self) -> Chances {
        Chances::from(&self.wdl().flipped())
    }

    fn wdl(&self) -> Wdl {
        Wdl {
            win: self.win,
            draw: self.draw,
            loss: self.loss,
        }
    }
}

impl From<&Wdl> for Chances {
    fn from(w: &Wdl) -> Chances {
        Chances::new(w.win, w.draw, w.loss)
    }
}

/// What is known about one position of a game: the search's evaluation, move and line, or
/// the game's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement<G: Geometry = Nine> {
    /// The evaluation, from the side to move.
    pub eval: Eval,
    /// The engine's preferred move; `None` when the game is over.
    pub best: Option<MoveOf<G>>,
    /// Its principal variation, the preferred move first (empty when the game is over).
    pub line: Vec<MoveOf<G>>,
    /// The depth of the last iteration (0 when the game is over).
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

impl<G: Geometry> Judgement<G> {
    /// The judgement of a finished game: won, lost or drawn for the side to move.
    pub fn over(status: Status, side_to_move: Side) -> Judgement<G> {
        let eval = match status {
            Status::Win(side, _) if side == side_to_move => Eval::Won,
            Status::Win(..) => Eval::Lost,
            _ => Eval::Drawn,
        };
        Judgement {
            eval,
            best: None,
            line: Vec::new(),
            depth: 0,
            nodes: 0,
        }
    }
}

/// Why a review could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError<G: Geometry = Nine> {
    /// A move of the game is not legal where it is played (or comes after the end).
    Game(GameErrorOf<G>),
    /// The searcher refused the search.
    Search(SearchError),
    /// The search was stopped before its first iteration ended (by the caller's
    /// [`Cancel`](crate::search::Cancel)).
    Cancelled,
    /// The judgements do not match the game: one per position is needed.
    Judgements {
        /// Positions of the game (its moves and one).
        positions: usize,
        /// Judgements given.
        given: usize,
    },
}

impl<G: Geometry> fmt::Display for ReviewError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Game(e) => e.fmt(f),
            ReviewError::Search(e) => e.fmt(f),
            ReviewError::Cancelled => f.write_str("the review was cancelled"),
            ReviewError::Judgements { positions, given } => write!(
                f,
                "{given} judgements for a game of {positions} positions (one each is needed)"
            ),
        }
    }
}

impl<G: Geometry> std::error::Error for ReviewError<G> {}

/// The drops in expected score, in percentage points, from which a move is an inaccuracy, a
/// mistake or a blunder.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Thresholds {
    /// An inaccuracy from this drop.
    pub inaccuracy: f64,
    /// A mistake from this drop.
    pub mistake: f64,
    /// A blunder from this drop.
    pub blunder: f64,
}

impl Default for Thresholds {
    /// Lichess' thresholds: 10, 20 and 30 points on its -100..100 scale of winning chances,
    /// which are 5, 10 and 15 points of expected score.
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 5.0,
            mistake: 10.0,
            blunder: 15.0,
        }
    }
}

/// What a review calls a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Verdict {
    /// The engine's preferred move.
    Best,
    /// Another move that loses little or nothing, or keeps a forced win.
    Good,
    /// A drop of at least [`Thresholds::inaccuracy`].
    Inaccuracy,
    /// A drop of at least [`Thresholds::mistake`].
    Mistake,
    /// A drop of at least [`Thresholds::blunder`].
    Blunder,
    /// The mover had a forced win and the move gave it up.
    MissedWin,
    /// The move lets a forced loss in.
    AllowsLoss,
}

impl Verdict {
    /// Every verdict, from the best to the worst.
    pub const ALL: [Verdict; 7] = [
        Verdict::Best,
        Verdict::Good,
        Verdict::Inaccuracy,
        Verdict::Mistake,
        Verdict::Blunder,
        Verdict::MissedWin,
        Verdict::AllowsLoss,
    ];

    /// The name: `best`, `good`, `inaccuracy`, `mistake`, `blunder`, `missed-win`,
    /// `allows-loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
            Verdict::MissedWin => "missed-win",
            Verdict::AllowsLoss => "allows-loss",
        }
    }

    /// Whether the verdict marks the move as an error (an inaccuracy or worse).
    pub const fn is_error(self) -> bool {
        !matches!(self, Verdict::Best | Verdict::Good)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(bound = ""))]
pub struct MoveReview<G: Geometry = Nine> {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// The side that played it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::side"))]
    pub side: Side,
    /// The move.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::mv"))]
    pub played: MoveOf<G>,
    /// The engine's preferred move in the position before.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_mv"))]
    pub best: Option<MoveOf<G>>,
    /// The engine's line from the position before, its preferred move first.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::mvs"))]
    pub line: Vec<MoveOf<G>>,
    /// The evaluation before the move, from the mover.
    pub before: Eval,
    /// The evaluation after the move, from the mover.
    pub after: Eval,
    /// The mover's win chances before the move; `None` where no model of win chances knows
    /// the rules ([`crate::wdl::modelled`]).
    pub chances_before: Option<Chances>,
    /// The mover's win chances after the move (`None` as `chances_before`).
    pub chances_after: Option<Chances>,
    /// The drop in expected score, in percentage points (0 to 100; 0 for the best move): the
    /// win chances' where they are modelled, else the scores' ([`score_expected`]).
    pub drop: f64,
    /// The move's accuracy, 0 to 100 (to two decimals in JSON).
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::hundredths"))]
    pub accuracy: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// One side's part of a review.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SideSummary {
    /// Moves the side played.
    pub moves: usize,
    /// The mean accuracy of its moves, 0 to 100 (to two decimals in JSON); `None` when it
    /// played none.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_hundredths"))]
    pub accuracy: Option<f64>,
    /// How many of its moves got each verdict, in the order of [`Verdict::ALL`].
    pub best: usize,
    /// Good moves.
    pub good: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Missed wins.
    pub missed_wins: usize,
    /// Moves that let a forced loss in.
    pub allowed_losses: usize,
}

impl SideSummary {
    /// How many moves got `verdict`.
    pub fn count(&self, verdict: Verdict) -> usize {
        match verdict {
            Verdict::Best => self.best,
            Verdict::Good => self.good,
            Verdict::Inaccuracy => self.inaccuracies,
            Verdict::Mistake => self.mistakes,
            Verdict::Blunder => self.blunders,
            Verdict::MissedWin => self.missed_wins,
            Verdict::AllowsLoss => self.allowed_losses,
        }
    }

    fn add(&mut self, verdict: Verdict) {
        let slot = match verdict {
            Verdict::Best => &mut self.best,
            Verdict::Good => &mut self.good,
            Verdict::Inaccuracy => &mut self.inaccuracies,
            Verdict::Mistake => &mut self.mistakes,
            Verdict::Blunder => &mut self.blunders,
            Verdict::MissedWin => &mut self.missed_wins,
            Verdict::AllowsLoss => &mut self.allowed_losses,
        };
        *slot += 1;
    }
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(bound = ""))]
pub struct Review<G: Geometry = Nine> {
    /// Every move, in order.
    pub moves: Vec<MoveReview<G>>,
    /// The attackers' summary.
    pub attackers: SideSummary,
    /// The defenders' summary.
    pub defenders: SideSummary,
    /// The evaluation of the last position, from its side to move (the game's result when
    /// it is over).
    pub last: Eval,
}

impl<G: Geometry> Review<G> {
    /// The summary of `side`.
    pub fn side(&self, side: Side) -> &SideSummary {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }
}

/// How a review searches and grades.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewConfig<G: Geometry = Nine> {
    /// The limits of each position's search (a depth, nodes or a time).
    pub limits: Limits<G>,
    /// The drops that make an inaccuracy, a mistake, a blunder.
    pub thresholds: Thresholds,
    /// How many positions are judged at once, each on a searcher of its own (1, the default:
    /// one after another on the calling thread; 0 counts as 1). Without the `threads`
    /// feature they are always judged one after another. Under a depth or node limit the
    /// review is the same whatever this is.
    pub concurrency: usize,
}

impl<G: Geometry> Default for ReviewConfig<G> {
    /// No limit, the default thresholds, one position at a time.
    fn default() -> ReviewConfig<G> {
        ReviewConfig {
            limits: Limits::default(),
            thresholds: Thresholds::default(),
            concurrency: 1,
        }
    }
}

/// Serializers for the rules' types, which know nothing of serde.
#[cfg(feature = "serde")]
mod ser {
    use konakis_core::geometry::Geometry;
    use konakis_core::types::{MoveOf, Side};
    use serde::Serializer;

    pub fn side<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(side.name())
    }

    pub fn mv<G: Geometry, S: Serializer>(mv: &MoveOf<G>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(mv)
    }

    pub fn opt_mv<G: Geometry, S: Serializer>(
        mv: &Option<MoveOf<G>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match mv {
            Some(m) => s.collect_str(m),
            None => s.serialize_none(),
        }
    }

    pub fn hundredths<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64((x * 100.0).round() / 100.0)
    }

    pub fn opt_hundredths<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match x {
            Some(x) => hundredths(x, s),
            None => s.serialize_none(),
        }
    }

    pub fn mvs<G: Geometry, S: Serializer>(mvs: &[MoveOf<G>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(mvs.iter().map(|m| m.to_string()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The thresholds the review's unit tests grade with.
    pub(crate) const THRESHOLDS: Thresholds = Thresholds {
        inaccuracy: 5.0,
        mistake: 10.0,
        blunder: 15.0,
    };

    #[test]
    fn evaluations_flip_and_print() {
        assert_eq!(Eval::Mate(3).flipped(), Eval::Mate(-3));
        assert_eq!(Eval::Won.flipped(), Eval::Lost);
        assert_eq!(Eval::Cp(-125).to_string(), "-1.25");
        assert_eq!(Eval::Cp(7).to_string(), "+0.07");
        assert_eq!(Eval::Mate(-2).to_string(), "#-2");
        assert_eq!(Eval::from_score(Score::Mate(0)), Eval::Lost);
    }
}
