//! `konakis wdl-fit`: the win/draw/loss model of [`konakis_engine::wdl`] fitted to the results
//! of self-play games (`konakis datagen`'s files), and its check on games it was not fitted on
//! (docs/winchances.md).
//!
//! Each position of a data file is a sample: the search's score for the side to move, the
//! game's progress ([`wdl::progress`] under the family's rules) and the game's result from the
//! side to move's view. The games whose number is a multiple of the hold-out period are kept
//! out of the fit and give the check. For each family and side to move the model's twelve
//! coefficients maximise the likelihood of the results (they minimise the mean log loss, plus
//! a small ridge on the coefficients of the game's progress), found by argmin's Nelder-Mead
//! simplex, restarted around its best point until it no longer improves. The positions scored
//! exactly 0 (the search's draw score) are left out of the curves: their chances are their
//! outcomes' rates (with one win, one draw and one loss added, so that a rare case is not
//! certain), which is the likelihood's maximum for them.

use argmin::core::{CostFunction, Error as ArgminError, Executor, State};
use argmin::solver::neldermead::NelderMead;
use konakis_core::KingCapture;
use konakis_core::rules::Rules;
use konakis_core::types::Side;
use konakis_engine::network::RuleFamily;
use konakis_engine::wdl::{self, DEGREE, Model};
use konakis_nnue::data::{self, DataError};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Coefficients of one model: centre, width and scale, [`DEGREE`] + 1 each.
const PARAMETERS: usize = 3 * (DEGREE + 1);

/// The families that have a model, in the order of the engine's table.
pub const FAMILIES: [RuleFamily; 3] =
    [RuleFamily::Default, RuleFamily::English, RuleFamily::Ashton];

/// How a game ended for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoverResult {
    /// The side to move won.
    Win,
    /// A draw.
    Draw,
    /// The side to move lost.
    Loss,
}

/// One position: what the model sees and what happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The search's score, centi-soldiers, the side to move's view.
    pub cp: f64,
    /// The game's progress, 0 to 1 ([`wdl::progress`]).
    pub progress: f64,
    /// The game's result for the side to move.
    pub outcome: MoverResult,
    /// The game's number in its file.
    pub game: u32,
}

/// The positions of one family's data files, by side to move (attackers first).
#[derive(Clone, Debug, Default)]
pub struct FamilyData {
    /// Samples with the attackers to move.
    pub attackers: Vec<Sample>,
    /// Samples with the defenders to move.
    pub defenders: Vec<Sample>,
    /// Games read.
    pub games: usize,
}

impl FamilyData {
    /// The samples with `side` to move.
    pub fn side(&self, side: Side) -> &[Sample] {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }
}

/// Why the fit cannot be made.
#[derive(Debug, Error)]
pub enum WdlFitError {
    /// A data file cannot be read or is malformed (the reader's words name the fault).
    #[error("{}: {source}", path.display())]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: DataError,
    },
    /// A data file's family has no model (any other combination of rule options).
    #[error("{}: its rules ({family}) are not a family with a model (default, KingCapture=English, Ashton)", path.display())]
    Family {
        /// The file.
        path: PathBuf,
        /// Its family.
        family: RuleFamily,
    },
    /// Too few positions of one side to move to fit a model.
    #[error("{family}, {side} to move: {found} positions to fit on, at least {MIN_SAMPLES} needed")]
    TooFew {
        /// The family.
        family: RuleFamily,
        /// The side to move.
        side: Side,
        /// Positions found.
        found: usize,
    },
    /// The optimiser failed (its words).
    #[error("the optimiser failed: {0}")]
    Optimiser(String),
}

/// Fewest positions of a side to move that a model is fitted on.
pub const MIN_SAMPLES: usize = 200;

/// The rules a family's data were played under, as far as the model is concerned (the move
/// limit is the family's default).
pub fn family_rules(family: RuleFamily) -> Rules {
    match family {
        RuleFamily::English => Rules {
            king_capture: KingCapture::English,
            ..Rules::default()
        },
        RuleFamily::Ashton => Rules::ashton(),
        RuleFamily::Default | RuleFamily::Other => Rules::default(),
    }
}

