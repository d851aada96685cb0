//! `konakis match --variant`: matches in the games of the tafl family on their own boards, as a
//! tournament operator runs them: Konakis against itself over the line protocol and over OTEP,
//! an openings file of the game, adjudication, the records read back by `konakis replay`, and
//! the mistakes refused before the first game.

use crate::common::KONAKIS;
use crate::common::matches::{assert_no_faults, fake_engine, p, run, run_match, scratch, text};
use serde_json::Value;
use std::path::Path;

/// The games of a match's JSON.
fn games(v: &Value) -> &Vec<Value> {
    v["games"].as_array().expect("a games array")
}

/// `konakis replay FILE`, which must succeed; its output.
fn replay(file: &Path) -> String {
    let out = run(&["replay", &p(file)]);
    assert!(
        out.status.success(),
        "replay {} failed:\n{}{}",
        file.display(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn a_copenhagen_match_is_refereed_on_11x11_and_its_records_replay() {
    let dir = scratch("copenhagen-match");
    let (otg, json) = (dir.join("games.otg"), dir.join("r.json"));
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--variant",
            "copenhagen-11",
            "--engine",
            "name=a",
            &cmd,
            "depth=2",
            "--engine",
            "name=b",
            &cmd,
            "depth=1",
            "--games",
            "2",
            "--records",
            &p(&otg),
            "--json",
            &p(&json),
        ],
        &json,
    );
    assert_no_faults(&v, "copenhagen");
    assert_eq!(v["rules"], "UCI_Variant=copenhagen-11");
    for g in games(&v) {
        assert_eq!(g["termination"], "rules", "{g}");
        assert!(
            g["start"].as_str().unwrap().starts_with("3bbbbb3/5b5/11/"),
            "{g}"
        );
    }
    let text = std::fs::read_to_string(&otg).unwrap();
    assert_eq!(text.matches("[konakis-variant:copenhagen-11]").count(), 2);
    assert_eq!(text.matches("[rules:dim:11 ").count(), 2);
    // `konakis replay` plays both games again under Copenhagen's rules and agrees with each
    // result tag.
    let out = replay(&otg);
    assert_eq!(out.matches("(agrees)").count(), 2, "{out}");
    for g in games(&v) {
        let reason = g["reason"].as_str().unwrap();
        assert!(out.contains(reason), "{reason} not in\n{out}");
    }
}

#[test]
fn a_brandub_match_between_the_line_protocol_and_otep_keeps_the_opening_and_its_adjudication() {
    let dir = scratch("brandub-match");
    let (records, json) = (dir.join("records/"), dir.join("r.json"));
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# two Brandub openings\nstartpos moves d2b2\n3b3/3b3/3w3/bbwKwbb/3w3/3b3/3b3 b 0 moves d1c1 c4c2\n",
    )
    .unwrap();
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--variant",
            "opentafl-brandub-7",
            "--engine",
            "name=uci",
            &cmd,
            "st=0.05",
            "--engine",
            "name=otep",
            &cmd,
            "proto=otep",
            "arg=otep",
            "st=0.05",
            "--games",
            "4",
            "--openings",
            &p(&openings),
            "--maxmoves",
            "6",
            "--records",
            &p(&records),
            "--json",
            &p(&json),
        ],
        &json,
    );
    assert_no_faults(&v, "brandub");
    let all = games(&v);
    assert_eq!(all.len(), 4);
    for g in all {
        let opening = g["opening_moves"].as_array().unwrap().len();
        assert!(opening == 1 || opening == 2, "{g}");
        // Six moves each at most, then the draw by --maxmoves.
        let moves = g["moves"].as_array().unwrap().len();
        if g["termination"] == "adjudication" {
            assert_eq!(moves, 12, "{g}");
            assert!(g["reason"].as_str().unwrap().contains("--maxmoves"), "{g}");
        } else {
            assert_eq!(g["termination"], "rules", "{g}");
            assert!(moves <= 12, "{g}");
        }
    }
    // One record per game, as OpenTafl opens them, each with OpenTafl's Brandub rules string;
    // each replays, an adjudicated game as still going on.
    for n in 1..=4 {
        let file = records.join(format!("game-{n:04}.otg"));
        let record = std::fs::read_to_string(&file).unwrap();
        assert!(record.contains("[rules:dim:7 name:Brandub "), "{record}");
        assert!(
            record.contains("[konakis-variant:opentafl-brandub-7]"),
            "{record}"
        );
        let out = replay(&file);
        assert!(
            out.contains("rules: the variant opentafl-brandub-7, options set away from it: none"),
            "game {n}:\n{out}"
        );
        assert!(
            out.contains("(agrees)") || out.contains("(decided off the board: "),
            "game {n}:\n{out}"
        );
    }
}

