//! The review of every move (`konakis::review`, `konakis analyse`): verdicts where the truth
//! is known (the exhaustive solver of the tactics tests says what each position holds), and
//! the command's table, JSON, annotated record, several games, threads and bad records.

use crate::common::engine::engine_with;
use crate::common::matches::{p, run, scratch, text};
use crate::common::solver::win_within;
use konakis::geometry::Eleven;
use konakis::opentafl::otg::{Tag, parse_otg, replay, write_record};
use konakis::review::{
    Eval, Review, ReviewConfig, Verdict, move_accuracy, positions, score_expected,
};
use konakis::search::{Cancel, Limits, Settings};
use konakis::{Board, Move, Rules};
use serde_json::Value;

/// Reviews `moves` from `fen` under `rules` at depth 6.
fn reviewed(rules: Rules, fen: &str, moves: &str) -> Review {
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    reviewed_within(rules, fen, moves, limits)
}

/// Reviews `moves` from `fen` under `rules`, each position searched within `limits`.
fn reviewed_within(rules: Rules, fen: &str, moves: &str, limits: Limits) -> Review {
    let start = Board::from_fen(fen).unwrap();
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse(m).unwrap())
        .collect();
    let mut engine = engine_with(Settings {
        hash_mib: 4,
        ..Settings::default()
    });
    let config = ReviewConfig {
        limits,
        ..ReviewConfig::default()
    };
    let games = [positions(rules, start, &moves).unwrap()];
    engine
        .review(&games, &config, Cancel::Never, |_, _| {})
        .unwrap()
        .remove(0)
}

/// The board after `moves` from `fen`.
fn after(rules: &Rules, fen: &str, moves: &str) -> Board {
    let mut b = Board::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        b.try_play(rules, Move::parse(m).unwrap()).unwrap();
    }
    b
}

#[test]
fn a_move_that_misses_a_forced_capture_of_the_king_is_a_missed_win() {
    let rules = Rules::default();
    // The king on d7 is taken by d4-d6; the attackers play b8-b9 instead, and the king
    // escapes next move.
    let fen = "9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0";
    assert!(win_within(&after(&rules, fen, ""), &rules, 1));
    assert!(win_within(&after(&rules, fen, "b8b9"), &rules, 1));
    let r = reviewed(rules, fen, "b8b9");
    let m = &r.moves[0];
    assert_eq!(m.best, Some(Move::parse("d4d6").unwrap()));
    assert_eq!((m.before, m.after), (Eval::Mate(1), Eval::Mate(-1)));
    assert_eq!(m.verdict, Verdict::MissedWin);
    assert_eq!(r.attackers.missed_wins, 1);
    assert!(r.attackers.accuracy.unwrap() < 1.0, "{:?}", r.attackers);
}

#[test]
fn a_move_that_walks_into_a_capture_of_the_king_lets_the_loss_in() {
    let rules = Rules::default();
    // The king on e7, boxed in by his own defenders, is safe while f7 stays; f7-g7 opens it
    // to f3-f7, which takes him between d7 and f7.
    let fen = "4b4/1b2w2b1/3bKw1b1/1b2w2b1/9/9/4bb3/9/w8 w 0";
    assert!(win_within(&after(&rules, fen, "f7g7"), &rules, 1));
    let r = reviewed(rules, fen, "f7g7 f3f7");
    let m = &r.moves[0];
    assert!(
        !m.before.is_forced_win() && !m.before.is_forced_loss(),
        "{m:?}"
    );
    assert_eq!(m.after, Eval::Mate(-1));
    assert_eq!(m.verdict, Verdict::AllowsLoss);
    assert!(m.drop > 15.0, "{m:?}");
    // The capture that follows is the best move and ends the game.
    assert_eq!(r.moves[1].verdict, Verdict::Best);
    assert_eq!(r.moves[1].after, Eval::Won);
    assert_eq!(r.last, Eval::Lost);
    assert_eq!(r.defenders.allowed_losses, 1);
}

#[test]
fn an_escape_declined_is_a_missed_win() {
    let rules = Rules::default();
    // The king on c5 escapes to a5, c1 or i5; h8-h7 instead lets h4-c4 take him.
    let fen = "9/7w1/9/2b6/2K6/7b1/9/9/9 w 0";
    assert!(win_within(&after(&rules, fen, ""), &rules, 1));
    assert!(win_within(&after(&rules, fen, "h8h7"), &rules, 1));
    let r = reviewed(rules, fen, "h8h7 h4c4");
    let m = &r.moves[0];
    assert_eq!((m.before, m.after), (Eval::Mate(1), Eval::Mate(-1)));
    assert_eq!(m.verdict, Verdict::MissedWin);
    assert_eq!(r.moves[1].verdict, Verdict::Best);
}

