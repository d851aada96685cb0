//! The trainer: mini-batch gradient descent with Adam, the batch's gradient summed in
//! parallel with rayon.
//!
//! The loss of a position is `(sigmoid(y) - t)²`, where `y` is the network's output and the
//! target `t = λ · sigmoid(score / scale) + (1 - λ) · result`, both from the side to move's
//! point of view (result 1 a win, ½ a draw, 0 a loss). The inputs are sparse (at most 25 of
//! 243 set), so the first layer's forward and backward passes touch only the rows of the
//! pieces on the board.

use crate::data::Record;
use crate::network::{Network, WEIGHT_CLIP};
use crate::{
    HEADS, INPUTS, MAX_ACTIVE, RuleFamily, SYMMETRIES, for_each_feature, symmetric_set,
    symmetric_square,
};
use konakis_core::zobrist::splitmix64;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::Instant;

/// One training position, ready for the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Attacking soldiers.
    pub attackers: u128,
    /// Defending soldiers.
    pub defenders: u128,
    /// The king's square index.
    pub king: u8,
    /// The head: 0 attackers to move, 1 defenders.
    pub head: u8,
    /// The target, in [0, 1].
    pub target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The sample of `r`, a record of Tablut's board (the files of other boards are refused
    /// when they are read: [`crate::data::read_tablut`]), its target blending the score and the
    /// result with `lambda` (1 = the score alone), the score read in units of `scale`
    /// centi-soldiers.
    pub fn from_record(r: &Record, lambda: f32, scale: f32) -> Sample {
        let target = lambda * sigmoid(r.score as f32 / scale) + (1.0 - lambda) * r.mover_result();
        Sample {
            attackers: r.attackers.narrow(),
            defenders: r.defenders.narrow(),
            king: r.king,
            head: r.defenders_to_move as u8,
            target,
        }
    }

    /// The same position under the board's symmetry `k` (see [`crate::SYMMETRIES`]), with the
    /// same head and target.
    pub fn image(&self, k: usize) -> Sample {
        Sample {
            attackers: symmetric_set(self.attackers, k),
            defenders: symmetric_set(self.defenders, k),
            king: if (self.king as usize) < crate::SQUARES {
                symmetric_square(self.king, k)
            } else {
                self.king
            },
            ..*self
        }
    }

    fn features(&self) -> ([u8; MAX_ACTIVE], usize) {
        let mut f = [0u8; MAX_ACTIVE];
        let mut n = 0;
        for_each_feature(self.attackers, self.defenders, self.king, |i| {
            if n < MAX_ACTIVE {
                f[n] = i as u8;
                n += 1;
            }
        });
        (f, n)
    }
}

/// The gradient of the loss: the network's shape, summed over samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient {
    /// Of the first-layer weights.
    pub w1: Vec<f32>,
    /// Of the first-layer biases.
    pub b1: Vec<f32>,
    /// Of the output weights.
    pub w2: Vec<f32>,
    /// Of the output biases.
    pub b2: [f32; HEADS],
}

impl Gradient {
    /// A zero gradient for networks of `hidden` units.
    pub fn zero(hidden: usize) -> Gradient {
        Gradient {
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; HEADS * hidden],
            b2: [0.0; HEADS],
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = [0.0; HEADS];
    }

    fn add(&mut self, other: &Gradient) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += b;
        }
    }
}

/// The loss of one sample.
pub fn sample_loss(net: &Network, s: &Sample) -> f64 {
    let y = net.forward(s.attackers, s.defenders, s.king, s.head as usize);
    let d = sigmoid(y) - s.target;
    (d * d) as f64
}

