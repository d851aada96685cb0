//! `Game`: a position with its history under some rules, and the loops that run in Rust
//! (perft, random playouts).

use crate::errors;
use crate::rules::PyRules;
use konakis_core::Bitboard;
use konakis_core::board::{Board, DrawReason, Game, MoveList, Status, WinReason};
use konakis_core::geometry::SQUARES;
use konakis_core::perft;
use konakis_core::rules::{Rules, Ruleset};
use konakis_core::types::{Move, Piece, Side, Square};
use konakis_core::zobrist::splitmix64;
use konakis_protocols::opentafl::otg::{parse_otg, replay, write_game_record};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Actions of the environment's encoding: `from_index * 81 + to_index`.
pub const ACTIONS: usize = SQUARES * SQUARES;

/// The status of a game: whether it is over, the winner, the reason in a word and in words.
/// Also `konakis.Outcome`, what `Game.outcome()` returns once the game is over, as python-chess
/// calls it (`termination` is `reason` under python-chess's name).
#[pyclass(name = "Status", module = "konakis", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyStatus {
    /// Whether the game has ended.
    #[pyo3(get)]
    over: bool,
    /// `"attackers"`, `"defenders"`, or None (a draw, or the game goes on).
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// `escape`, `capture`, `encirclement`, `no-move`, `repetition`, `move-limit`, or None.
    #[pyo3(get)]
    reason: Option<&'static str>,
    /// The status as the engine prints it (`defenders win: the king reached the edge`).
    #[pyo3(get)]
    text: String,
}

/// Every status a game can reach: going on, each win, each draw.
const STATUSES: [Status; 8] = [
    Status::Ongoing,
    Status::Win(Side::Defenders, WinReason::KingEscaped),
    Status::Win(Side::Attackers, WinReason::KingCaptured),
    Status::Win(Side::Attackers, WinReason::Encircled),
    Status::Win(Side::Attackers, WinReason::NoMoves),
    Status::Win(Side::Defenders, WinReason::NoMoves),
    Status::Draw(DrawReason::Repetition),
    Status::Draw(DrawReason::MoveLimit),
];

impl PyStatus {
    pub fn new(status: Status) -> PyStatus {
        PyStatus {
            over: status.is_over(),
            winner: match status {
                Status::Win(side, _) => Some(side.name()),
                _ => None,
            },
            reason: status.ending(),
            text: status.to_string(),
        }
    }
}

#[pymethods]
impl PyStatus {
    /// The status with this reason and winner: `Status()` a game going on,
    /// `Status("escape", "defenders")` a win, `Status("repetition")` a draw (what pickling
    /// calls; `reason` and `winner` are the words of the attributes).
    #[new]
    #[pyo3(signature = (reason=None, winner=None))]
    fn py_new(reason: Option<&str>, winner: Option<&str>) -> PyResult<PyStatus> {
        let winner = winner.map(parse_side).transpose()?;
        STATUSES
            .iter()
            .find(|s| {
                s.ending() == reason
                    && match s {
                        Status::Win(side, _) => winner == Some(*side),
                        _ => winner.is_none(),
                    }
            })
            .map(|&s| PyStatus::new(s))
            .ok_or_else(|| {
                let word = |w: Option<&str>| w.map_or("None".to_string(), |w| format!("'{w}'"));
                errors::argument(
                    format!(
                        "no game ends with reason {} and winner {} (reasons: escape and no-move \
                         for the defenders; capture, encirclement and no-move for the attackers; \
                         repetition and move-limit with no winner; None going on)",
                        word(reason),
                        word(winner.map(Side::name))
                    ),
                    "not-a-status",
                )
            })
    }

