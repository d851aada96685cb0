//! Grading a reviewed game: the verdict and the accuracy of each move from the judgements of
//! the positions before and after it (the rules are in the [module documentation](super)).

use super::{
    Chances, Eval, Judgement, MoveReview, Review, ReviewError, SideSummary, Thresholds, Verdict,
    score_expected,
};
use crate::Size;
use crate::wdl::modelled;
use konakis_core::board::GameOf;
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
/// `walk.rs`, lists them; `judgements` in the same order, one each). Where the model of win
/// chances does not know the game ([`modelled`]), the moves have no chances and their drops
/// are the scores' ([`score_expected`]).
pub fn review<G: Size>(
    games: &[GameOf<G>],
    judgements: &[Judgement<G>],
    thresholds: &Thresholds,
) -> Result<Review<G>, ReviewError<G>> {
    if games.len() != judgements.len() || games.is_empty() {
        return Err(ReviewError::Judgements {
            positions: games.len(),
            given: judgements.len(),
        });
    }
    let chances = |i: usize| {
        let board = games[i].board();
        modelled::<G>(games[i].rules()).then(|| {
            judgements[i]
                .eval
                .chances(board.plies(), board.side_to_move(), games[i].rules())
        })
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
        let chances_after = chances(i + 1).map(|c| c.flipped());
        let preferred = now.best == Some(played);
        // In half per mille, whole numbers, so that the drop in points is exact to 0.05.
        let half = |c: &Chances| i64::from(2 * c.win + c.draw);
        let fall = match (&chances_before, &chances_after) {
            (Some(b), Some(a)) => (half(b) - half(a)) as f64 / 20.0,
            // Without chances, the scores' expected scores, to 0.05 points as well.
            _ => ((score_expected(before) - score_expected(after)) * 2000.0).round() / 20.0,
        };
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
    use konakis_core::board::{Board, BoardOf, Status};
    use konakis_core::geometry::Seven;
    use konakis_core::rules::{Rules, Variant};
    use konakis_core::types::{Move, MoveOf};

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

    /// A judgement of `cp` with `best` the engine's move.
    fn judged<G: Size>(cp: i32, best: &str) -> Judgement<G> {
        Judgement {
            eval: Eval::Cp(cp),
            best: Some(MoveOf::parse(best).unwrap()),
            line: Vec::new(),
            depth: 1,
            nodes: 1,
        }
    }

    #[test]
    fn without_a_model_of_win_chances_the_drops_are_the_scores() {
        // hnefatafl.org's Brandubh on 7x7, the defenders first: no model knows it.
        let variant = Variant::find("hnefatafl.org-brandubh-7").unwrap();
        let start = BoardOf::<Seven>::from_fen(&variant.start_fen()).unwrap();
        let moves = [
            MoveOf::parse("d3c3").unwrap(),
            MoveOf::parse("d1c1").unwrap(),
        ];
        let games = positions(variant.rules(), start, &moves).unwrap();
        let judgements = [
            judged(-80, "d3b3"),
            judged(300, "d1b1"),
            judged(-250, "c3b3"),
        ];
        let r = review(&games, &judgements, &T).unwrap();
        let drop = |before: i32, after: i32| {
            (score_expected(Eval::Cp(before)) - score_expected(Eval::Cp(after))) * 100.0
        };
        let (first, second) = (&r.moves[0], &r.moves[1]);
        assert_eq!((first.chances_before, first.chances_after), (None, None));
        // -0.80 to -3.00 for the defenders: 17.8 points, a blunder.
        assert!((first.drop - drop(-80, -300)).abs() <= 0.025, "{first:?}");
        assert_eq!(first.verdict, Verdict::Blunder);
        // +3.00 to +2.50 for the attackers: 3.6 points, a good move.
        assert!((second.drop - drop(300, 250)).abs() <= 0.025, "{second:?}");
        assert_eq!(second.verdict, Verdict::Good);
        assert_eq!(second.accuracy, move_accuracy(second.drop));
        // Tablut's board under Tablut's rules has its model, and chances.
        let rules = Rules::default();
        let tablut = positions(rules, Board::start(&rules), &[Move::parse("d1d3").unwrap()]);
        let r = review(
            &tablut.unwrap(),
            &[judged(50, "e3h3"), judged(-60, "e4d4")],
            &T,
        )
        .unwrap();
        assert!(r.moves[0].chances_before.is_some() && r.moves[0].chances_after.is_some());
        // Tablut's board under the family's rules (OpenTafl's Sea Battle) has none.
        let sea = Variant::find("opentafl-sea-battle-9").unwrap();
        let start = Board::from_fen(&sea.start_fen()).unwrap();
        let first = start.legal_moves(&sea.rules())[0];
        let games = positions(sea.rules(), start, &[first]).unwrap();
        let best = first.to_string();
        let r = review(&games, &[judged(50, &best), judged(-60, &best)], &T);
        assert_eq!(r.unwrap().moves[0].chances_before, None);
    }
}