/// Reads a data file's positions as samples, adding them to `into` (the family's data), and
/// returns the file's family.
pub fn read_file(path: &Path) -> Result<(RuleFamily, FamilyData), WdlFitError> {
    let file = data::read_tablut(path).map_err(|source| WdlFitError::Data {
        path: path.to_path_buf(),
        source,
    })?;
    let family = file.header.family;
    if family == RuleFamily::Other {
        return Err(WdlFitError::Family {
            path: path.to_path_buf(),
            family,
        });
    }
    let rules = family_rules(family);
    let mut out = FamilyData {
        games: file.games.len(),
        ..FamilyData::default()
    };
    for r in &file.records {
        let outcome = match r.mover_result() {
            x if x > 0.75 => MoverResult::Win,
            x if x < 0.25 => MoverResult::Loss,
            _ => MoverResult::Draw,
        };
        let sample = Sample {
            cp: f64::from(r.score),
            progress: wdl::progress(u32::from(r.plies), &rules),
            outcome,
            game: r.game,
        };
        if r.defenders_to_move {
            out.defenders.push(sample);
        } else {
            out.attackers.push(sample);
        }
    }
    Ok((family, out))
}

/// Whether a sample's game is held out of the fit: its number is a multiple of `period`.
pub fn held_out(sample: &Sample, period: u32) -> bool {
    sample.game.is_multiple_of(period)
}

/// The model's probability of what happened, never below 1e-9 (a certain model that is wrong
/// costs a large but finite loss).
fn likelihood(model: &Model, s: &Sample) -> f64 {
    let (win, loss) = model.probabilities(s.cp, s.progress);
    let p = match s.outcome {
        MoverResult::Win => win,
        MoverResult::Loss => loss,
        MoverResult::Draw => 1.0 - win - loss,
    };
    p.max(1e-9)
}

/// The mean log loss (negative log likelihood per position) of `model` on `samples`.
pub fn log_loss<'a>(model: &Model, samples: impl IntoIterator<Item = &'a Sample>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples {
        sum -= likelihood(model, s).ln();
        n += 1;
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The model of a parameter vector, whose coefficients are in soldiers (hundreds of
/// centi-soldiers) so that the simplex's steps are of one size.
fn model_of(p: &[f64]) -> Model {
    let mut m = Model {
        centre: [0.0; DEGREE + 1],
        width: [0.0; DEGREE + 1],
        scale: [0.0; DEGREE + 1],
        at_zero: (0.0, 0.0),
    };
    for i in 0..=DEGREE {
        m.centre[i] = p[i] * 100.0;
        m.width[i] = p[DEGREE + 1 + i] * 100.0;
        m.scale[i] = p[2 * (DEGREE + 1) + i] * 100.0;
    }
    m
}

/// The cost of the coefficients `free` of `base` (the others kept as they are).
struct Problem<'a> {
    samples: &'a [Sample],
    ridge: f64,
    base: Vec<f64>,
    free: Vec<usize>,
}

impl Problem<'_> {
    fn full(&self, p: &[f64]) -> Vec<f64> {
        let mut full = self.base.clone();
        for (&i, &x) in self.free.iter().zip(p) {
            full[i] = x;
        }
        full
    }
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, p: &Vec<f64>) -> Result<f64, ArgminError> {
        let full = self.full(p);
        Ok(log_loss(&model_of(&full), self.samples) + self.ridge * penalty(&full))
    }
}

/// Nelder-Mead over the coefficients `free` from `start`, restarted around its best point with
/// half the step until it gains less than 1e-7: the best coefficients and their cost.
fn minimise(
    samples: &[Sample],
    ridge: f64,
    start: Vec<f64>,
    free: Vec<usize>,
) -> Result<(Vec<f64>, f64), WdlFitError> {
    let problem = |base: Vec<f64>| Problem {
        samples,
        ridge,
        base,
        free: free.clone(),
    };
    let mut best_full = start;
    let mut best: Vec<f64> = free.iter().map(|&i| best_full[i]).collect();
    let mut best_loss = problem(best_full.clone())
        .cost(&best)
        .map_err(|e| WdlFitError::Optimiser(e.to_string()))?;
    let mut step = 0.5;
    for _ in 0..8 {
        let mut simplex = vec![best.clone()];
        for i in 0..best.len() {
            let mut vertex = best.clone();
            vertex[i] += step;
            simplex.push(vertex);
        }
        let solver = NelderMead::new(simplex)
            .with_sd_tolerance(1e-10)
            .map_err(|e| WdlFitError::Optimiser(e.to_string()))?;
        let result = Executor::new(problem(best_full.clone()), solver)
            .configure(|state| state.max_iters(3000))
            .run()
            .map_err(|e| WdlFitError::Optimiser(e.to_string()))?;
        let state = result.state();
        let (Some(param), loss) = (state.get_best_param(), state.get_best_cost()) else {
            return Err(WdlFitError::Optimiser("no best point".to_string()));
        };
        let improved = best_loss - loss;
        if loss < best_loss {
            best = param.clone();
            best_full = problem(best_full).full(&best);
            best_loss = loss;
        }
        if improved < 1e-7 {
            break;
        }
        step /= 2.0;
    }
    Ok((best_full, best_loss))
}

