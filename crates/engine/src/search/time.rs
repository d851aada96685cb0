//! Time management: how long to think about one move under a clock ([`budget`]), and, while
//! the search deepens, whether to start another iteration ([`TimeManager`]).

use super::Limits;
use crate::Size;
use konakis_core::types::Side;
use std::time::Duration;

/// The time a search may take: it stops starting new iterations after `soft` (scaled by how
/// settled the best move is) and stops outright at `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim: do not start a new iteration after this much time (before scaling).
    pub soft: Duration,
    /// Never think longer than this.
    pub hard: Duration,
}

/// Moves a game is assumed still to last when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u64 = 25;

/// The budget for `side` to move under `limits`, keeping `overhead_ms` per move in reserve for
/// communication. `None` when the search is not timed (depth, nodes, mate or infinite).
pub fn budget<G: Size>(limits: &Limits<G>, side: Side, overhead_ms: u64) -> Option<Budget> {
    if let Some(mt) = limits.movetime {
        // The overhead is kept in reserve, but never more than half the time given.
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms.min(mt / 2)).max(1));
        return Some(Budget { soft: t, hard: t });
    }
    let (time, inc) = match side {
        Side::Defenders => (limits.wtime, limits.winc.unwrap_or(0)),
        Side::Attackers => (limits.btime, limits.binc.unwrap_or(0)),
    };
    // A clock without the mover's time (`go wtime 1000` with the attackers to move, `go
    // movestogo 5`) counts as a clock at zero, as UCI engines read it: answer at once rather
    // than search without end.
    let time = match time {
        Some(t) => t,
        None if limits.has_clock() => 0,
        None => return None,
    };
    // What may be spent at all: the clock minus the overhead reserve and a 5 % safety margin.
    let usable = time
        .saturating_sub(overhead_ms)
        .saturating_sub(time / 20)
        .max(1);
    let mtg = limits
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 1000) as u64);
    let share = time / mtg + inc * 3 / 4;
    let soft = share.min(usable / 2).max(1);
    // With one move to go the whole usable time may go; otherwise at most a third of it.
    let cap = if mtg == 1 { usable } else { usable / 3 };
    let hard = (soft * 4).min(cap).max(soft.min(usable));
    Some(Budget {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    })
}

/// The soft time limit: no new iteration after this share of it, scaled below.
const SOFT_SHARE: f64 = 0.6;
/// Iterations in a row with the same best move after which the search counts as settled.
const SETTLED_ITERATIONS: u32 = 3;
/// The soft limit's scale when the search has settled, and when the best move has just changed.
const SETTLED_SCALE: f64 = 0.6;
const CHANGED_SCALE: f64 = 1.4;
/// A fall of the best score by more than this (centi-soldiers) in one iteration extends the
/// soft limit by [`FALLING_SCALE`].
const FALLING_DROP: i32 = 30;
const FALLING_SCALE: f64 = 1.5;

/// Whether a timed search starts another iteration (Stockfish's `TimeManagement`): the soft
/// limit of its [`Budget`] scaled by how settled the search is. Iterative deepening tells it
/// of each completed iteration and asks it before starting the next one: a best move that has
/// held for several iterations stops the search early, a best move that has just changed or a
/// falling score lets it think longer.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TimeManager {
    /// Completed iterations in a row whose best move was the one before.
    stable_iterations: u32,
    /// How far the best score fell in the last iteration (negative for a rise).
    score_drop: i32,
}

impl TimeManager {
    /// Records a completed iteration: whether its best move is the one the search had before
    /// it, and how far the best score fell since the iteration before.
    pub(super) fn iteration_done(&mut self, same_best_move: bool, score_drop: i32) {
        if same_best_move {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
        }
        self.score_drop = score_drop;
    }

    /// The factor on the soft limit after the iterations so far.
    fn scale(&self) -> f64 {
        let mut scale = if self.stable_iterations >= SETTLED_ITERATIONS {
            SETTLED_SCALE
        } else {
            1.0
        };
        if self.stable_iterations == 0 {
            scale = CHANGED_SCALE;
        }
        if self.score_drop > FALLING_DROP {
            scale *= FALLING_SCALE;
        }
        scale
    }

