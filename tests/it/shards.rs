//! Sharded matches and self-play (`--shard K/N`) and `konakis match merge`: the shards cover
//! every pair once, their merge equals the unsharded run, and merge refuses what does not
//! belong together.

use konakis::tools::matches::config::MatchConfig;
use konakis::tools::matches::merge::{MergeOptions, merge};
use konakis::tools::matches::tally::Tally;
use konakis::tools::matches::{MatchOptions, Shard, schedule};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const KONAKIS: &str = env!("CARGO_BIN_EXE_konakis");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("konakis-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[String]) -> Output {
    Command::new(KONAKIS)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("konakis runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The summary without the runner's overhead (a timing).
fn table(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("Runner overhead"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shard_splits_cover_every_pair_exactly_once_with_each_pair_whole() {
    for engines in [2usize, 3] {
        for games in 1..=30u64 {
            let mut opts = MatchOptions {
                engines: (0..engines)
                    .map(|i| vec![format!("cmd=/e{i}"), "depth=1".into()])
                    .collect(),
                games: Some(games),
                concurrency: 1,
                seed: Some(7),
                startup_timeout: 1.0,
                move_timeout: 1.0,
                ..MatchOptions::default()
            };
            let whole = schedule(&MatchConfig::from_args(&opts).unwrap(), 5);
            for count in 1..=12usize {
                let mut seen = Vec::new();
                for index in 0..count {
                    opts.shard = Some(format!("{index}/{count}"));
                    let part = schedule(&MatchConfig::from_args(&opts).unwrap(), 5);
                    let pairs: BTreeSet<usize> = part.iter().map(|j| j.pair).collect();
                    for pair in pairs {
                        let games: Vec<_> = part.iter().filter(|j| j.pair == pair).collect();
                        assert_eq!(games.len(), 2, "pair {pair} whole in shard {index}/{count}");
                        assert_eq!(pair % count, index);
                    }
                    seen.extend(part);
                }
                seen.sort_by_key(|j| j.number);
                assert_eq!(
                    seen, whole,
                    "{engines} engines, --games {games}, {count} shards: every game once, as numbered unsharded"
                );
            }
        }
    }
}

/// A deterministic match (node limits, one thread, the same seed) between two different
/// engines, with an SPRT that cannot stop it early.
fn match_args(dir: &Path, extra: &[&str]) -> Vec<String> {
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "startpos\nstartpos moves d1d3\nstartpos moves a4a2\nstartpos moves e2c2\nstartpos moves h5h7\n",
    )
    .unwrap();
    let mut a = strings(&[
        "match",
        "--engine",
        "name=small",
        &format!("cmd={KONAKIS}"),
        "nodes=100",
        "--engine",
        "name=big",
        &format!("cmd={KONAKIS}"),
        "nodes=3000",
        "--each",
        "option.Threads=1",
        "option.Hash=2",
        "--games",
        "10",
        "--openings",
        &openings.display().to_string(),
        "--sprt",
        "elo0=0",
        "elo1=30",
        "alpha=0.0001",
        "beta=0.0001",
    ]);
    a.extend(strings(extra));
    a
}

#[test]
fn merging_shards_of_a_deterministic_match_equals_the_unsharded_run() {
    let dir = scratch("exact");
    let j = |name: &str| dir.join(name).display().to_string();
    let out = run(&match_args(
        &dir,
        &["--json", &j("whole.json"), "--records", &j("whole.otg")],
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let whole_report = text(&out.stdout);
    let whole = read_json(&dir.join("whole.json"));
    let mut files = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let name = format!("s{k}.json");
        let records = format!("s{k}.otg");
        let out = run(&match_args(
            &dir,
            &[
                "--shard",
                &shard,
                "--json",
                &j(&name),
                "--records",
                &j(&records),
            ],
        ));
        assert!(out.status.success(), "{}", text(&out.stderr));
        files.push(dir.join(name));
    }
    // In shard order 2, 0, 1: the order given does not matter.
    files.rotate_right(1);
    let merged = merge(&MergeOptions {
        files: files.clone(),
        records: Some(dir.join("merged.otg")),
        ..MergeOptions::default()
    })
    .unwrap();
    let whole_tally = Tally::from_json(&whole["tally"]).unwrap();
    let mut merged_tally = merged.tally.clone();
    // The runner's overhead is a timing, not a result.
    merged_tally.overhead = whole_tally.overhead;
    assert_eq!(
        merged_tally, whole_tally,
        "pair counts, W-D-L, sides, faults, plies"
    );
    assert_eq!(merged.tally.pairings[0].pairs(), 5);
    assert_eq!(table(&merged.report), table(&whole_report));
    let (_, llr, verdict) = merged.sprt.unwrap();
    assert_eq!(
        format!("{llr:.4} {verdict:?}"),
        format!(
            "{:.4} {:?}",
            whole["sprt"]["llr"].as_f64().unwrap(),
            konakis::tools::matches::stats::SprtVerdict::Continue
        )
    );
    assert!(merged.missing.is_empty());
    // The records: every game of the whole match, once.
    let count = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .matches("[result:")
            .count()
    };
    assert_eq!(count(&dir.join("merged.otg")), 10);
    assert_eq!(
        std::fs::metadata(dir.join("merged.otg")).unwrap().len(),
        std::fs::metadata(dir.join("whole.otg")).unwrap().len()
    );

    // The command line: the same table, exit status 4 = the SPRT has no verdict yet.
    let mut args = strings(&["match", "merge"]);
    args.extend(files.iter().map(|f| f.display().to_string()));
    let out = run(&args);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert_eq!(table(&text(&out.stdout)), table(&whole_report));
    // Decided verdicts: 0 for H1, 3 for H0.
    let mut h1 = args.clone();
    h1.extend(strings(&[
        "--sprt",
        "elo0=-700",
        "elo1=-600",
        "alpha=0.2",
        "beta=0.2",
    ]));
    let out = run(&h1);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("H1 accepted"));
    let mut h0 = args.clone();
    h0.extend(strings(&[
        "--sprt",
        "elo0=600",
        "elo1=700",
        "alpha=0.2",
        "beta=0.2",
    ]));
    let out = run(&h0);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("H0 accepted"));

    // The chart: the three shards are one bar, labelled by their folder, with the whole
    // match's sides.
    let mut chart = strings(&["match", "report", "--chart", &j("sides.svg")]);
    chart.extend(files.iter().map(|f| f.display().to_string()));
    let out = run(&chart);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sides = &whole["sides"];
    let label = dir.file_name().unwrap().to_string_lossy().into_owned();
    let line = text(&out.stdout);
    let count = |key: &str| sides[key].as_u64().unwrap();
    let n = count("attackers_wins") + count("draws") + count("defenders_wins");
    let share = |key: &str| format!("{:.1}% (", 100.0 * count(key) as f64 / n as f64);
    assert!(
        line.starts_with(&format!(
            "{label}: {n} games; attackers {}",
            share("attackers_wins")
        )),
        "{line}"
    );
    assert!(
        line.contains(&format!("draws {}", share("draws"))),
        "{line}"
    );
    assert!(
        line.contains(&format!("defenders {}", share("defenders_wins"))),
        "{line}"
    );
    // The endings are the whole match's, counted from its games.
    let mut endings: Vec<(String, u64)> = Vec::new();
    for g in whole["games"].as_array().unwrap() {
        let e = g["ending"].as_str().unwrap().to_string();
        match endings.iter_mut().find(|(w, _)| *w == e) {
            Some((_, c)) => *c += 1,
            None => endings.push((e, 1)),
        }
    }
    for (word, c) in &endings {
        assert!(
            line.contains(&format!("{word} {c}")),
            "{word} {c} in {line}"
        );
    }
    let svg = std::fs::read_to_string(dir.join("sides.svg")).unwrap();
    assert!(svg.starts_with("<svg ") && svg.contains("10 games") && svg.contains(&label));

    // Two of three shards: the missing one is named; the report covers the two.
    let out = run(&[
        "match".to_string(),
        "merge".into(),
        j("s0.json"),
        j("s2.json"),
    ]);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stderr).contains("Missing 1 shard(s): 1/3"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_other_matches_a_shard_twice_and_unfinished_files() {
    let dir = scratch("refusals");
    let j = |name: &str| dir.join(name).display().to_string();
    let quick = |extra: &[&str], json: &str| {
        let mut a = match_args(&dir, extra);
        a.retain(|x| x != "10");
        let at = a.iter().position(|x| x == "--games").unwrap();
        a.insert(at + 1, "2".into());
        a.extend(strings(&["--json", &j(json)]));
        let out = run(&a);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    quick(&["--shard", "0/2"], "a0.json");
    quick(&["--shard", "1/2"], "a1.json");
    quick(
        &["--shard", "1/2", "--rules", "KingCapture=English"],
        "rules.json",
    );
    quick(&["--shard", "0/3"], "three.json");
    std::fs::copy(dir.join("a0.json"), dir.join("copy.json")).unwrap();
    let refuse = |files: &[&str], want: &str| {
        let mut args = strings(&["match", "merge"]);
        args.extend(files.iter().map(|f| j(f)));
        let out = run(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{files:?}: {err}");
        assert!(err.contains(want), "{files:?}: expected '{want}' in {err}");
        assert!(out.stdout.is_empty());
    };
    refuse(&["a0.json", "rules.json"], "their rules differ");
    refuse(&["a0.json", "three.json"], "their shard counts differ");
    refuse(
        &["a0.json", "a1.json", "copy.json"],
        "shard 0/2 is given twice",
    );
    std::fs::write(dir.join("empty.json"), "{}\n").unwrap();
    refuse(&["a0.json", "empty.json"], "not a finished match's JSON");
    refuse(&["a0.json", "missing.json"], "cannot read");
    // Another engine option is another match.
    let mut other = match_args(&dir, &["--shard", "1/2", "--json", &j("hash.json")]);
    let at = other.iter().position(|x| x == "option.Hash=2").unwrap();
    other[at] = "option.Hash=4".into();
    other.retain(|x| x != "10");
    let at = other.iter().position(|x| x == "--games").unwrap();
    other.insert(at + 1, "2".into());
    assert!(run(&other).status.success());
    refuse(&["a0.json", "hash.json"], "their engine options differ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_shard_leaves_no_json_and_a_rerun_replaces_it() {
    let dir = scratch("killed");
    let json = dir.join("s0.json");
    let part = dir.join("s0.json.part");
    std::fs::write(&json, "an old result\n").unwrap();
    let mut args = match_args(
        &dir,
        &["--shard", "0/2", "--json", &json.display().to_string()],
    );
    // Slow games, to be killed during the first.
    for a in args.iter_mut() {
        if a == "nodes=100" || a == "nodes=3000" {
            *a = "nodes=50000000".into();
        }
    }
    let mut child = Command::new(KONAKIS)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !part.exists() && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(part.exists(), "the shard started");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !json.exists(),
        "no JSON (the old one went when the shard started again)"
    );
    let out = run(&strings(&["match", "merge", &json.display().to_string()]));
    assert_eq!(out.status.code(), Some(1));
    // A re-run writes the shard's JSON whole.
    let quick = match_args(
        &dir,
        &["--shard", "0/2", "--json", &json.display().to_string()],
    );
    assert!(run(&quick).status.success());
    assert_eq!(read_json(&json)["shard"]["index"], 0);
    assert!(!part.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_shards_write_the_games_of_the_whole_run_once() {
    let dir = scratch("selfplay");
    let sp = |shard: Option<&str>, out: &str| {
        let mut a = strings(&[
            "tune",
            "selfplay",
            "--games",
            "6",
            "--nodes",
            "60",
            "--seed",
            "5",
            "--out",
            &dir.join(out).display().to_string(),
        ]);
        if let Some(s) = shard {
            a.extend(strings(&["--shard", s]));
        }
        let o = run(&a);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let mut lines: Vec<String> = std::fs::read_to_string(dir.join(out))
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    let whole = sp(None, "whole.txt");
    let mut parts = sp(Some("0/3"), "p0.txt");
    let p1 = sp(Some("1/3"), "p1.txt");
    let p2 = sp(Some("2/3"), "p2.txt");
    assert!(!p1.is_empty() && p1 != p2);
    parts.extend(p1);
    parts.extend(p2);
    parts.sort();
    assert_eq!(parts, whole);
    assert!(Shard::parse("3/3").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `[game:N]` tags of a records text, in order.
fn game_tags(records: &str) -> Vec<usize> {
    records
        .lines()
        .filter_map(|l| l.strip_prefix("[game:")?.strip_suffix(']')?.parse().ok())
        .collect()
}

#[test]
fn merge_records_gathers_the_shards_files_per_game_in_game_order_or_writes_nothing() {
    let dir = scratch("per-game");
    let run_dir = dir.join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    let j = |name: &str| run_dir.join(name).display().to_string();
    // As the recipes run them: every shard's games in one folder, `--records DIR/`.
    let games = format!("{}/", j("games"));
    for k in 0..3 {
        let out = run(&match_args(
            &dir,
            &[
                "--shard",
                &format!("{k}/3"),
                "--json",
                &j(&format!("shard-{k}.json")),
                "--records",
                &games,
            ],
        ));
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let merge_records = |at: &Path, out: &Path| {
        let mut args = strings(&["match", "merge", "--records", &out.display().to_string()]);
        args.extend((0..3).map(|k| at.join(format!("shard-{k}.json")).display().to_string()));
        run(&args)
    };
    // Exit status 4: the SPRT of match_args has no verdict.
    let all = dir.join("all.otg");
    let out = merge_records(&run_dir, &all);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let merged = std::fs::read_to_string(&all).unwrap();
    assert_eq!(game_tags(&merged), (1..=10).collect::<Vec<_>>());
    let files: String = (1..=10)
        .map(|n| std::fs::read_to_string(run_dir.join(format!("games/game-{n:04}.otg"))).unwrap())
        .collect();
    assert_eq!(merged, files, "the games' own files, one after the other");

    // Results copied home, folder and all: the games are found beside the JSON.
    let home = dir.join("home");
    std::fs::rename(&run_dir, &home).unwrap();
    let again = dir.join("again.otg");
    let out = merge_records(&home, &again);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), merged);

    // A game's file gone: refused, naming it, and no file written.
    std::fs::remove_file(home.join("games/game-0004.otg")).unwrap();
    let lost = dir.join("lost.otg");
    let out = merge_records(&home, &lost);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("the records of game 4 of shard ") && err.contains("game-0004.otg"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(!lost.exists() && !dir.join("lost.otg.part").exists());

    // Shards that kept no records: refused, no file.
    let bare = dir.join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    for k in 0..3 {
        let json = bare.join(format!("shard-{k}.json")).display().to_string();
        let out = run(&match_args(
            &dir,
            &["--shard", &format!("{k}/3"), "--json", &json],
        ));
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let none = dir.join("none.otg");
    let out = merge_records(&bare, &none);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "error: --records: none of the shards wrote game records (run them with --records)"
    );
    assert!(!none.exists());

    // A shard with no game (six shards of five pairs): refused, no file.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let json = empty.join("shard-5.json").display().to_string();
    let records = format!("{}/", empty.join("games").display());
    let out = run(&match_args(
        &dir,
        &["--shard", "5/6", "--json", &json, "--records", &records],
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let nothing = dir.join("nothing.otg");
    let out = run(&strings(&[
        "match",
        "merge",
        "--records",
        &nothing.display().to_string(),
        &json,
    ]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "error: --records: the shards played no games, so there is nothing to write"
    );
    assert!(!nothing.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
