//! The engines of a match: `--engine` and `--each` groups merged into checked [`EngineSpec`]s.

use super::time::{MoveLimits, TimeControl, default_margin_ms, parse_seconds};
use crate::matches::error::ConfigError;
use std::path::{Path, PathBuf};

/// The protocol an engine speaks (`proto=` on `--engine`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Proto {
    /// Konakis' UCI-like line protocol (protocol.md).
    #[default]
    Uci,
    /// The OpenTafl Engine Protocol (protocol.md's last section; `konakis otep`).
    Otep,
    /// A Tablut Challenge agent: the runner plays the server's part (challenge.rs).
    TablutChallenge,
}

impl Proto {
    /// The names `proto=` accepts, in the order `--help` lists them.
    pub const NAMES: &'static [&'static str] = &["uci", "otep", "tablut-challenge"];

    /// Parses a `proto=` value (case-insensitive).
    pub fn parse(text: &str) -> Option<Proto> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Some(Proto::Uci),
            "otep" => Some(Proto::Otep),
            "tablut-challenge" => Some(Proto::TablutChallenge),
            _ => None,
        }
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
    pub limits: MoveLimits,
    /// The protocol it speaks.
    pub proto: Proto,
    /// OTEP engines only (`settle=MS`; 0 = off): after its move, the engine hears nothing
    /// more until it has written nothing for this many milliseconds (at most
    /// [`SETTLE_LIMIT_FACTOR`] times as long after its move line). The wait runs on no clock.
    pub settle_ms: u64,
}

/// The quiet time an OTEP engine gets after its move unless `settle=` says otherwise.
/// OpenTafl 0.4.8's AI writes its move, then plays it on its own board and prints about ten
/// `status` lines of statistics from the finished search; a `play` that arrives before it is
/// done makes it die of a NullPointerException or play on a wrong board. Over 478 of its moves
/// at `st=1` on two loaded cores (load average 4 to 10), its last line came at most 25 ms after
/// the move, so 100 ms leaves four times that. The wait overlaps the opponent's thinking: it costs
/// time only when the opponent answers in less than this.
pub const DEFAULT_OTEP_SETTLE_MS: u64 = 100;

/// The longest `settle=` accepted, in milliseconds.
pub const MAX_SETTLE_MS: u64 = 5_000;

/// However chatty the engine, the wait after its move ends this many times `settle=` after
/// its move line.
pub const SETTLE_LIMIT_FACTOR: u32 = 10;

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
    settle_ms: Option<u64>,
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
                "settle" => {
                    let ms = value.parse::<u64>().ok().filter(|&ms| ms <= MAX_SETTLE_MS);
                    e.settle_ms = Some(ms.ok_or_else(|| {
                        bad(&format!("expected milliseconds from 0 to {MAX_SETTLE_MS}"))
                    })?);
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
                         option.<Name>, proto, tc, st, depth, nodes, timemargin, settle)"
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
        self.settle_ms = self.settle_ms.or(each.settle_ms);
    }
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

/// The engines of the match from the `--engine` groups, gaps filled from the `--each` groups;
/// every engine needs a command and a limit, and names are made unique.
pub(super) fn engines(
    groups: &[Vec<String>],
    each_groups: &[Vec<String>],
) -> Result<Vec<EngineSpec>, ConfigError> {
    let mut each = PartialEngine::default();
    for group in each_groups {
        let part = PartialEngine::parse(group, "--each").map_err(ConfigError::Each)?;
        if part.name.is_some() {
            return Err(ConfigError::Each(
                "--each: name= must be given per engine".into(),
            ));
        }
        let mut merged = part;
        merged.fill_from(&each);
        each = merged;
    }
    if groups.len() < 2 {
        return Err(ConfigError::TooFewEngines(groups.len()));
    }
    let mut engines: Vec<EngineSpec> = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let flag = format!("--engine #{}", i + 1);
        let error = |message: String| ConfigError::Engine { index: i, message };
        let mut e = PartialEngine::parse(group, &flag).map_err(error)?;
        e.fill_from(&each);
        let cmd = e
            .cmd
            .clone()
            .ok_or_else(|| error(format!("{flag}: no cmd= (the engine's program)")))?;
        let dir = e.dir.as_ref().map(PathBuf::from);
        let name = e.name.clone().unwrap_or_else(|| {
            Path::new(&cmd)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("engine{}", i + 1))
        });
        let limits = MoveLimits {
            tc: e.tc,
            st_ms: e.st_ms,
            depth: e.depth,
            nodes: e.nodes,
            margin_ms: e
                .margin_ms
                .unwrap_or_else(|| default_margin_ms(e.tc, e.st_ms)),
        };
        if limits.tc.is_none()
            && limits.st_ms.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
        {
            return Err(error(format!(
                "{flag} ({name}): no limit; give tc=, st=, depth= or nodes= (or put it in \
                 --each)"
            )));
        }
        let proto = e.proto.unwrap_or_default();
        let settle_ms = match (proto, e.settle_ms) {
            (Proto::Otep, ms) => ms.unwrap_or(DEFAULT_OTEP_SETTLE_MS),
            (_, None) => 0,
            (_, Some(_)) => {
                return Err(error(format!(
                    "{flag} ({name}): settle= is for OTEP engines (proto=otep) only; give it \
                     on that engine's --engine, not in --each"
                )));
            }
        };
        engines.push(EngineSpec {
            name,
            cmd: resolve_cmd(&cmd, dir.as_deref()),
            args: e.args.clone(),
            dir,
            options: e.options.clone(),
            limits,
            proto,
            settle_ms,
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
    Ok(engines)
}
