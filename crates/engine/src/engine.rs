//! The engine: the one session that every front-end and tool works through (the facade that
//! Stockfish's `engine.h` is to its UCI loop).

use crate::Size;
use crate::clock::Instant;
use crate::network::LoadedNet;
use crate::options::{self, Change, OptionError, Options};
use crate::review::{self, Review, ReviewConfig, ReviewError};
use crate::search::{
    Budget, Cancel, Limits, Report, SearchError, SearchOutcome, Searcher, Settings, budget,
};
use crate::skill::Skill;
use crate::trace::{self, EvalTrace};
use konakis_core::board::{BoardOf, GameErrorOf, GameOf, IllegalMoveOf};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::rules::{BoardSize, PRESETS, Preset, VARIANTS, Variant};
use konakis_core::types::MoveOf;
use konakis_core::variants_file::{LoadError, VariantsFile};
use konakis_nnue::network::NetError;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start<G: Geometry = Nine> {
    /// `startpos`: the start position, with the side to move set by the `FirstMove` option.
    StartPos,
    /// `fen …`: a position string.
    Board(BoardOf<G>),
}

/// The number an engine gives each search it starts, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SearchId(pub u64);

/// Why the engine refused a request. Nothing changed when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError<G: Geometry = Nine> {
    /// The searcher refused: a search is running, no memory or thread could be had, or no
    /// `searchmoves` is legal.
    Search(SearchError),
    /// No such option, or a value it does not take.
    Option(OptionError),
    /// A move of `searchmoves` is not legal in the current position.
    SearchMove {
        /// The move.
        mv: MoveOf<G>,
        /// Why it is not legal.
        reason: IllegalMoveOf<G>,
    },
    /// `ponderhit` without a running ponder search.
    NotPondering,
    /// The network file given to `EvalFile` cannot be used.
    EvalFile(EvalFileError),
    /// The variants file given to `VariantPath` cannot be read or has mistakes.
    VariantsFile(LoadError),
    /// `UCI_Variant` names a game of another board than this engine's: the caller starts an
    /// engine of that size ([`Engine::for_variant`], or [`Engine::new`] for Tablut's) and sets
    /// the option there.
    OtherBoard {
        /// The variant's board.
        size: BoardSize,
    },
    /// `UCI_Variant` names neither a preset nor a variant of the loaded file.
    UnknownVariant {
        /// The name given (shortened, ASCII).
        name: String,
        /// The names it may take.
        known: Vec<String>,
    },
}

/// Why the network file given to `EvalFile` cannot be used: [`NetError`], shared so that the
/// error can be cloned; two are equal when they say the same.
#[derive(Clone, Debug)]
pub struct EvalFileError(pub Arc<NetError>);

impl PartialEq for EvalFileError {
    fn eq(&self, other: &EvalFileError) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for EvalFileError {}

impl<G: Geometry> std::fmt::Display for EngineError<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Search(e) => e.fmt(f),
            EngineError::Option(e) => e.fmt(f),
            EngineError::SearchMove { reason, .. } => write!(f, "searchmoves: {reason}"),
            EngineError::NotPondering => {
                f.write_str("no ponder search is running (go ponder starts one)")
            }
            EngineError::EvalFile(e) => write!(f, "EvalFile: {}", e.0),
            EngineError::VariantsFile(e) => write!(f, "VariantPath: {e}"),
            EngineError::OtherBoard { size } => write!(
                f,
                "UCI_Variant: the game is played on {size}, not {}",
                BoardSize::of::<G>()
            ),
            EngineError::UnknownVariant { name, known } => write!(
                f,
                "UCI_Variant: no variant '{name}' (variants: {})",
                known.join(", ")
            ),
        }
    }
}

impl<G: Geometry> std::error::Error for EngineError<G> {}

impl<G: Geometry> From<SearchError> for EngineError<G> {
    fn from(e: SearchError) -> EngineError<G> {
        EngineError::Search(e)
    }
}

impl<G: Geometry> From<OptionError> for EngineError<G> {
    fn from(e: OptionError) -> EngineError<G> {
        EngineError::Option(e)
    }
}

/// After a rule option changed, the game's moves did not make a legal game under the new
/// rules: the game went back to its start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReset<G: Geometry = Nine> {
    /// How many moves were dropped.
    pub moves: usize,
    /// Why the first of them failed.
    pub error: GameErrorOf<G>,
}

