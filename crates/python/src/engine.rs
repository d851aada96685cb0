//! `NativeEngine`: the Konakis search in-process, through the one engine every front-end uses.
//!
//! A search runs on a helper thread while the calling thread waits for it without the GIL, so
//! other Python threads go on, and checks for signals every few milliseconds: Ctrl-C stops the
//! search and raises KeyboardInterrupt. `NativeEngine.stop()` sets the flag the search reads
//! every thousand nodes or so, from any thread. The engine sits behind a mutex: a second
//! search from another thread waits for the first.

use crate::errors;
use crate::game::PyGame;
use crate::rules::value_text;
use konakis_core::board::Game;
use konakis_core::types::Move;
use konakis_engine::Engine;
use konakis_engine::options::{self, Kind, Options};
use konakis_engine::review::{self, Thresholds};
use konakis_engine::search::{Cancel, Info, Limits, Report, Score, ScoreBound};
use konakis_engine::wdl::wdl;
use konakis_protocols::review::{ReviewedGame, review_json};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How often a thread waiting for a search checks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a helper thread while the calling thread waits for it without the GIL and
/// checks for signals every [`SIGNAL_POLL`]. A signal whose handler raises (Ctrl-C's
/// KeyboardInterrupt) sets `stop`, which ends the work within milliseconds; its exception is
/// returned once the work has ended, so the engine is ready for the next search.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let waiter = std::thread::current();
        let done = &done;
        let helper = scope.spawn(move || {
            let out = work();
            done.store(true, Ordering::SeqCst);
            waiter.unpark();
            out
        });
        let mut signal: Option<PyErr> = None;
        while !done.load(Ordering::SeqCst) {
            py.allow_threads(|| std::thread::park_timeout(SIGNAL_POLL));
            if signal.is_none() {
                signal = py.check_signals().err();
            }
            if signal.is_some() {
                // Again at every turn: a search that had not begun yet clears the flag.
                stop.store(true, Ordering::SeqCst);
            }
        }
        let out = match helper.join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        match signal {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}

/// Seconds on a clock as milliseconds; ValueError for a negative or non-finite number.
fn clock_ms(name: &str, seconds: Option<f64>) -> PyResult<Option<u64>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Some((s * 1000.0).round() as u64)),
        Some(s) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{name} {s} is not a number of seconds"
        ))),
    }
}

fn lock(engine: &Mutex<Engine>) -> MutexGuard<'_, Engine> {
    match engine.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The clocks of a search, in seconds: attackers', defenders', and their increments.
#[derive(Default, Clone, Copy)]
struct Clocks {
    attackers: Option<f64>,
    defenders: Option<f64>,
    attackers_inc: Option<f64>,
    defenders_inc: Option<f64>,
}

/// The limits of a search from Python's keyword arguments (time in seconds); `infinite`
/// searches until `stop()` or Ctrl-C.
fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    mate: Option<u32>,
    clocks: Clocks,
    infinite: bool,
) -> PyResult<Limits> {
    let movetime = match time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some((t * 1000.0).round().max(1.0) as u64),
        Some(t) => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "time {t} is not a positive number of seconds"
            )));
        }
    };
    if depth == Some(0) || nodes == Some(0) || mate == Some(0) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "depth, nodes and mate must be at least 1",
        ));
    }
    // The protocol's names: `w` the defenders, `b` the attackers.
    let limits = Limits {
        depth,
        nodes,
        movetime,
        mate,
        wtime: clock_ms("defenders_clock", clocks.defenders)?,
        btime: clock_ms("attackers_clock", clocks.attackers)?,
        winc: clock_ms("defenders_inc", clocks.defenders_inc)?,
        binc: clock_ms("attackers_inc", clocks.attackers_inc)?,
        infinite,
        ..Limits::default()
    };
    let bounded = depth.is_some()
        || nodes.is_some()
        || movetime.is_some()
        || mate.is_some()
        || limits.has_clock();
    if !bounded && !infinite {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "give a limit: depth, nodes, time, mate or a clock, or infinite=True (an endless \
             search, ended by stop() or Ctrl-C)",
        ));
    }
    Ok(limits)
}

