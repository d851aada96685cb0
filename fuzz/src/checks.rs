//! One check per fuzz target: each takes the raw input, feeds it to the parsers a peer can
//! reach, and asserts what must hold whatever the input: no panic, a writer's output read back
//! to the same value, and error texts fit for the peer (one ASCII line, since every text
//! Konakis writes to a peer is ASCII).
//!
//! The checks use only `is_ok()`, the parsed values and the errors' `Display`, so that they do
//! not depend on the error types. The fuzz targets (`fuzz/fuzz_targets/`, cargo-fuzz on
//! nightly) call them, and so does `tests/it/fuzz_corpora.rs`, which replays every kept corpus
//! file on stable Rust.

use konakis::board::Board;
use konakis::challenge::state::{self, MoveMessage, State};
use konakis::challenge::wire;
use konakis::geometry::Nine;
use konakis::opentafl::command::{self as otep, HostCommand};
use konakis::opentafl::notation::{self, OtMove};
use konakis::opentafl::otg;
use konakis::opentafl::rules_string::{self, StartKey};
use konakis::protocol::command::{self as protocol, Command, Start};
use konakis::rules::Rules;
use konakis::search::Limits;
use konakis::types::{Move, Side};
use std::fmt::Display;

/// A target's check: it panics on an input that breaks what must hold.
pub type Check = fn(&[u8]);

/// The fuzz targets, by name: the name of the corpus directory and of the check.
pub const TARGETS: &[(&str, Check)] = &[
    ("position", position),
    ("moves", moves),
    ("protocol_line", protocol_line),
    ("otep_line", otep_line),
    ("rules_string", rules_string),
    ("position_record", position_record),
    ("otg", otg),
    ("challenge", challenge),
];

/// Inputs longer than this are cut: the parsers are line or message parsers, and a long input
/// only slows the fuzzer down.
const MAX_INPUT: usize = 4_096;

/// The input as text, as a line reader that replaces bad UTF-8 would see it.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// The rule sets the checks play under, picked by one input byte.
fn rule_set(byte: u8) -> Rules {
    match byte % 5 {
        0 => Rules::default(),
        1 => Rules::ashton(),
        2 => Rules::opentafl(),
        3 => Rules::tafl_hub(),
        _ => Rules::encyclopedia(),
    }
}

/// An error text that can be sent to a peer as (part of) one line: ASCII, no control
/// characters.
fn assert_peer_line(what: &str, input: &str, error: impl Display) {
    let e = error.to_string();
    assert!(
        e.is_ascii() && !e.chars().any(|c| c.is_ascii_control()),
        "{what} error for {input:?} is not one ASCII line: {e:?}"
    );
}

/// An error text that can be logged as one line: no line break (it may hold other text as
/// the peer sent it).
fn assert_log_line(what: &str, input: &str, error: impl Display) {
    let e = error.to_string();
    assert!(
        !e.contains(['\n', '\r']),
        "{what} error for {input:?} spans lines: {e:?}"
    );
}

/// What must hold of any board the parsers accept, under `rules`: its position string reads
/// back to it, every generated move passes the legality check and keeps the incremental key
/// right, and the status can be asked.
fn check_board(board: &Board, rules: &Rules) {
    let fen = board.to_fen();
    let back = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen:?} does not read back: {e}"));
    assert_eq!(back, *board, "{fen:?} reads back to another board");
    assert_eq!(back.to_fen(), fen);
    let _ = board.status(rules);
    let moves = board.legal_moves(rules);
    let game_over = board.is_won(rules);
    for &mv in moves.iter() {
        assert!(
            board.check_move(rules, mv).is_ok(),
            "{fen}: generated {mv} fails check_move"
        );
        let mut after = *board;
        after.play(rules, mv);
        assert_eq!(
            after.hash(),
            after.compute_hash(),
            "{fen}: the key after {mv} is wrong"
        );
        assert_ne!(after.side_to_move(), board.side_to_move());
    }
    if game_over {
        assert!(
            moves.is_empty(),
            "{fen}: moves generated after the game ended"
        );
    }
}

