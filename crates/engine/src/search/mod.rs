//! The search: iterative deepening over a principal variation search, a shared lock-free
//! transposition table, and several threads.
//!
//! [`Engine`] is the facade. [`Engine::go`] starts a search on its own thread and returns at
//! once; the search reports through a callback ([`Report`]) and never prints. [`Engine::stop`]
//! ends it, [`Engine::wait`] waits for it. Exactly one [`Report::BestMove`] ends every `go`.
//! [`Engine::search`] runs the same search on the calling thread.
//!
//! Front-ends do not use the engine directly but through the [`driver`], which adds the game,
//! the options and the search ids that keep stale reports out.

pub mod driver;
#[cfg(feature = "threads")]
mod parallel;
#[cfg(not(feature = "threads"))]
mod serial;
#[cfg(not(feature = "threads"))]
use serial as parallel;
mod history;
mod movepick;
mod time;
pub mod tt;
mod worker;

pub use time::{Budget, budget};

use crate::clock::Instant;
use crate::network::{self, EvalMode, LoadedNet, Net};
use crate::skill::{self, Skill};
use konakis_core::board::{Game, Status};
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use tt::TranspositionTable;
use worker::Worker;

/// The score of a win on the spot; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score.
pub const INFINITE: i32 = 31_000;
/// The deepest ply the search goes.
pub const MAX_PLY: usize = 128;
/// The largest transposition table, in MiB, that any front-end or tool accepts (the `Hash`
/// option, `--hash`).
pub const MAX_HASH_MIB: usize = 16_384;
/// The most search threads any front-end or tool accepts (the `Threads` option, `--threads`).
pub const MAX_THREADS: usize = 512;

/// Why the engine refused a request. Nothing changed when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A search is running; settings cannot change and no second search can start.
    Busy,
    /// The memory for a transposition table of this many MiB could not be had.
    Memory {
        /// The size asked for.
        mib: usize,
    },
    /// The thread that runs the search could not be created.
    Thread {
        /// What the system said.
        reason: String,
    },
    /// `searchmoves` named no legal move.
    NoLegalSearchMove,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Busy => f.write_str("a search is already running"),
            EngineError::Memory { mib } => {
                write!(f, "cannot allocate {mib} MiB for the hash table")
            }
            EngineError::Thread { reason } => {
                write!(f, "cannot start the search thread ({reason})")
            }
            EngineError::NoLegalSearchMove => f.write_str("none of the searchmoves is legal here"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What `go` asks for. Times are in milliseconds; `w` is the defenders' clock, `b` the
/// attackers'.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search about this many nodes.
    pub nodes: Option<u64>,
    /// Search this long.
    pub movetime: Option<u64>,
    /// Defenders' clock.
    pub wtime: Option<u64>,
    /// Attackers' clock.
    pub btime: Option<u64>,
    /// Defenders' increment.
    pub winc: Option<u64>,
    /// Attackers' increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Search for a win in this many moves.
    pub mate: Option<u32>,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether any clock field (`wtime`, `btime`, `winc`, `binc`, `movestogo`) is given.
    pub fn has_clock(&self) -> bool {
        self.wtime.is_some()
            || self.btime.is_some()
            || self.winc.is_some()
            || self.binc.is_some()
            || self.movestogo.is_some()
    }

    /// Whether the search is timed by a clock that lacks the time of `side`, the side to move
    /// (`movetime` aside). The search then plays as if that time were zero: at once.
    pub fn mover_time_missing(&self, side: Side) -> bool {
        let own = match side {
            Side::Defenders => self.wtime,
            Side::Attackers => self.btime,
        };
        self.movetime.is_none() && self.has_clock() && own.is_none()
    }
}

/// A score for the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-soldiers, from the side to move's point of view.
    Cp(i32),
    /// The side to move wins with its n-th own move (n > 0), or loses after the opponent's
    /// n-th move (negative).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

