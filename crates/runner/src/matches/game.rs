//! One game between two engine processes, refereed by the library's rules: clocks, deadlines,
//! the verdict on every fault, and adjudication.

use super::config::{DrawAdjudication, MatchConfig, Opening, Resign, TimeControl};
use super::engine::{Failure, Log, shorten};
use super::players::{self, Clock, Fault, GameEnd, MoveRequest, Player};
use konakis_core::board::{Game, Status};
use konakis_core::types::{BySide, Move, Side};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The engines a worker keeps running, by engine index; `None` until started or after a
/// failure.
pub type Slots = [Option<Box<dyn Player>>];

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Number of the game in the schedule, from 1.
    pub number: usize,
    /// The pair it belongs to (the two games of a pair share the opening, sides swapped).
    pub pair: usize,
    /// Index of the pairing (in [`MatchConfig::pairings`]).
    pub pairing: usize,
    /// Index of the opening.
    pub opening: usize,
    /// Engine index playing each side.
    pub sides: BySide<usize>,
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

    /// How the game ended in one word: by the rules `escape`, `capture`, `encirclement`,
    /// `no-move`, `repetition` or `move-limit` ([`Status::ending`]); otherwise the
    /// [`Ending::category`] (`time`, `crash`, `illegal`, `protocol`, `adjudication`).
    pub fn how(&self) -> &'static str {
        match self {
            Ending::Rules(status) => status.ending().unwrap_or("rules"),
            _ => self.category(),
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
pub struct GameOutcome {
    /// What was played.
    pub job: Job,
    /// How it ended.
    pub ending: Ending,
    /// The reason in words, e.g. "defenders win: the king reached the edge".
    pub reason: String,
    /// The moves the engines played (after the opening's).
    pub moves: Vec<Move>,
    /// Each move's thinking time in milliseconds as charged: wall time, less the CPU wait
    /// forgiven of a late answer ([`GameOutcome::forgiven_ms`]).
    pub times_ms: Vec<u64>,
    /// Each move's score as its engine reported it (centi-soldiers, mates as ±1,000,000).
    pub scores: Vec<Option<i32>>,
    /// Plies on the final board (the opening's included).
    pub plies: u32,
    /// Time spent by the runner between an answer and the next `go`, summed.
    pub overhead: Duration,
    /// How many `go` commands followed an answer (the overhead's sample count).
    pub overhead_samples: u32,
    /// Per side, the milliseconds of late answers not charged because the engine's threads
    /// waited for a CPU ([`charged_ms`]).
    pub forgiven_ms: BySide<u64>,
    /// Wall time of the game.
    pub duration: Duration,
}

/// What every game of the match shares.
pub struct Context {
    /// The settings.
    pub config: MatchConfig,
    /// The openings (at least the start position).
    pub openings: Vec<Opening>,
    /// Set to abort games in progress and stop the match.
    pub stop: AtomicBool,
    /// The I/O log, if any.
    pub log: Option<Arc<Log>>,
}

/// Starts engine `idx` in `slots` if it is not running. The error says how it failed.
pub fn ensure_started(ctx: &Context, idx: usize, slots: &mut Slots) -> Result<(), (Fault, String)> {
    if slots[idx].is_none() {
        let spec = &ctx.config.engines[idx];
        slots[idx] = Some(players::start(
            &ctx.config,
            spec,
            ctx.log.clone(),
            &ctx.stop,
        )?);
    }
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

/// The game so far, filled in by [`referee`].
struct Played {
    game: Game,
    moves: Vec<Move>,
    times_ms: Vec<u64>,
    scores: Vec<Option<i32>>,
    overhead: Duration,
    overhead_samples: u32,
    forgiven_ms: BySide<u64>,
}

/// Plays one game. Engines are started (or restarted) as needed and left running for the next
/// game unless they failed. `None` when the match was stopped before the game ended.
pub fn play(
    ctx: &Context,
    job: Job,
    slots: &mut Slots,
    note: &dyn Fn(String),
) -> Option<GameOutcome> {
    let started = Instant::now();
    let mut played = Played {
        game: ctx.openings[job.opening].game.clone(),
        moves: Vec::new(),
        times_ms: Vec::new(),
        scores: Vec::new(),
        overhead: Duration::ZERO,
        overhead_samples: 0,
        forgiven_ms: BySide::new(0, 0),
    };
    let (ending, reason) = referee(ctx, job, slots, note, &mut played)?;
    let end = match ending.winner() {
        Some(side) => GameEnd::Win(side),
        None => GameEnd::Draw,
    };
    for side in Side::BOTH {
        if let Some(p) = slots[job.sides[side]].as_mut() {
            p.game_over(&played.game, end);
        }
    }
    Some(GameOutcome {
        job,
        ending,
        reason,
        plies: played.game.board().plies(),
        moves: played.moves,
        times_ms: played.times_ms,
        scores: played.scores,
        overhead: played.overhead,
        overhead_samples: played.overhead_samples,
        forgiven_ms: played.forgiven_ms,
        duration: started.elapsed(),
    })
}

/// What a move is charged, and what of it was forgiven, in milliseconds: the wall time from the
/// request to the answer, less the time the engine's threads waited for a CPU (`cpu_wait`)
/// when the answer came later than `allowed_ms` allows. An answer in time is charged its wall
/// time, as is every answer where nothing was measured.
pub fn charged_ms(wall_ms: u64, allowed_ms: Option<u64>, cpu_wait: Duration) -> (u64, u64) {
    match allowed_ms {
        Some(ms) if wall_ms > ms => {
            let forgiven = (cpu_wait.as_millis() as u64).min(wall_ms);
            (wall_ms - forgiven, forgiven)
        }
        _ => (wall_ms, 0),
    }
}

/// Runs the game to its end and returns how it ended; `None` when the match stops first.
fn referee(
    ctx: &Context,
    job: Job,
    slots: &mut Slots,
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
        forgiven_ms: forgiven,
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
            e.new_game(opening, &ctx.stop).map_err(|f| match f {
                Failure::Exited(how) => (Fault::Crash, how),
                Failure::Timeout => (
                    Fault::Protocol,
                    format!(
                        "not ready for a new game within {} s",
                        cfg.startup_timeout.as_secs_f64()
                    ),
                ),
                Failure::Aborted => (Fault::Protocol, "aborted".into()),
            })
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
    let mut last_answer: Option<Instant> = None;

    loop {
        let status = game.status();
        if status.is_over() {
            return Some((Ending::Rules(status), status.to_string()));
        }
        let side = game.board().side_to_move();
        let idx = job.sides[side];
        let own = limits[side];

        // The deadline: the clock (or move time) plus the margin, or the hard move timeout.
        let mut allowed_ms: Option<u64> = None;
        if let Some(c) = clocks[side] {
            allowed_ms = Some(c.left_ms.max(0) as u64 + own.margin_ms);
        }
        if let Some(st) = own.st_ms {
            let a = st + own.margin_ms;
            allowed_ms = Some(allowed_ms.map_or(a, |b| b.min(a)));
        }
        let engine = slots[idx].as_mut().expect("engines run during a game");
        // Some engines must not hear of the next move too soon after their own (OTEP's
        // settle=): that wait comes before the deadline is set, on no clock and not counted
        // as the runner's overhead.
        let settling = Instant::now();
        let settled = engine.settle(&ctx.stop);
        let now = Instant::now();
        let held = now - settling;
        let request = MoveRequest {
            opening,
            moves,
            game,
            limits,
            clocks,
            deadline: now
                + match allowed_ms {
                    Some(ms) => Duration::from_millis(ms),
                    None => cfg.move_timeout,
                },
        };
        let reply = settled.and_then(|()| engine.request_move(&request, &ctx.stop));
        let t_go = reply.as_ref().map_or(now, |a| a.sent);
        // The runner's overhead is the time from the last answer to the request.
        if let Some(t) = last_answer {
            *overhead += t_go.saturating_duration_since(t).saturating_sub(held);
            *overhead_samples += 1;
        }
        let answer = match reply {
            Ok(a) => a,
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
                        now.elapsed().as_millis(),
                        ms
                    ),
                    None => format!(
                        "no move within the move timeout of {} s",
                        cfg.move_timeout.as_secs_f64()
                    ),
                };
                // Let it stop thinking; an engine that does not is killed and restarted.
                if !engine.recover(&ctx.stop) {
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
        let t_answer = answer.arrived;
        let score = answer.score;
        last_answer = Some(t_answer);

        // The clock: wall time from the request to the answer; of a late answer, not the
        // time the engine's threads waited for a CPU (the machine's delay, not the engine's).
        let wall_ms = t_answer.saturating_duration_since(t_go).as_millis() as u64;
        let (used_ms, forgiven_ms) = charged_ms(wall_ms, allowed_ms, answer.cpu_wait);
        forgiven[side] += forgiven_ms;
        if let Some(ms) = allowed_ms
            && used_ms > ms
        {
            let detail = if forgiven_ms > 0 {
                format!(
                    "used {used_ms} ms ({wall_ms} ms less {forgiven_ms} ms waiting for a CPU), \
                     {ms} ms allowed"
                )
            } else {
                format!("used {used_ms} ms, {ms} ms allowed")
            };
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
        let text = answer.text.as_str();
        if text.is_empty() {
            let detail = format!(
                "'{}' in a live position ({} legal moves)",
                shorten(answer.line.trim(), 60),
                game.board().count_moves(game.rules())
            );
            let (ending, reason) = forfeit(side, Fault::Protocol, &detail);
            return Some((ending, reason));
        }
        let mv = match game.board().parse_move(game.rules(), text) {
            Ok(mv) => mv,
            Err(why) => {
                let detail = shorten(&why.to_string(), 120);
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
            && let Some(n) = cfg.maxmoves
            && moves.len() >= 2 * n as usize
        {
            let reason = format!(
                "draw by adjudication: {n} moves each played since the opening (--maxmoves)"
            );
            return Some((Ending::AdjudicatedDraw, reason));
        }
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

/// The clock for the record's time-control tags, when both engines share one plain clock.
pub fn shared_time_control(config: &MatchConfig, job: &Job) -> Option<TimeControl> {
    let a = config.engines[job.sides[Side::Attackers]].limits.tc?;
    let d = config.engines[job.sides[Side::Defenders]].limits.tc?;
    (a == d && a.moves.is_none()).then_some(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_late_answer_is_forgiven_its_cpu_wait() {
        let ms = Duration::from_millis;
        // In time: wall time, whatever the wait.
        assert_eq!(charged_ms(90, Some(100), ms(40)), (90, 0));
        assert_eq!(charged_ms(100, Some(100), ms(40)), (100, 0));
        // Late and starved: the wait comes off, enough to be in time here.
        assert_eq!(charged_ms(700, Some(350), ms(620)), (80, 620));
        // Late by its own doing: a small wait does not save it.
        assert_eq!(charged_ms(700, Some(350), ms(5)), (695, 5));
        // Never below zero; nothing measured, nothing forgiven; no limit, wall time.
        assert_eq!(charged_ms(400, Some(100), ms(900)), (0, 400));
        assert_eq!(charged_ms(700, Some(350), Duration::ZERO), (700, 0));
        assert_eq!(charged_ms(700, None, ms(600)), (700, 0));
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
