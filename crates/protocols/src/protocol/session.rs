//! The session: the engine, the options and the current game, and what each command does to
//! them.
//!
//! Commands run one at a time, in the order they arrived. The session only translates: the
//! [`Engine`] holds the searcher, the game and the options. How the work that takes a while
//! (`go`, `go perft`, `bench`) runs is the session's [`Mode`], and all the rest — every
//! command's checks, answers and errors — is the same in both:
//!
//! - with threads (the program), `go` runs on the engine's thread, and `go perft` and `bench`
//!   on a thread of their own (a "job"), so the session keeps answering while they work.
//!   Commands that would disturb running work (`setoption`, `ucinewgame`, `go`, `bench`) are
//!   refused until it has ended or been stopped;
//! - inline (a browser's Web Worker, which has no threads), they run to completion on the
//!   calling thread, asking a [`Cancel::Poll`] function every few thousand nodes whether a
//!   `stop` (or a `ponderhit`) came meanwhile. Nothing is ever running between two lines.

use super::command::{self, Command, Start};
use super::{Input, Output, Reply};
use konakis_core::board::GameErrorOf;
#[cfg(feature = "boards")]
use konakis_core::geometry::{Eleven, Seven, Thirteen};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::perft::divide_until;
use konakis_core::rules::{BoardSize, Escape, Rules, VARIANTS};
use konakis_core::types::MoveOf;
use konakis_core::types::Side;
use konakis_engine::NetworkEval;
use konakis_engine::bench;
use konakis_engine::clock::Instant;
use konakis_engine::options;
use konakis_engine::wdl;

/// The answer to `help`: what a person who started the engine in a terminal types first.
const HELP: &[&str] = &[
    "Konakis, a tafl engine. It reads one command per line; protocol.md describes them all.",
    "  uci                          name, options (one line each) and uciok",
    "  isready                      readyok, once the commands before it are done",
    "  setoption name N value V     set an option: Hash, Threads, ... and the rules",
    "                               (Ruleset Ashton, KingCapture English, ...)",
    "  setoption name UCI_Variant value copenhagen-11   another game (uci lists them)",
    "  ucinewgame                   a new game",
    "  position startpos [moves M...]   the start, then moves such as d1d3 e3f3",
    "  position fen P [moves M...]  a position string, then moves",
    "  go depth N | movetime MS | nodes N | infinite | wtime MS btime MS [winc MS binc MS]",
    "                               think, then answer bestmove (w: defenders, b: attackers)",
    "  stop                         answer now (ponderhit: the pondered move was played)",
    "  go perft N                   count the legal-move tree to depth N",
    "  d                            the board and its details",
    "  eval                         the evaluation, term by term",
    "  bench [depth]                the benchmark: nodes searched and nodes per second",
    "  quit                         leave",
    "Try: position startpos, then go depth 8, then d.",
];
use konakis_engine::search::{
    Cancel, Info, Limits, Report, Score, ScoreBound, SearchError, Signal,
};
use konakis_engine::{Engine, EngineError, Playable};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::Duration;

/// A `go perft` or `bench` running on its own thread.
struct Job {
    /// "a perft" or "a bench", for messages.
    what: &'static str,
    handle: JoinHandle<()>,
    /// Set by the session to make the job end early.
    stop: Arc<AtomicBool>,
    /// Set by the job just before its last line, so that a command sent in answer to that
    /// line never finds the job still "running".
    done: Arc<AtomicBool>,
}

/// How `go`, `go perft` and `bench` run.
enum Mode {
    /// On threads of their own: the engine's thread for `go`, a job for the others.
    Threads {
        /// The running perft or bench, if any.
        job: Option<Job>,
    },
    /// On the calling thread, to completion; the function tells that `stop` (or
    /// `ponderhit`) came meanwhile.
    Inline {
        /// Asked every few thousand nodes.
        poll: fn() -> Signal,
    },
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Ready for the next line.
    Next,
    /// `quit` came.
    Quit,
}

pub(crate) struct Session<R: Reply> {
    out: R,
    engine: Engines,
    mode: Mode,
}

