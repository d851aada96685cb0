//! Strength levels (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Skill Seed`) through the
//! engine every front-end uses, and through the threadless session of the browser build: every
//! level takes a one-move win, the levels from `PARRY_LEVEL` up parry a one-move loss, a seed
//! replays a game and seeds differ, no level uses more nodes than full strength, and the Elo
//! options select the interpolated level.

use konakis::Engine;
use konakis::protocol::options::Options;
use konakis::protocol::{Reply, Threadless};
use konakis::search::{Cancel, Limits, Signal};
use konakis::skill::{self, FULL_STRENGTH, PARRY_LEVEL};
use konakis::{Board, Game, Move, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex};

fn engine(options: &[(&str, &str)]) -> Engine {
    let mut config = Options::default();
    config.settings.hash_mib = 1;
    let mut d = Engine::new(config).expect("a 1 MiB table");
    for (name, value) in options {
        d.set_option(name, Some(value)).expect("a valid option");
    }
    d
}

/// The move `engine` plays in `board` under `limits`, and the nodes it searched.
fn play(engine: &mut Engine, board: &Board, limits: Limits) -> (Move, u64) {
    engine.take_position(*board);
    let outcome = engine
        .search(limits, Cancel::Never, |_, _| {})
        .expect("a search");
    (outcome.best.expect("a move"), engine.nodes())
}

/// Whether `mv` wins on the spot (an escape, a king capture, an encirclement).
fn wins(board: &Board, rules: &Rules, mv: Move) -> bool {
    let mut after = *board;
    after.play(rules, mv);
    after.is_won(rules)
}

/// Whether the side to move has a move that wins on the spot.
fn has_win(board: &Board, rules: &Rules) -> bool {
    board
        .legal_moves(rules)
        .iter()
        .any(|&m| wins(board, rules, m))
}

/// Whether, after `mv`, the opponent can win on the spot.
fn allows_win(board: &Board, rules: &Rules, mv: Move) -> bool {
    let mut after = *board;
    after.play(rules, mv);
    !after.is_won(rules) && has_win(&after, rules)
}

/// Positions along seeded random games where the side to move has a one-move win
/// (`want_win`), or else where some moves let the opponent win next move and others do not
/// (a threat with a parry, and no win of its own to take instead). Up to `count` of each side.
fn positions(rules: &Rules, want_win: bool, count: usize) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(if want_win { 31 } else { 47 });
    let mut found = Vec::new();
    let mut per_side = [0usize; 2];
    for _ in 0..2_000 {
        let mut game = Game::start(*rules);
        for _ in 0..120 {
            if game.status().is_over() {
                break;
            }
            let board = *game.board();
            let side = board.side_to_move() as usize;
            let moves = board.legal_moves(rules).to_vec();
            if per_side[side] < count && board.plies() > 4 {
                let fits = if want_win {
                    has_win(&board, rules)
                } else {
                    !has_win(&board, rules)
                        && moves.iter().any(|&m| allows_win(&board, rules, m))
                        && moves.iter().any(|&m| !allows_win(&board, rules, m))
                };
                if fits {
                    per_side[side] += 1;
                    found.push(board);
                    break;
                }
            }
            let m = moves[rng.random_range(0..moves.len())];
            game.play(m).expect("a legal move");
        }
        if per_side.iter().all(|&n| n >= count) {
            break;
        }
    }
    assert!(per_side.iter().all(|&n| n >= count), "{per_side:?}");
    found
}

/// The game after `plies` moves, each the first legal move after the first eight.
fn opening(plies: usize) -> Game {
    let mut game = Game::start(Rules::default());
    for _ in 0..plies {
        let moves = game.board().legal_moves(game.rules());
        game.play(moves[8.min(moves.len() - 1)]).unwrap();
    }
    game
}

#[test]
fn every_level_takes_a_one_move_win() {
    for rules in [Rules::default(), Rules::ashton()] {
        let boards = positions(&rules, true, 4);
        for level in 0..FULL_STRENGTH {
            let mut d = engine(&[("Skill Level", &level.to_string())]);
            if rules != Rules::default() {
                d.set_option("Ruleset", Some("Ashton")).unwrap();
            }
            for board in &boards {
                let (m, _) = play(&mut d, board, Limits::default());
                assert!(
                    wins(board, &rules, m),
                    "level {level} played {m} in {} ({rules})",
                    board.to_fen()
                );
            }
        }
    }
}

