//! The engine as the search tests drive it: made from settings, asked about a game of the
//! test's own ([`konakis::Engine::analyse`]).

use konakis::prelude::Options;
use konakis::search::{Cancel, Info, Limits, Settings};
use konakis::{Engine, Game, Move};

/// An engine with these settings and the default rules.
pub fn engine_with(settings: Settings) -> Engine {
    Engine::new(Options {
        settings,
        ..Options::default()
    })
    .expect("memory for the transposition table")
}

/// Searches `game` within `limits` on the calling thread: the best move and the last report
/// of the first line.
pub fn analyse(engine: &mut Engine, game: &Game, limits: Limits) -> (Option<Move>, Option<Info>) {
    let outcome = engine
        .analyse(game, limits, Cancel::Never)
        .expect("the search starts");
    (outcome.best, outcome.info)
}
