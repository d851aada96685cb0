//! `konakis match`: engine-versus-engine matches and tournaments for any engine that speaks
//! the protocol, refereed by the library's rules.
//!
//! - [`options`]: the flags as given (the binary parses the cutechess-style command line,
//!   `--engine name=… cmd=… tc=…`, into them).
//! - [`config`]: the checked settings and the openings file.
//! - [`engine`]: a child process with deadlines on every reply; [`cpu_wait`]: how long its
//!   threads waited for a CPU, which a late move is not charged.
//! - [`players`]: the protocols an engine may speak, behind one trait: one file per protocol
//!   (the line protocol of protocol.md, the OpenTafl Engine Protocol, the Tablut Challenge),
//!   the shared types in a leaf module, and the one factory that starts a player.
//! - [`game`]: one refereed game: clocks, faults, adjudication.
//! - [`tally`], [`stats`]: the totals, Elo, LOS and the SPRT on game pairs.
//! - [`record`], [`json`], [`report`]: `.otg` records, the JSON file, the progress bar and the
//!   final table.
//!
//! The schedule is a list of games in pairs (one opening, sides swapped). `--concurrency`
//! worker threads take games from it in order; each keeps its own processes of the engines it
//! has needed and reuses them (`ucinewgame`) until one fails. The main thread counts the
//! results, writes each record as its game ends, runs the SPRT and tells the caller what
//! happens ([`Event`]); the caller shows it (the binary: [`report::Progress`] on stderr, the
//! summary on stdout).

pub mod chart;
pub mod config;
pub mod cpu_wait;
pub mod engine;
pub mod error;
pub mod fingerprint;
pub mod game;
pub mod json;
pub mod merge;
pub mod options;
pub mod players;
pub mod record;
pub mod referee;
pub mod report;
pub mod stats;
pub mod tally;

pub use crate::shard::Shard;
pub use error::{
    ConfigError, MatchError, MergeError, OpeningError, OpeningsError, OutputError, SpawnError,
    SprtError,
};
pub use options::MatchOptions;

use config::{MatchConfig, Opening, OpeningOrder, load_openings};
use engine::Log;
use fingerprint::Fingerprint;
use game::{Context, GameOutcome, Job};
use konakis_core::geometry::Geometry;
use konakis_core::types::{BySide, Side};
use konakis_engine::{BoardTask, Playable, on_board};
use players::Fault;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use stats::SprtVerdict;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;
use tally::Tally;

/// How long an engine gets to quit before it is killed at the end.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How a match that ran ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every planned game was played (or the SPRT decided).
    Completed,
    /// `interrupted` was set: the games under way were abandoned, and the summary and the
    /// records cover the finished ones.
    Interrupted,
}