/// The sum of the squares of the coefficients that make the model change with the game's
/// progress (in soldiers): what the ridge weighs against the fit, so that a family with few
/// long games or few decisive ones does not get wild curves from its last few positions.
fn penalty(p: &[f64]) -> f64 {
    p.chunks(DEGREE + 1)
        .flat_map(|c| &c[1..])
        .map(|x| x * x)
        .sum()
}

/// The fitted model of one family and side to move, and its mean log loss on `samples`:
/// the model that minimises the mean log loss plus `ridge` times the squares of its
/// coefficients of the game's progress (in soldiers).
pub fn fit(
    family: RuleFamily,
    side: Side,
    samples: &[Sample],
    ridge: f64,
) -> Result<(Model, f64), WdlFitError> {
    let (zero, curve): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| s.cp == 0.0);
    if curve.len() < MIN_SAMPLES {
        return Err(WdlFitError::TooFew {
            family,
            side,
            found: curve.len(),
        });
    }
    let count = |o| zero.iter().filter(|s| s.outcome == o).count() as f64 + 1.0;
    let n = zero.len() as f64 + 3.0;
    let at_zero = (count(MoverResult::Win) / n, count(MoverResult::Loss) / n);
    let samples = &curve[..];
    // The start: a centre at the mean score, a narrow draw band, a scale of 2.5 soldiers, and
    // no change with the game's progress. The constant terms are fitted first, alone, then
    // all the coefficients from there (a simplex started far from the constant fit can stall
    // in a poor corner when one outcome is rare, as the attackers' win under English rules).
    let mean = samples.iter().map(|s| s.cp).sum::<f64>() / samples.len() as f64;
    let mut start = vec![0.0; PARAMETERS];
    start[0] = mean / 100.0;
    start[DEGREE + 1] = 0.5;
    start[2 * (DEGREE + 1)] = 2.5;
    let constants = vec![0, DEGREE + 1, 2 * (DEGREE + 1)];
    let (start, _) = minimise(samples, ridge, start, constants)?;
    let (best, _) = minimise(samples, ridge, start, (0..PARAMETERS).collect())?;
    let model = Model {
        at_zero,
        ..model_of(&best)
    };
    Ok((model, log_loss(&model, samples.iter().chain(&zero))))
}

/// What the check's buckets divide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BucketBy {
    /// The predicted expected score of the side to move, 0 to 1.
    Expected,
    /// The game's progress, 0 to 1 ([`wdl::progress`]).
    Progress,
}

/// One bucket of the check: positions whose predicted expected score for the side to move
/// (or progress) falls in `lower..upper`, with the mean predicted and the observed rates of a
/// win, a draw and a loss (each 0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    /// Lowest value of the bucket.
    pub lower: f64,
    /// Highest (excluded, but for the last bucket).
    pub upper: f64,
    /// Positions in it.
    pub positions: usize,
    /// Mean predicted win, draw and loss.
    pub predicted: [f64; 3],
    /// Observed win, draw and loss rates.
    pub observed: [f64; 3],
}

