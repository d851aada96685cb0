//! The searcher: the transposition table and the pool of threads that search (`pool.rs`, as
//! Stockfish's `ThreadPool`), run with the [`Settings`] (`settings.rs`) and readying the state
//! the threads share ([`Shared`], `shared.rs`) for each search.
//!
//! [`Searcher::go`] starts a search on the pool's main search thread and returns at once; the
//! search reports through a callback ([`Report`]) and never prints. [`Searcher::stop`] ends
//! it, [`Searcher::wait`] waits for it. Exactly one [`Report::BestMove`] ends every `go`.
//! [`Searcher::search`] runs the same search on the calling thread. Each search runs as a
//! [`Task`] (`task.rs`), with the pool's helpers beside it.

use super::pool::{Crew, SearchThread};
use super::task::Task;
use super::time;
use super::tt::TranspositionTable;
use super::{Cancel, Limits, Report, SearchError, Settings, Shared};
use crate::Size;
use crate::clock::Instant;
use crate::network::{self, LoadedNet};
use konakis_core::board::GameOf;
use konakis_core::geometry::Nine;
use konakis_core::rules::Rules;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

/// The searcher: owns the table and the threads, and runs one search at a time.
pub struct Searcher<G: Size = Nine> {
    shared: Arc<Shared<G>>,
    settings: Settings,
    /// The threads of `settings.threads`: each one's state (its quiet history carried
    /// between the searches of one game), and the helpers, started at the first search.
    crew: Arc<Crew<G>>,
    /// The main search thread of [`Searcher::go`], started at the first `go`.
    thread: Option<SearchThread>,
    /// What tells that the search of the last `go` has ended (it closes then).
    ended: Option<Receiver<()>>,
    running: Arc<AtomicBool>,
    /// The network loaded with `EvalFile`, if any (it evaluates under its own rules only).
    loaded: Option<LoadedNet>,
}

impl<G: Size> Default for Searcher<G> {
    fn default() -> Searcher<G> {
        Searcher::new(Settings::default())
    }
}

impl<G: Size> Searcher<G> {
    /// A new searcher. Panics if the table's memory cannot be had: for tests and tools with a
    /// small fixed table; front-ends use [`Searcher::try_new`].
    pub fn new(settings: Settings) -> Searcher<G> {
        Searcher::try_new(settings).expect("memory for the transposition table")
    }

    /// A new searcher, or [`SearchError::Memory`] if the table's memory cannot be had.
    pub fn try_new(settings: Settings) -> Result<Searcher<G>, SearchError> {
        Ok(Searcher {
            shared: Arc::new(Shared::with_table(TranspositionTable::try_new(
                settings.hash_mib,
            )?)),
            settings,
            crew: Arc::new(Crew::new(settings.threads)),
            thread: None,
            ended: None,
            running: Arc::new(AtomicBool::new(false)),
            loaded: None,
        })
    }

