//! The engine protocol, tested against the built `konakis` binary: scripted sessions for every
//! command with their exact replies, response times while searching, legal answers in many
//! random positions under several rule sets, a flood of malformed input, and bench.

use crate::common::KONAKIS;
use crate::common::process::Process;
use konakis::perft::divide;
use konakis::search::Score;
use konakis::wdl;
use konakis::{Board, Game, Move, Rules, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::ops::{Deref, DerefMut};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const START: &str = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";

/// Every test holds this lock: the tests run one at a time, so that response times are not
/// measured while other tests of this file keep both cores busy.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// A running `konakis`: the shared process harness, with the line protocol's exchanges.
struct Konakis {
    process: Process,
}

impl Deref for Konakis {
    type Target = Process;

    fn deref(&self) -> &Process {
        &self.process
    }
}

impl DerefMut for Konakis {
    fn deref_mut(&mut self) -> &mut Process {
        &mut self.process
    }
}

impl Konakis {
    fn start() -> Konakis {
        Konakis::with_args(&[])
    }

    fn with_args(args: &[&str]) -> Konakis {
        let mut command = Command::new(KONAKIS);
        command.args(args);
        Konakis::with_command(command)
    }

    /// Konakis under `prlimit` with this address-space limit in bytes, or `None` (and a note)
    /// where `prlimit` cannot be run.
    fn with_address_space(bytes: u64, args: &[&str]) -> Option<Konakis> {
        if !has_prlimit() {
            eprintln!("prlimit not found: resource-limit test skipped");
            return None;
        }
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--as={bytes}"))
            .arg("--")
            .arg(KONAKIS)
            .args(args);
        Some(Konakis::with_command(command))
    }

    fn with_command(command: Command) -> Konakis {
        Konakis {
            process: Process::spawn(command),
        }
    }

    /// The next line; fails the test after 20 s.
    fn line(&self) -> String {
        self.next_within(Duration::from_secs(20))
            .expect("a reply within 20 s")
    }

    /// Lines up to and including the first for which `last` holds.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.line();
            let end = last(&l);
            v.push(l);
            if end {
                return v;
            }
        }
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.until(|l| l == "readyok");
        v.pop();
        v
    }

    /// Sends the commands, then `isready`, and checks that exactly `expected` came before
    /// `readyok`.
    fn expect(&mut self, commands: &[&str], expected: &[&str]) {
        for c in commands {
            self.send(c);
        }
        assert_eq!(self.sync(), expected, "replies to {commands:?}");
    }

    /// Sends the commands, then `isready`; the lines before `readyok`.
    fn expect_lines(&mut self, commands: &[&str]) -> Vec<String> {
        for c in commands {
            self.send(c);
        }
        self.sync()
    }

    /// Lines up to and including `bestmove`.
    fn search(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.until(|l| l.starts_with("bestmove"))
    }

    /// Closes the input and waits for the process to end (at most `limit`).
    fn close_and_wait(&mut self, limit: Duration) -> std::process::ExitStatus {
        self.close_input();
        self.exit_within(limit)
            .unwrap_or_else(|| panic!("konakis did not exit within {limit:?}"))
    }
}

