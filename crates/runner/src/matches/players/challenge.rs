//! Tablut Challenge agents as a [`Player`] (`proto=tablut-challenge`): the runner plays the
//! server's part toward a program written for the University of Bologna's server.
//!
//! Such an agent plays one game per process: it is started with its colour, connects to the
//! server's port, sends its name, and then reads a state after every move and answers with a
//! move on its turn (docs/tablut-challenge.md). So the runner starts the agent at its first
//! move of each game, when its colour is known, listening first on the port it will connect
//! to: a free port of its own choosing when the arguments have a `{port}` placeholder, else the
//! server's fixed port for the colour (5800 White, 5801 Black), which allows one game at a
//! time. The agent's time starts when the state asking for its move has been written; the time
//! it takes to start and connect is not counted. After the game it gets the final state
//! (`WHITEWIN`, `BLACKWIN` or `DRAW`) and is ended.
//!
//! States go out exactly as the server writes them: after every move, the agent's own
//! included (at once, as the server does), rank 1 first, `THRONE` for the empty `e5`, a
//! captured king left on his square. Unlike the server, the runner does not poll once a
//! second: a move is taken the moment it arrives.

use super::types::{Answer, Fault, GameEnd, MoveRequest, Player};
use crate::matches::config::{EngineSpec, MatchConfig, Opening};
use crate::matches::engine::{EngineProcess, Failure, Log, shorten};
use konakis_core::board::Game;
use konakis_core::rules::{BoardSize, Ruleset};
use konakis_core::types::{Move, Side, Square};
use konakis_protocols::challenge::state::{
    MoveMessage, State, Turn, colour_name, parse_move, parse_name,
};
use konakis_protocols::challenge::wire::{FrameError, read_frame, write_frame};
use konakis_protocols::challenge::{BLACK_PORT, WHITE_PORT};
use std::io::ErrorKind;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often waits look at the stop flag and at the agent's process.
const POLL: Duration = Duration::from_millis(20);
/// How long an agent gets to exit by itself after the final state before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(1000);
/// The longest a state may take to be written (the agent is not reading).
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// Start-up checks of fixed-port agents run one at a time (they all want port 5800).
static FIXED_PORTS: Mutex<()> = Mutex::new(());

/// Whether an agent's arguments let the runner choose its port.
pub fn takes_port(spec: &EngineSpec) -> bool {
    spec.args.iter().any(|a| a.contains("{port}"))
}

/// `{seconds}`: the fixed time per move, rounded up to whole seconds (at least 1).
fn seconds_of(spec: &EngineSpec) -> u64 {
    spec.limits.st_ms.map_or(1, |ms| ms.div_ceil(1000).max(1))
}

/// The agent's arguments with `{color}` (`white` / `black`), `{port}` and `{seconds}` filled
/// in.
pub fn agent_args(spec: &EngineSpec, side: Side, port: u16) -> Vec<String> {
    let colour = colour_name(side).to_lowercase();
    spec.args
        .iter()
        .map(|a| {
            a.replace("{color}", &colour)
                .replace("{port}", &port.to_string())
                .replace("{seconds}", &seconds_of(spec).to_string())
        })
        .collect()
}

/// What came from the agent's connection: a message, or why none will come.
type Incoming = (Instant, Result<String, FrameError>);

/// One agent process for one game, connected.
struct Agent {
    process: EngineProcess,
    stream: TcpStream,
    frames: Receiver<Incoming>,
    side: Side,
    /// The position of the last state sent (the opening until the first one is sent).
    game: Game,
    /// Whether the first state has been sent.
    started: bool,
    /// Whether the final state has been sent.
    finished: bool,
    label: String,
    log: Option<Arc<Log>>,
}

