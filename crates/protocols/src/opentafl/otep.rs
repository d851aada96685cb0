//! `konakis otep`: Konakis as an OpenTafl engine, speaking the OpenTafl Engine Protocol on
//! stdin and stdout (see protocol.md, section "OpenTafl mode").
//!
//! The host sends `rules`, `clock`, `play`, `opponent-move`, `move` confirmations, `position`,
//! `side`, `analyze`, `error`, `finish` and `goodbye`; the engine answers `hello`, `move`,
//! `analysis`, `status` and `error`. Searches run on the engine's thread, so `finish` and
//! `goodbye` are honoured while it thinks; a search cancelled that way prints no move. The
//! session only translates: the [`Engine`] holds the searcher, the game and the options.
//!
//! The game is kept with its history (for repetition) as long as the host's position records
//! agree with it; when one does not, the record wins and the game restarts from it.

use super::command::{self, Clock, HostCommand};
use super::notation::{position_record, simple_move};
use super::rules_string::parse_rules;
use crate::protocol::{Input, spawn_reader};
use crate::text::excerpt;
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use konakis_engine::options::{self, Options};
use konakis_engine::search::{Info, Limits, Report, Score};
use konakis_engine::wdl::{self, Wdl};
use konakis_engine::{Engine, EngineError, Explain, Synced};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The settings of `konakis otep` (its command line's flags of the same names).
#[derive(Debug, Clone)]
pub struct OtepConfig {
    /// Milliseconds per move when the host sends no clock (an untimed game).
    pub movetime: u64,
    /// Search threads.
    pub threads: u64,
    /// Transposition table size in MiB.
    pub hash_mib: u64,
    /// Never think longer than this many milliseconds per move, whatever the clock allows.
    pub max_time: Option<u64>,
    /// `Skill Level` (0-20; `None` for the option's default, full strength).
    pub skill: Option<i64>,
    /// `UCI_Elo` with `UCI_LimitStrength` on (`None`: strength not limited by Elo).
    pub elo: Option<i64>,
}

impl Default for OtepConfig {
    fn default() -> OtepConfig {
        OtepConfig {
            movetime: 5_000,
            threads: 1,
            hash_mib: 64,
            max_time: None,
            skill: None,
            elo: None,
        }
    }
}

/// The `Move Overhead` of `konakis otep`, in milliseconds: kept back per move for the pipe
/// and the host (OpenTafl runs on a JVM).
pub const MOVE_OVERHEAD_MS: u64 = 50;

/// How long `play` waits for a `clock` line when none came since the last move.
const CLOCK_WAIT: Duration = Duration::from_millis(100);

/// Runs the protocol on any input and output until `goodbye` or the end of the input. Fails
/// before saying `hello` if the engine cannot be set up (an option value out of the table's
/// range, or the table's memory cannot be had).
pub fn serve<R, W>(input: R, output: W, args: OtepConfig) -> Result<(), EngineError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    // The table is allocated before `hello`, so that it does not delay the first move.
    let engine = Engine::new(config(&args)?)?;
    let out = Out::new(output);
    let lines = spawn_reader(input);
    let session = Session::new(out.clone(), lines, args, engine);
    out.line("hello");
    session.run();
    Ok(())
}

/// The option values of `konakis otep` with these arguments, set through the option table;
/// the rules are OpenTafl's until the host sends its own.
fn config(args: &OtepConfig) -> Result<Options, EngineError> {
    let start = Options {
        rules: Rules {
            move_limit: 0,
            ..Rules::opentafl()
        },
        ..Options::default()
    };
    let hash = args.hash_mib.to_string();
    let threads = args.threads.to_string();
    let overhead = MOVE_OVERHEAD_MS.to_string();
    let skill = args.skill.map(|s| s.to_string());
    let elo = args.elo.map(|e| e.to_string());
    let mut pairs = vec![
        ("Hash", Some(hash.as_str())),
        ("Threads", Some(threads.as_str())),
        ("Move Overhead", Some(overhead.as_str())),
    ];
    if let Some(skill) = &skill {
        pairs.push(("Skill Level", Some(skill.as_str())));
    }
    if let Some(elo) = &elo {
        pairs.push(("UCI_LimitStrength", Some("true")));
        pairs.push(("UCI_Elo", Some(elo.as_str())));
    }
    Ok(options::apply_all(start, pairs)?)
}