/// The engine of the current game's board: Tablut's until `UCI_Variant` names a game of
/// another board, whose engine then takes over ([`Engine::to_board`]).
enum Engines {
    #[cfg(feature = "boards")]
    Seven(Engine<Seven>),
    Nine(Engine<Nine>),
    #[cfg(feature = "boards")]
    Eleven(Engine<Eleven>),
    /// Boxed: the 13×13 board's wide sets make its engine the largest by far.
    #[cfg(feature = "boards")]
    Thirteen(Box<Engine<Thirteen>>),
}

/// Runs `$body` with `$e` bound to the engine, whichever board it plays.
macro_rules! on_engine {
    ($engines:expr, $e:ident => $body:expr) => {
        match $engines {
            #[cfg(feature = "boards")]
            Engines::Seven($e) => $body,
            Engines::Nine($e) => $body,
            #[cfg(feature = "boards")]
            Engines::Eleven($e) => $body,
            #[cfg(feature = "boards")]
            Engines::Thirteen($e) => $body,
        }
    };
}

/// What one command works with: the session's output and mode, and the engine of the
/// current board.
struct Handler<'a, R: Reply, G: Playable> {
    out: &'a mut R,
    mode: &'a mut Mode,
    engine: &'a mut Engine<G>,
}

impl Session<Output> {
    /// A session with the default options whose work runs on threads, or an error if the
    /// engine cannot be set up.
    pub(crate) fn threaded(out: Output) -> Result<Session<Output>, SearchError> {
        Session::new(out, Mode::Threads { job: None })
    }

    /// Answers lines until `quit` or the end of the input.
    pub(crate) fn serve(mut self, lines: Receiver<Input>) {
        loop {
            match lines.recv().unwrap_or(Input::End) {
                Input::End => return self.finish(),
                input => {
                    if self.input(input) == Flow::Quit {
                        return self.quit();
                    }
                }
            }
        }
    }

    /// `quit`: stop everything and return at once; nothing more is printed.
    fn quit(mut self) {
        self.out.close();
        if let Mode::Threads { job: Some(job) } = &self.mode {
            job.stop.store(true, Ordering::SeqCst);
        }
        let ended = on_engine!(&mut self.engine, e => {
            e.stop();
            e.wait(Some(Instant::now() + Duration::from_millis(200)))
        });
        // A search stops within a few nodes. Should it not (its thread blocked on a full output
        // pipe), the process leaves without it rather than hang.
        if !ended {
            std::mem::forget(self.engine);
        }
    }

    /// End of input: nobody is left to ask for more, so whatever runs is stopped. A search
    /// still answers with its `bestmove`; a perft or bench says it stopped.
    fn finish(mut self) {
        let Session { out, engine, mode } = &mut self;
        on_engine!(engine, e => Handler { out, mode, engine: e }.stop());
    }
}

impl<R: Reply> Session<R> {
    /// A session with the default options whose work runs on the calling thread, stopped by
    /// `poll` (see [`Mode::Inline`]), or an error if the engine cannot be set up.
    pub(crate) fn inline(out: R, poll: fn() -> Signal) -> Result<Session<R>, SearchError> {
        Session::new(out, Mode::Inline { poll })
    }

    fn new(out: R, mode: Mode) -> Result<Session<R>, SearchError> {
        Ok(Session {
            out,
            engine: Engines::Nine(Engine::new(options::Options::default())?),
            mode,
        })
    }

    /// Answers one line (or the news that one was too long), its positions and moves read on
    /// the current game's board.
    pub(crate) fn input(&mut self, input: Input) -> Flow {
        let Session { out, engine, mode } = self;
        let (flow, board) = on_engine!(engine, e => Handler { out, mode, engine: e }.input(input));
        if let Some((size, variant)) = board {
            self.change_board(size, &variant);
        }
        flow
    }