/// Whether a reported score is exact or a bound from an aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// At least this.
    Lower,
    /// At most this.
    Upper,
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Rank of this line (1 = best).
    pub multipv: u32,
    /// Score.
    pub score: Score,
    /// Exact or bound.
    pub bound: ScoreBound,
    /// Nodes by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What a search reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A finished (or failed-high/low) iteration.
    Info(Info),
    /// The root move being searched (sent after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its number, from 1.
        number: u32,
    },
    /// The game is over before the search: nothing to search.
    GameOver(Status),
    /// Fewer search threads could be created than the settings ask for; the search goes on
    /// with those it has. Sent before the first [`Report::Info`].
    Threads {
        /// Threads the settings ask for.
        wanted: usize,
        /// Threads searching.
        running: usize,
    },
    /// The result; exactly one per `go`, always the last report.
    BestMove {
        /// The move to play; `None` when the game is over.
        best: Option<Move>,
        /// The expected reply.
        ponder: Option<Move>,
    },
}

/// What a search on the caller's thread ([`Engine::search`], [`driver::Driver::search`]) and
/// the bench ask now and then (every thousand nodes or so) to learn that they must stop.
#[derive(Clone, Copy, Debug, Default)]
pub enum Cancel<'a> {
    /// Only the search's own limits end it.
    #[default]
    Never,
    /// A flag another thread sets.
    Flag(&'a AtomicBool),
    /// A function asked each time. A browser's Web Worker searches this way: the flag lives
    /// in memory the page shares with the worker but not with the WebAssembly instance, so
    /// only a call out to JavaScript can read it.
    Poll(fn() -> Signal),
}

/// What a [`Cancel`] says when asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Go on.
    Continue,
    /// Stop, as on [`Engine::stop`].
    Stop,
    /// The opponent played the expected move, as on [`Engine::ponderhit`] (ignored unless a
    /// ponder search runs, so it may be said more than once).
    PonderHit,
}

impl Cancel<'_> {
    /// Asks once.
    #[inline]
    pub fn signal(self) -> Signal {
        match self {
            Cancel::Never => Signal::Continue,
            Cancel::Flag(flag) if flag.load(Ordering::Relaxed) => Signal::Stop,
            Cancel::Flag(_) => Signal::Continue,
            Cancel::Poll(poll) => poll(),
        }
    }

    /// Whether it says stop (for work that cannot ponder: perft, bench).
    pub fn stopped(self) -> bool {
        self.signal() == Signal::Stop
    }
}

/// State all search threads share.
pub(crate) struct Shared {
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
    pub(crate) helper_line: Mutex<(i32, Vec<Move>)>,
    /// The network that evaluates in this search; `None` for the classical evaluation.
    pub(crate) net: Mutex<Option<Net>>,
}

impl Shared {
    #[cfg(test)]
    fn new(hash_mib: usize) -> Shared {
        Shared::with_table(TranspositionTable::new(hash_mib))
    }

    fn with_table(tt: TranspositionTable) -> Shared {
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
            helper_line: Mutex::new((0, Vec::new())),
            net: Mutex::new(None),
        }
    }

    /// Records a helper's completed iteration if it is deeper than any before.
    fn publish_helper_line(&self, depth: i32, score: i32, pv: Vec<Move>) {
        if pv.is_empty() {
            return;
        }
        if let Ok(mut line) = self.helper_line.lock()
            && depth > self.helper_depth.load(Ordering::Relaxed)
        {
            *line = (score, pv);
            self.helper_depth.store(depth, Ordering::Release);
        }
    }

    /// The deepest helper iteration, if it reached `depth`: its depth, score and line.
    fn helper_line_from(&self, depth: i32) -> Option<(i32, i32, Vec<Move>)> {
        let line = self.helper_line.lock().ok()?;
        let d = self.helper_depth.load(Ordering::Acquire);
        (d >= depth).then(|| (d, line.0, line.1.clone()))
    }

    /// The opponent played the expected move: the ponder search's clock budget starts now,
    /// and it searches on as a timed search.
    fn ponderhit(&self) {
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

    /// Asks `cancel`, acting on a `ponderhit` at once; whether it says stop.
    #[inline]
    fn cancelled(&self, cancel: Cancel) -> bool {
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

    fn elapsed_ms(&self) -> u64 {
        self.start
            .lock()
            .map(|s| s.elapsed().as_millis() as u64)
            .unwrap_or(0)
    }
}

/// How several threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmpMode {
    /// The first root move alone, then the others in parallel on a rayon pool against the
    /// shared bound, re-searched on fail-high.
    RootSplit,
    /// Every thread searches the whole tree from the root, sharing the table (Lazy SMP).
    Lazy,
}

