//! What the referee and every player share: the [`Player`] trait that the referee drives, the
//! request and the answer of a move, the clocks, and the [`Fault`]s that lose a game.
//!
//! The referee owns the game: it keeps the clocks, decides every deadline, checks every move
//! with the library and declares the result. A `Player` only carries messages: it tells its
//! engine about a new game, the moves so far and the clocks in the engine's own language, and
//! brings back the move text the engine chose. Each protocol is one implementation in its own
//! file of [`players`](super); the factory there starts the one a `proto=` names.

use crate::matches::config::{MoveLimits, Opening};
use crate::matches::engine::Failure;
use konakis_core::board::GameOf;
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{BySide, MoveOf, Side};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A kind of fault that loses a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Overstepped its clock or move time, or never answered.
    Time,
    /// The process died or could not be started.
    Crash,
    /// A malformed or illegal move.
    Illegal,
    /// Broke the protocol otherwise (no `uciok`/`readyok`, `bestmove (none)` in a live game).
    Protocol,
}

impl Fault {
    /// A short word for records and JSON.
    pub fn word(self) -> &'static str {
        match self {
            Fault::Time => "time",
            Fault::Crash => "crash",
            Fault::Illegal => "illegal",
            Fault::Protocol => "protocol",
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

/// Everything a player may need to ask its engine for a move, on a board of size `G`.
pub struct MoveRequest<'a, G: Geometry = Nine> {
    /// The opening the game started from.
    pub opening: &'a Opening<G>,
    /// The moves played since the opening, both sides.
    pub moves: &'a [MoveOf<G>],
    /// The game now (history, rules, side to move: the player's side).
    pub game: &'a GameOf<G>,
    /// Both sides' limits (the mover's own and the opponent's, for clock messages).
    pub limits: BySide<&'a MoveLimits>,
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
    /// How long the engine's threads waited for a CPU during the move (the largest wait of
    /// one thread, [`cpu_wait`](crate::matches::cpu_wait)); measured only for an answer that
    /// came after the deadline, zero otherwise and where it cannot be measured.
    pub cpu_wait: Duration,
}

/// How a game ended, as a player tells its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// That side won (by the rules, a forfeit or adjudication).
    Win(Side),
    /// A draw.
    Draw,
}

/// One running engine, as the referee drives it, playing on a board of size `G`.
pub trait Player<G: Geometry = Nine>: Send {
    /// Prepares the engine for a new game starting from `opening`; returns once it is ready.
    fn new_game(&mut self, opening: &Opening<G>, abort: &AtomicBool) -> Result<(), Failure>;

    /// Waits until the engine may hear about the next move, before the referee starts its
    /// clock and computes the request's deadline: the wait is on no clock and is not the
    /// runner's overhead. Only OTEP engines wait (`settle=`, module `otep`); the
    /// others are ready at once.
    fn settle(&mut self, _abort: &AtomicBool) -> Result<(), Failure> {
        Ok(())
    }

    /// Asks for a move in `request.game` and waits for it until `request.deadline`.
    fn request_move(
        &mut self,
        request: &MoveRequest<G>,
        abort: &AtomicBool,
    ) -> Result<Answer, Failure>;

    /// After a timeout: tries to bring the engine back to a state where it can play the next
    /// game. `false` when it did not answer, so it must be restarted.
    fn recover(&mut self, abort: &AtomicBool) -> bool;

    /// Tells the engine how the game ended (protocols that have such a message).
    fn game_over(&mut self, game: &GameOf<G>, end: GameEnd);

    /// Ends the engine: politely, then by force after `grace`.
    fn quit(self: Box<Self>, grace: Duration);
}
