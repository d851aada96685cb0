//! Randomised tests of the rules core against slow, obviously-correct reference code written
//! here from the README's rules (and, for `Ruleset=Ashton`, from the Tablut Challenge server's): legal moves, captures,
//! Zobrist keys, game invariants, parsing of position strings, moves and rule options, and
//! perft.
//!
//! Every test is driven by a fixed seed, so a failure reproduces; failure messages carry the
//! position string and the rule options needed to replay it.

use crate::common::reference::*;
use konakis::perft::{divide, perft, perft_slow};
use konakis::{
    Board, DrawReason, Game, GameError, KingCapture, Move, Rules, Side, Status, WinReason,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::panic::catch_unwind;

fn board_bits(b: &Board) -> (u128, u128, Option<usize>) {
    (
        b.attackers().bits(),
        b.defenders().bits(),
        b.king().map(|k| k.index()),
    )
}

fn ctx(pos: &Pos, rules: &Rules) -> String {
    format!("position '{}' with rules {rules}", pos.fen())
}

/// A random position as Ashton games reach them: black soldiers often on their camps and
/// anywhere else, white soldiers and the king never on a camp square (the king often on or
/// near the throne, sometimes already on the edge).
fn random_ashton_placement(rng: &mut StdRng) -> Pos {
    let ring = neighbours(THRONE);
    let free = (0..81).filter(|&s| !is_camp(s) && s != THRONE);
    let edge: Vec<usize> = free.clone().filter(|&s| on_edge(s)).collect();
    let inner: Vec<usize> = free.filter(|&s| !on_edge(s)).collect();
    let king = match rng.random_range(0..10) {
        0..=2 => THRONE,
        3..=4 => *ring.choose(rng).unwrap(),
        5 => *edge.choose(rng).unwrap(),
        _ => *inner.choose(rng).unwrap(),
    };
    let in_camp: f64 = rng.random_range(0.2..1.0);
    let pa: f64 = rng.random_range(0.02..0.35);
    let pd: f64 = rng.random_range(0.0..0.25);
    let crowd = rng.random_bool(0.3);
    let mut cells = [Cell::Empty; 81];
    for (s, cell) in cells.iter_mut().enumerate() {
        if s == THRONE || s == king {
            continue;
        }
        let near = crowd && distance(s, THRONE) <= 2;
        let (black, white) = if near { (0.45, 0.3) } else { (pa, pd) };
        let x: f64 = rng.random();
        *cell = if is_camp(s) {
            if x < in_camp { Cell::Att } else { Cell::Empty }
        } else if x < black {
            Cell::Att
        } else if x < black + white {
            Cell::Def
        } else {
            Cell::Empty
        };
    }
    cells[king] = Cell::King;
    Pos {
        cells,
        side: if rng.random() {
            Side::Attackers
        } else {
            Side::Defenders
        },
        plies: rng.random_range(0..300),
    }
}

// ---------------------------------------------------------------------------------------------
// Random rules and positions.
// ---------------------------------------------------------------------------------------------

/// Every field of `Rules` at random (a struct literal, so a new field must be added here).
fn random_rules(rng: &mut StdRng) -> Rules {
    Rules {
        ruleset: konakis::Ruleset::Linnaeus,
        king_capture: if rng.random() {
            KingCapture::Original
        } else {
            KingCapture::English
        },
        first_move: if rng.random() {
            Side::Attackers
        } else {
            Side::Defenders
        },
        king_armed: rng.random(),
        throne_hostile: rng.random(),
        king_reenters_throne: rng.random(),
        throne_passable: rng.random(),
        throne_guard_capture: rng.random(),
        repetition_draw: rng.random_range(2..=10),
        move_limit: match rng.random_range(0..4) {
            0 => 0,
            1 => rng.random_range(1..=60),
            2 => rng.random_range(60..=300),
            _ => rng.random_range(300..=10_000),
        },
        encirclement: rng.random(),
        // The reference here knows Tablut's rules only: the family's fields keep Tablut's values
        // (tests/data/rules and crates/core/tests check the family's rules).
        escape: konakis_core::Escape::Edge,
        throne: true,
        corners_hostile: false,
        shieldwall: konakis_core::Shieldwall::None,
        exit_fort: konakis_core::ExitFort::None,
        enclosure: false,
        repetition: konakis_core::Repetition::Draw,
        king_moves_one_square: false,
        foteviken_camps: false,
        cannot_escape: false,
    }
}

/// The named rule sets and a few random ones.
fn rule_sets(rng: &mut StdRng) -> Vec<Rules> {
    let mut sets = vec![
        Rules::default(),
        Rules::tafl_hub(),
        Rules::encyclopedia(),
        Rules::opentafl(),
        Rules::ashton(),
    ];
    sets.extend((0..4).map(|_| random_rules(rng)));
    sets
}

/// A random valid placement built as cells (and so as a position string): one king anywhere
/// (often on or beside the throne), random soldiers never on the throne. Some placements crowd
/// the throne (throne captures), besiege the king on it (rule 10), or wall the defenders in
/// with attackers (encirclement).
fn random_placement(rng: &mut StdRng) -> Pos {
    let ring = neighbours(THRONE);
    let mode = rng.random_range(0..10);
    let king = match rng.random_range(0..8) {
        _ if mode == 8 => THRONE,
        0 | 1 => THRONE,
        2 | 3 => *ring.choose(rng).unwrap(),
        _ if mode == 9 => {
            let near: Vec<usize> = (0..81).filter(|&s| distance(s, THRONE) <= 2).collect();
            *near.choose(rng).unwrap()
        }
        _ => rng.random_range(0..81),
    };
    let pa: f64 = rng.random_range(0.0..0.5);
    let pd: f64 = rng.random_range(0.0..0.3);
    let wall = rng.random_range(2..=3usize);
    let mut cells = [Cell::Empty; 81];
    for (s, c) in cells.iter_mut().enumerate() {
        if s == THRONE || s == king {
            continue;
        }
        let chebyshev = (s % 9).abs_diff(4).max((s / 9).abs_diff(4));
        let (a, d) = match mode {
            // Crowded around the throne.
            5..=7 if distance(s, THRONE) <= 2 => (0.55, 0.3),
            // A wall of attackers, with defenders inside and few pieces outside.
            9 if chebyshev == wall => (0.93, 0.0),
            9 if chebyshev < wall => (0.0, 0.35),
            9 => (0.1, 0.02),
            _ => (pa, pd),
        };
        let x: f64 = rng.random();
        *c = if x < a {
            Cell::Att
        } else if x < a + d {
            Cell::Def
        } else {
            Cell::Empty
        };
    }
    if mode == 8 {
        // The king besieged on the throne: attackers on three sides, a guard on the fourth.
        let guard = *ring.choose(rng).unwrap();
        for &s in &ring {
            cells[s] = if s == guard { Cell::Def } else { Cell::Att };
        }
    }
    cells[king] = Cell::King;
    Pos {
        cells,
        side: if rng.random() {
            Side::Attackers
        } else {
            Side::Defenders
        },
        plies: rng.random_range(0..300),
    }
}

/// The start position or a random placement, as a board.
fn random_start(rng: &mut StdRng, rules: &Rules) -> Board {
    if rng.random_bool(0.6) {
        Board::start(rules)
    } else {
        random_placement(rng).board()
    }
}

/// The boards of one random game from `start` (included), until it is won, has no move, or
/// `max_plies` moves have been played.
fn random_game(rng: &mut StdRng, rules: &Rules, start: Board, max_plies: usize) -> Vec<Board> {
    let mut boards = vec![start];
    let mut b = start;
    for _ in 0..max_plies {
        let moves = b.legal_moves(rules);
        let Some(&mv) = moves.choose(rng) else { break };
        b.play(rules, mv);
        boards.push(b);
    }
    boards
}

// ---------------------------------------------------------------------------------------------
// Move generation.
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct MovegenTally {
    positions: usize,
    won: usize,
    king_stops_on_throne: usize,
    crosses_throne: usize,
    moves: usize,
}

fn check_movegen(board: &Board, rules: &Rules, rng: &mut StdRng, tally: &mut MovegenTally) {
    let pos = Pos::from_board(board);
    let want = ref_legal(&pos, rules);
    let here = ctx(&pos, rules);

    let list = board.legal_moves(rules);
    let mut got: Vec<(usize, usize)> = list.iter().map(|&m| from_move(m)).collect();
    got.sort_unstable();
    let n = got.len();
    got.dedup();
    assert_eq!(got.len(), n, "legal_moves repeats a move in {here}");
    if got != want {
        let missing: Vec<_> = want.iter().filter(|m| !got.contains(m)).copied().collect();
        let extra: Vec<_> = got.iter().filter(|m| !want.contains(m)).copied().collect();
        panic!(
            "legal_moves differs from the reference in {here}: missing [{}], not legal [{}]",
            move_names(&missing),
            move_names(&extra)
        );
    }
    assert_eq!(
        board.count_moves(rules) as usize,
        want.len(),
        "count_moves in {here}"
    );
    assert_eq!(
        board.has_move(rules),
        !want.is_empty(),
        "has_move in {here}"
    );
    for side in Side::BOTH {
        assert_eq!(
            board.count_moves_of(rules, side) as usize,
            ref_moves_of(&pos, rules, side).len(),
            "count_moves_of({side:?}) in {here}"
        );
    }
    let (att, def) = board.count_moves_both(rules);
    assert_eq!(
        (att as usize, def as usize),
        (
            ref_moves_of(&pos, rules, Side::Attackers).len(),
            ref_moves_of(&pos, rules, Side::Defenders).len()
        ),
        "count_moves_both in {here}"
    );
    assert_eq!(
        board.is_won(rules),
        ref_won(&pos, rules),
        "is_won in {here}"
    );
    if pos.king().is_some() {
        assert_eq!(
            board.is_encircled(),
            ref_encircled(&pos),
            "is_encircled in {here}"
        );
    }

    // for_each_piece_moves: each piece once, with a non-empty set, adding up to the same moves.
    let mut froms = Vec::new();
    let mut each = Vec::new();
    board.for_each_piece_moves(rules, |from, dests| {
        assert!(
            !dests.is_empty(),
            "empty destination set for {from} in {here}"
        );
        froms.push(from.index());
        each.extend(dests.map(|to| (from.index(), to.index())));
    });
    let nf = froms.len();
    froms.sort_unstable();
    froms.dedup();
    assert_eq!(
        froms.len(),
        nf,
        "for_each_piece_moves repeats a piece in {here}"
    );
    each.sort_unstable();
    assert_eq!(each, want, "for_each_piece_moves in {here}");

    // check_move agrees on every legal move and on random pairs of squares.
    for &m in &want {
        if let Err(e) = board.check_move(rules, to_move(m)) {
            panic!(
                "check_move rejects legal {} in {here}: {e}",
                move_names(&[m])
            );
        }
    }
    for _ in 0..8 {
        let m = (rng.random_range(0..81), rng.random_range(0..81));
        let ok = board.check_move(rules, to_move(m)).is_ok();
        assert_eq!(
            ok,
            want.binary_search(&m).is_ok(),
            "check_move({}) in {here}",
            move_names(&[m])
        );
    }

    tally.positions += 1;
    tally.moves += want.len();
    if ref_won(&pos, rules) {
        tally.won += 1;
    }
    if want.iter().any(|&(_, t)| t == THRONE) {
        tally.king_stops_on_throne += 1;
    }
    let crosses = |&(f, t): &(usize, usize)| {
        (f % 9 == 4 && t % 9 == 4 && (f / 9).min(t / 9) < 4 && (f / 9).max(t / 9) > 4)
            || (f / 9 == 4 && t / 9 == 4 && (f % 9).min(t % 9) < 4 && (f % 9).max(t % 9) > 4)
    };
    if want.iter().any(crosses) {
        tally.crosses_throne += 1;
    }
}

#[test]
fn legal_moves_and_counts_match_a_square_by_square_reference() {
    let mut rng = StdRng::seed_from_u64(0x6d6f_7665);
    let mut tally = MovegenTally::default();
    // Random placements under random options.
    for _ in 0..6_000 {
        let rules = random_rules(&mut rng);
        let pos = random_placement(&mut rng);
        let board = pos.board();
        assert_eq!(
            Pos::from_board(&board),
            pos,
            "'{}' parsed wrongly",
            pos.fen()
        );
        check_movegen(&board, &rules, &mut rng, &mut tally);
    }
    // Positions of random games, from the start and from random placements.
    for _ in 0..700 {
        let rules = random_rules(&mut rng);
        let start = random_start(&mut rng, &rules);
        for board in random_game(&mut rng, &rules, start, 250) {
            check_movegen(&board, &rules, &mut rng, &mut tally);
        }
    }
    assert!(tally.positions > 50_000, "{} positions", tally.positions);
    assert!(tally.won > 500, "{} won positions", tally.won);
    assert!(tally.king_stops_on_throne > 500);
    assert!(tally.crosses_throne > 500);
    assert!(tally.moves > 1_000_000);
}

// ---------------------------------------------------------------------------------------------
// Captures.
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct CaptureTally {
    moves: usize,
    capturing_moves: usize,
    multi: usize,
    triple: usize,
    by_attackers: usize,
    by_defenders: usize,
    partners: HashMap<String, usize>,
    king_moved_captures: usize,
    unarmed_king_spared: usize,
    king_taken: HashMap<String, usize>,
    king_safe_next_to_mover: usize,
}

fn check_captures(board: &Board, rules: &Rules, tally: &mut CaptureTally) {
    let pos = Pos::from_board(board);
    for (f, t) in ref_legal(&pos, rules) {
        let want = ref_play(&pos, rules, f, t);
        let mut after = *board;
        let captured = after.play(rules, to_move((f, t)));
        let got: Vec<usize> = captured.map(|s| s.index()).collect();
        let here = || format!("{} after {}", ctx(&pos, rules), move_names(&[(f, t)]));
        if board_bits(&after) != want.pos.bits() || got != want.captured {
            panic!(
                "play differs from the reference in {}: got '{}' capturing [{}], expected '{}' \
                 capturing [{}]{}",
                here(),
                after.to_fen(),
                got.iter().map(|&s| name(s)).collect::<Vec<_>>().join(" "),
                want.pos.fen(),
                want.captured
                    .iter()
                    .map(|&s| name(s))
                    .collect::<Vec<_>>()
                    .join(" "),
                match want.king_taken {
                    Some(k) => format!(" and the king ({k:?})"),
                    None => String::new(),
                }
            );
        }
        assert_eq!(after.side_to_move(), want.pos.side, "side in {}", here());
        assert_eq!(after.plies(), want.pos.plies, "plies in {}", here());
        assert_eq!(after.hash(), after.compute_hash(), "key in {}", here());
        assert!(got.len() <= 3, "more than three soldiers in {}", here());

        tally.moves += 1;
        if !got.is_empty() || want.king_taken.is_some() {
            tally.capturing_moves += 1;
            // On capturing moves compare the whole position strings as well.
            assert_eq!(after.to_fen(), want.pos.fen(), "in {}", here());
        }
        if got.len() >= 2 {
            tally.multi += 1;
        }
        if got.len() == 3 {
            tally.triple += 1;
        }
        if !got.is_empty() {
            match pos.side {
                Side::Attackers => tally.by_attackers += 1,
                Side::Defenders => tally.by_defenders += 1,
            }
            if want.king_moved {
                tally.king_moved_captures += 1;
            }
        }
        for p in &want.partners {
            *tally
                .partners
                .entry(format!("{p:?} {:?}", pos.side))
                .or_default() += 1;
        }
        if let Some(k) = want.king_taken {
            *tally
                .king_taken
                .entry(format!("{k:?} {:?}", rules.king_capture))
                .or_default() += 1;
        } else if pos.side == Side::Attackers
            && pos.king().is_some_and(|k| neighbours(t).contains(&k))
        {
            tally.king_safe_next_to_mover += 1;
        }
        // The unarmed king next to an attacker with a defender beyond it: nothing is taken.
        if want.king_moved && !rules.king_armed {
            let spared = (0..4).any(|d| {
                step(t, d).is_some_and(|v| {
                    pos.cells[v] == Cell::Att
                        && step(v, d).is_some_and(|b| want.pos.cells[b] == Cell::Def)
                })
            });
            if spared {
                tally.unarmed_king_spared += 1;
            }
        }
    }
}

#[test]
fn play_captures_match_a_reference_capture_implementation() {
    let mut rng = StdRng::seed_from_u64(0x6361_7074);
    let mut tally = CaptureTally::default();
    for _ in 0..8_000 {
        let rules = random_rules(&mut rng);
        let board = random_placement(&mut rng).board();
        check_captures(&board, &rules, &mut tally);
    }
    for _ in 0..250 {
        let rules = random_rules(&mut rng);
        let start = random_start(&mut rng, &rules);
        for board in random_game(&mut rng, &rules, start, 200) {
            check_captures(&board, &rules, &mut tally);
        }
    }
    // Every kind of capture must have come up, or the comparison proves little.
    let seen = |map: &HashMap<String, usize>, key: &str| map.get(key).copied().unwrap_or(0);
    for key in [
        "Soldier Attackers",
        "Soldier Defenders",
        "King Defenders",
        "Throne Attackers",
        "Throne Defenders",
        "BesiegedKing Attackers",
    ] {
        assert!(
            seen(&tally.partners, key) >= 20,
            "too few '{key}' captures: {tally:?}"
        );
    }
    for key in [
        "OnThrone Original",
        "OnThrone English",
        "BesideThrone Original",
        "BesideThrone English",
        "Sandwich Original",
        "FourSides English",
    ] {
        assert!(
            seen(&tally.king_taken, key) >= 20,
            "too few '{key}' king captures: {tally:?}"
        );
    }
    assert!(tally.multi >= 200 && tally.triple >= 5, "{tally:?}");
    assert!(tally.king_moved_captures >= 100, "{tally:?}");
    assert!(tally.unarmed_king_spared >= 20, "{tally:?}");
    assert!(tally.king_safe_next_to_mover >= 1_000, "{tally:?}");
    assert!(
        tally.by_attackers >= 1_000 && tally.by_defenders >= 1_000,
        "{tally:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys.
// ---------------------------------------------------------------------------------------------

#[test]
fn zobrist_key_equals_recomputation_after_every_move() {
    let mut rng = StdRng::seed_from_u64(0x7a6f_6272);
    // Key -> (attackers, defenders, king, side): equal keys must mean equal positions.
    let mut by_key: HashMap<u64, (u128, u128, Option<usize>, bool)> = HashMap::new();
    let mut moves = 0usize;
    for rules in rule_sets(&mut rng) {
        let start = Board::start(&rules);
        assert_eq!(start.hash(), start.compute_hash(), "start under {rules}");
        assert_eq!(start.side_to_move(), rules.first_move);
        for _ in 0..500 {
            let mut b = if rng.random_bool(0.8) {
                start
            } else {
                random_placement(&mut rng).board()
            };
            assert_eq!(b.hash(), b.compute_hash(), "'{}'", b.to_fen());
            for _ in 0..300 {
                let list = b.legal_moves(&rules);
                let Some(&mv) = list.choose(&mut rng) else {
                    break;
                };
                let before = b;
                b.play(&rules, mv);
                moves += 1;
                assert_eq!(
                    b.hash(),
                    b.compute_hash(),
                    "after {mv} from '{}' under {rules}",
                    before.to_fen()
                );
                if b.king().is_some() {
                    let reparsed = Board::from_fen(&b.to_fen()).unwrap();
                    assert_eq!(reparsed.hash(), b.hash(), "'{}'", b.to_fen());
                }
                let id = (
                    b.attackers().bits(),
                    b.defenders().bits(),
                    b.king().map(|k| k.index()),
                    b.side_to_move() == Side::Defenders,
                );
                let old = *by_key.entry(b.hash()).or_insert(id);
                assert_eq!(old, id, "two positions share the key {:#x}", b.hash());
            }
        }
    }
    assert!(moves > 200_000, "{moves} moves");
}

// ---------------------------------------------------------------------------------------------
// Game invariants.
// ---------------------------------------------------------------------------------------------

#[test]
fn random_games_keep_counts_king_throne_status_and_round_trip_invariants() {
    let mut rng = StdRng::seed_from_u64(0x6761_6d65);
    let mut endings: HashMap<String, usize> = HashMap::new();
    for _ in 0..2_500 {
        let rules = random_rules(&mut rng);
        let start = random_start(&mut rng, &rules);
        let start_fen = start.to_fen();
        let mut game = Game::new(rules, start);
        let mut seen: HashMap<String, usize> = HashMap::new();
        *seen.entry(Pos::from_board(&start).key()).or_default() += 1;
        let mut prev: Option<Pos> = None;
        let shuffle = *[0.0, 0.0, 0.5, 0.95].choose(&mut rng).unwrap();
        loop {
            let board = *game.board();
            let pos = Pos::from_board(&board);
            let here = ctx(&pos, &rules);

            // Exactly one king until he is captured, then none; no soldier on the throne.
            assert!(pos.count(Cell::King) <= 1, "{here}");
            assert_eq!(board.king().map(|k| k.index()), pos.king(), "{here}");
            assert!(
                matches!(pos.cells[THRONE], Cell::Empty | Cell::King),
                "a soldier on the throne: {here}"
            );
            // Position strings round-trip.
            let fen = board.to_fen();
            if pos.king().is_some() {
                let back = Board::from_fen(&fen).unwrap_or_else(|e| panic!("'{fen}': {e}"));
                assert_eq!(back, board, "'{fen}' does not round-trip");
                assert_eq!(back.to_fen(), fen);
                assert_eq!(fen, pos.fen());
            }
            // Piece counts never grow; the mover loses nothing; at most three soldiers a move.
            if let Some(before) = &prev {
                let lost_att = before.count(Cell::Att) as isize - pos.count(Cell::Att) as isize;
                let lost_def = before.count(Cell::Def) as isize - pos.count(Cell::Def) as isize;
                assert!(lost_att >= 0 && lost_def >= 0, "pieces appeared: {here}");
                assert!(lost_att + lost_def <= 3, "{here}");
                match before.side {
                    Side::Attackers => assert_eq!(lost_att, 0, "{here}"),
                    Side::Defenders => {
                        assert_eq!(lost_def, 0, "{here}");
                        assert!(pos.king().is_some(), "{here}");
                    }
                }
                if before.king().is_none() {
                    assert!(pos.king().is_none(), "the king came back: {here}");
                }
                assert_eq!(pos.plies, before.plies + 1);
                assert_eq!(pos.side, opponent(before.side));
            }

            // The status, judged here from the rules, and stable when asked again.
            let occurrences = seen[&pos.key()];
            assert_eq!(game.occurrences(), occurrences, "occurrences in {here}");
            let want = ref_status(&pos, &rules, Some(occurrences));
            assert_eq!(game.status(), want, "status in {here}");
            assert_eq!(game.status(), game.status());
            assert_eq!(
                board.status(&rules),
                ref_status(&pos, &rules, None),
                "Board::status in {here}"
            );
            if pos.king().is_none() {
                assert_eq!(
                    want,
                    Status::Win(Side::Attackers, WinReason::KingCaptured),
                    "{here}"
                );
            }

            if want.is_over() {
                // Once over, it stays over: no move is accepted and nothing changes.
                let legal = board.legal_moves(&rules);
                let mv = legal.first().copied().unwrap_or_else(|| {
                    to_move(
                        ref_moves_of(&pos, &rules, pos.side)
                            .first()
                            .copied()
                            .unwrap_or((0, 1)),
                    )
                });
                let n = game.moves().len();
                assert_eq!(game.play(mv), Err(GameError::Over(want)), "{here}");
                assert_eq!(
                    game.play_text(&mv.to_string()),
                    Err(GameError::Over(want)),
                    "{here}"
                );
                assert_eq!(game.status(), want);
                assert_eq!(game.moves().len(), n);
                assert_eq!(*game.board(), board);
                *endings.entry(format!("{want:?}")).or_default() += 1;
                break;
            }
            if game.moves().len() >= 400 {
                *endings.entry("cut".into()).or_default() += 1;
                break;
            }
            let legal = ref_legal(&pos, &rules);
            // Sometimes a piece goes back where it came from, so that positions repeat.
            let back = game
                .moves()
                .len()
                .checked_sub(2)
                .map(|i| game.moves()[i])
                .map(|m| (m.to().index(), m.from().index()))
                .filter(|m| legal.binary_search(m).is_ok() && rng.random_bool(shuffle));
            let m = back
                .unwrap_or_else(|| *legal.choose(&mut rng).expect("an ongoing game has a move"));
            let status = game
                .play(to_move(m))
                .unwrap_or_else(|e| panic!("{} refused in {here}: {e}", move_names(&[m])));
            assert_eq!(status, game.status());
            *seen.entry(Pos::from_board(game.board()).key()).or_default() += 1;
            prev = Some(pos);
        }

        // Replaying the moves from the start string gives the same game.
        let texts: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        let replay = Game::from_moves(rules, Some(&start_fen), texts.iter().map(|s| s.as_str()))
            .unwrap_or_else(|e| panic!("replay from '{start_fen}' under {rules}: {e}"));
        assert_eq!(replay.status(), game.status(), "replay from '{start_fen}'");
        assert_eq!(replay.board(), game.board());
        assert_eq!(replay.keys(), game.keys());
        if game.status().is_over() {
            let mut more = texts.clone();
            more.push("a1a2".into());
            match Game::from_moves(rules, Some(&start_fen), more.iter().map(|s| s.as_str())) {
                Err(GameError::AfterEnd { index, .. }) => assert_eq!(index, texts.len()),
                other => panic!("a move after the end was accepted: {other:?}"),
            }
        }
    }
    // The endings must be varied for the test to mean much.
    for key in [
        "Win(Defenders, KingEscaped)",
        "Win(Attackers, KingCaptured)",
        "Win(Attackers, Encircled)",
        "Draw(Repetition)",
        "Draw(MoveLimit)",
    ] {
        assert!(
            endings.get(key).copied().unwrap_or(0) >= 5,
            "too few '{key}': {endings:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing.
// ---------------------------------------------------------------------------------------------

const FUZZ_CHARS: &[char] = &[
    'b', 'w', 'K', 'k', 'B', 'W', '/', ' ', ' ', '0', '1', '2', '3', '4', '5', '8', '9', '-', '+',
    'x', '\t', '\n', '\u{0}', 'é', '€', '\u{a0}', '\u{2003}', '１', '٣', '\u{feff}',
];

const HUGE: &[&str] = &[
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-1",
    "-0",
    "+7",
    "0x10",
    "1e3",
    "007",
    "",
    "٣",
];

/// A few random edits of `s`: deletions, duplications, swaps, random digits and characters,
/// extra fields and huge numbers.
fn mutate(rng: &mut StdRng, s: &str) -> String {
    let mut c: Vec<char> = s.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        let len = c.len();
        let at = rng.random_range(0..=len);
        let inside = at.min(len.saturating_sub(1));
        match rng.random_range(0..11) {
            0 if len > 0 => {
                c.remove(inside);
            }
            1 if len > 0 => {
                let ch = c[inside];
                c.insert(inside, ch);
            }
            2 if len > 1 => c.swap(inside.min(len - 2), inside.min(len - 2) + 1),
            3 if len > 0 => c[inside] = char::from(b'0' + rng.random_range(0..10u8)),
            4 if len > 0 => c[inside] = *FUZZ_CHARS.choose(rng).unwrap(),
            5 => c.insert(at, *FUZZ_CHARS.choose(rng).unwrap()),
            6 => {
                let extra = [" 0", " b", " w", " 12 34", " x", "  ", "\t7", " K"];
                c.extend(extra.choose(rng).unwrap().chars());
            }
            7 => {
                // Replace (or add) the ply count with something odd.
                let text: String = c.iter().collect();
                let mut fields: Vec<String> = text.split(' ').map(|f| f.to_string()).collect();
                let huge = HUGE.choose(rng).unwrap().to_string();
                if fields.len() >= 3 {
                    fields[2] = huge;
                } else {
                    fields.push(huge);
                }
                c = fields.join(" ").chars().collect();
            }
            8 => {
                // Drop or add a rank separator.
                if let Some(i) = c.iter().position(|&x| x == '/').filter(|_| rng.random()) {
                    c.remove(i);
                } else {
                    c.insert(at, '/');
                }
            }
            9 if len > 0 => {
                // A run of digits, possibly a very long one.
                let n = rng.random_range(1..40);
                for _ in 0..n {
                    c.insert(inside, char::from(b'1' + rng.random_range(0..9u8)));
                }
            }
            10 if len > 0 => {
                // Change a piece into another.
                let pieces = ['b', 'w', 'K'];
                if let Some(i) = (0..len)
                    .filter(|&i| pieces.contains(&c[i]))
                    .collect::<Vec<_>>()
                    .choose(rng)
                {
                    c[*i] = *pieces.choose(rng).unwrap();
                }
            }
            _ => {}
        }
    }
    c.into_iter().collect()
}

fn random_bytes_text(rng: &mut StdRng, max_len: usize) -> String {
    let len = rng.random_range(0..=max_len);
    let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_chars_text(rng: &mut StdRng, alphabet: &[char], max_len: usize) -> String {
    let len = rng.random_range(0..=max_len);
    (0..len).map(|_| *alphabet.choose(rng).unwrap()).collect()
}

/// Parses `text` without letting a panic escape, and checks the answer against the reference
/// reader; every accepted string must round-trip. Returns whether it was accepted.
fn check_parse(text: &str) -> bool {
    let result = catch_unwind(|| Board::from_fen(text))
        .unwrap_or_else(|_| panic!("Board::from_fen panicked on {text:?}"));
    let want = ref_parse(text);
    match (&result, &want) {
        (Ok(board), Some(pos)) => {
            assert_eq!(
                &Pos::from_board(board),
                pos,
                "{text:?} read differently from the reference"
            );
            let fen = board.to_fen();
            let back = Board::from_fen(&fen)
                .unwrap_or_else(|e| panic!("to_fen of {text:?} gives '{fen}', rejected: {e}"));
            assert_eq!(&back, board, "{text:?} -> '{fen}' does not round-trip");
            assert_eq!(back.to_fen(), fen);
            assert_eq!(board.hash(), board.compute_hash(), "{text:?}");
            true
        }
        (Err(e), None) => {
            assert!(!e.to_string().is_empty(), "empty error for {text:?}");
            false
        }
        (Ok(board), None) => panic!(
            "{text:?} accepted as '{}', but the README's rules make it invalid",
            board.to_fen()
        ),
        (Err(e), Some(pos)) => panic!("{text:?} (the position '{}') rejected: {e}", pos.fen()),
    }
}

#[test]
fn position_string_fuzz_never_panics_and_accepted_strings_round_trip() {
    let mut rng = StdRng::seed_from_u64(0x6665_6e21);
    let mut valid: Vec<String> = vec![
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0".into(),
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w".into(),
    ];
    for _ in 0..200 {
        valid.push(random_placement(&mut rng).fen());
    }
    for _ in 0..20 {
        let rules = random_rules(&mut rng);
        let start = random_start(&mut rng, &rules);
        let game = random_game(&mut rng, &rules, start, 120);
        for b in game.iter().step_by(10) {
            if b.king().is_some() {
                valid.push(b.to_fen());
            }
        }
    }
    let (mut accepted, mut rejected) = (0usize, 0usize);
    let mut tally = |ok: bool| {
        if ok { accepted += 1 } else { rejected += 1 }
    };
    for v in &valid {
        assert!(check_parse(v), "valid '{v}' rejected");
    }
    for _ in 0..4_000 {
        tally(check_parse(&random_bytes_text(&mut rng, 90)));
        tally(check_parse(&random_chars_text(&mut rng, FUZZ_CHARS, 90)));
    }
    for _ in 0..30_000 {
        let base = valid.choose(&mut rng).unwrap();
        tally(check_parse(&mutate(&mut rng, base)));
    }
    // Byte-level damage of valid strings, read back as lossy UTF-8.
    for _ in 0..5_000 {
        let base = valid.choose(&mut rng).unwrap();
        let mut bytes = base.clone().into_bytes();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..bytes.len());
            bytes[i] = rng.random();
        }
        tally(check_parse(&String::from_utf8_lossy(&bytes)));
    }
    assert!(
        accepted > 1_000 && rejected > 10_000,
        "{accepted} accepted, {rejected} rejected"
    );
}

const MOVE_CHARS: &[char] = &[
    'a', 'b', 'd', 'e', 'i', 'j', 'A', 'E', 'I', 'J', '0', '1', '3', '5', '9', '-', '-', ' ', '\t',
    'é', '\u{0}', '１',
];

fn check_move_parse(text: &str) -> Option<Move> {
    let got = catch_unwind(|| Move::parse(text))
        .unwrap_or_else(|_| panic!("Move::parse panicked on {text:?}"));
    let want = ref_move(text);
    match (got, want) {
        (Ok(m), Some(w)) => {
            assert_eq!(from_move(m), w, "{text:?}");
            assert_eq!(Move::parse(&m.to_string()), Ok(m), "{text:?} -> '{m}'");
            assert_eq!(Move::from_raw(m.raw()), Some(m));
            Some(m)
        }
        (Err(e), None) => {
            assert!(!e.to_string().is_empty());
            None
        }
        (Ok(m), None) => panic!("{text:?} accepted as {m}"),
        (Err(e), Some(w)) => panic!("{text:?} ({}) rejected: {e}", move_names(&[w])),
    }
}

#[test]
fn move_text_fuzz_never_panics_and_parse_move_accepts_exactly_the_legal_moves() {
    let mut rng = StdRng::seed_from_u64(0x6d76_7478);
    // Every pair of squares in both notations and both cases.
    for a in 0..81 {
        for b in 0..81 {
            let plain = format!("{}{}", name(a), name(b));
            check_move_parse(&plain);
            check_move_parse(&format!("{}-{}", name(a), name(b)));
            check_move_parse(&plain.to_uppercase());
        }
    }
    let mut accepted = 0;
    for _ in 0..20_000 {
        let text = match rng.random_range(0..4) {
            0 => random_bytes_text(&mut rng, 8),
            1 => random_chars_text(&mut rng, MOVE_CHARS, 7),
            _ => {
                let (a, b) = (rng.random_range(0..81), rng.random_range(0..81));
                let sep = if rng.random() { "-" } else { "" };
                mutate(&mut rng, &format!("{}{sep}{}", name(a), name(b)))
            }
        };
        accepted += check_move_parse(&text).is_some() as usize;
    }
    assert!(accepted > 50, "{accepted}");
    for raw in 0..=u16::MAX {
        if let Some(m) = Move::from_raw(raw) {
            assert_eq!(m.raw(), raw);
            assert!(m.from().index() < 81 && m.to().index() < 81);
        }
    }

    // Board::parse_move: exactly the legal moves, in either notation.
    for i in 0..1_500 {
        let rules = random_rules(&mut rng);
        let board = if i % 2 == 0 {
            random_placement(&mut rng).board()
        } else {
            let start = Board::start(&rules);
            let plies = rng.random_range(0..120);
            let game = random_game(&mut rng, &rules, start, plies);
            *game.last().unwrap()
        };
        let pos = Pos::from_board(&board);
        let legal = ref_legal(&pos, &rules);
        for &m in &legal {
            let text = format!("{}{}", name(m.0), name(m.1));
            assert_eq!(
                board.parse_move(&rules, &text).map(from_move),
                Ok(m),
                "{text} in {}",
                ctx(&pos, &rules)
            );
            let dashed = format!(" {}-{} ", name(m.0), name(m.1));
            assert_eq!(board.parse_move(&rules, &dashed).map(from_move), Ok(m));
        }
        for _ in 0..30 {
            let text = match rng.random_range(0..3) {
                0 => random_chars_text(&mut rng, MOVE_CHARS, 6),
                1 => {
                    let (a, b) = (rng.random_range(0..81), rng.random_range(0..81));
                    format!("{}{}", name(a), name(b))
                }
                _ => match legal.choose(&mut rng) {
                    Some(&(a, b)) => mutate(&mut rng, &format!("{}{}", name(a), name(b))),
                    None => random_bytes_text(&mut rng, 6),
                },
            };
            let got = catch_unwind(|| board.parse_move(&rules, &text)).unwrap_or_else(|_| {
                panic!("parse_move panicked on {text:?} in {}", ctx(&pos, &rules))
            });
            let want = ref_move(&text).filter(|m| legal.binary_search(m).is_ok());
            match (got, want) {
                (Ok(m), Some(w)) => assert_eq!(from_move(m), w),
                (Err(e), None) => assert!(!e.to_string().is_empty()),
                (got, want) => panic!(
                    "parse_move({text:?}) = {got:?}, expected {want:?} in {}",
                    ctx(&pos, &rules)
                ),
            }
        }
    }
}

#[test]
fn rule_option_fuzz_never_panics_and_matches_the_option_table() {
    let mut rng = StdRng::seed_from_u64(0x7275_6c65);
    let names: Vec<&str> = Rules::OPTIONS.iter().map(|o| o.name).collect();
    assert_eq!(
        names.len(),
        11,
        "the README lists ten options, and Ruleset chooses Ashton"
    );
    let values = [
        "true",
        "false",
        "TRUE",
        "False",
        "tRuE",
        "yes",
        "1",
        "0",
        "2",
        "3",
        "10",
        "11",
        "200",
        "10000",
        "10001",
        "-1",
        "+5",
        " 7 ",
        "4294967296",
        "99999999999999999999",
        "Original",
        "english",
        "ENGLISH",
        "Salmi",
        "Attackers",
        "defenders",
        "DEFENDERS",
        "white",
        "Linnaeus",
        "ashton",
        "ASHTON",
        "Ashtonn",
        "",
        " ",
        "٣",
        "１",
        "true false",
    ];
    let mut ok = 0;
    for _ in 0..40_000 {
        let name = match rng.random_range(0..5) {
            0 | 1 => {
                let n = *names.choose(&mut rng).unwrap();
                // Random case, sometimes padded.
                let mixed: String = n
                    .chars()
                    .map(|c| {
                        if rng.random() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect();
                if rng.random_bool(0.2) {
                    format!(" {mixed}\t")
                } else {
                    mixed
                }
            }
            2 => {
                let n = *names.choose(&mut rng).unwrap();
                mutate(&mut rng, n)
            }
            3 => random_bytes_text(&mut rng, 20),
            _ => random_chars_text(&mut rng, &['k', 'i', 'n', 'g', 'K', 'A', '=', ' '], 12),
        };
        let value = match rng.random_range(0..4) {
            0 | 1 => values.choose(&mut rng).unwrap().to_string(),
            2 => {
                let v = *values.choose(&mut rng).unwrap();
                mutate(&mut rng, v)
            }
            _ => random_bytes_text(&mut rng, 12),
        };
        let before = if rng.random_bool(0.2) {
            Rules::ashton()
        } else {
            random_rules(&mut rng)
        };
        let mut after = before;
        let got = catch_unwind(move || {
            let r = after.set(&name, &value);
            (r, after, name, value)
        });
        let Ok((result, after, name, value)) = got else {
            panic!("Rules::set panicked");
        };
        let want = ref_set(&before, &name, &value);
        match (&result, want) {
            (Ok(()), Some(w)) => {
                assert_eq!(after, w, "set({name:?}, {value:?})");
                ok += 1;
                let shown = after.get(&name).expect("a name that was set has a value");
                assert!(
                    shown.eq_ignore_ascii_case(value.trim())
                        || shown.parse::<u32>().ok() == value.trim().parse::<u32>().ok(),
                    "get({name:?}) = {shown:?} after setting {value:?}"
                );
            }
            (Err(e), None) => {
                assert_eq!(
                    after, before,
                    "a failed set({name:?}, {value:?}) changed the rules"
                );
                assert!(!e.to_string().is_empty());
            }
            _ => panic!("set({name:?}, {value:?}) = {result:?}, reference says {want:?}"),
        }
        // Name=Value gives the same answer when the name holds no '='.
        if !name.contains('=') {
            let mut paired = before;
            let r = catch_unwind(move || {
                let r = paired.set_pair(&format!("{name}={value}"));
                (r, paired)
            });
            let Ok((r, paired)) = r else {
                panic!("Rules::set_pair panicked");
            };
            assert_eq!(r.is_ok(), result.is_ok());
            assert_eq!(paired, after);
        }
    }
    assert!(ok > 1_000, "{ok} accepted");
    // Display lists every option and reads back.
    for i in 0..200 {
        let r = if i == 0 {
            Rules::ashton()
        } else {
            random_rules(&mut rng)
        };
        let mut back = Rules::default();
        for pair in r.to_string().split(' ') {
            back.set_pair(pair).unwrap();
        }
        assert_eq!(back, r);
    }
}

// ---------------------------------------------------------------------------------------------
// Perft.
// ---------------------------------------------------------------------------------------------

#[test]
fn perft_matches_perft_slow_and_a_reference_perft_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(0x7065_7266);
    let mut nodes = 0u64;
    for i in 0..1_500 {
        let rules = random_rules(&mut rng);
        let board = match i % 3 {
            0 => random_placement(&mut rng).board(),
            1 => Board::start(&rules),
            _ => {
                let start = random_start(&mut rng, &rules);
                let plies = rng.random_range(0..150);
                let game = random_game(&mut rng, &rules, start, plies);
                *game.last().unwrap()
            }
        };
        let pos = Pos::from_board(&board);
        // Depth 2 is where perft counts the last two plies in bulk.
        let depth = if i % 25 == 0 { 3 } else { 2 };
        let fast = perft(&board, &rules, depth);
        let slow = perft_slow(&board, &rules, depth);
        assert_eq!(fast, slow, "perft({depth}) in {}", ctx(&pos, &rules));
        let split = divide(&board, &rules, depth);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), fast);
        assert_eq!(split.len(), ref_legal(&pos, &rules).len());
        if depth == 2 || i % 100 == 0 {
            assert_eq!(
                fast,
                ref_perft(&pos, &rules, depth),
                "perft({depth}) against the reference in {}",
                ctx(&pos, &rules)
            );
        }
        nodes += fast;
    }
    assert!(nodes > 5_000_000, "{nodes}");
}

// ---------------------------------------------------------------------------------------------
// Ashton.
// ---------------------------------------------------------------------------------------------

#[test]
fn ashton_moves_captures_and_perft_match_a_reference_written_from_the_server_rules() {
    let rules = Rules::ashton();
    let mut rng = StdRng::seed_from_u64(0x6173_6874);
    let mut moves = MovegenTally::default();
    let mut caps = CaptureTally::default();
    for _ in 0..4_000 {
        let pos = random_ashton_placement(&mut rng);
        let board = pos.board();
        assert_eq!(Pos::from_board(&board), pos);
        check_movegen(&board, &rules, &mut rng, &mut moves);
        check_captures(&board, &rules, &mut caps);
    }
    for _ in 0..300 {
        for board in random_game(&mut rng, &rules, Board::start(&rules), 200) {
            check_movegen(&board, &rules, &mut rng, &mut moves);
            check_captures(&board, &rules, &mut caps);
        }
    }
    assert!(
        moves.positions > 30_000 && moves.won > 500,
        "{} positions",
        moves.positions
    );
    // Every kind of capture must have come up, or the comparison proves little.
    let seen = |map: &HashMap<String, usize>, key: &str| map.get(key).copied().unwrap_or(0);
    for key in [
        "Soldier Attackers",
        "Soldier Defenders",
        "King Defenders",
        "Throne Attackers",
        "Throne Defenders",
        "Camp Attackers",
        "Camp Defenders",
    ] {
        assert!(
            seen(&caps.partners, key) >= 20,
            "too few '{key}' captures: {caps:?}"
        );
    }
    for key in ["OnThrone", "BesideThrone", "Sandwich", "AgainstCamp"] {
        let key = format!("{key} Original");
        assert!(
            seen(&caps.king_taken, &key) >= 20,
            "too few '{key}': {caps:?}"
        );
    }
    assert!(
        caps.multi >= 100 && caps.king_moved_captures >= 100,
        "{caps:?}"
    );

    // Perft, bulk-counted and plain, against the reference's own tree.
    for i in 0..300 {
        let board = if i % 2 == 0 {
            random_ashton_placement(&mut rng).board()
        } else {
            let plies = rng.random_range(0..80);
            *random_game(&mut rng, &rules, Board::start(&rules), plies)
                .last()
                .unwrap()
        };
        let pos = Pos::from_board(&board);
        let depth = if i % 20 == 0 { 3 } else { 2 };
        let fast = perft(&board, &rules, depth);
        assert_eq!(
            fast,
            perft_slow(&board, &rules, depth),
            "{}",
            ctx(&pos, &rules)
        );
        assert_eq!(
            fast,
            ref_perft(&pos, &rules, depth),
            "{}",
            ctx(&pos, &rules)
        );
    }
}

#[test]
fn ashton_games_end_as_the_server_ends_them() {
    let rules = Rules::ashton();
    let mut rng = StdRng::seed_from_u64(0x7365_7276);
    let mut endings: HashMap<String, usize> = HashMap::new();
    for g in 0..800 {
        let start = if g % 4 == 0 {
            random_ashton_placement(&mut rng).board()
        } else {
            Board::start(&rules)
        };
        let mut game = Game::new(rules, start);
        let mut pos = Pos::from_board(&start);
        assert_eq!(
            game.status(),
            ref_status(&pos, &rules, None),
            "{}",
            ctx(&pos, &rules)
        );
        if game.status().is_over() {
            continue;
        }
        // The server's repetition list: positions after moves (not the start), emptied
        // whenever a move captures a soldier.
        let mut remembered: Vec<String> = Vec::new();
        let shuffle = *[0.0, 0.5, 0.9].choose(&mut rng).unwrap();
        loop {
            let legal = ref_legal(&pos, &rules);
            // Sometimes a piece goes back where it came from, so that positions repeat.
            let back = game
                .moves()
                .len()
                .checked_sub(2)
                .map(|i| from_move(game.moves()[i]))
                .map(|(f, t)| (t, f))
                .filter(|m| legal.binary_search(m).is_ok() && rng.random_bool(shuffle));
            let m = back.unwrap_or_else(|| *legal.choose(&mut rng).expect("a move"));
            let here = format!("{} after {}", ctx(&pos, &rules), move_names(&[m]));
            let played = ashton_play(&pos, m.0, m.1);
            let status = game
                .play(to_move(m))
                .unwrap_or_else(|e| panic!("{here}: refused: {e}"));
            let next = played.pos;
            assert_eq!(Pos::from_board(game.board()), next, "{here}");
            // The server: a won game first; then the list (emptied by a capture) is searched
            // for the new position; no rule for a side without moves (it loses on time).
            if !played.captured.is_empty() {
                remembered.clear();
            }
            let want = if ref_won(&next, &rules) {
                ref_status(&next, &rules, None)
            } else if remembered.contains(&next.key()) {
                Status::Draw(DrawReason::Repetition)
            } else {
                ref_status(&next, &rules, None)
            };
            remembered.push(next.key());
            assert_eq!(status, want, "status in {here}");
            if want.is_over() {
                *endings.entry(format!("{want:?}")).or_default() += 1;
                break;
            }
            if game.moves().len() >= 400 {
                *endings.entry("cut".into()).or_default() += 1;
                break;
            }
            pos = next;
        }
    }
    for key in [
        "Win(Defenders, KingEscaped)",
        "Win(Attackers, KingCaptured)",
        "Draw(Repetition)",
    ] {
        assert!(
            endings.get(key).copied().unwrap_or(0) >= 20,
            "too few '{key}': {endings:?}"
        );
    }
}