impl SmpMode {
    /// Names as the `SMP Mode` option spells them.
    pub const NAMES: [&'static str; 2] = ["RootSplit", "Lazy"];

    /// The mode named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<SmpMode> {
        if name.eq_ignore_ascii_case("RootSplit") {
            Some(SmpMode::RootSplit)
        } else if name.eq_ignore_ascii_case("Lazy") {
            Some(SmpMode::Lazy)
        } else {
            None
        }
    }

    /// The option value text.
    pub fn name(self) -> &'static str {
        match self {
            SmpMode::RootSplit => "RootSplit",
            SmpMode::Lazy => "Lazy",
        }
    }
}

/// Engine settings that are not rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How threads share the work when `threads > 1`.
    pub smp: SmpMode,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move.
    pub move_overhead_ms: u64,
    /// The evaluation: the network for the rules where there is one, or the classical one.
    pub eval: EvalMode,
    /// The strength options; full strength by default ([`crate::skill`]).
    pub skill: Skill,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            // Lazy SMP won more games (docs/strength.md).
            smp: SmpMode::Lazy,
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            eval: EvalMode::Network,
            skill: Skill::default(),
        }
    }
}

/// The search engine: owns the table and runs one search at a time on its own thread.
pub struct Engine {
    shared: Arc<Shared>,
    settings: Settings,
    /// The search thread of [`Engine::go`], and what tells that it has ended.
    handle: Option<(JoinHandle<()>, Receiver<()>)>,
    running: Arc<AtomicBool>,
    /// Histories carried between searches of one game.
    histories: Arc<Mutex<Vec<i32>>>,
    /// The pool for parallel root search (`threads > 1`).
    pool: Option<Arc<Pool>>,
    /// The network loaded with `EvalFile`, if any (it evaluates under its own rules only).
    loaded: Option<LoadedNet>,
}

/// The thread pool of the parallel root search.
type Pool = parallel::Pool;

/// The rayon pool of the parallel root search: `threads` threads, if more than one and the
/// mode is [`SmpMode::RootSplit`] (Lazy SMP starts its own threads per search). `None` too if
/// the threads cannot be created; the search then runs as Lazy SMP.
fn make_pool(settings: &Settings) -> Option<Arc<parallel::Pool>> {
    let threads = settings.threads;
    if threads <= 1 || settings.smp != SmpMode::RootSplit {
        return None;
    }
    parallel::make_pool(threads).map(Arc::new)
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Settings::default())
    }
}

impl Engine {
    /// A new engine. Panics if the table's memory cannot be had: for tests and tools with a
    /// small fixed table; front-ends use [`Engine::try_new`].
    pub fn new(settings: Settings) -> Engine {
        Engine::try_new(settings).expect("memory for the transposition table")
    }

    /// A new engine, or [`EngineError::Memory`] if the table's memory cannot be had.
    pub fn try_new(settings: Settings) -> Result<Engine, EngineError> {
        Ok(Engine {
            shared: Arc::new(Shared::with_table(TranspositionTable::try_new(
                settings.hash_mib,
            )?)),
            settings,
            handle: None,
            running: Arc::new(AtomicBool::new(false)),
            histories: Arc::new(Mutex::new(Vec::new())),
            pool: make_pool(&settings),
            loaded: None,
        })
    }