/// What a running match tells its caller, in this order: warnings, the start, then notes and
/// finished games (with ticks while nothing happens), the end of play, the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// Before the start: an engine does not announce an option it is given.
    Warning(&'a str),
    /// The match starts.
    Start {
        /// The games planned.
        games: usize,
        /// A line naming the engines, the number of games, the concurrency, the openings and
        /// any rules or shard.
        header: &'a str,
    },
    /// A line of news during the match: an engine restarted, the match interrupted.
    Note(&'a str),
    /// A game has ended.
    GameDone {
        /// The game: its number, who attacked, the opening, the result and its length.
        line: &'a str,
        /// The running score of the first engine (with the SPRT's LLR when one runs).
        status: &'a str,
    },
    /// Nothing happened for a while (a display may redraw its clock).
    Tick,
    /// The games are over, the summary follows.
    GamesOver,
    /// The final table and the notes under it, as lines that each end in a newline.
    Summary(&'a str),
}

/// What a worker tells the main thread.
enum Message<G: Geometry> {
    Done(Box<GameOutcome<G>>),
    Note(String),
}

/// The games of the match in order: for each pair number, each pairing plays the pair's
/// opening twice, the first engine attacking first. With `--shard K/N`, only the pairs of
/// shard K (pair `i` belongs to shard `i mod N`); games and pairs keep their numbers in the
/// whole match.
pub fn schedule(config: &MatchConfig, openings: usize) -> Vec<Job> {
    let pairings = config.pairings();
    let pairs = config.games_per_pairing / 2;
    let (order, start) = match &config.openings {
        Some((_, order, start)) => (*order, *start),
        None => (OpeningOrder::Sequential, 0),
    };
    let mut shuffled: Vec<usize> = Vec::new();
    // ChaCha8 rather than StdRng: rand_chacha promises the same stream from a seed in every
    // release, and every shard of a match must draw the same order.
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut jobs = Vec::with_capacity(pairs * pairings.len() * 2);
    for p in 0..pairs {
        let opening = match order {
            OpeningOrder::Sequential => (start + p) % openings,
            OpeningOrder::Random => {
                if p % openings == 0 {
                    // A fresh shuffle each time the file is used up.
                    shuffled = (0..openings).collect();
                    shuffled.shuffle(&mut rng);
                }
                shuffled[p % openings]
            }
        };
        for (k, &(a, b)) in pairings.iter().enumerate() {
            let pair = p * pairings.len() + k;
            if !config.shard.unwrap_or(Shard::WHOLE).takes(pair) {
                continue;
            }
            let number = 2 * pair + 1;
            for sides in [BySide::new(a, b), BySide::new(b, a)] {
                jobs.push(Job {
                    number: number + jobs.len() % 2,
                    pair,
                    pairing: k,
                    opening,
                    sides,
                });
            }
        }
    }
    jobs
}

/// Starts every engine once before the match: a command that cannot start or does not answer
/// `uci` stops the match before any game. Returns warnings about options the engine does not
/// announce.
fn preflight(config: &MatchConfig, log: Option<Arc<Log>>) -> Result<Vec<String>, MatchError> {
    let results: Vec<Result<Vec<String>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = config
            .engines
            .iter()
            .map(|spec| {
                let log = log.clone();
                scope.spawn(move || players::preflight(config, spec, log))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("engine check panicked".into()))
            })
            .collect()
    });
    let mut warnings = Vec::new();
    for r in results {
        warnings.extend(r.map_err(MatchError::Engine)?);
    }
    Ok(warnings)
}

/// Runs `konakis match`. Once the match is about to start, `arm` is called (the binary
/// installs its Ctrl-C handler there); from then on, `interrupt` set stops the match. What
/// happens goes to `show` as [`Event`]s. An error is a bad command line, an engine that cannot
/// start, or a file that cannot be written.
pub fn run(
    args: &MatchOptions,
    interrupt: &AtomicBool,
    arm: impl FnOnce(),
    show: impl FnMut(Event),
) -> Result<Finish, MatchError> {
    let config = MatchConfig::from_args(args).map_err(MatchError::Config)?;
    let size = config.size();
    let task = MatchOnBoard {
        config,
        interrupt,
        arm,
        show,
    };
    on_board(size, task)
}

/// [`play_match`] as work on the match's board.
struct MatchOnBoard<'a, A, S> {
    config: MatchConfig,
    interrupt: &'a AtomicBool,
    arm: A,
    show: S,
}

impl<A: FnOnce(), S: FnMut(Event)> BoardTask for MatchOnBoard<'_, A, S> {
    type Output = Result<Finish, MatchError>;

    fn run<G: Playable>(self) -> Self::Output {
        play_match::<G>(self.config, self.interrupt, self.arm, self.show)
    }
}

