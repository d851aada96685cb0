//! The engine protocol (to be written).

use std::process::ExitCode;

/// Reads protocol commands on stdin until `quit` or end of input.
pub fn run_stdio() -> ExitCode {
    ExitCode::SUCCESS
}
