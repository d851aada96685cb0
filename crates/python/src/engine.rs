//! `NativeEngine`: the Konakis search in-process, through the one engine every front-end uses.
//!
//! A search runs on the calling thread with the GIL released, so other Python threads go on;
//! `NativeEngine.stop()` sets a flag the search reads every thousand nodes or so, from any
//! thread. The engine sits behind a mutex: a second search from another thread waits for the
//! first.

use crate::errors;
use crate::game::PyGame;
use crate::rules::value_text;
use konakis_core::board::Game;
use konakis_core::types::Move;
use konakis_engine::Engine;
use konakis_engine::options::{self, Kind, Options};
use konakis_engine::review::{self, Thresholds};
use konakis_engine::search::{Cancel, Info, Limits, Report, Score, ScoreBound, Searcher};
use konakis_engine::skill::Skill;
use konakis_engine::wdl::wdl;
use konakis_protocols::review::{ReviewedGame, review_json};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

fn lock(engine: &Mutex<Engine>) -> MutexGuard<'_, Engine> {
    match engine.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The limits of a search from Python's keyword arguments (time in seconds).
fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    mate: Option<u32>,
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
    if depth.is_none() && nodes.is_none() && movetime.is_none() && mate.is_none() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "give a limit: depth, nodes, time or mate (an endless search needs a stop)",
        ));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime,
        mate,
        ..Limits::default()
    })
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
#[pyclass(name = "NativeEngine", module = "konakis", frozen)]
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
    /// move limit) within the limits given, `time` in seconds, with `multipv` lines (default:
    /// the `MultiPV` option). Returns `{"move", "ponder", "lines", "nodes", "status"}`:
    /// `move` the move to play (None when the game is over; at a strength level it may differ
    /// from the first line's), `lines` the last info of each line, best first, as dictionaries
    /// (`depth`, `seldepth`, `multipv`, `score` as `("cp", n)` or `("mate", n)` from the side
    /// to move's view, `wdl` per mille for the side to move, `bound`, `nodes`, `nps`, `time`
    /// in seconds, `hashfull`, `pv`). The GIL is released meanwhile; `stop()` from another
    /// thread ends the search early, with the best move found so far.
    #[pyo3(signature = (game, *, depth=None, nodes=None, time=None, mate=None, multipv=None))]
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
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = limits(depth, nodes, time, mate)?;
        let game = game.game.clone();
        let stop = Arc::clone(&self.stop);
        let result = py.allow_threads(|| {
            let mut inner = lock(&self.engine);
            stop.store(false, Ordering::SeqCst);
            let saved_multipv = inner.config().settings.multipv;
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
            let outcome = inner.search(limits, Cancel::Flag(&stop), |_, r| reports.push(r));
            if multipv.is_some() {
                let _ = inner.set_option("MultiPV", Some(&saved_multipv.to_string()));
            }
            let outcome = outcome.map_err(|e| errors::search(e, "search"))?;
            let nodes = inner.nodes();
            Ok::<_, PyErr>((outcome, reports, nodes))
        });
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
        let limits = limits(depth, nodes, time, None)?;
        let thresholds = match thresholds {
            None => Thresholds::default(),
            Some((inaccuracy, mistake, blunder)) => Thresholds {
                inaccuracy,
                mistake,
                blunder,
            },
        };
        let config = review::ReviewConfig { limits, thresholds };
        let game = game.game.clone();
        let stop = Arc::clone(&self.stop);
        py.allow_threads(|| {
            // Its own engine at full strength: a review judges moves, it does not play.
            let mut settings = lock(&self.engine).config().settings;
            settings.skill = Skill::default();
            let mut engine =
                Searcher::try_new(settings).map_err(|e| errors::search(e, "engine"))?;
            stop.store(false, Ordering::SeqCst);
            let (rules, start) = (*game.rules(), *game.start_board());
            let reviewed = review::review_game(
                &mut engine,
                rules,
                start,
                game.moves(),
                &config,
                Cancel::Flag(&stop),
                |_, _| {},
            )
            .map_err(|e| errors::search(e, "review"))?;
            let positions = review::positions(rules, start, game.moves())
                .map_err(|e| errors::search(e, "review"))?;
            let one = ReviewedGame {
                label: None,
                rules: &rules,
                start: &start,
                positions: &positions,
                review: &reviewed,
            };
            Ok(review_json(&[one], &config, false))
        })
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
        py.allow_threads(|| lock(&self.engine).clear_hash());
    }
}
