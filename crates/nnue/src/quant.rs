//! The integer network a search runs, and its incrementally updated accumulator.
//!
//! First layer: weights and biases `i16`, scaled by [`QA`] (so the clipped ReLU's 1.0 is
//! `QA`); the accumulator of `H` hidden units is `i16`, which cannot overflow because the
//! trainer keeps those weights within [`WEIGHT_CLIP`] and a position sets at most
//! [`MAX_ACTIVE`] inputs (25 × 1.98 × 255 + 505 < 32767). Output layer: weights `i16` scaled by
//! [`QB`] (and kept small enough that `H × QA × |w|` fits an `i32`), biases `i32` scaled by
//! `QA × QB`, the sum taken in `i32`.
//!
//! A move changes two inputs (the piece leaves one square and reaches another) and removes one
//! for each captured piece, so [`Accumulator::update`] adds and subtracts a handful of rows
//! instead of summing the 25 of a [`Accumulator::refresh`]. The loops run over fixed-size
//! arrays, which the compiler turns into vector instructions.

use crate::network::{NetError, Network, WEIGHT_CLIP};
use crate::{HEADS, INPUTS, MAX_ACTIVE, RuleFamily, feature, for_each_feature};
use konakis_core::Bitboard;
use konakis_core::board::Board;
use konakis_core::types::{Move, Piece, Side};

/// The first layer's scale: 1.0 is `QA`.
pub const QA: i16 = 255;
/// The output weights' scale: fine enough that their rounding costs well under a
/// centi-soldier (docs/nnue.md), coarse enough that weights up to ±32 fit an `i16`.
pub const QB: i32 = 1024;
/// The hidden layer size of most networks Konakis ships (a choice measured in docs/nnue.md).
pub const HIDDEN: usize = 256;
/// The wider hidden layer the search also runs (docs/nnue.md says which network has it).
pub const HIDDEN_WIDE: usize = 512;

// The worst case of the accumulator's sum fits an i16.
const _: () = assert!(
    ((MAX_ACTIVE + 1) as f32 * WEIGHT_CLIP * QA as f32) < i16::MAX as f32,
    "the accumulator could overflow"
);

/// A network with integer weights and `H` hidden units.
#[derive(Clone, Debug)]
pub struct QuantNetwork<const H: usize> {
    w1: Vec<[i16; H]>,
    b1: [i16; H],
    w2: [[i16; H]; HEADS],
    b2: [i32; HEADS],
    /// Centi-soldiers per output unit, rounded.
    scale: i32,
    family: RuleFamily,
}

/// The first layer's pre-activations for one position, kept up to date move by move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator<const H: usize> {
    values: [i16; H],
}

fn quantize(x: f32, scale: f32, limit: f32) -> i16 {
    (x * scale).round().clamp(-limit, limit) as i16
}

impl<const H: usize> QuantNetwork<H> {
    /// The integer network for `net`, which must have `H` hidden units. First-layer values
    /// beyond [`WEIGHT_CLIP`] are clipped (the trainer never writes any).
    pub fn from_float(net: &Network) -> Result<QuantNetwork<H>, NetError> {
        if net.hidden != H {
            return Err(NetError::Hidden {
                found: net.hidden,
                expected: H.to_string(),
            });
        }
        let limit1 = (WEIGHT_CLIP * QA as f32).floor();
        let qa = QA as f32;
        let mut w1 = vec![[0i16; H]; INPUTS];
        for (i, row) in w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = quantize(net.w1[i * H + j], qa, limit1);
            }
        }
        let mut b1 = [0i16; H];
        for (j, b) in b1.iter_mut().enumerate() {
            *b = quantize(net.b1[j], qa, limit1);
        }
        // The output sum, at most H × QA × |w|, must fit an i32.
        let limit2 = (i32::MAX as f32 / (H as f32 * qa))
            .min(i16::MAX as f32)
            .floor();
        let mut w2 = [[0i16; H]; HEADS];
        for (h, row) in w2.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = quantize(net.w2[h * H + j], QB as f32, limit2);
            }
        }
        let b2 = net
            .b2
            .map(|b| (b * qa * QB as f32).round().clamp(-1e9, 1e9) as i32);
        Ok(QuantNetwork {
            w1,
            b1,
            w2,
            b2,
            scale: net.scale.round() as i32,
            family: net.family,
        })
    }

    /// The rules the network was trained for.
    pub fn family(&self) -> RuleFamily {
        self.family
    }

    /// The evaluation, in centi-soldiers from the point of view of `side` (to move), of the
    /// position whose accumulator is `acc`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator<H>, side: Side) -> i32 {
        let w = &self.w2[side.index()];
        let mut sum = 0i32;
        for (a, w) in acc.values.iter().zip(w) {
            sum += (*a).clamp(0, QA) as i32 * *w as i32;
        }
        let total = (sum as i64 + self.b2[side.index()] as i64) * self.scale as i64;
        (total / (QA as i64 * QB as i64)) as i32
    }

    /// The evaluation of `board` from scratch, from the side to move's point of view.
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        let mut acc = Accumulator::new(self);
        acc.refresh(self, board);
        self.evaluate(&acc, board.side_to_move())
    }
}