    /// `reason` under python-chess's name for it.
    #[getter]
    fn termination(&self) -> Option<&'static str> {
        self.reason
    }

    /// The result from one side's point of view: 1 won, -1 lost, 0 drawn or going on.
    fn score_for(&self, side: &str) -> PyResult<i32> {
        let side = parse_side(side)?;
        Ok(match self.winner {
            None => 0,
            Some(w) if w == side.name() => 1,
            Some(_) => -1,
        })
    }

    fn __getnewargs__(&self) -> (Option<&'static str>, Option<&'static str>) {
        (self.reason, self.winner)
    }

    fn __repr__(&self) -> String {
        format!("Status({:?})", self.text)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// `attackers`/`defenders` (or `b`/`w`, `a`/`d`) as a side.
pub fn parse_side(text: &str) -> PyResult<Side> {
    match text.trim().to_ascii_lowercase().as_str() {
        "attackers" | "attacker" | "b" | "a" | "black" => Ok(Side::Attackers),
        "defenders" | "defender" | "w" | "d" | "white" => Ok(Side::Defenders),
        _ => Err(errors::argument(
            format!("'{text}' is not a side (attackers or defenders)"),
            "not-a-side",
        )),
    }
}

fn parse_square(text: &str) -> PyResult<Square> {
    text.trim().parse::<Square>().map_err(|e| {
        Python::with_gil(|py| {
            let err = errors::MoveSyntaxError::new_err(e.to_string());
            let _ = err.value(py).setattr("reason", "not-a-square");
            err
        })
    })
}

/// An action number, `from_index * 81 + to_index`, below [`ACTIONS`]; else MoveSyntaxError
/// (`not-an-action`).
fn action_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let not_an_action = || {
        let shown = value.str().map(|s| s.to_string()).unwrap_or_default();
        errors::not_an_action(format!(
            "{shown} is not an action: actions are whole numbers from 0 to {}",
            ACTIONS - 1
        ))
    };
    match value.extract::<usize>() {
        Ok(n) if n < ACTIONS => Ok(n),
        Ok(_) => Err(not_an_action()),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(value.py()) => {
            Err(not_an_action())
        }
        Err(e) => Err(e),
    }
}

/// The squares of an action (already below [`ACTIONS`]) as text, `d1d3`.
fn action_text(action: usize) -> String {
    let square = |i: usize| Square::new(i as u8).expect("an index below SQUARES is a square");
    format!("{}{}", square(action / SQUARES), square(action % SQUARES))
}

fn depth_arg(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(errors::whole(value, "depth", u64::from(perft::MAX_DEPTH))? as u32)
}

fn seed_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    errors::whole(value, "seed", u64::MAX)
}

fn games_arg(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(errors::whole(value, "games", u64::from(u32::MAX))? as u32)
}

fn max_plies_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    if value.is_none() {
        return Ok(None);
    }
    Ok(Some(
        errors::whole(value, "max_plies", u64::from(u32::MAX))? as u32,
    ))
}

/// The move as text (`d1d3`) that the action of `action_arg` stands for, any of the 6,561
/// numbers: `move_of(action_of("d1d3")) == "d1d3"`. Raises MoveSyntaxError (`not-an-action`)
/// for a number that is not an action.
#[pyfunction]
pub fn move_of(#[pyo3(from_py_with = action_arg)] action: usize) -> String {
    action_text(action)
}

/// The action of a move in text (`d1d3` or `d1-d3`): `from_index * 81 + to_index`, where a
/// square's index is `rank * 9 + file` from 0. Raises MoveSyntaxError, as `Game.play` does,
/// for text that is not a move.
#[pyfunction]
pub fn action_of(mv: &str) -> PyResult<usize> {
    let mv = Move::parse(mv).map_err(|e| errors::move_syntax(&e))?;
    Ok(mv.from().index() * SQUARES + mv.to().index())
}

/// A game of Tablut: the rules, the start position, the moves played, and the referee.
///
/// `Game()` starts the reference rules' game; `Game(Rules("ashton"))` the Tablut Challenge's;
/// `Game(rules, position="...", moves=["d1d3"])` any position string and moves after it.
/// Moves are text, `d1d3` or `d1-d3`; squares `a1` to `i9`, files from the left, ranks from
/// the bottom (the attackers' first-move side).
///
/// Two games are equal when they have the same rules, start position and moves (so the same
/// position and history); a game changes, so it has no hash. It pickles and copies with its
/// history.
#[pyclass(name = "Game", module = "konakis", eq)]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
}

impl PartialEq for PyGame {
    fn eq(&self, other: &PyGame) -> bool {
        let (a, b) = (&self.game, &other.game);
        a.rules() == b.rules() && a.start_board() == b.start_board() && a.moves() == b.moves()
    }
}

impl PyGame {
    fn rules(&self) -> &Rules {
        self.game.rules()
    }

    fn legal_list(&self) -> MoveList {
        if self.game.status().is_over() {
            return MoveList::new();
        }
        self.game.board().legal_moves(self.rules())
    }

