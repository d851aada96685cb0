//! The player: connects to a Tablut Challenge server, follows the game through the states it
//! sends, and answers with the engine's move whenever the state says it is Konakis' turn.
//!
//! The server is the authority. Each state is matched against the position Konakis holds: it
//! is the same position (a refused move, or a result without a move), or the position after
//! exactly one legal move (found and played, so the game keeps its history for repetition), or
//! neither, in which case Konakis trusts the state, says so, and plays on from it. The
//! [`Driver`] holds the engine, the game and the options, and does the matching.

use super::state::{State, Turn, colour_name, move_json, name_json};
use super::wire::{FrameError, read_frame, write_frame};
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use konakis_engine::clock::Instant;
use konakis_engine::options::Options;
use konakis_engine::search::driver::{Driver, Explain, Synced};
use konakis_engine::search::{Info, Limits, Score, Settings};
use konakis_engine::wdl;
use std::fmt;
use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Everything the player needs to know.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The colour Konakis plays: defenders (White) or attackers (Black).
    pub side: Side,
    /// The server's host name or address.
    pub host: String,
    /// The server's port for this colour.
    pub port: u16,
    /// The name sent to the server.
    pub name: String,
    /// How long the engine may think about one move (the server's time minus the margin).
    pub think: Duration,
    /// The longest wait for the first state (the server first waits for both players).
    pub first_wait: Duration,
    /// The longest wait for every later state.
    pub wait: Duration,
    /// The longest wait for the connection to be accepted.
    pub connect_timeout: Duration,
    /// The rules Konakis follows the game under (Ashton).
    pub rules: Rules,
    /// Engine settings (threads, hash).
    pub settings: Settings,
}

/// How the session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The server sent a final state.
    Over(Turn),
    /// No connection could be made.
    ConnectFailed(String),
    /// The connection closed or failed before a final state (the server exits without a word
    /// when a player runs out of time, and crashes on some bad input).
    Closed(String),
    /// A message Konakis cannot act on.
    Protocol(String),
    /// No message within the wait.
    TimedOut(String),
}

/// One entry of the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A move, found in or sent as a state.
    Move(Move),
    /// The position was taken from a state no legal move leads to.
    Rebuilt,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Move(m) => write!(f, "{m}"),
            Entry::Rebuilt => f.write_str("[rebuilt]"),
        }
    }
}

/// What a session did: its ending, the moves seen, and the moves of Konakis the server refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOutcome {
    /// How it ended.
    pub ending: Ending,
    /// The game as Konakis followed it, White's first move first.
    pub record: Vec<Entry>,
    /// Moves of Konakis the server refused.
    pub refused: Vec<Move>,
}

impl SessionOutcome {
    /// The `result: …` text: the final turn and what it means for Konakis playing `side`, or
    /// why there is none.
    pub fn result_text(&self, side: Side) -> String {
        match &self.ending {
            Ending::Over(Turn::Draw) => "DRAW".to_string(),
            Ending::Over(turn) => {
                let won = *turn == Turn::win(side);
                format!(
                    "{turn} (Konakis, {}, {})",
                    colour_name(side).to_lowercase(),
                    if won { "wins" } else { "loses" }
                )
            }
            Ending::ConnectFailed(why)
            | Ending::Closed(why)
            | Ending::Protocol(why)
            | Ending::TimedOut(why) => format!("unfinished ({why})"),
        }
    }
}

/// How a state relates to the position held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The same position and turn.
    Same,
    /// The position after this legal move.
    Played(Move),
    /// Not reachable: the position was rebuilt from the state.
    Rebuilt,
}

/// Whether `state` shows `board`'s pieces with `board`'s side to move (or a final turn).
fn shows(state: &State, board: &Board) -> bool {
    state.same_pieces(board)
        && (state.turn.is_final() || state.turn.side() == Some(board.side_to_move()))
}