/// Target `position`: position strings ([`Board::from_fen`]). A board read comes back from
/// [`Board::to_fen`]; moves generated on it are legal and keep the key right.
pub fn position(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let input = text(rest);
    match Board::from_fen(&input) {
        Ok(board) => check_board(&board, &rule_set(pick)),
        Err(e) => assert_peer_line("position string", &input, e),
    }
}

/// Target `moves`: moves in Konakis' notation, [`Move::parse`] and the board's `parse_move`.
/// The input is a byte picking the rules, then a position string (the start position if it is
/// not one) and a line break, then the move text. A move read is written back the same way; the
/// board accepts exactly the generated moves.
pub fn moves(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let rules = rule_set(pick);
    let input = text(rest);
    let (head, move_text) = input.split_once('\n').unwrap_or(("", &input));
    let board = Board::from_fen(head).unwrap_or_else(|_| Board::start(&rules));
    let parsed = Move::parse(move_text);
    if let Ok(mv) = parsed {
        let written = mv.to_string();
        assert_eq!(Move::parse(&written).ok(), Some(mv), "{move_text:?}");
        let dashed = format!("{}-{}", mv.from(), mv.to());
        assert_eq!(Move::parse(&dashed).ok(), Some(mv), "{move_text:?}");
        assert_ne!(mv.from(), mv.to());
        assert!(mv.from().file() == mv.to().file() || mv.from().rank() == mv.to().rank());
    }
    let legal = board.legal_moves(&rules);
    match board.parse_move(&rules, move_text) {
        Ok(mv) => {
            assert_eq!(parsed.as_ref().ok(), Some(&mv));
            assert!(
                legal.contains(&mv),
                "{}: {mv} accepted but not generated",
                board.to_fen()
            );
        }
        Err(e) => {
            // A library error, which may quote the text as given (the front-ends quote it
            // themselves): only its Display is asked for.
            let _ = e.to_string();
            if let Ok(mv) = parsed {
                assert!(
                    !legal.contains(&mv),
                    "{}: generated {mv} refused: {e}",
                    board.to_fen()
                );
            }
        }
    }
}

/// A `go` line for `limits`, in the protocol's words.
fn go_line(limits: &Limits) -> String {
    let mut s = String::from("go");
    let mut field = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            s.push_str(&format!(" {name} {v}"));
        }
    };
    field("depth", limits.depth.map(|v| v.to_string()));
    field("nodes", limits.nodes.map(|v| v.to_string()));
    field("movetime", limits.movetime.map(|v| v.to_string()));
    field("wtime", limits.wtime.map(|v| v.to_string()));
    field("btime", limits.btime.map(|v| v.to_string()));
    field("winc", limits.winc.map(|v| v.to_string()));
    field("binc", limits.binc.map(|v| v.to_string()));
    field("movestogo", limits.movestogo.map(|v| v.to_string()));
    field("mate", limits.mate.map(|v| v.to_string()));
    if limits.infinite {
        s.push_str(" infinite");
    }
    if limits.ponder {
        s.push_str(" ponder");
    }
    if !limits.searchmoves.is_empty() {
        s.push_str(" searchmoves");
        for mv in &limits.searchmoves {
            s.push_str(&format!(" {mv}"));
        }
    }
    s
}

/// The protocol line for a command that carries values, for reading back; `None` for the rest.
fn command_line(command: &Command) -> Option<String> {
    let moves = |moves: &[Move]| {
        let mut s = String::new();
        if !moves.is_empty() {
            s.push_str(" moves");
            for mv in moves {
                s.push_str(&format!(" {mv}"));
            }
        }
        s
    };
    match command {
        Command::Position { start, moves: m } => Some(match start {
            Start::StartPos => format!("position startpos{}", moves(m)),
            Start::Board(b) => format!("position fen {}{}", b.to_fen(), moves(m)),
        }),
        Command::SetOption { name, value } => Some(match value {
            Some(v) => format!("setoption name {name} value {v}"),
            None => format!("setoption name {name}"),
        }),
        Command::Go(limits) => Some(go_line(limits)),
        Command::Perft(d) => Some(format!("go perft {d}")),
        Command::Bench(Some(d)) => Some(format!("bench {d}")),
        _ => None,
    }
}

