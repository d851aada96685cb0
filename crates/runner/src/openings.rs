//! `konakis openings`: random opening lines for matches, kept only when a short search judges
//! them roughly balanced.
//!
//! Each candidate is `--plies` uniformly random legal moves from the start position (moves
//! that end the game are never chosen), drawn from SplitMix64 seeded by `--seed`, so the same
//! command writes the same file. A candidate is kept when its score, from the attackers' point
//! of view after a `--depth` search, lies within `--margin` of the balance point. The balance
//! point is the same search's score of the start position: the evaluation's absolute level is
//! not calibrated to results, and the start position is by definition the game as played
//! (`--absolute` centres on 0 instead). Positions are not repeated. With `--variant` the lines
//! start from that game's start, on its board, under its rules.

pub use crate::error::OpeningsToolError;
use crate::tool_engine::SMALL_HASH_MIB;
use konakis_core::board::{BoardOf, Game, GameOf, START_FEN};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::{BoardSize, Rules, VARIANTS, Variant};
use konakis_core::types::{MoveOf, Side};
use konakis_core::zobrist::splitmix64;
use konakis_engine::options::Options;
use konakis_engine::search::{Cancel, Limits, Score, Settings};
use konakis_engine::{Engine, Playable};
use std::collections::HashSet;

/// What `konakis openings` is asked for (the command line's flags of the same names).
#[derive(Clone, Debug)]
pub struct OpeningsOptions {
    /// How many openings to write.
    pub count: usize,
    /// Random plies from the start position.
    pub plies: u32,
    /// Seed of the random moves (the same seed gives the same file).
    pub seed: u64,
    /// Depth of the search that judges balance.
    pub depth: u32,
    /// Largest distance of a kept opening's score from the balance point, in centi-soldiers.
    pub margin: i32,
    /// Centre the margin on 0 instead of on the start position's score.
    pub absolute: bool,
    /// Rule options Name=Value.
    pub rules: Vec<String>,
    /// A game of the tafl family (an id of `konakis variants`) instead of Tablut.
    pub variant: Option<String>,
}

impl OpeningsOptions {
    /// The game asked for: `--variant`'s, checked, or `None` for Tablut.
    pub fn variant(&self) -> Result<Option<&'static Variant>, OpeningsToolError> {
        let Some(id) = &self.variant else {
            return Ok(None);
        };
        if !self.rules.is_empty() {
            return Err(OpeningsToolError::VariantAndRules);
        }
        Variant::find(id)
            .map(Some)
            .ok_or_else(|| OpeningsToolError::Variant {
                name: id.clone(),
                known: VARIANTS.iter().map(|v| v.id).collect(),
            })
    }

    /// The board the openings are played on.
    pub fn size(&self) -> Result<BoardSize, OpeningsToolError> {
        Ok(self.variant()?.map_or(BoardSize::Nine, |v| v.size))
    }
}

/// The score of `game` from the attackers' point of view after a `depth` search; `None` for a
/// forced win or loss (or no answer). The engine's table and histories are emptied first.
pub fn attackers_score<G: Playable>(
    engine: &mut Engine<G>,
    game: &GameOf<G>,
    depth: u32,
) -> Option<i32> {
    engine.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let info = engine.analyse(game, limits, Cancel::Never).ok()?.info;
    match info?.score {
        Score::Cp(cp) if game.board().side_to_move() == Side::Attackers => Some(cp),
        Score::Cp(cp) => Some(-cp),
        Score::Mate(_) => None,
    }
}

/// A random line of `plies` moves none of which ends the game, drawn from the SplitMix64
/// stream `rng`; `None` if it runs into a position where every move ends the game.
pub fn random_line(rules: Rules, plies: u32, rng: &mut u64) -> Option<Game> {
    random_line_from(&Game::start(rules), plies, rng)
}

