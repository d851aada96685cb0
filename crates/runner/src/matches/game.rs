//! One game between two engine processes: starting them, asking for moves within the
//! deadlines and handling their failures. What each answer means (clocks, the verdict on every
//! fault, adjudication) is the [`Referee`]'s, in [`referee`](super::referee).

use super::config::{MatchConfig, Opening, TimeControl};
use super::engine::{Failure, Log};
use super::players::{self, Fault, GameEnd, MoveRequest, Player};
use super::referee::{Delivery, Ending, Referee, RefereeSettings, Ruling};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{BySide, MoveOf, Side};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The engines a worker keeps running, by engine index; `None` until started or after a
/// failure.
pub type Slots<G> = [Option<Box<dyn Player<G>>>];

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

/// A finished game, on a board of size `G`.
#[derive(Clone, Debug)]
pub struct GameOutcome<G: Geometry = Nine> {
    /// What was played.
    pub job: Job,
    /// How it ended.
    pub ending: Ending,
    /// The reason in words, e.g. "defenders win: the king reached the edge".
    pub reason: String,
    /// The moves the engines played (after the opening's).
    pub moves: Vec<MoveOf<G>>,
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

/// What every game of the match shares, on a board of size `G`.
pub struct Context<G: Geometry = Nine> {
    /// The settings.
    pub config: MatchConfig,
    /// The openings (at least the start position).
    pub openings: Vec<Opening<G>>,
    /// Set to abort games in progress and stop the match.
    pub stop: AtomicBool,
    /// The I/O log, if any.
    pub log: Option<Arc<Log>>,
}

/// Starts engine `idx` in `slots` if it is not running. The error says how it failed.
pub fn ensure_started<G: Geometry>(
    ctx: &Context<G>,
    idx: usize,
    slots: &mut Slots<G>,
) -> Result<(), (Fault, String)> {
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

pub use super::referee::charged_ms;

/// Plays one game. Engines are started (or restarted) as needed and left running for the next
/// game unless they failed. `None` when the match was stopped before the game ended.
pub fn play<G: Geometry>(
    ctx: &Context<G>,
    job: Job,
    slots: &mut Slots<G>,
    note: &dyn Fn(String),
) -> Option<GameOutcome<G>> {
    let started = Instant::now();
    let settings = RefereeSettings::of(&ctx.config, job.sides);
    let mut referee = Referee::new(settings, ctx.openings[job.opening].game.clone());
    let mut overhead = Overhead::default();
    let (ending, reason) = run(ctx, job, slots, note, &mut referee, &mut overhead)?;
    let end = match ending.winner() {
        Some(side) => GameEnd::Win(side),
        None => GameEnd::Draw,
    };
    for side in Side::BOTH {
        if let Some(p) = slots[job.sides[side]].as_mut() {
            p.game_over(&referee.game, end);
        }
    }
    Some(GameOutcome {
        job,
        ending,
        reason,
        plies: referee.game.board().plies(),
        moves: referee.moves,
        times_ms: referee.times_ms,
        scores: referee.scores,
        overhead: overhead.total,
        overhead_samples: overhead.samples,
        forgiven_ms: referee.forgiven_ms,
        duration: started.elapsed(),
    })
}

/// The runner's own time between an answer and the next request.
#[derive(Default)]
struct Overhead {
    total: Duration,
    samples: u32,
}

/// Runs the game to its end and returns how it ended; `None` when the match stops first. The
/// engines' processes are handled here, their answers judged by the [`Referee`].
fn run<G: Geometry>(
    ctx: &Context<G>,
    job: Job,
    slots: &mut Slots<G>,
    note: &dyn Fn(String),
    referee: &mut Referee<G>,
    overhead: &mut Overhead,
) -> Option<Ruling> {
    let cfg = &ctx.config;
    let opening = &ctx.openings[job.opening];
    let name = |side: Side| cfg.engines[job.sides[side]].name.as_str();

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
                job.number,
                name(side)
            ));
            return Some(referee.forfeit(side, fault, &format!("start-up failed: {detail}")));
        }
    }

    let mut last_answer: Option<Instant> = None;
    loop {
        let turn = match referee.next() {
            Ok(turn) => turn,
            Err(verdict) => return Some(verdict),
        };
        let idx = job.sides[turn.side];
        let engine = slots[idx].as_mut().expect("engines run during a game");
        // Some engines must not hear of the next move too soon after their own (OTEP's
        // settle=): that wait comes before the deadline is set, on no clock and not counted
        // as the runner's overhead.
        let settling = Instant::now();
        let settled = engine.settle(&ctx.stop);
        let now = Instant::now();
        let held = now - settling;
        let s = &referee.settings;
        let request = MoveRequest {
            opening,
            moves: &referee.moves,
            game: &referee.game,
            limits: BySide::new(&s.limits[Side::Attackers], &s.limits[Side::Defenders]),
            clocks: referee.clocks,
            deadline: now
                + match turn.allowed_ms {
                    Some(ms) => Duration::from_millis(ms),
                    None => cfg.move_timeout,
                },
        };
        let reply = settled.and_then(|()| engine.request_move(&request, &ctx.stop));
        let t_go = reply.as_ref().map_or(now, |a| a.sent);
        // The runner's overhead is the time from the last answer to the request.
        if let Some(t) = last_answer {
            overhead.total += t_go.saturating_duration_since(t).saturating_sub(held);
            overhead.samples += 1;
        }
        let answer = match reply {
            Ok(a) => a,
            Err(Failure::Aborted) => return None,
            Err(Failure::Exited(how)) => {
                slots[idx] = None;
                note(format!(
                    "game {}: {} crashed ({how}); it will be restarted",
                    job.number,
                    name(turn.side)
                ));
                return Some(referee.forfeit(turn.side, Fault::Crash, &how));
            }
            Err(Failure::Timeout) => {
                let verdict = referee.on_timeout(turn, now.elapsed().as_millis());
                // Let it stop thinking; an engine that does not is killed and restarted.
                if !engine.recover(&ctx.stop) {
                    slots[idx] = None;
                    note(format!(
                        "game {}: {} did not answer stop; it will be restarted",
                        job.number,
                        name(turn.side)
                    ));
                }
                return Some(verdict);
            }
        };
        last_answer = Some(answer.arrived);
        let reply = Delivery {
            wall_ms: answer.arrived.saturating_duration_since(t_go).as_millis() as u64,
            cpu_wait: answer.cpu_wait,
            text: &answer.text,
            line: &answer.line,
            score: answer.score,
        };
        if let Some(verdict) = referee.on_reply(turn, &reply) {
            return Some(verdict);
        }
    }
}

/// The clock for the record's time-control tags, when both engines share one plain clock.
pub fn shared_time_control(config: &MatchConfig, job: &Job) -> Option<TimeControl> {
    let a = config.engines[job.sides[Side::Attackers]].limits.tc?;
    let d = config.engines[job.sides[Side::Defenders]].limits.tc?;
    (a == d && a.moves.is_none()).then_some(a)
}