/// Whether `prlimit` (util-linux) can be run here.
fn has_prlimit() -> bool {
    Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The `d` reply for a board, under the given rules and status text.
fn display(board: &Board, status: &str, rules: &Rules) -> Vec<String> {
    let mut v: Vec<String> = board.diagram().lines().map(str::to_string).collect();
    v.push(format!("Position: {}", board.to_fen()));
    v.push(format!("Side to move: {}", board.side_to_move()));
    v.push(format!("Plies: {}", board.plies()));
    v.push(format!("Key: {:016x}", board.hash()));
    v.push(format!(
        "King: {}",
        match board.king_open_lines() {
            0 => "no open line to the edge".to_string(),
            1 => "raichi (1 open line to the edge)".to_string(),
            n => format!("tuichu ({n} open lines to the edge)"),
        }
    ));
    v.push(format!("Status: {status}"));
    v.push(format!("Win chances: {}", chances_in_words(board, rules)));
    v.push(format!("Rules: {rules}"));
    v
}

/// The `Win chances:` text of `d` and `eval` for an ongoing game: the model's chances for the
/// evaluation the search uses (the built-in network of the rules, else the classical one).
fn chances_in_words(board: &Board, rules: &Rules) -> String {
    let side = board.side_to_move();
    let cp = match konakis::network::built_in(konakis::network::RuleFamily::of(rules)) {
        Some(n) => n.net.evaluate_board(board),
        None => konakis::eval::evaluate(board, rules),
    };
    let w = wdl::wdl(Score::Cp(cp), board.plies(), side, rules);
    format!(
        "{} (from the evaluation; wdl {} {} {} for the side to move)",
        wdl::describe(w, side),
        w.win,
        w.draw,
        w.loss
    )
}

/// Checks one `info` line of a search against the documented grammar.
fn check_info(line: &str) {
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!(w[0], "info", "{line}");
    if w[1] == "string" {
        return;
    }
    if w.get(3) == Some(&"currmove") {
        assert_eq!(w[1], "depth", "{line}");
        w[2].parse::<u32>().expect(line);
        Move::parse(w[4]).expect(line);
        assert_eq!(w[5], "currmovenumber", "{line}");
        w[6].parse::<u32>().expect(line);
        assert_eq!(w.len(), 7, "{line}");
        return;
    }
    let mut i = 1;
    let take = |i: &mut usize, name: &str| {
        assert_eq!(w[*i], name, "{line}");
        let v = w[*i + 1];
        *i += 2;
        v
    };
    take(&mut i, "depth").parse::<u32>().expect(line);
    take(&mut i, "seldepth").parse::<u32>().expect(line);
    if w[i] == "multipv" {
        take(&mut i, "multipv").parse::<u32>().expect(line);
    }
    assert_eq!(w[i], "score", "{line}");
    assert!(w[i + 1] == "cp" || w[i + 1] == "mate", "{line}");
    w[i + 2].parse::<i32>().expect(line);
    i += 3;
    if w[i] == "wdl" {
        let chances: Vec<u32> = w[i + 1..i + 4]
            .iter()
            .map(|x| x.parse::<u32>().expect(line))
            .collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
        i += 4;
    }
    if w[i] == "lowerbound" || w[i] == "upperbound" {
        i += 1;
    }
    for name in ["nodes", "nps", "time", "hashfull"] {
        take(&mut i, name).parse::<u64>().expect(line);
    }
    if i < w.len() {
        assert_eq!(w[i], "pv", "{line}");
        assert!(i + 1 < w.len(), "{line}: empty pv");
        for m in &w[i + 1..] {
            Move::parse(m).expect(line);
        }
    }
}

/// Checks a search's lines: info lines well formed, exactly one `bestmove`, last; returns the
/// best move and the ponder move.
fn check_search(lines: &[String]) -> (Option<Move>, Option<Move>) {
    let (last, infos) = lines.split_last().unwrap();
    for l in infos {
        assert!(!l.starts_with("bestmove"), "two bestmoves: {lines:?}");
        check_info(l);
    }
    let w: Vec<&str> = last.split(' ').collect();
    assert_eq!(w[0], "bestmove", "{last}");
    if w[1] == "(none)" {
        assert_eq!(w.len(), 2, "{last}");
        return (None, None);
    }
    let best = Move::parse(w[1]).expect(last);
    let ponder = match w.len() {
        2 => None,
        4 => {
            assert_eq!(w[2], "ponder", "{last}");
            Some(Move::parse(w[3]).expect(last))
        }
        _ => panic!("bad bestmove line: {last}"),
    };
    (Some(best), ponder)
}

/// `setoption` lines that set every rule option to its value in `rules`.
fn rule_options(rules: &Rules) -> Vec<String> {
    rules
        .to_string()
        .split(' ')
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap();
            format!("setoption name {name} value {value}")
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Scripted sessions.

#[test]
fn uci_announces_identity_and_every_option() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("uci");
    let lines = k.until(|l| l == "uciok");
    let version = env!("CARGO_PKG_VERSION");
    let mut expected = vec![
        format!("id name Konakis {version}"),
        "id author the Konakis developers".to_string(),
        "option name Hash type spin default 16 min 1 max 16384".to_string(),
        "option name Threads type spin default 1 min 1 max 512".to_string(),
        "option name MultiPV type spin default 1 min 1 max 256".to_string(),
        "option name Ponder type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name Move Overhead type spin default 30 min 0 max 10000".to_string(),
        "option name SMP Mode type combo default Lazy var Split var Lazy".to_string(),
        "option name Clear Hash type button".to_string(),
        "option name Eval type combo default Network var Network var Classical".to_string(),
        "option name EvalFile type string default <empty>".to_string(),
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
    ];
    // The Elo range is the calibrated curve's (crates/engine/src/levels.txt).
    let (lo, hi) = konakis::skill::curve().elo_range();
    expected.push(format!(
        "option name UCI_Elo type spin default {lo} min {lo} max {hi}"
    ));
    expected.push("option name Skill Seed type spin default 0 min 0 max 2147483647".to_string());
    // Tablut's presets, then the family's games.
    let mut variant = "option name UCI_Variant type combo default original var original var \
                       english var taflhub var encyclopedia var ashton"
        .to_string();
    for game in konakis_core::rules::VARIANTS {
        variant.push_str(" var ");
        variant.push_str(game.id);
    }
    expected.push(variant);
    expected.push("option name VariantPath type string default <empty>".to_string());
    expected.extend(
        [
            "Ruleset type combo default Linnaeus var Linnaeus var Ashton",
            "KingCapture type combo default Original var Original var English",
            "FirstMove type combo default Attackers var Attackers var Defenders",
            "KingArmed type check default true",
            "ThroneHostile type check default false",
            "KingReentersThrone type check default true",
            "ThronePassable type check default true",
            "ThroneGuardCapture type check default true",
            "RepetitionDraw type spin default 3 min 2 max 10",
            "MoveLimit type spin default 200 min 0 max 10000",
            "Encirclement type check default false",
        ]
        .iter()
        .map(|s| format!("option name {s}")),
    );
    expected.push("uciok".to_string());
    assert_eq!(lines, expected);
    k.expect(&[], &[]);
}

#[test]
fn version_and_help_work() {
    let _serial = serial();
    let out = Command::new(KONAKIS).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("konakis {}", env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(KONAKIS).arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("bench") && help.contains("perft"), "{help}");
    assert!(
        help.contains(
            "With no command, konakis is the engine: it reads protocol commands on stdin"
        ),
        "{help}"
    );
}

/// `help` typed into the engine lists every command the parser knows, in plain ASCII lines,
/// and an unknown command's error points to it.
#[test]
fn help_lists_every_command_and_unknown_commands_point_to_it() {
    let _serial = serial();
    let mut k = Konakis::start();
    let lines = k.expect_lines(&["help"]);
    let text = lines.join("\n");
    assert!(lines.len() > 10 && text.is_ascii(), "{text}");
    for word in [
        "uci",
        "isready",
        "setoption",
        "ucinewgame",
        "position startpos",
        "position fen",
        "go depth",
        "movetime",
        "wtime",
        "stop",
        "ponderhit",
        "go perft",
        "d ",
        "eval",
        "bench",
        "quit",
    ] {
        assert!(
            text.contains(word),
            "help does not mention '{word}':\n{text}"
        );
    }
    k.expect(
        &["hepl"],
        &["info string error: unknown command 'hepl' (help lists the commands)"],
    );
    k.expect(
        &["help now"],
        &["info string error: help: unexpected 'now' (it takes no arguments)"],
    );
}

#[test]
fn setoption_accepts_valid_values_silently_and_explains_bad_ones() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.expect(
        &[
            "setoption name Hash value 8",
            "setoption name threads value 2",
            "setoption NAME MultiPV VALUE 2",
            "setoption name Ponder value TRUE",
            "setoption name move overhead value 50",
            "setoption name smp mode value lazy",
            "setoption name Clear Hash",
            "setoption name kingcapture value english",
            "setoption name RepetitionDraw value 2",
        ],
        &[],
    );
    k.expect(
        &[
            "setoption name Hashes value 8",
            "setoption name Hash value 0",
            "setoption name Threads value many",
            "setoption name KingCapture value Salmi",
            "setoption name KingArmed value yes",
            "setoption name MoveLimit value 10001",
            "setoption name Hash",
            "setoption name Clear Hash value now",
            "setoption Hash 8",
        ],
        &[
            "info string error: setoption: unknown option 'Hashes' (options: Hash, Threads, \
             MultiPV, Ponder, UCI_ShowWDL, Move Overhead, SMP Mode, Clear Hash, Eval, EvalFile, Skill Level, \
             UCI_LimitStrength, UCI_Elo, Skill Seed, UCI_Variant, VariantPath, Ruleset, \
             KingCapture, FirstMove, KingArmed, \
             ThroneHostile, KingReentersThrone, ThronePassable, ThroneGuardCapture, \
             RepetitionDraw, MoveLimit, Encirclement)",
            "info string error: setoption: invalid value '0' for Hash (allowed: an integer from 1 \
             to 16384)",
            "info string error: setoption: invalid value 'many' for Threads (allowed: an integer \
             from 1 to 512)",
            "info string error: setoption: invalid value 'Salmi' for KingCapture (allowed: one of \
             Original, English)",
            "info string error: setoption: invalid value 'yes' for KingArmed (allowed: true or \
             false)",
            "info string error: setoption: invalid value '10001' for MoveLimit (allowed: an \
             integer from 0 to 10000)",
            "info string error: setoption: Hash needs a value (setoption name Hash value <an \
             integer from 1 to 16384>)",
            "info string error: setoption: invalid value 'now' for Clear Hash (allowed: no value \
             (it is a button))",
            "info string error: setoption: expected 'name', found 'Hash' (usage: setoption name \
             <name> [value <value>])",
        ],
    );
    // The valid settings took effect (MultiPV 2 shows in the info lines), the bad ones did not.
    let lines = k.search("go depth 2");
    check_search(&lines);
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    k.send("d");
    let d = k.until(|l| l.starts_with("Rules:"));
    assert!(
        d.last().unwrap().contains("KingCapture=English")
            && d.last().unwrap().contains("RepetitionDraw=2")
            && d.last().unwrap().contains("KingArmed=true"),
        "{d:?}"
    );
}

#[test]
fn position_and_d_show_the_game() {
    let _serial = serial();
    let mut k = Konakis::start();
    let rules = Rules::default();
    // Before any position: the start position.
    k.send("d");
    let start = Board::start(&rules);
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(&start, "ongoing", &rules)
    );
    let d = display(&start, "ongoing", &rules);
    assert_eq!(d[0], "   +-------------------+");
    assert_eq!(d[5], " 5 | b b w w K w w b b |");
    assert_eq!(d[11], "     a b c d e f g h i");
    assert_eq!(d[12], format!("Position: {START}"));
    assert_eq!(d[13], "Side to move: attackers");

    k.send("position startpos moves d1d3 e3f3");
    k.send("d");
    let game = Game::from_moves(rules, None, ["d1d3", "e3f3"]).unwrap();
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(game.board(), "ongoing", &rules)
    );

    // A position string with moves, the `d1-d3` form, and raichi.
    let fen = "9/9/9/9/4K4/b8/9/9/3b5 w 17";
    k.send(&format!("position fen {fen} moves e5e4 a4-a5"));
    k.send("d");
    let game = Game::from_moves(rules, Some(fen), ["e5e4", "a4a5"]).unwrap();
    let lines = k.until(|l| l.starts_with("Rules:"));
    assert_eq!(lines, display(game.board(), "ongoing", &rules));
    assert!(lines.contains(&"Plies: 19".to_string()), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("King: tuichu")),
        "{lines:?}"
    );

    // A won game shows its result.
    k.send("position fen 9/9/9/9/9/9/9/9/4K4 b");
    k.send("d");
    let lines = k.until(|l| l.starts_with("Rules:"));
    assert!(
        lines.contains(&"Status: defenders win: the king reached the edge".to_string()),
        "{lines:?}"
    );
    // Raichi: exactly one open line.
    k.send("position fen 4b4/9/9/9/b3K3b/9/9/9/9 w");
    k.send("d");
    let lines = k.until(|l| l.starts_with("Rules:"));
    assert!(
        lines.contains(&"King: raichi (1 open line to the edge)".to_string()),
        "{lines:?}"
    );
}

