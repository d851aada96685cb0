//! `konakis analyse`: a review of every move of one or more games (docs/review.md). The
//! review itself is [`konakis::review`]; this reads the games, searches their positions on
//! several threads with progress on stderr, and prints a table, JSON or an annotated record.

use super::EvalArgs;
use clap::{ArgGroup, Args};
use konakis::board::{Board, Game};
use konakis::network::LoadedNet;
use konakis::opentafl::notation::{self, full_move};
use konakis::opentafl::otg::{Tag, parse_otg, replay, write_commented_record};
use konakis::review::{self, Judgement, MoveReview, Review, SideSummary, Thresholds, Verdict};
use konakis::rules::Rules;
use konakis::search::{Cancel, Limits, MAX_HASH_MIB, Searcher, Settings};
use konakis::types::{Move, Side};
use konakis::{ReviewedGame, review_json};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The time per position when no limit is given, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// Arguments of `konakis analyse`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").args(["depth", "nodes", "movetime"])))]
#[command(
    after_help = "Examples:\n  konakis analyse game.otg\n  konakis analyse games.otg \
                        --depth 10 --json > review.json\n  konakis analyse game.otg \
                        --annotate game-reviewed.otg\n  konakis analyse --position startpos \
                        --moves \"d1d3 e4d4 e1e3\" --rules KingCapture=English\n\nThe \
                        verdicts, the accuracy and the JSON fields are described in \
                        docs/review.md."
)]
pub struct AnalyseArgs {
    /// An OpenTafl `.otg` record: one game, or several one after another as `konakis match
    /// --records` writes them. Its rules come from the record.
    #[arg(required_unless_present = "position", conflicts_with_all = ["position", "moves", "rules"])]
    pub file: Option<PathBuf>,
    /// Instead of a record: the start, `startpos` or a position string.
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// With --position: the moves played from it, separated by spaces (`d1d3`, `d1-d3` or
    /// OpenTafl's full notation).
    #[arg(long, value_name = "MOVES", requires = "position")]
    pub moves: Option<String>,
    /// With --position: rule options, NAME=VALUE (as docs/rules.md, 'Rule options',
    /// describes them).
    #[arg(long, value_name = "NAME=VALUE", num_args = 1.., requires = "position")]
    pub rules: Vec<String>,
    /// Search each position to this depth (reproducible).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search each position for about this many nodes (reproducible).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search each position for this many milliseconds [default: 100 when no limit is given].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Positions searched at once, each on one thread [default: the number of cores].
    #[arg(long, alias = "threads", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: Option<u64>,
    /// Transposition table of each search, in MiB.
    #[arg(long = "hash", value_name = "MB", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MIB as u64))]
    pub hash_mib: u64,
    #[command(flatten)]
    pub evaluation: EvalArgs,
    /// The drops in expected score (percentage points) from which a move is an inaccuracy,
    /// a mistake and a blunder.
    #[arg(long, value_name = "I,M,B", default_value = "5,10,15", value_parser = parse_thresholds)]
    pub thresholds: Thresholds,
    /// Print the review as JSON (docs/review.md) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write a copy of the record with the review as a comment after every move.
    #[arg(long, value_name = "OUT.otg")]
    pub annotate: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_thresholds(text: &str) -> Result<Thresholds, String> {
    let values: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| "expected three numbers, as 5,10,15".to_string())?;
    match values[..] {
        [inaccuracy, mistake, blunder]
            if 0.0 < inaccuracy && inaccuracy <= mistake && mistake <= blunder =>
        {
            Ok(Thresholds {
                inaccuracy,
                mistake,
                blunder,
            })
        }
        _ => Err("expected three rising positive numbers, as 5,10,15".to_string()),
    }
}

/// One game to review.
struct Input {
    /// Its name in messages and headings.
    label: String,
    rules: Rules,
    start: Board,
    moves: Vec<Move>,
    /// The record's tags, for the annotated copy (empty for --position).
    tags: Vec<(String, String)>,
}