impl Agent {
    /// Listens, starts the agent for `side` and waits for its connection and name until
    /// `deadline`. The error says what went wrong.
    fn launch(
        spec: &EngineSpec,
        side: Side,
        opening: Game,
        log: Option<Arc<Log>>,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<Agent, Failure> {
        let listener = if takes_port(spec) {
            TcpListener::bind("127.0.0.1:0")
        } else {
            let port = match side {
                Side::Defenders => WHITE_PORT,
                Side::Attackers => BLACK_PORT,
            };
            TcpListener::bind(("0.0.0.0", port))
        }
        .map_err(|e| Failure::Exited(format!("cannot listen for the agent: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| Failure::Exited(format!("cannot listen for the agent: {e}")))?
            .port();
        let mut concrete = spec.clone();
        concrete.args = agent_args(spec, side, port);
        let mut process = EngineProcess::spawn(&concrete, log.clone())
            .map_err(|e| Failure::Exited(e.to_string()))?;
        let stream = accept(&listener, &mut process, deadline, abort)?;
        drop(listener);
        let fail = |e: std::io::Error| Failure::Exited(format!("connection error: {e}"));
        stream.set_nodelay(true).map_err(fail)?;
        stream
            .set_write_timeout(Some(WRITE_TIMEOUT))
            .map_err(fail)?;
        let mut reader = stream.try_clone().map_err(fail)?;
        let left = deadline.saturating_duration_since(Instant::now());
        reader
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .map_err(fail)?;
        let name = match read_frame(&mut reader) {
            Ok(text) => text,
            Err(FrameError::TimedOut) => return Err(Failure::Timeout),
            Err(e) => return Err(Failure::Exited(format!("no name: {e}"))),
        };
        if let Some(log) = &log {
            log.write(&spec.name, ">", &format!("(name) {name}"));
        }
        parse_name(&name).map_err(|e| Failure::Exited(format!("sent {e}")))?;
        reader.set_read_timeout(None).map_err(fail)?;
        let (tx, frames) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("{}-wire", spec.name))
            .spawn(move || {
                loop {
                    let frame = read_frame(&mut reader);
                    let end = frame.is_err();
                    if tx.send((Instant::now(), frame)).is_err() || end {
                        return;
                    }
                }
            })
            .map_err(|e| Failure::Exited(format!("cannot start a reader thread: {e}")))?;
        Ok(Agent {
            process,
            stream,
            frames,
            side,
            game: opening,
            started: false,
            finished: false,
            label: spec.name.clone(),
            log,
        })
    }

    /// Writes one message.
    fn send(&mut self, text: &str) -> Result<(), Failure> {
        if let Some(log) = &self.log {
            log.write(&self.label, "<", text);
        }
        write_frame(&mut self.stream, text)
            .map_err(|e| Failure::Exited(format!("cannot send a state: {e}")))
    }

    /// Plays `mv` on the agent's game and sends the state after it; the final state when the
    /// move ends the game.
    fn advance(&mut self, mv: Move) -> Result<(), Failure> {
        let king_before = self.game.board().king();
        self.game
            .play(mv)
            .map_err(|e| Failure::Exited(format!("runner error: {e}")))?;
        let turn = Turn::of_status(self.game.status())
            .unwrap_or(Turn::to_move(self.game.board().side_to_move()));
        self.finished = turn.is_final();
        let state = State::from_board(self.game.board(), turn, king_before);
        self.send(&state.to_json())
    }

    /// Sends the states the agent has not seen: the first one, then one per move of `game`
    /// beyond what was sent.
    fn catch_up(&mut self, game: &Game) -> Result<(), Failure> {
        if !self.started {
            self.started = true;
            let turn = Turn::to_move(self.game.board().side_to_move());
            let state = State::from_board(self.game.board(), turn, None);
            self.send(&state.to_json())?;
        }
        let seen = self.game.moves().len();
        for &mv in game.moves().iter().skip(seen) {
            self.advance(mv)?;
        }
        Ok(())
    }

    /// Sends the final state for `end` unless the last state already was one.
    fn finish(&mut self, game: &Game, end: GameEnd) {
        if self.catch_up(game).is_err() || self.finished {
            return;
        }
        let turn = match end {
            GameEnd::Win(side) => Turn::win(side),
            GameEnd::Draw => Turn::Draw,
        };
        let state = State::from_board(self.game.board(), turn, None);
        self.finished = true;
        let _ = self.send(&state.to_json());
    }

    /// Closes the connection and ends the process (at once, or after `grace`).
    fn end(self, grace: Duration) {
        let _ = self.stream.shutdown(Shutdown::Both);
        self.process.quit(grace);
    }
}

/// Waits for the agent's connection, watching its process and the stop flag.
fn accept(
    listener: &TcpListener,
    process: &mut EngineProcess,
    deadline: Instant,
    abort: &AtomicBool,
) -> Result<TcpStream, Failure> {
    let fail = |e: std::io::Error| Failure::Exited(format!("cannot accept the agent: {e}"));
    listener.set_nonblocking(true).map_err(fail)?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).map_err(fail)?;
                return Ok(stream);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => return Err(fail(e)),
        }
        if abort.load(Ordering::Relaxed) {
            return Err(Failure::Aborted);
        }
        if Instant::now() >= deadline {
            return Err(Failure::Exited(
                "the agent did not connect in time".to_string(),
            ));
        }
        // Output lines are of no interest (they reach the log); a closed output means the
        // agent exited before connecting.
        match process.recv(Instant::now() + POLL, abort) {
            Ok(_) | Err(Failure::Timeout) => {}
            Err(Failure::Exited(how)) => {
                return Err(Failure::Exited(format!(
                    "before connecting, the agent {how}"
                )));
            }
            Err(Failure::Aborted) => return Err(Failure::Aborted),
        }
    }
}