/// The output: each line written with one `write_all` and flushed, under a lock.
#[derive(Clone)]
struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    fn new<W: Write + Send + 'static>(w: W) -> Out {
        Out {
            sink: Arc::new(Mutex::new(Box::new(w))),
        }
    }

    fn line(&self, text: &str) {
        let mut bytes: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(8_000)
            .collect();
        bytes.push('\n');
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A failed write means the host has gone; the end of the input follows.
        let _ = sink.write_all(bytes.as_bytes());
        let _ = sink.flush();
    }

    fn status(&self, text: &str) {
        self.line(&format!("status {text}"));
    }

    fn warn(&self, text: &str) {
        self.line(&format!("error 0 {text}"));
    }
}

/// How much of `left` ms of an overtime period a move may take: what OpenTafl's AI takes (all
/// but one second) but never more than three quarters, and at least a twentieth when less than
/// a second is left. A 3 s period gives 2 s, `konakis match`'s `st=S` (a period of S + 1 s)
/// gives S.
pub fn overtime_share(left: u64) -> u64 {
    (left * 3 / 4)
        .min(left.saturating_sub(1_000))
        .max(left / 20)
}

/// The search limits for `side` under `clock` (or `movetime` ms when there is none).
///
/// In overtime the move must come within the current period: [`overtime_share`] of what is
/// left of it is used. With main time left the usual time manager shares it out, counting each
/// overtime period to come like an increment; when main time is shorter than a period, the move
/// is played as if in overtime, since a full period follows the main time anyway.
pub fn clock_limits(clock: Option<&Clock>, side: Side, movetime: u64) -> Limits {
    let fixed = |ms: u64| Limits {
        movetime: Some(ms.max(1)),
        ..Limits::default()
    };
    let Some(c) = clock else {
        return fixed(movetime);
    };
    let own = c.ms[side];
    let has_overtime = c.period_ms > 0 && c.periods[side] > 0;
    let period_share = overtime_share(c.period_ms);
    if c.overtime[side] {
        return fixed(overtime_share(own.max(0) as u64));
    }
    if own < 0 {
        return if has_overtime {
            fixed(period_share)
        } else {
            fixed(movetime)
        };
    }
    if has_overtime && (own as u64) < c.period_ms {
        return fixed(period_share);
    }
    let inc = if has_overtime {
        Some(period_share)
    } else {
        None
    };
    let main = |s: Side| c.ms[s].max(0) as u64;
    Limits {
        btime: Some(main(Side::Attackers)),
        wtime: Some(main(Side::Defenders)),
        binc: inc,
        winc: inc,
        ..Limits::default()
    }
}

/// `board` with `side` to move (the ply count kept).
fn with_side(board: &Board, side: Side) -> Board {
    let mut b = *board;
    b.set_side_to_move(side);
    b
}

/// The state of the rules.
enum RulesState {
    /// No `rules` line yet.
    Missing,
    /// Rules Konakis plays.
    Known(Rules),
    /// The last `rules` line was refused, with this message.
    Refused(String),
}

/// What the running search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Task {
    Play,
    Analyze,
}

struct Session {
    out: Out,
    lines: Receiver<Input>,
    /// Lines read ahead while waiting for a clock, to be handled next.
    backlog: VecDeque<Input>,
    engine: Engine,
    args: OtepConfig,
    rules: RulesState,
    clock: Option<Clock>,
    /// A `clock` line arrived since the last search started.
    clock_fresh: bool,
    /// The side named by the last `side` line.
    side_hint: Option<Side>,
    /// The move sent for the last `play`, until the host confirms or overrides it (set by the
    /// search's callback).
    answered: Arc<Mutex<Option<Move>>>,
    /// No search has used the table since it was allocated or cleared.
    fresh_table: bool,
}

