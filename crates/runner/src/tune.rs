//! `konakis tune`: fit the evaluation's weights to game results.
//!
//! Two steps. `konakis tune selfplay` plays games of Konakis against itself (a few random
//! opening plies, then short node-limited searches) on all cores and writes every quiet
//! position with the game's result. `konakis tune fit` then fits the weights of the linear
//! evaluation by minimising the squared error between the result and a logistic function of the
//! evaluation (Texel's method), and returns them for the form `eval::WEIGHTS` takes. Both
//! return what they found; the binary prints it.

use crate::error::TuneError;
use crate::shard::Shard;
use crate::tool_engine::small_engine;
use konakis_core::board::{Game, Status};
use konakis_core::rules::Rules;
use konakis_core::types::Side;
use konakis_engine::eval::{FEATURE_COUNT, FEATURES, Features, features, weights};
use konakis_engine::search::{Cancel, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::fs;
use std::io::Write;

/// The rules from `Name=Value` options.
pub fn rules_from(options: &[String]) -> Result<Rules, TuneError> {
    let mut rules = Rules::default();
    for pair in options {
        rules
            .set_pair(pair)
            .map_err(|e| TuneError::Rules(e.to_string()))?;
    }
    Ok(rules)
}

/// One self-play game: its quiet positions and its result (attackers' score).
fn play_one(rules: Rules, nodes: u64, random_plies: usize, seed: u64) -> (Vec<String>, f64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::start(rules);
    for _ in 0..random_plies {
        let moves = game.board().legal_moves(&rules);
        if moves.is_empty() || game.status().is_over() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut engine = small_engine();
    let mut positions = Vec::new();
    while !game.status().is_over() {
        let board = *game.board();
        // Positions where the king already sees the edge are decided by search, not judgement.
        if (board.king_moves(&rules) & konakis_core::Bitboard::EDGE).is_empty() {
            positions.push(board.to_fen());
        }
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let outcome = engine.analyse(&game, limits, Cancel::Never);
        match outcome.map(|o| o.best) {
            Ok(Some(mv)) if game.play(mv).is_ok() => {}
            _ => break,
        }
    }
    let result = match game.status() {
        Status::Win(Side::Attackers, _) => 1.0,
        Status::Win(Side::Defenders, _) => 0.0,
        _ => 0.5,
    };
    (positions, result)
}

/// What a self-play run played and wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selfplay {
    /// The games played (those of the shard).
    pub games: usize,
    /// The quiet positions recorded per game, on average.
    pub per_game: f64,
    /// Games won by the attackers.
    pub attackers: usize,
    /// Games won by the defenders.
    pub defenders: usize,
    /// Games drawn.
    pub draws: usize,
    /// The lines written (one position each).
    pub positions: usize,
}

/// Plays `games` games of self-play (those of `shard`) and writes their quiet positions with
/// the results to `out` (see the module docs); returns what it played and wrote.
pub fn selfplay(
    rules: Rules,
    games: usize,
    nodes: u64,
    random_plies: usize,
    seed: u64,
    shard: Shard,
    out: &str,
) -> Result<Selfplay, TuneError> {
    // Game g has its own seed; a shard plays the games g with g mod N = K, so the shards
    // never repeat a game and together write the lines of the unsharded run.
    let mine: Vec<usize> = (0..games).filter(|&g| shard.takes(g)).collect();
    let games = mine.len();
    let results: Vec<(Vec<String>, f64)> = mine
        .into_par_iter()
        .map(|g| {
            play_one(
                rules,
                nodes,
                random_plies,
                seed.wrapping_mul(1_000_003) + g as u64,
            )
        })
        .collect();
    let mut file = fs::File::create(out).map_err(|source| TuneError::Write {
        path: out.to_string(),
        source,
    })?;
    let (mut att, mut def, mut draw, mut lines) = (0, 0, 0, 0);
    let plies: usize = results.iter().map(|(p, _)| p.len()).sum();
    for (positions, result) in &results {
        match *result {
            r if r > 0.75 => att += 1,
            r if r < 0.25 => def += 1,
            _ => draw += 1,
        }
        for p in positions {
            writeln!(file, "{p};{result}").map_err(TuneError::Output)?;
            lines += 1;
        }
    }
    Ok(Selfplay {
        games,
        per_game: plies as f64 / games.max(1) as f64,
        attackers: att,
        defenders: def,
        draws: draw,
        positions: lines,
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the prediction `sigmoid(k * eval / 400)` against the results.
fn error(data: &[(Features, f64)], weights: &[f64; FEATURE_COUNT], k: f64) -> f64 {
    let sum: f64 = data
        .par_iter()
        .map(|(f, r)| {
            let e: f64 = f.iter().zip(weights).map(|(&a, b)| a as f64 * b).sum();
            let p = sigmoid(k * e / 400.0);
            (r - p) * (r - p)
        })
        .sum();
    sum / data.len() as f64
}

/// How a fit is going, for a caller that shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FitProgress {
    /// The data is read.
    Start {
        /// The positions read.
        positions: usize,
        /// The scale of the logistic that best fits the current weights.
        k: f64,
        /// The mean squared error of the current weights at that scale.
        error: f64,
    },
    /// A step of the fit is done (every 500th and the last are told).
    Iteration {
        /// The steps done.
        iteration: usize,
        /// The mean squared error now.
        error: f64,
    },
}

/// The fitted weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// The factor that brought the attacking soldier's weight to 100 (the evaluation's unit).
    pub scale: f64,
    /// The scale K of the logistic for the weights as given here (the fit's K over `scale`).
    pub k: f64,
    /// The weights, rounded, in the order of `eval::FEATURES`.
    pub weights: [i32; FEATURE_COUNT],
}

impl Fitted {
    /// Each weight with its feature's name.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        FEATURES.iter().copied().zip(self.weights)
    }
}

/// Fits the weights to the data file at `path` (see the module docs), telling `progress` how
/// it goes; returns the weights.
pub fn fit(
    rules: Rules,
    path: &str,
    iterations: usize,
    mut progress: impl FnMut(FitProgress),
) -> Result<Fitted, TuneError> {
    let text = fs::read_to_string(path).map_err(|source| TuneError::Read {
        path: path.to_string(),
        source,
    })?;
    let line_error = |n: usize, why: String| TuneError::Line {
        path: path.to_string(),
        line: n + 1,
        why,
    };
    let mut data: Vec<(Features, f64)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let (fen, result) = line
            .split_once(';')
            .ok_or_else(|| line_error(n, "no ';'".into()))?;
        let board =
            konakis_core::board::Board::from_fen(fen).map_err(|e| line_error(n, e.to_string()))?;
        let result: f64 = result
            .trim()
            .parse()
            .map_err(|_| line_error(n, "bad result".into()))?;
        data.push((features(&board, &rules), result));
    }
    if data.is_empty() {
        return Err(TuneError::Empty {
            path: path.to_string(),
        });
    }
    let mut w: [f64; FEATURE_COUNT] = weights(&rules).map(|x| x as f64);
    // The scale K that best fits the current weights.
    let mut k = 1.0;
    let mut best = error(&data, &w, k);
    for step in [0.5, 0.1, 0.02] {
        loop {
            let mut improved = false;
            for cand in [k - step, k + step] {
                if cand > 0.0 {
                    let e = error(&data, &w, cand);
                    if e < best {
                        best = e;
                        k = cand;
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }
    progress(FitProgress::Start {
        positions: data.len(),
        k,
        error: best,
    });
    // Gradient descent with per-feature scaling (Adam-like step sizes).
    let n = data.len() as f64;
    let mut m = [0.0f64; FEATURE_COUNT];
    let mut v = [0.0f64; FEATURE_COUNT];
    let (b1, b2, lr) = (0.9, 0.999, 1.0);
    for it in 1..=iterations {
        let grad = data
            .par_iter()
            .fold(
                || [0.0f64; FEATURE_COUNT],
                |mut g, (f, r)| {
                    let e: f64 = f.iter().zip(&w).map(|(&a, b)| a as f64 * b).sum();
                    let p = sigmoid(k * e / 400.0);
                    let d = (p - r) * p * (1.0 - p) * k / 400.0;
                    for i in 0..FEATURE_COUNT {
                        g[i] += d * f[i] as f64;
                    }
                    g
                },
            )
            .reduce(
                || [0.0f64; FEATURE_COUNT],
                |mut a, b| {
                    for i in 0..FEATURE_COUNT {
                        a[i] += b[i];
                    }
                    a
                },
            );
        for i in 0..FEATURE_COUNT {
            let g = 2.0 * grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if it % 500 == 0 || it == iterations {
            progress(FitProgress::Iteration {
                iteration: it,
                error: error(&data, &w, k),
            });
        }
    }
    // With the attacking soldier as the unit (100), as the evaluation's scale is defined;
    // the fit's K absorbs the scale.
    let scale = if w[0] > 0.0 { 100.0 / w[0] } else { 1.0 };
    Ok(Fitted {
        scale,
        k: k / scale,
        weights: w.map(|x| (x * scale).round() as i32),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_tells_its_progress_and_returns_the_weights_in_the_soldiers_unit() {
        let rules = Rules::default();
        let dir = std::env::temp_dir().join(format!("konakis-tune-fit-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.txt");
        // The start, and the start after one attacker's move, with both results.
        let mut game = Game::start(rules);
        let start = game.board().to_fen();
        let mv = game.board().legal_moves(&rules)[0];
        game.play(mv).unwrap();
        let after = game.board().to_fen();
        fs::write(
            &data,
            format!("{start};1\n{start};0\n{after};1\n{after};0.5\n"),
        )
        .unwrap();
        let mut told = Vec::new();
        let fitted = fit(rules, &data.display().to_string(), 1000, |p| told.push(p)).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(told.len(), 3, "{told:?}");
        assert!(matches!(told[0], FitProgress::Start { positions: 4, k, .. } if k > 0.0));
        assert!(matches!(
            told[1],
            FitProgress::Iteration { iteration: 500, .. }
        ));
        assert!(matches!(
            told[2],
            FitProgress::Iteration {
                iteration: 1000,
                ..
            }
        ));
        assert!(
            fitted.weights[0] == 100 || fitted.scale == 1.0,
            "{fitted:?}"
        );
        let named: Vec<_> = fitted.named().collect();
        assert_eq!(named.len(), FEATURE_COUNT);
        assert_eq!(named[0], (FEATURES[0], fitted.weights[0]));
    }
}
