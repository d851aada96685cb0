//! `konakis train`: its arguments, and the reading of the data files.

use clap::Args;
use konakis_nnue::data;
use konakis_nnue::network::Network;
use konakis_nnue::train::{self, Progress, TrainConfig};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `konakis train`.
#[derive(Args, Debug)]
#[command(after_help = "Example:
  konakis train --data default-*.bin --out default.nnue --epochs 20

The network is written after every epoch (through a temporary file), so an interrupted run
leaves the last epoch's network. docs/nnue.md describes the architecture and the file.")]
pub struct TrainArgs {
    /// Data files written by `konakis datagen` (all of one rule family).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Hidden units (the shipped inference runs 256).
    #[arg(long, default_value_t = TrainConfig::default().hidden)]
    pub hidden: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = TrainConfig::default().lr)]
    pub lr: f32,
    /// Factor applied to the learning rate after each epoch.
    #[arg(long, default_value_t = TrainConfig::default().lr_decay)]
    pub lr_decay: f32,
    /// Weight of the search score in the target; the game result gets 1 - lambda.
    #[arg(long, default_value_t = TrainConfig::default().lambda)]
    pub lambda: f32,
    /// Centi-soldiers per unit of the network's output (the sigmoid's scale).
    #[arg(long, default_value_t = TrainConfig::default().scale)]
    pub scale: f32,
    /// Games held out for validation, per thousand.
    #[arg(long, default_value_t = TrainConfig::default().validation_permille)]
    pub validation: u32,
    /// Seed of the initial weights, the split and the shuffles.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    pub seed: u64,
    /// Training threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start from this network's weights instead of random ones (same hidden units, rule
    /// family and scale): a network trained further on new data.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Show each training position in one of the board's eight orientations (rotations and
    /// reflections), drawn anew for each epoch: the rules are the same in all eight.
    #[arg(long)]
    pub symmetries: bool,
}

/// Runs `konakis train`.
pub fn run(args: TrainArgs) -> ExitCode {
    match train_files(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn train_files(args: &TrainArgs) -> Result<(), String> {
    let mut records = Vec::new();
    for path in &args.data {
        let file = data::read_tablut(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if file.torn_bytes > 0 {
            eprintln!(
                "train: {}: {} bytes after the last whole game left out",
                path.display(),
                file.torn_bytes
            );
        }
        eprintln!(
            "train: {}: {} positions of {} games ({})",
            path.display(),
            file.records.len(),
            file.games.len(),
            file.header.family
        );
        records.extend(file.records);
    }
    let initial = match &args.init {
        Some(path) => Some(Network::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let config = TrainConfig {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_decay: args.lr_decay,
        lambda: args.lambda,
        scale: args.scale,
        validation_permille: args.validation,
        seed: args.seed,
        symmetries: args.symmetries,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut save_error = None;
    let net = pool.install(|| {
        train::train_from(&records, &config, initial, |p, net| match p {
            Progress::Start {
                train,
                validation,
                validation_loss,
            } => eprintln!(
                "train: {train} training and {validation} validation positions, {} hidden \
                 units, {} threads; validation loss {validation_loss:.6}",
                config.hidden,
                rayon::current_num_threads()
            ),
            Progress::Batch {
                epoch,
                done,
                positions_per_second,
            } => eprintln!("train: epoch {epoch}: {done} positions, {positions_per_second:.0}/s"),
            Progress::Epoch {
                epoch,
                train_loss,
                validation_loss,
                positions_per_second,
            } => {
                println!(
                    "epoch {epoch}: train loss {train_loss:.6}, validation loss \
                     {validation_loss:.6}, {positions_per_second:.0} positions/s, {:.0} s",
                    start.elapsed().as_secs_f64()
                );
                if let Err(e) = net.save(&args.out) {
                    save_error.get_or_insert(e);
                }
            }
        })
    });
    let net: Network = net.map_err(|e| e.to_string())?;
    if let Some(e) = save_error {
        return Err(e.to_string());
    }
    net.save(&args.out).map_err(|e| e.to_string())?;
    eprintln!("train: wrote {}", args.out.display());
    Ok(())
}
