//! The match runner's side of an engine protocol: the [`Player`] trait that the referee drives,
//! and [`start`], which starts an engine in the protocol its `--engine` names (`proto=`).
//!
//! The referee owns the game: it keeps the clocks, decides every deadline, checks every move
//! with the library and declares the result. A `Player` only carries messages: it tells its
//! engine about a new game, the moves so far and the clocks in the engine's own language, and
//! brings back the move text the engine chose. Each protocol is one implementation in its own
//! file; adding one means a [`Proto`] value, a branch in [`start`] and in [`preflight`].

use super::config::{Config, EngineSpec, Limits, Opening};
use super::engine::{EngineProcess, Failure, Log};
use super::game::Fault;
use konakis_core::board::Game;
use konakis_core::types::{BySide, Move, Side};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The protocol an engine speaks (`proto=` on `--engine`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Proto {
    /// Konakis' UCI-like line protocol (protocol.md).
    #[default]
    Uci,
    /// The OpenTafl Engine Protocol (protocol.md's last section; `konakis otep`).
    Otep,
    /// A Tablut Challenge agent: the runner plays the server's part (challenge.rs).
    TablutChallenge,
}

impl Proto {
    /// The names `proto=` accepts, in the order `--help` lists them.
    pub const NAMES: &'static [&'static str] = &["uci", "otep", "tablut-challenge"];

    /// Parses a `proto=` value (case-insensitive).
    pub fn parse(text: &str) -> Option<Proto> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Some(Proto::Uci),
            "otep" => Some(Proto::Otep),
            "tablut-challenge" => Some(Proto::TablutChallenge),
            _ => None,
        }
    }
}

/// A side's clock during a game, as the referee keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on it, in milliseconds (never below zero when sent).
    pub left_ms: i64,
    /// Moves left in the period (for `moves/time` controls).
    pub moves_left: Option<u32>,
}

/// Everything a player may need to ask its engine for a move.
pub struct MoveRequest<'a> {
    /// The opening the game started from.
    pub opening: &'a Opening,
    /// The moves played since the opening, both sides.
    pub moves: &'a [Move],
    /// The game now (history, rules, side to move: the player's side).
    pub game: &'a Game,
    /// Both sides' limits (the mover's own and the opponent's, for clock messages).
    pub limits: BySide<&'a Limits>,
    /// Both sides' clocks, for sides that have one.
    pub clocks: BySide<Option<Clock>>,
    /// When the referee stops waiting for the answer.
    pub deadline: Instant,
}

/// An engine's answer to a [`MoveRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// When the request was sent: the engine's time runs from here.
    pub sent: Instant,
    /// When the answer arrived.
    pub arrived: Instant,
    /// The move as the engine wrote it (empty when it gave none); the referee parses it.
    pub text: String,
    /// The whole answer as received, for messages.
    pub line: String,
    /// The engine's last score for the move (centi-soldiers from its own point of view,
    /// mates as ±1,000,000), when it reported one.
    pub score: Option<i32>,
}

/// How a game ended, as a player tells its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// That side won (by the rules, a forfeit or adjudication).
    Win(Side),
    /// A draw.
    Draw,
}

/// One running engine, as the referee drives it.
pub trait Player: Send {
    /// Prepares the engine for a new game starting from `opening`; returns once it is ready.
    fn new_game(&mut self, opening: &Opening, abort: &AtomicBool) -> Result<(), Failure>;

    /// Asks for a move in `request.game` and waits for it until `request.deadline`.
    fn request_move(
        &mut self,
        request: &MoveRequest,
        abort: &AtomicBool,
    ) -> Result<Answer, Failure>;

    /// After a timeout: tries to bring the engine back to a state where it can play the next
    /// game. `false` when it did not answer, so it must be restarted.
    fn recover(&mut self, abort: &AtomicBool) -> bool;

    /// Tells the engine how the game ended (protocols that have such a message).
    fn game_over(&mut self, game: &Game, end: GameEnd);

    /// Ends the engine: politely, then by force after `grace`.
    fn quit(self: Box<Self>, grace: Duration);
}

/// Starts the engine `spec` for a match under `config`, ready for [`Player::new_game`].
pub fn start(
    config: &Config,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
    abort: &AtomicBool,
) -> Result<Box<dyn Player>, (Fault, String)> {
    match spec.proto {
        Proto::Uci => super::uci::UciPlayer::start(config, spec, log, abort)
            .map(|p| Box::new(p) as Box<dyn Player>),
        Proto::Otep => super::otep::OtepPlayer::start(config, spec, log, abort)
            .map(|p| Box::new(p) as Box<dyn Player>),
        Proto::TablutChallenge => {
            super::challenge::ChallengePlayer::start(config, spec, log, abort)
                .map(|p| Box::new(p) as Box<dyn Player>)
        }
    }
}

/// Checks before the match that the engine `spec` starts and speaks its protocol; returns
/// warnings (e.g. options it does not announce). An error stops the match before any game.
pub fn preflight(
    config: &Config,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
) -> Result<Vec<String>, String> {
    match spec.proto {
        Proto::Uci => super::uci::preflight(config, spec, log),
        Proto::Otep => super::otep::preflight(config, spec, log),
        Proto::TablutChallenge => super::challenge::preflight(config, spec, log),
    }
}

/// Describes a start-up failure as the referee reports it.
pub fn startup_fault(failure: Failure, what: &str, timeout: Duration) -> (Fault, String) {
    match failure {
        Failure::Exited(how) => (Fault::Crash, format!("{how} during {what}")),
        Failure::Timeout => (
            Fault::Protocol,
            format!("no answer to {what} within {} s", timeout.as_secs_f64()),
        ),
        Failure::Aborted => (Fault::Protocol, "aborted".into()),
    }
}

/// Starts the engine `spec` for the check before the match and runs `greet` (the protocol's
/// opening exchange, e.g. `uci` … `uciok`) within the start-up timeout. The error names the
/// engine and says what it failed to do: `answer` is the line it was to send, `task` the
/// exchange in words.
pub fn preflight_start<T>(
    config: &Config,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
    answer: &str,
    task: &str,
    greet: impl FnOnce(&mut EngineProcess, Duration, &AtomicBool) -> Result<T, Failure>,
) -> Result<(EngineProcess, T), String> {
    let never = AtomicBool::new(false);
    let mut e =
        EngineProcess::spawn(spec, log).map_err(|m| format!("engine '{}': {m}", spec.name))?;
    let greeting = greet(&mut e, config.startup_timeout, &never).map_err(|f| match f {
        Failure::Exited(how) => format!("engine '{}' {how} before {answer}", spec.name),
        _ => format!(
            "engine '{}' ({}) did not {task} within {} s",
            spec.name,
            spec.cmd.display(),
            config.startup_timeout.as_secs_f64()
        ),
    })?;
    Ok((e, greeting))
}
