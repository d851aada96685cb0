//! One game between two engine processes, refereed by the library's rules: clocks, deadlines,
//! the verdict on every fault, and adjudication.

use super::config::{Config, DrawAdjudication, Limits, Opening, Resign, seconds_text};
use super::engine::{EngineProcess, Failure, Log, shorten};
use crate::board::{Game, Status};
use crate::types::{BySide, Move, Side};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long an engine that overstepped its time gets to answer `stop` before it is killed.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Number of the game in the schedule, from 1.
    pub number: usize,
    /// The pair it belongs to (the two games of a pair share the opening, sides swapped).
    pub pair: usize,
    /// Index of the pairing (in [`Config::pairings`]).
    pub pairing: usize,
    /// Index of the opening.
    pub opening: usize,
    /// Engine index playing each side.
    pub sides: BySide<usize>,
}

/// A kind of fault that loses a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Overstepped its clock or move time, or never answered.
    Time,
    /// The process died or could not be started.
    Crash,
    /// A malformed or illegal move.
    Illegal,
    /// Broke the protocol otherwise (no `uciok`/`readyok`, `bestmove (none)` in a live game).
    Protocol,
}

impl Fault {
    /// A short word for records and JSON.
    pub fn word(self) -> &'static str {
        match self {
            Fault::Time => "time",
            Fault::Crash => "crash",
            Fault::Illegal => "illegal",
            Fault::Protocol => "protocol",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (escape, capture, encirclement, no move, repetition, move limit).
    Rules(Status),
    /// `side` lost by a fault.
    Forfeit {
        /// The side at fault.
        side: Side,
        /// What it did.
        fault: Fault,
    },
    /// `side` lost by resignation adjudication.
    Resigned {
        /// The losing side.
        side: Side,
    },
    /// Drawn by adjudication.
    AdjudicatedDraw,
}

impl Ending {
    /// The winning side; `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self {
            Ending::Rules(Status::Win(side, _)) => Some(*side),
            Ending::Rules(_) | Ending::AdjudicatedDraw => None,
            Ending::Forfeit { side, .. } | Ending::Resigned { side } => Some(side.opponent()),
        }
    }

    /// A one-word category: `rules`, `time`, `crash`, `illegal`, `protocol`, `adjudication`.
    pub fn category(&self) -> &'static str {
        match self {
            Ending::Rules(_) => "rules",
            Ending::Forfeit { fault, .. } => fault.word(),
            Ending::Resigned { .. } | Ending::AdjudicatedDraw => "adjudication",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What was played.
    pub job: Job,
    /// How it ended.
    pub ending: Ending,
    /// The reason in words, e.g. "defenders win: the king reached the edge".
    pub reason: String,
    /// The moves the engines played (after the opening's).
    pub moves: Vec<Move>,
    /// Each move's thinking time in milliseconds, as the runner measured it.
    pub times_ms: Vec<u64>,
    /// Each move's score as its engine reported it (centi-soldiers, mates as ±1,000,000).
    pub scores: Vec<Option<i32>>,
    /// Plies on the final board (the opening's included).
    pub plies: u32,
    /// Time spent by the runner between an answer and the next `go`, summed.
    pub overhead: Duration,
    /// How many `go` commands followed an answer (the overhead's sample count).
    pub overhead_samples: u32,
    /// Wall time of the game.
    pub duration: Duration,
}

/// What every game of the match shares.
pub struct Context {
    /// The settings.
    pub config: Config,
    /// The openings (at least the start position).
    pub openings: Vec<Opening>,
    /// Set to abort games in progress and stop the match.
    pub stop: AtomicBool,
    /// The I/O log, if any.
    pub log: Option<Arc<Log>>,
}

/// A side's clock during a game.
#[derive(Clone, Copy, Debug)]
struct Clock {
    left_ms: i64,
    /// Moves left in the period (for `moves/time` controls).
    moves_left: Option<u32>,
}