/// How [`Engine::sync`] may explain a host's position from the one the engine holds.
#[derive(Clone, Copy, Debug)]
pub enum Explain<'a, G: Geometry = Nine> {
    /// Only by one of these lines of moves, tried in order (an empty line: no move at all).
    Lines(&'a [&'a [MoveOf<G>]]),
    /// By no move, or by one legal move (these first, then every other legal move).
    OneMove(&'a [MoveOf<G>]),
}

/// How [`Engine::sync`] caught up with a host's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Synced<G: Geometry = Nine> {
    /// It is the position held.
    Same,
    /// It is the position after these moves, now played (the game keeps its history).
    Played(Vec<MoveOf<G>>),
    /// No allowed move explains it: the host's position was taken as given, as a new game
    /// without history.
    Taken,
}

/// What the search callback and the engine share: which search's reports count.
struct Live<G: Geometry> {
    /// The current search; reports of any other are dropped. 0 when none counts.
    id: u64,
    /// What the current search has reported so far.
    outcome: SearchOutcome<G>,
}

/// One engine session, which every front-end (the line protocol, OTEP, the Tablut Challenge
/// client) and every tool (bench, the tactics suite) works through.
///
/// An [`Engine`] owns the searcher (the transposition table, the histories and the threads,
/// which nothing outside this crate reaches), the current [`GameOf`] with its history, and the
/// values of the one option table ([`options`]). It offers what a front-end needs and nothing
/// about text: set the position, catch up with a host's position ([`Engine::sync`]), set an
/// option (checked by the table, then applied: a new table size, new threads, the game
/// replayed under new rules), think ([`Engine::think`] on the searcher's thread, returning at
/// once, or [`Engine::search`] on the calling thread), [`Engine::stop`], [`Engine::ponderhit`]
/// and [`Engine::wait`] with a deadline. Tools that search positions of their own ask
/// [`Engine::analyse`]; [`Engine::review`] reviews whole games; [`Engine::trace_eval`] and
/// [`Engine::evaluation`] say how the current position evaluates.
///
/// Every search gets a [`SearchId`]; its reports reach the callback tagged with it, and only
/// while it is the engine's current search: once [`Engine::cancel`] returns, or another search
/// has started, nothing more of it is delivered. A front-end therefore never prints the answer
/// of a search it has given up.
///
/// Time: a front-end turns its host's clock into [`Limits`] (a time per move, or clocks and
/// increments); how much of that the search may spend is decided in one place,
/// [`budget`](crate::search::budget), which keeps the `Move Overhead` option's milliseconds
/// in reserve. [`Engine::budget`] tells a front-end what that comes to.
///
/// [`Engine::search`] needs no thread of its own: it runs on the caller's thread with the same
/// reports, and stops when the caller's [`Cancel`] says so, which is how a build without
/// threads (a browser's Web Worker) searches.
pub struct Engine<G: Size = Nine> {
    searcher: Searcher<G>,
    options: Options,
    game: GameOf<G>,
    /// The start and moves of the game as last set, so that it can be replayed under new
    /// rules.
    start: Start<G>,
    moves: Vec<MoveOf<G>>,
    live: Arc<Mutex<Live<G>>>,
    next_id: u64,
    /// The running search is a ponder search that has not had its `ponderhit`.
    pondering: bool,
    /// The variants file `VariantPath` loaded, if any.
    house: VariantsFile,
    /// The start placement of the family's variant `UCI_Variant` chose (its position string's
    /// first field); `None`: the board's usual start ([`Size::start`]).
    placement: Option<&'static str>,
}

/// A board the engine plays on ([`Size`]) with its searches: what [`Engine::think`],
/// [`Engine::search`], [`Engine::analyse`] and [`Engine::review`] run, each board's compiled once, in this crate,
/// whichever crate calls them (a generic function is compiled in every crate that uses it, at
/// that crate's optimisation level: the browser build compiles the line protocol for size,
/// and would search with a second, slower copy). Front-ends call the [`Engine`]'s methods.
pub trait Playable: Size {
    /// What [`Engine::think`] runs.
    fn think(
        engine: &mut Engine<Self>,
        limits: Limits<Self>,
        report: ReportBox<Self>,
    ) -> Result<SearchId, EngineError<Self>>;

