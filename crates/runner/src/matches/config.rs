//! The match settings: the raw `key=value` groups of the command line turned into typed,
//! checked values, and the openings file. Every mistake is reported here, before any game.

use super::options::MatchOptions;
use super::player::Proto;
use super::stats::Sprt;
use konakis_core::board::Game;
use konakis_core::rules::Rules;
use konakis_core::types::Move;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| format!("bad time control '{text}': {why} (e.g. 10+0.1 or 40/60)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| bad("moves before '/' must be a number"))?;
                if m == 0 {
                    return Err(bad("moves per period must be at least 1"));
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
                let min: u64 = min.parse().map_err(|_| bad("minutes must be a number"))?;
                let sec = parse_seconds(sec).ok_or_else(|| bad("bad seconds"))?;
                min * 60_000 + sec
            }
            None => parse_seconds(base).ok_or_else(|| bad("the time must be seconds"))?,
        };
        if base_ms == 0 {
            return Err(bad("the time must be positive"));
        }
        let inc_ms = match inc {
            Some(i) => parse_seconds(i).ok_or_else(|| bad("the increment must be seconds"))?,
            None => 0,
        };
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
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
fn parse_seconds(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..1e9).contains(&s)).then(|| (s * 1000.0).round() as u64)
}

/// How an engine's moves are limited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
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

impl Limits {
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

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in tables and records (unique in the match).
    pub name: String,
    /// The program to start.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
    /// Its limits.
    pub limits: Limits,
    /// The protocol it speaks.
    pub proto: Proto,
}

/// The order in which openings are taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpeningOrder {
    /// Line after line, from `start`.
    Sequential,
    /// A shuffle of the whole file (reshuffled each time it is used up), from the seed.
    Random,
}

/// A start position for a pair of games.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The line as written in the file (or `startpos`).
    pub text: String,
    /// The position string it starts from; `None` = the start position.
    pub fen: Option<String>,
    /// The moves played from there.
    pub moves: Vec<Move>,
    /// The game after those moves, under the match rules.
    pub game: Game,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos(rules: Rules) -> Opening {
        Opening {
            text: "startpos".into(),
            fen: None,
            moves: Vec::new(),
            game: Game::start(rules),
        }
    }

    /// Parses one openings-file line: `startpos [moves …]`, `[fen] <placement> <side> [plies]
    /// [moves …]`, optionally after `position`. The moves are checked with `rules`, and the
    /// game must still be going on after them.
    pub fn parse(line: &str, rules: Rules) -> Result<Opening, String> {
        let text = line.trim();
        let mut tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.first() == Some(&"position") {
            tokens.remove(0);
        }
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&tokens[..i], &tokens[i + 1..]),
            None => (&tokens[..], &[][..]),
        };
        let fen = match head {
            [] => return Err("empty position (expected startpos or a position string)".into()),
            ["startpos"] => None,
            ["fen", rest @ ..] | rest => Some(rest.join(" ")),
        };
        let game = Game::from_moves(rules, fen.as_deref(), moves.iter().copied())
            .map_err(|e| e.to_string())?;
        if game.status().is_over() {
            return Err(format!("the game is already over ({})", game.status()));
        }
        Ok(Opening {
            text: text.to_string(),
            fen: fen.map(|_| game.start_board().to_fen()),
            moves: game.moves().to_vec(),
            game,
        })
    }

    /// The protocol's `position …` command for this opening followed by `extra` moves.
    pub fn position_command(&self, extra: &[Move]) -> String {
        let mut cmd = match &self.fen {
            None => String::from("position startpos"),
            Some(fen) => format!("position fen {fen}"),
        };
        if !self.moves.is_empty() || !extra.is_empty() {
            cmd.push_str(" moves");
            for m in self.moves.iter().chain(extra) {
                cmd.push(' ');
                cmd.push_str(&m.to_string());
            }
        }
        cmd
    }
}

