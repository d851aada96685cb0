//! The players: the match runner's side of each engine protocol, behind one trait.
//!
//! - [`types`]: what the referee and every player share (the [`Player`] trait, requests,
//!   answers, clocks, faults). A leaf: it uses the settings and the process layer, never a
//!   protocol or the referee.
//! - [`startup`]: start-up helpers the protocols share (the check before the match, the words
//!   for a failed start).
//! - [`uci`]: the line protocol of protocol.md; [`otep`]: the OpenTafl Engine Protocol;
//!   [`challenge`]: a Tablut Challenge agent, the runner playing the server's part.
//! - This file: the factory, the one place that maps a [`Proto`] to its player.
//!
//! Adding a protocol means a [`Proto`] value, a file here and a branch in [`start`] and in
//! `preflight` (the check before the match, private to the runner).

pub mod challenge;
pub mod otep;
pub mod startup;
pub mod types;
pub mod uci;

pub use super::config::Proto;
pub use types::{Answer, Clock, Fault, GameEnd, MoveRequest, Player};

use super::config::{EngineSpec, MatchConfig};
use super::engine::Log;
use konakis_core::geometry::{Geometry, Nine};
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Starts the engine `spec` for a match under `config` on the board `G` (the config's), ready
/// for [`Player::new_game`].
pub fn start<G: Geometry>(
    config: &MatchConfig,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
    abort: &AtomicBool,
) -> Result<Box<dyn Player<G>>, (Fault, String)> {
    match spec.proto {
        Proto::Uci => uci::UciPlayer::start(config, spec, log, abort)
            .map(|p| Box::new(p) as Box<dyn Player<G>>),
        Proto::Otep => otep::OtepPlayer::<G>::start(config, spec, log, abort)
            .map(|p| Box::new(p) as Box<dyn Player<G>>),
        Proto::TablutChallenge => {
            // The Tablut Challenge plays 9x9 only; `preflight` refuses other boards.
            let player = challenge::ChallengePlayer::start(config, spec, log, abort)
                .map(|p| Box::new(p) as Box<dyn Player<Nine>>)?;
            let player: Box<dyn Any> = Box::new(player);
            player
                .downcast::<Box<dyn Player<G>>>()
                .map(|p| *p)
                .map_err(|_| (Fault::Protocol, challenge::NINE_ONLY.to_string()))
        }
    }
}

/// Checks before the match that the engine `spec` starts and speaks its protocol; returns
/// warnings (e.g. options it does not announce). An error stops the match before any game.
pub(crate) fn preflight(
    config: &MatchConfig,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
) -> Result<Vec<String>, String> {
    match spec.proto {
        Proto::Uci => uci::preflight(config, spec, log),
        Proto::Otep => otep::preflight(config, spec, log),
        Proto::TablutChallenge => challenge::preflight(config, spec, log),
    }
}