    /// What [`Engine::search`] runs.
    fn search(
        engine: &mut Engine<Self>,
        limits: Limits<Self>,
        cancel: Cancel,
        report: &mut (dyn FnMut(SearchId, Report<Self>) + Send),
    ) -> Result<SearchOutcome<Self>, EngineError<Self>>;

    /// What [`Engine::analyse`] runs.
    fn analyse(
        engine: &mut Engine<Self>,
        game: &GameOf<Self>,
        limits: Limits<Self>,
        cancel: Cancel,
    ) -> Result<SearchOutcome<Self>, EngineError<Self>>;

    /// What [`Engine::review`] runs.
    fn review(
        engine: &mut Engine<Self>,
        games: &[Vec<GameOf<Self>>],
        config: &ReviewConfig<Self>,
        cancel: Cancel,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Vec<Review<Self>>, ReviewError<Self>>;
}

/// Where [`Engine::think`]'s reports go.
pub type ReportBox<G> = Box<dyn FnMut(SearchId, Report<G>) + Send + 'static>;

/// [`Playable`] for each board: the same four delegations.
macro_rules! playable {
    ($($size:ty),*) => {$(
        impl Playable for $size {
            fn think(
                engine: &mut Engine<Self>,
                limits: Limits<Self>,
                report: ReportBox<Self>,
            ) -> Result<SearchId, EngineError<Self>> {
                engine.think_boxed(limits, report)
            }

            fn search(
                engine: &mut Engine<Self>,
                limits: Limits<Self>,
                cancel: Cancel,
                report: &mut (dyn FnMut(SearchId, Report<Self>) + Send),
            ) -> Result<SearchOutcome<Self>, EngineError<Self>> {
                engine.search_dyn(limits, cancel, report)
            }

            fn analyse(
                engine: &mut Engine<Self>,
                game: &GameOf<Self>,
                limits: Limits<Self>,
                cancel: Cancel,
            ) -> Result<SearchOutcome<Self>, EngineError<Self>> {
                engine.analyse_here(game, limits, cancel)
            }

            fn review(
                engine: &mut Engine<Self>,
                games: &[Vec<GameOf<Self>>],
                config: &ReviewConfig<Self>,
                cancel: Cancel,
                progress: &mut dyn FnMut(usize, usize),
            ) -> Result<Vec<Review<Self>>, ReviewError<Self>> {
                engine.review_here(games, config, cancel, progress)
            }
        }
    )*};
}

playable!(Seven, Nine, Eleven, Thirteen);

/// Work to do on the board of a game, whichever it is: [`on_board`] runs it on the board a
/// [`BoardSize`] names. The one way from a size known only at run time (a record's rules, a
/// variant) to the code of its board, for the tools that read a game and then work on its
/// board (`konakis analyse`, `konakis datagen`).
pub trait BoardTask {
    /// What the work gives.
    type Output;

    /// Does the work on the board `G`.
    fn run<G: Playable>(self) -> Self::Output;
}

/// Runs `task` on the board `size`.
pub fn on_board<T: BoardTask>(size: BoardSize, task: T) -> T::Output {
    match size {
        BoardSize::Seven => task.run::<Seven>(),
        BoardSize::Nine => task.run::<Nine>(),
        BoardSize::Eleven => task.run::<Eleven>(),
        BoardSize::Thirteen => task.run::<Thirteen>(),
    }
}

/// The game from `start` and `moves` under `rules`, `startpos` being `placement` (the
/// board's usual start where `None`).
fn build_game<G: Size>(
    rules: konakis_core::Rules,
    placement: Option<&str>,
    start: &Start<G>,
    moves: &[MoveOf<G>],
) -> Result<GameOf<G>, GameErrorOf<G>> {
    let board = match start {
        Start::StartPos => start_board(&rules, placement),
        Start::Board(b) => *b,
    };
    GameOf::with_moves(rules, board, moves)
}

/// The start position under `rules`: `placement` (the board's usual start where `None`) with
/// the side the rules say moves first.
fn start_board<G: Size>(rules: &konakis_core::Rules, placement: Option<&str>) -> BoardOf<G> {
    let mut board = placement
        .and_then(|p| BoardOf::from_fen(&format!("{p} b 0")).ok())
        .unwrap_or_else(G::start);
    board.set_side_to_move(rules.first_move);
    board
}

fn lock<G: Geometry>(live: &Mutex<Live<G>>) -> MutexGuard<'_, Live<G>> {
    match live.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Engine<Nine> {
    /// A Tablut engine with these option values and the start position of their rules, or an
    /// error if the searcher cannot be set up (the table's memory cannot be had).
    pub fn new(options: Options) -> Result<Engine, SearchError> {
        Engine::with_options(options)
    }
}

impl<G: Playable> Engine<G> {
    /// An engine on the board `G` with these option values, at the board's usual start
    /// ([`Size::start`]) with the side their rules say moves first; for rules and a start a
    /// host sends (an OpenTafl rules string), [`Engine::set_rules`] follows. An error if the
    /// searcher cannot be set up (the table's memory cannot be had).
    pub fn with_options(options: Options) -> Result<Engine<G>, SearchError> {
        Engine::on_board(options, None)
    }

