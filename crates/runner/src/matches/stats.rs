//! Match statistics: Elo with a 95 % interval, the likelihood of superiority (LOS), and the
//! sequential probability ratio test (SPRT), all computed from game pairs.
//!
//! Every opening is played twice with the sides swapped, and the two games of a pair are
//! correlated (a lopsided opening tends to win both ways for the same side). Counting the
//! pair's total — 0, ½, 1, 1½ or 2 points — as one sample (the *pentanomial* model) captures
//! that correlation, so the error bars are honest and the SPRT needs fewer games than if the
//! games were treated as independent.
//!
//! Elo is the logistic model: a score fraction `s` is worth `400·log10(s / (1 − s))`.

/// Pair results counted by the pair's total in half points, from one engine's point of view:
/// index 0 = lost both (LL), 1 = a loss and a draw (LD), 2 = two draws or a win and a loss
/// (DD/WL), 3 = a win and a draw (WD), 4 = won both (WW).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Pentanomial(pub [u64; 5]);

/// The normalised per-game score of each pentanomial bucket.
const BUCKET_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
const Z_95: f64 = 1.959_963_984_540_054;

/// An Elo estimate.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// The Elo difference to the opponents (infinite when every pair was won or lost).
    pub elo: f64,
    /// Half the width of the 95 % interval, in Elo (infinite when unbounded).
    pub error: f64,
    /// The likelihood of superiority: the probability that the true difference is positive.
    pub los: f64,
    /// The mean score per game, from 0 to 1.
    pub score: f64,
}

impl Pentanomial {
    /// Adds one pair whose total is `half_points` (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// The same counts seen from the opponent's side.
    pub fn mirrored(self) -> Pentanomial {
        let c = self.0;
        Pentanomial([c[4], c[3], c[2], c[1], c[0]])
    }

