//! The network's hot loops compiled a second time for AVX2, and the choice, made once per
//! network, of which copy runs.
//!
//! The build targets x86-64-v2 (SSE4.2), whose vectors hold eight `i16`: compiled for it, the
//! output layer's sum of `clamp(a, 0, QA) × w` fills only half of each `pmaddwd`, and the
//! accumulator's row additions take 32 vector steps per 256 units. Compiled for AVX2, the sum
//! fills them (a quarter of the instructions) and the additions take 16 steps of 16 units.
//! The loops are the same plain Rust in both copies: [`Isa::run`] calls a [`Kernel`] either
//! directly or through a function compiled with AVX2 enabled, into which the kernel's code is
//! inlined and vectorised again. (The rows are 32-byte aligned and reach the kernel as
//! references, which tells the compiler so; else it splits each 32-byte access in two.)
//!
//! Calling a function compiled for AVX2 needs `unsafe` (on a processor without it, the
//! program would fault), and this crate forbids `unsafe` unless a measurement shows it is
//! worth it. Measured with callgrind on `konakis bench --depth 6` (1,344,118 nodes, the
//! search bit-identical): the search takes 1,759.8 instructions per node with the portable
//! copy and 1,689.2 with the AVX2 copy, 70.7 fewer (4.0 %); before this module it took
//! 1,766.5. The one `unsafe` call is in [`Isa::run`]; an [`Isa`] says AVX2 only when
//! `is_x86_feature_detected!("avx2")` did.
//!
//! Elsewhere than on x86-64 (wasm32, ARM) only the portable copy exists and [`Isa::run`] is a
//! plain call.

#![allow(unsafe_code)]

/// An operation on the network whose loops [`Isa::run`] runs in the copy the processor
/// supports. Implementations mark `run` `#[inline(always)]`, and the functions it calls too,
/// so that all its code is compiled into each copy.
pub(crate) trait Kernel {
    /// What the operation returns.
    type Output;
    /// Does the operation.
    fn run(self) -> Self::Output;
}

/// Which copy of the hot loops this processor runs: found once, when a network is made
/// ([`Isa::detect`]), and kept with it, so the search asks nothing on its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Isa {
    /// Set only by [`Isa::detect`], on a processor with AVX2.
    avx2: bool,
}

impl Isa {
    /// The copy compiled for the build's target, which runs anywhere the program runs.
    pub(crate) const PORTABLE: Isa = Isa { avx2: false };

    /// The best copy for this processor.
    pub(crate) fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Isa { avx2: true };
        }
        Isa::PORTABLE
    }

    /// Does the copy run AVX2?
    #[cfg(test)]
    pub(crate) fn is_avx2(self) -> bool {
        self.avx2
    }

    /// Runs `kernel` in this copy.
    #[inline(always)]
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is true only when `is_x86_feature_detected!("avx2")` found AVX2 on
            // this processor (Isa::detect; the field is private to this module).
            return unsafe { run_avx2(kernel) };
        }
        kernel.run()
    }
}

/// `kernel` compiled with AVX2 (its `run` is inlined here).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}
