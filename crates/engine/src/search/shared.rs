//! The state all search threads share (`Searcher::go` readies it for each search): the
//! transposition table, the stop and ponder flags, the node counter, the time limits, the
//! Lazy SMP helpers' best line and the network.

use super::time::Budget;
use super::tt::TranspositionTable;
use super::{Cancel, Limits, MAX_PLY, Signal};
use crate::Size;
use crate::clock::Instant;
use crate::network::Net;
use konakis_core::types::MoveOf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

/// State all search threads share.
pub(crate) struct Shared<G: Size> {
    pub(crate) tt: TranspositionTable,
    pub(crate) stop: AtomicBool,
    pub(crate) pondering: AtomicBool,
    pub(crate) nodes: AtomicU64,
    /// Hard deadline in ms after `start`, or `u64::MAX`.
    pub(crate) hard_ms: AtomicU64,
    /// Soft limit in ms after `start`, or `u64::MAX`.
    pub(crate) soft_ms: AtomicU64,
    /// Budget to apply from `ponderhit`.
    pub(crate) ponder_budget: Mutex<Option<Budget>>,
    pub(crate) start: Mutex<Instant>,
    /// Lazy SMP: the deepest iteration a helper thread has completed in this search (0 for
    /// none), and its score and principal variation in `helper_line`. The main thread takes it
    /// over instead of finishing the same depth itself.
    pub(crate) helper_depth: AtomicI32,
    pub(crate) helper_line: Mutex<(i32, Vec<MoveOf<G>>)>,
    /// The network that evaluates in this search; `None` for the classical evaluation.
    pub(crate) net: Mutex<Option<Net>>,
}

impl<G: Size> Shared<G> {
    #[cfg(test)]
    pub(super) fn new(hash_mib: usize) -> Shared<G> {
        Shared::with_table(TranspositionTable::new(hash_mib))
    }

    pub(super) fn with_table(tt: TranspositionTable) -> Shared<G> {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            hard_ms: AtomicU64::new(u64::MAX),
            soft_ms: AtomicU64::new(u64::MAX),
            ponder_budget: Mutex::new(None),
            start: Mutex::new(Instant::now()),
            helper_depth: AtomicI32::new(0),
            // Room for any line, so that a helper publishing one allocates nothing.
            helper_line: Mutex::new((0, Vec::with_capacity(MAX_PLY + 1))),
            net: Mutex::new(None),
        }
    }

    /// Records a helper's completed iteration if it is deeper than any before.
    pub(super) fn publish_helper_line(&self, depth: i32, score: i32, pv: &[MoveOf<G>]) {
        if pv.is_empty() {
            return;
        }
        if let Ok(mut line) = self.helper_line.lock()
            && depth > self.helper_depth.load(Ordering::Relaxed)
        {
            line.0 = score;
            line.1.clear();
            line.1.extend_from_slice(pv);
            self.helper_depth.store(depth, Ordering::Release);
        }
    }

    /// The deepest helper iteration, if it reached `depth`: its depth, score and line.
    pub(super) fn helper_line_from(&self, depth: i32) -> Option<(i32, i32, Vec<MoveOf<G>>)> {
        let line = self.helper_line.lock().ok()?;
        let d = self.helper_depth.load(Ordering::Acquire);
        (d >= depth).then(|| (d, line.0, line.1.clone()))
    }

    /// The opponent played the expected move: the ponder search's clock budget starts now,
    /// and it searches on as a timed search.
    pub(super) fn ponderhit(&self) {
        if let Ok(b) = self.ponder_budget.lock()
            && let Some(b) = *b
        {
            let now = self.elapsed_ms();
            self.soft_ms
                .store(now + b.soft.as_millis() as u64, Ordering::SeqCst);
            self.hard_ms
                .store(now + b.hard.as_millis() as u64, Ordering::SeqCst);
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Under `infinite` or `ponder`, waits for `stop` (or the ponderhit that makes the search
    /// a timed one), asking `cancel` the while; returns at once otherwise.
    pub(super) fn wait_for_stop(&self, limits: &Limits<G>, cancel: Cancel) {
        while (limits.infinite || self.pondering.load(Ordering::SeqCst))
            && !self.stop.load(Ordering::SeqCst)
            && !self.cancelled(cancel)
        {
            // A browser's worker cannot sleep (std's sleep panics there); it asks `cancel`
            // again at once, which is all it has to do until the answer goes out.
            #[cfg(not(target_family = "wasm"))]
            std::thread::sleep(std::time::Duration::from_millis(1));
            #[cfg(target_family = "wasm")]
            std::hint::spin_loop();
        }
    }

    /// Asks `cancel`, acting on a `ponderhit` at once; whether it says stop.
    #[inline]
    pub(super) fn cancelled(&self, cancel: Cancel) -> bool {
        match cancel.signal() {
            Signal::Continue => false,
            Signal::Stop => true,
            Signal::PonderHit => {
                if self.pondering.load(Ordering::SeqCst) {
                    self.ponderhit();
                }
                false
            }
        }
    }

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start
            .lock()
            .map(|s| s.elapsed().as_millis() as u64)
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::types::Move;

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("a move")
    }

    #[test]
    fn only_a_deeper_helper_iteration_replaces_the_published_line() {
        let shared = Shared::new(1);
        assert_eq!(shared.helper_line_from(1), None, "nothing published yet");
        shared.publish_helper_line(5, 30, &[mv("d1d3"), mv("e3e1")]);
        shared.publish_helper_line(4, -10, &[mv("a4a2")]);
        shared.publish_helper_line(6, 12, &[]);
        assert_eq!(
            shared.helper_line_from(5),
            Some((5, 30, vec![mv("d1d3"), mv("e3e1")])),
            "a shallower or empty line is ignored"
        );
        assert_eq!(shared.helper_line_from(6), None, "depth 6 not reached");
        shared.publish_helper_line(7, -40, &[mv("a4a2")]);
        assert_eq!(shared.helper_line_from(6), Some((7, -40, vec![mv("a4a2")])));
    }
}
