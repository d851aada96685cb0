//! `konakis match` and `konakis openings` end to end: real matches between Konakis processes
//! (depth- or node-limited, so quick and repeatable), misbehaving engines and the runner's
//! verdict on each, mistakes caught before the first game, the SPRT stopping, adjudication,
//! Ctrl-C, and the statistics against values computed independently here.
//!
//! The misbehaving engines are one Python script, `tests/engines/fake_engine.py`, that plays
//! random legal moves with rules code of its own and breaks the protocol in a chosen way.

use crate::common::KONAKIS;
use crate::common::matches::{
    assert_no_faults, fake_engine, p, read_json, run, run_match, scratch, text,
};
use konakis::tools::matches::stats::{
    Pentanomial, elo_of_score, most_likely_with_mean, normal_cdf, score_of_elo, sprt_bounds,
};
use konakis::{Game, Move, Rules, Status};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

/// One game of an `.otg` file: its tags and its moves as OpenTafl wrote them.
struct Record {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

impl Record {
    fn tag(&self, key: &str) -> &str {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no tag {key}"))
    }
}

/// Splits a records file into games; checks the turn numbering on the way.
fn parse_records(text: &str) -> Vec<Record> {
    let mut games = Vec::new();
    let mut lines = text.lines().peekable();
    while lines.peek().is_some() {
        let mut tags = Vec::new();
        while let Some(l) = lines.next_if(|l| l.starts_with('[')) {
            let (k, v) = l[1..l.len() - 1].split_once(':').expect("key:value tag");
            tags.push((k.to_string(), v.to_string()));
        }
        assert!(
            !tags.is_empty(),
            "a record starts with tags: {:?}",
            lines.peek()
        );
        assert_eq!(lines.next(), Some(""), "a blank line after the tags");
        let mut moves = Vec::new();
        let mut turn = 1;
        while let Some(l) = lines.next_if(|l| !l.is_empty()) {
            let mut words = l.split_whitespace();
            assert_eq!(words.next(), Some(format!("{turn}.").as_str()), "{l}");
            moves.extend(words.map(String::from));
            turn += 1;
        }
        assert_eq!(lines.next(), Some(""), "a blank line ends a game");
        games.push(Record { tags, moves });
    }
    games
}

/// Replays a record with the library from its start position under its rules, checking
/// every capture it lists, and returns the game.
fn replay(r: &Record) -> Game {
    let mut rules = Rules::default();
    for pair in r.tag("konakis-rules").split(' ') {
        rules.set_pair(pair).unwrap();
    }
    let mut game = Game::from_moves(rules, Some(r.tag("start")), []).unwrap();
    for m in &r.moves {
        let body = m.strip_prefix('K').unwrap_or(m);
        let (mv, caps) = match body.split_once('x') {
            // A captured king is typed, as OpenTafl writes him: `xKf4`.
            Some((mv, caps)) => (
                mv,
                caps.split('/')
                    .map(|c| c.strip_prefix('K').unwrap_or(c))
                    .collect::<Vec<_>>(),
            ),
            None => (body, vec![]),
        };
        let mv = Move::parse(mv).unwrap();
        assert_eq!(
            m.starts_with('K'),
            game.board().king() == Some(mv.from()),
            "king mark of {m}"
        );
        let before = game.board().occupied();
        game.play(mv)
            .unwrap_or_else(|e| panic!("{m} does not replay: {e}"));
        let gone: Vec<String> = (before & !game.board().occupied())
            .filter(|&sq| sq != mv.from())
            .map(|sq| sq.to_string())
            .collect();
        assert_eq!(gone, caps, "captures of {m}");
    }
    game
}

/// Checks every game of the records file and the JSON against each other and the rules.
fn check_records_and_json(otg: &Path, json: &Value) {
    let records = parse_records(&std::fs::read_to_string(otg).unwrap());
    let games = json["games"].as_array().unwrap();
    assert_eq!(records.len(), games.len());
    assert_eq!(json["games_played"].as_u64().unwrap() as usize, games.len());
    for r in &records {
        let number: u64 = r.tag("game").parse().unwrap();
        let g = games
            .iter()
            .find(|g| g["game"].as_u64() == Some(number))
            .expect("the record's game is in the JSON");
        let game = replay(r);
        let all_moves: Vec<String> = g["opening_moves"]
            .as_array()
            .unwrap()
            .iter()
            .chain(g["moves"].as_array().unwrap())
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let replayed: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(replayed, all_moves, "game {number}");
        assert_eq!(g["plies"].as_u64().unwrap(), game.board().plies() as u64);
        let n = g["moves"].as_array().unwrap().len();
        assert_eq!(g["times_ms"].as_array().unwrap().len(), n);
        assert_eq!(g["scores"].as_array().unwrap().len(), n);
        assert_eq!(r.tag("attackers"), g["attackers"].as_str().unwrap());
        assert_eq!(r.tag("reason"), g["reason"].as_str().unwrap());
        let result = g["result"].as_str().unwrap();
        let want_tag = match result {
            "attackers" => "1",
            "defenders" => "-1",
            _ => "0",
        };
        assert_eq!(r.tag("result"), want_tag, "game {number}");
        if g["termination"] == "rules" {
            let status = game.status();
            assert!(
                status.is_over(),
                "game {number} ended by the rules: {status}"
            );
            assert_eq!(status.to_string(), g["reason"].as_str().unwrap());
            let winner = match status {
                Status::Win(side, _) => side.name(),
                _ => "draw",
            };
            assert_eq!(winner, result);
        } else {
            assert!(
                !game.status().is_over(),
                "game {number} went on past the rules' end"
            );
        }
    }
}

/// Checks that the per-engine numbers add up.
fn check_tallies(json: &Value) {
    let played = json["games_played"].as_u64().unwrap();
    let sides = &json["sides"];
    assert_eq!(
        sides["attackers_wins"].as_u64().unwrap()
            + sides["defenders_wins"].as_u64().unwrap()
            + sides["draws"].as_u64().unwrap(),
        played
    );
    let mut total_games = 0;
    let mut total_wins = 0;
    let mut total_losses = 0;
    for e in json["engines"].as_array().unwrap() {
        let (w, d, l) = (
            e["wins"].as_u64().unwrap(),
            e["draws"].as_u64().unwrap(),
            e["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, e["games"].as_u64().unwrap());
        for key in ["wins", "draws", "losses", "games"] {
            assert_eq!(
                e["as_attackers"][key].as_u64().unwrap() + e["as_defenders"][key].as_u64().unwrap(),
                e[key].as_u64().unwrap(),
                "{key} by side"
            );
        }
        let penta: Vec<u64> = e["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(penta.iter().sum::<u64>(), e["pairs"].as_u64().unwrap());
        total_games += e["games"].as_u64().unwrap();
        total_wins += w;
        total_losses += l;
    }
    assert_eq!(total_games, 2 * played);
    assert_eq!(total_wins, total_losses);
}

// ---------------------------------------------------------------------------------------------
// Real matches between Konakis processes
// ---------------------------------------------------------------------------------------------

#[test]
fn openings_tool_is_reproducible_and_writes_loadable_lines() {
    let args = [
        "openings", "--count", "4", "--plies", "4", "--seed", "7", "--depth", "2",
    ];
    let a = run(&args);
    let b = run(&args);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same openings");
    let out = text(&a.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4);
    for l in &lines {
        let moves: Vec<&str> = l
            .strip_prefix("startpos moves ")
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(moves.len(), 4);
        let g = Game::from_moves(Rules::default(), None, moves).unwrap();
        assert!(!g.status().is_over());
    }
    let fen = run(&[
        "openings", "--count", "2", "--plies", "3", "--seed", "7", "--depth", "1", "--format",
        "fen", "--margin", "100000",
    ]);
    assert!(fen.status.success());
    for l in text(&fen.stdout).lines().filter(|l| !l.starts_with('#')) {
        konakis::Board::from_fen(l).unwrap();
    }
}

/// OpenTafl opens one game per `.otg` file: `--records DIR/` and `--records NAME{game}.otg`
/// write one file per game, each with one game that `konakis replay` replays, and a clock with
/// fractions of a second is left out of the `time-control` tag (OpenTafl reads whole seconds)
/// but kept exactly in `konakis-time-control`.
#[test]
fn per_game_records_hold_one_game_each() {
    let dir = scratch("per-game");
    let cmd = format!("cmd={KONAKIS}");
    for (target, files) in [
        (format!("{}/", p(&dir.join("games"))), dir.join("games")),
        (p(&dir.join("g-{game}.otg")), dir.clone()),
    ] {
        let json = dir.join("r.json");
        let args = [
            "match",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--each",
            "tc=0.5+0.01",
            "--games",
            "2",
            "--rules",
            "MoveLimit=16",
            "--records",
            &target,
            "--json",
            &p(&json),
        ];
        let v = run_match(&args, &json);
        assert_eq!(v["games_played"], 2);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&files)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|f| f.extension().is_some_and(|e| e == "otg"))
            .collect();
        names.sort();
        assert_eq!(names.len(), 2, "{target}: {names:?}");
        for (i, f) in names.iter().enumerate() {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            assert!(name.ends_with(&format!("{:04}.otg", i + 1)), "{name}");
            let record = std::fs::read_to_string(f).unwrap();
            let records = parse_records(&record);
            assert_eq!(records.len(), 1, "{name}:\n{record}");
            assert!(!record.contains("[time-control:"), "{record}");
            assert_eq!(records[0].tag("konakis-time-control"), "0.5 0/0 0.01i");
            let out = run(&["replay", &p(f)]);
            assert!(out.status.success(), "{}", text(&out.stdout));
            assert!(!text(&out.stdout).contains("game 1 of"));
            std::fs::remove_file(f).unwrap();
        }
    }
}

#[test]
fn real_match_tallies_records_and_json_agree() {
    let dir = scratch("real");
    let openings = dir.join("openings.txt");
    let out = run(&[
        "openings",
        "--count",
        "3",
        "--plies",
        "4",
        "--seed",
        "11",
        "--depth",
        "2",
        "--output",
        &p(&openings),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (otg, json) = (dir.join("games.otg"), dir.join("result.json"));
    let args = [
        "match",
        "--engine",
        "name=deep",
        "cmd",
        "--engine",
        "name=shallow",
        "cmd",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--openings",
        "ORDER",
        "--records",
        "OTG",
        "--json",
        "JSON",
    ];
    let args: Vec<String> = args
        .iter()
        .map(|a| match *a {
            "cmd" => format!("cmd={KONAKIS}"),
            "ORDER" => p(&openings),
            "OTG" => p(&otg),
            "JSON" => p(&json),
            a => a.to_string(),
        })
        .collect();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Limits per engine: a deeper and a node-limited shallower search.
    args.insert(4, "depth=3");
    args.insert(7, "nodes=300");
    args.extend(["--seed", "5"]);
    let v = run_match(&args, &json);
    assert_eq!(v["games_planned"], 8);
    assert_eq!(v["games_played"], 8);
    assert_eq!(v["interrupted"], false);
    check_tallies(&v);
    check_records_and_json(&otg, &v);
    let engines = v["engines"].as_array().unwrap();
    assert_eq!(engines[0]["pairs"], 4);
    assert_eq!(engines[0]["limits"], "depth=3");
    assert_eq!(engines[1]["limits"], "nodes=300");
    // Four pairs are too few for Elo, its interval and the LOS, and the JSON says so.
    assert_eq!(v["min_pairs"], 20);
    for e in engines {
        assert_eq!(e["elo_status"], "too_few_pairs");
        assert!(e["elo"].is_null() && e["elo_error"].is_null() && e["los"].is_null());
    }
    assert_no_faults(&v, "the real match");
    // Pairs share an opening, with the sides swapped.
    let games = v["games"].as_array().unwrap();
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["attackers"], pair[1]["defenders"]);
        assert_eq!(pair[0]["pair"], pair[1]["pair"]);
    }
    // The runner's time between an answer and the next `go` (its size depends on the load).
    assert!(v["overhead_us_per_move"].as_f64().unwrap() > 0.0);
}

#[test]
fn rules_reach_the_referee_the_engines_and_the_records() {
    let dir = scratch("rules");
    let (otg, json) = (dir.join("games.otg"), dir.join("r.json"));
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--each",
            "depth=2",
            "--games",
            "2",
            "--rules",
            "KingCapture=English",
            "ThroneHostile=true",
            "FirstMove=Defenders",
            "--records",
            &p(&otg),
            "--json",
            &p(&json),
        ],
        &json,
    );
    assert!(v["rules"].as_str().unwrap().contains("KingCapture=English"));
    assert!(v["rules"].as_str().unwrap().contains("FirstMove=Defenders"));
    check_records_and_json(&otg, &v);
    let records = parse_records(&std::fs::read_to_string(&otg).unwrap());
    for r in &records {
        assert!(r.tag("rules").contains(" atkf:n "), "{}", r.tag("rules"));
        assert!(r.tag("rules").contains(" ks:s "), "{}", r.tag("rules"));
        assert!(r.tag("start").ends_with(" w 0"));
    }
}

