//! The OpenTafl Engine Protocol (OTEP, protocol.md's last section) as a [`Player`], so that
//! `konakis match` can drive OpenTafl engines (`proto=otep`), Konakis' own `konakis otep` among
//! them.
//!
//! Each game starts with `rules <rules string>` whose start position is the opening's position
//! (the side to move there moves first). Before each `play`, the engine hears about the moves
//! it has not seen: its own accepted move as `move <position record>`, the opponent's as
//! `opponent-move <move> <position record>`; then `clock` (when the engine has a clock) and
//! `play attackers|defenders`. It answers `move <from>-<to>`. The game ends with `finish`, the
//! engine with `goodbye`.
//!
//! OTEP has no depth or node limits, no increments and no options: an OTEP engine needs `tc=`
//! or `st=`; a clock is sent as main time only (the increment is added by the referee but not
//! announced), and a fixed time per move `st=S` as an overtime period of S plus the second
//! OpenTafl's AI keeps in reserve.
//!
//! After the engine's move the runner lets it settle (`settle=MS`, on by default): it sends
//! nothing more, whether the next `move`/`opponent-move`/`play` or `finish`, until the engine
//! has written nothing for MS milliseconds, or [`SETTLE_LIMIT_FACTOR`] times MS have passed
//! since its move line. OpenTafl 0.4.8's AI needs it: it writes its move before it plays it on
//! its own board and prints the finished search's statistics (a dozen `status` lines) through
//! a field that the next `play` replaces, so an opponent that answers within milliseconds makes
//! it die of a NullPointerException or play on a wrong board. The referee waits in
//! [`Player::settle`], before the engine's clock starts.

use super::startup::{preflight_start, startup_fault};
use super::types::{Answer, Clock, Fault, GameEnd, MoveRequest, Player};
use crate::matches::config::engines::SETTLE_LIMIT_FACTOR;
use crate::matches::config::{EngineSpec, MatchConfig, MoveLimits, Opening};
use crate::matches::cpu_wait::{CpuWait, late_wait};
use crate::matches::engine::{EngineProcess, Failure, Log};
use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::Rules;
use konakis_core::types::{BySide, Side};
use konakis_protocols::opentafl::notation::{self, full_move, position_record, simple_move};
use konakis_protocols::opentafl::otep::OPENTAFL_WIN;
use konakis_protocols::opentafl::rules_string::{
    StartKey, check_expressible, format_rules_of, game_name,
};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// An engine speaking OTEP, playing on a board of size `G`.
pub struct OtepPlayer<G: Geometry = Nine> {
    process: EngineProcess,
    rules: Rules,
    /// The game's name in the rules string.
    game_name: String,
    /// The position the engine's game started from (the `start:` of the last `rules`).
    base: BoardOf<G>,
    /// How many of the moves since `base` the engine has been told about.
    told: usize,
    /// The engine asked for OpenTafl's full move notation (`simple-moves off`).
    full_moves: bool,
    /// How long the engine must have been quiet after its move (`settle=`; zero = off).
    settle: Duration,
    /// When its last move arrived, while it has not settled since.
    moved_at: Option<Instant>,
    /// A fatal error (`error -1 ...`) that came while it settled: the answer to the next
    /// request.
    fatal: Option<(Instant, String)>,
    /// Its name and the match's log, to note how long it was held.
    name: String,
    log: Option<Arc<Log>>,
}

/// Why the match's settings cannot be played with an OTEP engine, if they cannot.
fn check_settings(config: &MatchConfig, spec: &EngineSpec) -> Result<(), String> {
    check_expressible(&config.rules).map_err(|e| {
        format!(
            "engine '{}' (proto=otep): the match rules cannot be sent to it: {e}",
            spec.name
        )
    })?;
    if spec.limits.tc.is_none() && spec.limits.st_ms.is_none() {
        return Err(format!(
            "engine '{}' (proto=otep): OTEP has no depth or node limits; give tc= or st=",
            spec.name
        ));
    }
    if let Some((name, _)) = spec.options.first() {
        return Err(format!(
            "engine '{}' (proto=otep): OTEP has no options (option.{name}); pass engine \
             settings with arg=",
            spec.name
        ));
    }
    Ok(())
}

/// Waits for the engine's `hello`.
fn hello(e: &mut EngineProcess, timeout: Duration, abort: &AtomicBool) -> Result<(), Failure> {
    e.wait_for("hello", Instant::now() + timeout, abort)
        .map(|_| ())
}

