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
//!
//! The integer network has a file of its own (docs/nnue.md, "The quantized network file"):
//! the values above as they are, half the size of the float file and much smaller compressed,
//! which is how the engine carries its built-in networks. [`QuantNetwork::to_bytes`] is its
//! one writer and [`QuantNetwork::from_bytes`] its one reader; [`QuantHeader::read`] tells
//! which hidden layer size a file holds before it is read.

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

/// The first eight bytes of a quantized network file.
pub const FILE_MAGIC: [u8; 8] = *b"KNKQNUE\0";
/// The version of the quantized file this crate writes and reads.
pub const FILE_VERSION: u32 = 1;
/// Bytes of the quantized file's header.
pub const FILE_HEADER_SIZE: usize = 44;

/// A network with integer weights and `H` hidden units.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// The largest magnitude of a first-layer weight or bias: [`WEIGHT_CLIP`] in units of [`QA`].
fn first_layer_limit() -> i16 {
    (WEIGHT_CLIP * QA as f32).floor() as i16
}

/// The largest magnitude of an output weight for `hidden` units: the output sum, at most
/// `hidden × QA × |w|`, must fit an `i32`.
fn output_limit(hidden: usize) -> i16 {
    (i32::MAX as f32 / (hidden as f32 * QA as f32))
        .min(i16::MAX as f32)
        .floor() as i16
}

/// The largest magnitude of an output bias.
const BIAS_LIMIT: u32 = 1_000_000_000;

/// What a quantized network file's header says, read and checked (with the whole file's
/// length and checksum) by [`QuantHeader::read`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantHeader {
    /// Hidden units.
    pub hidden: usize,
    /// The rules the network was trained for.
    pub family: RuleFamily,
    /// Centi-soldiers per unit of output.
    pub scale: i32,
    /// The checksum of the float network file it was made from, which names the network
    /// (`konakis datagen` writes it into its data headers).
    pub source_checksum: u32,
}

impl QuantHeader {
    /// Bytes of the file for `hidden` units.
    pub fn file_size(hidden: usize) -> usize {
        FILE_HEADER_SIZE + 2 * (INPUTS * hidden + hidden + HEADS * hidden) + 4 * HEADS + 4
    }