#[test]
fn maxmoves_adjudicates_a_draw_when_the_rules_have_no_move_limit() {
    // Ashton has no move limit, so a match needs --maxmoves to bound its games.
    let dir = scratch("maxmoves");
    let (otg, json) = (dir.join("games.otg"), dir.join("r.json"));
    let cmd = format!("cmd={KONAKIS}");
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--each",
            "depth=1",
            "--games",
            "2",
            "--rules",
            "Ruleset=Ashton",
            "--maxmoves",
            "3",
            "--records",
            &p(&otg),
            "--json",
            &p(&json),
        ],
        &json,
    );
    check_records_and_json(&otg, &v);
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["result"], "draw", "{g}");
        assert_eq!(g["termination"], "adjudication", "{g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 6, "{g}");
        assert!(g["reason"].as_str().unwrap().contains("--maxmoves"), "{g}");
    }
}

/// What a match told its caller, owned.
#[derive(Debug, PartialEq)]
enum Told {
    Warning(String),
    Start(usize, String),
    Note(String),
    Game(String, String),
    Tick,
    GamesOver,
    Summary(String),
}

#[test]
fn the_library_tells_the_caller_the_start_each_game_and_the_summary_in_order() {
    use konakis::tools::matches::{self, Event, Finish, MatchOptions};
    let engine = |name: &str| vec![format!("name={name}"), format!("cmd={KONAKIS}")];
    let options = MatchOptions {
        engines: vec![engine("a"), engine("b")],
        each: vec![vec!["nodes=500".to_string()]],
        games: Some(2),
        concurrency: 1,
        seed: Some(1),
        startup_timeout: 10.0,
        move_timeout: 60.0,
        ..MatchOptions::default()
    };
    let mut told = Vec::new();
    let finish = matches::run(
        &options,
        &std::sync::atomic::AtomicBool::new(false),
        || {},
        |event| {
            told.push(match event {
                Event::Warning(t) => Told::Warning(t.into()),
                Event::Start { games, header } => Told::Start(games, header.into()),
                Event::Note(t) => Told::Note(t.into()),
                Event::GameDone { line, status } => Told::Game(line.into(), status.into()),
                Event::Tick => Told::Tick,
                Event::GamesOver => Told::GamesOver,
                Event::Summary(t) => Told::Summary(t.into()),
            })
        },
    );
    assert_eq!(finish.unwrap(), Finish::Completed);
    told.retain(|t| *t != Told::Tick);
    assert_eq!(told.len(), 5, "{told:?}");
    assert!(
        matches!(&told[0], Told::Start(2, h) if h.starts_with("Match: a, b (round robin), 2 games")),
        "{told:?}"
    );
    for (k, number) in [(1, "Game 1 (a attacking"), (2, "Game 2 (b attacking")] {
        assert!(
            matches!(&told[k], Told::Game(line, status)
                if line.starts_with(number) && status.starts_with("a ")),
            "{told:?}"
        );
    }
    assert_eq!(told[3], Told::GamesOver);
    assert!(
        matches!(&told[4], Told::Summary(s) if s.contains("2 of 2 games played")
            && s.ends_with('\n')),
        "{told:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Misbehaving engines
// ---------------------------------------------------------------------------------------------

/// Plays `games` games of the fake engine with `fault` (and `extra` settings) against a
/// well-behaved fake engine; returns the JSON.
fn fault_match(name: &str, fault: &[&str], extra: &[&str], games: &str) -> Value {
    fault_match_timed(name, fault, extra, games, "3")
}

/// [`fault_match`] with this move timeout in seconds.
fn fault_match_timed(
    name: &str,
    fault: &[&str],
    extra: &[&str],
    games: &str,
    move_timeout: &str,
) -> Value {
    let dir = scratch(name);
    let (otg, json) = (dir.join("g.otg"), dir.join("r.json"));
    let cmd = format!("cmd={}", fake_engine());
    let mut args = vec!["match", "--engine", "name=bad", &cmd];
    let fault_args: Vec<String> = fault.iter().map(|f| format!("arg={f}")).collect();
    args.extend(fault_args.iter().map(String::as_str));
    args.extend(extra);
    args.extend([
        "--engine",
        "name=good",
        &cmd,
        "depth=1",
        "--games",
        games,
        "--move-timeout",
        move_timeout,
        "--startup-timeout",
        "3",
        "--records",
    ]);
    let (o, j) = (p(&otg), p(&json));
    args.extend([o.as_str(), "--json", j.as_str()]);
    let v = run_match(&args, &json);
    check_tallies(&v);
    check_records_and_json(&otg, &v);
    v
}

/// Every game lost by "bad" with `termination`, and the fault counted in `counter`.
fn assert_bad_lost_all(v: &Value, termination: &str, counter: &str, reason: &str) {
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        assert_eq!(g["winner"], "good", "{g}");
        assert_eq!(g["termination"], termination, "{g}");
        let r = g["reason"].as_str().unwrap();
        assert!(r.contains("(bad)") && r.contains(reason), "{r}");
    }
    let bad = &v["engines"][0];
    assert_eq!(bad["name"], "bad");
    assert_eq!(bad[counter].as_u64().unwrap() as usize, games.len());
    assert_eq!(bad["losses"].as_u64().unwrap() as usize, games.len());
}

#[test]
fn illegal_move_loses() {
    let v = fault_match(
        "illegal",
        &["--fault", "illegal", "--at", "3"],
        &["depth=1"],
        "2",
    );
    assert_bad_lost_all(&v, "illegal", "illegal_moves", "illegal move");
    // The bad engine's third move: 4 plies when it attacks, 5 when it defends.
    let plies: Vec<u64> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["plies"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [4, 5]);
}

#[test]
fn malformed_move_loses() {
    let v = fault_match("malformed", &["--fault", "malformed"], &["depth=1"], "2");
    assert_bad_lost_all(&v, "illegal", "illegal_moves", "'xyz' is not a move");
}

#[test]
fn crash_mid_game_loses_and_the_engine_is_restarted() {
    let v = fault_match(
        "crash",
        &["--fault", "crash", "--at", "2"],
        &["depth=1"],
        "4",
    );
    assert_bad_lost_all(&v, "crash", "crashes", "simulated crash");
    assert_eq!(
        v["games_played"], 4,
        "the match goes on with a restarted engine"
    );
}

#[test]
fn engine_that_never_answers_loses_on_time() {
    let v = fault_match(
        "hang",
        &["--fault", "hang", "--at", "2"],
        &["tc=0.3+0.05"],
        "2",
    );
    assert_bad_lost_all(&v, "time", "time_forfeits", "lose on time");
}

#[test]
fn engine_without_clock_that_hangs_is_cut_off_by_the_move_timeout() {
    // One second is as good a timeout as three for a move that never comes.
    let v = fault_match_timed("hang-depth", &["--fault", "hang"], &["depth=1"], "2", "1");
    assert_bad_lost_all(&v, "time", "time_forfeits", "move timeout of 1 s");
}

#[test]
fn too_slow_for_its_clock_loses_and_the_margin_is_honoured() {
    let slow = ["--fault", "slow", "--at", "2", "--sleep", "400"];
    let v = fault_match("slow", &slow, &["tc=0.2", "timemargin=100"], "2");
    assert_bad_lost_all(&v, "time", "time_forfeits", "lose on time");
    // The default margin (250 ms at this clock) forgives an answer 50 ms past it, with 200 ms
    // to spare for a loaded machine.
    let late = ["--fault", "slow", "--at", "2", "--sleep", "250"];
    let v = fault_match("slow-default", &late, &["tc=0.2"], "2");
    assert_eq!(v["engines"][0]["time_forfeits"], 0);
    // With a fixed move time and a margin wide enough the same engine is in time.
    let v = fault_match("slow-margin", &slow, &["st=0.1", "timemargin=1500"], "2");
    assert_eq!(v["engines"][0]["time_forfeits"], 0);
}

#[test]
fn an_engine_that_computes_past_its_time_still_loses() {
    // Its process computes, it does not wait for a CPU: nothing of its lateness is forgiven
    // (the sleeping engine of the test above is the other case the new accounting charges).
    let spin = ["--fault", "spin", "--at", "2", "--sleep", "400"];
    let v = fault_match("spin", &spin, &["st=0.1", "timemargin=100"], "2");
    assert_bad_lost_all(&v, "time", "time_forfeits", "lose on time");
}

/// The first CPU this process may run on (Linux).
#[cfg(target_os = "linux")]
fn first_allowed_cpu() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim();
    list.split([',', '-']).next().unwrap().to_string()
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_starved_of_cpu_is_not_charged_the_wait() {
    struct Busy(std::process::Child);
    impl Drop for Busy {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    // The engine shares one CPU with a busy loop that has a higher priority (nice 0 against
    // 10: about a tenth of the CPU for the engine), so it waits for the CPU most of the time.
    let cpu = first_allowed_cpu();
    let _busy = Busy(
        Command::new("taskset")
            .args(["-c", &cpu, "sh", "-c", "while :; do :; done"])
            .spawn()
            .expect("taskset runs"),
    );
    let dir = scratch("starved");
    let json = dir.join("r.json");
    let fake = fake_engine();
    let (good, bad_cpu, j) = (format!("cmd={fake}"), format!("arg={cpu}"), p(&json));
    let bad_engine = format!("arg={fake}");
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=bad",
            "cmd=taskset",
            "arg=-c",
            &bad_cpu,
            "arg=nice",
            "arg=-n",
            "arg=10",
            &bad_engine,
            // 150 ms of its own CPU time: some 1.5 s of wall time on a tenth of a CPU, against
            // 0.5 s allowed. The wide margin absorbs what the kernel does not count as a wait
            // for a CPU (time stolen by a hypervisor, a page fault) on a busy CI machine.
            "arg=--fault",
            "arg=spin",
            "arg=--at",
            "arg=2",
            "arg=--sleep",
            "arg=150",
            "st=0.1",
            "timemargin=400",
            "--engine",
            "name=good",
            &good,
            "depth=1",
            "--games",
            "2",
            "--maxmoves",
            "3",
            "--startup-timeout",
            "20",
            "--json",
            &j,
        ],
        &json,
    );
    let bad = &v["engines"][0];
    assert_eq!(bad["name"], "bad");
    assert_eq!(bad["time_forfeits"], 0, "{v}");
    // Each game needed the forgiveness: its slow move was late by far more than the margin.
    for g in v["games"].as_array().unwrap() {
        let side = if g["attackers"] == "bad" {
            "attackers"
        } else {
            "defenders"
        };
        let forgiven = g["forgiven_ms"][side].as_u64().unwrap();
        assert!(forgiven > 500, "{g}");
    }
}

