//! The Tablut Challenge wire protocol end to end.
//!
//! `konakis tablut-challenge` against fake servers written here: each test listens on a free
//! port, runs the real binary against it with `--port`, plays the server's part by hand
//! (framing and JSON as the Tablut Challenge server writes them, built with the library's own
//! rules so that Konakis' moves are checked), and checks the exit code and the output.
//!
//! `konakis match … proto=tablut-challenge`: a loopback match (Konakis through the wire against
//! Konakis on the line protocol, both colours), the runner's refusals, and
//! `tests/engines/fake_agent.py`, an agent that breaks the protocol in a chosen way.

use crate::common::KONAKIS;
use crate::common::matches::{read_json, run, scratch, text};
use konakis::challenge::exit;
use konakis::challenge::state::{MoveMessage, State, Turn, parse_move};
use konakis::challenge::wire::{read_frame, write_frame};
use konakis::{Game, Move, Rules, Status};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What the player printed and how it ended.
struct Finished {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Finished {
    fn describe(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A fake server: a listener on a free port and the player started against it.
struct Fake {
    listener: TcpListener,
    child: Option<Child>,
}

impl Fake {
    /// Starts `konakis tablut-challenge --color <colour> --port <port>` with 100 ms a move
    /// (1 s less a 900 ms margin) and the extra arguments.
    fn start(colour: &str, extra: &[&str]) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port().to_string();
        let child = Command::new(KONAKIS)
            .args(["tablut-challenge", "--color", colour, "--port", &port])
            .args(["--seconds", "1", "--margin", "900"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("konakis starts");
        Fake {
            listener,
            child: Some(child),
        }
    }

    /// Accepts the player's connection (within 30 s) and reads its name message.
    fn accept(&self) -> (TcpStream, String) {
        self.listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let stream = loop {
            match self.listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    assert!(Instant::now() < deadline, "the player never connected");
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => panic!("accept: {e}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut s = stream;
        let name = ascii(read_frame(&mut s).expect("a name message"));
        (s, name)
    }

    /// Waits (at most 60 s) for the player to exit.
    fn finish(&mut self) -> Finished {
        let mut child = self.child.take().unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("the player did not exit within 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        Finished {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn send_state(stream: &mut TcpStream, game: &Game, turn: Turn) {
    let text = State::from_board(game.board(), turn, None).to_json();
    write_frame(stream, &text).unwrap();
}

/// The state after the game's last move, turn as the game says.
fn send_position(stream: &mut TcpStream, game: &Game) {
    send_state(stream, game, Turn::to_move(game.board().side_to_move()));
}

/// A message from the player, checked to be ASCII (as everything written to a peer must be).
fn ascii(text: String) -> String {
    assert!(text.is_ascii(), "non-ASCII message to the server: {text:?}");
    text
}

/// Reads the player's move, checks it is legal and plays it.
fn take_move(stream: &mut TcpStream, game: &mut Game) -> Move {
    let text = ascii(read_frame(stream).expect("a move message"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["turn"],
        Turn::to_move(game.board().side_to_move()).as_str(),
        "{text}"
    );
    let MoveMessage::Move(from, to) = parse_move(&text).unwrap() else {
        panic!("not a move: {text}")
    };
    let mv = Move::new(from, to);
    assert_eq!(game.play(mv), Ok(Status::Ongoing), "{mv} in {text}");
    mv
}

/// Plays the first legal move for the fake opponent.
fn opponent_move(game: &mut Game) -> Move {
    let mv = game.board().legal_moves(game.rules())[0];
    game.play(mv).unwrap();
    mv
}

#[test]
fn a_short_game_as_white_prints_every_move_and_the_draw() {
    let mut fake = Fake::start("white", &[]);
    let (mut s, name) = fake.accept();
    assert_eq!(name, "\"Konakis\"");
    let mut game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    let w1 = take_move(&mut s, &mut game);
    send_position(&mut s, &game);
    let b1 = opponent_move(&mut game);
    send_position(&mut s, &game);
    let w2 = take_move(&mut s, &mut game);
    send_state(&mut s, &game, Turn::Draw);
    let f = fake.finish();
    assert_eq!(f.code, exit::FINISHED as i32, "{}", f.describe());
    assert!(
        f.stdout.contains(&format!("moves: {w1} {b1} {w2}\n")),
        "{}",
        f.describe()
    );
    assert!(f.stdout.contains("result: DRAW\n"), "{}", f.describe());
}

#[test]
fn a_short_game_as_black_sends_the_name_and_reports_the_loss() {
    let mut fake = Fake::start("black", &["--name", "Team Seven"]);
    let (mut s, name) = fake.accept();
    assert_eq!(name, "\"Team Seven\"");
    let mut game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    let w1 = opponent_move(&mut game);
    send_position(&mut s, &game);
    let b1 = take_move(&mut s, &mut game);
    send_state(&mut s, &game, Turn::WhiteWin);
    let f = fake.finish();
    assert_eq!(f.code, exit::FINISHED as i32, "{}", f.describe());
    assert!(
        f.stdout.contains(&format!("moves: {w1} {b1}\n")),
        "{}",
        f.describe()
    );
    assert!(
        f.stdout
            .contains("result: WHITEWIN (Konakis, black, loses)"),
        "{}",
        f.describe()
    );
    assert!(
        f.stderr
            .contains("the server will call Konakis 'TeamSeven'"),
        "{}",
        f.describe()
    );
}

#[test]
fn a_refused_move_is_replaced_by_another_and_the_exit_code_says_so() {
    let mut fake = Fake::start("white", &[]);
    let (mut s, _) = fake.accept();
    let game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    let mut first = game.clone();
    let m1 = take_move(&mut s, &mut first);
    // As the server does with errors allowed (-e 1): the same state again, same turn.
    send_position(&mut s, &game);
    let mut second = game.clone();
    let m2 = take_move(&mut s, &mut second);
    assert_ne!(m1, m2, "the refused move must not be sent again");
    // Then the second error loses: the unchanged board, Black wins.
    send_state(&mut s, &game, Turn::BlackWin);
    let f = fake.finish();
    assert_eq!(f.code, exit::REFUSED as i32, "{}", f.describe());
    assert!(
        f.stderr.contains(&format!("refused Konakis' move {m1}"))
            && f.stderr
                .contains(&format!("refused Konakis' move {m2} and ended the game")),
        "{}",
        f.describe()
    );
    assert!(f.stdout.contains("moves: \n"), "{}", f.describe());
    assert!(
        f.stdout
            .contains("result: BLACKWIN (Konakis, white, loses)"),
        "{}",
        f.describe()
    );
}

#[test]
fn malformed_json_and_a_wrong_shape_are_protocol_errors() {
    for (message, want) in [
        ("{\"board\": nope", "not JSON"),
        (
            r#"{"board":[[],[],[],[],[],[],[],[]],"turn":"WHITE"}"#,
            "8 rows",
        ),
        (r#"{"board":[],"turn":"RED"}"#, "turn 'RED'"),
    ] {
        let mut fake = Fake::start("black", &[]);
        let (mut s, _) = fake.accept();
        write_frame(&mut s, message).unwrap();
        let f = fake.finish();
        assert_eq!(f.code, exit::PROTOCOL as i32, "{message}: {}", f.describe());
        assert!(f.stderr.contains(want), "{message}: {}", f.describe());
        assert!(f.stdout.contains("result: unfinished"), "{}", f.describe());
    }
}

#[test]
fn a_disconnect_between_or_inside_messages_ends_with_the_closed_code() {
    let mut fake = Fake::start("black", &[]);
    let (mut s, _) = fake.accept();
    let game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    drop(s);
    let f = fake.finish();
    assert_eq!(f.code, exit::CLOSED as i32, "{}", f.describe());
    assert!(
        f.stderr
            .contains("closed the connection before the game ended"),
        "{}",
        f.describe()
    );

    let mut fake = Fake::start("white", &[]);
    let (mut s, _) = fake.accept();
    let mut game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    let w1 = take_move(&mut s, &mut game);
    s.write_all(&[0, 0, 3]).unwrap();
    drop(s);
    let f = fake.finish();
    assert_eq!(f.code, exit::CLOSED as i32, "{}", f.describe());
    assert!(f.stderr.contains("inside a message"), "{}", f.describe());
    // The move was sent but no state confirmed it: it is in the log, not in the record.
    assert!(
        f.stderr.contains(&format!("white {w1} (Konakis")),
        "{}",
        f.describe()
    );
    assert!(f.stdout.contains("moves: \n"), "{}", f.describe());
}

#[test]
fn no_server_is_a_connect_failure() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port().to_string()
    };
    let out = Command::new(KONAKIS)
        .args(["tablut-challenge", "--color", "white", "--port", &port])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(exit::CONNECT as i32), "{stderr}");
    assert!(stderr.contains("cannot connect"), "{stderr}");
}

#[test]
fn a_state_that_never_comes_ends_after_the_wait() {
    let mut fake = Fake::start("black", &["--wait", "1"]);
    let started = Instant::now();
    let (mut s, _) = fake.accept();
    let f = fake.finish();
    assert_eq!(f.code, exit::TIMEOUT as i32, "{}", f.describe());
    assert!(
        f.stderr.contains("no state from the server within 1 s"),
        "{}",
        f.describe()
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    // The connection was still open: the player gave up on its own.
    let mut buf = [0u8; 1];
    assert_eq!(s.read(&mut buf).unwrap_or(0), 0);
}

#[test]
fn an_unreachable_state_is_trusted_and_the_game_goes_on_from_it() {
    let mut fake = Fake::start("black", &[]);
    let (mut s, _) = fake.accept();
    let mut game = Game::start(Rules::ashton());
    send_position(&mut s, &game);
    // Three plies in one state: white, black and white again.
    let skipped: Vec<Move> = (0..3).map(|_| opponent_move(&mut game)).collect();
    send_position(&mut s, &game);
    let b = take_move(&mut s, &mut game);
    send_state(&mut s, &game, Turn::Draw);
    let f = fake.finish();
    assert_eq!(
        f.code,
        exit::FINISHED as i32,
        "{skipped:?}: {}",
        f.describe()
    );
    assert!(f.stderr.contains("trusts it"), "{}", f.describe());
    assert!(
        f.stdout.contains(&format!("moves: [rebuilt] {b}\n")),
        "{}",
        f.describe()
    );
}

#[test]
fn bad_options_are_refused_before_connecting() {
    for args in [
        &["--option", "Threads=0"][..],
        &["--option", "NoSuchOption=1"][..],
        &["--seconds", "2", "--margin", "2000"][..],
    ] {
        let out = Command::new(KONAKIS)
            .args(["tablut-challenge", "--color", "white", "--port", "9"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(exit::USAGE as i32),
            "{args:?}: {stderr}"
        );
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

/// `--engine` settings for `konakis tablut-challenge` as a challenge agent of the runner,
/// thinking 100 ms a move (2 s less a 1,900 ms margin) on a port the runner chooses.
fn wire_engine(name: &str) -> Vec<String> {
    [
        &format!("name={name}"),
        &format!("cmd={KONAKIS}"),
        "proto=tablut-challenge",
        "st=2",
        "timemargin=1000",
        "arg=tablut-challenge",
        "arg=--color",
        "arg={color}",
        "arg=--port",
        "arg={port}",
        "arg=--seconds",
        "arg={seconds}",
        "arg=--margin",
        "arg=1950",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn loopback_games_through_the_wire_protocol_in_both_colours_are_legal_and_consistent() {
    let dir = scratch("loopback");
    let json = dir.join("out.json");
    let mut args: Vec<String> = vec!["match".into(), "--engine".into()];
    args.extend(wire_engine("wire"));
    args.extend(
        [
            "--engine",
            "name=line",
            &format!("cmd={KONAKIS}"),
            "st=0.05",
            "timemargin=1000",
            "--rules",
            "Ruleset=Ashton",
            "--games",
            "2",
            "--json",
            json.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v = read_json(&json);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{stderr}");
    let mut wire_sides = Vec::new();
    for g in games {
        // Both engines played to a result under the rules: no forfeit, no error.
        assert_eq!(g["termination"], "rules", "{g}\n{stderr}");
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        // The record replays legally under Ashton, and the replay ends as recorded.
        let game = Game::from_moves(Rules::ashton(), None, moves.iter().copied())
            .unwrap_or_else(|e| panic!("{e}: {g}"));
        let want = match game.status() {
            Status::Win(side, _) => side.name(),
            Status::Draw(_) => "draw",
            Status::Ongoing => panic!("the replay has not ended: {g}"),
        };
        assert_eq!(g["result"], want, "{g}");
        assert_eq!(g["plies"], moves.len(), "{g}");
        wire_sides.push(if g["attackers"] == "wire" {
            "attackers"
        } else {
            assert_eq!(g["defenders"], "wire", "{g}");
            "defenders"
        });
    }
    wire_sides.sort();
    assert_eq!(wire_sides, ["attackers", "defenders"], "both colours");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_runner_refuses_challenge_agents_it_cannot_referee() {
    let base = |extra: &[&str], engine: Vec<String>| {
        let mut args: Vec<String> = vec!["match".into(), "--engine".into()];
        args.extend(engine);
        args.extend(
            ["--engine", "name=line", &format!("cmd={KONAKIS}"), "st=0.1"]
                .iter()
                .map(|s| s.to_string()),
        );
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = Command::new(KONAKIS).args(&args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Not Ashton.
    let (code, err) = base(&[], wire_engine("wire"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Ashton Tablut only"), "{err}");
    // A depth limit means nothing to an agent.
    let mut depth = wire_engine("wire");
    depth.retain(|s| s != "st=2");
    depth.push("depth=3".into());
    let (code, err) = base(&["--rules", "Ruleset=Ashton"], depth);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("only a time per move"), "{err}");
    // Fixed ports: one game at a time.
    let mut fixed = wire_engine("wire");
    fixed.retain(|s| s != "arg=--port" && s != "arg={port}");
    let (code, err) = base(&["--rules", "Ruleset=Ashton", "--concurrency", "2"], fixed);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--concurrency 1"), "{err}");
    // A program that never connects.
    let never = vec![
        "name=mute".to_string(),
        "cmd=sleep".to_string(),
        "arg=30".to_string(),
        "arg={port}".to_string(),
        "proto=tablut-challenge".to_string(),
        "st=1".to_string(),
    ];
    let (code, err) = base(
        &["--rules", "Ruleset=Ashton", "--startup-timeout", "1"],
        never,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("did not connect"), "{err}");
}

/// Plays two Ashton games of tests/engines/fake_agent.py (with `agent_args` after its colour)
/// against Konakis, writing the JSON to `json`; returns it and the runner's stderr, after
/// checking that the runner succeeded.
fn fake_agent_match(agent_args: &[&str], json: &std::path::Path) -> (serde_json::Value, String) {
    let agent = format!("{}/tests/engines/fake_agent.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(KONAKIS)
        .args(["match", "--engine", "name=agent", &format!("cmd={agent}")])
        .args([
            "proto=tablut-challenge",
            "st=1",
            "arg=--color",
            "arg={color}",
        ])
        .args(agent_args)
        .args(["--engine", "name=line", &format!("cmd={KONAKIS}"), "st=0.1"])
        .args([
            "timemargin=1000",
            "--rules",
            "Ruleset=Ashton",
            "--games",
            "2",
        ])
        .args(["--json", json.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{agent_args:?}: {stderr}");
    let v = read_json(json);
    (v, stderr)
}

#[test]
fn agents_that_break_the_protocol_lose_and_still_get_the_final_state() {
    for (fault, verdict, final_state) in [
        ("illegal", "illegal", true),
        ("malformed", "protocol", true),
        ("nofrom", "protocol", true),
        ("disconnect", "crash", false),
        ("silent", "time", false),
    ] {
        let dir = scratch(&format!("agent-{fault}"));
        let json = dir.join("out.json");
        let turns = dir.join("turns-{color}.txt");
        let fault_arg = format!("arg={fault}");
        let out_arg = format!("arg={}", turns.display());
        let agent_args = [
            "arg=--port",
            "arg={port}",
            "arg=--fault",
            &fault_arg,
            "arg=--out",
            &out_arg,
        ];
        let (v, _) = fake_agent_match(&agent_args, &json);
        for g in v["games"].as_array().unwrap() {
            assert_eq!(g["termination"], verdict, "{fault}: {g}");
            assert_eq!(g["winner"], "line", "{fault}: {g}");
        }
        for (colour, lost) in [("white", "BLACKWIN"), ("black", "WHITEWIN")] {
            let path = dir.join(format!("turns-{colour}.txt"));
            let seen = std::fs::read_to_string(&path).unwrap_or_default();
            let first = if colour == "white" { "WHITE" } else { "BLACK" };
            assert!(seen.lines().any(|t| t == first), "{fault} {colour}: {seen}");
            let last = seen.lines().last().unwrap_or("");
            if final_state {
                assert_eq!(last, lost, "{fault} {colour}: {seen}");
            } else {
                assert!(!last.ends_with("WIN"), "{fault} {colour}: {seen}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn an_agent_without_a_port_placeholder_plays_on_the_fixed_ports() {
    // The runner listens on the server's own ports; skip (loudly) when something holds them.
    for port in [5800, 5801] {
        if TcpListener::bind(("0.0.0.0", port)).is_err() {
            eprintln!("SKIPPED: port {port} is in use on this machine");
            return;
        }
    }
    let dir = scratch("fixed-ports");
    let json = dir.join("out.json");
    let (v, stderr) = fake_agent_match(&["arg=--fault", "arg=illegal"], &json);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        // The agent connected (as White on 5800, as Black on 5801) and reached its move.
        assert_eq!(g["termination"], "illegal", "{g}\n{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