    /// `UCI_Variant` named `variant`, a game of the board `size`: an engine of that board
    /// takes over, with the options, the variants file and the network of the one before.
    fn change_board(&mut self, size: BoardSize, variant: &str) {
        let next = on_engine!(&self.engine, e => match size {
            #[cfg(feature = "boards")]
            BoardSize::Seven => e.to_board::<Seven>(variant).map(Engines::Seven).map_err(|e| e.to_string()),
            BoardSize::Nine => e.to_board::<Nine>(variant).map(Engines::Nine).map_err(|e| e.to_string()),
            #[cfg(feature = "boards")]
            BoardSize::Eleven => e.to_board::<Eleven>(variant).map(Engines::Eleven).map_err(|e| e.to_string()),
            #[cfg(feature = "boards")]
            BoardSize::Thirteen => e.to_board::<Thirteen>(variant).map(|e| Engines::Thirteen(Box::new(e))).map_err(|e| e.to_string()),
            #[cfg(not(feature = "boards"))]
            other => Err(format!("UCI_Variant: this build plays 9x9 games only, not {other}")),
        });
        match next {
            Ok(engine) => self.engine = engine,
            Err(e) => self.out.error(&format!("setoption: {e}")),
        }
    }
}

/// A board the session should change to, for a `UCI_Variant` value.
type NewBoard = Option<(BoardSize, String)>;