/// Reads an openings file: one opening per line; blank lines and lines starting with `#` are
/// skipped. Errors name the line.
pub fn load_openings(path: &Path, rules: Rules) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let o = Opening::parse(t, rules)
            .map_err(|e| format!("{}:{}: bad opening '{t}': {e}", path.display(), i + 1))?;
        openings.push(o);
    }
    if openings.is_empty() {
        return Err(format!("openings file {} has no openings", path.display()));
    }
    Ok(openings)
}

/// Resignation adjudication: a side whose engine reports at most `-score` centi-soldiers for
/// `movecount` moves in a row loses (with `twosided`, only if the opponent agrees).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Resign {
    /// Consecutive moves.
    pub movecount: u32,
    /// Score threshold in centi-soldiers (positive).
    pub score: i32,
    /// The winner's engine must report at least `score` for those moves too.
    pub twosided: bool,
}

/// Draw adjudication: from move `movenumber` on, when both engines report scores within
/// `score` of zero for `movecount` moves each in a row, the game is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawAdjudication {
    /// The first full move (1 = the first two plies) at which it may apply.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Score threshold in centi-soldiers.
    pub score: i32,
}

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct Config {
    /// Two or more engines.
    pub engines: Vec<EngineSpec>,
    /// The first engine plays each of the others (instead of everyone playing everyone).
    pub gauntlet: bool,
    /// Games per pairing (even: each opening twice).
    pub games_per_pairing: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings file, order and first line.
    pub openings: Option<(PathBuf, OpeningOrder, usize)>,
    /// Seed of the random opening order.
    pub seed: u64,
    /// Whether the seed was chosen by the runner (and should be printed).
    pub seed_chosen: bool,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// The rules the referee applies and sends.
    pub rules: Rules,
    /// `.otg` records file.
    pub records: Option<PathBuf>,
    /// JSON summary file.
    pub json: Option<PathBuf>,
    /// Resignation adjudication.
    pub resign: Option<Resign>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// A draw is adjudicated once each side has played this many moves since the opening.
    pub maxmoves: Option<u32>,
    /// Hard limit for start-up and `isready`.
    pub startup_timeout: Duration,
    /// Hard limit for a move without a clock or fixed move time.
    pub move_timeout: Duration,
    /// Log of every line exchanged with the engines.
    pub log: Option<PathBuf>,
}

/// An engine's settings before `--each` fills the gaps.
#[derive(Clone, Debug, Default)]
struct PartialEngine {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    options: Vec<(String, String)>,
    tc: Option<TimeControl>,
    st_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    margin_ms: Option<u64>,
    proto: Option<Proto>,
}

impl PartialEngine {
    fn parse(pairs: &[String], flag: &str) -> Result<PartialEngine, String> {
        let mut e = PartialEngine::default();
        for pair in pairs {
            let (key, value) = pair.split_once('=').ok_or_else(|| {
                format!(
                    "{flag}: '{pair}' is not a setting (expected key=value, e.g. cmd=./konakis)"
                )
            })?;
            let bad = |what: &str| format!("{flag}: bad {key} '{value}': {what}");
            match key {
                "name" if !value.is_empty() => e.name = Some(value.to_string()),
                "cmd" if !value.is_empty() => e.cmd = Some(value.to_string()),
                "arg" => e.args.push(value.to_string()),
                "dir" if !value.is_empty() => e.dir = Some(value.to_string()),
                "tc" => e.tc = Some(TimeControl::parse(value).map_err(|m| format!("{flag}: {m}"))?),
                "st" => {
                    let ms = parse_seconds(value).filter(|&ms| ms > 0);
                    e.st_ms = Some(ms.ok_or_else(|| bad("expected seconds per move"))?);
                }
                "depth" => {
                    let d = value.parse::<u32>().ok().filter(|&d| d > 0);
                    e.depth = Some(d.ok_or_else(|| bad("expected a depth of at least 1"))?);
                }
                "nodes" => {
                    let n = value.parse::<u64>().ok().filter(|&n| n > 0);
                    e.nodes = Some(n.ok_or_else(|| bad("expected a positive node count"))?);
                }
                "proto" => {
                    let names = Proto::NAMES.join(", ");
                    e.proto =
                        Some(Proto::parse(value).ok_or_else(|| bad(&format!("one of {names}")))?);
                }
                "timemargin" => {
                    e.margin_ms = Some(value.parse().map_err(|_| bad("expected milliseconds"))?);
                }
                k if k.starts_with("option.") && k.len() > "option.".len() => {
                    let name = k["option.".len()..].to_string();
                    e.options.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                    e.options.push((name, value.to_string()));
                }
                "name" | "cmd" | "dir" => return Err(bad("must not be empty")),
                _ => {
                    return Err(format!(
                        "{flag}: unknown setting '{key}' (known: name, cmd, arg, dir, \
                         option.<Name>, proto, tc, st, depth, nodes, timemargin)"
                    ));
                }
            }
        }
        Ok(e)
    }

