//! `konakis datagen`: self-play games that write training positions for the network
//! (docs/nnue.md).
//!
//! Each game starts with a few uniformly random plies ([`random_line_from`]) and is kept
//! only when a short search judges the position within `margin` of the start position's score
//! (as `konakis openings` does); otherwise the game draws another line from its own random
//! stream. Then both sides play with a fixed number of nodes per move, one search thread per
//! game and `concurrency` games at once. A position is recorded, with the search's score, when
//! the move found is quiet (it captures nothing and does not end the game), the king has no
//! move to the edge, no attacker can capture him next move, and the score is not a mate.
//! When the game ends every position gets its result.
//!
//! With a classical share, that percentage of the games is played by one side (drawn per
//! game) with the classical evaluation against the run's evaluation on the other; only the
//! positions of the run's side are recorded in such a game, so every record's score comes from
//! the one evaluation.
//!
//! `--variant` plays a game of the tafl family instead, on its board from its start; the file's
//! header names the board (docs/nnue.md). No network knows those boards yet: the games are
//! played with the classical evaluation, and `konakis train` refuses their files.
//!
//! Games are numbered from 0; game `g`'s random stream is seeded from `(seed, g)` alone, and
//! shard `K/N` plays the games with `g mod N = K` ([`Shard`]), so shards never repeat a game
//! and together play the unsharded run. The output is appended one whole game at a time
//! ([`DataWriter`]); running the same command again continues the file: the games already
//! in it are skipped, and a game torn by a kill is played again.

use crate::openings::{attackers_score, random_line_from};
use crate::shard::Shard;
use konakis_core::BitboardOf;
use konakis_core::board::{GameOf, Status};
use konakis_core::geometry::{Geometry, Wide};
use konakis_core::rules::{BoardSize, Rules, VARIANTS, Variant};
use konakis_core::types::Side;
use konakis_core::zobrist::splitmix64;
use konakis_engine::network::{self, EvalMode, LoadedNet};
use konakis_engine::options::Options;
use konakis_engine::search::{Cancel, Limits, Score, SearchOutcome, Settings};
use konakis_engine::{BoardTask, Engine, Playable, on_board};
use konakis_nnue::RuleFamily;
use konakis_nnue::data::{DataError, DataHeader, DataWriter, GameResult, Record};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Random openings tried per game before it is given up (and writes nothing).
const OPENING_TRIES: usize = 64;

/// Mixed into the run's seed for the stream that decides whether a game has a classical side,
/// so that the openings' streams stay those of a run without a classical share.
const MIX_STREAM: u64 = 0x6d69_7865_645f_7369;

/// What `konakis datagen` is asked for (the command line's flags of the same names).
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// The data file, created or continued.
    pub out: PathBuf,
    /// Games of the whole (unsharded) run.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies before the balance test.
    pub random_plies: u32,
    /// The run's seed.
    pub seed: u64,
    /// Games played at once, one thread each.
    pub concurrency: usize,
    /// The part of the run to play.
    pub shard: Shard,
    /// Rule options Name=Value (Tablut's board).
    pub rules: Vec<String>,
    /// A game of the tafl family instead of `rules`: a preset's identifier
    /// ([`konakis_core::rules::VARIANTS`]), played on its board from its start.
    pub variant: Option<String>,
    /// Depth of the balance test's search.
    pub balance_depth: u32,
    /// Largest distance of an opening's score from the start position's, centi-soldiers.
    pub margin: u32,
    /// Plies after which a game still going is scored a draw.
    pub max_plies: u32,
    /// Transposition table per game, MiB.
    pub hash_mib: usize,
    /// The evaluation the games are played with (`Eval`).
    pub eval: EvalMode,
    /// A network that evaluates under its rules in place of the built-in one (`EvalFile`).
    pub network: Option<LoadedNet>,
    /// Percentage of the games (0 to 100) in which one side, drawn per game, plays with the
    /// classical evaluation; only the other side's positions are recorded in those games.
    pub classical_share: u8,
}

impl Default for DatagenOptions {
    fn default() -> DatagenOptions {
        DatagenOptions {
            out: PathBuf::from("data.bin"),
            games: 1000,
            nodes: 5000,
            random_plies: 8,
            seed: 1,
            concurrency: 2,
            shard: Shard::WHOLE,
            rules: Vec::new(),
            variant: None,
            balance_depth: 4,
            margin: 150,
            max_plies: 400,
            eval: EvalMode::Network,
            network: None,
            hash_mib: 4,
            classical_share: 0,
        }
    }
}

