//! One search as it runs on whichever thread it is given (the searcher's own for `go`, the
//! caller's for a search that returns its answer): the search proper or, below full
//! strength, the level's search ([`crate::skill`]), then the wait for `stop` that `infinite`
//! and `ponder` ask for, and exactly one [`Report::BestMove`]. The searcher (`searcher.rs`)
//! readies the shared state and hands over what the search needs in a [`Task`].

use super::deepen::{RunContext, run};
use super::pool::Crew;
use super::{Cancel, Limits, Report, Settings, Shared};
use crate::Size;
use crate::skill;
use konakis_core::board::GameOf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Everything one search needs from the searcher, to run on whichever thread.
pub(super) struct Task<G: Size> {
    pub(super) shared: Arc<Shared<G>>,
    pub(super) settings: Settings,
    /// The threads: the main thread's state and the helpers.
    pub(super) crew: Arc<Crew<G>>,
    /// Whether the searcher is busy; cleared when the answer goes out.
    pub(super) running: Arc<AtomicBool>,
}

impl<G: Size> Task<G> {
    /// The search, the wait for `stop` that `infinite` and `ponder` ask for, and the answer.
    pub(super) fn run(
        self,
        game: &GameOf<G>,
        limits: &Limits<G>,
        cancel: Cancel,
        report: &mut (dyn FnMut(Report<G>) + Send),
    ) {
        let shared = &self.shared;
        let context = RunContext {
            shared,
            settings: &self.settings,
            crew: &self.crew,
        };
        let plan = skill::Plan::new(&self.settings.skill, limits, game.board().hash());
        let (best, ponder) = match plan {
            None => run(&context, game, limits, cancel, report),
            Some(plan) => skill::play_at_level(plan, &context, game, limits, cancel, report),
        };
        // Under `infinite` or `ponder` the answer waits for `stop` (or `ponderhit`).
        shared.wait_for_stop(limits, cancel);
        self.running.store(false, Ordering::SeqCst);
        report(Report::BestMove { best, ponder });
    }
}