impl Session {
    fn new(out: Out, lines: Receiver<Input>, args: OtepConfig, engine: Engine) -> Session {
        Session {
            out,
            lines,
            backlog: VecDeque::new(),
            engine,
            args,
            rules: RulesState::Missing,
            clock: None,
            clock_fresh: false,
            side_hint: None,
            answered: Arc::new(Mutex::new(None)),
            fresh_table: true,
        }
    }

    fn answered(&self) -> MutexGuard<'_, Option<Move>> {
        match self.answered.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn next_input(&mut self) -> Input {
        if let Some(i) = self.backlog.pop_front() {
            return i;
        }
        self.lines.recv().unwrap_or(Input::End)
    }

    fn run(mut self) {
        loop {
            match self.next_input() {
                Input::Line(line) => {
                    if !self.handle(&line) {
                        break;
                    }
                }
                Input::TooLong(n) => self.out.warn(&format!("line of {n} bytes ignored")),
                Input::End => break,
            }
        }
        self.cancel();
    }

    /// Handles one line; `false` on `goodbye`.
    fn handle(&mut self, line: &str) -> bool {
        let command = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.out.warn(&e.to_string());
                return true;
            }
        };
        match command {
            HostCommand::Rules(text) => self.rules_line(&text),
            HostCommand::Clock(c) => {
                self.clock = Some(c);
                self.clock_fresh = true;
            }
            HostCommand::Play(side) => self.play(side),
            HostCommand::OpponentMove { mv, text, board } => self.opponent_move(mv, &text, board),
            HostCommand::Confirm(board) => self.confirm(board),
            HostCommand::Position(board) => self.position(board),
            HostCommand::Side(side) => self.side(side),
            HostCommand::Analyze { lines, seconds } => self.analyze(lines, seconds),
            HostCommand::Error(text) => self.host_error(&text),
            HostCommand::Finish => {
                self.cancel();
                self.clock = None;
                self.clock_fresh = false;
            }
            HostCommand::Goodbye => return false,
            HostCommand::Nothing => {}
            HostCommand::Unknown(word) => self
                .out
                .status(&format!("ignored unknown command '{}'", excerpt(&word))),
        }
        true
    }

    /// Stops the running search, if any, without letting it print its answer.
    fn cancel(&mut self) {
        self.engine.cancel();
    }

    /// Whether a search is running (one whose answer is out counts as ended).
    fn searching(&self) -> bool {
        self.engine.is_searching()
    }

    fn known_rules(&self) -> Option<Rules> {
        match self.rules {
            RulesState::Known(r) => Some(r),
            _ => None,
        }
    }

    /// The `error -1` line for a host that asks for moves without rules Konakis plays.
    fn refuse_without_rules(&self) {
        match &self.rules {
            RulesState::Refused(msg) => self.out.line(&format!("error -1 {msg}")),
            RulesState::Missing => self
                .out
                .line("error -1 no rules received (the host must send rules first)"),
            RulesState::Known(_) => {}
        }
    }

    fn rules_line(&mut self, text: &str) {
        self.cancel();
        self.clock = None;
        self.clock_fresh = false;
        *self.answered() = None;
        match parse_rules(text) {
            // The rules crate plays the tafl family, but the search still reads Tablut's
            // throne and king (the king-danger and king-line views): it plays Tablut's rules
            // only, until it learns the family's.
            Ok(parsed) if parsed.rules.family_rules() => {
                let msg = format!(
                    "unsupported rule: {} is not Tablut (Konakis' rules play it, its search \
                     plays Tablut's rules only, for now)",
                    parsed.name.as_deref().unwrap_or("this game")
                );
                self.out.line(&format!("error -1 {msg}"));
                self.rules = RulesState::Refused(msg);
            }
            Ok(parsed) => {
                self.engine.set_rules(parsed.rules, parsed.start);
                self.rules = RulesState::Known(parsed.rules);
                // Clearing a table no search has touched would only cost time (the host's
                // clock may already run).
                if !self.fresh_table {
                    self.engine.clear();
                    self.fresh_table = true;
                }
                self.out
                    .status(&format!("rules accepted: {}", parsed.rules));
            }
            Err(e) => {
                let msg = e.to_string();
                self.out.line(&format!("error -1 {msg}"));
                self.rules = RulesState::Refused(msg);
            }
        }
    }

    /// Waits briefly for a `clock` line after `play`; other lines are kept for later.
    fn await_clock(&mut self) {
        if self.clock_fresh {
            return;
        }
        match self.lines.recv_timeout(CLOCK_WAIT) {
            Ok(Input::Line(l)) => match command::parse(&l) {
                Ok(HostCommand::Clock(c)) => {
                    self.clock = Some(c);
                    self.clock_fresh = true;
                }
                _ => self.backlog.push_back(Input::Line(l)),
            },
            Ok(other) => self.backlog.push_back(other),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => self.backlog.push_back(Input::End),
        }
    }

    fn play(&mut self, side: Side) {
        let Some(rules) = self.known_rules() else {
            return self.refuse_without_rules();
        };
        if self.searching() {
            return self.out.status("play ignored: already thinking");
        }
        if self.engine.board().side_to_move() != side {
            self.out.status(&format!(
                "the host asks the {side} to move; the game is taken over with them to move"
            ));
            self.engine
                .take_position(with_side(self.engine.board(), side));
        }
        if !self.playable(rules) {
            return;
        }
        self.await_clock();
        if self.searching() {
            return;
        }
        let mut limits = clock_limits(self.clock.as_ref(), side, self.args.movetime);
        if let Some(max) = self.args.max_time {
            let longest = match limits.movetime {
                Some(ms) => ms,
                None => self
                    .engine
                    .budget(&limits)
                    .map_or(u64::MAX, |b| b.hard.as_millis() as u64),
            };
            if longest > max {
                limits = Limits {
                    movetime: Some(max),
                    ..Limits::default()
                };
            }
        }
        self.start(Task::Play, limits, 1);
    }

    /// Makes sure the current game has a move to give: a game Konakis thinks drawn by
    /// repetition (which the host may count otherwise) is continued from its board alone.
    fn playable(&mut self, rules: Rules) -> bool {
        if !self.engine.game().status().is_over() {
            return true;
        }
        let board = *self.engine.board();
        if !board.status(&rules).is_over() {
            self.out.status(&format!(
                "Konakis sees {}; playing on from the board as the host asks",
                self.engine.game().status()
            ));
            self.engine.take_position(board);
            return true;
        }
        self.out.warn(&format!(
            "no move to give: {} (position {})",
            board.status(&rules),
            position_record(&board)
        ));
        false
    }

    /// Starts a search; its reports become `status` lines and its answer a `move` (or
    /// `analysis`) line, unless it is cancelled first.
    fn start(&mut self, task: Task, limits: Limits, multipv: usize) {
        if let Err(e) = self
            .engine
            .set_option("MultiPV", Some(&multipv.to_string()))
        {
            return self.out.warn(&format!("cannot start a search: {e}"));
        }
        if task == Task::Play {
            *self.answered() = None;
        }
        self.clock_fresh = false;
        self.fresh_table = false;
        let out = self.out.clone();
        let to_move = self.engine.board().side_to_move();
        let plies = self.engine.board().plies();
        let rules = self.engine.options().rules;
        let answered = Arc::clone(&self.answered);
        // The lines of the iteration being reported, and of the one before (the last
        // iteration may stop before all its lines are done).
        let mut lines: Vec<Info> = Vec::new();
        let mut previous: Vec<Info> = Vec::new();
        // The engine hands on the reports of the current search only: a cancelled one says
        // nothing more.
        let callback = move |_, report: Report| match report {
            Report::Info(info) => {
                if info.multipv == 1 {
                    let chances = wdl::wdl(info.score, plies, to_move, &rules);
                    out.status(&status_text(&info, to_move, chances));
                }
                if task == Task::Analyze {
                    let n = info.multipv as usize;
                    if n == 1 && !lines.is_empty() {
                        previous = std::mem::take(&mut lines);
                    }
                    if n == lines.len() + 1 {
                        lines.push(info);
                    }
                }
            }
            Report::GameOver(status) => {
                out.status(&format!("game over: {status}"));
            }
            Report::Threads { wanted, running } => {
                out.status(&format!(
                    "searching with {running} of {wanted} threads (no more could be started)"
                ));
            }
            Report::BestMove { best, .. } => match (task, best) {
                (Task::Play, Some(mv)) => {
                    if let Ok(mut a) = answered.lock() {
                        *a = Some(mv);
                    }
                    out.line(&format!("move {}", simple_move(mv)));
                }
                (Task::Analyze, Some(mv)) => {
                    let best = if lines.len() >= previous.len() {
                        &lines
                    } else {
                        &previous
                    };
                    out.line(&analysis_text(best, mv, to_move));
                }
                (_, None) => out.warn("no legal move to give"),
            },
            Report::CurrMove { .. } => {}
        };
        if let Err(e) = self.engine.think(limits, callback) {
            self.out.warn(&format!("cannot start a search: {e}"));
        }
    }

    /// Continues the game with one of `lines` (tried in order) if its moves are legal and lead
    /// to `target` (placement and side to move); otherwise takes `target` as a new game and
    /// returns `false`.
    fn follow(&mut self, lines: &[&[Move]], target: Board) -> bool {
        let synced = self.engine.sync(
            |b| b.same_position(&target),
            Explain::Lines(lines),
            |_| Ok::<Board, Infallible>(target),
        );
        !matches!(synced, Ok(Synced::Taken))
    }

    fn adopted(&self, why: &str) {
        self.out
            .status(&format!("{why}; the game goes on from the host's position"));
    }

    /// The other side played `mv` (written `text`); `record` is the board after it (with the
    /// attackers to move until the mover is known).
    fn opponent_move(&mut self, mv: Option<Move>, text: &str, record: Board) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules();
        }
        if self.searching() {
            self.out
                .status("opponent-move while thinking: search dropped");
            self.cancel();
        }
        // The mover is whoever stands on the move's destination in the record.
        let mover = mv
            .and_then(|m| record.piece_at(m.to()))
            .map(|p| p.side())
            .unwrap_or(self.engine.board().side_to_move());
        let target = with_side(&record, mover.opponent());
        let answered = self.answered().take();
        let followed = match mv {
            Some(mv) => {
                let (theirs, both) = ([mv], answered.map(|a| [a, mv]));
                let mut lines: Vec<&[Move]> = vec![&theirs];
                lines.extend(both.as_ref().map(|b| b.as_slice()));
                self.follow(&lines, target)
            }
            None => self.follow(&[], target),
        };
        if !followed {
            let why = match mv {
                None => format!("opponent-move: '{}' is not a move", excerpt(text)),
                Some(mv) => format!(
                    "the opponent's {} does not lead from Konakis' position to the record",
                    simple_move(mv)
                ),
            };
            self.adopted(&why);
        }
    }

    /// `move <record>`: the host accepted our move; the record is the board after it.
    fn confirm(&mut self, record: Board) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules();
        }
        let mover = self.engine.board().side_to_move();
        let target = with_side(&record, mover.opponent());
        let answered = self.answered().take();
        let ours = answered.map(|a| [a]);
        let mut lines: Vec<&[Move]> = ours.as_ref().map(|a| a.as_slice()).into_iter().collect();
        lines.push(&[]);
        if !self.follow(&lines, target) {
            self.adopted("the confirmed position is not Konakis' move");
        }
    }

    fn position(&mut self, record: Board) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules();
        }
        if self.searching() {
            self.cancel();
        }
        let side = self.side_hint.unwrap_or(self.engine.board().side_to_move());
        let board = with_side(&record, side);
        if !self.follow(&[&[]], board) {
            *self.answered() = None;
        }
    }

    fn side(&mut self, side: Side) {
        self.side_hint = Some(side);
        if self.known_rules().is_some()
            && self.engine.board().side_to_move() != side
            && !self.searching()
        {
            self.engine
                .take_position(with_side(self.engine.board(), side));
        }
    }

    fn analyze(&mut self, lines: usize, seconds: f64) {
        let Some(rules) = self.known_rules() else {
            return self.refuse_without_rules();
        };
        if self.searching() {
            return self.out.status("analyze ignored: already thinking");
        }
        if !self.playable(rules) {
            return;
        }
        let ms = (seconds * 1000.0).min(3_600_000.0) as u64;
        let limits = Limits {
            movetime: Some(ms.saturating_sub(ms / 10).max(1)),
            ..Limits::default()
        };
        self.start(Task::Analyze, limits, lines.min(16));
    }

    fn host_error(&mut self, text: &str) {
        self.out.status(&format!(
            "the host reports error {}; asking for the position",
            excerpt(text)
        ));
        *self.answered() = None;
        self.out.line("position");
    }
}