/// Brings the driver's game to the position `state` shows; `sent` is the move Konakis sent
/// last, tried first. Fails only on a board that cannot be held at all.
fn follow(driver: &mut Driver, state: &State, sent: Option<Move>) -> Result<Step, String> {
    let sent: Vec<Move> = sent.into_iter().collect();
    let synced = driver.sync(
        |board| shows(state, board),
        Explain::OneMove(&sent),
        // Trust the server. A final state keeps the side that would be to move after one move.
        |board| {
            state
                .to_board(
                    board.side_to_move().opponent(),
                    board.plies().saturating_add(1),
                )
                .map_err(|e| e.to_string())
        },
    )?;
    Ok(match synced {
        Synced::Same => Step::Same,
        Synced::Played(moves) => Step::Played(moves[0]),
        Synced::Taken => Step::Rebuilt,
    })
}

/// Connects to the first address of `host:port` that accepts.
fn connect(host: &str, port: u16, timeout: Duration) -> Result<TcpStream, String> {
    let addresses: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .collect();
    let mut last = format!("{host} has no address");
    for address in addresses {
        match TcpStream::connect_timeout(&address, timeout) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = format!("cannot connect to {address}: {e}"),
        }
    }
    Err(last)
}

/// A short account of a search from `board` for the log, with the score's win chances.
fn describe(info: &Option<Info>, board: &Board, rules: &Rules) -> String {
    match info {
        None => "no completed iteration".to_string(),
        Some(i) => {
            let score = match i.score {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(n) => format!("mate {n}"),
            };
            let side = board.side_to_move();
            let chances = wdl::wdl(i.score, board.plies(), side, rules);
            format!(
                "depth {}, score {score} ({}), {} nodes",
                i.depth,
                wdl::describe(chances, side),
                i.nodes
            )
        }
    }
}

/// Chooses Konakis' move in the driver's game within `think`, avoiding the moves in
/// `refused`. `None` when no legal move is left.
fn choose(driver: &mut Driver, think: Duration, refused: &[Move]) -> (Option<Move>, Option<Info>) {
    let game = driver.game();
    let legal: Vec<Move> = game
        .board()
        .legal_moves(game.rules())
        .iter()
        .copied()
        .filter(|m| !refused.contains(m))
        .collect();
    let Some(&fallback) = legal.first() else {
        return (None, None);
    };
    let limits = Limits {
        movetime: Some((think.as_millis() as u64).max(1)),
        searchmoves: if refused.is_empty() {
            Vec::new()
        } else {
            legal
        },
        ..Limits::default()
    };
    if driver.think(limits, |_, _| {}).is_err() {
        return (Some(fallback), None);
    }
    let grace = Duration::from_millis(500);
    // The search overran its time (it should not): stop it, and if even that does not bring
    // an answer, send any legal move rather than lose on time. A search that ignored `stop`
    // is left to itself: it must not hang the player.
    if !driver.wait(Some(Instant::now() + think + grace)) {
        driver.stop();
        driver.wait(Some(Instant::now() + grace));
    }
    let outcome = driver.outcome();
    (outcome.best.or(Some(fallback)), outcome.info)
}

/// Plays one game against the server. Progress and problems go to `log`, one line each.
pub fn play(config: &ClientConfig, log: &mut dyn Write) -> SessionOutcome {
    let mut outcome = SessionOutcome {
        ending: Ending::Closed(String::new()),
        record: Vec::new(),
        refused: Vec::new(),
    };
    outcome.ending = session(config, log, &mut outcome.record, &mut outcome.refused);
    outcome
}

