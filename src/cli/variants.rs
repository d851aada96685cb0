//! `konakis variants`: the built-in presets, and a variants file's variants and mistakes.

use clap::{Args, Subcommand};
use konakis_core::rules::{PRESETS, Rules, VARIANTS};
use konakis_core::variants_file::{LoadError, VariantsFile};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `konakis variants`.
#[derive(Args, Debug)]
pub struct VariantsArgs {
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// List the built-in presets (the default) and the variants of FILE, with their rules.
    List {
        /// A variants file (docs/rules.md, "Variants files").
        file: Option<PathBuf>,
    },
    /// Check a variants file: print each mistake as FILE:LINE: message (exit status 1), or
    /// its variants (exit status 0).
    Check {
        /// The variants file.
        file: PathBuf,
    },
}

/// Runs `konakis variants`.
pub fn run(args: VariantsArgs) -> ExitCode {
    match args.action.unwrap_or(Action::List { file: None }) {
        Action::List { file } => {
            println!("Built-in presets (UCI_Variant):");
            for preset in PRESETS {
                print_variant(preset.id, &preset.rules());
                println!("    {}", preset.description);
            }
            println!("Games of the tafl family (UCI_Variant), each on its own board:");
            for variant in VARIANTS {
                println!("  {}: {}, {}", variant.id, variant.size, variant.name);
                println!("    {}", variant.source);
            }
            match file {
                None => ExitCode::SUCCESS,
                Some(path) => match load(&path) {
                    Some(house) => {
                        println!("{}:", path.display());
                        for v in house.variants() {
                            match v.game {
                                None => print_variant(&v.name, &v.rules),
                                Some(game) => println!(
                                    "  {}: {}, based on {}; {}",
                                    v.name, game.size, game.id, v.rules
                                ),
                            }
                        }
                        ExitCode::SUCCESS
                    }
                    None => ExitCode::FAILURE,
                },
            }
        }
        Action::Check { file } => match load(&file) {
            Some(house) => {
                let names: Vec<&str> = house.variants().iter().map(|v| v.name.as_str()).collect();
                println!(
                    "{}: no mistakes; {} variant(s): {}",
                    file.display(),
                    names.len(),
                    names.join(", ")
                );
                ExitCode::SUCCESS
            }
            None => ExitCode::FAILURE,
        },
    }
}

/// One variant's line: its name and its rule options.
fn print_variant(name: &str, rules: &Rules) {
    println!("  {name}: {rules}");
}

/// The file at `path`, or `None` after printing why not: each mistake as `FILE:LINE: message`
/// on stdout (what the check reports), an unreadable file on stderr.
fn load(path: &std::path::Path) -> Option<VariantsFile> {
    match VariantsFile::load(path) {
        Ok(house) => Some(house),
        Err(LoadError::Mistakes(errors)) => {
            for e in &errors {
                if e.line == 0 {
                    println!("{}: {}", path.display(), e.kind);
                } else {
                    println!("{}:{}: {}", path.display(), e.line, e.kind);
                }
            }
            None
        }
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}