    /// Current settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes settings; refused while a search runs. A new `Hash` size reallocates the table.
    pub fn set(&mut self, settings: Settings) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
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
                    // that fail, the engine goes on with the 1 MiB table rather than panic.
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
        if (settings.threads, settings.smp) != (self.settings.threads, self.settings.smp) {
            self.pool = None;
            self.pool = make_pool(&settings);
        }
        self.settings = settings;
        Ok(())
    }

    /// Makes `net` the network that evaluates under its family of rules, in place of the
    /// built-in one (`None`: the built-in networks again); refused while a search runs. The
    /// table is emptied, as its static evaluations were another network's.
    pub fn set_network(&mut self, net: Option<LoadedNet>) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
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

    /// Empties the table and the histories (a new game).
    pub fn clear(&mut self) {
        self.stop();
        self.wait();
        self.shared.tt.clear();
        if let Ok(mut h) = self.histories.lock() {
            h.clear();
        }
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
        if let Some((h, _)) = self.handle.take() {
            let _ = h.join();
        }
    }

    /// Total nodes of the last or current search.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Checks a request and readies the shared state for a search of `game` under `limits`
    /// (flags, clock budget), marking the engine busy; returns what the search runs with.
    /// Nothing changes if it is refused.
    fn prepare(&mut self, game: &Game, limits: &Limits) -> Result<Task, EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        if !limits.searchmoves.is_empty() && !game.status().is_over() {
            let legal = game.board().legal_moves(game.rules());
            if !limits.searchmoves.iter().any(|m| legal.contains(m)) {
                return Err(EngineError::NoLegalSearchMove);
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
            pool: self.pool.clone(),
            histories: Arc::clone(&self.histories),
            running: Arc::clone(&self.running),
        })
    }

    /// Starts searching the game's current position on a thread of its own and returns at
    /// once. `report` receives progress and, last, exactly one [`Report::BestMove`].
    pub fn go(
        &mut self,
        game: &Game,
        limits: Limits,
        report: impl FnMut(Report) + Send + 'static,
    ) -> Result<(), EngineError> {
        let task = self.prepare(game, &limits)?;
        let game = game.clone();
        // Dropped when the thread ends, which is what `wait_until` listens for.
        let (finished, ended) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("konakis-search".into())
            .spawn(move || {
                let _finished = finished;
                let mut report = report;
                task.run(&game, &limits, Cancel::Never, &mut report);
            });
        match spawned {
            Ok(handle) => {
                self.handle = Some((handle, ended));
                Ok(())
            }
            Err(e) => {
                // No thread, no search: the engine is as it was before `go`.
                self.running.store(false, Ordering::SeqCst);
                Err(EngineError::Thread {
                    reason: e.to_string(),
                })
            }
        }
    }

    /// Searches the game's current position on the calling thread and returns when the
    /// search has ended, with its [`Report::BestMove`] (also sent to `report`, last, as by
    /// [`Engine::go`]). The search stops early, as on [`Engine::stop`], as soon as `cancel`
    /// says so; with `infinite` or `ponder` it waits for that (or, pondering, for `cancel`'s
    /// [`Signal::PonderHit`]).
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        cancel: Cancel,
        mut report: impl FnMut(Report) + Send,
    ) -> Result<Report, EngineError> {
        let task = self.prepare(game, &limits)?;
        let mut last = None;
        task.run(game, &limits, cancel, &mut |r: Report| {
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

    /// Waits until the search started by [`Engine::go`], if any, has ended (its last report
    /// out) or `deadline` has passed; `true` if it has ended. A search that outlives the
    /// deadline is left running: its thread is not joined.
    pub fn wait_until(&mut self, deadline: Instant) -> bool {
        let Some((_, ended)) = &self.handle else {
            return true;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        match ended.recv_timeout(left) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => false,
            // Nothing is ever sent: the channel closes when the thread ends.
            _ => {
                self.wait();
                true
            }
        }
    }

    /// Searches to completion on the calling thread and returns the best move and the last
    /// principal variation's report (for tests and tools).
    pub fn search_sync(&mut self, game: &Game, limits: Limits) -> (Option<Move>, Option<Info>) {
        let mut outcome = SearchOutcome::default();
        match self.search(game, limits, Cancel::Never, |r| outcome.take(&r)) {
            Ok(_) => (outcome.best, outcome.info),
            Err(_) => (None, None),
        }
    }
}

/// What a search ended with, gathered from its reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchOutcome {
    /// The move to play; `None` when the game is over (or no answer came).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The last report of the first line (`multipv` 1), if an iteration finished.
    pub info: Option<Info>,
    /// Whether the [`Report::BestMove`] came.
    pub answered: bool,
}

impl SearchOutcome {
    /// Takes in one report.
    pub fn take(&mut self, report: &Report) {
        match report {
            Report::Info(i) if i.multipv == 1 => self.info = Some(i.clone()),
            Report::BestMove { best, ponder } => {
                self.best = *best;
                self.ponder = *ponder;
                self.answered = true;
            }
            _ => {}
        }
    }
}

/// Everything one search needs from the engine, to run on whichever thread.
struct Task {
    shared: Arc<Shared>,
    settings: Settings,
    pool: Option<Arc<Pool>>,
    histories: Arc<Mutex<Vec<i32>>>,
    running: Arc<AtomicBool>,
}

impl Task {
    /// The search, the wait for `stop` that `infinite` and `ponder` ask for, and the answer.
    fn run(
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
            None => run(&context, game, limits, &self.histories, cancel, report),
            Some(plan) => play_at_level(
                plan,
                &context,
                game,
                limits,
                &self.histories,
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

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// A search at a strength level ([`crate::skill`]): the search proper under the level's
/// limits and with its lines, then the level's choice among them. Only the lines the
/// `MultiPV` option asks for are reported.
fn play_at_level(
    mut plan: skill::Plan,
    context: &RunContext,
    game: &Game,
    limits: &Limits,
    histories: &Mutex<Vec<i32>>,
    cancel: Cancel,
    report: &mut (dyn FnMut(Report) + Send),
) -> (Option<Move>, Option<Move>) {
    let board = game.board();
    let rules = game.rules();
    let mut moves: Vec<Move> = board.legal_moves(rules).to_vec();
    if !limits.searchmoves.is_empty() {
        moves.retain(|m| limits.searchmoves.contains(m));
    }
    if !game.status().is_over()
        && let Some(win) = skill::winning_move(board, rules, &moves)
    {
        // Seen at a glance at every level: played without a search.
        report(Report::Info(Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Mate(1),
            bound: ScoreBound::Exact,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![win],
        }));
        return (Some(win), None);
    }
    if plan.glances() {
        return (plan.glance(&moves), None);
    }
    let shown = context.settings.multipv;
    let settings = Settings {
        multipv: plan.lines(shown),
        ..*context.settings
    };
    let context = RunContext {
        settings: &settings,
        ..*context
    };
    let mut lines = skill::Lines::default();
    let searched = run(
        &context,
        game,
        &plan.limits(limits),
        histories,
        cancel,
        &mut |r: Report| {
            if let Report::Info(info) = &r {
                lines.take(info);
                if info.multipv as usize > shown {
                    return;
                }
            }
            report(r)
        },
    );
    match plan.choose(&lines) {
        Some((best, ponder)) => (Some(best), ponder),
        None if searched.0.is_some() => (plan.fallback(board, rules, &moves), None),
        None => searched,
    }
}

/// What a search runs with.
#[derive(Clone, Copy)]
struct RunContext<'a> {
    shared: &'a Shared,
    settings: &'a Settings,
    pool: Option<&'a parallel::Pool>,
}

/// Bytes held while Lazy SMP helpers start (see [`run`]).
const HELPER_RESERVE_BYTES: usize = 16 << 20;
/// Address space that must be free before a Lazy SMP helper is started: its worker (about
/// 1.1 MiB, mostly the evaluation cache), its thread's stack (2 MiB), and room for the
/// allocator to open one more arena for the threads already searching (glibc reserves 64 MiB
/// at a time). Only reserved and given back, never touched, so it costs no memory.
const HELPER_ROOM_BYTES: usize = 96 << 20;

/// Half the aspiration window of a Lazy SMP helper's iterations.
const HELPER_WINDOW: i32 = 40;

/// The search proper, on the search thread: iterative deepening on the main worker, with
/// more threads (parallel root search, or Lazy SMP helpers) when `threads > 1`.
fn run(
    context: &RunContext,
    game: &Game,
    limits: &Limits,
    histories: &Mutex<Vec<i32>>,
    cancel: Cancel,
    report: &mut (dyn FnMut(Report) + Send),
) -> (Option<Move>, Option<Move>) {
    let board = *game.board();
    let rules: Rules = *game.rules();
    let status = game.status();
    let mut root_moves: Vec<Move> = board.legal_moves(&rules).to_vec();
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    if status.is_over() || root_moves.is_empty() {
        let status = if status.is_over() {
            status
        } else {
            board.status(&rules)
        };
        report(Report::GameOver(status));
        return (None, None);
    }
    let (shared, settings) = (context.shared, context.settings);
    shared.tt.new_search();
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 1))
        .or(limits.mate.map(|m| (2 * m.max(1)).min(MAX_PLY as u32 - 1)))
        .unwrap_or(MAX_PLY as u32 - 1) as i32;

    let lazy = settings.smp == SmpMode::Lazy || context.pool.is_none();
    // Without the `threads` feature the search has no helpers: one thread searches.
    let helpers = if lazy && cfg!(feature = "threads") {
        settings.threads.max(1) - 1
    } else {
        0
    };
    let split = match context.pool {
        Some(pool) if !lazy && settings.multipv <= 1 => Some(parallel::RootSplit::new(
            pool,
            shared,
            rules,
            game.repetition_keys(),
            limits.nodes,
        )),
        _ => None,
    };
    let mut result = (Some(root_moves[0]), None);
    // Room kept free while the helpers start: should the system run out of threads or memory
    // for their stacks, freeing it leaves room for the allocations the search still makes.
    // (A failed allocation aborts the process, a failed thread start does not.)
    let mut reserve: Vec<u8> = Vec::new();
    if helpers > 0 {
        let _ = reserve.try_reserve_exact(HELPER_RESERVE_BYTES);
    }
    std::thread::scope(|scope| {
        let mut started = 0;
        for t in 0..helpers {
            // Each helper's worker is built here, one after the other, and only while the
            // room for it and its thread's stack is there, so that no helper starts and then
            // fails to allocate.
            if Vec::<u8>::new()
                .try_reserve_exact(HELPER_ROOM_BYTES)
                .is_err()
            {
                break;
            }
            let mut w = Worker::new(shared, rules, game.repetition_keys());
            w.main = false;
            w.root_moves = root_moves.clone();
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                // Helpers start one ply apart so that they fill the table with different work.
                let mut depth = 1 + (t as i32 % 2);
                let mut prev = 0;
                while depth <= max_depth && !w.stopped {
                    // An aspiration window around the helper's last score, searched again
                    // with the full window when the score falls outside.
                    let (alpha, beta) = if depth >= 4 {
                        (prev - HELPER_WINDOW, prev + HELPER_WINDOW)
                    } else {
                        (-INFINITE, INFINITE)
                    };
                    let mut score = w.search_root(&board, depth, alpha, beta);
                    if !w.stopped && (score <= alpha || score >= beta) {
                        score = w.search_root(&board, depth, -INFINITE, INFINITE);
                    }
                    if !w.stopped {
                        prev = score;
                        shared.publish_helper_line(depth, score, w.pv());
                    }
                    depth += 1;
                }
                w.flush_nodes();
            });
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        drop(std::mem::take(&mut reserve));
        let wanted = settings.threads.max(1);
        let running = if split.is_some() {
            context.pool.map_or(1, |p| p.current_num_threads())
        } else {
            started + 1
        };
        if running < wanted {
            report(Report::Threads { wanted, running });
        }
        let mut w = Worker::new(shared, rules, game.repetition_keys());
        if let Ok(h) = histories.lock()
            && h.len() == 2 * 81 * 81
        {
            w.set_history(&h);
        }
        w.root_moves = root_moves.clone();
        w.node_limit = limits.nodes;
        w.cancel = cancel;
        w.sink = Some(report);
        // With helpers, an iteration a helper finishes first is taken over (one line only).
        w.adopt = helpers > 0 && settings.multipv <= 1;
        result = iterate(
            &mut w,
            split.as_ref(),
            shared,
            settings,
            &board,
            limits,
            max_depth,
            &root_moves,
        );
        if let Ok(mut h) = histories.lock() {
            *h = w.history().to_vec();
        }
        // The main thread is done: stop the helpers (the answer may still wait for `stop`).
        // Under `infinite` or `ponder` the helpers run on until `stop`.
        if !(limits.infinite || shared.pondering.load(Ordering::SeqCst)) {
            shared.stop.store(true, Ordering::SeqCst);
        }
    });
    result
}

