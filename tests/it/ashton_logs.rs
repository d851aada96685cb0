//! Games the Tablut Challenge server wrote to its log (`tests/data/ashton/*.log`), replayed
//! through `Game` with `Rules::ashton()`: every move must be legal, capture exactly what the
//! server removed, leave exactly the board the server printed, and the game must end as the
//! server ended it.
//!
//! The log, as the server writes it:
//! - `FINE: Turn: W Pawn from e4 to d4`: a move (the king's moves are logged as `Pawn` too);
//! - `FINE: Pedina bianca rimossa in: e3` / `Pedina nera rimossa in: e3`: a white / black
//!   soldier removed by that move; sometimes logged twice (quirk 12), so they form a set;
//! - `FINE: Nero vince con re catturato in: d5`: the king captured on that square;
//! - `FINE: Current draw cache size: 3`: the positions the server remembers for repetition;
//! - `FINE: Capture! Draw cache cleared!`: the move captured, so the cache was emptied first;
//! - `FINE: Stato:` then nine rows, **rank 1 first**, of `O` empty, `B` black, `W` white, `K`
//!   king, `T` empty throne, then `-` and the turn: `W`, `B`, `WW` (white won), `BW` (black
//!   won) or `D` (draw). The start is printed once before the first move and the final state
//!   once more at the end.

use konakis::{Bitboard, Board, Game, Move, Piece, Rules, Side, Square, Status, WinReason};
use std::path::PathBuf;

/// One move of a logged game and what the server said about it.
#[derive(Debug, Default)]
struct LoggedMove {
    /// 1-based line number of the `Turn:` line, for messages.
    line: usize,
    side: char,
    from: String,
    to: String,
    white_removed: Bitboard,
    black_removed: Bitboard,
    king_captured_on: Option<Square>,
    cache_cleared: bool,
    cache_size: Option<usize>,
    /// The rows printed after the move (rank 1 first) and the turn.
    state: Option<(Vec<String>, String)>,
}

#[derive(Debug, Default)]
struct LoggedGame {
    start: Option<(Vec<String>, String)>,
    moves: Vec<LoggedMove>,
}

fn square(text: &str, line: usize) -> Square {
    text.trim()
        .parse()
        .unwrap_or_else(|e| panic!("line {line}: {e}"))
}

fn parse_log(text: &str) -> LoggedGame {
    let lines: Vec<&str> = text.lines().collect();
    let mut game = LoggedGame::default();
    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let Some(msg) = lines[i].strip_prefix("FINE: ") else {
            i += 1;
            continue;
        };
        let current = game.moves.last_mut();
        if let Some(rest) = msg.strip_prefix("Turn: ") {
            // "W Pawn from e4 to d4"
            let words: Vec<&str> = rest.split_whitespace().collect();
            assert!(
                words.len() == 6 && words[2] == "from" && words[4] == "to",
                "line {line_no}: unexpected move line '{msg}'"
            );
            game.moves.push(LoggedMove {
                line: line_no,
                side: words[0].chars().next().unwrap(),
                from: words[3].to_string(),
                to: words[5].to_string(),
                ..LoggedMove::default()
            });
        } else if let Some(sq) = msg.strip_prefix("Pedina bianca rimossa in: ") {
            current.expect("a capture before any move").white_removed |= square(sq, line_no).into();
        } else if let Some(sq) = msg.strip_prefix("Pedina nera rimossa in: ") {
            current.expect("a capture before any move").black_removed |= square(sq, line_no).into();
        } else if let Some(sq) = msg.strip_prefix("Nero vince con re catturato in: ") {
            current
                .expect("a king capture before any move")
                .king_captured_on = Some(square(sq, line_no));
        } else if msg == "Capture! Draw cache cleared!" {
            current.expect("a capture before any move").cache_cleared = true;
        } else if let Some(n) = msg.strip_prefix("Current draw cache size: ") {
            current.expect("a cache size before any move").cache_size =
                Some(n.trim().parse().expect("a number"));
        } else if msg == "Stato:" {
            let rows: Vec<String> = lines[i + 1..i + 10].iter().map(|r| r.to_string()).collect();
            assert_eq!(
                lines[i + 10],
                "-",
                "line {}: state not closed by '-'",
                i + 11
            );
            let turn = lines[i + 11].trim().to_string();
            let state = (rows, turn);
            match current {
                None if game.start.is_none() => game.start = Some(state),
                None => assert_eq!(game.start.as_ref(), Some(&state), "line {line_no}"),
                Some(m) => match &m.state {
                    None => m.state = Some(state),
                    // The final state is printed a second time when the game ends.
                    Some(old) => assert_eq!(old, &state, "line {line_no}: state printed twice"),
                },
            }
            i += 12;
            continue;
        }
        i += 1;
    }
    game
}