#[test]
fn the_family_board_is_checked_before_the_first_game() {
    let dir = scratch("family-refusals");
    let brandub_openings = dir.join("tablut.txt");
    // A Tablut position is no Brandub opening.
    std::fs::write(
        &brandub_openings,
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0\n",
    )
    .unwrap();
    let konakis = format!("cmd={KONAKIS}");
    let fake = format!("cmd={}", fake_engine());
    let openings = p(&brandub_openings);
    let konakis_limited = [konakis.as_str(), "depth=1"];
    let fake_limited = [fake.as_str(), "depth=1"];
    let otep = [konakis.as_str(), "proto=otep", "arg=otep", "st=1"];
    // (the second engine, the match's flags, what the error says)
    let cases: [(&[&str], &[&str], &str); 4] = [
        (
            &konakis_limited,
            &["--variant", "copenhagen-12"],
            "--variant: unknown variant 'copenhagen-12' (variants: copenhagen-11,",
        ),
        (
            &fake_limited,
            &["--variant", "copenhagen-11"],
            "has no UCI_Variant option: it cannot be told to play copenhagen-11",
        ),
        (
            &otep,
            &["--variant", "copenhagen-11"],
            "the match rules cannot be sent to it: the repetition rule AttackersWin",
        ),
        (
            &konakis_limited,
            &["--variant", "opentafl-brandub-7", "--openings", &openings],
            "tablut.txt:1: bad opening",
        ),
    ];
    for (second, flags, expected) in cases {
        let mut args = vec![
            "match",
            "--engine",
            "name=first",
            &konakis,
            "depth=1",
            "--engine",
        ];
        args.extend(second.iter().copied());
        args.extend(flags.iter().copied());
        let out = run(&args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("Game 1"), "{args:?} played: {err}");
    }
}

#[test]
fn openings_of_brandub_are_written_then_played_by_a_brandub_match() {
    let dir = scratch("brandub-openings");
    let (file, again, json) = (dir.join("o.txt"), dir.join("o2.txt"), dir.join("r.json"));
    let write = |to: &Path| {
        let out = run(&[
            "openings",
            "--variant",
            "opentafl-brandub-7",
            "--count",
            "3",
            "--plies",
            "4",
            "--depth",
            "2",
            "--margin",
            "400",
            "-o",
            &p(to),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    write(&file);
    write(&again);
    let lines = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        lines,
        std::fs::read_to_string(&again).unwrap(),
        "the same seed"
    );
    assert!(
        lines.contains("# rules UCI_Variant=opentafl-brandub-7\n"),
        "{lines}"
    );
    let openings: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), 3, "{lines}");
    // Each line is four plies of Brandub from its start.
    for line in &openings {
        assert_eq!(line.split_whitespace().count(), 6, "{line}");
    }
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--variant",
            "opentafl-brandub-7",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--each",
            "depth=1",
            "--games",
            "6",
            "--openings",
            &p(&file),
            "--json",
            &p(&json),
        ],
        &json,
    );
    assert_no_faults(&v, "brandub openings");
    let played: Vec<&str> = games(&v)
        .iter()
        .map(|g| g["opening"].as_str().unwrap())
        .collect();
    for line in &openings {
        assert_eq!(
            played.iter().filter(|o| *o == line).count(),
            2,
            "{line}: {played:?}"
        );
    }
    // A Tablut openings file is refused by the Brandub match before any game.
    let tablut = dir.join("tablut.txt");
    let out = run(&[
        "openings",
        "--count",
        "1",
        "--plies",
        "2",
        "--depth",
        "1",
        "-o",
        &p(&tablut),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&[
        "match",
        "--variant",
        "opentafl-brandub-7",
        "--engine",
        &cmd,
        "--engine",
        &cmd,
        "--each",
        "depth=1",
        "--openings",
        &p(&tablut),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("bad opening"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_13x13_match_over_otep_is_recorded_and_replayed_on_13x13() {
    let dir = scratch("sea-battle-13");
    let (otg, json) = (dir.join("g.otg"), dir.join("r.json"));
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--variant",
            "opentafl-sea-battle-13",
            "--engine",
            "name=uci",
            &cmd,
            "depth=1",
            "--engine",
            "name=otep",
            &cmd,
            "proto=otep",
            "arg=otep",
            "st=0.05",
            "--games",
            "2",
            "--maxmoves",
            "5",
            "--records",
            &p(&otg),
            "--json",
            &p(&json),
        ],
        &json,
    );
    assert_no_faults(&v, "sea battle 13x13");
    assert_eq!(games(&v).len(), 2);
    let record = std::fs::read_to_string(&otg).unwrap();
    assert_eq!(record.matches("[rules:dim:13 ").count(), 2, "{record}");
    let out = replay(&otg);
    assert!(
        out.contains("rules: the variant opentafl-sea-battle-13, options set away from it: none"),
        "{out}"
    );
    assert_eq!(out.matches("result tag: ").count(), 2, "{out}");
    assert!(!out.contains("error"), "{out}");
}