/// The check in `buckets` equal ranges of 0 to 1 of `by`, for samples each with the model of
/// its side to move.
pub fn calibration<'a>(
    pairs: impl IntoIterator<Item = (&'a Model, &'a Sample)>,
    buckets: usize,
    by: BucketBy,
) -> Vec<Bucket> {
    let mut out: Vec<Bucket> = (0..buckets)
        .map(|i| Bucket {
            lower: i as f64 / buckets as f64,
            upper: (i + 1) as f64 / buckets as f64,
            positions: 0,
            predicted: [0.0; 3],
            observed: [0.0; 3],
        })
        .collect();
    for (model, s) in pairs {
        let (win, loss) = model.probabilities(s.cp, s.progress);
        let draw = 1.0 - win - loss;
        let value = match by {
            BucketBy::Expected => win + draw / 2.0,
            BucketBy::Progress => s.progress,
        };
        let b = &mut out[((value * buckets as f64) as usize).min(buckets - 1)];
        b.positions += 1;
        for (sum, p) in b.predicted.iter_mut().zip([win, draw, loss]) {
            *sum += p;
        }
        let seen = match s.outcome {
            MoverResult::Win => 0,
            MoverResult::Draw => 1,
            MoverResult::Loss => 2,
        };
        b.observed[seen] += 1.0;
    }
    for b in &mut out {
        if b.positions > 0 {
            let n = b.positions as f64;
            b.predicted.iter_mut().for_each(|x| *x /= n);
            b.observed.iter_mut().for_each(|x| *x /= n);
        }
    }
    out
}

/// The check as a Markdown table (percentages), buckets without positions left out.
pub fn calibration_table(buckets: &[Bucket], by: BucketBy) -> String {
    let mut s = format!(
        "| {} | positions | predicted W / D / L % | observed W / D / L % |\n|---|---|---|---|\n",
        match by {
            BucketBy::Expected => "predicted expected score",
            BucketBy::Progress => "progress (share of the move limit)",
        }
    );
    for b in buckets.iter().filter(|b| b.positions > 0) {
        let pc = |x: &[f64; 3]| {
            format!(
                "{:.1} / {:.1} / {:.1}",
                x[0] * 100.0,
                x[1] * 100.0,
                x[2] * 100.0
            )
        };
        let _ = writeln!(
            s,
            "| {:.1}–{:.1} | {} | {} | {} |",
            b.lower,
            b.upper,
            b.positions,
            pc(&b.predicted),
            pc(&b.observed)
        );
    }
    s
}

