//! One search as it runs on whichever thread it is given (the searcher's own for `go`, the
//! caller's for a search that returns its answer): the search proper or, below full
//! strength, the level's search ([`crate::skill`]), then the wait for `stop` that `infinite`
//! and `ponder` ask for, and exactly one [`Report::BestMove`]. The searcher (`searcher.rs`)
//! readies the shared state and hands over what the search needs in a [`Task`].

use super::deepen::{RunContext, run};
use super::root_split::Pool;
use super::{Cancel, Limits, Report, Settings, Shared};
use crate::skill;
use konakis_core::board::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Everything one search needs from the searcher, to run on whichever thread.
pub(super) struct Task {
    pub(super) shared: Arc<Shared>,
    pub(super) settings: Settings,
    pub(super) pool: Option<Arc<Pool>>,
    /// The quiet history carried between searches of one game.
    pub(super) quiet_history: Arc<Mutex<Vec<i32>>>,
    /// Whether the searcher is busy; cleared when the answer goes out.
    pub(super) running: Arc<AtomicBool>,
}

impl Task {
    /// The search, the wait for `stop` that `infinite` and `ponder` ask for, and the answer.
    pub(super) fn run(
        self,
        game: &Game,
        limits: &Limits,
        cancel: Cancel,
        report: &mut (dyn FnMut(Report) + Send),
    ) {
        let shared = &self.shared;
        let context = RunContext {
            shared,
            settings: &self.settings,
            pool: self.pool.as_deref(),
        };
        let plan = skill::Plan::new(&self.settings.skill, limits, game.board().hash());
        let (best, ponder) = match plan {
            None => run(&context, game, limits, &self.quiet_history, cancel, report),
            Some(plan) => skill::play_at_level(
                plan,
                &context,
                game,
                limits,
                &self.quiet_history,
                cancel,
                report,
            ),
        };
        // Under `infinite` or `ponder` the answer waits for `stop` (or `ponderhit`).
        while (limits.infinite || shared.pondering.load(Ordering::SeqCst))
            && !shared.stop.load(Ordering::SeqCst)
            && !shared.cancelled(cancel)
        {
            // A browser's worker cannot sleep (std's sleep panics there); it asks `cancel`
            // again at once, which is all it has to do until the answer goes out.
            #[cfg(not(target_family = "wasm"))]
            std::thread::sleep(std::time::Duration::from_millis(1));
            #[cfg(target_family = "wasm")]
            std::hint::spin_loop();
        }
        self.running.store(false, Ordering::SeqCst);
        report(Report::BestMove { best, ponder });
    }
}
