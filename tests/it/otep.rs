//! OpenTafl compatibility, tested against the built `konakis` binary and the library: the
//! recorded OpenTafl session replayed line by line into `konakis otep`, OpenTafl's three 9×9
//! rules strings, position records and `.otg` files read back, OpenTafl's sample game replayed
//! with its captures, and the protocol's edge cases.
//!
//! The files in `tests/data/opentafl/` were recorded from OpenTafl itself.

use crate::common::KONAKIS;
use crate::common::matches::{assert_no_faults, fake_engine, read_json, run, scratch, text};
use crate::common::process::Process;
use konakis::geometry::Nine;
use konakis::opentafl::notation::{
    parse_move, parse_position_record, position_record, simple_move,
};
use konakis::opentafl::otg::{OtgGame, parse_otg, replay, result_tag, turns};
use konakis::opentafl::rules_string::{StartKey, format_rules, parse_rules};
use konakis::{Board, Game, Move, Rules, Side, Status, WinReason};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/opentafl");

/// The tests that run engines hold this lock, one at a time, so that their timings are not
/// taken while the other tests keep both cores busy.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}")).expect("test data file")
}

/// OpenTafl's rules strings: Sea Battle, Tablut, Foteviken Tablut.
fn rules_strings() -> Vec<String> {
    data("tablut-rules-strings.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// A running `konakis otep`: the shared process harness (which checks every line written to
/// the host to be ASCII: OTEP is US-ASCII, and OpenTafl decodes with the platform charset),
/// with OTEP's waits.
struct Otep {
    process: Process,
}

impl Otep {
    fn start(args: &[&str]) -> Otep {
        let mut command = Command::new(KONAKIS);
        command.arg("otep").args(args);
        let mut otep = Otep {
            process: Process::spawn(command),
        };
        assert_eq!(
            otep.next(Duration::from_secs(5)),
            "hello",
            "hello comes first"
        );
        otep
    }

    fn send(&mut self, line: &str) {
        self.process.send(line);
    }

    /// The next line.
    fn next(&mut self, timeout: Duration) -> String {
        self.process.next_line(timeout)
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.process
            .until_within(|l| l.starts_with(prefix), timeout)
    }

    /// Every line that arrives within `wait`.
    fn quiet(&mut self, wait: Duration) -> Vec<String> {
        self.process.quiet(wait)
    }

    /// Waits for the process to exit; its status.
    fn exits_within(&mut self, timeout: Duration) -> std::process::ExitStatus {
        self.process.exit_within(timeout).unwrap_or_else(|| {
            self.process.kill();
            panic!("konakis otep did not exit within {timeout:?}")
        })
    }
}

/// The rules OpenTafl's Tablut gives.
fn tablut() -> Rules {
    parse_rules(&rules_strings()[1]).unwrap().rules
}

/// The move of a `move e3-e1` line, checked to be legal on `board`.
fn legal_answer(line: &str, board: &Board, rules: &Rules) -> Move {
    let text = line
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("not a move line: {line}"));
    let m = parse_move(text).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(
        m.captures.is_empty() && m.mark.is_none(),
        "simple form: {line}"
    );
    board
        .check_move(rules, m.mv)
        .unwrap_or_else(|e| panic!("{line} in {}: {e}", position_record(board)));
    m.mv
}

/// The recorded session, line by line: each `play` is answered with a legal move in the
/// position the host's records describe, although the host then confirms the moves its own
/// engine played (so Konakis must take the board from every record), and `finish`/`goodbye`
/// end the process.
#[test]
fn the_recorded_session_gets_a_legal_move_for_every_play() {
    let _serial = serial();
    let rules = tablut();
    let script = data("session-host-to-engine.txt");
    let mut otep = Otep::start(&["--max-time", "100"]);
    let mut board = parse_rules(&rules_strings()[1]).unwrap().start;
    let mut plays = 0;
    for line in script.lines() {
        follow_host(line, &mut board);
        otep.send(line);
        if line == "play attackers" {
            let seen = otep.until("move ", Duration::from_secs(10));
            let answer = seen.last().unwrap();
            legal_answer(answer, &board, &rules);
            assert!(
                seen.iter()
                    .all(|l| l.starts_with("status ") || l.starts_with("move ")),
                "{seen:#?}"
            );
            assert!(
                seen.iter()
                    .any(|l| l.starts_with("status depth ") && l.contains(" score ")),
                "status lines with depth and score: {seen:#?}"
            );
            // Each with the win chances of its score in words, after the score.
            for l in seen.iter().filter(|l| l.starts_with("status depth ")) {
                let (_, after) = l.split_once(" score ").unwrap();
                let chances = after
                    .split_once(" (")
                    .unwrap()
                    .1
                    .split_once(") ")
                    .unwrap()
                    .0;
                let pc: Vec<u32> = chances.split(' ').filter_map(|w| w.parse().ok()).collect();
                assert!(
                    chances.starts_with("attackers win ") && pc.iter().sum::<u32>() == 100,
                    "{l}"
                );
            }
            plays += 1;
        }
    }
    assert_eq!(plays, 27);
    assert!(otep.exits_within(Duration::from_secs(5)).success());
    let rest = otep.quiet(Duration::from_millis(100));
    assert!(rest.iter().all(|l| !l.starts_with("move")), "{rest:?}");
}

/// Follows the host's position through its `opponent-move` and `move` lines (each carries the
/// position record after the move).
fn follow_host(line: &str, board: &mut Board) {
    if let Some(rest) = line.strip_prefix("opponent-move ") {
        let (_, record) = rest.split_once(' ').unwrap();
        *board = parse_position_record(record, Side::Attackers).unwrap();
    } else if let Some(record) = line.strip_prefix("move ") {
        *board = parse_position_record(record, Side::Defenders).unwrap();
    }
}

/// The lines of `real-host-session-0.4.8.txt`: (seconds, from the host, text). The file has
/// `   5.015 > opponent-move …` for the host and `<` for Konakis.
fn real_session() -> Vec<(f64, bool, String)> {
    data("real-host-session-0.4.8.txt")
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let (time, rest) = l.split_once(' ')?;
            let (dir, text) = rest.split_once(' ').unwrap_or((rest, ""));
            Some((time.parse().ok()?, dir == ">", text.to_string()))
        })
        .collect()
}