/// [`random_line`] from `start` (a game of any board, under its rules), the same stream of
/// choices.
pub fn random_line_from<G: Geometry>(
    start: &GameOf<G>,
    plies: u32,
    rng: &mut u64,
) -> Option<GameOf<G>> {
    let rules = *start.rules();
    let mut game = start.clone();
    for _ in 0..plies {
        let mut candidates: Vec<MoveOf<G>> = game.board().legal_moves(&rules).to_vec();
        let mut moved = false;
        while !candidates.is_empty() {
            let i = (splitmix64(rng) % candidates.len() as u64) as usize;
            let mv = candidates.swap_remove(i);
            let mut next = game.clone();
            if next.play(mv).is_ok_and(|s| !s.is_over()) {
                game = next;
                moved = true;
                break;
            }
        }
        if !moved {
            return None;
        }
    }
    Some(game)
}

/// The openings `konakis openings` writes, found one by one: an iterator of the games kept,
/// which ends when enough were kept or too many candidates tried (200 per opening asked for,
/// at least 1,000); then [`kept`](Self::kept) may be short of the count asked for. `G` is the
/// board: Tablut's, or the variant's.
pub struct Openings<G: Playable = Nine> {
    options: OpeningsOptions,
    start: GameOf<G>,
    centre: i32,
    engine: Engine<G>,
    rng: u64,
    seen: HashSet<u64>,
    kept: usize,
    tried: usize,
    max_tries: usize,
}

impl<G: Playable> Openings<G> {
    /// Checks `options` and finds the balance point (a search of the start position unless
    /// `absolute`). An error is the line to print (`error: …`); `G` must be the board of
    /// [`OpeningsOptions::size`].
    pub fn new(options: &OpeningsOptions) -> Result<Openings<G>, OpeningsToolError> {
        let variant = options.variant()?;
        let mut rules = variant.map_or_else(Rules::default, Variant::rules);
        for pair in &options.rules {
            if let Err(e) = rules.set_pair(pair) {
                return Err(OpeningsToolError::Rules(e.to_string()));
            }
        }
        if options.count == 0 || options.depth == 0 || options.margin < 0 {
            return Err(OpeningsToolError::Range);
        }
        let placement = variant.map_or(START_FEN, |v| v.placement);
        let placement = placement.split_whitespace().next().unwrap_or_default();
        let mut board = BoardOf::<G>::from_fen(&format!("{placement} b 0"))
            .map_err(|_| OpeningsToolError::Board)?;
        board.set_side_to_move(rules.first_move);
        let engine_options = Options {
            settings: Settings {
                hash_mib: SMALL_HASH_MIB,
                ..Settings::default()
            },
            rules,
            ..Options::default()
        };
        let mut engine = match variant {
            Some(v) => Engine::<G>::for_variant(engine_options, v).map_err(|e| e.to_string()),
            None => Engine::<G>::with_options(engine_options).map_err(|e| e.to_string()),
        }
        .map_err(OpeningsToolError::Engine)?;
        let start = GameOf::new(rules, board);
        let centre = if options.absolute {
            0
        } else {
            attackers_score(&mut engine, &start, options.depth).unwrap_or(0)
        };
        Ok(Openings {
            options: options.clone(),
            start,
            centre,
            engine,
            rng: options.seed,
            seen: HashSet::new(),
            kept: 0,
            tried: 0,
            max_tries: options.count.saturating_mul(200).max(1000),
        })
    }

    /// The rules the openings are played under.
    pub fn rules(&self) -> Rules {
        *self.start.rules()
    }

    /// The balance point: the attackers' score openings are kept near.
    pub fn centre(&self) -> i32 {
        self.centre
    }

    /// Openings kept so far.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Candidates tried so far.
    pub fn tried(&self) -> usize {
        self.tried
    }
}

impl<G: Playable> Iterator for Openings<G> {
    type Item = GameOf<G>;

    fn next(&mut self) -> Option<GameOf<G>> {
        let o = &self.options;
        while self.kept < o.count && self.tried < self.max_tries {
            self.tried += 1;
            let Some(game) = random_line_from(&self.start, o.plies, &mut self.rng) else {
                continue;
            };
            if !self.seen.insert(game.board().hash()) {
                continue;
            }
            let Some(score) = attackers_score(&mut self.engine, &game, o.depth) else {
                continue;
            };
            if (score - self.centre).abs() > o.margin {
                continue;
            }
            self.kept += 1;
            return Some(game);
        }
        None
    }
}