    /// Whether `elapsed_ms` into the search is too late to start another iteration under the
    /// soft limit `soft_ms` (`u64::MAX`: none, the search is not timed).
    pub(super) fn past_soft_limit(&self, elapsed_ms: u64, soft_ms: u64) -> bool {
        soft_ms != u64::MAX && elapsed_ms as f64 >= soft_ms as f64 * self.scale() * SOFT_SHARE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The size these tests play on.
    type Limits = crate::search::Limits<konakis_core::geometry::Nine>;

    /// A manager after `iterations`, each given as (same best move, score drop).
    fn after(iterations: &[(bool, i32)]) -> TimeManager {
        let mut manager = TimeManager::default();
        for &(same, drop) in iterations {
            manager.iteration_done(same, drop);
        }
        manager
    }

    /// The first millisecond (up to 10 s) at which `manager` stops starting iterations under a
    /// soft limit of 1,000 ms.
    fn soft_stop_ms(manager: &TimeManager) -> u64 {
        (0..10_000)
            .find(|&ms| manager.past_soft_limit(ms, 1_000))
            .expect("a stop within 10 s")
    }

    #[test]
    fn a_settled_best_move_stops_early_and_a_new_one_thinks_longer() {
        let unsettled = after(&[(false, 0), (true, 0)]);
        assert_eq!(soft_stop_ms(&unsettled), 600);
        let settled = after(&[(false, 0), (true, 0), (true, 0), (true, 0)]);
        assert_eq!(soft_stop_ms(&settled), 360);
        let changed = after(&[(false, 0), (true, 0), (true, 0), (true, 0), (false, 0)]);
        assert_eq!(soft_stop_ms(&changed), 840);
    }

    #[test]
    fn a_falling_score_thinks_longer() {
        assert_eq!(soft_stop_ms(&after(&[(false, 0), (true, 31)])), 900);
        assert_eq!(soft_stop_ms(&after(&[(false, 0), (true, 30)])), 600);
        assert_eq!(soft_stop_ms(&after(&[(false, 0), (true, -200)])), 600);
        assert_eq!(soft_stop_ms(&after(&[(false, 40)])), 1260);
    }

    #[test]
    fn without_a_soft_limit_the_manager_never_stops() {
        let settled = after(&[(true, 0); 5]);
        assert!(!settled.past_soft_limit(u64::MAX - 1, u64::MAX));
        assert!(!settled.past_soft_limit(0, u64::MAX));
    }

    fn clock(wtime: u64, btime: u64, inc: u64) -> Limits {
        Limits {
            wtime: Some(wtime),
            btime: Some(btime),
            winc: Some(inc),
            binc: Some(inc),
            ..Limits::default()
        }
    }

    #[test]
    fn untimed_searches_have_no_budget() {
        assert_eq!(budget(&Limits::default(), Side::Attackers, 10), None);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, Side::Defenders, 10), None);
    }

    #[test]
    fn a_clock_without_the_movers_time_gives_the_least_budget() {
        let least = Some(Budget {
            soft: Duration::from_millis(1),
            hard: Duration::from_millis(1),
        });
        let defenders_clock = Limits {
            wtime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budget(&defenders_clock, Side::Attackers, 30), least);
        assert!(defenders_clock.mover_time_missing(Side::Attackers));
        assert!(!defenders_clock.mover_time_missing(Side::Defenders));
        let increments = Limits {
            winc: Some(100),
            binc: Some(100),
            ..Limits::default()
        };
        assert_eq!(budget(&increments, Side::Defenders, 30), least);
        let moves_to_go = Limits {
            movestogo: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&moves_to_go, Side::Attackers, 30), least);
        assert!(!Limits::default().mover_time_missing(Side::Attackers));
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = budget(&l, Side::Attackers, 30).unwrap();
        assert_eq!(b.soft, Duration::from_millis(970));
        assert_eq!(b.hard, Duration::from_millis(970));
    }

    #[test]
    fn a_short_movetime_keeps_at_least_half_of_it() {
        let l = Limits {
            movetime: Some(30),
            ..Limits::default()
        };
        assert_eq!(
            budget(&l, Side::Attackers, 30).unwrap().hard,
            Duration::from_millis(15)
        );
        let l = Limits {
            movetime: Some(1),
            ..Limits::default()
        };
        assert_eq!(
            budget(&l, Side::Attackers, 30).unwrap().hard,
            Duration::from_millis(1)
        );
    }

    #[test]
    fn each_side_reads_its_own_clock() {
        // w is the defenders' clock, b the attackers'.
        let l = clock(60_000, 1_000, 0);
        let def = budget(&l, Side::Defenders, 0).unwrap();
        let att = budget(&l, Side::Attackers, 0).unwrap();
        assert!(def.soft > att.soft * 10);
    }

    #[test]
    fn hard_limit_never_exceeds_the_clock() {
        for time in [1u64, 5, 50, 500, 5_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let l = Limits {
                        movestogo: mtg,
                        ..clock(time, time, inc)
                    };
                    let b = budget(&l, Side::Defenders, 10).unwrap();
                    assert!(b.soft <= b.hard, "{time} {inc} {mtg:?}: {b:?}");
                    let limit = time.saturating_sub(10).max(1);
                    assert!(
                        b.hard.as_millis() as u64 <= limit,
                        "{time} {inc} {mtg:?}: {b:?}"
                    );
                }
            }
        }
    }
}
