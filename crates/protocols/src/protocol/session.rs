//! The session: the engine, the options and the current game, and what each command does to
//! them.
//!
//! Commands run one at a time on the session's thread, in the order they arrived. Searches run
//! on the engine's thread, `go perft` and `bench` on a thread of their own (a "job"), so the
//! session keeps answering while they work. Commands that would disturb running work
//! (`setoption`, `ucinewgame`, `go`, `bench`) are refused until it has ended or been stopped.

use super::command::{self, Command, Start};
use super::{Input, Output};
use konakis_core::board::{Board, Game, GameError};
use konakis_core::perft::perft;
use konakis_core::types::Move;
use konakis_engine::bench;
use konakis_engine::eval;
use konakis_engine::options::{self, Change, Config};
use konakis_engine::search::{Engine, EngineError, Info, Limits, Report, Score, ScoreBound};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// The game as the last `position` command gave it, so that it can be replayed under new rules.
struct Origin {
    start: Start,
    moves: Vec<Move>,
}

pub(crate) struct Session {
    out: Output,
    engine: Engine,
    config: Config,
    game: Game,
    origin: Origin,
    job: Option<Job>,
    /// The running search is a `go ponder` that has not had its `ponderhit` yet.
    pondering: bool,
}

impl Session {
    /// A session with the default options, or an error if the engine cannot be set up.
    pub(crate) fn new(out: Output) -> Result<Session, EngineError> {
        let config = Config::default();
        Ok(Session {
            out,
            engine: Engine::try_new(config.settings)?,
            game: Game::start(config.rules),
            origin: Origin {
                start: Start::StartPos,
                moves: Vec::new(),
            },
            config,
            job: None,
            pondering: false,
        })
    }