#[test]
fn garbage_lines_are_ignored() {
    let v = fault_match("garbage", &["--fault", "garbage"], &["depth=1"], "2");
    assert_no_faults(&v, "garbage");
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["termination"], "rules");
    }
}

#[test]
fn a_repeated_bestmove_is_not_taken_for_the_next_answer() {
    let v = fault_match("twice", &["--fault", "twice"], &["depth=1"], "2");
    assert_no_faults(&v, "twice");
}

#[test]
fn garbage_instead_of_a_move_loses_on_time() {
    let v = fault_match("mute", &["--fault", "mute", "--at", "2"], &["tc=0.3"], "2");
    assert_bad_lost_all(&v, "time", "time_forfeits", "lose on time");
}

#[test]
fn no_move_in_a_live_position_is_a_protocol_error() {
    let v = fault_match(
        "nomove",
        &["--fault", "nomove", "--at", "2"],
        &["depth=1"],
        "2",
    );
    assert_bad_lost_all(&v, "protocol", "protocol_errors", "bestmove (none)");
}

#[test]
fn engine_that_fails_to_restart_loses_its_games() {
    let dir = scratch("startfail-marker");
    let marker = format!("{}", dir.join("started").display());
    let v = fault_match(
        "startfail",
        &["--fault", "startfail", "--marker", &marker],
        &["depth=1"],
        "2",
    );
    assert_bad_lost_all(&v, "crash", "crashes", "start-up failed");
}