/// Why `konakis datagen` stopped.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// A `--rules` option is unknown or has a bad value (the rules library's words).
    #[error("--rules: {0}")]
    Rules(String),
    /// `--variant` names no preset of the family.
    #[error("--variant: no variant '{name}' (variants: {})", known.join(", "))]
    Variant {
        /// The name given.
        name: String,
        /// The presets there are.
        known: Vec<&'static str>,
    },
    /// A setting out of range.
    #[error("{0}")]
    Range(&'static str),
    /// The data file cannot be read, continued or written.
    #[error("{}: {source}", path.display())]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: DataError,
    },
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games of this shard found already in the file.
    pub skipped: u32,
    /// Games played now.
    pub played: u32,
    /// Of those, games without a balanced opening or without a recorded position (they
    /// write nothing, and a resumed run plays them again).
    pub empty: u32,
    /// Positions written now.
    pub positions: u64,
    /// Results of the games played now: attackers' wins, defenders' wins, draws.
    pub results: [u32; 3],
    /// Of the games with positions, those in which one side played with the classical
    /// evaluation: attackers' wins, defenders' wins, draws, each for the classical side
    /// being the attackers and then the defenders.
    pub mixed: [[u32; 3]; 2],
}

/// The random stream's seed of game `game` of a run seeded with `seed` (independent of the
/// shard, so a game is the same whichever shard plays it).
pub fn game_seed(seed: u64, game: u32) -> u64 {
    let mut s = seed ^ (game as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
    splitmix64(&mut s)
}

/// The side that plays game `game` with the classical evaluation, if any: drawn from a
/// stream of its own so that the openings do not depend on the share.
pub fn classical_side(seed: u64, share: u8, game: u32) -> Option<Side> {
    let r = game_seed(seed ^ MIX_STREAM, game);
    match (r % 100 < share as u64, r >> 63) {
        (false, _) => None,
        (true, 0) => Some(Side::Attackers),
        (true, _) => Some(Side::Defenders),
    }
}

/// The set of squares `set` in the widest word, as a [`Record`] holds it.
fn widened<G: Geometry>(set: BitboardOf<G>) -> Wide {
    set.fold(Wide::ZERO, |wide, sq| wide.or(Wide::bit(sq.index())))
}

/// One game played from `start` (the start position of the run's game, under its rules): its
/// recorded positions (game number, index and count left for the writer), its result and its
/// classical side; `None` for a game without a balanced opening. `classical` searches for the
/// classical side, when the game has one.
pub fn play_game<G: Playable>(
    engine: &mut Engine<G>,
    classical: Option<&mut Engine<G>>,
    start: &GameOf<G>,
    options: &DatagenOptions,
    centre: i32,
    game_number: u32,
) -> Option<(Vec<Record>, GameResult, Option<Side>)> {
    let rules = *start.rules();
    let mut rng = game_seed(options.seed, game_number);
    let mut game = None;
    for _ in 0..OPENING_TRIES {
        let Some(candidate) = random_line_from(start, options.random_plies, &mut rng) else {
            continue;
        };
        let Some(score) = attackers_score(engine, &candidate, options.balance_depth) else {
            continue;
        };
        if (score - centre).unsigned_abs() <= options.margin {
            game = Some(candidate);
            break;
        }
    }
    let mut game: GameOf<G> = game?;
    engine.clear();
    let mut classical = classical
        .zip(classical_side(
            options.seed,
            options.classical_share,
            game_number,
        ))
        .map(|(classical, side)| {
            classical.clear();
            (classical, side)
        });
    let classical_side = classical.as_ref().map(|(_, side)| *side);
    let family = RuleFamily::of(&rules);
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let mut positions = Vec::new();
    while !game.status().is_over() && game.board().plies() < options.max_plies {
        let board = *game.board();
        let (mover, recorded) = match &mut classical {
            Some((classical, side)) if *side == board.side_to_move() => (&mut **classical, false),
            _ => (&mut *engine, true),
        };
        let SearchOutcome { best, info, .. } = mover
            .analyse(&game, limits.clone(), Cancel::Never)
            .unwrap_or_default();
        let Some(mv) = best else { break };
        let mut after = board;
        let captured = after.play(&rules, mv);
        let quiet = captured.is_empty() && !after.is_won(&rules);
        let calm = board.king_escapes(&rules).is_empty() && !board.king_in_danger(&rules);
        if let (true, true, true, Some(king), Some(Score::Cp(cp))) =
            (recorded, quiet, calm, board.king(), info.map(|i| i.score))
        {
            positions.push(Record {
                attackers: widened(board.attackers()),
                defenders: widened(board.defenders()),
                king: king.index() as u8,
                defenders_to_move: board.side_to_move() == Side::Defenders,
                family,
                result: GameResult::Draw,
                plies: board.plies().min(u16::MAX as u32) as u16,
                score: cp.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                game: game_number,
                index: 0,
                count: 0,
            });
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    let result = match game.status() {
        Status::Win(Side::Attackers, _) => GameResult::AttackersWin,
        Status::Win(Side::Defenders, _) => GameResult::DefendersWin,
        _ => GameResult::Draw,
    };
    for p in &mut positions {
        p.result = result;
    }
    Some((positions, result, classical_side))
}

/// The run's game: its rules, and the variant when `--variant` names one (Tablut's board
/// and `--rules` otherwise).
fn game_of(options: &DatagenOptions) -> Result<(Rules, Option<&'static Variant>), DatagenError> {
    if let Some(name) = &options.variant {
        if !options.rules.is_empty() {
            return Err(DatagenError::Range(
                "--variant and --rules: a variant's rules are its own",
            ));
        }
        let variant = Variant::find(name).ok_or_else(|| DatagenError::Variant {
            name: name.clone(),
            known: VARIANTS.iter().map(|v| v.id).collect(),
        })?;
        return Ok((variant.rules(), Some(variant)));
    }
    let mut rules = Rules::default();
    for pair in &options.rules {
        rules
            .set_pair(pair)
            .map_err(|e| DatagenError::Rules(e.to_string()))?;
    }
    Ok((rules, None))
}

/// The header a run with `options` writes (and a resumed run must find).
pub fn header(options: &DatagenOptions) -> Result<DataHeader, DatagenError> {
    let (rules, variant) = game_of(options)?;
    Ok(DataHeader {
        family: RuleFamily::of(&rules),
        board: variant.map_or(BoardSize::Nine, |v| v.size),
        rules_crc: match variant {
            None => konakis_nnue::data::rules_checksum(&rules),
            Some(v) => konakis_nnue::data::game_checksum(&rules, &v.start_fen()),
        },
        seed: options.seed,
        nodes: options.nodes,
        random_plies: options.random_plies,
        margin: options.margin,
        shard_index: options.shard.index as u32,
        shard_count: options.shard.count as u32,
        evaluator: network::choose(options.eval, options.network.as_ref(), &rules)
            .map_or(0, |n| n.checksum),
        classical_share: options.classical_share,
    })
}

fn format_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// Runs `konakis datagen` (see the module docs), passing progress lines to `progress`.
/// `stop`, when set, ends the run after the games being played (they are written).
pub fn run(
    options: &DatagenOptions,
    stop: &AtomicBool,
    progress: impl FnMut(&str),
) -> Result<DatagenSummary, DatagenError> {
    let (rules, variant) = game_of(options)?;
    if options.games == 0 || options.nodes == 0 || options.concurrency == 0 {
        return Err(DatagenError::Range(
            "--games, --nodes and --concurrency must be positive",
        ));
    }
    if options.balance_depth == 0 || options.max_plies == 0 {
        return Err(DatagenError::Range(
            "--balance-depth and --max-plies must be positive",
        ));
    }
    if options.classical_share > 100 {
        return Err(DatagenError::Range(
            "--classical-share is a percentage, 0 to 100",
        ));
    }
    let wanted = header(options)?;
    if options.classical_share > 0 && wanted.evaluator == 0 {
        return Err(DatagenError::Range(
            "--classical-share needs games played by a network: the classical evaluation \
             would play both sides",
        ));
    }
    let run = Run {
        options,
        stop,
        progress,
        rules,
        variant,
        wanted,
    };
    on_board(wanted.board, run)
}

/// A run checked, to be played on its board.
struct Run<'a, P> {
    options: &'a DatagenOptions,
    stop: &'a AtomicBool,
    progress: P,
    rules: Rules,
    variant: Option<&'static Variant>,
    wanted: DataHeader,
}

impl<P: FnMut(&str)> BoardTask for Run<'_, P> {
    type Output = Result<DatagenSummary, DatagenError>;

    fn run<G: Playable>(self) -> Self::Output {
        let Run {
            options,
            stop,
            mut progress,
            rules,
            variant,
            wanted,
        } = self;
        play_run::<G>(options, stop, &mut progress, rules, variant, wanted)
    }
}

/// The games of the run on the board `G`, from the variant's start (Tablut's without one).
fn play_run<G: Playable>(
    options: &DatagenOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&str),
    rules: Rules,
    variant: Option<&'static Variant>,
    wanted: DataHeader,
) -> Result<DatagenSummary, DatagenError> {
    let data_error = |source| DatagenError::Data {
        path: options.out.clone(),
        source,
    };
    let mut writer = DataWriter::resume(&options.out, wanted).map_err(data_error)?;
    let todo: Vec<u32> = (0..options.games)
        .filter(|&g| options.shard.takes(g as usize) && !writer.games().contains(&g))
        .collect();
    let mine = (0..options.games)
        .filter(|&g| options.shard.takes(g as usize))
        .count() as u32;
    let mut summary = DatagenSummary {
        skipped: mine - todo.len() as u32,
        ..DatagenSummary::default()
    };
    let settings = Settings {
        hash_mib: options.hash_mib.max(1),
        threads: 1,
        eval: options.eval,
        ..Settings::default()
    };
    let new_engine = |settings: Settings| {
        let engine_options = Options {
            settings,
            rules,
            ..Options::default()
        };
        // The variant is of this board (`header` chose it), so only memory can fail.
        let mut engine = match variant {
            Some(v) => Engine::<G>::for_variant(engine_options, v).map_err(|e| e.to_string()),
            None => Engine::<G>::with_options(engine_options).map_err(|e| e.to_string()),
        }
        .expect("memory for the transposition table");
        engine
            .set_network(options.network.clone())
            .expect("a new engine is not searching");
        engine
    };
    let (first, centre) = {
        let mut engine = new_engine(settings);
        let first = engine.game().clone();
        let centre = attackers_score(&mut engine, &first, options.balance_depth).unwrap_or(0);
        (first, centre)
    };
    progress(&format!(
        "datagen: {} games to play of shard {} ({} already in {}), {} nodes per move, \
         balance point {centre}, rules {}{}, {}",
        todo.len(),
        options.shard,
        summary.skipped,
        options.out.display(),
        options.nodes,
        RuleFamily::of(&rules),
        variant.map_or(String::new(), |v| format!(" ({} on {})", v.id, v.size)),
        match network::choose(options.eval, options.network.as_ref(), &rules) {
            Some(n) => format!("the network {} ({:08x})", n.source, n.checksum),
            None => "the classical evaluation".to_string(),
        }
    ));
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    type Played = Option<(Vec<Record>, GameResult, Option<Side>)>;
    let (send, receive) = mpsc::channel::<(u32, Played)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..options.concurrency.min(todo.len()) {
            let send = send.clone();
            let (todo, next) = (&todo, &next);
            let (new_engine, first) = (&new_engine, &first);
            scope.spawn(move || {
                let mut engine = new_engine(settings);
                let mut classical = (options.classical_share > 0).then(|| {
                    new_engine(Settings {
                        eval: EvalMode::Classical,
                        ..settings
                    })
                });
                while !stop.load(Ordering::Relaxed) {
                    let Some(&g) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let played =
                        play_game(&mut engine, classical.as_mut(), first, options, centre, g);
                    if send.send((g, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut last = Instant::now();
        for (g, played) in receive {
            summary.played += 1;
            match played {
                Some((positions, result, classical_side)) if !positions.is_empty() => {
                    if failure.is_none()
                        && let Err(e) = writer.write_game(g, &positions)
                    {
                        // Keep draining so the workers end; report the first error.
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    summary.positions += positions.len() as u64;
                    let column = match result {
                        GameResult::AttackersWin => 0,
                        GameResult::DefendersWin => 1,
                        GameResult::Draw => 2,
                    };
                    summary.results[column] += 1;
                    if let Some(side) = classical_side {
                        summary.mixed[(side == Side::Defenders) as usize][column] += 1;
                    }
                }
                _ => summary.empty += 1,
            }
            let done = summary.played as usize;
            if last.elapsed() >= Duration::from_secs(5) || done == todo.len() {
                last = Instant::now();
                let seconds = start.elapsed().as_secs_f64().max(1e-9);
                let eta = seconds / done as f64 * (todo.len() - done) as f64;
                progress(&format!(
                    "datagen: {done}/{} games, {} positions, {:.0} positions/s, \
                     {:.2} games/s, ETA {}",
                    todo.len(),
                    summary.positions,
                    summary.positions as f64 / seconds,
                    done as f64 / seconds,
                    format_duration(eta),
                ));
            }
        }
    });
    if let Some(e) = failure {
        return Err(data_error(e));
    }
    let [a, d, draws] = summary.results;
    let mixed = if options.classical_share > 0 {
        let [[ca, cd, cdraws], [da, dd, ddraws]] = summary.mixed;
        format!(
            " (classical attackers: attackers {ca}, defenders {cd}, draws {cdraws}; \
             classical defenders: attackers {da}, defenders {dd}, draws {ddraws})"
        )
    } else {
        String::new()
    };
    progress(&format!(
        "datagen: {} games played ({} empty), attackers {a}, defenders {d}, draws {draws}{mixed}; \
         {} positions written, {} in {} ({:.0} positions/s)",
        summary.played,
        summary.empty,
        summary.positions,
        writer.records(),
        options.out.display(),
        summary.positions as f64 / start.elapsed().as_secs_f64().max(1e-9),
    ));
    Ok(summary)
}
