//! The checks behind the fuzz targets, one plain function per target taking the raw input.
//! `tests/it/fuzz_corpora.rs` includes the same module to replay the kept corpora on stable Rust.

#![forbid(unsafe_code)]

pub mod checks;