// ---------------------------------------------------------------------------------------------
// Mistakes caught before any game
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_input_stops_before_the_first_game() {
    let dir = scratch("bad-input");
    let otg = dir.join("never.otg");
    let bad_openings = dir.join("openings.txt");
    std::fs::write(&bad_openings, "startpos moves d1d3\nstartpos moves d1d9\n").unwrap();
    let fake = format!("cmd={}", fake_engine());
    let no_uciok = [fake.as_str(), "arg=--fault", "arg=no-uciok"];
    let exits = [fake.as_str(), "arg=--fault", "arg=exit"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--engine", "cmd=/nonexistent/engine"],
            "cannot start /nonexistent/engine",
        ),
        (
            no_uciok.to_vec(),
            "did not answer uci with uciok within 3 s",
        ),
        (exits.to_vec(), "exited with status 2 before uciok"),
        (vec!["--engine", &fake, "--frobnicate"], "--frobnicate"),
        (
            vec!["--engine", &fake, "--rules", "KingCapture=Salmi"],
            "allowed: Original, English",
        ),
        (
            vec![
                "--engine",
                &fake,
                "--openings",
                &bad_openings.to_str().unwrap(),
            ],
            "openings.txt:2",
        ),
        (
            vec![
                "--engine", &fake, "--engine", &fake, "--sprt", "elo0=0", "elo1=5",
            ],
            "exactly two",
        ),
        (vec!["--engine", &fake, "tc=fast"], "bad time control"),
    ];
    for (extra, want) in cases {
        let mut args = vec!["match", "--engine", &fake, "depth=1"];
        let mut extra = extra;
        if extra[0] != "--engine" {
            extra.insert(0, "--engine");
        }
        args.extend(extra);
        // A generous start-up time: the Python fake engine can take a second or two to answer
        // `uci` on a loaded machine, and what is checked is the error, not the wait.
        args.extend(["--each", "depth=1", "--startup-timeout", "3", "--records"]);
        let o = p(&otg);
        args.push(&o);
        let t = Instant::now();
        let out = run(&args);
        let err = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(if want == "--frobnicate" { 2 } else { 1 }),
            "{args:?}: {err}"
        );
        assert!(err.contains(want), "{args:?}: expected '{want}' in:\n{err}");
        assert!(!otg.exists(), "no game was recorded for {args:?}");
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{args:?} took {:?}",
            t.elapsed()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// SPRT, adjudication, round robin and gauntlet, Ctrl-C
