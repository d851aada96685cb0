//! The match settings: the raw `key=value` groups of the command line turned into typed,
//! checked values, and the openings file. Every mistake is reported here, before any game.
//!
//! One file per job: [`time`](mod@time) (clocks and limits), [`engines`] (`--engine`/`--each` and the
//! protocol an engine speaks), [`openings`] (the openings file and `--openings`),
//! [`adjudication`] (`--resign`, `--draw`), [`values`] (the `key=value` reader); this file
//! puts them together with the match-wide flags into a [`MatchConfig`].

pub mod adjudication;
pub mod engines;
pub mod openings;
pub mod time;
pub mod values;

pub use adjudication::{DrawAdjudication, Resign};
pub use engines::{EngineSpec, Proto};
pub use openings::{Opening, OpeningOrder, OpeningsSource, load_openings};
pub use time::{MoveLimits, TimeControl, TimeControlError, TimeControlProblem, seconds_text};
pub use values::SettingError;

use super::error::{ConfigError, SprtError};
use super::options::MatchOptions;
use super::stats::Sprt;
use crate::shard::Shard;
use konakis_core::board::{BoardOf, START_FEN};
use konakis_core::geometry::Geometry;
use konakis_core::rules::{BoardSize, Rules, VARIANTS, Variant};
use std::path::PathBuf;
use std::time::Duration;
use values::{key_values, number};

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines.
    pub engines: Vec<EngineSpec>,
    /// The first engine plays each of the others (instead of everyone playing everyone).
    pub gauntlet: bool,
    /// Games per pairing (even: each opening twice).
    pub games_per_pairing: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings file, order and first line.
    pub openings: Option<(PathBuf, OpeningOrder, usize)>,
    /// Seed of the random opening order.
    pub seed: u64,
    /// Whether the seed was chosen by the runner (and should be printed).
    pub seed_chosen: bool,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// The game of the tafl family played (`--variant`), which decides the board, the start
    /// and the rules before `--rules`; `None` is Tablut by the rule options alone.
    pub variant: Option<&'static Variant>,
    /// The rules the referee applies and sends.
    pub rules: Rules,
    /// `.otg` records file.
    pub records: Option<PathBuf>,
    /// JSON summary file.
    pub json: Option<PathBuf>,
    /// Resignation adjudication.
    pub resign: Option<Resign>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// A draw is adjudicated once each side has played this many moves since the opening.
    pub maxmoves: Option<u32>,
    /// Hard limit for start-up and `isready`.
    pub startup_timeout: Duration,
    /// Hard limit for a move without a clock or fixed move time.
    pub move_timeout: Duration,
    /// Log of every line exchanged with the engines.
    pub log: Option<PathBuf>,
    /// The part of the match to play (`--shard K/N`); `None` = all of it.
    pub shard: Option<Shard>,
}

impl MatchConfig {
    /// Checks the command line. Engines are not started here.
    pub fn from_args(args: &MatchOptions) -> Result<MatchConfig, ConfigError> {
        let variant = match args.variant.as_deref() {
            None => None,
            Some(id) => Some(Variant::find(id).ok_or_else(|| {
                let ids: Vec<&str> = VARIANTS.iter().map(|v| v.id).collect();
                ConfigError::Rules(format!(
                    "--variant: unknown variant '{}' (variants: {})",
                    id.escape_default(),
                    ids.join(", ")
                ))
            })?),
        };
        let mut rules = variant.map_or_else(Rules::default, Variant::rules);
        for pair in &args.rules {
            rules
                .set_pair(pair)
                .map_err(|e| ConfigError::Rules(format!("--rules: {e}")))?;
        }
        let engines = engines::engines(&args.engines, &args.each)?;

        let games_per_pairing = match (args.games, args.rounds) {
            (Some(_), Some(_)) => {
                return Err(ConfigError::Games(
                    "give --games or --rounds, not both (--rounds N = --games 2N)".into(),
                ));
            }
            (Some(0), _) | (_, Some(0)) => {
                return Err(ConfigError::Games("--games must be at least 1".into()));
            }
            (Some(g), None) => g as usize,
            (None, Some(r)) => 2 * r as usize,
            (None, None) => 2,
        };
        // Pairs are the unit of play and of the statistics.
        let games_per_pairing = games_per_pairing.div_ceil(2) * 2;
        if args.concurrency == 0 {
            return Err(ConfigError::Games(
                "--concurrency must be at least 1".into(),
            ));
        }

        let (seed, seed_chosen) = match args.seed {
            Some(s) => (s, false),
            None => (
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64 % 1_000_000_000)
                    .unwrap_or(1),
                true,
            ),
        };
        let mut seed = seed;
        let mut seed_chosen = seed_chosen;
        let openings = match &args.openings {
            None => None,
            Some(items) => Some(
                openings::openings_flag(items, &mut seed, &mut seed_chosen)
                    .map_err(ConfigError::Openings)?,
            ),
        };