#[test]
fn an_only_move_found_is_best_and_a_longer_win_is_no_error() {
    let mut rules = Rules::default();
    for pair in [
        "ThroneHostile=true",
        "ThronePassable=false",
        "KingReentersThrone=false",
    ] {
        rules.set_pair(pair).unwrap();
    }
    // The attackers threaten the king on e7; e7-e6 is the one move that parries (the
    // solver's list in the tactics suite), and it wins.
    let fen = "4b4/4bbb2/3bK1b1w/9/6b2/9/6b2/1b1w5/3b5 w 0";
    let start = after(&rules, fen, "");
    let parries: Vec<Move> = start
        .legal_moves(&rules)
        .iter()
        .copied()
        .filter(|&mv| {
            let mut b = start;
            b.play(&rules, mv);
            !win_within(&b, &rules, 1)
        })
        .collect();
    assert_eq!(parries, [Move::parse("e7e6").unwrap()]);
    let r = reviewed(rules, fen, "e7e6");
    let m = &r.moves[0];
    assert_eq!(m.verdict, Verdict::Best);
    assert!(m.before.is_forced_win() && m.after.is_forced_win(), "{m:?}");
    assert_eq!((m.drop, m.accuracy.round()), (0.0, 100.0));
}

#[test]
fn a_node_limit_smaller_than_the_first_iteration_still_judges_the_position() {
    // After these moves (default rules) the first iteration of the search needs more than
    // 50,000 nodes (a wide quiescence search): the review searches it again to depth 1
    // instead of failing with "the review was cancelled".
    let moves = "h5h7 e6d6 f1f4 c5c3 f9h9 c3c4 d1d4 e3d3 a6c6 e7b7 i6f6 b7b6 h7b7 c4c1 f4f2 \
                 d6b6 b7c7 g5g7 i4d4 e5h5 f2h2 c1a1";
    let rules = Rules::default();
    let start = Board::start(&rules).to_fen();
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let r = reviewed_within(rules, &start, moves, limits);
    assert_eq!(r.moves.len(), moves.split_whitespace().count());
    assert!(r.moves[21].best.is_some(), "{:?}", r.moves[21]);
}

/// A record of the start position and `moves` under the default rules.
fn record(moves: &str) -> String {
    let rules = Rules::default();
    let start = Board::start(&rules);
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse(m).unwrap())
        .collect();
    write_record(
        &start,
        &rules,
        &moves,
        &[Tag::Text("event", "test"), Tag::Rules, Tag::KonakisRules],
    )
}

const GAME: &str = "d1d2 f5f8 e8c8 e5f5 b5b7 e4h4";

fn analyse(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "analyse failed\nstdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn the_table_lists_every_move_and_both_accuracies() {
    let out = analyse(&[
        "analyse",
        "-q",
        "--position",
        "startpos",
        "--moves",
        GAME,
        "--depth",
        "3",
    ]);
    assert!(out.is_ascii());
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(rows.len(), 6, "{out}");
    assert!(rows[0].contains("d1-d2"), "{out}");
    let verdicts = Verdict::ALL.map(|v| v.name());
    for row in &rows {
        let verdict = row.split_whitespace().nth(3).unwrap();
        assert!(verdicts.contains(&verdict), "{row}");
    }
    assert!(out.contains("attackers  accuracy"), "{out}");
    assert!(out.contains("defenders  accuracy"), "{out}");
}

#[test]
fn json_is_the_same_on_one_thread_or_two_and_names_its_fields() {
    let dir = scratch("analyse-json");
    let file = dir.join("two.otg");
    std::fs::write(&file, record(GAME) + &record("d1d2 e4d4")).unwrap();
    let args = |n: &'static str| {
        vec![
            "analyse".to_string(),
            p(&file),
            "--depth".into(),
            "3".into(),
            "--json".into(),
            "--concurrency".into(),
            n.into(),
        ]
    };
    let one = analyse(&args("1").iter().map(String::as_str).collect::<Vec<_>>());
    let two = analyse(&args("2").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(one, two);
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["limits"]["depth"], 3);
    assert_eq!(v["thresholds"]["blunder"], 15.0);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1]["game"], 2);
    assert_eq!(games[1]["notation"][0], "d1-d2");
    let m = &games[0]["review"]["moves"][0];
    assert_eq!(m["number"], 1);
    assert_eq!(m["side"], "attackers");
    assert_eq!(m["played"], "d1d2");
    for key in [
        "best",
        "line",
        "before",
        "after",
        "chances_before",
        "chances_after",
        "drop",
        "accuracy",
        "verdict",
    ] {
        assert!(!m[key].is_null(), "{key} in {m}");
    }
    let c = &m["chances_before"];
    let sum =
        c["win"].as_u64().unwrap() + c["draw"].as_u64().unwrap() + c["loss"].as_u64().unwrap();
    assert_eq!(sum, 1000);
    assert_eq!(games[0]["review"]["attackers"]["moves"], 3);
    assert!(games[0]["review"]["defenders"]["accuracy"].is_number());
}