/// What OpenTafl's AI scores a win at, before the bonus for the depth left.
pub const OPENTAFL_WIN: i32 = 5_050;

/// OpenTafl's AI's bonus for each ply of search depth left when a win is reached.
pub const OPENTAFL_WIN_PER_DEPTH: i32 = 500;

/// A search score as OpenTafl's own AI reports one, so that both engines' numbers mean the
/// same in OpenTafl's window: absolute, the attackers' advantage positive. Centi-soldiers
/// stay centi-soldiers (kept below the win scores); a win `p` plies ahead found in an
/// iteration of depth `d` is `±(5050 + 500 * max(0, d - p))`, a sooner win scoring higher.
///
/// ```
/// use konakis_core::Side;
/// use konakis_protocols::opentafl::otep::opentafl_score;
/// use konakis_engine::search::Score;
/// assert_eq!(opentafl_score(Score::Cp(35), 4, Side::Defenders), -35);
/// // The side to move wins with its first move, found at depth 3: 5050 + 2 * 500.
/// assert_eq!(opentafl_score(Score::Mate(1), 3, Side::Attackers), 6_050);
/// assert_eq!(opentafl_score(Score::Mate(1), 3, Side::Defenders), -6_050);
/// ```
pub fn opentafl_score(score: Score, depth: u32, to_move: Side) -> i32 {
    let for_mover = match score {
        Score::Cp(cp) => cp.clamp(-(OPENTAFL_WIN - 50), OPENTAFL_WIN - 50),
        Score::Mate(n) => {
            let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
            let left = (depth as i32 - plies).max(0);
            let win = OPENTAFL_WIN + OPENTAFL_WIN_PER_DEPTH * left;
            if n > 0 { win } else { -win }
        }
    };
    match to_move {
        Side::Attackers => for_mover,
        Side::Defenders => -for_mover,
    }
}