    /// An engine for `variant`, one of the family's games ([`konakis_core::rules::VARIANTS`]),
    /// with these option values but the variant's rules, at its start;
    /// [`EngineError::OtherBoard`] if the variant is played on another board than `G`.
    pub fn for_variant(
        options: Options,
        variant: &'static Variant,
    ) -> Result<Engine<G>, EngineError<G>> {
        if variant.size != BoardSize::of::<G>() {
            return Err(EngineError::OtherBoard { size: variant.size });
        }
        let options = Options {
            rules: variant.rules(),
            ..options
        };
        Ok(Engine::on_board(options, Some(variant.placement))?)
    }

    /// The engine for `UCI_Variant` `variant` when this one refused it with
    /// [`EngineError::OtherBoard`]: an engine of board `B` with this one's options, variants
    /// file and network, the variant set (as `setoption` sets it) and its game at the start.
    /// Refused as `setoption` refuses the variant there.
    pub fn to_board<B: Playable>(&self, variant: &str) -> Result<Engine<B>, EngineError<B>> {
        let options = self.options;
        let mut engine = match Variant::find(variant).filter(|v| v.size == BoardSize::of::<B>()) {
            Some(v) => Engine::<B>::for_variant(options, v)?,
            None => Engine::<B>::on_board(options, None)?,
        };
        engine.house = self.house.clone();
        engine.searcher.set_network(self.searcher.loaded())?;
        engine.set_option("UCI_Variant", Some(variant))?;
        Ok(engine)
    }

    /// An engine whose `startpos` is `placement` (the board's usual start where `None`).
    fn on_board(
        options: Options,
        placement: Option<&'static str>,
    ) -> Result<Engine<G>, SearchError> {
        Ok(Engine {
            searcher: Searcher::try_new(options.settings)?,
            game: GameOf::new(options.rules, start_board(&options.rules, placement)),
            placement,
            start: Start::StartPos,
            moves: Vec::new(),
            options,
            live: Arc::new(Mutex::new(Live {
                id: 0,
                outcome: SearchOutcome::default(),
            })),
            next_id: 0,
            pondering: false,
            house: VariantsFile::default(),
        })
    }

    /// The names of the variants the loaded variants file holds (none without one), which
    /// `UCI_Variant` takes beside the built-in presets.
    pub fn house_variants(&self) -> Vec<&str> {
        self.house
            .variants()
            .iter()
            .map(|v| v.name.as_str())
            .collect()
    }

    /// The variants file loaded (empty without one).
    pub fn variants_file(&self) -> &VariantsFile {
        &self.house
    }

    /// The option values in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current game.
    pub fn game(&self) -> &GameOf<G> {
        &self.game
    }

    /// The current position.
    pub fn board(&self) -> &BoardOf<G> {
        self.game.board()
    }

    /// Whether a search is running (one whose answer has gone out counts as ended).
    pub fn is_searching(&self) -> bool {
        self.searcher.is_searching()
    }

    /// Nodes of the last or current search.
    pub fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }

