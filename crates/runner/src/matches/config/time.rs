//! Time: clocks (`tc=`), fixed move times (`st=`) and the other limits on an engine's moves.

use std::fmt;

/// A clock: `base` for the whole game (or for every `moves` moves), plus `inc` per move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Moves per period (`moves/…`); `None` = the whole game.
    pub moves: Option<u32>,
    /// Time per period in milliseconds.
    pub base_ms: u64,
    /// Increment per move in milliseconds.
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`; seconds may be fractional or written `m:ss`.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |problem| TimeControlError {
            text: text.to_string(),
            problem,
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m.parse().map_err(|_| bad(TimeControlProblem::Moves))?;
                if m == 0 {
                    return Err(bad(TimeControlProblem::NoMoves));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = min.parse().map_err(|_| bad(TimeControlProblem::Minutes))?;
                let sec = parse_seconds(sec).ok_or_else(|| bad(TimeControlProblem::Seconds))?;
                min * 60_000 + sec
            }
            None => parse_seconds(base).ok_or_else(|| bad(TimeControlProblem::Time))?,
        };
        if base_ms == 0 {
            return Err(bad(TimeControlProblem::NoTime));
        }
        let inc_ms = match inc {
            Some(i) => parse_seconds(i).ok_or_else(|| bad(TimeControlProblem::Increment))?,
            None => 0,
        };
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

/// A text that is not a time control ([`TimeControl::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control '{text}': {problem} (e.g. 10+0.1 or 40/60)")]
pub struct TimeControlError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: TimeControlProblem,
}

/// What is wrong with a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlProblem {
    /// The part before `/` is not a number.
    #[error("moves before '/' must be a number")]
    Moves,
    /// `0/…`.
    #[error("moves per period must be at least 1")]
    NoMoves,
    /// The part before `:` is not a number.
    #[error("minutes must be a number")]
    Minutes,
    /// The part after `:` is not seconds.
    #[error("bad seconds")]
    Seconds,
    /// The time is not seconds.
    #[error("the time must be seconds")]
    Time,
    /// The time is 0.
    #[error("the time must be positive")]
    NoTime,
    /// The part after `+` is not seconds.
    #[error("the increment must be seconds")]
    Increment,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", seconds_text(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", seconds_text(self.inc_ms))?;
        }
        Ok(())
    }
}

/// Milliseconds as seconds without trailing zeros: 5000 → "5", 50 → "0.05".
pub fn seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

/// Non-negative decimal seconds to milliseconds.
pub(super) fn parse_seconds(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..1e9).contains(&s)).then(|| (s * 1000.0).round() as u64)
}

/// The least default `timemargin=`, in milliseconds.
///
/// It covers what a loaded machine does to a move's time, not the engine: with more busy
/// threads than cores, an engine that stops on time can wait tens of milliseconds, now and
/// then a few hundred, for a CPU to write its answer on. Measured with `st=0.1` (the engine
/// stopping at 70 ms) at a load average of 7 to 10 on 2 cores, one move in a thousand was
/// 40 to 180 ms late and the latest of 10,000 moves up to 460 ms (docs/strength.md, "Time
/// forfeits under load").
pub const MIN_DEFAULT_MARGIN_MS: u64 = 250;

/// The `timemargin=` of an engine that gives none: a tenth of its time per move, at least
/// [`MIN_DEFAULT_MARGIN_MS`]. The time per move is `st=`, or for a clock the period's time
/// shared over its moves (40 for a whole game) plus the increment, so that only long
/// controls (longer than `st=2.5` or `tc=100`) get more than the least margin.
pub fn default_margin_ms(tc: Option<TimeControl>, st_ms: Option<u64>) -> u64 {
    let per_move = match (st_ms, tc) {
        (Some(st), _) => st,
        (None, Some(tc)) => tc.base_ms / tc.moves.unwrap_or(40) as u64 + tc.inc_ms,
        (None, None) => 0,
    };
    (per_move / 10).max(MIN_DEFAULT_MARGIN_MS)
}

/// How an engine's moves are limited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// A game clock.
    pub tc: Option<TimeControl>,
    /// A fixed time per move in milliseconds (`go movetime`).
    pub st_ms: Option<u64>,
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
    /// How far past its time an engine may answer before it forfeits, in milliseconds.
    pub margin_ms: u64,
}

impl MoveLimits {
    /// A short description, e.g. `tc=5+0.05` or `depth=4`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(st) = self.st_ms {
            parts.push(format!("st={}", seconds_text(st)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_margin_is_a_tenth_of_a_move_and_at_least_the_least() {
        let tc = |t: &str| Some(TimeControl::parse(t).unwrap());
        assert_eq!(default_margin_ms(None, Some(100)), MIN_DEFAULT_MARGIN_MS);
        assert_eq!(default_margin_ms(tc("1+0.01"), None), MIN_DEFAULT_MARGIN_MS);
        assert_eq!(default_margin_ms(tc("10+0.1"), None), MIN_DEFAULT_MARGIN_MS);
        assert_eq!(default_margin_ms(None, Some(5000)), 500);
        assert_eq!(default_margin_ms(None, Some(30_000)), 3000);
        // 40 moves in 120 s: 3 s a move; a whole game of 200 s with 1 s a move: 6 s.
        assert_eq!(default_margin_ms(tc("40/120"), None), 300);
        assert_eq!(default_margin_ms(tc("200+1"), None), 600);
        // st= decides when both are given; depth or nodes alone get the least margin.
        assert_eq!(
            default_margin_ms(tc("200+1"), Some(100)),
            MIN_DEFAULT_MARGIN_MS
        );
        assert_eq!(default_margin_ms(None, None), MIN_DEFAULT_MARGIN_MS);
    }

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("5+0.05").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 5000, 50));
        assert_eq!(tc.to_string(), "5+0.05");
        let tc = TimeControl::parse("40/1:30+1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 90_000, 1000));
        assert_eq!(tc.to_string(), "40/90+1");
        assert_eq!(TimeControl::parse("0.5").unwrap().base_ms, 500);
        for bad in ["", "x", "5+", "0", "-1", "0/10", "5+-1", "1:xx"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let e = TimeControl::parse("0/10").unwrap_err();
        assert_eq!(e.problem, TimeControlProblem::NoMoves);
        assert_eq!(
            e.to_string(),
            "bad time control '0/10': moves per period must be at least 1 (e.g. 10+0.1 or 40/60)"
        );
    }
}