/// Plays the match of `config` on its board `G` ([`run`]).
fn play_match<G: Geometry>(
    config: MatchConfig,
    interrupt: &AtomicBool,
    arm: impl FnOnce(),
    mut show: impl FnMut(Event),
) -> Result<Finish, MatchError> {
    let start = config.start::<G>();
    let openings = match &config.openings {
        Some((path, ..)) => load_openings(path, config.rules, start)?,
        None => vec![Opening::startpos(config.rules, start)],
    };
    let log = match &config.log {
        Some(p) => Some(Arc::new(Log::create(p)?)),
        None => None,
    };
    for w in preflight(&config, log.clone())? {
        show(Event::Warning(&w));
    }
    let records_path = config
        .records
        .as_ref()
        .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()));
    let mut records = match &config.records {
        Some(p) => Some(record::RecordsTarget::open(p)?),
        None => None,
    };
    if let Some(p) = &config.json {
        // The JSON appears only once the run is over (written aside, then renamed): a run
        // that dies leaves none, and an old one from an earlier run of the same shard goes.
        check_json_target(p)?;
    }

    let jobs = schedule(&config, openings.len());
    let planned = jobs.len();
    let pairings = config.pairings();
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let header = format!(
        "Match: {} ({}), {} games, concurrency {}, openings: {}{}{}",
        names.join(", "),
        if config.gauntlet && config.engines.len() > 2 {
            "gauntlet"
        } else {
            "round robin"
        },
        planned,
        config.concurrency,
        match &config.openings {
            None => "start position".to_string(),
            Some((p, order, _)) => format!(
                "{} ({} lines, {})",
                p.display(),
                openings.len(),
                match order {
                    OpeningOrder::Random => format!("random order, seed {}", config.seed),
                    OpeningOrder::Sequential => "in order".to_string(),
                }
            ),
        },
        if config.variant.is_none() && config.rules == konakis_core::rules::Rules::default() {
            String::new()
        } else {
            format!(", rules {}", config.rules_text())
        },
        config
            .shard
            .map_or(String::new(), |k| format!(", shard {k}"))
    );
    show(Event::Start {
        games: planned,
        header: &header,
    });

    // From here an interruption stops the match (the summary and records cover the finished
    // games).
    arm();

    let ctx = Arc::new(Context {
        config: config.clone(),
        openings: openings.clone(),
        stop: AtomicBool::new(false),
        log,
    });
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel::<Message<G>>();
    let workers: Vec<_> = (0..config.concurrency.min(planned))
        .map(|w| {
            let (ctx, jobs, next, tx) = (
                Arc::clone(&ctx),
                Arc::clone(&jobs),
                Arc::clone(&next),
                tx.clone(),
            );
            std::thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn(move || worker(&ctx, &jobs, &next, &tx))
                .map_err(MatchError::Thread)
        })
        .collect::<Result<_, _>>()?;
    drop(tx);

    let mut tally = Tally::new(config.engines.len(), pairings.len());
    let mut outcomes: Vec<GameOutcome<G>> = Vec::new();
    let mut sprt_state: Option<(f64, SprtVerdict)> =
        config.sprt.map(|_| (0.0, SprtVerdict::Continue));
    let mut interrupted = false;
    let mut record_error: Option<OutputError> = None;
    let mut load = report::LoadWatch::default();
    load.sample();
    loop {
        if interrupt.load(Ordering::SeqCst) && !interrupted {
            interrupted = true;
            ctx.stop.store(true, Ordering::SeqCst);
            show(Event::Note(
                "Interrupted: stopping the games in progress (Ctrl-C again to quit now)",
            ));
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Message::Note(text)) => show(Event::Note(&text)),
            Ok(Message::Done(o)) => {
                let o = *o;
                tally.add(&o, pairings[o.job.pairing]);
                load.sample();
                if let Some(w) = records.as_mut() {
                    let text = record::otg(
                        &config,
                        &openings[o.job.opening],
                        &o,
                        game::shared_time_control(&config, &o.job),
                    );
                    if let Err(e) = w.write(o.job.number, &text) {
                        record_error = Some(e);
                        ctx.stop.store(true, Ordering::SeqCst);
                    }
                }
                if let (Some(sprt), Some((llr, verdict))) = (config.sprt, sprt_state.as_mut())
                    && *verdict == SprtVerdict::Continue
                {
                    let (l, v) = sprt.judge(&tally.pairings[0]);
                    *llr = l;
                    *verdict = v;
                    // A shard plays its part whole: the verdict is the merged one's.
                    if v != SprtVerdict::Continue && config.shard.is_none() {
                        ctx.stop.store(true, Ordering::SeqCst);
                    }
                }
                let status = report::status_line(
                    &config,
                    &tally,
                    config.sprt.zip(sprt_state.map(|(l, _)| l)),
                );
                show(Event::GameDone {
                    line: &report::game_line(&config, &o),
                    status: &status,
                });
                outcomes.push(o);
            }
            Err(RecvTimeoutError::Timeout) => show(Event::Tick),
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    for w in workers {
        let _ = w.join();
    }
    show(Event::GamesOver);

    let sprt = config.sprt.zip(sprt_state).map(|(s, (l, v))| (s, l, v));
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut summary = report::summary(
        &names,
        &config.rules_text(),
        &tally,
        planned,
        interrupted,
        sprt,
    );
    let time_forfeits = tally.engines.iter().map(|e| e.fault(Fault::Time)).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let forgiven =
        |o: &GameOutcome<G>| o.forgiven_ms[Side::Attackers] + o.forgiven_ms[Side::Defenders];
    let forgiven_ms = outcomes.iter().map(forgiven).sum();
    let forgiven_games = outcomes.iter().filter(|o| forgiven(o) > 0).count() as u64;
    if let Some(note) = load.note(time_forfeits, forgiven_ms, forgiven_games, cores) {
        summary.push_str(&note);
    }
    show(Event::Summary(&summary));
    if let Some(p) = &config.json {
        let text = json::json(
            &config,
            &openings,
            &tally,
            &json::JsonExtras {
                planned,
                interrupted,
                sprt,
                games: &outcomes,
                fingerprint: &Fingerprint::of(&config, &openings),
                match_games: match config.shard {
                    None => planned,
                    Some(_) => schedule(
                        &MatchConfig {
                            shard: None,
                            ..config.clone()
                        },
                        openings.len(),
                    )
                    .len(),
                },
                records: records_path.as_deref(),
            },
        );
        write_then_rename(p, &text)?;
    }
    if let Some(e) = record_error {
        return Err(MatchError::File(e));
    }
    Ok(if interrupted {
        Finish::Interrupted
    } else {
        Finish::Completed
    })
}