#[test]
fn the_annotated_copy_reads_back_with_a_comment_per_move() {
    let dir = scratch("analyse-annotate");
    let (input, output) = (dir.join("game.otg"), dir.join("reviewed.otg"));
    // An odd number of moves: the last turn has one move and one comment.
    let moves = "d1d2 f5f8 e8c8 e5f5 b5b7";
    std::fs::write(&input, record(moves)).unwrap();
    analyse(&[
        "analyse",
        "-q",
        &p(&input),
        "--depth",
        "3",
        "--annotate",
        &p(&output),
    ]);
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.is_ascii());
    assert!(written.starts_with("[event:test]\n[rules:"), "{written}");
    assert!(written.contains("[annotator:Konakis analyse, depth 3 per position]"));
    let games = parse_otg(&written).unwrap();
    assert_eq!(games.len(), 1, "{written}");
    let back = replay(&games[0]).unwrap();
    let played: Vec<String> = back.game.moves().iter().map(Move::to_string).collect();
    assert_eq!(played.join(" "), moves);
    // OpenTafl's layout: each turn's line, then `[first|second]` on a line of its own.
    let lines: Vec<&str> = written.lines().collect();
    let verdicts = Verdict::ALL.map(|v| v.name());
    for turn in 1..=3 {
        let i = lines
            .iter()
            .position(|l| l.starts_with(&format!("{turn}. ")))
            .unwrap_or_else(|| panic!("turn {turn} in {written}"));
        let comment = lines[i + 1];
        assert!(
            comment.starts_with('[') && comment.ends_with(']'),
            "{comment}"
        );
        let parts: Vec<&str> = comment[1..comment.len() - 1].split('|').collect();
        assert_eq!(parts.len(), if turn == 3 { 1 } else { 2 }, "{comment}");
        for part in parts {
            let word = part.split_whitespace().next().unwrap();
            assert!(verdicts.contains(&word), "{part}");
            assert!(!part.contains(':') && !part.contains('['), "{part}");
        }
    }
}