/// Starts engine `idx` in `slots` if it is not running: spawn, `uci`, options, rules,
/// `isready`. The error says how it failed.
pub fn ensure_started(
    ctx: &Context,
    idx: usize,
    slots: &mut [Option<EngineProcess>],
) -> Result<(), (Fault, String)> {
    if slots[idx].is_some() {
        return Ok(());
    }
    let spec = &ctx.config.engines[idx];
    let timeout = ctx.config.startup_timeout;
    let mut e = EngineProcess::spawn(spec, ctx.log.clone()).map_err(|m| (Fault::Crash, m))?;
    let fail = |f: Failure, what: &str| match f {
        Failure::Exited(how) => (Fault::Crash, format!("{how} during {what}")),
        Failure::Timeout => (
            Fault::Protocol,
            format!("no answer to {what} within {} s", timeout.as_secs_f64()),
        ),
        Failure::Aborted => (Fault::Protocol, "aborted".into()),
    };
    e.handshake(timeout, &ctx.stop)
        .map_err(|f| fail(f, "uci"))?;
    for (name, value) in &spec.options {
        e.send(&format!("setoption name {name} value {value}"))
            .map_err(|f| fail(f, "setoption"))?;
    }
    for o in crate::rules::Rules::OPTIONS {
        let value = ctx.config.rules.get(o.name).unwrap_or_default();
        e.send(&format!("setoption name {} value {value}", o.name))
            .map_err(|f| fail(f, "setoption"))?;
    }
    e.sync(timeout, &ctx.stop).map_err(|f| fail(f, "isready"))?;
    slots[idx] = Some(e);
    Ok(())
}

/// The adjudication state: each side's recent scores (centi-soldiers from its own point of
/// view; mates as ±1,000,000).
#[derive(Default)]
struct Adjudicator {
    /// Consecutive own moves at or below −resign score, per side.
    losing: BySide<u32>,
    /// Consecutive own moves at or above +resign score, per side.
    winning: BySide<u32>,
    /// Consecutive plies with both sides' scores within the draw score.
    quiet_plies: u32,
}

impl Adjudicator {
    /// Takes the mover's score and says whether the game is adjudicated.
    fn update(
        &mut self,
        side: Side,
        score: Option<i32>,
        full_moves: u32,
        resign: Option<Resign>,
        draw: Option<DrawAdjudication>,
    ) -> Option<Ending> {
        if let Some(r) = resign {
            match score {
                Some(s) if s <= -r.score => self.losing[side] += 1,
                _ => self.losing[side] = 0,
            }
            match score {
                Some(s) if s >= r.score => self.winning[side] += 1,
                _ => self.winning[side] = 0,
            }
            // Either side may have reached the threshold: with `twosided`, the loser's streak
            // may be complete before the winner's.
            for s in [side, side.opponent()] {
                if self.losing[s] >= r.movecount
                    && (!r.twosided || self.winning[s.opponent()] >= r.movecount)
                {
                    return Some(Ending::Resigned { side: s });
                }
            }
        }
        if let Some(d) = draw {
            match score {
                Some(s) if s.abs() <= d.score => self.quiet_plies += 1,
                _ => self.quiet_plies = 0,
            }
            if full_moves >= d.movenumber && self.quiet_plies >= 2 * d.movecount {
                return Some(Ending::AdjudicatedDraw);
            }
        }
        None
    }
}

/// Reads `score cp X` / `score mate N` from an `info` line (principal line only).
pub fn parse_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    if let Some(i) = words.iter().position(|&w| w == "multipv")
        && words.get(i + 1).is_some_and(|&v| v != "1")
    {
        return None;
    }
    let i = words.iter().position(|&w| w == "score")?;
    let value: i64 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value.clamp(-999_999, 999_999) as i32),
        "mate" if value > 0 => Some(1_000_000),
        "mate" => Some(-1_000_000),
        _ => None,
    }
}

/// The `go` command for `side`, with the clocks of both sides that have one.
fn go_command(
    limits: BySide<&Limits>,
    clocks: &BySide<Option<Clock>>,
    side: Side,
    scratch: &mut String,
) {
    use std::fmt::Write;
    scratch.clear();
    scratch.push_str("go");
    let own = limits[side];
    if own.tc.is_some() {
        // w = defenders, b = attackers.
        for (s, t, i) in [
            (Side::Defenders, "wtime", "winc"),
            (Side::Attackers, "btime", "binc"),
        ] {
            if let (Some(c), Some(tc)) = (clocks[s], limits[s].tc) {
                let _ = write!(scratch, " {t} {}", c.left_ms.max(0));
                if tc.inc_ms > 0 {
                    let _ = write!(scratch, " {i} {}", tc.inc_ms);
                }
            }
        }
        if let Some(Some(m)) = clocks[side].map(|c| c.moves_left) {
            let _ = write!(scratch, " movestogo {m}");
        }
    }
    if let Some(st) = own.st_ms {
        let _ = write!(scratch, " movetime {st}");
    }
    if let Some(d) = own.depth {
        let _ = write!(scratch, " depth {d}");
    }
    if let Some(n) = own.nodes {
        let _ = write!(scratch, " nodes {n}");
    }
}

