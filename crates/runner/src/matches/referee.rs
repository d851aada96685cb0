//! The referee's judgement of one game, without processes or clocks on the wall: the game,
//! both sides' clocks, adjudication and the record. The module `game` carries requests to
//! the engines and their answers; this module says what each answer (or failure) means: the
//! next move to ask for, or how the game ended ([`Ending`]).

use super::config::{DrawAdjudication, MatchConfig, Resign};
use super::engine::shorten;
use super::players::{Clock, Fault};
use crate::matches::config::MoveLimits;
use konakis_core::board::{GameOf, Status};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{BySide, MoveOf, Side};
use std::time::Duration;

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

/// What the referee needs of the match's settings.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    /// The engines' names, by side.
    pub names: BySide<String>,
    /// The engines' limits, by side.
    pub limits: BySide<MoveLimits>,
    /// The hard move timeout, for moves without a clock or move time.
    pub move_timeout: Duration,
    /// `--maxmoves`: a draw after this many moves each since the opening.
    pub maxmoves: Option<u32>,
    /// Resignation adjudication.
    pub resign: Option<Resign>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
}

impl RefereeSettings {
    /// The settings of `config` for a game with engine `sides[side]` playing each side.
    pub fn of(config: &MatchConfig, sides: BySide<usize>) -> RefereeSettings {
        let spec = |side: Side| &config.engines[sides[side]];
        RefereeSettings {
            names: BySide::new(
                spec(Side::Attackers).name.clone(),
                spec(Side::Defenders).name.clone(),
            ),
            limits: BySide::new(
                spec(Side::Attackers).limits.clone(),
                spec(Side::Defenders).limits.clone(),
            ),
            move_timeout: config.move_timeout,
            maxmoves: config.maxmoves,
            resign: config.resign,
            draw: config.draw,
        }
    }
}

/// The referee's ruling: how a game ended and the reason in words.
pub type Ruling = (Ending, String);

/// The move to ask for next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The side to move.
    pub side: Side,
    /// Milliseconds it may take (its clock or move time, plus the margin); `None` when only
    /// the move timeout applies.
    pub allowed_ms: Option<u64>,
}

/// An engine's answer as delivered to the referee, to be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery<'a> {
    /// Wall time from the request to the answer, in milliseconds.
    pub wall_ms: u64,
    /// How long the engine's threads waited for a CPU (forgiven of a late answer).
    pub cpu_wait: Duration,
    /// The move as the engine wrote it (empty when it gave none).
    pub text: &'a str,
    /// The whole answer, for messages.
    pub line: &'a str,
    /// The engine's score for the move.
    pub score: Option<i32>,
}

/// One game under judgement, on a board of size `G`.
pub struct Referee<G: Geometry = Nine> {
    /// The settings.
    pub settings: RefereeSettings,
    /// The game so far (the opening's moves included).
    pub game: GameOf<G>,
    /// The moves the engines played (after the opening's).
    pub moves: Vec<MoveOf<G>>,
    /// Each move's charged time in milliseconds.
    pub times_ms: Vec<u64>,
    /// Each move's score as its engine reported it.
    pub scores: Vec<Option<i32>>,
    /// Per side, the milliseconds of late answers forgiven ([`charged_ms`]).
    pub forgiven_ms: BySide<u64>,
    /// Both sides' clocks, for sides that have one.
    pub clocks: BySide<Option<Clock>>,
    adjudicator: Adjudicator,
}

impl<G: Geometry> Referee<G> {
    /// A game from `game` (the opening), with full clocks.
    pub fn new(settings: RefereeSettings, game: GameOf<G>) -> Referee<G> {
        let clock = |side: Side| {
            settings.limits[side].tc.map(|tc| Clock {
                left_ms: tc.base_ms as i64,
                moves_left: tc.moves,
            })
        };
        let clocks = BySide::new(clock(Side::Attackers), clock(Side::Defenders));
        Referee {
            settings,
            game,
            moves: Vec::new(),
            times_ms: Vec::new(),
            scores: Vec::new(),
            forgiven_ms: BySide::new(0, 0),
            clocks,
            adjudicator: Adjudicator::default(),
        }
    }

    /// `side` loses by `fault`; `detail` says what happened.
    pub fn forfeit(&self, side: Side, fault: Fault, detail: &str) -> Ruling {
        let what = match fault {
            Fault::Time => "lose on time",
            Fault::Crash => "lose: the engine crashed",
            Fault::Illegal => "lose by an illegal move",
            Fault::Protocol => "lose by a protocol error",
        };
        (
            Ending::Forfeit { side, fault },
            format!("{side} ({}) {what}: {detail}", self.settings.names[side]),
        )
    }