/// Runs `konakis analyse`: the review on stdout (a table, or JSON), progress and errors on
/// stderr. The exit status is 1 on any error (unreadable or bad input, a search that failed).
pub fn run(args: AnalyseArgs) -> ExitCode {
    match analyse(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn analyse(args: AnalyseArgs) -> Result<(), String> {
    let inputs = read_inputs(&args)?;
    let network = args.evaluation.network()?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: match (args.depth, args.nodes, args.movetime) {
            (None, None, None) => Some(DEFAULT_MOVETIME_MS),
            (_, _, t) => t,
        },
        ..Limits::default()
    };
    // Every position of every game, in order.
    let mut games = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let positions = review::positions(input.rules, input.start, &input.moves)
            .map_err(|e| format!("{}: {e}", input.label))?;
        games.push(positions);
    }
    let judgements = judge_all(&args, &games, &limits, network)?;
    let config = review::ReviewConfig {
        limits: limits.clone(),
        thresholds: args.thresholds,
    };
    let mut reviews = Vec::with_capacity(games.len());
    for (positions, judged) in games.iter().zip(judgements) {
        reviews.push(
            review::review(positions, &judged, &config.thresholds).map_err(|e| e.to_string())?,
        );
    }
    if args.json {
        println!("{}", json(&inputs, &games, &reviews, &config));
    } else {
        print!("{}", tables(&inputs, &games, &reviews, &limits));
    }
    if let Some(path) = &args.annotate {
        let mut text = String::new();
        for ((input, positions), r) in inputs.iter().zip(&games).zip(&reviews) {
            text.push_str(&annotated(input, positions, r, &limits));
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The games of the record, or the one of --position and --moves.
fn read_inputs(args: &AnalyseArgs) -> Result<Vec<Input>, String> {
    let Some(path) = &args.file else {
        let mut rules = Rules::default();
        for pair in &args.rules {
            rules.set_pair(pair).map_err(|e| format!("--rules: {e}"))?;
        }
        let start = match args.position.as_deref().map(str::trim) {
            None | Some("startpos") => Board::start(&rules),
            Some(fen) => Board::from_fen(fen).map_err(|e| format!("--position: {e}"))?,
        };
        let mut moves = Vec::new();
        for (i, text) in args
            .moves
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .enumerate()
        {
            // The protocol's `d1d3` (or `d1-d3`), else OpenTafl's full notation (`Ke5-f5xf4`).
            let mv = match Move::parse(text) {
                Ok(mv) => mv,
                Err(e) => {
                    notation::parse_move(text)
                        .map_err(|_| format!("--moves: move {} ({text}): {e}", i + 1))?
                        .mv
                }
            };
            moves.push(mv);
        }
        return Ok(vec![Input {
            label: "the game".to_string(),
            rules,
            start,
            moves,
            tags: Vec::new(),
        }]);
    };
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let records = parse_otg(&text).map_err(|e| format!("{name}: {e}"))?;
    if records.is_empty() {
        return Err(format!("{name} holds no game"));
    }
    let count = records.len();
    records
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let label = if count > 1 {
                format!("{name}, game {} of {count}", i + 1)
            } else {
                name.to_string()
            };
            let r = replay(record).map_err(|e| format!("{label}: {e}"))?;
            Ok(Input {
                label,
                rules: r.rules,
                start: r.start,
                moves: r.game.moves().to_vec(),
                tags: record.tags.clone(),
            })
        })
        .collect()
}

/// Judges every position of every game, `--concurrency` at a time, each search on one
/// thread with an engine of its own, with progress on stderr.
fn judge_all(
    args: &AnalyseArgs,
    games: &[Vec<Game>],
    limits: &Limits,
    network: Option<LoadedNet>,
) -> Result<Vec<Vec<Judgement>>, String> {
    let tasks: Vec<(usize, usize)> = games
        .iter()
        .enumerate()
        .flat_map(|(g, positions)| (0..positions.len()).map(move |p| (g, p)))
        .collect();
    let total = tasks.len();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args
        .concurrency
        .map_or(cores, |n| n as usize)
        .clamp(1, total.max(1));
    let settings = Settings {
        threads: 1,
        hash_mib: args.hash_mib as usize,
        multipv: 1,
        // The whole time of a position goes to its search: nothing is sent anywhere.
        move_overhead_ms: 0,
        eval: args.evaluation.eval,
        ..Settings::default()
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Judgement>>> = Mutex::new(vec![None; total]);
    let error: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    let fail = |message: String| {
        failed.store(true, Ordering::SeqCst);
        let mut e = error.lock().unwrap_or_else(|p| p.into_inner());
        e.get_or_insert(message);
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engine = match Searcher::try_new(settings) {
                    Ok(e) => e,
                    Err(e) => return fail(e.to_string()),
                };
                if let Err(e) = engine.set_network(network.clone()) {
                    return fail(e.to_string());
                }
                let stop = Cancel::Flag(&failed);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total || failed.load(Ordering::SeqCst) {
                        return;
                    }
                    let (g, p) = tasks[i];
                    match review::evaluate(&mut engine, &games[g][p], limits, stop) {
                        Ok(j) => {
                            results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(j);
                            done.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(e) => {
                            return fail(format!("position {p} of game {}: {e}", g + 1));
                        }
                    }
                }
            });
        }
        if !args.quiet {
            progress(&done, &failed, total, started);
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut flat = results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter();
    games
        .iter()
        .map(|positions| {
            (0..positions.len())
                .map(|_| flat.next().flatten().ok_or("a position was not searched"))
                .collect::<Result<Vec<_>, _>>()
                .map_err(str::to_string)
        })
        .collect()
}

/// Shows how many positions are done and the time left on stderr until all are: a line
/// rewritten in place on a terminal, else a line every ten seconds.
fn progress(done: &AtomicUsize, failed: &AtomicBool, total: usize, started: Instant) {
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal {
        Duration::from_millis(250)
    } else {
        Duration::from_secs(10)
    };
    let mut last = Instant::now();
    let mut shown = false;
    loop {
        let d = done.load(Ordering::SeqCst);
        if d >= total || failed.load(Ordering::SeqCst) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        if last.elapsed() < every {
            continue;
        }
        last = Instant::now();
        let elapsed = started.elapsed().as_secs_f64();
        let left = if d == 0 {
            "?".to_string()
        } else {
            format!("{:.0}", elapsed / d as f64 * (total - d) as f64)
        };
        let line = format!(
            "analysed {d} of {total} positions ({}%), {elapsed:.0} s, about {left} s left",
            d * 100 / total.max(1)
        );
        if terminal {
            eprint!("\r{line}   ");
            shown = true;
        } else {
            eprintln!("{line}");
        }
    }
    if shown {
        eprintln!();
    }
}

/// The limits in words: `depth 8`, `100000 nodes`, `100 ms`.
fn describe_limits(limits: &Limits) -> String {
    match (limits.depth, limits.nodes, limits.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(t)) => format!("{t} ms"),
        _ => "no limit".to_string(),
    }
}