/// The real OpenTafl 0.4.8 host's side of a whole game (its trailing-space clocks, its overtime
/// marks, `finish 2` twice, `goodbye`), replayed into `konakis otep`: a legal move at every
/// `play` in the position the host's records describe, no line refused, and a clean exit.
#[test]
fn the_real_host_session_gets_a_legal_move_at_every_play() {
    let _serial = serial();
    let session = real_session();
    let (_, _, first) = &session[0];
    let rules_text = first
        .strip_prefix("rules ")
        .expect("the session starts with rules");
    let parsed = parse_rules(rules_text).unwrap();
    let rules = parsed.rules;
    let mut board = parsed.start;
    let mut otep = Otep::start(&["--max-time", "100"]);
    let mut plays = 0;
    let mut seen_all = Vec::new();
    for (_, from_host, line) in session.iter().filter(|(_, h, _)| *h) {
        assert!(from_host);
        follow_host(line, &mut board);
        otep.send(line);
        if let Some(side) = line.strip_prefix("play ") {
            assert_eq!(side, "attackers");
            let seen = otep.until("move ", Duration::from_secs(10));
            legal_answer(seen.last().unwrap(), &board, &rules);
            seen_all.extend(seen);
            plays += 1;
        }
    }
    assert_eq!(plays, 17);
    assert!(otep.exits_within(Duration::from_secs(5)).success());
    seen_all.extend(otep.quiet(Duration::from_millis(100)));
    // The host confirms the moves recorded then, not this run's, so Konakis takes the board
    // from the records; but no line is refused.
    assert!(
        seen_all.iter().all(|l| !l.starts_with("error")),
        "{seen_all:#?}"
    );
}

