//! `konakis wdl-fit`: fits the win/draw/loss model to self-play data, checks it on held-out
//! games, and writes the engine's table of models (docs/winchances.md).

use clap::Args;
use konakis_core::types::Side;
use konakis_engine::network::RuleFamily;
use konakis_engine::wdl::{self, Model};
use konakis_runner::wdl_fit::{
    self, BucketBy, FAMILIES, FamilyData, calibration, calibration_table, log_loss,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `konakis wdl-fit`.
#[derive(Args, Debug)]
#[command(after_help = "Example (the data of docs/winchances.md):
  konakis wdl-fit --data default.bin english.bin ashton.bin --ridge 1e-4 default=1e-5 \
                 --out crates/engine/src/wdl_table.rs

Each file's family (its header) decides which model its positions fit; several files of a
family are taken together. A family without a file keeps the model the engine has now. The
games whose number is a multiple of --holdout are left out of the fit, and the model is checked
on them: predicted against observed win, draw and loss rates by bucket, as Markdown tables.")]
pub struct WdlFitArgs {
    /// Data files written by `konakis datagen`, of the default rules, `KingCapture=English` or
    /// Ashton.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Games whose number is a multiple of this are held out of the fit and check it.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..))]
    pub holdout: u32,
    /// Weight of the squares of the coefficients of the game's progress (in soldiers) against
    /// the mean log loss: keeps the curves tame where few positions are. A number for every
    /// family, or FAMILY=NUMBER (default, english, ashton) for one; later ones win.
    #[arg(long, num_args = 1.., default_values_t = ["1e-4".to_string()])]
    pub ridge: Vec<String>,
    /// Buckets of the check's tables.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub buckets: u32,
    /// Write the engine's table of models (crates/engine/src/wdl_table.rs) here.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// Runs `konakis wdl-fit`: 0 when the models are fitted (and written), 1 with one line on
/// stderr when a file cannot be read or a model cannot be fitted.
pub fn run(args: WdlFitArgs) -> ExitCode {
    match fit_all(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The ridge of each family (in [`FAMILIES`] order) from `--ridge`'s values.
fn ridges(values: &[String]) -> Result<[f64; 3], String> {
    let mut out = [0.0; 3];
    for v in values {
        let (families, number) = match v.split_once('=') {
            Some((name, number)) => {
                let i = match name.to_ascii_lowercase().as_str() {
                    "default" => 0,
                    "english" => 1,
                    "ashton" => 2,
                    _ => {
                        return Err(format!(
                            "--ridge {v}: unknown family '{name}' (default, english, ashton)"
                        ));
                    }
                };
                (i..=i, number)
            }
            None => (0..=2, v.as_str()),
        };
        let x: f64 = number
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| format!("--ridge {v}: not a number of 0 or more"))?;
        out[families].iter_mut().for_each(|r| *r = x);
    }
    Ok(out)
}

fn fit_all(args: &WdlFitArgs) -> Result<(), Box<dyn std::error::Error>> {
    let ridge = ridges(&args.ridge)?;
    let mut by_family: Vec<(FamilyData, Vec<String>)> = vec![Default::default(); 3];
    for path in &args.data {
        let (family, data) = wdl_fit::read_file(path)?;
        let i = FAMILIES.iter().position(|f| *f == family).unwrap_or(0);
        let (all, names) = &mut by_family[i];
        all.attackers.extend(data.attackers);
        all.defenders.extend(data.defenders);
        all.games += data.games;
        names.push(format!(
            "{} ({} games)",
            path.file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy(),
            data.games
        ));
    }
    let mut models = [[*wdl::model(RuleFamily::Default, Side::Attackers); 2]; 3];
    // A family without data keeps its model, and the line that says where it came from.
    let previous = args
        .out
        .as_ref()
        .and_then(|out| std::fs::read_to_string(out).ok())
        .unwrap_or_default();
    let mut provenance = vec![format!(
        "konakis wdl-fit --holdout {} --ridge {} --data <files below>",
        args.holdout,
        args.ridge.join(" ")
    )];
    for (i, family) in FAMILIES.iter().enumerate() {
        let (data, names) = &by_family[i];
        for side in Side::BOTH {
            models[i][side as usize] = *wdl::model(*family, side);
        }
        if names.is_empty() {
            let said = format!("// {family}: ");
            provenance.push(
                previous
                    .lines()
                    .find_map(|l| l.strip_prefix("// ").filter(|_| l.starts_with(&said)))
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{family}: kept from the previous table")),
            );
            continue;
        }
        provenance.push(format!(
            "{family}: {}, ridge {}, hold-out period {}",
            names.join(", "),
            ridge[i],
            args.holdout
        ));
        println!("## {family}: {} games", data.games);
        println!();
        println!(
            "| side to move | fitted on | held out | log loss, fit | log loss, held out | \
             held out, constant rates |"
        );
        println!("|---|---|---|---|---|---|");
        for side in Side::BOTH {
            let samples = data.side(side);
            let (train, test): (Vec<_>, Vec<_>) = samples
                .iter()
                .partition(|s| !wdl_fit::held_out(s, args.holdout));
            let (model, loss) = wdl_fit::fit(*family, side, &train, ridge[i])?;
            models[i][side as usize] = model;
            println!(
                "| {side} | {} | {} | {loss:.4} | {:.4} | {:.4} |",
                train.len(),
                test.len(),
                log_loss(&model, test.iter()),
                log_loss(&constant_rates(&train), test.iter()),
            );
        }
        println!();
        let held_out = || {
            Side::BOTH.into_iter().flat_map(|side| {
                let model = &models[i][side as usize];
                data.side(side)
                    .iter()
                    .filter(|s| wdl_fit::held_out(s, args.holdout))
                    .map(move |s| (model, s))
            })
        };
        for by in [BucketBy::Expected, BucketBy::Progress] {
            let buckets = calibration(held_out(), args.buckets as usize, by);
            println!("{}", calibration_table(&buckets, by));
        }
        for side in Side::BOTH {
            let m = &models[i][side as usize];
            println!(
                "{side} to move: centre {:?}, width {:?}, scale {:?}",
                m.centre, m.width, m.scale
            );
        }
        println!();
    }
    if let Some(out) = &args.out {
        let text = wdl_fit::table_source(&models, &provenance);
        std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// The baseline: each outcome at its rate among `samples`, whatever the score (a model with no
/// slope: a scale so large that the score does not count).
fn constant_rates(samples: &[wdl_fit::Sample]) -> Model {
    let n = samples.len().max(1) as f64;
    let rate = |o| samples.iter().filter(|s| s.outcome == o).count() as f64 / n;
    let (win, loss) = (
        rate(wdl_fit::MoverResult::Win).max(1e-6),
        rate(wdl_fit::MoverResult::Loss).max(1e-6),
    );
    // win = 1 / (1 + e^((c + w) / s)) and loss = 1 / (1 + e^((w - c) / s)) at a score of 0,
    // with s large enough that no score in the data moves them.
    let scale = 1e9;
    let logit = |p: f64| (1.0 / p - 1.0).ln();
    let (a, b) = (logit(win), logit(loss));
    Model {
        centre: [(a - b) / 2.0 * scale, 0.0, 0.0, 0.0],
        width: [(a + b) / 2.0 * scale, 0.0, 0.0, 0.0],
        scale: [scale, 0.0, 0.0, 0.0],
        at_zero: (win, loss),
    }
}
