//! `konakis quantize`: a float network file (what `konakis train` writes) to the quantized
//! file the engine carries its built-in networks in.

use clap::Args;
use konakis::network::{LoadedNet, NetError};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `konakis quantize`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example, after training a network that is to be built in:
  konakis quantize crates/engine/nets/ashton-2.nnue

writes crates/engine/nets/ashton-2.qnnue, the integer weights the engine makes from the float
file when it loads it (the same evaluation, bit for bit), half the size and about a third of
it compressed. EvalFile takes either file. docs/nnue.md describes both formats."
)]
pub struct QuantizeArgs {
    /// The float network file.
    pub input: PathBuf,
    /// The quantized file to write (default: the input's name with the extension .qnnue).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// Runs `konakis quantize`: 0 when the file is written, 1 (with one line on stderr) when the
/// input is not a network the engine runs or the output cannot be written.
pub fn run(args: QuantizeArgs) -> ExitCode {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.input.with_extension("qnnue"));
    if out == args.input {
        eprintln!(
            "error: {} would be overwritten: give --out another file",
            out.display()
        );
        return ExitCode::FAILURE;
    }
    let net = match LoadedNet::load(&args.input) {
        Ok(n) => n,
        // A read error names the file already.
        Err(e @ NetError::Io { .. }) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.input.display());
            return ExitCode::FAILURE;
        }
    };
    let bytes = net.to_quantized();
    // Written aside and renamed, so that a reader never sees half a file.
    let mut part = out.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    if let Err(e) = std::fs::write(&part, &bytes).and_then(|_| std::fs::rename(&part, &out)) {
        let _ = std::fs::remove_file(&part);
        eprintln!("error: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    // The file is read back as the engine will read it.
    if let Err(e) = LoadedNet::load(&out) {
        eprintln!("error: {} does not load back: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!(
        "{}: {} bytes, {} hidden units, {} network, quantized from {} (checksum {:08x})",
        out.display(),
        bytes.len(),
        net.net.hidden(),
        net.family().name(),
        args.input.display(),
        net.checksum
    );
    ExitCode::SUCCESS
}
