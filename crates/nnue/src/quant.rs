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
//! arrays, which the compiler turns into vector instructions; on x86-64 processors with AVX2
//! a second copy of them, compiled for AVX2, runs instead (module `simd`).
//!
//! The integer network has a file of its own (docs/nnue.md, "The quantized network file"):
//! the values above, half the size of the float file and laid out to compress well (gzipped,
//! about a quarter of the float file), which is how the engine carries its built-in networks.
//! [`QuantNetwork::to_bytes`] is its one writer and [`QuantNetwork::from_bytes`] its one
//! reader; [`QuantHeader::read`] tells which hidden layer size a file holds before it is read.

use crate::network::{NetError, Network, WEIGHT_CLIP};
pub use crate::quant_format::{FILE_VERSION, FILE_VERSIONS_READ, QA, QB};
use crate::simd::{Isa, Kernel};
use crate::{HEADS, INPUTS, MAX_ACTIVE, RuleFamily, feature, for_each_feature};
use konakis_core::Bitboard;
use konakis_core::board::Board;
use konakis_core::geometry::SQUARES;
use konakis_core::types::{Move, Piece, Side};

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
/// Bytes of the quantized file's header.
pub const FILE_HEADER_SIZE: usize = 44;

/// A network with integer weights and `H` hidden units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNetwork<const H: usize> {
    w1: Vec<Lanes<H>>,
    b1: Lanes<H>,
    w2: [Lanes<H>; HEADS],
    b2: [i32; HEADS],
    /// Centi-soldiers per output unit, rounded.
    scale: i32,
    family: RuleFamily,
    /// The copy of the hot loops this processor runs (the same for every network made here).
    isa: Isa,
}

/// The first layer's pre-activations for one position, kept up to date move by move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator<const H: usize> {
    values: Lanes<H>,
}

/// `H` values on a 32-byte boundary (a row of weights, the biases, an accumulator): the loops
/// over them then load and store whole vectors, where the AVX2 copy splits each 32-byte access
/// it cannot prove aligned in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Lanes<const H: usize>([i16; H]);

impl<const H: usize> std::ops::Deref for Lanes<H> {
    type Target = [i16; H];
    #[inline(always)]
    fn deref(&self) -> &[i16; H] {
        &self.0
    }
}

impl<const H: usize> std::ops::DerefMut for Lanes<H> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16; H] {
        &mut self.0
    }
}

/// `x` as an unsigned code that is small when `x` is near zero: 0, -1, 1, -2, 2, … become
/// 0, 1, 2, 3, 4, …
fn zigzag(x: i16) -> u16 {
    ((x << 1) ^ (x >> 15)) as u16
}

