//! The search's vocabulary: score constants, what `go` asks for ([`Limits`]), what a search
//! reports ([`Report`], [`Info`], [`Score`]), how a caller stops it ([`Cancel`], [`Signal`]),
//! why the searcher refuses ([`SearchError`]) and what a search ended with ([`SearchOutcome`]).

use konakis_core::board::{GameOf, Status};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{MoveOf, Side};
use std::sync::atomic::{AtomicBool, Ordering};

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

/// Why the searcher refused a request. Nothing changed when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
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

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Busy => f.write_str("a search is already running"),
            SearchError::Memory { mib } => {
                write!(f, "cannot allocate {mib} MiB for the hash table")
            }
            SearchError::Thread { reason } => {
                write!(f, "cannot start the search thread ({reason})")
            }
            SearchError::NoLegalSearchMove => f.write_str("none of the searchmoves is legal here"),
        }
    }
}

impl std::error::Error for SearchError {}

/// What `go` asks for. Times are in milliseconds; `w` is the defenders' clock, `b` the
/// attackers'.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits<G: Geometry = Nine> {
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
    pub searchmoves: Vec<MoveOf<G>>,
}

impl<G: Geometry> Limits<G> {
    /// The moves a search of `game` chooses among: its legal moves, only those of
    /// `searchmoves` if any are given.
    pub(crate) fn root_moves(&self, game: &GameOf<G>) -> Vec<MoveOf<G>> {
        // The game's moves, which leave out a move its repetition rule forbids.
        let mut moves = game.legal_moves();
        if !self.searchmoves.is_empty() {
            moves.retain(|m| self.searchmoves.contains(m));
        }
        moves
    }

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
pub struct Info<G: Geometry = Nine> {
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
    pub pv: Vec<MoveOf<G>>,
}

/// What a search reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Report<G: Geometry = Nine> {
    /// A finished (or failed-high/low) iteration.
    Info(Info<G>),
    /// The root move being searched (sent after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: MoveOf<G>,
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
        best: Option<MoveOf<G>>,
        /// The expected reply.
        ponder: Option<MoveOf<G>>,
    },
}

/// What a search on the caller's thread (`Engine::search`, `Engine::analyse`,
/// `Engine::review`) and the bench ask now and then (every thousand nodes or so) to learn that
/// they must stop.
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
    /// Stop, as on `Engine::stop`.
    Stop,
    /// The opponent played the expected move, as on `Engine::ponderhit` (ignored unless a
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

/// What a search ended with, gathered from its reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchOutcome<G: Geometry = Nine> {
    /// The move to play; `None` when the game is over (or no answer came).
    pub best: Option<MoveOf<G>>,
    /// The expected reply.
    pub ponder: Option<MoveOf<G>>,
    /// The last report of the first line (`multipv` 1), if an iteration finished.
    pub info: Option<Info<G>>,
    /// Whether the [`Report::BestMove`] came.
    pub answered: bool,
}

impl<G: Geometry> SearchOutcome<G> {
    /// Takes in one report.
    pub fn take(&mut self, report: &Report<G>) {
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