/// A search report as the text of a `status` line, its score as OpenTafl's AI gives one,
/// followed by the win chances in words (`chances`, for the side to move).
fn status_text(i: &Info, to_move: Side, chances: Wdl) -> String {
    let score = opentafl_score(i.score, i.depth, to_move);
    let pv: Vec<String> = i.pv.iter().map(|&m| simple_move(m)).collect();
    format!(
        "depth {} seldepth {} score {score} ({}) nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        wdl::describe(chances, to_move),
        i.nodes,
        i.nps,
        i.time_ms,
        pv.join(" ")
    )
}

/// `analysis <n> <move|move|...> <eval> ...` from the lines of the last finished iteration,
/// scores as [`opentafl_score`] gives them; the best move alone when no iteration finished.
fn analysis_text(lines: &[Info], best: Move, to_move: Side) -> String {
    if lines.is_empty() {
        return format!("analysis 1 {} 0", simple_move(best));
    }
    let mut s = format!("analysis {}", lines.len());
    for info in lines {
        let pv: Vec<String> = info.pv.iter().map(|&m| simple_move(m)).collect();
        s.push_str(&format!(
            " {} {}",
            pv.join("|"),
            opentafl_score(info.score, info.depth, to_move)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::command::parse_clock;

    #[test]
    fn overtime_moves_fit_in_the_period() {
        // In overtime: all but the second OpenTafl's AI keeps back, at most three quarters.
        let c = parse_clock("3000* 384 3 3 3").unwrap();
        assert_eq!(
            clock_limits(Some(&c), Side::Attackers, 5000).movetime,
            Some(2000)
        );
        // Main time shorter than a period: played as in overtime.
        assert_eq!(
            clock_limits(Some(&c), Side::Defenders, 5000).movetime,
            Some(2000)
        );
        // The runner's st=S: a period of S + 1 s gives S; long periods three quarters; less
        // than a second left, a twentieth.
        for (left, think) in [(1_100, 100), (3_000, 2_000), (6_000, 4_500), (800, 40)] {
            assert_eq!(overtime_share(left), think, "{left}");
        }
        // Plenty of main time: the time manager, with the periods as an increment.
        let c = parse_clock("29469 30000 3 3 3").unwrap();
        let l = clock_limits(Some(&c), Side::Attackers, 5000);
        assert_eq!(
            (l.btime, l.binc, l.movetime),
            (Some(29_469), Some(2000), None)
        );
        // No overtime: main time alone.
        let c = parse_clock("60000 60000 0 0 0").unwrap();
        let l = clock_limits(Some(&c), Side::Defenders, 5000);
        assert_eq!((l.wtime, l.winc), (Some(60_000), None));
        // No clock, or no main time and no overtime: the fixed time per move.
        assert_eq!(clock_limits(None, Side::Attackers, 777).movetime, Some(777));
        let c = parse_clock("-1 -1 0 0 0").unwrap();
        assert_eq!(
            clock_limits(Some(&c), Side::Attackers, 777).movetime,
            Some(777)
        );
        // A spent period never gives a zero budget.
        let c = parse_clock("0* 0* 3 0 0").unwrap();
        assert_eq!(
            clock_limits(Some(&c), Side::Attackers, 777).movetime,
            Some(1)
        );
    }

    #[test]
    fn analysis_lines_join_the_pv_with_bars() {
        let mv = |t: &str| Move::parse(t).unwrap();
        let info = |score, pv: &[&str]| Info {
            depth: 3,
            seldepth: 3,
            multipv: 1,
            score,
            bound: konakis_engine::search::ScoreBound::Exact,
            nodes: 1,
            nps: 1,
            time_ms: 1,
            hashfull: 0,
            pv: pv.iter().map(|t| mv(t)).collect(),
        };
        let lines = [
            info(Score::Cp(35), &["e3h3", "e4b4"]),
            info(Score::Mate(-1), &["d1d2"]),
        ];
        // Absolute scores, attackers positive: the defenders to move lose with the attackers'
        // first move, found at depth 3 (one ply left).
        assert_eq!(
            analysis_text(&lines, mv("e3h3"), Side::Defenders),
            "analysis 2 e3-h3|e4-b4 -35 d1-d2 5550"
        );
        assert_eq!(
            analysis_text(&lines, mv("e3h3"), Side::Attackers),
            "analysis 2 e3-h3|e4-b4 35 d1-d2 -5550"
        );
        assert_eq!(
            analysis_text(&[], mv("e3h3"), Side::Attackers),
            "analysis 1 e3-h3 0"
        );
        // A won position found deep: no bonus below zero; centi-soldiers stay below wins.
        assert_eq!(opentafl_score(Score::Mate(3), 2, Side::Attackers), 5_050);
        assert_eq!(opentafl_score(Score::Cp(9_999), 2, Side::Attackers), 5_000);
    }
}