/// A Tablut Challenge agent, started afresh for every game.
pub struct ChallengePlayer {
    spec: EngineSpec,
    log: Option<Arc<Log>>,
    startup_timeout: Duration,
    /// The game the next agent starts from.
    opening: Game,
    agent: Option<Agent>,
}

impl ChallengePlayer {
    /// Prepares the player; the agent itself starts at its first move of each game.
    pub fn start(
        config: &MatchConfig,
        spec: &EngineSpec,
        log: Option<Arc<Log>>,
        _abort: &AtomicBool,
    ) -> Result<ChallengePlayer, (Fault, String)> {
        Ok(ChallengePlayer {
            spec: spec.clone(),
            log,
            startup_timeout: config.startup_timeout,
            opening: Game::start(config.rules),
            agent: None,
        })
    }

    /// Ends the current agent, if any.
    fn end_agent(&mut self, grace: Duration) {
        if let Some(agent) = self.agent.take() {
            agent.end(grace);
        }
    }
}

impl Player for ChallengePlayer {
    fn new_game(&mut self, opening: &Opening, _abort: &AtomicBool) -> Result<(), Failure> {
        self.end_agent(Duration::ZERO);
        self.opening = opening.game.clone();
        Ok(())
    }

    fn request_move(
        &mut self,
        request: &MoveRequest,
        abort: &AtomicBool,
    ) -> Result<Answer, Failure> {
        let asked = Instant::now();
        let side = request.game.board().side_to_move();
        if self.agent.as_ref().is_some_and(|a| a.side != side) {
            self.end_agent(Duration::ZERO);
        }
        if self.agent.is_none() {
            let agent = Agent::launch(
                &self.spec,
                side,
                self.opening.clone(),
                self.log.clone(),
                asked + self.startup_timeout,
                abort,
            )?;
            self.agent = Some(agent);
        }
        let agent = self.agent.as_mut().expect("launched above");
        agent.catch_up(request.game)?;
        // The agent's time starts now; its start-up does not count against it.
        let sent = Instant::now();
        let deadline = request.deadline + sent.saturating_duration_since(asked);
        let (arrived, frame) = loop {
            if abort.load(Ordering::Relaxed) {
                return Err(Failure::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout);
            }
            match agent.frames.recv_timeout((deadline - now).min(POLL)) {
                Ok(incoming) => break incoming,
                Err(RecvTimeoutError::Timeout) => agent.process.drain(),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Exited(agent.process.exit_description()));
                }
            }
        };
        // An answer without a move: the referee reports `line` as the fault.
        let no_move = |line: String| Answer {
            sent,
            arrived,
            text: String::new(),
            line,
            score: None,
            cpu_wait: Duration::ZERO,
        };
        let text = match frame {
            Ok(text) => text,
            Err(FrameError::Closed) | Err(FrameError::Truncated { .. }) => {
                let how = agent.process.exit_description();
                return Err(Failure::Exited(format!("closed the connection ({how})")));
            }
            Err(e) => {
                return Ok(no_move(e.to_string()));
            }
        };
        if let Some(log) = &agent.log {
            log.write(&agent.label, ">", &text);
        }
        let line = shorten(&text, 200);
        let (from, to) = match parse_move(&text) {
            Ok(MoveMessage::Move(from, to)) => (from, to),
            Ok(MoveMessage::Refused(why)) => {
                return Ok(no_move(format!("{line} ({why})")));
            }
            Err(e) => {
                return Ok(no_move(e.to_string()));
            }
        };
        let move_text = move_text(from, to);
        // A legal move is answered at once with the state after it, as the server does; the
        // referee judges any other.
        let rules = *request.game.rules();
        // A failed write shows at the agent's next move.
        if let Ok(mv) = request.game.board().parse_move(&rules, &move_text) {
            let _ = agent.advance(mv);
        }
        Ok(Answer {
            sent,
            arrived,
            text: move_text,
            line,
            score: None,
            cpu_wait: Duration::ZERO,
        })
    }

    fn recover(&mut self, _abort: &AtomicBool) -> bool {
        // The server says nothing to a player out of time; it just ends. The next game
        // starts a new agent, so this player stays usable.
        self.end_agent(Duration::ZERO);
        true
    }

    fn game_over(&mut self, game: &Game, end: GameEnd) {
        if let Some(agent) = self.agent.as_mut() {
            agent.finish(game, end);
        }
        self.end_agent(EXIT_GRACE);
    }

    fn quit(mut self: Box<Self>, grace: Duration) {
        self.end_agent(grace);
    }
}

