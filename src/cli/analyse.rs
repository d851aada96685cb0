//! `konakis analyse`: a review of every move of one or more games (docs/review.md). The
//! review itself is [`Engine::review`] (the one review loop of [`konakis::review`]); this reads
//! the games, asks for their review with progress on stderr, and prints a table, JSON or an
//! annotated record.

use super::EvalArgs;
use clap::{ArgGroup, Args};
use konakis::board::{Board, BoardOf, GameOf};
use konakis::network::LoadedNet;
use konakis::opentafl::notation::{self, full_move};
use konakis::opentafl::otg::{Tag, parse_otg, record_board, replay, write_commented_record};
use konakis::prelude::Options;
use konakis::review::{self, MoveReview, Review, SideSummary, Thresholds, Verdict};
use konakis::rules::{BoardSize, Rules, VARIANTS, Variant};
use konakis::search::{Cancel, Limits, MAX_HASH_MIB, Settings};
use konakis::types::{MoveOf, Side};
use konakis::wdl;
use konakis::{Engine, ReviewedGame, review_json};
use konakis_engine::{BoardTask, Playable, on_board};
use konakis_protocols::review::rules_text;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
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
                        --moves \"d1d3 e4d4 e1e3\" --rules KingCapture=English\n  konakis \
                        analyse --position startpos --moves \"h1h3 f4h4\" --variant \
                        copenhagen-11\n\nThe verdicts, the accuracy and the JSON fields are \
                        described in docs/review.md."
)]
pub struct AnalyseArgs {
    /// An OpenTafl `.otg` record: one game, or several one after another as `konakis match
    /// --records` writes them. Its rules and its board come from the record (the board of
    /// its first game's rules string).
    #[arg(required_unless_present = "position",
          conflicts_with_all = ["position", "moves", "rules", "variant"])]
    pub file: Option<PathBuf>,
    /// Instead of a record: the start, `startpos` or a position string (on the board of
    /// --variant).
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
    /// With --position: a game of the tafl family instead of Tablut's rules, a preset of
    /// docs/rules.md ("Presets of the tafl family", e.g. copenhagen-11,
    /// hnefatafl.org-brandubh-7), on its board; `startpos` is its start.
    #[arg(
        long,
        value_name = "ID",
        requires = "position",
        conflicts_with = "rules"
    )]
    pub variant: Option<String>,
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

/// One game to review, on the board `G`.
struct Input<G: Playable> {
    /// Its name in messages and headings.
    label: String,
    rules: Rules,
    start: BoardOf<G>,
    moves: Vec<MoveOf<G>>,
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
    let (size, source) = read_source(&args)?;
    on_board(size, Analysis { args, source })
}

/// Where the games come from: the text of a record, or a variant (`None`: Tablut's rules
/// and --rules) for --position.
enum Source {
    Record(String),
    Position(Option<&'static Variant>),
}

/// The board of the games and where they come from: the record read (its first game's
/// rules string names the board), or --variant's board.
fn read_source(args: &AnalyseArgs) -> Result<(BoardSize, Source), String> {
    let Some(path) = &args.file else {
        let Some(id) = &args.variant else {
            return Ok((BoardSize::Nine, Source::Position(None)));
        };
        let variant = Variant::find(id).ok_or_else(|| {
            let ids: Vec<&str> = VARIANTS.iter().map(|v| v.id).collect();
            format!(
                "--variant: no variant '{id}' (variants: {})",
                ids.join(", ")
            )
        })?;
        return Ok((variant.size, Source::Position(Some(variant))));
    };
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let size = record_board(&text)
        .map_err(|side| format!("{name}: a {side}x{side} board, which Konakis does not play"))?;
    Ok((size, Source::Record(text)))
}

/// `konakis analyse` on the board of its games.
struct Analysis {
    args: AnalyseArgs,
    source: Source,
}

impl BoardTask for Analysis {
    type Output = Result<(), String>;