        let sprt = match &args.sprt {
            None => None,
            Some(items) => {
                let s = sprt_flag(items)?;
                let pairings = if args.gauntlet {
                    engines.len() - 1
                } else {
                    engines.len() * (engines.len() - 1) / 2
                };
                if pairings != 1 {
                    return Err(SprtError::TwoEngines.into());
                }
                Some(s)
            }
        };

        let resign = args
            .resign
            .as_deref()
            .map(adjudication::resign)
            .transpose()
            .map_err(ConfigError::Adjudication)?;
        let draw = args
            .draw
            .as_deref()
            .map(adjudication::draw)
            .transpose()
            .map_err(ConfigError::Adjudication)?;
        let secs = |flag: &str, s: f64| -> Result<Duration, ConfigError> {
            if s.is_finite() && s > 0.0 && s < 1e7 {
                Ok(Duration::from_secs_f64(s))
            } else {
                Err(ConfigError::Timeout(format!(
                    "{flag} must be a positive number of seconds"
                )))
            }
        };
        Ok(MatchConfig {
            engines,
            gauntlet: args.gauntlet,
            games_per_pairing,
            concurrency: args.concurrency,
            openings,
            seed,
            seed_chosen,
            sprt,
            variant,
            rules,
            records: args.records.clone(),
            json: args.json.clone(),
            resign,
            draw,
            maxmoves: args.maxmoves,
            startup_timeout: secs("--startup-timeout", args.startup_timeout)?,
            move_timeout: secs("--move-timeout", args.move_timeout)?,
            log: args.log.clone(),
            shard: args.shard.as_deref().map(Shard::parse).transpose()?,
        })
    }

    /// The board the games are played on.
    pub fn size(&self) -> BoardSize {
        self.variant.map_or(BoardSize::Nine, |v| v.size)
    }

    /// The games' start position (`startpos`) on the board `G`, which must be
    /// [`MatchConfig::size`]: the variant's start, or Tablut's, with the side to move that the
    /// rules move first.
    pub fn start<G: Geometry>(&self) -> BoardOf<G> {
        let placement = self.variant.map_or(START_FEN, |v| v.placement);
        let placement = placement.split_whitespace().next().unwrap_or_default();
        let mut board = BoardOf::<G>::from_fen(&format!("{placement} b 0"))
            .expect("the start position fits the match's board");
        board.set_side_to_move(self.rules.first_move);
        board
    }

    /// The rules as the summary, the JSON and the fingerprint write them: every rule option
    /// (Tablut), or `UCI_Variant=<id>` followed by the options set away from the variant's.
    pub fn rules_text(&self) -> String {
        let Some(variant) = self.variant else {
            return self.rules.to_string();
        };
        let base = variant.rules();
        let mut text = format!("UCI_Variant={}", variant.id);
        for o in Rules::OPTIONS {
            let value = self.rules.get(o.name).unwrap_or_default();
            if base.get(o.name).as_deref() != Some(value.as_str()) {
                text.push_str(&format!(" {}={value}", o.name));
            }
        }
        text
    }

    /// The pairings as engine indices (first, second): everyone against everyone, or the first
    /// against each of the others.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        if self.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
    }
}