/// The session proper; returns how it ended.
fn session(
    config: &ClientConfig,
    log: &mut dyn Write,
    record: &mut Vec<Entry>,
    refused: &mut Vec<Move>,
) -> Ending {
    let ours = config.side;
    let colour = colour_name(ours).to_lowercase();
    // The table first: a size the system refuses ends the session before it connects.
    let options = Options {
        settings: config.settings,
        rules: config.rules,
        ..Options::default()
    };
    let mut driver = match Driver::new(options) {
        Ok(d) => d,
        Err(e) => return Ending::Closed(format!("cannot set up the engine: {e}")),
    };
    let mut stream = match connect(&config.host, config.port, config.connect_timeout) {
        Ok(s) => s,
        Err(e) => return Ending::ConnectFailed(e),
    };
    let _ = stream.set_nodelay(true);
    let mut reader = match stream.try_clone() {
        Ok(r) => r,
        Err(e) => return Ending::Closed(format!("cannot use the connection: {e}")),
    };
    if let Err(e) = write_frame(&mut stream, &name_json(&config.name)) {
        return Ending::Closed(format!("could not send the name: {e}"));
    }
    let _ = writeln!(
        log,
        "connected to {}:{} as {colour} ({}), name {}; up to {} ms a move",
        config.host,
        config.port,
        ours,
        config.name,
        config.think.as_millis()
    );
    let mut started = false;
    let mut sent: Option<Move> = None;
    // Moves of Konakis the server refused in the current position.
    let mut refused_here: Vec<Move> = Vec::new();
    let mut wait = config.first_wait;
    loop {
        if let Err(e) = reader.set_read_timeout(Some(wait)) {
            return Ending::Closed(format!("cannot set a read timeout: {e}"));
        }
        let text = match read_frame(&mut reader) {
            Ok(t) => t,
            Err(FrameError::Closed) => {
                return Ending::Closed(
                    "the server closed the connection before the game ended".to_string(),
                );
            }
            Err(FrameError::TimedOut) => {
                return Ending::TimedOut(format!(
                    "no state from the server within {} s",
                    wait.as_secs_f64()
                ));
            }
            Err(e @ (FrameError::Io(_) | FrameError::Truncated { .. })) => {
                return Ending::Closed(e.to_string());
            }
            Err(e @ (FrameError::TooLong(_) | FrameError::NotUtf8)) => {
                return Ending::Protocol(e.to_string());
            }
        };
        let received = Instant::now();
        wait = config.wait;
        let state = match State::parse(&text) {
            Ok(s) => s,
            Err(e) => return Ending::Protocol(format!("the server sent {e}")),
        };
        let last_sent = sent.take();
        let step = if !started {
            let start = Board::start(&config.rules);
            let fresh = if shows(&state, &start) {
                start
            } else {
                let board = match state.to_board(Side::Defenders, 0) {
                    Ok(b) => b,
                    Err(e) => return Ending::Protocol(format!("the first state shows {e}")),
                };
                let _ = writeln!(
                    log,
                    "note: the first state is not the start position; playing on from it"
                );
                board
            };
            driver.take_position(fresh);
            started = true;
            Step::Same
        } else {
            match follow(&mut driver, &state, last_sent) {
                Ok(step) => step,
                Err(e) => return Ending::Protocol(format!("the server sent {e}")),
            }
        };
        match step {
            Step::Same => {
                if let Some(m) = last_sent {
                    refused.push(m);
                    refused_here.push(m);
                    if state.turn.is_final() {
                        let _ = writeln!(
                            log,
                            "error: the server refused Konakis' move {m} and ended the game"
                        );
                    } else {
                        let _ = writeln!(
                            log,
                            "error: the server refused Konakis' move {m} (the same state came \
                             back); trying another move"
                        );
                    }
                } else if state.turn.is_final() && !record.is_empty() {
                    let _ = writeln!(log, "note: the game ended without a move");
                }
            }
            Step::Played(m) => {
                refused_here.clear();
                record.push(Entry::Move(m));
                if Some(m) != last_sent {
                    let mover = driver.board().side_to_move().opponent();
                    let _ = writeln!(log, "{} {m}", colour_name(mover).to_lowercase());
                }
            }
            Step::Rebuilt => {
                refused_here.clear();
                record.push(Entry::Rebuilt);
                let _ = writeln!(
                    log,
                    "warning: no legal move leads to the state the server sent; Konakis \
                     trusts it and plays on from {}",
                    driver.board().to_fen()
                );
            }
        }
        if state.turn.is_final() {
            let ours_says = Turn::of_status(driver.game().status());
            if matches!(step, Step::Played(_)) && ours_says != Some(state.turn) {
                let verdict = ours_says.map_or("the game goes on".to_string(), |t| t.to_string());
                let _ = writeln!(
                    log,
                    "warning: the server says {}, Konakis' rules say {verdict}",
                    state.turn
                );
            }
            return Ending::Over(state.turn);
        }
        if state.turn.side() != Some(ours) {
            continue;
        }
        if driver.game().status().is_over() {
            // Konakis' rules end the game here but the server plays on: search the position
            // afresh (its history is what ended it).
            let _ = writeln!(
                log,
                "warning: Konakis' rules say the game is over ({}), the server asks for a move",
                driver.game().status()
            );
            driver.take_position(*driver.board());
        }
        let think = config.think.saturating_sub(received.elapsed());
        let (best, info) = choose(&mut driver, think, &refused_here);
        let Some(m) = best else {
            return Ending::Protocol(format!(
                "the server asks for a move but Konakis has no legal move left in {}",
                driver.board().to_fen()
            ));
        };
        let account = describe(&info, driver.board(), driver.game().rules());
        if let Err(e) = write_frame(&mut stream, &move_json(m, ours)) {
            return Ending::Closed(format!("could not send the move {m}: {e}"));
        }
        let _ = writeln!(
            log,
            "{colour} {m} (Konakis: {account}, {} ms)",
            received.elapsed().as_millis()
        );
        sent = Some(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::state::Turn;

    fn sq(name: &str) -> konakis_core::types::Square {
        name.parse().unwrap()
    }

    /// A driver with a small table, holding `board` under `rules`.
    fn driver(rules: Rules, board: Board) -> Driver {
        let mut config = Options {
            rules,
            ..Options::default()
        };
        config.settings.hash_mib = 1;
        let mut d = Driver::new(config).unwrap();
        d.take_position(board);
        d
    }

    #[test]
    fn follow_finds_the_move_keeps_the_same_state_and_rebuilds_the_rest() {
        let rules = Rules::ashton();
        let mut game = driver(rules, Board::start(&rules));
        let start = State::from_board(game.board(), Turn::White, None);
        assert_eq!(follow(&mut game, &start, None), Ok(Step::Same));

        let mv = game.board().legal_moves(&rules)[0];
        let mut after = *game.board();
        after.play(&rules, mv);
        let state = State::from_board(&after, Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Played(mv)));
        assert_eq!(game.game().moves(), &[mv]);

        // Two moves at once cannot be followed: the state is trusted.
        let mut two = *game.board();
        let m1 = two.legal_moves(&rules)[0];
        two.play(&rules, m1);
        let m2 = two.legal_moves(&rules)[0];
        two.play(&rules, m2);
        let state = State::from_board(&two, Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Rebuilt));
        assert!(state.same_pieces(game.board()));
        assert_eq!(game.board().side_to_move(), Side::Attackers);
        assert!(
            game.game().moves().is_empty(),
            "a rebuilt game starts a new history"
        );
    }

    #[test]
    fn the_same_pieces_with_the_other_side_to_move_is_rebuilt_with_the_server_turn() {
        let rules = Rules::ashton();
        let mut game = driver(rules, Board::start(&rules));
        let state = State::from_board(game.board(), Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Rebuilt));
        assert_eq!(game.board().side_to_move(), Side::Attackers);
    }

    #[test]
    fn a_captured_king_left_on_the_board_is_followed() {
        let rules = Rules::default();
        let board = Board::from_fen("9/9/9/9/9/9/1bK6/9/3b5 b 0").unwrap();
        let mut game = driver(rules, board);
        let mv = Move::new(sq("d1"), sq("d3"));
        let mut after = board;
        after.play(&rules, mv);
        let state = State::from_board(&after, Turn::BlackWin, Some(sq("c3")));
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Played(mv)));
        assert_eq!(Turn::of_status(game.game().status()), Some(Turn::BlackWin));
    }

    #[test]
    fn the_result_text_follows_the_ending() {
        let o = |ending, refused: Vec<Move>| SessionOutcome {
            ending,
            record: Vec::new(),
            refused,
        };
        let won = o(Ending::Over(Turn::WhiteWin), vec![]);
        assert_eq!(
            won.result_text(Side::Defenders),
            "WHITEWIN (Konakis, white, wins)"
        );
        assert_eq!(
            won.result_text(Side::Attackers),
            "WHITEWIN (Konakis, black, loses)"
        );
    }
}
