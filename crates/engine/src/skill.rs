//! Strength levels: `Skill Level` 0-19 plays weaker than full strength (20), and
//! `UCI_LimitStrength` with `UCI_Elo` picks a level from the calibrated curve in `levels.txt`
//! (written by `scripts/levels.py`; docs/levels.md).
//!
//! The search proper knows nothing of this. A level changes what a search is asked for and
//! which of its answers is played:
//!
//! 1. A move that wins on the spot (an escape, a king capture) is played at once, at every
//!    level, without a search. Level 0 searches nothing at all: otherwise it moves one of its
//!    pieces, drawn at random, at random ([`Plan::glance`]).
//! 2. Otherwise the search is capped at the level's depth and nodes (never above the `go`
//!    limits), and asked for the level's number of lines (MultiPV; only the lines the
//!    `MultiPV` option asks for are reported).
//! 3. From the lines of the last complete iteration, the move with the largest
//!    `score + noise` is played, the noise uniform in `0..=noise` centi-soldiers: a bounded
//!    push, so a move more than `noise` worse than the best is never played, whether the level
//!    is ahead or behind. The lowest levels ([`LevelLimits::attention`]) choose among the
//!    moves of only a few of their pieces, drawn at random, with a push that dwarfs the scores:
//!    beginners who take a win and otherwise hardly look.
//! 4. A forced result is never blurred: when the best line the level looks at wins, it is
//!    played (a beginner sees a forced win only with a piece it looks at); a line that loses
//!    by force is played only when every line does. From level [`PARRY_LEVEL`] up the
//!    search looks two plies deep, so a move that lets the king be taken (or, for the
//!    attackers, lets him escape) next move scores as a loss and is not played while a parry
//!    exists; below it such a line counts as [`BLIND_LOSS`].
//! 5. Should the caps end the search inside its first line, a random move after which the
//!    opponent cannot win on the spot is played.
//!
//! The noise comes from a seeded generator (SplitMix64): with `Skill Seed` 0 a new seed each
//! search, else one made from the seed and the position, so that the same game replays move
//! for move. A fractional level (from `UCI_Elo`, between two calibrated levels) plays each move
//! at the lower or the upper level, the upper with a probability of the fraction.

use crate::search::{Info, Limits, MATE, MATE_BOUND, Score};
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Square};
use std::sync::OnceLock;

/// The level that is full strength, the default of `Skill Level`.
pub const FULL_STRENGTH: u8 = 20;
/// From this level up a level looks at least two plies deep: it sees a king capture or an
/// escape that its move would allow next move, and parries it when it can.
pub const PARRY_LEVEL: u8 = 8;
/// What a line that loses by force counts as below [`PARRY_LEVEL`], in centi-soldiers: a bad
/// move, not an impossible one, so that the lowest levels, whose push is larger, still walk
/// into a loss now and then.
pub const BLIND_LOSS: i32 = 1_500;

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

/// A level that does not search: a win on the spot, else a random move of one of `attention`
/// pieces drawn at random ([`Plan::glance`]).
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
/// it takes a win on the spot and otherwise moves one of its pieces, drawn at random, at random.
/// Levels 1 to 7 look one ply deep at the moves of a few pieces with a large push (a forced
/// loss is only a bad move to them, and they see a forced win only with a piece they look
/// at); from level 8 ([`PARRY_LEVEL`]) they search two plies over every move and narrow their
/// push; level 15 searches three plies; levels 16 to 19 search as deep as a node budget that
/// grows by about half from level to level allows, choosing between two lines.
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

/// What the strength options say (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`,
/// `Skill Seed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// `Skill Level`, 0 to [`FULL_STRENGTH`].
    pub level: u8,
    /// `UCI_LimitStrength`: the level comes from `elo` instead.
    pub limit_strength: bool,
    /// `UCI_Elo`, on the scale of docs/levels.md.
    pub elo: i32,
    /// `Skill Seed`: 0 for a new seed every search, else the seed of a reproducible game.
    pub seed: u64,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill {
            level: FULL_STRENGTH,
            limit_strength: false,
            elo: curve().elo_range().0,
            seed: 0,
        }
    }
}