/// Parses an `--sprt` group: `elo0=` and `elo1=` required, `alpha=` and `beta=` 0.05 unless
/// given. (`konakis match merge --sprt` reads the same group.)
pub fn sprt_flag(items: &[String]) -> Result<Sprt, SprtError> {
    let kv = key_values("--sprt", items, &["elo0", "elo1", "alpha", "beta"])?;
    let get = |k: &'static str, default: Option<f64>| -> Result<f64, SprtError> {
        match kv.iter().find(|(key, _)| *key == k) {
            Some((_, v)) => Ok(number("--sprt", k, v)?),
            None => default.ok_or(SprtError::Required(k)),
        }
    };
    let s = Sprt {
        elo0: get("elo0", None)?,
        elo1: get("elo1", None)?,
        alpha: get("alpha", Some(0.05))?,
        beta: get("beta", Some(0.05))?,
    };
    if s.elo1 <= s.elo0 {
        return Err(SprtError::Order);
    }
    if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
        return Err(SprtError::Risk);
    }
    if s.elo0.abs() >= 1000.0 || s.elo1.abs() >= 1000.0 {
        return Err(SprtError::EloRange);
    }
    Ok(s)
}

/// Match options for unit tests: one `--engine` group per slice of pairs, one game at a
/// time, one-second time-outs.
#[cfg(test)]
pub(crate) fn test_options(engines: &[&[&str]]) -> MatchOptions {
    MatchOptions {
        engines: engines
            .iter()
            .map(|g| g.iter().map(|s| s.to_string()).collect())
            .collect(),
        concurrency: 1,
        startup_timeout: 1.0,
        move_timeout: 1.0,
        ..MatchOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_without_timemargin_gets_the_default_for_its_time_control() {
        let c = MatchConfig::from_args(&test_options(&[
            &["cmd=/a", "st=0.1"],
            &["cmd=/b", "st=10"],
            &["cmd=/c", "tc=1+0.01", "timemargin=0"],
        ]))
        .unwrap();
        let margins: Vec<u64> = c.engines.iter().map(|e| e.limits.margin_ms).collect();
        assert_eq!(margins, [time::MIN_DEFAULT_MARGIN_MS, 1000, 0]);
    }

    #[test]
    fn command_line_mistakes_say_which_flag_in_the_words_of_before() {
        let e = MatchConfig::from_args(&test_options(&[&["cmd=/a", "depth=1"]])).unwrap_err();
        assert_eq!(e, ConfigError::TooFewEngines(1));
        assert!(
            e.to_string()
                .starts_with("a match needs at least two engines (got 1);")
        );
        let e = MatchConfig::from_args(&test_options(&[
            &["cmd=/a", "depth=1"],
            &["name=x", "depth=1"],
        ]))
        .unwrap_err();
        assert_eq!(
            e,
            ConfigError::Engine {
                index: 1,
                message: "--engine #2: no cmd= (the engine's program)".into()
            }
        );
        let mut o = test_options(&[&["cmd=/a", "depth=1"], &["cmd=/b", "depth=1"]]);
        o.sprt = Some(vec!["elo0=5".into(), "elo1=0".into()]);
        let e = MatchConfig::from_args(&o).unwrap_err();
        assert_eq!(e, ConfigError::Sprt(SprtError::Order));
        assert_eq!(e.to_string(), "--sprt: elo1 must be greater than elo0");
        o.sprt = Some(vec!["elo1=5".into()]);
        let e = MatchConfig::from_args(&o).unwrap_err();
        assert_eq!(e, ConfigError::Sprt(SprtError::Required("elo0")));
        assert_eq!(e.to_string(), "--sprt: elo0= is required");
        o.sprt = None;
        o.shard = Some("4/4".into());
        assert!(matches!(
            MatchConfig::from_args(&o).unwrap_err(),
            ConfigError::Shard(_)
        ));
        o.shard = Some("3/4".into());
        assert_eq!(
            MatchConfig::from_args(&o).unwrap().shard,
            Some(Shard { index: 3, count: 4 })
        );
    }

    #[test]
    fn sprt_errors_keep_their_words() {
        let e = sprt_flag(&["elo0=0".into(), "elo1=5".into(), "alpha=0.7".into()]).unwrap_err();
        assert_eq!(e, SprtError::Risk);
        assert_eq!(
            e.to_string(),
            "--sprt: alpha and beta must lie between 0 and 0.5"
        );
        let e = sprt_flag(&["elo0=x".into()]).unwrap_err();
        assert!(matches!(
            e,
            SprtError::Setting(SettingError::NotANumber { .. })
        ));
        assert_eq!(e.to_string(), "--sprt: bad elo0 'x' (expected a number)");
    }
}
