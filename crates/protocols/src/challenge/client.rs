//! The player over TCP: connects to a Tablut Challenge server, sends the name, then carries
//! each state the server sends to the [`Machine`] state machine and its moves back, with the
//! waits, the log and how the session ended. What to play and how a state follows the game
//! is the [`machine`](super::machine)'s business.

pub use super::machine::Entry;
use super::machine::{Action, Machine, MachineError, Play};
use super::state::{State, Turn, WireError, colour_name, move_json, name_json};
use super::wire::{FrameError, read_frame, write_frame};
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use konakis_engine::clock::Instant;
use konakis_engine::search::Settings;
use std::fmt;
use std::io::{self, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
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

/// How the session ended: a final state, or the kind of failure (which sets the command's
/// exit code) with its [`SessionError`] in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEnd {
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

/// Why a session stopped before a final state.
#[derive(Debug)]
pub enum SessionError {
    /// The state machine cannot go on (engine set-up, a bad state, no move left).
    Machine(MachineError),
    /// The host name does not resolve.
    Resolve {
        /// The host.
        host: String,
        /// What the resolver said.
        source: io::Error,
    },
    /// The host name resolves to no address.
    NoAddress(String),
    /// The last address tried refused the connection.
    Connect {
        /// The address.
        address: SocketAddr,
        /// What the system said.
        source: io::Error,
    },
    /// The connection cannot be used for reading (no second handle).
    Setup(io::Error),
    /// The read timeout cannot be set.
    ReadTimeout(io::Error),
    /// The name could not be sent.
    SendName(io::Error),
    /// A move could not be sent.
    SendMove {
        /// The move.
        mv: Move,
        /// What the system said.
        source: io::Error,
    },
    /// No state arrived: the connection closed, timed out (after `wait`) or broke, or a
    /// message is not a frame of text.
    Receive {
        /// How the read failed.
        error: FrameError,
        /// The wait that applied.
        wait: Duration,
    },
    /// A message is not a state.
    BadState(WireError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Machine(e) => write!(f, "{e}"),
            SessionError::Resolve { host, source } => write!(f, "cannot resolve {host}: {source}"),
            SessionError::NoAddress(host) => write!(f, "{host} has no address"),
            SessionError::Connect { address, source } => {
                write!(f, "cannot connect to {address}: {source}")
            }
            SessionError::Setup(e) => write!(f, "cannot use the connection: {e}"),
            SessionError::ReadTimeout(e) => write!(f, "cannot set a read timeout: {e}"),
            SessionError::SendName(e) => write!(f, "could not send the name: {e}"),
            SessionError::SendMove { mv, source } => {
                write!(f, "could not send the move {mv}: {source}")
            }
            SessionError::Receive {
                error: FrameError::Closed,
                ..
            } => f.write_str("the server closed the connection before the game ended"),
            SessionError::Receive {
                error: FrameError::TimedOut,
                wait,
            } => write!(
                f,
                "no state from the server within {} s",
                wait.as_secs_f64()
            ),
            SessionError::Receive { error, .. } => write!(f, "{error}"),
            SessionError::BadState(e) => write!(f, "the server sent {e}"),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Machine(e) => Some(e),
            SessionError::Resolve { source, .. }
            | SessionError::Connect { source, .. }
            | SessionError::SendMove { source, .. }
            | SessionError::Setup(source)
            | SessionError::ReadTimeout(source)
            | SessionError::SendName(source) => Some(source),
            SessionError::Receive { error, .. } => Some(error),
            SessionError::BadState(e) => Some(e),
            SessionError::NoAddress(_) => None,
        }
    }
}

impl From<SessionError> for SessionEnd {
    fn from(e: SessionError) -> SessionEnd {
        let why = e.to_string();
        match e {
            SessionError::Resolve { .. }
            | SessionError::NoAddress(_)
            | SessionError::Connect { .. } => SessionEnd::ConnectFailed(why),
            SessionError::Receive {
                error: FrameError::TimedOut,
                ..
            } => SessionEnd::TimedOut(why),
            SessionError::Receive {
                error: FrameError::TooLong(_) | FrameError::NotUtf8,
                ..
            }
            | SessionError::BadState(_)
            | SessionError::Machine(
                MachineError::BadState(_)
                | MachineError::BadFirstState(_)
                | MachineError::NoMoveLeft { .. },
            ) => SessionEnd::Protocol(why),
            SessionError::Machine(MachineError::Engine(_))
            | SessionError::Setup(_)
            | SessionError::ReadTimeout(_)
            | SessionError::SendName(_)
            | SessionError::SendMove { .. }
            | SessionError::Receive { .. } => SessionEnd::Closed(why),
        }
    }
}

/// What a session did: its ending, the moves seen, and the moves of Konakis the server refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOutcome {
    /// How it ended.
    pub ending: SessionEnd,
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
            SessionEnd::Over(Turn::Draw) => "DRAW".to_string(),
            SessionEnd::Over(turn) => {
                let won = *turn == Turn::win(side);
                format!(
                    "{turn} (Konakis, {}, {})",
                    colour_name(side).to_lowercase(),
                    if won { "wins" } else { "loses" }
                )
            }
            SessionEnd::ConnectFailed(why)
            | SessionEnd::Closed(why)
            | SessionEnd::Protocol(why)
            | SessionEnd::TimedOut(why) => format!("unfinished ({why})"),
        }
    }
}