#[test]
fn bad_positions_name_the_token_and_keep_the_previous_position() {
    let _serial = serial();
    let mut k = Konakis::start();
    let rules = Rules::default();
    k.expect(&["position startpos moves d1d3"], &[]);
    k.expect(
        &[
            "position startpos moves d1d2 e3e2",
            "position startpos moves d1d2 e6e1",
            "position startpos moves d1d2 x9x9",
            "position startpos moves d1d2 d2e3",
            "position fen 3bbb3/4b4 b",
            "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 x",
            "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3",
            "position fen 3bbb3/4b4/4w4/b3w3b/bbwwbwwbb/b3w3b/4w4/4b4/3bbb3 b",
            "position fen",
            "position startpos d1d2",
            "position middlegame",
            "position",
            "position fen 9/9/9/9/9/9/9/9/4K4 b moves e1e2",
        ],
        &[
            "info string error: position: move 2: e3e2 is not legal: e2 is occupied; the \
             previous position stays",
            "info string error: position: move 2: e6e1 is not legal: e1 is occupied; the \
             previous position stays",
            "info string error: position: move 2 'x9x9' is not a move: 'x9' is not a square",
            "info string error: position: move 2 'd2e3' is not a move: pieces move along one \
             rank or file",
            "info string error: position: bad position string '3bbb3/4b4 b': the placement has 2 \
             rank(s) separated by '/', expected 9",
            "info string error: position: bad position string '3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/\
             b3w3b/4w4/...': unknown side to move 'x' (expected b for attackers or w for defenders)",
            "info string error: position: bad position string '3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/\
             b3w3b/4w4/...': missing side to move after the placement (expected b or w)",
            "info string error: position: bad position string '3bbb3/4b4/4w4/b3w3b/bbwwbwwbb/\
             b3w3b/4w4/...': a soldier ('b') stands on the throne e5",
            "info string error: position: missing position string after fen (position \
             startpos|fen <placement> <side> [<plies>] [moves <move>...])",
            "info string error: position: unexpected 'd1d2' after startpos (expected 'moves')",
            "info string error: position: expected startpos or fen, found 'middlegame' \
             (position startpos|fen <placement> <side> [<plies>] [moves <move>...])",
            "info string error: position: missing startpos or fen (position startpos|fen \
             <placement> <side> [<plies>] [moves <move>...])",
            "info string error: position: move 1: e1e2 comes after the end of the game \
             (defenders win: the king reached the edge); the previous position stays",
        ],
    );
    k.send("d");
    let game = Game::from_moves(rules, None, ["d1d3"]).unwrap();
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(game.board(), "ongoing", &rules)
    );
}

#[test]
fn go_searches_and_answers_once_with_a_legal_move() {
    let _serial = serial();
    let mut k = Konakis::start();
    let rules = Rules::default();
    // `go` before any `position` searches the start position.
    let lines = k.search("go depth 3");
    let (best, ponder) = check_search(&lines);
    assert!(lines.iter().filter(|l| l.starts_with("info depth")).count() >= 3);
    let start = Board::start(&rules);
    let best = best.unwrap();
    start.check_move(&rules, best).unwrap();
    if let Some(p) = ponder {
        let mut after = start;
        after.play(&rules, best);
        after.check_move(&rules, p).unwrap();
    }
    // Nothing more follows the bestmove.
    assert_eq!(k.sync(), Vec::<String>::new());

    // Every kind of limit ends with a legal bestmove.
    k.send("position startpos moves d1d3");
    let game = Game::from_moves(rules, None, ["d1d3"]).unwrap();
    for go in [
        "go nodes 2000",
        "go movetime 50",
        "go wtime 300 btime 300 winc 10 binc 10",
        "go wtime 300 btime 300 movestogo 1",
        "go mate 1 depth 3",
        "go depth 2 searchmoves e3f3 c5c1",
        "go wtime -100 btime 0",
    ] {
        let lines = k.search(go);
        let (best, _) = check_search(&lines);
        game.board().check_move(&rules, best.unwrap()).unwrap();
        if go.contains("searchmoves") {
            assert!(["e3f3", "c5c1"].contains(&best.unwrap().to_string().as_str()));
        }
    }
    // Errors in `go` start nothing.
    k.expect(
        &[
            "go depth 0",
            "go depth",
            "go nodes lots",
            "go fast",
            "go searchmoves e9e8",
            "go searchmoves",
        ],
        &[
            "info string error: go: depth '0' is not an integer from 1 to 127",
            "info string error: go: depth needs a value",
            "info string error: go: nodes 'lots' is not an integer from 1 to 9223372036854775807",
            "info string error: go: unknown parameter 'fast' (known: depth, nodes, movetime, \
             wtime, btime, winc, binc, movestogo, infinite, ponder, mate, searchmoves, perft)",
            "info string error: go: searchmoves: e9e8 is not legal: the piece on e9 belongs to \
             the attackers, and the defenders are to move; no search started",
            "info string error: go: searchmoves needs at least one move",
        ],
    );
}

#[test]
fn multipv_reports_several_lines() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("setoption name MultiPV value 3");
    let lines = k.search("go depth 3");
    check_search(&lines);
    for pv in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {pv} "))),
            "{lines:?}"
        );
    }
}

#[test]
fn info_lines_have_no_wdl_unless_uci_showwdl_is_on() {
    let _serial = serial();
    let mut k = Konakis::start();
    let lines = k.search("go depth 4");
    check_search(&lines);
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    k.expect(&["setoption name UCI_ShowWDL value true"], &[]);
    let lines = k.search("go depth 4");
    check_search(&lines);
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for line in infos {
        // `wdl W D L` right after the score, the model's chances for that score.
        let w: Vec<&str> = line.split(' ').collect();
        let at = w.iter().position(|x| *x == "score").unwrap();
        assert_eq!(w[at + 1], "cp", "{line}");
        assert_eq!(w[at + 3], "wdl", "{line}");
        let cp: i32 = w[at + 2].parse().unwrap();
        let expected = wdl::wdl(
            Score::Cp(cp),
            0,
            konakis::Side::Attackers,
            &Rules::default(),
        );
        assert_eq!(
            w[at + 4..at + 7],
            [
                expected.win.to_string(),
                expected.draw.to_string(),
                expected.loss.to_string()
            ],
            "{line}"
        );
    }
    // A forced win is certain: the king escapes next move.
    k.send("position fen 9/9/9/9/4K4/b8/9/9/3b5 w 17");
    let lines = k.search("go depth 3");
    check_search(&lines);
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" score mate 1 wdl 1000 0 0 ")),
        "{lines:?}"
    );
    // Off again: no token.
    k.expect(&["setoption name UCI_ShowWDL value false"], &[]);
    let lines = k.search("go depth 2");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

#[test]
fn eval_and_d_give_the_chances_in_words() {
    let _serial = serial();
    let mut k = Konakis::start();
    let rules = Rules::ashton();
    k.send("setoption name Ruleset value Ashton");
    k.send("position startpos moves e3f3 d1d3");
    let game = Game::from_moves(rules, None, ["e3f3", "d1d3"]).unwrap();
    let words = format!("Win chances: {}", chances_in_words(game.board(), &rules));
    // The model's words for the position: each side's chance, in per cent, adding up to 100.
    let (text, _) = words.split_once(" (from").unwrap();
    let pc: Vec<u32> = text
        .split(' ')
        .filter_map(|x| x.parse::<u32>().ok())
        .collect();
    assert_eq!(pc.len(), 3, "{words}");
    assert_eq!(pc.iter().sum::<u32>(), 100, "{words}");
    assert!(text.starts_with("Win chances: attackers win "), "{words}");
    k.send("eval");
    let lines = k.until(|l| l.starts_with("Evaluation:"));
    assert_eq!(lines[lines.len() - 2], words);
    k.send("d");
    let lines = k.until(|l| l.starts_with("Rules:"));
    assert_eq!(lines[lines.len() - 2], words);
    // A finished game is certain.
    k.send("position fen 9/9/9/9/9/9/9/9/4K4 b");
    k.send("d");
    let lines = k.until(|l| l.starts_with("Rules:"));
    assert_eq!(
        lines[lines.len() - 2],
        "Win chances: attackers win 0 %, draw 0 %, defenders win 100 % (the game is over)"
    );
}