/// Iterative deepening with aspiration windows and MultiPV on the main worker.
#[allow(clippy::too_many_arguments)]
fn iterate(
    w: &mut Worker,
    split: Option<&parallel::RootSplit>,
    shared: &Shared,
    settings: &Settings,
    board: &konakis_core::board::Board,
    limits: &Limits,
    max_depth: i32,
    root_moves: &[Move],
) -> (Option<Move>, Option<Move>) {
    let mut best: Option<Move> = Some(root_moves[0]);
    let mut ponder: Option<Move> = None;
    let mut prev_score = 0;
    let mut stable_iterations = 0;
    let multipv = settings.multipv.clamp(1, root_moves.len());
    // Root moves, best first, for the parallel root search.
    let mut order: Vec<Move> = root_moves.to_vec();
    let mut depth = 0;
    while depth < max_depth {
        depth += 1;
        w.age_history();
        let mut lines: Vec<(i32, Vec<Move>, ScoreBound)> = Vec::new();
        w.excluded.clear();
        // A helper may already have finished this depth: its line is taken as this iteration's.
        let ahead = if w.adopt {
            shared.helper_line_from(depth)
        } else {
            None
        };
        for pv_index in 0..multipv {
            if ahead.is_some() {
                break;
            }
            let mut delta = 25;
            let (mut alpha, mut beta) = if depth >= 4 && pv_index == 0 {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INFINITE, INFINITE)
            };
            let mut line;
            let score = loop {
                let s = match split {
                    Some(split) => {
                        let (s, pv) = split.search(w, board, &order, depth, alpha, beta);
                        line = pv;
                        s
                    }
                    None => {
                        let s = w.search_root(board, depth, alpha, beta);
                        line = w.pv();
                        s
                    }
                };
                if w.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITE);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITE);
                    if !line.is_empty() && pv_index == 0 {
                        best = Some(line[0]);
                    }
                } else {
                    break s;
                }
                delta += delta / 2;
                if delta > 1000 {
                    alpha = -INFINITE;
                    beta = INFINITE;
                }
            };
            if w.stopped {
                break;
            }
            let pv = line;
            if pv.is_empty() {
                break;
            }
            w.excluded.push(pv[0]);
            lines.push((score, pv, ScoreBound::Exact));
        }
        if w.aborted {
            // A helper finished this depth while the main thread was searching it.
            w.aborted = false;
            w.stopped = shared.stop.load(Ordering::Relaxed);
        }
        if !w.stopped
            && lines.is_empty()
            && let Some((d, score, pv)) = ahead.or_else(|| shared.helper_line_from(depth))
        {
            depth = d;
            lines.push((score, pv, ScoreBound::Exact));
        }
        if lines.is_empty() {
            break;
        }
        // A partial MultiPV iteration is still reported for the lines it finished.
        lines.sort_by_key(|line| std::cmp::Reverse(line.0));
        let elapsed = shared.elapsed_ms();
        let nodes = shared.nodes.load(Ordering::Relaxed) + w.unflushed();
        for (i, (score, pv, bound)) in lines.iter().enumerate() {
            w.emit(Report::Info(Info {
                depth: depth as u32,
                seldepth: w.seldepth as u32,
                multipv: i as u32 + 1,
                score: Score::from_internal(*score),
                bound: *bound,
                nodes,
                nps: nodes * 1000 / elapsed.max(1),
                time_ms: elapsed,
                hashfull: shared.tt.hashfull(),
                pv: pv.clone(),
            }));
        }
        let (score, pv, _) = &lines[0];
        if best == Some(pv[0]) {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        best = Some(pv[0]);
        ponder = pv.get(1).copied();
        if let Some(pos) = order.iter().position(|&m| m == pv[0]) {
            order[..=pos].rotate_right(1);
        }
        let drop = prev_score - score;
        prev_score = *score;
        if w.stopped {
            break;
        }
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(*score))
            && n > 0
            && n as u32 <= m
        {
            break;
        }
        if score.abs() >= MATE_BOUND && depth as u32 >= 2 * (MATE - score.abs()) as u32 + 2 {
            // A forced result found with room to spare: deeper search will not change it.
            if limits.depth.is_none() && limits.mate.is_none() && !limits.infinite {
                break;
            }
        }
        // Time: stop starting iterations after the soft limit, scaled by stability.
        let soft = shared.soft_ms.load(Ordering::Relaxed);
        if soft != u64::MAX && !shared.pondering.load(Ordering::Relaxed) {
            let mut scale = if stable_iterations >= 3 { 0.6 } else { 1.0 };
            if stable_iterations == 0 {
                scale = 1.4;
            }
            if drop > 30 {
                scale *= 1.5;
            }
            if elapsed as f64 >= soft as f64 * scale * 0.6 {
                break;
            }
        }
    }
    w.flush_nodes();
    (best, ponder)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("a move")
    }

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
            // One thread, Lazy SMP helpers, and the parallel root search (which starts each
            // root move's path on its own).
            for (threads, smp) in [
                (1, SmpMode::Lazy),
                (2, SmpMode::Lazy),
                (2, SmpMode::RootSplit),
            ] {
                let mut engine = Engine::new(Settings {
                    threads,
                    smp,
                    hash_mib: 1,
                    ..Settings::default()
                });
                let net = random_net_of(hidden, rules, i as u64);
                assert_eq!(net.net.hidden(), hidden);
                engine.set_network(Some(net)).unwrap();
                let before = worker::NET_CHECKS.load(Ordering::Relaxed);
                for game in positions(rules, 7 + i as u64, 9) {
                    let limits = Limits {
                        depth: Some(5),
                        ..Limits::default()
                    };
                    // Every network evaluation is checked against a recomputation, which
                    // panics on a difference (a helper thread's panic reaches the search's).
                    let (best, _) = engine.search_sync(&game, limits);
                    assert!(best.is_some(), "{}", game.board().to_fen());
                }
                let checked = worker::NET_CHECKS.load(Ordering::Relaxed) - before;
                assert!(checked > 1000, "{checked} evaluations checked");
            }
        }
    }

    #[test]
    fn eval_classical_ignores_the_network_and_network_uses_it() {
        let rules = Rules::ashton();
        let game = &positions(&rules, 3, 4)[2];
        let nodes = |eval: EvalMode, net: Option<LoadedNet>| {
            let mut engine = Engine::new(Settings {
                eval,
                hash_mib: 1,
                ..Settings::default()
            });
            engine.set_network(net).unwrap();
            let limits = Limits {
                depth: Some(6),
                ..Limits::default()
            };
            let (_, info) = engine.search_sync(game, limits);
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

    #[test]
    fn only_a_deeper_helper_iteration_replaces_the_published_line() {
        let shared = Shared::new(1);
        assert_eq!(shared.helper_line_from(1), None, "nothing published yet");
        shared.publish_helper_line(5, 30, vec![mv("d1d3"), mv("e3e1")]);
        shared.publish_helper_line(4, -10, vec![mv("a4a2")]);
        shared.publish_helper_line(6, 12, Vec::new());
        assert_eq!(
            shared.helper_line_from(5),
            Some((5, 30, vec![mv("d1d3"), mv("e3e1")])),
            "a shallower or empty line is ignored"
        );
        assert_eq!(shared.helper_line_from(6), None, "depth 6 not reached");
        shared.publish_helper_line(7, -40, vec![mv("a4a2")]);
        assert_eq!(shared.helper_line_from(6), Some((7, -40, vec![mv("a4a2")])));
    }
}