impl<G: Geometry> OtepPlayer<G> {
    /// Starts the engine and waits for its `hello`.
    pub fn start(
        config: &MatchConfig,
        spec: &EngineSpec,
        log: Option<Arc<Log>>,
        abort: &AtomicBool,
    ) -> Result<OtepPlayer<G>, (Fault, String)> {
        check_settings(config, spec).map_err(|m| (Fault::Protocol, m))?;
        let timeout = config.startup_timeout;
        let mut e =
            EngineProcess::spawn(spec, log.clone()).map_err(|e| (Fault::Crash, e.to_string()))?;
        hello(&mut e, timeout, abort).map_err(|f| startup_fault(f, "hello", timeout))?;
        Ok(OtepPlayer {
            process: e,
            rules: config.rules,
            game_name: game_name::<G>(config.variant),
            base: config.start(),
            told: 0,
            full_moves: false,
            settle: Duration::from_millis(spec.settle_ms),
            moved_at: None,
            fatal: None,
            name: spec.name.clone(),
            log,
        })
    }

    /// Notes a line the engine may send at any time.
    fn note(&mut self, line: &str) {
        match line.trim() {
            "simple-moves off" => self.full_moves = true,
            "simple-moves on" => self.full_moves = false,
            _ => {}
        }
    }
}

/// The `clock` line for the engine on move, if its limits give one: both sides' main time, or
/// a fixed time per move as one overtime period of that length (shown as already running).
fn clock_line(
    limits: BySide<&MoveLimits>,
    clocks: &BySide<Option<Clock>>,
    side: Side,
) -> Option<String> {
    if limits[side].tc.is_some() {
        let ms = |s: Side| clocks[s].map_or(0, |c| c.left_ms.max(0));
        return Some(format!(
            "clock {} {} 0 0 0",
            ms(Side::Attackers),
            ms(Side::Defenders)
        ));
    }
    let st = limits[side].st_ms?;
    let period = st + OVERTIME_RESERVE_MS;
    Some(format!(
        "clock {period}* {period}* {} 1 1",
        period.div_ceil(1000)
    ))
}

/// What OpenTafl's AI keeps back of an overtime period (it thinks about one second less than
/// is left, and fails when less than a second is left): a fixed time per move `st=S` is sent
/// as a period of S plus this, so that the engine thinks about S.
const OVERTIME_RESERVE_MS: u64 = 1_000;

/// Whether a line is a fatal error (`error -1 …`): the engine will not play on.
fn is_fatal(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("error") && words.next() == Some("-1")
}

/// Reads a score from a `status` line (`... score 35 ...`) for `side`, the engine's side. OTEP
/// engines score as OpenTafl's AI does (absolute, the attackers' advantage positive, a win
/// `5050` or more: see `konakis_protocols::opentafl::otep::opentafl_score`); the result is from the
/// engine's point of view, wins as +-1,000,000. An older `score mate N` counts as a win too.
fn status_score(line: &str, side: Side) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "score")?;
    let absolute = match *words.get(i + 1)? {
        "mate" => {
            let n: i64 = words.get(i + 2)?.parse().ok()?;
            let own = if n > 0 { 1_000_000 } else { -1_000_000 };
            return Some(own);
        }
        v => {
            let v = v.parse::<i64>().ok()?;
            if v.abs() >= i64::from(OPENTAFL_WIN) {
                v.signum() * 1_000_000
            } else {
                v
            }
        }
    };
    let own = match side {
        Side::Attackers => absolute,
        Side::Defenders => -absolute,
    };
    Some(own.clamp(-1_000_000, 1_000_000) as i32)
}

/// An answer that carries an engine's fatal error instead of a move.
fn fatal_answer(sent: Instant, arrived: Instant, line: String, score: Option<i32>) -> Answer {
    Answer {
        sent,
        arrived,
        text: String::new(),
        line,
        score,
        cpu_wait: Duration::ZERO,
    }
}

impl<G: Geometry> Player<G> for OtepPlayer<G> {
    fn new_game(&mut self, opening: &Opening<G>, _abort: &AtomicBool) -> Result<(), Failure> {
        self.moved_at = None;
        self.fatal = None;
        self.process.drain();
        self.base = *opening.game.board();
        self.told = 0;
        let rules = format_rules_of(&self.rules, &self.base, &self.game_name, StartKey::Start);
        self.process.send(&format!("rules {rules}"))
    }