/// The game so far, filled in by [`referee`].
struct Played {
    game: Game,
    moves: Vec<Move>,
    times_ms: Vec<u64>,
    scores: Vec<Option<i32>>,
    overhead: Duration,
    overhead_samples: u32,
}

/// Plays one game. Engines are started (or restarted) as needed and left running for the next
/// game unless they failed. `None` when the match was stopped before the game ended.
pub fn play(
    ctx: &Context,
    job: Job,
    slots: &mut [Option<EngineProcess>],
    note: &dyn Fn(String),
) -> Option<Outcome> {
    let started = Instant::now();
    let mut played = Played {
        game: ctx.openings[job.opening].game.clone(),
        moves: Vec::new(),
        times_ms: Vec::new(),
        scores: Vec::new(),
        overhead: Duration::ZERO,
        overhead_samples: 0,
    };
    let (ending, reason) = referee(ctx, job, slots, note, &mut played)?;
    Some(Outcome {
        job,
        ending,
        reason,
        plies: played.game.board().plies(),
        moves: played.moves,
        times_ms: played.times_ms,
        scores: played.scores,
        overhead: played.overhead,
        overhead_samples: played.overhead_samples,
        duration: started.elapsed(),
    })
}

/// Runs the game to its end and returns how it ended; `None` when the match stops first.
fn referee(
    ctx: &Context,
    job: Job,
    slots: &mut [Option<EngineProcess>],
    note: &dyn Fn(String),
    played: &mut Played,
) -> Option<(Ending, String)> {
    let cfg = &ctx.config;
    let opening = &ctx.openings[job.opening];
    let names = BySide::new(
        cfg.engines[job.sides[Side::Attackers]].name.as_str(),
        cfg.engines[job.sides[Side::Defenders]].name.as_str(),
    );
    let Played {
        game,
        moves,
        times_ms,
        scores,
        overhead,
        overhead_samples,
    } = played;
    let forfeit = |side: Side, fault: Fault, detail: &str| -> (Ending, String) {
        let what = match fault {
            Fault::Time => "lose on time",
            Fault::Crash => "lose: the engine crashed",
            Fault::Illegal => "lose by an illegal move",
            Fault::Protocol => "lose by a protocol error",
        };
        (
            Ending::Forfeit { side, fault },
            format!("{side} ({}) {what}: {detail}", names[side]),
        )
    };

    // Start-up, then a new game for both.
    for side in Side::BOTH {
        let idx = job.sides[side];
        if ctx.stop.load(Ordering::Relaxed) {
            return None;
        }
        let result = ensure_started(ctx, idx, slots).and_then(|_| {
            let e = slots[idx].as_mut().expect("just started");
            let fail = |f: Failure| match f {
                Failure::Exited(how) => (Fault::Crash, how),
                Failure::Timeout => (
                    Fault::Protocol,
                    format!(
                        "no readyok within {} s of ucinewgame",
                        cfg.startup_timeout.as_secs_f64()
                    ),
                ),
                Failure::Aborted => (Fault::Protocol, "aborted".into()),
            };
            e.send("ucinewgame").map_err(fail)?;
            e.sync(cfg.startup_timeout, &ctx.stop).map_err(fail)
        });
        if let Err((fault, detail)) = result {
            if ctx.stop.load(Ordering::Relaxed) {
                return None;
            }
            slots[idx] = None;
            note(format!(
                "game {}: {} failed to start ({detail}); it will be restarted",
                job.number, names[side]
            ));
            let (ending, reason) = forfeit(side, fault, &format!("start-up failed: {detail}"));
            return Some((ending, reason));
        }
    }

    let limits = BySide::new(
        &cfg.engines[job.sides[Side::Attackers]].limits,
        &cfg.engines[job.sides[Side::Defenders]].limits,
    );
    let mut clocks: BySide<Option<Clock>> = BySide::new(None, None);
    for side in Side::BOTH {
        clocks[side] = limits[side].tc.map(|tc| Clock {
            left_ms: tc.base_ms as i64,
            moves_left: tc.moves,
        });
    }
    let mut adjudicator = Adjudicator::default();
    let mut go = String::with_capacity(96);
    let mut last_answer: Option<Instant> = None;

    loop {
        let status = game.status();
        if status.is_over() {
            return Some((Ending::Rules(status), status.to_string()));
        }
        let side = game.board().side_to_move();
        let idx = job.sides[side];
        let own = limits[side];
        let position = opening.position_command(moves);
        go_command(limits, &clocks, side, &mut go);
        let engine = slots[idx].as_mut().expect("engines run during a game");

        // The deadline: the clock (or move time) plus the margin, or the hard move timeout.
        let mut allowed_ms: Option<u64> = None;
        if let Some(c) = clocks[side] {
            allowed_ms = Some(c.left_ms.max(0) as u64 + own.margin_ms);
        }
        if let Some(st) = own.st_ms {
            let a = st + own.margin_ms;
            allowed_ms = Some(allowed_ms.map_or(a, |b| b.min(a)));
        }

        // The engine's time starts once `go` is written; the runner's overhead is the time
        // from the last answer to here.
        engine.drain();
        let sent = engine.send(&position).and_then(|_| engine.send(&go));
        let t_go = Instant::now();
        if let Some(t) = last_answer {
            *overhead += t_go.saturating_duration_since(t);
            *overhead_samples += 1;
        }
        let deadline = t_go
            + match allowed_ms {
                Some(ms) => Duration::from_millis(ms),
                None => cfg.move_timeout,
            };

        let mut score: Option<i32> = None;
        let reply = sent.and_then(|_| {
            loop {
                let (t, line) = engine.recv(deadline, &ctx.stop)?;
                if line.starts_with("info") {
                    if let Some(s) = parse_score(&line) {
                        score = Some(s);
                    }
                } else if line.split_whitespace().next() == Some("bestmove") {
                    break Ok((t, line));
                }
            }
        });
        let (t_answer, line) = match reply {
            Ok(r) => r,
            Err(Failure::Aborted) => return None,
            Err(Failure::Exited(how)) => {
                slots[idx] = None;
                note(format!(
                    "game {}: {} crashed ({how}); it will be restarted",
                    job.number, names[side]
                ));
                let (ending, reason) = forfeit(side, Fault::Crash, &how);
                return Some((ending, reason));
            }
            Err(Failure::Timeout) => {
                let detail = match allowed_ms {
                    Some(ms) => format!(
                        "no move within {} ms ({} ms allowed)",
                        t_go.elapsed().as_millis(),
                        ms
                    ),
                    None => format!(
                        "no move within the move timeout of {} s",
                        cfg.move_timeout.as_secs_f64()
                    ),
                };
                // Let it answer `stop`; an engine that does not is killed and restarted.
                let resynced = engine.send("stop").is_ok()
                    && engine
                        .wait_for("bestmove", Instant::now() + STOP_GRACE, &ctx.stop)
                        .is_ok();
                if !resynced {
                    slots[idx] = None;
                    note(format!(
                        "game {}: {} did not answer stop; it will be restarted",
                        job.number, names[side]
                    ));
                }
                let (ending, reason) = forfeit(side, Fault::Time, &detail);
                return Some((ending, reason));
            }
        };
        last_answer = Some(t_answer);

        // The clock.
        let used_ms = t_answer.saturating_duration_since(t_go).as_millis() as u64;
        if let Some(ms) = allowed_ms
            && used_ms > ms
        {
            let detail = format!("used {used_ms} ms, {ms} ms allowed");
            let (ending, reason) = forfeit(side, Fault::Time, &detail);
            return Some((ending, reason));
        }
        if let (Some(c), Some(tc)) = (clocks[side].as_mut(), own.tc) {
            c.left_ms = (c.left_ms - used_ms as i64).max(0) + tc.inc_ms as i64;
            if let Some(m) = c.moves_left.as_mut() {
                *m -= 1;
                if *m == 0 {
                    *m = tc.moves.unwrap_or(1);
                    c.left_ms += tc.base_ms as i64;
                }
            }
        }

        // The move.
        let text = line.split_whitespace().nth(1).unwrap_or("");
        if text.is_empty() || text == "(none)" || text == "0000" {
            let detail = format!(
                "'{}' in a live position ({} legal moves)",
                shorten(line.trim(), 60),
                game.board().count_moves(game.rules())
            );
            let (ending, reason) = forfeit(side, Fault::Protocol, &detail);
            return Some((ending, reason));
        }
        let mv = match game.board().parse_move(game.rules(), text) {
            Ok(mv) => mv,
            Err(why) => {
                let detail = shorten(&why, 120);
                let (ending, reason) = forfeit(side, Fault::Illegal, &detail);
                return Some((ending, reason));
            }
        };
        if let Err(e) = game.play(mv) {
            let detail = format!("{mv}: {e}");
            let (ending, reason) = forfeit(side, Fault::Illegal, &detail);
            return Some((ending, reason));
        }
        moves.push(mv);
        times_ms.push(used_ms);
        scores.push(score);

        if !game.status().is_over()
            && let Some(ending) =
                adjudicator.update(side, score, game.board().plies() / 2, cfg.resign, cfg.draw)
        {
            let reason = match &ending {
                Ending::Resigned { side } => format!(
                    "{} win by adjudication: {side} ({}) resigned, its score at or below -{} \
                     for {} moves",
                    side.opponent(),
                    names[*side],
                    cfg.resign.map_or(0, |r| r.score),
                    cfg.resign.map_or(0, |r| r.movecount)
                ),
                _ => format!(
                    "draw by adjudication: both scores within {} of 0 for {} moves each",
                    cfg.draw.map_or(0, |d| d.score),
                    cfg.draw.map_or(0, |d| d.movecount)
                ),
            };
            return Some((ending, reason));
        }
    }
}