/// The value whose [`zigzag`] code is `z`.
fn unzigzag(z: u16) -> i16 {
    (z >> 1) as i16 ^ -((z & 1) as i16)
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
    /// The `i16` values of a network of `hidden` units (first-layer weights and biases,
    /// output weights): the length of each byte plane of the file.
    pub fn value_count(hidden: usize) -> usize {
        INPUTS * hidden + hidden + HEADS * hidden
    }

    /// Bytes of the file for `hidden` units.
    pub fn file_size(hidden: usize) -> usize {
        FILE_HEADER_SIZE + 2 * QuantHeader::value_count(hidden) + 4 * HEADS + 4
    }

    /// The header of the quantized network file `b`, once the magic, the version, the
    /// architecture, the scales, the length and the checksum are found right.
    pub fn read(b: &[u8]) -> Result<QuantHeader, NetError> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let frame = crate::network::Frame {
            magic: &FILE_MAGIC,
            header_size: FILE_HEADER_SIZE,
            versions: &FILE_VERSIONS_READ,
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
        let mut w1 = vec![Lanes([0i16; H]); INPUTS];
        for (i, row) in w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = quantize(net.w1[i * H + j], qa, limit1);
            }
        }
        let mut b1 = Lanes([0i16; H]);
        for (j, b) in b1.iter_mut().enumerate() {
            *b = quantize(net.b1[j], qa, limit1);
        }
        let limit2 = output_limit(H) as f32;
        let mut w2 = [Lanes([0i16; H]); HEADS];
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
            isa: Isa::detect(),
        })
    }

    /// The rules the network was trained for.
    pub fn family(&self) -> RuleFamily {
        self.family
    }

    /// The quantized network file of this network (docs/nnue.md): the header, whose
    /// `source_checksum` names the float network it was made from, the `i16` values in the
    /// float file's order (first-layer weights input-major, first-layer biases, output weights
    /// head-major) as zigzag codes split into two planes, every code's low byte and then every
    /// code's high byte, the output biases little-endian, and a CRC-32 of everything before it.
    ///
    /// Most values are small, so the high plane is nearly all zeros and the low plane holds
    /// small numbers: a general-purpose compressor (the gzip a web server applies to the
    /// browser's `.wasm`, which carries the built-in networks) shrinks the file to about three
    /// quarters of what the plain little-endian layout of version 1 compresses to.
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
        let codes: Vec<u16> = self
            .w1
            .iter()
            .flat_map(|row| row.iter())
            .chain(self.b1.iter())
            .chain(self.w2.iter().flat_map(|row| row.iter()))
            .map(|&x| zigzag(x))
            .collect();
        b.extend(codes.iter().map(|&z| z.to_le_bytes()[0]));
        b.extend(codes.iter().map(|&z| z.to_le_bytes()[1]));
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
        let stored = &b[FILE_HEADER_SIZE..end];
        let version = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
        let values: Vec<i16> = if version == 1 {
            stored
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        } else {
            let (low, high) = stored.split_at(stored.len() / 2);
            low.iter()
                .zip(high)
                .map(|(&l, &h)| unzigzag(u16::from_le_bytes([l, h])))
                .collect()
        };
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
        let row = |r: &[i16]| -> Lanes<H> { Lanes(r.try_into().expect("H values")) };
        Ok(QuantNetwork {
            w1: first[..INPUTS * H].chunks_exact(H).map(row).collect(),
            b1: row(&first[INPUTS * H..]),
            w2: std::array::from_fn(|h| row(&w2[h * H..(h + 1) * H])),
            b2,
            scale: header.scale,
            family: header.family,
            isa: Isa::detect(),
        })
    }

    /// The evaluation, in centi-soldiers from the point of view of `side` (to move), of the
    /// position whose accumulator is `acc`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator<H>, side: Side) -> i32 {
        self.isa.run(Output {
            net: self,
            acc,
            side,
        })
    }

    /// This network running the copy `isa` of the hot loops (for the tests that compare them).
    #[cfg(test)]
    pub(crate) fn with_isa(mut self, isa: Isa) -> QuantNetwork<H> {
        self.isa = isa;
        self
    }

    /// The output layer's loop of [`QuantNetwork::evaluate`], for a [`Kernel`].
    #[inline(always)]
    pub(crate) fn output(&self, acc: &Accumulator<H>, side: Side) -> i32 {
        let w = &self.w2[side.index()];
        let mut sum = 0i32;
        for (a, w) in acc.values.iter().zip(w.iter()) {
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
        net.isa.run(Refresh {
            acc: self,
            net,
            board,
        })
    }

    /// Adds input `i`'s row.
    #[inline]
    pub fn add(&mut self, net: &QuantNetwork<H>, i: usize) {
        net.isa.run(Row {
            acc: self,
            net,
            i,
            add: true,
        })
    }

    /// Subtracts input `i`'s row.
    #[inline]
    pub fn sub(&mut self, net: &QuantNetwork<H>, i: usize) {
        net.isa.run(Row {
            acc: self,
            net,
            i,
            add: false,
        })
    }

    /// Sets this accumulator to `parent`'s with `delta` applied, in one pass over the rows
    /// (cheaper than copying `parent` and then updating the copy: docs/nnue.md).
    #[inline]
    pub fn set_child(&mut self, net: &QuantNetwork<H>, parent: &Accumulator<H>, delta: &Delta) {
        net.isa.run(SetChild {
            acc: self,
            parent,
            plus: &net.w1[delta.add as usize],
            minus: &net.w1[delta.sub as usize],
            net,
            delta,
        })
    }

    /// The loops of [`Accumulator::refresh`], for a [`Kernel`].
    #[inline(always)]
    fn refresh_rows(&mut self, net: &QuantNetwork<H>, board: &Board) {
        self.values = net.b1;
        let king = board.king().map_or(SQUARES as u8, |k| k.index() as u8);
        for_each_feature(
            board.attackers().bits(),
            board.defenders().bits(),
            king,
            |i| self.add_row(net, i),
        );
    }

    /// The loop of [`Accumulator::add`], for a [`Kernel`].
    #[inline(always)]
    fn add_row(&mut self, net: &QuantNetwork<H>, i: usize) {
        for (a, w) in self.values.iter_mut().zip(net.w1[i].iter()) {
            *a = a.wrapping_add(*w);
        }
    }

    /// The loop of [`Accumulator::sub`], for a [`Kernel`].
    #[inline(always)]
    fn sub_row(&mut self, net: &QuantNetwork<H>, i: usize) {
        for (a, w) in self.values.iter_mut().zip(net.w1[i].iter()) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// The loop of [`Accumulator::set_child`] over the moving piece's two rows, for a
    /// [`Kernel`].
    #[inline(always)]
    fn child_rows(&mut self, parent: &Accumulator<H>, plus: &Lanes<H>, minus: &Lanes<H>) {
        for (((a, p), w), m) in self
            .values
            .iter_mut()
            .zip(parent.values.iter())
            .zip(plus.iter())
            .zip(minus.iter())
        {
            *a = p.wrapping_add(w.wrapping_sub(*m));
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

/// [`QuantNetwork::evaluate`]'s loop as a [`Kernel`].
struct Output<'a, const H: usize> {
    net: &'a QuantNetwork<H>,
    acc: &'a Accumulator<H>,
    side: Side,
}

impl<const H: usize> Kernel for Output<'_, H> {
    type Output = i32;
    #[inline(always)]
    fn run(self) -> i32 {
        self.net.output(self.acc, self.side)
    }
}

/// [`Accumulator::refresh`]'s loops as a [`Kernel`].
struct Refresh<'a, const H: usize> {
    acc: &'a mut Accumulator<H>,
    net: &'a QuantNetwork<H>,
    board: &'a Board,
}

impl<const H: usize> Kernel for Refresh<'_, H> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.acc.refresh_rows(self.net, self.board)
    }
}

