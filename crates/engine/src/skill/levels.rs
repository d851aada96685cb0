//! The strength levels' table ([`LEVELS`]: depth, nodes, lines, push and attention of each
//! level) and the calibrated curve that turns an Elo into a level ([`curve`], from
//! `levels.txt`).

use super::FULL_STRENGTH;
use std::sync::OnceLock;

/// How one level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelLimits {
    /// Deepest iteration.
    pub depth: u32,
    /// Most nodes per move.
    pub nodes: u64,
    /// Lines searched (MultiPV) to choose among.
    pub lines: usize,
    /// Largest push, in centi-soldiers, a line's score is given before the largest is played.
    pub noise: i32,
    /// Pieces the level looks at (0: all): it chooses among the moves of this many of its
    /// pieces, drawn at random, as a beginner who looks at one piece at a time (a win is seen
    /// whatever piece makes it).
    pub attention: usize,
}

const fn level(depth: u32, nodes: u64, lines: usize, noise: i32) -> LevelLimits {
    LevelLimits {
        depth,
        nodes,
        lines,
        noise,
        attention: 0,
    }
}

/// A level that does not search: a win on the spot, else a glance at the board: a threat of
/// the opponent parried now and then, and a move (now and then a capture) of one of
/// `attention` pieces drawn at random (`Plan::glance`).
const fn glance(attention: usize) -> LevelLimits {
    LevelLimits {
        depth: 0,
        nodes: 0,
        lines: 0,
        noise: 0,
        attention,
    }
}

/// A level that looks one ply deep at every move of `attention` pieces.
const fn beginner(attention: usize, noise: i32) -> LevelLimits {
    LevelLimits {
        depth: 1,
        nodes: 20_000,
        lines: 256,
        noise,
        attention,
    }
}

/// A level whose search is bounded by its nodes alone.
const fn budget(nodes: u64, lines: usize, noise: i32) -> LevelLimits {
    level(30, nodes, lines, noise)
}

/// Levels 0 to 19, calibrated by `scripts/levels.py` (docs/levels.md). Level 0 does not search:
/// it takes a win on the spot, sometimes parries the opponent's threat of one and sometimes
/// takes a capture; otherwise it moves one of its pieces, drawn at random, at random.
/// Levels 1 to 7 look one ply deep at the moves of a few pieces with a large push (a forced
/// loss is only a bad move to them, and they see a forced win only with a piece they look
/// at); from level 8 ([`PARRY_LEVEL`](super::PARRY_LEVEL)) they search two plies over every
/// move and narrow their push; level 15 searches three plies; levels 16 to 19 search as deep as
/// a node budget that grows by about half from level to level allows, choosing between two
/// lines.
pub const LEVELS: [LevelLimits; FULL_STRENGTH as usize] = [
    glance(1),
    beginner(1, 8_000),
    beginner(1, 2_500),
    beginner(2, 2_600),
    beginner(3, 1_900),
    beginner(4, 1_500),
    beginner(6, 1_300),
    beginner(8, 1_000),
    level(2, 15_000, 24, 2_000),
    level(2, 15_000, 20, 1_000),
    level(2, 15_000, 20, 700),
    level(2, 15_000, 14, 460),
    level(2, 15_000, 12, 400),
    level(2, 15_000, 10, 250),
    level(2, 15_000, 8, 100),
    level(3, 15_000, 6, 120),
    budget(8_500, 2, 25),
    budget(15_000, 2, 18),
    budget(23_500, 2, 12),
    budget(37_000, 2, 6),
];

/// The calibrated curve: the Elo of each level, read from the data file `levels.txt`.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// `(level, Elo)`, by level.
    pub points: Vec<(u8, f64)>,
}

/// Why a curve file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurveError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: &'static str,
}

impl std::fmt::Display for CurveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "levels file, line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for CurveError {}

/// The curve built into the engine.
pub fn curve() -> &'static Curve {
    static CURVE: OnceLock<Curve> = OnceLock::new();
    CURVE.get_or_init(|| {
        Curve::parse(include_str!("../levels.txt")).expect("the built-in levels file is valid")
    })
}

