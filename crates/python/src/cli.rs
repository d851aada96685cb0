//! The wheel's `konakis` command (python/konakis/_cli.py): Konakis' line protocol and OpenTafl
//! mode on stdin and stdout, run in-process by the protocols crate's own loops, so that
//! `Engine.popen(["konakis"])` works after `pip install` without the native program.

use crate::errors;
use konakis_protocols::opentafl::otep::{OtepConfig, serve};
use konakis_protocols::protocol;
use pyo3::prelude::*;

/// Runs the line protocol (protocol.md) on the process' stdin and stdout until `quit` or the
/// end of the input, as `konakis` with no command does. Raises SearchError (reason `engine`)
/// if the engine cannot be set up.
#[pyfunction]
pub fn run_protocol(py: Python<'_>) -> PyResult<()> {
    py.allow_threads(|| protocol::run(std::io::stdin(), std::io::stdout()))
        .map_err(|e| errors::search(e, "engine"))
}

/// Runs OpenTafl's engine protocol on stdin and stdout until `goodbye` or the end of the
/// input, as `konakis otep` does with the flags of the same names (`movetime` and `max_time`
/// in milliseconds, `hash` in MiB). Raises SearchError (reason `engine`) for a setting the
/// engine refuses.
#[pyfunction]
#[pyo3(signature = (*, movetime=5_000, threads=1, hash=64, max_time=None, skill=None, elo=None))]
pub fn run_otep(
    py: Python<'_>,
    movetime: u64,
    threads: u64,
    hash: u64,
    max_time: Option<u64>,
    skill: Option<i64>,
    elo: Option<i64>,
) -> PyResult<()> {
    let config = OtepConfig {
        movetime,
        threads,
        hash_mib: hash,
        max_time,
        skill,
        elo,
    };
    py.allow_threads(|| serve(std::io::stdin(), std::io::stdout(), config))
        .map_err(|e| errors::search(e, "engine"))
}