    fn parse_play(&mut self, text: &str) -> PyResult<Bitboard> {
        let before = *self.game.board();
        let victims = before.side_pieces(before.side_to_move().opponent());
        self.game
            .play_text(text.trim())
            .map_err(|e| errors::game_error(&e))?;
        Ok(victims
            - self
                .game
                .board()
                .side_pieces(before.side_to_move().opponent()))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules=None, position=None, moves=Vec::new()))]
    fn new(rules: Option<PyRules>, position: Option<&str>, moves: Vec<String>) -> PyResult<Self> {
        let rules = rules.map_or_else(Rules::default, |r| r.rules);
        let board = match position {
            None => Board::start(&rules),
            Some(text) => Board::from_fen(text.trim()).map_err(|e| errors::position(&e))?,
        };
        let mut g = PyGame {
            game: Game::new(rules, board),
        };
        for mv in &moves {
            g.parse_play(mv)?;
        }
        Ok(g)
    }

    /// The first game of an OpenTafl `.otg` record, replayed by the referee.
    #[staticmethod]
    fn from_otg(text: &str) -> PyResult<PyGame> {
        let records = parse_otg(text).map_err(errors::record)?;
        let record = records
            .first()
            .ok_or_else(|| errors::record("the text holds no OpenTafl game record"))?;
        let replayed = replay(record).map_err(errors::record)?;
        Ok(PyGame {
            game: replayed.game,
        })
    }

    /// Every game of an OpenTafl `.otg` file's text.
    #[staticmethod]
    fn all_from_otg(text: &str) -> PyResult<Vec<PyGame>> {
        let records = parse_otg(text).map_err(errors::record)?;
        records
            .iter()
            .map(|r| {
                replay(r)
                    .map(|replayed| PyGame {
                        game: replayed.game,
                    })
                    .map_err(errors::record)
            })
            .collect()
    }

    /// The game as an OpenTafl record that OpenTafl and `konakis replay` read, written as the
    /// browser package writes it: the tags given (e.g. `[("event", "club night")]`; `date`
    /// and `compiler`, default `Konakis`, first), the result and reason when it is over, the
    /// rules and the start position, then the moves.
    #[pyo3(signature = (tags=None))]
    fn to_otg(&self, tags: Option<Vec<(String, String)>>) -> PyResult<String> {
        let tags = tags.unwrap_or_default();
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        write_game_record(&self.game, &tags).map_err(errors::record)
    }

    /// What pickling needs to build the game again: rules, start position, moves.
    fn __getnewargs__(&self) -> (PyRules, String, Vec<String>) {
        (
            PyRules {
                rules: *self.rules(),
            },
            self.game.start_board().to_fen(),
            self.game.moves().iter().map(Move::to_string).collect(),
        )
    }

    /// A copy of the game, history included.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// The rules the game is played under.
    #[getter]
    fn get_rules(&self) -> PyRules {
        PyRules {
            rules: *self.rules(),
        }
    }

    /// The current position string (`placement side plies`).
    #[getter]
    fn position(&self) -> String {
        self.game.board().to_fen()
    }

    /// The position string the game started from.
    #[getter]
    fn start_position(&self) -> String {
        self.game.start_board().to_fen()
    }

    /// `"attackers"` or `"defenders"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.game.board().side_to_move().name()
    }

    /// Plies of the position: those of the start position plus the moves played.
    #[getter]
    fn plies(&self) -> u32 {
        self.game.board().plies()
    }

    /// The moves played since the start position, as text.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The Zobrist key of the placement and side to move.
    #[getter]
    fn key(&self) -> u64 {
        self.game.board().hash()
    }

    /// The status after the last move.
    #[getter]
    fn status(&self) -> PyStatus {
        PyStatus::new(self.game.status())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.status().is_over()
    }

    /// Whether the game has ended (python-chess's name; `is_over` is the attribute).
    fn is_game_over(&self) -> bool {
        self.game.status().is_over()
    }

    /// The status once the game has ended (winner, and reason also as `termination`), None
    /// while it goes on: python-chess's `outcome()`.
    fn outcome(&self) -> Option<PyStatus> {
        let status = self.game.status();
        status.is_over().then(|| PyStatus::new(status))
    }

    /// How often the current position has occurred, as the repetition rule counts
    /// (the game is drawn when this reaches `rules.repetition_draw`).
    #[getter]
    fn occurrences(&self) -> usize {
        self.game.occurrences()
    }

    /// Plies left before the move limit draws the game, or None without a limit.
    #[getter]
    fn plies_left(&self) -> Option<u32> {
        let limit = self.rules().move_limit;
        (limit > 0).then(|| limit.saturating_sub(self.game.board().plies()))
    }

    /// The king's square, or None once he is captured.
    #[getter]
    fn king(&self) -> Option<String> {
        self.game.board().king().map(|s| s.to_string())
    }

    /// The number of clear lines from the king to the edge (1 raichi, 2 or more tuichu).
    #[getter]
    fn king_open_lines(&self) -> u32 {
        self.game.board().king_open_lines()
    }

    /// The piece on a square: `"attacker"`, `"defender"`, `"king"` or None.
    fn piece_at(&self, square: &str) -> PyResult<Option<&'static str>> {
        let sq = parse_square(square)?;
        Ok(self.game.board().piece_at(sq).map(|p| match p {
            Piece::Attacker => "attacker",
            Piece::Defender => "defender",
            Piece::King => "king",
        }))
    }

    /// The placement as 81 bytes in square order (a1, b1, ... i1, a2, ... i9; index
    /// `rank * 9 + file` from 0): 0 empty, 1 attacker, 2 defender, 3 king.
    fn board_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let board = self.game.board();
        let cells: Vec<u8> = Square::all()
            .map(|sq| match board.piece_at(sq) {
                None => 0,
                Some(Piece::Attacker) => 1,
                Some(Piece::Defender) => 2,
                Some(Piece::King) => 3,
            })
            .collect();
        PyBytes::new(py, &cells)
    }

    /// The legal moves, a view of the game's current position as python-chess's: iterate it,
    /// take `len()`, ask `"d1d3" in game.legal_moves`, index it; or call it, as
    /// `game.legal_moves()` or `game.legal_moves("d1")`, for a list of all or those from one
    /// square. None once the game is over.
    #[getter]
    fn legal_moves(slf: Py<PyGame>) -> PyLegalMoves {
        PyLegalMoves { game: slf }
    }

    /// The legal moves as actions, `from_index * 81 + to_index` (square index
    /// `rank * 9 + file` from 0), in generation order.
    fn legal_actions(&self) -> Vec<u16> {
        self.legal_list()
            .iter()
            .map(|mv| (mv.from().index() * SQUARES + mv.to().index()) as u16)
            .collect()
    }

    /// Whether a move (text) is legal now.
    fn is_legal(&self, mv: &str) -> bool {
        !self.game.status().is_over()
            && self
                .game
                .board()
                .parse_move(self.rules(), mv.trim())
                .is_ok()
    }

    /// Plays a move given as text and returns the squares of the pieces it captured (the
    /// king's included). Raises MoveSyntaxError, IllegalMoveError (with `reason`) or
    /// GameOverError, and then changes nothing.
    fn play(&mut self, mv: &str) -> PyResult<Vec<String>> {
        let captured = self.parse_play(mv)?;
        Ok(captured.map(|sq| sq.to_string()).collect())
    }

    /// `play` under python-chess's name.
    fn push(&mut self, mv: &str) -> PyResult<Vec<String>> {
        self.play(mv)
    }

    /// Plays a move given as text, as `play` does, and returns the move as the game writes it
    /// (`d1-d3` -> `d1d3`), as python-chess's `push_uci` returns the move.
    fn push_uci(&mut self, mv: &str) -> PyResult<String> {
        self.play(mv)?;
        Ok(self.moves().pop().expect("a move was just played"))
    }

    /// Plays an action (`from_index * 81 + to_index`), as `play` does; a number that is not an
    /// action raises MoveSyntaxError (`not-an-action`).
    fn play_action(
        &mut self,
        #[pyo3(from_py_with = action_arg)] action: usize,
    ) -> PyResult<Vec<String>> {
        self.play(&action_text(action))
    }

    /// Takes the last move back and returns it; None at the start.
    fn undo(&mut self) -> Option<String> {
        let (&last, earlier) = self.game.moves().split_last()?;
        self.game = Game::with_moves(*self.game.rules(), *self.game.start_board(), earlier)
            .expect("the moves of a game replay in it");
        Some(last.to_string())
    }

    /// Takes the last move back and returns it, as `undo` does; at the start, raises
    /// IndexError, as python-chess's `pop` (and a list's) does.
    fn pop(&mut self) -> PyResult<String> {
        self.undo().ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err("pop from a game with no moves played")
        })
    }

    /// The number of leaves of the legal-move tree `depth` plies deep (repetition and the
    /// move limit are ignored, as by `go perft`). Runs in Rust without the GIL.
    fn perft(&self, py: Python<'_>, #[pyo3(from_py_with = depth_arg)] depth: u32) -> u64 {
        let (board, rules) = (*self.game.board(), *self.rules());
        py.allow_threads(|| perft::perft(&board, &rules, depth))
    }

    /// perft split by first move: `{move: leaves}` in generation order.
    fn divide(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = depth_arg)] depth: u32,
    ) -> PyResult<Vec<(String, u64)>> {
        if depth == 0 {
            return Err(errors::argument(
                format!(
                    "depth 0 has no first move to split by: depth is from 1 to {}",
                    perft::MAX_DEPTH
                ),
                "too-small",
            ));
        }
        let (board, rules) = (*self.game.board(), *self.rules());
        let split = py.allow_threads(|| perft::divide(&board, &rules, depth));
        Ok(split.into_iter().map(|(m, n)| (m.to_string(), n)).collect())
    }

    /// Plays uniformly random legal moves in Rust until the game ends or `max_plies` more
    /// have been played, with the referee's repetition and move-limit rules; returns the
    /// moves played. The stream of choices is fixed by `seed` (SplitMix64).
    #[pyo3(signature = (seed=0, max_plies=None))]
    fn playout(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = seed_arg)] seed: u64,
        #[pyo3(from_py_with = max_plies_arg)] max_plies: Option<u32>,
    ) -> Vec<String> {
        let mut game = self.game.clone();
        let played = py.allow_threads(|| {
            let mut state = seed;
            random_playout(&mut game, &mut state, max_plies.unwrap_or(u32::MAX))
        });
        let moves = game.moves()[self.game.moves().len()..]
            .iter()
            .map(Move::to_string)
            .collect();
        debug_assert_eq!(
            played as usize,
            game.moves().len() - self.game.moves().len()
        );
        self.game = game;
        moves
    }

    fn __repr__(&self) -> String {
        format!("Game(position={:?})", self.game.board().to_fen())
    }

    /// The board as the engine's `d` draws it.
    fn __str__(&self) -> String {
        self.game.board().diagram()
    }
}