/// Target `protocol_line`: a line of the line protocol (`protocol::command::parse`). Errors
/// are one ASCII line (they go out as `info string error: …`); a command with values, written
/// back as a line, reads back to the same command.
pub fn protocol_line(data: &[u8]) {
    let input = text(data);
    // A line reader hands over one line at a time: the text up to the first line break.
    let line = input.split('\n').next().unwrap_or_default();
    match protocol::parse(line) {
        Ok(None) => assert!(line.split_whitespace().next().is_none()),
        Ok(Some(command)) => {
            if let Command::Position {
                start: Start::Board(b),
                ..
            } = &command
            {
                check_board(b, &Rules::default());
            }
            if let Command::SetOption {
                name,
                value: Some(value),
            } = &command
            {
                check_rule_option(name, value);
            }
            if let Some(written) = command_line(&command) {
                let back = protocol::parse(&written);
                assert!(
                    matches!(&back, Ok(Some(c)) if *c == command),
                    "{line:?} -> {command:?} -> {written:?} -> {back:?}"
                );
            }
        }
        Err(e) => assert_peer_line("protocol", line, e),
    }
}

/// A rule option set by name (`Rules::set`, which a `setoption` for a rule option reaches)
/// reads back through `Rules::get`: setting the value read gives the same rules.
fn check_rule_option(name: &str, value: &str) {
    for start in [Rules::default(), Rules::ashton()] {
        let mut rules = start;
        match rules.set(name, value) {
            Ok(()) => {
                let shown = rules
                    .get(name)
                    .unwrap_or_else(|| panic!("{name:?} was set but has no value"));
                let mut again = start;
                again
                    .set(name, &shown)
                    .unwrap_or_else(|e| panic!("{name:?} = {value:?} -> {shown:?}: {e}"));
                assert_eq!(again, rules, "{name:?} = {value:?} -> {shown:?}");
            }
            Err(e) => {
                let _ = e.to_string();
                assert_eq!(
                    rules, start,
                    "a refused {name:?} = {value:?} changed the rules"
                );
            }
        }
    }
}

/// `clock` arguments for `clock`, as OpenTafl writes them.
fn clock_args(clock: &otep::Clock) -> String {
    let star = |b: bool| if b { "*" } else { "" };
    format!(
        "{}{} {}{} {}.{:03} {} {}",
        clock.ms[Side::Attackers],
        star(clock.overtime[Side::Attackers]),
        clock.ms[Side::Defenders],
        star(clock.overtime[Side::Defenders]),
        clock.period_ms / 1000,
        clock.period_ms % 1000,
        clock.periods[Side::Attackers],
        clock.periods[Side::Defenders],
    )
}

/// A board read from a position record comes back from [`notation::position_record`].
fn check_record(board: &Board, side: Side) {
    let record = notation::position_record(board);
    let back = notation::parse_position_record(&record, side)
        .unwrap_or_else(|e| panic!("{record:?} does not read back: {e}"));
    assert_eq!(back, *board, "{record:?} reads back to another board");
    let inverted = notation::invert_record(&notation::invert_record(&record));
    assert_eq!(inverted, record);
}