#[test]
fn from_the_parry_level_up_a_one_move_loss_is_parried() {
    let rules = Rules::default();
    let boards = positions(&rules, false, 6);
    // The threats include king captures and escapes: both sides are to move in them.
    assert!(
        boards
            .iter()
            .any(|b| b.side_to_move() == konakis::Side::Attackers)
    );
    assert!(
        boards
            .iter()
            .any(|b| b.side_to_move() == konakis::Side::Defenders)
    );
    for level in PARRY_LEVEL..FULL_STRENGTH {
        for seed in [0, 5] {
            let mut d = engine(&[
                ("Skill Level", &level.to_string()),
                ("Skill Seed", &seed.to_string()),
            ]);
            for board in &boards {
                let (m, _) = play(&mut d, board, Limits::default());
                assert!(
                    !allows_win(board, &rules, m),
                    "level {level} played {m} in {}, which loses next move",
                    board.to_fen()
                );
            }
        }
    }
}

#[test]
fn below_the_parry_level_a_one_move_loss_is_still_played_sometimes() {
    // The lowest levels are beginners: they do not see every threat (else level 0 would not
    // lose most games to a greedy mover, docs/levels.md).
    let rules = Rules::default();
    let boards = positions(&rules, false, 6);
    let mut d = engine(&[("Skill Level", "0")]);
    let blunders = (0..4)
        .flat_map(|_| boards.iter())
        .filter(|board| {
            let (m, _) = play(&mut d, board, Limits::default());
            allows_win(board, &rules, m)
        })
        .count();
    assert!(blunders > 0, "level 0 parried every threat");
}

#[test]
fn a_seed_replays_the_same_moves_and_other_seeds_vary() {
    let game = opening(3);
    let board = *game.board();
    for level in [0, 4, 9] {
        let level = level.to_string();
        let first = play(
            &mut engine(&[("Skill Level", &level), ("Skill Seed", "77")]),
            &board,
            Limits::default(),
        );
        let again = play(
            &mut engine(&[("Skill Level", &level), ("Skill Seed", "77")]),
            &board,
            Limits::default(),
        );
        assert_eq!(
            first, again,
            "level {level}: same seed, same move and nodes"
        );
        let moves: std::collections::HashSet<Move> = (1..=12)
            .map(|seed| {
                let seed = seed.to_string();
                let mut d = engine(&[("Skill Level", &level), ("Skill Seed", &seed)]);
                play(&mut d, &board, Limits::default()).0
            })
            .collect();
        assert!(
            moves.len() >= 2,
            "level {level}: 12 seeds, one move {moves:?}"
        );
    }
    // Seed 0: a new seed every search.
    let mut d = engine(&[("Skill Level", "0")]);
    let moves: std::collections::HashSet<Move> = (0..12)
        .map(|_| play(&mut d, &board, Limits::default()).0)
        .collect();
    assert!(moves.len() >= 2, "seed 0 repeated {moves:?}");
}

#[test]
fn no_level_searches_more_nodes_than_full_strength_at_the_same_limit() {
    let game = opening(2);
    let board = *game.board();
    for nodes in [3_000, 120_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let (_, full) = play(&mut engine(&[]), &board, limits.clone());
        for level in 0..FULL_STRENGTH {
            let mut d = engine(&[("Skill Level", &level.to_string())]);
            let (_, used) = play(&mut d, &board, limits.clone());
            // Every search checks its node limit once per 1,024 nodes, so two searches
            // stopped by the same limit may end a poll apart.
            assert!(
                used <= full + 1_024,
                "level {level}: {used} nodes, full strength {full} at nodes {nodes}"
            );
        }
    }
    // A depth limit: a level stops at its own depth and nodes, far below a deep search.
    let limits = Limits {
        depth: Some(12),
        ..Limits::default()
    };
    let (_, full) = play(&mut engine(&[]), &board, limits.clone());
    for level in [0, 10, FULL_STRENGTH - 1] {
        let mut d = engine(&[("Skill Level", &level.to_string())]);
        let (_, used) = play(&mut d, &board, limits.clone());
        assert!(
            used <= full && used <= skill::LEVELS[usize::from(level)].nodes + 2_048,
            "level {level}: {used} nodes, full strength {full} at depth 12"
        );
    }
}

