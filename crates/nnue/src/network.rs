//! The floating-point network and its file (docs/nnue.md, "The network file").
//!
//! `INPUTS` (3 × 81 piece-square inputs) → `hidden` units with a clipped ReLU (`clamp(x, 0,
//! 1)`) → one output per side to move. The output `y` is the side to move's score in units
//! of [`Network::scale`] centi-soldiers: the trainer fits `sigmoid(y)` to the target, and the
//! evaluation is `y × scale`.
//!
//! The file is a 32-byte header (magic `KNKNNUE\0`, version, the sizes, the rule family and
//! the scale), the weights as little-endian `f32`, and a CRC-32 of everything before it. The
//! integer network (module `quant`) is made from this one when it is loaded; the networks
//! built into the engine are stored in the quantized file of module `quant` instead, made
//! from their float files by `konakis quantize`.

use crate::{HEADS, INPUTS, RuleFamily, for_each_feature};
use konakis_core::board::Board;
use konakis_core::geometry::SQUARES;
use konakis_core::types::Side;
use konakis_core::zobrist::splitmix64;
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"KNKNNUE\0";
/// The version of the format this crate writes and reads.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;
/// The largest magnitude of a first-layer weight or bias. The trainer keeps them inside it,
/// so that the integer accumulator (weights × [`crate::quant::QA`], at most
/// [`crate::MAX_ACTIVE`] inputs and a bias) cannot overflow an `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;
/// The largest hidden layer a file may declare (a guard against absurd allocations).
pub const MAX_HIDDEN: usize = 4096;

/// A network with `f32` weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units.
    pub hidden: usize,
    /// The rules the network was trained for.
    pub family: RuleFamily,
    /// Centi-soldiers per unit of output.
    pub scale: f32,
    /// First-layer weights, one row of `hidden` per input (`w1[input * hidden + unit]`).
    pub w1: Vec<f32>,
    /// First-layer biases.
    pub b1: Vec<f32>,
    /// Output weights, one row of `hidden` per head (side to move).
    pub w2: Vec<f32>,
    /// Output biases, per head.
    pub b2: [f32; HEADS],
}

/// Why a network file cannot be loaded. Display names the problem.
#[derive(Debug, Error)]
pub enum NetError {
    /// The file cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The first bytes are not [`MAGIC`].
    #[error("not a Konakis network file (no KNKNNUE magic)")]
    Magic,
    /// Another version of the format.
    #[error("network format version {0}, this build reads version {VERSION}")]
    Version(u32),
    /// Inputs or heads other than this build's.
    #[error("network of {inputs} inputs and {heads} heads, this build has {INPUTS} and {HEADS}")]
    Architecture {
        /// Inputs in the file.
        inputs: u32,
        /// Heads in the file.
        heads: u32,
    },
    /// A hidden layer of 0 or more than [`MAX_HIDDEN`] units, or not the size asked for.
    #[error("hidden layer of {found} units, expected {expected}")]
    Hidden {
        /// Units in the file.
        found: usize,
        /// What was expected (for a file, 1 to MAX_HIDDEN).
        expected: String,
    },
    /// An unknown rule family code.
    #[error("unknown rule family {0}")]
    Family(u8),
    /// The scale is not a positive number.
    #[error("scale {0} is not a positive number")]
    Scale(f32),
    /// The file's length does not fit its header.
    #[error("{found} bytes, the header announces {expected}: truncated or padded")]
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match: the file is damaged.
    #[error(
        "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is damaged"
    )]
    Checksum {
        /// CRC-32 in the file.
        stored: u32,
        /// CRC-32 of the contents.
        computed: u32,
    },
    /// A weight is NaN or infinite.
    #[error("weight {0} is not a finite number")]
    NotFinite(usize),
    /// Another version of the quantized format (module `quant`).
    #[error(
        "quantized network format version {0}, this build reads versions {oldest} to {newest}",
        oldest = crate::quant_format::FILE_VERSIONS_READ[0],
        newest = crate::quant_format::FILE_VERSION
    )]
    QuantVersion(u32),
    /// A quantized file made with other scales than this build's.
    #[error(
        "network quantized with QA = {qa} and QB = {qb}, this build uses QA = {build_qa} and \
         QB = {build_qb}",
        build_qa = crate::quant_format::QA,
        build_qb = crate::quant_format::QB
    )]
    Quantization {
        /// The first layer's scale in the file.
        qa: u32,
        /// The output weights' scale in the file.
        qb: u32,
    },
    /// A value of a quantized file is outside what the integer network can hold without
    /// overflowing.
    #[error("quantized value {0} is out of range")]
    OutOfRange(usize),
}