// ---------------------------------------------------------------------------------------------

#[test]
fn sprt_stops_at_a_bound_and_says_which() {
    let dir = scratch("sprt");
    let json = dir.join("r.json");
    let strong = format!("cmd={KONAKIS}");
    let weak = format!("cmd={}", fake_engine());
    for (first, second, verdict) in [(&strong, &weak, "H1"), (&weak, &strong, "H0")] {
        let v = run_match(
            &[
                "match",
                "--engine",
                "name=first",
                first,
                "--engine",
                "name=second",
                second,
                "--each",
                "depth=2",
                "--games",
                "400",
                "--sprt",
                "elo0=0",
                "elo1=150",
                "--concurrency",
                "2",
                "--json",
                &p(&json),
            ],
            &json,
        );
        let sprt = &v["sprt"];
        assert_eq!(sprt["verdict"], verdict, "{sprt}");
        let llr = sprt["llr"].as_f64().unwrap();
        if verdict == "H1" {
            assert!(llr >= sprt["upper"].as_f64().unwrap());
        } else {
            assert!(llr <= sprt["lower"].as_f64().unwrap());
        }
        assert!(v["games_played"].as_u64().unwrap() < 100, "stopped early");
        assert!((sprt["upper"].as_f64().unwrap() - 19f64.ln()).abs() < 1e-3);
    }
}

