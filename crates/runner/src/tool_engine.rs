//! The engine the runner's own tools search with (openings, tuning, training data): one
//! thread of the default options with the settings a tool asks for.

use konakis_engine::Engine;
use konakis_engine::options::Options;
use konakis_engine::search::Settings;

/// The table of the tools that need no more: openings and tuning search shallow positions.
pub(crate) const SMALL_HASH_MIB: usize = 4;

/// An engine with `settings` and the other options at their defaults. Panics only when the
/// system refuses the memory of its table, as the engine's own constructor does.
pub(crate) fn tool_engine(settings: Settings) -> Engine {
    Engine::new(Options {
        settings,
        ..Options::default()
    })
    .expect("memory for the transposition table")
}

/// An engine with a small table ([`SMALL_HASH_MIB`]) and every other setting at its default.
pub(crate) fn small_engine() -> Engine {
    tool_engine(Settings {
        hash_mib: SMALL_HASH_MIB,
        ..Settings::default()
    })
}