    fn request_move(
        &mut self,
        request: &MoveRequest<G>,
        abort: &AtomicBool,
    ) -> Result<Answer, Failure> {
        let game: &GameOf<G> = request.game;
        let side = game.board().side_to_move();
        let rules = *game.rules();
        if let Some((at, line)) = self.fatal.take() {
            return Ok(fatal_answer(at, at, line, None));
        }
        // What the engine has not heard yet: its own accepted move, the opponent's reply.
        let mut news = Vec::new();
        let mut board = self.base;
        for (i, &mv) in request.moves.iter().enumerate() {
            let mover = board.side_to_move();
            let played = notation::play(&mut board, &rules, mv);
            if i < self.told {
                continue;
            }
            let record = position_record(&board);
            if mover == side {
                news.push(format!("move {record}"));
            } else {
                let text = if self.full_moves {
                    full_move(mv, &played)
                } else {
                    simple_move(mv)
                };
                news.push(format!("opponent-move {text} {record}"));
            }
        }
        self.told = request.moves.len();
        // Lines that came since the last answer are stale (a late move, old status lines),
        // except a fatal error, such as a refusal of the rules just sent.
        let stale_until = Instant::now() + Duration::from_millis(1);
        loop {
            match self.process.recv(stale_until, abort) {
                Ok((at, line)) => {
                    self.note(&line);
                    if is_fatal(&line) {
                        return Ok(fatal_answer(at, at, line, None));
                    }
                }
                Err(Failure::Timeout) => break,
                Err(e) => return Err(e),
            }
        }
        for line in &news {
            self.process.send(line)?;
        }
        if let Some(clock) = clock_line(request.limits, &request.clocks, side) {
            self.process.send(&clock)?;
        }
        let mut wait = CpuWait::start(self.process.measured());
        self.process.send(&format!("play {}", side.name()))?;
        let sent = Instant::now();
        let mut score = None;
        loop {
            let (arrived, line) =
                self.process
                    .recv_patient(request.deadline, wait.as_mut(), abort)?;
            self.note(&line);
            let mut words = line.split_whitespace();
            match words.next() {
                Some("move") => {
                    let given = words.next().unwrap_or("");
                    // The referee reads `d1d3` and `d1-d3`; a move in full notation is cut
                    // down to its squares, anything else goes to the referee as it came.
                    let text = match notation::parse_move::<G>(given) {
                        Ok(m) => m.mv.to_string(),
                        Err(_) => given.to_string(),
                    };
                    if !self.settle.is_zero() {
                        self.moved_at = Some(arrived);
                    }
                    return Ok(Answer {
                        sent,
                        arrived,
                        text,
                        line,
                        score,
                        cpu_wait: late_wait(
                            arrived,
                            request.deadline,
                            wait.as_mut(),
                            self.process.read_wait(),
                        ),
                    });
                }
                // A fatal error: the engine gives up (unsupported rules, say).
                Some("error") if is_fatal(&line) => {
                    return Ok(fatal_answer(sent, arrived, line, score));
                }
                Some("status") => {
                    if let Some(s) = status_score(&line, side) {
                        score = Some(s);
                    }
                }
                // The engine asks for the board.
                Some("position") if words.next().is_none() => {
                    self.process
                        .send(&format!("position {}", position_record(game.board())))?;
                }
                _ => {}
            }
        }
    }

    /// Reads what the engine writes after its move until it has been quiet for `settle`, or
    /// until [`SETTLE_LIMIT_FACTOR`] times `settle` after its move line. Lines that came while
    /// the opponent thought count: an engine that fell quiet long ago is not held at all.
    fn settle(&mut self, abort: &AtomicBool) -> Result<(), Failure> {
        let Some(moved) = self.moved_at.take() else {
            return Ok(());
        };
        let quiet = self.settle;
        let limit = moved + quiet * SETTLE_LIMIT_FACTOR;
        let began = Instant::now();
        let mut last = moved;
        loop {
            match self.process.recv((last + quiet).min(limit), abort) {
                Ok((at, line)) => {
                    self.note(&line);
                    last = last.max(at);
                    if is_fatal(&line) {
                        self.fatal = Some((at, line));
                        return Ok(());
                    }
                }
                Err(Failure::Timeout) => break,
                Err(e) => return Err(e),
            }
        }
        let held = began.elapsed();
        if let Some(log) = &self.log
            && held >= Duration::from_millis(1)
        {
            let why = if last + quiet > limit {
                format!(
                    "still writing {} ms after its move",
                    (limit - moved).as_millis()
                )
            } else {
                format!("quiet for {} ms", quiet.as_millis())
            };
            log.write(
                &self.name,
                "--",
                &format!("settle: held {} ms until {why}", held.as_millis()),
            );
        }
        Ok(())
    }

