//! Grading a reviewed game: the verdict and the accuracy of each move from the judgements of
//! the positions before and after it (the rules are in the [module documentation](super)).

use super::{
    Chances, Eval, Judgement, MoveReview, Review, ReviewError, SideSummary, Thresholds, Verdict,
};
use konakis_core::board::Game;
use konakis_core::types::Side;

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

/// The review of a game from the judgements of its positions (`games` as `positions`, in
/// `walk.rs`, lists them; `judgements` in the same order, one each).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::positions;
    use crate::review::tests::THRESHOLDS as T;
    use konakis_core::board::{Board, Status};
    use konakis_core::rules::Rules;
    use konakis_core::types::Move;

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
}