    /// The move to ask for, or the end of the game by the rules.
    pub fn next(&self) -> Result<Turn, Ruling> {
        let status = self.game.status();
        if status.is_over() {
            return Err((Ending::Rules(status), status.to_string()));
        }
        let side = self.game.board().side_to_move();
        let own = &self.settings.limits[side];
        // The deadline: the clock (or move time) plus the margin, or the hard move timeout.
        let mut allowed_ms = self.clocks[side].map(|c| c.left_ms.max(0) as u64 + own.margin_ms);
        if let Some(st) = own.st_ms {
            let a = st + own.margin_ms;
            allowed_ms = Some(allowed_ms.map_or(a, |b| b.min(a)));
        }
        Ok(Turn { side, allowed_ms })
    }

    /// The side to move gave no answer after `waited_ms`.
    pub fn on_timeout(&self, turn: Turn, waited_ms: u128) -> Ruling {
        let detail = match turn.allowed_ms {
            Some(ms) => format!("no move within {waited_ms} ms ({ms} ms allowed)"),
            None => format!(
                "no move within the move timeout of {} s",
                self.settings.move_timeout.as_secs_f64()
            ),
        };
        self.forfeit(turn.side, Fault::Time, &detail)
    }

    /// Charges the answer to the mover's clock, plays its move and adjudicates: `Some` when
    /// the game is over by a fault or adjudication (the rules' endings come from
    /// [`Referee::next`]).
    pub fn on_reply(&mut self, turn: Turn, reply: &Delivery) -> Option<Ruling> {
        let side = turn.side;
        // The clock: wall time from the request to the answer; of a late answer, not the
        // time the engine's threads waited for a CPU (the machine's delay, not the engine's).
        let wall_ms = reply.wall_ms;
        let (used_ms, forgiven_ms) = charged_ms(wall_ms, turn.allowed_ms, reply.cpu_wait);
        self.forgiven_ms[side] += forgiven_ms;
        if let Some(ms) = turn.allowed_ms
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
            return Some(self.forfeit(side, Fault::Time, &detail));
        }
        if let (Some(c), Some(tc)) = (self.clocks[side].as_mut(), self.settings.limits[side].tc) {
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
        let game = &mut self.game;
        if reply.text.is_empty() {
            let detail = format!(
                "'{}' in a live position ({} legal moves)",
                shorten(reply.line.trim(), 60),
                game.board().count_moves(game.rules())
            );
            return Some(self.forfeit(side, Fault::Protocol, &detail));
        }
        let mv = match game.board().parse_move(game.rules(), reply.text) {
            Ok(mv) => mv,
            Err(why) => {
                let detail = shorten(&why.to_string(), 120);
                return Some(self.forfeit(side, Fault::Illegal, &detail));
            }
        };
        if let Err(e) = game.play(mv) {
            let detail = format!("{mv}: {e}");
            return Some(self.forfeit(side, Fault::Illegal, &detail));
        }
        self.moves.push(mv);
        self.times_ms.push(used_ms);
        self.scores.push(reply.score);
        if self.game.status().is_over() {
            return None;
        }
        self.adjudicate(side, reply.score)
    }

    /// `--maxmoves`, then resignation and draw adjudication, after `side`'s move with `score`.
    fn adjudicate(&mut self, side: Side, score: Option<i32>) -> Option<Ruling> {
        let s = &self.settings;
        if let Some(n) = s.maxmoves
            && self.moves.len() >= 2 * n as usize
        {
            let reason = format!(
                "draw by adjudication: {n} moves each played since the opening (--maxmoves)"
            );
            return Some((Ending::AdjudicatedDraw, reason));
        }
        let full_moves = self.game.board().plies() / 2;
        let ending = self
            .adjudicator
            .update(side, score, full_moves, s.resign, s.draw)?;
        let reason = match &ending {
            Ending::Resigned { side } => format!(
                "{} win by adjudication: {side} ({}) resigned, its score at or below -{} \
                 for {} moves",
                side.opponent(),
                s.names[*side],
                s.resign.map_or(0, |r| r.score),
                s.resign.map_or(0, |r| r.movecount)
            ),
            _ => format!(
                "draw by adjudication: both scores within {} of 0 for {} moves each",
                s.draw.map_or(0, |d| d.score),
                s.draw.map_or(0, |d| d.movecount)
            ),
        };
        Some((ending, reason))
    }
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