/// Target `otep_line`: a line from an OTEP host (`opentafl::command::parse`, clocks included).
/// Errors are one ASCII line (they go out as `error 0 …`); clocks, records
/// and moves read back from what writes them; a `rules` line's string goes through the rules
/// string check.
pub fn otep_line(data: &[u8]) {
    let input = text(data);
    // A line reader hands over one line at a time: the text up to the first line break.
    let line = input.split('\n').next().unwrap_or_default();
    match otep::parse(line) {
        Ok(HostCommand::Clock(clock)) => {
            let written = clock_args(&clock);
            let back = otep::parse_clock::<Nine>(&written)
                .unwrap_or_else(|e| panic!("{line:?} -> {written:?}: {e}"));
            assert_eq!(back.ms, clock.ms, "{line:?}");
            assert_eq!(back.overtime, clock.overtime, "{line:?}");
            assert_eq!(back.periods, clock.periods, "{line:?}");
            assert!(
                back.period_ms.abs_diff(clock.period_ms) <= 1,
                "{line:?} -> {written:?}: {} ms, then {} ms",
                clock.period_ms,
                back.period_ms
            );
        }
        Ok(HostCommand::OpponentMove { mv, text, board }) => {
            assert_eq!(mv, notation::parse_move::<Nine>(&text).ok().map(|m| m.mv));
            check_record(&board, Side::Attackers);
        }
        Ok(HostCommand::Confirm(board) | HostCommand::Position(board)) => {
            check_record(&board, Side::Attackers);
        }
        Ok(HostCommand::Rules(rules)) => check_rules_string(&rules),
        Ok(HostCommand::Analyze { lines, seconds }) => {
            assert!(lines >= 1 && seconds.is_finite() && seconds > 0.0);
        }
        Ok(_) => {}
        Err(e) => assert_peer_line("OTEP", line, e),
    }
}

/// A rules string read is written back by `format_rules` (both start keys) to the same rules
/// and start; a refusal is one ASCII line (it goes out as `error -1 …`).
fn check_rules_string(input: &str) {
    match rules_string::parse_rules(input) {
        Ok(parsed) => {
            assert_eq!(parsed.start.side_to_move(), parsed.rules.first_move);
            check_board(&parsed.start, &parsed.rules);
            if rules_string::check_expressible(&parsed.rules).is_err() {
                return;
            }
            for key in [StartKey::Start, StartKey::StartI] {
                let written = rules_string::format_rules(&parsed.rules, &parsed.start, key);
                let back = rules_string::parse_rules(&written)
                    .unwrap_or_else(|e| panic!("{input:?} -> {written:?}: {e}"));
                assert_eq!(back.rules, parsed.rules, "{input:?} -> {written:?}");
                assert_eq!(back.start, parsed.start, "{input:?} -> {written:?}");
            }
        }
        Err(e) => assert_peer_line("rules string", input, e),
    }
}

/// Target `rules_string`: OpenTafl rules strings (`rules_string::parse_rules`).
pub fn rules_string(data: &[u8]) {
    check_rules_string(&text(data));
}

