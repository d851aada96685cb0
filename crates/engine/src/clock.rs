//! The clock the search, the bench and the engine's deadlines read.
//!
//! On every target but WebAssembly this is [`std::time::Instant`]. In a browser build
//! (`wasm32-unknown-unknown`) the standard library has no clock — `Instant::now` panics there —
//! so the same type comes from the `web-time` crate, which reads `performance.now()` and offers
//! the same API. Code that measures time imports [`Instant`] from here, never from `std`.

#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;
#[cfg(target_family = "wasm")]
pub use web_time::Instant;