    /// Answers lines until `quit` or the end of the input.
    pub(crate) fn serve(mut self, lines: Receiver<Input>) {
        loop {
            let input = lines.recv().unwrap_or(Input::End);
            match input {
                Input::Line(line) => match command::parse(&line) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => return self.quit(),
                    Ok(Some(c)) => self.execute(c),
                    Err(e) => self.out.error(&e.to_string()),
                },
                Input::TooLong(n) => self.out.error(&format!(
                    "line of {n} bytes ignored (longer than {} bytes)",
                    super::MAX_LINE_BYTES
                )),
                Input::End => return self.finish(),
            }
        }
    }

    fn execute(&mut self, c: Command) {
        match c {
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { start, moves } => self.position(start, moves),
            Command::Go(limits) => self.go(limits),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => self.bench(depth),
            Command::Quit => unreachable!("handled by serve"),
        }
    }

    /// What is running, if anything. A job that has said its last word counts as ended.
    fn busy(&mut self) -> Option<&'static str> {
        if self.engine.is_searching() {
            return Some("a search");
        }
        if let Some(job) = &self.job {
            if !job.done.load(Ordering::SeqCst) {
                return Some(job.what);
            }
            if let Some(job) = self.job.take() {
                let _ = job.handle.join();
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
        lines.extend(options::table().iter().map(|row| row.uci_line()));
        lines.push("uciok".to_string());
        self.out.lines(&lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.refuse_if_busy("setoption") {
            return;
        }
        let change = match options::apply(&self.config, name, value) {
            Ok(c) => c,
            Err(e) => return self.out.error(&format!("setoption: {e}")),
        };
        match change {
            Change::ClearHash => self.engine.clear(),
            Change::Config(new) => {
                if new.settings != self.config.settings
                    && let Err(e) = self.engine.set(new.settings)
                {
                    return self.out.error(&format!("setoption: {e}"));
                }
                let rules_changed = new.rules != self.config.rules;
                self.config = new;
                if rules_changed {
                    self.replay_under_new_rules();
                }
            }
        }
    }

    /// After a rule option changed: the current game is replayed from its start under the new
    /// rules. If its moves no longer make a legal game, the game goes back to its start.
    fn replay_under_new_rules(&mut self) {
        let rules = self.config.rules;
        match build_game(rules, &self.origin.start, &self.origin.moves) {
            Ok(game) => self.game = game,
            Err(e) => {
                self.game = build_game(rules, &self.origin.start, &[])
                    .expect("a start position without moves is always a game");
                let n = self.origin.moves.len();
                self.origin.moves.clear();
                self.out.info(&format!(
                    "the {n} move(s) of the current game do not make a legal game under the new \
                     rules ({}); the position is now the game's start position",
                    describe(&e)
                ));
            }
        }
    }

    fn new_game(&mut self) {
        if self.refuse_if_busy("ucinewgame") {
            return;
        }
        self.engine.clear();
        self.origin = Origin {
            start: Start::StartPos,
            moves: Vec::new(),
        };
        self.game = Game::start(self.config.rules);
    }

    fn position(&mut self, start: Start, moves: Vec<Move>) {
        match build_game(self.config.rules, &start, &moves) {
            Ok(game) => {
                self.game = game;
                self.origin = Origin { start, moves };
            }
            Err(e) => self.out.error(&format!(
                "position: {}; the previous position stays",
                describe(&e)
            )),
        }
    }

    fn go(&mut self, limits: Limits) {
        if self.refuse_if_busy("go") {
            return;
        }
        if !self.game.status().is_over() {
            let board = *self.game.board();
            let rules = self.config.rules;
            for &mv in &limits.searchmoves {
                if let Err(why) = board.check_move(&rules, mv) {
                    return self
                        .out
                        .error(&format!("go: searchmoves: {why}; no search started"));
                }
            }
        }
        let side = self.game.board().side_to_move();
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
        let show_multipv = self.config.settings.multipv > 1;
        let ponder = limits.ponder;
        match self.engine.go(&self.game, limits, move |report| {
            out.line(&format_report(&report, show_multipv))
        }) {
            Ok(()) => {
                self.pondering = ponder;
            }
            Err(e) => self.out.error(&format!("go: {e}")),
        }
    }

    fn stop(&mut self) {
        self.pondering = false;
        self.engine.stop();
        // The search answers within a few nodes; waiting here puts its `bestmove` before any
        // reply to a later command.
        self.engine.wait();
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::SeqCst);
            let _ = job.handle.join();
        }
    }

    fn ponderhit(&mut self) {
        if self.pondering && self.engine.is_searching() {
            self.pondering = false;
            self.engine.ponderhit();
        } else {
            self.out
                .error("ponderhit: no ponder search is running (go ponder starts one)");
        }
    }

    fn display(&mut self) {
        let board = self.game.board();
        let rules = self.config.rules;
        let mut lines: Vec<String> = board.diagram().lines().map(str::to_string).collect();
        lines.push(format!("Position: {}", board.to_fen()));
        lines.push(format!("Side to move: {}", board.side_to_move()));
        lines.push(format!("Plies: {}", board.plies()));
        lines.push(format!("Key: {:016x}", board.hash()));
        lines.push(format!(
            "King: {}",
            match board.king_open_lines() {
                0 => "no open line to the edge".to_string(),
                1 => "raichi (1 open line to the edge)".to_string(),
                n => format!("tuichu ({n} open lines to the edge)"),
            }
        ));
        lines.push(format!("Status: {}", self.game.status()));
        lines.push(format!("Rules: {rules}"));
        self.out.lines(&lines);
    }

    fn eval(&mut self) {
        let board = self.game.board();
        let (terms, total) = eval::breakdown(board, &self.config.rules);
        let width = terms
            .iter()
            .map(|(n, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(24);
        let mut lines = vec![format!("{:<width$} {:>8}", "term (attackers' view)", "cp")];
        let mut sum = 0;
        for (name, value) in &terms {
            lines.push(format!("{name:<width$} {value:>8}"));
            sum += value;
        }
        lines.push(format!("{:<width$} {sum:>8}", "sum (attackers' view)"));
        lines.push(format!(
            "Evaluation: {total} cp for the side to move ({})",
            board.side_to_move()
        ));
        self.out.lines(&lines);
    }

    fn perft(&mut self, depth: u32) {
        if self.refuse_if_busy("go perft") {
            return;
        }
        let board = *self.game.board();
        let rules = self.config.rules;
        self.start_job("go perft", "a perft", move |out, stop| {
            let mut total = 0u64;
            for &mv in board.legal_moves(&rules).iter() {
                let mut child = board;
                child.play(&rules, mv);
                let Some(n) = perft_stoppable(&child, &rules, depth - 1, stop) else {
                    out.info("perft stopped");
                    return None;
                };
                total += n;
                out.line(&format!("{mv}: {n}"));
            }
            Some(vec![String::new(), format!("Nodes searched: {total}")])
        });
    }

    fn bench(&mut self, depth: Option<u32>) {
        if self.refuse_if_busy("bench") {
            return;
        }
        let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
        self.start_job("bench", "a bench", move |out, stop| {
            let outcome = bench::bench(depth, bench::settings(1, None), stop, |i, pos, nodes| {
                out.info(&format!(
                    "bench position {}/{} nodes {nodes} ({}{}{})",
                    i + 1,
                    bench::POSITIONS.len(),
                    pos.fen,
                    if pos.options.is_empty() { "" } else { "; " },
                    pos.options
                ))
            });
            match outcome {
                Ok(Some(o)) => Some(o.summary().to_vec()),
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

    /// Runs `work` on its own thread. It gets the output and the stop flag, prints as it goes,
    /// and returns its last lines (printed after the job is marked done), or `None` when it
    /// was stopped. If no thread can be had, `command` is refused with an error.
    fn start_job(
        &mut self,
        command: &str,
        what: &'static str,
        work: impl FnOnce(&Output, &AtomicBool) -> Option<Vec<String>> + Send + 'static,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let (s, d) = (Arc::clone(&stop), Arc::clone(&done));
        let spawned = std::thread::Builder::new().spawn(move || {
            let last = work(&out, &s);
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
        self.job = Some(Job {
            what,
            handle,
            stop,
            done,
        });
    }

    /// `quit`: stop everything and return at once; nothing more is printed.
    fn quit(self) {
        self.out.close();
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::SeqCst);
        }
        self.engine.stop();
        // A search stops within a few nodes. Should it not (its thread blocked on a full output
        // pipe), the process leaves without it rather than hang.
        let deadline = Instant::now() + Duration::from_millis(200);
        while self.engine.is_searching() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        if self.engine.is_searching() {
            std::mem::forget(self.engine);
        }
    }

    /// End of input: nobody is left to ask for more, so whatever runs is stopped. A search
    /// still answers with its `bestmove`; a perft or bench says it stopped.
    fn finish(mut self) {
        self.stop();
    }
}

/// The game from `start` and `moves` under `rules`.
fn build_game(
    rules: konakis_core::Rules,
    start: &Start,
    moves: &[Move],
) -> Result<Game, GameError> {
    let board = match start {
        Start::StartPos => Board::start(&rules),
        Start::Board(b) => *b,
    };
    Game::with_moves(rules, board, moves)
}

/// A game error in the words of the protocol: the move's number and text.
fn describe(e: &GameError) -> String {
    match e {
        GameError::Move { index, message } => format!("move {}: {message}", index + 1),
        other => other.to_string(),
    }
}

/// Perft that gives up (`None`) soon after `stop` is set. The last plies are counted by
/// [`perft`] in one go, short enough to wait for.
fn perft_stoppable(
    board: &Board,
    rules: &konakis_core::Rules,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= 3 {
        return Some(perft(board, rules, depth));
    }
    let mut total = 0;
    for &mv in board.legal_moves(rules).iter() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = *board;
        child.play(rules, mv);
        total += perft_stoppable(&child, rules, depth - 1, stop)?;
    }
    Some(total)
}

/// One search report as a protocol line.
pub(crate) fn format_report(report: &Report, show_multipv: bool) -> String {
    match report {
        Report::Info(info) => format_info(info, show_multipv),
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

fn format_info(i: &Info, show_multipv: bool) -> String {
    let mut s = format!("info depth {} seldepth {}", i.depth, i.seldepth);
    if show_multipv {
        s.push_str(&format!(" multipv {}", i.multipv));
    }
    match i.score {
        Score::Cp(cp) => s.push_str(&format!(" score cp {cp}")),
        Score::Mate(n) => s.push_str(&format!(" score mate {n}")),
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
