//! What `konakis match` is asked for: its flags as given, before `MatchConfig` (module
//! `config`, which reads this one) checks them.

use std::path::PathBuf;

/// The flags of `konakis match`, as given; `MatchConfig::from_args` checks them.
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    /// One `key=value` group per `--engine`.
    pub engines: Vec<Vec<String>>,
    /// The groups of every `--each`.
    pub each: Vec<Vec<String>>,
    /// `--gauntlet`.
    pub gauntlet: bool,
    /// `--games N`.
    pub games: Option<u64>,
    /// `--rounds N`.
    pub rounds: Option<u64>,
    /// `--concurrency K`.
    pub concurrency: usize,
    /// `--openings FILE [order=…] [seed=…] [start=…]`.
    pub openings: Option<Vec<String>>,
    /// `--seed N`.
    pub seed: Option<u64>,
    /// `--sprt elo0= elo1= [alpha=] [beta=]`.
    pub sprt: Option<Vec<String>>,
    /// `--variant NAME`: a game of the tafl family (an id of `konakis variants`).
    pub variant: Option<String>,
    /// Every `Name=Value` of every `--rules`.
    pub rules: Vec<String>,
    /// `--records FILE|DIR/|NAME{game}.otg`.
    pub records: Option<PathBuf>,
    /// `--json FILE`.
    pub json: Option<PathBuf>,
    /// `--resign movecount= score= [twosided=]`.
    pub resign: Option<Vec<String>>,
    /// `--draw movenumber= movecount= score=`.
    pub draw: Option<Vec<String>>,
    /// `--maxmoves N`.
    pub maxmoves: Option<u32>,
    /// `--startup-timeout S`.
    pub startup_timeout: f64,
    /// `--move-timeout S`.
    pub move_timeout: f64,
    /// `--log FILE`.
    pub log: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<String>,
}