#[test]
fn adjudication_resign_and_draw() {
    let dir = scratch("adjudicate");
    let json = dir.join("r.json");
    let cmd = format!("cmd={}", fake_engine());
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=pessimist",
            &cmd,
            "arg=--score",
            "arg=-900",
            "--engine",
            "name=optimist",
            &cmd,
            "arg=--score",
            "arg=900",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--resign",
            "movecount=3",
            "score=500",
            "twosided=true",
            "--json",
            &p(&json),
        ],
        &json,
    );
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["termination"], "adjudication");
        assert_eq!(g["winner"], "optimist");
        assert!(
            g["reason"]
                .as_str()
                .unwrap()
                .contains("(pessimist) resigned")
        );
        // Three moves each with both engines agreeing: six plies.
        assert_eq!(g["plies"], 6);
        let pessimist_first = g["attackers"] == "pessimist";
        for (i, score) in g["scores"].as_array().unwrap().iter().enumerate() {
            let pessimist = (i % 2 == 0) == pessimist_first;
            assert_eq!(score.as_i64(), Some(if pessimist { -900 } else { 900 }));
        }
    }
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=a",
            &cmd,
            "arg=--score",
            "arg=3",
            "--engine",
            "name=b",
            &cmd,
            "arg=--score",
            "arg=-2",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--draw",
            "movenumber=6",
            "movecount=2",
            "score=5",
            "--json",
            &p(&json),
        ],
        &json,
    );
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["termination"], "adjudication");
        assert_eq!(g["result"], "draw");
        assert_eq!(g["plies"], 12, "from move 6 on, after 2 quiet moves each");
    }
}