impl Network {
    /// A network of `hidden` units with small random weights drawn from SplitMix64 seeded with
    /// `seed` (the trainer's starting point).
    pub fn random(hidden: usize, family: RuleFamily, scale: f32, seed: u64) -> Network {
        let mut state = seed;
        let mut uniform = |a: f32| {
            let u = (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * a
        };
        let w1 = (0..INPUTS * hidden).map(|_| uniform(0.1)).collect();
        let b1 = (0..hidden).map(|_| 0.25 + uniform(0.1)).collect();
        let a2 = 1.0 / (hidden as f32).sqrt();
        let w2 = (0..HEADS * hidden).map(|_| uniform(a2)).collect();
        Network {
            hidden,
            family,
            scale,
            w1,
            b1,
            w2,
            b2: [0.0; HEADS],
        }
    }

    /// The head for `side` to move.
    pub fn head(side: Side) -> usize {
        side.index()
    }

    /// The hidden layer before the activation, for the inputs `features`.
    pub fn accumulate(&self, features: impl IntoIterator<Item = usize>, acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for i in features {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output of `head` for the pre-activation hidden layer `acc`.
    pub fn output(&self, acc: &[f32], head: usize) -> f32 {
        let w = &self.w2[head * self.hidden..(head + 1) * self.hidden];
        self.b2[head]
            + acc
                .iter()
                .zip(w)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>()
    }

    /// The raw output for a position given by its bitboards (see [`for_each_feature`]).
    pub fn forward(&self, attackers: u128, defenders: u128, king: u8, head: usize) -> f32 {
        let mut features = Vec::with_capacity(crate::MAX_ACTIVE);
        for_each_feature(attackers, defenders, king, |i| features.push(i));
        let mut acc = vec![0.0; self.hidden];
        self.accumulate(features, &mut acc);
        self.output(&acc, head)
    }

    /// The evaluation of `board` in centi-soldiers, from the side to move's point of view.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let king = board.king().map_or(SQUARES as u8, |k| k.index() as u8);
        let y = self.forward(
            board.attackers().bits(),
            board.defenders().bits(),
            king,
            Network::head(board.side_to_move()),
        );
        y * self.scale
    }

    /// Bytes of the file for `hidden` units.
    pub fn file_size(hidden: usize) -> usize {
        HEADER_SIZE + 4 * (INPUTS * hidden + hidden + HEADS * hidden + HEADS) + 4
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(Network::file_size(self.hidden));
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(HEADS as u32).to_le_bytes());
        b.extend_from_slice(&[self.family.code(), 0, 0, 0]);
        b.extend_from_slice(&self.scale.to_le_bytes());
        for x in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// The network in a file's bytes, or why they are not one.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        let frame = Frame {
            magic: &MAGIC,
            header_size: HEADER_SIZE,
            versions: &[VERSION],
            wrong_version: NetError::Version,
            file_size: Network::file_size,
        };
        let (hidden, expected) = frame.check(b)?;
        let family = RuleFamily::from_code(b[24]).ok_or(NetError::Family(b[24]))?;
        let scale = f32::from_le_bytes(b[28..32].try_into().unwrap());
        if !(scale.is_finite() && scale > 0.0) {
            return Err(NetError::Scale(scale));
        }
        let floats: Vec<f32> = b[HEADER_SIZE..expected - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if let Some(i) = floats.iter().position(|x| !x.is_finite()) {
            return Err(NetError::NotFinite(i));
        }
        let (w1, rest) = floats.split_at(INPUTS * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(HEADS * hidden);
        Ok(Network {
            hidden,
            family,
            scale,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: [b2[0], b2[1]],
        })
    }

    /// Writes the network to `path` through a temporary file renamed into place, so that a
    /// reader never sees half a network.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        let io = |source| NetError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads the network in `path`.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Network::from_bytes(&bytes)
    }
}

/// What the float and the quantized network files share: a magic, a version, the
/// architecture (inputs, hidden units, heads) at bytes 12 to 23, a length set by the hidden
/// units and a CRC-32 of everything before it in the last four bytes.
pub(crate) struct Frame {
    /// The first eight bytes.
    pub magic: &'static [u8; 8],
    /// Bytes before the weights.
    pub header_size: usize,
    /// The versions this build reads.
    pub versions: &'static [u32],
    /// The error for another version.
    pub wrong_version: fn(u32) -> NetError,
    /// The file's length for a number of hidden units.
    pub file_size: fn(usize) -> usize,
}

impl Frame {
    /// The hidden units and the file's length, once the magic, the version, the
    /// architecture, the length and the checksum of `b` are found right.
    pub fn check(&self, b: &[u8]) -> Result<(usize, usize), NetError> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        if b.len() < 8 || b[0..8] != self.magic[..] {
            return Err(NetError::Magic);
        }
        if b.len() < self.header_size {
            return Err(NetError::Length {
                expected: self.header_size,
                found: b.len(),
            });
        }
        if !self.versions.contains(&u32_at(8)) {
            return Err((self.wrong_version)(u32_at(8)));
        }
        let (inputs, hidden, heads) = (u32_at(12), u32_at(16) as usize, u32_at(20));
        if inputs as usize != INPUTS || heads as usize != HEADS {
            return Err(NetError::Architecture { inputs, heads });
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden {
                found: hidden,
                expected: format!("1 to {MAX_HIDDEN}"),
            });
        }
        let expected = (self.file_size)(hidden);
        if b.len() != expected {
            return Err(NetError::Length {
                expected,
                found: b.len(),
            });
        }
        let stored = u32_at(expected - 4);
        let computed = crc32fast::hash(&b[..expected - 4]);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        Ok((hidden, expected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_named() {
        let net = Network::random(8, RuleFamily::English, 400.0, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_size(8));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 100] ^= 1;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(matches!(e, NetError::Checksum { .. }));
        assert!(e.to_string().contains("checksum mismatch"), "{e}");

        let e = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(matches!(e, NetError::Length { .. }), "{e}");
        let mut v2 = bytes.clone();
        v2[8] = 2;
        let e = Network::from_bytes(&v2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "network format version 2, this build reads version 1"
        );
        let e = Network::from_bytes(b"garbage").unwrap_err();
        assert!(matches!(e, NetError::Magic));
    }
}