impl Curve {
    /// Reads `level elo [error games]` lines (`#` starts a comment): every level from 0 to
    /// [`FULL_STRENGTH`] once, in order, with an Elo that rises with the level.
    pub fn parse(text: &str) -> Result<Curve, CurveError> {
        let mut points = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let err = |reason| CurveError {
                line: i + 1,
                reason,
            };
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let level: u8 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or(err("expected a level"))?;
            let elo: f64 = words
                .next()
                .and_then(|w| w.parse().ok())
                .filter(|e: &f64| e.is_finite())
                .ok_or(err("expected an Elo"))?;
            if usize::from(level) != points.len() {
                return Err(err("levels must run 0, 1, 2, ... in order"));
            }
            if let Some(&(_, last)) = points.last()
                && elo <= last
            {
                return Err(err("the Elo must rise with the level"));
            }
            points.push((level, elo));
        }
        if points.len() != usize::from(FULL_STRENGTH) + 1 {
            return Err(CurveError {
                line: text.lines().count(),
                reason: "every level from 0 to 20 is needed",
            });
        }
        Ok(Curve { points })
    }

    /// The `UCI_Elo` range: the Elo of level 0 and of full strength, rounded inwards.
    pub fn elo_range(&self) -> (i32, i32) {
        let lo = self.points[0].1.ceil() as i32;
        let hi = self.points[self.points.len() - 1].1.floor() as i32;
        (lo, hi)
    }

    /// The level, fractional between two calibrated ones, that plays at `elo` (linear between
    /// neighbouring levels; clamped to the curve).
    pub fn level_for(&self, elo: i32) -> f64 {
        let elo = f64::from(elo);
        let p = &self.points;
        if elo <= p[0].1 {
            return 0.0;
        }
        for w in p.windows(2) {
            let ((l0, e0), (_, e1)) = (w[0], w[1]);
            if elo <= e1 {
                return f64::from(l0) + (elo - e0) / (e1 - e0);
            }
        }
        f64::from(FULL_STRENGTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::PARRY_LEVEL;

    #[test]
    fn the_built_in_curve_parses_and_spans_every_level() {
        let c = curve();
        assert_eq!(c.points.len(), 21);
        let (lo, hi) = c.elo_range();
        assert!(lo < hi);
        assert_eq!(c.level_for(lo - 1000), 0.0);
        assert_eq!(c.level_for(hi + 1000), 20.0);
    }

    #[test]
    fn curve_files_are_checked() {
        let ok: String = (0..=20).map(|l| format!("{l} {}\n", l * 100)).collect();
        let c = Curve::parse(&format!("# comment\n{ok}")).unwrap();
        assert_eq!(c.elo_range(), (0, 2000));
        assert!((c.level_for(250) - 2.5).abs() < 1e-9);
        assert_eq!(c.level_for(2000), 20.0);
        let falling = ok.replace("3 300", "3 150");
        assert_eq!(
            Curve::parse(&falling).unwrap_err().reason,
            "the Elo must rise with the level"
        );
        let gap = ok.replace("3 300\n", "");
        assert!(Curve::parse(&gap).is_err());
        let short: String = (0..20).map(|l| format!("{l} {}\n", l * 100)).collect();
        assert!(Curve::parse(&short).is_err());
        assert!(Curve::parse(&ok.replace("4 400", "4 x")).is_err());
    }

    #[test]
    fn levels_get_no_weaker_as_they_climb() {
        for w in LEVELS.windows(2) {
            assert!(w[1].depth >= w[0].depth, "{w:?}");
            let sees = |l: &LevelLimits| match l.attention {
                0 => usize::MAX,
                n => n,
            };
            assert!(sees(&w[1]) >= sees(&w[0]), "{w:?}");
            assert!(w[1].nodes >= w[0].nodes || w[1].depth > w[0].depth, "{w:?}");
            assert!(
                w[1].depth > w[0].depth
                    || sees(&w[1]) > sees(&w[0])
                    || w[1].nodes > w[0].nodes
                    || w[1].noise < w[0].noise,
                "a level must search deeper or more, look at more pieces or push less than the \
                 one below: {w:?}"
            );
        }
        assert!(LEVELS[usize::from(PARRY_LEVEL)].depth >= 2);
        assert!(LEVELS[usize::from(PARRY_LEVEL) - 1].depth < 2);
    }
}