impl Skill {
    /// The level in force, fractional when `UCI_Elo` falls between two calibrated levels;
    /// `None` for full strength.
    pub fn strength(&self) -> Option<f64> {
        let level = if self.limit_strength {
            curve().level_for(self.elo)
        } else {
            f64::from(self.level)
        };
        (level < f64::from(FULL_STRENGTH)).then_some(level)
    }
}

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
        Curve::parse(include_str!("levels.txt")).expect("the built-in levels file is valid")
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

/// SplitMix64: small, fast, and its stream is fixed here, so that a seed means the same moves
/// in every build.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..=max` (`max` small: the bias of the modulo is negligible).
    pub fn up_to(&mut self, max: u32) -> u32 {
        (self.next_u64() % (u64::from(max) + 1)) as u32
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A seed that differs from search to search: the wall clock and a counter.
fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    #[cfg(not(target_family = "wasm"))]
    use std::time::{SystemTime, UNIX_EPOCH};
    #[cfg(target_family = "wasm")]
    use web_time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    SplitMix64::new(nanos ^ count.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// The plan of one weakened search: the level drawn for this move and the generator of its
/// choice.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The level this move is played at.
    pub level: u8,
    limits: LevelLimits,
    rng: SplitMix64,
}

impl Plan {
    /// The plan for a search of the position with Zobrist key `key` under `skill`, or `None`
    /// when this move is played at full strength (level 20, or a `go mate` search, which asks
    /// for analysis, not play).
    pub fn new(skill: &Skill, limits: &Limits, key: u64) -> Option<Plan> {
        let strength = skill.strength()?;
        if limits.mate.is_some() {
            return None;
        }
        let mut rng = SplitMix64::new(match skill.seed {
            0 => fresh_seed(),
            seed => seed ^ key.rotate_left(17),
        });
        let lower = strength.floor();
        let level = if rng.unit() < strength - lower {
            lower as u8 + 1
        } else {
            lower as u8
        };
        let limits = *LEVELS.get(usize::from(level))?;
        Some(Plan { level, limits, rng })
    }

    /// The level's limits.
    pub fn level_limits(&self) -> LevelLimits {
        self.limits
    }

    /// The `go` limits capped at the level's depth and nodes.
    pub fn limits(&self, limits: &Limits) -> Limits {
        let mut capped = limits.clone();
        capped.depth = Some(
            limits
                .depth
                .map_or(self.limits.depth, |d| d.min(self.limits.depth)),
        );
        capped.nodes = Some(
            limits
                .nodes
                .map_or(self.limits.nodes, |n| n.min(self.limits.nodes)),
        );
        capped
    }

    /// Lines to search when the `MultiPV` option asks for `shown`.
    pub fn lines(&self, shown: usize) -> usize {
        self.limits.lines.max(shown)
    }

    /// The move to play and its expected reply, from the search's `lines`; `None` if there
    /// are none.
    pub fn choose(&mut self, lines: &Lines) -> Option<(Move, Option<Move>)> {
        let lines = lines.best_set();
        // A level with a narrow attention sees only the lines of the pieces it looks at,
        // forced wins included.
        let seen = self.attend(lines);
        let looked: Vec<&(i32, Vec<Move>)> = lines
            .iter()
            .filter(|l| seen.is_empty() || seen.contains(&l.1[0].from()))
            .collect();
        let top = looked.iter().map(|l| l.0).max()?;
        let pick = if top.abs() >= MATE_BOUND {
            // A forced win is played as found (the quickest first); so is the longest
            // resistance when every line loses.
            *looked.iter().find(|l| l.0 == top)?
        } else {
            let mut best: Option<(i64, &(i32, Vec<Move>))> = None;
            // Below PARRY_LEVEL a forced loss is only a bad move among others.
            let floor = if self.level < PARRY_LEVEL {
                -BLIND_LOSS
            } else {
                -MATE
            };
            for &line in looked.iter().filter(|l| l.0 > -MATE_BOUND || floor > -MATE) {
                let score = line.0.max(floor);
                let value = i64::from(score) + i64::from(self.rng.up_to(self.limits.noise as u32));
                if best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, line));
                }
            }
            best?.1
        };
        Some((*pick.1.first()?, pick.1.get(1).copied()))
    }
}