/// The move `mv` in OpenTafl's full notation, played on `board`.
fn full(board: &Board, rules: &Rules, mv: Move) -> String {
    let mut b = *board;
    full_move(mv, &notation::play(&mut b, rules, mv))
}

/// A line of moves from `board` in OpenTafl's notation.
fn line_text(board: &Board, rules: &Rules, line: &[Move], max: usize) -> String {
    let mut b = *board;
    let mut words = Vec::new();
    for &mv in line.iter().take(max) {
        if b.check_move(rules, mv).is_err() {
            break;
        }
        words.push(full_move(mv, &notation::play(&mut b, rules, mv)));
    }
    if line.len() > max {
        words.push("...".to_string());
    }
    words.join(" ")
}

fn percent(chances: &review::Chances) -> String {
    format!("{:.0}%", chances.expected() * 100.0)
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Attackers => "att",
        Side::Defenders => "def",
    }
}

fn summary_line(side: Side, s: &SideSummary) -> String {
    let accuracy = s.accuracy.map_or("-".to_string(), |a| format!("{a:.1}"));
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|&v| format!("{v} {}", s.count(v)))
        .collect();
    let moves = if s.moves == 1 { "move" } else { "moves" };
    format!(
        "{:<9}  accuracy {accuracy:>5} over {} {moves}: {}",
        side.name(),
        s.moves,
        counts.join(", ")
    )
}