/// [`Accumulator::add`]'s or [`Accumulator::sub`]'s loop as a [`Kernel`].
struct Row<'a, const H: usize> {
    acc: &'a mut Accumulator<H>,
    net: &'a QuantNetwork<H>,
    i: usize,
    /// Add the row (else subtract it).
    add: bool,
}

impl<const H: usize> Kernel for Row<'_, H> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        if self.add {
            self.acc.add_row(self.net, self.i)
        } else {
            self.acc.sub_row(self.net, self.i)
        }
    }
}

/// [`Accumulator::set_child`]'s loops as a [`Kernel`]. The moving piece's two rows are
/// found before the call: references that come in from outside tell the compiler that they
/// are aligned ([`Lanes`]), rows found inside from the network's `Vec` do not.
struct SetChild<'a, const H: usize> {
    acc: &'a mut Accumulator<H>,
    parent: &'a Accumulator<H>,
    plus: &'a Lanes<H>,
    minus: &'a Lanes<H>,
    net: &'a QuantNetwork<H>,
    delta: &'a Delta,
}

impl<const H: usize> Kernel for SetChild<'_, H> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.acc.child_rows(self.parent, self.plus, self.minus);
        let delta = self.delta;
        for &i in &delta.removed[..delta.removed_count as usize] {
            self.acc.sub_row(self.net, i as usize);
        }
    }
}

