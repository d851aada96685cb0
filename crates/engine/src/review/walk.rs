//! Walking a game for its review: its positions with their histories, one search (or the
//! game's end) judging each, and the whole review on the caller's thread.

use super::{Eval, Judgement, Review, ReviewConfig, ReviewError, review};
use crate::search::{Cancel, Limits, SearchOutcome, Searcher};
use konakis_core::board::{Board, Game, GameError};
use konakis_core::rules::Rules;
use konakis_core::types::Move;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::tests::THRESHOLDS as T;
    use crate::review::{Verdict, move_accuracy};

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
