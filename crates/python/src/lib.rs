//! # konakis-python
//!
//! The extension module `konakis._konakis`: Konakis' rules and engine for Python, built by
//! maturin into the `konakis` package (python/README.md). The pure-Python parts of the package
//! (the protocol engine driver, the Gymnasium-style environment, the data reader) live in
//! `python/konakis/`; this crate holds what must run at native speed:
//!
//! - [`rules`]: [`rules::PyRules`] (every rule option, the presets) and [`game::PyGame`]
//!   (positions, legal moves, play with typed errors, undo, status, repetition and move-limit
//!   state, OpenTafl records, perft and random playouts run in Rust);
//! - [`engine`]: the search in-process through the one [`konakis_engine::Engine`]
//!   (limits, multi-PV, levels, win chances, game analysis), with the GIL released while it
//!   searches and a stop that works from any thread.
//!
//! Errors reach Python as subclasses of `KonakisError` ([`errors`]) whose `reason` attribute is
//! the Rust error's variant in kebab case (`occupied`, `blocked`, `rank-too-long`, ...), so a
//! program can tell them apart without reading the message.

// No `#![forbid(unsafe_code)]` here, unlike the other crates: PyO3's macros expand to
// `unsafe` blocks (the C API behind the bindings), which `forbid` would refuse. The crate's own
// code has none.

pub mod cli;
pub mod engine;
pub mod errors;
pub mod game;
pub mod rules;

use pyo3::prelude::*;

/// The module `konakis._konakis`.
#[pymodule]
fn _konakis(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("START_POSITION", konakis_core::board::START_FEN)?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyStatus>()?;
    // python-chess's name for the status of an ended game, what `Game.outcome()` returns.
    m.add("Outcome", m.py().get_type::<game::PyStatus>())?;
    m.add_class::<game::PyLegalMoves>()?;
    m.add_class::<engine::PyNativeEngine>()?;
    m.add_function(wrap_pyfunction!(game::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(game::action_of, m)?)?;
    m.add_function(wrap_pyfunction!(game::move_of, m)?)?;
    m.add_function(wrap_pyfunction!(cli::run_protocol, m)?)?;
    m.add_function(wrap_pyfunction!(cli::run_otep, m)?)?;
    errors::register(m)?;
    Ok(())
}