/// `from` and `to` as a move text for the referee (`e3a3`; a diagonal or null move is then
/// refused by it as illegal).
fn move_text(from: Square, to: Square) -> String {
    format!("{from}{to}")
}

/// Why a challenge agent cannot play a game of another board.
pub const NINE_ONLY: &str = "challenge agents play Ashton Tablut on 9x9 only";

/// Checks an agent before the match: the board must be 9x9 and the rules Ashton, its only
/// limit a time per move, fixed ports allow one game at a time; then it is started once as
/// White and must connect and send its name.
pub(crate) fn preflight(
    config: &MatchConfig,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
) -> Result<Vec<String>, String> {
    let who = format!("engine '{}' (proto=tablut-challenge)", spec.name);
    if config.size() != BoardSize::Nine {
        return Err(format!("{who}: {NINE_ONLY}"));
    }
    if config.rules.ruleset != Ruleset::Ashton {
        return Err(format!(
            "{who}: challenge agents play Ashton Tablut only; add --rules Ruleset=Ashton"
        ));
    }
    let l = &spec.limits;
    if l.st_ms.is_none() || l.tc.is_some() || l.depth.is_some() || l.nodes.is_some() {
        return Err(format!(
            "{who}: a challenge agent knows only a time per move: give it st=S and no other \
             limit ({{seconds}} is S rounded up to whole seconds)"
        ));
    }
    let fixed = !takes_port(spec);
    if fixed && config.concurrency > 1 {
        return Err(format!(
            "{who}: without {{port}} in its arguments the agent connects to the fixed ports \
             5800/5801, so only one game can run at a time: use --concurrency 1"
        ));
    }
    let mut warnings = Vec::new();
    if !spec.options.is_empty() {
        warnings.push(format!(
            "warning: {who} takes no options; option.… settings are ignored (pass them with \
             arg=)"
        ));
    }
    let _one_at_a_time = if fixed {
        Some(FIXED_PORTS.lock().unwrap_or_else(|e| e.into_inner()))
    } else {
        None
    };
    let never = AtomicBool::new(false);
    let deadline = Instant::now() + config.startup_timeout;
    let opening = Game::start(config.rules);
    match Agent::launch(spec, Side::Defenders, opening, log, deadline, &never) {
        Ok(agent) => agent.end(Duration::ZERO),
        Err(Failure::Timeout) => {
            return Err(format!(
                "{who} connected but sent no name within {} s",
                config.startup_timeout.as_secs_f64()
            ));
        }
        Err(Failure::Exited(how)) => return Err(format!("{who}: {how}")),
        Err(Failure::Aborted) => return Err(format!("{who}: aborted")),
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::config::MoveLimits;
    use std::path::PathBuf;

    fn spec(args: &[&str], st_ms: Option<u64>) -> EngineSpec {
        EngineSpec {
            name: "agent".into(),
            cmd: PathBuf::from("agent"),
            args: args.iter().map(|s| s.to_string()).collect(),
            dir: None,
            options: Vec::new(),
            limits: MoveLimits {
                st_ms,
                ..MoveLimits::default()
            },
            proto: Default::default(),
            settle_ms: 0,
        }
    }

    #[test]
    fn placeholders_are_filled_in_every_argument() {
        let s = spec(
            &["--color={color}", "{port}", "-t", "{seconds}", "plain"],
            Some(2500),
        );
        assert_eq!(
            agent_args(&s, Side::Defenders, 4321),
            ["--color=white", "4321", "-t", "3", "plain"]
        );
        assert_eq!(agent_args(&s, Side::Attackers, 5801)[0], "--color=black");
        assert!(takes_port(&s));
        assert!(!takes_port(&spec(&["{color}"], Some(1000))));
        assert_eq!(seconds_of(&spec(&[], Some(100))), 1);
        assert_eq!(seconds_of(&spec(&[], Some(60_000))), 60);
    }
}