#[test]
fn limit_strength_with_an_elo_selects_the_interpolated_level() {
    let curve = skill::curve();
    let (lo, hi) = curve.elo_range();
    let mut d = engine(&[]);
    assert_eq!(d.options().settings.skill.strength(), None);
    let e7 = curve.points[7].1.round() as i32;
    let e8 = curve.points[8].1.round() as i32;
    d.set_option("UCI_Elo", Some(&((e7 + e8) / 2).to_string()))
        .unwrap();
    assert_eq!(
        d.options().settings.skill.strength(),
        None,
        "not limited yet"
    );
    d.set_option("UCI_LimitStrength", Some("true")).unwrap();
    let level = d.options().settings.skill.strength().unwrap();
    assert!(level > 7.0 && level < 8.0, "{level}");
    // Skill Level does not matter while the strength is limited by Elo.
    d.set_option("Skill Level", Some("0")).unwrap();
    assert_eq!(d.options().settings.skill.strength(), Some(level));
    d.set_option("UCI_Elo", Some(&hi.to_string())).unwrap();
    assert_eq!(
        d.options().settings.skill.strength(),
        None,
        "the top is full strength"
    );
    d.set_option("UCI_Elo", Some(&lo.to_string())).unwrap();
    assert_eq!(d.options().settings.skill.strength(), Some(0.0));
    // Out of range: one clear error, nothing changed.
    let before = *d.options();
    let e = d
        .set_option("UCI_Elo", Some(&(hi + 1).to_string()))
        .unwrap_err();
    assert!(e.to_string().contains(&format!("from {lo} to {hi}")), "{e}");
    assert!(d.set_option("Skill Level", Some("21")).is_err());
    assert_eq!(*d.options(), before);
}

/// Lines a threadless session writes.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

impl Reply for Lines {
    fn lines(&self, texts: &[String]) {
        self.0.lock().unwrap().extend(texts.iter().cloned());
    }
    fn close(&self) {}
}

fn never() -> Signal {
    Signal::Continue
}

#[test]
fn the_threadless_session_of_the_browser_build_takes_the_strength_options() {
    let session = |level: &str| {
        let out = Lines::default();
        let mut s = Threadless::new(out.clone(), never).unwrap();
        s.line("uci");
        s.line(&format!("setoption name Skill Level value {level}"));
        s.line("setoption name Skill Seed value 3");
        s.line("setoption name Skill Level value 99");
        s.line("position startpos moves d1d3");
        s.line("go nodes 2000");
        std::mem::take(&mut *out.0.lock().unwrap())
    };
    let lines = session("1");
    for name in ["Skill Level", "UCI_LimitStrength", "UCI_Elo", "Skill Seed"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name} not announced"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("Skill Level")),
        "{lines:?}"
    );
    let best = |lines: &[String]| lines.iter().rfind(|l| l.starts_with("bestmove")).cloned();
    assert!(best(&lines).is_some(), "{lines:?}");
    assert_eq!(
        best(&session("1")),
        best(&lines),
        "the seed replays the move"
    );
}

#[test]
fn level_0_answers_with_a_legal_move_and_no_search() {
    let game = opening(4);
    let rules = Rules::default();
    for seed in 1..=5 {
        let seed = seed.to_string();
        let mut d = engine(&[("Skill Level", "0"), ("Skill Seed", &seed)]);
        let (m, nodes) = play(&mut d, game.board(), Limits::default());
        assert!(game.board().legal_moves(&rules).contains(&m));
        assert_eq!(nodes, 0, "level 0 searched");
    }
}

/// The moves level 0 plays in `board`, one search per seed from 1 to `seeds`, each seed a
/// fresh engine (as a new game with that `Skill Seed`).
fn level_0_moves(board: &Board, rules: &Rules, seeds: u64) -> Vec<Move> {
    (1..=seeds)
        .map(|seed| {
            let mut d = engine(&[("Skill Level", "0"), ("Skill Seed", &seed.to_string())]);
            if *rules != Rules::default() {
                d.set_option("Ruleset", Some("Ashton")).unwrap();
            }
            play(&mut d, board, Limits::default()).0
        })
        .collect()
}

/// Whether `mv` captures a piece.
fn captures(board: &Board, rules: &Rules, mv: Move) -> bool {
    let mut after = *board;
    !after.play(rules, mv).is_empty()
}

