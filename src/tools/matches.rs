//! `konakis match` (to be written).

use clap::Args;
use std::process::ExitCode;

/// Arguments of `konakis match`.
#[derive(Args, Debug)]
pub struct MatchArgs {}

/// Runs `konakis match`.
pub fn run(_args: MatchArgs) -> ExitCode {
    eprintln!("match is not written yet");
    ExitCode::FAILURE
}