impl Plan {
    /// The squares of the pieces the level looks at, drawn from those that move in `lines`
    /// (empty: all of them).
    fn attend(&mut self, lines: &[(i32, Vec<Move>)]) -> Vec<Square> {
        let mut pieces: Vec<Square> = Vec::new();
        for line in lines {
            if let Some(m) = line.1.first()
                && !pieces.contains(&m.from())
            {
                pieces.push(m.from());
            }
        }
        let want = self.limits.attention;
        if want == 0 || want >= pieces.len() {
            return Vec::new();
        }
        // A partial Fisher-Yates shuffle: the first `want` are a uniform draw.
        for i in 0..want {
            let j = i + self.rng.up_to((pieces.len() - 1 - i) as u32) as usize;
            pieces.swap(i, j);
        }
        pieces.truncate(want);
        pieces
    }
}

/// A move of `moves` that wins on the spot (an escape, a king capture, an encirclement): every
/// level plays it without searching.
pub fn winning_move(board: &Board, rules: &Rules, moves: &[Move]) -> Option<Move> {
    moves.iter().copied().find(|&m| {
        let mut after = *board;
        after.play(rules, m);
        after.is_won(rules)
    })
}

impl Plan {
    /// Whether this level plays without a search: a win on the spot if it has one, else
    /// [`Plan::glance`].
    pub fn glances(&self) -> bool {
        self.limits.depth == 0
    }

    /// The move of a level that does not search: one of `moves` (none of which wins on the
    /// spot) made by one of the level's [`LevelLimits::attention`] pieces, drawn at random,
    /// each piece and each of its moves alike.
    pub fn glance(&mut self, moves: &[Move]) -> Option<Move> {
        let mut pieces: Vec<Square> = Vec::new();
        for m in moves {
            if !pieces.contains(&m.from()) {
                pieces.push(m.from());
            }
        }
        let want = self.limits.attention.clamp(1, pieces.len().max(1));
        let mut chosen = Vec::with_capacity(want);
        while chosen.len() < want && !pieces.is_empty() {
            let i = self.rng.up_to(pieces.len() as u32 - 1) as usize;
            chosen.push(pieces.swap_remove(i));
        }
        let pool: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| chosen.contains(&m.from()))
            .collect();
        if pool.is_empty() {
            return None;
        }
        Some(pool[self.rng.up_to(pool.len() as u32 - 1) as usize])
    }

    /// A move for when the search finished no line at all (its node cap fell inside the
    /// first one): a random move of `moves` after which the opponent cannot win on the spot,
    /// if there is one, else any.
    pub fn fallback(&mut self, board: &Board, rules: &Rules, moves: &[Move]) -> Option<Move> {
        let safe: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = *board;
                after.play(rules, m);
                let replies = after.legal_moves(rules);
                winning_move(&after, rules, &replies).is_none()
            })
            .collect();
        let pool = if safe.is_empty() { moves } else { &safe };
        if pool.is_empty() {
            return None;
        }
        Some(pool[self.rng.up_to(pool.len() as u32 - 1) as usize])
    }
}

/// The lines a search reports, gathered iteration by iteration: the lines of the last
/// iteration that finished all of them are what a level chooses among.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// The last iteration with the most lines: `(score, line)`, internal scores.
    done: Vec<(i32, Vec<Move>)>,
    /// The lines of the iteration being reported.
    current: Vec<(i32, Vec<Move>)>,
}

impl Lines {
    /// Takes in one `info` report.
    pub fn take(&mut self, info: &Info) {
        if info.pv.is_empty() {
            return;
        }
        if info.multipv == 1 {
            self.settle();
            self.current.clear();
        }
        self.current.push((internal(info.score), info.pv.clone()));
    }

    /// Keeps the current iteration's lines if they are at least as many as the last kept.
    fn settle(&mut self) {
        if !self.current.is_empty() && self.current.len() >= self.done.len() {
            self.done = std::mem::take(&mut self.current);
        }
    }

    /// The lines chosen among: the deepest iteration that reported as many lines as any.
    fn best_set(&self) -> &[(i32, Vec<Move>)] {
        if !self.current.is_empty() && self.current.len() >= self.done.len() {
            &self.current
        } else {
            &self.done
        }
    }
}