/// The board as the server prints it: rank 1 first; the king is drawn on `king` if given (the
/// server leaves a captured king on the board).
fn server_rows(board: &Board, king: Option<Square>) -> Vec<String> {
    (0..9u8)
        .map(|rank| {
            (0..9u8)
                .map(|file| {
                    let sq = Square::from_coords(file, rank).unwrap();
                    match board.piece_at(sq) {
                        Some(Piece::Attacker) => 'B',
                        Some(Piece::Defender) => 'W',
                        Some(Piece::King) => 'K',
                        None if Some(sq) == king => 'K',
                        None if sq == Square::THRONE => 'T',
                        None => 'O',
                    }
                })
                .collect()
        })
        .collect()
}

/// The server's turn field for a game in `status` with `side` to move.
fn server_turn(status: Status, side: Side) -> &'static str {
    match status {
        Status::Ongoing => match side {
            Side::Defenders => "W",
            Side::Attackers => "B",
        },
        Status::Win(Side::Defenders, _) => "WW",
        Status::Win(Side::Attackers, _) => "BW",
        Status::Draw(_) => "D",
    }
}

fn replay(name: &str, text: &str) -> Status {
    let logged = parse_log(text);
    let rules = Rules::ashton();
    let mut game = Game::start(rules);
    let (rows, turn) = logged.start.as_ref().expect("the log prints the start");
    assert_eq!(rows, &server_rows(game.board(), None), "{name}: start");
    assert_eq!(turn, "W", "{name}: White moves first");
    assert!(!logged.moves.is_empty(), "{name}: no moves found");
    // Moves since the server last emptied its repetition list (it does so on captures).
    let mut remembered = 0;
    for m in &logged.moves {
        let here = format!("{name}, line {} ({} {}-{})", m.line, m.side, m.from, m.to);
        let before = *game.board();
        let expected_side = if m.side == 'W' {
            Side::Defenders
        } else {
            Side::Attackers
        };
        assert_eq!(before.side_to_move(), expected_side, "{here}: side to move");
        let mv =
            Move::parse(&format!("{}{}", m.from, m.to)).unwrap_or_else(|e| panic!("{here}: {e}"));
        let mut after = before;
        let captured = after.play(&rules, mv);
        let status = game
            .play(mv)
            .unwrap_or_else(|e| panic!("{here}: refused: {e}"));
        assert_eq!(game.board(), &after, "{here}");

        // Captures: exactly the soldiers the server removed, each colour by the other side.
        let (mine, theirs) = match expected_side {
            Side::Defenders => (m.white_removed, m.black_removed),
            Side::Attackers => (m.black_removed, m.white_removed),
        };
        assert_eq!(mine, Bitboard::EMPTY, "{here}: the mover lost a soldier");
        assert_eq!(captured, theirs, "{here}: captured soldiers");
        let king_taken = before.king().is_some() && after.king().is_none();
        assert_eq!(
            m.king_captured_on,
            if king_taken { before.king() } else { None },
            "{here}: king capture"
        );

        // The repetition list: emptied by a soldier capture, then the new position added.
        assert_eq!(
            m.cache_cleared,
            !captured.is_empty(),
            "{here}: cache cleared"
        );
        remembered = if captured.is_empty() {
            remembered + 1
        } else {
            1
        };
        assert_eq!(
            m.cache_size,
            Some(remembered),
            "{here}: positions remembered"
        );

        // The printed state: board and turn.
        let (rows, turn) = m
            .state
            .as_ref()
            .unwrap_or_else(|| panic!("{here}: no state"));
        let king_shown = if king_taken { before.king() } else { None };
        assert_eq!(
            rows,
            &server_rows(game.board(), king_shown),
            "{here}: board"
        );
        assert_eq!(
            turn,
            server_turn(status, game.board().side_to_move()),
            "{here}: turn / result ({status})"
        );
    }
    game.status()
}