    fn recover(&mut self, _abort: &AtomicBool) -> bool {
        // OTEP has no `stop`; `finish` ends the engine's game, and the next `rules` resets it.
        self.process.send("finish 0").is_ok()
    }

    fn game_over(&mut self, _game: &GameOf<G>, end: GameEnd) {
        // `finish` and the next game's `rules` must not overtake the last move's aftermath
        // either. The trait gives no stop flag here; the wait is bounded all the same.
        let _ = self.settle(&AtomicBool::new(false));
        self.fatal = None;
        let code = match end {
            GameEnd::Draw => 1,
            GameEnd::Win(Side::Attackers) => 2,
            GameEnd::Win(Side::Defenders) => 3,
        };
        let _ = self.process.send(&format!("finish {code}"));
    }

    fn quit(mut self: Box<Self>, grace: Duration) {
        // OTEP's word for it; the line protocol's `quit` would be a stray line.
        let _ = self.process.send("goodbye");
        self.process.close(grace);
    }
}

/// Checks before the match that the engine starts and says `hello`, and that the match's
/// rules and limits can be put to it.
pub(crate) fn preflight(
    config: &MatchConfig,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
) -> Result<Vec<String>, String> {
    check_settings(config, spec)?;
    let (mut e, ()) = preflight_start(config, spec, log, "hello", "say hello", hello)?;
    let _ = e.send("goodbye");
    e.close(Duration::from_millis(500));
    let mut warnings = Vec::new();
    if let Some(tc) = spec.limits.tc
        && (tc.inc_ms > 0 || tc.moves.is_some())
    {
        warnings.push(format!(
            "warning: engine '{}' (proto=otep) is told its main time only: OTEP has no \
             increments or moves per period",
            spec.name
        ));
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::config::TimeControl;

    #[test]
    fn clock_lines_for_clocks_and_fixed_times() {
        let tc = MoveLimits {
            tc: Some(TimeControl::parse("5+0.05").unwrap()),
            ..MoveLimits::default()
        };
        let clocks = BySide::new(
            Some(Clock {
                left_ms: 4000,
                moves_left: None,
            }),
            Some(Clock {
                left_ms: -5,
                moves_left: None,
            }),
        );
        assert_eq!(
            clock_line(BySide::new(&tc, &tc), &clocks, Side::Attackers).as_deref(),
            Some("clock 4000 0 0 0 0")
        );
        let st = MoveLimits {
            st_ms: Some(1500),
            ..MoveLimits::default()
        };
        let none = BySide::new(None, None);
        assert_eq!(
            clock_line(BySide::new(&st, &st), &none, Side::Defenders).as_deref(),
            Some("clock 2500* 2500* 3 1 1")
        );
        let depth = MoveLimits {
            depth: Some(3),
            ..MoveLimits::default()
        };
        assert_eq!(
            clock_line(BySide::new(&depth, &depth), &none, Side::Attackers),
            None
        );
    }

    #[test]
    fn scores_from_status_lines() {
        let att = Side::Attackers;
        let def = Side::Defenders;
        // Absolute scores, attackers positive, turned to the engine's point of view.
        assert_eq!(
            status_score("status depth 5 seldepth 9 score -37 nodes 1", att),
            Some(-37)
        );
        assert_eq!(
            status_score("status depth 5 seldepth 9 score -37 nodes 1", def),
            Some(37)
        );
        // Wins as OpenTafl's AI scores them.
        assert_eq!(
            status_score("status depth 9 score 6050 pv a1-a2", def),
            Some(-1_000_000)
        );
        assert_eq!(
            status_score("status depth 9 score 5050 pv a1-a2", att),
            Some(1_000_000)
        );
        assert_eq!(
            status_score("status depth 9 score mate 2 pv a1-a2", def),
            Some(1_000_000)
        );
        assert_eq!(
            status_score("status depth 9 score mate -1", att),
            Some(-1_000_000)
        );
        assert_eq!(
            status_score("status Using 5196msec, desired 5196", att),
            None
        );
    }
}