/// An info report as a dictionary, with the win chances of its score.
fn info_dict<'py>(py: Python<'py>, info: &Info, game: &Game) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("multipv", info.multipv)?;
    match info.score {
        Score::Cp(cp) => d.set_item("score", ("cp", cp))?,
        Score::Mate(n) => d.set_item("score", ("mate", n))?,
    }
    let board = game.board();
    let w = wdl(
        info.score,
        board.plies(),
        board.side_to_move(),
        game.rules(),
    );
    d.set_item("wdl", (w.win, w.draw, w.loss))?;
    d.set_item(
        "bound",
        match info.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        },
    )?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("nps", info.nps)?;
    d.set_item("time", info.time_ms as f64 / 1000.0)?;
    d.set_item("hashfull", info.hashfull)?;
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    d.set_item("pv", pv)?;
    Ok(d)
}

/// The Konakis engine in-process: options by name (as the protocol's `setoption`), searches
/// with a depth, node or time limit, multi-PV lines with win chances, the strength levels,
/// and the review of a whole game.
///
/// `NativeEngine(**options)` sets options at once, e.g. `NativeEngine(Threads=2,
/// **{"Skill Level": 5})`; `NativeEngine.option_table()` lists them.
#[pyclass(name = "NativeEngine", module = "konakis", frozen, subclass)]
pub struct PyNativeEngine {
    engine: Mutex<Engine>,
    stop: Arc<AtomicBool>,
}

impl PyNativeEngine {
    fn set(&self, py: Python<'_>, name: &str, value: Option<String>) -> PyResult<()> {
        py.allow_threads(|| {
            lock(&self.engine)
                .set_option(name, value.as_deref())
                .map(|_| ())
                .map_err(|e| errors::search(e, "option"))
        })
    }
}

