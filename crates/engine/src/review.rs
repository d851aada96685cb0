//! A review of every move of a game, as chess sites give one: for each move the engine's
//! preferred move and line, the evaluation and the win chances before and after it, and a
//! verdict from the drop in win chance; for each side an accuracy.
//!
//! The work is split so that a front-end can search the positions however it likes (one
//! after the other on the caller's thread, as the browser does, or on several threads at
//! once, as `konakis analyse` does):
//!
//! 1. [`positions`] lists the game's positions, the start first and the position after the
//!    last move last, each as a [`Game`] with its history (the repetition rule needs it);
//! 2. [`evaluate`] searches one of them (or reads the result off a finished game): a
//!    [`Judgement`]. Each position is searched once: the evaluation after a move is the next
//!    position's, seen from the other side;
//! 3. [`review`] turns the judgements into [`MoveReview`]s and a [`SideSummary`] per side.
//!
//! [`review_game`] does all three on the caller's thread.
//!
//! # Verdicts
//!
//! The win chances come from [`crate::wdl`]; the expected score of the side to move is
//! `(win + draw / 2) / 1000`, and a move's *drop* is the mover's expected score before the move
//! minus after it, in percentage points (0 to 100; a gain counts as 0). In order:
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

use crate::search::{Cancel, Limits, Score, SearchError, SearchOutcome, Searcher};
use crate::wdl::{Wdl, wdl};
use konakis_core::board::{Board, Game, GameError, Status};
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
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
pub struct Judgement {
    /// The evaluation, from the side to move.
    pub eval: Eval,
    /// The engine's preferred move; `None` when the game is over.
    pub best: Option<Move>,
    /// Its principal variation, the preferred move first (empty when the game is over).
    pub line: Vec<Move>,
    /// The depth of the last iteration (0 when the game is over).
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

impl Judgement {
    /// The judgement of a finished game: won, lost or drawn for the side to move.
    pub fn over(status: Status, side_to_move: Side) -> Judgement {
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
pub enum ReviewError {
    /// A move of the game is not legal where it is played (or comes after the end).
    Game(GameError),
    /// The searcher refused the search.
    Search(SearchError),
    /// The search was stopped before its first iteration ended (by the caller's [`Cancel`]).
    Cancelled,
    /// The judgements do not match the game: one per position is needed.
    Judgements {
        /// Positions of the game (its moves and one).
        positions: usize,
        /// Judgements given.
        given: usize,
    },
}

impl fmt::Display for ReviewError {
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

impl std::error::Error for ReviewError {}

/// The positions of the game from `start` and `moves` under `rules`, each with its history:
/// the start first, the position after the last move last (`moves.len() + 1` of them). An
/// illegal move, or one after the end of the game, is an error that names it.
pub fn positions(rules: Rules, start: Board, moves: &[Move]) -> Result<Vec<Game>, ReviewError> {
    let mut game = Game::new(rules, start);
    let mut all = Vec::with_capacity(moves.len() + 1);
    all.push(game.clone());
    for (index, &mv) in moves.iter().enumerate() {
        game.play(mv).map_err(|e| {
            ReviewError::Game(match e {
                GameError::Move { error, .. } => GameError::Move { index, error },
                GameError::Over(status) => GameError::AfterEnd {
                    index,
                    text: mv.to_string(),
                    status,
                },
                other => other,
            })
        })?;
        all.push(game.clone());
    }
    Ok(all)
}

/// Judges one position: the game's end when it is over, else a search within `limits` by
/// `engine`, whose table and histories are emptied first so that the judgement depends on the
/// position alone (and, under a depth or node limit, is the same whichever engine or thread
/// makes it). The search stops early when `cancel` says so, and the judgement is then
/// [`ReviewError::Cancelled`].
pub fn evaluate(
    engine: &mut Searcher,
    game: &Game,
    limits: &Limits,
    cancel: Cancel,
) -> Result<Judgement, ReviewError> {
    let side = game.board().side_to_move();
    if game.status().is_over() {
        return Ok(Judgement::over(game.status(), side));
    }
    engine.clear();
    let mut outcome = SearchOutcome::default();
    engine
        .search(game, limits.clone(), cancel, |r| outcome.take(&r))
        .map_err(ReviewError::Search)?;
    // A search the caller stopped may have ended anywhere: its judgement is not one.
    if cancel.stopped() {
        return Err(ReviewError::Cancelled);
    }
    // A node limit smaller than the first iteration (a quiescence search that branches wide)
    // ends the search before any iteration finished: the position is searched again to depth
    // 1, without the node or time limit, which still depends on the position alone.
    if outcome.info.is_none() && limits.depth != Some(1) {
        let first = Limits {
            depth: Some(1),
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        };
        engine.clear();
        outcome = SearchOutcome::default();
        engine
            .search(game, first, cancel, |r| outcome.take(&r))
            .map_err(ReviewError::Search)?;
        if cancel.stopped() {
            return Err(ReviewError::Cancelled);
        }
    }
    let (Some(best), Some(info)) = (outcome.best, outcome.info) else {
        return Err(ReviewError::Cancelled);
    };
    let mut line = info.pv;
    if line.first() != Some(&best) {
        line = vec![best];
    }
    Ok(Judgement {
        eval: Eval::from_score(info.score),
        best: Some(best),
        line,
        depth: info.depth,
        nodes: info.nodes,
    })
}

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
pub struct MoveReview {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// The side that played it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::side"))]
    pub side: Side,
    /// The move.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::mv"))]
    pub played: Move,
    /// The engine's preferred move in the position before.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_mv"))]
    pub best: Option<Move>,
    /// The engine's line from the position before, its preferred move first.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::mvs"))]
    pub line: Vec<Move>,
    /// The evaluation before the move, from the mover.
    pub before: Eval,
    /// The evaluation after the move, from the mover.
    pub after: Eval,
    /// The mover's win chances before the move.
    pub chances_before: Chances,
    /// The mover's win chances after the move.
    pub chances_after: Chances,
    /// The drop in expected score, in percentage points (0 to 100; 0 for the best move).
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
pub struct Review {
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// The attackers' summary.
    pub attackers: SideSummary,
    /// The defenders' summary.
    pub defenders: SideSummary,
    /// The evaluation of the last position, from its side to move (the game's result when
    /// it is over).
    pub last: Eval,
}

impl Review {
    /// The summary of `side`.
    pub fn side(&self, side: Side) -> &SideSummary {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }
}

/// Lichess' accuracy of a move that drops `drop` points of expected score (winning
/// percentage): `103.1668 * exp(-0.04354 * drop) - 3.1669`, clamped to 0..=100.
///
/// ```
/// use konakis_engine::review::move_accuracy;
/// assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
/// assert!((move_accuracy(10.0) - 63.6).abs() < 0.1);
/// assert_eq!(move_accuracy(100.0), 0.0);
/// ```
pub fn move_accuracy(drop: f64) -> f64 {
    (103.1668 * (-0.04354 * drop.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The verdict on a move from the mover's evaluations before and after it, its drop in
/// expected score and whether it is the engine's preferred move (see the module
/// documentation for the order of the rules).
pub fn verdict(
    before: Eval,
    after: Eval,
    drop: f64,
    preferred: bool,
    thresholds: &Thresholds,
) -> Verdict {
    if preferred {
        Verdict::Best
    } else if before.is_forced_win() && after.is_forced_win() {
        Verdict::Good
    } else if before.is_forced_win() {
        Verdict::MissedWin
    } else if after.is_forced_loss() && !before.is_forced_loss() {
        Verdict::AllowsLoss
    } else if drop >= thresholds.blunder {
        Verdict::Blunder
    } else if drop >= thresholds.mistake {
        Verdict::Mistake
    } else if drop >= thresholds.inaccuracy {
        Verdict::Inaccuracy
    } else {
        Verdict::Good
    }
}

/// The review of a game from the judgements of its positions (`games` as [`positions`]
/// lists them, `judgements` in the same order, one each).
pub fn review(
    games: &[Game],
    judgements: &[Judgement],
    thresholds: &Thresholds,
) -> Result<Review, ReviewError> {
    if games.len() != judgements.len() || games.is_empty() {
        return Err(ReviewError::Judgements {
            positions: games.len(),
            given: judgements.len(),
        });
    }
    let chances = |i: usize| {
        let board = games[i].board();
        judgements[i]
            .eval
            .chances(board.plies(), board.side_to_move(), games[i].rules())
    };
    let mut moves = Vec::with_capacity(games.len() - 1);
    let mut attackers = SideSummary::default();
    let mut defenders = SideSummary::default();
    let mut sums = [0.0f64; 2];
    for i in 0..games.len() - 1 {
        let side = games[i].board().side_to_move();
        let played = games[i + 1].moves()[i];
        let now = &judgements[i];
        let next = &judgements[i + 1];
        let before = now.eval;
        let after = next.eval.flipped();
        let chances_before = chances(i);
        let chances_after = chances(i + 1).flipped();
        let preferred = now.best == Some(played);
        // In half per mille, whole numbers, so that the drop in points is exact to 0.05.
        let half = |c: &Chances| i64::from(2 * c.win + c.draw);
        let fall = (half(&chances_before) - half(&chances_after)) as f64 / 20.0;
        let keeps_win = before.is_forced_win() && after.is_forced_win();
        let drop = if preferred || keeps_win {
            0.0
        } else {
            fall.max(0.0)
        };
        let verdict = verdict(before, after, drop, preferred, thresholds);
        let accuracy = move_accuracy(drop);
        let summary = match side {
            Side::Attackers => &mut attackers,
            Side::Defenders => &mut defenders,
        };
        summary.moves += 1;
        summary.add(verdict);
        sums[side.index()] += accuracy;
        moves.push(MoveReview {
            number: i + 1,
            side,
            played,
            best: now.best,
            line: now.line.clone(),
            before,
            after,
            chances_before,
            chances_after,
            drop,
            accuracy,
            verdict,
        });
    }
    for (summary, sum) in [(&mut attackers, sums[0]), (&mut defenders, sums[1])] {
        summary.accuracy = (summary.moves > 0).then(|| sum / summary.moves as f64);
    }
    Ok(Review {
        moves,
        attackers,
        defenders,
        last: judgements[games.len() - 1].eval,
    })
}

/// How a review searches and grades.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewConfig {
    /// The limits of each position's search (a depth, nodes or a time).
    pub limits: Limits,
    /// The drops that make an inaccuracy, a mistake, a blunder.
    pub thresholds: Thresholds,
}

/// Reviews the game from `start` and `moves` under `rules` on the caller's thread: every
/// position judged by `engine` within the config's limits (see [`evaluate`]),
/// `progress(done, total)` called after each, stopped when `cancel` says so.
pub fn review_game(
    engine: &mut Searcher,
    rules: Rules,
    start: Board,
    moves: &[Move],
    config: &ReviewConfig,
    cancel: Cancel,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let games = positions(rules, start, moves)?;
    let mut judgements = Vec::with_capacity(games.len());
    for game in &games {
        judgements.push(evaluate(engine, game, &config.limits, cancel)?);
        progress(judgements.len(), games.len());
    }
    review(&games, &judgements, &config.thresholds)
}

/// Serializers for the rules' types, which know nothing of serde.
#[cfg(feature = "serde")]
mod ser {
    use konakis_core::types::{Move, Side};
    use serde::Serializer;

    pub fn side<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(side.name())
    }

    pub fn mv<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(mv)
    }

    pub fn opt_mv<S: Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
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

    pub fn mvs<S: Serializer>(mvs: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(mvs.iter().map(|m| m.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Thresholds = Thresholds {
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

    #[test]
    fn forced_results_decide_before_the_drop() {
        // A longer forced win is no error, however the drop is counted.
        assert_eq!(
            verdict(Eval::Mate(1), Eval::Mate(4), 0.0, false, &T),
            Verdict::Good
        );
        assert_eq!(
            verdict(Eval::Mate(2), Eval::Won, 0.0, false, &T),
            Verdict::Good
        );
        assert_eq!(
            verdict(Eval::Mate(1), Eval::Cp(900), 1.0, false, &T),
            Verdict::MissedWin
        );
        assert_eq!(
            verdict(Eval::Cp(-50), Eval::Mate(-2), 30.0, false, &T),
            Verdict::AllowsLoss
        );
        // Lost before and after: nothing more to lose.
        assert_eq!(
            verdict(Eval::Mate(-3), Eval::Mate(-1), 0.0, false, &T),
            Verdict::Good
        );
        assert_eq!(
            verdict(Eval::Mate(1), Eval::Mate(-1), 0.0, true, &T),
            Verdict::Best
        );
    }

    #[test]
    fn drops_are_graded_by_the_thresholds() {
        let v = |drop| verdict(Eval::Cp(0), Eval::Cp(-100), drop, false, &T);
        assert_eq!(v(4.9), Verdict::Good);
        assert_eq!(v(5.0), Verdict::Inaccuracy);
        assert_eq!(v(10.0), Verdict::Mistake);
        assert_eq!(v(15.0), Verdict::Blunder);
        assert_eq!(v(80.0), Verdict::Blunder);
    }

    #[test]
    fn accuracy_falls_with_the_drop() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(5.0) > move_accuracy(10.0));
        assert_eq!(move_accuracy(-3.0), move_accuracy(0.0));
        assert_eq!(move_accuracy(100.0), 0.0);
    }

    #[test]
    fn a_review_needs_one_judgement_per_position() {
        let rules = Rules::default();
        let start = Board::start(&rules);
        let games = positions(rules, start, &[Move::parse("d1d3").unwrap()]).unwrap();
        assert_eq!(games.len(), 2);
        let j = Judgement::over(Status::Ongoing, Side::Attackers);
        assert_eq!(
            review(&games, std::slice::from_ref(&j), &T),
            Err(ReviewError::Judgements {
                positions: 2,
                given: 1
            })
        );
    }

    #[test]
    fn an_illegal_move_is_named() {
        let rules = Rules::default();
        let start = Board::start(&rules);
        let moves = [Move::parse("d1d3").unwrap(), Move::parse("e5e9").unwrap()];
        match positions(rules, start, &moves) {
            Err(ReviewError::Game(GameError::Move { index: 1, .. })) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_game_reviewed_move_by_move() {
        // The attackers capture the king in one (d4d6) and play it; the review calls it the
        // best move and the game lost for the defenders.
        let rules = Rules::default();
        let start = Board::from_fen("9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0").unwrap();
        let mut engine = Searcher::new(crate::bench::settings(1, Some(1)));
        let config = ReviewConfig {
            limits: Limits {
                depth: Some(3),
                ..Limits::default()
            },
            thresholds: T,
        };
        let mut calls = Vec::new();
        let r = review_game(
            &mut engine,
            rules,
            start,
            &[Move::parse("d4d6").unwrap()],
            &config,
            Cancel::Never,
            |d, t| calls.push((d, t)),
        )
        .unwrap();
        assert_eq!(calls, [(1, 2), (2, 2)]);
        assert_eq!(r.moves.len(), 1);
        let m = &r.moves[0];
        assert_eq!(m.before, Eval::Mate(1));
        assert_eq!(m.after, Eval::Won);
        assert_eq!(m.verdict, Verdict::Best);
        assert_eq!(r.last, Eval::Lost);
        assert_eq!(r.attackers.best, 1);
        assert_eq!(r.attackers.accuracy, Some(move_accuracy(0.0)));
        assert_eq!(r.defenders.accuracy, None);
    }
}
