//! `konakis openings` (to be written).

use clap::Args;
use std::process::ExitCode;

/// Arguments of `konakis openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {}

/// Runs `konakis openings`.
pub fn run(_args: OpeningsArgs) -> ExitCode {
    eprintln!("openings is not written yet");
    ExitCode::FAILURE
}