/// The record OpenTafl 0.4.8 saved of that game, whose last move types the captured king
/// (`d5-f5xKf4`), replays to the attackers' win its result tag states, in the library and in
/// `konakis replay`; a typed capture that names the wrong piece is refused.
#[test]
fn opentafls_saved_king_capture_replays_to_its_result() {
    let text = data("opentafl-saved-king-capture.otg");
    let records = parse_otg::<Nine>(&text).unwrap();
    assert_eq!(records.len(), 1);
    let r = replay(&records[0]).unwrap();
    assert_eq!(
        r.status,
        Status::Win(Side::Attackers, WinReason::KingCaptured)
    );
    assert_eq!(result_tag(&records[0]), Some(Some(Side::Attackers)));
    assert_eq!(r.moves.last().map(String::as_str), Some("d5-f5xKf4"));
    let out = Command::new(KONAKIS)
        .arg("replay")
        .arg(format!("{DATA}/opentafl-saved-king-capture.otg"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("result tag: attackers won (agrees)"),
        "{stdout}"
    );
    for (typed, want) in [
        (
            "xTf4",
            "does not name the piece on f4: the king stands there",
        ),
        ("xCf4", "a piece Tablut does not have"),
    ] {
        let bad = text.replace("xKf4", typed);
        let e = replay(&parse_otg::<Nine>(&bad).unwrap()[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{typed}: {e}");
    }
}

/// OpenTafl splits `arguments=` on single spaces: the empty arguments a double space gives are
/// ignored (`konakis otep ""` says hello), and a rules string as OpenTafl's variant editor
/// writes it, with all twelve piece letters and the `mj`/`gj` keys, is OpenTafl's Tablut.
#[test]
fn empty_arguments_and_the_whole_piece_alphabet() {
    let _serial = serial();
    let mut otep = Otep::start(&["", "--movetime", "", "50", ""]);
    let editor = rules_strings()[1]
        .replace("tcnkTCNK", "tcnkmgTCNKMG")
        .replace("nj:n", "nj:n mj:n gj:n");
    otep.send(&format!("rules {editor}"));
    let line = otep.next(Duration::from_secs(5));
    assert!(line.starts_with("status rules accepted: "), "{line}");
    otep.send("play attackers");
    let seen = otep.until("move ", Duration::from_secs(5));
    legal_answer(
        seen.last().unwrap(),
        &parse_rules(&editor).unwrap().start,
        &tablut(),
    );
    otep.send("goodbye");
    assert!(otep.exits_within(Duration::from_secs(5)).success());
}

/// The score of a `status` line.
fn status_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace().skip_while(|w| *w != "score");
    words.next()?;
    words.next()?.parse().ok()
}

/// Scores on the OTEP side are OpenTafl's AI's: absolute, the attackers' advantage positive,
/// a win 5050 or more. In a position from the real session's end the attackers win whoever is
/// to move: the defenders to move report their loss as a positive score, the attackers their
/// win, in `status` and in `analysis`.
#[test]
fn status_and_analysis_scores_are_absolute_as_opentafls_ai_gives_them() {
    let _serial = serial();
    let mut otep = Otep::start(&["--movetime", "200"]);
    otep.send(TABLUT_RULES);
    otep.next(Duration::from_secs(5));
    // After the attackers' g3-g5: the defenders, to move, lose whatever they do.
    let lost = "/1t1t5/T6T1/4tt3/2t6/t2t1Kttt/5tt2/4tt3/9/5T3/";
    for side in ["defenders", "attackers"] {
        otep.send(&format!("side {side}"));
        otep.send(&format!("position {lost}"));
        otep.send(&format!("play {side}"));
        let seen = otep.until("move ", Duration::from_secs(10));
        let last = seen
            .iter()
            .rev()
            .find_map(|l| status_score(l))
            .unwrap_or_else(|| panic!("{seen:#?}"));
        assert!(last >= 5_050, "{side} to move: {seen:#?}");
        otep.send("analyze 1 0.2");
        let a = otep.until("analysis ", Duration::from_secs(10));
        let eval: i32 = a
            .last()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(eval >= 5_050, "{side} to move: {a:#?}");
    }
}

/// OpenTafl's Tablut is played exactly, read into its preset; Sea Battle (no throne, an
/// unarmed king) and Foteviken Tablut (camps) are read into their presets and played by
/// `konakis otep`.
#[test]
fn the_three_rules_strings_tablut_sea_battle_and_foteviken_are_read_and_played() {
    let _serial = serial();
    let strings = rules_strings();
    assert_eq!(strings.len(), 3);
    let r = parse_rules(&strings[1]).unwrap();
    assert_eq!(
        r.rules,
        Rules {
            move_limit: 0,
            ..Rules::opentafl()
        }
    );
    assert_eq!(r.rules.king_capture, konakis::KingCapture::Original);
    assert!(r.rules.throne_hostile && !r.rules.king_reenters_throne);
    assert!(r.rules.throne_passable && r.rules.throne_guard_capture);
    assert!(r.rules.king_armed && r.rules.encirclement);
    assert_eq!(r.rules.first_move, Side::Attackers);

    let sea_battle = parse_rules(&strings[0]).unwrap();
    assert_eq!(sea_battle.rules, Rules::opentafl_sea_battle());
    let mut otep = Otep::start(&["--max-time", "100"]);
    otep.send(&format!("rules {}", strings[0]));
    let line = otep.next(Duration::from_secs(5));
    assert!(line.starts_with("status rules accepted"), "{line}");
    otep.send("clock 30000 30000 0 0 0");
    otep.send("play attackers");
    let answer = otep.until("move ", Duration::from_secs(5));
    let mv = answer.last().unwrap().strip_prefix("move ").unwrap();
    let mv: Move = parse_move(mv).unwrap().mv;
    assert!(
        sea_battle
            .start
            .legal_moves(&sea_battle.rules)
            .contains(&mv),
        "{answer:?}"
    );
    otep.send("goodbye");
    assert!(otep.exits_within(Duration::from_secs(5)).success());

    // Foteviken Tablut: its camps and throne, read into the preset that follows OpenTafl's
    // Foteviken (an attacker may leave its camp but not come back; nobody crosses the throne).
    let foteviken = parse_rules(&strings[2]).unwrap();
    assert_eq!(
        foteviken.rules,
        Rules {
            move_limit: 0,
            ..Rules::opentafl_foteviken()
        }
    );
    let mut otep = Otep::start(&["--max-time", "100"]);
    otep.send(&format!("rules {}", strings[2]));
    let line = otep.next(Duration::from_secs(5));
    assert!(line.starts_with("status rules accepted"), "{line}");
    otep.send("clock 30000 30000 0 0 0");
    otep.send("play attackers");
    let answer = otep.until("move ", Duration::from_secs(5));
    let mv = answer.last().unwrap().strip_prefix("move ").unwrap();
    let mv: Move = parse_move(mv).unwrap().mv;
    assert!(
        foteviken.start.legal_moves(&foteviken.rules).contains(&mv),
        "{answer:?}"
    );
    otep.send("goodbye");
    assert!(otep.exits_within(Duration::from_secs(5)).success());
}

/// The records OpenTafl 0.4.8 saved when it hosted Konakis (`konakis otep`) against its own AI
/// in Brandub 7x7 and Copenhagen 11x11, Konakis on each side (scripts/opentafl-host.sh):
/// `konakis replay` reads each on its own board, every move is legal under Konakis' referee,
/// and the referee's result is OpenTafl's.
#[test]
fn opentafls_records_of_hosted_brandub_and_copenhagen_games_replay_to_their_results() {
    for (name, size, winner, reason) in [
        (
            "brandub-konakis-attackers",
            7,
            "attackers won",
            "the king was captured",
        ),
        ("brandub-konakis-defenders", 7, "defenders won", ""),
        (
            "copenhagen-konakis-attackers",
            11,
            "attackers won",
            "the defenders are encircled",
        ),
        (
            "copenhagen-konakis-defenders",
            11,
            "attackers won",
            "the position was repeated",
        ),
    ] {
        let file = format!("{DATA}/hosted/{name}.otg");
        let record = std::fs::read_to_string(&file).unwrap();
        assert!(record.contains(&format!("[rules:dim:{size} ")), "{name}");
        let out = Command::new(KONAKIS)
            .arg("replay")
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{name}: {stdout}");
        assert!(
            stdout.contains(&format!("result tag: {winner} (agrees)")),
            "{name}: {stdout}"
        );
        assert!(stdout.contains(reason), "{name}: {stdout}");
    }
}

/// The games of the strength check against OpenTafl's AI (docs/strength.md, "OpenTafl's AI in
/// Brandub and Copenhagen"), as OpenTafl saved them, one file a game named for Konakis' side:
/// each replays under Konakis' referee on its own board to the result OpenTafl gave, decided
/// on the board (no loss on time, no illegal move), and the sides alternate.
#[test]
fn the_strength_games_against_opentafls_ai_replay_to_their_results() {
    fn check<G: konakis::geometry::Geometry>(folder: &str) -> usize {
        let dir = format!("{DATA}/hosted/{folder}");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        for name in &files {
            let side = if name.ends_with("-konakis-attackers.otg") {
                1
            } else {
                assert!(name.ends_with("-konakis-defenders.otg"), "{name}");
                0
            };
            let game: usize = name
                .strip_prefix("game-")
                .and_then(|n| n.split('-').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(game % 2, side, "{name}: Konakis attacks in odd games");
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            let records = parse_otg::<G>(&text).unwrap();
            assert_eq!(records.len(), 1, "{name}");
            let r = replay(&records[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let winner = match r.status {
                Status::Win(side, _) => Some(side),
                other => panic!("{name}: not decided on the board: {other}"),
            };
            assert_eq!(result_tag(&records[0]), Some(winner), "{name}");
        }
        files.len()
    }
    assert_eq!(check::<konakis::geometry::Seven>("brandub-2026-12-06"), 20);
    assert_eq!(
        check::<konakis::geometry::Eleven>("copenhagen-2026-12-06"),
        20
    );
}

/// Random legal games: every position's record reads back to the same board, and the games
/// written as `.otg` (rules tag and turns) read back and replay to the same moves and end.
#[test]
fn position_records_and_otg_files_round_trip() {
    let mut rng = StdRng::seed_from_u64(0x07e9);
    let rules = Rules {
        move_limit: 0,
        ..Rules::opentafl()
    };
    for _ in 0..40 {
        let mut game = Game::start(rules);
        while !game.status().is_over() && game.moves().len() < 160 {
            let board = *game.board();
            let record = position_record(&board);
            assert_eq!(
                parse_position_record(&record, board.side_to_move()).unwrap(),
                {
                    let mut b = board;
                    b.set_plies(0);
                    b
                },
                "{record}"
            );
            let moves = board.legal_moves(&rules);
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).unwrap();
        }
        let start = *game.start_board();
        let text = format!(
            "[result:?]\n[rules:{}]\n\n{}",
            format_rules(&rules, &start, StartKey::StartI),
            turns(&start, &rules, game.moves())
        );
        let records = parse_otg(&text).unwrap();
        assert_eq!(records.len(), 1);
        let moves: Vec<Move> = records[0].moves.iter().map(|m| m.mv).collect();
        assert_eq!(moves, game.moves());
        let r = replay(&records[0]).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(r.rules, rules);
        assert_eq!(r.status, game.status());
        assert_eq!(r.game.board(), game.board());
    }
}

/// OpenTafl's sample game replays move by move with the captures it records, and ends as its
/// result tag says: the king reaches i5.
#[test]
fn the_sample_game_replays_with_its_captures() {
    let text = data("sample-game.otg");
    let records = parse_otg(&text).unwrap();
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record.moves.len(), 48);
    let recorded: Vec<(usize, Vec<String>)> = record
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.captures.is_empty())
        .map(|(i, m)| (i, m.captures.iter().map(|s| s.to_string()).collect()))
        .collect();
    assert_eq!(recorded.len(), 7, "{recorded:?}");
    // Move by move: the referee captures exactly what the record lists.
    let parsed = parse_rules(record.tag("rules").unwrap()).unwrap();
    // Konakis writes OpenTafl's Tablut in a record exactly as OpenTafl did.
    assert_eq!(
        format_rules(&Rules::opentafl(), &parsed.start, StartKey::StartI),
        record.tag("rules").unwrap()
    );
    let mut game = Game::new(parsed.rules, parsed.start);
    for m in &record.moves {
        let before = game
            .board()
            .side_pieces(game.board().side_to_move().opponent());
        game.play(m.mv).unwrap();
        let after = game.board().side_pieces(game.board().side_to_move());
        let mut taken: Vec<String> = (before & !after)
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        let mut listed: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        taken.sort();
        listed.sort();
        assert_eq!(taken, listed, "{}", simple_move(m.mv));
    }
    assert_eq!(
        game.status(),
        Status::Win(Side::Defenders, WinReason::KingEscaped)
    );
    assert_eq!(result_tag(record), Some(Some(Side::Defenders)));
    let r = replay(record).unwrap();
    assert_eq!(r.moves[22], "h7-f7xf8");
    assert_eq!(r.moves[47], "Kf5-i5");

    // The command prints the moves and the result, and agrees with the tag.
    let out = Command::new(KONAKIS)
        .args(["replay", &format!("{DATA}/sample-game.otg")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("\n12. h7-f7xf8 h5-i5xi4\n"), "{stdout}");
    assert!(
        stdout.contains("result: defenders win: the king reached the edge (after 48 plies)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("result tag: defenders won (agrees)"),
        "{stdout}"
    );

    // A record whose capture the referee does not make is refused, naming the move.
    let tampered = text.replace("12. h7-f7xf8", "12. h7-f7");
    let e = replay(&parse_otg::<Nine>(&tampered).unwrap()[0])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("turn 12") && e.contains("captures nothing"),
        "{e}"
    );
    let illegal = text.replace("24. f9-f7xe7", "24. a1-a2");
    let e = replay(&parse_otg::<Nine>(&illegal).unwrap()[0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("turn 24") && e.contains("no piece on a1"), "{e}");
}

const TABLUT_RULES: &str = "rules dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK \
                            cens: cenh: cenhe:tcnkTCNK linc:y \
                            start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// Clocks in every form, before or after `play`: overtime marks, trailing spaces, no main time.
#[test]
fn clock_lines_in_every_form() {
    let _serial = serial();
    let rules = tablut();
    let start = Board::start(&rules);
    // Each clock with the longest a move may take under it (in overtime: the period).
    for (before, after, limit_ms) in [
        (Some("clock 3000* 1129* 3 3 3 "), None, 3_000),
        (Some("clock 6000 6000 3 3 3"), None, 3_000),
        (Some("clock -1 -1 1 1 1"), None, 1_000),
        (None, Some("clock 400* 400* 1 0 0"), 600),
        (None, None, 1_000),
    ] {
        let mut otep = Otep::start(&["--movetime", "300"]);
        otep.send(TABLUT_RULES);
        otep.next(Duration::from_secs(5));
        if let Some(c) = before {
            otep.send(c);
        }
        let started = Instant::now();
        otep.send("play attackers");
        if let Some(c) = after {
            otep.send(c);
        }
        let seen = otep.until("move ", Duration::from_secs(10));
        let took = started.elapsed();
        legal_answer(seen.last().unwrap(), &start, &rules);
        assert!(
            took < Duration::from_millis(limit_ms),
            "{before:?} {after:?}: {took:?}"
        );
        assert!(seen.iter().all(|l| !l.starts_with("error")), "{seen:?}");
    }
}

/// Bad lines get an `error 0` (or a `status`) and change nothing; the engine still answers
/// legal moves for the position it had.
#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let _serial = serial();
    let rules = tablut();
    let mut otep = Otep::start(&["--movetime", "100"]);
    otep.send("play attackers");
    let line = otep.next(Duration::from_secs(5));
    assert!(line.starts_with("error -1 no rules"), "{line}");
    otep.send(TABLUT_RULES);
    assert!(
        otep.next(Duration::from_secs(5))
            .starts_with("status rules accepted")
    );
    for bad in [
        "play sideways",
        "clock 1 2 3",
        "clock a b c d e",
        "opponent-move e3-e1",
        "opponent-move zz /3ttt3/",
        "position /3ttt3/4t4/",
        "move not-a-record",
        "side up",
        "analyze many 3",
        "play séitheoir",
        "side →",
        "position /3ttt3/…/",
        "rules",
    ] {
        otep.send(bad);
        let line = otep.next(Duration::from_secs(5));
        if bad == "rules" {
            assert!(
                line.starts_with("error -1 bad rules string"),
                "{bad}: {line}"
            );
            otep.send(TABLUT_RULES);
            otep.next(Duration::from_secs(5));
        } else {
            assert!(line.starts_with("error 0 "), "{bad}: {line}");
        }
    }
    otep.send("wibble");
    let line = otep.next(Duration::from_secs(5));
    assert!(line.starts_with("status ignored unknown command"), "{line}");
    otep.send(&"x".repeat(2_000_000));
    assert!(
        otep.next(Duration::from_secs(5))
            .starts_with("error 0 line of")
    );
    // Still the start position, attackers to move.
    otep.send("play attackers");
    let seen = otep.until("move ", Duration::from_secs(10));
    legal_answer(seen.last().unwrap(), &Board::start(&rules), &rules);
}

/// The game follows the host's records: an opponent move that reproduces the record keeps the
/// history; one that does not is overridden by the record.
#[test]
fn the_position_record_wins() {
    let _serial = serial();
    let rules = tablut();
    let mut otep = Otep::start(&["--movetime", "100"]);
    otep.send(TABLUT_RULES);
    otep.next(Duration::from_secs(5));
    // The defenders play; the attackers opened with d1-d2.
    let record = "/4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    otep.send(&format!("opponent-move d1-d2 {record}"));
    otep.send("play defenders");
    let seen = otep.until("move ", Duration::from_secs(10));
    let board = parse_position_record(record, Side::Defenders).unwrap();
    let ours = legal_answer(seen.last().unwrap(), &board, &rules);
    assert!(
        seen.iter().all(|l| !l.contains("host's position")),
        "{seen:?}"
    );
    // The host confirms another board (its own move), then an opponent move that does not
    // fit Konakis' game: the records decide.
    let mut after = board;
    after.play(&rules, ours);
    otep.send(&format!("move {}", position_record(&after)));
    let other = "/4tt3/3tt4/9/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    otep.send(&format!("opponent-move a4-a3 {other}"));
    let line = otep.next(Duration::from_secs(5));
    assert!(line.contains("host's position"), "{line}");
    otep.send("play defenders");
    let seen = otep.until("move ", Duration::from_secs(10));
    let board = parse_position_record(other, Side::Defenders).unwrap();
    legal_answer(seen.last().unwrap(), &board, &rules);
    // `position` and `side` set up an analysis; `analyze` answers with lines and evaluations.
    otep.send(&format!(
        "position {}",
        position_record(&Board::start(&rules))
    ));
    otep.send("side attackers");
    otep.send("analyze 2 0.3");
    let seen = otep.until("analysis ", Duration::from_secs(10));
    let line = seen.last().unwrap();
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields[1], "2", "{line}");
    assert_eq!(fields.len(), 6, "{line}");
    let first: Vec<&str> = fields[2].split('|').collect();
    let mv = parse_move(first[0]).unwrap().mv;
    assert!(
        Board::start(&rules).check_move(&rules, mv).is_ok(),
        "{line}"
    );
    assert!(fields[3].parse::<i32>().is_ok(), "{line}");
}

/// `finish` and `goodbye` are honoured while thinking: no move follows, and `goodbye` ends the
/// process at once.
#[test]
fn finish_and_goodbye_during_a_search() {
    let _serial = serial();
    let rules = tablut();
    let mut otep = Otep::start(&["--movetime", "60000"]);
    otep.send(TABLUT_RULES);
    otep.next(Duration::from_secs(5));
    otep.send("play attackers");
    otep.until("status depth", Duration::from_secs(10));
    otep.send("finish 0");
    let rest = otep.quiet(Duration::from_millis(500));
    assert!(rest.iter().all(|l| !l.starts_with("move")), "{rest:?}");
    // A new game in the same process.
    otep.send(TABLUT_RULES);
    otep.send("clock 500* 500* 1 0 0");
    otep.send("play attackers");
    let seen = otep.until("move ", Duration::from_secs(10));
    legal_answer(seen.last().unwrap(), &Board::start(&rules), &rules);
    otep.send("clock 60000 60000 0 0 0");
    otep.send("opponent-move e3-h3 /4tt3/3tt4/7T1/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    otep.send("play attackers");
    otep.until("status depth", Duration::from_secs(10));
    let asked = Instant::now();
    otep.send("goodbye");
    assert!(otep.exits_within(Duration::from_secs(3)).success());
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    let rest = otep.quiet(Duration::from_millis(100));
    assert!(rest.iter().all(|l| !l.starts_with("move")), "{rest:?}");
}

/// `.otg` files written by `konakis match` (from openings, under OpenTafl's rules and under
/// others) replay under `konakis replay` with the results the runner gave.
#[test]
fn match_records_replay_with_their_results() {
    let _serial = serial();
    let dir = scratch("records");
    let konakis = KONAKIS;
    let openings = dir.join("openings.txt");
    let out = Command::new(konakis)
        .args([
            "openings", "--count", "2", "--plies", "4", "--seed", "3", "--depth", "2",
        ])
        .arg("--output")
        .arg(&openings)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for rules in [
        "Encirclement=true ThroneHostile=true KingReentersThrone=false MoveLimit=30",
        "KingCapture=English RepetitionDraw=2 MoveLimit=20",
    ] {
        let otg = dir.join("games.otg");
        let _ = std::fs::remove_file(&otg);
        let mut cmd = Command::new(konakis);
        let exe = format!("cmd={konakis}");
        cmd.args(["match", "--engine", "name=a", &exe, "depth=2"])
            .args(["--engine", "name=b", &exe, "nodes=200"])
            .args(["--games", "4", "--openings"])
            .arg(&openings)
            .arg("--records")
            .arg(&otg);
        for r in rules.split(' ') {
            cmd.args(["--rules", r]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&otg).unwrap();
        let games: Vec<OtgGame> = parse_otg(&text).unwrap();
        assert_eq!(games.len(), 4);
        let out = Command::new(konakis)
            .arg("replay")
            .arg(&otg)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{rules}\n{stdout}\n{text}");
        assert_eq!(stdout.matches("(agrees)").count(), 4, "{stdout}");
        assert_eq!(stdout.matches("(from the konakis-rules tag)").count(), 4);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `konakis match` with `args`; its exit status and stderr.
fn run_match(args: &[String]) -> (bool, String) {
    let mut all = vec!["match"];
    all.extend(args.iter().map(String::as_str));
    let out = run(&all);
    (out.status.success(), text(&out.stderr))
}

/// `konakis` over the line protocol against `konakis otep` over OTEP through the runner, each
/// side with each colour, under OpenTafl's Tablut (clock) and the default rules (fixed time per
/// move): no faults, every game ended by the rules, and records, JSON and `konakis replay`
/// agree on every result.
#[test]
fn the_runner_plays_otep_engines() {
    let _serial = serial();
    let dir = scratch("match");
    let konakis = KONAKIS;
    let tablut = "--rules Encirclement=true --rules ThroneHostile=true \
                  --rules KingReentersThrone=false --rules MoveLimit=120";
    // Short clocks: the margin (500 ms) is what keeps a loaded machine from a time forfeit,
    // and the same paths run whether a game takes 4 s or 8.
    for (limits, rules) in [("tc=1+0.02", tablut), ("st=0.05", "--rules MoveLimit=80")] {
        let otg = dir.join("games.otg");
        let json = dir.join("result.json");
        let log = dir.join("match.log");
        let _ = std::fs::remove_file(&otg);
        let mut args: Vec<String> = [
            "--log".to_string(),
            log.display().to_string(),
            "--engine".to_string(),
            "name=line".into(),
            format!("cmd={konakis}"),
            "--engine".into(),
            "name=otep".into(),
            format!("cmd={konakis}"),
            "arg=otep".into(),
            "proto=otep".into(),
            // Konakis' own OTEP mode is done with a move once it has sent it: no settling.
            "settle=0".into(),
            "--each".into(),
            limits.into(),
            "timemargin=500".into(),
            "--games".into(),
            "2".into(),
            "--records".into(),
            otg.display().to_string(),
            "--json".into(),
            json.display().to_string(),
        ]
        .into();
        args.extend(rules.split(' ').map(String::from));
        let (ok, stderr) = run_match(&args);
        assert!(ok, "{limits}: {stderr}");
        let v = read_json(&json);
        assert_eq!(v["games_played"], 2, "{v}");
        assert_no_faults(&v, limits);
        for e in v["engines"].as_array().unwrap() {
            assert_eq!(e["as_attackers"]["games"], 1, "{v}");
            assert_eq!(e["as_defenders"]["games"], 1, "{v}");
        }
        // What the runner said to the OTEP engine: OTEP's goodbye and no line-protocol quit;
        // st= as a period with OpenTafl's one-second reserve on top, which the engine keeps.
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(log.contains(" otep < goodbye"), "{log}");
        assert!(!log.contains(" otep < quit"), "{log}");
        if limits == "st=0.05" {
            assert!(log.contains(" otep < clock 1050* 1050* 2 1 1"), "{log}");
        }
        let mut thinks = Vec::new();
        let mut asked = None;
        for l in log.lines() {
            let t: f64 = l.trim_start().split(' ').next().unwrap().parse().unwrap();
            if l.contains(" otep < play ") {
                asked = Some(t);
            } else if l.contains(" otep > move ")
                && let Some(a) = asked.take()
            {
                thinks.push(t - a);
            }
        }
        assert!(!thinks.is_empty());
        if limits == "st=0.1" {
            let longest = thinks.iter().cloned().fold(0.0, f64::max);
            assert!(longest < 0.3, "st=0.1 think times {thinks:?}");
        }
        let (line, otep) = (&v["engines"][0], &v["engines"][1]);
        assert_eq!(line["wins"], otep["losses"], "{v}");
        assert_eq!(line["draws"], otep["draws"], "{v}");
        let games = v["games"].as_array().unwrap();
        for g in games {
            assert_eq!(g["termination"], "rules", "{limits}: {g}");
        }
        // The records replay to the same results.
        let records = parse_otg::<Nine>(&std::fs::read_to_string(&otg).unwrap()).unwrap();
        assert_eq!(records.len(), 2);
        for record in &records {
            let number: u64 = record.tag("game").unwrap().parse().unwrap();
            let g = games.iter().find(|g| g["game"] == number).unwrap();
            let r = replay(record).unwrap_or_else(|e| panic!("game {number}: {e}"));
            assert_eq!(r.status.to_string(), g["reason"].as_str().unwrap());
            let winner = match r.status {
                Status::Win(side, _) => side.name(),
                _ => "draw",
            };
            assert_eq!(winner, g["result"].as_str().unwrap(), "game {number}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Matches an OTEP engine cannot play are refused before the first game, saying why.
#[test]
fn the_runner_refuses_what_otep_cannot_say() {
    let _serial = serial();
    let konakis = KONAKIS;
    let base = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--engine",
            "name=line",
            &format!("cmd={konakis}"),
            "--engine",
            "name=otep",
            &format!("cmd={konakis}"),
            "arg=otep",
            "proto=otep",
            "--games",
            "2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    for (extra, want) in [
        (&["--each", "depth=2"][..], "give tc= or st="),
        (&["--each", "st=0.1", "--rules", "Ruleset=Ashton"], "Ashton"),
        (
            &["--each", "st=0.1", "--rules", "RepetitionDraw=2"],
            "RepetitionDraw=2",
        ),
        (&["--each", "st=0.1", "option.Hash=8"], "no options"),
    ] {
        let (ok, stderr) = run_match(&base(extra));
        assert!(!ok, "{extra:?} was accepted");
        assert!(
            stderr.contains(want) && stderr.contains("otep"),
            "{extra:?}: {stderr}"
        );
    }
}

/// An OTEP engine that refuses the match's rules (`error -1`) loses each game by a protocol
/// error, and the runner says why.
#[test]
fn an_otep_engine_that_refuses_the_rules_loses_by_protocol() {
    let _serial = serial();
    let dir = scratch("refuse");
    let json = dir.join("r.json");
    let script = "echo hello; while read -r l; do case \"$l\" in \
                  rules*) echo 'error -1 unsupported rule: esc:e (a test)';; \
                  goodbye) exit 0;; esac; done";
    let args: Vec<String> = [
        "--engine".to_string(),
        "name=line".into(),
        format!("cmd={}", KONAKIS),
        "--engine".into(),
        "name=refuser".into(),
        "cmd=/bin/sh".into(),
        "arg=-c".into(),
        format!("arg={script}"),
        "proto=otep".into(),
        "--each".into(),
        "st=0.1".into(),
        "--games".into(),
        "2".into(),
        "--json".into(),
        json.display().to_string(),
    ]
    .into();
    let (ok, stderr) = run_match(&args);
    assert!(ok, "{stderr}");
    let v = read_json(&json);
    assert_eq!(v["engines"][1]["protocol_errors"], 2, "{v}");
    assert_eq!(v["engines"][0]["wins"], 2, "{v}");
    for g in v["games"].as_array().unwrap() {
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.contains("error -1 unsupported rule"), "{reason}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One match of the fake OTEP engine that is busy for 300 ms after each move, as OpenTafl
/// 0.4.8's AI is (`fake_engine.py --proto otep --busy 300`: a `status` line every 30 ms, and
/// death by a simulated NullPointerException if a command comes meanwhile), against the fake
/// line-protocol engine, which answers at once. Both on a 1 s clock (no increment), 6 moves
/// each; `settle` is the OTEP engine's setting, if any. Returns the JSON and the log.
fn busy_otep_match(name: &str, settle: Option<&str>) -> (serde_json::Value, String) {
    let dir = scratch(name);
    let json = dir.join("r.json");
    let log = dir.join("match.log");
    let fake = fake_engine();
    let mut otep = vec![
        "--engine".to_string(),
        "name=busy".into(),
        format!("cmd={fake}"),
        "arg=--proto".into(),
        "arg=otep".into(),
        "arg=--busy".into(),
        "arg=300".into(),
        "proto=otep".into(),
    ];
    otep.extend(settle.map(|s| format!("settle={s}")));
    let mut args = otep;
    args.extend(
        [
            "--engine",
            "name=quick",
            &format!("cmd={fake}"),
            "--each",
            "tc=1+0",
            "timemargin=300",
            "--maxmoves",
            "6",
            "--games",
            "2",
            "--json",
            &json.display().to_string(),
            "--log",
            &log.display().to_string(),
        ]
        .map(String::from),
    );
    let (ok, stderr) = run_match(&args);
    assert!(ok, "{settle:?}: {stderr}");
    let v = read_json(&json);
    let log = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (v, log)
}

/// Without settle= the fast opponent's move reaches the busy OTEP engine while it still
/// writes, and it dies in both games; a settle time shorter than its silences (10 ms against
/// 30) does not help either.
#[test]
fn an_otep_engine_busy_after_its_move_dies_when_the_next_command_comes_at_once() {
    let _serial = serial();
    for settle in ["0", "10"] {
        let (v, log) = busy_otep_match(&format!("race-{settle}"), Some(settle));
        assert_eq!(v["engines"][0]["name"], "busy", "{v}");
        assert_eq!(v["engines"][0]["crashes"], 2, "settle={settle}: {v}");
        assert!(log.contains("NullPointerException (simulated)"), "{log}");
        // settle=0 holds nothing back; settle=10 waits its 10 ms, too little.
        assert_eq!(
            log.contains(" busy -- settle: held"),
            settle != "0",
            "settle={settle}: {log}"
        );
    }
}

/// By default (settle=100) the runner sends the busy OTEP engine nothing until it has been
/// quiet for 100 ms, so it never dies, although it is busy for longer than that after every
/// move; and the waits, about 400 ms after each of its moves, more than its whole 1 s clock in
/// each game, count on neither clock.
#[test]
fn the_runner_lets_an_otep_engine_settle_after_its_move_on_no_clock() {
    let _serial = serial();
    let (v, log) = busy_otep_match("settled", None);
    assert_eq!(v["games_played"], 2, "{v}");
    assert_no_faults(&v, "settle=100 (the default)");
    assert!(!log.contains("NullPointerException"), "{log}");
    let held: Vec<u64> = log
        .lines()
        .filter_map(|l| l.split(" busy -- settle: held ").nth(1))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(held.len() >= 10, "{log}");
    let total: u64 = held.iter().sum();
    assert!(total > 2 * 1_000, "held {held:?}");
    for g in v["games"].as_array().unwrap() {
        assert!(
            g["termination"] == "rules" || g["termination"] == "adjudication",
            "{g}"
        );
    }
}