    use crate::matches::config::TimeControl;
    use konakis_core::board::{Game, Status};
    use konakis_core::rules::Rules;

    /// Two engines with a 1 s + 0.1 s clock and a 50 ms margin; nothing adjudicated.
    fn settings() -> RefereeSettings {
        let limits = MoveLimits {
            tc: Some(TimeControl {
                moves: None,
                base_ms: 1000,
                inc_ms: 100,
            }),
            margin_ms: 50,
            ..MoveLimits::default()
        };
        RefereeSettings {
            names: BySide::new("att".to_string(), "def".to_string()),
            limits: BySide::new(limits.clone(), limits),
            move_timeout: Duration::from_secs(5),
            maxmoves: None,
            resign: None,
            draw: None,
        }
    }

    fn reply(text: &str, wall_ms: u64) -> Delivery<'_> {
        Delivery {
            wall_ms,
            cpu_wait: Duration::ZERO,
            text,
            line: text,
            score: Some(0),
        }
    }

    #[test]
    fn a_reply_is_charged_to_the_movers_clock_and_played() {
        let mut r = Referee::new(settings(), Game::start(Rules::default()));
        let turn = r.next().unwrap();
        assert_eq!(turn.side, Side::Attackers);
        assert_eq!(turn.allowed_ms, Some(1050), "the clock plus the margin");
        assert_eq!(r.on_reply(turn, &reply("d1d3", 300)), None);
        assert_eq!(r.clocks[Side::Attackers].unwrap().left_ms, 800);
        assert_eq!(r.clocks[Side::Defenders].unwrap().left_ms, 1000);
        assert_eq!((r.moves.len(), r.times_ms.as_slice()), (1, &[300][..]));
        let turn = r.next().unwrap();
        assert_eq!((turn.side, turn.allowed_ms), (Side::Defenders, Some(1050)));
    }

    #[test]
    fn faults_lose_with_their_reason() {
        let r = Referee::new(settings(), Game::start(Rules::default()));
        let turn = r.next().unwrap();
        let (ending, reason) = Referee::new(settings(), Game::start(Rules::default()))
            .on_reply(turn, &reply("d1d3", 1200))
            .unwrap();
        assert_eq!(
            ending,
            Ending::Forfeit {
                side: Side::Attackers,
                fault: Fault::Time
            }
        );
        assert_eq!(
            reason,
            "attackers (att) lose on time: used 1200 ms, 1050 ms allowed"
        );
        let mut r = Referee::new(settings(), Game::start(Rules::default()));
        let (ending, _) = r.on_reply(turn, &reply("d1d7", 10)).unwrap();
        assert_eq!(ending.category(), "illegal");
        let (ending, reason) = r.on_reply(turn, &reply("", 10)).unwrap();
        assert_eq!(ending.category(), "protocol");
        assert!(reason.contains("80 legal moves"), "{reason}");
        let (ending, reason) = r.on_timeout(turn, 1100);
        assert_eq!(ending.category(), "time");
        assert!(
            reason.ends_with("no move within 1100 ms (1050 ms allowed)"),
            "{reason}"
        );
        assert!(r.moves.is_empty());
    }

    #[test]
    fn the_rules_end_the_game_and_maxmoves_draws_it() {
        // The king on d5 escapes to d9 (default rules): the rules' ending, from `next`.
        let board = konakis_core::Board::from_fen("9/9/9/9/3K5/9/9/9/b8 w").unwrap();
        let mut r = Referee::new(settings(), Game::new(Rules::default(), board));
        let turn = r.next().unwrap();
        assert_eq!(r.on_reply(turn, &reply("d5d9", 10)), None);
        let (ending, _) = r.next().unwrap_err();
        assert!(matches!(
            ending,
            Ending::Rules(Status::Win(Side::Defenders, _))
        ));
        let mut r = Referee::new(
            RefereeSettings {
                maxmoves: Some(1),
                ..settings()
            },
            Game::start(Rules::default()),
        );
        let turn = r.next().unwrap();
        assert_eq!(r.on_reply(turn, &reply("d1d3", 10)), None);
        let turn = r.next().unwrap();
        let (ending, reason) = r.on_reply(turn, &reply("c5c3", 10)).unwrap();
        assert_eq!(ending, Ending::AdjudicatedDraw);
        assert!(reason.contains("--maxmoves"), "{reason}");
    }
}