/// The source of `crates/engine/src/wdl_table.rs`: the models by family (default,
/// KingCapture=English, Ashton) and side to move, with `provenance` (one line per data file or
/// command) in its comments.
pub fn table_source(models: &[[Model; 2]; 3], provenance: &[String]) -> String {
    let mut s = String::from(
        "// The fitted win-chance model's coefficients, included by wdl.rs.\n// Written by `konakis wdl-fit` (docs/winchances.md); not edited by hand.\n",
    );
    for line in provenance {
        let _ = writeln!(s, "// {line}");
    }
    s.push_str(
        "\n/// The fitted models: by family (default, KingCapture=English, Ashton), then side to\n\
         /// move (attackers, defenders). Coefficients in centi-soldiers, constant term first.\n\
         const MODELS: [[Model; 2]; 3] = [\n",
    );
    let coefficients = |c: &[f64; DEGREE + 1]| {
        let parts: Vec<String> = c.iter().map(|x| format!("{x:.3}")).collect();
        format!("[{}]", parts.join(", "))
    };
    for (family, pair) in FAMILIES.iter().zip(models) {
        let _ = writeln!(s, "    // {family}");
        s.push_str("    [\n");
        for (side, m) in Side::BOTH.iter().zip(pair) {
            let _ = writeln!(s, "        // {side} to move");
            let _ = writeln!(s, "        Model {{");
            let _ = writeln!(s, "            centre: {},", coefficients(&m.centre));
            let _ = writeln!(s, "            width: {},", coefficients(&m.width));
            let _ = writeln!(s, "            scale: {},", coefficients(&m.scale));
            let _ = writeln!(
                s,
                "            at_zero: ({:.4}, {:.4}),",
                m.at_zero.0, m.at_zero.1
            );
            let _ = writeln!(s, "        }},");
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::zobrist::splitmix64;

    /// Samples drawn from `model` with a fixed generator: scores from -1,000 to 1,000, progress
    /// from 0 to 1.
    fn drawn_from(model: &Model, n: usize) -> Vec<Sample> {
        let mut state = 7u64;
        let mut uniform = || (splitmix64(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
        (0..n)
            .map(|i| {
                let cp = (uniform() * 2000.0 - 1000.0).round();
                let progress = uniform();
                let (win, loss) = model.probabilities(cp, progress);
                let r = uniform();
                let outcome = if r < win {
                    MoverResult::Win
                } else if r < win + loss {
                    MoverResult::Loss
                } else {
                    MoverResult::Draw
                };
                Sample {
                    cp,
                    progress,
                    outcome,
                    game: i as u32,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_model_that_made_the_results() {
        let truth = Model {
            centre: [150.0, 0.0, 0.0, 0.0],
            width: [60.0, 0.0, 120.0, 0.0],
            scale: [220.0, 0.0, 0.0, 0.0],
            at_zero: (0.1, 0.2),
        };
        let samples = drawn_from(&truth, 20_000);
        let (fitted, loss) = fit(RuleFamily::Default, Side::Attackers, &samples, 0.0).unwrap();
        // No worse than the truth on its own samples, and close to it where the data are.
        // (The few samples scored exactly 0 get their smoothed rates, not quite the maximum.)
        assert!(loss <= log_loss(&truth, &samples) + 1e-3);
        // (Exactly 0 has its own few samples' rates; its neighbours follow the curves.)
        for cp in [-600.0, -200.0, 1.0, 200.0, 600.0] {
            for u in [0.1, 0.5, 0.9] {
                let (tw, tl) = truth.probabilities(cp, u);
                let (fw, fl) = fitted.probabilities(cp, u);
                assert!((tw - fw).abs() < 0.04 && (tl - fl).abs() < 0.04, "{cp} {u}");
            }
        }
        let buckets = calibration(samples.iter().map(|s| (&fitted, s)), 10, BucketBy::Expected);
        assert_eq!(
            buckets.iter().map(|b| b.positions).sum::<usize>(),
            samples.len()
        );
        for b in buckets.iter().filter(|b| b.positions > 500) {
            for k in 0..3 {
                assert!((b.predicted[k] - b.observed[k]).abs() < 0.05, "{b:?}");
            }
        }
    }

    #[test]
    fn a_score_of_zero_gets_the_rates_of_its_outcomes() {
        let truth = Model {
            centre: [0.0; 4],
            width: [50.0, 0.0, 0.0, 0.0],
            scale: [200.0, 0.0, 0.0, 0.0],
            at_zero: (0.3, 0.3),
        };
        let mut samples: Vec<Sample> = drawn_from(&truth, 2_000)
            .into_iter()
            .filter(|s| s.cp != 0.0)
            .collect();
        for (i, outcome) in [
            (20, MoverResult::Win),
            (70, MoverResult::Draw),
            (10, MoverResult::Loss),
        ] {
            samples.extend((0..i).map(|g| Sample {
                cp: 0.0,
                progress: 0.5,
                outcome,
                game: g,
            }));
        }
        let (fitted, _) = fit(RuleFamily::English, Side::Defenders, &samples, 1e-4).unwrap();
        assert_eq!(fitted.at_zero, (21.0 / 103.0, 11.0 / 103.0));
    }

    #[test]
    fn too_few_positions_are_refused() {
        let truth = Model {
            centre: [0.0; 4],
            width: [50.0, 0.0, 0.0, 0.0],
            scale: [200.0, 0.0, 0.0, 0.0],
            at_zero: (0.1, 0.1),
        };
        let samples = drawn_from(&truth, MIN_SAMPLES - 1);
        let e = fit(RuleFamily::Ashton, Side::Defenders, &samples, 0.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Ashton, defenders to move: 199 positions to fit on, at least 200 needed")
        );
    }

    #[test]
    fn the_table_source_holds_every_coefficient() {
        let m = Model {
            centre: [1.0, 2.0, 3.0, 4.0],
            width: [5.0, 6.0, 7.0, 8.0],
            scale: [9.0, 10.0, 11.0, 12.5],
            at_zero: (0.25, 0.5),
        };
        let text = table_source(&[[m; 2]; 3], &["data: x.bin".to_string()]);
        assert!(text.contains("// data: x.bin"));
        assert!(text.contains("scale: [9.000, 10.000, 11.000, 12.500],"));
        assert!(text.contains("at_zero: (0.2500, 0.5000),"));
        assert_eq!(text.matches("Model {").count(), 6);
    }
}