/// The temporary name a JSON file is written under before it is renamed into place.
pub fn part_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    path.with_file_name(name)
}

/// Before a run: an old JSON file at that name is removed, then the file's temporary twin is
/// created (so the JSON can be written).
fn check_json_target(path: &Path) -> Result<(), MatchError> {
    // The old result goes first: once the `.part` twin exists (a sign the run has started),
    // no finished-looking JSON of an earlier run is left behind.
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(MatchError::Output(format!(
                "cannot replace JSON file {}: {e}",
                path.display()
            )));
        }
        _ => {}
    }
    std::fs::write(part_path(path), "")
        .map_err(|e| MatchError::Output(format!("cannot write JSON file {}: {e}", path.display())))
}

/// Writes `text` to `path` whole or not at all: into the temporary twin, then renamed.
pub fn write_then_rename(path: &Path, text: &str) -> Result<(), MatchError> {
    let part = part_path(path);
    std::fs::write(&part, text)
        .and_then(|_| std::fs::rename(&part, path))
        .map_err(|e| MatchError::Output(format!("cannot write JSON file {}: {e}", path.display())))
}

/// A worker: plays games from the schedule until it is used up or the match stops, then
/// ends its engines.
fn worker<G: Geometry>(
    ctx: &Context<G>,
    jobs: &[Job],
    next: &AtomicUsize,
    tx: &std::sync::mpsc::Sender<Message<G>>,
) {
    let mut slots: Vec<Option<Box<dyn players::Player<G>>>> =
        ctx.config.engines.iter().map(|_| None).collect();
    let note = |text: String| {
        let _ = tx.send(Message::Note(text));
    };
    while !ctx.stop.load(Ordering::SeqCst) {
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(&job) = jobs.get(i) else { break };
        match game::play(ctx, job, &mut slots, &note) {
            Some(o) => {
                if tx.send(Message::Done(Box::new(o))).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit(QUIT_GRACE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The opening of each pair of a 10-pair match over 4 openings in random order.
    fn random_order(seed: u64) -> Vec<usize> {
        let options = MatchOptions {
            engines: vec![
                vec!["cmd=/a".into(), "depth=1".into()],
                vec!["cmd=/b".into(), "depth=1".into()],
            ],
            games: Some(20),
            concurrency: 1,
            openings: Some(vec!["openings.txt".into(), "order=random".into()]),
            seed: Some(seed),
            startup_timeout: 1.0,
            move_timeout: 1.0,
            ..MatchOptions::default()
        };
        let jobs = schedule(&MatchConfig::from_args(&options).unwrap(), 4);
        jobs.iter().step_by(2).map(|j| j.opening).collect()
    }

    #[test]
    fn a_random_order_plays_every_opening_once_per_pass_and_follows_the_seed() {
        let order = random_order(7);
        assert_eq!(order.len(), 10);
        for pass in order.chunks(4) {
            let mut seen = pass.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), pass.len(), "{order:?}");
        }
        assert_eq!(order, random_order(7));
        assert_ne!(order, random_order(8));
    }
}