#[test]
fn game_over_positions_answer_none() {
    let _serial = serial();
    let mut k = Konakis::start();
    let cases = [
        (
            "position fen 9/9/9/9/9/9/9/9/4K4 b",
            "defenders win: the king reached the edge",
        ),
        (
            "position fen 9/9/9/9/4K4/9/9/9/9 b",
            "defenders win: the attackers have no legal move",
        ),
        (
            "position startpos moves d1d2 e3d3 d2d1 d3e3 d1d2 e3d3 d2d1 d3e3",
            "draw: the same position occurred again (repetition)",
        ),
    ];
    for (position, status) in cases {
        k.send(position);
        let lines = k.search("go depth 4");
        assert_eq!(
            lines,
            [
                format!("info string game over: {status}"),
                "bestmove (none)".into()
            ],
            "{position}"
        );
        // With searchmoves the same answer: the game is over, whatever the moves.
        assert_eq!(k.search("go searchmoves e9e8"), lines, "{position}");
        // Also under infinite: the answer waits for stop.
        k.send("go infinite");
        assert_eq!(k.line(), format!("info string game over: {status}"));
        assert_eq!(k.next_within(Duration::from_millis(200)), None);
        k.send("stop");
        assert_eq!(k.line(), "bestmove (none)");
    }
    k.expect(
        &[
            "position startpos",
            "setoption name MoveLimit value 2",
            "position startpos moves d1d2 e3d3",
        ],
        &[],
    );
    let lines = k.search("go depth 1");
    assert_eq!(
        lines,
        [
            "info string game over: draw: the move limit was reached",
            "bestmove (none)"
        ]
    );
}

#[test]
fn errors_name_the_real_fault() {
    let _serial = serial();
    let mut k = Konakis::start();
    let replies = k.expect_lines(&[
        "position startpos moves a4a4",
        "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 4294967296",
        "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 4294967295",
    ]);
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(
        replies[0].contains("'a4a4' is not a move: it starts and ends on the same square"),
        "{replies:?}"
    );
    assert!(
        replies[1].contains("ply count '4294967296' is not a whole number from 0 to 4294967295"),
        "{replies:?}"
    );
}

#[test]
fn rule_options_apply_to_the_current_game() {
    let _serial = serial();
    let mut k = Konakis::start();
    // The moves stay legal under English captures: the game is replayed.
    k.expect(
        &[
            "position startpos moves d1d3 e3f3",
            "setoption name KingCapture value English",
        ],
        &[],
    );
    k.send("d");
    let english = Rules {
        king_capture: konakis::KingCapture::English,
        ..Rules::default()
    };
    let game = Game::from_moves(english, None, ["d1d3", "e3f3"]).unwrap();
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(game.board(), "ongoing", &english)
    );
    // With the defenders first, the attackers' first move is illegal: back to the start.
    k.expect(
        &["setoption name FirstMove value Defenders"],
        &[
            "info string the 2 move(s) of the current game do not make a legal game under the \
           new rules (move 1: d1d3 is not legal: the piece on d1 belongs to the attackers, and \
           the defenders are to move); the position is now the game's start position",
        ],
    );
    let rules = Rules {
        first_move: konakis::Side::Defenders,
        ..english
    };
    k.send("d");
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(&Board::start(&rules), "ongoing", &rules)
    );
    // A position string keeps its own side to move.
    k.send(&format!("position fen {START} moves d1d3"));
    k.expect(&["setoption name FirstMove value Attackers"], &[]);
}

#[test]
fn ucinewgame_forgets_the_game() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.expect(&["position startpos moves d1d3", "ucinewgame"], &[]);
    k.send("d");
    let rules = Rules::default();
    assert_eq!(
        k.until(|l| l.starts_with("Rules:")),
        display(&Board::start(&rules), "ongoing", &rules)
    );
    k.expect(
        &["ucinewgame now"],
        &["info string error: ucinewgame: unexpected 'now' (it takes no arguments)"],
    );
}

#[test]
fn eval_lists_its_terms() {
    let _serial = serial();
    let mut k = Konakis::start();
    // Rules no network is trained for, so that the search evaluates classically.
    let rules = Rules {
        throne_hostile: true,
        ..Rules::default()
    };
    let board = Board::start(&rules);
    let (terms, total) = konakis::eval::breakdown(&board, &rules);
    k.send("setoption name ThroneHostile value true");
    k.send("eval");
    let lines = k.until(|l| l.starts_with("Evaluation:"));
    assert_eq!(lines.len(), terms.len() + 6, "{lines:?}");
    assert!(lines[0].starts_with("term (attackers' view)"));
    for ((name, value), line) in terms.iter().zip(&lines[1..]) {
        let (n, v) = line.rsplit_once(' ').unwrap();
        assert_eq!(n.trim_end(), *name);
        assert_eq!(v.parse::<i32>().unwrap(), *value);
    }
    let sum: i32 = terms.iter().map(|t| t.1).sum();
    assert!(lines[terms.len() + 1].ends_with(&format!(" {sum}")));
    let n = lines.len();
    assert_eq!(
        lines[n - 4],
        format!("Classical: {total} cp for the side to move (attackers)")
    );
    assert_eq!(
        lines[n - 3],
        "Network: none for these rules (other rules); the search evaluates classically"
    );
    assert_eq!(
        lines[n - 2],
        format!("Win chances: {}", chances_in_words(&board, &rules))
    );
    assert_eq!(
        lines[n - 1],
        format!("Evaluation: {total} cp for the side to move (attackers), classical")
    );
    k.send("setoption name Eval value Classical");
    k.send("eval");
    let lines = k.until(|l| l.starts_with("Evaluation:"));
    assert_eq!(
        lines[lines.len() - 3],
        "Network: not used (Eval is Classical)"
    );
}

#[test]
fn go_perft_prints_the_split_and_the_total() {
    let _serial = serial();
    let mut k = Konakis::start();
    let rules = Rules::default();
    k.send("go perft 3");
    let lines = k.until(|l| l.starts_with("Nodes searched"));
    let start = Board::start(&rules);
    let mut expected: Vec<String> = divide(&start, &rules, 3)
        .iter()
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    assert_eq!(expected.len(), 80);
    expected.push(String::new());
    expected.push("Nodes searched: 353200".into());
    assert_eq!(lines, expected);
    // Under other rules, from the current position.
    let hub = Rules::tafl_hub();
    for line in rule_options(&hub) {
        k.send(&line);
    }
    k.send("position startpos moves d1d3 e3f3");
    k.send("go perft 2");
    let game = Game::from_moves(hub, None, ["d1d3", "e3f3"]).unwrap();
    let total: u64 = divide(game.board(), &hub, 2).iter().map(|x| x.1).sum();
    let lines = k.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {total}"));
    k.expect(
        &["go perft 0", "go perft", "go perft 3 more"],
        &[
            "info string error: go: perft depth '0' is not an integer from 1 to 20",
            "info string error: go: perft needs a depth (go perft <depth>)",
            "info string error: go: unexpected 'more' after the perft depth",
        ],
    );
    // A long perft is stopped by `stop` and answers isready meanwhile.
    k.send("go perft 7");
    let lines = k.sync();
    assert!(lines.iter().all(|l| l.contains(": ")), "{lines:?}");
    k.send("stop");
    assert_eq!(
        k.until(|l| l == "info string perft stopped")
            .last()
            .unwrap(),
        "info string perft stopped"
    );
    k.expect(&[], &[]);
}