/// The legal moves of a game's current position (`Game.legal_moves`): a live view, as
/// python-chess's, so it follows the game as moves are played. Iterable, sized, indexable
/// (`random.choice` takes it), `in` takes move text in either form; calling it gives a list, all
/// moves or those from one square, as `Game.legal_moves()` always has.
#[pyclass(name = "LegalMoves", module = "konakis", frozen)]
pub struct PyLegalMoves {
    game: Py<PyGame>,
}

impl PyLegalMoves {
    /// The moves as text, those from `from` only if given.
    fn list(&self, py: Python<'_>, from: Option<Square>) -> Vec<String> {
        self.game
            .borrow(py)
            .legal_list()
            .iter()
            .filter(|mv| from.is_none_or(|sq| mv.from() == sq))
            .map(|mv| mv.to_string())
            .collect()
    }
}

#[pymethods]
impl PyLegalMoves {
    /// The legal moves as a list, all or those from one square.
    #[pyo3(signature = (from_square=None))]
    fn __call__(&self, py: Python<'_>, from_square: Option<&str>) -> PyResult<Vec<String>> {
        let from = from_square.map(parse_square).transpose()?;
        Ok(self.list(py, from))
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.game.borrow(py).legal_list().len()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.list(py, None))?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<String> {
        let moves = self.list(py, None);
        let at = if index < 0 {
            index + moves.len() as isize
        } else {
            index
        };
        usize::try_from(at)
            .ok()
            .and_then(|i| moves.get(i).cloned())
            .ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err(format!(
                    "legal move index {index} is out of range ({} moves)",
                    moves.len()
                ))
            })
    }

    /// Whether a move (text, `d1d3` or `d1-d3`) is legal now; anything else is not in it.
    fn __contains__(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> bool {
        match mv.extract::<String>() {
            Ok(text) => self.game.borrow(py).is_legal(&text),
            Err(_) => false,
        }
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<LegalMoves ({})>", self.list(py, None).join(", "))
    }
}

