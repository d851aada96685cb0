//! The facade's ways in for tools: the analysis of a position of the caller's, the review of
//! games and the evaluation's trace.

use super::*;
use crate::network::RuleFamily;
use crate::review::{Eval, Verdict, positions};
use crate::trace::NetworkEval;
use konakis_core::board::{Board, Game};
use konakis_core::rules::Rules;
use konakis_core::types::Move;

/// An engine with a small table.
fn engine() -> Engine {
    Engine::new(Options {
        settings: crate::bench::settings(1, Some(1)),
        ..Options::default()
    })
    .unwrap()
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Attackers to move capture the king with d4d6.
const KING_IN_ONE: &str = "9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0";

#[test]
fn analyse_searches_the_callers_game_under_its_rules_and_leaves_the_engines_game_alone() {
    let mut engine = engine();
    engine.play(mv("d1d3")).unwrap();
    let before = (*engine.board(), engine.game().moves().to_vec());
    let game = Game::new(Rules::ashton(), Board::start(&Rules::ashton()));
    let outcome = engine.analyse(&game, depth(3), Cancel::Never).unwrap();
    let best = outcome.best.expect("the start position has moves");
    assert!(game.board().check_move(game.rules(), best).is_ok());
    assert_eq!(outcome.info.as_ref().map(|i| i.depth), Some(3));
    assert_eq!(engine.outcome(), outcome, "the engine says what it found");
    assert_eq!((*engine.board(), engine.game().moves().to_vec()), before);
    // A `searchmoves` move is checked against the game searched, not the engine's.
    let only = Limits {
        searchmoves: vec![mv("e5e6")],
        ..depth(2)
    };
    assert!(matches!(
        engine.analyse(&game, only, Cancel::Never),
        Err(EngineError::SearchMove { .. })
    ));
}

#[test]
fn analyse_and_review_are_refused_while_a_search_runs_and_work_once_it_is_cancelled() {
    let mut engine = engine();
    let game = Game::new(Rules::default(), Board::from_fen(KING_IN_ONE).unwrap());
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    engine.think(infinite, |_, _| {}).unwrap();
    assert_eq!(
        engine.analyse(&game, depth(2), Cancel::Never),
        Err(EngineError::Search(SearchError::Busy))
    );
    let games = [positions(*game.rules(), *game.board(), &[]).unwrap()];
    let config = ReviewConfig {
        limits: depth(2),
        ..ReviewConfig::default()
    };
    assert_eq!(
        engine.review(&games, &config, Cancel::Never, |_, _| {}),
        Err(ReviewError::Search(SearchError::Busy))
    );
    engine.cancel();
    let outcome = engine.analyse(&game, depth(2), Cancel::Never).unwrap();
    assert_eq!(outcome.best, Some(mv("d4d6")));
    let review = engine
        .review(&games, &config, Cancel::Never, |_, _| {})
        .unwrap();
    assert_eq!(review[0].last, Eval::Mate(1));
}

#[test]
fn a_review_judges_at_full_strength_whatever_the_level_and_the_level_stays() {
    let rules = Rules::default();
    let start = Board::from_fen(KING_IN_ONE).unwrap();
    let games = [
        positions(rules, start, &[mv("b8b9")]).unwrap(),
        positions(rules, Board::start(&rules), &[mv("d1d3"), mv("e3f3")]).unwrap(),
    ];
    let config = ReviewConfig {
        limits: depth(5),
        ..ReviewConfig::default()
    };
    let mut full = engine();
    let expected = full
        .review(&games, &config, Cancel::Never, |_, _| {})
        .unwrap();
    assert_eq!(expected[0].moves[0].verdict, Verdict::MissedWin);
    let mut weak = engine();
    weak.set_option("Skill Level", Some("0")).unwrap();
    let level = weak.options().settings.skill;
    assert_ne!(level, Skill::default());
    let reviewed = weak
        .review(&games, &config, Cancel::Never, |_, _| {})
        .unwrap();
    assert_eq!(reviewed, expected);
    assert_eq!(weak.options().settings.skill, level);
}

#[test]
fn a_review_on_several_searchers_is_the_review_on_one() {
    let rules = Rules::default();
    let start = Board::start(&rules);
    let games = [
        positions(rules, start, &[mv("a4a2"), mv("e3h3"), mv("a6a8")]).unwrap(),
        positions(rules, start, &[mv("d1d3")]).unwrap(),
    ];
    let mut config = ReviewConfig {
        limits: Limits {
            nodes: Some(3000),
            ..Limits::default()
        },
        ..ReviewConfig::default()
    };
    let mut calls = Vec::new();
    let one = engine()
        .review(&games, &config, Cancel::Never, |d, t| calls.push((d, t)))
        .unwrap();
    assert_eq!(calls, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
    config.concurrency = 3;
    let several = engine()
        .review(&games, &config, Cancel::Never, |_, _| {})
        .unwrap();
    assert_eq!(several, one);
}

#[test]
fn trace_eval_says_which_evaluation_the_search_uses() {
    let mut engine = engine();
    let board = *engine.board();
    let rules = engine.options().rules;
    let trace = engine.trace_eval();
    assert_eq!(trace.side, board.side_to_move());
    assert_eq!(trace.terms, crate::eval::breakdown(&board, &rules).0);
    assert_eq!(trace.classical, crate::eval::evaluate(&board, &rules));
    let net = engine.network().expect("a network for the default rules");
    let cp = net.net.evaluate_board(&board);
    assert_eq!(
        trace.network,
        NetworkEval::Used {
            cp,
            family: RuleFamily::Default,
            source: net.source,
        }
    );
    assert_eq!((trace.evaluation, engine.evaluation()), (cp, cp));

    engine.set_option("Eval", Some("Classical")).unwrap();
    let trace = engine.trace_eval();
    assert_eq!(trace.network, NetworkEval::Off);
    assert_eq!(trace.evaluation, trace.classical);
    assert_eq!(engine.evaluation(), trace.classical);

    engine.set_option("Eval", Some("Network")).unwrap();
    engine.set_option("KingArmed", Some("false")).unwrap();
    let trace = engine.trace_eval();
    assert_eq!(trace.network, NetworkEval::NoneFor(RuleFamily::Other));
    assert_eq!(trace.evaluation, trace.classical);
    assert_eq!(engine.evaluation(), trace.classical);
}