#[test]
fn ruleset_ashton_set_through_the_protocol_plays_the_tablut_challenge_rules() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.expect(&["setoption name Ruleset value Ashton"], &[]);
    k.send("go perft 3");
    let lines = k.until(|l| l.starts_with("Nodes searched"));
    // White moves first under Ashton: 56 moves, then the Tablut Challenge's figure.
    assert_eq!(lines.len(), 56 + 2, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 248456");
    // The options Ashton fixes refuse other values; the game is unchanged.
    k.expect(
        &["setoption name FirstMove value Attackers"],
        &[
            "info string error: setoption: FirstMove is fixed by Ruleset=Ashton (to Defenders); \
           set Ruleset to Linnaeus first",
        ],
    );
    // The opening of the first recorded server game: black i4-e4 captures e3 against the
    // camp square e2.
    k.send("position startpos moves e4d4 i4e4");
    let d = k.sync();
    assert!(
        d.is_empty(),
        "a legal Ashton opening (black i4-e4 captures e3) is accepted: {d:?}"
    );
    k.send("d");
    let diagram = k.sync();
    assert!(
        diagram
            .iter()
            .any(|l| l == "Position: 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b2wb4/9/4b4/3bbb3 w 2"),
        "{diagram:?}"
    );
    // Back to the reference rules.
    k.expect(
        &["position startpos", "setoption name Ruleset value Linnaeus"],
        &[],
    );
    k.send("go perft 3");
    let lines = k.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 353200");
    k.expect(&[], &[]);
    let stderr = k.stderr_text();
    assert!(!stderr.contains("panicked"), "{stderr}");
    k.send("quit");
    assert!(k.close_and_wait(Duration::from_secs(5)).success());
}

// ---------------------------------------------------------------------------------------------
// While searching.

#[test]
fn isready_and_stop_answer_at_once_during_an_infinite_search() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.expect(&["position startpos"], &[]);
    for _ in 0..5 {
        k.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        let t = Instant::now();
        k.send("isready");
        let lines = k.until(|l| l == "readyok");
        let ready = t.elapsed();
        assert!(ready < Duration::from_millis(100), "isready took {ready:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        // No bestmove before stop.
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        k.send("stop");
        let lines = k.until(|l| l.starts_with("bestmove"));
        let stopped = t.elapsed();
        assert!(stopped < Duration::from_millis(50), "stop took {stopped:?}");
        check_search(&lines);
    }
}

#[test]
fn refusals_while_searching_leave_everything_as_it_was() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("go infinite");
    for c in [
        "setoption name Hash value 1",
        "setoption name KingCapture value English",
        "go depth 1",
        "ucinewgame",
        "go perft 1",
        "bench 1",
    ] {
        k.send(c);
    }
    let replies: Vec<String> = k
        .sync()
        .into_iter()
        .filter(|l| !l.starts_with("info depth"))
        .collect();
    assert_eq!(
        replies,
        [
            "info string error: setoption: a search is running (send stop first); nothing \
             changed",
            "info string error: setoption: a search is running (send stop first); nothing \
             changed",
            "info string error: go: a search is running (send stop first); nothing changed",
            "info string error: ucinewgame: a search is running (send stop first); nothing \
             changed",
            "info string error: go perft: a search is running (send stop first); nothing \
             changed",
            "info string error: bench: a search is running (send stop first); nothing changed",
        ],
    );
    // The first search goes on until stop, and answers once.
    let lines = k.search("stop");
    let (best, _) = check_search(&lines);
    Board::start(&Rules::default())
        .check_move(&Rules::default(), best.unwrap())
        .unwrap();
    assert_eq!(k.sync(), Vec::<String>::new());
    k.send("d");
    let d = k.until(|l| l.starts_with("Rules:"));
    assert!(d.last().unwrap().contains("KingCapture=Original"), "{d:?}");
    // `stop` with nothing running is ignored; so is a second one.
    k.expect(&["stop", "stop"], &[]);
    k.expect(
        &["ponderhit"],
        &["info string error: ponderhit: no ponder search is running (go ponder starts one)"],
    );
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("setoption name Ponder value true");
    k.send("position startpos moves d1d3");
    k.send("go ponder wtime 200 btime 200");
    // Info lines may come; no bestmove.
    let lines = k.sync();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    std::thread::sleep(Duration::from_millis(300));
    // Still no bestmove after more than the clock: it is pondering.
    let mut seen = Vec::new();
    while let Some(l) = k.next_within(Duration::from_millis(10)) {
        seen.push(l);
    }
    assert!(!seen.iter().any(|l| l.starts_with("bestmove")), "{seen:?}");
    let t = Instant::now();
    k.send("ponderhit");
    let lines = k.until(|l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    check_search(&lines);
    // Ponder then stop.
    k.send("go ponder wtime 10000 btime 10000");
    std::thread::sleep(Duration::from_millis(50));
    let lines = k.search("stop");
    check_search(&lines);
}

#[test]
fn movetime_and_clocks_are_kept() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("position startpos");
    for (go, limit) in [
        ("go movetime 200", 250),
        ("go movetime 20", 70),
        ("go wtime 1000 btime 1000", 1000),
        ("go wtime 100000 btime 300 binc 0", 300),
    ] {
        let t = Instant::now();
        let lines = k.search(go);
        let took = t.elapsed();
        check_search(&lines);
        assert!(took < Duration::from_millis(limit), "{go}: {took:?}");
    }
}

#[test]
fn quit_ends_at_once_even_mid_search_and_end_of_input_ends_cleanly() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send("setoption name Threads value 2");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    k.send("quit");
    let status = k.close_and_wait(Duration::from_secs(2));
    assert!(status.success());
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );

    // End of input after a finite search: the search finishes and answers first.
    let mut k = Konakis::start();
    k.send("go depth 3");
    let status = k.close_and_wait(Duration::from_secs(20));
    assert!(status.success());
    let mut rest = Vec::new();
    while let Some(l) = k.next_within(Duration::from_millis(100)) {
        rest.push(l);
    }
    assert!(rest.last().unwrap().starts_with("bestmove"), "{rest:?}");

    // End of input during an infinite search: stopped, answered, ended.
    let mut k = Konakis::start();
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert!(k.close_and_wait(Duration::from_secs(2)).success());
    let mut rest = Vec::new();
    while let Some(l) = k.next_within(Duration::from_millis(100)) {
        rest.push(l);
    }
    assert!(rest.last().unwrap().starts_with("bestmove"), "{rest:?}");

    // Nothing at all.
    let mut k = Konakis::start();
    assert!(k.close_and_wait(Duration::from_secs(2)).success());
    assert_eq!(k.next_within(Duration::from_millis(100)), None);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn junk_lines_get_one_error_each() {
    let _serial = serial();
    let mut k = Konakis::start();
    k.send_bytes(b"\n   \n\t\n");
    k.send_bytes(b"hello world\n");
    k.send_bytes(b"  isready  \n");
    assert_eq!(
        k.until(|l| l == "readyok"),
        [
            "info string error: unknown command 'hello' (help lists the commands)",
            "readyok"
        ]
    );
    k.send_bytes(b"\xff\xfe\x00junk\r\n");
    k.send_bytes(b"UCI\n");
    let mut long = b"position startpos moves ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 100_000));
    long.push(b'\n');
    k.send_bytes(&long);
    let long_word: Vec<u8> = std::iter::repeat_n(b'q', 100_000).chain([b'\n']).collect();
    k.send_bytes(&long_word);
    let many_moves = format!("position startpos moves {}", "d1d2 d2d1 ".repeat(10_000));
    k.send(&many_moves);
    assert_eq!(
        k.sync(),
        [
            "info string error: unknown command '\\u{fffd}\\u{fffd}\\u{0}junk' (help lists the \
             commands)",
            "info string error: unknown command 'UCI' (help lists the commands)",
            "info string error: position: move 1 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is \
             not a move (expected e.g. d1d3 or d1-d3)",
            "info string error: unknown command \
             'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq...' (help lists the commands)",
            "info string error: position: move 2: d2d1 is not legal: the piece on d2 belongs to \
             the attackers, and the defenders are to move; the previous position stays",
        ]
    );
    // A line beyond the limit is dropped whole.
    let mut huge = b"go perft 1 ".to_vec();
    huge.extend(std::iter::repeat_n(b'7', 2 << 20));
    huge.push(b'\n');
    k.send_bytes(&huge);
    assert_eq!(
        k.sync(),
        [format!(
            "info string error: line of {} bytes ignored (longer than 1048576 bytes)",
            huge.len() - 1
        )]
    );
}

/// A line that the engine would read as `quit`.
fn is_quit(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = text.split_whitespace().collect();
    words == ["quit"]
}