/// Connects to the first address of `host:port` that accepts.
fn connect(host: &str, port: u16, timeout: Duration) -> Result<TcpStream, SessionError> {
    let addresses: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|source| SessionError::Resolve {
            host: host.to_string(),
            source,
        })?
        .collect();
    let mut last = SessionError::NoAddress(host.to_string());
    for address in addresses {
        match TcpStream::connect_timeout(&address, timeout) {
            Ok(stream) => return Ok(stream),
            Err(source) => last = SessionError::Connect { address, source },
        }
    }
    Err(last)
}

/// Plays one game against the server. Progress and problems go to `log`, one line each.
pub fn play(config: &ClientConfig, log: &mut dyn Write) -> SessionOutcome {
    // The table first: a size the system refuses ends the session before it connects.
    let mut machine = match Machine::new(config.side, config.rules, config.settings, config.think) {
        Ok(c) => c,
        Err(e) => {
            return SessionOutcome {
                ending: SessionError::Machine(e).into(),
                record: Vec::new(),
                refused: Vec::new(),
            };
        }
    };
    let ending = match session(config, &mut machine, log) {
        Ok(turn) => SessionEnd::Over(turn),
        Err(e) => e.into(),
    };
    let (record, refused) = machine.into_parts();
    SessionOutcome {
        ending,
        record,
        refused,
    }
}

/// The session proper: returns the final turn, or why there is none.
fn session(
    config: &ClientConfig,
    machine: &mut Machine,
    log: &mut dyn Write,
) -> Result<Turn, SessionError> {
    let ours = config.side;
    let colour = colour_name(ours).to_lowercase();
    let mut stream = connect(&config.host, config.port, config.connect_timeout)?;
    let _ = stream.set_nodelay(true);
    let mut reader = stream.try_clone().map_err(SessionError::Setup)?;
    write_frame(&mut stream, &name_json(&config.name)).map_err(SessionError::SendName)?;
    let _ = writeln!(
        log,
        "connected to {}:{} as {colour} ({}), name {}; up to {} ms a move",
        config.host,
        config.port,
        ours,
        config.name,
        config.think.as_millis()
    );
    let mut wait = config.first_wait;
    loop {
        reader
            .set_read_timeout(Some(wait))
            .map_err(SessionError::ReadTimeout)?;
        let text =
            read_frame(&mut reader).map_err(|error| SessionError::Receive { error, wait })?;
        let received = Instant::now();
        wait = config.wait;
        let state = State::parse(&text).map_err(SessionError::BadState)?;
        let response = machine.on_state(&state).map_err(SessionError::Machine)?;
        for line in &response.log {
            let _ = writeln!(log, "{line}");
        }
        match response.action {
            Action::Over(turn) => return Ok(turn),
            Action::Wait => {}
            Action::Think => {
                let Play { mv, account } =
                    machine.think(received).map_err(SessionError::Machine)?;
                write_frame(&mut stream, &move_json(mv, ours))
                    .map_err(|source| SessionError::SendMove { mv, source })?;
                let _ = writeln!(
                    log,
                    "{colour} {mv} (Konakis: {account}, {} ms)",
                    received.elapsed().as_millis()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_text_follows_the_ending() {
        let o = |ending, refused: Vec<Move>| SessionOutcome {
            ending,
            record: Vec::new(),
            refused,
        };
        let won = o(SessionEnd::Over(Turn::WhiteWin), vec![]);
        assert_eq!(
            won.result_text(Side::Defenders),
            "WHITEWIN (Konakis, white, wins)"
        );
        assert_eq!(
            won.result_text(Side::Attackers),
            "WHITEWIN (Konakis, black, loses)"
        );
    }

    #[test]
    fn each_failure_ends_the_session_in_its_kind_with_the_words_of_before() {
        let receive = |error| SessionError::Receive {
            error,
            wait: Duration::from_millis(1500),
        };
        assert_eq!(
            SessionEnd::from(receive(FrameError::Closed)),
            SessionEnd::Closed("the server closed the connection before the game ended".into())
        );
        assert_eq!(
            SessionEnd::from(receive(FrameError::TimedOut)),
            SessionEnd::TimedOut("no state from the server within 1.5 s".into())
        );
        assert_eq!(
            SessionEnd::from(receive(FrameError::NotUtf8)),
            SessionEnd::Protocol("a message is not UTF-8 text".into())
        );
        assert_eq!(
            SessionEnd::from(SessionError::BadState(WireError::NoTurn)),
            SessionEnd::Protocol("the server sent a state without \"turn\"".into())
        );
        assert_eq!(
            SessionEnd::from(SessionError::NoAddress("nowhere".into())),
            SessionEnd::ConnectFailed("nowhere has no address".into())
        );
    }
}