    /// Fills what this engine does not set from `each`.
    fn fill_from(&mut self, each: &PartialEngine) {
        self.cmd = self.cmd.take().or_else(|| each.cmd.clone());
        self.args.extend(each.args.iter().cloned());
        self.dir = self.dir.take().or_else(|| each.dir.clone());
        for (n, v) in &each.options {
            if !self.options.iter().any(|(m, _)| m.eq_ignore_ascii_case(n)) {
                self.options.push((n.clone(), v.clone()));
            }
        }
        self.tc = self.tc.or(each.tc);
        self.st_ms = self.st_ms.or(each.st_ms);
        self.depth = self.depth.or(each.depth);
        self.nodes = self.nodes.or(each.nodes);
        self.margin_ms = self.margin_ms.or(each.margin_ms);
        self.proto = self.proto.or(each.proto);
    }
}

/// Parses `key=value` pairs into a map-like list, rejecting unknown keys.
fn key_values<'a>(
    flag: &str,
    pairs: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    pairs
        .iter()
        .map(|p| {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| format!("{flag}: '{p}' is not a setting (expected key=value)"))?;
            if !known.contains(&k) {
                return Err(format!(
                    "{flag}: unknown setting '{k}' (known: {})",
                    known.join(", ")
                ));
            }
            Ok((k, v))
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: bad {key} '{value}' (expected a number)"))
}

/// Resolves the command: a relative path with a `/` is taken from `dir` when given, else from
/// the current directory; a bare name is looked up on `PATH` when the engine starts.
fn resolve_cmd(cmd: &str, dir: Option<&Path>) -> PathBuf {
    let p = PathBuf::from(cmd);
    if p.is_absolute() || !cmd.contains('/') {
        return p;
    }
    let joined = match dir {
        Some(d) => d.join(&p),
        None => p.clone(),
    };
    std::path::absolute(&joined).unwrap_or(joined)
}

impl Config {
    /// Checks the command line. Engines are not started here.
    pub fn from_args(args: &MatchOptions) -> Result<Config, String> {
        let mut rules = Rules::default();
        for pair in &args.rules {
            rules.set_pair(pair).map_err(|e| format!("--rules: {e}"))?;
        }

        let mut each = PartialEngine::default();
        for group in &args.each {
            let part = PartialEngine::parse(group, "--each")?;
            if part.name.is_some() {
                return Err("--each: name= must be given per engine".into());
            }
            let mut merged = part;
            merged.fill_from(&each);
            each = merged;
        }
        if args.engines.len() < 2 {
            return Err(format!(
                "a match needs at least two engines (got {}); give --engine name=… cmd=… for \
                 each (the same cmd twice for a self-play balance study)",
                args.engines.len()
            ));
        }
        let mut engines: Vec<EngineSpec> = Vec::new();
        for (i, group) in args.engines.iter().enumerate() {
            let flag = format!("--engine #{}", i + 1);
            let mut e = PartialEngine::parse(group, &flag)?;
            e.fill_from(&each);
            let cmd = e
                .cmd
                .clone()
                .ok_or_else(|| format!("{flag}: no cmd= (the engine's program)"))?;
            let dir = e.dir.as_ref().map(PathBuf::from);
            let name = e.name.clone().unwrap_or_else(|| {
                Path::new(&cmd)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| format!("engine{}", i + 1))
            });
            let limits = Limits {
                tc: e.tc,
                st_ms: e.st_ms,
                depth: e.depth,
                nodes: e.nodes,
                margin_ms: e.margin_ms.unwrap_or(0),
            };
            if limits.tc.is_none()
                && limits.st_ms.is_none()
                && limits.depth.is_none()
                && limits.nodes.is_none()
            {
                return Err(format!(
                    "{flag} ({name}): no limit; give tc=, st=, depth= or nodes= (or put it in \
                     --each)"
                ));
            }
            engines.push(EngineSpec {
                name,
                cmd: resolve_cmd(&cmd, dir.as_deref()),
                args: e.args.clone(),
                dir,
                options: e.options.clone(),
                limits,
                proto: e.proto.unwrap_or_default(),
            });
        }
        // Names must be unique: a repeated default name gets a number.
        for i in 0..engines.len() {
            let base = engines[i].name.clone();
            let mut n = 2;
            while engines[..i].iter().any(|e| e.name == engines[i].name) {
                engines[i].name = format!("{base}-{n}");
                n += 1;
            }
        }

