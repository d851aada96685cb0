//! Playing at a level: the plan of one weakened search (the level drawn for the move, its
//! limits and lines), the seeded generator of its noise, and the choice among the lines the
//! search reports.

use super::{BLIND_LOSS, GLANCE_CAPTURE, GLANCE_PARRY, LEVELS, LevelLimits, PARRY_LEVEL, Skill};
use crate::Size;
use crate::search::{Info, Limits, MATE, MATE_BOUND, Score};
use konakis_core::board::{BoardOf, GameOf};
use konakis_core::rules::Rules;
use konakis_core::types::{MoveOf, SquareOf};

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

/// A line of the search: its score and its moves.
type Line<G> = (i32, Vec<MoveOf<G>>);

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
    pub fn new<G: Size>(skill: &Skill, limits: &Limits<G>, key: u64) -> Option<Plan> {
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
    pub fn limits<G: Size>(&self, limits: &Limits<G>) -> Limits<G> {
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
    pub fn choose<G: Size>(&mut self, lines: &Lines<G>) -> Option<(MoveOf<G>, Option<MoveOf<G>>)> {
        let lines = lines.best_set();
        // A level with a narrow attention sees only the lines of the pieces it looks at,
        // forced wins included.
        let seen = self.attend(lines);
        let looked: Vec<&Line<G>> = lines
            .iter()
            .filter(|l| seen.is_empty() || seen.contains(&l.1[0].from()))
            .collect();
        let top = looked.iter().map(|l| l.0).max()?;
        let pick = if top.abs() >= MATE_BOUND {
            // A forced win is played as found (the quickest first); so is the longest
            // resistance when every line loses.
            *looked.iter().find(|l| l.0 == top)?
        } else {
            let mut best: Option<(i64, &Line<G>)> = None;
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
    fn attend<G: Size>(&mut self, lines: &[(i32, Vec<MoveOf<G>>)]) -> Vec<SquareOf<G>> {
        self.draw_pieces(lines.iter().filter_map(|l| l.1.first()))
    }

    /// The level's [`LevelLimits::attention`] pieces, drawn at random from those that make
    /// `moves` (empty: all of them, when the level looks at every piece or at least as many
    /// as there are).
    fn draw_pieces<'a, G: Size>(
        &mut self,
        moves: impl Iterator<Item = &'a MoveOf<G>>,
    ) -> Vec<SquareOf<G>> {
        let mut pieces: Vec<SquareOf<G>> = Vec::new();
        for m in moves {
            if !pieces.contains(&m.from()) {
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
pub fn winning_move<G: Size>(
    board: &BoardOf<G>,
    rules: &Rules,
    moves: &[MoveOf<G>],
) -> Option<MoveOf<G>> {
    moves.iter().copied().find(|&m| {
        let mut after = *board;
        after.play(rules, m);
        after.is_won(rules)
    })
}

/// Whether the opponent of the side to move on `board` could win on the spot were it its
/// turn ([`winning_move`]): a king escape or capture threatened for the next move.
fn threatened<G: Size>(board: &BoardOf<G>, rules: &Rules) -> bool {
    let mut theirs = *board;
    theirs.set_side_to_move(board.side_to_move().opponent());
    let replies = theirs.legal_moves(rules);
    winning_move(&theirs, rules, &replies).is_some()
}

/// Whether the last move of `game` let a win on the spot pass: the side that made it could
/// have won instead.
fn let_pass<G: Size>(game: &GameOf<G>) -> bool {
    let Some((_, earlier)) = game.moves().split_last() else {
        return false;
    };
    let rules = game.rules();
    let mut before = *game.start_board();
    for &m in earlier {
        before.play(rules, m);
    }
    winning_move(&before, rules, &before.legal_moves(rules)).is_some()
}

/// The moves of `moves` after which the opponent cannot win on the spot ([`winning_move`]).
fn safe_moves<G: Size>(board: &BoardOf<G>, rules: &Rules, moves: &[MoveOf<G>]) -> Vec<MoveOf<G>> {
    moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut after = *board;
            after.play(rules, m);
            let replies = after.legal_moves(rules);
            winning_move(&after, rules, &replies).is_none()
        })
        .collect()
}

impl Plan {
    /// Whether this level plays without a search: a win on the spot if it has one, else
    /// [`Plan::glance`].
    pub fn glances(&self) -> bool {
        self.limits.depth == 0
    }

    /// The move of a level that does not search in `game` with `moves` (none of which wins on
    /// the spot): a beginner's move. When the opponent threatens to win next move
    /// (`threatened`: the king could escape or be captured), the level sees it at
    /// [`GLANCE_PARRY`] of its moves, and always when the threat has stood on the board since
    /// the opponent's last move, which let the win pass; then it keeps to the moves that parry
    /// it (`safe_moves`). It never looks at what its own move lets in. Then it looks at one of
    /// its pieces ([`LevelLimits::attention`] of them), drawn at random among those it kept: a
    /// capture that piece can make is seen at [`GLANCE_CAPTURE`] of its moves and played, else
    /// the piece makes one of its moves at random.
    pub fn glance<G: Size>(&mut self, game: &GameOf<G>, moves: &[MoveOf<G>]) -> Option<MoveOf<G>> {
        let (board, rules) = (game.board(), game.rules());
        let mut pool = moves.to_vec();
        if threatened(board, rules) && (let_pass(game) || self.rng.unit() < GLANCE_PARRY) {
            let safe = safe_moves(board, rules, moves);
            if !safe.is_empty() {
                pool = safe;
            }
        }
        let seen = self.draw_pieces(pool.iter());
        if !seen.is_empty() {
            pool.retain(|m| seen.contains(&m.from()));
        }
        let captures: Vec<MoveOf<G>> = pool
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = *board;
                !after.play(rules, m).is_empty()
            })
            .collect();
        if !captures.is_empty() && self.rng.unit() < GLANCE_CAPTURE {
            pool = captures;
        }
        if pool.is_empty() {
            return None;
        }
        Some(pool[self.rng.up_to(pool.len() as u32 - 1) as usize])
    }

    /// A move for when the search finished no line at all (its node cap fell inside the
    /// first one): a random move of `moves` after which the opponent cannot win on the spot,
    /// if there is one, else any.
    pub fn fallback<G: Size>(
        &mut self,
        board: &BoardOf<G>,
        rules: &Rules,
        moves: &[MoveOf<G>],
    ) -> Option<MoveOf<G>> {
        let safe = safe_moves(board, rules, moves);
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
pub struct Lines<G: Size> {
    /// The last iteration with the most lines: `(score, line)`, internal scores.
    done: Vec<(i32, Vec<MoveOf<G>>)>,
    /// The lines of the iteration being reported.
    current: Vec<(i32, Vec<MoveOf<G>>)>,
}

impl<G: Size> Lines<G> {
    /// Takes in one `info` report.
    pub fn take(&mut self, info: &Info<G>) {
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
    fn best_set(&self) -> &[(i32, Vec<MoveOf<G>>)] {
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
    /// The size these tests play on.
    type Limits = crate::search::Limits<konakis_core::geometry::Nine>;
    /// The size these tests play on.
    type Lines = super::Lines<konakis_core::geometry::Nine>;
    /// The size these tests play on.
    type Info = crate::search::Info<konakis_core::geometry::Nine>;
    use crate::search::ScoreBound;
    use crate::skill::curve;
    use konakis_core::board::Board;
    use konakis_core::board::Game;
    use konakis_core::types::Move;

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
    fn level_0_glances_at_the_board_and_moves_without_a_search() {
        let rules = Rules::default();
        let game = Game::start(rules);
        let moves = game.board().legal_moves(&rules).to_vec();
        let mut seen = std::collections::HashSet::new();
        let mut pieces = std::collections::HashSet::new();
        for seed in 1..200 {
            let mut p = plan(0, seed);
            assert!(p.glances());
            let m = p.glance(&game, &moves).unwrap();
            assert!(moves.contains(&m));
            seen.insert(m);
            pieces.insert(m.from());
        }
        assert!(seen.len() > 40 && pieces.len() > 10, "{seen:?}");
        assert!(!plan(1, 1).glances());
        assert_eq!(plan(0, 1).glance(&game, &[]), None);
    }

    #[test]
    fn a_threat_is_seen_only_when_the_opponent_could_win_next_move() {
        let rules = Rules::default();
        // The king's file down to e1 is open: a threat for the attackers to move.
        let open = Board::from_fen("9/9/9/4b4/3bKb3/9/9/8b/b8 b").unwrap();
        assert!(threatened(&open, &rules));
        let safe = safe_moves(&open, &rules, &open.legal_moves(&rules));
        assert!(
            safe.contains(&mv("i2e2")) && !safe.contains(&mv("i2h2")),
            "{safe:?}"
        );
        assert!(!threatened(&Board::start(&rules), &rules));
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