#[test]
fn a_bad_record_gets_one_error_naming_the_game_and_the_move() {
    let dir = scratch("analyse-bad");
    let file = dir.join("bad.otg");
    // The second game's second move puts a defender on an occupied square.
    let bad = record("d1d3 e4d4").replace("e4-d4", "e4-e5");
    std::fs::write(&file, record(GAME) + &bad).unwrap();
    let out = run(&["analyse", &p(&file), "--depth", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("game 2 of 2: turn 1, move 2 (e4-e5)"), "{err}");
    assert!(text(&out.stdout).is_empty());
    // Moves given on the command line are named too.
    let out = run(&[
        "analyse",
        "--position",
        "startpos",
        "--moves",
        "d1d3 e5e9",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("move 2"), "{err}");
}

/// A game OpenTafl hosted on its 11x11 board, Copenhagen, Konakis defending.
const COPENHAGEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/opentafl/hosted/copenhagen-konakis-defenders.otg"
);

/// The table's rows: the lines that start with a move number.
fn rows(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .collect()
}

#[test]
fn a_copenhagen_record_is_reviewed_in_a_table_then_as_json_without_win_chances() {
    let text = std::fs::read_to_string(COPENHAGEN).unwrap();
    let record = &parse_otg::<Eleven>(&text).unwrap()[0];
    let played = replay(record).unwrap();
    let moves = played.game.moves().len();
    assert!(moves > 40);
    let out = analyse(&["analyse", "-q", COPENHAGEN, "--depth", "2"]);
    assert!(out.is_ascii());
    // OpenTafl's Copenhagen, named as `konakis match` names it.
    assert!(
        out.contains("rules:  UCI_Variant=opentafl-copenhagen-11\n"),
        "{out}"
    );
    assert!(
        out.contains("chances: not modelled for these rules"),
        "{out}"
    );
    assert!(
        out.contains(&format!("result: {} after {moves} moves", played.status)),
        "{out}"
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), moves, "{out}");
    let verdicts = Verdict::ALL.map(|v| v.name());
    for (row, written) in rows.iter().zip(&played.moves) {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[2], written, "{row}");
        assert!(verdicts.contains(&words[3]), "{row}");
        // No win chances: the two expected columns say so.
        assert_eq!((words[6], words[7]), ("-", "-"), "{row}");
    }
    // The same review as JSON: no chances, and each drop the scores' (docs/review.md).
    let json = analyse(&["analyse", "-q", COPENHAGEN, "--depth", "2", "--json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let game = &v["games"][0];
    assert_eq!(game["notation"].as_array().unwrap().len(), moves);
    assert_eq!(game["notation"][0], played.moves[0].as_str());
    assert_eq!(game["rules"], "UCI_Variant=opentafl-copenhagen-11");
    let mut graded = 0;
    for m in game["review"]["moves"].as_array().unwrap() {
        assert!(
            m["chances_before"].is_null() && m["chances_after"].is_null(),
            "{m}"
        );
        let eval = |e: &Value| match (&e["cp"], &e["mate"], e.as_str()) {
            (Value::Number(cp), _, _) => Eval::Cp(cp.as_i64().unwrap() as i32),
            (_, Value::Number(n), _) => Eval::Mate(n.as_i64().unwrap() as i32),
            (_, _, Some("won")) => Eval::Won,
            (_, _, Some("lost")) => Eval::Lost,
            _ => Eval::Drawn,
        };
        let (before, after) = (eval(&m["before"]), eval(&m["after"]));
        let drop = m["drop"].as_f64().unwrap();
        if m["verdict"] != "best" && !(before.is_forced_win() && after.is_forced_win()) {
            let fall = (score_expected(before) - score_expected(after)) * 100.0;
            assert!((drop - fall.max(0.0)).abs() <= 0.05, "{m}");
            graded += 1;
        }
        assert!(verdicts.contains(&m["verdict"].as_str().unwrap()), "{m}");
        let accuracy = m["accuracy"].as_f64().unwrap();
        assert!((accuracy - move_accuracy(drop)).abs() < 0.01, "{m}");
    }
    assert!(graded > 10, "{game}");
    let summary = &game["review"]["defenders"];
    assert!(summary["accuracy"].is_number(), "{summary}");
}

#[test]
fn a_copenhagen_record_annotated_replays_with_a_comment_per_turn() {
    let dir = scratch("analyse-copenhagen-annotate");
    let output = dir.join("reviewed.otg");
    analyse(&[
        "analyse",
        "-q",
        COPENHAGEN,
        "--depth",
        "1",
        "--annotate",
        &p(&output),
    ]);
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.contains("[annotator:Konakis analyse, depth 1 per position]"));
    let original =
        replay(&parse_otg::<Eleven>(&std::fs::read_to_string(COPENHAGEN).unwrap()).unwrap()[0])
            .unwrap();
    let back = replay(&parse_otg::<Eleven>(&written).unwrap()[0]).unwrap();
    assert_eq!(back.moves, original.moves);
    assert_eq!(back.status, original.status);
    // A comment line after every turn, without the win chances the game does not have.
    let comments = written
        .lines()
        .filter(|l| l.starts_with('[') && l.contains('|'))
        .count();
    assert_eq!(comments, original.moves.len() / 2, "{written}");
    assert!(!written.contains("expected"), "{written}");
    // `konakis replay` reads the annotated copy as it reads the record.
    let out = run(&["replay", &p(&output)]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

#[test]
fn a_game_of_a_variant_is_reviewed_from_its_start_on_its_board() {
    // hnefatafl.org's Brandubh: 7x7, the defenders move first.
    let out = analyse(&[
        "analyse",
        "-q",
        "--position",
        "startpos",
        "--variant",
        "hnefatafl.org-brandubh-7",
        "--moves",
        "d3c3 d1c1 d5e5",
        "--depth",
        "3",
    ]);
    assert!(
        out.contains("start:  3b3/3b3/3w3/bbwKwbb/3w3/3b3/3b3 w 0"),
        "{out}"
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[0].contains(" def  d3-c3 "), "{out}");
    assert!(rows[1].contains(" att  d1-c1 "), "{out}");
    // 13x13, as JSON; a position string of the variant's board is taken as the start.
    let json = analyse(&[
        "analyse",
        "-q",
        "--position",
        "startpos",
        "--variant",
        "hnefatafl.org-13",
        "--moves",
        "a4b4 g4g3 d1d2",
        "--depth",
        "2",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let game = &v["games"][0];
    assert_eq!(
        game["notation"],
        serde_json::json!(["a4-b4", "g4-g3", "d1-d2"])
    );
    assert_eq!(game["rules"], "UCI_Variant=hnefatafl.org-13");
    let after = game["review"]["moves"][2]["played"].as_str().unwrap();
    assert_eq!(after, "d1d2");
    // A variant that does not exist, and a move the variant's board does not have, are one
    // clear error each.
    let out = run(&[
        "analyse",
        "--position",
        "startpos",
        "--variant",
        "copenhagen-12",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: --variant: no variant 'copenhagen-12' (variants: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = run(&[
        "analyse",
        "--position",
        "startpos",
        "--variant",
        "hnefatafl.org-brandubh-7",
        "--moves",
        "d3c3 d1d9",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).is_empty());
    // --variant names the game of --position; a record brings its own.
    let out = run(&["analyse", COPENHAGEN, "--variant", "copenhagen-11"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