/// The inputs a move changes: the moving piece's input on its new square in, on its old
/// square out, and the inputs of the pieces it captured out (at most four soldiers and the
/// king).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    add: u16,
    sub: u16,
    removed: [u16; 5],
    removed_count: u8,
}

impl Delta {
    /// The change from `before` to `after`, reached by playing `mv`, which captured the
    /// soldiers `captured` (as `Board::play` returns them; a captured king is seen on `after`).
    /// `None` if `mv` does not move a piece of the side to move in `before`.
    #[inline]
    pub fn of(before: &Board, after: &Board, mv: Move, captured: Bitboard) -> Option<Delta> {
        let from = mv.from();
        // The mover is of the side to move, and its captives of the other side.
        let (piece, victims) = match before.side_to_move() {
            Side::Attackers if before.attackers().has(from) => (Piece::Attacker, Piece::Defender),
            Side::Defenders if before.king() == Some(from) => (Piece::King, Piece::Attacker),
            Side::Defenders if before.defenders().has(from) => (Piece::Defender, Piece::Attacker),
            _ => return None,
        };
        let mut delta = Delta {
            add: feature(piece, mv.to()) as u16,
            sub: feature(piece, from) as u16,
            removed: [0; 5],
            removed_count: 0,
        };
        // A move captures at most four soldiers (one per direction) and the king.
        for (slot, sq) in delta.removed.iter_mut().zip(captured) {
            *slot = feature(victims, sq) as u16;
            delta.removed_count += 1;
        }
        if let (Some(k), None) = (before.king(), after.king())
            && let Some(slot) = delta.removed.get_mut(delta.removed_count as usize)
        {
            *slot = feature(Piece::King, k) as u16;
            delta.removed_count += 1;
        }
        Some(delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stack::AccumulatorStack;
    use konakis_core::rules::Rules;
    use std::sync::Arc;

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
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert_eq!(
            refused(&resealed(v3)),
            "quantized network format version 3, this build reads versions 1 to 2"
        );
        let mut qa = bytes.clone();
        qa[32] = 64;
        assert_eq!(
            refused(&resealed(qa)),
            "network quantized with QA = 64 and QB = 1024, this build uses QA = 255 and QB = 1024"
        );
        // A first-layer weight the accumulator could overflow with, checksum and all right.
        let mut big = bytes.clone();
        let planes = QuantHeader::value_count(16);
        let [low, high] = zigzag(i16::MIN).to_le_bytes();
        big[FILE_HEADER_SIZE + 3] = low;
        big[FILE_HEADER_SIZE + planes + 3] = high;
        assert_eq!(refused(&resealed(big)), "quantized value 3 is out of range");
    }

    #[test]
    fn zigzag_codes_every_value_once_small_values_small() {
        let mut seen = vec![false; 1 << 16];
        for x in i16::MIN..=i16::MAX {
            let z = zigzag(x);
            assert_eq!(unzigzag(z), x);
            assert!(!seen[z as usize], "{x} shares the code {z}");
            seen[z as usize] = true;
        }
        assert_eq!([0, -1, 1, -2, 2].map(zigzag), [0, 1, 2, 3, 4]);
        assert_eq!(zigzag(i16::MIN), u16::MAX);
    }

    #[test]
    fn a_version_1_file_reads_as_the_same_network() {
        let float = Network::random(16, RuleFamily::Ashton, 350.0, 9);
        let q = QuantNetwork::<16>::from_float(&float).unwrap();
        let v2 = q.to_bytes(7);
        // The same values in version 1's layout: each value a little-endian i16, in order.
        let planes = QuantHeader::value_count(16);
        let mut v1 = v2[..FILE_HEADER_SIZE].to_vec();
        v1[8] = 1;
        for i in 0..planes {
            let code =
                u16::from_le_bytes([v2[FILE_HEADER_SIZE + i], v2[FILE_HEADER_SIZE + planes + i]]);
            v1.extend_from_slice(&unzigzag(code).to_le_bytes());
        }
        v1.extend_from_slice(&v2[FILE_HEADER_SIZE + 2 * planes..v2.len() - 4]);
        v1.extend_from_slice(&[0; 4]);
        let v1 = resealed(v1);
        assert_ne!(v1, v2);
        assert_eq!(QuantNetwork::<16>::from_bytes(&v1).unwrap(), q);
        assert_eq!(
            QuantHeader::read(&v1).unwrap(),
            QuantHeader::read(&v2).unwrap()
        );
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

    /// A network of `H` units whose first-layer weights are large enough that many
    /// pre-activations fall below 0 or above `QA`, so that the clipping is exercised.
    fn clipped_network<const H: usize>(seed: u64) -> QuantNetwork<H> {
        let mut float = Network::random(H, RuleFamily::Default, 400.0, seed);
        for w in float.w1.iter_mut().chain(float.b1.iter_mut()) {
            *w = (*w * 15.0).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        for w in &mut float.w2 {
            *w *= 8.0;
        }
        float.b2 = [0.3, -0.2];
        QuantNetwork::from_float(&float).unwrap()
    }

    /// SplitMix64: the tests' random moves.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Calls `f(before, after, mv, captured)` for every move of random games under each rule
    /// family (`None` for an occasional pass, as the search's null move).
    fn random_games(games: u64, mut f: impl FnMut(&Board, &Board, Option<Move>, Bitboard)) {
        let mut english = Rules::default();
        english.set("KingCapture", "English").unwrap();
        for rules in [Rules::default(), english, Rules::ashton()] {
            for game in 0..games {
                let mut state = game;
                let mut board = Board::start(&rules);
                for _ in 0..200 {
                    if board.status(&rules).is_over() {
                        break;
                    }
                    let moves = board.legal_moves(&rules);
                    let mut after = board;
                    if next(&mut state).is_multiple_of(16) {
                        after.pass();
                        f(&board, &after, None, Bitboard::default());
                    } else {
                        let mv = moves[(next(&mut state) % moves.len() as u64) as usize];
                        let captured = after.play(&rules, mv);
                        f(&board, &after, Some(mv), captured);
                    }
                    board = after;
                }
            }
        }
    }

    /// The change [`Delta::of`] found before it was made cheaper: the moving piece from the
    /// board, whichever side it is of.
    fn delta_from_pieces(before: &Board, after: &Board, mv: Move, captured: Bitboard) -> Delta {
        let piece = before.piece_at(mv.from()).unwrap();
        let victims = match piece {
            Piece::Attacker => Piece::Defender,
            Piece::Defender | Piece::King => Piece::Attacker,
        };
        let king_taken = match (before.king(), after.king()) {
            (Some(k), None) => Some(feature(Piece::King, k)),
            _ => None,
        };
        let removed: Vec<usize> = captured
            .into_iter()
            .map(|sq| feature(victims, sq))
            .chain(king_taken)
            .take(5)
            .collect();
        let mut delta = Delta {
            add: feature(piece, mv.to()) as u16,
            sub: feature(piece, mv.from()) as u16,
            removed: [0; 5],
            removed_count: removed.len() as u8,
        };
        for (slot, i) in delta.removed.iter_mut().zip(removed) {
            *slot = i as u16;
        }
        delta
    }

    #[test]
    fn the_change_of_a_move_is_found_from_the_side_to_move() {
        let (mut moves, mut captures, mut kings) = (0, 0, 0);
        random_games(20, |before, after, mv, captured| {
            let Some(mv) = mv else { return };
            let delta = Delta::of(before, after, mv, captured).unwrap();
            assert_eq!(delta, delta_from_pieces(before, after, mv, captured));
            moves += 1;
            captures += captured.len() as usize;
            kings += usize::from(after.king().is_none());
        });
        assert!(
            moves > 3000 && captures > 100 && kings > 0,
            "{moves} {captures} {kings}"
        );
        // A move of a piece of the side not to move, or from an empty square, is not one.
        let rules = Rules::default();
        let mut board = Board::start(&rules);
        let none = |board: &Board, text: &str| {
            let mv = Move::parse(text).unwrap();
            Delta::of(board, board, mv, Bitboard::default()).is_none()
        };
        // The attackers to move: a defending soldier, the king, an empty square.
        assert!(none(&board, "e3h3") && none(&board, "e5e2") && none(&board, "b2b3"));
        assert!(!none(&board, "a5a2"));
        // The defenders to move: an attacking soldier.
        board.pass();
        assert!(none(&board, "a5a2") && !none(&board, "e3h3"));
    }

    #[test]
    fn the_avx2_copy_of_the_loops_matches_the_portable_one() {
        if !Isa::detect().is_avx2() {
            eprintln!("no AVX2 on this processor: only the portable copy runs");
            return;
        }
        fn check<const H: usize>(seed: u64) {
            let fast = Arc::new(clipped_network::<H>(seed));
            let portable = Arc::new((*fast).clone().with_isa(Isa::PORTABLE));
            assert!(fast.isa.is_avx2());
            let (mut a, mut b) = (Accumulator::new(&fast), Accumulator::new(&portable));
            let mut stacks = (
                AccumulatorStack::new(fast.clone(), 300),
                AccumulatorStack::new(portable.clone(), 300),
            );
            let (mut ply, mut evaluated, mut clipped) = (0, 0, 0);
            let mut state = seed;
            random_games(4, |before, after, mv, captured| {
                if before.plies() == 0 {
                    a.refresh(&fast, before);
                    b.refresh(&portable, before);
                    assert_eq!(a, b);
                    stacks.0.set_root(before);
                    stacks.1.set_root(before);
                    ply = 0;
                }
                ply += 1;
                stacks.0.enter(ply, before, after, mv, captured);
                stacks.1.enter(ply, before, after, mv, captured);
                if let Some(mv) = mv {
                    a.update(&fast, before, after, mv, captured);
                    b.update(&portable, before, after, mv, captured);
                }
                assert_eq!(a, b);
                for side in [Side::Attackers, Side::Defenders] {
                    assert_eq!(fast.evaluate(&a, side), portable.evaluate(&b, side));
                }
                // Evaluate the path now and then, so that several plies are brought up to
                // date at once.
                if next(&mut state).is_multiple_of(3) {
                    let side = after.side_to_move();
                    let e = stacks.0.evaluate(ply, side);
                    assert_eq!(e, stacks.1.evaluate(ply, side));
                    assert_eq!(e, fast.evaluate_board(after));
                    assert_eq!(stacks.0.accumulator(ply), stacks.1.accumulator(ply));
                    assert!(stacks.0.is_fresh(ply, after));
                    evaluated += 1;
                }
                clipped += a
                    .values()
                    .iter()
                    .filter(|&&v| !(0..=QA).contains(&v))
                    .count();
            });
            assert!(evaluated > 100 && clipped > 1000, "{evaluated} {clipped}");
            // The single rows and their removal.
            let board = Board::start(&Rules::default());
            a.refresh(&fast, &board);
            b.refresh(&portable, &board);
            for i in [0, 17, INPUTS - 1] {
                a.add(&fast, i);
                b.add(&portable, i);
                assert_eq!(a, b);
                a.sub(&fast, i);
                b.sub(&portable, i);
                assert_eq!(a, b);
            }
        }
        check::<HIDDEN>(1);
        check::<HIDDEN_WIDE>(2);
        // A size that is not a multiple of the vector width.
        check::<40>(3);
    }
}