/// Target `position_record`: OpenTafl position records (`notation::parse_position_record`),
/// with the side to move picked by the first byte. A board read comes back from
/// `position_record`; its moves are legal and keep the key right.
pub fn position_record(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let side = if pick & 1 == 0 {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let input = text(rest);
    match notation::parse_position_record::<Nine>(&input, side) {
        Ok(board) => {
            assert_eq!(board.side_to_move(), side);
            check_record(&board, side);
            check_board(&board, &rule_set(pick >> 1));
        }
        Err(e) => assert_peer_line("position record", &input, e),
    }
}

/// An OpenTafl move as written in full notation, from what was read.
fn ot_move_text(m: &OtMove) -> String {
    let mut s = String::new();
    if m.king {
        s.push('K');
    }
    s.push_str(&notation::simple_move(m.mv));
    for (i, c) in m.captures.iter().enumerate() {
        s.push(if i == 0 { 'x' } else { '/' });
        s.push_str(&c.to_string());
    }
    if let Some(mark) = m.mark {
        s.push_str(mark.text());
    }
    s
}

/// Target `otg`: `.otg` game records (`otg::parse_otg`), and with them OpenTafl's move notation
/// (`notation::parse_move`). Every move read is written back to the same move; a game the
/// referee replays has its turns written by `otg::turns`, which read and replay to the same
/// moves and result.
pub fn otg(data: &[u8]) {
    let input = text(data);
    for token in input.split_whitespace().take(64) {
        if let Ok(m) = notation::parse_move::<Nine>(token) {
            let written = ot_move_text(&m);
            assert_eq!(notation::parse_move(&written).ok(), Some(m), "{token:?}");
        }
    }
    let games = match otg::parse_otg::<Nine>(&input) {
        Ok(games) => games,
        Err(e) => {
            assert_log_line("otg", &input, e);
            return;
        }
    };
    for game in &games {
        for m in &game.moves {
            let written = ot_move_text(m);
            assert_eq!(notation::parse_move(&written).ok().as_ref(), Some(m));
        }
        let _ = otg::result_tag(game);
        let replay = match otg::replay(game) {
            Ok(r) => r,
            Err(e) => {
                assert_log_line("replay", &input, e);
                continue;
            }
        };
        let moves: Vec<Move> = game.moves.iter().map(|m| m.mv).collect();
        let rules_tag = game.tag("rules").expect("a replayed game has a rules tag");
        let mut record = format!("[rules:{}]\n", otg::tag_value(rules_tag));
        if let Some(k) = game.tag("konakis-rules") {
            record.push_str(&format!("[konakis-rules:{}]\n", otg::tag_value(k)));
        }
        if let Some(s) = game.tag("start") {
            record.push_str(&format!("[start:{}]\n", otg::tag_value(s)));
        }
        record.push('\n');
        record.push_str(&otg::turns(&replay.start, &replay.rules, &moves));
        let back = otg::parse_otg::<Nine>(&record).unwrap_or_else(|e| panic!("{record:?}: {e}"));
        assert_eq!(back.len(), 1, "{record:?}");
        let again = otg::replay(&back[0]).unwrap_or_else(|e| panic!("{record:?}: {e}"));
        assert_eq!(again.moves, replay.moves, "{record:?}");
        assert_eq!(again.status, replay.status, "{record:?}");
        assert_eq!(again.rules, replay.rules, "{record:?}");
    }
}

/// Target `challenge`: the Tablut Challenge's frames (`wire::read_frame`), and in each frame a
/// state (`State::parse`), a move (`state::parse_move`) and a name (`state::parse_name`). Each
/// reads back from its writer (`to_json`, `move_json`, `name_json`, `write_frame`); a state's
/// board shows the same cells again.
pub fn challenge(data: &[u8]) {
    let mut reader = &data[..data.len().min(4 * MAX_INPUT)];
    while let Ok(frame) = wire::read_frame(&mut reader) {
        let mut written = Vec::new();
        wire::write_frame(&mut written, &frame).expect("writing to a Vec");
        assert_eq!(
            wire::read_frame(&mut &written[..]).ok().as_ref(),
            Some(&frame)
        );
        challenge_message(&frame);
    }
    // The same parsers on the raw text, for inputs without frames.
    challenge_message(&text(data));
}

fn challenge_message(text: &str) {
    match State::parse(text) {
        Ok(s) => {
            let json = s.to_json();
            assert!(json.is_ascii());
            let back = State::parse(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(back, s, "{json}");
            for side in [Side::Attackers, Side::Defenders] {
                if let Ok(board) = s.to_board(side, 7) {
                    assert!(s.same_pieces(&board));
                    let shown = State::from_board(&board, s.turn, None);
                    assert_eq!(shown, s, "{json}");
                    check_board(&board, &Rules::ashton());
                }
            }
        }
        Err(e) => assert_log_line("state", text, e),
    }
    match state::parse_move(text) {
        Ok(MoveMessage::Move(from, to)) => {
            if from != to && (from.file() == to.file() || from.rank() == to.rank()) {
                for side in [Side::Attackers, Side::Defenders] {
                    let json = state::move_json(Move::new(from, to), side);
                    assert!(json.is_ascii());
                    assert_eq!(
                        state::parse_move(&json).ok(),
                        Some(MoveMessage::Move(from, to))
                    );
                }
            }
        }
        Ok(MoveMessage::Refused(e)) => assert_log_line("move", text, e),
        Err(e) => assert_log_line("move", text, e),
    }
    match state::parse_name(text) {
        Ok(name) => {
            assert!(name.chars().count() <= 10 && name.chars().all(char::is_alphanumeric));
            let json = state::name_json(&name);
            assert_eq!(state::parse_name(&json).ok().as_ref(), Some(&name));
        }
        Err(e) => assert_log_line("name", text, e),
    }
}