impl<R: Reply, G: Playable> Handler<'_, R, G> {
    /// Answers one line; a `UCI_Variant` of another board is handed back to the session.
    fn input(mut self, input: Input) -> (Flow, NewBoard) {
        match input {
            Input::Line(line) => match command::parse_on::<G>(&line) {
                Ok(None) => {}
                Ok(Some(Command::Quit)) => return (Flow::Quit, None),
                Ok(Some(c)) => return (Flow::Next, self.execute(c)),
                Err(e) => self.out.error(&e.to_string()),
            },
            Input::TooLong(n) => self.out.error(&format!(
                "line of {n} bytes ignored (longer than {} bytes)",
                super::MAX_LINE_BYTES
            )),
            Input::End => {}
        }
        (Flow::Next, None)
    }

    fn execute(&mut self, c: Command<G>) -> NewBoard {
        match c {
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { start, moves } => self.position(start, moves),
            Command::Go(limits) => self.go(limits),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => self.bench(depth),
            Command::Help => self.help(),
            Command::Quit => unreachable!("handled by input"),
        }
        None
    }

    /// What is running, if anything. A job that has said its last word counts as ended.
    fn busy(&mut self) -> Option<&'static str> {
        if self.engine.is_searching() {
            return Some("a search");
        }
        if let Mode::Threads { job } = &mut *self.mode {
            if let Some(j) = job
                && !j.done.load(Ordering::SeqCst)
            {
                return Some(j.what);
            }
            if let Some(j) = job.take() {
                let _ = j.handle.join();
            }
        }
        None
    }

    /// The error for a command refused because of running work.
    fn refuse_if_busy(&mut self, command: &str) -> bool {
        match self.busy() {
            Some(what) => {
                self.out.error(&format!(
                    "{command}: {what} is running (send stop first); nothing changed"
                ));
                true
            }
            None => false,
        }
    }

    fn uci(&mut self) {
        let mut lines = vec![
            format!("id name Konakis {}", env!("CARGO_PKG_VERSION")),
            "id author the Konakis developers".to_string(),
        ];
        // UCI_Variant offers the loaded variants file's variants after the presets.
        let house = self.engine.house_variants();
        lines.extend(options::table().iter().map(|row| {
            let mut line = super::option_line(row);
            if row.is_variant() {
                for name in &house {
                    line.push_str(" var ");
                    line.push_str(name);
                }
            }
            line
        }));
        lines.push("uciok".to_string());
        self.out.lines(&lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> NewBoard {
        if self.refuse_if_busy("setoption") {
            return None;
        }
        match self.engine.set_option(name, value) {
            Ok(None) => {}
            // The engine of that board takes over (the value is the variant's name).
            Err(EngineError::OtherBoard { size }) => {
                return Some((size, value.unwrap_or_default().trim().to_string()));
            }
            // A rule option changed and the game's moves are no longer legal under it.
            Ok(Some(reset)) => self.out.info(&format!(
                "the {} move(s) of the current game do not make a legal game under the new \
                 rules ({}); the position is now the game's start position",
                reset.moves,
                describe(&reset.error)
            )),
            Err(e) => self.out.error(&format!("setoption: {e}")),
        }
        None
    }

    fn new_game(&mut self) {
        if self.refuse_if_busy("ucinewgame") {
            return;
        }
        self.engine.new_game();
    }

    fn position(&mut self, start: Start<G>, moves: Vec<MoveOf<G>>) {
        if let Err(e) = self.engine.set_position(start, &moves) {
            self.out.error(&format!(
                "position: {}; the previous position stays",
                describe(&e)
            ));
        }
    }

    fn go(&mut self, limits: Limits<G>) {
        if self.refuse_if_busy("go") {
            return;
        }
        if let Err(e) = self.engine.check(&limits) {
            return self.out.error(&format!("go: {e}; no search started"));
        }
        let side = self.engine.board().side_to_move();
        if limits.mover_time_missing(side) {
            let (field, clock) = match side {
                konakis_core::types::Side::Defenders => ("wtime", "defenders'"),
                konakis_core::types::Side::Attackers => ("btime", "attackers'"),
            };
            self.out.info(&format!(
                "go: clock fields without {field} (the {clock} time, the side to move): \
                 searching as with 0 ms left"
            ));
        }
        let out = self.out.clone();
        let show_multipv = self.engine.options().settings.multipv > 1;
        // The win-chance model knows Tablut's games only.
        let modelled = !self.engine.options().rules.family_rules();
        let chances = (self.engine.options().show_wdl && modelled).then(|| Chances {
            plies: self.engine.board().plies(),
            side,
            rules: self.engine.options().rules,
        });
        let report =
            move |_, report: Report<G>| out.line(&format_report(&report, show_multipv, chances));
        let started = match *self.mode {
            Mode::Threads { .. } => self.engine.think(limits, report).map(|_| ()),
            Mode::Inline { poll } => self
                .engine
                .search(limits, Cancel::Poll(poll), report)
                .map(|_| ()),
        };
        if let Err(e) = started {
            self.out.error(&format!("go: {e}"));
        }
    }

    /// `stop`. Inline, nothing runs between lines: the `stop` that mattered was seen by the
    /// poll function while the work ran.
    fn stop(&mut self) {
        let Mode::Threads { job } = &mut *self.mode else {
            return;
        };
        self.engine.stop();
        // The search answers within a few nodes; waiting here puts its `bestmove` before any
        // reply to a later command.
        self.engine.wait(None);
        if let Some(job) = job.take() {
            job.stop.store(true, Ordering::SeqCst);
            let _ = job.handle.join();
        }
    }

    fn ponderhit(&mut self) {
        if let Err(e) = self.engine.ponderhit() {
            self.out.error(&format!("ponderhit: {e}"));
        }
    }

    fn help(&mut self) {
        let lines: Vec<String> = HELP.iter().map(|line| line.to_string()).collect();
        self.out.lines(&lines);
    }

    fn display(&mut self) {
        let board = self.engine.board();
        let rules = self.engine.options().rules;
        let mut lines: Vec<String> = board.diagram().lines().map(str::to_string).collect();
        lines.push(format!("Position: {}", board.to_fen()));
        lines.push(format!("Side to move: {}", board.side_to_move()));
        lines.push(format!("Plies: {}", board.plies()));
        lines.push(format!("Key: {:016x}", board.hash()));
        let corners = rules.family_rules() && rules.escape == Escape::Corner;
        lines.push(format!(
            "King: {}",
            match board.king_open_lines() {
                _ if corners => match board.king_escapes(&rules).len() {
                    0 => "no open line to a corner".to_string(),
                    n => format!("{n} open line(s) to a corner"),
                },
                0 => "no open line to the edge".to_string(),
                1 => "raichi (1 open line to the edge)".to_string(),
                n => format!("tuichu ({n} open lines to the edge)"),
            }
        ));
        lines.push(format!("Status: {}", self.engine.game().status()));
        lines.push(format!("Win chances: {}", self.chances_in_words()));
        lines.push(format!("Rules: {rules}"));
        // The family's rules beyond the options above are the game's: named by its preset.
        if let Some(game) = VARIANTS
            .iter()
            .find(|v| v.size == BoardSize::of::<G>() && v.rules() == rules)
        {
            lines.push(format!("Game: {} ({})", game.id, game.name));
        } else if let Some(house) = self
            .engine
            .variants_file()
            .variants()
            .iter()
            .find(|v| v.size() == BoardSize::of::<G>() && v.rules == rules && v.game.is_some())
        {
            let base = house.game.map_or("", |g| g.id);
            lines.push(format!(
                "Game: {} (variants file, based on {base})",
                house.name
            ));
        } else if rules.family_rules() {
            lines.push("Game: the tafl family's rules of no preset".to_string());
        }
        self.out.lines(&lines);
    }

    fn eval(&mut self) {
        let trace = self.engine.trace_eval();
        let width = trace
            .terms
            .iter()
            .map(|(n, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(24);
        let mut lines = vec![format!("{:<width$} {:>8}", "term (attackers' view)", "cp")];
        let mut sum = 0;
        for (name, value) in &trace.terms {
            lines.push(format!("{name:<width$} {value:>8}"));
            sum += value;
        }
        lines.push(format!("{:<width$} {sum:>8}", "sum (attackers' view)"));
        let side = trace.side;
        lines.push(format!(
            "Classical: {} cp for the side to move ({side})",
            trace.classical
        ));
        lines.push(match &trace.network {
            NetworkEval::Used { cp, family, source } => format!(
                "Network: {cp} cp for the side to move ({side}) ({family} network, {source})"
            ),
            NetworkEval::Off => "Network: not used (Eval is Classical)".to_string(),
            NetworkEval::NoneFor(family) => format!(
                "Network: none for these rules ({family}); the search evaluates classically"
            ),
        });
        // The chances come before the evaluation, which stays the last line.
        lines.push(format!("Win chances: {}", self.chances_in_words()));
        lines.push(format!(
            "Evaluation: {} cp for the side to move ({side}), {}",
            trace.evaluation,
            match trace.network {
                NetworkEval::Used { .. } => "the network's",
                _ => "classical",
            }
        ));
        self.out.lines(&lines);
    }

    /// The win chances of the current position in words: certain when the game is over,
    /// else the model's ([`wdl::wdl`]) for the evaluation taken as a search score, which
    /// `eval` and `d` say.
    fn chances_in_words(&self) -> String {
        let board = self.engine.board();
        let side = board.side_to_move();
        match wdl::of_status(self.engine.game().status(), side) {
            Some(w) => format!("{} (the game is over)", wdl::describe(w, side)),
            None if self.engine.options().rules.family_rules() => {
                "not modelled (the model knows Tablut's games only)".to_string()
            }
            None => {
                let rules = self.engine.options().rules;
                let w = wdl::wdl(
                    Score::Cp(self.engine.evaluation()),
                    board.plies(),
                    side,
                    &rules,
                );
                format!(
                    "{} (from the evaluation; wdl {} {} {} for the side to move)",
                    wdl::describe(w, side),
                    w.win,
                    w.draw,
                    w.loss
                )
            }
        }
    }

    fn perft(&mut self, depth: u32) {
        if self.refuse_if_busy("go perft") {
            return;
        }
        let board = *self.engine.board();
        let rules = self.engine.options().rules;
        self.start_job("go perft", "a perft", move |out: &R, stop| {
            let stopped = || stop.stopped();
            let each = |mv, n| out.line(&format!("{mv}: {n}"));
            let Some(total) = divide_until(&board, &rules, depth, &stopped, each) else {
                out.info("perft stopped");
                return None;
            };
            Some(vec![String::new(), format!("Nodes searched: {total}")])
        });
    }

    fn bench(&mut self, depth: Option<u32>) {
        if self.refuse_if_busy("bench") {
            return;
        }
        let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
        self.start_job("bench", "a bench", move |out: &R, stop| {
            let outcome =
                bench::bench(
                    depth,
                    bench::settings(1, None),
                    None,
                    stop,
                    |progress| match progress {
                        bench::BenchProgress::Threads { wanted, running } => out.info(&format!(
                            "searching with {running} of {wanted} threads (no more could be \
                             started)"
                        )),
                        bench::BenchProgress::Position {
                            index,
                            position,
                            count,
                        } => out.info(&format!(
                            "bench position {}/{} nodes {} ({}{}{})",
                            index + 1,
                            bench::POSITIONS.len(),
                            count.nodes,
                            position.fen,
                            if position.options.is_empty() {
                                ""
                            } else {
                                "; "
                            },
                            position.options
                        )),
                    },
                );
            match outcome {
                Ok(Some(total)) => Some(super::bench_summary(&total).to_vec()),
                Ok(None) => {
                    out.info("bench stopped");
                    None
                }
                Err(e) => {
                    out.error(&format!("bench: {e}"));
                    None
                }
            }
        });
    }

    /// Runs `work`: on its own thread (it then gets a flag the session sets on `stop`), or
    /// inline to completion (it then gets the poll function). It prints as it goes, and
    /// returns its last lines (printed after a job is marked done), or `None` when it was
    /// stopped. If no thread can be had, `command` is refused with an error.
    fn start_job(
        &mut self,
        command: &str,
        what: &'static str,
        work: impl FnOnce(&R, Cancel) -> Option<Vec<String>> + Send + 'static,
    ) {
        let job = match &mut *self.mode {
            Mode::Inline { poll } => {
                if let Some(lines) = work(self.out, Cancel::Poll(*poll)) {
                    self.out.lines(&lines);
                }
                return;
            }
            Mode::Threads { job } => job,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let (s, d) = (Arc::clone(&stop), Arc::clone(&done));
        let spawned = std::thread::Builder::new().spawn(move || {
            let last = work(&out, Cancel::Flag(&s));
            d.store(true, Ordering::SeqCst);
            if let Some(lines) = last {
                out.lines(&lines);
            }
        });
        let handle = match spawned {
            Ok(h) => h,
            Err(e) => {
                return self.out.error(&format!(
                    "{command}: cannot start a thread ({e}); nothing started"
                ));
            }
        };
        *job = Some(Job {
            what,
            handle,
            stop,
            done,
        });
    }
}

/// A game error in the words of the protocol: the move's number and text.
fn describe<G: Geometry>(e: &GameErrorOf<G>) -> String {
    match e {
        GameErrorOf::Move { index, error } => format!("move {}: {error}", index + 1),
        other => other.to_string(),
    }
}

/// What turns a search's score into win chances (`UCI_ShowWDL`): the root's plies, side to
/// move and rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chances {
    pub(crate) plies: u32,
    pub(crate) side: Side,
    pub(crate) rules: Rules,
}

/// One search report as a protocol line; with `chances`, its score is followed by
/// `wdl W D L`.
pub(crate) fn format_report<G: Geometry>(
    report: &Report<G>,
    show_multipv: bool,
    chances: Option<Chances>,
) -> String {
    match report {
        Report::Info(info) => format_info(info, show_multipv, chances),
        Report::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
        Report::GameOver(status) => format!("info string game over: {status}"),
        Report::Threads { wanted, running } => format!(
            "info string searching with {running} of {wanted} threads (no more could be started)"
        ),
        Report::BestMove { best: None, .. } => "bestmove (none)".to_string(),
        Report::BestMove {
            best: Some(best),
            ponder,
        } => match ponder {
            Some(p) => format!("bestmove {best} ponder {p}"),
            None => format!("bestmove {best}"),
        },
    }
}

fn format_info<G: Geometry>(i: &Info<G>, show_multipv: bool, chances: Option<Chances>) -> String {
    let mut s = format!("info depth {} seldepth {}", i.depth, i.seldepth);
    if show_multipv {
        s.push_str(&format!(" multipv {}", i.multipv));
    }
    match i.score {
        Score::Cp(cp) => s.push_str(&format!(" score cp {cp}")),
        Score::Mate(n) => s.push_str(&format!(" score mate {n}")),
    }
    if let Some(c) = chances {
        let w = wdl::wdl(i.score, c.plies, c.side, &c.rules);
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    match i.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => s.push_str(" lowerbound"),
        ScoreBound::Upper => s.push_str(" upperbound"),
    }
    s.push_str(&format!(
        " nodes {} nps {} time {} hashfull {}",
        i.nodes, i.nps, i.time_ms, i.hashfull
    ));
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for mv in &i.pv {
            s.push(' ');
            s.push_str(&mv.to_string());
        }
    }
    s
}
