//! # konakis-wasm
//!
//! Konakis for the browser. Two APIs, both built by `web/build.sh` into an npm-style package
//! (`web/dist/konakis/`) with a hand-written JavaScript layer and TypeScript types:
//!
//! - [`rules`]: the rules, synchronous, for a front-end's own board (positions, legal moves,
//!   playing with typed errors, the game's status, the king's open lines, rule options and
//!   presets, OpenTafl records);
//! - [`session`]: the engine behind the same line protocol as the native program
//!   (`protocol.md`), meant to run in a Web Worker;
//! - [`review`]: the review of every move of a game (`analyseGame`), also for the worker;
//! - [`levels`]: the strength levels and their calibrated Elo (`levelsJson`), for a level
//!   picker.

#![forbid(unsafe_code)]

pub mod levels;
pub mod review;
pub mod rules;
pub mod session;
