//! The numbers of the integer network that the float network's file errors also name: the
//! scales of its weights and the versions of its file. They live apart from the integer
//! network itself (`quant`, which re-exports them) so that the float network can name them
//! without depending on the integer network built from it.

/// The first layer's scale: 1.0 is `QA`.
pub const QA: i16 = 255;
/// The output weights' scale: fine enough that their rounding costs well under a
/// centi-soldier (docs/nnue.md), coarse enough that weights up to ±32 fit an `i16`.
pub const QB: i32 = 1024;
/// The version of the quantized file this crate writes.
pub const FILE_VERSION: u32 = 2;
/// The versions of the quantized file this crate reads: version 1 stored each value as a
/// little-endian `i16`, version 2 as two byte planes of zigzag codes (`QuantNetwork::to_bytes`).
pub const FILE_VERSIONS_READ: [u32; 2] = [1, FILE_VERSION];