#[pymethods]
impl PyNativeEngine {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let inner = Engine::new(Options::default()).map_err(|e| errors::search(e, "engine"))?;
        let engine = PyNativeEngine {
            engine: Mutex::new(inner),
            stop: Arc::new(AtomicBool::new(false)),
        };
        if let Some(options) = options {
            for (name, value) in options.iter() {
                let name: String = name.extract()?;
                engine.set(py, &name, Some(value_text(&value)?))?;
            }
        }
        Ok(engine)
    }

    /// Sets one option by name, as the protocol's `setoption` (`"Skill Level"`, `"UCI_Elo"`,
    /// `"MultiPV"`, `"Threads"`, `"Hash"`, a rule option...); `value` None presses a button
    /// (`"Clear Hash"`). Waits for a running search to end. Raises SearchError (reason
    /// `option`) for an unknown option or a value it does not take.
    #[pyo3(signature = (name, value=None))]
    fn set_option(
        &self,
        py: Python<'_>,
        name: &str,
        value: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let value = value.map(value_text).transpose()?;
        self.set(py, name, value)
    }

    /// Every option of the engine: name, kind (`bool`, `int`, `choice`, `button`, `text`),
    /// default, min/max or values, whether it is a rule option, and what it does.
    #[staticmethod]
    fn option_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
        let rows = PyList::empty(py);
        for row in options::table() {
            let d = PyDict::new(py);
            d.set_item("name", row.name)?;
            match row.kind {
                Kind::Check { default } => {
                    d.set_item("kind", "bool")?;
                    d.set_item("default", default)?;
                }
                Kind::Spin { default, min, max } => {
                    d.set_item("kind", "int")?;
                    d.set_item("default", default)?;
                    d.set_item("min", min)?;
                    d.set_item("max", max)?;
                }
                Kind::Combo { default, values } => {
                    d.set_item("kind", "choice")?;
                    d.set_item("default", default)?;
                    d.set_item("values", values.to_vec())?;
                }
                Kind::Button => d.set_item("kind", "button")?,
                Kind::Text { default } => {
                    d.set_item("kind", "text")?;
                    d.set_item("default", default)?;
                }
            }
            d.set_item("rule", row.is_rule())?;
            d.set_item("description", row.help)?;
            rows.append(d)?;
        }
        Ok(rows)
    }

    /// Searches the game's current position (its rules and history count: repetition, the
    /// move limit) within the limits given, `time` and the clocks in seconds (or until `stop()`
    /// with `infinite=True`), with `multipv` lines (default: the `MultiPV` option). Returns
    /// `{"move", "ponder", "lines", "nodes", "status"}`: `move` the move to play (None when the
    /// game is over; at a strength level it may differ from the first line's), `lines` the
    /// last info of each line, best first, as dictionaries (`depth`, `seldepth`, `multipv`,
    /// `score` as `("cp", n)` or `("mate", n)` from the side to move's view, `wdl` per mille
    /// for the side to move, `bound`, `nodes`, `nps`, `time` in seconds, `hashfull`, `pv`).
    /// The GIL is released meanwhile; `stop()` from another thread ends the search early, with
    /// the best move found so far, and Ctrl-C ends it with KeyboardInterrupt. `on_info`, a
    /// function, is called with each line's info as the search finds it (an exception it
    /// raises stops the search and is raised here). (`play`, `analyse` and `analysis` take a
    /// `konakis.Limit` and answer as the protocol driver does.)
    #[pyo3(signature = (game, *, depth=None, nodes=None, time=None, mate=None, multipv=None,
                        attackers_clock=None, defenders_clock=None, attackers_inc=None,
                        defenders_inc=None, infinite=false, on_info=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        game: &PyGame,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        mate: Option<u32>,
        multipv: Option<u32>,
        attackers_clock: Option<f64>,
        defenders_clock: Option<f64>,
        attackers_inc: Option<f64>,
        defenders_inc: Option<f64>,
        infinite: bool,
        on_info: Option<PyObject>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let clocks = Clocks {
            attackers: attackers_clock,
            defenders: defenders_clock,
            attackers_inc,
            defenders_inc,
        };
        let limits = limits(depth, nodes, time, mate, clocks, infinite)?;
        let game = game.game.clone();
        let stop = Arc::clone(&self.stop);
        let result = interruptible(py, &self.stop, || {
            let mut inner = lock(&self.engine);
            stop.store(false, Ordering::SeqCst);
            let saved_multipv = inner.options().settings.multipv;
            if let Some(n) = multipv {
                inner
                    .set_option("MultiPV", Some(&n.to_string()))
                    .map_err(|e| errors::search(e, "option"))?;
            }
            inner.set_rules(*game.rules(), *game.start_board());
            for &mv in game.moves() {
                inner
                    .play(mv)
                    .expect("the moves of a game replay under its rules");
            }
            let mut reports: Vec<Report> = Vec::new();
            // The first exception of `on_info`, which also stops the search.
            let mut failed: Option<PyErr> = None;
            let outcome = inner.search(limits, Cancel::Flag(&stop), |_, r| {
                if let (Some(callback), Report::Info(info), None) = (&on_info, &r, &failed) {
                    let called = Python::with_gil(|py| {
                        callback
                            .call1(py, (info_dict(py, info, &game)?,))
                            .map(|_| ())
                    });
                    if let Err(e) = called {
                        stop.store(true, Ordering::SeqCst);
                        failed = Some(e);
                    }
                }
                reports.push(r);
            });
            if multipv.is_some() {
                let _ = inner.set_option("MultiPV", Some(&saved_multipv.to_string()));
            }
            if let Some(e) = failed {
                return Err(e);
            }
            let outcome = outcome.map_err(|e| errors::search(e, "search"))?;
            let nodes = inner.nodes();
            Ok::<_, PyErr>((outcome, reports, nodes))
        })?;
        let (outcome, reports, nodes) = result?;
        let mut lines: Vec<Info> = Vec::new();
        for r in &reports {
            if let Report::Info(info) = r {
                let k = info.multipv.max(1) as usize;
                if lines.len() < k {
                    lines.resize(k, info.clone());
                }
                lines[k - 1] = info.clone();
            }
        }
        let out = PyDict::new(py);
        out.set_item("move", outcome.best.map(|m| m.to_string()))?;
        out.set_item("ponder", outcome.ponder.map(|m| m.to_string()))?;
        let list = PyList::empty(py);
        for info in &lines {
            list.append(info_dict(py, info, &game)?)?;
        }
        out.set_item("lines", list)?;
        out.set_item("nodes", nodes)?;
        out.set_item("status", game.status().to_string())?;
        Ok(out)
    }

    /// Asks the running search (or review) to stop; it answers within a few milliseconds.
    /// Safe to call from any thread, and when nothing runs.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Reviews every move of the game at full strength, each position searched within the
    /// limits given (`time` in seconds), and returns the review as JSON text: the win chances
    /// before and after each move, the engine's move, a verdict (best, good, inaccuracy,
    /// mistake, blunder, missed win, allows loss) and each side's accuracy, as
    /// `konakis analyse --json` writes it (docs/review.md). `konakis.analyse_game` parses it.
    /// The review leaves the transposition table and the histories empty, as `clear()` does.
    #[pyo3(signature = (game, *, depth=None, nodes=None, time=None, thresholds=None))]
    fn review_json(
        &self,
        py: Python<'_>,
        game: &PyGame,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        thresholds: Option<(f64, f64, f64)>,
    ) -> PyResult<String> {
        let limits = limits(depth, nodes, time, None, Clocks::default(), false)?;
        let thresholds = match thresholds {
            None => Thresholds::default(),
            Some((inaccuracy, mistake, blunder)) => Thresholds {
                inaccuracy,
                mistake,
                blunder,
            },
        };
        let config = review::ReviewConfig {
            limits,
            thresholds,
            ..review::ReviewConfig::default()
        };
        let game = game.game.clone();
        let stop = Arc::clone(&self.stop);
        interruptible(py, &self.stop, || {
            let (rules, start) = (*game.rules(), *game.start_board());
            let positions = [review::positions(rules, start, game.moves())
                .map_err(|e| errors::search(e, "review"))?];
            // The engine reviews at full strength, whatever its level: a review judges moves,
            // it does not play.
            let mut engine = lock(&self.engine);
            stop.store(false, Ordering::SeqCst);
            let reviewed = engine
                .review(&positions, &config, Cancel::Flag(&stop), |_, _| {})
                .map_err(|e| errors::search(e, "review"))?;
            let one = ReviewedGame {
                label: None,
                rules: &rules,
                start: &start,
                positions: &positions[0],
                review: &reviewed[0],
            };
            Ok(review_json(&[one], &config, false))
        })?
    }

    /// The win chances, per mille `(win, draw, loss)` for the side to move of `game`, of a
    /// score from its point of view: `("cp", n)` or `("mate", n)`.
    #[staticmethod]
    fn win_chances(game: &PyGame, score: (String, i32)) -> PyResult<(u32, u32, u32)> {
        let score = match score.0.as_str() {
            "cp" => Score::Cp(score.1),
            "mate" => Score::Mate(score.1),
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "score kind '{other}' is neither cp nor mate"
                )));
            }
        };
        let board = game.game.board();
        let w = wdl(
            score,
            board.plies(),
            board.side_to_move(),
            game.game.rules(),
        );
        Ok((w.win, w.draw, w.loss))
    }

    /// Empties the transposition table and the histories (a new game).
    fn clear(&self, py: Python<'_>) {
        py.allow_threads(|| lock(&self.engine).clear());
    }
}