    /// Changes settings; refused while a search runs. A new `Hash` size reallocates the table.
    pub fn set(&mut self, settings: Settings) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::Busy);
        }
        self.wait();
        if settings.hash_mib != self.settings.hash_mib {
            // Free the old table first, so that resizing needs no room for both.
            let tiny = TranspositionTable::try_new(1)?;
            self.shared = Arc::new(Shared::with_table(tiny));
            match TranspositionTable::try_new(settings.hash_mib) {
                Ok(table) => self.shared = Arc::new(Shared::with_table(table)),
                Err(e) => {
                    // The old size fitted before and its memory was just freed; should even
                    // that fail, the searcher goes on with the 1 MiB table rather than panic.
                    if let Ok(old) = TranspositionTable::try_new(self.settings.hash_mib) {
                        self.shared = Arc::new(Shared::with_table(old));
                    } else {
                        self.settings.hash_mib = 1;
                    }
                    return Err(e);
                }
            }
        }
        if settings.eval != self.settings.eval {
            // The table's static evaluations were the other evaluation's.
            self.shared.tt.clear();
        }
        if settings.threads != self.settings.threads {
            // The threads are made anew, their histories with them.
            self.crew.shutdown();
            self.crew = Arc::new(Crew::new(settings.threads));
        }
        self.settings = settings;
        Ok(())
    }

    /// Makes `net` the network that evaluates under its family of rules, in place of the
    /// built-in one (`None`: the built-in networks again); refused while a search runs. The
    /// table is emptied, as its static evaluations were another network's.
    pub fn set_network(&mut self, net: Option<LoadedNet>) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::Busy);
        }
        self.wait();
        self.loaded = net;
        self.shared.tt.clear();
        Ok(())
    }

    /// The network that evaluates under `rules` with the current settings, or `None` for the
    /// classical evaluation.
    pub fn network(&self, rules: &Rules) -> Option<LoadedNet> {
        network::choose(self.settings.eval, self.loaded.as_ref(), rules)
    }

    /// The network loaded with `EvalFile`, if any.
    pub(crate) fn loaded(&self) -> Option<LoadedNet> {
        self.loaded.clone()
    }

    /// Empties the table and every thread's quiet history, carried between searches (a new
    /// game).
    pub fn clear(&mut self) {
        self.stop();
        self.wait();
        self.shared.tt.clear();
        self.crew.clear();
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Asks the running search to stop; it reports its best move at once.
    pub fn stop(&self) {
        self.shared.pondering.store(false, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the ponder search goes on as a timed search.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Waits for the running search, if any, to finish.
    pub fn wait(&mut self) {
        if let Some(ended) = self.ended.take() {
            // Nothing is ever sent: the channel closes when the search ends.
            let _ = ended.recv();
        }
    }

    /// Total nodes of the last or current search.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Checks a request and readies the shared state for a search of `game` under `limits`
    /// (flags, clock budget), marking the searcher busy; returns what the search runs with.
    /// Nothing changes if it is refused.
    fn prepare(&mut self, game: &GameOf<G>, limits: &Limits<G>) -> Result<Task<G>, SearchError> {
        if self.is_searching() {
            return Err(SearchError::Busy);
        }
        if !limits.searchmoves.is_empty() && !game.status().is_over() {
            let legal = game.board().legal_moves(game.rules());
            if !limits.searchmoves.iter().any(|m| legal.contains(m)) {
                return Err(SearchError::NoLegalSearchMove);
            }
        }
        self.wait();
        let shared = &self.shared;
        shared.stop.store(false, Ordering::SeqCst);
        shared.pondering.store(limits.ponder, Ordering::SeqCst);
        shared.nodes.store(0, Ordering::SeqCst);
        shared.helper_depth.store(0, Ordering::SeqCst);
        if let Ok(mut s) = shared.start.lock() {
            *s = Instant::now();
        }
        let side = game.board().side_to_move();
        let budget = time::budget(limits, side, self.settings.move_overhead_ms);
        let (soft, hard) = match budget {
            // A fixed time per move is used in full: no early stop between iterations.
            Some(b) if limits.movetime.is_some() && !limits.ponder && !limits.infinite => {
                (u64::MAX, b.hard.as_millis() as u64)
            }
            Some(b) if !limits.ponder && !limits.infinite => {
                (b.soft.as_millis() as u64, b.hard.as_millis() as u64)
            }
            _ => (u64::MAX, u64::MAX),
        };
        shared.soft_ms.store(soft, Ordering::SeqCst);
        shared.hard_ms.store(hard, Ordering::SeqCst);
        if let Ok(mut p) = shared.ponder_budget.lock() {
            *p = if limits.ponder { budget } else { None };
        }
        if let Ok(mut net) = shared.net.lock() {
            *net = self.network(game.rules()).map(|n| n.net);
        }
        self.running.store(true, Ordering::SeqCst);
        Ok(Task {
            shared: Arc::clone(&self.shared),
            settings: self.settings,
            crew: Arc::clone(&self.crew),
            running: Arc::clone(&self.running),
        })
    }

    /// Starts searching the game's current position on the main search thread (started at
    /// the first `go`) and returns at once. `report` receives progress and, last, exactly one
    /// [`Report::BestMove`].
    pub fn go(
        &mut self,
        game: &GameOf<G>,
        limits: Limits<G>,
        report: impl FnMut(Report<G>) + Send + 'static,
    ) -> Result<(), SearchError> {
        if self.thread.is_none() {
            let started = SearchThread::start().map_err(|reason| SearchError::Thread { reason })?;
            self.thread = Some(started);
        }
        let task = self.prepare(game, &limits)?;
        let game = game.clone();
        let running = Arc::clone(&self.running);
        // Dropped when the search ends, which is what `wait` and `wait_until` listen for.
        let (finished, ended) = std::sync::mpsc::channel::<()>();
        let search = Box::new(move || {
            let _finished = finished;
            let mut report = report;
            let searched = catch_unwind(AssertUnwindSafe(|| {
                task.run(&game, &limits, Cancel::Never, &mut report);
            }));
            if searched.is_err() {
                // The search panicked (its message is out): the searcher is free again.
                running.store(false, Ordering::SeqCst);
            }
        });
        match self.thread.as_ref().map(|t| t.send(search)) {
            Some(Ok(())) => {
                self.ended = Some(ended);
                Ok(())
            }
            _ => {
                // The thread has ended: no search, the searcher is as it was before `go`.
                self.running.store(false, Ordering::SeqCst);
                if let Some(thread) = self.thread.take() {
                    thread.end();
                }
                Err(SearchError::Thread {
                    reason: "the search thread has ended".into(),
                })
            }
        }
    }

    /// Searches the game's current position on the calling thread and returns when the
    /// search has ended, with its [`Report::BestMove`] (also sent to `report`, last, as by
    /// [`Searcher::go`]). The search stops early, as on [`Searcher::stop`], as soon as `cancel`
    /// says so; with `infinite` or `ponder` it waits for that (or, pondering, for `cancel`'s
    /// [`Signal::PonderHit`]).
    pub fn search(
        &mut self,
        game: &GameOf<G>,
        limits: Limits<G>,
        cancel: Cancel,
        mut report: impl FnMut(Report<G>) + Send,
    ) -> Result<Report<G>, SearchError> {
        let task = self.prepare(game, &limits)?;
        let mut last = None;
        task.run(game, &limits, cancel, &mut |r: Report<G>| {
            if matches!(r, Report::BestMove { .. }) {
                last = Some(r.clone());
            }
            report(r);
        });
        Ok(last.unwrap_or(Report::BestMove {
            best: None,
            ponder: None,
        }))
    }

    /// Waits until the search started by [`Searcher::go`], if any, has ended (its last report
    /// out) or `deadline` has passed; `true` if it has ended. A search that outlives the
    /// deadline is left running.
    pub fn wait_until(&mut self, deadline: Instant) -> bool {
        let Some(ended) = &self.ended else {
            return true;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        match ended.recv_timeout(left) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => false,
            // Nothing is ever sent: the channel closes when the search ends.
            _ => {
                self.wait();
                true
            }
        }
    }

    /// Searches to completion on the calling thread and returns the best move and the last
    /// principal variation's report (for tests).
    #[cfg(test)]
    pub fn search_sync(
        &mut self,
        game: &GameOf<G>,
        limits: Limits<G>,
    ) -> (
        Option<konakis_core::types::MoveOf<G>>,
        Option<super::Info<G>>,
    ) {
        let mut outcome = super::SearchOutcome::default();
        match self.search(game, limits, Cancel::Never, |r| outcome.take(&r)) {
            Ok(_) => (outcome.best, outcome.info),
            Err(_) => (None, None),
        }
    }
}

impl<G: Size> Drop for Searcher<G> {
    /// Stops the search, if one runs, and ends the threads.
    fn drop(&mut self) {
        self.stop();
        self.wait();
        self.crew.shutdown();
        if let Some(thread) = self.thread.take() {
            thread.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The size these tests play on.
    type Searcher = super::Searcher<konakis_core::geometry::Nine>;
    /// The size these tests play on.
    type Limits = crate::search::Limits<konakis_core::geometry::Nine>;
    use crate::network::EvalMode;
    use crate::search::SmpMode;
    use konakis_core::board::Game;

    /// A random network of `rules`' family that a search can use.
    fn random_net(rules: &Rules, seed: u64) -> LoadedNet {
        random_net_of(network::HIDDEN_UNITS, rules, seed)
    }

    /// A random network of `hidden` units and `rules`' family.
    fn random_net_of(hidden: usize, rules: &Rules, seed: u64) -> LoadedNet {
        let family = network::RuleFamily::of(rules);
        let float = konakis_nnue::network::Network::random(hidden, family, 400.0, seed);
        LoadedNet::from_bytes(
            &float.to_bytes(),
            network::Source::File(format!("random {seed}")),
        )
        .expect("a random network loads")
    }

    /// Positions along a random game of `rules` (seeded), every `every` plies.
    fn positions(rules: &Rules, seed: u64, every: usize) -> Vec<Game> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut game = Game::start(*rules);
        let mut out = Vec::new();
        for ply in 0..80 {
            if game.status().is_over() {
                break;
            }
            if ply % every == 0 {
                out.push(game.clone());
            }
            let moves = game.board().legal_moves(rules);
            let m = moves[rng.random_range(0..moves.len())];
            game.play(m).expect("a legal move");
        }
        out
    }

    #[test]
    fn the_network_accumulators_follow_every_search_path_under_every_family_and_size() {
        let families = [
            Rules::default(),
            Rules {
                king_capture: konakis_core::KingCapture::English,
                ..Rules::default()
            },
            Rules::ashton(),
        ];
        // Every family with the narrow network; the wide one under one family (its stack is
        // the same code at another size) with every kind of thread.
        let cases = families
            .iter()
            .enumerate()
            .map(|(i, rules)| (i, rules, network::HIDDEN_UNITS))
            .chain([(1, &families[1], network::HIDDEN_SIZES[1])]);
        for (i, rules, hidden) in cases {
            // One thread, Lazy SMP helpers, and the split search (whose helper takes up the
            // network's accumulators at a split node, deep enough to be split).
            for (threads, smp, depth) in [
                (1, SmpMode::Lazy, 5),
                (2, SmpMode::Lazy, 5),
                (2, SmpMode::Split, 7),
            ] {
                let mut searcher = Searcher::new(Settings {
                    threads,
                    smp,
                    hash_mib: 1,
                    ..Settings::default()
                });
                let net = random_net_of(hidden, rules, i as u64);
                assert_eq!(net.net.hidden(), hidden);
                searcher.set_network(Some(net)).unwrap();
                let before = crate::search::worker::NET_CHECKS.load(Ordering::Relaxed);
                for game in positions(rules, 7 + i as u64, 9) {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    // Every network evaluation is checked against a recomputation, which
                    // panics on a difference (a helper thread's panic reaches the search's).
                    let (best, _) = searcher.search_sync(&game, limits);
                    assert!(best.is_some(), "{}", game.board().to_fen());
                }
                let checked = crate::search::worker::NET_CHECKS.load(Ordering::Relaxed) - before;
                assert!(checked > 1000, "{checked} evaluations checked");
            }
        }
    }

    #[test]
    fn eval_classical_ignores_the_network_and_network_uses_it() {
        let rules = Rules::ashton();
        let game = &positions(&rules, 3, 4)[2];
        let nodes = |eval: EvalMode, net: Option<LoadedNet>| {
            let mut searcher = Searcher::new(Settings {
                eval,
                hash_mib: 1,
                ..Settings::default()
            });
            searcher.set_network(net).unwrap();
            let limits = Limits {
                depth: Some(6),
                ..Limits::default()
            };
            let (_, info) = searcher.search_sync(game, limits);
            info.expect("a report").nodes
        };
        let classical = nodes(EvalMode::Classical, None);
        assert_eq!(
            nodes(EvalMode::Classical, Some(random_net(&rules, 1))),
            classical
        );
        assert_ne!(
            nodes(EvalMode::Network, Some(random_net(&rules, 1))),
            classical
        );
        // A network of another family is not used.
        let other = random_net(&Rules::default(), 1);
        assert_eq!(
            nodes(EvalMode::Network, Some(other)),
            nodes(EvalMode::Network, None)
        );
    }

    /// A searcher of `threads` threads sharing the work as `smp` says, with a small table.
    fn searcher(threads: usize, smp: SmpMode) -> Searcher {
        Searcher::new(Settings {
            threads,
            smp,
            hash_mib: 1,
            ..Settings::default()
        })
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    // Helpers only start with the `threads` feature.
    #[cfg(feature = "threads")]
    #[test]
    fn every_threads_quiet_history_carries_to_the_next_search_and_clear_empties_them() {
        let mut searcher = searcher(2, SmpMode::Lazy);
        let game = Game::start(Rules::default());
        for t in 0..2 {
            assert_eq!(searcher.crew.quiet_history(t), None, "thread {t} unused");
        }
        searcher.search_sync(&game, depth(7));
        let first: Vec<Vec<i32>> = (0..2)
            .map(|t| searcher.crew.quiet_history(t).expect("a state"))
            .collect();
        for (t, h) in first.iter().enumerate() {
            assert_eq!(
                h.len(),
                2 * konakis_core::geometry::SQUARES * konakis_core::geometry::SQUARES
            );
            assert!(h.iter().any(|&v| v != 0), "thread {t} rewarded quiet moves");
        }
        // The second search starts from the first one's history (halved at each iteration):
        // what it adds does not start from zero.
        searcher.search_sync(&game, depth(1));
        let main = searcher.crew.quiet_history(0).expect("a state");
        assert!(
            main.iter()
                .zip(&first[0])
                .any(|(&now, &then)| now != 0 && then != 0),
            "the main thread's history carried"
        );
        searcher.clear();
        for t in 0..2 {
            let h = searcher.crew.quiet_history(t).expect("a state");
            assert!(
                h.iter().all(|&v| v == 0),
                "thread {t}: a new game starts without it"
            );
        }
    }

    // Helpers only start with the `threads` feature.
    #[cfg(feature = "threads")]
    #[test]
    fn the_threads_outlive_a_search_and_the_next_search_runs_on_them() {
        for smp in [SmpMode::Lazy, SmpMode::Split] {
            let mut searcher = searcher(2, smp);
            let game = Game::start(Rules::default());
            assert!(
                searcher.crew.helper_ids().is_empty(),
                "started at the first search"
            );
            searcher.search_sync(&game, depth(6));
            let helpers = searcher.crew.helper_ids();
            assert_eq!(helpers.len(), 1, "{smp:?}");
            assert!(
                searcher.crew.quiet_history(1).is_some(),
                "{smp:?}: the helper searched"
            );
            searcher.search_sync(&game, depth(6));
            assert_eq!(searcher.crew.helper_ids(), helpers, "{smp:?}");
            // `go` searches on the main search thread, the same from one `go` to the next.
            let go = |searcher: &mut Searcher| {
                searcher.go(&game, depth(6), |_| {}).expect("a search");
                searcher.wait();
                searcher.thread.as_ref().map(SearchThread::id)
            };
            let main = go(&mut searcher);
            assert!(main.is_some());
            assert_eq!(go(&mut searcher), main, "{smp:?}");
            assert_eq!(searcher.crew.helper_ids(), helpers, "{smp:?}");
        }
    }

    // Helpers only start with the `threads` feature.
    #[cfg(feature = "threads")]
    #[test]
    fn changing_threads_makes_the_helpers_anew_at_the_next_search() {
        let mut searcher = searcher(2, SmpMode::Lazy);
        let game = Game::start(Rules::default());
        searcher.search_sync(&game, depth(5));
        let two = searcher.crew.helper_ids();
        assert_eq!(two.len(), 1);
        let settings = searcher.settings;
        searcher
            .set(Settings {
                threads: 3,
                ..settings
            })
            .unwrap();
        assert!(
            searcher.crew.helper_ids().is_empty(),
            "the old helpers ended"
        );
        searcher.search_sync(&game, depth(5));
        let three = searcher.crew.helper_ids();
        assert_eq!(three.len(), 2);
        assert!(three.iter().all(|id| !two.contains(id)));
        searcher
            .set(Settings {
                threads: 1,
                ..settings
            })
            .unwrap();
        searcher.search_sync(&game, depth(5));
        assert!(searcher.crew.helper_ids().is_empty());
    }

    #[test]
    fn a_stopped_search_then_a_new_one_answers_on_the_same_threads() {
        let mut searcher = searcher(2, SmpMode::Lazy);
        let game = Game::start(Rules::default());
        let (sender, answers) = std::sync::mpsc::channel();
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        searcher
            .go(&game, infinite, move |r| {
                if let Report::BestMove { best, .. } = r {
                    let _ = sender.send(best);
                }
            })
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(searcher.is_searching(), "an infinite search waits for stop");
        searcher.stop();
        searcher.wait();
        let best = answers.try_recv().expect("one answer after stop");
        assert!(best.is_some());
        assert!(!searcher.is_searching());
        let helpers = searcher.crew.helper_ids();
        assert_eq!(helpers.len(), usize::from(cfg!(feature = "threads")));
        let (best, info) = searcher.search_sync(&game, depth(6));
        assert!(best.is_some());
        assert_eq!(info.expect("a report").depth, 6);
        assert_eq!(searcher.crew.helper_ids(), helpers);
    }

    #[test]
    fn dropping_a_searcher_idle_or_searching_returns_promptly() {
        // Each drop runs on a thread of its own, so that a hang fails the test rather than
        // holding it.
        let dropped = |searching: bool| {
            let (sender, done) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut searcher = searcher(2, SmpMode::Lazy);
                let game = Game::start(Rules::default());
                searcher.search_sync(&game, depth(4));
                if searching {
                    let infinite = Limits {
                        infinite: true,
                        ..Limits::default()
                    };
                    searcher.go(&game, infinite, |_| {}).unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    assert!(searcher.is_searching());
                }
                drop(searcher);
                let _ = sender.send(());
            });
            done.recv_timeout(std::time::Duration::from_secs(30))
                .is_ok()
        };
        assert!(dropped(false), "dropped while idle");
        assert!(dropped(true), "dropped while searching");
    }

    #[test]
    fn with_helpers_the_best_move_begins_the_last_line_reported() {
        // Searches that end between iterations (a depth limit), so that the main thread's
        // last line, a helper's it took over, or the deeper or better helper line chosen at
        // the end is the answer. (A search stopped inside an iteration may answer with the
        // move that failed high there, with one thread as with several.)
        let mut searcher = searcher(2, SmpMode::Lazy);
        let rules = Rules::default();
        for (i, game) in positions(&rules, 11, 6).iter().enumerate() {
            let mut outcome = super::super::SearchOutcome::default();
            searcher
                .search(game, depth(5 + i as u32 % 3), Cancel::Never, |r| {
                    outcome.take(&r)
                })
                .unwrap();
            let info = outcome.info.expect("an iteration reported");
            assert_eq!(outcome.best, info.pv.first().copied());
            assert_eq!(outcome.ponder, info.pv.get(1).copied());
        }
    }

    #[test]
    fn with_helpers_a_node_limit_stops_every_thread_soon_after_it() {
        for smp in [SmpMode::Lazy, SmpMode::Split] {
            let mut searcher = searcher(2, smp);
            let game = Game::start(Rules::default());
            let limit = 40_000;
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let (best, _) = searcher.search_sync(&game, limits);
            assert!(best.is_some(), "{smp:?}");
            let nodes = searcher.nodes();
            // Each thread looks at the shared count every 1,024 nodes of its own.
            assert!(
                (limit..limit + 4 * 1024).contains(&nodes),
                "{smp:?}: {nodes} nodes"
            );
        }
    }

    #[test]
    fn with_helpers_searchmoves_multipv_and_levels_hold() {
        let mut searcher = searcher(2, SmpMode::Lazy);
        let game = Game::start(Rules::default());
        let legal = game.board().legal_moves(game.rules());
        let (best, _) = searcher.search_sync(&game, depth(6));
        // Only the moves asked for are searched, by the helper too.
        let others: Vec<_> = legal.iter().copied().filter(|&m| Some(m) != best).collect();
        let asked = vec![others[0], others[others.len() - 1]];
        let limits = Limits {
            searchmoves: asked.clone(),
            ..depth(6)
        };
        let (only, info) = searcher.search_sync(&game, limits);
        assert!(asked.contains(&only.unwrap()), "{only:?}");
        assert!(asked.contains(&info.unwrap().pv[0]));
        // Three lines each iteration, from the main thread.
        let settings = searcher.settings;
        searcher
            .set(Settings {
                multipv: 3,
                ..settings
            })
            .unwrap();
        let mut lines = Vec::new();
        searcher
            .search(&game, depth(5), Cancel::Never, |r| {
                if let Report::Info(info) = r
                    && info.depth == 5
                {
                    lines.push(info.multipv);
                }
            })
            .unwrap();
        assert_eq!(lines, [1, 2, 3]);
        // A strength level plays a legal move.
        let mut skill = settings.skill;
        skill.level = 3;
        searcher.set(Settings { skill, ..settings }).unwrap();
        let (played, _) = searcher.search_sync(&game, depth(6));
        assert!(legal.contains(&played.unwrap()));
    }

    // Helpers only start with the `threads` feature.
    #[cfg(feature = "threads")]
    #[test]
    fn the_split_search_splits_and_finds_the_forced_captures_one_thread_finds() {
        use crate::search::worker::SPLITS;
        // Captures in three moves of the tactics suite (tactics.txt), with their right moves.
        let cases: [(&str, &[&str]); 3] = [
            ("1b7/bK1w5/bb5b1/9/9/8w/9/7w1/w8 b 0", &["h7c7"]),
            ("b2b5/1w7/bb1K1b3/5b3/3w5/9/9/9/9 b 0", &["f6d6"]),
            ("4b1bb1/4w1K2/6bb1/5b3/9/9/1w7/9/9 b 0", &["h7h8", "h9h8"]),
        ];
        let rules = Rules::default();
        let mut one = searcher(1, SmpMode::Lazy);
        for threads in [2, 3] {
            let mut split = searcher(threads, SmpMode::Split);
            for (fen, right) in cases {
                let game = Game::from_fen_and_moves(rules, fen, []).unwrap();
                let (_, alone) = one.search_sync(&game, depth(8));
                let before = SPLITS.load(Ordering::Relaxed);
                let (best, info) = split.search_sync(&game, depth(8));
                assert!(
                    SPLITS.load(Ordering::Relaxed) > before,
                    "{threads} threads, {fen}: no node was split"
                );
                let best = best.expect("a move").to_string();
                assert!(
                    right.contains(&best.as_str()),
                    "{threads} threads, {fen}: {best}"
                );
                assert_eq!(
                    info.map(|i| i.score),
                    alone.map(|i| i.score),
                    "{threads} threads, {fen}: the score of one thread"
                );
            }
        }
    }

    #[test]
    fn the_split_search_reports_the_root_s_second_move_once_a_pass() {
        // After a second of search the root's moves are reported as they are searched. The
        // root's own loop reports its second move, then splits: the split must not report it
        // again. (A pass over the root's moves starts at move 1; an aspiration window's
        // re-search is a new pass, and a thread with no move left may report a later move
        // another thread is at.)
        let mut split = searcher(2, SmpMode::Split);
        let game = Game::start(Rules::default());
        let limits = Limits {
            movetime: Some(2_500),
            ..Limits::default()
        };
        let mut numbers = Vec::new();
        split
            .search(&game, limits, Cancel::Never, |r| {
                if let Report::CurrMove { number, .. } = r {
                    numbers.push(number);
                }
            })
            .unwrap();
        assert!(numbers.contains(&2), "no second move reported: {numbers:?}");
        for pass in numbers.split(|&n| n == 1) {
            let seconds = pass.iter().filter(|&&n| n == 2).count();
            assert!(seconds <= 1, "the second move reported twice: {pass:?}");
        }
    }

    #[test]
    fn a_move_that_failed_high_is_answered_without_the_reply_of_the_line_before() {
        // One thread, deterministic: this search stops while it searches again the move
        // that failed high at the root, and answers with that move.
        let mut searcher = searcher(1, SmpMode::Lazy);
        let rules = Rules::default();
        let game = &positions(&rules, 5, 3)[2];
        let mut outcome = super::super::SearchOutcome::default();
        let limits = Limits {
            nodes: Some(18_000),
            ..Limits::default()
        };
        searcher
            .search(game, limits, Cancel::Never, |r| outcome.take(&r))
            .unwrap();
        let (best, info) = (outcome.best.unwrap(), outcome.info.unwrap());
        assert_ne!(
            Some(best),
            info.pv.first().copied(),
            "the case this test is for"
        );
        // The reply expected is that of the move's own line, not of the last line reported.
        assert_ne!(outcome.ponder, info.pv.get(1).copied());
        if let Some(reply) = outcome.ponder {
            let mut after = game.clone();
            after.play(best).unwrap();
            assert!(after.board().legal_moves(&rules).contains(&reply));
        }
    }
}