/// Adds the gradient of `samples`' summed loss to `grad` and returns that loss. `acc` is
/// scratch space of `hidden` floats.
pub fn accumulate_gradient(
    net: &Network,
    samples: &[Sample],
    grad: &mut Gradient,
    acc: &mut [f32],
) -> f64 {
    let h = net.hidden;
    let mut total = 0.0f64;
    for s in samples {
        let (features, n) = s.features();
        let features = &features[..n];
        net.accumulate(features.iter().map(|&i| i as usize), acc);
        let head = s.head as usize;
        let y = net.output(acc, head);
        let p = sigmoid(y);
        let d = p - s.target;
        total += (d * d) as f64;
        // d loss / d y
        let g = 2.0 * d * p * (1.0 - p);
        grad.b2[head] += g;
        let w2 = &net.w2[head * h..(head + 1) * h];
        let gw2 = &mut grad.w2[head * h..(head + 1) * h];
        for j in 0..h {
            let a = acc[j];
            gw2[j] += g * a.clamp(0.0, 1.0);
            // The clipped ReLU passes the gradient only strictly inside (0, 1).
            acc[j] = if a > 0.0 && a < 1.0 { g * w2[j] } else { 0.0 };
        }
        for (gb, da) in grad.b1.iter_mut().zip(acc.iter()) {
            *gb += da;
        }
        for &i in features {
            let row = &mut grad.w1[i as usize * h..(i as usize + 1) * h];
            for (gw, da) in row.iter_mut().zip(acc.iter()) {
                *gw += da;
            }
        }
    }
    total
}

/// The mean loss over `samples`, in parallel.
pub fn mean_loss(net: &Network, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.par_iter().map(|s| sample_loss(net, s)).sum();
    sum / samples.len() as f64
}

/// The trainer's settings (the `konakis train` flags of the same names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub lr_decay: f32,
    /// The weight of the search score in the target (1 − λ goes to the result).
    pub lambda: f32,
    /// Centi-soldiers per unit of the network's output.
    pub scale: f32,
    /// Games (by number) kept out of training for validation, per thousand.
    pub validation_permille: u32,
    /// Seed of the initial weights, the validation split and the shuffles.
    pub seed: u64,
    /// Show each training position, in each epoch, in one of the board's eight orientations
    /// drawn at random (validation positions are left as they were played).
    pub symmetries: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: crate::quant::HIDDEN,
            epochs: 10,
            batch: 16_384,
            lr: 0.001,
            lr_decay: 1.0,
            lambda: 0.75,
            scale: 400.0,
            validation_permille: 50,
            seed: 1,
            symmetries: false,
        }
    }
}

/// What the trainer tells its caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// Training started: the split's sizes and the validation loss of the initial network.
    Start {
        /// Training positions.
        train: usize,
        /// Validation positions.
        validation: usize,
        /// Validation loss before training.
        validation_loss: f64,
    },
    /// Within an epoch, every few seconds.
    Batch {
        /// The epoch, from 1.
        epoch: usize,
        /// Positions of this epoch done.
        done: usize,
        /// Positions per second over the epoch so far.
        positions_per_second: f64,
    },
    /// An epoch ended.
    Epoch {
        /// The epoch, from 1.
        epoch: usize,
        /// Mean training loss over the epoch's batches.
        train_loss: f64,
        /// Validation loss after the epoch.
        validation_loss: f64,
        /// Positions per second over the epoch.
        positions_per_second: f64,
    },
}

/// Why training cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    /// No positions to train on.
    #[error("no training positions (all {0} went to validation, or the data is empty)")]
    Empty(usize),
    /// Positions of more than one rule family.
    #[error("the data mixes rule families ({0} and {1}); a network is trained for one")]
    MixedFamilies(RuleFamily, RuleFamily),
    /// A setting out of range.
    #[error("{0}")]
    Setting(&'static str),
    /// The network to start from does not fit the data or the settings.
    #[error("the starting network does not fit: {0}")]
    Initial(String),
}

/// Whether game `game` is held out for validation.
pub fn is_validation(game: u32, config: &TrainConfig) -> bool {
    let mut s = config.seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    splitmix64(&mut s) % 1000 < config.validation_permille as u64
}

