//! Konakis' integration tests, as one test program (one link instead of one per file): each
//! module tests one part through the public API or the built `konakis` binary. Run one part
//! with its module path as the filter, `cargo test --release --test it protocol::`.

mod common;

mod analyse;
mod ashton_logs;
mod build;
mod challenge;
mod engine;
mod family;
mod family_matches;
mod fuzz_corpora;
mod imports;
mod levels;
mod matches;
mod names;
mod nnue;
mod otep;
mod perft;
mod protocol;
mod random;
mod recipes;
mod rules;
mod search;
mod shards;
mod tactics;
mod variants;