#[test]
fn working_directory_relative_command_and_log() {
    let dir = scratch("dir-log");
    let (json, log) = (dir.join("r.json"), dir.join("io.log"));
    let engines = format!("{}/tests/engines", env!("CARGO_MANIFEST_DIR"));
    let d = format!("dir={engines}");
    let v = run_match(
        &[
            "match",
            "--engine",
            "name=a",
            "cmd=./fake_engine.py",
            &d,
            "--engine",
            "name=b",
            "cmd=./fake_engine.py",
            &d,
            "--each",
            "depth=1",
            "--games",
            "2",
            "--json",
            &p(&json),
            "--log",
            &p(&log),
        ],
        &json,
    );
    assert_eq!(v["games_played"], 2);
    assert!(
        v["engines"][0]["cmd"]
            .as_str()
            .unwrap()
            .starts_with(&engines)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    for want in [
        "a < uci",
        "b > uciok",
        "a < setoption name KingCapture value Original",
        "< go depth 1",
        "> bestmove ",
    ] {
        assert!(log.contains(want), "'{want}' not in the log");
    }
}

#[test]
fn round_robin_and_gauntlet_schedules() {
    let dir = scratch("schedules");
    let json = dir.join("r.json");
    let cmd = format!("cmd={}", fake_engine());
    let three = [
        "match",
        "--engine",
        "name=a",
        &cmd,
        "--engine",
        "name=b",
        &cmd,
        "--engine",
        "name=c",
        &cmd,
        "--each",
        "depth=1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--json",
    ];
    let mut args = three.to_vec();
    let j = p(&json);
    args.push(&j);
    let v = run_match(&args, &json);
    assert_eq!(v["games_played"], 12);
    for e in v["engines"].as_array().unwrap() {
        assert_eq!(e["games"], 8);
        assert_eq!(e["pairs"], 4);
    }
    check_tallies(&v);
    args.push("--gauntlet");
    let v = run_match(&args, &json);
    assert_eq!(v["games_played"], 8);
    let games: Vec<u64> = v["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [8, 4, 4]);
}

#[test]
fn ctrl_c_prints_the_summary_and_keeps_complete_records() {
    let dir = scratch("ctrlc");
    let (otg, json) = (dir.join("g.otg"), dir.join("r.json"));
    let cmd = format!("cmd={KONAKIS}");
    let child = Command::new(KONAKIS)
        .args([
            "match",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--each",
            "depth=3",
            "--games",
            "1000",
            "--concurrency",
            "2",
            "--records",
            &p(&otg),
            "--json",
            &p(&json),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&otg)
        .map(|t| t.matches("[date:").count())
        .unwrap_or(0)
        < 3
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "games are being played"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("(interrupted)"), "{stdout}");
    let v = read_json(&json);
    assert_eq!(v["interrupted"], true);
    let played = v["games_played"].as_u64().unwrap();
    assert!((3..1000).contains(&played), "{played}");
    check_tallies(&v);
    check_records_and_json(&otg, &v);
}

// ---------------------------------------------------------------------------------------------
// Statistics against independent computations
// ---------------------------------------------------------------------------------------------

/// Elo, its interval and the LOS worked out by hand for a symmetric and a lopsided sample.
#[test]
fn elo_error_and_los_by_hand() {
    // 100 pairs, symmetric: mean ½, per-pair variance of the game score
    // 0.1·¼ + 0.2·(1/16) + 0 + 0.2·(1/16) + 0.1·¼ = 0.075.
    let e = Pentanomial([10, 20, 40, 20, 10]).elo().unwrap();
    let se = (0.075f64 / 100.0).sqrt();
    let hi = 0.5 + 1.959_964 * se;
    let want = 400.0 * (hi / (1.0 - hi)).log10();
    assert!(e.elo.abs() < 1e-9);
    assert!((e.error - want).abs() < 1e-3, "{} vs {want}", e.error);
    assert!((e.error - 37.44).abs() < 0.01);
    assert!((e.los - 0.5).abs() < 1e-9);

    // 50 pairs [2, 6, 20, 14, 8]: score (6·¼ + 20·½ + 14·¾ + 8) / 50 = 0.6 → +70.44 Elo.
    let e = Pentanomial([2, 6, 20, 14, 8]).elo().unwrap();
    assert!((e.score - 0.6).abs() < 1e-12);
    assert!((e.elo - 400.0 * 1.5f64.log10()).abs() < 1e-9);
    // Variance listed pair by pair, two-pass.
    let mut xs = Vec::new();
    for (i, &c) in [2, 6, 20, 14, 8].iter().enumerate() {
        xs.extend(std::iter::repeat_n(i as f64 / 4.0, c));
    }
    let mean = xs.iter().sum::<f64>() / 50.0;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 50.0;
    let z = (mean - 0.5) / (var / 50.0).sqrt();
    assert!((e.los - normal_cdf(z)).abs() < 1e-12);
    // Variance 3.25 / 50 = 0.065, z = 0.1 / sqrt(0.065 / 50) = 2.7735 → LOS 0.997227.
    assert!((var - 0.065).abs() < 1e-12);
    assert!((e.los - 0.997_227).abs() < 2e-6, "{}", e.los);
}

/// The constrained maximum-likelihood distribution found by bisection equals the one found by
/// projected gradient ascent on the log-likelihood, and the LLR built on it follows.
#[test]
fn sprt_llr_matches_a_direct_maximisation() {
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let counts = [3u64, 11, 37, 29, 20];
    let n: u64 = counts.iter().sum();
    let f: [f64; 5] = std::array::from_fn(|i| counts[i] as f64 / n as f64);

    // Maximise Σ f_i ln p_i over {Σ p = 1, Σ p a = s} by gradient steps projected onto the
    // plane (the two constraint directions removed by Gram–Schmidt).
    let direct = |s: f64| -> [f64; 5] {
        let ones = [1.0; 5];
        let u: Vec<f64> = ones.iter().map(|x| x / 5f64.sqrt()).collect();
        let mut v: Vec<f64> = a.iter().map(|x| x - 0.5).collect();
        let vn = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        v.iter_mut().for_each(|x| *x /= vn);
        // Start: uniform shifted along v to the right mean.
        let mut p = [0.2; 5];
        let shift = (s - 0.5) / a.iter().zip(&v).map(|(ai, vi)| ai * vi).sum::<f64>();
        for i in 0..5 {
            p[i] += shift * v[i];
        }
        for _ in 0..200_000 {
            let g: Vec<f64> = (0..5).map(|i| f[i] / p[i]).collect();
            let gu: f64 = g.iter().zip(&u).map(|(x, y)| x * y).sum();
            let gv: f64 = g.iter().zip(&v).map(|(x, y)| x * y).sum();
            for i in 0..5 {
                p[i] += 1e-4 * (g[i] - gu * u[i] - gv * v[i]);
            }
        }
        p
    };
    for elo in [-20.0, 0.0, 10.0, 60.0] {
        let s = score_of_elo(elo);
        let ours = most_likely_with_mean(&f, s);
        let theirs = direct(s);
        for i in 0..5 {
            assert!(
                (ours[i] - theirs[i]).abs() < 1e-6,
                "{elo}: {ours:?} vs {theirs:?}"
            );
        }
    }
    let (p0, p1) = (direct(score_of_elo(0.0)), direct(score_of_elo(10.0)));
    let llr_direct: f64 = (0..5).map(|i| n as f64 * f[i] * (p1[i] / p0[i]).ln()).sum();
    let penta = Pentanomial(counts);
    assert!((penta.llr(0.0, 10.0) - llr_direct).abs() < 1e-4);
    // When the sample's mean lies near the bounds' scores the normal approximation agrees
    // to a few per cent.
    let near = Pentanomial([10, 25, 40, 27, 12]);
    let (exact, approx) = (
        near.llr(0.0, 10.0),
        near.llr_normal_approximation(0.0, 10.0),
    );
    assert!(
        (approx - exact).abs() < 0.03 * exact.abs(),
        "{approx} {exact}"
    );
}

#[test]
fn sprt_bounds_and_elo_model() {
    let (lo, hi) = sprt_bounds(0.05, 0.05);
    assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-12);
    assert!((hi - 19f64.ln()).abs() < 1e-12);
    let (lo, hi) = sprt_bounds(0.05, 0.10);
    assert!((lo - (0.10f64 / 0.95).ln()).abs() < 1e-12);
    assert!((hi - 18f64.ln()).abs() < 1e-12);
    // 100 Elo is a 64.0 % expected score.
    assert!((score_of_elo(100.0) - 0.640_065).abs() < 1e-6);
    assert!((elo_of_score(0.25) + 190.848_502).abs() < 1e-5);
    // No pairs: no evidence either way.
    assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    // Evidence for the stronger engine pushes the LLR up, against it down.
    assert!(Pentanomial([0, 5, 20, 30, 10]).llr(0.0, 5.0) > 0.0);
    assert!(Pentanomial([10, 30, 20, 5, 0]).llr(0.0, 5.0) < 0.0);
}