/// The Adam optimiser's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step on `params` (several slices laid end to end as in `grads`), `scale` turning
    /// summed gradients into means.
    fn step(&mut self, params: [&mut [f32]; 4], grads: [&[f32]; 4], lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let mut k = 0;
        for (p, g) in params.into_iter().zip(grads) {
            let (m, v) = (&mut self.m[k..k + p.len()], &mut self.v[k..k + p.len()]);
            for (((p, g), m), v) in p.iter_mut().zip(g).zip(m).zip(v) {
                let g = g * scale;
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            }
            k += p.len();
        }
    }
}

/// Trains a network of `config.hidden` units on `records` and returns it, reporting through
/// `progress`. Runs on rayon's pool.
pub fn train(
    records: &[Record],
    config: &TrainConfig,
    progress: impl FnMut(Progress, &Network),
) -> Result<Network, TrainError> {
    train_from(records, config, None, progress)
}

/// As [`train`], starting from the weights of `initial` (of `config.hidden` units, the data's
/// rule family and `config.scale`) instead of random ones, when it is given: a network trained
/// further on new data. The optimiser's moments start from zero.
pub fn train_from(
    records: &[Record],
    config: &TrainConfig,
    initial: Option<Network>,
    mut progress: impl FnMut(Progress, &Network),
) -> Result<Network, TrainError> {
    if config.hidden == 0 || config.hidden > crate::network::MAX_HIDDEN {
        return Err(TrainError::Setting("--hidden must be 1 to 4096"));
    }
    if config.batch == 0 || config.epochs == 0 {
        return Err(TrainError::Setting("--batch and --epochs must be positive"));
    }
    if !(0.0..=1.0).contains(&config.lambda) {
        return Err(TrainError::Setting("--lambda must be within 0 and 1"));
    }
    if !(config.scale > 0.0 && config.lr > 0.0 && config.lr_decay > 0.0) {
        return Err(TrainError::Setting(
            "--scale, --lr and --lr-decay must be positive",
        ));
    }
    let family = records.first().map_or(RuleFamily::Default, |r| r.family);
    if let Some(r) = records.iter().find(|r| r.family != family) {
        return Err(TrainError::MixedFamilies(family, r.family));
    }
    // Games in their numbers' order, whatever order the files hold them in (datagen writes
    // them as they finish), so that the same games train the same network.
    let mut ordered: Vec<&Record> = records.iter().collect();
    ordered.sort_by_key(|r| (r.game, r.index));
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for r in ordered {
        let s = Sample::from_record(r, config.lambda, config.scale);
        if is_validation(r.game, config) {
            validation.push(s);
        } else {
            train.push(s);
        }
    }
    if train.is_empty() {
        return Err(TrainError::Empty(records.len()));
    }
    let mut net = match initial {
        None => Network::random(config.hidden, family, config.scale, config.seed),
        Some(net) if net.hidden != config.hidden => {
            return Err(TrainError::Initial(format!(
                "{} hidden units, --hidden {}",
                net.hidden, config.hidden
            )));
        }
        Some(net) if net.family != family => {
            return Err(TrainError::Initial(format!(
                "trained for {}, the data is of {family}",
                net.family
            )));
        }
        Some(net) if net.scale != config.scale => {
            return Err(TrainError::Initial(format!(
                "scale {}, --scale {}",
                net.scale, config.scale
            )));
        }
        Some(net) => net,
    };
    progress(
        Progress::Start {
            train: train.len(),
            validation: validation.len(),
            validation_loss: mean_loss(&net, &validation),
        },
        &net,
    );
    let h = config.hidden;
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::zero(h)).collect();
    let mut scratch: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; h]).collect();
    let mut adam = Adam::new(INPUTS * h + h + HEADS * h + HEADS);
    // Seeded, so a run is repeatable; ChaCha8 rather than StdRng, whose stream may change
    // between releases of rand.
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut lr = config.lr;
    for epoch in 1..=config.epochs {
        train.shuffle(&mut rng);
        // Each position in an orientation of its own, drawn from the same stream.
        let oriented: Vec<Sample>;
        let epoch_data = if config.symmetries {
            oriented = train
                .iter()
                .map(|s| s.image(rng.random_range(0..SYMMETRIES)))
                .collect();
            &oriented
        } else {
            &train
        };
        let start = Instant::now();
        let mut last_report = start;
        let (mut loss_sum, mut done) = (0.0f64, 0usize);
        for batch in epoch_data.chunks(config.batch) {
            let part = batch.len().div_ceil(threads);
            let losses: Vec<f64> = grads
                .par_iter_mut()
                .zip(scratch.par_iter_mut())
                .zip(batch.par_chunks(part))
                .map(|((g, acc), chunk)| {
                    g.clear();
                    accumulate_gradient(&net, chunk, g, acc)
                })
                .collect();
            let used = batch.len().div_ceil(part);
            let (first, rest) = grads.split_first_mut().unwrap();
            for g in &rest[..used - 1] {
                first.add(g);
            }
            loss_sum += losses.iter().sum::<f64>();
            done += batch.len();
            adam.step(
                [
                    &mut net.w1[..],
                    &mut net.b1[..],
                    &mut net.w2[..],
                    &mut net.b2[..],
                ],
                [&first.w1[..], &first.b1[..], &first.w2[..], &first.b2[..]],
                lr,
                1.0 / batch.len() as f32,
            );
            for w in net.w1.iter_mut().chain(net.b1.iter_mut()) {
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
            if last_report.elapsed().as_secs_f64() >= 5.0 {
                last_report = Instant::now();
                progress(
                    Progress::Batch {
                        epoch,
                        done,
                        positions_per_second: done as f64 / start.elapsed().as_secs_f64(),
                    },
                    &net,
                );
            }
        }
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        progress(
            Progress::Epoch {
                epoch,
                train_loss: loss_sum / done as f64,
                validation_loss: mean_loss(&net, &validation),
                positions_per_second: done as f64 / seconds,
            },
            &net,
        );
        lr *= config.lr_decay;
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random positions of up to 16 attackers and 8 defenders and random targets.
    fn samples(n: usize, seed: u64) -> Vec<Sample> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                let (mut att, mut def) = (0u128, 0u128);
                let king = (splitmix64(&mut s) % 81) as u8;
                let mut taken = 1u128 << king;
                for k in 0..(8 + splitmix64(&mut s) % 16) {
                    let sq = (splitmix64(&mut s) % 81) as u8;
                    if taken >> sq & 1 == 0 {
                        taken |= 1 << sq;
                        if k % 3 == 0 && def.count_ones() < 8 {
                            def |= 1 << sq;
                        } else if att.count_ones() < 16 {
                            att |= 1 << sq;
                        }
                    }
                }
                Sample {
                    attackers: att,
                    defenders: def,
                    king,
                    head: (splitmix64(&mut s) & 1) as u8,
                    target: (splitmix64(&mut s) % 1000) as f32 / 1000.0,
                }
            })
            .collect()
    }

    fn loss_sum(net: &Network, data: &[Sample]) -> f64 {
        data.iter().map(|s| sample_loss(net, s)).sum()
    }

    #[test]
    fn gradients_match_finite_differences() {
        let mut net = Network::random(6, RuleFamily::Default, 400.0, 9);
        // Weights large enough that the output is far from linear.
        for (i, w) in net.w1.iter_mut().enumerate() {
            *w *= 3.0 + (i % 5) as f32;
        }
        for w in net.w2.iter_mut() {
            *w *= 4.0;
        }
        net.b2 = [0.3, -0.2];
        let data = samples(12, 5);
        let mut grad = Gradient::zero(net.hidden);
        let mut acc = vec![0.0; net.hidden];
        accumulate_gradient(&net, &data, &mut grad, &mut acc);
        let eps = 4e-3f32;
        let mut checked = 0;
        // Every parameter the data touches: a central difference per parameter; one whose
        // nudge moves a hidden unit across a kink of the clipped ReLU is skipped.
        let total = INPUTS * 6 + 6 + HEADS * 6 + HEADS;
        for k in 0..total {
            let analytic = match k {
                k if k < INPUTS * 6 => grad.w1[k],
                k if k < INPUTS * 6 + 6 => grad.b1[k - INPUTS * 6],
                k if k < INPUTS * 6 + 6 + HEADS * 6 => grad.w2[k - INPUTS * 6 - 6],
                k => grad.b2[k - INPUTS * 6 - 6 - HEADS * 6],
            };
            let nudge = |net: &mut Network, by: f32| match k {
                k if k < INPUTS * 6 => net.w1[k] += by,
                k if k < INPUTS * 6 + 6 => net.b1[k - INPUTS * 6] += by,
                k if k < INPUTS * 6 + 6 + HEADS * 6 => net.w2[k - INPUTS * 6 - 6] += by,
                k => net.b2[k - INPUTS * 6 - 6 - HEADS * 6] += by,
            };
            let mut plus = net.clone();
            nudge(&mut plus, eps);
            let mut minus = net.clone();
            nudge(&mut minus, -eps);
            let numeric = (loss_sum(&plus, &data) - loss_sum(&minus, &data)) / (2.0 * eps as f64);
            if analytic == 0.0 && numeric.abs() < 1e-9 {
                continue;
            }
            let near_kink = data.iter().any(|s| {
                let (f, n) = s.features();
                let mut a = vec![0.0; 6];
                let mut b = vec![0.0; 6];
                plus.accumulate(f[..n].iter().map(|&i| i as usize), &mut a);
                minus.accumulate(f[..n].iter().map(|&i| i as usize), &mut b);
                a.iter()
                    .zip(&b)
                    .any(|(x, y)| (*x > 0.0) != (*y > 0.0) || (*x < 1.0) != (*y < 1.0))
            });
            if near_kink {
                continue;
            }
            let err = (analytic as f64 - numeric).abs();
            assert!(
                err <= 1e-2 * numeric.abs().max(analytic.abs() as f64) + 2e-5,
                "parameter {k}: analytic {analytic}, numeric {numeric}"
            );
            checked += 1;
        }
        assert!(checked > 100, "only {checked} parameters checked");
    }

    #[test]
    fn an_image_moves_every_piece_and_keeps_the_target() {
        for (i, s) in samples(200, 11).iter().enumerate() {
            let k = i % SYMMETRIES;
            let t = s.image(k);
            assert_eq!(t.attackers.count_ones(), s.attackers.count_ones());
            assert_eq!(t.defenders.count_ones(), s.defenders.count_ones());
            assert_eq!(t.attackers & t.defenders, 0);
            assert_eq!(t.attackers >> t.king & 1, 0);
            assert_eq!((t.head, t.target), (s.head, s.target));
            // Each symmetry's inverse is among the eight: some image brings it back.
            assert!((0..SYMMETRIES).any(|j| t.image(j) == *s));
            if k == 0 {
                assert_eq!(t, *s);
            }
        }
    }

    #[test]
    fn the_parallel_gradient_equals_the_serial_one() {
        let net = Network::random(8, RuleFamily::Default, 400.0, 2);
        let data = samples(100, 3);
        let mut serial = Gradient::zero(8);
        let mut acc = vec![0.0; 8];
        let l1 = accumulate_gradient(&net, &data, &mut serial, &mut acc);
        let mut split = Gradient::zero(8);
        let mut l2 = 0.0;
        for part in data.chunks(7) {
            let mut g = Gradient::zero(8);
            l2 += accumulate_gradient(&net, part, &mut g, &mut acc);
            split.add(&g);
        }
        assert!((l1 - l2).abs() < 1e-9);
        for (a, b) in serial.w1.iter().zip(&split.w1) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}