        let games_per_pairing = match (args.games, args.rounds) {
            (Some(_), Some(_)) => {
                return Err("give --games or --rounds, not both (--rounds N = --games 2N)".into());
            }
            (Some(0), _) | (_, Some(0)) => return Err("--games must be at least 1".into()),
            (Some(g), None) => g as usize,
            (None, Some(r)) => 2 * r as usize,
            (None, None) => 2,
        };
        // Pairs are the unit of play and of the statistics.
        let games_per_pairing = games_per_pairing.div_ceil(2) * 2;
        if args.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }

        let (seed, seed_chosen) = match args.seed {
            Some(s) => (s, false),
            None => (
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64 % 1_000_000_000)
                    .unwrap_or(1),
                true,
            ),
        };
        let mut seed = seed;
        let mut seed_chosen = seed_chosen;
        let openings = match &args.openings {
            None => None,
            Some(items) => {
                let mut file = None;
                let mut order = OpeningOrder::Sequential;
                let mut start = 0usize;
                for item in items {
                    match item.split_once('=') {
                        Some(("file", f)) => file = Some(PathBuf::from(f)),
                        Some(("order", "random")) => order = OpeningOrder::Random,
                        Some(("order", "sequential")) => order = OpeningOrder::Sequential,
                        Some(("order", o)) => {
                            return Err(format!(
                                "--openings: bad order '{o}' (random or sequential)"
                            ));
                        }
                        Some(("seed", s)) => {
                            seed = number("--openings", "seed", s)?;
                            seed_chosen = false;
                        }
                        Some(("start", s)) => {
                            let s: usize = number("--openings", "start", s)?;
                            if s == 0 {
                                return Err("--openings: start= counts from 1".into());
                            }
                            start = s - 1;
                        }
                        Some((k, _)) if !Path::new(item).exists() => {
                            return Err(format!(
                                "--openings: unknown setting '{k}' (known: file, order, seed, \
                                 start)"
                            ));
                        }
                        _ if file.is_none() => file = Some(PathBuf::from(item)),
                        _ => return Err(format!("--openings: a second file '{item}'")),
                    }
                }
                let file = file.ok_or("--openings: no file given")?;
                Some((file, order, start))
            }
        };

        let sprt = match &args.sprt {
            None => None,
            Some(items) => {
                let kv = key_values("--sprt", items, &["elo0", "elo1", "alpha", "beta"])?;
                let get = |k: &str, default: Option<f64>| -> Result<f64, String> {
                    match kv.iter().find(|(key, _)| *key == k) {
                        Some((_, v)) => number("--sprt", k, v),
                        None => default.ok_or_else(|| format!("--sprt: {k}= is required")),
                    }
                };
                let s = Sprt {
                    elo0: get("elo0", None)?,
                    elo1: get("elo1", None)?,
                    alpha: get("alpha", Some(0.05))?,
                    beta: get("beta", Some(0.05))?,
                };
                if s.elo1 <= s.elo0 {
                    return Err("--sprt: elo1 must be greater than elo0".into());
                }
                if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
                    return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
                }
                if s.elo0.abs() >= 1000.0 || s.elo1.abs() >= 1000.0 {
                    return Err("--sprt: elo0 and elo1 must lie within ±1000".into());
                }
                let pairings = if args.gauntlet {
                    engines.len() - 1
                } else {
                    engines.len() * (engines.len() - 1) / 2
                };
                if pairings != 1 {
                    return Err("--sprt needs exactly two engines".into());
                }
                Some(s)
            }
        };

        let resign = match &args.resign {
            None => None,
            Some(items) => {
                let kv = key_values("--resign", items, &["movecount", "score", "twosided"])?;
                let mut r = Resign {
                    movecount: 3,
                    score: 1000,
                    twosided: false,
                };
                for (k, v) in kv {
                    match k {
                        "movecount" => r.movecount = number("--resign", k, v)?,
                        "score" => r.score = number("--resign", k, v)?,
                        _ => {
                            r.twosided = v.parse().map_err(|_| {
                                format!("--resign: twosided must be true or false, not '{v}'")
                            })?
                        }
                    }
                }
                if r.movecount == 0 || r.score <= 0 {
                    return Err("--resign: movecount and score must be positive".into());
                }
                Some(r)
            }
        };
        let draw = match &args.draw {
            None => None,
            Some(items) => {
                let kv = key_values("--draw", items, &["movenumber", "movecount", "score"])?;
                let mut d = DrawAdjudication {
                    movenumber: 40,
                    movecount: 8,
                    score: 10,
                };
                for (k, v) in kv {
                    match k {
                        "movenumber" => d.movenumber = number("--draw", k, v)?,
                        "movecount" => d.movecount = number("--draw", k, v)?,
                        _ => d.score = number("--draw", k, v)?,
                    }
                }
                if d.movecount == 0 || d.score < 0 {
                    return Err("--draw: movecount must be positive and score not negative".into());
                }
                Some(d)
            }
        };
        let secs = |flag: &str, s: f64| -> Result<Duration, String> {
            if s.is_finite() && s > 0.0 && s < 1e7 {
                Ok(Duration::from_secs_f64(s))
            } else {
                Err(format!("{flag} must be a positive number of seconds"))
            }
        };
        Ok(Config {
            engines,
            gauntlet: args.gauntlet,
            games_per_pairing,
            concurrency: args.concurrency,
            openings,
            seed,
            seed_chosen,
            sprt,
            rules,
            records: args.records.clone(),
            json: args.json.clone(),
            resign,
            draw,
            maxmoves: args.maxmoves,
            startup_timeout: secs("--startup-timeout", args.startup_timeout)?,
            move_timeout: secs("--move-timeout", args.move_timeout)?,
            log: args.log.clone(),
        })
    }

    /// The pairings as engine indices (first, second): everyone against everyone, or the first
    /// against each of the others.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        if self.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn openings_lines() {
        let r = Rules::default();
        let o = Opening::parse("startpos moves d1d3 d5d8", r).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.position_command(&[]), "position startpos moves d1d3 d5d8");
        let o = Opening::parse("position startpos", r).unwrap();
        assert_eq!(o.position_command(&[]), "position startpos");
        let fen = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";
        let o = Opening::parse(fen, r).unwrap();
        assert_eq!(o.position_command(&[]), format!("position fen {fen}"));
        let o = Opening::parse(&format!("fen {fen} moves e2d2"), r).unwrap();
        assert_eq!(o.moves.len(), 1);
        assert!(Opening::parse("startpos moves d1d9", r).is_err());
        assert!(Opening::parse("rubbish b", r).is_err());
        assert!(Opening::parse("", r).is_err());
        // A won position is no opening.
        assert!(Opening::parse("3bbb3/4b4/4w4/b3w3b/bbww1wwbb/b3w3b/4w4/4b4/K2bbb3 b", r).is_err());
    }
}