/// Plays random legal moves in `game` until it ends or `max_plies` have been played; returns
/// how many were played.
fn random_playout(game: &mut Game, state: &mut u64, max_plies: u32) -> u32 {
    let mut played = 0;
    while played < max_plies && !game.status().is_over() {
        let rules = *game.rules();
        let moves = game.board().legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        let pick = (splitmix64(state) % moves.len() as u64) as usize;
        game.play(moves[pick])
            .expect("a generated move is legal in an ongoing game");
        played += 1;
    }
    played
}

/// A random game from the start position of `rules`, played on a bare [`Board`] with the
/// referee's rules (the twin of [`random_playout`] on a [`Game`], which the tests hold it
/// to): the repetition count keeps only the keys since the last capture, since a capture
/// removes a piece for good and no position before it can recur. Returns the plies played
/// and the status.
fn fast_random_game(rules: &Rules, state: &mut u64, max_plies: u32) -> (u32, Status) {
    let mut board = Board::start(rules);
    // The keys the repetition rule counts: the start's too under Linnaeus, not under Ashton
    // (see `Game::occurrences`).
    let mut keys: Vec<u64> = Vec::with_capacity(256);
    if rules.ruleset == Ruleset::Linnaeus {
        keys.push(board.hash());
    }
    let judge = |board: &Board, keys: &[u64]| match board.status(rules) {
        s @ (Status::Ongoing | Status::Draw(_)) => {
            let key = board.hash();
            if keys.iter().filter(|&&k| k == key).count() >= rules.repetition_draw as usize {
                Status::Draw(DrawReason::Repetition)
            } else {
                s
            }
        }
        s => s,
    };
    let mut status = judge(&board, &keys);
    let mut plies = 0;
    while plies < max_plies && !status.is_over() {
        let moves = board.legal_moves(rules);
        let pick = (splitmix64(state) % moves.len() as u64) as usize;
        if !board.play(rules, moves[pick]).is_empty() {
            keys.clear();
        }
        keys.push(board.hash());
        plies += 1;
        status = judge(&board, &keys);
    }
    (plies, status)
}

