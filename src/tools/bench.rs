//! `konakis bench` (to be written by the protocol work).

use clap::Args;
use std::process::ExitCode;

/// Arguments of `konakis bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {}

/// Runs `konakis bench`.
pub fn run(_args: BenchArgs) -> ExitCode {
    eprintln!("bench is not written yet");
    ExitCode::FAILURE
}