    /// Sets option `name` to `value` through the table ([`options::apply`]) and applies it: a
    /// new `Hash` reallocates the table, new `Threads` the threads, `Clear Hash` empties the
    /// table, a rule option replays the game under the new rules. Returns what the replay
    /// dropped, if the game's moves no longer make a legal game (the game is then at its
    /// start position). Refused while a search runs; nothing changes on an error.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<GameReset<G>>, EngineError<G>> {
        if self.is_searching() {
            return Err(SearchError::Busy.into());
        }
        // A preset of `UCI_Variant` is one of Tablut's readings: Tablut's board, from its start.
        let preset = options::find(name)
            .filter(|row| row.is_variant())
            .and(value)
            .and_then(|v| Preset::find(v.trim()));
        if preset.is_some() && G::SIDE != BoardSize::Nine.side() {
            return Err(EngineError::OtherBoard {
                size: BoardSize::Nine,
            });
        }
        let change = options::apply(&self.options, name, value)?;
        let mut reset = None;
        match change {
            Change::ClearHash => self.searcher.clear(),
            Change::EvalFile(path) => {
                let net = match path {
                    None => None,
                    Some(path) => Some(
                        LoadedNet::load(Path::new(&path))
                            .map_err(|e| EngineError::EvalFile(EvalFileError(Arc::new(e))))?,
                    ),
                };
                self.set_network(net)?;
            }
            Change::VariantFile(path) => {
                self.house = match path {
                    None => VariantsFile::default(),
                    Some(path) => {
                        VariantsFile::load(Path::new(&path)).map_err(EngineError::VariantsFile)?
                    }
                };
            }
            Change::Variant(name) => {
                if let Some(variant) = self.house.find(&name) {
                    // A house variant is played on the board of the game it is based on
                    // (Tablut's without one), from that game's start.
                    if variant.size() != BoardSize::of::<G>() {
                        return Err(EngineError::OtherBoard {
                            size: variant.size(),
                        });
                    }
                    let rules = variant.rules;
                    let placement = variant.game.map(|v| v.placement);
                    if rules != self.options.rules || self.placement != placement {
                        self.options.rules = rules;
                        self.placement = placement;
                        reset = self.replay();
                    }
                } else if let Some(variant) = Variant::find(&name) {
                    if variant.size != BoardSize::of::<G>() {
                        return Err(EngineError::OtherBoard { size: variant.size });
                    }
                    let rules = variant.rules();
                    if rules != self.options.rules || self.placement != Some(variant.placement) {
                        self.options.rules = rules;
                        self.placement = Some(variant.placement);
                        reset = self.replay();
                    }
                } else {
                    let mut known: Vec<String> = PRESETS.iter().map(|p| p.id.to_string()).collect();
                    known.extend(VARIANTS.iter().map(|v| v.id.to_string()));
                    known.extend(self.house_variants().into_iter().map(str::to_string));
                    return Err(EngineError::UnknownVariant { name, known });
                }
            }
            Change::Options(new) => {
                if new.settings != self.options.settings {
                    self.searcher.set(new.settings)?;
                }
                let mut rules_changed = new.rules != self.options.rules;
                if preset.is_some() && self.placement.is_some() {
                    self.placement = None;
                    rules_changed = true;
                }
                self.options = new;
                if rules_changed {
                    reset = self.replay();
                }
            }
        }
        Ok(reset)
    }

    /// Replays the game from its start under the current rules, or goes back to the start if
    /// its moves are no longer legal.
    fn replay(&mut self) -> Option<GameReset<G>> {
        let rules = self.options.rules;
        match build_game(rules, self.placement, &self.start, &self.moves) {
            Ok(game) => {
                self.game = game;
                None
            }
            Err(error) => {
                self.game = build_game(rules, self.placement, &self.start, &[])
                    .expect("a start position without moves is always a game");
                let moves = std::mem::take(&mut self.moves).len();
                Some(GameReset { moves, error })
            }
        }
    }

    /// Makes `net` the network that evaluates under its family of rules, as `EvalFile` does
    /// with a file (`None`: the built-in networks). Refused while a search runs.
    pub fn set_network(&mut self, net: Option<LoadedNet>) -> Result<(), SearchError> {
        self.searcher.set_network(net)
    }

    /// The network that evaluates under the current rules and options (`None`: the
    /// classical evaluation).
    pub fn network(&self) -> Option<LoadedNet> {
        self.searcher.network(&self.options.rules)
    }

    /// Forgets what earlier searches learned: empties the transposition table and the
    /// histories. The game and the options stay ([`Engine::new_game`] also goes back to the
    /// start position).
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    /// A new game: what [`Engine::clear`] empties, and the start position.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.start = Start::StartPos;
        self.moves.clear();
        self.game = GameOf::new(
            self.options.rules,
            start_board(&self.options.rules, self.placement),
        );
    }

    /// Sets the game to `start` followed by `moves`, or says which move is not legal (the
    /// game then stays as it was).
    pub fn set_position(
        &mut self,
        start: Start<G>,
        moves: &[MoveOf<G>],
    ) -> Result<(), GameErrorOf<G>> {
        self.game = build_game(self.options.rules, self.placement, &start, moves)?;
        self.start = start;
        self.moves = moves.to_vec();
        Ok(())
    }

    /// Takes `board` as the position, a new game without history.
    pub fn take_position(&mut self, board: BoardOf<G>) {
        self.game = GameOf::new(self.options.rules, board);
        self.start = Start::Board(board);
        self.moves.clear();
    }

    /// Plays under `rules` from now on (rules a host sent whole rather than option by option),
    /// from `board`, a new game.
    pub fn set_rules(&mut self, rules: konakis_core::Rules, board: BoardOf<G>) {
        self.options.rules = rules;
        self.take_position(board);
    }

    /// Plays `mv` in the current game.
    pub fn play(&mut self, mv: MoveOf<G>) -> Result<(), GameErrorOf<G>> {
        self.game.play(mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// Catches up with a host's position, which `shows` recognises: the position held, or
    /// the one after moves as `explain` allows (played, so that the game keeps its history for
    /// repetition), or else the one `given` builds from the position held, taken as a new
    /// game. An error of `given` leaves everything as it was.
    pub fn sync<E>(
        &mut self,
        shows: impl Fn(&BoardOf<G>) -> bool,
        explain: Explain<'_, G>,
        given: impl FnOnce(&BoardOf<G>) -> Result<BoardOf<G>, E>,
    ) -> Result<Synced<G>, E> {
        match explain {
            Explain::Lines(lines) => {
                for line in lines {
                    let mut game = self.game.clone();
                    if line.iter().all(|&mv| game.play(mv).is_ok()) && shows(game.board()) {
                        self.game = game;
                        if line.is_empty() {
                            return Ok(Synced::Same);
                        }
                        self.moves.extend_from_slice(line);
                        return Ok(Synced::Played(line.to_vec()));
                    }
                }
            }
            Explain::OneMove(first) => {
                let board = *self.game.board();
                if shows(&board) {
                    return Ok(Synced::Same);
                }
                let rules = *self.game.rules();
                let legal = board.legal_moves(&rules);
                let found = first
                    .iter()
                    .chain(legal.iter())
                    .copied()
                    .filter(|m| legal.contains(m))
                    .find(|&m| {
                        let mut after = board;
                        after.play(&rules, m);
                        shows(&after)
                    });
                if let Some(m) = found
                    && self.play(m).is_ok()
                {
                    return Ok(Synced::Played(vec![m]));
                }
            }
        }
        let board = given(self.game.board())?;
        self.take_position(board);
        Ok(Synced::Taken)
    }

    /// What the search may spend under `limits` in the current position: the one time rule
    /// ([`budget`]) with the `Move Overhead` option. `None` for an untimed search.
    pub fn budget(&self, limits: &Limits<G>) -> Option<Budget> {
        budget(
            limits,
            self.board().side_to_move(),
            self.options.settings.move_overhead_ms,
        )
    }

    /// Checks that a search could start under `limits` now: none is running, and every move
    /// of `searchmoves` is legal (unless the game is over, which the search reports).
    pub fn check(&self, limits: &Limits<G>) -> Result<(), EngineError<G>> {
        self.check_in(&self.game, limits)
    }

    /// [`Engine::check`] for a search of `game`.
    fn check_in(&self, game: &GameOf<G>, limits: &Limits<G>) -> Result<(), EngineError<G>> {
        if self.is_searching() {
            return Err(SearchError::Busy.into());
        }
        if !game.status().is_over() {
            let board = game.board();
            for &mv in &limits.searchmoves {
                if let Err(reason) = board.check_move(game.rules(), mv) {
                    return Err(EngineError::SearchMove { mv, reason });
                }
            }
        }
        Ok(())
    }

    /// Makes a new search the current one: reports of any before it are dropped from now on.
    fn begin(&mut self) -> u64 {
        self.next_id += 1;
        let mut live = lock(&self.live);
        live.id = self.next_id;
        live.outcome = SearchOutcome::default();
        self.next_id
    }

    /// Starts thinking about the current position on the searcher's thread and returns at
    /// once. `report` receives the search's reports, last exactly one [`Report::BestMove`],
    /// for as long as it is the current search.
    pub fn think(
        &mut self,
        limits: Limits<G>,
        report: impl FnMut(SearchId, Report<G>) + Send + 'static,
    ) -> Result<SearchId, EngineError<G>> {
        // Through `Playable`: each board's search is compiled once, in this crate (a generic
        // function is compiled in every crate that calls it, at that crate's optimisation
        // level).
        <G as Playable>::think(self, limits, Box::new(report))
    }

    /// [`Engine::think`], as [`Playable::think`] runs it.
    pub(crate) fn think_boxed(
        &mut self,
        limits: Limits<G>,
        mut report: ReportBox<G>,
    ) -> Result<SearchId, EngineError<G>> {
        self.check(&limits)?;
        let id = self.begin();
        let live = Arc::clone(&self.live);
        let ponder = limits.ponder;
        let started = self.searcher.go(&self.game, limits, move |r| {
            // Held while the report is handed on, so that `cancel` waits for it.
            let mut live = lock(&live);
            if live.id == id {
                live.outcome.take(&r);
                report(SearchId(id), r);
            }
        });
        if let Err(e) = started {
            lock(&self.live).id = 0;
            return Err(e.into());
        }
        self.pondering = ponder;
        Ok(SearchId(id))
    }

    /// Searches the current position on the calling thread and returns its outcome when it
    /// has ended; `report` receives the reports as from [`Engine::think`]. The search stops
    /// when `cancel` says so (with `infinite` or `ponder`, it waits for that, or for a
    /// ponderhit from `cancel`).
    pub fn search(
        &mut self,
        limits: Limits<G>,
        cancel: Cancel,
        mut report: impl FnMut(SearchId, Report<G>) + Send,
    ) -> Result<SearchOutcome<G>, EngineError<G>> {
        // Through `Playable`, as `think`.
        <G as Playable>::search(self, limits, cancel, &mut report)
    }

    /// [`Engine::search`], as [`Playable::search`] runs it.
    pub(crate) fn search_dyn(
        &mut self,
        limits: Limits<G>,
        cancel: Cancel,
        report: &mut (dyn FnMut(SearchId, Report<G>) + Send),
    ) -> Result<SearchOutcome<G>, EngineError<G>> {
        self.check(&limits)?;
        let id = self.begin();
        let mut outcome = SearchOutcome::default();
        let searched = self.searcher.search(&self.game, limits, cancel, |r| {
            outcome.take(&r);
            report(SearchId(id), r);
        });
        self.end(searched, outcome)
    }

    /// Ends a search on the calling thread: none is current any more, and what it reported
    /// is what [`Engine::outcome`] says.
    fn end(
        &mut self,
        searched: Result<Report<G>, SearchError>,
        outcome: SearchOutcome<G>,
    ) -> Result<SearchOutcome<G>, EngineError<G>> {
        let mut live = lock(&self.live);
        live.id = 0;
        searched?;
        live.outcome = outcome.clone();
        Ok(outcome)
    }

    /// An analysis of one position: searches `game` (a position with its history, under its
    /// own rules; not the engine's game, which stays as it was) on the calling thread within
    /// `limits`, as [`Engine::search`] does, and returns what the search found. The table and
    /// the histories carry over from search to search as between the moves of a game;
    /// [`Engine::clear`] first makes the result depend on the position alone. Refused
    /// while a search runs, or when a move of `searchmoves` is not legal in `game`.
    pub fn analyse(
        &mut self,
        game: &GameOf<G>,
        limits: Limits<G>,
        cancel: Cancel,
    ) -> Result<SearchOutcome<G>, EngineError<G>> {
        // Through `Playable`, as `think`.
        <G as Playable>::analyse(self, game, limits, cancel)
    }

    /// [`Engine::analyse`], as [`Playable::analyse`] runs it.
    pub(crate) fn analyse_here(
        &mut self,
        game: &GameOf<G>,
        limits: Limits<G>,
        cancel: Cancel,
    ) -> Result<SearchOutcome<G>, EngineError<G>> {
        self.check_in(game, &limits)?;
        self.begin();
        let mut outcome = SearchOutcome::default();
        let searched = self
            .searcher
            .search(game, limits, cancel, |r| outcome.take(&r));
        self.end(searched, outcome)
    }

    /// The evaluation of the current position term by term, and which evaluation the search
    /// uses there (the network's or the classical one), as Stockfish's `Engine::trace_eval`.
    pub fn trace_eval(&self) -> EvalTrace {
        trace::trace(
            self.board(),
            &self.options.rules,
            self.options.settings.eval,
            self.network(),
        )
    }

    /// The static evaluation the search uses of the current position, centi-soldiers for the
    /// side to move: the network's where one evaluates under the rules, else the classical
    /// one.
    pub fn evaluation(&self) -> i32 {
        trace::evaluation(self.board(), &self.options.rules, self.network())
    }

    /// What the current (or last) search has reported so far.
    pub fn outcome(&self) -> SearchOutcome<G> {
        lock(&self.live).outcome.clone()
    }

    /// Asks the running search to stop; it answers within a few nodes. Returns at once.
    pub fn stop(&mut self) {
        self.pondering = false;
        self.searcher.stop();
    }

    /// Stops the running search, if any, and waits for it, without delivering anything
    /// more of it: once this returns, its callback is not called again.
    pub fn cancel(&mut self) {
        lock(&self.live).id = 0;
        self.stop();
        self.searcher.wait();
    }

    /// Waits for the running search to end (its last report out), until `deadline` if one is
    /// given; `true` if it has ended. A search that outlives the deadline keeps running.
    pub fn wait(&mut self, deadline: Option<Instant>) -> bool {
        match deadline {
            None => {
                self.searcher.wait();
                true
            }
            Some(d) => self.searcher.wait_until(d),
        }
    }

    /// The opponent played the expected move: the ponder search goes on as a timed search.
    pub fn ponderhit(&mut self) -> Result<(), EngineError<G>> {
        if !(self.pondering && self.is_searching()) {
            return Err(EngineError::NotPondering);
        }
        self.pondering = false;
        self.searcher.ponderhit();
        Ok(())
    }

    /// Reviews every move of `games`, each given as its positions ([`review::positions`]):
    /// every position judged at full strength (whatever the strength options say) within the
    /// config's limits, its table and histories emptied first so that the judgement depends on
    /// the position alone, then graded ([`review::review`]). `config.concurrency` positions are
    /// judged at once: the engine's searcher and, with the `threads` feature, as many more as
    /// needed of one thread each, with the engine's other settings and network.
    /// `progress(done, total)` is called after each position (on the calling thread), with
    /// `total` the positions of all the games; the searches stop when `cancel` says so, and the
    /// review is then [`ReviewError::Cancelled`]. The table and the histories are empty
    /// afterwards. Refused while a search runs.
    ///
    /// The tafl family's games have no model of win chances yet: their reviews have no chances,
    /// and the drops are the scores' ([`review::review`]).
    pub fn review(
        &mut self,
        games: &[Vec<GameOf<G>>],
        config: &ReviewConfig<G>,
        cancel: Cancel,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Vec<Review<G>>, ReviewError<G>> {
        // Through `Playable`, as `think`.
        <G as Playable>::review(self, games, config, cancel, &mut progress)
    }

    /// [`Engine::review`], as [`Playable::review`] runs it.
    pub(crate) fn review_here(
        &mut self,
        games: &[Vec<GameOf<G>>],
        config: &ReviewConfig<G>,
        cancel: Cancel,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Vec<Review<G>>, ReviewError<G>> {
        if self.is_searching() {
            return Err(ReviewError::Search(SearchError::Busy));
        }
        let settings = self.options.settings;
        let full = Settings {
            skill: Skill::default(),
            ..settings
        };
        let total: usize = games.iter().map(Vec::len).sum();
        let workers = if cfg!(feature = "threads") {
            config.concurrency.clamp(1, total.max(1))
        } else {
            1
        };
        let mut more = Vec::with_capacity(workers - 1);
        for _ in 1..workers {
            let mut searcher =
                Searcher::try_new(Settings { threads: 1, ..full }).map_err(ReviewError::Search)?;
            searcher
                .set_network(self.searcher.loaded())
                .map_err(ReviewError::Search)?;
            more.push(searcher);
        }
        self.searcher.set(full).map_err(ReviewError::Search)?;
        let judged = review::judge(
            &mut self.searcher,
            &mut more,
            games,
            &config.limits,
            cancel,
            progress,
        );
        // Only the strength options differ: nothing is reallocated, nothing can fail.
        self.searcher.set(settings).map_err(ReviewError::Search)?;
        games
            .iter()
            .zip(judged?)
            .map(|(positions, judgements)| {
                review::review(positions, &judgements, &config.thresholds)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