    fn run<G: Playable>(self) -> Result<(), String> {
        let Analysis { args, source } = self;
        let inputs = read_inputs::<G>(&args, &source)?;
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
        let (reviews, config) = review_all(&args, &games, &limits, network)?;
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
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// The games of the record, or the one of --position and --moves, on the board `G`.
fn read_inputs<G: Playable>(args: &AnalyseArgs, source: &Source) -> Result<Vec<Input<G>>, String> {
    let text = match source {
        Source::Record(text) => text,
        Source::Position(variant) => return position_input(args, *variant).map(|i| vec![i]),
    };
    let name = args.file.as_deref().unwrap_or(Path::new("-")).display();
    let records = parse_otg::<G>(text).map_err(|e| format!("{name}: {e}"))?;
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

/// The game of --position and --moves: under `variant`'s rules from its start, or Tablut's
/// rules with --rules.
fn position_input<G: Playable>(
    args: &AnalyseArgs,
    variant: Option<&Variant>,
) -> Result<Input<G>, String> {
    let mut rules = variant.map_or_else(Rules::default, Variant::rules);
    for pair in &args.rules {
        rules.set_pair(pair).map_err(|e| format!("--rules: {e}"))?;
    }
    let fen = match args.position.as_deref().map(str::trim) {
        None | Some("startpos") => {
            variant.map_or_else(|| Board::start(&rules).to_fen(), Variant::start_fen)
        }
        Some(fen) => fen.to_string(),
    };
    let start = BoardOf::<G>::from_fen(&fen).map_err(|e| format!("--position: {e}"))?;
    let mut moves = Vec::new();
    for (i, text) in args
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        // The protocol's `d1d3` (or `d1-d3`), else OpenTafl's full notation (`Ke5-f5xf4`).
        let mv = match MoveOf::<G>::parse(text) {
            Ok(mv) => mv,
            Err(e) => {
                notation::parse_move::<G>(text)
                    .map_err(|_| format!("--moves: move {} ({text}): {e}", i + 1))?
                    .mv
            }
        };
        moves.push(mv);
    }
    Ok(Input {
        label: "the game".to_string(),
        rules,
        start,
        moves,
        tags: Vec::new(),
    })
}

/// Reviews every game with the one review loop ([`Engine::review`]), `--concurrency`
/// positions at a time, each search on one thread, with progress on stderr.
fn review_all<G: Playable>(
    args: &AnalyseArgs,
    games: &[Vec<GameOf<G>>],
    limits: &Limits<G>,
    network: Option<LoadedNet>,
) -> Result<(Vec<Review<G>>, review::ReviewConfig<G>), String> {
    let total: usize = games.iter().map(Vec::len).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = review::ReviewConfig {
        limits: limits.clone(),
        thresholds: args.thresholds,
        concurrency: args
            .concurrency
            .map_or(cores, |n| n as usize)
            .clamp(1, total.max(1)),
    };
    let settings = Settings {
        threads: 1,
        hash_mib: args.hash_mib as usize,
        multipv: 1,
        // The whole time of a position goes to its search: nothing is sent anywhere.
        move_overhead_ms: 0,
        eval: args.evaluation.eval,
        ..Settings::default()
    };
    let mut engine = Engine::<G>::with_options(Options {
        settings,
        ..Options::default()
    })
    .map_err(|e| e.to_string())?;
    engine.set_network(network).map_err(|e| e.to_string())?;
    let mut progress = Progress::new(!args.quiet);
    let reviews = engine.review(games, &config, Cancel::Never, |done, total| {
        progress.show(done, total)
    });
    progress.finish();
    Ok((reviews.map_err(|e| e.to_string())?, config))
}

/// Shows how many positions are done and the time left on stderr until all are: a line
/// rewritten in place on a terminal (at most every quarter second), else a line every ten
/// seconds.
struct Progress {
    /// Whether to show anything (not with `--quiet`).
    on: bool,
    terminal: bool,
    every: Duration,
    started: Instant,
    last: Instant,
    /// Whether a line rewritten in place is on the terminal.
    shown: bool,
}

impl Progress {
    fn new(on: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress {
            on,
            terminal,
            every: if terminal {
                Duration::from_millis(250)
            } else {
                Duration::from_secs(10)
            },
            started: Instant::now(),
            last: Instant::now(),
            shown: false,
        }
    }

    /// `done` of `total` positions are analysed.
    fn show(&mut self, done: usize, total: usize) {
        if !self.on || done >= total || self.last.elapsed() < self.every {
            return;
        }
        self.last = Instant::now();
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = elapsed / done.max(1) as f64 * (total - done) as f64;
        let line = format!(
            "analysed {done} of {total} positions ({}%), {elapsed:.0} s, about {left:.0} s left",
            done * 100 / total.max(1)
        );
        if self.terminal {
            eprint!("\r{line}   ");
            self.shown = true;
        } else {
            eprintln!("{line}");
        }
    }

    /// Ends the line rewritten in place, if any.
    fn finish(&self) {
        if self.shown {
            eprintln!();
        }
    }
}

/// The limits in words: `depth 8`, `100000 nodes`, `100 ms`.
fn describe_limits<G: Playable>(limits: &Limits<G>) -> String {
    match (limits.depth, limits.nodes, limits.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(t)) => format!("{t} ms"),
        _ => "no limit".to_string(),
    }
}

/// The move `mv` in OpenTafl's full notation, played on `board`.
fn full<G: Playable>(board: &BoardOf<G>, rules: &Rules, mv: MoveOf<G>) -> String {
    let mut b = *board;
    full_move(mv, &notation::play(&mut b, rules, mv))
}

/// A line of moves from `board` in OpenTafl's notation.
fn line_text<G: Playable>(
    board: &BoardOf<G>,
    rules: &Rules,
    line: &[MoveOf<G>],
    max: usize,
) -> String {
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

/// The expected score of `chances` in percent; `-` where the win chances are not modelled.
fn percent(chances: Option<&review::Chances>) -> String {
    chances.map_or("-".to_string(), |c| format!("{:.0}%", c.expected() * 100.0))
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
fn tables<G: Playable>(
    inputs: &[Input<G>],
    games: &[Vec<GameOf<G>>],
    reviews: &[Review<G>],
    limits: &Limits<G>,
) -> String {
    let mut s = String::new();
    for (k, ((input, positions), r)) in inputs.iter().zip(games).zip(reviews).enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let last = positions.last().expect("a game has a position");
        let status = last.status();
        let _ = writeln!(s, "Review of {}", input.label);
        let _ = writeln!(s, "rules:  {}", rules_text(&input.rules, &input.start));
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
        if !wdl::modelled::<G>(&input.rules) {
            let _ = writeln!(
                s,
                "chances: not modelled for these rules; the drops are the scores' \
                 (docs/review.md, \"Without win chances\")"
            );
        }
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

fn row<G: Playable>(before: &GameOf<G>, m: &MoveReview<G>) -> String {
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
        percent(m.chances_before.as_ref()),
        percent(m.chances_after.as_ref()),
        m.drop,
        best,
        line_text(board, rules, &m.line, 6)
    )
}

/// The comment `konakis analyse --annotate` writes after a move.
fn comment<G: Playable>(before: &GameOf<G>, m: &MoveReview<G>) -> String {
    let board = before.board();
    let rules = before.rules();
    let mut c = format!("{} ({} to {}", m.verdict, m.before, m.after);
    if let (Some(b), Some(a)) = (&m.chances_before, &m.chances_after) {
        let _ = write!(c, ", expected {} to {}", percent(Some(b)), percent(Some(a)));
    }
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
fn annotated<G: Playable>(
    input: &Input<G>,
    positions: &[GameOf<G>],
    r: &Review<G>,
    limits: &Limits<G>,
) -> String {
    let annotator = format!("Konakis analyse, {} per position", describe_limits(limits));
    let mut tags: Vec<Tag> = input
        .tags
        .iter()
        .filter(|(k, _)| k != "annotator")
        .map(|(k, v)| Tag::Text(k, v))
        .collect();
    if input.tags.is_empty() {
        // The rule options do not name every setting of the family's rules: their games
        // are read back from the rules string alone.
        tags.push(Tag::Rules);
        if !input.rules.family_rules() {
            tags.extend([Tag::KonakisRules, Tag::Start]);
        }
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
fn json<G: Playable>(
    inputs: &[Input<G>],
    games: &[Vec<GameOf<G>>],
    reviews: &[Review<G>],
    config: &review::ReviewConfig<G>,
) -> String {
    let reviewed: Vec<ReviewedGame<G>> = inputs
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