#[test]
fn level_0_takes_the_win_on_the_board_in_fixed_positions() {
    let rules = Rules::default();
    // The king's file to e1 is open (defenders to move); the king off the throne between an
    // attacker and a square an attacker can reach (attackers to move).
    for (fen, win) in [
        ("9/9/9/4b4/3bKb3/9/9/8b/b8 w", "e5e1"),
        ("9/9/9/9/9/9/1bK4b1/9/9 b", "h3d3"),
    ] {
        let board = Board::from_fen(fen).unwrap();
        let want = Move::parse(win).unwrap();
        assert!(wins(&board, &rules, want), "{win} does not win in {fen}");
        for m in level_0_moves(&board, &rules, 20) {
            assert_eq!(m, want, "level 0 missed the win in {fen}");
        }
    }
}

#[test]
fn level_0_takes_a_capture_far_more_often_than_a_random_move() {
    // The king is boxed in by his own men; of the attackers only the soldier on c7 can move,
    // and it can take the defender on b1 against the soldier on a1 (c7c1), its only capture.
    let rules = Rules::default();
    let board = Board::from_fen("9/9/2b6/4w4/3wKw3/4w4/9/w8/bw7 b").unwrap();
    let moves = board.legal_moves(&rules).to_vec();
    let capture = Move::parse("c7c1").unwrap();
    let all: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| captures(&board, &rules, m))
        .collect();
    assert_eq!(all, vec![capture], "{moves:?}");
    assert!(!has_win(&board, &rules));
    let played = level_0_moves(&board, &rules, 400);
    let taken = played.iter().filter(|&&m| m == capture).count();
    // A random mover takes it in one game of moves.len() (one in sixteen); level 0 sees it
    // at a quarter of its moves besides.
    let random = 400 / moves.len();
    assert!(
        taken >= 80 && taken > 3 * random,
        "level 0 took the capture {taken} times of 400 ({} moves)",
        moves.len()
    );
    let varied: std::collections::HashSet<&Move> = played.iter().collect();
    assert!(varied.len() > 5, "{varied:?}");
}

#[test]
fn level_0_parries_a_king_escape_next_move_sometimes() {
    // Attackers to move; the king's file down to e1 is open. Blocking it on e1 to e4 parries.
    let rules = Rules::default();
    let board = Board::from_fen("9/9/9/4b4/3bKb3/9/9/8b/b8 b").unwrap();
    let moves = board.legal_moves(&rules).to_vec();
    assert!(!has_win(&board, &rules));
    let parries = moves
        .iter()
        .filter(|&&m| !allows_win(&board, &rules, m))
        .count();
    assert!(parries > 0 && parries < moves.len());
    let played = level_0_moves(&board, &rules, 500);
    let parried = played
        .iter()
        .filter(|&&m| !allows_win(&board, &rules, m))
        .count();
    // A random mover parries in parries/moves of its games (two of 65 moves); level 0 sees
    // the threat in about three of ten, and is a beginner: not always.
    let random = 500 * parries / moves.len();
    assert!(
        parried >= 100 && parried > 3 * random && parried < 500,
        "level 0 parried {parried} times of 500 (a random mover about {random})"
    );
}

#[test]
fn level_0_varies_its_moves_from_the_start_position() {
    let rules = Rules::default();
    let board = Board::start(&rules);
    let played = level_0_moves(&board, &rules, 30);
    let varied: std::collections::HashSet<&Move> = played.iter().collect();
    assert!(
        varied.len() >= 10,
        "30 seeds, {} moves: {varied:?}",
        varied.len()
    );
}

#[test]
fn level_0_parries_a_threat_the_opponent_let_stand_every_time() {
    // The defenders could escape with e5e1 and play h9h8 instead: the open file has stood
    // through their move, and level 0 (attackers) sees it every time and blocks it.
    let rules = Rules::default();
    let board = Board::from_fen("7w1/9/9/4b4/3bKb3/9/9/8b/b8 w").unwrap();
    assert!(wins(&board, &rules, Move::parse("e5e1").unwrap()));
    let passed = Move::parse("h9h8").unwrap();
    let mut after = board;
    after.play(&rules, passed);
    for seed in 1..=100 {
        let mut d = engine(&[("Skill Level", "0"), ("Skill Seed", &seed.to_string())]);
        d.take_position(board);
        d.play(passed).unwrap();
        let outcome = d
            .search(Limits::default(), Cancel::Never, |_, _| {})
            .expect("a search");
        let m = outcome.best.expect("a move");
        assert!(
            !allows_win(&after, &rules, m),
            "seed {seed}: level 0 played {m} and let the king out"
        );
    }
}