/// Plays `games` random games from the start position of `rules` in Rust, with the
/// referee's rules (repetition and move limit included), and returns `(moves,
/// attackers_wins, defenders_wins, draws)`: the loop a self-play experiment runs, at the
/// rules' own speed. Game `k` makes the same moves as `Game(rules).playout(seed)` would
/// after the `k - 1` games before it drew from the same SplitMix64 stream.
#[pyfunction]
#[pyo3(signature = (rules=None, games=1, seed=0, max_plies=None))]
pub fn random_playouts(
    py: Python<'_>,
    rules: Option<PyRules>,
    #[pyo3(from_py_with = games_arg)] games: u32,
    #[pyo3(from_py_with = seed_arg)] seed: u64,
    #[pyo3(from_py_with = max_plies_arg)] max_plies: Option<u32>,
) -> (u64, u32, u32, u32) {
    let rules = rules.map_or_else(Rules::default, |r| r.rules);
    py.allow_threads(|| {
        let mut state = seed;
        let (mut moves, mut att, mut def, mut draws) = (0u64, 0, 0, 0);
        for _ in 0..games {
            let (plies, status) =
                fast_random_game(&rules, &mut state, max_plies.unwrap_or(u32::MAX));
            moves += u64::from(plies);
            match status {
                Status::Win(Side::Attackers, _) => att += 1,
                Status::Win(Side::Defenders, _) => def += 1,
                _ => draws += 1,
            }
        }
        (moves, att, def, draws)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::rules::PRESETS;

    #[test]
    fn the_fast_playout_plays_the_referees_games() {
        for preset in PRESETS {
            let rules = preset.rules();
            for seed in 0..200u64 {
                let (mut a, mut b) = (seed, seed);
                let mut game = Game::start(rules);
                let plies = random_playout(&mut game, &mut a, u32::MAX);
                let (fast_plies, status) = fast_random_game(&rules, &mut b, u32::MAX);
                assert_eq!(
                    (fast_plies, status),
                    (plies, game.status()),
                    "{} {seed}",
                    preset.id
                );
                assert_eq!(a, b);
            }
        }
    }
}