    /// Sums two sets of counts.
    pub fn merged(self, other: Pentanomial) -> Pentanomial {
        let mut c = self.0;
        for (a, b) in c.iter_mut().zip(other.0) {
            *a += b;
        }
        Pentanomial(c)
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-game score of one pair (each pair scored 0, ¼, … 1).
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean: f64 = self
            .0
            .iter()
            .zip(BUCKET_SCORE)
            .map(|(&c, a)| c as f64 * a)
            .sum::<f64>()
            / n;
        let var: f64 = self
            .0
            .iter()
            .zip(BUCKET_SCORE)
            .map(|(&c, a)| c as f64 * (a - mean) * (a - mean))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// Elo, its 95 % error and the LOS; `None` without any pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mean, var) = self.mean_variance()?;
        let n = self.pairs() as f64;
        let se = (var / n).sqrt();
        let elo = elo_of_score(mean);
        let lo = elo_of_score(mean - Z_95 * se);
        let hi = elo_of_score(mean + Z_95 * se);
        // One pair says nothing about the spread.
        let error = if lo.is_finite() && hi.is_finite() && n >= 2.0 {
            (hi - lo) / 2.0
        } else {
            f64::INFINITY
        };
        let los = if se > 0.0 {
            normal_cdf((mean - 0.5) / se)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(EloEstimate {
            elo,
            error,
            los,
            score: mean,
        })
    }

    /// The log-likelihood ratio of the hypothesis "the Elo difference is `elo1`" against "it
    /// is `elo0`", each hypothesis taken at its most likely pentanomial distribution with that
    /// expected score (the generalised SPRT). 0 without any pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        // A bucket never seen gets a tiny weight so that both hypotheses stay comparable.
        let total: f64 = self.0.iter().map(|&c| c as f64).sum();
        let mut freq = [0.0; 5];
        for (f, &c) in freq.iter_mut().zip(&self.0) {
            *f = if c == 0 { 1e-3 } else { c as f64 };
        }
        let sum: f64 = freq.iter().sum();
        for f in &mut freq {
            *f /= sum;
        }
        let p0 = most_likely_with_mean(&freq, score_of_elo(elo0));
        let p1 = most_likely_with_mean(&freq, score_of_elo(elo1));
        let per_pair: f64 = freq
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(f, (a, b))| f * (b / a).ln())
            .sum();
        total * per_pair
    }

    /// The simple normal approximation of [`Pentanomial::llr`], accurate when the bounds are
    /// close to each other (used to cross-check the exact value).
    pub fn llr_normal_approximation(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((mean, var)) = self.mean_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        self.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// The distribution over the five buckets closest (in likelihood) to the observed frequencies
/// `freq` among those whose expected score is `mean`: `freq[i] / (1 + λ·(a_i − mean))` with the
/// Lagrange multiplier λ found by bisection. Every `freq[i]` must be positive and `mean` must
/// lie strictly between 0 and 1.
pub fn most_likely_with_mean(freq: &[f64; 5], mean: f64) -> [f64; 5] {
    let d: [f64; 5] = std::array::from_fn(|i| BUCKET_SCORE[i] - mean);
    // 1 + λ·d_i > 0 for every bucket bounds λ to (−1/max d, −1/min d).
    let max_d = d.iter().cloned().fold(f64::MIN, f64::max);
    let min_d = d.iter().cloned().fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / max_d, -1.0 / min_d);
    // g(λ) = Σ f_i d_i / (1 + λ d_i) falls strictly from +∞ to −∞ on that interval.
    let g = |l: f64| -> f64 {
        freq.iter()
            .zip(&d)
            .map(|(f, di)| f * di / (1.0 + l * di))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let mut p: [f64; 5] = std::array::from_fn(|i| freq[i] / (1.0 + l * d[i]));
    let sum: f64 = p.iter().sum();
    for x in &mut p {
        *x /= sum;
    }
    p
}

/// The Wilson score interval at 95 % for a share of `k` in `n` (e.g. the attackers' wins in a
/// balance study), as (low, high) fractions; (0, 1) when `n` is 0.
pub fn wilson_95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The SPRT's decision thresholds for the LLR: `(ln(β/(1−α)), ln((1−β)/α))`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The expected score fraction of a player `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference worth a score fraction (±∞ at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function: the Maclaurin series of erf near 0, and the continued
/// fraction of erfc in the tails (where the series would lose its digits to cancellation).
fn erfc(x: f64) -> f64 {
    if x.abs() < 2.5 {
        // erf(x) = 2/√π · Σ (−1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x; // (−1)^n x^(2n+1) / n!
        let mut sum = x;
        for n in 1..60 {
            term *= -x * x / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        1.0 - sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if x > 0.0 {
        // erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …))))
        let mut tail = x;
        for k in (1..80).rev() {
            tail = x + (k as f64 / 2.0) / tail;
        }
        (-x * x).exp() / std::f64::consts::PI.sqrt() / tail
    } else {
        2.0 - erfc(-x)
    }
}

/// The outcome of an SPRT so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtVerdict {
    /// The LLR reached the upper bound: the difference is at least `elo1` (H1 accepted).
    H1,
    /// The LLR reached the lower bound: the difference is at most `elo0` (H0 accepted).
    H0,
    /// Neither bound reached.
    Continue,
}

/// The settings of an SPRT.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl Sprt {
    /// The LLR and the verdict for these pair counts (from the first engine's point of view).
    pub fn judge(&self, penta: &Pentanomial) -> (f64, SprtVerdict) {
        let llr = penta.llr(self.elo0, self.elo1);
        let (lower, upper) = sprt_bounds(self.alpha, self.beta);
        let verdict = if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        };
        (llr, verdict)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn wilson_interval_matches_the_textbook_figures() {
        // 20 of 100: Wilson's interval is 13.3 % to 28.9 %.
        let (lo, hi) = wilson_95(20, 100);
        assert!(
            (lo - 0.1333).abs() < 5e-4 && (hi - 0.2888).abs() < 5e-4,
            "{lo} {hi}"
        );
        // None of 10 still leaves room above 0; all of 10 room below 1.
        let (lo, hi) = wilson_95(0, 10);
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 5e-4, "{lo} {hi}");
        let (lo, hi) = wilson_95(10, 10);
        assert!(
            (lo - 0.7225).abs() < 5e-4 && (hi - 1.0).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }

    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        // A 75 % score is 400·log10(3) Elo.
        assert!((elo_of_score(0.75) - 190.848_501_887_864_8).abs() < 1e-9);
    }

    #[test]
    fn normal_cdf_matches_table_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_746).abs() < 1e-6);
        assert!((normal_cdf(-1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998_650_102).abs() < 1e-6);
    }

    #[test]
    fn bounds_of_the_usual_test() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944_438_979).abs() < 1e-8);
        assert!((hi - 2.944_438_979).abs() < 1e-8);
    }

    #[test]
    fn constrained_distribution_has_the_mean_and_stays_close() {
        let freq = [0.1, 0.2, 0.3, 0.25, 0.15];
        for mean in [0.3, 0.5, 0.52, 0.7] {
            let p = most_likely_with_mean(&freq, mean);
            let m: f64 = p.iter().zip(BUCKET_SCORE).map(|(p, a)| p * a).sum();
            assert!((m - mean).abs() < 1e-12, "{mean}: {m}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn mirrored_counts_give_opposite_elo() {
        let p = Pentanomial([3, 10, 20, 14, 5]);
        let a = p.elo().unwrap();
        let b = p.mirrored().elo().unwrap();
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-9);
    }
}