    /// The header of the quantized network file `b`, once the magic, the version, the
    /// architecture, the scales, the length and the checksum are found right.
    pub fn read(b: &[u8]) -> Result<QuantHeader, NetError> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let frame = crate::network::Frame {
            magic: &FILE_MAGIC,
            header_size: FILE_HEADER_SIZE,
            version: FILE_VERSION,
            wrong_version: NetError::QuantVersion,
            file_size: QuantHeader::file_size,
        };
        let (hidden, _) = frame.check(b)?;
        let (qa, qb) = (u32_at(32), u32_at(36));
        if qa != QA as u32 || qb != QB as u32 {
            return Err(NetError::Quantization { qa, qb });
        }
        let family = RuleFamily::from_code(b[24]).ok_or(NetError::Family(b[24]))?;
        let scale = u32_at(28) as i32;
        if scale <= 0 {
            return Err(NetError::Scale(scale as f32));
        }
        Ok(QuantHeader {
            hidden,
            family,
            scale,
            source_checksum: u32_at(40),
        })
    }
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
        let limit1 = first_layer_limit() as f32;
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
        let limit2 = output_limit(H) as f32;
        let mut w2 = [[0i16; H]; HEADS];
        for (h, row) in w2.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = quantize(net.w2[h * H + j], QB as f32, limit2);
            }
        }
        let b2 = net.b2.map(|b| {
            let limit = BIAS_LIMIT as f32;
            (b * qa * QB as f32).round().clamp(-limit, limit) as i32
        });
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

    /// The quantized network file of this network (docs/nnue.md): the header, whose
    /// `source_checksum` names the float network it was made from, the values little-endian
    /// in the float file's order (first-layer weights input-major, first-layer biases, output
    /// weights head-major, output biases), and a CRC-32 of everything before it.
    pub fn to_bytes(&self, source_checksum: u32) -> Vec<u8> {
        let mut b = Vec::with_capacity(QuantHeader::file_size(H));
        b.extend_from_slice(&FILE_MAGIC);
        for x in [FILE_VERSION, INPUTS as u32, H as u32, HEADS as u32] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&[self.family.code(), 0, 0, 0]);
        b.extend_from_slice(&self.scale.to_le_bytes());
        b.extend_from_slice(&(QA as u32).to_le_bytes());
        b.extend_from_slice(&(QB as u32).to_le_bytes());
        b.extend_from_slice(&source_checksum.to_le_bytes());
        for x in self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten())
        {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for x in self.b2 {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// The network in a quantized file's bytes, or why they are not one of `H` hidden units
    /// (a damaged file, or values the integer network cannot hold).
    pub fn from_bytes(b: &[u8]) -> Result<QuantNetwork<H>, NetError> {
        let header = QuantHeader::read(b)?;
        if header.hidden != H {
            return Err(NetError::Hidden {
                found: header.hidden,
                expected: H.to_string(),
            });
        }
        let end = b.len() - 4 - 4 * HEADS;
        let values: Vec<i16> = b[FILE_HEADER_SIZE..end]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (first, w2) = values.split_at((INPUTS + 1) * H);
        let (limit1, limit2) = (
            first_layer_limit().unsigned_abs(),
            output_limit(H).unsigned_abs(),
        );
        if let Some(i) = first.iter().position(|x| x.unsigned_abs() > limit1) {
            return Err(NetError::OutOfRange(i));
        }
        if let Some(i) = w2.iter().position(|x| x.unsigned_abs() > limit2) {
            return Err(NetError::OutOfRange(first.len() + i));
        }
        let b2: [i32; HEADS] = std::array::from_fn(|h| {
            i32::from_le_bytes(b[end + 4 * h..end + 4 * h + 4].try_into().expect("4 bytes"))
        });
        if let Some(h) = b2.iter().position(|x| x.unsigned_abs() > BIAS_LIMIT) {
            return Err(NetError::OutOfRange(values.len() + h));
        }
        let row = |r: &[i16]| -> [i16; H] { r.try_into().expect("H values") };
        Ok(QuantNetwork {
            w1: first[..INPUTS * H].chunks_exact(H).map(row).collect(),
            b1: row(&first[INPUTS * H..]),
            w2: std::array::from_fn(|h| row(&w2[h * H..(h + 1) * H])),
            b2,
            scale: header.scale,
            family: header.family,
        })
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

    /// `b` with its checksum made right again after an edit.
    fn resealed(mut b: Vec<u8>) -> Vec<u8> {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        b
    }

    #[test]
    fn the_quantized_file_round_trips_and_bad_files_are_refused_by_name() {
        let float = Network::random(16, RuleFamily::English, 400.0, 5);
        let q = QuantNetwork::<16>::from_float(&float).unwrap();
        let bytes = q.to_bytes(0xdead_beef);
        assert_eq!(bytes.len(), QuantHeader::file_size(16));
        assert_eq!(QuantNetwork::<16>::from_bytes(&bytes).unwrap(), q);
        assert_eq!(
            QuantHeader::read(&bytes).unwrap(),
            QuantHeader {
                hidden: 16,
                family: RuleFamily::English,
                scale: 400,
                source_checksum: 0xdead_beef,
            }
        );
        let refused = |b: &[u8]| QuantNetwork::<16>::from_bytes(b).unwrap_err().to_string();
        assert_eq!(
            QuantNetwork::<8>::from_bytes(&bytes)
                .unwrap_err()
                .to_string(),
            "hidden layer of 16 units, expected 8"
        );
        let mut flipped = bytes.clone();
        flipped[FILE_HEADER_SIZE + 10] ^= 1;
        assert!(refused(&flipped).starts_with("checksum mismatch"));
        assert_eq!(
            refused(&bytes[..bytes.len() - 2]),
            format!(
                "{} bytes, the header announces {}: truncated or padded",
                bytes.len() - 2,
                bytes.len()
            )
        );
        assert_eq!(
            refused(&float.to_bytes()),
            "not a Konakis network file (no KNKNNUE magic)"
        );
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert_eq!(
            refused(&resealed(v2)),
            "quantized network format version 2, this build reads version 1"
        );
        let mut qa = bytes.clone();
        qa[32] = 64;
        assert_eq!(
            refused(&resealed(qa)),
            "network quantized with QA = 64 and QB = 1024, this build uses QA = 255 and QB = 1024"
        );
        // A first-layer weight the accumulator could overflow with, checksum and all right.
        let mut big = bytes.clone();
        big[FILE_HEADER_SIZE + 6..FILE_HEADER_SIZE + 8].copy_from_slice(&i16::MIN.to_le_bytes());
        assert_eq!(refused(&resealed(big)), "quantized value 3 is out of range");
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