impl<const H: usize> Accumulator<H> {
    /// The accumulator of the empty board (the biases).
    pub fn new(net: &QuantNetwork<H>) -> Accumulator<H> {
        Accumulator { values: net.b1 }
    }

    /// The pre-activations, `QA` = 1.0.
    pub fn values(&self) -> &[i16; H] {
        &self.values
    }

    /// Recomputes the accumulator of `board` from scratch.
    pub fn refresh(&mut self, net: &QuantNetwork<H>, board: &Board) {
        self.values = net.b1;
        let king = board.king().map_or(81, |k| k.index() as u8);
        for_each_feature(
            board.attackers().bits(),
            board.defenders().bits(),
            king,
            |i| self.add(net, i),
        );
    }

    /// Adds input `i`'s row.
    #[inline]
    pub fn add(&mut self, net: &QuantNetwork<H>, i: usize) {
        for (a, w) in self.values.iter_mut().zip(&net.w1[i]) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Subtracts input `i`'s row.
    #[inline]
    pub fn sub(&mut self, net: &QuantNetwork<H>, i: usize) {
        for (a, w) in self.values.iter_mut().zip(&net.w1[i]) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Sets this accumulator to `parent`'s with `delta` applied, in one pass over the rows
    /// (cheaper than copying `parent` and then updating the copy: docs/nnue.md).
    #[inline]
    pub fn set_child(&mut self, net: &QuantNetwork<H>, parent: &Accumulator<H>, delta: &Delta) {
        let (plus, minus) = (&net.w1[delta.add], &net.w1[delta.sub]);
        for (((a, p), w), m) in self
            .values
            .iter_mut()
            .zip(&parent.values)
            .zip(plus)
            .zip(minus)
        {
            *a = p.wrapping_add(w.wrapping_sub(*m));
        }
        for &i in &delta.removed[..delta.removed_count as usize] {
            self.sub(net, i as usize);
        }
    }

    /// Updates the accumulator of `before` to that of `after`, the board reached by playing
    /// `mv`, which captured the soldiers `captured` (as `Board::play` returns them); a captured
    /// king is seen on `after`.
    pub fn update(
        &mut self,
        net: &QuantNetwork<H>,
        before: &Board,
        after: &Board,
        mv: Move,
        captured: Bitboard,
    ) {
        match Delta::of(before, after, mv, captured) {
            Some(delta) => {
                let parent = *self;
                self.set_child(net, &parent, &delta);
            }
            // Not a move of `before`: the only safe answer is the truth.
            None => self.refresh(net, after),
        }
    }
}

/// The inputs a move changes: the moving piece's input on its new square in, on its old
/// square out, and the inputs of the pieces it captured out (at most four soldiers and the
/// king).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    add: usize,
    sub: usize,
    removed: [u16; 5],
    removed_count: u8,
}

impl Delta {
    /// The change from `before` to `after`, reached by playing `mv`, which captured the
    /// soldiers `captured` (as `Board::play` returns them; a captured king is seen on `after`).
    /// `None` if `mv` does not move a piece of `before`.
    #[inline]
    pub fn of(before: &Board, after: &Board, mv: Move, captured: Bitboard) -> Option<Delta> {
        let piece = before.piece_at(mv.from())?;
        let victims = match piece {
            Piece::Attacker => Piece::Defender,
            Piece::Defender | Piece::King => Piece::Attacker,
        };
        let mut delta = Delta {
            add: feature(piece, mv.to()),
            sub: feature(piece, mv.from()),
            removed: [0; 5],
            removed_count: 0,
        };
        let king_taken = match (before.king(), after.king()) {
            (Some(k), None) => Some(feature(Piece::King, k)),
            _ => None,
        };
        for i in captured
            .into_iter()
            .map(|sq| feature(victims, sq))
            .chain(king_taken)
        {
            // A move captures at most four soldiers (one per direction) and the king.
            if let Some(slot) = delta.removed.get_mut(delta.removed_count as usize) {
                *slot = i as u16;
                delta.removed_count += 1;
            }
        }
        Some(delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::rules::Rules;

    #[test]
    fn the_wrong_hidden_size_is_refused() {
        let net = Network::random(8, RuleFamily::Default, 400.0, 1);
        let e = QuantNetwork::<16>::from_float(&net).unwrap_err();
        assert_eq!(e.to_string(), "hidden layer of 8 units, expected 16");
        assert!(QuantNetwork::<8>::from_float(&net).is_ok());
    }

    #[test]
    fn extreme_weights_saturate_without_overflow() {
        let mut net = Network::random(16, RuleFamily::Default, 400.0, 1);
        net.w1.iter_mut().for_each(|w| *w = 50.0);
        net.b1.iter_mut().for_each(|b| *b = 50.0);
        let q = QuantNetwork::<16>::from_float(&net).unwrap();
        let board = Board::start(&Rules::default());
        let mut acc = Accumulator::new(&q);
        acc.refresh(&q, &board);
        let top = (WEIGHT_CLIP * QA as f32).floor() as i16;
        assert!(acc.values().iter().all(|&v| v == top * 26), "{acc:?}");
    }
}
