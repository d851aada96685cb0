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

/// The fewest game pairs from which Elo, its interval and the LOS are given. With fewer, the
/// normal approximation claims more than the games show: between identical engines, 4 pairs
/// give a LOS above 95 % in about one match of eight, and 10 pairs in one of twelve, where a
/// fair figure would do so in one of twenty; from 20 pairs on it does so in at most about one
/// in fifteen (the test `identical_engines_rarely_look_different_from_min_pairs_on` measures
/// it).
pub const MIN_PAIRS: u64 = 20;

/// The least variance of the per-game score of a pair assumed after `pairs` pairs.
///
/// A result not seen in `n` pairs may still come up in up to 3 of `n` (the "rule of three", a
/// 95 % bound), and the nearest other result is a quarter point per game away: the floor is
/// the variance of such a mixture, `p·(1 − p)/16` with `p = 3/n` (at most ½). It decides only
/// when nearly every pair ended the same way; a sample with any real spread keeps its own.
pub fn variance_floor(pairs: u64) -> f64 {
    let p = (3.0 / pairs.max(1) as f64).min(0.5);
    p * (1.0 - p) / 16.0
}

/// Too few pairs for an honest Elo figure ([`Pentanomial::elo`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("too few games ({pairs} pairs; at least {needed} needed)")]
pub struct TooFewPairs {
    /// The pairs played.
    pub pairs: u64,
    /// The pairs needed ([`MIN_PAIRS`]).
    pub needed: u64,
}

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

    /// Elo, its 95 % error and the LOS, or [`TooFewPairs`] below [`MIN_PAIRS`] pairs.
    ///
    /// The interval is the normal approximation of the mean pair score, `mean ± 1.96·√(v/n)`,
    /// mapped to Elo, with the variance `v` taken as at least [`variance_floor`]: a sample in
    /// which every pair ended the same way has no spread of its own, but does not prove that
    /// the other results cannot happen.
    pub fn elo(&self) -> Result<EloEstimate, TooFewPairs> {
        let pairs = self.pairs();
        if pairs < MIN_PAIRS {
            return Err(TooFewPairs {
                pairs,
                needed: MIN_PAIRS,
            });
        }
        Ok(self.estimate())
    }

    /// The estimate [`Pentanomial::elo`] gives, at any number of pairs (at least one).
    fn estimate(&self) -> EloEstimate {
        let (mean, var) = self.mean_variance().expect("at least one pair");
        let n = self.pairs() as f64;
        let var = var.max(variance_floor(self.pairs()));
        let se = (var / n).sqrt();
        let elo = elo_of_score(mean);
        let lo = elo_of_score(mean - Z_95 * se);
        let hi = elo_of_score(mean + Z_95 * se);
        let error = if lo.is_finite() && hi.is_finite() {
            (hi - lo) / 2.0
        } else {
            f64::INFINITY
        };
        // The floor keeps `se` positive.
        let los = normal_cdf((mean - 0.5) / se);
        EloEstimate {
            elo,
            error,
            los,
            score: mean,
        }
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

    /// The plain normal approximation from the sample variance alone, as the runner computed
    /// every figure before the floor and the minimum: (Elo, half-interval, LOS).
    fn plain(c: [u64; 5]) -> (f64, f64, f64) {
        let n: f64 = c.iter().sum::<u64>() as f64;
        let mean = c
            .iter()
            .zip(BUCKET_SCORE)
            .map(|(&k, a)| k as f64 * a)
            .sum::<f64>()
            / n;
        let var = c
            .iter()
            .zip(BUCKET_SCORE)
            .map(|(&k, a)| k as f64 * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        let se = (var / n).sqrt();
        let error = (elo_of_score(mean + Z_95 * se) - elo_of_score(mean - Z_95 * se)) / 2.0;
        (elo_of_score(mean), error, normal_cdf((mean - 0.5) / se))
    }

    #[test]
    fn four_and_eight_games_are_too_few_for_a_figure() {
        // Four games between identical engines, two drawn pairs: once Elo +0.0 ±0.0.
        let four = Pentanomial([0, 0, 2, 0, 0]);
        let e = four.elo().unwrap_err();
        assert_eq!(
            e,
            TooFewPairs {
                pairs: 2,
                needed: MIN_PAIRS
            }
        );
        assert_eq!(e.to_string(), "too few games (2 pairs; at least 20 needed)");
        // Eight games, two drawn pairs, a win and a draw, two wins: once LOS 96.5 %.
        let eight = Pentanomial([0, 0, 2, 1, 1]);
        assert!((plain(eight.0).2 - 0.965).abs() < 5e-4);
        assert_eq!(eight.elo().unwrap_err().pairs, 4);
        assert_eq!(Pentanomial::default().elo().unwrap_err().pairs, 0);
        let just = Pentanomial([2, 4, 7, 4, 2]);
        assert_eq!(just.pairs(), MIN_PAIRS - 1);
        assert!(just.elo().is_err());
        assert!(Pentanomial([2, 4, 8, 4, 2]).elo().is_ok());
    }

    #[test]
    fn identical_pairs_never_give_a_zero_interval() {
        for n in [MIN_PAIRS, 50, 200, 1000, 100_000] {
            let e = Pentanomial([0, 0, n, 0, 0]).elo().unwrap();
            assert_eq!(e.elo, 0.0);
            assert_eq!(e.los, 0.5);
            assert!(e.error > 0.0 && e.error.is_finite(), "{n}: {}", e.error);
            // Seeing no other result is no surer than seeing one on either side.
            let one_each_side = Pentanomial([0, 1, n - 2, 1, 0]).elo().unwrap();
            assert!(e.error >= one_each_side.error, "{n}");
        }
        // Twenty drawn pairs: about ±30 Elo, not ±0.
        let e = Pentanomial([0, 0, 20, 0, 0]).elo().unwrap();
        assert!((25.0..35.0).contains(&e.error), "{}", e.error);
        // Won every pair: an infinite estimate, but a LOS of 1 only to rounding.
        let e = Pentanomial([0, 0, 0, 0, 20]).elo().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert!(e.los > 0.999_999);
        // One result apart from the rest: the floor, not the sample's tiny spread.
        let near = Pentanomial([0, 0, 39, 1, 0]);
        let (_, plain_error, plain_los) = plain(near.0);
        let e = near.elo().unwrap();
        assert!(e.error > plain_error && e.los < plain_los);
    }

    #[test]
    fn samples_with_real_spread_keep_the_plain_figures() {
        // Shaped like the matches in docs/strength.md (100 to 500 pairs); the figures there are
        // quoted to one decimal and must come out the same.
        for c in [
            [10, 20, 40, 20, 10],
            [2, 6, 20, 14, 8],
            [0, 0, 233, 266, 1],
            [20, 31, 90, 36, 23],
            [40, 30, 60, 40, 30],
            [1, 2, 40, 5, 2],
        ] {
            let e = Pentanomial(c).elo().unwrap();
            let (elo, error, los) = plain(c);
            let same = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
            assert!(
                same(e.elo, elo) && same(e.error, error) && same(e.los, los),
                "{c:?}: {e:?} against {elo} ± {error}, LOS {los}"
            );
        }
    }

    /// Draws `pairs` pairs from the distribution `p` (cumulative weights) and counts them.
    fn sample(p: &[f64; 5], pairs: u64, state: &mut u64) -> Pentanomial {
        let mut c = Pentanomial::default();
        for _ in 0..pairs {
            let u = (konakis_core::zobrist::splitmix64(state) >> 11) as f64 / (1u64 << 53) as f64;
            let mut acc = 0.0;
            let bucket = p
                .iter()
                .position(|&w| {
                    acc += w;
                    u < acc
                })
                .unwrap_or(4);
            c.add(bucket);
        }
        c
    }

    /// Between identical engines (pair distributions symmetric about ½), how often the LOS
    /// exceeds 95 % and 99 %, and how often the 95 % interval misses the true Elo of 0.
    fn false_alarms(pairs: u64, estimate: impl Fn(&Pentanomial) -> EloEstimate) -> [f64; 3] {
        const SAMPLES: u32 = 4000;
        let mut worst = [0.0f64; 3];
        let mut state = 30 * 1000 + pairs;
        for p in [
            [0.1, 0.15, 0.5, 0.15, 0.1],
            [0.2, 0.2, 0.2, 0.2, 0.2],
            [0.02, 0.08, 0.8, 0.08, 0.02],
            [0.01, 0.04, 0.9, 0.04, 0.01],
        ] {
            let mut count = [0u32; 3];
            for _ in 0..SAMPLES {
                let e = estimate(&sample(&p, pairs, &mut state));
                count[0] += (e.los > 0.95) as u32;
                count[1] += (e.los > 0.99) as u32;
                count[2] += (e.elo.abs() > e.error) as u32;
            }
            for (w, c) in worst.iter_mut().zip(count) {
                *w = w.max(c as f64 / SAMPLES as f64);
            }
        }
        worst
    }

    #[test]
    fn identical_engines_rarely_look_different_from_min_pairs_on() {
        // A fair LOS exceeds 95 % in 5 % of such matches and 99 % in 1 %; the normal
        // approximation runs a little over that, which is why there is a minimum at all.
        for pairs in [MIN_PAIRS, MIN_PAIRS + 5, 2 * MIN_PAIRS] {
            let [los95, los99, missed] = false_alarms(pairs, |c| c.elo().unwrap());
            assert!(los95 <= 0.075, "{pairs} pairs: LOS > 95 % in {los95}");
            assert!(los99 <= 0.025, "{pairs} pairs: LOS > 99 % in {los99}");
            assert!(missed <= 0.08, "{pairs} pairs: interval missed in {missed}");
        }
        // Below the minimum the same estimate claims far too much.
        let [los95, los99, _] = false_alarms(4, |c| c.estimate());
        assert!(los95 > 0.1 && los99 > 0.05, "{los95} {los99}");
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