/// Real commands to mutate.
const SEEDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "d",
    "eval",
    "stop",
    "ponderhit",
    "position startpos",
    "position startpos moves d1d3 e3f3 d3d2",
    "position fen 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 12 moves e3d3",
    "position fen 9/9/9/9/4K4/b8/9/9/3b5 w 17 moves e5e4",
    "setoption name Hash value 4",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Ponder value true",
    "setoption name Move Overhead value 10",
    "setoption name SMP Mode value Lazy",
    "setoption name Clear Hash",
    "setoption name KingCapture value English",
    "setoption name FirstMove value Defenders",
    "setoption name KingArmed value false",
    "setoption name ThroneHostile value true",
    "setoption name KingReentersThrone value false",
    "setoption name ThronePassable value false",
    "setoption name ThroneGuardCapture value false",
    "setoption name RepetitionDraw value 2",
    "setoption name MoveLimit value 5",
    "setoption name Encirclement value true",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 3",
    "go infinite",
    "go ponder wtime 50 btime 50",
    "go mate 1",
    "go searchmoves d1d3 e1e2 depth 2",
    "go perft 2",
    "bench 1",
];

const WORDS: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "+7",
    "-99999999999",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e9",
    "0x10",
    "NaN",
    "true",
    "value",
    "name",
    "moves",
    "fen",
    "startpos",
    "depth",
    "infinite",
    "searchmoves",
    "perft",
    "e5e5",
    "z9z1",
    "d1-d3",
    "d1d3",
    "K",
    "/",
    "9/9/9",
];

fn random_word(rng: &mut StdRng) -> Vec<u8> {
    match rng.random_range(0..4) {
        0 | 1 => WORDS[rng.random_range(0..WORDS.len())].as_bytes().to_vec(),
        2 => (0..rng.random_range(1..12))
            .map(|_| rng.random_range(b'!'..=b'~'))
            .collect(),
        _ => (0..rng.random_range(1..8)).map(|_| rng.random()).collect(),
    }
}

/// A mutated command, random bytes, or (rarely) a huge line.
fn random_line(rng: &mut StdRng) -> Vec<u8> {
    let kind = rng.random_range(0..100);
    let mut line: Vec<u8> = if kind < 70 {
        let seed = SEEDS[rng.random_range(0..SEEDS.len())];
        let mut words: Vec<Vec<u8>> = seed.split(' ').map(|w| w.as_bytes().to_vec()).collect();
        for _ in 0..rng.random_range(0..4) {
            let n = words.len();
            match rng.random_range(0..7) {
                0 if n > 1 => {
                    words.remove(rng.random_range(0..n));
                }
                1 => {
                    let w = words[rng.random_range(0..n)].clone();
                    words.insert(rng.random_range(0..=n), w);
                }
                2 if n > 1 => words.swap(rng.random_range(0..n), rng.random_range(0..n)),
                3 | 4 => {
                    let i = rng.random_range(0..n);
                    words[i] = random_word(rng);
                }
                5 => {
                    let w = random_word(rng);
                    words.insert(rng.random_range(0..=n), w);
                }
                _ => {
                    let i = rng.random_range(0..n);
                    words[i].make_ascii_uppercase();
                }
            }
        }
        let mut line = words.join(&b' ');
        if rng.random_range(0..10) == 0 && !line.is_empty() {
            line.truncate(rng.random_range(0..line.len()));
        }
        line
    } else if kind < 98 {
        (0..rng.random_range(0..200))
            .map(|_| rng.random())
            .collect()
    } else {
        let mut line = SEEDS[rng.random_range(0..SEEDS.len())].as_bytes().to_vec();
        while line.len() < 100_000 {
            line.push(b' ');
            line.extend(random_word(rng));
        }
        line
    };
    line.retain(|&b| b != b'\n');
    line
}

#[test]
fn ten_thousand_bad_lines_do_not_hurt() {
    let _serial = serial();
    let mut rng = StdRng::seed_from_u64(0x6b6f6e616b6973);
    let mut k = Konakis::start();
    let mut sent = 0;
    let mut input = Vec::new();
    while sent < 10_000 {
        let line = random_line(&mut rng);
        if is_quit(&line) {
            continue;
        }
        input.extend_from_slice(&line);
        input.push(b'\n');
        sent += 1;
        // Searches and tools started by the junk are stopped now and then.
        if sent % 25 == 0 {
            input.extend_from_slice(b"stop\n");
        }
        if input.len() > 64 * 1024 {
            k.send_bytes(&input);
            input.clear();
        }
    }
    k.send_bytes(&input);
    k.send("stop");
    // The junk holds `isready` lines too: wait for an answer no junk line can give.
    k.send("end-of-junk");
    let before = k.until(|l| l.starts_with("info string error: unknown command 'end-of-junk'"));
    assert!(before.len() > 1000, "{}", before.len());
    // The junk did reach the engine's every part: searches, tools, errors.
    let count = |p: &str| before.iter().filter(|l| l.starts_with(p)).count();
    assert!(count("bestmove") >= 50, "{}", count("bestmove"));
    assert!(count("Nodes searched") >= 5, "{}", count("Nodes searched"));
    assert!(
        count("info string error") >= 1000,
        "{}",
        count("info string error")
    );
    assert_eq!(k.sync(), Vec::<String>::new());
    assert!(k.is_running(), "konakis is still running");
    // Back to the reference rules, then the start position's perft.
    for line in rule_options(&Rules::default()) {
        k.send(&line);
    }
    k.expect(&["position startpos"], &[]);
    k.send("go perft 3");
    let lines = k.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 82);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 353200");
    k.expect(&[], &[]);
    let stderr = k.stderr_text();
    assert!(!stderr.contains("panicked"), "{stderr}");
    k.send("quit");
    assert!(k.close_and_wait(Duration::from_secs(5)).success());
}

// ---------------------------------------------------------------------------------------------
// Legal answers everywhere.

#[test]
fn every_bestmove_is_legal_in_random_positions_under_several_rule_sets() {
    let _serial = serial();
    let mut rng = StdRng::seed_from_u64(20_240_601);
    let rule_sets = [
        Rules::default(),
        Rules::tafl_hub(),
        Rules::encyclopedia(),
        Rules::opentafl(),
        Rules {
            king_capture: konakis::KingCapture::English,
            throne_passable: false,
            king_reenters_throne: false,
            repetition_draw: 2,
            move_limit: 40,
            ..Rules::default()
        },
    ];
    let mut k = Konakis::start();
    let mut searched = 0;
    let mut over = 0;
    for (r, rules) in rule_sets.iter().enumerate() {
        // From the start position a rule change needs no replay (and so says nothing).
        k.send("position startpos");
        for line in rule_options(rules) {
            k.send(&line);
        }
        for i in 0..80 {
            // A random game, mostly random moves, cut at a random ply; sometimes from a
            // position string, so that plies and side come from the string.
            let from_fen = i % 3 == 0;
            let start = if from_fen {
                let mut b = Board::start(rules);
                for _ in 0..rng.random_range(0..6) {
                    let moves = b.legal_moves(rules);
                    if moves.is_empty() {
                        break;
                    }
                    b.play(rules, moves[rng.random_range(0..moves.len())]);
                }
                Some(b.to_fen())
            } else {
                None
            };
            let mut game = Game::from_moves(*rules, start.as_deref(), []).unwrap();
            let plies = rng.random_range(0..60);
            let mut played: Vec<String> = Vec::new();
            while played.len() < plies && game.status() == Status::Ongoing {
                let moves = game.board().legal_moves(rules);
                let mv = moves[rng.random_range(0..moves.len())];
                game.play(mv).unwrap();
                played.push(mv.to_string());
            }
            let head = match &start {
                Some(fen) => format!("position fen {fen}"),
                None => "position startpos".to_string(),
            };
            let position = if played.is_empty() {
                head
            } else {
                format!("{head} moves {}", played.join(" "))
            };
            k.send(&position);
            let go = match (r + i) % 4 {
                0 => "go depth 1".to_string(),
                1 => "go depth 2".to_string(),
                2 => "go depth 3".to_string(),
                _ => format!("go nodes {}", rng.random_range(1..3000)),
            };
            let lines = k.search(&go);
            let (best, ponder) = check_search(&lines);
            let status = game.status();
            if status.is_over() {
                over += 1;
                assert_eq!(
                    lines,
                    [
                        format!("info string game over: {status}"),
                        "bestmove (none)".into()
                    ],
                    "{position}"
                );
                continue;
            }
            searched += 1;
            let best = best.unwrap_or_else(|| panic!("{position}: {lines:?}"));
            game.board()
                .check_move(rules, best)
                .unwrap_or_else(|e| panic!("{position} {go}: {e}"));
            if let Some(p) = ponder {
                let mut after = game.clone();
                if after.play(best).unwrap() == Status::Ongoing {
                    after
                        .board()
                        .check_move(rules, p)
                        .unwrap_or_else(|e| panic!("{position} {go}: ponder {e}"));
                }
            }
        }
    }
    assert!(searched >= 300, "{searched} searched, {over} over");
    assert!(over > 0, "some random games ended");
}

