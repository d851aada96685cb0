//! `konakis otep`: Konakis as an OpenTafl engine, speaking the OpenTafl Engine Protocol on
//! stdin and stdout (see protocol.md, section "OpenTafl mode").
//!
//! The host sends `rules`, `clock`, `play`, `opponent-move`, `move` confirmations, `position`,
//! `side`, `analyze`, `error`, `finish` and `goodbye`; the engine answers `hello`, `move`,
//! `analysis`, `status` and `error`. Searches run on the engine's thread, so `finish` and
//! `goodbye` are honoured while it thinks; a search cancelled that way prints no move. The
//! session only translates: the [`Engine`] holds the searcher, the game and the options.
//!
//! Every board of OpenTafl's rules strings that Konakis plays (7×7, 9×9, 11×11) gets an engine
//! of its size (an `Engine<G>`): the session starts with Tablut's, and a `rules` line of
//! another size replaces it with one of that size. The rest of the session is one body of code
//! over the size.
//!
//! The game is kept with its history (for repetition) as long as the host's position records
//! agree with it; when one does not, the record wins and the game restarts from it.

use super::command::{self, Clock, HostCommandOf};
use super::notation::{position_record, simple_move};
use super::rules_string::{SizedBoard, parse_any_rules};
use crate::protocol::{Input, spawn_reader};
use crate::text::excerpt;
use konakis_core::board::BoardOf;
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::rules::Rules;
use konakis_core::types::{MoveOf, Side};
use konakis_engine::options::{self, Options};
use konakis_engine::search::{Info, Limits, Report, Score};
use konakis_engine::wdl::{self, Wdl};
use konakis_engine::{Engine, EngineError, Explain, Playable, Synced};
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
    let options = config(&args)?;
    // The table is allocated before `hello`, so that it does not delay the first move: on
    // Tablut's board, until a `rules` line names another.
    let engine = Engine::new(options)?;
    let out = Out::new(output);
    let lines = spawn_reader(input);
    let session = Session::new(Host::new(out.clone(), lines, args, options), engine);
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
pub fn clock_limits<G: Geometry>(clock: Option<&Clock>, side: Side, movetime: u64) -> Limits<G> {
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
fn with_side<G: Geometry>(board: &BoardOf<G>, side: Side) -> BoardOf<G> {
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

/// What the session does after a line.
enum Flow {
    /// Goes on reading.
    Next,
    /// A `rules` line, with its rules string: it may need an engine of another size.
    Rules(String),
    /// `goodbye`.
    Goodbye,
}

/// The side of the session that knows no board: the host's lines, the output, the arguments
/// and the clocks.
struct Host {
    out: Out,
    lines: Receiver<Input>,
    /// Lines read ahead while waiting for a clock, to be handled next.
    backlog: VecDeque<Input>,
    args: OtepConfig,
    /// The option values every engine starts from (an engine of another size is made when
    /// rules of that size arrive).
    options: Options,
    clock: Option<Clock>,
    /// A `clock` line arrived since the last search started.
    clock_fresh: bool,
    /// The side named by the last `side` line.
    side_hint: Option<Side>,
}

impl Host {
    fn new(out: Out, lines: Receiver<Input>, args: OtepConfig, options: Options) -> Host {
        Host {
            out,
            lines,
            backlog: VecDeque::new(),
            args,
            options,
            clock: None,
            clock_fresh: false,
            side_hint: None,
        }
    }

    fn next_input(&mut self) -> Input {
        if let Some(i) = self.backlog.pop_front() {
            return i;
        }
        self.lines.recv().unwrap_or(Input::End)
    }

    /// Forgets the clocks (a new game, or the end of one).
    fn forget_clock(&mut self) {
        self.clock = None;
        self.clock_fresh = false;
    }

    /// Waits briefly for a `clock` line after `play`; other lines are kept for later.
    fn await_clock<G: Geometry>(&mut self) {
        if self.clock_fresh {
            return;
        }
        match self.lines.recv_timeout(CLOCK_WAIT) {
            Ok(Input::Line(l)) => match command::parse::<G>(&l) {
                Ok(HostCommandOf::Clock(c)) => {
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
}

/// The engine of one board size and what the session knows of its game: the rules, the move
/// last answered, whether the table is fresh.
struct Play<G: Playable> {
    engine: Engine<G>,
    rules: RulesState,
    /// The move sent for the last `play`, until the host confirms or overrides it (set by the
    /// search's callback).
    answered: Arc<Mutex<Option<MoveOf<G>>>>,
    /// No search has used the table since it was allocated or cleared.
    fresh_table: bool,
}

/// The engine of the board the rules in force are played on.
// One per OTEP session, made when the rules change and never copied: its size is no cost.
#[allow(clippy::large_enum_variant)]
enum Boards {
    Seven(Play<Seven>),
    Nine(Play<Nine>),
    Eleven(Play<Eleven>),
    Thirteen(Play<Thirteen>),
}

/// `$body` with `$play` the [`Play`] of whichever board `$boards` holds.
macro_rules! on_board {
    ($boards:expr, $play:ident => $body:expr) => {
        match $boards {
            Boards::Seven($play) => $body,
            Boards::Nine($play) => $body,
            Boards::Eleven($play) => $body,
            Boards::Thirteen($play) => $body,
        }
    };
}

/// The board sizes a session plays, each with its place in [`Boards`].
trait OnBoard: Playable {
    /// The engine of this size, if it is the one held.
    fn held(boards: &mut Boards) -> Option<&mut Play<Self>>;

    /// `play` as the engine held.
    fn hold(play: Play<Self>) -> Boards;
}

macro_rules! on_board_size {
    ($($size:ident),*) => {$(
        impl OnBoard for $size {
            fn held(boards: &mut Boards) -> Option<&mut Play<$size>> {
                match boards {
                    Boards::$size(play) => Some(play),
                    _ => None,
                }
            }

            fn hold(play: Play<$size>) -> Boards {
                Boards::$size(play)
            }
        }
    )*};
}

on_board_size!(Seven, Nine, Eleven, Thirteen);

struct Session {
    host: Host,
    boards: Boards,
}

impl Session {
    fn new(host: Host, engine: Engine) -> Session {
        Session {
            host,
            boards: Boards::Nine(Play::new(engine)),
        }
    }

    fn run(mut self) {
        loop {
            match self.host.next_input() {
                Input::Line(line) => {
                    let flow =
                        on_board!(&mut self.boards, play => play.handle(&mut self.host, &line));
                    match flow {
                        Flow::Next => {}
                        Flow::Rules(text) => self.rules_line(&text),
                        Flow::Goodbye => break,
                    }
                }
                Input::TooLong(n) => self.host.out.warn(&format!("line of {n} bytes ignored")),
                Input::End => break,
            }
        }
        on_board!(&mut self.boards, play => play.cancel());
    }

    /// `rules <text>`: a new game under those rules, on an engine of their board's size.
    fn rules_line(&mut self, text: &str) {
        on_board!(&mut self.boards, play => play.cancel());
        self.host.forget_clock();
        match parse_any_rules(text) {
            Ok(parsed) => match parsed.start {
                SizedBoard::Seven(start) => self.accept(parsed.rules, start),
                SizedBoard::Nine(start) => self.accept(parsed.rules, start),
                SizedBoard::Eleven(start) => self.accept(parsed.rules, start),
                SizedBoard::Thirteen(start) => self.accept(parsed.rules, start),
            },
            Err(e) => self.refuse(e.to_string()),
        }
    }

    /// Plays `rules` from `start`, with the engine held if it is of that size, else with a new
    /// one (the one held is dropped; if the new one cannot be had, the rules are refused).
    fn accept<G: OnBoard>(&mut self, rules: Rules, start: BoardOf<G>) {
        if let Some(play) = G::held(&mut self.boards) {
            return play.accept(&self.host, rules, start);
        }
        match Engine::<G>::with_options(Options {
            rules,
            ..self.host.options
        }) {
            Ok(engine) => {
                let mut play = Play::new(engine);
                play.accept(&self.host, rules, start);
                self.boards = G::hold(play);
            }
            Err(e) => self.refuse(format!(
                "cannot set up an engine for a {n}x{n} board: {e}",
                n = G::SIDE
            )),
        }
    }

    /// Refuses the last `rules` line with `msg`: no move is given until rules Konakis plays
    /// arrive.
    fn refuse(&mut self, msg: String) {
        self.host.out.line(&format!("error -1 {msg}"));
        on_board!(&mut self.boards, play => play.refuse(msg));
    }
}

impl<G: Playable> Play<G> {
    fn new(engine: Engine<G>) -> Play<G> {
        Play {
            engine,
            rules: RulesState::Missing,
            answered: Arc::new(Mutex::new(None)),
            fresh_table: true,
        }
    }

    fn answered(&self) -> MutexGuard<'_, Option<MoveOf<G>>> {
        match self.answered.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Handles one line, read on this board's size.
    fn handle(&mut self, host: &mut Host, line: &str) -> Flow {
        let command = match command::parse::<G>(line) {
            Ok(c) => c,
            Err(e) => {
                host.out.warn(&e.to_string());
                return Flow::Next;
            }
        };
        match command {
            HostCommandOf::Rules(text) => return Flow::Rules(text),
            HostCommandOf::Clock(c) => {
                host.clock = Some(c);
                host.clock_fresh = true;
            }
            HostCommandOf::Play(side) => self.play(host, side),
            HostCommandOf::OpponentMove { mv, text, board } => {
                self.opponent_move(host, mv, &text, board)
            }
            HostCommandOf::Confirm(board) => self.confirm(host, board),
            HostCommandOf::Position(board) => self.position(host, board),
            HostCommandOf::Side(side) => self.side(host, side),
            HostCommandOf::Analyze { lines, seconds } => self.analyze(host, lines, seconds),
            HostCommandOf::Error(text) => self.host_error(host, &text),
            HostCommandOf::Finish => {
                self.cancel();
                host.forget_clock();
            }
            HostCommandOf::Goodbye => return Flow::Goodbye,
            HostCommandOf::Nothing => {}
            HostCommandOf::Unknown(word) => host
                .out
                .status(&format!("ignored unknown command '{}'", excerpt(&word))),
        }
        Flow::Next
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
    fn refuse_without_rules(&self, host: &Host) {
        match &self.rules {
            RulesState::Refused(msg) => host.out.line(&format!("error -1 {msg}")),
            RulesState::Missing => host
                .out
                .line("error -1 no rules received (the host must send rules first)"),
            RulesState::Known(_) => {}
        }
    }

    /// The last `rules` line was refused with `msg`.
    fn refuse(&mut self, msg: String) {
        *self.answered() = None;
        self.rules = RulesState::Refused(msg);
    }

    /// A new game under `rules` from `start`.
    fn accept(&mut self, host: &Host, rules: Rules, start: BoardOf<G>) {
        *self.answered() = None;
        self.engine.set_rules(rules, start);
        self.rules = RulesState::Known(rules);
        // Clearing a table no search has touched would only cost time (the host's clock may
        // already run).
        if !self.fresh_table {
            self.engine.clear();
            self.fresh_table = true;
        }
        host.out.status(&format!("rules accepted: {rules}"));
    }

    fn play(&mut self, host: &mut Host, side: Side) {
        let Some(rules) = self.known_rules() else {
            return self.refuse_without_rules(host);
        };
        if self.searching() {
            return host.out.status("play ignored: already thinking");
        }
        if self.engine.board().side_to_move() != side {
            host.out.status(&format!(
                "the host asks the {side} to move; the game is taken over with them to move"
            ));
            self.engine
                .take_position(with_side(self.engine.board(), side));
        }
        if !self.playable(host, rules) {
            return;
        }
        host.await_clock::<G>();
        if self.searching() {
            return;
        }
        let mut limits = clock_limits(host.clock.as_ref(), side, host.args.movetime);
        if let Some(max) = host.args.max_time {
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
        self.start(host, Task::Play, limits, 1);
    }

    /// Makes sure the current game has a move to give: a game Konakis thinks drawn by
    /// repetition (which the host may count otherwise) is continued from its board alone.
    fn playable(&mut self, host: &Host, rules: Rules) -> bool {
        if !self.engine.game().status().is_over() {
            return true;
        }
        let board = *self.engine.board();
        if !board.status(&rules).is_over() {
            host.out.status(&format!(
                "Konakis sees {}; playing on from the board as the host asks",
                self.engine.game().status()
            ));
            self.engine.take_position(board);
            return true;
        }
        host.out.warn(&format!(
            "no move to give: {} (position {})",
            board.status(&rules),
            position_record(&board)
        ));
        false
    }

    /// Starts a search; its reports become `status` lines and its answer a `move` (or
    /// `analysis`) line, unless it is cancelled first.
    fn start(&mut self, host: &mut Host, task: Task, limits: Limits<G>, multipv: usize) {
        if let Err(e) = self
            .engine
            .set_option("MultiPV", Some(&multipv.to_string()))
        {
            return host.out.warn(&format!("cannot start a search: {e}"));
        }
        if task == Task::Play {
            *self.answered() = None;
        }
        host.clock_fresh = false;
        self.fresh_table = false;
        let out = host.out.clone();
        let to_move = self.engine.board().side_to_move();
        let plies = self.engine.board().plies();
        let rules = self.engine.options().rules;
        let answered = Arc::clone(&self.answered);
        // The lines of the iteration being reported, and of the one before (the last
        // iteration may stop before all its lines are done).
        let mut lines: Vec<Info<G>> = Vec::new();
        let mut previous: Vec<Info<G>> = Vec::new();
        // The engine hands on the reports of the current search only: a cancelled one says
        // nothing more.
        let callback = move |_, report: Report<G>| match report {
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
            host.out.warn(&format!("cannot start a search: {e}"));
        }
    }

    /// Continues the game with one of `lines` (tried in order) if its moves are legal and lead
    /// to `target` (placement and side to move); otherwise takes `target` as a new game and
    /// returns `false`.
    fn follow(&mut self, lines: &[&[MoveOf<G>]], target: BoardOf<G>) -> bool {
        let synced = self.engine.sync(
            |b| b.same_position(&target),
            Explain::Lines(lines),
            |_| Ok::<BoardOf<G>, Infallible>(target),
        );
        !matches!(synced, Ok(Synced::Taken))
    }

    fn adopted(host: &Host, why: &str) {
        host.out
            .status(&format!("{why}; the game goes on from the host's position"));
    }

    /// The other side played `mv` (written `text`); `record` is the board after it (with the
    /// attackers to move until the mover is known).
    fn opponent_move(
        &mut self,
        host: &Host,
        mv: Option<MoveOf<G>>,
        text: &str,
        record: BoardOf<G>,
    ) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules(host);
        }
        if self.searching() {
            host.out
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
                let mut lines: Vec<&[MoveOf<G>]> = vec![&theirs];
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
            Self::adopted(host, &why);
        }
    }

    /// `move <record>`: the host accepted our move; the record is the board after it.
    fn confirm(&mut self, host: &Host, record: BoardOf<G>) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules(host);
        }
        let mover = self.engine.board().side_to_move();
        let target = with_side(&record, mover.opponent());
        let answered = self.answered().take();
        let ours = answered.map(|a| [a]);
        let mut lines: Vec<&[MoveOf<G>]> =
            ours.as_ref().map(|a| a.as_slice()).into_iter().collect();
        lines.push(&[]);
        if !self.follow(&lines, target) {
            Self::adopted(host, "the confirmed position is not Konakis' move");
        }
    }

    fn position(&mut self, host: &Host, record: BoardOf<G>) {
        if self.known_rules().is_none() {
            return self.refuse_without_rules(host);
        }
        if self.searching() {
            self.cancel();
        }
        let side = host.side_hint.unwrap_or(self.engine.board().side_to_move());
        let board = with_side(&record, side);
        if !self.follow(&[&[]], board) {
            *self.answered() = None;
        }
    }

    fn side(&mut self, host: &mut Host, side: Side) {
        host.side_hint = Some(side);
        if self.known_rules().is_some()
            && self.engine.board().side_to_move() != side
            && !self.searching()
        {
            self.engine
                .take_position(with_side(self.engine.board(), side));
        }
    }

    fn analyze(&mut self, host: &mut Host, lines: usize, seconds: f64) {
        let Some(rules) = self.known_rules() else {
            return self.refuse_without_rules(host);
        };
        if self.searching() {
            return host.out.status("analyze ignored: already thinking");
        }
        if !self.playable(host, rules) {
            return;
        }
        let ms = (seconds * 1000.0).min(3_600_000.0) as u64;
        let limits = Limits {
            movetime: Some(ms.saturating_sub(ms / 10).max(1)),
            ..Limits::default()
        };
        self.start(host, Task::Analyze, limits, lines.min(16));
    }

    fn host_error(&mut self, host: &Host, text: &str) {
        host.out.status(&format!(
            "the host reports error {}; asking for the position",
            excerpt(text)
        ));
        *self.answered() = None;
        host.out.line("position");
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
fn status_text<G: Geometry>(i: &Info<G>, to_move: Side, chances: Wdl) -> String {
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
fn analysis_text<G: Geometry>(lines: &[Info<G>], best: MoveOf<G>, to_move: Side) -> String {
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
    use crate::opentafl::notation::parse_move;

    #[test]
    fn overtime_moves_fit_in_the_period() {
        // In overtime: all but the second OpenTafl's AI keeps back, at most three quarters.
        let c = parse_clock::<Nine>("3000* 384 3 3 3").unwrap();
        assert_eq!(
            clock_limits::<Nine>(Some(&c), Side::Attackers, 5000).movetime,
            Some(2000)
        );
        // Main time shorter than a period: played as in overtime.
        assert_eq!(
            clock_limits::<Nine>(Some(&c), Side::Defenders, 5000).movetime,
            Some(2000)
        );
        // The runner's st=S: a period of S + 1 s gives S; long periods three quarters; less
        // than a second left, a twentieth.
        for (left, think) in [(1_100, 100), (3_000, 2_000), (6_000, 4_500), (800, 40)] {
            assert_eq!(overtime_share(left), think, "{left}");
        }
        // Plenty of main time: the time manager, with the periods as an increment.
        let c = parse_clock::<Nine>("29469 30000 3 3 3").unwrap();
        let l = clock_limits::<Nine>(Some(&c), Side::Attackers, 5000);
        assert_eq!(
            (l.btime, l.binc, l.movetime),
            (Some(29_469), Some(2000), None)
        );
        // No overtime: main time alone.
        let c = parse_clock::<Nine>("60000 60000 0 0 0").unwrap();
        let l = clock_limits::<Nine>(Some(&c), Side::Defenders, 5000);
        assert_eq!((l.wtime, l.winc), (Some(60_000), None));
        // No clock, or no main time and no overtime: the fixed time per move.
        assert_eq!(
            clock_limits::<Nine>(None, Side::Attackers, 777).movetime,
            Some(777)
        );
        let c = parse_clock::<Nine>("-1 -1 0 0 0").unwrap();
        assert_eq!(
            clock_limits::<Nine>(Some(&c), Side::Attackers, 777).movetime,
            Some(777)
        );
        // A spent period never gives a zero budget.
        let c = parse_clock::<Nine>("0* 0* 3 0 0").unwrap();
        assert_eq!(
            clock_limits::<Nine>(Some(&c), Side::Attackers, 777).movetime,
            Some(1)
        );
    }

    #[test]
    fn analysis_lines_join_the_pv_with_bars() {
        let mv = |t: &str| MoveOf::<Nine>::parse(t).unwrap();
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

    /// The input of a hosted session: the lines the host sends, the end of the input when the
    /// host goes.
    struct Feed {
        lines: Receiver<Vec<u8>>,
        pending: VecDeque<u8>,
    }

    impl Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() {
                match self.lines.recv() {
                    Ok(bytes) => self.pending.extend(bytes),
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.pending.len());
            for (slot, byte) in buf.iter_mut().zip(self.pending.drain(..n)) {
                *slot = byte;
            }
            Ok(n)
        }
    }

    /// The output of a hosted session, gathered.
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// `konakis otep` ([`serve`]) on a thread, driven line by line as OpenTafl drives it.
    struct Hosted {
        input: std::sync::mpsc::Sender<Vec<u8>>,
        output: Arc<Mutex<Vec<u8>>>,
        /// How many output lines were handed out.
        read: usize,
    }

    impl Hosted {
        fn start() -> Hosted {
            let (input, lines) = std::sync::mpsc::channel();
            let output = Arc::new(Mutex::new(Vec::new()));
            let sink = Sink(Arc::clone(&output));
            let args = OtepConfig {
                hash_mib: 4,
                ..OtepConfig::default()
            };
            let feed = Feed {
                lines,
                pending: VecDeque::new(),
            };
            std::thread::spawn(move || serve(feed, sink, args).unwrap());
            let mut hosted = Hosted {
                input,
                output,
                read: 0,
            };
            hosted.until("hello");
            hosted
        }

        fn send(&self, line: &str) {
            self.input.send(format!("{line}\n").into_bytes()).unwrap();
        }

        /// The lines written since the last call, up to the first one that starts with
        /// `prefix`; fails with all of them after 30 s without one.
        fn until(&mut self, prefix: &str) -> Vec<String> {
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            loop {
                let text = String::from_utf8(self.output.lock().unwrap().clone()).unwrap();
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                let complete = if text.ends_with('\n') {
                    lines.len()
                } else {
                    lines.len().saturating_sub(1)
                };
                if let Some(i) = (self.read..complete).find(|&i| lines[i].starts_with(prefix)) {
                    let seen = lines[self.read..=i].to_vec();
                    self.read = i + 1;
                    return seen;
                }
                assert!(
                    std::time::Instant::now() < deadline,
                    "no line starting with {prefix:?} in {:#?}",
                    &lines[self.read..]
                );
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// OpenTafl hosting Konakis for `konakis` under the rules string `text` (of board `G`,
    /// read as `rules` from `start`) for up to `plies` plies: the host's side plays legal moves
    /// of its own choosing, and each move Konakis answers is legal on the host's board. Konakis
    /// keeps the host's game (no record makes it start over) and writes no error before its
    /// moves.
    fn host_game<G: Geometry>(
        text: &str,
        rules: Rules,
        start: BoardOf<G>,
        konakis: Side,
        plies: usize,
    ) {
        let mut otep = Hosted::start();
        otep.send(&format!("rules {text}"));
        let accepted = otep.until("status rules accepted");
        assert_eq!(accepted.len(), 1, "{accepted:#?}");
        let mut board = start;
        let mut answered = 0;
        for ply in 0..plies {
            if board.status(&rules).is_over() {
                break;
            }
            let side = board.side_to_move();
            let legal = board.legal_moves(&rules);
            let mv = if side == konakis {
                // OpenTafl's st-like clock: one overtime period, already running.
                otep.send("clock 1000* 1000* 1 1 1");
                otep.send(&format!("play {side}"));
                let lines = otep.until("move ");
                for line in &lines {
                    assert!(
                        !line.starts_with("error") && !line.contains("goes on from the host"),
                        "ply {ply}: {lines:#?}"
                    );
                }
                let written = lines.last().unwrap().strip_prefix("move ").unwrap();
                let mv = parse_move::<G>(written).unwrap().mv;
                assert!(
                    legal.contains(&mv),
                    "ply {ply}: {written} is not legal in {}",
                    position_record(&board)
                );
                answered += 1;
                mv
            } else {
                legal[(ply * 7) % legal.len()]
            };
            board.play(&rules, mv);
            if board.status(&rules).is_over() {
                // OpenTafl ends the game with `finish`.
                break;
            }
            if side == konakis {
                otep.send(&format!("move {}", position_record(&board)));
            } else {
                otep.send(&format!(
                    "opponent-move {} {}",
                    simple_move(mv),
                    position_record(&board)
                ));
            }
        }
        assert!(answered >= 1, "no move answered");
        otep.send("finish 1");
        otep.send("goodbye");
    }

    fn brandub() -> (String, Rules, BoardOf<Seven>) {
        let text = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
                    start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let parsed = parse_any_rules(text).unwrap();
        let SizedBoard::Seven(start) = parsed.start else {
            panic!("{text}: not 7x7");
        };
        (text.to_string(), parsed.rules, start)
    }

    fn copenhagen() -> (String, Rules, BoardOf<Eleven>) {
        let text = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
                    start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let parsed = parse_any_rules(text).unwrap();
        let SizedBoard::Eleven(start) = parsed.start else {
            panic!("{text}: not 11x11");
        };
        (text.to_string(), parsed.rules, start)
    }

    #[test]
    fn a_brandub_7x7_session_answers_legal_moves_for_either_side() {
        let (text, rules, start) = brandub();
        host_game(&text, rules, start, Side::Attackers, 12);
        host_game(&text, rules, start, Side::Defenders, 12);
    }

    #[test]
    fn a_copenhagen_11x11_session_answers_legal_moves_for_either_side() {
        let (text, rules, start) = copenhagen();
        host_game(&text, rules, start, Side::Attackers, 10);
        host_game(&text, rules, start, Side::Defenders, 10);
    }

    /// OpenTafl's Sea Battle (Parlett) 13x13, the line of the external-rules.conf shipped with
    /// OpenTafl 0.4.8 that its menu offers after its ten built-ins: read into the preset
    /// `opentafl-sea-battle-13` and answered with a legal move on a 13x13 engine.
    #[test]
    fn opentafls_sea_battle_13x13_is_played_on_a_13x13_board() {
        let string = "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: \
                      start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/\
                      t3T3T3t/6T6/6t6/5t1t5/4ttttt4/";
        let parsed = parse_any_rules(string).unwrap();
        let variant = konakis_core::rules::Variant::find("opentafl-sea-battle-13").unwrap();
        assert_eq!(
            parsed.rules,
            Rules {
                move_limit: 0,
                ..variant.rules()
            }
        );
        let SizedBoard::Thirteen(start) = parsed.start else {
            panic!("a 13x13 start");
        };
        assert_eq!(
            start,
            BoardOf::<Thirteen>::from_fen(&variant.start_fen()).unwrap()
        );
        let mut otep = Hosted::start();
        otep.send(&format!("rules {string}"));
        let first = otep.until("");
        assert!(first[0].starts_with("status rules accepted"), "{first:?}");
        otep.send("clock 1000* 1000* 1 1 1");
        otep.send("play attackers");
        let lines = otep.until("move ");
        let written = lines.last().unwrap().strip_prefix("move ").unwrap();
        let mv = parse_move::<Thirteen>(written).unwrap().mv;
        assert!(start.legal_moves(&parsed.rules).contains(&mv), "{written}");
        otep.send("goodbye");
    }

    /// One session given OpenTafl's ten built-in rules strings in turn, as a user picks one
    /// variant after another: each of the nine Konakis plays is accepted and answered with a
    /// legal move on its own board; Berserk is refused by the pair at fault, and no move is
    /// given under it (nor under the rules before it).
    #[test]
    fn every_built_in_opentafl_variant_is_played_on_its_board_or_refused_by_name() {
        let text = include_str!("../../../../tests/data/opentafl/builtin-rules-strings.txt");
        let mut otep = Hosted::start();
        let mut played = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let string = line.split('\t').nth(3).unwrap();
            otep.send(&format!("rules {string}"));
            let answer = otep.until("");
            let first = &answer[0];
            let parsed = match parse_any_rules(string) {
                Ok(parsed) => parsed,
                Err(e) => {
                    assert_eq!(*first, format!("error -1 {e}"));
                    assert!(first.starts_with("error -1 unsupported rule: "), "{first}");
                    otep.send("play attackers");
                    let refused = otep.until("");
                    assert!(
                        refused[0].starts_with("error -1 unsupported rule"),
                        "{refused:?}"
                    );
                    continue;
                }
            };
            assert!(
                first.starts_with("status rules accepted"),
                "{string}: {first}"
            );
            let side = parsed.rules.first_move;
            otep.send("clock 1000* 1000* 1 1 1");
            otep.send(&format!("play {side}"));
            let lines = otep.until("move ");
            let written = lines.last().unwrap().strip_prefix("move ").unwrap();
            let legal = match &parsed.start {
                SizedBoard::Seven(b) => {
                    let mv = parse_move::<Seven>(written).unwrap().mv;
                    b.legal_moves(&parsed.rules).contains(&mv)
                }
                SizedBoard::Nine(b) => {
                    let mv = parse_move::<Nine>(written).unwrap().mv;
                    b.legal_moves(&parsed.rules).contains(&mv)
                }
                SizedBoard::Eleven(b) => {
                    let mv = parse_move::<Eleven>(written).unwrap().mv;
                    b.legal_moves(&parsed.rules).contains(&mv)
                }
                SizedBoard::Thirteen(b) => {
                    let mv = parse_move::<Thirteen>(written).unwrap().mv;
                    b.legal_moves(&parsed.rules).contains(&mv)
                }
            };
            assert!(legal, "{string}: {written} is not legal at the start");
            played += 1;
        }
        assert_eq!(played, 9);
        otep.send("goodbye");
    }

    /// Analysis on 11x11 as OpenTafl's analysis window asks for it: a position record, the
    /// side to move, `analyze`; every line's first move is legal there.
    #[test]
    fn analysis_of_a_copenhagen_position_gives_legal_lines() {
        let (text, rules, start) = copenhagen();
        let mut otep = Hosted::start();
        otep.send(&format!("rules {text}"));
        otep.until("status rules accepted");
        let mut board = start;
        let first = board.legal_moves(&rules)[3];
        board.play(&rules, first);
        otep.send(&format!("position {}", position_record(&board)));
        otep.send("side defenders");
        otep.send("analyze 2 0.3");
        let lines = otep.until("analysis ");
        let analysis = lines.last().unwrap();
        let fields: Vec<&str> = analysis.split(' ').collect();
        assert_eq!(fields[1], "2", "{analysis}");
        let legal = board.legal_moves(&rules);
        for pv in [fields[2], fields[4]] {
            let mv = parse_move::<Eleven>(pv.split('|').next().unwrap())
                .unwrap()
                .mv;
            assert!(legal.contains(&mv), "{analysis}");
        }
        otep.send("goodbye");
    }
}
