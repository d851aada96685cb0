//! Start-up helpers every protocol uses: the check before the match and the words for an
//! engine that failed to start.

use super::types::Fault;
use crate::matches::config::{EngineSpec, MatchConfig};
use crate::matches::engine::{EngineProcess, Failure, Log};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
pub(crate) fn preflight_start<T>(
    config: &MatchConfig,
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