// ---------------------------------------------------------------------------------------------
// Bench.

fn nodes_of(lines: &[String]) -> u64 {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .expect("a Nodes searched line")
        .parse()
        .unwrap()
}

#[test]
fn bench_gives_the_same_count_every_time() {
    let _serial = serial();
    let mut k = Konakis::start();
    // A game, a table and options that bench must not depend on.
    k.send("setoption name Threads value 2");
    k.send("setoption name Hash value 1");
    k.send("setoption name KingCapture value English");
    k.send("position startpos moves d1d3");
    k.search("go depth 4");
    k.send("bench 5");
    let first = k.until(|l| l.starts_with("Nodes/second"));
    let positions = first
        .iter()
        .filter(|l| l.starts_with("info string bench position"))
        .count();
    assert!(positions >= 20, "{first:?}");
    let n = first.len();
    assert!(first[n - 3].starts_with("Total time (ms): "));
    assert!(first[n - 2].starts_with("Nodes searched: "));
    k.send("bench 5");
    let second = k.until(|l| l.starts_with("Nodes/second"));
    assert_eq!(nodes_of(&first), nodes_of(&second));
    assert!(nodes_of(&first) > 0);
    k.expect(
        &["bench 0", "bench five", "bench 3 4"],
        &[
            "info string error: bench: depth '0' is not an integer from 1 to 30",
            "info string error: bench: depth 'five' is not an integer from 1 to 30",
            "info string error: bench: unexpected '4' (usage: bench [depth])",
        ],
    );
    // The command line gives the same count as the protocol.
    let out = Command::new(KONAKIS)
        .args(["bench", "--depth", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(nodes_of(&stdout), nodes_of(&first), "{stdout:?}");
    assert!(stdout.iter().any(|l| l.starts_with("Nodes/second: ")));
    // A bench is stopped by stop, and isready is answered while it runs.
    k.send("bench 12");
    let lines = k.sync();
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info string bench position")),
        "{lines:?}"
    );
    k.send("stop");
    k.until(|l| l == "info string bench stopped");
    k.expect(&[], &[]);
}

#[test]
fn settings_survive_a_session_of_ordinary_use() {
    let _serial = serial();
    // A GUI-like session: new game, moves, clocks, every reply checked for form.
    let mut k = Konakis::start();
    k.send("uci");
    k.until(|l| l == "uciok");
    k.expect(&["setoption name Hash value 8", "ucinewgame"], &[]);
    let rules = Rules::default();
    let mut game = Game::start(rules);
    let mut moves: Vec<String> = Vec::new();
    while game.status() == Status::Ongoing && moves.len() < 16 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        k.send(&position);
        let lines = k.search("go wtime 2000 btime 2000 winc 20 binc 20");
        let (best, _) = check_search(&lines);
        let best = best.unwrap();
        game.play(best).unwrap();
        moves.push(best.to_string());
    }
}

// ---------------------------------------------------------------------------------------------
// Resources, long input, clocks and the end of the session.