/// The review as tables, one per game.
fn tables(inputs: &[Input], games: &[Vec<Game>], reviews: &[Review], limits: &Limits) -> String {
    let mut s = String::new();
    for (k, ((input, positions), r)) in inputs.iter().zip(games).zip(reviews).enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let last = positions.last().expect("a game has a position");
        let status = last.status();
        let _ = writeln!(s, "Review of {}", input.label);
        let _ = writeln!(s, "rules:  {}", input.rules);
        let _ = writeln!(s, "start:  {}", input.start.to_fen());
        let _ = writeln!(
            s,
            "result: {} after {} moves; {} per position",
            if status.is_over() {
                status.to_string()
            } else {
                format!("none yet (last position {} for its side to move)", r.last)
            },
            input.moves.len(),
            describe_limits(limits)
        );
        s.push('\n');
        let _ = writeln!(s, "{:37}{:^13} {:^13}", "", "evaluation", "expected");
        let _ = writeln!(
            s,
            "{:>4} {:<4} {:<14} {:<11} {:>6} {:>6} {:>6} {:>6} {:>5}  {:<14} line",
            "#", "side", "move", "verdict", "before", "after", "before", "after", "drop", "best"
        );
        for m in &r.moves {
            s.push_str(&row(&positions[m.number - 1], m));
        }
        s.push('\n');
        for side in Side::BOTH {
            let _ = writeln!(s, "{}", summary_line(side, r.side(side)));
        }
    }
    s
}

fn row(before: &Game, m: &MoveReview) -> String {
    let board = before.board();
    let rules = before.rules();
    let best = m.best.map_or("-".to_string(), |b| full(board, rules, b));
    format!(
        "{:>4} {:<4} {:<14} {:<11} {:>6} {:>6} {:>6} {:>6} {:>5.1}  {:<14} {}\n",
        m.number,
        side_word(m.side),
        full(board, rules, m.played),
        m.verdict.name(),
        m.before.to_string(),
        m.after.to_string(),
        percent(&m.chances_before),
        percent(&m.chances_after),
        m.drop,
        best,
        line_text(board, rules, &m.line, 6)
    )
}

/// The comment `konakis analyse --annotate` writes after a move.
fn comment(before: &Game, m: &MoveReview) -> String {
    let board = before.board();
    let rules = before.rules();
    let mut c = format!(
        "{} ({} to {}, expected {} to {}",
        m.verdict,
        m.before,
        m.after,
        percent(&m.chances_before),
        percent(&m.chances_after)
    );
    if m.verdict != Verdict::Best
        && let Some(best) = m.best
    {
        let _ = write!(
            c,
            "; best {}, line {}",
            full(board, rules, best),
            line_text(board, rules, &m.line, 6)
        );
    }
    c.push(')');
    c
}

/// One game's record with the review's comments.
fn annotated(input: &Input, positions: &[Game], r: &Review, limits: &Limits) -> String {
    let annotator = format!("Konakis analyse, {} per position", describe_limits(limits));
    let mut tags: Vec<Tag> = input
        .tags
        .iter()
        .filter(|(k, _)| k != "annotator")
        .map(|(k, v)| Tag::Text(k, v))
        .collect();
    if input.tags.is_empty() {
        tags.extend([Tag::Rules, Tag::KonakisRules, Tag::Start]);
    }
    tags.push(Tag::Text("annotator", &annotator));
    let comments: Vec<String> = r
        .moves
        .iter()
        .map(|m| comment(&positions[m.number - 1], m))
        .collect();
    write_commented_record(&input.start, &input.rules, &input.moves, &tags, &comments)
}

/// The review as JSON (docs/review.md lists the fields).
fn json(
    inputs: &[Input],
    games: &[Vec<Game>],
    reviews: &[Review],
    config: &review::ReviewConfig,
) -> String {
    let reviewed: Vec<ReviewedGame> = inputs
        .iter()
        .zip(games)
        .zip(reviews)
        .map(|((input, positions), r)| ReviewedGame {
            label: Some(&input.label),
            rules: &input.rules,
            start: &input.start,
            positions,
            review: r,
        })
        .collect();
    review_json(&reviewed, config, true)
}
