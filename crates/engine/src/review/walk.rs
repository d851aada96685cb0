//! Walking games for their review: their positions with their histories, one search (or the
//! game's end) judging each, and the one loop that judges them all ([`judge`]), on the
//! caller's thread or on several.

use super::{Eval, Judgement, ReviewError};
use crate::Size;
use crate::search::{Cancel, Limits, SearchOutcome, Searcher};
use konakis_core::board::{BoardOf, GameErrorOf, GameOf};
use konakis_core::geometry::Geometry;
use konakis_core::rules::Rules;
use konakis_core::types::MoveOf;

/// The positions of the game from `start` and `moves` under `rules`, each with its history:
/// the start first, the position after the last move last (`moves.len() + 1` of them). An
/// illegal move, or one after the end of the game, is an error that names it.
pub fn positions<G: Geometry>(
    rules: Rules,
    start: BoardOf<G>,
    moves: &[MoveOf<G>],
) -> Result<Vec<GameOf<G>>, ReviewError<G>> {
    let mut game = GameOf::new(rules, start);
    let mut all = Vec::with_capacity(moves.len() + 1);
    all.push(game.clone());
    for (index, &mv) in moves.iter().enumerate() {
        game.play(mv).map_err(|e| {
            ReviewError::Game(match e {
                GameErrorOf::Move { error, .. } => GameErrorOf::Move { index, error },
                GameErrorOf::Over(status) => GameErrorOf::AfterEnd {
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
/// `searcher`, whose table and quiet history are emptied first so that the judgement depends on the
/// position alone (and, under a depth or node limit, is the same whichever engine or thread
/// makes it). The search stops early when `cancel` says so, and the judgement is then
/// [`ReviewError::Cancelled`].
pub(crate) fn evaluate<G: Size>(
    searcher: &mut Searcher<G>,
    game: &GameOf<G>,
    limits: &Limits<G>,
    cancel: Cancel,
) -> Result<Judgement<G>, ReviewError<G>> {
    let side = game.board().side_to_move();
    if game.status().is_over() {
        return Ok(Judgement::over(game.status(), side));
    }
    searcher.clear();
    let mut outcome = SearchOutcome::default();
    searcher
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
        searcher.clear();
        outcome = SearchOutcome::default();
        searcher
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

/// The one review loop: judges every position of every game of `games` (see [`evaluate`])
/// and returns the judgements game by game. Without `more` searchers the positions are judged
/// one after another by `searcher` on the caller's thread; with more (and the `threads`
/// feature), each searcher judges positions on a thread of its own, taking the next position
/// not yet taken, until none is left or one fails. `progress(done, total)` is called on the
/// caller's thread after each position, with `total` the positions of all the games; the
/// searches stop when `cancel` says so. The first error ends the review.
pub(crate) fn judge<G: Size>(
    searcher: &mut Searcher<G>,
    more: &mut [Searcher<G>],
    games: &[Vec<GameOf<G>>],
    limits: &Limits<G>,
    cancel: Cancel,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Vec<Judgement<G>>>, ReviewError<G>> {
    let all: Vec<&GameOf<G>> = games.iter().flatten().collect();
    let total = all.len();
    let mut judged: Vec<Option<Judgement<G>>> = vec![None; total];
    let mut done = 0;
    let mut record = |i: usize, judgement: Result<Judgement<G>, ReviewError<G>>| {
        judged[i] = Some(judgement?);
        done += 1;
        progress(done, total);
        Ok(())
    };
    if cfg!(feature = "threads") && !more.is_empty() {
        #[cfg(feature = "threads")]
        judge_on_threads(searcher, more, &all, limits, cancel, &mut record)?;
    } else {
        for (i, game) in all.iter().enumerate() {
            record(i, evaluate(searcher, game, limits, cancel))?;
        }
    }
    let mut judged = judged.into_iter();
    Ok(games
        .iter()
        .map(|positions| judged.by_ref().take(positions.len()).flatten().collect())
        .collect())
}

/// A position's judgement, or why there is none.
#[cfg(feature = "threads")]
type Judged<G> = Result<Judgement<G>, ReviewError<G>>;

/// The positions `all` judged on one thread per searcher (`searcher` and `more`), each taking the next position not
/// yet taken; `record(index, judgement)` is called on the caller's thread as each comes in,
/// and its first error stops the threads before their next position.
#[cfg(feature = "threads")]
fn judge_on_threads<G: Size>(
    searcher: &mut Searcher<G>,
    more: &mut [Searcher<G>],
    all: &[&GameOf<G>],
    limits: &Limits<G>,
    cancel: Cancel,
    record: &mut dyn FnMut(usize, Judged<G>) -> Result<(), ReviewError<G>>,
) -> Result<(), ReviewError<G>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, judgements) = std::sync::mpsc::channel();
        for searcher in std::iter::once(searcher).chain(more.iter_mut()) {
            let sender = sender.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= all.len() || failed.load(Ordering::SeqCst) {
                        return;
                    }
                    let judgement = evaluate(searcher, all[i], limits, cancel);
                    let stop = judgement.is_err();
                    if sender.send((i, judgement)).is_err() || stop {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let mut first_error = Ok(());
        for (i, judgement) in judgements {
            if let Err(e) = record(i, judgement) {
                failed.store(true, Ordering::SeqCst);
                if first_error.is_ok() {
                    first_error = Err(e);
                }
            }
        }
        first_error
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::tests::THRESHOLDS as T;
    use crate::review::{ReviewConfig, Verdict, move_accuracy};
    use konakis_core::board::{Board, Game, GameError};
    use konakis_core::types::Move;

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
        let mut engine = crate::Engine::new(crate::options::Options {
            settings: crate::bench::settings(1, Some(1)),
            ..crate::options::Options::default()
        })
        .unwrap();
        let config = ReviewConfig {
            limits: Limits {
                depth: Some(3),
                ..Limits::default()
            },
            thresholds: T,
            ..ReviewConfig::default()
        };
        let mut calls = Vec::new();
        let games = [positions(rules, start, &[Move::parse("d4d6").unwrap()]).unwrap()];
        let r = engine
            .review(&games, &config, Cancel::Never, |d, t| calls.push((d, t)))
            .unwrap()
            .remove(0);
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

    /// Two short games from the start position.
    fn two_games() -> Vec<Vec<Game>> {
        let rules = Rules::default();
        let start = Board::start(&rules);
        let line = |text: &str| -> Vec<Move> {
            text.split_whitespace()
                .map(|m| Move::parse(m).unwrap())
                .collect()
        };
        vec![
            positions(rules, start, &line("a4a2 e3h3 a6a8")).unwrap(),
            positions(rules, start, &line("d1d3 e7b7")).unwrap(),
        ]
    }

    #[test]
    fn several_searchers_judge_every_game_as_one_searcher_does() {
        let games = two_games();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let settings = crate::bench::settings(1, Some(1));
        let mut one = Searcher::new(settings);
        let mut calls = Vec::new();
        let alone = judge(
            &mut one,
            &mut [],
            &games,
            &limits,
            Cancel::Never,
            &mut |d, t| calls.push((d, t)),
        )
        .unwrap();
        assert_eq!(calls, (1..=7).map(|d| (d, 7)).collect::<Vec<_>>());
        assert_eq!(
            alone.iter().map(Vec::len).collect::<Vec<_>>(),
            [4, 3],
            "the judgements come back game by game"
        );
        let mut more = [Searcher::new(settings), Searcher::new(settings)];
        let mut calls = Vec::new();
        let together = judge(
            &mut one,
            &mut more,
            &games,
            &limits,
            Cancel::Never,
            &mut |d, t| calls.push((d, t)),
        )
        .unwrap();
        assert_eq!(together, alone);
        assert_eq!(calls, (1..=7).map(|d| (d, 7)).collect::<Vec<_>>());
    }

    #[test]
    fn a_cancelled_loop_stops_on_one_searcher_and_on_several() {
        let games = two_games();
        let limits = Limits {
            depth: Some(30),
            ..Limits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(true);
        let settings = crate::bench::settings(1, Some(1));
        let mut one = Searcher::new(settings);
        let mut more = [Searcher::new(settings)];
        for several in [false, true] {
            let more = if several {
                &mut more[..]
            } else {
                &mut more[..0]
            };
            let mut calls = 0;
            let e = judge(
                &mut one,
                more,
                &games,
                &limits,
                Cancel::Flag(&stop),
                &mut |_, _| calls += 1,
            );
            assert_eq!(e, Err(ReviewError::Cancelled));
            assert_eq!(calls, 0);
        }
    }
}