/// A time control for the record's `time-control` tag, when both engines share one clock.
pub fn shared_time_control(config: &Config, job: &Job) -> Option<String> {
    let a = config.engines[job.sides[Side::Attackers]].limits.tc?;
    let d = config.engines[job.sides[Side::Defenders]].limits.tc?;
    (a == d && a.moves.is_none()).then(|| {
        format!(
            "{} 0/0 {}i",
            seconds_text(a.base_ms),
            seconds_text(a.inc_ms)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::config::TimeControl;

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(
            parse_score("info depth 5 score cp -37 nodes 100 pv d1d3"),
            Some(-37)
        );
        assert_eq!(
            parse_score("info depth 9 score mate 3 pv a1a2"),
            Some(1_000_000)
        );
        assert_eq!(parse_score("info score mate -2"), Some(-1_000_000));
        assert_eq!(parse_score("info depth 5 multipv 2 score cp 10"), None);
        assert_eq!(
            parse_score("info depth 5 multipv 1 score cp 10 lowerbound"),
            Some(10)
        );
        assert_eq!(parse_score("info string score cp x"), None);
        assert_eq!(parse_score("bestmove d1d3"), None);
    }

    #[test]
    fn go_commands_carry_both_clocks() {
        let tc = Limits {
            tc: Some(TimeControl::parse("5+0.05").unwrap()),
            ..Limits::default()
        };
        let depth = Limits {
            depth: Some(4),
            nodes: Some(1000),
            ..Limits::default()
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
        let mut s = String::new();
        go_command(BySide::new(&tc, &tc), &clocks, Side::Attackers, &mut s);
        assert_eq!(s, "go wtime 0 winc 50 btime 4000 binc 50");
        go_command(BySide::new(&tc, &depth), &clocks, Side::Defenders, &mut s);
        assert_eq!(s, "go depth 4 nodes 1000");
        let st = Limits {
            st_ms: Some(100),
            ..Limits::default()
        };
        go_command(
            BySide::new(&st, &st),
            &BySide::new(None, None),
            Side::Attackers,
            &mut s,
        );
        assert_eq!(s, "go movetime 100");
    }

    #[test]
    fn adjudication_needs_the_full_streak() {
        let resign = Some(Resign {
            movecount: 3,
            score: 500,
            twosided: false,
        });
        let mut a = Adjudicator::default();
        let att = Side::Attackers;
        assert_eq!(a.update(att, Some(-600), 10, resign, None), None);
        assert_eq!(a.update(att, Some(-600), 11, resign, None), None);
        assert_eq!(a.update(att, Some(-400), 12, resign, None), None);
        assert_eq!(a.update(att, Some(-600), 13, resign, None), None);
        assert_eq!(a.update(att, Some(-1_000_000), 14, resign, None), None);
        assert_eq!(
            a.update(att, Some(-700), 15, resign, None),
            Some(Ending::Resigned { side: att })
        );
        let draw = Some(DrawAdjudication {
            movenumber: 10,
            movecount: 2,
            score: 5,
        });
        let mut a = Adjudicator::default();
        for (i, side) in [att, att.opponent(), att, att.opponent()]
            .into_iter()
            .enumerate()
        {
            let r = a.update(side, Some(3), 5 + i as u32, None, draw);
            assert_eq!(r, None, "too early");
        }
        assert_eq!(
            a.update(att, Some(0), 10, None, draw),
            Some(Ending::AdjudicatedDraw)
        );
    }
}