#[test]
fn a_thread_that_cannot_be_created_leaves_a_working_engine() {
    let _serial = serial();
    // 512 MiB of address space (an idle engine uses about 160) holds far fewer than 512
    // thread stacks of 2 MiB, with searching helpers' memory besides.
    let limit = 512 << 20;
    let Some(mut k) = Konakis::with_address_space(limit, &[]) else {
        return;
    };
    k.expect(&["setoption name Threads value 512"], &[]);
    // Helpers that keep searching keep their stacks and memory: the limit is reached.
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let lines = k.search("stop");
    assert!(
        lines[0].starts_with("info string searching with ")
            && lines[0].ends_with(" of 512 threads (no more could be started)"),
        "{lines:?}"
    );
    check_search(&lines[1..]);
    // Nothing is stuck: options change and the next search answers.
    k.expect(&["setoption name Threads value 1"], &[]);
    check_search(&k.search("go depth 3"));
    assert!(!k.stderr_text().contains("panicked"), "{}", k.stderr_text());
    // The same for the bench tool: it searches with what it has and exits cleanly.
    if let Some(mut b) =
        Konakis::with_address_space(limit, &["bench", "--depth", "3", "--threads", "512"])
    {
        let status = b.close_and_wait(Duration::from_secs(120));
        let err = b.final_stderr();
        assert!(status.success(), "{err}");
        assert!(
            err.contains(" of 512 threads (no more could be started)"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_hash_the_system_refuses_is_one_error_line_everywhere() {
    let _serial = serial();
    let limit = 3u64 << 30;
    // The line protocol: the old table stays.
    let Some(mut k) = Konakis::with_address_space(limit, &[]) else {
        return;
    };
    k.expect(
        &["setoption name Hash value 16384"],
        &["info string error: setoption: cannot allocate 16384 MiB for the hash table"],
    );
    check_search(&k.search("go depth 3"));
    // The tools: one error line and a failure exit, no panic.
    for args in [
        &["bench", "--hash", "16384", "--depth", "1"][..],
        &["otep", "--hash", "16384"][..],
    ] {
        let mut t = Konakis::with_address_space(limit, args).unwrap();
        let status = t.close_and_wait(Duration::from_secs(20));
        let err = t.final_stderr();
        assert_eq!(status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            format!(
                "error: {}cannot allocate 16384 MiB for the hash table",
                if args[0] == "bench" { "bench: " } else { "" }
            ),
            "{args:?}"
        );
    }
    // One range: what the protocol refuses as out of range, the tools refuse too.
    for args in [
        &["otep", "--hash", "16385"][..],
        &["bench", "--hash", "16385"][..],
    ] {
        let out = Command::new(KONAKIS).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("1..=16384"), "{args:?}: {err}");
    }
    k.expect(
        &["setoption name Hash value 16385"],
        &["info string error: setoption: invalid value '16385' for Hash (allowed: an integer from 1 to 16384)"],
    );
}

#[test]
fn a_clock_without_the_movers_time_answers_at_once() {
    let _serial = serial();
    let mut k = Konakis::start();
    // `w` is the defenders' clock, and the attackers move first.
    for (position, go, field) in [
        (
            "position startpos",
            "go wtime 1000",
            "btime (the attackers'",
        ),
        (
            "position startpos",
            "go winc 100 binc 100",
            "btime (the attackers'",
        ),
        (
            "position startpos",
            "go movestogo 5",
            "btime (the attackers'",
        ),
        (
            "position startpos moves d1d3",
            "go btime 1000",
            "wtime (the defenders'",
        ),
    ] {
        k.send(position);
        let t = Instant::now();
        k.send(go);
        let first = k.next_within(Duration::from_secs(5)).expect("a reply");
        assert!(
            first.starts_with(&format!("info string go: clock fields without {field}")),
            "{go}: {first}"
        );
        let mut lines = vec![];
        while let Some(l) = k.next_within(Duration::from_secs(5)) {
            let end = l.starts_with("bestmove");
            lines.push(l);
            if end {
                break;
            }
        }
        check_search(&lines);
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{go}: {:?}",
            t.elapsed()
        );
    }
}

/// A legal game of `plies` moves from the start position under `rules` (no move limit), that
/// captures nothing and keeps every position below `max_occurrences`.
fn long_quiet_game(rules: &Rules, plies: usize, max_occurrences: u32) -> Vec<Move> {
    let mut rng = StdRng::seed_from_u64(13);
    let mut board = Board::start(rules);
    let mut seen = std::collections::HashMap::new();
    seen.insert(board.hash(), 1u32);
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies {
        let legal = board.legal_moves(rules);
        let pieces = board.occupied().count();
        let offset = rng.random_range(0..legal.len());
        let next = (0..legal.len()).find_map(|i| {
            let mv = legal[(offset + i) % legal.len()];
            let mut child = board;
            child.play(rules, mv);
            let fresh = seen.get(&child.hash()).copied().unwrap_or(0) < max_occurrences;
            (fresh && child.occupied().count() == pieces && child.status(rules) == Status::Ongoing)
                .then_some((mv, child))
        });
        let (mv, child) = next.expect("a quiet move that keeps the game going");
        *seen.entry(child.hash()).or_insert(0) += 1;
        moves.push(mv);
        board = child;
    }
    moves
}

#[test]
fn a_long_move_list_is_replayed_in_linear_time_and_isready_answers() {
    let _serial = serial();
    let mut rules = Rules::default();
    rules.set_pair("MoveLimit=0").unwrap();
    rules.set_pair("RepetitionDraw=10").unwrap();
    // 200,000 moves: a line of 1 MB, just within the line limit.
    let moves = long_quiet_game(&rules, 200_000, 9);
    let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let line = format!("position startpos moves {}", text.join(" "));
    assert!(line.len() <= 1 << 20);
    let mut k = Konakis::start();
    k.expect(
        &[
            "setoption name MoveLimit value 0",
            "setoption name RepetitionDraw value 10",
        ],
        &[],
    );
    let t = Instant::now();
    k.send(&line);
    k.send("isready");
    let reply = k.next_within(Duration::from_secs(10));
    let took = t.elapsed();
    assert_eq!(reply.as_deref(), Some("readyok"));
    // Quadratic replay took 16 s here; linear takes a few tens of milliseconds.
    assert!(took < Duration::from_secs(3), "{took:?}");
    k.send("d");
    let d = k.sync();
    assert!(d.contains(&"Plies: 200000".to_string()), "{d:?}");
    eprintln!("200,000 moves replayed and isready answered in {took:?}");
}

#[test]
fn end_of_input_stops_whatever_runs_and_the_process_ends() {
    let _serial = serial();
    for (command, last) in [
        ("go depth 127", "bestmove"),
        ("go perft 12", "info string perft stopped"),
        ("bench 30", "info string bench stopped"),
    ] {
        let mut k = Konakis::start();
        k.send(command);
        std::thread::sleep(Duration::from_millis(200));
        let status = k.close_and_wait(Duration::from_secs(5));
        assert!(status.success(), "{command}");
        let mut rest = Vec::new();
        while let Some(l) = k.next_within(Duration::from_millis(100)) {
            rest.push(l);
        }
        assert!(
            rest.last().is_some_and(|l| l.starts_with(last)),
            "{command}: {rest:?}"
        );
    }
}

#[test]
fn quit_and_end_of_input_end_the_process_while_nobody_reads_its_output() {
    let _serial = serial();
    for ending in ["quit", "end of input"] {
        let mut child = Command::new(KONAKIS)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Kept open and never read: the pipe fills and stays full.
        let _unread = child.stdout.take().unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut text = "go infinite\n".to_string();
        text.push_str(&"uci\n".repeat(3000));
        if ending == "quit" {
            text.push_str("quit\n");
        }
        input.write_all(text.as_bytes()).unwrap();
        input.flush().unwrap();
        // After `quit` the input stays open; otherwise it ends here.
        let _open = (ending == "quit").then_some(input);
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if start.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(status.is_some_and(|s| s.success()), "{ending}: {status:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// What the README and protocol.md show.

/// The lines of the first fenced block after `marker` in `text`.
fn block_after<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    let from = text
        .find(marker)
        .unwrap_or_else(|| panic!("'{marker}' not found"));
    let rest = &text[from..];
    let open = rest.find("```\n").expect("a block") + 4;
    let len = rest[open..].find("```").expect("the block's end");
    rest[open..open + len].lines().collect()
}

#[test]
fn the_readme_first_session_shows_the_search_it_describes() {
    let _serial = serial();
    let readme = include_str!("../../README.md");
    let session = block_after(readme, "### A first session");
    let mut k = Konakis::start();
    for line in &session {
        k.send(line);
    }
    // What the README says comes, in that order: uciok, readyok, the iterations, bestmove.
    let lines = k.until(|l| l.starts_with("bestmove"));
    let at = |p: &dyn Fn(&str) -> bool| lines.iter().position(|l| p(l)).unwrap_or(usize::MAX);
    let uciok = at(&|l| l == "uciok");
    let readyok = at(&|l| l == "readyok");
    let depth8 = at(&|l| l.starts_with("info depth 8 "));
    assert!(
        uciok < readyok && readyok < depth8 && depth8 < lines.len(),
        "{lines:?}"
    );
    // The README shows the search's output line for line: the same lines as the program's,
    // but for the speed and the time, which vary from run to run.
    let masked = |line: &str| -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let mut out = Vec::new();
        for (i, word) in words.iter().enumerate() {
            let after_timed = i > 0 && matches!(words[i - 1], "nps" | "time");
            out.push(if after_timed { "_" } else { word });
        }
        out.join(" ")
    };
    let sample: Vec<String> = block_after(readme, "The replies come in this order")
        .into_iter()
        .map(masked)
        .collect();
    let search: Vec<String> = lines[readyok + 1..].iter().map(|l| masked(l)).collect();
    assert_eq!(
        sample, search,
        "the README's first session is not what the program prints; update its sample"
    );
    k.send("d");
    assert!(k.sync().iter().any(|l| l.starts_with("Position: ")));
}

#[test]
fn the_docs_name_the_rules_section_and_every_rule_option() {
    let readme = include_str!("../../README.md");
    assert!(
        !readme.contains(concat!("RULES", ".md")),
        "the repository has no such file"
    );
    let help = Command::new(KONAKIS)
        .args(["match", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    assert!(!help.contains(concat!("RULES", ".md")), "{help}");
    let rules_paragraph = &readme[readme.find("`--rules Name=Value …` takes").unwrap()..];
    let rules_paragraph = &rules_paragraph[..rules_paragraph.find("\n\n").unwrap()];
    let help_rules = &help[help.find("Rule options").expect("--rules help")..];
    for o in Rules::OPTIONS {
        assert!(
            rules_paragraph.contains(&format!("`{}`", o.name)),
            "README lacks {}",
            o.name
        );
        assert!(help_rules.contains(o.name), "match --help lacks {}", o.name);
    }
    assert!(rules_paragraph.contains(&format!(
        "all {} of them",
        match Rules::OPTIONS.len() {
            11 => "eleven",
            n => panic!("{n} rule options: update the README's count"),
        }
    )));
}

#[test]
fn protocol_md_shows_what_d_and_bench_print() {
    let _serial = serial();
    let doc = include_str!("../../protocol.md");
    let d = block_after(doc, "### `d`");
    let (commands, reply): (Vec<&str>, Vec<&str>) = d.iter().partition(|l| l.starts_with("> "));
    let mut k = Konakis::start();
    for c in &commands {
        k.send(&c[2..]);
    }
    assert_eq!(k.sync(), reply, "protocol.md's d example");
    let bench = block_after(doc, "### `bench [depth]`");
    let first = bench[1];
    let want = format!(
        "info string bench position 1/{} nodes ",
        konakis::tools::bench::POSITIONS.len()
    );
    assert!(first.starts_with(&want), "{first}");
    // (The node count in the example changes with every search change; it is not checked.)
}

/// The Speed section quotes the build's bench signature: `konakis bench` at its default depth
/// prints the node count the README gives (written with thousands separators).
#[test]
fn the_readme_quotes_the_bench_signature_the_program_prints() {
    let _serial = serial();
    let out = Command::new(KONAKIS).arg("bench").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let nodes: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in:\n{stdout}"));
    let digits = nodes.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let readme = include_str!("../../README.md");
    let speed = &readme[readme.find("## Speed").expect("a Speed section")..];
    let row = speed
        .lines()
        .find(|l| l.contains("`konakis bench` |"))
        .expect("the search speed row");
    assert!(
        row.contains(&format!("({grouped} nodes")),
        "the README's Speed section quotes another bench signature than {grouped}: {row}"
    );
}