/// A reported score back on the search's scale (a win in `n` moves is `MATE - (2n - 1)`).
fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE + 2 * n.abs(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ScoreBound;

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    fn info(multipv: u32, score: Score, pv: &[&str]) -> Info {
        Info {
            depth: 1,
            seldepth: 1,
            multipv,
            score,
            bound: ScoreBound::Exact,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: pv.iter().map(|m| mv(m)).collect(),
        }
    }

    fn plan(level: u8, seed: u64) -> Plan {
        let skill = Skill {
            level,
            seed,
            ..Skill::default()
        };
        Plan::new(&skill, &Limits::default(), 1).unwrap()
    }

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
    fn full_strength_and_mate_searches_have_no_plan() {
        let full = Skill::default();
        assert_eq!(full.strength(), None);
        assert!(Plan::new(&full, &Limits::default(), 1).is_none());
        let weak = Skill {
            level: 3,
            ..Skill::default()
        };
        let mate = Limits {
            mate: Some(2),
            ..Limits::default()
        };
        assert!(Plan::new(&weak, &mate, 1).is_none());
        assert_eq!(Plan::new(&weak, &Limits::default(), 1).unwrap().level, 3);
    }

    #[test]
    fn limit_strength_takes_the_level_from_the_elo() {
        let c = curve();
        let (e3, e4) = (c.points[3].1, c.points[4].1);
        let skill = Skill {
            level: 20,
            limit_strength: true,
            elo: ((e3 + e4) / 2.0).round() as i32,
            seed: 0,
        };
        let level = skill.strength().unwrap();
        assert!(level > 3.0 && level < 4.0, "{level}");
        // Each move is played at 3 or 4.
        let mut seen = [0; 21];
        for seed in 1..200 {
            let s = Skill { seed, ..skill };
            seen[usize::from(Plan::new(&s, &Limits::default(), 9).unwrap().level)] += 1;
        }
        assert!(seen[3] > 30 && seen[4] > 30, "{seen:?}");
        assert_eq!(seen[3] + seen[4], 199);
    }

    #[test]
    fn limits_are_capped_never_raised() {
        let p = plan(1, 1);
        let l = p.level_limits();
        let capped = p.limits(&Limits::default());
        assert_eq!((capped.depth, capped.nodes), (Some(l.depth), Some(l.nodes)));
        let tight = Limits {
            depth: Some(1),
            nodes: Some(10),
            movetime: Some(5),
            ..Limits::default()
        };
        let capped = p.limits(&tight);
        assert_eq!(
            (capped.depth, capped.nodes, capped.movetime),
            (Some(1), Some(10), Some(5))
        );
        assert_eq!(p.lines(1), l.lines);
        assert_eq!(p.lines(300), 300);
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

    #[test]
    fn a_win_is_played_and_a_forced_loss_avoided_whatever_the_noise() {
        for seed in 1..100 {
            let mut lines = Lines::default();
            lines.take(&info(1, Score::Mate(1), &["a1a2"]));
            lines.take(&info(2, Score::Cp(500), &["b1b2"]));
            assert_eq!(
                plan(PARRY_LEVEL, seed).choose(&lines).unwrap().0,
                mv("a1a2")
            );
            let mut lines = Lines::default();
            lines.take(&info(1, Score::Cp(-900), &["a1a2", "a2a3"]));
            lines.take(&info(2, Score::Mate(-1), &["b1b2"]));
            let (m, reply) = plan(PARRY_LEVEL, seed).choose(&lines).unwrap();
            assert_eq!((m, reply), (mv("a1a2"), Some(mv("a2a3"))));
        }
    }

    #[test]
    fn below_the_parry_level_a_forced_loss_is_only_a_bad_move() {
        // Two moves of one piece, so that what the level looks at does not matter.
        let mut lines = Lines::default();
        lines.take(&info(1, Score::Cp(0), &["a1a2"]));
        lines.take(&info(2, Score::Mate(-1), &["a1a3"]));
        let losing = |level| {
            (1..200)
                .filter(|&seed| plan(level, seed).choose(&lines).unwrap().0 == mv("a1a3"))
                .count()
        };
        // Level 1's push (8,000) often outweighs BLIND_LOSS; the last level below the parry
        // level pushes less than BLIND_LOSS and never plays the loss.
        assert!((30..100).contains(&losing(1)), "{} of 199", losing(1));
        assert_eq!(losing(PARRY_LEVEL - 1), 0);
        assert_eq!(losing(PARRY_LEVEL), 0);
    }

    #[test]
    fn a_beginner_sees_a_forced_win_only_with_a_piece_it_looks_at() {
        // Level 1 looks at one piece: the forced win with the other is played about half
        // the time; level 8 looks at all of them and always plays it.
        let mut lines = Lines::default();
        lines.take(&info(1, Score::Mate(2), &["a1a2"]));
        lines.take(&info(2, Score::Cp(0), &["b1b2"]));
        let wins = |level| {
            (1..200)
                .filter(|&seed| plan(level, seed).choose(&lines).unwrap().0 == mv("a1a2"))
                .count()
        };
        assert!((60..140).contains(&wins(1)), "{} of 199", wins(1));
        assert_eq!(wins(PARRY_LEVEL), 199);
    }

    #[test]
    fn level_0_glances_at_one_piece_and_moves_it_at_random() {
        let moves = [mv("a1a2"), mv("a1a3"), mv("a1a4"), mv("b1b2")];
        let mut seen = std::collections::HashMap::new();
        for seed in 1..400 {
            let mut p = plan(0, seed);
            assert!(p.glances());
            let m = p.glance(&moves).unwrap();
            *seen.entry(m).or_insert(0) += 1;
        }
        // The piece on b1 is drawn half the time although it has one move of four.
        assert!((150..250).contains(&seen[&mv("b1b2")]), "{seen:?}");
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert!(!plan(1, 1).glances());
        assert_eq!(plan(0, 1).glance(&[]), None);
    }

    #[test]
    fn the_push_is_bounded() {
        // The second line is further below the best than level 19's push reaches.
        let noise = LEVELS[19].noise;
        for seed in 1..200 {
            let mut lines = Lines::default();
            lines.take(&info(1, Score::Cp(0), &["a1a2"]));
            lines.take(&info(2, Score::Cp(-noise - 1), &["b1b2"]));
            assert_eq!(plan(19, seed).choose(&lines).unwrap().0, mv("a1a2"));
        }
    }

    #[test]
    fn a_seed_repeats_its_choice_and_seeds_differ() {
        let mut lines = Lines::default();
        for (i, m) in ["a1a2", "b1b2", "c1c2", "d1d2", "e1e2"].iter().enumerate() {
            lines.take(&info(i as u32 + 1, Score::Cp(-(i as i32)), &[m]));
        }
        let first = plan(1, 42).choose(&lines).unwrap();
        assert_eq!(plan(1, 42).choose(&lines).unwrap(), first);
        let moves: std::collections::HashSet<Move> = (1..50)
            .map(|seed| plan(1, seed).choose(&lines).unwrap().0)
            .collect();
        assert!(moves.len() >= 3, "{moves:?}");
    }

    #[test]
    fn a_partial_iteration_does_not_replace_a_complete_one() {
        let mut lines = Lines::default();
        lines.take(&info(1, Score::Cp(10), &["a1a2"]));
        lines.take(&info(2, Score::Cp(0), &["b1b2"]));
        // The next iteration finished one line only.
        lines.take(&info(1, Score::Cp(20), &["c1c2"]));
        assert_eq!(lines.best_set().len(), 2);
        assert_eq!(lines.best_set()[0].1[0], mv("a1a2"));
    }

    #[test]
    fn a_win_on_the_board_is_found_and_the_fallback_does_not_allow_one() {
        // The king on the throne, boxed in but for the file down to e1.
        let rules = Rules::default();
        let defenders = Board::from_fen("9/9/9/4b4/3bKb3/9/9/8b/b8 w").unwrap();
        let moves = defenders.legal_moves(&rules).to_vec();
        let win = winning_move(&defenders, &rules, &moves).unwrap();
        assert_eq!(win, mv("e5e1"));
        let attackers = Board::from_fen("9/9/9/4b4/3bKb3/9/9/8b/b8 b").unwrap();
        let moves = attackers.legal_moves(&rules).to_vec();
        assert_eq!(winning_move(&attackers, &rules, &moves), None);
        let mut chosen = std::collections::HashSet::new();
        for seed in 1..60 {
            let m = plan(0, seed).fallback(&attackers, &rules, &moves).unwrap();
            let mut after = attackers;
            after.play(&rules, m);
            let replies = after.legal_moves(&rules).to_vec();
            assert_eq!(
                winning_move(&after, &rules, &replies),
                None,
                "{m} lets the king out"
            );
            chosen.insert(m);
        }
        assert!(chosen.len() > 1, "{chosen:?}");
    }

    #[test]
    fn reported_scores_map_back_to_the_search_scale() {
        for s in [MATE - 1, MATE - 5, -MATE + 2, -MATE + 6, 0, 123, -77] {
            assert_eq!(internal(Score::from_internal(s)), s);
        }
    }
}