#[test]
fn the_recorded_server_games_replay_move_by_move_with_the_same_boards_and_results() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ashton");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    logs.sort();
    assert!(
        logs.len() >= 2,
        "expected the server logs in {}",
        dir.display()
    );
    let mut results = Vec::new();
    let (mut moves, mut white_lost, mut black_lost, mut double_logged) = (0, 0, 0, 0);
    for path in &logs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        results.push((name.clone(), replay(&name, &text)));
        let logged = parse_log(&text);
        moves += logged.moves.len();
        white_lost += logged
            .moves
            .iter()
            .map(|m| m.white_removed.len())
            .sum::<u32>();
        black_lost += logged
            .moves
            .iter()
            .map(|m| m.black_removed.len())
            .sum::<u32>();
        double_logged += text
            .lines()
            .collect::<Vec<_>>()
            .windows(3)
            .filter(|w| w[0].contains("rimossa in") && w[0] == w[2])
            .count();
    }
    // What the logs hold, so that a reader that skips lines cannot pass unnoticed.
    assert_eq!(moves, 64);
    assert_eq!((white_lost, black_lost), (15, 6));
    assert!(double_logged >= 3, "{double_logged} captures logged twice");
    // Both recorded games end with the king captured (turn BW in the logs).
    for (name, status) in &results {
        assert_eq!(
            *status,
            Status::Win(Side::Attackers, WinReason::KingCaptured),
            "{name}"
        );
    }
}

#[test]
fn the_log_reader_sees_double_logged_captures_once_and_rank_one_first() {
    // A made-up excerpt in the server's format: e4-d4, then black i4-e4 capturing e3, logged
    // twice; the printout puts rank 1 first.
    let start_rows = [
        "OOOBBBOOO",
        "OOOOBOOOO",
        "OOOOWOOOO",
        "BOOOWOOOB",
        "BBWWKWWBB",
        "BOOOWOOOB",
        "OOOOWOOOO",
        "OOOOBOOOO",
        "OOOBBBOOO",
    ];
    let after_w = [
        "OOOBBBOOO",
        "OOOOBOOOO",
        "OOOOWOOOO",
        "BOOWOOOOB",
        "BBWWKWWBB",
        "BOOOWOOOB",
        "OOOOWOOOO",
        "OOOOBOOOO",
        "OOOBBBOOO",
    ];
    let after_b = [
        "OOOBBBOOO",
        "OOOOBOOOO",
        "OOOOOOOOO",
        "BOOWBOOOO",
        "BBWWKWWBB",
        "BOOOWOOOB",
        "OOOOWOOOO",
        "OOOOBOOOO",
        "OOOBBBOOO",
    ];
    let state =
        |rows: &[&str], turn: &str| format!("FINE: Stato:\n{}\n-\n{turn}\n", rows.join("\n"));
    let text = [
        state(&start_rows, "W"),
        "FINE: Turn: W Pawn from e4 to d4\nFINE: Current draw cache size: 1\n".to_string(),
        state(&after_w, "B"),
        "FINE: Turn: B Pawn from i4 to e4\nFINE: Pedina bianca rimossa in: e3\n\
         FINE: Pedina bianca rimossa in: e3\nFINE: Capture! Draw cache cleared!\n\
         FINE: Current draw cache size: 1\n"
            .to_string(),
        state(&after_b, "W"),
    ]
    .concat();
    let logged = parse_log(&text);
    assert_eq!(logged.moves.len(), 2);
    assert_eq!(
        logged.moves[1].white_removed,
        Bitboard::from_square("e3".parse().unwrap())
    );
    assert_eq!(replay("excerpt", &text), Status::Ongoing);
    // The same excerpt read with rank 9 first must not replay.
    let flipped: Vec<&str> = after_w.iter().rev().copied().collect();
    let bad = text.replace(&after_w.join("\n"), &flipped.join("\n"));
    assert!(std::panic::catch_unwind(|| replay("flipped", &bad)).is_err());
    // Nor with the capture missing from the log.
    let bad = text.replace("FINE: Pedina bianca rimossa in: e3\n", "");
    assert!(std::panic::catch_unwind(|| replay("no capture", &bad)).is_err());
}
